"""Kernel tracing turned into a weapon or a load (shared by both analyzers: bpftrace programs through the shell
analyzer, BPF helpers and ftrace settings on the whole text).

Tracing is read-only by design, with three exceptions a reviewer must see:

* BPF helpers that change what a program reads or what a call returns (``bpf_probe_write_user``,
  ``bpf_override_return``): the kernel's own warning calls them unsafe; rootkits use them to rewrite
  ``/etc/sudoers`` as sudo reads it, or to hide files;
* probes attached to every kernel function at once (``kprobe:*``, ``fentry:*``): tens of thousands of probes
  slow the machine to a crawl or hang it;
* ftrace buffers of gigabytes per CPU with every event switched on: the kernel's memory goes to the trace;
* a debugger served on every interface (``gdbserver 0.0.0.0:2345``, or ``:2345``): whoever connects reads the
  process's memory and makes it run anything.

Probes on named functions, limited in time or to one process, and ordinary buffer sizes are routine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel

#: BPF helpers that write into a process's memory or replace a kernel function's result.
_WRITING_HELPERS = re.compile(r"\bbpf_(?:probe_write_user|override_return)\s*\(")
#: A probe on every function of the kernel (or of every tracepoint): `kprobe:*`, `fentry:*`, `tracepoint:*:*`.
_EVERY_FUNCTION = re.compile(r"(?:^|[\s'\"{,])(?:kprobe|kretprobe|kfunc|kretfunc|fentry|fexit|k|kr):\*(?=[\s,{/'\"]|$)"
                             r"|(?:^|[\s'\"{,])(?:tracepoint|t):\*:\*(?=[\s,{/'\"]|$)")  # fmt: skip
#: A number (or a product, `$((16 * 1024 * 1024))`) written into ftrace's per-CPU buffer size.
_BUFFER_SIZE = re.compile(
    r"(?:echo|printf)\s+[\"']?(?:\$\(\(\s*(?P<product>[\d\s*]+)\)\)|(?P<number>\d+))[\"']?\s*"
    r"(?:\|\s*(?:sudo\s+)?tee\s+(?:-a\s+)?|>\s*)\S*buffer_size_kb"
)
#: One gibibyte per CPU, in the kilobytes ftrace counts in.
_HUGE_BUFFER_KB = 1024 * 1024


def exposed_debugger(args: Sequence[str]) -> str | None:
    """The address a ``gdbserver`` with ``args`` listens on when that is every interface, else None."""
    for arg in args:
        host, colon, port = arg.rpartition(":")
        if colon and port.isdigit() and host in ("", "0.0.0.0", "*", "::", "[::]"):
            return arg
    return None


def every_function_probe(program: str) -> bool:
    """``program`` (a bpftrace program or probe list) attaches to every kernel function or tracepoint."""
    return _EVERY_FUNCTION.search(program) is not None


def tracing_text_risks(text: str) -> list[OperationRisk]:
    """BPF programs that rewrite memory or results, and ftrace given gigabytes per CPU, spelled in ``text``."""
    found: list[OperationRisk] = []
    if "bpf_" in text and _WRITING_HELPERS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "loads a BPF program that rewrites what processes read or what kernel calls "
                                   "return (a rootkit's technique: sudoers as sudo reads it, hidden files)"))
    if "buffer_size_kb" in text:
        for match in _BUFFER_SIZE.finditer(text):
            spelled = match["product"] or match["number"] or "0"
            size = math.prod(int(n) for n in spelled.replace(" ", "").split("*") if n)
            if size >= _HUGE_BUFFER_KB:
                found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                           f"gives ftrace a buffer of {size // 1024:,} MiB per CPU (the kernel's "
                                           "memory goes to the trace)"))  # fmt: skip
                break
    return found
