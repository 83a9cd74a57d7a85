"""Evaluate sandlot's code-risk analyzers against bandit and a naive regex list.

Run from the repository root::

    PYTHONPATH=core/src python benchmarks/risk_eval.py            # summary tables
    PYTHONPATH=core/src python benchmarks/risk_eval.py --misses   # also list misses / false positives
    PYTHONPATH=core/src python benchmarks/risk_eval.py --json out.json

The corpus (benchmarks/risk_corpus/*.txt, see its README) holds labelled snippets:
``<language>_risky.txt`` and ``<language>_benign.txt``, one snippet per
``### id | category | note`` header. A tool "flags" a snippet when it reports HIGH or
CRITICAL (for bandit: an issue of HIGH severity; a MEDIUM-severity variant is shown
too). Recall is measured on the risky snippets, the false-positive rate (FPR) on the
benign ones, both at that threshold. Throughput is in-process: snippets per second over
the whole corpus, the median of several rounds, plus the median latency per snippet.
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import re
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sandlot.risk import assess
from sandlot.risk.model import RiskLevel

CORPUS = Path(__file__).parent / "risk_corpus"
ROUNDS = 5

#: The "naive regex list" of issue 6 (plus the obvious shell equivalents), as a keyword scanner would do it.
NAIVE_PATTERNS = [
    r"eval\(", r"exec\(", r"subprocess", r"os\.system", r"open\(.+,\s*['\"][wa]", r"pickle\.loads?\(",
    r"yaml\.load\(", r"__import__", r"socket\.", r"requests\.post", r"rm\s+-[a-zA-Z]*r", r"\|\s*(ba)?sh\b",
    r"/dev/tcp", r"nc\s+.*-e", r"chmod\s+[0-7]*777", r"\bsudo\b", r"base64\s+(-d|--decode)", r"/etc/(passwd|shadow)",
    r"\.ssh/", r"\bmkfs", r"\bdd\s+if=", r"crontab", r":\(\)\s*\{", r"os\.remove|shutil\.rmtree",
]  # fmt: skip
_NAIVE = [re.compile(p) for p in NAIVE_PATTERNS]


@dataclass(frozen=True)
class Snippet:
    ident: str
    language: str  # "python" | "shell"
    risky: bool
    split: str  # "dev" (built the analyzers on it), "holdout"/"holdout2" (written later; see the corpus README)
    category: str
    note: str
    code: str


def load_corpus(root: Path = CORPUS) -> list[Snippet]:
    snippets: list[Snippet] = []
    for path in sorted(root.glob("*_*.txt")):
        language, _, label = path.stem.partition("_")
        risky = label.startswith("risky")
        split = "dev" if label in ("risky", "benign") else label.split("_", 1)[1]  # holdout, holdout2...
        current: list[str] | None = None
        header = ("", "", "")
        for line in [*path.read_text(encoding="utf-8").splitlines(), "### end"]:
            if line.startswith("### "):
                if current is not None:
                    code = "\n".join(current).strip("\n") + "\n"
                    snippets.append(Snippet(header[0], language, risky, split, header[1], header[2], code))
                parts = [p.strip() for p in line[4:].split("|")]
                header = (parts[0], parts[1] if len(parts) > 1 else "", parts[2] if len(parts) > 2 else "")
                current = []
            elif current is not None:
                current.append(line)
    return snippets


# ----------------------------------------------------------------------------- tools
def sandlot_tool(snippet: Snippet) -> tuple[bool, str]:
    assessment = assess(snippet.code, snippet.language)
    top = assessment.findings[0].rule_id if assessment.findings else "-"
    return assessment.level >= RiskLevel.HIGH, f"{assessment.level.value} ({top})"


def naive_tool(snippet: Snippet) -> tuple[bool, str]:
    for pattern in _NAIVE:
        if pattern.search(snippet.code):
            return True, pattern.pattern
    return False, "-"


class BanditTool:
    """bandit run in-process through its manager and node visitor (no subprocess, no files)."""

    def __init__(self, min_severity: str) -> None:
        from bandit.core import config as b_config
        from bandit.core import manager as b_manager

        logging.getLogger("bandit").setLevel(logging.CRITICAL)
        self.manager = b_manager.BanditManager(b_config.BanditConfig(), "file")
        self.min_rank = {"LOW": 1, "MEDIUM": 2, "HIGH": 3}[min_severity]

    def __call__(self, snippet: Snippet) -> tuple[bool, str]:
        if snippet.language != "python":
            return False, "n/a (python only)"
        mgr = self.manager
        mgr.results = []
        data = snippet.code.encode()
        mgr.metrics.begin(snippet.ident)
        try:
            mgr._execute_ast_visitor(snippet.ident, io.BytesIO(data), data, {})
        except SyntaxError:
            return False, "syntax error"
        ranks = {"LOW": 1, "MEDIUM": 2, "HIGH": 3}
        worst = max((ranks[str(i.severity)] for i in mgr.results), default=0)
        ids = ",".join(sorted({i.test_id for i in mgr.results})) or "-"
        return worst >= self.min_rank, ids


# ----------------------------------------------------------------------------- scoring
@dataclass
class Score:
    flagged: dict[str, tuple[bool, str]]
    seconds: list[float]
    latencies_us: list[float]
    by_language_us: dict[str, list[float]]


def _forget_caches() -> None:
    """Clear what the analyzers memoise between snippets (path classifications), so that rounds after the first
    are not faster for having seen the same corpus already."""
    from sandlot.risk import paths

    paths.classify.cache_clear()


def run_tool(tool: Callable[[Snippet], tuple[bool, str]], snippets: Sequence[Snippet], rounds: int) -> Score:
    flagged: dict[str, tuple[bool, str]] = {}
    seconds: list[float] = []
    latencies: list[float] = []
    by_language: dict[str, list[float]] = defaultdict(list)
    for round_index in range(rounds):
        _forget_caches()  # every round is timed like a fresh process seeing the corpus once
        start = time.perf_counter()
        for snippet in snippets:
            t0 = time.perf_counter()
            result = tool(snippet)
            if round_index == 0:
                flagged[snippet.ident] = result
            else:
                elapsed = (time.perf_counter() - t0) * 1e6
                latencies.append(elapsed)
                by_language[snippet.language].append(elapsed)
        seconds.append(time.perf_counter() - start)
    return Score(flagged, seconds, latencies, dict(by_language))


def ratio(numerator: int, denominator: int) -> str:
    return f"{numerator / denominator:.3f} ({numerator}/{denominator})" if denominator else "n/a"


@dataclass
class Rates:
    hits: int
    risky: int
    fps: int
    benign: int

    @property
    def recall(self) -> float | None:
        return self.hits / self.risky if self.risky else None

    @property
    def fpr(self) -> float | None:
        return self.fps / self.benign if self.benign else None

    def as_dict(self) -> dict[str, float | int | None]:
        return {"recall": self.recall, "fpr": self.fpr, "hits": self.hits, "risky": self.risky,
                "false_positives": self.fps, "benign": self.benign}  # fmt: skip


@dataclass
class Summary:
    tool: str
    groups: dict[str, Rates]  # "all", "python", "shell", "dev", "holdout"
    categories: dict[str, Rates]
    snippets_per_s: float
    latency_us: float | None
    latency_by_language_us: dict[str, float]

    def as_dict(self) -> dict[str, object]:
        return {
            "tool": self.tool,
            "groups": {k: r.as_dict() for k, r in self.groups.items()},
            "categories": {k: r.as_dict() for k, r in self.categories.items()},
            "snippets_per_s_median": self.snippets_per_s,
            "latency_us_median": self.latency_us,
            "latency_us_median_by_language": self.latency_by_language_us,
        }


def rates(score: Score, snippets: Sequence[Snippet]) -> Rates:
    return Rates(
        hits=sum(score.flagged[s.ident][0] for s in snippets if s.risky),
        risky=sum(s.risky for s in snippets),
        fps=sum(score.flagged[s.ident][0] for s in snippets if not s.risky),
        benign=sum(not s.risky for s in snippets),
    )


def _split_order(split: str) -> int:
    """holdout < holdout2 < ... < holdout10 (numeric, not lexical)."""
    digits = split.removeprefix("holdout")
    return int(digits) if digits.isdigit() else 1 if not digits else 10_000


def summarise(name: str, score: Score, snippets: Sequence[Snippet]) -> Summary:
    groups = {
        "all": rates(score, snippets),
        "python": rates(score, [s for s in snippets if s.language == "python"]),
        "shell": rates(score, [s for s in snippets if s.language == "shell"]),
        "dev": rates(score, [s for s in snippets if s.split == "dev"]),
    }
    for split in sorted({s.split for s in snippets} - {"dev"}, key=_split_order):
        groups[split] = rates(score, [s for s in snippets if s.split == split])
    by_category: dict[str, list[Snippet]] = defaultdict(list)
    for s in snippets:
        if s.risky:
            by_category[s.category].append(s)
    categories = {c: rates(score, group) for c, group in sorted(by_category.items())}
    speeds = [len(snippets) / seconds for seconds in score.seconds[1:] or score.seconds]
    latency = statistics.median(score.latencies_us) if score.latencies_us else None
    per_language = {lang: statistics.median(values) for lang, values in score.by_language_us.items() if values}
    return Summary(name, groups, categories, statistics.median(speeds), latency, per_language)


def print_report(results: Sequence[Summary]) -> None:
    header = f"{'tool':<20} {'subset':<9} {'recall@HIGH+':<22} {'FPR@HIGH+':<20} {'snippets/s':>11} {'median µs':>10}"
    print(header)
    print("-" * len(header))
    for r in results:
        for group, d in r.groups.items():
            if not d.risky and not d.benign:
                continue
            first = group == "all"
            speed = f"{r.snippets_per_s:>11.0f}" if first else " " * 11
            latency = f"{r.latency_us:>10.0f}" if first and r.latency_us is not None else " " * 10
            print(
                f"{r.tool:<20} {group:<9} {ratio(d.hits, d.risky):<22} {ratio(d.fps, d.benign):<20} {speed} {latency}"
            )
    print("\nmedian latency per snippet by language (µs)")
    for r in results:
        text = ", ".join(f"{lang} {us:.0f}" for lang, us in sorted(r.latency_by_language_us.items()))
        print(f"  {r.tool:<20} {text}")
    print("\nrecall@HIGH+ per category (risky snippets)")
    cats = sorted({c for r in results for c in r.categories})
    print(f"{'category':<16}" + "".join(f"{r.tool:>22}" for r in results))
    for c in cats:
        cells = [r.categories.get(c) for r in results]
        print(f"{c:<16}" + "".join(f"{(ratio(d.hits, d.risky) if d else 'n/a'):>22}" for d in cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="timing rounds (the first also warms up)")
    parser.add_argument("--misses", action="store_true", help="list sandlot's misses and false positives")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--no-bandit", action="store_true", help="skip bandit (if it is not installed)")
    args = parser.parse_args(argv)

    snippets = load_corpus()
    n_py = sum(s.language == "python" for s in snippets)
    n_hold = sum(s.split != "dev" for s in snippets)
    print(
        f"corpus: {len(snippets)} snippets ({n_py} python, {len(snippets) - n_py} shell; "
        f"{len(snippets) - n_hold} dev, {n_hold} holdout); "
        f"{sum(s.risky for s in snippets)} risky, {sum(not s.risky for s in snippets)} benign"
    )
    print(f"python {sys.version.split()[0]} on {sys.platform}; {args.rounds} rounds, medians reported\n")

    tools: list[tuple[str, Callable[[Snippet], tuple[bool, str]], Sequence[Snippet]]] = [
        ("sandlot", sandlot_tool, snippets),
        ("naive-regex", naive_tool, snippets),
    ]
    if not args.no_bandit:
        python_only = [s for s in snippets if s.language == "python"]
        tools.append(("bandit(sev>=HIGH)", BanditTool("HIGH"), python_only))
        tools.append(("bandit(sev>=MEDIUM)", BanditTool("MEDIUM"), python_only))

    results: list[Summary] = []
    scores: dict[str, Score] = {}
    for name, tool, subset in tools:
        score = run_tool(tool, subset, args.rounds)
        scores[name] = score
        results.append(summarise(name, score, subset))
    print_report(results)
    if not args.no_bandit:
        print("\nbandit has no shell analysis: it runs on the Python snippets only (its speed is over those).")

    if args.misses:
        flagged = scores["sandlot"].flagged
        print("\nsandlot misses (risky, below HIGH):")
        for s in snippets:
            if s.risky and not flagged[s.ident][0]:
                print(f"  {s.ident:<14} {s.category:<15} {flagged[s.ident][1]:<40} {s.note}")
        print("sandlot false positives (benign, HIGH+):")
        for s in snippets:
            if not s.risky and flagged[s.ident][0]:
                print(f"  {s.ident:<14} {s.category:<15} {flagged[s.ident][1]:<40} {s.note}")
    if args.json:
        args.json.write_text(json.dumps([r.as_dict() for r in results], indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
