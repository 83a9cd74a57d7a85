"""After each command: find denied paths that appeared during the run, and deal with them.

Masks are bind mounts made when the sandbox starts, so anything matching a deny entry
that appears later is not hidden: a ``.env`` the command wrote, one the user saved
meanwhile, or a masked file the command moved by renaming an ancestor directory. They
are found by scanning the writable roots after every command and reported; per
``on_deny_created`` they are also quarantined (moved out of the sandbox's view) or removed.
Masked files whose inode turns up under a new name are reported as moved, never touched:
they are the user's secrets, still masked inside (a mount follows its dentry).

File operations go through directory descriptors opened with O_NOFOLLOW from the writable
root, so a process still running in the sandbox cannot redirect them with a symlink swap.
"""

from __future__ import annotations

import glob
import os
import shutil
import stat
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

from sandlot.policy import Policy, expand_user_vars, glob_matches, is_glob
from sandlot_bwrap.masks import FilesystemPlan, real
from sandlot_bwrap.options import DenyCreated
from sandlot_bwrap.scan import TreeScanner


@attrs.frozen
class Finding:
    path: Path
    #: "created" (a new denied path) or "moved" (a masked path under a new name).
    what: str
    action: str
    detail: str = ""


class DenyGuard:
    def __init__(
        self,
        policy: Policy,
        *,
        workdir: Path,
        home: str,
        env: dict[str, str],
        action: DenyCreated,
        quarantine: Path | None,
        scan_limit: int,
    ) -> None:
        self.action = action
        self.quarantine = quarantine
        self.scan_limit = scan_limit
        self.deep_globs: list[str] = []
        self.abs_globs: list[str] = []
        self.explicit: list[Path] = []
        for entry in policy.filesystem.deny:
            text = expand_user_vars(entry, home=home, env=env)
            if is_glob(text):
                if text.startswith("**/"):
                    self.deep_globs.append(text)
                else:
                    self.abs_globs.append(text if os.path.isabs(text) else str(workdir / text))
            else:
                self.explicit.append(Path(os.path.abspath(workdir / text)))
        self.scanner = TreeScanner(self.deep_globs, limit=scan_limit)
        self.roots: tuple[Path, ...] = ()
        self.known: set[Path] = set()
        self.masked_inodes: dict[tuple[int, int], Path] = {}

    def reset(self, fs: FilesystemPlan) -> None:
        """Called at every launch: what is masked now is not "created during the run"."""
        self.roots = fs.read_write
        self.known = {m.path for m in fs.masks}
        self.masked_inodes = {}
        for mask in fs.masks:
            try:
                st = os.lstat(mask.path)
            except OSError:
                continue
            self.masked_inodes[(st.st_dev, st.st_ino)] = mask.path
        # Denied paths outside the sandbox's view (under the private /tmp...) are never
        # reachable; only the writable roots can gain new ones.
        self.known |= set(self._candidates())

    def _candidates(self) -> Iterable[Path]:
        if not self.roots:
            return
        yield from self.scanner.scan(self.roots)
        for pattern in self.abs_globs:
            for match in glob.glob(pattern, recursive=True, include_hidden=True):
                yield Path(os.path.abspath(match))
        for path in self.explicit:
            if os.path.lexists(path):
                yield path

    def check(self) -> list[Finding]:
        findings: list[Finding] = []
        for path in self._candidates():
            if path in self.known or real(path) in self.known:
                continue
            root = next((r for r in self.roots if r == path or r in path.parents), None)
            if root is None or path == root:
                continue
            try:
                st = os.lstat(path)
            except OSError:
                continue
            moved_from = self.masked_inodes.get((st.st_dev, st.st_ino))
            if moved_from is not None:
                self.known.add(path)
                findings.append(Finding(path, "moved", "report", f"masked path {moved_from} was moved here"))
                continue
            findings.append(self._handle(path, root))
        return findings

    def _handle(self, path: Path, root: Path) -> Finding:
        if self.action is DenyCreated.REPORT:
            self.known.add(path)
            return Finding(path, "created", "report")
        try:
            parent_fd = _open_dir_nofollow(root, path.parent)
        except OSError as exc:
            self.known.add(path)
            return Finding(path, "created", "report", f"could not open its directory: {exc.strerror}")
        try:
            if self.action is DenyCreated.QUARANTINE and self.quarantine is not None:
                return self._quarantine(path, parent_fd)
            _remove_at(parent_fd, path.name)
            return Finding(path, "created", "removed")
        except OSError as exc:
            self.known.add(path)
            return Finding(path, "created", "report", f"could not {self.action.value} it: {exc.strerror}")
        finally:
            os.close(parent_fd)

    def _quarantine(self, path: Path, parent_fd: int) -> Finding:
        assert self.quarantine is not None
        self.quarantine.mkdir(parents=True, exist_ok=True, mode=0o700)
        name = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}-{str(path).strip('/').replace('/', '__')}"
        qfd = os.open(self.quarantine, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        try:
            try:
                os.rename(path.name, name, src_dir_fd=parent_fd, dst_dir_fd=qfd)
            except OSError as exc:
                if exc.errno != 18:  # EXDEV: another filesystem; copy and remove instead
                    raise
                _copy_out(parent_fd, path.name, self.quarantine / name)
                _remove_at(parent_fd, path.name)
        finally:
            os.close(qfd)
        return Finding(path, "created", "quarantined", str(self.quarantine / name))


def _open_dir_nofollow(root: Path, directory: Path) -> int:
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for part in directory.relative_to(root).parts:
            nfd = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            os.close(fd)
            fd = nfd
    except BaseException:
        os.close(fd)
        raise
    return fd


def _remove_at(dir_fd: int, name: str) -> None:
    st = os.lstat(name, dir_fd=dir_fd)
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(name, dir_fd=dir_fd)
    else:
        os.unlink(name, dir_fd=dir_fd)


def _copy_out(dir_fd: int, name: str, dest: Path) -> None:
    st = os.lstat(name, dir_fd=dir_fd)
    if stat.S_ISLNK(st.st_mode):
        os.symlink(os.readlink(name, dir_fd=dir_fd), dest)
    elif stat.S_ISREG(st.st_mode):
        src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW, dir_fd=dir_fd)
        try:
            with os.fdopen(src, "rb", closefd=False) as fin, open(dest, "xb") as fout:
                shutil.copyfileobj(fin, fout)
        finally:
            os.close(src)
    else:  # a directory (or something exotic): not copied across filesystems
        raise OSError(18, "cannot copy a directory to another filesystem")


def matches_deny(path: Path, patterns: Sequence[str]) -> bool:
    return any(glob_matches(path, p) for p in patterns)
