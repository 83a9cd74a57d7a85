"""Timing helpers shared by the benchmark scripts (medians, percentiles, tables)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path


def timings(func: Callable[[], object], runs: int, *, warmup: int = 5) -> list[float]:
    """Seconds per call of ``func``, ``runs`` times after ``warmup`` untimed calls."""
    for _ in range(warmup):
        func()
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        out.append(time.perf_counter() - start)
    return out


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def percentile_ms(samples: list[float], fraction: float) -> float:
    """The sample below which ``fraction`` of the samples lie (nearest rank), in milliseconds."""
    ordered = sorted(samples)
    return ordered[max(int(len(ordered) * fraction) - 1, 0)] * 1000


def p90_ms(samples: list[float]) -> float:
    return percentile_ms(samples, 0.9)


def p95_ms(samples: list[float]) -> float:
    return percentile_ms(samples, 0.95)


def row(name: str, samples: list[float]) -> str:
    return f"| {name} | {median_ms(samples):.3f} | {p90_ms(samples):.3f} | {len(samples)} |"


TABLE_HEADER = "| what | median ms | p90 ms | runs |\n|---|---|---|---|"


def report(text: str, markdown: Path | None) -> None:
    """Print the figures and, when asked, write the same text to a Markdown file."""
    print(text)
    if markdown is not None:
        markdown.write_text(text + "\n")
