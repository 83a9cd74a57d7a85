"""The engine going away under a live sandbox: clear errors, no hang.

The sandbox talks to the real engine through a Unix-socket relay the test controls;
stopping the relay is the engine disappearing (without stopping the shared engine).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from docker_kit import docker_config

from sandlot.api import Sandlot
from sandlot.errors import ProviderUnavailable, SandboxError
from sandlot_docker.engine import DEFAULT_SOCKET


class Relay:
    """Forwards connections on ``path`` to the real engine socket until stopped."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.server = socket.socket(socket.AF_UNIX)
        self.server.bind(str(path))
        self.server.listen(64)
        self.conns: list[socket.socket] = []
        self.stopped = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX)
            upstream.connect(DEFAULT_SOCKET)
            self.conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(src: socket.socket, dst: socket.socket) -> None:
        try:
            while data := src.recv(65536):
                dst.sendall(data)
        except OSError:
            pass
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)

    def stop(self) -> None:
        self.stopped.set()
        self.server.close()
        self.path.unlink(missing_ok=True)
        for conn in self.conns:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)
                conn.close()


def test_engine_loss_fails_clearly_and_never_hangs(api: Any, tmp_path: Path) -> None:
    sock = tmp_path / "relay.sock"
    relay = Relay(sock)
    client = Sandlot(docker_config(docker_host=f"unix://{sock}"))
    box = client.create()
    try:
        assert box.exec("echo up").stdout == "up\n"
        relay.stop()
        started = time.monotonic()
        with pytest.raises((ProviderUnavailable, SandboxError)) as caught:
            for _ in range(2):  # the first may only report the lost shell
                box.exec("echo hi", timeout=10)
        assert time.monotonic() - started < 30
        assert str(sock) in str(caught.value)
        box.close()  # does not raise: the leftover container is gc's job
        assert box.closed
    finally:
        api.remove_container(f"sandlot-{box.id}", force=True, v=True)
        with contextlib.suppress(Exception):
            api.remove_volume(f"sandlot-{box.id}-workspace", force=True)

