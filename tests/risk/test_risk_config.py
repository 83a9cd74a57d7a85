"""RiskConfig: defaults, string levels, structuring from TOML with cattrs."""

from __future__ import annotations

import tomllib

import attrs
import cattrs
import pytest

from sandlot.risk.config import RiskConfig
from sandlot.risk.model import RiskLevel

TOML = """
[risk]
approval_threshold = "medium"
block_threshold = "critical"
parse_error_level = "high"
"""


def test_defaults() -> None:
    config = RiskConfig()
    assert config.approval_threshold is RiskLevel.HIGH
    assert config.block_threshold is None
    assert config.parse_error_level is RiskLevel.MEDIUM


def test_frozen() -> None:
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        RiskConfig().approval_threshold = RiskLevel.LOW  # type: ignore[misc]


def test_strings_accepted_in_any_case() -> None:
    config = RiskConfig(approval_threshold="LOW", block_threshold="High")
    assert config.approval_threshold is RiskLevel.LOW
    assert config.block_threshold is RiskLevel.HIGH
    with pytest.raises(ValueError, match="unknown risk level 'severe'"):
        RiskConfig(approval_threshold="severe")


def test_structure_with_plain_cattrs() -> None:
    data = tomllib.loads(TOML)["risk"]
    config = cattrs.Converter().structure(data, RiskConfig)
    assert config == RiskConfig(RiskLevel.MEDIUM, RiskLevel.CRITICAL, RiskLevel.HIGH)


def test_structure_with_the_core_converter() -> None:
    from sandlot.convert import structure
    from sandlot.errors import ConfigError

    data = tomllib.loads(TOML)["risk"]
    assert structure(data, RiskConfig, source="sandlot.toml").block_threshold is RiskLevel.CRITICAL
    with pytest.raises(ConfigError, match="approval_threshold"):
        structure({"approval_threshold": "severe"}, RiskConfig, source="sandlot.toml")
    with pytest.raises(ConfigError, match="unknown key"):
        structure({"threshold": "high"}, RiskConfig, source="sandlot.toml")
