"""The plugin manager: built-in plugins, the ``sandlot`` entry-point group, block and trace switches.

``SANDLOT_DISABLE_PLUGINS=a,b`` blocks plugins by entry-point name (or built-in name);
``SANDLOT_TRACE_PLUGINS=1`` logs every hook call and result at DEBUG level on the
``sandlot.plugins`` logger.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import logging
import os
import threading
from typing import Any

import attrs
import pluggy

from sandlot import hookspecs
from sandlot.errors import PluginError

log = logging.getLogger(__name__)

ENTRY_POINT_GROUP = "sandlot"

#: Modules registered before entry points: plugins that ship with the core.
BUILTIN_PLUGINS: tuple[tuple[str, str], ...] = (("risk", "sandlot.risk.plugin"), ("audit", "sandlot.audit_sink"))


@attrs.frozen
class PluginInfo:
    """A loaded plugin and where it came from (for ``sandlot providers`` and errors)."""

    name: str
    module: str
    distribution: str
    version: str


def _disabled() -> set[str]:
    raw = os.environ.get("SANDLOT_DISABLE_PLUGINS", "")
    return {name.strip() for name in raw.split(",") if name.strip()}


def _load_builtin(pm: pluggy.PluginManager, name: str, module_name: str, infos: dict[str, PluginInfo]) -> None:
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        # A built-in whose module is not part of this installation is simply absent.
        log.debug("built-in plugin %s (%s) is not installed", name, module_name)
        return
    _register(pm, module, name, PluginInfo(name, module_name, "sandlot", _version("sandlot")), infos)


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def _register(
    pm: pluggy.PluginManager, plugin: object, name: str, info: PluginInfo, infos: dict[str, PluginInfo]
) -> None:
    where = f"plugin {name!r} ({info.module}, distribution {info.distribution} {info.version})"
    try:
        pm.register(plugin, name=name)
    except (ValueError, pluggy.PluginValidationError) as exc:
        raise PluginError(f"{where} could not be registered: {exc}") from None
    unknown = sorted(caller.name for caller in pm.get_hookcallers(plugin) or [] if caller.spec is None)
    if unknown:
        pm.unregister(name=name)
        known = ", ".join(sorted(h for h in dir(hookspecs) if h.startswith("sandlot_")))
        raise PluginError(f"{where} implements unknown hook(s) {', '.join(unknown)}; known hooks: {known}")
    infos[name] = info


def _load_entry_points(pm: pluggy.PluginManager, infos: dict[str, PluginInfo]) -> None:
    blocked = _disabled()
    for ep in sorted(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if ep.name in blocked:
            log.debug("plugin %s blocked by SANDLOT_DISABLE_PLUGINS", ep.name)
            continue
        dist_name = ep.dist.name if ep.dist is not None else "unknown"
        dist_version = ep.dist.version if ep.dist is not None else "unknown"
        try:
            plugin = ep.load()
        except Exception as exc:
            raise PluginError(
                f"plugin {ep.name!r} from distribution {dist_name} {dist_version} failed to load "
                f"({ep.value}): {type(exc).__name__}: {exc}. "
                f"Reinstall it, or block it with SANDLOT_DISABLE_PLUGINS={ep.name}"
            ) from exc
        _register(pm, plugin, ep.name, PluginInfo(ep.name, ep.value, dist_name, dist_version), infos)


class SandlotPluginManager(pluggy.PluginManager):
    """A PluginManager that remembers where each plugin came from."""

    def __init__(self) -> None:
        super().__init__(hookspecs.PROJECT)
        self.add_hookspecs(hookspecs)
        self.infos: dict[str, PluginInfo] = {}

    def register_plugin(self, plugin: object, name: str, *, distribution: str = "local") -> None:
        """Register an object or module as a plugin (tests, applications embedding sandlot)."""
        module = getattr(plugin, "__name__", type(plugin).__name__)
        _register(self, plugin, name, PluginInfo(name, module, distribution, "n/a"), self.infos)


def create_plugin_manager(*, load_entry_points: bool = True) -> SandlotPluginManager:
    """A fresh plugin manager with the built-ins and (by default) every installed plugin."""
    pm = SandlotPluginManager()
    blocked = _disabled()
    for name, module_name in BUILTIN_PLUGINS:
        if name not in blocked:
            _load_builtin(pm, name, module_name, pm.infos)
    if load_entry_points:
        _load_entry_points(pm, pm.infos)
    if os.environ.get("SANDLOT_TRACE_PLUGINS", "") not in ("", "0"):
        _enable_tracing(pm)
    return pm


def _enable_tracing(pm: pluggy.PluginManager) -> None:
    def before(hook_name: str, hook_impls: Any, kwargs: Any) -> None:
        log.debug(
            "hook %s called with %s (implementations: %s)", hook_name, kwargs, [impl.plugin_name for impl in hook_impls]
        )

    def after(outcome: Any, hook_name: str, hook_impls: Any, kwargs: Any) -> None:
        log.debug(
            "hook %s returned %r", hook_name, outcome.get_result() if outcome.exception is None else outcome.exception
        )

    pm.add_hookcall_monitoring(before, after)


_default: SandlotPluginManager | None = None
_default_lock = threading.Lock()


def get_plugin_manager() -> SandlotPluginManager:
    """The process-wide plugin manager, created on first use."""
    global _default
    with _default_lock:
        if _default is None:
            _default = create_plugin_manager()
        return _default


def reset_plugin_manager() -> None:
    """Forget the process-wide plugin manager (tests; after installing a plugin at run time)."""
    global _default
    with _default_lock:
        _default = None
