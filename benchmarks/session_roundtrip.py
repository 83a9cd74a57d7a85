"""Exec round trip: the persistent session vs a fresh subprocess per command.

The per-command subprocess is what LangChain Deep Agents' LocalShellBackend does
(`subprocess.run(cmd, shell=True, capture_output=True)`). Both run the same commands
in the same run, interleaved in blocks so machine noise hits both alike.

    .venv/bin/python benchmarks/session_roundtrip.py [--runs 500]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _stats import TABLE_HEADER, median_ms, row, timings

from sandlot import Config, Sandlot

COMMANDS = {"true": "true", "echo": "echo hello", "pipeline": "printf 'a\\nb\\n' | wc -l"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=500)
    args = parser.parse_args()
    lines = [TABLE_HEADER]
    ratios = {}
    with Sandlot(Config(provider="local")).create() as box:
        for label, command in COMMANDS.items():
            session: list[float] = []
            fresh: list[float] = []
            for _ in range(10):  # interleave blocks of both
                session += timings(lambda c=command: box.exec(c), runs=args.runs // 10, warmup=2)
                fresh += timings(
                    lambda c=command: subprocess.run(c, shell=True, capture_output=True, check=False),
                    runs=args.runs // 10,
                    warmup=2,
                )
            lines.append(row(f"`{label}`: sandlot session (local)", session))
            lines.append(row(f"`{label}`: subprocess.run(shell=True)", fresh))
            ratios[label] = median_ms(fresh) / median_ms(session)
    print("\n".join(lines))
    print()
    for label, ratio in ratios.items():
        print(f"{label}: persistent session is {ratio:.1f}x faster (median), target >= 3x")


if __name__ == "__main__":
    main()
