"""Running code (not just commands) in a sandbox, behind the risk gate."""

from __future__ import annotations

from typing import Any

from sandlot.results import ExecResult
from sandlot.risk.config import RiskConfig
from sandlot.risk.gate import check
from sandlot.risk.plugin import normalise_language
from sandlot.sandbox import POLICY_TIMEOUT, Sandbox, Timeout

#: How each language's code is run: the code travels on stdin, never inside the command line.
INTERPRETERS = {"python": "python3 -", "shell": "sh -s"}


def run_code(
    sandbox: Sandbox,
    code: str,
    *,
    language: str = "python",
    risk: RiskConfig | None = None,
    pm: Any = None,
    timeout: Timeout = POLICY_TIMEOUT,
) -> ExecResult:
    """Assess ``code``; if the gate lets it through, run it in ``sandbox`` and return the result.

    Raises :class:`~sandlot.errors.RiskBlocked` (with the findings) when the code is at or
    above ``risk.block_threshold``, or at or above ``risk.approval_threshold`` and no
    approver (the ``sandlot_approve`` hook) allowed it. ``pm`` defaults to the sandbox's
    plugin manager, so approver and analyzer plugins take part.
    """
    lang = normalise_language(language)
    if lang not in INTERPRETERS:
        raise ValueError(f"cannot run {language!r} code; supported: {', '.join(sorted(INTERPRETERS))}")
    manager = pm if pm is not None else sandbox._pm
    check(code, lang, config=risk or RiskConfig(), pm=manager, command=f"{INTERPRETERS[lang]} <<code>>\n{code}")
    return sandbox.exec(INTERPRETERS[lang], stdin=code, timeout=timeout)
