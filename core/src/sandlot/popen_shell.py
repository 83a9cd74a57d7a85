"""A :class:`ShellProcess` that is a local child process (local, bwrap, sandbox-exec)."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import resource
import signal
import subprocess
import sys
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
        out_fd, err_fd = self.popen.stdout.fileno(), self.popen.stderr.fileno()
        self._threads = [
            self.pump(STDOUT, lambda n: os.read(out_fd, n)),
            self.pump(STDERR, lambda n: os.read(err_fd, n)),
        ]
        self._keep: frozenset[int] = frozenset({self.popen.pid})

    @property
    def pid(self) -> int:
        return self.popen.pid

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
        self.drain(self._threads)
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


def signal_name(status: int) -> str:
    if status > 128:
        try:
            return signal.Signals(status - 128).name
        except ValueError:
            pass
    return str(status)
