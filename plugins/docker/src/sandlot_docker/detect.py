"""Violation detection for Docker sandboxes (the ``sandlot_detect_violation`` hook).

Cheap first: every command is checked by looking at its output and exit status; the
container's cgroup counters (OOM kills, pids-limit hits) are read only when the result
looks like a kill or a failed fork, so the common path costs no API call.
"""

from __future__ import annotations

import glob
import logging
import os
import re
import threading
from pathlib import Path
from typing import Any

from sandlot.hookspecs import hookimpl
from sandlot.policy import NetworkMode
from sandlot.results import ExecResult, Violation, ViolationKind
from sandlot.violations import ViolationContext

log = logging.getLogger(__name__)

FACTS_KEY = "docker"

_FORK = re.compile(r"Cannot fork|fork: (retry: )?Resource temporarily unavailable|can't fork|"
                   r"BlockingIOError: \[Errno 11\]|fork failed", re.IGNORECASE)
_FS_ERRORS = ("Read-only file system", "Permission denied")
# Quotes: ASCII, and the typographic ones coreutils uses in UTF-8 locales (U+2018, U+2019).
_Q_OPEN, _Q_CLOSE = "'\"`\u2018", "'\"`\u2019"
_QUOTED = re.compile(f"[{_Q_OPEN}](?P<path>[^{_Q_OPEN}{_Q_CLOSE}]+)[{_Q_CLOSE}]")
_UNQUOTED = re.compile(f"(?P<path>[^\\s:{_Q_OPEN}{_Q_CLOSE}]+): (?:Read-only file system|Permission denied)")
_NETWORK = re.compile(
    r"Network is unreachable|Temporary failure in name resolution|Name or service not known|"
    r"Could not resolve host|No address associated with hostname|Cannot assign requested address|"
    r"getaddrinfo failed|Errno -3\]|Errno 101\]|Errno 99\]",
    re.IGNORECASE,
)
_HOST = re.compile(r"(?:Could not resolve host:|resolve host|connect to|host) '?(?P<host>[A-Za-z0-9.\-:]+)'?")


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


class ContainerFacts:
    """What the detector may ask about one sandbox container (lazily, at most when needed)."""

    def __init__(
        self,
        api: Any,
        container_id: str,
        *,
        memory_limit_mb: int,
        pids_limit: int,
        writable: tuple[str, ...],
        read_only: tuple[str, ...],
        masked: tuple[str, ...],
        workdir: str,
        uid: str,
    ) -> None:
        self.api = api
        self.container_id = container_id
        self.memory_limit_mb = memory_limit_mb
        self.pids_limit = pids_limit
        self.writable = writable
        self.read_only = read_only
        self.masked = masked
        self.workdir = workdir
        self.uid = uid
        self._lock = threading.Lock()
        self._baseline: dict[str, int] | None = None
        self._host_files: dict[str, str] | None = None

    # -- cgroup counters -----------------------------------------------------------------

    def _find_host_files(self) -> dict[str, str]:
        """The container's cgroup files on this machine, when the engine is local and they are readable."""
        if self._host_files is None:
            found: dict[str, str] = {}
            cid = self.container_id
            for name, patterns in {
                "memory": (f"/sys/fs/cgroup/memory/*/{cid}/memory.oom_control",
                           f"/sys/fs/cgroup/memory/*/docker-{cid}.scope/memory.oom_control",
                           f"/sys/fs/cgroup/*/docker-{cid}.scope/memory.events",
                           f"/sys/fs/cgroup/*/{cid}/memory.events"),
                "pids": (f"/sys/fs/cgroup/pids/*/{cid}/pids.events",
                         f"/sys/fs/cgroup/pids/*/docker-{cid}.scope/pids.events",
                         f"/sys/fs/cgroup/*/docker-{cid}.scope/pids.events",
                         f"/sys/fs/cgroup/*/{cid}/pids.events"),
            }.items():
                for pattern in patterns:
                    hits = [p for p in glob.glob(pattern) if os.access(p, os.R_OK)]
                    if hits:
                        found[name] = hits[0]
                        break
            self._host_files = found
        return self._host_files

    def _read_counters(self) -> dict[str, int] | None:
        text = ""
        files = self._find_host_files()
        if len(files) == 2:
            try:
                text = "".join(Path(path).read_text() for path in files.values())
            except OSError:
                text = ""
        if not text:
            # A remote engine: read the container's own cgroup files from inside (v1 and v2 paths).
            argv = ["cat", "/sys/fs/cgroup/memory/memory.oom_control", "/sys/fs/cgroup/pids/pids.events",
                    "/sys/fs/cgroup/memory.events", "/sys/fs/cgroup/pids.events"]
            try:
                exec_id = self.api.exec_create(self.container_id, argv, stdout=True, stderr=False)["Id"]
                text = self.api.exec_start(exec_id).decode(errors="replace")
            except Exception as exc:  # the container may be gone or out of pids
                log.debug("cannot read cgroup counters of %s: %s", self.container_id, exc)
                return None
        counters = {"oom": 0, "pids": 0}
        for line in text.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1].isdigit():
                if parts[0] == "oom_kill":
                    counters["oom"] = int(parts[1])
                elif parts[0] == "max":
                    counters["pids"] = int(parts[1])
        return counters

    def mark_baseline(self) -> None:
        """Remember the counters now, so only later events are reported."""
        with self._lock:
            self._baseline = self._read_counters()

    def new_events(self) -> tuple[int, int] | None:
        """(OOM kills, pids-limit hits) since the last call, or None when unreadable."""
        with self._lock:
            now = self._read_counters()
            if now is None:
                return None
            before = self._baseline or {"oom": 0, "pids": 0}
            self._baseline = now
            return now["oom"] - before["oom"], now["pids"] - before["pids"]

    def container_oom_killed(self) -> bool:
        try:
            state = self.api.inspect_container(self.container_id)["State"]
        except Exception:
            return False
        return bool(state.get("OOMKilled"))

    # -- paths ---------------------------------------------------------------------------

    def absolute(self, path: str) -> str:
        return os.path.normpath(path if path.startswith("/") else os.path.join(self.workdir, path))


def _evidence(
    result: ExecResult, pattern: re.Pattern[str] | None = None, words: tuple[str, ...] = ()
) -> tuple[str, ...]:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    if pattern is not None or words:
        lines = [ln for ln in lines if (pattern is not None and pattern.search(ln)) or any(w in ln for w in words)]
    return tuple(lines[-5:])


def _resource(result: ExecResult, facts: ContainerFacts) -> Violation | None:
    killed = result.exit_code in (137, -1) or result.state_lost_after or result.timed_out
    forkish = bool(_FORK.search(result.stderr))
    if not (killed or forkish):
        return None
    events = facts.new_events()
    oom, pids = events if events is not None else (0, 0)
    if oom > 0 or (result.state_lost_after and facts.container_oom_killed()):
        return Violation(
            kind=ViolationKind.RESOURCE,
            resource="memory",
            reason=f"the memory limit ({facts.memory_limit_mb} MiB, no swap) was reached; "
            f"the kernel killed a process",
            evidence=_evidence(result) or (f"exit code {result.exit_code}",),
        )
    if pids > 0 or (forkish and events is None):
        return Violation(
            kind=ViolationKind.RESOURCE,
            resource="processes",
            reason=f"the process limit ({facts.pids_limit}) was reached; new processes could not be created",
            evidence=_evidence(result, _FORK),
        )
    return None


def _failed_paths(stderr: str) -> list[tuple[str, str]]:
    """(path, error text) for each line reporting EROFS or EACCES on a path."""
    found = []
    for line in stderr.splitlines():
        error = next((e for e in _FS_ERRORS if e in line), None)
        if error is None:
            continue
        head = line[: line.index(error)]
        match = _UNQUOTED.search(line)
        quoted = [m.group("path") for m in _QUOTED.finditer(line)]
        if match is not None:
            found.append((match.group("path"), error))
        elif quoted:
            # Python: "[Errno 13] Permission denied: '/x'"; coreutils: "cannot touch '/x': ..."
            found.append((quoted[-1] if "Errno" in line else ([q for q in quoted if q in head] or quoted)[0], error))
    return found


def _filesystem(result: ExecResult, facts: ContainerFacts) -> Violation | None:
    if not result.stderr:
        return None
    for raw, error in _failed_paths(result.stderr):
        path = facts.absolute(raw)
        evidence = _evidence(result, words=(error,))
        denied = next((m for m in facts.masked if _inside(path, m)), None)
        if denied is not None:
            return Violation(ViolationKind.FILESYSTEM, path, f"denied by the policy (deny: {denied})", evidence)
        if error == "Read-only file system":
            protected = next((r for r in facts.read_only if _inside(path, r)), None)
            reason = (
                f"read-only by the policy (read_only: {protected})"
                if protected is not None
                else "not writable: writes are allowed only under the read_write paths"
            )
            return Violation(ViolationKind.FILESYSTEM, path, reason, evidence)
        if not any(_inside(path, w) for w in facts.writable):
            return Violation(
                ViolationKind.FILESYSTEM,
                path,
                f"permission denied: the sandbox runs as uid {facts.uid} with no capabilities",
                evidence,
            )
    return None


def _network(result: ExecResult, context: ViolationContext) -> Violation | None:
    if context.policy.network.mode is not NetworkMode.NONE or not result.stderr:
        return None
    if not _NETWORK.search(result.stderr):
        return None
    match = _HOST.search(result.stderr)
    host = match.group("host") if match is not None else "network"
    return Violation(
        ViolationKind.NETWORK,
        host,
        'network access is disabled by the policy (network.mode = "none")',
        _evidence(result, _NETWORK),
    )


@hookimpl
def sandlot_detect_violation(result: ExecResult, context: ViolationContext) -> Violation | None:
    facts = context.extra.get(FACTS_KEY)
    if not isinstance(facts, ContainerFacts):
        return None
    return _resource(result, facts) or _filesystem(result, facts) or _network(result, context)
