"""The built-in analyzers as pluggy plugins (registered by the core like any other plugin).

The module itself is a plugin: its :func:`sandlot_assess_risk` runs the Python and
shell analyzers. To replace one analyzer, block this module (name ``risk``) and
register :class:`PythonAnalyzerPlugin` or :class:`ShellAnalyzerPlugin` next to your own;
both take the level reported for unparseable code.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from sandlot.hookspecs import hookimpl
from sandlot.risk.model import Category, Finding, RiskLevel

log = logging.getLogger(__name__)

PYTHON_LANGUAGES = frozenset({"python", "python3", "py"})
SHELL_LANGUAGES = frozenset({"shell", "sh", "bash", "zsh", "dash"})


def normalise_language(language: str) -> str:
    """``"py"``/``"python3"`` -> ``"python"``; ``"bash"``/``"sh"`` -> ``"shell"``; others unchanged."""
    lowered = language.lower()
    if lowered in PYTHON_LANGUAGES:
        return "python"
    if lowered in SHELL_LANGUAGES:
        return "shell"
    return lowered


def _guarded(analyzer: str, run: Callable[[], list[Finding]], level: RiskLevel) -> list[Finding]:
    """Run an analyzer; an internal error becomes a finding (fail closed), never a crash or SAFE."""
    try:
        return run()
    except Exception as exc:  # any analyzer bug must not let code through unassessed
        log.warning("risk analyzer %s failed: %s: %s", analyzer, type(exc).__name__, str(exc)[:200])
        log.debug("risk analyzer %s traceback", analyzer, exc_info=True)
        return [
            Finding(
                f"{analyzer.rsplit('.', 1)[-1]}.analyzer-error",
                level,
                f"the analyzer failed on this code ({type(exc).__name__}); it cannot be shown to be safe",
                Category.PARSE,
                analyzer=analyzer,
            )
        ]


class PythonAnalyzerPlugin:
    """Python AST analyzer."""

    def __init__(self, parse_error_level: RiskLevel = RiskLevel.MEDIUM) -> None:
        self.parse_error_level = parse_error_level

    @hookimpl
    def sandlot_assess_risk(self, code: str, language: str) -> list[Finding] | None:
        if normalise_language(language) != "python":
            return None
        from sandlot.risk.python_analyzer import ANALYZER, analyze_python

        level = self.parse_error_level
        return _guarded(ANALYZER, lambda: analyze_python(code, parse_error_level=level), level)


class ShellAnalyzerPlugin:
    """Shell (tree-sitter-bash) analyzer."""

    def __init__(self, parse_error_level: RiskLevel = RiskLevel.MEDIUM) -> None:
        self.parse_error_level = parse_error_level

    @hookimpl
    def sandlot_assess_risk(self, code: str, language: str) -> list[Finding] | None:
        if normalise_language(language) != "shell":
            return None
        from sandlot.risk.shell_analyzer import ANALYZER, analyze_shell

        level = self.parse_error_level
        return _guarded(ANALYZER, lambda: analyze_shell(code, parse_error_level=level), level)


_PYTHON = PythonAnalyzerPlugin()
_SHELL = ShellAnalyzerPlugin()


@hookimpl
def sandlot_assess_risk(code: str, language: str) -> list[Finding] | None:
    """Both built-in analyzers; each answers only for its own language."""
    if normalise_language(language) == "python":
        return _PYTHON.sandlot_assess_risk(code, language)
    return _SHELL.sandlot_assess_risk(code, language)
