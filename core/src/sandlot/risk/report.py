"""Output formats for assessments: plain text, a table, JSON and SARIF 2.1.0."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sandlot.risk.model import Assessment, Finding, RiskLevel

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
TOOL_NAME = "sandlot-risk"
TOOL_URI = "https://github.com/sandlot/sandlot/blob/main/docs/risk.md"

# SARIF has four result levels; the risk level itself goes into the properties.
_SARIF_LEVELS = {
    RiskLevel.SAFE: "none",
    RiskLevel.LOW: "note",
    RiskLevel.MEDIUM: "warning",
    RiskLevel.HIGH: "error",
    RiskLevel.CRITICAL: "error",
}
# GitHub code scanning reads "security-severity" (0.0-10.0) to rank security alerts.
_SECURITY_SEVERITY = {
    RiskLevel.SAFE: "0.0",
    RiskLevel.LOW: "2.0",
    RiskLevel.MEDIUM: "5.0",
    RiskLevel.HIGH: "8.0",
    RiskLevel.CRITICAL: "9.5",
}


def render_findings(assessment: Assessment, limit: int = 20) -> str:
    """Findings as indented lines, most severe first (used in error messages)."""
    if not assessment.findings:
        return "  (no findings)"
    lines = [
        f"  [{f.level.value.upper()}] {f.rule_id} line {f.line}: {f.message}"
        + (f"\n      {f.evidence}" if f.evidence else "")
        for f in assessment.findings[:limit]
    ]
    hidden = len(assessment.findings) - limit
    if hidden > 0:
        lines.append(f"  ... and {hidden} more")
    return "\n".join(lines)


def to_table(assessment: Assessment, source: str = "-") -> str:
    """A fixed-width table: rule, level, line, message; then the overall level."""
    header = ("RULE", "LEVEL", "LINE", "MESSAGE")
    rows = [(f.rule_id, f.level.value, str(f.line), f.message) for f in assessment.findings]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(3)]
    out = []
    for row in [header, *rows]:
        out.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row[:3])) + "  " + row[3])
    out.append("")
    out.append(
        f"{source}: {assessment.language}: overall risk {assessment.level.value.upper()} "
        f"({len(assessment.findings)} finding{'s' if len(assessment.findings) != 1 else ''})"
    )
    return "\n".join(out)


def finding_data(f: Finding) -> dict[str, Any]:
    return {
        "rule_id": f.rule_id,
        "level": f.level.value,
        "category": f.category.value,
        "message": f.message,
        "line": f.line,
        "column": f.column,
        "evidence": f.evidence,
        "analyzer": f.analyzer,
    }


def to_json(assessment: Assessment, source: str = "-") -> str:
    data = {
        "source": source,
        "language": assessment.language,
        "level": assessment.level.value,
        "findings": [finding_data(f) for f in assessment.findings],
    }
    return json.dumps(data, indent=2)


def to_sarif(results: Sequence[tuple[str, Assessment]], version: str = "") -> dict[str, Any]:
    """One SARIF 2.1.0 log with one run covering every (artifact uri, assessment) pair."""
    rules: dict[str, dict[str, Any]] = {}
    sarif_results: list[dict[str, Any]] = []
    for uri, assessment in results:
        for f in assessment.findings:
            if f.rule_id not in rules:
                rules[f.rule_id] = {
                    "id": f.rule_id,
                    "name": f.rule_id.replace(".", "_").replace("-", "_"),
                    "shortDescription": {"text": f.rule_id},
                    "properties": {"category": f.category.value, "tags": ["security", f.category.value]},
                }
            region: dict[str, Any] = {"startLine": max(f.line, 1), "startColumn": f.column + 1}
            if f.evidence:
                region["snippet"] = {"text": f.evidence}
            sarif_results.append(
                {
                    "ruleId": f.rule_id,
                    "ruleIndex": list(rules).index(f.rule_id),
                    "level": _SARIF_LEVELS[f.level],
                    "message": {"text": f.message},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}],
                    "properties": {
                        "risk": f.level.value,
                        "category": f.category.value,
                        "security-severity": _SECURITY_SEVERITY[f.level],
                    },
                }
            )
    for rule in rules.values():
        first = next(r for r in sarif_results if r["ruleId"] == rule["id"])
        rule["properties"]["security-severity"] = first["properties"]["security-severity"]
    driver: dict[str, Any] = {"name": TOOL_NAME, "informationUri": TOOL_URI, "rules": list(rules.values())}
    if version:
        driver["version"] = version
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{"tool": {"driver": driver}, "results": sarif_results}],
    }
