"""Path classification and the grading of reads, writes, deletions and mode changes."""

from __future__ import annotations

import pytest

from sandlot.risk import paths
from sandlot.risk.model import RiskLevel
from sandlot.risk.paths import HOLE, PathKind

H, C, M, L, S = RiskLevel.HIGH, RiskLevel.CRITICAL, RiskLevel.MEDIUM, RiskLevel.LOW, RiskLevel.SAFE


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/", PathKind.ROOT),
        ("/*", PathKind.ROOT),
        ("/etc", PathKind.SYSTEM_TOP),
        ("/usr/bin/python3", PathKind.SYSTEM),
        ("~", PathKind.HOME_TOP),
        ("$HOME", PathKind.HOME_TOP),
        ("/home/alice", PathKind.HOME_TOP),
        ("/root", PathKind.HOME_TOP),
        ("~/Documents", PathKind.HOME),
        ("~/..", PathKind.SYSTEM_TOP),  # the parent of the home is /home: every user
        ("~/.cache/pip", PathKind.TEMP),
        ("build", PathKind.RELATIVE),
        ("./data/x.csv", PathKind.RELATIVE),
        ("/tmp/x", PathKind.TEMP),
        ("/dev/sda", PathKind.DEVICE),
        ("/dev/nvme0n1p1", PathKind.DEVICE),
        ("/dev/null", PathKind.NULL),
        ("/dev/pts/3", PathKind.NULL),
        (HOLE, PathKind.UNKNOWN),
        ("/mnt/backup/x", PathKind.EXTERNAL),
        ("../../../etc/passwd", PathKind.SYSTEM),  # climbing out of the working directory
    ],
)
def test_kind(path: str, kind: PathKind) -> None:
    assert paths.classify(path).kind is kind


@pytest.mark.parametrize(
    "path",
    [
        "/etc/shadow",
        "~/.ssh/id_rsa",
        "~/.aws/credentials",
        ".env",
        "/proc/1/environ",
        "~/.config/google-chrome/Default/Cookies",
        "/etc/passwd",
        HOLE + "/.ssh/id_ed25519",
        "~/.kube/config",
        "server-key.pem",
        "/home/bob/.git-credentials",
    ],
)
def test_secret(path: str) -> None:
    assert paths.classify(path).secret


@pytest.mark.parametrize(
    "path",
    [
        "data.csv",
        "~/.ssh/id_rsa.pub",
        "~/.ssh/known_hosts",
        "passwd",
        ".env.example",
        "certs/ca.pem",
        "/etc/hosts",
        "credentials",
        "~/.bashrc",
    ],
)
def test_not_secret(path: str) -> None:
    assert not paths.classify(path).secret


@pytest.mark.parametrize(
    "path",
    [
        "~/.bashrc",
        "~/.zshrc",
        "/etc/cron.d/job",
        "/etc/systemd/system/x.service",
        "~/.ssh/authorized_keys",
        "~/.config/autostart/x.desktop",
        "/etc/profile.d/x.sh",
        "/usr/lib/python3/site-packages/x.pth",
        "~/Library/LaunchAgents/com.x.plist",
        "/etc/rc.local",
    ],
)
def test_persistence(path: str) -> None:
    assert paths.classify(path).persistence


def test_history_flag() -> None:
    assert paths.classify("~/.bash_history").history
    assert not paths.classify("notes/history.txt").history


@pytest.mark.parametrize(
    ("path", "recursive", "level"),
    [
        ("/", True, C),
        ("~", True, C),
        ("/etc", True, C),
        ("/usr/lib/x", True, H),
        ("~/Documents", True, H),
        ("~/notes.txt", False, M),
        ("build", True, L),
        ("/tmp/x", True, L),
        (HOLE, True, M),
        (HOLE, False, L),
        ("/etc/passwd", False, C),
        ("~/.ssh/id_rsa", False, H),
        ("~/.cache/tool", True, L),
    ],
)
def test_delete_level(path: str, recursive: bool, level: RiskLevel) -> None:
    assert paths.delete_level(paths.classify(path), recursive=recursive) is level


@pytest.mark.parametrize(
    ("path", "level"),
    [
        ("/etc/sudoers", C),
        ("/dev/sda", C),
        ("~/.bashrc", H),
        ("/usr/bin/ls", H),
        ("out.txt", S),
        ("/tmp/a", S),
        ("~/report.txt", L),
        (".env", L),
        ("~/.aws/credentials", H),
    ],
)
def test_write_level(path: str, level: RiskLevel) -> None:
    assert paths.write_level(paths.classify(path)) is level


@pytest.mark.parametrize(
    ("path", "level"), [("/etc/shadow", H), ("~/.ssh/id_rsa", H), ("/dev/sda", H), ("data.csv", S), ("/etc/hosts", S)]
)
def test_read_level(path: str, level: RiskLevel) -> None:
    assert paths.read_level(paths.classify(path)) is level


def test_mode_level() -> None:
    system = paths.classify("/bin/bash")
    assert paths.mode_level(system, world_writable=False, setuid=True, opens_secret=False) is C
    assert paths.mode_level(paths.classify("script.sh"), world_writable=False, setuid=False, opens_secret=True) is S
    assert paths.mode_level(paths.classify("/etc/shadow"), world_writable=False, setuid=False, opens_secret=True) is H
    assert paths.mode_level(paths.classify("/etc"), world_writable=True, setuid=False, opens_secret=True) is C
