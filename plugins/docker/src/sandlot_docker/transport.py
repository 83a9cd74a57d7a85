"""The session shell inside a container, over ONE docker exec attach socket.

The exec stream multiplexes stdout and stderr in frames (8-byte header: stream type,
three zero bytes, big-endian payload length); one reader thread demultiplexes them into
:attr:`ShellProcess.events`. Commands are written to the raw socket, which is the
shell's stdin. A command round trip is a local socket round trip, not a new exec.

Killing runs :data:`KILLER` in a separate exec (as the sandbox user, so it can signal
only the sandbox's processes): it stops, then kills, in rounds, every descendant of our
shell plus every orphan re-parented to the container's init, sparing init, the
container's keep-alive process (the oldest child of init) and other exec sessions.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import docker.errors
import requests

from sandlot.session import DRIVER, STDERR, STDOUT, ShellProcess

log = logging.getLogger(__name__)

# Prints the shell's pid (in the container's pid namespace) on stderr, then becomes the
# driver shell with the same pid. The pid line is consumed by the reader, never shown.
LAUNCH = 'printf "%s\\n" "$$" >&2; exec "$0" -c "$1" sandlot'

# $1: pid to spare (our shell), or "" ; $2: pid whose whole tree dies (our shell on kill()), or "".
# Builtins only (read, eval, kill): no fork, so it works with the pids limit nearly reached.
KILLER = r"""
keep=$1 target=$2 self=$$ round=0
while [ "$round" -lt 100 ]; do
  round=$((round + 1))
  pids='' keeper='' kstart=''
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    { IFS= read -r st < "$d/stat"; } 2>/dev/null || continue
    set -- ${st##*) }
    case $1 in Z|X) continue ;; esac
    eval "pp_$p=$2"
    pids="$pids $p"
    if [ "$2" = 1 ] && { [ -z "$kstart" ] || [ "${20}" -lt "$kstart" ]; }; then keeper=$p kstart=${20}; fi
  done
  victims=''
  for p in $pids; do
    case $p in 1|"$self"|"$keep"|"$keeper") continue ;; esac
    q=$p hit=''
    while :; do
      if [ "$q" = "$keep" ] || [ "$q" = "$target" ]; then hit=1; break; fi
      eval "pq=\${pp_$q:-0}"
      case $pq in
        0) break ;;
        1) [ "$q" != "$keeper" ] && hit=1; break ;;
      esac
      q=$pq
    done
    [ -n "$hit" ] && victims="$victims $p"
  done
  [ -z "$victims" ] && exit 0
  kill -STOP $victims 2>/dev/null
  kill -KILL $victims 2>/dev/null
done
exit 1
"""

_DOCKER_FAILURES = (docker.errors.APIError, requests.exceptions.RequestException, OSError)


def run_killer(api: Any, container: str, keep: int | None, target: int | None, *, attempts: int = 20) -> bool:
    """Run :data:`KILLER` in the container; False when it could not run (container gone, no pids left)."""
    argv = ["/bin/sh", "-c", KILLER, "sandlot-kill", str(keep or ""), str(target or "")]
    for attempt in range(attempts):
        try:
            exec_id = api.exec_create(container, argv, stdout=True, stderr=True)["Id"]
            api.exec_start(exec_id)
            code = api.exec_inspect(exec_id).get("ExitCode")
        except docker.errors.NotFound:
            return False
        except docker.errors.APIError as exc:
            if exc.status_code == 409:  # not running
                return False
            # Most likely the pids limit (a fork bomb): processes come and go, try again.
            log.debug("killer exec failed (attempt %d): %s", attempt + 1, exc)
            time.sleep(0.05)
            continue
        except (requests.exceptions.RequestException, OSError) as exc:
            log.debug("killer exec failed: %s", exc)
            return False
        if code == 0:
            return True
        if code == 126 or code == 127 or code is None:
            time.sleep(0.05)
            continue
        return True
    return False


class DockerShellProcess(ShellProcess):
    """The driver shell running in ``container`` through one exec attach socket."""

    def __init__(
        self,
        api: Any,
        container: str,
        shell: str,
        *,
        on_unkillable: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self._api = api
        self._container = container
        self._on_unkillable = on_unkillable
        argv = [shell, "-c", LAUNCH, shell, DRIVER]
        self.exec_id: str = api.exec_create(container, argv, stdin=True, stdout=True, stderr=True, tty=False)["Id"]
        response_socket = api.exec_start(self.exec_id, socket=True, tty=False)
        self._holder = response_socket  # keeps the HTTP response (and so the fd) alive
        sock = getattr(response_socket, "_sock", response_socket)
        if not isinstance(sock, socket.socket):
            raise TypeError(f"unexpected exec socket type {type(sock).__name__}")
        sock.settimeout(None)  # a command may be silent for hours; the session does the timing
        self._sock = sock
        self.shell_pid: int | None = None
        self._pid_ready = threading.Event()
        self._eof = threading.Event()
        self._write_lock = threading.Lock()
        self._thread = threading.Thread(target=self._read_loop, name="sandlot-docker-exec", daemon=True)
        self._thread.start()

    # -- reading -------------------------------------------------------------------------

    def _read_loop(self) -> None:
        buf = bytearray()
        pending_pid = bytearray()
        try:
            while True:
                try:
                    data = self._sock.recv(self.CHUNK)
                except OSError:
                    data = b""
                if not data:
                    break
                buf += data
                offset = 0
                while len(buf) - offset >= 8:
                    kind = buf[offset]
                    size = int.from_bytes(buf[offset + 4 : offset + 8], "big")
                    if len(buf) - offset - 8 < size:
                        break
                    payload = bytes(buf[offset + 8 : offset + 8 + size])
                    offset += 8 + size
                    if kind == 2 and self.shell_pid is None:
                        pending_pid += payload
                        if b"\n" not in pending_pid:
                            continue
                        line, _, payload = bytes(pending_pid).partition(b"\n")
                        if line.strip().isdigit():
                            self.shell_pid = int(line)
                        else:  # not our pid line (the shell failed to start): keep it as output
                            self.shell_pid = -1
                            payload = bytes(pending_pid)
                        self._pid_ready.set()
                        if not payload:
                            continue
                    if payload:
                        self.events.put((STDERR if kind == 2 else STDOUT, payload))
                del buf[:offset]
        finally:
            self._eof.set()
            self._pid_ready.set()
            self.events.put((STDOUT, None))
            self.events.put((STDERR, None))

    # -- ShellProcess --------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        if self._eof.is_set():
            raise BrokenPipeError("the exec stream of the sandbox shell has ended")
        with self._write_lock:
            self._sock.sendall(data)

    def alive(self) -> bool:
        return not self._eof.is_set()

    def _pid(self) -> int | None:
        self._pid_ready.wait(5.0)
        pid = self.shell_pid
        return pid if pid is not None and pid > 0 else None

    def kill_command(self) -> None:
        pid = self._pid()
        if pid is None:
            return
        if not run_killer(self._api, self._container, keep=pid, target=None) and self._on_unkillable:
            self._on_unkillable()

    def kill(self) -> None:
        if not self._eof.is_set():
            pid = self._pid()
            killed = pid is not None and run_killer(self._api, self._container, keep=None, target=pid)
            if not killed and not self._eof.is_set() and self._on_unkillable is not None:
                self._on_unkillable()
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(0.5)
        self.drain([self._thread])
        try:
            self._sock.close()
            self._holder.close()
        except OSError:
            pass

    def exit_status(self, timeout: float) -> int | None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                info = self._api.exec_inspect(self.exec_id)
            except _DOCKER_FAILURES:
                return None
            if not info.get("Running") and info.get("ExitCode") is not None:
                return int(info["ExitCode"])
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.02)
