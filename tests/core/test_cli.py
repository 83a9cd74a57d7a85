"""The sandlot command, run as a user runs it (a real process) or through click's runner."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sandlot.cli import cli
from sandlot.hookspecs import hookimpl
from sandlot.plugins import get_plugin_manager
from sandlot.results import ExecResult, Violation, ViolationKind
from sandlot.violations import ViolationContext


def sandlot(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sandlot.cli", *args], cwd=cwd, input=stdin, capture_output=True, text=True, timeout=120
    )


@pytest.fixture
def local_project(workdir: Path) -> Path:
    (workdir / "sandlot.toml").write_text('provider = "local"\n')
    return workdir


def test_run_passes_exit_code_and_separates_streams(local_project: Path) -> None:
    proc = sandlot("run", "--", "sh", "-c", "echo out; echo err >&2; exit 3", cwd=local_project)
    assert proc.returncode == 3
    assert proc.stdout == "out\n"
    assert "err\n" in proc.stderr
    assert "WITHOUT isolation" in proc.stderr


def test_run_works_in_the_current_directory_by_default(
    local_project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    assert sandlot("run", "--", "pwd", cwd=local_project).stdout == f"{local_project}\n"
    other = tmp_path_factory.mktemp("other")
    assert sandlot("run", "--workdir", str(other), "--", "pwd", cwd=local_project).stdout == f"{other}\n"


def test_run_single_argument_is_a_shell_line(local_project: Path) -> None:
    proc = sandlot("run", "--", "echo a && echo b | tr b c", cwd=local_project)
    assert proc.returncode == 0 and proc.stdout == "a\nc\n"


def test_run_multiple_arguments_are_quoted(local_project: Path) -> None:
    proc = sandlot("run", "--", "python3", "-c", "import sys; print(6*7, sys.argv)", "a b", "$HOME", cwd=local_project)
    assert proc.stdout == "42 ['-c', 'a b', '$HOME']\n"


def test_run_timeout(local_project: Path) -> None:
    proc = sandlot("run", "--timeout", "1", "--", "echo start; sleep 20", cwd=local_project)
    assert proc.returncode == 124
    assert proc.stdout == "start\n"
    assert "timed out after" in proc.stderr


def test_run_with_provider_flag_and_config_error(workdir: Path) -> None:
    (workdir / "sandlot.toml").write_text("[policy.limits]\ntimeout = 'x'\n")
    proc = sandlot("run", "--provider", "local", "--", "true", cwd=workdir)
    assert proc.returncode == 2
    assert "sandlot: error:" in proc.stderr and "policy.limits.timeout: expected float" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_unknown_provider_exit_status(workdir: Path) -> None:
    proc = sandlot("run", "--provider", "nosuch", "--", "true", cwd=workdir)
    assert proc.returncode == 2
    assert "unknown provider 'nosuch'" in proc.stderr and "pip install sandlot-nosuch" in proc.stderr


def test_violation_is_printed_in_one_line(local_project: Path) -> None:
    class Detector:
        @hookimpl
        def sandlot_detect_violation(self, result: ExecResult, context: ViolationContext) -> Violation | None:
            if "forbidden" in result.stderr:
                return Violation(ViolationKind.FILESYSTEM, "/secret", "read denied by policy", ("forbidden",))
            return None

    get_plugin_manager().register_plugin(Detector(), "test-detector")
    runner = CliRunner()
    result = runner.invoke(cli, ["run", "--", "echo forbidden >&2; exit 1"])
    assert result.exit_code == 1
    assert "sandlot: blocked (filesystem): /secret: read denied by policy" in result.stderr
    assert result.stderr.count("blocked") == 1


def test_shell_keeps_state(local_project: Path) -> None:
    proc = sandlot("shell", cwd=local_project, stdin="cd /\nexport X=42\npwd\necho $X\n\nexit 5\n")
    assert proc.stdout == "/\n42\n"
    assert proc.returncode == 5


def test_providers_listing(workdir: Path) -> None:
    proc = sandlot("providers", "--json", cwd=workdir)
    rows = {row["name"]: row for row in json.loads(proc.stdout)}
    local = rows["local"]
    assert local["distribution"] == "sandlot-local" and local["isolating"] is False and local["available"]
    assert "limits.timeout" in local["capabilities"] and "filesystem.deny" not in local["capabilities"]
    text = sandlot("providers", cwd=workdir).stdout
    assert "local [NO ISOLATION]" in text and "enforces:" in text


def test_config_show_names_sources(local_project: Path) -> None:
    proc = sandlot("config", "show", "--json", cwd=local_project)
    data = json.loads(proc.stdout)
    assert data["config"]["provider"] == "local"
    assert data["origins"]["provider"] == str(local_project / "sandlot.toml")
    assert data["origins"]["policy.network.mode"] == "default"
    text = sandlot("config", "show", cwd=local_project).stdout
    assert 'provider                     = "local"  # ' + str(local_project / "sandlot.toml") in text


def test_policy_explain_local(local_project: Path) -> None:
    proc = sandlot("policy", "explain", cwd=local_project)
    assert proc.returncode == 0
    assert "NO isolation" in proc.stdout
    data = json.loads(sandlot("policy", "explain", "--json", cwd=local_project).stdout)
    assert data["isolation"] is False and "PATH" in data["env"]


def test_version_and_help(workdir: Path) -> None:
    assert sandlot("--version", cwd=workdir).stdout.startswith("sandlot, version ")
    assert "run" in sandlot("--help", cwd=workdir).stdout
