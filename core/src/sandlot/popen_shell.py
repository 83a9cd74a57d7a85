"""A :class:`ShellProcess` that is a local child process (local, bwrap, sandbox-exec)."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import resource
import select
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence

from sandlot import proctree
from sandlot.session import DRIVER, STDERR, STDOUT, ShellProcess

_PR_SET_CHILD_SUBREAPER = 36


def shell_argv(shell: str) -> list[str]:
    """argv that runs the session driver in ``shell`` (a POSIX shell path)."""
    name = os.path.basename(shell)
    if name == "bash":
        return [shell, "--noprofile", "--norc", "-c", DRIVER, "sandlot"]
    return [shell, "-c", DRIVER, "sandlot"]


def rlimits_preexec(limits: Mapping[int, int], *, subreaper: bool) -> Callable[[], None]:
    """A ``preexec_fn`` that makes the shell a child subreaper and applies rlimits.

    As a subreaper the shell adopts orphaned (double-forked, ``setsid``'d) descendants,
    so a tree walk from it finds every process the commands started.
    """
    prctl = None
    if subreaper and sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        prctl = libc.prctl
    items = list(limits.items())

    def prepare() -> None:
        if prctl is not None:
            prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        for which, value in items:
            resource.setrlimit(which, (value, value))

    return prepare


class PopenShellProcess(ShellProcess):
    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: str | None = None,
        preexec: Callable[[], None] | None = None,
        pass_fds: Sequence[int] = (),
    ) -> None:
        super().__init__()
        self.popen = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env),
            cwd=cwd,
            bufsize=0,
            start_new_session=True,
            preexec_fn=preexec,
            pass_fds=tuple(pass_fds),
        )
        assert self.popen.stdin and self.popen.stdout and self.popen.stderr
        self._stdin_fd = self.popen.stdin.fileno()
        # Read in the calling thread with poll(): no reader threads, no hand-offs, and
        # nothing is read (so nothing is buffered) while no command runs.
        self._streams = {self.popen.stdout.fileno(): STDOUT, self.popen.stderr.fileno(): STDERR}
        self._poll = select.poll()
        for fd in self._streams:
            self._poll.register(fd, select.POLLIN)
        self._ready: list[int] = []
        self._keep: frozenset[int] = frozenset({self.popen.pid})

    @property
    def pid(self) -> int:
        return self.popen.pid

    def next_event(self, timeout: float) -> tuple[str, bytes | None] | None:
        if not self._ready:
            if not self._streams:
                time.sleep(timeout)
                return None
            self._ready = [fd for fd, _ in self._poll.poll(max(int(timeout * 1000), 0))]
            if not self._ready:
                return None
        fd = self._ready.pop(0)
        try:
            data = os.read(fd, self.CHUNK)
        except OSError:
            data = b""
        stream = self._streams[fd]
        if not data:
            self._poll.unregister(fd)
            del self._streams[fd]
            return (stream, None)
        return (stream, data)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = os.write(self._stdin_fd, view)
            view = view[written:]

    def alive(self) -> bool:
        return self.popen.poll() is None

    def mark_started(self) -> None:
        self._keep = frozenset({self.popen.pid, *proctree.descendants(self.popen.pid)})

    def kill_command(self) -> None:
        proctree.kill_descendants(self.popen.pid, keep=self._keep)

    def kill(self) -> None:
        if self.popen.poll() is None:
            proctree.kill_tree(self.popen.pid)
        else:
            proctree.kill_descendants(self.popen.pid)
        for stream in (self.popen.stdin, self.popen.stdout, self.popen.stderr):
            try:
                if stream is not None and stream is self.popen.stdin:
                    stream.close()
            except OSError:
                pass
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        for stream in (self.popen.stdout, self.popen.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def exit_status(self, timeout: float) -> int | None:
        try:
            code = self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        return 128 + -code if code < 0 else code

