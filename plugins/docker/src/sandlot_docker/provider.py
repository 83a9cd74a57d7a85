"""The Docker provider: create, attach, list, delete and garbage-collect sandbox containers."""

from __future__ import annotations

import builtins
import json
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import docker.errors

from sandlot.convert import converter, structure
from sandlot.errors import PolicyNotEnforceable, SandboxError, SandboxNotFound
from sandlot.policy import Capability, FilesystemPolicy, Policy, expand_user_vars, resolve_filesystem
from sandlot.provider import (
    Availability,
    Feature,
    Page,
    Provider,
    ProviderContext,
    SandboxInfo,
    SandboxSpec,
    paginate,
    translate_policy,
)
from sandlot.session import ShellSession
from sandlot_docker.detect import ContainerFacts
from sandlot_docker.engine import EngineUnreachable, connect, engine_errors, engine_url, how_to_start
from sandlot_docker.image import SANDBOX_UID, build_hint
from sandlot_docker.options import DockerOptions, OnLost
from sandlot_docker.sandbox import ContainerRef, DockerSandbox
from sandlot_docker.translate import (
    ID_LABEL,
    MASKED_LABEL,
    OWNER_LABEL,
    OWNER_VALUE,
    USER_LABEL_PREFIX,
    DockerNativePolicy,
    DockerTranslateContext,
)
from sandlot_docker.transport import DockerShellProcess

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
FEATURES = frozenset({Feature.PERSISTENT_SHELL, Feature.KILL_TREE, Feature.ATTACH, Feature.SESSION_RECOVERY})

CREATED_LABEL = "sandlot.created-at"
POLICY_LABEL = "sandlot.policy"
_ID = re.compile(r"^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$")


def container_name(sandbox_id: str) -> str:
    return f"sandlot-{sandbox_id}"


def volume_name(sandbox_id: str) -> str:
    return f"sandlot-{sandbox_id}-workspace"


def availability(options: DockerOptions | None = None) -> Availability:
    """The engine named by ``providers.docker.docker_host``, else DOCKER_HOST, else the default socket, answers."""
    host = options.docker_host if options is not None else ""
    url = engine_url(host)
    if url.startswith("unix://") and not os.path.exists(url[len("unix://") :]):
        return Availability(False, reason=f"no Docker engine socket at {url[len('unix://'):]}", fix=how_to_start(url))
    try:
        connect(host, timeout=5).ping()
    except Exception as exc:
        return Availability(False, reason=f"the Docker engine at {url} does not answer: {exc}", fix=how_to_start(url))
    return Availability(True)


def ensure_masks() -> tuple[str, str]:
    """An empty mode-000 directory and file that cover denied paths inside mounts.

    Kept out of /tmp (a container restart needs them again) and, for root, out of any home
    directory a sandbox might have mounted read-write.
    """
    if os.getuid() == 0:
        base = Path("/var/lib/sandlot/docker-masks")
    else:
        state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        base = Path(state) / "sandlot" / "docker-masks"
    base.mkdir(parents=True, exist_ok=True, mode=0o700)
    if base.is_symlink() or base.stat().st_uid != os.getuid():
        raise SandboxError(f"{base} is not a directory owned by this user; remove it")
    mask_dir, mask_file = base / "empty-dir", base / "empty-file"
    if not mask_dir.is_dir():
        mask_dir.mkdir(mode=0o000)
    if not mask_file.is_file():
        mask_file.touch(mode=0o000)
    mask_dir.chmod(0o700)
    leftovers = os.listdir(mask_dir)
    mask_dir.chmod(0o000)
    mask_file.chmod(0o000)
    if leftovers or mask_file.stat().st_size:
        # Fail closed: a stand-in with content would show that content instead of the secret.
        raise SandboxError(f"the mask stand-ins under {base} are not empty; remove that directory")
    return str(mask_dir), str(mask_file)


def resolve_user(option: str, workdir: Path | None) -> str:
    """The numeric uid:gid for ``user = "auto"``: the workdir's owner, else us, else 1000 (never root)."""
    if option != "auto":
        return option if ":" in option else f"{option}:{option}"
    if workdir is not None:
        st = workdir.stat()
        if st.st_uid != 0:
            return f"{st.st_uid}:{st.st_gid}"
    if os.getuid() != 0:
        return f"{os.getuid()}:{os.getgid()}"
    return f"{SANDBOX_UID}:{SANDBOX_UID}"


def _absolute_entries(entries: tuple[str, ...]) -> tuple[str, ...]:
    """Entries that do not depend on a host working directory (absolute, ~, or **/ globs)."""
    home = os.path.expanduser("~")
    return tuple(
        e for e in entries if expand_user_vars(e, home=home, env=os.environ).startswith(("/", "**/"))
    )


def _facts_from_mounts(
    api: Any, container_id: str, mounts: list[dict[str, Any]], config: dict[str, Any], host: dict[str, Any]
) -> ContainerFacts:
    masked = tuple(json.loads(config.get("Labels", {}).get(MASKED_LABEL, "[]")))
    writable: list[str] = []
    read_only: list[str] = []
    for mount in mounts:
        target = mount.get("Target") or mount.get("Destination", "")
        rw = not mount.get("ReadOnly", not mount.get("RW", True))
        if target in masked:
            continue
        (writable if rw else read_only).append(target)
    return ContainerFacts(
        api,
        container_id,
        memory_limit_mb=int(host.get("Memory", 0)) // (1024 * 1024),
        pids_limit=int(host.get("PidsLimit") or 0),
        writable=tuple(writable),
        read_only=tuple(read_only),
        masked=masked,
        workdir=config.get("WorkingDir", "/"),
        uid=config.get("User", ""),
    )


class DockerProvider(Provider):
    """Sandboxes are containers labelled ``sandlot.owner=sandlot-docker``, named ``sandlot-<id>``."""

    def __init__(self, context: ProviderContext) -> None:
        super().__init__(context)
        self.options: DockerOptions = context.options or DockerOptions()
        self.url = engine_url(self.options.docker_host)
        self._api: Any = None
        self._lock = threading.Lock()

    @property
    def api(self) -> Any:
        with self._lock:
            if self._api is None:
                self._api = connect(self.options.docker_host)
            return self._api

    # -- translation ---------------------------------------------------------------------

    def translate_context(self, spec: SandboxSpec, sandbox_id: str) -> DockerTranslateContext:
        env = spec.policy.environment.build()
        mask_dir, mask_file = ensure_masks()
        if spec.workdir is not None:
            workdir = Path(spec.workdir).resolve()
            if not workdir.is_dir():
                raise SandboxError(f"working directory {workdir} does not exist")
            filesystem = resolve_filesystem(spec.policy.filesystem, workdir=workdir)
            user = resolve_user(self.options.user, workdir)
            host_workdir = True
        else:
            # No host directory: relative policy entries refer to the in-container workspace.
            workdir = Path(self.options.workspace)
            fs = spec.policy.filesystem
            only_host = FilesystemPolicy(
                read_write=_absolute_entries(fs.read_write),
                read_only=_absolute_entries(fs.read_only),
                deny=_absolute_entries(fs.deny),
            )
            filesystem = resolve_filesystem(only_host, workdir=workdir)
            user = resolve_user(self.options.user, None)
            host_workdir = False
        return DockerTranslateContext(
            workdir=workdir,
            filesystem=filesystem,
            environment=env,
            sandbox_id=sandbox_id,
            host_workdir=host_workdir,
            user=user,
            mask_dir=mask_dir,
            mask_file=mask_file,
        )

    def _native(self, spec: SandboxSpec, sandbox_id: str) -> tuple[DockerNativePolicy, DockerTranslateContext]:
        ctx = self.translate_context(spec, sandbox_id)
        native = translate_policy(self.context.pm, self.name, spec.policy, self.options, ctx)
        if not isinstance(native, DockerNativePolicy):
            raise PolicyNotEnforceable(
                f"the docker translation returned {type(native).__name__}, not a DockerNativePolicy"
            )
        return native, ctx

    def explain(self, spec: SandboxSpec) -> DockerNativePolicy:
        return self._native(spec, spec.sandbox_id or "<id>")[0]

    # -- create / attach -----------------------------------------------------------------

    def create(self, spec: SandboxSpec) -> DockerSandbox:
        sandbox_id = spec.sandbox_id or secrets.token_hex(6)
        if not _ID.match(sandbox_id):
            raise SandboxError(f"sandbox id {sandbox_id!r} must match {_ID.pattern} (it names the container)")
        native, ctx = self._native(spec, sandbox_id)
        config = json.loads(json.dumps(native.config))  # a private, mutable copy
        labels = config["Labels"]
        labels[CREATED_LABEL] = f"{time.time():.3f}"
        labels[POLICY_LABEL] = json.dumps(converter.unstructure(spec.policy), sort_keys=True)
        for key, value in spec.labels.items():
            labels[USER_LABEL_PREFIX + key] = str(value)
        api = self.api
        with engine_errors(self.url):
            self._check_image(config["Image"])
            network = config["HostConfig"]["NetworkMode"]
            for note in native.notes:
                if "may not write" in note:
                    log.warning("sandlot: docker sandbox %s: %s", sandbox_id, note)
            if network != "none":
                try:
                    api.inspect_network(network)
                except docker.errors.NotFound:
                    raise SandboxError(
                        f"Docker network {network!r} (providers.docker.network) does not exist; "
                        f"create it: docker network create {network}"
                    ) from None
            container_id = self._create_container(config, sandbox_id)
            ref = ContainerRef(container_id, container_name(sandbox_id))
            try:
                sandbox = self._sandbox(sandbox_id, spec.policy, ref, config, owned=True, filesystem=ctx.filesystem,
                    host_workdir=ctx.workdir if ctx.host_workdir else None,
                )
                sandbox.facts.mark_baseline()
                sandbox.session.start()
            except BaseException:
                self._remove(sandbox_id)
                raise
        return sandbox

    def _check_image(self, image: str) -> None:
        try:
            self.api.inspect_image(image)
        except docker.errors.ImageNotFound:
            raise SandboxError(
                f"Docker image {image!r} is not on the engine at {self.url}. Build it without a registry: "
                f"`{build_hint(image)}`, or pull it (`docker pull {image}`), or set providers.docker.image"
            ) from None

    def _create_container(self, config: dict[str, Any], sandbox_id: str) -> str:
        api = self.api
        name = container_name(sandbox_id)
        try:
            created = api.create_container_from_config(config, name=name)
        except docker.errors.APIError as exc:
            if exc.status_code == 409:
                raise SandboxError(f"a sandbox with id {sandbox_id!r} already exists (container {name})") from None
            raise SandboxError(f"the engine refused to create container {name}: {exc.explanation or exc}") from None
        container_id: str = created["Id"]
        try:
            api.start(container_id)
        except docker.errors.APIError as exc:
            self._remove(sandbox_id)
            raise SandboxError(f"container {name} did not start: {exc.explanation or exc}") from None
        return container_id

    def _sandbox(
        self,
        sandbox_id: str,
        policy: Policy,
        ref: ContainerRef,
        config: dict[str, Any],
        *,
        owned: bool,
        filesystem: Any = None,
        host_workdir: Path | None = None,
    ) -> DockerSandbox:
        api = self.api
        host = config["HostConfig"]
        facts = _facts_from_mounts(api, ref.id, host.get("Mounts", []), config, host)
        recreate_config = config if owned else None

        def restart() -> None:
            # Last resort when no process can be started to kill the command (pids limit).
            # Only a running container: one stopped or removed from outside stays that way.
            try:
                if not api.inspect_container(ref.id)["State"].get("Running"):
                    return
                log.warning("sandbox %s: restarting its container to stop a runaway command", sandbox_id)
                api.restart(ref.id, timeout=0)
            except Exception as exc:  # the container may be gone already
                log.debug("restart of %s failed: %s", ref.id, exc)

        def launch() -> DockerShellProcess:
            self._ensure_running(sandbox_id, ref, recreate_config, facts)
            with engine_errors(self.url):
                try:
                    return DockerShellProcess(api, ref.id, self.options.shell, on_unkillable=restart)
                except docker.errors.NotFound:
                    raise SandboxError(f"sandbox {sandbox_id}: its container was removed from outside") from None
                except docker.errors.APIError as exc:
                    raise SandboxError(
                        f"sandbox {sandbox_id}: cannot start a shell in container {ref.name}: {exc.explanation or exc}"
                    ) from None

        session = ShellSession(launch, output_limit=policy.limits.output_bytes)

        def on_close() -> None:
            if not owned:
                return
            try:
                self._remove(sandbox_id)
            except EngineUnreachable as exc:
                # Closing must not fail because the engine went away; the leftover is gc's job.
                log.warning(
                    "sandlot: could not remove docker sandbox %s (%s); `sandlot docker gc` will", sandbox_id, exc
                )

        return DockerSandbox(
            sandbox_id,
            provider=self.name,
            policy=policy,
            pm=self.context.pm,
            session=session,
            api=api,
            url=self.url,
            ref=ref,
            facts=facts,
            filesystem=filesystem,
            workdir=host_workdir,
            on_close=on_close,
        )

    def _ensure_running(
        self, sandbox_id: str, ref: ContainerRef, config: dict[str, Any] | None, facts: ContainerFacts
    ) -> None:
        """Fail clearly (or recreate, per ``on_container_lost``) when the container is gone or stopped."""
        with engine_errors(self.url):
            try:
                state = self.api.inspect_container(ref.id)["State"]
            except docker.errors.NotFound:
                state = None
            if state is not None and state.get("Running") and not state.get("Paused"):
                return
            if state is None:
                what = "was removed from outside"
            elif state.get("Paused"):
                what = "is paused"
            else:
                oom = ", killed for exceeding its memory limit" if state.get("OOMKilled") else ""
                what = f"stopped (exit code {state.get('ExitCode')}{oom})"
            if self.options.on_container_lost is OnLost.RECREATE and config is not None:
                log.warning("sandbox %s: its container %s; recreating it (state is lost)", sandbox_id, what)
                self._remove(sandbox_id)
                ref.id = self._create_container(config, sandbox_id)
                facts.container_id = ref.id
                facts.mark_baseline()
                return
            raise SandboxError(
                f"sandbox {sandbox_id}: its container {ref.name} {what}; create a new sandbox "
                f'(or set providers.docker.on_container_lost = "recreate")'
            )

    def attach(self, sandbox_id: str) -> DockerSandbox:
        info = self._inspect_owned(sandbox_id)
        if info is None:
            raise SandboxNotFound(
                f"no docker sandbox {sandbox_id!r} (no container {container_name(sandbox_id)} of ours)"
            )
        config = dict(info["Config"])
        config["HostConfig"] = info["HostConfig"]
        raw_policy = config.get("Labels", {}).get(POLICY_LABEL)
        try:
            policy = structure(json.loads(raw_policy), Policy, source=f"container {info['Name']} label")
        except Exception as exc:
            raise SandboxError(f"sandbox {sandbox_id}: cannot read its policy label: {exc}") from None
        ref = ContainerRef(info["Id"], container_name(sandbox_id))
        # Mounts as created (inspect's top-level Mounts lacks ReadOnly for masks on old engines).
        config["HostConfig"] = dict(info["HostConfig"], Mounts=info["HostConfig"].get("Mounts") or [])
        sandbox = self._sandbox(sandbox_id, policy, ref, config, owned=False)
        sandbox.facts.mark_baseline()
        sandbox.session.start()
        return sandbox

    def _inspect_owned(self, sandbox_id: str) -> dict[str, Any] | None:
        if not _ID.match(sandbox_id):
            return None
        with engine_errors(self.url):
            try:
                info: dict[str, Any] = self.api.inspect_container(container_name(sandbox_id))
            except docker.errors.NotFound:
                return None
        labels = info.get("Config", {}).get("Labels") or {}
        if labels.get(OWNER_LABEL) != OWNER_VALUE or labels.get(ID_LABEL) != sandbox_id:
            return None  # not ours: never touched
        return info

    # -- list / delete / gc --------------------------------------------------------------

    def _owned(self) -> list[dict[str, Any]]:
        with engine_errors(self.url):
            found: list[dict[str, Any]] = self.api.containers(
                all=True, filters={"label": [f"{OWNER_LABEL}={OWNER_VALUE}"]}
            )
        return found

    def infos(self) -> list[SandboxInfo]:
        infos = []
        for item in self._owned():
            labels = item.get("Labels") or {}
            try:
                created = float(labels.get(CREATED_LABEL, item.get("Created", 0)))
            except ValueError:
                created = float(item.get("Created", 0))
            infos.append(
                SandboxInfo(
                    id=labels.get(ID_LABEL, item["Id"][:12]),
                    provider=self.name,
                    status=item.get("State", "unknown"),
                    created_at=created,
                    labels={
                        k[len(USER_LABEL_PREFIX) :]: v for k, v in labels.items() if k.startswith(USER_LABEL_PREFIX)
                    },
                )
            )
        return infos

    def list(self, cursor: str | None = None, limit: int = 100, labels: Mapping[str, str] | None = None) -> Page:
        return paginate(self.infos(), cursor, limit, labels)

    def delete(self, sandbox_id: str) -> None:
        if not _ID.match(sandbox_id):
            return
        with engine_errors(self.url):
            try:
                info = self.api.inspect_container(container_name(sandbox_id))
            except docker.errors.NotFound:
                info = None
            if info is not None:
                labels = info.get("Config", {}).get("Labels") or {}
                if labels.get(OWNER_LABEL) != OWNER_VALUE:
                    raise SandboxError(
                        f"container {container_name(sandbox_id)} was not created by sandlot; not deleting it"
                    )
        self._remove(sandbox_id)

    def _remove(self, sandbox_id: str) -> None:
        """Remove the container and its workspace volume; absent ones are fine."""
        api = self.api
        with engine_errors(self.url):
            try:
                api.remove_container(container_name(sandbox_id), force=True, v=True)
            except docker.errors.NotFound:
                pass
            except docker.errors.APIError as exc:
                if exc.status_code != 409:
                    raise SandboxError(f"cannot remove sandbox {sandbox_id}: {exc.explanation or exc}") from None
                # 409: another removal is in progress; wait for it so the volume can go too.
                self._wait_gone(container_name(sandbox_id))
            self._remove_volume(volume_name(sandbox_id))

    def _wait_gone(self, name: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                self.api.inspect_container(name)
            except docker.errors.NotFound:
                return
            time.sleep(0.05)
        raise SandboxError(f"container {name} is still being removed after {timeout:.0f}s")

    def _remove_volume(self, name: str) -> None:
        for _ in range(50):
            try:
                info = self.api.inspect_volume(name)
            except docker.errors.NotFound:
                return
            if (info.get("Labels") or {}).get(OWNER_LABEL) != OWNER_VALUE:
                return
            try:
                self.api.remove_volume(name, force=True)
                return
            except docker.errors.NotFound:
                return
            except docker.errors.APIError as exc:
                if exc.status_code != 409:  # in use: the container is still being torn down
                    raise
                time.sleep(0.05)

    def gc(
        self, older_than: float, *, labels: Mapping[str, str] | None = None, dry_run: bool = False
    ) -> builtins.list[str]:
        """Remove our containers created more than ``older_than`` seconds ago (and carrying all
        ``labels``, when given), and workspace volumes whose container is gone."""
        cutoff = time.time() - older_than
        wanted = dict(labels or {})
        removed = [
            info.id
            for info in self.infos()
            if info.created_at < cutoff and all(info.labels.get(k) == v for k, v in wanted.items())
        ]
        if not dry_run:
            for sandbox_id in removed:
                self._remove(sandbox_id)
        with engine_errors(self.url):
            volumes = self.api.volumes(filters={"label": f"{OWNER_LABEL}={OWNER_VALUE}"}).get("Volumes") or []
        live = {info.id for info in self.infos()}
        for volume in volumes:
            sandbox_id = (volume.get("Labels") or {}).get(ID_LABEL, "")
            if sandbox_id and sandbox_id not in live and not dry_run:
                self._remove_volume(volume["Name"])
        return removed


def options_from(raw: Any) -> DockerOptions:
    """DockerOptions from a ``[providers.docker]`` table (for the CLI)."""
    return structure(dict(raw or {}), DockerOptions, source="configuration", prefix="providers.docker")
