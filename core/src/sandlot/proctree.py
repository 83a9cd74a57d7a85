"""Finding and killing process trees on the host, including setsid'd descendants."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable


def _parent_map() -> dict[int, int]:
    """pid -> ppid for every visible process."""
    if sys.platform.startswith("linux"):
        parents: dict[int, int] = {}
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit():
                continue
            try:
                with open(f"/proc/{entry.name}/stat", "rb") as fh:
                    stat = fh.read()
            except OSError:
                continue
            # The command name may contain spaces and parentheses: ppid follows the last ")".
            fields = stat[stat.rindex(b")") + 2 :].split()
            parents[int(entry.name)] = int(fields[1])
        return parents
    out = subprocess.run(["ps", "-A", "-o", "pid=,ppid="], capture_output=True, text=True, check=False).stdout
    parents = {}
    for line in out.splitlines():
        pid, ppid = line.split()
        parents[int(pid)] = int(ppid)
    return parents


def _children_files(pid: int) -> list[int] | None:
    """Children of ``pid`` from /proc/<pid>/task/*/children (None where the kernel has no such file)."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as fh:
                found.extend(int(child) for child in fh.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{task}"):
                continue  # the thread ended meanwhile
            return None
        except OSError:
            continue
    return found


def descendants(root: int) -> list[int]:
    """Every live descendant of ``root`` (not ``root`` itself), parents before children.

    Walks only the tree below ``root`` where the kernel lists children per task; otherwise
    scans every process's parent.
    """
    if sys.platform.startswith("linux"):
        walked: list[int] = []
        pending = [root]
        while pending:
            kids = _children_files(pending.pop())
            if kids is None:
                break
            walked.extend(kids)
            pending.extend(kids)
        else:
            return walked
    children: dict[int, list[int]] = {}
    for pid, ppid in _parent_map().items():
        children.setdefault(ppid, []).append(pid)
    found: list[int] = []
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _signal_all(pids: Iterable[int], sig: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)


def kill_descendants(root: int, *, keep: frozenset[int] = frozenset(), rounds: int = 50) -> None:
    """SIGKILL every descendant of ``root`` except ``keep``.

    Processes are stopped first and killed after, in rounds, so a fork bomb cannot
    outrun the walk: a stopped process forks no more.
    """
    for _ in range(rounds):
        victims = [pid for pid in descendants(root) if pid not in keep]
        if not victims:
            return
        _signal_all(victims, signal.SIGSTOP)
        _signal_all(victims, signal.SIGKILL)
        time.sleep(0.001)


def kill_tree(root: int) -> None:
    """SIGKILL ``root`` and all its descendants."""
    _signal_all([root], signal.SIGSTOP)
    kill_descendants(root)
    _signal_all([root], signal.SIGKILL)
