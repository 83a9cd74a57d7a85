"""Entry point of the ``docker`` provider (group ``sandlot``): every hook this plugin implements."""

from __future__ import annotations

from typing import Any

from sandlot.hookspecs import hookimpl
from sandlot.policy import Policy
from sandlot.provider import ProviderType, TranslateContext
from sandlot_docker.cli import sandlot_register_commands
from sandlot_docker.detect import sandlot_detect_violation
from sandlot_docker.options import DockerOptions
from sandlot_docker.provider import CAPABILITIES, FEATURES, DockerProvider, availability
from sandlot_docker.translate import DockerNativePolicy, translate

NAME = "docker"


@hookimpl
def sandlot_register_providers() -> list[ProviderType]:
    return [
        ProviderType(
            name=NAME,
            factory=DockerProvider,
            description="hardened Docker containers (read-only root, no capabilities, no network by default)",
            options_type=DockerOptions,
            capabilities=CAPABILITIES,
            features=FEATURES,
            isolating=True,
            # Below bwrap (100): a container engine is heavier than a namespace sandbox.
            default_priority=50,
            availability=availability,
        )
    ]


@hookimpl
def sandlot_translate_policy(
    provider: str, policy: Policy, options: Any, context: TranslateContext
) -> DockerNativePolicy | None:
    if provider != NAME:
        return None
    return translate(policy, options if isinstance(options, DockerOptions) else DockerOptions(), context)


__all__ = ["sandlot_detect_violation", "sandlot_register_commands", "sandlot_register_providers",
           "sandlot_translate_policy"]
