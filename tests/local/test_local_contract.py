"""The local provider passes the provider contract suite."""

from __future__ import annotations

import pytest

from sandlot import Config, Sandlot
from sandlot.testing import ProviderContract


class TestLocalContract(ProviderContract):
    @pytest.fixture
    def sandlot_client(self) -> Sandlot:
        return Sandlot(Config(provider="local"))
