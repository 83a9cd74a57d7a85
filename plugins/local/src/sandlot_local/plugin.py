"""Entry point of the ``local`` provider (group ``sandlot``)."""

from __future__ import annotations

from typing import Any

from sandlot.hookspecs import hookimpl
from sandlot.policy import Policy
from sandlot.provider import ProviderType, TranslateContext
from sandlot_local.native import LocalLaunch, translate
from sandlot_local.provider import CAPABILITIES, FEATURES, LocalOptions, LocalProvider, find_shell


@hookimpl
def sandlot_register_providers() -> list[ProviderType]:
    return [
        ProviderType(
            name="local",
            factory=LocalProvider,
            description="runs commands on this machine without isolation (explicit opt-in only)",
            options_type=LocalOptions,
            capabilities=CAPABILITIES,
            features=FEATURES,
            isolating=False,
        )
    ]


@hookimpl
def sandlot_translate_policy(
    provider: str, policy: Policy, options: Any, context: TranslateContext
) -> LocalLaunch | None:
    if provider != "local":
        return None
    opts = options if isinstance(options, LocalOptions) else LocalOptions()
    return translate(policy, find_shell(opts.shell), context)
