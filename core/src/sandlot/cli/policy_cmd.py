"""``sandlot policy explain``: the native form the configured policy translates to."""

from __future__ import annotations

import json

import click

from sandlot.cli.common import config_option, handle_errors, open_client, provider_option


@click.group("policy")
def policy_group() -> None:
    """Inspect the security policy."""


@policy_group.command("explain")
@provider_option
@config_option
@click.option("--workdir", type=click.Path(file_okay=False, exists=True), help="Working directory to assume.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def explain(provider: str | None, config_file: str | None, workdir: str | None, as_json: bool) -> None:
    """Print exactly what the provider would run or create for the current policy."""
    with handle_errors():
        client = open_client(config_file, provider)
        native = client.provider.explain(client.spec(workdir=workdir))
    if as_json:
        click.echo(json.dumps(native.to_data(), indent=2, default=str))
    else:
        click.echo(native.explain())
