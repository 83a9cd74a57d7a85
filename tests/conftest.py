"""Shared fixtures: a clean configuration environment and a fresh plugin manager."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

# the shared contracts' asserts say which values differed when they fail
pytest.register_assert_rewrite("sandlot.testing")

from sandlot.plugins import reset_plugin_manager  # noqa: E402


@pytest.fixture(autouse=True)
def _isolated_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No test reads the developer's real config files or SANDLOT_* variables."""
    for name in list(os.environ):
        if name.startswith("SANDLOT_"):
            monkeypatch.delenv(name)
    home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home))
    reset_plugin_manager()
    yield
    reset_plugin_manager()


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty current directory (no sandlot.toml or pyproject.toml around)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path
