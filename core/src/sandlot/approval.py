"""Approval requests and decisions, answered through the ``sandlot_approve`` hook."""

from __future__ import annotations

import enum

import attrs

from sandlot.results import Violation
from sandlot.risk.model import Assessment


class Decision(enum.StrEnum):
    ALLOW_ONCE = "allow_once"
    ALLOW_SESSION = "allow_session"
    ALLOW_ALWAYS = "allow_always"
    DENY = "deny"


@attrs.frozen
class ApprovalRequest:
    """What needs a decision: code the risk gate stopped, or a command the policy blocked.

    Exactly one of ``assessment`` (kind ``"risk"``) and ``violation`` (kind
    ``"violation"``) is set.
    """

    kind: str
    command: str
    assessment: Assessment | None = None
    violation: Violation | None = None
    #: What approving would allow, in words (e.g. "write access to /data"), when known.
    grant: str | None = None
