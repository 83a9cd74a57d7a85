"""Typed configuration: sources, precedence, validation with readable errors.

Sources, lowest precedence first (later ones override earlier ones key by key):

1. built-in defaults
2. the user config file: ``<user config dir>/sandlot/config.toml`` (platformdirs)
3. ``[tool.sandlot]`` in ``./pyproject.toml``
4. ``./sandlot.toml``
5. the file named by ``SANDLOT_CONFIG``
6. the file given with ``--config``
7. ``SANDLOT_PROVIDER`` (the provider name only)

Tables merge recursively; any other value (lists included) is replaced whole by the
higher source. Every source is validated on its own first, so an error names the
file it is in.
"""

from __future__ import annotations

import enum
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import platformdirs

from sandlot.audit import AuditConfig
from sandlot.convert import converter, structure
from sandlot.errors import ConfigError
from sandlot.files.paths import Mount
from sandlot.grants import ApprovalConfig
from sandlot.policy import Policy
from sandlot.pool import PoolConfig
from sandlot.risk.config import RiskConfig

DEFAULT_SOURCE = "default"


class Enforcement(enum.StrEnum):
    #: A policy the provider cannot fully enforce is an error.
    STRICT = "strict"
    #: ... is a warning, and the sandbox is created with what the provider can enforce.
    BEST_EFFORT = "best-effort"


@attrs.frozen
class Config:
    #: Provider name; None picks the best isolating provider available here.
    provider: str | None = None
    #: False runs commands unsandboxed (the ``local`` provider), with a warning.
    enabled: bool = True
    enforcement: Enforcement = Enforcement.STRICT
    policy: Policy = attrs.field(factory=Policy)
    #: Per-provider option tables, ``[providers.<name>]``; each is checked against the
    #: provider's own options class when that provider is used.
    providers: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)
    risk: RiskConfig = attrs.field(factory=RiskConfig)
    pool: PoolConfig = attrs.field(factory=PoolConfig)
    approval: ApprovalConfig = attrs.field(factory=ApprovalConfig)
    audit: AuditConfig = attrs.field(factory=AuditConfig)
    #: Host directories shown at virtual paths (``[[mounts]]`` tables; providers with the
    #: ``mounts`` feature).
    mounts: tuple[Mount, ...] = ()

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = converter.unstructure(self)
        return data


@attrs.frozen
class LoadedConfig:
    """A configuration and, for every key path, the source its value came from."""

    config: Config
    origins: Mapping[str, str]
    sources: tuple[str, ...]

    def origin(self, key_path: str) -> str:
        while key_path:
            if key_path in self.origins:
                return self.origins[key_path]
            key_path = key_path.rpartition(".")[0]
        return DEFAULT_SOURCE


def user_config_path() -> Path:
    return Path(platformdirs.user_config_dir("sandlot")) / "config.toml"


def _read_toml(path: Path, label: str) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{label}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{label}: malformed TOML: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{label}: cannot read: {exc.strerror}") from None


def _layers(
    config_file: str | os.PathLike[str] | None, cwd: Path, env: Mapping[str, str]
) -> list[tuple[str, dict[str, Any]]]:
    layers: list[tuple[str, dict[str, Any]]] = []
    user = user_config_path()
    if user.is_file():
        layers.append((str(user), _read_toml(user, str(user))))
    pyproject = cwd / "pyproject.toml"
    if pyproject.is_file():
        data = _read_toml(pyproject, str(pyproject))
        section = data.get("tool", {}).get("sandlot")
        if section is not None:
            layers.append((f"{pyproject} [tool.sandlot]", section))
    local = cwd / "sandlot.toml"
    if local.is_file():
        layers.append((str(local), _read_toml(local, str(local))))
    env_file = env.get("SANDLOT_CONFIG")
    if env_file:
        label = f"{env_file} (SANDLOT_CONFIG)"
        layers.append((label, _read_toml(Path(env_file), label)))
    if config_file is not None:
        label = f"{config_file} (--config)"
        layers.append((label, _read_toml(Path(config_file), label)))
    provider = env.get("SANDLOT_PROVIDER")
    if provider:
        layers.append(("SANDLOT_PROVIDER", {"provider": provider}))
    return layers


def _merge(
    base: dict[str, Any], over: Mapping[str, Any], origins: dict[str, str], source: str, prefix: str = ""
) -> None:
    for key, value in over.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and isinstance(base.get(key), dict):
            _merge(base[key], value, origins, source, path + ".")
        else:
            base[key] = _copy(value)
            for existing in [k for k in origins if k.startswith(path + ".")]:
                del origins[existing]
            _record(value, origins, source, path)


def _copy(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _copy(v) for k, v in value.items()}
    return value


def _record(value: Any, origins: dict[str, str], source: str, path: str) -> None:
    if isinstance(value, Mapping) and value:
        for key, sub in value.items():
            _record(sub, origins, source, f"{path}.{key}")
    else:
        origins[path] = source


def load_config(
    config_file: str | os.PathLike[str] | None = None,
    *,
    cwd: str | os.PathLike[str] | None = None,
    env: Mapping[str, str] | None = None,
) -> LoadedConfig:
    """Load, merge and validate the configuration; raises ConfigError (exit status 2)."""
    env = os.environ if env is None else env
    layers = _layers(config_file, Path(cwd) if cwd is not None else Path.cwd(), env)
    merged: dict[str, Any] = {}
    origins: dict[str, str] = {}
    for source, data in layers:
        structure(data, Config, source=source)  # validate each source on its own
        _merge(merged, data, origins, source)
    config = structure(merged, Config, source=" + ".join(s for s, _ in layers) or DEFAULT_SOURCE)
    return LoadedConfig(config=config, origins=origins, sources=tuple(s for s, _ in layers))


def config_from_data(data: Mapping[str, Any], *, source: str = "<data>") -> Config:
    """A Config from a dict shaped like the TOML file (for programs that embed sandlot)."""
    return structure(dict(data), Config, source=source)
