"""Value objects of file operations: entries, grep matches, per-file transfer results, error codes."""

from __future__ import annotations

import enum

import attrs

from sandlot.results import Violation


class FileErrorCode(enum.StrEnum):
    """Why one file operation failed; stable strings an agent or a UI can switch on."""

    FILE_NOT_FOUND = "file_not_found"
    PERMISSION_DENIED = "permission_denied"
    IS_DIRECTORY = "is_directory"
    NOT_A_DIRECTORY = "not_a_directory"
    INVALID_PATH = "invalid_path"
    #: The file is not UTF-8 text (read it as bytes instead).
    NOT_TEXT = "not_text"
    #: ``edit``: the old string does not occur in the file.
    STRING_NOT_FOUND = "string_not_found"
    #: ``edit``: the old string occurs more than once and ``replace_all`` was not given.
    AMBIGUOUS_MATCH = "ambiguous_match"
    #: ``edit``: the file changed between reading it and writing the replacement.
    FILE_CHANGED = "file_changed"
    #: Anything else (a full disk, a broken transport); the message says what.
    FAILED = "failed"


@attrs.frozen
class FileInfo:
    """One directory entry. ``path`` is absolute in the sandbox's view."""

    path: str
    is_dir: bool
    size: int = 0
    modified: float = 0.0
    is_symlink: bool = False

    @property
    def name(self) -> str:
        return self.path.rstrip("/").rsplit("/", 1)[-1] or "/"


@attrs.frozen
class GrepMatch:
    """One matching line: ``line`` counts from 1, ``text`` is the line without its newline."""

    path: str
    line: int
    text: str


@attrs.frozen
class TransferResult:
    """The outcome for one file of an ``upload`` or ``download`` batch.

    ``path`` is the path as the caller gave it. ``content`` holds the bytes of an in-memory
    download; ``error`` is None on success.
    """

    path: str
    error: FileErrorCode | None = None
    message: str = ""
    content: bytes | None = None
    violation: Violation | None = None

    @property
    def ok(self) -> bool:
        return self.error is None
