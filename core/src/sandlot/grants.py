"""Grants: what an approval adds to a policy, and the ``[approval]`` settings.

A grant names exactly one policy entry it adds or lifts, so the approver is shown what it
allows and nothing more is opened than that entry:

* ``write <path>`` — add ``path`` to ``read_write`` (and lift a user ``read_only`` entry
  equal to it); for a user ``read_only`` glob, lift the glob;
* ``undeny <entry>`` — lift a user ``deny`` entry (a path or a glob);
* ``network`` — network mode ``all`` (no provider enforces host allow-lists yet).

Grants are applied to the user's policy *before* :meth:`Policy.effective` appends the
built-in lists, so a grant can never remove a built-in default entry: those are lifted
only by ``policy.filesystem.exempt`` in the configuration, one entry at a time.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Iterable, Mapping
from pathlib import Path

import attrs

from sandlot.policy import (
    DEFAULT_DENY,
    DEFAULT_READ_ONLY,
    NetworkMode,
    Policy,
    expand_user_vars,
    glob_matches,
    is_glob,
)
from sandlot.results import Violation, ViolationKind

#: Directories write grants never cover, whatever the approver says: a grant of /usr/x in a
#: container would bind the *host's* /usr into it, on bwrap it would open the host's.
SYSTEM_DIRS = tuple(
    Path(p) for p in ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/proc", "/run", "/sbin",
                      "/sys", "/usr")
)


class GrantKind(enum.StrEnum):
    WRITE = "write"
    UNDENY = "undeny"
    NETWORK = "network"


@attrs.frozen
class Grant:
    """One policy change an approver allowed. ``target`` is the entry, as written in the policy."""

    kind: GrantKind
    target: str = ""

    def describe(self) -> str:
        if self.kind is GrantKind.NETWORK:
            return "network access (network mode 'all')"
        if self.kind is GrantKind.UNDENY:
            return f"read and write access to {self.target} (lifts the deny entry)"
        if is_glob(self.target):
            return f"writes to paths matching {self.target} (lifts the read-only entry)"
        return f"write access below {self.target}"

    def apply(self, policy: Policy) -> Policy:
        fs = policy.filesystem
        if self.kind is GrantKind.NETWORK:
            if policy.network.mode is NetworkMode.ALL:
                return policy
            return attrs.evolve(policy, network=attrs.evolve(policy.network, mode=NetworkMode.ALL))
        if self.kind is GrantKind.UNDENY:
            return attrs.evolve(policy, filesystem=attrs.evolve(fs, deny=_without(fs.deny, self.target)))
        read_write = fs.read_write
        if not is_glob(self.target) and self.target not in read_write:
            read_write = (*read_write, self.target)
        return attrs.evolve(
            policy,
            filesystem=attrs.evolve(fs, read_write=read_write, read_only=_without(fs.read_only, self.target)),
        )


def _without(entries: tuple[str, ...], target: str) -> tuple[str, ...]:
    return tuple(e for e in entries if e != target)


def apply_grants(policy: Policy, grants: Iterable[Grant]) -> Policy:
    for grant in grants:
        policy = grant.apply(policy)
    return policy


@attrs.frozen
class ApprovalConfig:
    """The ``[approval]`` table."""

    #: Grants allowed permanently (``allow_always``), applied to every manager's policy.
    #: Written here by sandlot in the user's config file; you may edit them by hand.
    grants: tuple[Grant, ...] = ()
    #: How many grants one command may collect (each is asked for and re-runs the command).
    max_rounds: int = attrs.field(default=3, validator=attrs.validators.ge(1))


@attrs.frozen
class Refusal:
    """Why a violation cannot be granted (it is returned to the caller without asking)."""

    reason: str


def _entry_covers(entry: str, path: Path, *, workdir: Path, home: str, env: Mapping[str, str]) -> bool:
    text = expand_user_vars(entry, home=home, env=env)
    if is_glob(text):
        pattern = text if text.startswith("**/") or text.startswith("/") else str(workdir / text)
        # A glob naming a directory (``**/.git/hooks``) covers everything below it too.
        return any(glob_matches(p, pattern) for p in (path, *path.parents))
    base = Path(text)
    if not base.is_absolute():
        base = workdir / base
    for root in {Path(os.path.normpath(base)), Path(os.path.realpath(base))}:
        if path == root or root in path.parents:
            return True
    return False


def _covering(
    entries: Iterable[str], path: Path, *, workdir: Path, home: str, env: Mapping[str, str]
) -> str | None:
    for entry in entries:
        if _entry_covers(entry, path, workdir=workdir, home=home, env=env):
            return entry
    return None


def grant_for(
    violation: Violation,
    policy: Policy,
    *,
    workdir: Path,
    home: str | None = None,
    env: Mapping[str, str] | None = None,
) -> Grant | Refusal:
    """The smallest grant that lifts ``violation`` under ``policy`` (the user's policy plus the
    grants so far, before built-in entries are appended), or why there is none."""
    home = home if home is not None else os.path.expanduser("~")
    env = os.environ if env is None else env
    if violation.kind is ViolationKind.NETWORK:
        if violation.resource.startswith("unix"):
            return Refusal("unix sockets are blocked by the sandbox itself, not by the network policy")
        if policy.network.mode is NetworkMode.ALL:
            return Refusal("the network is already allowed; the block comes from elsewhere")
        return Grant(GrantKind.NETWORK)
    if violation.kind is not ViolationKind.FILESYSTEM:
        return Refusal(
            f"{violation.kind.value} violations cannot be granted at run time; change the policy in the configuration"
        )
    if not violation.resource.startswith("/"):
        return Refusal(f"the blocked resource {violation.resource!r} is not an absolute path")
    path = Path(os.path.normpath(violation.resource))
    fs = policy.filesystem
    where = {"workdir": workdir, "home": home, "env": env}
    # Built-in entries still in force (not opted out of in the config) are never granted.
    for defaults, what in ((DEFAULT_DENY, "deny"), (DEFAULT_READ_ONLY, "read-only")):
        entry = _covering((d for d in defaults if d not in fs.exempt), path, **where)  # type: ignore[arg-type]
        if entry is not None:
            return Refusal(
                f"{path} is protected by the built-in {what} entry {entry!r}; only the configuration can "
                f"lift it (policy.filesystem.exempt = [{entry!r}])"
            )
    denied = _covering(fs.deny, path, **where)  # type: ignore[arg-type]
    if denied is not None:
        return Grant(GrantKind.UNDENY, denied)
    protected = _covering(fs.read_only, path, **where)  # type: ignore[arg-type]
    if protected is not None:
        return Grant(GrantKind.WRITE, protected)
    if _covering(fs.read_write, path, **where) is not None:  # type: ignore[arg-type]
        return Refusal(f"{path} is already writable by the policy; the block comes from elsewhere")
    # Outside the writable roots: the path itself, or the directory a new file goes into.
    target = path if os.path.lexists(path) else path.parent
    if not os.path.isdir(target) and not os.path.lexists(target):
        return Refusal(f"neither {path} nor its directory exists, so there is nothing to make writable")
    if len(target.parts) < 3 or any(target == s or s in target.parents for s in SYSTEM_DIRS):
        return Refusal(
            f"write access to {target} is never offered at run time (a top-level or system directory; "
            f"in a container it would mount the host's); change the policy in the configuration"
        )
    return Grant(GrantKind.WRITE, str(target))


def persist_grant(grant: Grant, path: Path | None = None) -> Path:
    """Add ``grant`` to ``[[approval.grants]]`` of the user's config file (``allow_always``).

    The file is edited with tomlkit, so its other content, comments and formatting stay as
    they were; the result is validated before it replaces the file (atomically, under a
    lock, so two sessions granting at once both land). Returns the file's path.
    """
    import tomlkit
    import tomlkit.items

    from sandlot.config import Config, user_config_path
    from sandlot.convert import structure
    from sandlot.filelock import file_lock

    path = path if path is not None else user_config_path()
    entry: dict[str, str] = {"kind": grant.kind.value}
    if grant.target:
        entry["target"] = grant.target
    path.parent.mkdir(parents=True, exist_ok=True)
    with file_lock(path.with_name(path.name + ".lock")):
        text = path.read_text(encoding="utf-8") if path.exists() else ""
        doc = tomlkit.parse(text)
        approval = doc.get("approval")
        if approval is None:
            approval = tomlkit.table()
            doc["approval"] = approval
        grants = approval.get("grants")
        if grants is None:
            grants = tomlkit.aot()
            approval["grants"] = grants
        if any(dict(existing) == entry for existing in grants):
            return path
        if isinstance(grants, tomlkit.items.AoT):
            table = tomlkit.table()
            table.update(entry)
            grants.append(table)
        else:  # written by hand as an inline array: keep that style
            inline = tomlkit.inline_table()
            inline.update(entry)
            grants.append(inline)
        new_text = tomlkit.dumps(doc)
        # Never leave a config file sandlot itself would refuse to load.
        import tomllib

        structure(tomllib.loads(new_text), Config, source=str(path))
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(new_text, encoding="utf-8")
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    return path
