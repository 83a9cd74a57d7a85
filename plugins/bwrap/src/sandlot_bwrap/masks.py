"""Planning the filesystem view: which host paths are bound read-write, read-only, or masked.

Every destination is a *real* path (symlinks resolved on the host): bwrap mounts after
pivoting into a scratch root, where an absolute symlink in a destination would point
somewhere else or fail, and a deny entry that is a symlink must mask what it points to.
Only paths that exist are mounted, so bwrap never creates a mount point on the host.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

import attrs

from sandlot.policy import ResolvedFilesystem

#: Host directories replaced inside the sandbox by private mounts (nothing of the host shows).
PRIVATE_DIRS = (Path("/tmp"), Path("/dev"), Path("/proc"))


@attrs.frozen
class Mask:
    """A denied path and what hides it (an empty mode-000 file or directory, bound read-only)."""

    path: Path
    is_dir: bool
    #: Why this path is masked: "deny", "deny-glob", "hardlink of <path>".
    reason: str = "deny"


@attrs.frozen
class FilesystemPlan:
    read_write: tuple[Path, ...]
    read_only: tuple[Path, ...]
    masks: tuple[Mask, ...]
    #: Binds in mount order: (path, writable).
    mounts: tuple[tuple[Path, bool], ...] = ()
    #: Denied inodes (st_dev, st_ino) of files with more than one link (hardlink bypass).
    linked_inodes: frozenset[tuple[int, int]] = frozenset()
    notes: tuple[str, ...] = ()


def real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _depth_sorted(paths: Iterable[Path]) -> tuple[Path, ...]:
    return tuple(sorted(dict.fromkeys(paths), key=lambda p: (len(p.parts), str(p))))


def _under(path: Path, roots: Iterable[Path]) -> bool:
    # String prefixes, not Path.parents: this runs for every mask at every launch.
    text = str(path)
    return any(text == str(root) or text.startswith(str(root).rstrip("/") + "/") for root in roots)


def visible(path: Path, binds: Iterable[Path]) -> bool:
    """Whether ``path`` shows inside the sandbox (the root is bound read-only; /tmp, /dev, /proc are private)."""
    binds = tuple(binds)
    if _under(path, binds):
        return True
    return not _under(path, PRIVATE_DIRS)


def plan(
    fs: ResolvedFilesystem, *, scan_limit: int, extra_masks: Iterable[Path] = (), workdir: Path | None = None
) -> FilesystemPlan:
    notes: list[str] = []
    trusted = _trusted_entries(fs, notes)
    # read_only entries bind their real target even through a planted symlink: that only
    # makes more read-only, so e.g. a `.git/hooks` symlinked elsewhere stays protected.
    ro = _depth_sorted(real(p) for p in fs.read_only if os.path.exists(p))
    # read_only wins over read_write: a writable path below a read-only one stays read-only.
    rw_real = (real(p) for p in fs.read_write if p in trusted and os.path.exists(p))
    rw = tuple(p for p in _depth_sorted(rw_real) if not _under(p, ro))
    view_only: tuple[Path, ...] = ()
    if workdir is not None and not visible(workdir, rw + ro):
        # Reads are allowed everywhere: a working directory under the private /tmp stays readable.
        view_only = (workdir,)
    binds = rw + ro + view_only
    # Mount order: parents before children, so a nested bind is not hidden by its parent's.
    mounts = tuple(
        sorted(
            [(p, True) for p in rw] + [(p, False) for p in ro + view_only],
            key=lambda item: (len(item[0].parts), str(item[0]), item[1] is False),
        )
    )
    masks: dict[Path, Mask] = {}
    linked: set[tuple[int, int]] = set()
    for entry in fs.deny:
        target = real(entry)
        if not os.path.exists(target):
            # A dangling symlink or a path gone since resolution: nothing to hide, and
            # binding onto it would make bwrap create it on the host. Checked after each command.
            notes.append(f"deny path {entry} does not exist (dangling symlink?); not masked")
            continue
        if target != entry:
            notes.append(f"deny path {entry} is a symlink; masking its target {target}")
        if not visible(target, binds):
            continue
        is_dir = target.is_dir()
        masks.setdefault(target, Mask(target, is_dir, "deny"))
        linked |= _linked_inodes(target, is_dir, scan_limit)
    for extra in extra_masks:
        target = real(extra)
        if os.path.exists(target) and visible(target, binds):
            masks.setdefault(target, Mask(target, target.is_dir(), "sandlot state"))
    if linked:
        # A denied file with other hard links is readable through them: mask every link found
        # where the sandbox could reach it (the writable and read-only roots).
        for path in _find_inodes(rw + ro, linked, scan_limit):
            if path not in masks and not _under(path, [m.path for m in masks.values() if m.is_dir]):
                masks[path] = Mask(path, False, "hardlink of a denied file")
                notes.append(f"{path} is a hard link of a denied file; masked")
    # A mask inside a masked directory is unreachable anyway, and its mount point would have
    # to be created inside the (host-side) mask directory.
    dir_masks = [m.path for m in masks.values() if m.is_dir]
    kept = [m for m in masks.values() if not any(d in m.path.parents for d in dir_masks)]
    ordered = tuple(sorted(kept, key=lambda m: (len(m.path.parts), str(m.path))))
    return FilesystemPlan(rw, ro + view_only, ordered, mounts, frozenset(linked), tuple(notes))


def _trusted_entries(fs: ResolvedFilesystem, notes: list[str]) -> set[Path]:
    """read_write entries whose path goes through no symlink the sandbox could have planted.

    Binds use real paths. A symlink inside a writable root (``./build -> /home/me``, left
    in a cloned repository or by a command before the session was rebuilt) would make a
    ``read_write`` entry bind its target — a path outside every writable root — so such
    an entry is skipped (what it points to stays read-only) and the skip is noted.
    """
    roots = [Path(os.path.abspath(p)) for p in fs.read_write]
    trusted: set[Path] = set()
    for entry in fs.read_write:
        path = Path(os.path.abspath(entry))
        planted = None
        for prefix in (path, *path.parents):
            if os.path.islink(prefix) and any(root in prefix.parents for root in roots):
                planted = prefix
                break
        if planted is None:
            trusted.add(entry)
        else:
            notes.append(f"{entry} goes through the symlink {planted} inside a writable path; not bound")
    return trusted


def _linked_inodes(target: Path, is_dir: bool, limit: int) -> set[tuple[int, int]]:
    found: set[tuple[int, int]] = set()

    def check(path: str) -> None:
        try:
            st = os.lstat(path)
        except OSError:
            return
        if stat.S_ISREG(st.st_mode) and st.st_nlink > 1:
            found.add((st.st_dev, st.st_ino))

    if not is_dir:
        check(str(target))
        return found
    seen = 0
    for dirpath, _dirs, files in os.walk(target):
        for name in files:
            seen += 1
            if seen > limit:
                return found
            check(os.path.join(dirpath, name))
    return found


def _find_inodes(roots: Iterable[Path], inodes: set[tuple[int, int]], limit: int) -> list[Path]:
    found: list[Path] = []
    seen = 0
    for root in roots:
        for dirpath, _dirs, files in os.walk(root):
            for name in files:
                seen += 1
                if seen > limit:
                    return found
                path = os.path.join(dirpath, name)
                try:
                    st = os.lstat(path)
                except OSError:
                    continue
                if (st.st_dev, st.st_ino) in inodes:
                    found.append(Path(path))
    return found
