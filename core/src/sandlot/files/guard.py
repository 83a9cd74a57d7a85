"""The filesystem policy as file operations see it: denied and read-only paths, globs included.

Commands meet the policy in the kernel (masks, read-only binds); file operations meet
it here first, so a denied path fails the same way whichever backend serves it, even a
host-side one that bypasses the sandbox. Entries are checked whether or not they exist
yet, so writing a denied file that is not there is refused too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

import attrs

from sandlot.errors import FileOperationError
from sandlot.files.model import FileErrorCode
from sandlot.files.paths import inside, normalise
from sandlot.files.text import component_regex
from sandlot.policy import FilesystemPolicy, ResolvedFilesystem, expand_user_vars, is_glob
from sandlot.results import Violation, ViolationKind


@attrs.frozen
class FileGuard:
    deny: tuple[str, ...] = ()
    deny_globs: tuple[str, ...] = ()
    read_only: tuple[str, ...] = ()
    read_only_globs: tuple[str, ...] = ()
    # One regex per list: every file operation asks, some of them (grep, delete) once per file.
    _deny_regex: re.Pattern[str] | None = attrs.field(init=False, eq=False, repr=False)
    _read_only_regex: re.Pattern[str] | None = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_deny_regex", globs_regex(self.deny_globs))
        object.__setattr__(self, "_read_only_regex", globs_regex(self.read_only_globs))

    @classmethod
    def of(
        cls,
        policy: FilesystemPolicy,
        *,
        workdir: str,
        resolved: ResolvedFilesystem | None = None,
        home: str | None = None,
    ) -> FileGuard:
        home = home if home is not None else os.path.expanduser("~")

        def split(entries: Iterable[str], found: Iterable[Path]) -> tuple[tuple[str, ...], tuple[str, ...]]:
            paths, globs = [], []
            for entry in entries:
                text = expand_user_vars(entry, home=home, env=os.environ)
                if is_glob(text):
                    globs.append(text if text.startswith("**/") else normalise(text, workdir))
                else:
                    paths.append(normalise(text, workdir))
            paths.extend(str(p) for p in found)
            return tuple(dict.fromkeys(paths)), tuple(dict.fromkeys(globs))

        deny, deny_globs = split(policy.deny, resolved.deny if resolved else ())
        read_only, read_only_globs = split(policy.read_only, ())
        return cls(deny, deny_globs, read_only, read_only_globs)

    def denied_by(self, path: str) -> str | None:
        """The policy entry that denies ``path`` (or an ancestor of it), if any."""
        for entry in self.deny:
            if inside(path, entry):
                return entry
        return _glob_hit(path, self._deny_regex, self.deny_globs)

    def read_only_by(self, path: str) -> str | None:
        for entry in self.read_only:
            if inside(path, entry):
                return entry
        return _glob_hit(path, self._read_only_regex, self.read_only_globs)

    def check(self, path: str, *, write: bool, shown: str | None = None) -> None:
        """Raise ``permission_denied`` with a Violation when the policy forbids the access."""
        shown = shown or path
        entry = self.denied_by(path)
        if entry is not None:
            raise _blocked(shown, f"denied by the policy (filesystem.deny: {entry})")
        if write:
            entry = self.read_only_by(path)
            if entry is not None:
                raise _blocked(shown, f"read-only by the policy (filesystem.read_only: {entry})")


def glob_regex(pattern: str) -> str:
    """A regex for absolute paths that :func:`sandlot.policy.glob_matches` accepts for ``pattern``
    (a relative pattern matches the last components, like ``PurePosixPath.match``), or that lie below one."""
    tail = pattern[3:] if pattern.startswith("**/") else pattern
    if tail.startswith("/"):
        parts = [p for p in tail.split("/") if p]
        return "/" + "/".join(component_regex(p) for p in parts) + "(?:/.*)?"
    parts = [p for p in tail.split("/") if p]
    return "(?:.*/)?" + "/".join(component_regex(p) for p in parts) + "(?:/.*)?"


def globs_regex(globs: Iterable[str]) -> re.Pattern[str] | None:
    """One regex for many globs: group ``gN`` tells which one matched."""
    alternatives = [f"(?P<g{i}>{glob_regex(g)})" for i, g in enumerate(globs)]
    return re.compile("|".join(alternatives) + "", re.DOTALL) if alternatives else None


def _glob_hit(path: str, regex: re.Pattern[str] | None, globs: tuple[str, ...]) -> str | None:
    # A glob denies what it matches and everything below it (never "/" itself).
    if regex is None or path == "/":
        return None
    found = regex.fullmatch(path)
    if found is None:
        return None
    return globs[int(next(name for name, value in found.groupdict().items() if value is not None)[1:])]


def _blocked(path: str, reason: str) -> FileOperationError:
    violation = Violation(ViolationKind.FILESYSTEM, path, reason)
    return FileOperationError(FileErrorCode.PERMISSION_DENIED, path, reason, violation)
