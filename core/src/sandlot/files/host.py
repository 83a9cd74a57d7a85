"""The host-side file backend: direct file access for sandboxes whose files live on this host.

Used by the local provider for every path and by bwrap for paths in its host-backed binds
(where the sandbox sees a host directory at the same or a mounted virtual path). A path
outside those roots goes to the fallback backend, which runs inside the sandbox and so
sees exactly what commands see (bwrap's private /tmp, for instance).

Sandboxed code shares these directories and may swap a file for a symlink at any time,
so every open is checked after the fact: paths are resolved, opened without following a
final symlink, and the descriptor's real path (``/proc/self/fd``) must be the one that was
checked against the roots and the policy. FIFOs and devices are never opened for I/O.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import stat
import subprocess
from collections.abc import Callable, Iterable, Iterator

import attrs

from sandlot.errors import FileOperationError
from sandlot.files.backend import FileBackend, GrepQuery, WalkEntry
from sandlot.files.guard import FileGuard
from sandlot.files.model import FileErrorCode, FileInfo, GrepMatch
from sandlot.files.paths import PathMap, inside
from sandlot.files.text import include_matches, is_hidden
from sandlot.results import Violation, ViolationKind

READ_CHUNK = 1024 * 1024
_BINARY_PROBE = 8192

_ERRNO_CODES = {
    errno.ENOENT: FileErrorCode.FILE_NOT_FOUND,
    errno.EACCES: FileErrorCode.PERMISSION_DENIED,
    errno.EPERM: FileErrorCode.PERMISSION_DENIED,
    errno.EROFS: FileErrorCode.PERMISSION_DENIED,
    errno.EISDIR: FileErrorCode.IS_DIRECTORY,
    errno.ENOTDIR: FileErrorCode.NOT_A_DIRECTORY,
    errno.ENAMETOOLONG: FileErrorCode.INVALID_PATH,
}


def os_error(exc: OSError, path: str) -> FileOperationError:
    code = _ERRNO_CODES.get(exc.errno or 0, FileErrorCode.FAILED)
    return FileOperationError(code, path, exc.strerror or str(exc))


class Outside(Exception):
    """The path is not in a host-backed root: the fallback backend serves it."""


@attrs.frozen
class HostScope:
    """Where the host backend may act. ``read``/``write`` hold host paths (``/`` for everything)."""

    read: tuple[str, ...]
    write: tuple[str, ...]
    mounts: PathMap = attrs.field(factory=PathMap)


class HostFiles(FileBackend):
    def __init__(
        self, scope: HostScope | Callable[[], HostScope], guard: FileGuard, fallback: FileBackend | None = None
    ) -> None:
        self._scope_of = scope if callable(scope) else (lambda: scope)
        self._guard = guard
        self._fallback = fallback

    @property
    def _scope(self) -> HostScope:
        """Asked on every operation: a provider's roots can change when its sandbox is relaunched."""
        return self._scope_of()

    # -- resolving -----------------------------------------------------------------------

    def _resolve(self, path: str, *, write: bool, follow: bool = True) -> str:
        """The real host path behind a sandbox path, checked against roots and policy."""
        scope = self._scope
        mount = scope.mounts.find(path)
        host = scope.mounts.to_host(path)
        if follow:
            real = os.path.realpath(host)
        else:
            real = os.path.join(os.path.realpath(os.path.dirname(host)), os.path.basename(host))
        # The policy first: a link to a denied file is a denial (with a Violation), wherever it
        # points. (The lexical path was checked before the backend was called.)
        if real != host:
            self._guard.check(real, write=write, shown=path)
        if mount is not None:
            if not inside(real, mount.host):
                raise FileOperationError(
                    FileErrorCode.INVALID_PATH, path, f"resolves outside its mount {mount.virtual}"
                )
            if write and mount.read_only:
                raise FileOperationError(FileErrorCode.PERMISSION_DENIED, path, f"mount {mount.virtual} is read-only")
        roots = scope.write if write else scope.read
        if not any(inside(real, root) for root in roots):
            raise Outside(path)
        return real

    def _outside(self, path: str) -> FileBackend:
        """The backend for a path outside the host-backed roots (there is none for the local provider)."""
        if self._fallback is None:
            reason = "not writable: outside the sandbox's read_write paths (policy.filesystem.read_write)"
            violation = Violation(ViolationKind.FILESYSTEM, path, reason)
            raise FileOperationError(FileErrorCode.PERMISSION_DENIED, path, reason, violation)
        return self._fallback

    @staticmethod
    def _verify(fd: int, real: str, path: str) -> None:
        actual = os.readlink(f"/proc/self/fd/{fd}")
        if actual != real:
            os.close(fd)
            raise FileOperationError(FileErrorCode.FAILED, path, "the path changed while it was being opened; retry")

    def _open_file(self, path: str, flags: int, *, write: bool) -> tuple[int, str]:
        real = self._resolve(path, write=write)
        fd = _open_no_follow(real, flags, path)
        self._verify(fd, real, path)
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            os.close(fd)
            raise FileOperationError(FileErrorCode.IS_DIRECTORY, path, "is a directory")
        if not stat.S_ISREG(mode):
            os.close(fd)
            raise FileOperationError(FileErrorCode.FAILED, path, "is not a regular file (a FIFO, socket or device)")
        os.set_blocking(fd, True)
        return fd, real

    # -- operations ----------------------------------------------------------------------

    def read(self, path: str) -> Iterator[bytes]:
        try:
            fd, _ = self._open_file(path, os.O_RDONLY, write=False)
        except Outside:
            yield from self._outside(path).read(path)
            return
        with os.fdopen(fd, "rb", buffering=0) as handle:
            while chunk := handle.read(READ_CHUNK):
                yield chunk

    def write(self, path: str, chunks: Iterable[bytes]) -> None:
        try:
            real = self._resolve(path, write=True)
        except Outside:
            self._outside(path).write(path, chunks)
            return
        parent, name = os.path.split(real)
        try:
            os.makedirs(parent, exist_ok=True)
        except FileExistsError:
            raise FileOperationError(FileErrorCode.NOT_A_DIRECTORY, path, "a parent is not a directory") from None
        except OSError as exc:
            raise os_error(exc, path) from None
        try:
            dir_fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as exc:
            raise os_error(exc, path) from None
        try:
            self._verify(dir_fd, parent, path)
            fd = _open_no_follow(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, path, dir_fd=dir_fd)
        finally:
            os.close(dir_fd)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise FileOperationError(FileErrorCode.FAILED, path, "is not a regular file (a FIFO, socket or device)")
        os.set_blocking(fd, True)
        try:
            with os.fdopen(fd, "wb", buffering=0) as handle:
                for chunk in chunks:
                    view = memoryview(chunk)
                    while view:
                        view = view[handle.write(view) or 0 :]
        except OSError as exc:
            raise os_error(exc, path) from None

    def replace(self, path: str, expected: bytes, content: bytes) -> None:
        try:
            fd, _ = self._open_file(path, os.O_RDWR, write=True)
        except Outside:
            self._outside(path).replace(path, expected, content)
            return
        except FileOperationError as exc:
            if exc.code == FileErrorCode.FILE_NOT_FOUND:
                raise FileOperationError(
                    FileErrorCode.FILE_CHANGED, path, "the file was removed while editing"
                ) from None
            raise
        with os.fdopen(fd, "r+b", buffering=0) as handle:
            current = _read_all(handle)
            if current != expected:
                raise FileOperationError(
                    FileErrorCode.FILE_CHANGED, path, "the file changed since it was read; read it again and retry"
                )
            handle.seek(0)
            view = memoryview(content)
            while view:
                view = view[handle.write(view) or 0 :]
            handle.truncate(len(content))

    def ls(self, path: str) -> list[FileInfo]:
        try:
            real = self._resolve(path, write=False)
        except Outside:
            return self._outside(path).ls(path)
        entries = []
        try:
            with os.scandir(real) as found:
                for entry in found:
                    entries.append(_info(path.rstrip("/") + "/" + entry.name, entry))
        except OSError as exc:
            raise os_error(exc, path) from None
        return entries

    def walk(self, path: str, *, include_hidden: bool) -> list[WalkEntry]:
        try:
            real = self._resolve(path, write=False)
        except Outside:
            return self._outside(path).walk(path, include_hidden=include_hidden)
        return list(self._fwalk(real, path, include_hidden))

    def _fwalk(self, real: str, path: str, include_hidden: bool, skip_denied: bool = True) -> Iterator[WalkEntry]:
        """Entries below ``real`` (fd-based: never follows symlinks, even ones swapped in meanwhile).

        Denied directories are not entered unless ``skip_denied`` is false (delete must see them)."""
        if not os.path.isdir(real):
            try:
                os.stat(real)
            except OSError as exc:
                raise os_error(exc, path) from None
            raise FileOperationError(FileErrorCode.NOT_A_DIRECTORY, path, "is not a directory")
        for top, dirs, files, _ in os.fwalk(real):
            relative_top = os.path.relpath(top, real)
            prefix = "" if relative_top == "." else relative_top + "/"
            kept = []
            for name in dirs:
                if not include_hidden and name.startswith("."):
                    continue
                if skip_denied and self._guard.denied_by(os.path.join(top, name)) is not None:
                    continue
                kept.append(name)
                yield WalkEntry(prefix + name, True)
            dirs[:] = kept
            for name in files:
                if not include_hidden and name.startswith("."):
                    continue
                yield WalkEntry(prefix + name, False)

    def grep(self, path: str, query: GrepQuery) -> list[GrepMatch]:
        try:
            real = self._resolve(path, write=False)
        except Outside:
            return self._outside(path).grep(path, query)
        matchers = (_matcher(query), _matcher(query, whole_text=True))
        limit = query.max_results
        matches: list[GrepMatch] = []
        if not os.path.isdir(real):
            fd, _ = self._open_file(path, os.O_RDONLY, write=False)
            _grep_fd(fd, path, matchers, matches, limit)
            return matches
        # Files in path order, so a cap keeps the first matches whatever order directories list them in.
        # The host's grep names the candidates when it can; each is opened and checked below
        # exactly like a walked file (its real path must be the one asked for: no symlinks).
        candidates = _files_containing(real, query)
        if candidates is None:
            candidates = {e.relative for e in self._fwalk(real, path, query.include_hidden) if not e.is_dir}
        files = sorted(
            relative
            for relative in candidates
            if (query.include_hidden or not is_hidden(relative))
            and (query.include is None or include_matches(query.include, relative))
        )
        for relative in files:
            candidate = os.path.join(real, relative)
            if self._guard.denied_by(candidate) is not None:
                continue
            try:
                fd = os.open(candidate, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK)
            except OSError:
                continue  # unreadable or a symlink: grep -r skips these too
            if os.readlink(f"/proc/self/fd/{fd}") != candidate or not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)  # swapped for a symlinked directory meanwhile, or a FIFO/device
                continue
            os.set_blocking(fd, True)
            _grep_fd(fd, path.rstrip("/") + "/" + relative, matchers, matches, limit)
            if limit is not None and len(matches) >= limit:
                break
        return matches

    def delete(self, path: str, *, recursive: bool) -> None:
        try:
            real = self._resolve(path, write=True, follow=False)
        except Outside:
            self._outside(path).delete(path, recursive=recursive)
            return
        try:
            info = os.lstat(real)
            if stat.S_ISDIR(info.st_mode):
                if not recursive:
                    raise FileOperationError(
                        FileErrorCode.IS_DIRECTORY, path, "is a directory; pass recursive=True to remove it"
                    )
                for entry in self._fwalk(real, path, include_hidden=True, skip_denied=False):
                    self._guard.check(os.path.join(real, entry.relative), write=True, shown=path)
                shutil.rmtree(real)
            else:
                os.unlink(real)
        except OSError as exc:
            raise os_error(exc, path) from None


def _open_no_follow(name: str, flags: int, path: str, *, dir_fd: int | None = None) -> int:
    """``os.open`` that never follows a final symlink nor blocks on a FIFO; errors name ``path``."""
    try:
        return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, 0o666, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:  # a symlink appeared where a file was checked
            raise FileOperationError(FileErrorCode.FAILED, path, "the path changed while it was being opened") from None
        raise os_error(exc, path) from None


def _read_all(handle: object) -> bytes:
    parts = []
    while chunk := handle.read(READ_CHUNK):  # type: ignore[attr-defined]
        parts.append(chunk)
    return b"".join(parts)


def _info(path: str, entry: os.DirEntry[str]) -> FileInfo:
    # Size and time are the entry's own (a symlink's, like ``ls -l``); is_dir follows links.
    info = entry.stat(follow_symlinks=False)
    is_dir = entry.is_dir(follow_symlinks=True)
    return FileInfo(path, is_dir, 0 if is_dir else info.st_size, info.st_mtime, entry.is_symlink())


def _matcher(query: GrepQuery, *, whole_text: bool = False) -> Callable[[str], bool]:
    """A line matcher; with ``whole_text``, a prefilter for a whole file that never misses a line's match."""
    if query.regex:
        flags = (re.IGNORECASE if query.ignore_case else 0) | (re.MULTILINE if whole_text else 0)
        compiled = re.compile(query.pattern, flags)
        return lambda text: compiled.search(text) is not None
    if query.ignore_case:
        needle = query.pattern.casefold()
        return lambda text: needle in text.casefold()
    return lambda text: query.pattern in text


_HOST_GREP = shutil.which("grep")


def _files_containing(real: str, query: GrepQuery) -> set[str] | None:
    """Relative paths below ``real`` of the files holding a case-sensitive literal, found by the
    host's grep in one process; None when it cannot tell (no grep, a regex, ignore_case).

    Only names come back: every candidate is still opened, checked and searched here, so a
    name that is not a regular file, is denied or was swapped meanwhile is dropped as usual."""
    if _HOST_GREP is None or query.regex or query.ignore_case:
        return None
    argv = [_HOST_GREP, "-rlZ", "-D", "skip", "-F", "-e", query.pattern]
    if not query.include_hidden:
        argv += ["--exclude-dir=.?*", "--exclude=.*"]  # ".?*": never the starting directory "."
    try:
        done = subprocess.run([*argv, "--", "."], cwd=real, env={"LC_ALL": "C"}, capture_output=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode not in (0, 1, 2):  # 2: some file was unreadable; the others are listed
        return None
    return {os.path.normpath(os.fsdecode(name)) for name in done.stdout.split(b"\0") if name}


#: Files up to this size are searched whole first, so most files cost one read and one search.
WHOLE_FILE_BYTES = 32 * 1024 * 1024


def _grep_fd(
    fd: int,
    shown: str,
    matchers: tuple[Callable[[str], bool], Callable[[str], bool]],
    out: list[GrepMatch],
    limit: int | None,
) -> None:
    matcher, prefilter = matchers
    with os.fdopen(fd, "rb") as handle:
        head = handle.read(_BINARY_PROBE)
        if b"\0" in head:
            return  # binary: grep -I skips it
        if os.fstat(fd).st_size <= WHOLE_FILE_BYTES:
            data = head + handle.read()
            text = data.decode("utf-8", "replace")
            if not prefilter(text):
                return
            lines: Iterable[str] = text.split("\n")
            if text.endswith("\n"):
                lines = text[:-1].split("\n")
        else:
            handle.seek(0)
            lines = (raw.rstrip(b"\n").decode("utf-8", "replace") for raw in handle)
        for number, line in enumerate(lines, 1):
            if matcher(line):
                out.append(GrepMatch(shown, number, line))
                if limit is not None and len(out) >= limit:
                    return
