"""The Docker sandbox: a shell session in a container, plus stats and archive-API file transfer."""

from __future__ import annotations

import io
import os
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import attrs
import docker.errors

from sandlot.errors import SandboxError
from sandlot.policy import Policy, ResolvedFilesystem
from sandlot.session import ShellSession
from sandlot.shell_sandbox import ShellSandbox
from sandlot_docker.detect import FACTS_KEY, ContainerFacts
from sandlot_docker.engine import engine_errors
from sandlot_docker.stats import ContainerStats, parse_stats

if TYPE_CHECKING:
    import pluggy

#: Uploads larger than this are spooled to a temporary file instead of memory.
SPOOL_BYTES = 8 * 1024 * 1024
#: Files up to this size go through the shell session when only a few are transferred: an
#: archive call costs ~40 ms inside the engine, a session round trip a few ms.
SESSION_FILE_BYTES = 256 * 1024
#: From this many files on, one archive per directory beats a round trip per file.
ARCHIVE_MIN_FILES = 4
# Paths reach the shell as an environment value, contents as stdin: data, never shell text.
_SESSION_WRITE = 'mkdir -p -- "$(dirname -- "$SL_PATH")" && cat > "$SL_PATH"'
_SESSION_READ = (
    'if [ -d "$SL_PATH" ]; then echo "is a directory" >&2; exit 21; fi; '
    'n=$(wc -c < "$SL_PATH") || exit 1; if [ "$n" -gt "$SL_MAX" ]; then exit 22; fi; cat -- "$SL_PATH"'
)


@attrs.define
class ContainerRef:
    """The container currently backing a sandbox (it changes when a lost one is recreated)."""

    id: str
    name: str


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


class _StreamReader(io.RawIOBase):
    """A read-only file over an iterator of byte chunks (get_archive's stream)."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = chunks
        self._rest = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._rest:
            try:
                self._rest = next(self._chunks)
            except StopIteration:
                return 0
        n = min(len(buffer), len(self._rest))
        buffer[:n] = self._rest[:n]
        self._rest = self._rest[n:]
        return n


class DockerSandbox(ShellSandbox):
    """A sandbox backed by one container. ``upload``/``download`` use the archive API: no
    process runs in the container for them, and the image needs no python."""

    def __init__(
        self,
        sandbox_id: str,
        *,
        provider: str,
        policy: Policy,
        pm: pluggy.PluginManager,
        session: ShellSession,
        api: Any,
        url: str,
        ref: ContainerRef,
        facts: ContainerFacts,
        filesystem: ResolvedFilesystem | None = None,
        workdir: Path | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(
            sandbox_id,
            provider=provider,
            policy=policy,
            pm=pm,
            session=session,
            filesystem=filesystem,
            workdir=workdir,
            on_close=on_close,
        )
        self._api = api
        self._url = url
        self.ref = ref
        self.facts = facts

    @property
    def container_id(self) -> str:
        return self.ref.id

    @property
    def container_workdir(self) -> str:
        """Where the shell starts inside the container (a host path too when bind-mounted)."""
        return self.facts.workdir

    def _violation_extra(self) -> dict[str, object]:
        return {FACTS_KEY: self.facts}

    # -- stats ---------------------------------------------------------------------------

    def stats(self) -> ContainerStats:
        """CPU %, memory used/limit, pids, network bytes (one engine sample, about a second)."""
        with engine_errors(self._url):
            try:
                sample = self._api.stats(self.ref.id, stream=False)
            except docker.errors.NotFound:
                raise SandboxError(f"sandbox {self.id}: its container no longer exists") from None
        return parse_stats(sample)

    # -- files ---------------------------------------------------------------------------

    def _container_path(self, path: str) -> str:
        if "\0" in path:
            raise ValueError(f"path contains a NUL byte: {path!r}")
        return os.path.normpath(path if path.startswith("/") else os.path.join(self.container_workdir, path))

    def _check_not_denied(self, path: str) -> None:
        denied = next((m for m in self.facts.masked if _inside(path, m) or _inside(m, path)), None)
        if denied is not None:
            raise SandboxError(f"{path}: denied by the policy ({denied})")

    def upload(self, files: Mapping[str, bytes]) -> None:
        """Write ``{path: content}`` into the sandbox (relative paths: the working directory).

        Only below writable mounts (read_write paths, the workspace); parents are created.
        """
        by_parent: dict[str, list[tuple[str, bytes]]] = {}
        checked: list[tuple[str, bytes]] = []
        for raw, content in files.items():
            path = self._container_path(raw)
            self._check_not_denied(path)
            if not any(_inside(path, w) and path != w for w in self.facts.writable):
                raise SandboxError(f"{path}: not writable (outside the sandbox's read_write paths)")
            checked.append((path, content))
        if len(checked) < ARCHIVE_MIN_FILES and all(len(c) <= SESSION_FILE_BYTES for _, c in checked):
            for path, content in checked:
                self._session_write(path, content)
            return
        for path, content in checked:
            by_parent.setdefault(os.path.dirname(path), []).append((os.path.basename(path), content))
        uid, _, gid = self.facts.uid.partition(":")
        for parent, members in by_parent.items():
            with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as spool:
                with tarfile.open(fileobj=spool, mode="w") as tar:
                    for name, content in members:
                        info = tarfile.TarInfo(name)
                        info.size = len(content)
                        info.mode = 0o644
                        info.uid, info.gid = int(uid), int(gid or uid)
                        info.mtime = int(time.time())
                        tar.addfile(info, io.BytesIO(content))
                spool.seek(0)
                self._put(parent, spool)

    def _session_write(self, path: str, content: bytes) -> None:
        result = self.exec(_SESSION_WRITE, env={"SL_PATH": path}, stdin=content, timeout=60)
        if result.exit_code != 0 or result.timed_out:
            raise SandboxError(f"upload of {path} failed: {result.stderr.strip() or f'exit {result.exit_code}'}")

    def _session_read(self, path: str) -> bytes | None:
        """The file's bytes, or None when it is too large for the session's output limit."""
        result = self.exec(_SESSION_READ, env={"SL_PATH": path, "SL_MAX": str(SESSION_FILE_BYTES)}, timeout=60)
        if result.exit_code == 22:
            return None  # larger than the session path is meant for
        if result.exit_code == 21:
            raise SandboxError(f"{path} is a directory; download takes files")
        if result.exit_code != 0 or result.timed_out:
            detail = result.stderr.strip()
            if "No such file" in detail:
                raise SandboxError(f"{path}: no such file in the sandbox")
            raise SandboxError(f"download of {path} failed: {detail or f'exit {result.exit_code}'}")
        return None if result.truncated else result.stdout_bytes

    def _put(self, parent: str, data: IO[bytes]) -> None:
        with engine_errors(self._url):
            try:
                self._api.put_archive(self.ref.id, parent, data)
                return
            except docker.errors.NotFound:
                pass
            except docker.errors.APIError as exc:
                raise SandboxError(f"upload to {parent} failed: {exc.explanation or exc}") from None
            # The parent is missing: create it as the sandbox user (argv, never shell text).
            made = self._api.exec_create(self.ref.id, ["mkdir", "-p", "--", parent], stdout=True, stderr=True)
            output = self._api.exec_start(made["Id"])
            if self._api.exec_inspect(made["Id"]).get("ExitCode") != 0:
                raise SandboxError(f"cannot create {parent}: {output.decode(errors='replace').strip()}")
            data.seek(0)
            try:
                self._api.put_archive(self.ref.id, parent, data)
            except docker.errors.APIError as exc:
                raise SandboxError(f"upload to {parent} failed: {exc.explanation or exc}") from None

    def download(self, paths: Iterable[str]) -> dict[str, bytes]:
        """Read files from the sandbox: ``{path as given: content}``.

        A few files are read through the shell session (paths on the /tmp tmpfs included);
        more, or larger ones, through the archive API, which does not see /tmp.
        """
        out: dict[str, bytes] = {}
        wanted = list(paths)
        for raw in wanted:
            path = self._container_path(raw)
            self._check_not_denied(path)
            if len(wanted) < ARCHIVE_MIN_FILES:
                small = self._session_read(path)
                if small is not None:
                    out[raw] = small
                    continue
            with engine_errors(self._url):
                try:
                    chunks, stat = self._api.get_archive(self.ref.id, path)
                except docker.errors.NotFound:
                    raise SandboxError(f"{path}: no such file in the sandbox") from None
                except docker.errors.APIError as exc:
                    raise SandboxError(f"download of {path} failed: {exc.explanation or exc}") from None
                if stat.get("mode", 0) & (1 << 31):  # os.ModeDir in Go
                    raise SandboxError(f"{path} is a directory; download takes files")
                with tarfile.open(fileobj=io.BufferedReader(_StreamReader(iter(chunks))), mode="r|") as tar:
                    member = tar.next()
                    extracted = tar.extractfile(member) if member is not None else None
                    if extracted is None:
                        raise SandboxError(f"{path} is not a regular file")
                    out[raw] = extracted.read()
        return out
