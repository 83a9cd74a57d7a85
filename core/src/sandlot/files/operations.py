"""File operations on a sandbox: the public methods, shared by every provider.

This layer validates and normalises paths, applies the filesystem policy, serialises
operations on the same path, handles text (decoding, line windows, replacement) and
turns batches into per-file results; a :class:`~sandlot.files.backend.FileBackend`
only moves bytes.
"""

from __future__ import annotations

import asyncio
import os
import posixpath
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING

from sandlot.errors import FileOperationError, SandboxClosed
from sandlot.files.backend import FileBackend, GrepQuery
from sandlot.files.guard import FileGuard
from sandlot.files.locks import PathLocks
from sandlot.files.model import FileErrorCode, FileInfo, GrepMatch, TransferResult
from sandlot.files.paths import PathMap, check_path, normalise
from sandlot.files.text import (
    check_window,
    compile_glob,
    decode_text,
    glob_asks_for_hidden,
    is_hidden,
    line_window,
    replace_text,
)
from sandlot.policy import is_glob

if TYPE_CHECKING:
    from sandlot.policy import Policy, ResolvedFilesystem

#: Uploads are read and sent in pieces of this size, so big files are never held whole.
CHUNK_BYTES = 8 * 1024 * 1024

#: What ``upload`` takes for one file: bytes, text (UTF-8), a host file path, or a binary file object.
UploadSource = bytes | bytearray | memoryview | str | os.PathLike[str] | IO[bytes]


def chunks_of(source: UploadSource, path: str) -> Iterator[bytes]:
    """The content of an upload source in pieces of at most :data:`CHUNK_BYTES`.

    A host file is opened now, so a missing one fails before anything in the sandbox is touched.
    """
    if isinstance(source, bytes | bytearray | memoryview):
        return iter((bytes(source),))
    if isinstance(source, str):
        return iter((source.encode(),))
    if isinstance(source, os.PathLike):
        try:
            handle = open(source, "rb")  # noqa: SIM115 - closed by _read_chunks when consumed
        except OSError as exc:
            raise FileOperationError(
                FileErrorCode.FILE_NOT_FOUND if isinstance(exc, FileNotFoundError) else FileErrorCode.FAILED,
                path,
                f"cannot read the host file {os.fspath(source)}: {exc.strerror}",
            ) from None
        return _read_chunks(handle, close=True)
    if hasattr(source, "read"):
        return _read_chunks(source)
    raise TypeError(
        f"{path}: upload content must be bytes, str, a host path or a binary file object, got {type(source).__name__}"
    )


def _read_chunks(handle: IO[bytes], *, close: bool = False) -> Iterator[bytes]:
    try:
        first = True
        while True:
            chunk = handle.read(CHUNK_BYTES)
            if isinstance(chunk, str):
                raise TypeError("upload file objects must be opened in binary mode")
            if not chunk:
                if first:
                    yield b""
                return
            first = False
            yield chunk
    finally:
        if close:
            handle.close()


class FileOperations:
    """Mixin for :class:`~sandlot.sandbox.Sandbox`: read, write, edit, ls, glob, grep, delete, transfer.

    Relative paths are taken from :attr:`files_root` (the directory the sandbox started
    in), not from the shell's current directory. Failures raise
    :class:`~sandlot.errors.FileOperationError` with a :class:`FileErrorCode`; batches
    (``upload``/``download``) report per file instead.
    """

    id: str
    policy: Policy
    _filesystem: ResolvedFilesystem | None
    _closed: bool
    _file_backend: FileBackend | None = None
    _file_guard: FileGuard | None = None
    _path_locks: PathLocks | None = None

    @property
    def path_map(self) -> PathMap:
        """Virtual mounts (sandbox path -> host path); empty unless the provider maps paths."""
        raise NotImplementedError

    # -- for providers -------------------------------------------------------------------

    @property
    def files_root(self) -> str:
        """The sandbox directory relative paths of file operations start from."""
        return "/"

    def _make_file_backend(self) -> FileBackend:
        """The backend serving this sandbox; the generic one runs POSIX sh in the sandbox."""
        from sandlot.files.shell import ShellFiles

        return ShellFiles(self)  # type: ignore[arg-type]

    # -- plumbing ------------------------------------------------------------------------

    @property
    def _files(self) -> FileBackend:
        if self._closed:
            raise SandboxClosed(f"sandbox {self.id} is closed")
        if self._file_backend is None:
            self._file_backend = self._make_file_backend()
        return self._file_backend

    @property
    def _locks(self) -> PathLocks:
        if self._path_locks is None:
            self._path_locks = PathLocks()
        return self._path_locks

    #: The home directory ``~`` in policy entries stands for (None: this process's); a
    #: provider with its own notion of home (bwrap's ``home`` option) sets it.
    _policy_home: str | None = None

    @property
    def policy_home(self) -> str:
        """The directory ``~`` in the policy's entries stands for (``~/.ssh`` is denied below it)."""
        return self._policy_home or os.path.expanduser("~")

    def _guard(self) -> FileGuard:
        if self._file_guard is None:
            self._file_guard = FileGuard.of(
                self.policy.filesystem,
                workdir=self.path_map.to_host(self.files_root),
                resolved=self._filesystem,
                home=self.policy_home,
            )
        return self._file_guard

    def _path(self, path: object, *, write: bool = False) -> str:
        """The absolute sandbox path, after the policy check."""
        absolute = normalise(check_path(path), self.files_root)
        self._guard().check(self.path_map.to_host(absolute), write=write, shown=absolute)
        return absolute

    # -- reading and writing -------------------------------------------------------------

    def read_bytes(self, path: str) -> bytes:
        """The file's exact bytes."""
        target = self._path(path)
        with self._locks.hold(target):
            return b"".join(self._files.read(target))

    def read_text(self, path: str, *, offset: int = 0, limit: int | None = None) -> str:
        """The file as UTF-8 text; ``offset``/``limit`` select lines (0-based, line endings kept).

        A binary or non-UTF-8 file raises ``not_text`` (use :meth:`read_bytes`).
        """
        check_window(offset, limit)
        target = self._path(path)
        with self._locks.hold(target):
            if limit is None:
                return line_window(decode_text(b"".join(self._files.read(target)), target), offset, None)
            return decode_text(self._files.read_head(target, offset, limit), target)

    def write(self, path: str, content: str | bytes) -> None:
        """Create or overwrite the file (text is written as UTF-8); missing parents are created."""
        if not isinstance(content, str | bytes | bytearray | memoryview):
            raise TypeError(f"content must be str or bytes, got {type(content).__name__}")
        target = self._path(path, write=True)
        with self._locks.hold(target):
            self._files.write(target, chunks_of(content, target))

    def edit(self, path: str, old: str, new: str, *, replace_all: bool = False) -> int:
        """Replace the exact string ``old`` with ``new``; returns how many times it was replaced.

        ``old`` must occur exactly once unless ``replace_all``. The file is compared with what
        was read right before it is rewritten: a concurrent change fails with ``file_changed``
        instead of being lost.
        """
        if not isinstance(old, str) or not isinstance(new, str):
            raise TypeError("old and new must be str")
        target = self._path(path, write=True)
        with self._locks.hold(target):
            before = b"".join(self._files.read(target))
            text, count = replace_text(decode_text(before, target), old, new, replace_all=replace_all, path=target)
            self._files.replace(target, before, text.encode())
            return count

    def delete(self, path: str, *, recursive: bool = False) -> None:
        """Remove a file or symlink; a directory only with ``recursive``."""
        target = self._path(path, write=True)
        if target == "/" or target == self.files_root:
            raise FileOperationError(FileErrorCode.INVALID_PATH, target, "refusing to delete the sandbox's root")
        with self._locks.hold(target):
            self._files.delete(target, recursive=recursive)

    # -- listing and searching -----------------------------------------------------------

    def ls(self, path: str = ".") -> list[FileInfo]:
        """The directory's entries, sorted by name (hidden ones included)."""
        target = self._path(path)
        return sorted(self._files.ls(target), key=lambda info: info.path)

    def glob(
        self, pattern: str, *, path: str = ".", include_hidden: bool = False, limit: int | None = None
    ) -> list[str]:
        """Absolute paths below ``path`` matching ``pattern``, sorted.

        ``*``, ``?`` and ``[...]`` match within a name, ``**`` any number of directories,
        ``{a,b}`` either. Hidden entries (a name starting with ``.``) only with
        ``include_hidden`` or when the pattern names them (``.github/**``).
        """
        pattern = check_path(pattern)
        if pattern.startswith("/"):
            path, pattern = _split_glob(pattern)
        target = self._path(path)
        hidden = include_hidden or glob_asks_for_hidden(pattern)
        regex = compile_glob(pattern)
        found = sorted(
            posixpath.join(target, entry.relative)
            for entry in self._files.walk(target, include_hidden=hidden)
            if regex.match(entry.relative) and (hidden or not is_hidden(entry.relative))
        )
        return found if limit is None else found[:limit]

    def grep(
        self,
        pattern: str,
        *,
        path: str = ".",
        glob: str | None = None,
        regex: bool = False,
        ignore_case: bool = False,
        include_hidden: bool = False,
        max_results: int | None = None,
    ) -> list[GrepMatch]:
        """Lines matching ``pattern`` (a literal string, or with ``regex`` an extended regular
        expression) in the file ``path`` or the text files below it; ``glob`` filters file names
        (``*.py``) or, with a ``/``, relative paths. Binary files are skipped."""
        if not isinstance(pattern, str) or not pattern:
            raise ValueError("pattern must be a non-empty string")
        if "\0" in pattern or "\n" in pattern:
            raise ValueError("pattern cannot contain NUL or newline characters (grep matches within one line)")
        if regex:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"invalid regular expression {pattern!r}: {exc}") from None
        if max_results is not None and max_results < 1:
            raise ValueError(f"max_results must be None or >= 1, got {max_results}")
        target = self._path(path)
        query = GrepQuery(pattern, regex, ignore_case, glob, include_hidden, max_results)
        matches = self._files.grep(target, query)
        matches.sort(key=lambda m: (m.path, m.line))
        return matches if max_results is None else matches[:max_results]

    # -- transfers -----------------------------------------------------------------------

    def upload(self, files: Mapping[str, UploadSource] | Iterable[tuple[str, UploadSource]]) -> list[TransferResult]:
        """Write many files; one result per file, in order. A bad file never fails the batch.

        Each content is bytes, text, a host path (``pathlib.Path``, streamed) or a binary
        file object (streamed).
        """
        items = list(files.items()) if isinstance(files, Mapping) else list(files)
        results = []
        for raw, source in items:
            try:
                self.upload_file(raw, source)
                results.append(TransferResult(str(raw)))
            except FileOperationError as exc:
                results.append(TransferResult(str(raw), exc.code, exc.reason, violation=exc.violation))
        return results

    def upload_file(self, path: str, source: UploadSource) -> None:
        """Stream one file into the sandbox (host path, file object, bytes or text)."""
        target = self._path(path, write=True)
        with self._locks.hold(target):
            self._files.write(target, chunks_of(source, target))

    def download(self, paths: Iterable[str]) -> list[TransferResult]:
        """Read many files into memory; one result per path, in order (``content`` on success)."""
        results = []
        for raw in paths:
            try:
                results.append(TransferResult(str(raw), content=self.read_bytes(raw)))
            except FileOperationError as exc:
                results.append(TransferResult(str(raw), exc.code, exc.reason, violation=exc.violation))
        return results

    def download_file(self, path: str, dest: str | os.PathLike[str] | IO[bytes]) -> int:
        """Stream one file out of the sandbox to a host path or a binary file object; returns its size.

        A host path is written next to the destination and renamed into place when complete.
        """
        target = self._path(path)
        with self._locks.hold(target):
            if not isinstance(dest, str | os.PathLike):
                return _copy(self._files.read(target), dest)
            final = Path(os.fspath(dest))
            partial = final.with_name(final.name + ".part")
            try:
                with open(partial, "wb") as handle:
                    size = _copy(self._files.read(target), handle)
                os.replace(partial, final)
            except BaseException:
                partial.unlink(missing_ok=True)
                raise
            return size

    # -- async twins ---------------------------------------------------------------------

    async def aread_text(self, path: str, *, offset: int = 0, limit: int | None = None) -> str:
        return await asyncio.to_thread(self.read_text, path, offset=offset, limit=limit)

    async def aread_bytes(self, path: str) -> bytes:
        return await asyncio.to_thread(self.read_bytes, path)

    async def awrite(self, path: str, content: str | bytes) -> None:
        await asyncio.to_thread(self.write, path, content)

    async def aedit(self, path: str, old: str, new: str, *, replace_all: bool = False) -> int:
        return await asyncio.to_thread(self.edit, path, old, new, replace_all=replace_all)

    async def als(self, path: str = ".") -> list[FileInfo]:
        return await asyncio.to_thread(self.ls, path)

    async def aglob(
        self, pattern: str, *, path: str = ".", include_hidden: bool = False, limit: int | None = None
    ) -> list[str]:
        return await asyncio.to_thread(self.glob, pattern, path=path, include_hidden=include_hidden, limit=limit)

    async def agrep(self, pattern: str, **options: object) -> list[GrepMatch]:
        return await asyncio.to_thread(lambda: self.grep(pattern, **options))  # type: ignore[arg-type]

    async def adelete(self, path: str, *, recursive: bool = False) -> None:
        await asyncio.to_thread(self.delete, path, recursive=recursive)

    async def aupload(self, files: Mapping[str, UploadSource]) -> list[TransferResult]:
        return await asyncio.to_thread(self.upload, files)

    async def adownload(self, paths: Iterable[str]) -> list[TransferResult]:
        return await asyncio.to_thread(self.download, list(paths))


def _copy(chunks: Iterable[bytes], handle: IO[bytes]) -> int:
    size = 0
    for chunk in chunks:
        handle.write(chunk)
        size += len(chunk)
    return size


def _split_glob(pattern: str) -> tuple[str, str]:
    """``/src/**/*.py`` -> (``/src``, ``**/*.py``): the literal directory prefix and the rest."""
    parts = pattern.split("/")
    literal = 1
    while literal < len(parts) - 1 and not is_glob(parts[literal]) and "{" not in parts[literal]:
        literal += 1
    return "/".join(parts[:literal]) or "/", "/".join(parts[literal:])
