"""Resource limits: rlimits for memory/CPU/file size/open files, and the process count.

Measured on Linux 6.x with bubblewrap 0.8 (see docs/providers/bwrap.md):

* RLIMIT_AS, RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_NOFILE and RLIMIT_CORE are per process
  and inherited: they are set on the bwrap process before exec and hold for everything
  in the sandbox (an unprivileged process cannot raise a hard limit).
* RLIMIT_NPROC is checked per user-namespace level against the count of the *host* uid:
  set before bwrap it would count every process the host user runs; set inside the new
  user namespace it counts only the sandbox's processes — so it is applied inside, by
  a tiny wrapper (``ulimit -u``) that execs the session shell. But the kernel never
  applies RLIMIT_NPROC to host uid 0 (``real_cred->user == INIT_USER``), which a sandbox
  started by root runs as: then the process count is enforced with a pids cgroup
  (v1 ``pids`` hierarchy or a v2 cgroup with the ``pids`` controller), and creation
  fails closed when neither can be created.
* RLIMIT_AS bounds each process, not their sum. When the host uid is 0 a memory cgroup
  (``memory.limit_in_bytes`` / ``memory.max``) additionally bounds the whole sandbox; an
  ordinary user usually cannot create one, and then the per-process bound is what holds.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import attrs

from sandlot.errors import PolicyNotEnforceable
from sandlot.policy import Limits

MIB = 1024 * 1024
#: Processes the sandbox itself needs besides the commands' (bwrap's init, the shell, slack for
#: the limit wrapper): added to ``limits.processes`` so the number means "what commands may start".
INFRA_PROCESSES = 3

RLIMIT_NAMES = {
    resource.RLIMIT_AS: "RLIMIT_AS",
    resource.RLIMIT_CPU: "RLIMIT_CPU",
    resource.RLIMIT_FSIZE: "RLIMIT_FSIZE",
    resource.RLIMIT_NOFILE: "RLIMIT_NOFILE",
    resource.RLIMIT_CORE: "RLIMIT_CORE",
}


def rlimits_for(limits: Limits) -> dict[int, tuple[int, int]]:
    """Per-process (soft, hard) rlimits set on bwrap before exec (inherited by the whole sandbox)."""
    table: dict[int, tuple[int, int]] = {resource.RLIMIT_CORE: (0, 0)}  # no core files in the workdir
    if limits.memory_mb is not None:
        table[resource.RLIMIT_AS] = (limits.memory_mb * MIB,) * 2
    if limits.cpu_seconds is not None:
        # Soft below hard: the kernel sends SIGKILL when the hard limit is reached and checks
        # it first, so equal limits would kill with SIGKILL and hide which limit it was;
        # SIGXCPU at the soft limit says "CPU time" (exit 152), SIGKILL follows a second later.
        table[resource.RLIMIT_CPU] = (limits.cpu_seconds, limits.cpu_seconds + 1)
    if limits.file_size_mb is not None:
        table[resource.RLIMIT_FSIZE] = (limits.file_size_mb * MIB,) * 2
    if limits.open_files is not None:
        # The session shell needs its own descriptors (0-4) and a few for redirections.
        table[resource.RLIMIT_NOFILE] = (max(limits.open_files, 16),) * 2
    return table


def named_rlimits(table: Mapping[int, tuple[int, int]]) -> dict[str, list[int]]:
    """``{"RLIMIT_CPU": [soft, hard], ...}``."""
    return {RLIMIT_NAMES.get(k, str(k)): list(v) for k, v in sorted(table.items())}


#: Shell source of the wrapper that sets RLIMIT_NPROC inside the user namespace and execs
#: the session shell. Values arrive as positional arguments, never inside the source.
NPROC_WRAPPER = 'ulimit -H -S -u "$1" || exit 125; shift; exec "$@"'


@attrs.frozen
class Cgroup:
    """One cgroup directory holding a sandbox for one controller ("pids" or "memory")."""

    controller: str
    path: Path
    version: int

    def enter(self) -> None:
        """Move the calling process in (runs in the child between fork and exec)."""
        with open(self.path / "cgroup.procs", "w") as fh:
            fh.write(str(os.getpid()))

    def oom_kills(self) -> int:
        """How many processes the kernel OOM-killed in here (memory controller)."""
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        try:
            for line in (self.path / name).read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        except (OSError, ValueError):
            pass
        return 0

    def remove(self) -> None:
        procs = self.path / "cgroup.procs"
        for _ in range(300):  # up to ~3 s: killed processes leave the cgroup as they exit
            try:
                pids = [int(p) for p in procs.read_text().split()]
            except OSError:
                return
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.01)
        with contextlib.suppress(OSError):
            self.path.rmdir()


def _own_cgroup(controller: str | None) -> str | None:
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if (controller is None and controllers == "") or (controller and controller in controllers.split(",")):
            return path
    return None


def _parents(controller: str) -> list[tuple[Path, int]]:
    """Where a child cgroup with ``controller`` could be created: (directory, cgroup version)."""
    found: list[tuple[Path, int]] = []
    v1 = _own_cgroup(controller)
    if v1 is not None and Path(f"/sys/fs/cgroup/{controller}").is_dir():
        found.append((Path(f"/sys/fs/cgroup/{controller}") / v1.lstrip("/"), 1))
    v2 = _own_cgroup(None)
    if v2 is not None:
        for mount in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")):
            base = mount / v2.lstrip("/")
            try:
                if controller in (base / "cgroup.subtree_control").read_text().split():
                    found.append((base, 2))
            except OSError:
                continue
    return found


_LIMIT_FILE = {
    ("pids", 1): "pids.max",
    ("pids", 2): "pids.max",
    ("memory", 1): "memory.limit_in_bytes",
    ("memory", 2): "memory.max",
}


#: A sandbox cgroup left empty for this long belongs to a process that died without cleaning up.
STALE_SECONDS = 60.0


def _sweep_stale(parent: Path) -> None:
    """Remove empty ``sandlot-*`` cgroups a killed process left behind (rmdir fails on live ones)."""
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            if not entry.name.startswith("sandlot-") or not entry.is_dir():
                continue
            with contextlib.suppress(OSError):
                if now - entry.stat().st_mtime > STALE_SECONDS and not (entry / "cgroup.procs").read_text().strip():
                    entry.rmdir()


def create_cgroup(controller: str, name: str, limit: int) -> Cgroup:
    """A new cgroup for ``controller`` with its limit set; PolicyNotEnforceable when impossible."""
    errors = []
    for parent, version in _parents(controller):
        _sweep_stale(parent)
        path = parent / name
        try:
            path.mkdir()
        except OSError as exc:
            errors.append(f"{path}: {exc.strerror}")
            continue
        try:
            (path / _LIMIT_FILE[controller, version]).write_text(str(limit))
            if controller == "memory" and version == 2:
                # No swapping around the limit either.
                with contextlib.suppress(OSError):
                    (path / "memory.swap.max").write_text("0")
        except OSError as exc:
            errors.append(f"{path}/{_LIMIT_FILE[controller, version]}: {exc.strerror}")
            path.rmdir()
            continue
        return Cgroup(controller, path, version)
    detail = "; ".join(errors) or f"no writable {controller} cgroup controller found"
    raise PolicyNotEnforceable(f"no {controller} cgroup could be created ({detail})")


def create_pids_cgroup(name: str, max_pids: int) -> Cgroup:
    try:
        return create_cgroup("pids", name, max_pids)
    except PolicyNotEnforceable as exc:
        raise PolicyNotEnforceable(
            "limits.processes cannot be enforced for a sandbox started by root: the kernel exempts "
            f"host uid 0 from RLIMIT_NPROC and {exc}. Run sandlot as an unprivileged user, make a "
            "pids cgroup writable, or unset limits.processes."
        ) from None


def preexec(table: Mapping[int, tuple[int, int]], cgroups: Sequence[Cgroup]) -> Callable[[], None]:
    items = list(table.items())
    groups = tuple(cgroups)

    def prepare() -> None:
        for group in groups:
            group.enter()
        for which, (soft, hard) in items:
            resource.setrlimit(which, (soft, hard))

    return prepare
