"""Fixtures for the lifecycle tests; the helpers live in lifecycle_kit.py."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lifecycle_kit import (
    PROVIDERS,
    SANDBOX_UID,
    AuditCollector,
    PolicyDetector,
    bwrap_reason,
    docker_reason,
    make_pm,
)

from sandlot.api import Sandlot
from sandlot.config import Config


@pytest.fixture
def audit() -> AuditCollector:
    return AuditCollector()


@pytest.fixture
def detector() -> PolicyDetector:
    return PolicyDetector()


@pytest.fixture
def make_local(audit: AuditCollector, detector: PolicyDetector) -> Any:
    def make(*plugins: object, config: Config | None = None) -> Sandlot:
        cfg = config if config is not None else Config(provider="local")
        return Sandlot(cfg, pm=make_pm(detector, audit, *plugins))

    return make


@pytest.fixture(params=PROVIDERS)
def provider_name(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    reason = {"local": "", "bwrap": bwrap_reason(), "docker": docker_reason()}[name]
    if reason:
        pytest.skip(reason)
    return name


@pytest.fixture
def sandbox_workdir(tmp_path: Path, provider_name: str) -> Path:
    """A host working directory the provider's sandbox user can write to."""
    path = tmp_path / "work"
    path.mkdir()
    if provider_name == "docker" and os.geteuid() == 0:
        os.chown(path, SANDBOX_UID, SANDBOX_UID)
    return path


@pytest.fixture(autouse=True)
def _runtime_dirs(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pool lock files and the default audit log go to a per-test place."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    yield
