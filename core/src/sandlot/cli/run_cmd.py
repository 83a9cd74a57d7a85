"""``sandlot run`` and ``sandlot shell``."""

from __future__ import annotations

import os
import shlex
import sys

import attrs
import click

from sandlot.cli.common import config_option, handle_errors, open_client, provider_option
from sandlot.manager import Manager
from sandlot.results import ExecResult, OutputChunk


def _emit(item: OutputChunk) -> None:
    target = sys.stdout.buffer if item.stream == "stdout" else sys.stderr.buffer
    target.write(item.data)
    target.flush()


def _report(result: ExecResult) -> None:
    for name, cut in (("stdout", result.stdout_truncation), ("stderr", result.stderr_truncation)):
        if cut is not None:
            click.echo(f"sandlot: {name} truncated: {cut.original_bytes} bytes, middle {cut.dropped} dropped", err=True)
    if result.timed_out:
        click.echo(f"sandlot: timed out after {result.duration:.1f}s; the process tree was killed", err=True)
    if result.state_lost_before:
        click.echo("sandlot: the shell had died and was restarted (cwd and variables reset)", err=True)
    if result.violation is not None:
        click.echo(result.violation.one_line(), err=True)


def _run_streaming(manager: Manager, command: str) -> ExecResult:
    """Stream a command's output to ours; its timeout is the policy's (``--timeout`` sets it)."""
    result: ExecResult | None = None
    for item in manager.stream(command):
        if isinstance(item, OutputChunk):
            _emit(item)
        else:
            result = item
    assert result is not None
    _report(result)
    return result


@click.command(context_settings={"ignore_unknown_options": True})
@provider_option
@config_option
@click.option("--timeout", type=float, help="Seconds before the command's process tree is killed.")
@click.option(
    "--workdir",
    type=click.Path(file_okay=False, exists=True),
    default=".",
    show_default="the current directory",
    help="Working directory of the sandbox (read-write under the default policy).",
)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def run(
    provider: str | None, config_file: str | None, timeout: float | None, workdir: str, command: tuple[str, ...]
) -> None:
    """Run COMMAND in a fresh sandbox, stream its output, exit with its exit code.

    One argument is run as a shell command line; several are quoted and joined,
    so `sandlot run -- python3 -c 'print(6*7)'` runs what you typed.
    """
    line = command[0] if len(command) == 1 else shlex.join(command)
    with handle_errors():
        client = open_client(config_file, provider)
        if timeout is not None:
            policy = client.config.policy
            policy = attrs.evolve(policy, limits=attrs.evolve(policy.limits, timeout=timeout))
        else:
            policy = None
        # A manager, so a command the policy blocks can be approved at the terminal and re-run.
        with Manager(client, policy=policy, workdir=os.path.abspath(workdir)) as manager:
            result = _run_streaming(manager, line)
    sys.exit(result.exit_code if 0 <= result.exit_code < 256 else 1)


@click.command()
@provider_option
@config_option
@click.option(
    "--workdir",
    type=click.Path(file_okay=False, exists=True),
    default=".",
    show_default="the current directory",
    help="Working directory of the sandbox (read-write under the default policy).",
)
def shell(provider: str | None, config_file: str | None, workdir: str) -> None:
    """An interactive persistent session: cd and export persist; Ctrl-D leaves."""
    interactive = sys.stdin.isatty()
    with handle_errors():
        client = open_client(config_file, provider)
        with Manager(client, workdir=os.path.abspath(workdir)) as manager:
            if interactive:
                click.echo(f"sandlot shell on {client.provider_name}; Ctrl-D to leave", err=True)
            last = 0
            while True:
                if interactive:
                    click.echo(f"[{last}] sandlot$ ", nl=False, err=True)
                line = sys.stdin.readline()
                if not line:
                    break
                if not line.strip():
                    continue
                last = _run_streaming(manager, line.rstrip("\n")).exit_code
    sys.exit(last if 0 <= last < 256 else 1)
