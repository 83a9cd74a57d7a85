"""The one generic security policy every provider enforces, its defaults and merge rules.

Semantics (the same for every provider):

* **reads** are allowed everywhere the provider's base view shows, except ``deny`` paths;
* **writes** are allowed only below ``read_write`` paths, never below ``read_only`` paths
  (``read_only`` wins over ``read_write``, so ``read_write=["."]`` with
  ``read_only=["./.git"]`` protects the repository metadata);
* ``deny`` paths can be neither read nor written.

Built-in defaults are appended to what the user configures: :data:`DEFAULT_DENY`
(credentials and secrets) and :data:`DEFAULT_READ_ONLY` (persistence targets such as
shell rc files and ``.git/hooks``). Run-time grants never lift them; only
``filesystem.exempt`` in the configuration does, one named entry at a time.
"""

from __future__ import annotations

import enum
import fnmatch
import logging
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path, PurePosixPath

import attrs

log = logging.getLogger(__name__)

#: Credentials and secrets no sandbox may read, whatever the configuration says.
DEFAULT_DENY: tuple[str, ...] = (
    "~/.ssh",
    "~/.aws",
    "~/.gnupg",
    "~/.config/gcloud",
    "~/.azure",
    "~/.kube",
    "~/.docker",
    "/etc/shadow",
    "/etc/gshadow",
    "**/.env",
    "**/.env.*",
    "**/.envrc",
    "**/credentials.json",
    "**/secrets.json",
)

#: Persistence targets no sandbox may write: code that runs later, outside the sandbox.
DEFAULT_READ_ONLY: tuple[str, ...] = (
    "~/.bashrc",
    "~/.bash_profile",
    "~/.bash_login",
    "~/.bash_logout",
    "~/.profile",
    "~/.zshrc",
    "~/.zprofile",
    "~/.zshenv",
    "~/.zlogin",
    "~/.config/fish/config.fish",
    "**/.git/hooks",
    "**/.git/config",
)


class NetworkMode(enum.StrEnum):
    NONE = "none"
    ALL = "all"
    ALLOWLIST = "allowlist"


class Capability(enum.StrEnum):
    """A part of the policy a provider can enforce. Providers declare the set they enforce."""

    FS_CONFINE = "filesystem.confine"
    FS_DENY = "filesystem.deny"
    NETWORK_BLOCK = "network.block"
    NETWORK_ALLOWLIST = "network.allowlist"
    LIMIT_TIMEOUT = "limits.timeout"
    LIMIT_OUTPUT = "limits.output"
    LIMIT_MEMORY = "limits.memory"
    LIMIT_CPU = "limits.cpu"
    LIMIT_PROCESSES = "limits.processes"
    LIMIT_FILE_SIZE = "limits.file_size"
    LIMIT_OPEN_FILES = "limits.open_files"
    ENVIRONMENT = "environment"


#: Capabilities that amount to isolation; an explicitly unsandboxed provider waives them.
ISOLATION_CAPABILITIES = frozenset(
    {Capability.FS_CONFINE, Capability.FS_DENY, Capability.NETWORK_BLOCK, Capability.NETWORK_ALLOWLIST}
)


def _strings(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, str | bytes):
        raise TypeError(f"expected a list of strings, got the single string {value!r}")
    return tuple(value)


def _built_in_entries(_: object, attribute: attrs.Attribute[tuple[str, ...]], value: tuple[str, ...]) -> None:
    unknown = [entry for entry in value if entry not in DEFAULT_DENY and entry not in DEFAULT_READ_ONLY]
    if unknown:
        raise ValueError(
            f"{attribute.name}: {', '.join(map(repr, unknown))} is not a built-in default entry; list entries of "
            f"the built-in deny/read-only lists exactly as written: {', '.join(DEFAULT_DENY + DEFAULT_READ_ONLY)}"
        )


@attrs.frozen
class FilesystemPolicy:
    read_write: tuple[str, ...] = attrs.field(default=(".",), converter=_strings)
    read_only: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    deny: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    #: Built-in default entries (exactly as in DEFAULT_DENY/DEFAULT_READ_ONLY) this policy opts out of,
    #: one path at a time. The only way to lift a default: approvals and grants never can.
    exempt: tuple[str, ...] = attrs.field(default=(), converter=_strings, validator=_built_in_entries)


@attrs.frozen
class NetworkPolicy:
    mode: NetworkMode = NetworkMode.NONE
    #: Hosts reachable when ``mode = "allowlist"`` (enforced by providers declaring
    #: ``network.allowlist``; none does yet, so such a policy fails closed).
    allow_hosts: tuple[str, ...] = attrs.field(default=(), converter=_strings)


@attrs.frozen
class Limits:
    """Resource limits. ``None`` means "not limited" (and asks nothing of the provider)."""

    timeout: float | None = 120.0
    output_bytes: int | None = 1024 * 1024
    memory_mb: int | None = None
    cpu_seconds: int | None = None
    processes: int | None = None
    file_size_mb: int | None = None
    open_files: int | None = None


#: A usable environment inside a sandbox; nothing is inherited from the host by default.
BASE_ENVIRONMENT: Mapping[str, str] = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TERM": "dumb",
}


@attrs.frozen
class EnvironmentPolicy:
    #: Names of host variables passed through (nothing by default).
    inherit: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    #: Explicit values; they win over inherited ones.
    set: Mapping[str, str] = attrs.field(factory=dict)

    def build(self, host_env: Mapping[str, str] | None = None) -> dict[str, str]:
        """The environment a sandboxed command starts with."""
        host = os.environ if host_env is None else host_env
        env = dict(BASE_ENVIRONMENT)
        env.update({name: host[name] for name in self.inherit if name in host})
        env.update(self.set)
        return env


@attrs.frozen
class Policy:
    filesystem: FilesystemPolicy = attrs.field(factory=FilesystemPolicy)
    network: NetworkPolicy = attrs.field(factory=NetworkPolicy)
    limits: Limits = attrs.field(factory=Limits)
    environment: EnvironmentPolicy = attrs.field(factory=EnvironmentPolicy)

    def effective(self) -> Policy:
        """This policy with the built-in deny and read-only lists appended (idempotent).

        Entries named in ``filesystem.exempt`` are not appended; entries the user
        listed themselves stay in force whatever ``exempt`` says.
        """
        fs = self.filesystem
        return attrs.evolve(
            self,
            filesystem=attrs.evolve(
                fs,
                deny=_append_unique(fs.deny, tuple(d for d in DEFAULT_DENY if d not in fs.exempt)),
                read_only=_append_unique(fs.read_only, tuple(d for d in DEFAULT_READ_ONLY if d not in fs.exempt)),
            ),
        )

    def required_capabilities(self) -> frozenset[Capability]:
        """Everything a provider must enforce to honour this policy."""
        need = {Capability.FS_CONFINE, Capability.ENVIRONMENT}
        if self.filesystem.deny:
            need.add(Capability.FS_DENY)
        if self.network.mode is NetworkMode.NONE:
            need.add(Capability.NETWORK_BLOCK)
        elif self.network.mode is NetworkMode.ALLOWLIST:
            need.add(Capability.NETWORK_ALLOWLIST)
        limit_caps = {
            "timeout": Capability.LIMIT_TIMEOUT,
            "output_bytes": Capability.LIMIT_OUTPUT,
            "memory_mb": Capability.LIMIT_MEMORY,
            "cpu_seconds": Capability.LIMIT_CPU,
            "processes": Capability.LIMIT_PROCESSES,
            "file_size_mb": Capability.LIMIT_FILE_SIZE,
            "open_files": Capability.LIMIT_OPEN_FILES,
        }
        for name, cap in limit_caps.items():
            if getattr(self.limits, name) is not None:
                need.add(cap)
        return frozenset(need)


def _append_unique(user: tuple[str, ...], defaults: tuple[str, ...]) -> tuple[str, ...]:
    return user + tuple(d for d in defaults if d not in user)


# --------------------------------------------------------------------------- paths

_GLOB_CHARS = re.compile(r"[*?\[]")


def is_glob(pattern: str) -> bool:
    return bool(_GLOB_CHARS.search(pattern))


def expand_user_vars(entry: str, *, home: str, env: Mapping[str, str]) -> str:
    """Expand a leading ``~`` and ``$VAR``/``${VAR}``; unknown variables stay literal."""

    def var(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return env.get(name, match.group(0))

    text = re.sub(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))", var, entry)
    if text == "~" or text.startswith("~/"):
        text = home + text[1:]
    return text


@attrs.frozen
class ResolvedFilesystem:
    """Concrete host paths a provider sets up, computed at sandbox launch.

    ``deny``/``read_only`` hold existing paths (explicit entries and glob matches under
    the read-write roots); the ``*_globs`` keep the patterns so files created during a
    run can be checked after each command.
    """

    read_write: tuple[Path, ...]
    read_only: tuple[Path, ...]
    deny: tuple[Path, ...]
    deny_globs: tuple[str, ...]
    read_only_globs: tuple[str, ...]


def _absolute(text: str, workdir: Path) -> Path:
    path = Path(text)
    return path if path.is_absolute() else workdir / path


def glob_matches(path: Path, pattern: str) -> bool:
    """Whether ``path`` matches a policy glob.

    ``*``, ``?`` and ``[...]`` match within one path component (``**/.env*`` does not match
    files below a directory named ``.envs``); a leading ``**/`` matches at any depth.
    """
    tail = pattern[3:] if pattern.startswith("**/") else pattern
    return PurePosixPath(path).match(tail)


def _name_filter(pattern: str) -> Callable[[str], bool]:
    """A cheap test on an entry's own name that every match of ``pattern`` passes."""
    last = pattern.rstrip("/").rsplit("/", 1)[-1]
    return re.compile(fnmatch.translate(last)).match  # type: ignore[return-value]


def walk_matches(roots: Iterable[Path], patterns: Iterable[str], *, limit: int = 200_000) -> Iterator[Path]:
    """Existing paths below ``roots`` matching any pattern (matched directories are not descended)."""
    pats = [
        (pattern, _name_filter(pattern), "/" in pattern[3:] if pattern.startswith("**/") else True)
        for pattern in patterns
    ]
    if not pats:
        return
    seen = 0
    for root in roots:
        if not root.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(root):
            for name in list(dirnames) + filenames:
                seen += 1
                if seen > limit:
                    log.warning("stopped scanning for deny globs after %d entries under %s", limit, root)
                    return
                # Most entries fail the name test; only candidates pay for the full match.
                hit = any(
                    name_ok(name) and (not full or glob_matches(Path(dirpath, name), pattern))
                    for pattern, name_ok, full in pats
                )
                if hit:
                    yield Path(dirpath, name)
                    if name in dirnames:
                        dirnames.remove(name)


def resolve_filesystem(
    policy: FilesystemPolicy,
    *,
    workdir: Path,
    home: str | None = None,
    env: Mapping[str, str] | None = None,
) -> ResolvedFilesystem:
    """Expand ``~``/``$VAR``, make paths absolute against ``workdir``, drop missing ones."""
    home = home if home is not None else os.path.expanduser("~")
    env = os.environ if env is None else env

    def concrete(entries: Iterable[str], what: str) -> tuple[list[Path], list[str]]:
        paths: list[Path] = []
        globs: list[str] = []
        for entry in entries:
            text = expand_user_vars(entry, home=home, env=env)
            if is_glob(text):
                if text.startswith("**/"):
                    globs.append(text)
                else:
                    globs.append(str(_absolute(text, workdir)))
                continue
            path = _absolute(text, workdir)
            if os.path.lexists(path):
                paths.append(Path(os.path.abspath(path)))
            else:
                log.debug("policy %s path %s does not exist; ignored", what, path)
        return paths, globs

    rw, rw_globs = concrete(policy.read_write, "read_write")
    if rw_globs:
        from sandlot.errors import ConfigError

        raise ConfigError(f"policy.filesystem.read_write: globs are not allowed here: {rw_globs}")
    ro, ro_globs = concrete(policy.read_only, "read_only")
    deny, deny_globs = concrete(policy.deny, "deny")
    # Absolute globs expand now; "**/" globs are searched under the writable roots,
    # the only places where a sandboxed command could read what it wrote or find secrets.
    for pattern in [g for g in deny_globs if not g.startswith("**/")]:
        deny.extend(Path(p) for p in sorted(_glob_absolute(pattern)))
    for pattern in [g for g in ro_globs if not g.startswith("**/")]:
        ro.extend(Path(p) for p in sorted(_glob_absolute(pattern)))
    deny.extend(walk_matches(rw, [g for g in deny_globs if g.startswith("**/")]))
    ro.extend(walk_matches(rw, [g for g in ro_globs if g.startswith("**/")]))
    return ResolvedFilesystem(
        read_write=tuple(dict.fromkeys(rw)),
        read_only=tuple(dict.fromkeys(ro)),
        deny=tuple(dict.fromkeys(deny)),
        deny_globs=tuple(deny_globs),
        read_only_globs=tuple(ro_globs),
    )


def _glob_absolute(pattern: str) -> list[str]:
    import glob

    return glob.glob(pattern, recursive=True, include_hidden=True)
