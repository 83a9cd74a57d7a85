"""Shutting managers and pools down on interpreter exit and on SIGTERM/SIGINT.

Managers and pools register themselves until they are shut down. At exit, and when
SIGTERM or SIGINT arrives, every live one is shut down; then the signal goes on to the
handler that was there before (the default one ends the process; Python's SIGINT handler
raises KeyboardInterrupt), so the program behaves as it would without sandlot, minus the
leaked sandboxes.
"""

from __future__ import annotations

import abc
import asyncio
import atexit
import logging
import os
import signal
import threading
from types import FrameType
from typing import Any, Protocol, Self

log = logging.getLogger(__name__)

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class ShutsDown(Protocol):
    def shutdown(self) -> None: ...


class ShutdownContext(abc.ABC):
    """``with``/``async with``, ``close`` and ``ashutdown`` for anything that has ``shutdown()``."""

    @abc.abstractmethod
    def shutdown(self) -> None:
        """Release everything; idempotent."""

    def close(self) -> None:
        self.shutdown()

    async def ashutdown(self) -> None:
        await asyncio.to_thread(self.shutdown)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ashutdown()


# Reentrant: the signal handler may interrupt a thread inside register().
_lock = threading.RLock()
# Strong references: a manager or pool the program forgot to shut down is still shut down
# at exit instead of leaking its sandboxes (they are held by the provider anyway).
_live: set[Any] = set()
_previous: dict[int, Any] = {}
_atexit_installed = False


def register(obj: ShutsDown, *, handle_signals: bool = True) -> None:
    global _atexit_installed
    with _lock:
        _live.add(obj)
        if not _atexit_installed:
            atexit.register(shutdown_all)
            _atexit_installed = True
    if handle_signals:
        _install_signal_handlers()


def unregister(obj: ShutsDown) -> None:
    with _lock:
        _live.discard(obj)


def shutdown_all() -> None:
    with _lock:
        live = list(_live)
    for obj in live:
        try:
            obj.shutdown()
        except Exception:
            log.exception("sandlot: shutting down %r failed", obj)


def _install_signal_handlers() -> None:
    # signal.signal only works in the main thread; elsewhere atexit still covers normal exits.
    if threading.current_thread() is not threading.main_thread():
        return
    with _lock:
        for signum in SIGNALS:
            if signum in _previous:
                continue
            try:
                _previous[signum] = signal.getsignal(signum)
                signal.signal(signum, _on_signal)
            except (ValueError, OSError) as exc:  # embedded interpreters may refuse
                _previous.pop(signum, None)
                log.debug("sandlot: cannot install a handler for %s: %s", signum, exc)


def _on_signal(signum: int, frame: FrameType | None) -> None:
    shutdown_all()
    previous = _previous.get(signum, signal.SIG_DFL)
    if callable(previous):
        previous(signum, frame)
    elif previous == signal.SIG_DFL:
        # Re-deliver with the default action (terminate) now that everything is released.
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
    # SIG_IGN: the program chose to ignore it; we only cleaned up.
