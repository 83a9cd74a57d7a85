"""``sandlot risk``: assess Python or shell code without running it.

Exit status (so scripts and CI can gate on it):

====  ==========================================================
0     every file is below ``--fail-on`` (default: medium)
1     a file could not be read
2     usage error (click)
11    the highest level found is LOW      (only with --fail-on low)
12    ... MEDIUM
13    ... HIGH
14    ... CRITICAL
====  ==========================================================
"""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path
from typing import Any

import click

from sandlot.risk import assess
from sandlot.risk.model import Assessment, RiskLevel
from sandlot.risk.report import to_json, to_sarif, to_table

#: Exit status when the overall level is at or above --fail-on: 10 + rank (LOW=11 ... CRITICAL=14).
EXIT_BASE = 10
EXIT_UNREADABLE = 1

_PY_SUFFIXES = {".py", ".pyw", ".pyi", ".ipy"}
_SHELL_SUFFIXES = {".sh", ".bash", ".zsh", ".ksh", ".dash", ".command", ".bats"}
_LEVELS = [level.value for level in RiskLevel]


def exit_status(level: RiskLevel, fail_on: RiskLevel) -> int:
    """The process exit status for an overall ``level`` (see the module docstring)."""
    return EXIT_BASE + level.rank if level >= fail_on else 0


def guess_language(name: str, code: str) -> str:
    """``python`` or ``shell`` from the file suffix, then the shebang, then the content."""
    suffix = Path(name).suffix.lower() if name != "-" else ""
    if suffix in _PY_SUFFIXES:
        return "python"
    if suffix in _SHELL_SUFFIXES:
        return "shell"
    first = code.split("\n", 1)[0]
    if first.startswith("#!"):
        return "python" if "python" in first else "shell"
    # No hint: code that parses as Python and does something Python-specific is Python;
    # everything else (`ls -la`, `rm -rf x`) is treated as shell.
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return "shell"
    pythonic = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.Call, ast.With)
    return "python" if any(isinstance(node, pythonic) for node in ast.walk(tree)) else "shell"


def _plugin_manager() -> Any:
    """The configured plugin manager (third-party analyzers included), or None without one."""
    try:
        from sandlot.plugins import get_plugin_manager
    except ImportError:
        return None
    return get_plugin_manager()


@click.command("risk")
@click.argument("files", nargs=-1, required=True, type=click.Path(allow_dash=True, dir_okay=False))
@click.option(
    "--language",
    "-l",
    type=click.Choice(["python", "shell"]),
    help="Language of the code (default: guessed from suffix, shebang, content).",
)
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["table", "json", "sarif"]),
    default="table",
    show_default=True,
    help="Output format.",
)
@click.option(
    "--fail-on",
    type=click.Choice(_LEVELS),
    default="medium",
    show_default=True,
    help="Lowest level that makes the exit status non-zero.",
)
@click.option(
    "--parse-error-level",
    type=click.Choice(_LEVELS),
    default="medium",
    show_default=True,
    help="Level reported for code that does not parse.",
)
@click.option("--builtin-only", is_flag=True, help="Run only the built-in analyzers, not installed plugins.")
def risk(
    files: tuple[str, ...], language: str | None, fmt: str, fail_on: str, parse_error_level: str, builtin_only: bool
) -> None:
    """Assess the risk of the code in FILE(s) ("-" reads stdin) without running it.

    Prints one row per finding (rule, level, line, message) and exits with a status
    that reflects the highest level: 0 below --fail-on, otherwise 10 + rank
    (11 LOW, 12 MEDIUM, 13 HIGH, 14 CRITICAL); 1 if a file cannot be read.
    """
    pm = None if builtin_only else _plugin_manager()
    parse_level = RiskLevel.parse(parse_error_level)
    results: list[tuple[str, Assessment]] = []
    for name in files:
        try:
            code = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8", errors="surrogateescape")
        except OSError as exc:
            click.echo(f"sandlot risk: cannot read {name}: {exc.strerror or exc}", err=True)
            sys.exit(EXIT_UNREADABLE)
        lang = language or guess_language(name, code)
        results.append((name, assess(code, lang, pm, parse_error_level=parse_level)))
    if fmt == "sarif":
        click.echo(json.dumps(to_sarif(results, version=_version()), indent=2))
    elif fmt == "json":
        if len(results) == 1:
            click.echo(to_json(results[0][1], results[0][0]))
        else:
            click.echo("[" + ",\n".join(to_json(a, n) for n, a in results) + "]")
    else:
        click.echo("\n\n".join(to_table(a, n) for n, a in results))
    worst = max((a.level for _, a in results), default=RiskLevel.SAFE)
    sys.exit(exit_status(worst, RiskLevel.parse(fail_on)))


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("sandlot")
    except Exception:  # an uninstalled checkout has no version; SARIF does not need one
        return ""
