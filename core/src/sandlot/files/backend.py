"""The file backend contract: what a provider implements to give a sandbox file operations.

Every path a backend receives is absolute and normalised in the sandbox's view; the
public methods on :class:`~sandlot.sandbox.Sandbox` validate input, take the per-path
lock and do the text handling, so a backend only moves bytes and lists entries.
"""

from __future__ import annotations

import abc
from collections.abc import Iterable, Iterator

import attrs

from sandlot.files.model import FileInfo, GrepMatch


@attrs.frozen
class GrepQuery:
    """What ``grep`` looks for. ``regex`` patterns use the syntax common to POSIX ERE and Python ``re``."""

    pattern: str
    regex: bool = False
    ignore_case: bool = False
    include: str | None = None
    include_hidden: bool = False
    max_results: int | None = None


@attrs.frozen
class WalkEntry:
    """An entry below a walked directory: path relative to it, and whether it is a directory."""

    relative: str
    is_dir: bool


class FileBackend(abc.ABC):
    """Moves bytes in and out of one sandbox. Errors are :class:`~sandlot.errors.FileOperationError`."""

    @abc.abstractmethod
    def read(self, path: str) -> Iterator[bytes]:
        """The file's content in chunks (a generator: nothing is held whole in memory)."""

    def read_head(self, path: str, offset: int, limit: int) -> bytes:
        """Lines ``offset`` .. ``offset + limit`` (0-based) as bytes; backends may do better than reading all."""
        kept: list[bytes] = []
        line, rest = 0, b""
        for chunk in self.read(path):
            rest += chunk
            *lines, rest = rest.split(b"\n")
            for piece in lines:
                if line >= offset + limit:
                    return b"".join(kept)
                if line >= offset:
                    kept.append(piece + b"\n")
                line += 1
        if rest and offset <= line < offset + limit:
            kept.append(rest)
        return b"".join(kept)

    @abc.abstractmethod
    def write(self, path: str, chunks: Iterable[bytes]) -> None:
        """Create or overwrite the file, creating missing parent directories."""

    @abc.abstractmethod
    def replace(self, path: str, expected: bytes, content: bytes) -> None:
        """Overwrite the file with ``content`` only if it still holds ``expected`` (else ``file_changed``)."""

    @abc.abstractmethod
    def ls(self, path: str) -> list[FileInfo]:
        """The directory's entries (unsorted)."""

    @abc.abstractmethod
    def walk(self, path: str, *, include_hidden: bool) -> list[WalkEntry]:
        """Every entry below the directory (not following directory symlinks)."""

    @abc.abstractmethod
    def grep(self, path: str, query: GrepQuery) -> list[GrepMatch]:
        """Matching lines of the file, or of the text files below the directory."""

    @abc.abstractmethod
    def delete(self, path: str, *, recursive: bool) -> None:
        """Remove the file (or, with ``recursive``, the directory tree)."""
