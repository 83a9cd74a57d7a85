"""File operations on sandboxes: models, the backend contract, the generic and host backends."""

from sandlot.errors import FileOperationError
from sandlot.files.backend import FileBackend, GrepQuery, WalkEntry
from sandlot.files.guard import FileGuard
from sandlot.files.model import FileErrorCode, FileInfo, GrepMatch, TransferResult
from sandlot.files.paths import Mount, PathMap

__all__ = [
    "FileBackend",
    "FileErrorCode",
    "FileGuard",
    "FileInfo",
    "FileOperationError",
    "GrepMatch",
    "GrepQuery",
    "Mount",
    "PathMap",
    "TransferResult",
    "WalkEntry",
]
