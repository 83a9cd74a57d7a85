"""Fixtures for the Docker provider tests, all on a real engine.

Every test here skips, with the reason, only when no engine answers; CI starts one
(scripts/ci/docker-up.sh) and builds the test image, named by SANDLOT_DOCKER_TEST_IMAGE
(default sandlot-test:bookworm). Containers the tests create are removed at the end.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker.errors
import pytest
from docker_kit import IMAGE, SANDBOX_UID, docker_config

from sandlot.api import Sandlot
from sandlot_docker.image import build_hint


def _engine() -> tuple[Any, str]:
    try:
        from sandlot_docker.engine import connect
        from sandlot_docker.provider import availability
    except ImportError as exc:  # pragma: no cover - the plugin is part of this repo
        return None, f"sandlot-docker is not installed: {exc}"
    status = availability()
    if not status.ok:
        return None, f"no Docker engine reachable: {status.reason}"
    return connect(), ""


_API, _WHY = _engine()


#: Fixtures that need the engine; tests without them (pure translation) always run.
ENGINE_FIXTURES = frozenset({"api", "client", "sandlot_client", "sandbox"})


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _API is not None:
        return
    skip = pytest.mark.skip(reason=_WHY + " (start one with scripts/ci/docker-up.sh)")
    here = Path(__file__).parent
    for item in items:
        uses_engine = ENGINE_FIXTURES & set(getattr(item, "fixturenames", ()))
        if here in Path(str(item.fspath)).parents and uses_engine:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def api() -> Any:
    assert _API is not None
    try:
        _API.inspect_image(IMAGE)
    except Exception:
        pytest.fail(f"test image {IMAGE} is missing: run scripts/ci/docker-up.sh (or `{build_hint(IMAGE)}`)")
    return _API


@pytest.fixture(scope="session", autouse=True)
def _remove_test_containers() -> Iterator[None]:
    """Remove the sandbox containers and volumes this test session created (and only those)."""
    if _API is None:
        yield
        return
    label = {"label": ["sandlot.owner=sandlot-docker"]}
    before = {c["Id"] for c in _API.containers(all=True, filters=label)}
    volumes_before = {v["Name"] for v in _volumes()}
    yield
    for container in _API.containers(all=True, filters=label):
        if container["Id"] not in before:
            with contextlib.suppress(docker.errors.NotFound, docker.errors.APIError):
                _API.remove_container(container["Id"], force=True, v=True)
    for volume in _volumes():
        if volume["Name"] not in volumes_before:
            with contextlib.suppress(Exception):
                _API.remove_volume(volume["Name"], force=True)


def _volumes() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = _API.volumes(filters={"label": "sandlot.owner=sandlot-docker"})["Volumes"] or []
    return found


@pytest.fixture
def client(api: Any) -> Sandlot:
    return Sandlot(docker_config())


@pytest.fixture
def host_dir(tmp_path: Path) -> Path:
    """A host working directory owned by the sandbox uid (so `user = "auto"` picks it)."""
    work = tmp_path / "work"
    work.mkdir()
    os.chown(work, SANDBOX_UID, SANDBOX_UID)
    return work
