"""``sandlot config show``: the effective configuration and where each value came from."""

from __future__ import annotations

import json
from typing import Any

import click

from sandlot.cli.common import config_option, handle_errors, load
from sandlot.config import LoadedConfig


@click.group("config")
def config_group() -> None:
    """Inspect the configuration."""


def _leaves(data: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(data, dict) and data:
        out: list[tuple[str, Any]] = []
        for key, value in data.items():
            out.extend(_leaves(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return [(prefix, data)]


def _render(loaded: LoadedConfig) -> list[tuple[str, Any, str]]:
    return [(key, value, loaded.origin(key)) for key, value in _leaves(loaded.config.to_data())]


@config_group.command("show")
@config_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def show(config_file: str | None, as_json: bool) -> None:
    """Print every setting with its value and source."""
    with handle_errors():
        loaded = load(config_file)
    rows = _render(loaded)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "config": loaded.config.to_data(),
                    "origins": {key: origin for key, _, origin in rows},
                    "sources": list(loaded.sources),
                },
                indent=2,
            )
        )
        return
    click.echo(f"# sources, lowest precedence first: {', '.join(('default', *loaded.sources))}")
    width = max(len(key) for key, _, _ in rows)
    for key, value, origin in rows:
        click.echo(f"{key.ljust(width)} = {json.dumps(value)}  # {origin}")
