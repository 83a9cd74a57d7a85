"""The entry point for programs: pick the provider from config, check the policy, create sandboxes."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Mapping
from typing import Any

from sandlot.config import Config, Enforcement, load_config
from sandlot.convert import structure
from sandlot.errors import ConfigError, PolicyNotEnforceable, ProviderUnavailable
from sandlot.files.paths import Mount
from sandlot.grants import apply_grants
from sandlot.plugins import get_plugin_manager
from sandlot.policy import ISOLATION_CAPABILITIES, Capability, Policy
from sandlot.provider import Feature, Page, Provider, ProviderContext, SandboxSpec
from sandlot.registry import ProviderRegistry, RegisteredProvider, install_hint
from sandlot.sandbox import Sandbox

log = logging.getLogger("sandlot")


def unenforced(policy: Policy, registered: RegisteredProvider) -> tuple[set[Capability], set[Capability]]:
    """(missing, waived): what the provider cannot enforce, split into errors and
    isolation requirements waived because an unsandboxed provider was chosen explicitly."""
    missing = set(policy.required_capabilities() - registered.type.capabilities)
    waived: set[Capability] = set()
    if not registered.type.isolating:
        waived = missing & ISOLATION_CAPABILITIES
        missing -= waived
    return missing, waived


class Sandlot:
    """One configured provider. ``Sandlot().create()`` is all most programs need.

    Raises ConfigError, ProviderNotFound or ProviderUnavailable before anything runs.
    """

    def __init__(self, config: Config | None = None, *, pm: Any = None) -> None:
        self.config = config if config is not None else load_config().config
        self.pm = pm if pm is not None else get_plugin_manager()
        self.registry = ProviderRegistry(self.pm)
        name = "local" if not self.config.enabled else self.config.provider or self.registry.default_name(
            self._options_or_none
        )
        self.registered = self.registry.get(name)
        options = self._options(name)
        availability = self.registry.availability(name, options)
        if not availability.ok:
            raise ProviderUnavailable(
                f"provider {name!r} cannot run here: {availability.reason}"
                + (f". Fix: {availability.fix}" if availability.fix else "")
            )
        self._provider: Provider = self.registered.type.factory(ProviderContext(name, options, self.pm))

    def _options(self, name: str) -> Any:
        """The ``[providers.<name>]`` table structured into the provider's options class."""
        options_type = self.registry.get(name).type.options_type
        raw: Mapping[str, Any] = self.config.providers.get(name, {})
        if options_type is None:
            if raw:
                raise ConfigError(f"providers.{name}: provider {name!r} takes no options, got {sorted(raw)}")
            return None
        return structure(dict(raw), options_type, source="configuration", prefix=f"providers.{name}")

    def _options_or_none(self, name: str) -> Any:
        try:
            return self._options(name)
        except ConfigError:
            return None  # reported when (if) this provider is the one chosen

    @property
    def provider(self) -> Provider:
        return self._provider

    @property
    def provider_name(self) -> str:
        return self.registered.name

    def spec(
        self,
        *,
        policy: Policy | None = None,
        workdir: str | os.PathLike[str] | None = None,
        sandbox_id: str | None = None,
        labels: Mapping[str, str] | None = None,
        mounts: Iterable[Mount] | None = None,
    ) -> SandboxSpec:
        """The creation spec: the effective policy (defaults appended), checked against the provider.

        ``mounts`` defaults to the configured ``[[mounts]]``; a provider without the
        ``mounts`` feature refuses them (fail closed).
        """
        # Grants the user allowed permanently are part of every sandbox's policy.
        base = apply_grants(policy if policy is not None else self.config.policy, self.config.approval.grants)
        effective = base.effective()
        self.check_policy(effective)
        chosen = tuple(self.config.mounts if mounts is None else mounts)
        if chosen and Feature.MOUNTS not in self.registered.type.features:
            raise PolicyNotEnforceable(
                f"provider {self.provider_name!r} cannot show host directories at virtual paths "
                f"(mounts: {', '.join(m.virtual for m in chosen)}); use a provider with the mounts feature "
                f"(sandlot providers) or remove the mounts"
            )
        return SandboxSpec(
            policy=effective,
            workdir=os.fspath(workdir) if workdir is not None else None,
            sandbox_id=sandbox_id,
            labels=dict(labels or {}),
            mounts=chosen,
        )

    def check_policy(self, policy: Policy) -> None:
        """Fail closed when the provider cannot enforce ``policy`` (unless best-effort is configured)."""
        missing, waived = unenforced(policy, self.registered)
        if waived:
            log.warning(
                "sandlot: provider %r runs commands on this machine WITHOUT isolation (%s not enforced), "
                "as configured. Install an isolating provider (%s) to sandbox them.",
                self.provider_name,
                ", ".join(sorted(c.value for c in waived)),
                install_hint("bwrap"),
            )
        if not missing:
            return
        listed = ", ".join(sorted(c.value for c in missing))
        if self.config.enforcement is Enforcement.BEST_EFFORT:
            log.warning(
                'sandlot: provider %r cannot enforce %s; continuing because enforcement = "best-effort"',
                self.provider_name,
                listed,
            )
            return
        raise PolicyNotEnforceable(
            f"provider {self.provider_name!r} cannot enforce: {listed}. "
            f"Relax the policy, choose a provider that enforces it (sandlot providers), "
            f'or set enforcement = "best-effort" to accept a weaker sandbox.'
        )

    def create(
        self,
        *,
        policy: Policy | None = None,
        workdir: str | os.PathLike[str] | None = None,
        sandbox_id: str | None = None,
        labels: Mapping[str, str] | None = None,
        mounts: Iterable[Mount] | None = None,
    ) -> Sandbox:
        spec = self.spec(policy=policy, workdir=workdir, sandbox_id=sandbox_id, labels=labels, mounts=mounts)
        return self._provider.create(spec)

    def attach(self, sandbox_id: str) -> Sandbox:
        return self._provider.attach(sandbox_id)

    def list(self, cursor: str | None = None, limit: int = 100, labels: Mapping[str, str] | None = None) -> Page:
        return self._provider.list(cursor, limit, labels)

    def delete(self, sandbox_id: str) -> None:
        self._provider.delete(sandbox_id)


def create_sandbox(config: Config | None = None, **kwargs: Any) -> Sandbox:
    """Shorthand for ``Sandlot(config).create(**kwargs)``."""
    return Sandlot(config).create(**kwargs)
