"""``[providers.docker]``: the typed options of the Docker provider."""

from __future__ import annotations

import enum
import re
from typing import Any

import attrs

from sandlot_docker.image import DEFAULT_IMAGE

_USER = re.compile(r"^(auto|[0-9]+(:[0-9]+)?)$")


class OnLost(enum.StrEnum):
    """What the next command does when the container was killed or removed from outside."""

    #: Fail with a clear error (the sandbox is gone; create a new one).
    ERROR = "error"
    #: Create a fresh container with the same settings and say that state was lost.
    RECREATE = "recreate"


def _positive(instance: Any, attribute: attrs.Attribute[Any], value: float) -> None:
    if value <= 0:
        raise ValueError(f"must be greater than 0, got {value!r}")


def _at_least(minimum: int) -> Any:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: int) -> None:
        if value < minimum:
            raise ValueError(f"must be at least {minimum}, got {value!r}")

    return check


def _user(instance: Any, attribute: attrs.Attribute[Any], value: str) -> None:
    if not _USER.match(value):
        raise ValueError(f'expected "auto" or a numeric "UID[:GID]", got {value!r}')
    if value.split(":")[0] == "0":
        # Root in the container owns every root-owned file of the bind mounts: refused.
        raise ValueError("uid 0 (root) is refused: sandboxes run as an unprivileged user")


def _absolute(instance: Any, attribute: attrs.Attribute[Any], value: str) -> None:
    if not value.startswith("/") or value.rstrip("/") in ("", "/tmp"):
        raise ValueError(f"must be an absolute path other than / and /tmp, got {value!r}")


@attrs.frozen
class DockerOptions:
    #: Image of every sandbox. Build one without a registry: ``sandlot docker build-image``.
    image: str = DEFAULT_IMAGE
    #: Engine address; empty: ``DOCKER_HOST``, else ``unix:///var/run/docker.sock``.
    docker_host: str = ""
    #: Numeric ``UID[:GID]`` commands run as, or ``auto``: the owner of the working
    #: directory (when not root), else the calling user (when not root), else 1000.
    user: str = attrs.field(default="auto", validator=_user)
    #: OCI runtime, e.g. ``runsc`` (gVisor); empty: the engine's default (runc).
    runtime: str = ""
    #: Docker network used when the policy says ``network.mode = "all"`` (required then).
    network: str = ""
    #: Memory limit in MiB when the policy sets none (swap is never allowed on top).
    memory_mb: int = attrs.field(default=1024, validator=_at_least(16))
    #: CPU quota in cores (fractions allowed).
    cpus: float = attrs.field(default=1.0, validator=_positive)
    #: Process limit when the policy sets none.
    pids: int = attrs.field(default=256, validator=_at_least(16))
    #: Size of the tmpfs mounted on /tmp (the root filesystem is read-only).
    tmp_size_mb: int = attrs.field(default=64, validator=_at_least(1))
    #: Where the working directory lives in the container when no host directory is given:
    #: a size-limited tmpfs volume, private to the sandbox.
    workspace: str = attrs.field(default="/workspace", validator=_absolute)
    workspace_size_mb: int = attrs.field(default=512, validator=_at_least(1))
    #: POSIX shell inside the image that runs the session.
    shell: str = attrs.field(default="/bin/sh", validator=_absolute)
    on_container_lost: OnLost = OnLost.ERROR
