"""Connecting to the Docker engine, and turning transport failures into clear errors."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import docker
import docker.errors
import requests

from sandlot.errors import ProviderUnavailable

DEFAULT_SOCKET = "/var/run/docker.sock"
#: Seconds an API call may take before it is abandoned (the exec stream itself has no timeout).
API_TIMEOUT = 60.0


class EngineUnreachable(ProviderUnavailable):
    """The Docker engine does not answer (not running, wrong socket, no permission)."""


def engine_url(docker_host: str = "") -> str:
    """The engine address: the option, else ``DOCKER_HOST``, else the default unix socket."""
    return docker_host or os.environ.get("DOCKER_HOST", "") or f"unix://{DEFAULT_SOCKET}"


def how_to_start(url: str) -> str:
    if url.startswith("unix://"):
        sock = url[len("unix://") :]
        return (
            f"start the engine so that {sock} exists (`sudo systemctl start docker`, or "
            f"`sudo dockerd --iptables=false &`), make sure this user may use it (root or the "
            f"`docker` group), or point providers.docker.docker_host / DOCKER_HOST at a running engine"
        )
    return f"check that an engine listens on {url}, or fix providers.docker.docker_host / DOCKER_HOST"


def unreachable(url: str, exc: BaseException) -> EngineUnreachable:
    reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return EngineUnreachable(f"cannot reach the Docker engine at {url} ({reason}). Fix: {how_to_start(url)}")


def connect(docker_host: str = "", *, timeout: float = API_TIMEOUT) -> Any:
    """A low-level ``docker.APIClient`` (version negotiated now, so an absent engine fails here)."""
    url = engine_url(docker_host)
    try:
        return docker.APIClient(base_url=url, version="auto", timeout=timeout)
    except (docker.errors.DockerException, requests.exceptions.RequestException, OSError) as exc:
        raise unreachable(url, exc) from exc


@contextlib.contextmanager
def engine_errors(url: str) -> Iterator[None]:
    """Turn connection failures in the block into :class:`EngineUnreachable` naming ``url``."""
    try:
        yield
    except (requests.exceptions.ConnectionError, requests.exceptions.Timeout) as exc:
        raise unreachable(url, exc) from exc
