"""Provider selection: which provider types are installed, which is chosen, and whether it can run."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import attrs
import pluggy

from sandlot.errors import PluginError, ProviderNotFound, ProviderUnavailable
from sandlot.plugins import PluginInfo, SandlotPluginManager
from sandlot.provider import Availability, ProviderType

#: What to install for providers we know of, when they are missing.
KNOWN_PROVIDERS: dict[str, str] = {
    "local": "sandlot-local",
    "bwrap": "sandlot-bwrap",
    "seatbelt": "sandlot-seatbelt",
    "docker": "sandlot-docker",
    "modal": "sandlot-modal",
    "daytona": "sandlot-daytona",
    "runloop": "sandlot-runloop",
}

#: The isolating provider to install by default, per platform.
PLATFORM_DEFAULT = {"linux": "bwrap", "darwin": "seatbelt"}


@attrs.frozen
class RegisteredProvider:
    type: ProviderType
    plugin: PluginInfo

    @property
    def name(self) -> str:
        return self.type.name


def install_hint(name: str) -> str:
    return f"pip install {KNOWN_PROVIDERS.get(name, f'sandlot-{name}')}"


class ProviderRegistry:
    """Every provider type registered through ``sandlot_register_providers``."""

    def __init__(self, pm: pluggy.PluginManager) -> None:
        self._providers: dict[str, RegisteredProvider] = {}
        infos = pm.infos if isinstance(pm, SandlotPluginManager) else {}
        for impl in pm.hook.sandlot_register_providers.get_hookimpls():
            info = infos.get(impl.plugin_name, PluginInfo(impl.plugin_name, impl.plugin_name, "unknown", "unknown"))
            try:
                types: list[object] = list(impl.function() or [])  # type: ignore[call-overload]
            except Exception as exc:
                raise PluginError(
                    f"plugin {impl.plugin_name!r} (distribution {info.distribution}) failed in "
                    f"sandlot_register_providers: {type(exc).__name__}: {exc}"
                ) from exc
            for ptype in types:
                if not isinstance(ptype, ProviderType):
                    raise PluginError(
                        f"plugin {impl.plugin_name!r} (distribution {info.distribution}) registered "
                        f"{ptype!r}, which is not a sandlot.provider.ProviderType"
                    )
                if ptype.name in self._providers:
                    other = self._providers[ptype.name].plugin
                    raise PluginError(
                        f"provider {ptype.name!r} is registered twice: by plugin {other.name!r} "
                        f"({other.distribution}) and by plugin {info.name!r} ({info.distribution}); "
                        f"uninstall one or block it with SANDLOT_DISABLE_PLUGINS"
                    )
                self._providers[ptype.name] = RegisteredProvider(ptype, info)

    def names(self) -> list[str]:
        return sorted(self._providers)

    def all(self) -> list[RegisteredProvider]:
        return [self._providers[name] for name in self.names()]

    def get(self, name: str) -> RegisteredProvider:
        try:
            return self._providers[name]
        except KeyError:
            installed = ", ".join(self.names()) or "none"
            raise ProviderNotFound(
                f"unknown provider {name!r}; installed providers: {installed}. To use {name!r}: {install_hint(name)}"
            ) from None

    def availability(self, name: str, options: Any = None) -> Availability:
        ptype = self.get(name).type
        try:
            return ptype.availability(options)
        except Exception as exc:  # a broken check must not pass for "available"
            return Availability(False, reason=f"availability check failed: {type(exc).__name__}: {exc}")

    def default_name(self, options_for: Callable[[str], Any] = lambda name: None) -> str:
        """The best isolating provider available here; never the unsandboxed local one."""
        candidates = sorted(
            (p for p in self._providers.values() if p.type.isolating),
            key=lambda p: (-p.type.default_priority, p.name),
        )
        reasons = []
        for candidate in candidates:
            availability = self.availability(candidate.name, options_for(candidate.name))
            if availability.ok:
                return candidate.name
            reasons.append(f"{candidate.name}: {availability.describe()}")
        suggested = PLATFORM_DEFAULT.get(sys.platform, "docker")
        tried = f" Installed but unavailable: {'; '.join(reasons)}." if reasons else ""
        raise ProviderUnavailable(
            f"no isolating sandbox provider is available on this machine.{tried} "
            f"Install one: `{install_hint(suggested)}`"
            + (" (and `apt-get install bubblewrap`)" if suggested == "bwrap" else "")
            + ', or run without isolation explicitly with provider = "local" in sandlot.toml.'
        )
