"""Provider selection and policy checks: fail closed, explicit unsandboxed opt-in, best effort."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from sandlot.api import Sandlot
from sandlot.config import Config, Enforcement
from sandlot.errors import ConfigError, PolicyNotEnforceable, ProviderNotFound, ProviderUnavailable
from sandlot.hookspecs import hookimpl
from sandlot.plugins import SandlotPluginManager, create_plugin_manager
from sandlot.policy import Capability, Limits, NetworkMode, NetworkPolicy, Policy
from sandlot.provider import Availability, ProviderType
from sandlot_local.native import translate
from sandlot_local.provider import LocalProvider

ALL = frozenset(Capability)


def manager(*types: ProviderType, with_local: bool = True) -> SandlotPluginManager:
    pm = create_plugin_manager(load_entry_points=False)
    if with_local:
        import sandlot_local.plugin

        pm.register_plugin(sandlot_local.plugin, "local")

    names = {t.name for t in types}

    class Extra:
        @hookimpl
        def sandlot_register_providers(self) -> list[ProviderType]:
            return list(types)

        @hookimpl
        def sandlot_translate_policy(self, provider: str, policy: Policy, options: Any, context: Any) -> Any:
            return translate(policy, "/bin/sh", context) if provider in names else None

    pm.register_plugin(Extra(), "extra")
    return pm


def fake(name: str, *, caps: frozenset[Capability] = ALL, ok: bool = True, priority: int = 0) -> ProviderType:
    # A real process-backed provider under another name: what differs is what it declares.
    return ProviderType(
        name=name,
        factory=LocalProvider,
        capabilities=caps,
        default_priority=priority,
        availability=lambda options: Availability(ok, reason="" if ok else f"{name} is missing", fix=f"install {name}"),
    )


def test_default_is_best_available_isolating_provider() -> None:
    pm = manager(fake("low", priority=1), fake("high", priority=9), fake("broken", priority=99, ok=False))
    assert Sandlot(Config(), pm=pm).provider_name == "high"


def test_no_isolating_provider_never_falls_back_to_local() -> None:
    pm = manager(fake("broken", ok=False))
    with pytest.raises(ProviderUnavailable) as info:
        Sandlot(Config(), pm=pm)
    message = str(info.value)
    assert "no isolating sandbox provider" in message
    assert "broken: unavailable: broken is missing" in message
    assert "pip install sandlot-" in message


def test_unknown_provider_lists_installed_and_package() -> None:
    pm = manager(fake("alpha"))
    with pytest.raises(ProviderNotFound) as info:
        Sandlot(Config(provider="modal"), pm=pm)
    assert "installed providers: alpha, local" in str(info.value)
    assert "pip install sandlot-modal" in str(info.value)
    assert info.value.exit_status == 2


def test_unavailable_configured_provider_fails_with_fix() -> None:
    pm = manager(fake("gone", ok=False))
    with pytest.raises(ProviderUnavailable, match=r"gone is missing\. Fix: install gone"):
        Sandlot(Config(provider="gone"), pm=pm)


def test_policy_beyond_capabilities_fails_closed() -> None:
    pm = manager(fake("weak", caps=ALL - {Capability.NETWORK_BLOCK, Capability.LIMIT_MEMORY}))
    client = Sandlot(Config(provider="weak"), pm=pm)
    policy = Policy(limits=Limits(memory_mb=256))
    with pytest.raises(PolicyNotEnforceable) as info:
        client.create(policy=policy)
    assert "cannot enforce: limits.memory, network.block" in str(info.value)
    # what it can enforce is fine
    with client.create(policy=Policy(network=NetworkPolicy(mode=NetworkMode.ALL))) as box:
        assert box.exec("echo ok").stdout == "ok\n"


def test_best_effort_downgrades_to_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    pm = manager(fake("weak", caps=ALL - {Capability.NETWORK_BLOCK}))
    client = Sandlot(Config(provider="weak", enforcement=Enforcement.BEST_EFFORT), pm=pm)
    with caplog.at_level(logging.WARNING, logger="sandlot"), client.create() as box:
        assert box.exec("true").exit_code == 0
    assert "cannot enforce network.block" in caplog.text and "best-effort" in caplog.text


def test_explicit_local_runs_unsandboxed_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    pm = manager()
    with caplog.at_level(logging.WARNING, logger="sandlot"), Sandlot(Config(provider="local"), pm=pm).create() as box:
        assert box.exec("echo hi").stdout == "hi\n"
    assert "WITHOUT isolation" in caplog.text
    # ... but a limit it cannot enforce still fails closed
    with pytest.raises(PolicyNotEnforceable, match=r"limits.processes"):
        Sandlot(Config(provider="local"), pm=pm).create(policy=Policy(limits=Limits(processes=10)))


def test_enabled_false_means_local(caplog: pytest.LogCaptureFixture) -> None:
    pm = manager(fake("strong", priority=5))
    client = Sandlot(Config(enabled=False, provider="strong"), pm=pm)
    assert client.provider_name == "local"


def test_provider_options_are_validated_with_key_path() -> None:
    pm = manager()
    with pytest.raises(ConfigError, match=r"providers.local.shel: unknown|unknown key\(s\) shel"):
        Sandlot(Config(provider="local", providers={"local": {"shel": "/bin/sh"}}), pm=pm)
    with pytest.raises(ConfigError, match=r"providers.local.shell: expected str"):
        Sandlot(Config(provider="local", providers={"local": {"shell": 3}}), pm=pm)


def test_options_for_a_provider_without_options_are_rejected() -> None:
    pm = manager(fake("plain"))
    with pytest.raises(ConfigError, match=r"takes no options"):
        Sandlot(Config(provider="plain", providers={"plain": {"x": 1}}), pm=pm)


def test_local_options_apply() -> None:
    pm = manager()
    client = Sandlot(Config(provider="local", providers={"local": {"shell": "/bin/sh"}}), pm=pm)
    with client.create() as box:
        assert box.exec("echo $0").stdout.strip() == "sandlot"
        assert box.exec('[ -n "$BASH_VERSION" ] && echo bash || echo sh').stdout == "sh\n"


def test_create_sandbox_shorthand(workdir: Any) -> None:
    from sandlot import create_sandbox

    with create_sandbox(Config(provider="local")) as box:
        assert box.exec("echo short").stdout == "short\n"
