"""Code runs only past the risk gate; approvers decide above the threshold."""

from __future__ import annotations

import pytest

from sandlot.api import Sandlot
from sandlot.approval import ApprovalRequest, Decision
from sandlot.code import run_code
from sandlot.config import Config
from sandlot.errors import RiskBlocked
from sandlot.hookspecs import hookimpl
from sandlot.plugins import create_plugin_manager
from sandlot.risk.config import RiskConfig
from sandlot.risk.model import RiskLevel

RISKY = 'import shutil\nshutil.rmtree("/home")\n'


def client_with(*plugins: object) -> Sandlot:
    pm = create_plugin_manager()
    for i, plugin in enumerate(plugins):
        pm.register_plugin(plugin, f"test-{i}")
    return Sandlot(Config(provider="local"), pm=pm)


def test_safe_code_runs() -> None:
    with client_with().create() as box:
        result = run_code(box, "print(6 * 7)")
    assert result.stdout == "42\n"


def test_code_travels_as_data() -> None:
    code = "print('''$(touch /tmp/sandlot-pwned) `id` \"quoted\"''')"
    with client_with().create() as box:
        assert run_code(box, code).stdout == '$(touch /tmp/sandlot-pwned) `id` "quoted"\n'
        assert run_code(box, 'echo "$((6*7))"', language="shell").stdout == "42\n"


def test_risky_code_without_approver_is_refused_with_findings() -> None:
    with client_with().create() as box:
        with pytest.raises(RiskBlocked) as info:
            run_code(box, RISKY)
        assert box.exec("echo still usable").exit_code == 0
    assert "no approver answered" in str(info.value)
    assert info.value.assessment.level >= RiskLevel.HIGH  # type: ignore[attr-defined]
    assert info.value.exit_status == 4


def test_approver_can_allow_and_block_threshold_cannot_be_approved() -> None:
    seen: list[ApprovalRequest] = []

    class Approver:
        @hookimpl
        def sandlot_approve(self, request: ApprovalRequest) -> Decision:
            seen.append(request)
            return Decision.ALLOW_ONCE

    client = client_with(Approver())
    medium_but_gated = "import subprocess\nsubprocess.run(['true'])\nprint('ran')\n"
    with client.create() as box:
        strict = RiskConfig(approval_threshold=RiskLevel.LOW)
        assert run_code(box, medium_but_gated, risk=strict).stdout == "ran\n"
        assert seen and seen[0].kind == "risk" and seen[0].assessment is not None
        with pytest.raises(RiskBlocked, match="block threshold"):
            run_code(box, RISKY, risk=RiskConfig(block_threshold=RiskLevel.HIGH))


def test_unsupported_language() -> None:
    with client_with().create() as box, pytest.raises(ValueError, match="supported: python, shell"):
        run_code(box, "puts 1", language="ruby")


def test_manager_run_code_uses_the_configured_gate() -> None:
    from sandlot.manager import Manager

    config = Config(provider="local", risk=RiskConfig(block_threshold=RiskLevel.HIGH))
    with Manager(Sandlot(config), handle_signals=False) as manager:
        assert manager.run_code("print('ok')").stdout == "ok\n"
        with pytest.raises(RiskBlocked, match="block threshold"):
            manager.run_code(RISKY)
        assert manager.run_code("echo shell", language="sh").stdout == "shell\n"
