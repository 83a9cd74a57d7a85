"""Value objects of code-risk assessment."""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable

import attrs


@functools.total_ordering
class RiskLevel(enum.StrEnum):
    """Ordered risk levels: SAFE < LOW < MEDIUM < HIGH < CRITICAL."""

    SAFE = "safe"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _RANKS[self]

    # All four comparisons are defined explicitly: as a ``str`` subclass the enum would
    # otherwise inherit str's lexicographic __le__/__gt__/__ge__ ("critical" < "low"),
    # and functools.total_ordering does not replace methods that already exist.
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, RiskLevel):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, RiskLevel):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, RiskLevel):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, RiskLevel):
            return NotImplemented
        return self.rank >= other.rank

    @classmethod
    def parse(cls, text: str) -> RiskLevel:
        try:
            return cls(text.lower())
        except ValueError:
            names = ", ".join(level.value for level in cls)
            raise ValueError(f"unknown risk level {text!r}; expected one of: {names}") from None


_RANKS = {level: i for i, level in enumerate(RiskLevel)}


class Category(enum.StrEnum):
    PROCESS = "process"
    FILESYSTEM = "filesystem"
    NETWORK = "network"
    DYNAMIC_CODE = "dynamic-code"
    DESERIALIZATION = "deserialization"
    PERSISTENCE = "persistence"
    PRIVILEGE = "privilege"
    RESOURCE = "resource"
    EXFILTRATION = "exfiltration"
    PARSE = "parse"


@attrs.frozen
class Finding:
    """One reason an analyzer considers code risky."""

    rule_id: str
    level: RiskLevel
    message: str
    category: Category
    line: int = 0
    column: int = 0
    evidence: str = ""
    analyzer: str = ""


@attrs.frozen
class Assessment:
    """Aggregated findings for one piece of code; ``level`` is the highest finding's level."""

    language: str
    findings: tuple[Finding, ...] = ()

    @property
    def level(self) -> RiskLevel:
        return max((f.level for f in self.findings), default=RiskLevel.SAFE)

    @classmethod
    def of(cls, language: str, findings: Iterable[Finding]) -> Assessment:
        ordered = sorted(findings, key=lambda f: (-f.level.rank, f.line, f.column, f.rule_id))
        return cls(language=language, findings=tuple(ordered))
