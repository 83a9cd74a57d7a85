"""The CLI's approver: asks the person at the terminal about a blocked command or risky code.

Registered by the CLI (``install``) with ``trylast``, so an approver plugin, when one is
installed, answers first. Without a terminal on both stdin and stderr it does not answer,
and no answer means deny: a script or CI job is never blocked waiting for a prompt, and
never allowed anything silently.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import IO, Any

from sandlot.approval import ApprovalRequest, Decision
from sandlot.hookspecs import hookimpl

PLUGIN_NAME = "cli-approver"

CHOICES = {
    "o": Decision.ALLOW_ONCE,
    "s": Decision.ALLOW_SESSION,
    "a": Decision.ALLOW_ALWAYS,
    "d": Decision.DENY,
    "": Decision.DENY,
}


class TtyApprover:
    """Prompts on the terminal; one prompt at a time (commands may run in several threads)."""

    def __init__(
        self,
        stdin: IO[str] | None = None,
        stderr: IO[str] | None = None,
        interactive: Callable[[], bool] | None = None,
    ) -> None:
        self._in = stdin if stdin is not None else sys.stdin
        self._err = stderr if stderr is not None else sys.stderr
        self._interactive = interactive or (lambda: self._in.isatty() and self._err.isatty())
        self._lock = threading.Lock()

    @hookimpl(trylast=True)
    def sandlot_approve(self, request: ApprovalRequest) -> Decision | None:
        if not self._interactive():
            return None
        with self._lock:
            self._err.write(describe(request))
            for _ in range(3):
                self._err.write("Allow? [o]nce, for the [s]ession, [a]lways (saved to your config), [d]eny (default): ")
                self._err.flush()
                line = self._in.readline()
                if not line:
                    return Decision.DENY  # end of input
                answer = line.strip().lower()[:1]
                if answer in CHOICES:
                    return CHOICES[answer]
            return Decision.DENY


def describe(request: ApprovalRequest) -> str:
    lines = ["", f"sandlot: approval needed ({request.kind})", f"  command: {request.command}"]
    if request.violation is not None:
        lines.append(f"  blocked: {request.violation.kind.value}: {request.violation.resource}")
        lines.append(f"  why:     {request.violation.reason}")
    if request.grant is not None:
        lines.append(f"  approving grants: {request.grant}")
    if request.assessment is not None:
        assessment: Any = request.assessment
        lines.append(f"  risk:    {assessment.level.value}")
        for finding in list(getattr(assessment, "findings", ()))[:10]:
            lines.append(f"    - {getattr(finding, 'rule_id', '')} {getattr(finding, 'message', finding)}")
    return "\n".join(lines) + "\n"


def install(pm: Any) -> None:
    """Register the terminal approver on ``pm`` (once)."""
    if pm.get_plugin(PLUGIN_NAME) is None:
        pm.register_plugin(TtyApprover(), PLUGIN_NAME)
