"""Fixtures for the bwrap provider tests: fake secrets in a fake home, a workdir, configured clients.

Everything lives under /var/tmp (not /tmp): the sandbox gets a private /tmp, so files the
host keeps under /tmp are invisible inside anyway and would make attacks pass for the
wrong reason. The fake home and workdir are visible through the read-only system view,
exactly like a real home directory.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sandlot.api import Sandlot
from sandlot.policy import Policy

sys.path.insert(0, str(Path(__file__).parent))

from bwrap_kit import ATTACK_LIMITS, FAKE_AWS, FAKE_ENV, FAKE_KEY, make_client, skip_without_bwrap


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: slow tests (run in CI too)")


@pytest.fixture
def base() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="sandlot-bwrap-test-", dir="/var/tmp"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def home(base: Path) -> Path:
    """A fake home with fake credentials and rc files."""
    home = base / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text(FAKE_KEY + "\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text(FAKE_AWS + "\n")
    (home / ".bashrc").write_text("# original bashrc\n")
    return home


@pytest.fixture
def workdir(base: Path) -> Path:
    work = base / "work"
    (work / ".git" / "hooks").mkdir(parents=True)
    (work / ".git" / "config").write_text("[core]\n")
    (work / ".env").write_text(FAKE_ENV + "\n")
    (work / "proj").mkdir()
    (work / "proj" / ".env").write_text(FAKE_ENV + "\n")
    (work / "src.py").write_text("print('hello')\n")
    return work


@pytest.fixture
def client(home: Path, base: Path) -> Sandlot:
    made: Sandlot = make_client(home, base / "quarantine", tmp_size_mb=32)
    return made


@pytest.fixture
def sandbox(client: Sandlot, workdir: Path) -> Iterator[Any]:
    box = client.create(workdir=workdir, policy=Policy(limits=ATTACK_LIMITS))
    try:
        yield box
    finally:
        box.close()


@pytest.fixture
def bwrap_ok() -> None:
    """Skips the test when bwrap cannot run here."""
    skip_without_bwrap()
