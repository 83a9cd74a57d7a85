"""The labelled benchmark corpus is well formed, and the analyzers meet the targets on it.

Not a timing test: throughput is measured by benchmarks/risk_eval.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sandlot.risk import assess
from sandlot.risk.model import Category, RiskLevel

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import risk_eval  # noqa: E402


@pytest.fixture(scope="module")
def corpus() -> list[risk_eval.Snippet]:
    snippets: list[risk_eval.Snippet] = risk_eval.load_corpus()
    return snippets


def test_corpus_is_well_formed(corpus: list[risk_eval.Snippet]) -> None:
    ids = [s.ident for s in corpus]
    assert len(ids) == len(set(ids)), "duplicate snippet ids"
    assert len(corpus) >= 500
    categories = {c.value for c in Category} - {"parse"}
    for s in corpus:
        assert s.language in ("python", "shell") and s.code.strip()
        if s.risky:
            assert s.category in categories, s.ident
    for language in ("python", "shell"):
        assert sum(s.risky and s.language == language for s in corpus) >= 100
        assert sum(not s.risky and s.language == language for s in corpus) >= 100


def test_targets_on_the_corpus(corpus: list[risk_eval.Snippet]) -> None:
    risky = [s for s in corpus if s.risky]
    benign = [s for s in corpus if not s.risky]
    missed = [s.ident for s in risky if assess(s.code, s.language).level < RiskLevel.HIGH]
    flagged = [s.ident for s in benign if assess(s.code, s.language).level >= RiskLevel.HIGH]
    assert 1 - len(missed) / len(risky) >= 0.97, missed
    assert len(flagged) / len(benign) <= 0.02, flagged


def test_naive_baseline_is_weaker(corpus: list[risk_eval.Snippet]) -> None:
    benign = [s for s in corpus if not s.risky]
    assert sum(risk_eval.naive_tool(s)[0] for s in benign) / len(benign) > 0.1  # keyword lists misfire
