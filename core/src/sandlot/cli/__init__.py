"""The ``sandlot`` command."""

from __future__ import annotations

import logging
import sys
from typing import Any

import click

from sandlot.cli.common import CONTEXT_SETTINGS, handle_errors
from sandlot.cli.config_cmd import config_group
from sandlot.cli.policy_cmd import policy_group
from sandlot.cli.providers_cmd import providers
from sandlot.cli.risk import risk
from sandlot.cli.run_cmd import run, shell


@click.group(context_settings=CONTEXT_SETTINGS)
@click.option("-v", "--verbose", count=True, help="More logging on stderr (-vv for hook traces).")
@click.version_option(package_name="sandlot")
def cli(verbose: int) -> None:
    """Run untrusted commands and code in a sandbox chosen by configuration."""
    level = logging.WARNING if verbose == 0 else logging.DEBUG
    logging.basicConfig(level=level, format="%(message)s", stream=sys.stderr, force=True)


for command in (run, shell, providers, config_group, policy_group, risk):
    cli.add_command(command)


def _plugin_commands() -> None:
    from sandlot.cli.approver import install
    from sandlot.plugins import get_plugin_manager

    pm = get_plugin_manager()
    install(pm)  # asks on a terminal when nothing else answers; never without one
    pm.hook.sandlot_register_commands(cli=cli)


def main(argv: list[str] | None = None) -> Any:
    with handle_errors():
        _plugin_commands()
    return cli.main(args=argv, prog_name="sandlot")
