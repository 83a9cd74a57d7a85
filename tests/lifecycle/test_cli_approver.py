"""The terminal approver: prompts only on a terminal; anything unclear is a deny."""

from __future__ import annotations

import io

import pytest

from sandlot.approval import ApprovalRequest, Decision
from sandlot.cli.approver import PLUGIN_NAME, TtyApprover, install
from sandlot.plugins import create_plugin_manager
from sandlot.results import Violation, ViolationKind

REQUEST = ApprovalRequest(
    kind="violation",
    command="echo x > /srv/out",
    violation=Violation(ViolationKind.FILESYSTEM, "/srv/out", "write denied; approving grants write access below /srv"),
)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [("o\n", Decision.ALLOW_ONCE), ("session\n", Decision.ALLOW_SESSION), ("A\n", Decision.ALLOW_ALWAYS),
     ("\n", Decision.DENY), ("", Decision.DENY), ("x\ny\nz\n", Decision.DENY), ("what\ns\n", Decision.ALLOW_SESSION)],
)
def test_answers(typed: str, expected: Decision) -> None:
    err = io.StringIO()
    approver = TtyApprover(io.StringIO(typed), err, interactive=lambda: True)
    assert approver.sandlot_approve(REQUEST) is expected
    assert "/srv/out" in err.getvalue() and "approving grants write access below /srv" in err.getvalue()


def test_no_terminal_no_answer() -> None:
    approver = TtyApprover(io.StringIO("a\n"), io.StringIO())  # StringIO is no terminal
    assert approver.sandlot_approve(REQUEST) is None


def test_install_once_and_plugins_answer_first() -> None:
    from sandlot.hookspecs import hookimpl

    pm = create_plugin_manager(load_entry_points=False)
    install(pm)
    install(pm)
    assert pm.get_plugin(PLUGIN_NAME) is not None

    class Plugin:
        @hookimpl
        def sandlot_approve(self, request: ApprovalRequest) -> Decision:
            return Decision.ALLOW_ONCE

    pm.register_plugin(Plugin(), "plugin-approver")
    assert pm.hook.sandlot_approve(request=REQUEST) is Decision.ALLOW_ONCE
