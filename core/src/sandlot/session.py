"""The persistent shell session shared by every process-based provider.

One long-lived POSIX shell per sandbox runs a small driver loop. The host writes
each command to the shell's **control stream** (fd 3 inside the shell, never visible
to the command) as length-framed data; the driver ``eval``s it in the shell itself,
so ``cd`` and ``export`` persist, with stdin from ``/dev/null`` or the caller's bytes.
After the command the driver prints a per-command random marker and the exit code
on stdout and the marker on stderr; the host cuts the output at the markers.

A timeout kills every process of the sandbox except the shell (the tree walk takes in
``setsid``'d grandchildren: the shell is a child subreaper on Linux, or inside a pid
namespace); if the shell itself is stuck (a builtin loop) it is killed too and rebuilt
on the next command, and the results say so.

Transports differ by provider (a local pipe, bwrap, a container's exec socket): they
implement :class:`ShellProcess`.
"""

from __future__ import annotations

import abc
import contextlib
import logging
import queue
import secrets
import threading
import time
from collections.abc import Callable, Generator, Mapping

import attrs

from sandlot.capture import BoundedCapture
from sandlot.errors import SandboxError
from sandlot.results import ExecResult, OutputChunk

log = logging.getLogger(__name__)

STDOUT = "stdout"
STDERR = "stderr"

#: How long a timed-out command's shell gets to report back after its processes were killed.
KILL_GRACE_SECONDS = 1.0
#: How long a new shell gets to answer the start handshake.
START_TIMEOUT_SECONDS = 30.0

# The driver. The shell's own fd 2 points to /dev/null between commands (so job
# notifications of killed background jobs do not leak into later output; after a
# timeout the host runs `jobs` to collect them before the next command); commands get
# the real stderr, kept on fd 4. Variable-length fields are framed as "<line count>\n" + lines, read with
# `IFS= read -r` one byte at a time (the shell never buffers ahead on fd 3), so any
# text, quotes and marker look-alikes included, arrives as data and is never parsed.
DRIVER = r"""
exec 3<&0 </dev/null 4>&2 2>/dev/null
__sl_field() {
  IFS= read -r __sl_n <&3 || exit 0
  __sl_v=''
  __sl_i=0
  while [ "$__sl_i" -lt "$__sl_n" ]; do
    IFS= read -r __sl_l <&3 || exit 0
    if [ "$__sl_i" -eq 0 ]; then __sl_v=$__sl_l; else __sl_v="$__sl_v
$__sl_l"; fi
    __sl_i=$((__sl_i + 1))
  done
}
__sl_eval() {
  IFS= read -r __sl_in <&3 || exit 0
  if [ "$__sl_in" -ge 0 ]; then
    __sl_tmp="${TMPDIR:-/tmp}/.sandlot-stdin-$__sl_m"
    (umask 077 && head -c "$__sl_in" <&3 >"$__sl_tmp")
    eval "$__sl_cmd" <"$__sl_tmp" 2>&4 3<&- 4>&-
    __sl_rc=$?
    rm -f "$__sl_tmp"
  else
    eval "$__sl_cmd" </dev/null 2>&4 3<&- 4>&-
    __sl_rc=$?
  fi
  return $__sl_rc
}
IFS= read -r __sl_m <&3 || exit 0
printf '%s\n' "$__sl_m"
printf '%s\n' "$__sl_m" >&4
while IFS= read -r __sl_m <&3; do
  __sl_field; __sl_cmd=$__sl_v
  IFS= read -r __sl_sub <&3 || exit 0
  if [ "$__sl_sub" = 1 ]; then
    (
      __sl_field
      cd -- "$__sl_v" 2>&4 || exit 1
      IFS= read -r __sl_ne <&3 || exit 0
      while [ "$__sl_ne" -gt 0 ]; do
        __sl_field; export "$__sl_v"
        __sl_ne=$((__sl_ne - 1))
      done
      __sl_eval
    )
  else
    __sl_eval
  fi
  __sl_rc=$?
  printf '%s %d\n' "$__sl_m" "$__sl_rc"
  printf '%s\n' "$__sl_m" >&4
done
"""


def frame_field(text: str) -> bytes:
    lines = text.split("\n")
    # surrogateescape: file names that are not UTF-8 (as os.fsdecode gives them) pass unchanged.
    return f"{len(lines)}\n".encode() + "".join(line + "\n" for line in lines).encode("utf-8", "surrogateescape")


def encode_request(
    marker: str,
    command: str,
    *,
    cwd: str | None,
    env: Mapping[str, str] | None,
    stdin: bytes | None,
) -> bytes:
    """The bytes the driver reads for one command (see :data:`DRIVER`)."""
    parts = [marker.encode() + b"\n", frame_field(command)]
    if cwd is not None or env:
        parts.append(b"1\n")
        parts.append(frame_field(cwd if cwd is not None else "."))
        items = list((env or {}).items())
        parts.append(f"{len(items)}\n".encode())
        for name, value in items:
            if not name.isidentifier() or not name.isascii():
                raise ValueError(f"invalid environment variable name {name!r}")
            if "\0" in value:
                raise ValueError(f"environment variable {name} contains a NUL byte")
            parts.append(frame_field(f"{name}={value}"))
    else:
        parts.append(b"0\n")
    if stdin is None:
        parts.append(b"-1\n")
    else:
        parts.append(f"{len(stdin)}\n".encode())
        parts.append(stdin)
    return b"".join(parts)


class ShellProcess(abc.ABC):
    """A running shell executing :data:`DRIVER`, seen from the host.

    Implementations feed everything the shell prints into :attr:`events` as
    ``(stream, bytes)`` and ``(stream, None)`` at end of file. The queue is bounded, so a
    command printing without end holds memory to a few chunks.
    """

    CHUNK = 64 * 1024

    def __init__(self) -> None:
        self.events: queue.Queue[tuple[str, bytes | None]] = queue.Queue(maxsize=64)

    def next_event(self, timeout: float) -> tuple[str, bytes | None] | None:
        """The next piece of output (``(stream, None)`` at EOF), or ``None`` after ``timeout`` seconds."""
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    @abc.abstractmethod
    def write(self, data: bytes) -> None:
        """Send bytes to the shell's control stream; raise OSError when it is gone."""

    @abc.abstractmethod
    def alive(self) -> bool: ...

    @abc.abstractmethod
    def kill_command(self) -> None:
        """Kill every process the commands started, leaving the shell itself alive."""

    @abc.abstractmethod
    def kill(self) -> None:
        """Kill the shell and everything in it; release the transport."""

    @abc.abstractmethod
    def exit_status(self, timeout: float) -> int | None:
        """The shell's exit status once it has ended (``None`` if still running after ``timeout``)."""

    def drain(self, threads: list[threading.Thread], timeout: float = 5.0) -> None:
        """Discard queued output until the pump threads have ended (they block on a full queue)."""
        deadline = time.monotonic() + timeout
        while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                self.events.get(timeout=0.05)

    def mark_started(self) -> None:  # noqa: B027 - optional hook, most transports need nothing
        """Called once the handshake succeeded: the processes that exist now are infrastructure."""

    def pump(self, stream: str, read: Callable[[int], bytes]) -> threading.Thread:
        """Start a daemon thread moving ``read`` results into :attr:`events` until EOF."""

        def loop() -> None:
            try:
                while True:
                    try:
                        data = read(self.CHUNK)
                    except (OSError, ValueError):
                        data = b""
                    if not data:
                        break
                    self.events.put((stream, data))
            finally:
                self.events.put((stream, None))

        thread = threading.Thread(target=loop, name=f"sandlot-{stream}", daemon=True)
        thread.start()
        return thread


def _marker_prefix_at_end(buf: bytes, marker: bytes) -> int:
    """Length of the longest end of ``buf`` that could be the start of ``marker``.

    Only that much output is held back; everything else can be streamed at once.
    """
    first = marker[:1]
    start = max(len(buf) - len(marker) + 1, 0)
    at = buf.find(first, start)
    while at >= 0:
        if marker.startswith(buf[at:]):
            return len(buf) - at
        at = buf.find(first, at + 1)
    return 0


class _StreamCutter:
    """Splits one stream at the marker, capturing what comes before it."""

    def __init__(self, marker: bytes, limit: int | None) -> None:
        self.marker = marker
        self.capture = BoundedCapture(limit)
        self.carry = b""
        self.found = False
        self.after = b""  # bytes after the marker (stdout: " <rc>\n")
        self.eof = False

    def feed(self, data: bytes) -> bytes:
        """Feed raw bytes; returns the part that is command output (for streaming)."""
        if self.found:
            self.after += data
            return b""
        buf = self.carry + data
        at = buf.find(self.marker)
        if at >= 0:
            self.found = True
            self.after = buf[at + len(self.marker) :]
            out = buf[:at]
            self.carry = b""
        else:
            keep = _marker_prefix_at_end(buf, self.marker)
            out, self.carry = (buf[: len(buf) - keep], buf[len(buf) - keep :])
        self.capture.feed(out)
        return out

    def flush(self) -> bytes:
        out, self.carry = self.carry, b""
        self.capture.feed(out)
        return out


class ShellSession:
    """Runs commands one at a time on a long-lived shell, rebuilding it when it dies."""

    def __init__(self, launch: Callable[[], ShellProcess], *, output_limit: int | None) -> None:
        self._launch = launch
        self._output_limit = output_limit
        self._lock = threading.RLock()
        self._proc: ShellProcess | None = None
        self._lost_state = False
        self._closed = False
        self._running = False

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> None:
        """Start the shell now (sandboxes start eagerly so set-up errors surface at creation)."""
        with self._lock:
            if self._proc is None:
                self._proc = self._start()

    def _start(self) -> ShellProcess:
        proc = self._launch()
        marker = "__sandlot_ready_" + secrets.token_hex(16)
        try:
            proc.write(marker.encode() + b"\n")
        except OSError as exc:
            proc.kill()
            raise SandboxError(f"the sandbox shell did not start: {exc}") from exc
        seen = {STDOUT: b"", STDERR: b""}
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        needle = marker.encode() + b"\n"
        while not all(needle in seen[s] for s in seen):
            left = deadline - time.monotonic()
            event = proc.next_event(max(left, 0.001))
            if event is None:
                proc.kill()
                raise SandboxError(f"the sandbox shell did not answer within {START_TIMEOUT_SECONDS:.0f}s")
            stream, data = event
            if data is None:
                status = proc.exit_status(1.0)
                proc.kill()
                detail = (seen[STDERR] + seen[STDOUT]).decode(errors="replace").strip()
                raise SandboxError(f"the sandbox failed to start (exit status {status}): {detail or 'no output'}")
            seen[stream] = (seen[stream] + data)[-65536:]
        for stream in seen:
            noise = seen[stream].split(needle)[0].strip()
            if noise:
                log.debug("sandbox shell start-up %s: %s", stream, noise.decode(errors="replace"))
        proc.mark_started()
        return proc

    def close(self) -> None:
        """End the session; a command running in another thread ends at once (its shell is killed)."""
        self._closed = True
        running = self._proc
        if running is not None:
            running.kill()
        with self._lock:
            if self._proc is not None:
                self._proc.kill()
                self._proc = None

    @property
    def process(self) -> ShellProcess | None:
        return self._proc

    # -- commands ------------------------------------------------------------------------

    def run(
        self,
        command: str,
        *,
        timeout: float | None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
    ) -> Generator[OutputChunk, None, ExecResult]:
        """Run one command; yields output chunks as they arrive, returns the result."""
        with self._lock:
            if self._closed:
                raise SandboxError("the session is closed")
            if self._running:
                # Same thread, inside its own unfinished stream: the protocol allows one command at a time.
                raise SandboxError(
                    "a command is already running on this sandbox in this thread; "
                    "finish or close its stream before running another"
                )
            self._running = True
            try:
                result = yield from self._run_locked(command, timeout=timeout, cwd=cwd, env=env, stdin=stdin)
            finally:
                self._running = False
            return result

    def _run_locked(
        self,
        command: str,
        *,
        timeout: float | None,
        cwd: str | None,
        env: Mapping[str, str] | None,
        stdin: bytes | None,
    ) -> Generator[OutputChunk, None, ExecResult]:
        lost_before = False
        if self._proc is not None and not self._proc.alive():
            self._discard()
        if self._proc is None:
            lost_before = self._lost_state
            self._proc = self._start()
            self._lost_state = False
        proc = self._proc
        marker = "__sandlot_" + secrets.token_hex(8)
        request = encode_request(marker, command, cwd=cwd, env=env, stdin=stdin)
        started = time.monotonic()
        try:
            proc.write(request)
        except OSError:
            # The shell died between the liveness check and the write: rebuild once.
            self._discard()
            self._proc = proc = self._start()
            lost_before = True
            proc.write(request)
        result = yield from self._collect(proc, marker.encode(), timeout, started)
        if result.state_lost_after:
            self._discard()
        elif result.timed_out:
            self._quiet(proc)
        return attrs.evolve(result, state_lost_before=True) if lost_before else result

    def _quiet(self, proc: ShellProcess) -> None:
        """Let the shell reap the jobs a timeout killed, so their notices do not reach later output."""
        marker = "__sandlot_" + secrets.token_hex(8)
        try:
            proc.write(encode_request(marker, "jobs >/dev/null 2>&1", cwd=None, env=None, stdin=None))
        except OSError:
            return
        quiet = self._collect(proc, marker.encode(), 5.0, time.monotonic())
        try:
            while True:
                next(quiet)
        except StopIteration as stop:
            if stop.value.state_lost_after or stop.value.timed_out:
                self._discard()

    def _discard(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc = None
        self._lost_state = True

    def _collect(
        self, proc: ShellProcess, marker: bytes, timeout: float | None, started: float
    ) -> Generator[OutputChunk, None, ExecResult]:
        cutters = {STDOUT: _StreamCutter(marker, self._output_limit), STDERR: _StreamCutter(marker, self._output_limit)}
        out, err = cutters[STDOUT], cutters[STDERR]
        deadline = None if timeout is None else started + timeout
        timed_out = False
        grace_until = 0.0
        shell_killed = False
        try:
            while True:
                if out.found and err.found and b"\n" in out.after:
                    break
                if out.eof and err.eof:
                    break
                now = time.monotonic()
                if deadline is not None and not timed_out and now >= deadline:
                    timed_out = True
                    proc.kill_command()
                    grace_until = time.monotonic() + KILL_GRACE_SECONDS
                if timed_out and not shell_killed and time.monotonic() >= grace_until:
                    # The shell itself is busy (a builtin loop): only killing it stops the command.
                    shell_killed = True
                    proc.kill()
                    break
                wait = 0.2
                if deadline is not None and not timed_out:
                    wait = max(min(deadline - now, 0.2), 0.0005)
                event = proc.next_event(wait)
                if event is None:
                    continue
                stream, data = event
                cutter = cutters[stream]
                if data is None:
                    cutter.eof = True
                    piece = cutter.flush()
                else:
                    piece = cutter.feed(data)
                if piece:
                    yield OutputChunk(stream, piece)
        except GeneratorExit:
            # The caller stopped listening mid-command: stop the command, keep the shell consistent.
            proc.kill()
            raise
        duration = time.monotonic() - started
        finished = out.found and err.found and b"\n" in out.after
        if not finished:
            for cutter in cutters.values():
                if not cutter.found:
                    cutter.flush()
        stdout, stdout_cut = out.capture.result()
        stderr, stderr_cut = err.capture.result()
        if finished:
            code_text = out.after.split(b"\n", 1)[0].strip()
            exit_code = int(code_text) if code_text.lstrip(b"-").isdigit() else -1
            lost_after = False
        else:
            status = proc.exit_status(1.0)
            exit_code = status if status is not None else -1
            lost_after = True
        if timed_out:
            exit_code = 124
        return ExecResult(
            exit_code=exit_code,
            stdout_bytes=stdout,
            stderr_bytes=stderr,
            duration=duration,
            timed_out=timed_out,
            stdout_truncation=stdout_cut,
            stderr_truncation=stderr_cut,
            state_lost_after=lost_after,
        )
