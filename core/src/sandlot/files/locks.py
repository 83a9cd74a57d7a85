"""One lock per sandbox path, so operations on the same file never interleave."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager


class PathLocks:
    """Hands out a lock per path; entries live only while someone holds or waits for them."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[str, tuple[threading.RLock, int]] = {}

    @contextmanager
    def hold(self, path: str) -> Iterator[None]:
        with self._guard:
            lock, users = self._locks.get(path, (threading.RLock(), 0))
            self._locks[path] = (lock, users + 1)
        try:
            with lock:
                yield
        finally:
            with self._guard:
                lock, users = self._locks[path]
                if users == 1:
                    del self._locks[path]
                else:
                    self._locks[path] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
