"""Risk-gate settings: the ``[risk]`` table of the configuration."""

from __future__ import annotations

import attrs

from sandlot.risk.model import RiskLevel


def _level(value: RiskLevel | str) -> RiskLevel:
    return value if isinstance(value, RiskLevel) else RiskLevel.parse(value)


def _optional_level(value: RiskLevel | str | None) -> RiskLevel | None:
    return None if value is None else _level(value)


@attrs.frozen
class RiskConfig:
    """How assessed code is gated before it runs.

    Levels may be given as strings in any case (``"high"``, ``"HIGH"``) when the class
    is constructed directly; from TOML, cattrs structures the lowercase names.
    """

    #: Code at or above this level runs only when an approver allows it.
    approval_threshold: RiskLevel = attrs.field(default=RiskLevel.HIGH, converter=_level)
    #: Code at or above this level is refused even with approval (None: never).
    block_threshold: RiskLevel | None = attrs.field(default=None, converter=_optional_level)
    #: Level of the finding reported for code that does not parse (never silently SAFE).
    parse_error_level: RiskLevel = attrs.field(default=RiskLevel.MEDIUM, converter=_level)
