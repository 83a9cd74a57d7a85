"""The provider contract suite on a real Docker engine."""

from __future__ import annotations

from typing import Any

import pytest
from docker_kit import docker_config

from sandlot.api import Sandlot
from sandlot.testing import ProviderContract


class TestDockerContract(ProviderContract):
    @pytest.fixture
    def sandlot_client(self, api: Any) -> Sandlot:
        return Sandlot(docker_config())
