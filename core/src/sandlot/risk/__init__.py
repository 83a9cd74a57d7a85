"""Code-risk assessment: grade Python and shell code before it runs.

>>> from sandlot.risk import assess
>>> assess('import shutil; shutil.rmtree("/")', "python").level
<RiskLevel.CRITICAL: 'critical'>

With ``pm=None`` the built-in analyzers run directly (no plugin manager needed). With a
pluggy ``PluginManager`` every registered ``sandlot_assess_risk`` implementation runs
and their findings are merged.
"""

from __future__ import annotations

from typing import Any

from sandlot.risk.model import Assessment, Category, Finding, RiskLevel
from sandlot.risk.plugin import normalise_language

__all__ = ["Assessment", "Category", "Finding", "RiskLevel", "assess", "unsupported_finding"]


def assess(
    code: str,
    language: str,
    pm: Any = None,
    *,
    parse_error_level: RiskLevel = RiskLevel.MEDIUM,
) -> Assessment:
    """Assess ``code`` written in ``language`` (``"python"`` or ``"shell"``; aliases accepted).

    ``parse_error_level`` is the level of the finding for code that does not parse;
    with a plugin manager it is applied to every analyzer's parse findings.
    """
    lang = normalise_language(language)
    if pm is None:
        from sandlot.risk.plugin import PythonAnalyzerPlugin, ShellAnalyzerPlugin

        findings: list[Finding] = []
        for plugin in (PythonAnalyzerPlugin(parse_error_level), ShellAnalyzerPlugin(parse_error_level)):
            findings.extend(plugin.sandlot_assess_risk(code, lang) or ())
        answered = lang in ("python", "shell")
    else:
        results = pm.hook.sandlot_assess_risk(code=code, language=lang)
        findings = []
        answered = False
        for result in results:
            if result is not None:
                answered = True
                findings.extend(result)
        findings = [_relevel_parse(f, parse_error_level) for f in findings]
    if not answered:
        findings.append(unsupported_finding(lang, parse_error_level))
    return Assessment.of(lang, _dedupe(findings))


def unsupported_finding(language: str, level: RiskLevel) -> Finding:
    """No analyzer understands ``language``: like unparseable code, this is never SAFE."""
    return Finding(
        "risk.unsupported-language",
        level,
        f"no analyzer handles {language!r} code; it cannot be shown to be safe",
        Category.PARSE,
        analyzer="sandlot.risk",
    )


def _relevel_parse(finding: Finding, level: RiskLevel) -> Finding:
    if finding.category is Category.PARSE and finding.level != level:
        return Finding(
            finding.rule_id,
            level,
            finding.message,
            finding.category,
            finding.line,
            finding.column,
            finding.evidence,
            finding.analyzer,
        )
    return finding


def _dedupe(findings: list[Finding]) -> list[Finding]:
    """One finding per rule, message and place: the highest level any of them had (a loop's second round may
    write worse content to the same file than its first)."""
    where: dict[tuple[str, str, int, int], int] = {}
    unique: list[Finding] = []
    for f in findings:
        key = (f.rule_id, f.message, f.line, f.column)
        index = where.get(key)
        if index is None:
            where[key] = len(unique)
            unique.append(f)
        elif f.level > unique[index].level:
            unique[index] = f
    return unique
