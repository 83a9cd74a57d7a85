"""Helpers shared by the Docker provider tests (imported as a plain module)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from sandlot.config import Config

# Read at import: the shared autouse fixture clears SANDLOT_* variables for each test.
IMAGE = os.environ.get("SANDLOT_DOCKER_TEST_IMAGE", "sandlot-test:bookworm")
#: The unprivileged uid the test image's sandboxes run as.
SANDBOX_UID = 1000


def docker_config(**options: Any) -> Config:
    return Config(provider="docker", providers={"docker": {"image": IMAGE, **options}})


def sandlot_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """Run the ``sandlot`` command of this interpreter (the venv's in CI, no PATH lookup)."""
    return subprocess.run(
        [sys.executable, "-m", "sandlot.cli", *args], capture_output=True, text=True, check=False, timeout=120
    )
