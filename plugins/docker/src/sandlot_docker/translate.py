"""The generic Policy as a Docker Engine ``ContainerCreate`` body (the native form).

The container sees the image (read-only) plus what the policy grants, mounted at the
same paths as on the host so that paths in the policy, in commands and in error
messages mean the same thing inside and out:

* ``read_write`` paths: read-write bind mounts;
* ``read_only`` paths inside a writable mount: read-only bind mounts on top (protection);
  other ``read_only`` paths: read-only bind mounts (a grant to read), except the built-in
  persistence targets (``~/.bashrc``...), which are simply not mounted;
* ``deny`` paths: never mounted; inside a mounted directory they are covered by an empty,
  mode-000 file or directory, so reading them fails with EACCES;
* with no host working directory, the working directory is a size-limited tmpfs volume.

What the container model cannot honour is refused with :class:`PolicyNotEnforceable`.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from sandlot.errors import PolicyNotEnforceable
from sandlot.policy import DEFAULT_READ_ONLY, NetworkMode, Policy, expand_user_vars, glob_matches, is_glob
from sandlot.provider import TranslateContext
from sandlot_docker.engine import DEFAULT_SOCKET, engine_url
from sandlot_docker.options import DockerOptions

OWNER_LABEL = "sandlot.owner"
OWNER_VALUE = "sandlot-docker"
ID_LABEL = "sandlot.sandbox-id"
USER_LABEL_PREFIX = "sandlot.label."
MASKED_LABEL = "sandlot.masked-paths"
MIB = 1024 * 1024

#: Container paths a bind mount may not cover: the kernel interfaces and the root itself.
_RESERVED = ("/proc", "/sys", "/dev")
#: Engine sockets that must never be reachable from a sandbox.
_ENGINE_SOCKETS = (DEFAULT_SOCKET, "/run/docker.sock", "/run/containerd/containerd.sock")


@attrs.frozen
class DockerTranslateContext(TranslateContext):
    """The core context plus what only the Docker provider knows."""

    #: False: no host working directory; ``workdir`` is the workspace volume's path.
    host_workdir: bool = True
    #: Numeric ``uid:gid`` the sandbox runs as (already resolved from ``user = "auto"``).
    user: str = "1000:1000"
    #: Host paths of the empty mode-000 directory and file that cover denied paths.
    mask_dir: str = ""
    mask_file: str = ""


@attrs.frozen
class DockerNativePolicy:
    """A ``ContainerCreate`` body (Docker Engine API) plus what was left out and why."""

    config: Mapping[str, Any]
    #: Name of the tmpfs volume holding the working directory, or "" with a host workdir.
    workspace_volume: str = ""
    #: Denied paths covered by an empty mode-000 stand-in.
    masked: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def host_config(self) -> Mapping[str, Any]:
        return self.config["HostConfig"]  # type: ignore[no-any-return]

    def to_data(self) -> Mapping[str, Any]:
        return {
            "config": self.config,
            "workspace_volume": self.workspace_volume,
            "masked": list(self.masked),
            "notes": list(self.notes),
            "docker_argv": self.docker_argv(),
        }

    def docker_argv(self) -> list[str]:
        """The equivalent ``docker create`` command line (for people; sandlot uses the API)."""
        c, h = self.config, self.host_config
        argv = ["docker", "create", "--user", c["User"], "--workdir", c["WorkingDir"]]
        argv += ["--read-only", "--cap-drop", "ALL", "--security-opt", "no-new-privileges:true", "--init"]
        argv += ["--network", h["NetworkMode"], "--pids-limit", str(h["PidsLimit"])]
        argv += ["--memory", f"{h['Memory']}b", "--memory-swap", f"{h['MemorySwap']}b"]
        argv += ["--cpus", f"{h['NanoCpus'] / 1e9:g}", "--ipc", h["IpcMode"], "--log-driver", "none"]
        if h.get("Runtime"):
            argv += ["--runtime", h["Runtime"]]
        for path, opts in h["Tmpfs"].items():
            argv += ["--tmpfs", f"{path}:{opts}"]
        for limit in h.get("Ulimits", []):
            argv += ["--ulimit", f"{limit['Name']}={limit['Soft']}:{limit['Hard']}"]
        for mount in h["Mounts"]:
            parts = [f"type={mount['Type']}", f"dst={mount['Target']}"]
            if mount.get("Source"):
                parts.insert(1, f"src={mount['Source']}")
            if mount.get("ReadOnly"):
                parts.append("readonly")
            driver = mount.get("VolumeOptions", {}).get("DriverConfig")
            if driver:
                parts += [f"volume-opt={k}={v}" for k, v in driver["Options"].items()]
            argv += ["--mount", ",".join(parts)]
        for name, value in c["Labels"].items():
            argv += ["--label", f"{name}={value}"]
        for item in c["Env"]:
            argv += ["--env", item]
        argv += ["--entrypoint", c["Entrypoint"][0], c["Image"], *c["Entrypoint"][1:]]
        return argv

    def explain(self) -> str:
        h = self.host_config
        lines = [
            f"Docker container for image {self.config['Image']} (Engine API ContainerCreate body below)",
            f"  user          {self.config['User']} (never root)",
            f"  workdir       {self.config['WorkingDir']}"
            + (f" (tmpfs volume {self.workspace_volume})" if self.workspace_volume else " (host bind mount)"),
            "  root fs       read-only; " + ", ".join(f"{p} tmpfs {o}" for p, o in h["Tmpfs"].items()),
            "  privileges    cap-drop ALL, no-new-privileges, default seccomp profile, not privileged",
            f"  limits        memory {h['Memory'] // MIB} MiB (swap {h['MemorySwap'] // MIB} MiB total, i.e. none), "
            f"pids {h['PidsLimit']}, cpus {h['NanoCpus'] / 1e9:g}",
            f"  network       {h['NetworkMode']}",
            f"  init          {'yes' if h['Init'] else 'no'} (reaps zombies)",
            f"  runtime       {h.get('Runtime') or 'engine default'}",
            "  mounts:",
        ]
        for mount in h["Mounts"]:
            mode = "ro" if mount.get("ReadOnly") else "rw"
            if mount["Target"] in self.masked:
                lines.append(f"    mask {mount['Target']} (denied: covered by an empty mode-000 stand-in)")
            else:
                lines.append(f"    {mode:4} {mount['Target']} ({mount['Type']})")
        if self.notes:
            lines.append("  not mounted / adjusted:")
            lines += [f"    {note}" for note in self.notes]
        lines.append("equivalent command:")
        lines.append("  " + shlex.join(self.docker_argv()))
        lines.append("ContainerCreate body:")
        lines.append(json.dumps(self.config, indent=2, sort_keys=True))
        return "\n".join(lines)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _real(path: Path) -> str:
    return os.path.realpath(path)


def _default_read_only(path: str) -> bool:
    """Whether ``path`` is one of the built-in persistence targets (protected, not granted)."""
    for entry in DEFAULT_READ_ONLY:
        text = expand_user_vars(entry, home=os.path.expanduser("~"), env=os.environ)
        if is_glob(text):
            if glob_matches(Path(path), text):
                return True
        elif os.path.realpath(text) == path or text == path:
            return True
    return False


def _check_bindable(path: str, what: str, sockets: tuple[str, ...] = _ENGINE_SOCKETS) -> None:
    if path == "/":
        raise PolicyNotEnforceable(f"{what} path / cannot be bind-mounted over the container's root filesystem")
    for reserved in _RESERVED:
        if _inside(path, reserved):
            raise PolicyNotEnforceable(
                f"{what} path {path} lies in {reserved}, which the container provides itself; "
                f"the Docker provider cannot mount it"
            )
    for sock in sockets:
        real_sock = os.path.realpath(sock)
        if _inside(sock, path) or _inside(real_sock, path):
            raise PolicyNotEnforceable(
                f"{what} path {path} would expose the Docker engine socket {sock} to the sandbox "
                f"(full control of the host); narrow the path"
            )


def _top_level(paths: Iterable[str]) -> list[str]:
    """Drop paths that lie inside another path of the list."""
    ordered = sorted(set(paths), key=lambda p: (p.count("/"), p))
    kept: list[str] = []
    for path in ordered:
        if not any(_inside(path, k) for k in kept):
            kept.append(path)
    return kept


def _bind(source: str, target: str, *, read_only: bool) -> dict[str, Any]:
    return {
        "Type": "bind",
        "Source": source,
        "Target": target,
        "ReadOnly": read_only,
        # rprivate: mounts made later on the host never propagate into the sandbox.
        "BindOptions": {"Propagation": "rprivate"},
    }


def writable_by(path: str, uid: int, gid: int) -> bool:
    """Whether ``uid:gid`` (no capabilities, so no DAC override) may write to ``path``."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    if st.st_uid == uid:
        return bool(st.st_mode & 0o200)
    if st.st_gid == gid:
        return bool(st.st_mode & 0o020)
    return bool(st.st_mode & 0o002)


def _ulimits(policy: Policy) -> list[dict[str, Any]]:
    limits = policy.limits
    table = []
    if limits.cpu_seconds is not None:
        table.append(("cpu", limits.cpu_seconds))
    if limits.file_size_mb is not None:
        table.append(("fsize", limits.file_size_mb * MIB))
    if limits.open_files is not None:
        table.append(("nofile", limits.open_files))
    return [{"Name": name, "Soft": value, "Hard": value} for name, value in table]


def translate(policy: Policy, options: DockerOptions, context: TranslateContext) -> DockerNativePolicy:
    """The ContainerCreate body enforcing ``policy``; raises PolicyNotEnforceable (fail closed)."""
    ctx = context if isinstance(context, DockerTranslateContext) else DockerTranslateContext(
        workdir=context.workdir,
        filesystem=context.filesystem,
        environment=context.environment,
        sandbox_id=context.sandbox_id,
    )
    notes: list[str] = []
    fs = ctx.filesystem
    url = engine_url(options.docker_host)
    sockets = _ENGINE_SOCKETS + ((url[len("unix://") :],) if url.startswith("unix://") else ())
    deny = _top_level(_real(p) for p in fs.deny)
    read_write = [_real(p) for p in fs.read_write]
    read_only = [_real(p) for p in fs.read_only]

    # Writable roots: deny wins over everything, read_only over read_write.
    rw_roots: list[str] = []
    for path in read_write:
        denied = next((d for d in deny if _inside(path, d)), None)
        if denied is not None:
            # Asked to write where it may not even read: ambiguous, so refused rather than guessed.
            raise PolicyNotEnforceable(
                f"read_write path {path} lies inside the denied path {denied}; remove one of them"
            )
    for path in _top_level(read_write):
        _check_bindable(path, "read_write", sockets)
        rw_roots.append(path)

    ro_binds: list[str] = []
    for path in _top_level(read_only):
        denied = next((d for d in deny if _inside(path, d)), None)
        if denied is not None:
            notes.append(f"{path}: read_only inside denied {denied}; not mounted (deny wins)")
            continue
        inside_rw = any(_inside(path, root) for root in rw_roots)
        if not inside_rw and _default_read_only(path):
            notes.append(f"{path}: built-in read_only entry outside the writable paths; not mounted")
            continue
        _check_bindable(path, "read_only", sockets)
        ro_binds.append(path)
    # A read_write root inside a read-only grant would be mounted on top of it: drop it.
    for root in list(rw_roots):
        covering = next((r for r in ro_binds if _inside(root, r) and root != r), None)
        if covering is not None or root in ro_binds:
            notes.append(f"{root}: read_write inside read_only {covering or root}; read-only (read_only wins)")
            rw_roots.remove(root)

    uid, _, gid = ctx.user.partition(":")
    gid = gid or uid
    for root in rw_roots:
        if not writable_by(root, int(uid), int(gid)):
            notes.append(
                f"{root}: read_write, but uid {uid} may not write to it (owner {os.stat(root).st_uid}); "
                f"chown it or set providers.docker.user"
            )
    mounts: list[dict[str, Any]] = [_bind(p, p, read_only=False) for p in rw_roots]
    mounts += [_bind(p, p, read_only=True) for p in ro_binds]
    roots = rw_roots + ro_binds

    masks: list[str] = []
    for path in deny:
        if any(_inside(root, path) for root in roots):
            # Only possible for read_only grants, which were dropped above; defensive.
            raise PolicyNotEnforceable(f"denied path {path} contains a mounted path")
        if not any(_inside(path, root) for root in roots):
            notes.append(f"{path}: denied; outside every mount, so the container cannot see it")
            continue
        if not ctx.mask_dir or not ctx.mask_file:
            raise PolicyNotEnforceable(f"denied path {path} is inside a mount but no mask is available")
        source = ctx.mask_dir if os.path.isdir(path) and not os.path.islink(path) else ctx.mask_file
        mounts.append(_bind(source, path, read_only=True))
        masks.append(path)

    workspace_volume = ""
    if ctx.host_workdir:
        workdir = _real(ctx.workdir)
        if not any(_inside(workdir, root) for root in roots):
            notes.append(f"{workdir}: the working directory is not mounted (not in read_write or read_only)")
    else:
        workdir = str(ctx.workdir)
        if any(_inside(workdir, root) or _inside(root, workdir) for root in roots):
            raise PolicyNotEnforceable(
                f"a host mount overlaps the workspace path {workdir}; change providers.docker.workspace"
            )
        workspace_volume = f"sandlot-{ctx.sandbox_id or 'explain'}-workspace"
        mounts.append(
            {
                "Type": "volume",
                "Source": workspace_volume,
                "Target": workdir,
                "VolumeOptions": {
                    "Labels": {OWNER_LABEL: OWNER_VALUE, ID_LABEL: ctx.sandbox_id},
                    # A tmpfs: bounded (disk bombs hit the size limit), gone with the sandbox,
                    # and visible to the archive API (plain --tmpfs mounts are not).
                    "DriverConfig": {
                        "Name": "local",
                        "Options": {
                            "type": "tmpfs",
                            "device": "tmpfs",
                            "o": f"size={options.workspace_size_mb}m,uid={uid},gid={gid},mode=0700,nosuid,nodev",
                        },
                    },
                },
            }
        )

    tmpfs: dict[str, str] = {}
    if not any(m["Target"] == "/tmp" for m in mounts):
        tmpfs["/tmp"] = f"rw,nosuid,nodev,noexec,size={options.tmp_size_mb}m"
    else:
        notes.append("/tmp: a host path is mounted there, so no tmpfs is added")

    mode = NetworkMode(policy.network.mode)
    if mode is NetworkMode.NONE:
        network = "none"
    elif mode is NetworkMode.ALL:
        if not options.network:
            raise PolicyNotEnforceable(
                'policy network.mode = "all" needs a Docker network named in providers.docker.network '
                "(e.g. `docker network create sandlot-egress`); the sandbox then reaches whatever that "
                "network reaches"
            )
        if options.network == "host" or options.network.startswith("container:"):
            raise PolicyNotEnforceable(
                f"providers.docker.network = {options.network!r} would share another network namespace "
                f"(host loopback services included); name a bridge network instead"
            )
        network = options.network
    else:
        raise PolicyNotEnforceable(
            f"network.mode = {mode.value!r} is not enforced by the Docker provider; "
            f'use "none", or "all" with providers.docker.network'
        )

    memory = (policy.limits.memory_mb or options.memory_mb) * MIB
    env = dict(ctx.environment)
    env.setdefault("HOME", workdir)
    env.setdefault("TMPDIR", "/tmp")
    labels = {OWNER_LABEL: OWNER_VALUE, ID_LABEL: ctx.sandbox_id}
    if masks:
        labels[MASKED_LABEL] = json.dumps(masks)
    host_config: dict[str, Any] = {
        "ReadonlyRootfs": True,
        "Tmpfs": tmpfs,
        "CapDrop": ["ALL"],
        "SecurityOpt": ["no-new-privileges:true"],
        "Privileged": False,
        "Init": True,
        "NetworkMode": network,
        "Memory": memory,
        "MemorySwap": memory,
        "PidsLimit": policy.limits.processes or options.pids,
        "NanoCpus": int(options.cpus * 1e9),
        "IpcMode": "private",
        "LogConfig": {"Type": "none", "Config": {}},
        "RestartPolicy": {"Name": "no"},
        "AutoRemove": False,
        "Mounts": mounts,
        "Ulimits": _ulimits(policy),
    }
    if options.runtime:
        host_config["Runtime"] = options.runtime
    config: dict[str, Any] = {
        "Image": options.image,
        # The container's main process only keeps it alive; commands run over exec.
        # Set as the entrypoint so an image's own ENTRYPOINT/CMD never wraps or replaces it.
        "Entrypoint": ["sleep", "infinity"],
        "User": f"{uid}:{gid}",
        "WorkingDir": workdir,
        "Env": [f"{k}={v}" for k, v in env.items()],
        "Hostname": "sandlot",
        "Labels": labels,
        "AttachStdin": False,
        "OpenStdin": False,
        "Tty": False,
        "NetworkDisabled": network == "none",
        "HostConfig": host_config,
    }
    return DockerNativePolicy(
        config=config, workspace_volume=workspace_volume, masked=tuple(masks), notes=tuple(notes)
    )
