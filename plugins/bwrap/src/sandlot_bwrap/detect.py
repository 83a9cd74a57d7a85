"""Turning what a command printed and how it ended into a structured Violation (or nothing).

Precision over recall: a report needs both an error the sandbox causes (EROFS, EACCES
on a mask, EAFNOSUPPORT from the seccomp filter, ENETUNREACH in an empty network
namespace, a limit's signal) AND a policy fact that makes it the sandbox's doing (the
path is denied or outside the writable roots, the network is ``none``, the limit is
set). A command failing on its own — a missing file the policy allows, ``false``, a
compile error — is never a violation.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from sandlot.files.paths import PathMap
from sandlot.policy import NetworkMode, glob_matches
from sandlot.results import ExecResult, Violation, ViolationKind
from sandlot.violations import ViolationContext

if TYPE_CHECKING:
    from sandlot_bwrap.guard import Finding

# ------------------------------------------------------------------------------ filesystem

_ERRNO_TEXT = {
    "EROFS": "Read-only file system",
    "EACCES": "Permission denied",
    "ENOENT": "No such file or directory",
    "EPERM": "Operation not permitted",
}
_ERR_ALT = "|".join(re.escape(t) for t in _ERRNO_TEXT.values())
# "tool: '/path': Error", "tool: cannot touch '/path': Error", "bash: line 1: /path: Error",
# Python "...: [Errno 13] Permission denied: '/path'".
# coreutils quote with ASCII or typographic quotes (\u2018 \u2019) depending on the locale.
_PATH_BEFORE = re.compile(
    "(?:['\u2018\"](?P<q>[^'\u2019\"\n]+)['\u2019\"]|(?P<u>[^\\s:'\"]+))\\s*:\\s*(?P<err>" + _ERR_ALT + ")"
)
_PATH_AFTER = re.compile(r"(?P<err>" + _ERR_ALT + r""")\s*:\s*['"](?P<p>[^'"\n]+)['"]""")
_WRITE_VERBS = re.compile(
    r"cannot (?:create|touch|remove|move|overwrite|make|open .* for writing|change|set|rename|unlink)"
    r"|failed to (?:create|open|remove)|Errno 30|Read-only",
    re.IGNORECASE,
)


def _errors_with_paths(text: str) -> Iterable[tuple[str, str, str]]:
    """(path, error text, line) for every "path: error" pair in ``text``."""
    for line in text.splitlines():
        for match in _PATH_BEFORE.finditer(line):
            yield (match.group("q") or match.group("u")), match.group("err"), line
        for match in _PATH_AFTER.finditer(line):
            yield match.group("p"), match.group("err"), line


def _paths(context: ViolationContext, key: str) -> tuple[Path, ...]:
    """A tuple of paths the provider put into ``context.extra`` (empty when absent)."""
    value = context.extra.get(key, ())
    return tuple(cast("Iterable[Path]", value))


def _under(path: Path, roots: Iterable[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


def _host_path(text: str, workdir: Path | None, path_map: PathMap | None = None) -> Path:
    """The host path a message's path names (relative ones from the workdir; virtual ones through the mounts)."""
    path = Path(text)
    if not path.is_absolute() and workdir is not None:
        path = Path(path_map.to_virtual(str(workdir)) if path_map else workdir) / path
    normal = os.path.normpath(path)
    return Path(path_map.to_host(normal) if path_map else normal)


def _resolved(path: Path) -> Path:
    """Best-effort real path on the host (a symlink pointing into a denied path counts as denied)."""
    try:
        return Path(os.path.realpath(path))
    except OSError:
        return path


def _denied_by(path: Path, context: ViolationContext) -> str | None:
    fs = context.filesystem
    masks: Sequence[Path] = _paths(context, "masks")
    candidates = {path, _resolved(path)}
    for candidate in candidates:
        for mask in masks:
            if candidate == mask or mask in candidate.parents:
                return f"{mask} is denied by the policy (masked)"
        if fs is not None:
            for deny in fs.deny:
                if candidate == deny or deny in candidate.parents:
                    return f"{deny} is denied by the policy"
            for pattern in fs.deny_globs:
                if glob_matches(candidate, pattern):
                    return f"matches the deny pattern {pattern}"
    return None


def _filesystem(result: ExecResult, context: ViolationContext) -> Violation | None:
    workdir = _workdir(context)
    writable: Sequence[Path] = _paths(context, "read_write")
    fs = context.filesystem
    read_only = tuple(fs.read_only) if fs is not None else ()
    private: Sequence[Path] = _paths(context, "private_dirs")
    path_map = context.extra.get("path_map")
    for raw, err, line in _errors_with_paths(result.stderr + "\n" + result.stdout):
        path = _host_path(raw, workdir, path_map if isinstance(path_map, PathMap) else None)
        denied = _denied_by(path, context)
        if denied is not None:
            return Violation(ViolationKind.FILESYSTEM, str(path), f"access denied: {denied} ({err})", (line.strip(),))
        if err == _ERRNO_TEXT["ENOENT"]:
            continue
        real = _resolved(path)
        if _under(real, private) and not _under(real, writable):
            continue  # the private /tmp, /dev, /proc: not the host's files
        outside = not _under(real, writable) or _under(real, read_only)
        is_write = err == _ERRNO_TEXT["EROFS"] or bool(_WRITE_VERBS.search(line))
        if outside and is_write and err != _ERRNO_TEXT["EPERM"]:
            where = "a read-only path" if _under(real, read_only) else "outside the writable paths"
            return Violation(ViolationKind.FILESYSTEM, str(path), f"write denied: {where} ({err})", (line.strip(),))
    return None


def _workdir(context: ViolationContext) -> Path | None:
    """Where relative paths in messages start (the shell may have cd'ed since: best effort)."""
    workdir = context.extra.get("workdir")
    return workdir if isinstance(workdir, Path) else None


# ------------------------------------------------------------------------------ network

_NET_ERRORS = re.compile(
    r"Could not resolve host|Temporary failure in name resolution|Name or service not known|"
    r"Network is unreachable|Connection refused|No route to host|unable to resolve host|"
    r"Couldn't connect to server|Failed to connect to|getaddrinfo|Cannot assign requested address|"
    r"Address family not supported by protocol|nodename nor servname|connection timed out; no servers",
    re.IGNORECASE,
)
_HOST_PATTERNS = (
    re.compile(r"Could not resolve host:?\s*([^\s;]+)"),
    re.compile(r"Failed to connect to ([^\s]+) port (\d+)"),
    re.compile("unable to resolve host address ['\u2018]([^'\u2019]+)"),
)
_URL = re.compile(r"[a-z][a-z0-9+.-]*://(?:[^@/\s]+@)?(\[[^\]]+\]|[^:/\s'\"]+)(?::(\d+))?", re.IGNORECASE)
_UNIX_PATH = re.compile(r"(/[^\s'\"]+\.sock(?:et)?|/[^\s'\"]*/(?:docker|agent|bus|socket)[^\s'\"]*)")
_QUOTED_HOST = re.compile(
    r"""['"]((?:\d{1,3}\.){3}\d{1,3}|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})['"]"""
    r"""(?:\s*,\s*(\d+))?""",
    re.IGNORECASE,
)
_HOST_ARG = re.compile(
    r"(?<![\w/.-])((?:\d{1,3}\.){3}\d{1,3}|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,})(?::(\d+))?"
    r"(?![\w/(])",
    re.IGNORECASE,
)


def _network_target(result: ExecResult, command: str) -> str:
    text = result.stderr + "\n" + result.stdout
    for pattern in _HOST_PATTERNS:
        match = pattern.search(text)
        if match:
            return ":".join(g for g in match.groups() if g)
    for pattern in (_URL, _QUOTED_HOST):
        match = pattern.search(command)
        if match:
            return ":".join(g for g in match.groups() if g)
    host = _HOST_ARG.search(command)
    if host:
        return ":".join(g for g in host.groups() if g)
    return "network"


def _network(result: ExecResult, context: ViolationContext) -> Violation | None:
    if context.policy.network.mode is not NetworkMode.NONE:
        if "Address family not supported by protocol" in result.stderr and "unix" in context.command.lower():
            return _unix_violation(result, context)
        return None
    text = result.stderr + "\n" + result.stdout
    match = _NET_ERRORS.search(text)
    if match is None:
        return None
    if "Address family not supported" in match.group(0):
        return _unix_violation(result, context)
    evidence = tuple(line.strip() for line in text.splitlines() if _NET_ERRORS.search(line))[:5]
    target = _network_target(result, context.command)
    if _is_loopback(target) and not any(_NET_ERRORS.search(e) and not _REFUSED.search(e) for e in evidence):
        # Loopback works inside the sandbox (its own): a refused connection is the sandbox's own
        # service being down — unless the host listens on that port, which the sandbox cannot reach.
        port = target.rsplit(":", 1)[1] if target.count(":") == 1 else ""
        if not (port.isdigit() and int(port) in _host_listening_ports()):
            return None
        return Violation(
            ViolationKind.NETWORK,
            target,
            "the host's loopback services are unreachable (own network namespace)",
            evidence,
        )
    return Violation(ViolationKind.NETWORK, target, 'network access blocked (network = "none")', evidence)


_REFUSED = re.compile(r"Connection refused|Couldn't connect to server|Failed to connect to", re.IGNORECASE)


def _is_loopback(target: str) -> bool:
    host = target.rsplit(":", 1)[0] if target.count(":") == 1 else target
    return host.startswith("127.") or host in ("localhost", "[::1]", "::1")


def _host_listening_ports() -> set[int]:
    """TCP ports in LISTEN state in this (the host's) network namespace."""
    ports: set[int] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as fh:
                next(fh, None)
                for line in fh:
                    fields = line.split()
                    if len(fields) > 3 and fields[3] == "0A":
                        ports.add(int(fields[1].rsplit(":", 1)[1], 16))
        except OSError:
            continue
    return ports


def _unix_violation(result: ExecResult, context: ViolationContext) -> Violation:
    path = _UNIX_PATH.search(context.command)
    evidence = tuple(line.strip() for line in result.stderr.splitlines() if "Address family" in line)[:5]
    return Violation(
        ViolationKind.NETWORK,
        f"unix:{path.group(1)}" if path else "unix socket",
        "socket(AF_UNIX and other non-IP families) is blocked by the sandbox's seccomp filter",
        evidence,
    )


# ------------------------------------------------------------------------------ resources

_SIG_EXIT = {
    152: ("cpu", "CPU time limit (RLIMIT_CPU) exceeded: killed by SIGXCPU"),
    153: ("file_size", "file size limit (RLIMIT_FSIZE) exceeded: killed by SIGXFSZ"),
}


def _resource(result: ExecResult, context: ViolationContext) -> Violation | None:
    limits = context.policy.limits
    text = result.stderr + "\n" + result.stdout
    lines = text.splitlines()

    def evidence(*needles: str) -> tuple[str, ...]:
        return tuple(line.strip() for line in lines if any(n.lower() in line.lower() for n in needles))[:5]

    if limits.processes is not None:
        needles = (
            "fork: retry",
            "fork: Resource temporarily unavailable",
            "Resource temporarily unavailable",
            "BlockingIOError",
            "can't fork",
            "Cannot fork",
        )
        found = evidence(*needles)
        if found and any(
            "fork" in line.lower()
            or "BlockingIOError" in line
            or "thread" in line.lower()
            or "Resource temporarily" in line
            for line in found
        ):
            return Violation(
                ViolationKind.RESOURCE,
                "processes",
                f"process limit ({limits.processes}) reached: fork failed with EAGAIN",
                found,
            )
    if limits.cpu_seconds is not None and (result.exit_code == 152 or "CPU time limit exceeded" in text):
        return Violation(
            ViolationKind.RESOURCE,
            "cpu",
            _SIG_EXIT[152][1],
            evidence("CPU time limit") or (f"exit code {result.exit_code}",),
        )
    if limits.file_size_mb is not None and (
        result.exit_code == 153 or "File size limit exceeded" in text or "File too large" in text
    ):
        return Violation(
            ViolationKind.RESOURCE,
            "file_size",
            f"file size limit ({limits.file_size_mb} MiB, RLIMIT_FSIZE) exceeded",
            evidence("File size limit", "File too large") or (f"exit code {result.exit_code}",),
        )
    if limits.memory_mb is not None and context.extra.get("oom_killed"):
        return Violation(
            ViolationKind.RESOURCE,
            "memory",
            f"memory limit ({limits.memory_mb} MiB for the whole sandbox, memory cgroup) reached: "
            "the kernel killed a process",
            evidence("Killed") or (f"exit code {result.exit_code}",),
        )
    if limits.memory_mb is not None:
        found = evidence(
            "MemoryError",
            "Cannot allocate memory",
            "std::bad_alloc",
            "out of memory",
            "xmalloc",
            "memory exhausted",
            "failed to allocate",
        )
        if found:
            return Violation(
                ViolationKind.RESOURCE,
                "memory",
                f"memory limit ({limits.memory_mb} MiB, RLIMIT_AS) reached: allocation failed",
                found,
            )
    if limits.open_files is not None:
        found = evidence("Too many open files")
        if found:
            return Violation(
                ViolationKind.RESOURCE,
                "open_files",
                f"open files limit ({limits.open_files}, RLIMIT_NOFILE) reached",
                found,
            )
    found = evidence("No space left on device")
    if found and not any("unshare" in line for line in found):
        return Violation(
            ViolationKind.RESOURCE,
            "disk",
            "no space left: the private /tmp and /dev/shm are size-limited tmpfs "
            "(providers.bwrap.tmp_size_mb), or the host disk is full",
            found,
        )
    return None


# ------------------------------------------------------------------------------ processes

_PRIV_TOOLS = {
    "mount": "mounting is not permitted in the sandbox (no capabilities)",
    "umount": "unmounting is not permitted in the sandbox (no capabilities)",
    "hostname": "changing the host name is not permitted (no capabilities)",
    "mknod": "creating device nodes is not permitted (no capabilities)",
    "unshare": "creating namespaces is not permitted (nested user namespaces are disabled)",
    "nsenter": "entering namespaces is not permitted",
    "chroot": "chroot is not permitted (no capabilities)",
    "sudo": "privilege elevation is not possible (no_new_privs, no capabilities)",
    "su": "privilege elevation is not possible (no_new_privs, no capabilities)",
    "setcap": "file capabilities cannot be set",
    "insmod": "loading kernel modules is not permitted",
    "modprobe": "loading kernel modules is not permitted",
    "sysctl": "kernel parameters cannot be changed",
    "swapon": "not permitted",
    "reboot": "not permitted",
}
_PRIV_ERRORS = re.compile(
    r"Operation not permitted|must be superuser|you must be root|Permission denied|only root can|"
    r"No space left on device|Authentication failure|effective uid is not 0|cannot set groups|"
    r"not allowed|Read-only file system|permission denied",
)
#: "mount: ...", "Password: su: ...", "/usr/bin/sudo: ..." — a tool naming itself before its error.
_TOOL_PREFIX = re.compile(r"(?<!\S)([\w./-]+):\s")
#: (`-p` only as an option of its own: `/tmp/sandlot-test-p6jjutiu` is a path, not pid 6)
_PID_TARGET = re.compile(r"/proc/(\d+)/|\bkill(?:\s+-\S+)*\s+(\d+)|(?<!\S)-p\s*(\d+)\b|\((\d+)\)\s*-\s*No such process")


def _host_pid_attempt(result: ExecResult, context: ViolationContext) -> Violation | None:
    text = result.stderr
    if not re.search(r"No such process|No such file or directory|Operation not permitted", text):
        return None
    in_sandbox = cast("Callable[[int], bool]", context.extra.get("in_sandbox", lambda pid: False))
    for source in (text, context.command):
        for match in _PID_TARGET.finditer(source):
            pid = int(next(g for g in match.groups() if g))
            if pid > 1 and os.path.exists(f"/proc/{pid}") and not in_sandbox(pid):
                lines = tuple(line.strip() for line in text.splitlines() if str(pid) in line)[:5]
                return Violation(
                    ViolationKind.PROCESS,
                    f"pid {pid}",
                    "host processes are invisible and unreachable from the sandbox (own pid namespace)",
                    lines or tuple(text.strip().splitlines()[:1]),
                )
    return None


def _process(result: ExecResult, context: ViolationContext) -> Violation | None:
    for line in result.stderr.splitlines():
        for match in _TOOL_PREFIX.finditer(line):
            tool = os.path.basename(match.group(1))
            if tool in _PRIV_TOOLS and _PRIV_ERRORS.search(line[match.end() :]):
                return Violation(ViolationKind.PROCESS, tool, _PRIV_TOOLS[tool], (line.strip(),))
    if "TIOCSTI" in context.command and "Operation not permitted" in result.stderr:
        return Violation(
            ViolationKind.PROCESS,
            "TIOCSTI",
            "terminal input injection is blocked (seccomp, new session)",
            tuple(line.strip() for line in result.stderr.splitlines()[-1:]),
        )
    if re.search(r"ptrace|PTRACE", result.stderr) and "Operation not permitted" in result.stderr:
        return Violation(
            ViolationKind.PROCESS,
            "ptrace",
            "tracing processes outside the sandbox is not possible",
            tuple(line.strip() for line in result.stderr.splitlines() if "ptrace" in line.lower())[:3],
        )
    return _host_pid_attempt(result, context)


# ------------------------------------------------------------------------------ created files


def _created(context: ViolationContext) -> Violation | None:
    findings = cast("Sequence[Finding]", context.extra.get("deny_findings", ()))
    for finding in findings:
        if finding.what == "moved":
            return Violation(
                ViolationKind.FILESYSTEM,
                str(finding.path),
                f"{finding.detail} (an ancestor directory was renamed); it stays masked",
                (finding.detail,),
            )
        action = {
            "quarantined": f"quarantined to {finding.detail}",
            "removed": "removed",
            "report": "left in place" + (f" ({finding.detail})" if finding.detail else ""),
        }[finding.action]
        return Violation(
            ViolationKind.FILESYSTEM,
            str(finding.path),
            f"a path the policy denies was created during the command; {action}",
            tuple(f"{f.path}: {f.what}, {f.action}" for f in findings)[:10],
        )
    return None


def detect(result: ExecResult, context: ViolationContext) -> Violation | None:
    """The first violation found, most certain first."""
    for detector in (lambda r, c: _created(c), _resource, _process, _filesystem, _network):
        violation = detector(result, context)
        if violation is not None:
            return violation
    return None
