"""The code base stays ruff- and mypy-clean (the style rules are part of the build)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGES = [str(REPO / "core" / "src"), *(str(p) for p in sorted(REPO.glob("plugins/*/src")))]


def tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed; `pip install -e '.[dev]'` installs it")
    return found


def test_ruff_is_clean() -> None:
    proc = subprocess.run([tool("ruff"), "check", "."], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.slow
def test_mypy_is_clean() -> None:
    proc = subprocess.run([tool("mypy"), *PACKAGES], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
