"""The translate hook: the owning plugin answers, a wrapper can amend, nobody answering fails closed."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import attrs
import pytest

from sandlot.api import Sandlot
from sandlot.config import Config, Enforcement
from sandlot.errors import PolicyNotEnforceable
from sandlot.hookspecs import hookimpl
from sandlot.plugins import create_plugin_manager
from sandlot.policy import Policy
from sandlot.provider import ProviderType, TranslateContext


def test_wrapper_amends_the_native_form() -> None:
    pm = create_plugin_manager()

    class Amend:
        @hookimpl(wrapper=True)
        def sandlot_translate_policy(
            self, provider: str, policy: Policy, options: Any, context: TranslateContext
        ) -> Generator[None, Any, Any]:
            native = yield
            if provider == "local":
                native = attrs.evolve(native, env={**native.env, "AMENDED_BY": "wrapper"})
            return native

    pm.register_plugin(Amend(), "amend")
    client = Sandlot(Config(provider="local"), pm=pm)
    assert client.provider.explain(client.spec()).to_data()["env"]["AMENDED_BY"] == "wrapper"
    with client.create() as box:
        assert box.exec("echo $AMENDED_BY").stdout == "wrapper\n"


def test_no_translation_fails_closed() -> None:
    pm = create_plugin_manager()
    from sandlot_local.provider import LocalProvider

    class Untranslated:
        @hookimpl
        def sandlot_register_providers(self) -> list[ProviderType]:
            return [ProviderType(name="untranslated", factory=LocalProvider, capabilities=frozenset())]

    pm.register_plugin(Untranslated(), "untranslated")
    client = Sandlot(Config(provider="untranslated", enforcement=Enforcement.BEST_EFFORT), pm=pm)
    with pytest.raises(PolicyNotEnforceable, match="no plugin translates the policy for provider 'untranslated'"):
        client.create()
