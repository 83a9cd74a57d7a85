"""A Sandbox whose commands run on a persistent :class:`~sandlot.session.ShellSession`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from sandlot.files.backend import FileBackend
from sandlot.files.paths import PathMap
from sandlot.policy import Policy, ResolvedFilesystem
from sandlot.sandbox import RunGenerator, Sandbox
from sandlot.session import ShellSession

if TYPE_CHECKING:
    import pluggy


class ShellSandbox(Sandbox):
    """The sandbox every process-based provider returns: it owns one shell session."""

    def __init__(
        self,
        sandbox_id: str,
        *,
        provider: str,
        policy: Policy,
        pm: pluggy.PluginManager,
        session: ShellSession,
        filesystem: ResolvedFilesystem | None = None,
        workdir: Path | None = None,
        on_close: Callable[[], None] | None = None,
        file_backend: Callable[[ShellSandbox], FileBackend] | None = None,
        path_map: PathMap | None = None,
    ) -> None:
        super().__init__(
            sandbox_id, provider=provider, policy=policy, pm=pm, filesystem=filesystem, path_map=path_map
        )
        self.session = session
        #: The host directory the shell starts in (for host-backed providers).
        self.workdir = workdir
        self._on_close = on_close
        self._file_backend_factory = file_backend

    def _make_file_backend(self) -> FileBackend:
        if self._file_backend_factory is not None:
            return self._file_backend_factory(self)
        return super()._make_file_backend()

    @property
    def files_root(self) -> str:
        return self.path_map.to_virtual(str(self.workdir)) if self.workdir is not None else "/"

    def _run(
        self,
        command: str,
        *,
        timeout: float | None,
        cwd: str | None,
        env: Mapping[str, str] | None,
        stdin: bytes | None,
    ) -> RunGenerator:
        return self.session.run(command, timeout=timeout, cwd=cwd, env=env, stdin=stdin)

    def _close(self) -> None:
        try:
            self.session.close()
        finally:
            if self._on_close is not None:
                self._on_close()
