"""The Docker sandbox: a shell session in a container, plus stats."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import docker.errors

from sandlot.errors import SandboxError
from sandlot.policy import Policy, ResolvedFilesystem
from sandlot.session import ShellSession
from sandlot.shell_sandbox import ShellSandbox
from sandlot_docker.detect import FACTS_KEY, ContainerFacts
from sandlot_docker.engine import engine_errors
from sandlot_docker.stats import ContainerStats, parse_stats

if TYPE_CHECKING:
    import pluggy

@attrs.define
class ContainerRef:
    """The container currently backing a sandbox (it changes when a lost one is recreated)."""

    id: str
    name: str


class DockerSandbox(ShellSandbox):
    """A sandbox backed by one container. File operations run through the shell session
    (POSIX sh and coreutils in the image, no python): a few ms each, where an archive-API
    call costs ~40 ms inside the engine and can replace a directory with a file."""

    def __init__(
        self,
        sandbox_id: str,
        *,
        provider: str,
        policy: Policy,
        pm: pluggy.PluginManager,
        session: ShellSession,
        api: Any,
        url: str,
        ref: ContainerRef,
        facts: ContainerFacts,
        filesystem: ResolvedFilesystem | None = None,
        workdir: Path | None = None,
        on_close: Callable[[], None] | None = None,
    ) -> None:
        super().__init__(
            sandbox_id,
            provider=provider,
            policy=policy,
            pm=pm,
            session=session,
            filesystem=filesystem,
            workdir=workdir,
            on_close=on_close,
        )
        self._api = api
        self._url = url
        self.ref = ref
        self.facts = facts

    @property
    def container_id(self) -> str:
        return self.ref.id

    @property
    def container_workdir(self) -> str:
        """Where the shell starts inside the container (a host path too when bind-mounted)."""
        return self.facts.workdir

    def _violation_extra(self) -> dict[str, object]:
        return {FACTS_KEY: self.facts}

    # -- stats ---------------------------------------------------------------------------

    def stats(self) -> ContainerStats:
        """CPU %, memory used/limit, pids, network bytes (one engine sample, about a second)."""
        with engine_errors(self._url):
            try:
                sample = self._api.stats(self.ref.id, stream=False)
            except docker.errors.NotFound:
                raise SandboxError(f"sandbox {self.id}: its container no longer exists") from None
        return parse_stats(sample)

    # -- files ---------------------------------------------------------------------------

    @property
    def files_root(self) -> str:
        return self.container_workdir
