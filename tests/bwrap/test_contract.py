"""The bwrap provider passes the provider contract suite (real bwrap, default deny policy)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sandlot import Config, Sandlot
from sandlot.testing import ProviderContract

sys.path.insert(0, str(Path(__file__).parent))

from bwrap_kit import requires_bwrap

pytestmark = requires_bwrap


class TestBwrapContract(ProviderContract):
    @pytest.fixture
    def sandlot_client(self, home: Path, base: Path) -> Sandlot:
        return Sandlot(
            Config(provider="bwrap", providers={"bwrap": {"home": str(home), "quarantine_dir": str(base / "q")}})
        )
