"""The risk gate: assess code, then refuse it or ask an approver according to the config."""

from __future__ import annotations

from typing import Any

from sandlot.approval import ApprovalRequest, Decision
from sandlot.errors import RiskBlocked
from sandlot.risk import assess
from sandlot.risk.config import RiskConfig
from sandlot.risk.model import Assessment
from sandlot.risk.report import render_findings

#: Decisions that let the code run.
ALLOWING = frozenset({Decision.ALLOW_ONCE, Decision.ALLOW_SESSION, Decision.ALLOW_ALWAYS})


def check(code: str, language: str, *, config: RiskConfig, pm: Any, command: str | None = None) -> Assessment:
    """Assess ``code`` and return the assessment if it may run; raise :class:`RiskBlocked` if not.

    At or above ``config.block_threshold`` the code is refused outright. At or above
    ``config.approval_threshold`` the ``sandlot_approve`` hook is asked (firstresult);
    no answer, or DENY, refuses the code. ``command`` is what the approver is shown
    (defaults to the code itself).
    """
    assessment = assess(code, language, pm, parse_error_level=config.parse_error_level)
    level = assessment.level
    if config.block_threshold is not None and level >= config.block_threshold:
        raise RiskBlocked(
            _message(
                f"refused: risk {level.value} is at or above the block threshold {config.block_threshold.value}",
                assessment,
            ),
            assessment,
        )
    if level < config.approval_threshold:
        return assessment
    request = ApprovalRequest(kind="risk", command=code if command is None else command, assessment=assessment)
    decision = pm.hook.sandlot_approve(request=request) if pm is not None else None
    if decision is None or Decision(decision) not in ALLOWING:
        why = "no approver answered" if decision is None else "the approver denied it"
        raise RiskBlocked(
            _message(
                f"refused: risk {level.value} needs approval (threshold {config.approval_threshold.value}) and {why}",
                assessment,
            ),
            assessment,
        )
    return assessment


def _message(headline: str, assessment: Assessment) -> str:
    return f"{headline}\n{render_findings(assessment)}"
