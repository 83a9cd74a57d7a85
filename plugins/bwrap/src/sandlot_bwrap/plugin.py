"""Entry point of the ``bwrap`` provider (group ``sandlot``): registration, translation, detection."""

from __future__ import annotations

from typing import Any

from sandlot.hookspecs import hookimpl
from sandlot.policy import Policy
from sandlot.provider import Availability, NativePolicy, ProviderType, TranslateContext
from sandlot.results import ExecResult, Violation
from sandlot.violations import ViolationContext
from sandlot_bwrap import availability, detect, translate
from sandlot_bwrap.options import BwrapOptions
from sandlot_bwrap.provider import CAPABILITIES, FEATURES, BwrapProvider

NAME = "bwrap"


def available(options: BwrapOptions | None) -> Availability:
    """The configured bwrap binary (``providers.bwrap.bwrap``) exists and can create namespaces."""
    return availability.check(options.bwrap if options is not None else BwrapOptions().bwrap)


@hookimpl
def sandlot_register_providers() -> list[ProviderType]:
    return [
        ProviderType(
            name=NAME,
            factory=BwrapProvider,
            description="Linux: hardened bubblewrap sandbox (namespaces, no capabilities, seccomp, rlimits)",
            options_type=BwrapOptions,
            capabilities=CAPABILITIES,
            features=FEATURES,
            isolating=True,
            default_priority=100,
            availability=available,
        )
    ]


@hookimpl
def sandlot_translate_policy(
    provider: str, policy: Policy, options: Any, context: TranslateContext
) -> NativePolicy | None:
    if provider != NAME:
        return None
    return translate.translate(policy, options if options is not None else BwrapOptions(), context)


@hookimpl
def sandlot_detect_violation(result: ExecResult, context: ViolationContext) -> Violation | None:
    if context.provider != NAME:
        return None
    return detect.detect(result, context)
