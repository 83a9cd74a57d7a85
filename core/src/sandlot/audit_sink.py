"""The built-in JSON-lines audit sink (plugin name ``audit``).

A manager or pool with ``[audit] enabled = true`` routes its session's events to its
configured file; events of other sessions (other managers, other configurations) are not
written there. One ``write`` per line on an ``O_APPEND`` descriptor, so lines of several
processes sharing a log do not interleave. The file is created with mode 0600.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from pathlib import Path

from sandlot.audit import AuditEvent
from sandlot.hookspecs import hookimpl

log = logging.getLogger(__name__)

_lock = threading.Lock()
#: session -> path of its log
_routes: dict[str, Path] = {}
#: path -> (open descriptor, number of sessions routed to it)
_files: dict[Path, tuple[int, int]] = {}


def route(session: str, path: Path) -> None:
    """Send ``session``'s events to ``path``; opens it now so a bad path fails at start-up."""
    from sandlot.errors import ConfigError

    path = path.absolute()
    with _lock:
        if session in _routes:
            return
        entry = _files.get(path)
        if entry is None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError as exc:
                raise ConfigError(f"audit.path: cannot open {path} for appending: {exc.strerror}") from None
            entry = (fd, 0)
        _files[path] = (entry[0], entry[1] + 1)
        _routes[session] = path


def unroute(session: str) -> None:
    with _lock:
        path = _routes.pop(session, None)
        if path is None:
            return
        fd, users = _files[path]
        if users <= 1:
            del _files[path]
            os.close(fd)
        else:
            _files[path] = (fd, users - 1)


@hookimpl
def sandlot_audit_event(event: AuditEvent) -> None:
    with _lock:
        path = _routes.get(event.session)
        if path is None:
            return
        fd = _files[path][0]
        line = json.dumps(event.to_data(), sort_keys=True, default=str, ensure_ascii=False) + "\n"
        data = line.encode()
        written = os.write(fd, data)
        while written < len(data):  # only on a full disk or a signal; finish the line
            written += os.write(fd, data[written:])
