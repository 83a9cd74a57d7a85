"""Finding paths that match ``**/`` deny globs under the writable roots, after every command.

A full walk costs one ``scandir`` per directory and one match per entry, every command.
This scanner remembers, per directory, its identity and change times and what it found
there, and lists a directory again only when it changed. Creating, removing or renaming
an entry changes the directory's mtime *and* ctime; a command can reset the mtime
(``touch -d``) but not the ctime, and the ctime is part of the key, so a hidden change
is still seen. A rescan therefore costs one ``stat`` per directory plus a listing of the
directories that changed.
"""

from __future__ import annotations

import fnmatch
import logging
import os
import re
import stat
from collections.abc import Iterable, Sequence
from pathlib import Path

from sandlot.policy import glob_matches

log = logging.getLogger(__name__)

_Key = tuple[int, int, int, int]  # st_dev, st_ino, st_mtime_ns, st_ctime_ns


class TreeScanner:
    def __init__(self, patterns: Sequence[str], *, limit: int) -> None:
        self.patterns = tuple(patterns)
        self.limit = limit
        # "**/<name pattern>" (no "/" in the tail) matches on the entry's name alone: one compiled
        # regex instead of a match per path suffix. Matching directories are not descended, so no
        # ancestor of a visited entry matches and the name is all that can match.
        names = [p[3:] for p in self.patterns if p.startswith("**/") and "/" not in p[3:]]
        self._name_re = re.compile("|".join(f"(?:{fnmatch.translate(n)})" for n in names)) if names else None
        self._path_patterns = tuple(p for p in self.patterns if not (p.startswith("**/") and "/" not in p[3:]))
        #: directory -> (key, subdirectories to descend, matching entries)
        self._cache: dict[str, tuple[_Key, list[str], list[str]]] = {}

    def scan(self, roots: Iterable[Path]) -> list[Path]:
        if not self.patterns:
            return []
        found: list[str] = []
        seen_dirs: set[str] = set()
        budget = [self.limit]
        for root in roots:
            self._visit(str(root), found, seen_dirs, budget)
        # Forget directories that are gone, so the cache does not grow without bound.
        for gone in set(self._cache) - seen_dirs:
            del self._cache[gone]
        return [Path(p) for p in found]

    def _visit(self, top: str, found: list[str], seen: set[str], budget: list[int]) -> None:
        stack = [top]
        while stack:
            directory = stack.pop()
            try:
                st = os.lstat(directory)
            except OSError:
                continue
            if not stat.S_ISDIR(st.st_mode):
                continue
            seen.add(directory)
            key = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
            cached = self._cache.get(directory)
            if cached is not None and cached[0] == key:
                _, subdirs, matches = cached
            else:
                subdirs, matches = self._list(directory, budget)
                if budget[0] <= 0:
                    log.warning("stopped scanning for deny globs after %d entries (scan_limit)", self.limit)
                    return
                self._cache[directory] = (key, subdirs, matches)
            found.extend(matches)
            stack.extend(subdirs)

    def _list(self, directory: str, budget: list[int]) -> tuple[list[str], list[str]]:
        subdirs: list[str] = []
        matches: list[str] = []
        try:
            entries = list(os.scandir(directory))
        except OSError:
            return subdirs, matches
        budget[0] -= len(entries)
        for entry in entries:
            path = entry.path
            if (self._name_re is not None and self._name_re.match(entry.name)) or any(
                glob_matches(Path(path), p) for p in self._path_patterns
            ):
                matches.append(path)  # a matching directory is not descended (like walk_matches)
            elif entry.is_dir(follow_symlinks=False):
                subdirs.append(path)
        return subdirs, matches
