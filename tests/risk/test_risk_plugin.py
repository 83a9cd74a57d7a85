"""assess() alone and through a real pluggy PluginManager with the built-in plugin registered."""

from __future__ import annotations

import pluggy
import pytest

from sandlot import hookspecs
from sandlot.hookspecs import hookimpl
from sandlot.risk import assess, plugin
from sandlot.risk.model import Category, Finding, RiskLevel


def make_pm(*plugins: object) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("sandlot")
    pm.add_hookspecs(hookspecs)
    pm.register(plugin, name="risk")
    for extra in plugins:
        pm.register(extra)
    return pm


class MarkerAnalyzer:
    """A third-party analyzer: flags any code containing the word 'forbidden'."""

    @hookimpl
    def sandlot_assess_risk(self, code: str, language: str) -> list[Finding] | None:
        if "forbidden" not in code:
            return []
        return [Finding("acme.forbidden", RiskLevel.HIGH, "uses a forbidden word", Category.PROCESS, 1, 0, "", "acme")]


class RubyAnalyzer:
    @hookimpl
    def sandlot_assess_risk(self, code: str, language: str) -> list[Finding] | None:
        return [] if language == "ruby" else None


def test_standalone_and_plugin_manager_agree() -> None:
    code = 'import os\nos.system("rm -rf ~")\n'
    alone = assess(code, "python")
    through_pm = assess(code, "python", make_pm())
    assert alone == through_pm
    assert alone.level is RiskLevel.CRITICAL


def test_hook_is_called_for_both_languages() -> None:
    pm = make_pm()
    results = pm.hook.sandlot_assess_risk(code="rm -rf /", language="shell")
    assert any(f.rule_id == "shell.delete" for result in results if result for f in result)
    assert pm.hook.sandlot_assess_risk(code="x = 1", language="python") == [[]]


def test_third_party_findings_are_merged() -> None:
    assessment = assess('import os\nos.system("ls")  # forbidden\n', "python", make_pm(MarkerAnalyzer()))
    ids = {f.rule_id for f in assessment.findings}
    assert {"acme.forbidden", "python.process"} <= ids
    assert assessment.level is RiskLevel.HIGH
    assert assessment.findings[0].rule_id == "acme.forbidden"  # most severe first


def test_language_handled_by_a_plugin_is_not_reported_unsupported() -> None:
    assert assess("puts 1", "ruby", make_pm(RubyAnalyzer())).findings == ()
    unsupported = assess("puts 1", "ruby", make_pm())
    assert [f.rule_id for f in unsupported.findings] == ["risk.unsupported-language"]
    assert unsupported.level is RiskLevel.MEDIUM
    assert assess("puts 1", "ruby").level is RiskLevel.MEDIUM


def test_builtin_analyzer_can_be_replaced() -> None:
    pm = pluggy.PluginManager("sandlot")
    pm.add_hookspecs(hookspecs)
    pm.set_blocked("risk")  # the built-in module as a whole...
    assert pm.register(plugin, name="risk") is None
    pm.register(plugin.ShellAnalyzerPlugin())  # ...keeping the shell half
    pm.register(MarkerAnalyzer())  # ...and a different Python analyzer
    assert assess('import os\nos.system("rm -rf /")', "python", pm).level is RiskLevel.SAFE
    assert assess("forbidden = 1", "python", pm).level is RiskLevel.HIGH
    assert assess("rm -rf /", "shell", pm).level is RiskLevel.CRITICAL


def test_language_aliases() -> None:
    assert assess("rm -rf /", "bash").language == "shell"
    assert assess("import os", "py").language == "python"


@pytest.mark.parametrize("pm", [None, "real"])
def test_parse_error_level(pm: str | None) -> None:
    manager = make_pm() if pm else None
    high = assess("def f(:", "python", manager, parse_error_level=RiskLevel.HIGH)
    assert high.level is RiskLevel.HIGH
    assert assess("if (", "shell", manager).level is RiskLevel.MEDIUM


def test_analyzer_crash_fails_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandlot.risk import python_analyzer

    def boom(code: str, **kwargs: object) -> list[Finding]:
        raise RuntimeError("bug")

    monkeypatch.setattr(python_analyzer, "analyze_python", boom)
    assessment = assess("x = 1", "python")
    assert [f.rule_id for f in assessment.findings] == ["python.analyzer-error"]
    assert assessment.level is RiskLevel.MEDIUM


def test_core_plugin_manager_registers_the_builtin() -> None:
    from sandlot.plugins import create_plugin_manager

    pm = create_plugin_manager(load_entry_points=False)
    assert assess("rm -rf /", "shell", pm).level is RiskLevel.CRITICAL
