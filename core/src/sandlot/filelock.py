"""A cross-process lock on a file (``flock``), also exclusive between threads of one process.

``flock`` locks belong to an open file description, so two threads that each open the
lock file exclude each other just as two processes do. The lock is released when the
descriptor is closed, including when the holding process dies: no stale locks.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from collections.abc import Iterator
from pathlib import Path

from sandlot.errors import SandboxError


@contextlib.contextmanager
def file_lock(path: Path, *, timeout: float | None = None) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (created with mode 0600) for the ``with`` block."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        if timeout is None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        else:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise SandboxError(f"timed out after {timeout:.0f}s waiting for the lock {path}") from None
                    time.sleep(0.01)
        yield
    finally:
        os.close(fd)
