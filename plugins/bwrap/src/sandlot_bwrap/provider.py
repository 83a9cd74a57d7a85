"""The bwrap provider: one long-lived bwrap (running the session shell) per sandbox."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import platformdirs

from sandlot.errors import ConfigError, PolicyNotEnforceable, ProviderUnavailable, SandboxError
from sandlot.files.backend import FileBackend
from sandlot.files.host import HostFiles, HostScope
from sandlot.files.paths import PathMap
from sandlot.files.shell import ShellFiles
from sandlot.inprocess import InProcessProvider
from sandlot.policy import Capability, Policy, ResolvedFilesystem, resolve_filesystem
from sandlot.popen_shell import PopenShellProcess
from sandlot.provider import Feature, ProviderContext, SandboxSpec, TranslateContext, translate_policy
from sandlot.sandbox import RunGenerator
from sandlot.session import ShellSession
from sandlot.shell_sandbox import ShellSandbox
from sandlot_bwrap import availability
from sandlot_bwrap import limits as limits_mod
from sandlot_bwrap.guard import DenyGuard, Finding
from sandlot_bwrap.masks import PRIVATE_DIRS
from sandlot_bwrap.options import BwrapOptions, DenyCreated
from sandlot_bwrap.translate import BwrapPolicy

log = logging.getLogger(__name__)

CAPABILITIES = frozenset(
    {
        Capability.FS_CONFINE,
        Capability.FS_DENY,
        Capability.NETWORK_BLOCK,
        Capability.ENVIRONMENT,
        Capability.LIMIT_TIMEOUT,
        Capability.LIMIT_OUTPUT,
        Capability.LIMIT_MEMORY,
        Capability.LIMIT_CPU,
        Capability.LIMIT_PROCESSES,
        Capability.LIMIT_FILE_SIZE,
        Capability.LIMIT_OPEN_FILES,
    }
)
FEATURES = frozenset({Feature.PERSISTENT_SHELL, Feature.KILL_TREE, Feature.SESSION_RECOVERY, Feature.MOUNTS})

#: The only variables the bwrap process itself gets: its /proc/1/environ is readable from inside.
BWRAP_ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"}


class BwrapShellProcess(PopenShellProcess):
    """A PopenShellProcess that also reads bwrap's ``--json-status-fd`` reports.

    Measured with bwrap 0.8: ``child-pid`` is reported as soon as the child is cloned
    (before mounts), and ``exit-code`` only when the sandboxed program itself ran and
    exited. A bwrap that ended without ``exit-code`` therefore failed in set-up (a mount,
    a namespace, exec of the shell) — not in a command.
    """

    def __init__(self, native: BwrapPolicy, *, preexec: Any) -> None:
        sec_r, sec_w = os.pipe()
        stat_r, stat_w = os.pipe()
        try:
            # A pipe holds 64 KiB; the program is a few hundred bytes, so this cannot block.
            os.write(sec_w, native.seccomp.code)
            os.close(sec_w)
            sec_w = -1
            argv = native.argv(seccomp_fd=sec_r, status_fd=stat_w)
            super().__init__(argv, env=BWRAP_ENV, cwd="/", preexec=preexec, pass_fds=(sec_r, stat_w))
        finally:
            for fd in (sec_r, stat_w, sec_w):
                if fd >= 0:
                    os.close(fd)
        self.status: dict[str, Any] = {}
        # Read on demand, non-blocking: the reports are a few hundred bytes (a pipe holds 64 KiB),
        # so no reader thread is needed.
        os.set_blocking(stat_r, False)
        self._status_fd = stat_r
        self._status_buf = b""

    def _drain_status(self) -> None:
        while self._status_fd >= 0:
            try:
                data = os.read(self._status_fd, 4096)
            except BlockingIOError:
                break
            except OSError:
                data = b""
            if not data:
                os.close(self._status_fd)
                self._status_fd = -1
                break
            self._status_buf += data
        # bwrap writes one JSON object per line.
        *complete, self._status_buf = self._status_buf.split(b"\n")
        for line in complete:
            with contextlib.suppress(ValueError):
                self.status.update(json.loads(line))

    def namespace(self, kind: str) -> int | None:
        """The inode of the sandbox's ``kind`` namespace ("pid", "net", ...), from bwrap's report."""
        if f"{kind}-namespace" not in self.status:
            self._drain_status()
        value = self.status.get(f"{kind}-namespace")
        return value if isinstance(value, int) else None

    def setup_failed(self) -> bool:
        """True when bwrap ended without its program having run (call once the process ended)."""
        if self.alive():
            return False
        self.exit_status(1.0)
        self._drain_status()
        return "exit-code" not in self.status

    def kill(self) -> None:
        super().kill()
        self._drain_status()
        if self._status_fd >= 0:
            os.close(self._status_fd)
            self._status_fd = -1


class BwrapSandbox(ShellSandbox):
    """A ShellSandbox that checks for denied paths created during each command."""

    def __init__(
        self,
        *args: Any,
        guard: DenyGuard,
        native: BwrapPolicy,
        memory_cgroup: limits_mod.Cgroup | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.memory_cgroup = memory_cgroup
        self._oom_before = 0
        self._oom_killed = False
        self.guard = guard
        #: The native policy of the running bwrap (updated at every relaunch).
        self.native = native
        self.launched: list[BwrapShellProcess] = []
        self._findings: list[Finding] = []

    def _run(
        self,
        command: str,
        *,
        timeout: float | None,
        cwd: str | None,
        env: Mapping[str, str] | None,
        stdin: bytes | None,
    ) -> RunGenerator:
        self._oom_before = self.memory_cgroup.oom_kills() if self.memory_cgroup else 0
        try:
            for attempt in range(availability.SETUP_ATTEMPTS):
                try:
                    result = yield from self.session.run(command, timeout=timeout, cwd=cwd, env=env, stdin=stdin)
                    break
                except SandboxError as exc:
                    # The shell had died and rebuilding it failed. When bwrap failed in set-up the
                    # command was never sent, so starting again is safe (mount churn is transient).
                    if self.closed or not _setup_failed(self.launched):
                        raise  # not a failed (re)start of bwrap: the core's error says it all
                    if attempt + 1 < availability.SETUP_ATTEMPTS:
                        time.sleep(0.05 * (attempt + 1))
                        continue
                    raise SandboxError(f"bwrap sandbox {self.id}: {setup_error(self.launched, exc)}") from exc
        finally:
            self._findings = self.guard.check()
            self._oom_killed = bool(self.memory_cgroup and self.memory_cgroup.oom_kills() > self._oom_before)
        return result

    def _make_file_backend(self) -> FileBackend:
        # Paths in the host directories bound into the sandbox are served from the host (the
        # same bytes, without a process per operation); the rest (its private /tmp, the
        # read-only system) by the shell inside, which sees exactly what commands see.
        return HostFiles(self._host_scope, self._guard(), fallback=ShellFiles(self))

    def _host_scope(self) -> HostScope:
        plan = self.native.filesystem
        writable = tuple(str(p) for p in plan.read_write)
        return HostScope(read=writable + tuple(str(p) for p in plan.read_only), write=writable, mounts=self.path_map)

    def _in_sandbox(self, host_pid: int) -> bool:
        """Whether host pid ``host_pid`` runs inside this sandbox (its pid namespace; bwrap itself too)."""
        proc = self.launched[-1] if self.launched else None
        if proc is None:
            return False
        if host_pid == proc.pid:
            return True
        pidns = proc.namespace("pid")
        try:
            return pidns is not None and os.stat(f"/proc/{host_pid}/ns/pid").st_ino == pidns
        except OSError:
            return False

    def _violation_extra(self) -> dict[str, object]:
        native = self.native
        return {
            "masks": tuple(m.path for m in native.filesystem.masks),
            "read_write": native.filesystem.read_write,
            "deny_findings": tuple(self._findings),
            "nproc": native.nproc,
            "pids_max": native.pids_max,
            "in_sandbox": self._in_sandbox,
            "workdir": self.workdir,
            "path_map": self.path_map,
            "oom_killed": self._oom_killed,
            "private_dirs": PRIVATE_DIRS,
        }


def _setup_failed(launched: list[BwrapShellProcess]) -> bool:
    return bool(launched) and launched[-1].setup_failed()


def setup_error(launched: list[BwrapShellProcess], exc: Exception) -> str:
    """``exc`` explained with bwrap's status reports: set-up failure or a shell that did not start."""
    if launched and launched[-1].setup_failed():
        return f"bwrap failed while setting up the sandbox (the shell never ran): {exc}"
    return f"the sandbox was set up but its shell did not start: {exc}"


class BwrapProvider(InProcessProvider):
    """Sandboxes live in this process (attach and list see this process's sandboxes)."""

    attach_hint = "bwrap sandboxes end with the process that created them (--die-with-parent)"

    def __init__(self, context: ProviderContext) -> None:
        super().__init__(context)
        self.options: BwrapOptions = context.options or BwrapOptions()

    # -- translation ---------------------------------------------------------------------

    def _home(self) -> str:
        return self.options.home or os.path.expanduser("~")

    def _environment(self, spec: SandboxSpec, workdir: Path, path_map: PathMap) -> dict[str, str]:
        env = spec.policy.environment.build()
        env.setdefault("HOME", path_map.to_virtual(str(workdir)))
        env.setdefault("TMPDIR", "/tmp")
        return env

    def _quarantine_dir(self, sandbox_id: str) -> Path | None:
        if self.options.on_deny_created is not DenyCreated.QUARANTINE:
            return None
        base = Path(self.options.quarantine_dir or Path(platformdirs.user_state_dir("sandlot")) / "quarantine")
        return base / sandbox_id

    def native_policy(self, spec: SandboxSpec, workdir: Path, sandbox_id: str) -> BwrapPolicy:
        """Resolve the policy's paths now and translate it through the hook (wrappers may amend it)."""
        return self._translate(spec, workdir, sandbox_id)[0]

    def _translate(self, spec: SandboxSpec, workdir: Path, sandbox_id: str) -> tuple[BwrapPolicy, ResolvedFilesystem]:
        path_map = _path_map(spec)
        env = self._environment(spec, workdir, path_map)
        fs = resolve_filesystem(_with_mounts(spec.policy, path_map).filesystem, workdir=workdir, home=self._home())
        context = TranslateContext(
            workdir=workdir, filesystem=fs, environment=env, sandbox_id=sandbox_id, mounts=path_map
        )
        native = translate_policy(self.context.pm, self.name, spec.policy, self.options, context)
        if not isinstance(native, BwrapPolicy):
            raise SandboxError(f"a plugin replaced the bwrap policy with {type(native).__name__}")
        return native, fs

    def explain(self, spec: SandboxSpec) -> BwrapPolicy:
        workdir = Path(spec.workdir or self.options.workdir or _first_mount(spec) or os.getcwd()).absolute()
        return self.native_policy(spec, workdir, spec.sandbox_id or "explain")

    # -- lifecycle -----------------------------------------------------------------------

    def create(self, spec: SandboxSpec) -> BwrapSandbox:
        status = availability.check(self.options.bwrap)
        if not status.ok:
            raise ProviderUnavailable(f"bwrap: {status.reason}. Fix: {status.fix}")
        sandbox_id = self._claim_id(spec)
        workdir_option = spec.workdir or self.options.workdir or _first_mount(spec)
        owned_dir = not workdir_option
        workdir = Path(workdir_option or tempfile.mkdtemp(prefix=f"sandlot-{sandbox_id}-")).absolute()
        cgroups: list[limits_mod.Cgroup] = []

        def forget() -> None:
            for group in cgroups:
                group.remove()
            self._forget(sandbox_id)
            if owned_dir:
                shutil.rmtree(workdir, ignore_errors=True)

        try:
            if not workdir.is_dir():
                raise SandboxError(f"working directory {workdir} does not exist")
            quarantine = self._quarantine_dir(sandbox_id)
            first, resolved = self._translate(spec, workdir, sandbox_id)
            _check_quarantine(quarantine, first)
            if first.pids_max is not None:
                cgroups.append(limits_mod.create_pids_cgroup(f"sandlot-{sandbox_id}", first.pids_max))
            if first.memory_max is not None:
                try:
                    cgroups.append(limits_mod.create_cgroup("memory", f"sandlot-{sandbox_id}", first.memory_max))
                except PolicyNotEnforceable as exc:
                    # RLIMIT_AS still bounds every process; only the sum is unbounded.
                    log.warning("bwrap sandbox %s: no memory cgroup (%s); RLIMIT_AS per process only", sandbox_id, exc)
            guard = DenyGuard(
                _with_mounts(spec.policy, _path_map(spec)),
                workdir=workdir,
                home=self._home(),
                env=dict(os.environ),
                action=self.options.on_deny_created,
                quarantine=quarantine,
                scan_limit=self.options.scan_limit,
            )
            pending = [first]
            holder: list[BwrapSandbox] = []

            def launch() -> BwrapShellProcess:
                # Every (re)launch resolves the policy again, so secrets that appeared meanwhile are masked.
                native = pending.pop() if pending else self.native_policy(spec, workdir, sandbox_id)
                guard.reset(native.filesystem)
                preexec = limits_mod.preexec(native.rlimits, cgroups)
                proc = BwrapShellProcess(native, preexec=preexec)
                if holder:
                    holder[0].native = native
                    holder[0].launched[:] = [proc]
                return proc

            session = ShellSession(launch, output_limit=spec.policy.limits.output_bytes)
            sandbox = BwrapSandbox(
                sandbox_id,
                provider=self.name,
                policy=spec.policy,
                pm=self.context.pm,
                session=session,
                filesystem=resolved,
                workdir=workdir,
                on_close=forget,
                path_map=_path_map(spec),
                guard=guard,
                native=first,
                memory_cgroup=next((g for g in cgroups if g.controller == "memory"), None),
            )
            sandbox._policy_home = self._home()  # "~" in the policy is the configured home
            holder.append(sandbox)
            for attempt in range(availability.SETUP_ATTEMPTS):
                try:
                    session.start()
                    break
                except SandboxError as exc:
                    if attempt + 1 < availability.SETUP_ATTEMPTS and _setup_failed(sandbox.launched):
                        time.sleep(0.05 * (attempt + 1))
                        continue
                    raise SandboxError(
                        f"bwrap sandbox {sandbox_id} could not be created: {setup_error(sandbox.launched, exc)}"
                    ) from exc
        except BaseException:
            forget()
            raise
        self._remember(sandbox, spec)
        return sandbox


def _path_map(spec: SandboxSpec) -> PathMap:
    try:
        return PathMap.of(spec.mounts)
    except (FileNotFoundError, ValueError) as exc:
        raise SandboxError(str(exc)) from None


def _with_mounts(policy: Policy, path_map: PathMap) -> Policy:
    """A mount's host directory is bound like a read_write (or read_only) path, at its virtual path."""
    fs = policy.filesystem
    return attrs.evolve(
        policy,
        filesystem=attrs.evolve(
            fs,
            read_write=(*fs.read_write, *(m.host for m in path_map.mounts if not m.read_only)),
            read_only=(*fs.read_only, *(m.host for m in path_map.mounts if m.read_only)),
        ),
    )


def _first_mount(spec: SandboxSpec) -> str | None:
    """With mounts, the shell starts in the first one (given by its host directory)."""
    return _path_map(spec).to_host(spec.mounts[0].virtual) if spec.mounts else None


def _check_quarantine(quarantine: Path | None, native: BwrapPolicy) -> None:
    if quarantine is None:
        return
    q = Path(os.path.realpath(quarantine))
    for root in native.filesystem.read_write:
        if q == root or root in q.parents:
            raise ConfigError(
                f"providers.bwrap.quarantine_dir {q} is inside the writable path {root}: the sandbox "
                f"could read what is quarantined. Choose a directory outside every read_write path."
            )
