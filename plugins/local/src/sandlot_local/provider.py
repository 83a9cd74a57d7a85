"""The local provider: a persistent shell on the host, in a working directory.

It enforces the environment policy (nothing inherited unless allowed) and the limits
it can apply to a process tree on the host (timeout, output, rlimits). It does not
isolate the filesystem or the network; sandlot warns whenever it is used.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import attrs

from sandlot.errors import SandboxError
from sandlot.files.host import HostFiles, HostScope
from sandlot.files.paths import PathMap
from sandlot.inprocess import InProcessProvider
from sandlot.policy import Capability, ResolvedFilesystem, resolve_filesystem
from sandlot.popen_shell import PopenShellProcess, rlimits_preexec
from sandlot.provider import Feature, ProviderContext, SandboxSpec, TranslateContext, translate_policy
from sandlot.session import ShellSession
from sandlot.shell_sandbox import ShellSandbox
from sandlot_local.native import LocalLaunch

CAPABILITIES = frozenset(
    {
        Capability.ENVIRONMENT,
        Capability.LIMIT_TIMEOUT,
        Capability.LIMIT_OUTPUT,
        Capability.LIMIT_MEMORY,
        Capability.LIMIT_CPU,
        Capability.LIMIT_FILE_SIZE,
        Capability.LIMIT_OPEN_FILES,
    }
)
FEATURES = frozenset({Feature.PERSISTENT_SHELL, Feature.KILL_TREE, Feature.SESSION_RECOVERY, Feature.MOUNTS})


@attrs.frozen
class LocalOptions:
    #: Shell running the session: "auto" (bash, else sh) or a path.
    shell: str = "auto"
    #: Working directory; empty: a fresh temporary directory per sandbox, removed on close.
    workdir: str = ""


def find_shell(choice: str) -> str:
    if choice != "auto":
        if not os.access(choice, os.X_OK):
            raise SandboxError(f"providers.local.shell: {choice} is not an executable file")
        return choice
    for candidate in ("/bin/bash", "/usr/bin/bash", "/bin/sh"):
        if os.access(candidate, os.X_OK):
            return candidate
    raise SandboxError("no POSIX shell found (looked for /bin/bash, /usr/bin/bash, /bin/sh)")


class LocalProvider(InProcessProvider):
    """Sandboxes live in this process: attach and list see only this process's sandboxes."""

    attach_hint = "local sandboxes cannot be reattached from another process"

    def __init__(self, context: ProviderContext) -> None:
        super().__init__(context)
        self.options: LocalOptions = context.options or LocalOptions()

    def create(self, spec: SandboxSpec) -> ShellSandbox:
        sandbox_id = self._claim_id(spec)
        try:
            path_map = PathMap.of(spec.mounts)
        except (FileNotFoundError, ValueError) as exc:
            self._forget(sandbox_id)
            raise SandboxError(str(exc)) from None
        # With mounts, commands start in the first one (its host directory: local cannot
        # show virtual paths to commands; file operations and output use them).
        first_mount = spec.mounts[0].virtual if spec.mounts else None
        workdir_option = spec.workdir or self.options.workdir or (first_mount and path_map.to_host(first_mount))
        owned_dir = not workdir_option
        workdir = Path(workdir_option or tempfile.mkdtemp(prefix=f"sandlot-{sandbox_id}-"))

        def forget() -> None:
            self._forget(sandbox_id)
            if owned_dir:
                shutil.rmtree(workdir, ignore_errors=True)

        try:
            if not workdir.is_dir():
                raise SandboxError(f"working directory {workdir} does not exist")
            launch_spec = self._translate(spec, workdir)
            preexec = rlimits_preexec(launch_spec.rlimits, subreaper=True)

            def launch() -> PopenShellProcess:
                return PopenShellProcess(launch_spec.argv, env=launch_spec.env, cwd=launch_spec.cwd, preexec=preexec)

            session = ShellSession(launch, output_limit=spec.policy.limits.output_bytes)
            resolved = resolve_filesystem(spec.policy.filesystem, workdir=workdir)
            sandbox = ShellSandbox(
                sandbox_id,
                provider=self.name,
                policy=spec.policy,
                pm=self.context.pm,
                session=session,
                filesystem=resolved,
                workdir=workdir,
                on_close=forget,
                file_backend=lambda box: HostFiles(self._host_scope(resolved, path_map), box._guard()),
                path_map=path_map,
            )
            session.start()
        except BaseException:
            forget()
            raise
        self._remember(sandbox, spec)
        return sandbox

    @staticmethod
    def _host_scope(resolved: ResolvedFilesystem, path_map: PathMap) -> HostScope:
        # Commands here reach the whole host; file operations read anywhere the policy does
        # not deny, but write only where it says read_write (and in writable mounts).
        writable = [str(p) for p in resolved.read_write]
        writable += [m.host for m in path_map.mounts if not m.read_only]
        return HostScope(read=("/",), write=tuple(writable), mounts=path_map)

    def _translate(self, spec: SandboxSpec, workdir: Path) -> LocalLaunch:
        env = spec.policy.environment.build()
        env.setdefault("TMPDIR", tempfile.gettempdir())
        context = TranslateContext(
            workdir=workdir,
            filesystem=resolve_filesystem(spec.policy.filesystem, workdir=workdir),
            environment=env,
            sandbox_id=spec.sandbox_id or "",
        )
        native = translate_policy(self.context.pm, self.name, spec.policy, self.options, context)
        if not isinstance(native, LocalLaunch):
            raise SandboxError(f"a plugin replaced the local launch spec with {type(native).__name__}")
        return native

    def explain(self, spec: SandboxSpec) -> LocalLaunch:
        workdir = Path(spec.workdir or self.options.workdir or tempfile.gettempdir())
        return self._translate(spec, workdir)
