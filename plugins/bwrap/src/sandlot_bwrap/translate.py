"""Policy -> bwrap: the exact argv, the seccomp program and the resource limits (``BwrapPolicy``)."""

from __future__ import annotations

import contextlib
import os
import shlex
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from sandlot.errors import PolicyNotEnforceable, SandboxError
from sandlot.files.paths import PathMap, inside
from sandlot.policy import NetworkMode, Policy
from sandlot.popen_shell import shell_argv
from sandlot.provider import TranslateContext
from sandlot_bwrap import limits as limits_mod
from sandlot_bwrap import seccomp
from sandlot_bwrap.masks import PRIVATE_DIRS, FilesystemPlan, plan, visible
from sandlot_bwrap.options import BwrapOptions

#: Placeholders in the argv for descriptors numbered at launch.
SECCOMP_FD = "<seccomp-fd>"
STATUS_FD = "<json-status-fd>"


def masks_dir() -> Path:
    """The per-user directory holding the mask sources: an empty mode-000 file and directory.

    Created mode 0700 and checked (a directory we own, not a symlink) because it lives
    in the shared temporary directory.
    """
    base = Path(tempfile.gettempdir()) / f"sandlot-bwrap-{os.getuid()}"
    with contextlib.suppress(FileExistsError):
        base.mkdir(mode=0o700)
    st = os.lstat(base)
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise SandboxError(f"{base} is not a private directory owned by uid {os.getuid()}; refusing to use it")
    return base


def mask_sources(create: bool = True) -> tuple[Path, Path]:
    base = masks_dir() if create else Path(tempfile.gettempdir()) / f"sandlot-bwrap-{os.getuid()}"
    file, directory = base / "mask-file", base / "mask-dir"
    if create:
        if not directory.is_dir():
            directory.mkdir(mode=0)
        if not file.exists():
            file.touch(mode=0)
        # Mode 000: the sandbox uid owns nothing here that it could read, list or enter;
        # the read-only bind makes chmod fail with EROFS.
        os.chmod(directory, 0)
        os.chmod(file, 0)
    return file, directory


@attrs.frozen
class BwrapPolicy:
    """The native form of a policy for bwrap (``sandlot policy explain --provider bwrap``)."""

    bwrap: str
    #: The argv after the bwrap executable; SECCOMP_FD/STATUS_FD are numbered at launch.
    args: tuple[str, ...]
    seccomp: seccomp.SeccompProgram
    #: Per-process rlimits set on bwrap before exec (resource.RLIMIT_* -> value).
    rlimits: Mapping[int, tuple[int, int]]
    #: RLIMIT_NPROC set inside the user namespace (unprivileged host), or None.
    nproc: int | None
    #: pids.max of the sandbox's pids cgroup (host uid 0), or None.
    pids_max: int | None
    #: Memory limit of the whole sandbox in a memory cgroup (host uid 0, best effort), or None.
    memory_max: int | None
    filesystem: FilesystemPlan
    environment: Mapping[str, str]
    workdir: Path
    network: NetworkMode

    def argv(self, *, seccomp_fd: int, status_fd: int) -> list[str]:
        fds = {SECCOMP_FD: str(seccomp_fd), STATUS_FD: str(status_fd)}
        return [self.bwrap, *(fds.get(arg, arg) for arg in self.args)]

    def explain(self) -> str:
        lines = ["bwrap argv (one option per line):", *_argv_lines([self.bwrap, *self.args])]
        lines.append(f"seccomp ({self.seccomp.arch}, {self.seccomp.instructions} BPF instructions, fd {SECCOMP_FD}):")
        lines.append(seccomp.describe(self.seccomp.rules))
        lines.append("rlimits (set on bwrap, inherited by every process in the sandbox):")
        for name, (soft, hard) in limits_mod.named_rlimits(self.rlimits).items():
            lines.append(f"  {name} = {soft} (soft), {hard} (hard)")
        if self.nproc is not None:
            lines.append(f"  RLIMIT_NPROC = {self.nproc} (set inside the user namespace by the wrapper)")
        if self.pids_max is not None:
            lines.append(f"pids cgroup: pids.max = {self.pids_max} (host uid 0 is exempt from RLIMIT_NPROC)")
        if self.memory_max is not None:
            lines.append(
                f"memory cgroup (when it can be created): limit = {self.memory_max} bytes for the whole sandbox"
            )
        lines.append(f"network: {self.network.value}")
        lines.append("masked (read/write fails with EACCES naming the path):")
        lines.extend(f"  {m.path}{'/' if m.is_dir else ''} ({m.reason})" for m in self.filesystem.masks)
        for note in self.filesystem.notes:
            lines.append(f"note: {note}")
        return "\n".join(lines)

    def to_data(self) -> dict[str, Any]:
        return {
            "argv": [self.bwrap, *self.args],
            "seccomp": {
                "arch": self.seccomp.arch,
                "rules": list(self.seccomp.rules),
                "instructions": self.seccomp.instructions,
            },
            "rlimits": limits_mod.named_rlimits(self.rlimits),
            "nproc": self.nproc,
            "pids_max": self.pids_max,
            "memory_max": self.memory_max,
            "network": self.network.value,
            "read_write": [str(p) for p in self.filesystem.read_write],
            "read_only": [str(p) for p in self.filesystem.read_only],
            "masks": [{"path": str(m.path), "dir": m.is_dir, "reason": m.reason} for m in self.filesystem.masks],
            "notes": list(self.filesystem.notes),
            "environment": dict(self.environment),
            "workdir": str(self.workdir),
        }


def _argv_lines(argv: list[str]) -> list[str]:
    """The argv shell-quoted, one bwrap option per line, the command after ``--`` one word per line."""
    lines: list[str] = []
    in_command = False
    for token in argv:
        quoted = shlex.quote(token)
        if in_command or token.startswith("--") or not lines:
            lines.append("  " + quoted)
        else:
            lines[-1] += " " + quoted
        if token == "--" and not in_command:
            in_command = True
    return [line + " \\" for line in lines[:-1]] + lines[-1:]


def _root_view(mounts: PathMap) -> list[str]:
    """The host root, read-only. With mounts, entry by entry on bwrap's own root tmpfs, so
    mount points can be created there; a top-level directory holding a virtual path (``/mnt``
    of ``/mnt/data``) is left out, so only the mounts show in it."""
    if not mounts:
        return ["--ro-bind", "/", "/"]
    tops = {Path(m.virtual).parts[1] for m in mounts.mounts}
    args: list[str] = []
    for name in sorted(os.listdir("/")):
        path = "/" + name
        if name in tops or Path(path) in PRIVATE_DIRS:
            continue
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        else:
            args += ["--ro-bind", path, path]
    return args


def translate(
    policy: Policy,
    options: BwrapOptions,
    context: TranslateContext,
    *,
    host_uid: int | None = None,
    extra_masks: tuple[Path, ...] = (),
    create_sources: bool = True,
) -> BwrapPolicy:
    """The bwrap form of ``policy``; PolicyNotEnforceable for anything it cannot enforce."""
    if policy.network.mode is NetworkMode.ALLOWLIST:
        raise PolicyNotEnforceable('bwrap cannot enforce network.mode = "allowlist" (no proxy yet); use none or all')
    try:
        program = seccomp.build(allow_unix=options.allow_unix_sockets)
    except seccomp.UnsupportedArch as exc:
        raise PolicyNotEnforceable(f"bwrap: {exc}; the network and socket rules cannot be enforced") from None
    host_uid = os.geteuid() if host_uid is None else host_uid
    workdir = Path(os.path.realpath(context.workdir))
    fs = plan(context.filesystem, scan_limit=options.scan_limit, extra_masks=extra_masks, workdir=workdir)
    mask_file, mask_dir = mask_sources(create=create_sources)
    tmp_bytes = str(options.tmp_size_mb * limits_mod.MIB)

    args: list[str] = [
        # Unprivileged uid in a new user namespace, no capabilities at all, no nested namespaces.
        "--unshare-user",
        "--uid",
        str(options.uid),
        "--gid",
        str(options.gid),
        "--disable-userns",
        "--cap-drop",
        "ALL",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup",
    ]
    if policy.network.mode is NetworkMode.NONE:
        args.append("--unshare-net")
    args += ["--hostname", options.hostname, "--die-with-parent", "--new-session", "--clearenv"]
    for name, value in context.environment.items():
        args += ["--setenv", name, value]
    # Read-only view of the system; private /dev (read-only but for /dev/shm), /proc and /tmp.
    args += _root_view(context.mounts)
    args += [
        "--dev",
        "/dev",
        "--size",
        tmp_bytes,
        "--tmpfs",
        "/dev/shm",
        "--remount-ro",
        "/dev",
        "--proc",
        "/proc",
        "--size",
        tmp_bytes,
        "--tmpfs",
        "/tmp",
    ]
    # Binds land at the same path, or at their virtual path inside a mount (host layout hidden).
    def shown(path: Path) -> str:
        return context.mounts.to_virtual(str(path))

    for path, writable in sorted(fs.mounts, key=lambda bind: len(Path(shown(bind[0])).parts)):
        args += ["--bind" if writable else "--ro-bind", str(path), shown(path)]
    for mask in fs.masks:
        args += ["--ro-bind", str(mask_dir if mask.is_dir else mask_file), shown(mask.path)]
    for mount in context.mounts.mounts:
        # The host copy would stay readable through the read-only root: hide it.
        host = Path(mount.host)
        if visible(host, ()) and not (inside(mount.virtual, mount.host) or inside(mount.host, mount.virtual)):
            args += ["--ro-bind", str(mask_dir), mount.host]
    if context.mounts:
        args += ["--remount-ro", "/"]  # the root tmpfs holding the mount points
    args += ["--chdir", shown(workdir), "--seccomp", SECCOMP_FD, "--json-status-fd", STATUS_FD, "--"]

    nproc: int | None = None
    pids_max: int | None = None
    memory_max: int | None = None
    if policy.limits.memory_mb is not None and host_uid == 0:
        memory_max = policy.limits.memory_mb * limits_mod.MIB
    if policy.limits.processes is not None:
        if host_uid == 0:
            pids_max = policy.limits.processes + limits_mod.INFRA_PROCESSES
        else:
            nproc = policy.limits.processes + limits_mod.INFRA_PROCESSES
            args += [
                options.shell,
                "--noprofile",
                "--norc",
                "-c",
                limits_mod.NPROC_WRAPPER,
                "sandlot-limits",
                str(nproc),
            ]
    args += shell_argv(options.shell)
    return BwrapPolicy(
        bwrap=options.bwrap,
        args=tuple(args),
        seccomp=program,
        rlimits=limits_mod.rlimits_for(policy.limits),
        nproc=nproc,
        pids_max=pids_max,
        memory_max=memory_max,
        filesystem=fs,
        environment=dict(context.environment),
        workdir=workdir,
        network=policy.network.mode,
    )
