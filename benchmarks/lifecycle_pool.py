"""Pool acquire latency (warm vs cold) and agent turns with and without the pool, per provider.

* warm acquire: ``acquire(key)`` + ``release`` of a key whose sandbox is already warm;
* cold acquire: ``acquire(key)`` of a key never seen (discover-or-create under the file lock);
* turns: ``--turns`` short agent turns (one ``echo`` each) over ``--keys`` keys, in a shuffled
  order, once through a pool (acquire, exec, release) and once creating and destroying a sandbox
  per turn. The pool's total includes creating its sandboxes and shutting it down.

Targets: warm acquire <= 1 ms median; Docker turns >= 10x faster with the pool.

    .venv/bin/python benchmarks/lifecycle_pool.py [--providers local,bwrap,docker] [--turns 200 --keys 20]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _stats import TABLE_HEADER, median_ms, row

from sandlot import Config, Sandlot
from sandlot.errors import SandlotError
from sandlot.pool import Pool, PoolConfig

DOCKER_IMAGE = os.environ.get("SANDLOT_DOCKER_TEST_IMAGE", "sandlot-test:bookworm")


def client_for(name: str) -> Sandlot:
    providers = {"docker": {"image": DOCKER_IMAGE}} if name == "docker" else {}
    return Sandlot(Config(provider=name, providers=providers))


def pool_for(client: Sandlot, lock_dir: str, size: int) -> Pool:
    settings = PoolConfig(
        namespace=f"bench-{os.getpid()}-{time.monotonic_ns()}", max_sandboxes=size, idle_timeout=None,
        lock_dir=lock_dir,
    )
    return Pool(client, pool_config=settings, handle_signals=False)


def acquire_latency(client: Sandlot, lock_dir: str, warm_runs: int, cold_runs: int) -> tuple[list[float], list[float]]:
    pool = pool_for(client, lock_dir, cold_runs + 1)
    try:
        cold: list[float] = []
        for i in range(cold_runs):
            start = time.perf_counter()
            box = pool.acquire(f"cold-{i}")
            cold.append(time.perf_counter() - start)
            box.exec("true")
            pool.release(box)
        warm: list[float] = []
        for _ in range(warm_runs):
            start = time.perf_counter()
            box = pool.acquire("cold-0")
            warm.append(time.perf_counter() - start)
            pool.release(box)
        return warm, cold
    finally:
        pool.shutdown()


def turns_with_pool(client: Sandlot, lock_dir: str, order: list[str], keys: int) -> float:
    start = time.perf_counter()
    pool = pool_for(client, lock_dir, keys)
    try:
        for key in order:
            with pool.acquire(key) as box:
                result = box.exec(f"echo turn of {key}")
                assert result.ok, result.output
    finally:
        pool.shutdown()
    return time.perf_counter() - start


def turns_without_pool(client: Sandlot, order: list[str]) -> float:
    start = time.perf_counter()
    for key in order:
        with client.create() as box:
            result = box.exec(f"echo turn of {key}")
            assert result.ok, result.output
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--providers", default="local,bwrap,docker")
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--keys", type=int, default=20)
    parser.add_argument("--warm-runs", type=int, default=1000)
    parser.add_argument("--cold-runs", type=int, default=10)
    args = parser.parse_args()
    order = [f"agent-{i % args.keys}" for i in range(args.turns)]
    random.Random(7).shuffle(order)
    latency = [TABLE_HEADER]
    turns = ["| provider | turns | keys | with pool s | create per turn s | speed-up |", "|---|---|---|---|---|---|"]
    verdicts = []
    with tempfile.TemporaryDirectory(prefix="sandlot-bench-locks-") as lock_dir:
        for name in args.providers.split(","):
            try:
                client = client_for(name)
            except SandlotError as exc:
                print(f"{name}: skipped ({exc})", file=sys.stderr)
                continue
            warm, cold = acquire_latency(client, lock_dir, args.warm_runs, args.cold_runs)
            latency.append(row(f"{name}: warm acquire", warm))
            latency.append(row(f"{name}: cold acquire (create)", cold))
            pooled = turns_with_pool(client, lock_dir, order, args.keys)
            fresh = turns_without_pool(client, order)
            speedup = fresh / pooled
            turns.append(f"| {name} | {args.turns} | {args.keys} | {pooled:.2f} | {fresh:.2f} | {speedup:.1f}x |")
            verdicts.append(f"{name}: warm acquire median {median_ms(warm):.4f} ms (target <= 1 ms); "
                            f"turns {fresh / pooled:.1f}x faster with the pool"
                            + (" (target >= 10x)" if name == "docker" else ""))
    print("\n".join(latency))
    print()
    print("\n".join(turns))
    print()
    print("\n".join(verdicts))


if __name__ == "__main__":
    main()
