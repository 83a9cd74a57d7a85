"""Exec round trip in the persistent bwrap session vs. spawning bwrap per command; creation time.

    python3 benchmarks/bwrap_exec.py [--rounds 500] [--spawn-rounds 100] [--creates 30] [--markdown FILE]

All figures come from one run on one machine, the three measurements interleaved. The persistent figure is a full
``Sandbox.exec("true")``: framing, the driver's eval, marker parsing, the deny-glob scan of
the (small) workdir and violation detection. The per-command figure spawns the same
hardened bwrap argv (same namespaces, mounts, seccomp program) running ``/bin/true``.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _stats import median_ms, p95_ms, report

from sandlot.api import Sandlot
from sandlot.config import Config
from sandlot.policy import Policy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--spawn-rounds", type=int, default=100)
    parser.add_argument("--creates", type=int, default=30)
    parser.add_argument("--markdown", type=Path, help="also write the figures as Markdown to this file")
    args = parser.parse_args()

    home = Path(tempfile.mkdtemp(prefix="sandlot-bench-home-"))
    work = Path(tempfile.mkdtemp(prefix="sandlot-bench-work-", dir="/var/tmp"))
    (work / "README.md").write_text("benchmark\n")
    try:
        client = Sandlot(Config(provider="bwrap", providers={"bwrap": {"home": str(home)}}))
        policy = Policy()
        box = client.create(workdir=work, policy=policy)
        native = box.native  # type: ignore[attr-defined]
        for _ in range(20):
            box.exec("true")
        cut = native.args.index("--") + 1  # the bwrap argv up to "--", then /bin/true

        def spawn_once() -> float:
            r, w = os.pipe()
            os.write(w, native.seccomp.code)
            os.close(w)
            sr, sw = os.pipe()
            argv = [*native.argv(seccomp_fd=r, status_fd=sw)[: cut + 1], "/bin/true"]
            start = time.perf_counter()
            subprocess.run(argv, pass_fds=(r, sw), env={"PATH": "/usr/bin:/bin"}, check=True)
            elapsed = time.perf_counter() - start
            for fd in (r, sr, sw):
                os.close(fd)
            return elapsed

        def create_once() -> float:
            start = time.perf_counter()
            other = client.create(workdir=work, policy=policy)
            elapsed = time.perf_counter() - start
            other.close()
            return elapsed

        # Interleaved, so load from other processes on the machine hits all three alike.
        persistent: list[float] = []
        spawn: list[float] = []
        creates: list[float] = []
        per_round = max(1, args.rounds // max(args.spawn_rounds, 1))
        while len(persistent) < args.rounds or len(spawn) < args.spawn_rounds or len(creates) < args.creates:
            for _ in range(per_round):
                if len(persistent) < args.rounds:
                    start = time.perf_counter()
                    result = box.exec("true")
                    persistent.append(time.perf_counter() - start)
                    assert result.exit_code == 0
            if len(spawn) < args.spawn_rounds:
                spawn.append(spawn_once())
            if len(creates) < args.creates:
                creates.append(create_once())
        box.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)

    p_med, s_med, c_med = median_ms(persistent), median_ms(spawn), median_ms(creates)
    bwrap_version = subprocess.run(["bwrap", "--version"], capture_output=True, text=True).stdout.strip()
    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Linux {platform.release()}, {bwrap_version}, "
        f"Python {platform.python_version()}, running as uid {os.geteuid()}",
        "",
        "| measurement | median | p95 | samples |",
        "|---|---|---|---|",
        f'| exec round trip, persistent bwrap session (`Sandbox.exec("true")`) | {p_med:.3f} ms | '
        f"{p95_ms(persistent):.3f} ms | {len(persistent)} |",
        f"| spawning the same hardened bwrap per command (`/bin/true`) | {s_med:.3f} ms | "
        f"{p95_ms(spawn):.3f} ms | {len(spawn)} |",
        f"| sandbox creation (`Sandlot.create()` until the shell answers) | {c_med:.3f} ms | "
        f"{p95_ms(creates):.3f} ms | {len(creates)} |",
        "",
        f"persistent session is {s_med / p_med:.1f}x faster than spawning per command "
        f"(target: round trip <= 0.5 ms: {'met' if p_med <= 0.5 else 'NOT met'}; "
        f"creation <= 20 ms: {'met' if c_med <= 20 else 'NOT met'})",
    ]
    report("\n".join(lines), args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
