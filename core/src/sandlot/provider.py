"""The provider contract: what a plugin registers and what it must implement."""

from __future__ import annotations

import abc
import asyncio
import enum
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import attrs

from sandlot.files.paths import Mount, PathMap
from sandlot.policy import Capability, Policy, ResolvedFilesystem

if TYPE_CHECKING:
    import pluggy

    from sandlot.sandbox import Sandbox


class Feature(enum.StrEnum):
    """Things a provider can do beyond running commands; the contract suite skips what is not declared."""

    PERSISTENT_SHELL = "persistent_shell"  # cd/export persist between commands
    KILL_TREE = "kill_tree"  # timeouts kill background and setsid'd descendants too
    ATTACH = "attach"  # attach(id) works from another process
    SESSION_RECOVERY = "session_recovery"  # a dead shell is rebuilt on the next command
    MOUNTS = "mounts"  # host directories at virtual paths (SandboxSpec.mounts), host paths masked in output


@attrs.frozen
class Availability:
    """Whether a provider can run on this machine; when not, why and how to fix it."""

    ok: bool
    reason: str = ""
    fix: str = ""

    def describe(self) -> str:
        if self.ok:
            return "available"
        return f"unavailable: {self.reason}" + (f" (fix: {self.fix})" if self.fix else "")


@runtime_checkable
class NativePolicy(Protocol):
    """A provider's own form of a policy, returned by the translate hook."""

    def explain(self) -> str:
        """The native form as text a person can read and check (e.g. the exact argv)."""
        ...

    def to_data(self) -> Mapping[str, Any]:
        """The native form as JSON-ready data."""
        ...


@attrs.frozen
class TranslateContext:
    """Facts a policy translation needs besides the policy."""

    workdir: Path
    filesystem: ResolvedFilesystem
    environment: Mapping[str, str]
    sandbox_id: str = ""
    #: Host directories shown at virtual paths (empty unless the spec has mounts).
    mounts: PathMap = attrs.field(factory=PathMap)


@attrs.frozen
class SandboxSpec:
    """What to create. ``policy`` should already be effective (defaults appended)."""

    policy: Policy = attrs.field(factory=lambda: Policy().effective())
    workdir: str | None = None
    sandbox_id: str | None = None
    labels: Mapping[str, str] = attrs.field(factory=dict)
    #: Host directories at virtual paths; only for providers with :attr:`Feature.MOUNTS`.
    mounts: tuple[Mount, ...] = ()


@attrs.frozen
class SandboxInfo:
    id: str
    provider: str
    status: str = "running"
    created_at: float = 0.0
    labels: Mapping[str, str] = attrs.field(factory=dict)


@attrs.frozen
class Page:
    """One page of ``Provider.list``; pass ``next_cursor`` back for the next page."""

    items: tuple[SandboxInfo, ...]
    next_cursor: str | None = None


@attrs.frozen
class ProviderContext:
    """Handed to a provider factory: the plugin manager and the configured options."""

    name: str
    options: Any
    pm: pluggy.PluginManager


@attrs.frozen
class ProviderType:
    """What a plugin registers through ``sandlot_register_providers``."""

    name: str
    factory: Callable[[ProviderContext], Provider]
    description: str = ""
    #: attrs class of the provider's options (``[providers.<name>]`` in config), or None.
    options_type: type | None = None
    capabilities: frozenset[Capability] = frozenset()
    features: frozenset[Feature] = frozenset()
    #: False for providers that run commands on the host; they are never chosen by default.
    isolating: bool = True
    #: Higher wins when no provider is configured and several are available.
    default_priority: int = 0
    #: Whether the provider can run here, given its structured options (``None`` when they are
    #: not known, e.g. while listing providers).
    availability: Callable[[Any], Availability] = lambda options: Availability(True)


class Provider(abc.ABC):
    """Creates, finds and deletes sandboxes of one technology."""

    def __init__(self, context: ProviderContext) -> None:
        self.context = context

    @property
    def name(self) -> str:
        return self.context.name

    @abc.abstractmethod
    def create(self, spec: SandboxSpec) -> Sandbox:
        """Start a sandbox; raise SandboxError (never return a half-working one)."""

    @abc.abstractmethod
    def attach(self, sandbox_id: str) -> Sandbox:
        """A handle on an existing sandbox; SandboxNotFound when there is none."""

    @abc.abstractmethod
    def list(self, cursor: str | None = None, limit: int = 100, labels: Mapping[str, str] | None = None) -> Page:
        """Sandboxes this provider created that still exist, a page at a time.

        With ``labels``, only sandboxes created with (at least) those labels.
        """

    @abc.abstractmethod
    def delete(self, sandbox_id: str) -> None:
        """Destroy a sandbox; deleting one that does not exist is not an error."""

    def explain(self, spec: SandboxSpec) -> NativePolicy:
        """The native form the policy of ``spec`` translates to (``sandlot policy explain``)."""
        from sandlot.errors import PolicyNotEnforceable

        raise PolicyNotEnforceable(f"provider {self.name!r} has no native policy form to explain")

    async def acreate(self, spec: SandboxSpec) -> Sandbox:
        return await asyncio.to_thread(self.create, spec)

    async def aattach(self, sandbox_id: str) -> Sandbox:
        return await asyncio.to_thread(self.attach, sandbox_id)

    async def alist(self, cursor: str | None = None, limit: int = 100, labels: Mapping[str, str] | None = None) -> Page:
        return await asyncio.to_thread(self.list, cursor, limit, labels)

    async def adelete(self, sandbox_id: str) -> None:
        await asyncio.to_thread(self.delete, sandbox_id)


def paginate(
    infos: list[SandboxInfo], cursor: str | None, limit: int, labels: Mapping[str, str] | None = None
) -> Page:
    """Cursor pagination over a list sorted by id; the cursor is the last id of the previous page.

    With ``labels``, only infos carrying all of them (same values) are listed.
    """
    if labels:
        wanted = dict(labels)
        infos = [info for info in infos if all(info.labels.get(k) == v for k, v in wanted.items())]
    ordered = sorted(infos, key=lambda info: info.id)
    if cursor is not None:
        ordered = [info for info in ordered if info.id > cursor]
    page = ordered[:limit]
    more = len(ordered) > limit
    return Page(items=tuple(page), next_cursor=page[-1].id if more and page else None)


def translate_policy(
    pm: pluggy.PluginManager, provider: str, policy: Policy, options: Any, context: TranslateContext
) -> NativePolicy:
    """Run the translate hook; no plugin answering for ``provider`` is an error (fail closed)."""
    from sandlot.errors import PolicyNotEnforceable

    native = pm.hook.sandlot_translate_policy(provider=provider, policy=policy, options=options, context=context)
    if native is None:
        raise PolicyNotEnforceable(f"no plugin translates the policy for provider {provider!r}")
    return native  # type: ignore[no-any-return]
