"""Shared CLI plumbing: options, error reporting, loading config and provider."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import click

from sandlot.api import Sandlot
from sandlot.config import LoadedConfig, load_config
from sandlot.errors import SandlotError

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}

F = TypeVar("F", bound=Callable[..., Any])


@contextlib.contextmanager
def handle_errors() -> Iterator[None]:
    """Print a SandlotError as one clear message and exit with its status (no traceback)."""
    try:
        yield
    except SandlotError as exc:
        click.echo(f"sandlot: error: {exc}", err=True)
        sys.exit(exc.exit_status)


def config_option(func: F) -> F:
    return click.option(
        "--config",
        "config_file",
        type=click.Path(dir_okay=False),
        help="Configuration file (highest-precedence file source).",
    )(func)


def provider_option(func: F) -> F:
    return click.option("--provider", help="Provider name (overrides the configuration).")(func)


def load(config_file: str | None, provider: str | None = None) -> LoadedConfig:
    loaded = load_config(config_file)
    if provider:
        import attrs

        origins = dict(loaded.origins)
        origins["provider"] = "--provider"
        loaded = attrs.evolve(
            loaded, config=attrs.evolve(loaded.config, provider=provider, enabled=True), origins=origins
        )
    return loaded


def open_client(config_file: str | None, provider: str | None = None) -> Sandlot:
    return Sandlot(load(config_file, provider).config)
