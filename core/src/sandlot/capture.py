"""Bounded output capture: keep the head and the tail, count what was dropped."""

from __future__ import annotations

from sandlot.results import Truncation


class BoundedCapture:
    """Collects a byte stream in at most ``limit`` bytes of memory.

    The first half of the budget keeps the head, the second half a rolling tail; the
    middle is dropped and counted. ``limit=None`` keeps everything.
    """

    def __init__(self, limit: int | None) -> None:
        self._limit = limit
        self._head = bytearray()
        self._tail = bytearray()
        self._total = 0
        self._head_budget = None if limit is None else limit - limit // 2
        self._tail_budget = None if limit is None else limit // 2

    @property
    def total(self) -> int:
        return self._total

    def feed(self, data: bytes) -> None:
        self._total += len(data)
        if self._head_budget is None:
            self._head += data
            return
        room = self._head_budget - len(self._head)
        if room > 0:
            self._head += data[:room]
            data = data[room:]
        if not data or not self._tail_budget:
            return
        if len(data) >= self._tail_budget:
            self._tail = bytearray(data[-self._tail_budget :])
        else:
            self._tail += data
            excess = len(self._tail) - self._tail_budget
            if excess > 0:
                del self._tail[:excess]

    def result(self) -> tuple[bytes, Truncation | None]:
        kept = len(self._head) + len(self._tail)
        data = bytes(self._head) + bytes(self._tail)
        if kept == self._total:
            return data, None
        return data, Truncation(original_bytes=self._total, kept_head=len(self._head), kept_tail=len(self._tail))
