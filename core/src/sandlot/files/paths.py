"""Sandbox paths: validation, normalisation and virtual-path mounts.

A path reaches a backend absolute and normalised, as the sandbox sees it. Relative paths
are taken from the sandbox's files root (its working directory at creation), never from
wherever the shell has ``cd``-ed to since.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterable

import attrs

from sandlot.errors import FileOperationError
from sandlot.files.model import FileErrorCode


def check_path(path: object) -> str:
    """``path`` if it is a usable path string, else an ``invalid_path`` error saying why."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not isinstance(path, str):
        raise TypeError(f"a path must be a str, bytes or os.PathLike, got {type(path).__name__}")
    if not path:
        raise FileOperationError(FileErrorCode.INVALID_PATH, path, "the path is empty")
    if "\0" in path:
        raise FileOperationError(FileErrorCode.INVALID_PATH, repr(path), "the path contains a NUL byte")
    try:
        path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        raise FileOperationError(
            FileErrorCode.INVALID_PATH, repr(path), "the path contains characters that are not valid in a file name"
        ) from None
    return path


def normalise(path: str, root: str) -> str:
    """The absolute form of ``path`` (relative to ``root``), with ``.``/``..`` folded lexically."""
    joined = path if path.startswith("/") else posixpath.join(root, path)
    normal = posixpath.normpath(joined)
    return "/" + normal.lstrip("/")


def inside(path: str, root: str) -> bool:
    """Whether ``path`` is ``root`` or below it (both absolute and normalised)."""
    return root == "/" or path == root or path.startswith(root + "/")


#: Virtual paths a mount may not take: the sandbox's own system directories.
RESERVED_VIRTUAL = ("/proc", "/dev", "/sys", "/tmp", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/etc")


def _check_virtual(_: object, __: object, value: str) -> None:
    if not value.startswith("/") or normalise(value, "/") != value:
        raise ValueError(f"virtual: expected an absolute, normalised path such as /workspace, got {value!r}")
    reserved = next((r for r in RESERVED_VIRTUAL if inside(value, r)), None)
    if value == "/" or reserved is not None:
        hidden = reserved or "/"
        raise ValueError(f"virtual: {value!r} would hide the sandbox's own {hidden}; use e.g. /workspace, /mnt/data")


def _check_host(_: object, __: object, value: str) -> None:
    if not os.path.expanduser(value).startswith("/"):
        raise ValueError(f"host: expected an absolute path (or one starting with ~), got {value!r}")


@attrs.frozen
class Mount:
    """A host directory shown to the sandbox at a virtual path (``/workspace``, ``/mnt/data``).

    Commands and file operations use the virtual path; host paths in command output are
    replaced by virtual ones. ``host`` may start with ``~``.
    """

    virtual: str = attrs.field(validator=_check_virtual)
    host: str = attrs.field(validator=_check_host)
    read_only: bool = False

    def resolved(self) -> Mount:
        """The mount with its host path expanded and resolved; an error names a missing directory."""
        host = os.path.realpath(os.path.expanduser(self.host))
        if not os.path.isdir(host):
            raise FileNotFoundError(f"mount {self.virtual}: host directory {self.host} does not exist")
        return Mount(self.virtual, host, self.read_only)


@attrs.frozen
class PathMap:
    """Translates sandbox (virtual) paths to host paths and masks host paths in output."""

    mounts: tuple[Mount, ...] = ()

    @classmethod
    def of(cls, mounts: Iterable[Mount]) -> PathMap:
        """A map of resolved mounts (host directories must exist; virtual paths must differ)."""
        resolved = [m.resolved() for m in mounts]
        seen: set[str] = set()
        for mount in resolved:
            if mount.virtual in seen:
                raise ValueError(f"two mounts share the virtual path {mount.virtual}")
            seen.add(mount.virtual)
        return cls(tuple(sorted(resolved, key=lambda m: len(m.virtual), reverse=True)))

    def __bool__(self) -> bool:
        return bool(self.mounts)

    def find(self, path: str) -> Mount | None:
        """The mount a normalised sandbox path lies in (the deepest one), if any."""
        return next((m for m in self.mounts if inside(path, m.virtual)), None)

    def to_host(self, path: str) -> str:
        """The host path of a sandbox path (unchanged outside every mount)."""
        mount = self.find(path)
        if mount is None:
            return path
        return mount.host + path[len(mount.virtual) :]

    def to_virtual(self, host_path: str) -> str:
        """The sandbox path of a host path (unchanged outside every mount)."""
        for mount in sorted(self.mounts, key=lambda m: len(m.host), reverse=True):
            if inside(host_path, mount.host):
                return mount.virtual + host_path[len(mount.host) :]
        return host_path

    def mask(self, data: bytes) -> bytes:
        """``data`` with every mount's host path replaced by its virtual path (whole path components only)."""
        for mount in sorted(self.mounts, key=lambda m: len(m.host), reverse=True):
            host = re.escape(mount.host.encode("utf-8", "surrogateescape"))
            data = re.sub(host + rb"(?![^/\s'\"`:;,)\]}>|])", mount.virtual.encode(), data)
        return data

    def mask_text(self, text: str) -> str:
        return self.mask(text.encode("utf-8", "surrogateescape")).decode("utf-8", "surrogateescape")
