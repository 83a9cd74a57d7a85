"""Risk-gate settings (the ``[risk]`` table)."""

from __future__ import annotations

import attrs
from sandlot.risk.model import RiskLevel


@attrs.frozen
class RiskConfig:
    #: Code at or above this level runs only when an approver allows it.
    approval_threshold: RiskLevel = RiskLevel.HIGH
    #: Code at or above this level is refused even with approval (None: never).
    block_threshold: RiskLevel | None = None
    #: Level of the finding reported for code that does not parse.
    parse_error_level: RiskLevel = RiskLevel.MEDIUM
