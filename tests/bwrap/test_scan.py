"""The incremental deny-glob scanner: finds what a full walk finds, including hidden changes."""

from __future__ import annotations

import os
from pathlib import Path

from sandlot.policy import walk_matches
from sandlot_bwrap.scan import TreeScanner

GLOBS = ("**/.env", "**/.env.*", "**/secrets.json")


def make_tree(root: Path) -> None:
    for i in range(5):
        for j in range(4):
            (root / f"d{i}" / f"e{j}").mkdir(parents=True)
            (root / f"d{i}" / f"e{j}" / "file.txt").write_text("x")
    (root / "d1" / ".env").write_text("x")
    (root / "d2" / "e3" / ".env.local").write_text("x")


def test_same_result_as_a_full_walk_and_sees_changes(tmp_path: Path) -> None:
    make_tree(tmp_path)
    scanner = TreeScanner(GLOBS, limit=100_000)

    def agree() -> set[Path]:
        mine = set(scanner.scan([tmp_path]))
        assert mine == set(walk_matches([tmp_path], GLOBS))
        return mine

    assert len(agree()) == 2
    deep = tmp_path / "d4" / "e2" / "secrets.json"
    deep.write_text("{}")
    assert deep in agree()
    # A change hidden by resetting the directory's mtime is still seen (ctime moves).
    parent = tmp_path / "d0" / "e1"
    before = os.stat(parent)
    (parent / ".env").write_text("x")
    os.utime(parent, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert parent / ".env" in agree()
    # Renamed and removed directories.
    (tmp_path / "d1").rename(tmp_path / "moved")
    assert tmp_path / "moved" / ".env" in agree()
    (tmp_path / "moved" / ".env").unlink()
    assert tmp_path / "moved" / ".env" not in agree()


def test_limit_stops_the_scan(tmp_path: Path) -> None:
    make_tree(tmp_path)
    assert TreeScanner(GLOBS, limit=3).scan([tmp_path]) == []
