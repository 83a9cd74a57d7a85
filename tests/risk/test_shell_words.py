"""The wrappers set aside before a command's program is judged (`sudo -u x`, `timeout 30`, `nice -n 5`)."""

from __future__ import annotations

import pytest

from sandlot.risk.shell_words import unwrapped


@pytest.mark.parametrize(
    ("argv", "wrappers", "expected"),
    [
        (["sudo", "bpftrace", "x.bt"], ("sudo",), ["bpftrace", "x.bt"]),
        (["sudo", "-u", "postgres", "psql"], ("sudo",), ["psql"]),
        (["timeout", "-s", "KILL", "30", "make"], ("timeout",), ["make"]),
        (["/usr/bin/timeout", "15", "nice", "-n", "5", "tar", "cf", "x"], ("timeout", "nice"), ["tar", "cf", "x"]),
        (["sudo", "timeout", "60", "rm", "-rf", "/"], ("sudo", "timeout"), ["rm", "-rf", "/"]),
        (["rm", "-rf", "build"], ("sudo", "timeout"), ["rm", "-rf", "build"]),
        (["timeout"], ("timeout",), []),
    ],
)
def test_unwrapped(argv: list[str], wrappers: tuple[str, ...], expected: list[str]) -> None:
    assert unwrapped(argv, wrappers) == expected
