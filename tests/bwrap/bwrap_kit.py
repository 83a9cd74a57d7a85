"""Shared constants and helpers of the bwrap tests (imported by path: tests/ is not a package)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from sandlot.api import Sandlot
from sandlot.config import Config
from sandlot.policy import Limits
from sandlot_bwrap import availability

FAKE_KEY = "FAKE-SSH-KEY-0d2c8b1e-not-a-real-secret"
FAKE_ENV = "FAKE_API_TOKEN=7f3a9c-not-a-real-secret"
FAKE_AWS = "aws_secret_access_key = FAKE-AWS-5e1b-not-a-real-secret"


def _available() -> tuple[bool, str]:
    status = availability.check()
    return status.ok, status.describe()


requires_bwrap = pytest.mark.skipif(not _available()[0], reason=f"bwrap {_available()[1]}")


def skip_without_bwrap() -> None:
    ok, why = _available()
    if not ok:
        pytest.skip(f"bwrap {why}")


ATTACK_LIMITS = Limits(
    timeout=30.0,
    output_bytes=64 * 1024,
    memory_mb=512,
    cpu_seconds=20,
    processes=64,
    file_size_mb=16,
    open_files=256,
)


def make_client(home: Path, quarantine: Path | None = None, **options: Any) -> Sandlot:
    skip_without_bwrap()
    table: dict[str, Any] = {"home": str(home), **options}
    # Quarantined test files stay in the test's own directory, never in the user's state dir.
    table["quarantine_dir"] = str(quarantine if quarantine is not None else home.parent / "quarantine")
    return Sandlot(Config(provider="bwrap", providers={"bwrap": table}))


def host_processes_matching(needle: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if needle in cmdline:
            found.append(int(entry))
    return found
