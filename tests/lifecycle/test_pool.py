"""The pool on every provider (local always; bwrap and Docker when they can run here)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from lifecycle_kit import AuditCollector, docker_containers, make_pm, provider_config

from sandlot.api import Sandlot
from sandlot.config import Config
from sandlot.errors import SandboxClosed, SandboxError
from sandlot.policy import Limits, Policy
from sandlot.pool import POOL_LABEL, Pool, PoolConfig, PoolExhausted, sandbox_id_for


def wait_for(predicate: Any, timeout: float = 20.0) -> bool:
    """Poll instead of sleeping a fixed time: robust on a loaded machine."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()


@pytest.fixture
def client(provider_name: str, audit: AuditCollector) -> Sandlot:
    return Sandlot(provider_config(provider_name), pm=make_pm(audit))


def make_pool(client: Sandlot, tmp_path: Path, **settings: Any) -> Pool:
    namespace = f"test-{os.getpid()}-{time.monotonic_ns()}"
    config = PoolConfig(namespace=namespace, lock_dir=str(tmp_path / "locks"), **settings)
    return Pool(client, pool_config=config, handle_signals=False)


def live_ids(client: Sandlot, pool: Pool) -> set[str]:
    """Sandboxes of this pool that the provider still knows about."""
    if client.provider_name == "docker":
        return set(docker_containers(f"sandlot.label.{POOL_LABEL}={pool.settings.namespace}"))
    return {info.id for info in client.list().items}


def test_same_key_same_sandbox_and_deterministic_ids(client: Sandlot, tmp_path: Path) -> None:
    pool = make_pool(client, tmp_path, idle_timeout=None)
    try:
        a = pool.acquire("thread-a")
        assert a.id == sandbox_id_for("thread-a", pool.settings.namespace) == pool.sandbox_id("thread-a")
        a.exec("export TURN=1")
        pool.release(a)
        again = pool.acquire("thread-a")
        assert again.id == a.id
        assert again.exec("echo $TURN").stdout == "1\n"  # the warm sandbox kept its state
        b = pool.acquire("thread-b")
        assert b.id != a.id and b.exec("echo ${TURN:-none}").stdout == "none\n"
        assert pool.stats()["created"] == 2 and pool.stats()["reused"] == 1
        with pytest.raises(SandboxClosed):
            a.exec("true")  # a released handle is not usable
    finally:
        pool.shutdown()


def test_file_operations_on_a_handle_are_the_sandboxes(client: Sandlot, tmp_path: Path) -> None:
    pool = make_pool(client, tmp_path, idle_timeout=None)
    try:
        handle = pool.acquire("files")
        assert handle.files_root == handle.sandbox.files_root
        handle.write("kept.txt", "warm")
        assert handle.read_text("kept.txt") == "warm" and handle.sandbox.read_text("kept.txt") == "warm"
        pool.release(handle)
        again = pool.acquire("files")
        assert again.read_text("kept.txt") == "warm"  # the warm sandbox kept its files
        pool.release(again)
        with pytest.raises(SandboxClosed):
            again.read_text("kept.txt")  # a released handle is not usable
    finally:
        pool.shutdown()


def test_no_leaks_after_shutdown(client: Sandlot, tmp_path: Path, audit: AuditCollector) -> None:
    pool = make_pool(client, tmp_path, max_sandboxes=3, idle_timeout=None, prewarm=1)
    created: set[str] = set()
    for key in ("k1", "k2", "k3", "k4", "k1"):
        with pool.acquire(key) as box:
            created.add(box.id)
            box.exec("true")
    pool.prewarm()
    assert live_ids(client, pool)
    pool.shutdown()
    assert live_ids(client, pool) == set()
    made = {e.sandbox_id for e in audit.events if e.kind.value == "create"}
    gone = {e.sandbox_id for e in audit.events if e.kind.value == "destroy"}
    assert created <= made and made == gone  # every sandbox it ever created was destroyed
    with pytest.raises(SandboxClosed):
        pool.acquire("k1")


def test_lru_eviction_of_idle_sandboxes(client: Sandlot, tmp_path: Path) -> None:
    pool = make_pool(client, tmp_path, max_sandboxes=2, idle_timeout=None)
    try:
        a = pool.acquire("a")
        a_id = a.id
        a.close()
        b = pool.acquire("b")
        b.close()
        pool.release(pool.acquire("a"))  # a is now the most recently used
        c = pool.acquire("c")
        assert pool.stats()["evicted"] == 1
        assert pool.acquire("a").id == a_id  # a survived; b was evicted
        assert pool.stats()["reused"] == 2
        c.close()
    finally:
        pool.shutdown()


def test_all_in_use_waits_then_fails(client: Sandlot, tmp_path: Path) -> None:
    pool = make_pool(client, tmp_path, max_sandboxes=1, idle_timeout=None, acquire_timeout=0.3)
    try:
        held = pool.acquire("a")
        with pytest.raises(PoolExhausted):
            pool.acquire("b")
        held.close()
        # Released from another thread while we wait: the slot goes to us.
        threading_release = concurrent.futures.ThreadPoolExecutor(1)
        longer = make_pool(client, tmp_path, max_sandboxes=1, idle_timeout=None, acquire_timeout=60)
        try:
            first = longer.acquire("x")
            threading_release.submit(lambda: (time.sleep(0.2), first.close()))
            second = longer.acquire("y")
            assert second.exec("echo ok").stdout == "ok\n"
        finally:
            longer.shutdown()
        threading_release.shutdown()
    finally:
        pool.shutdown()


def test_idle_reaper_and_rebuild_of_a_held_sandbox(client: Sandlot, tmp_path: Path) -> None:
    pool = make_pool(client, tmp_path, idle_timeout=0.4)
    try:
        warm = pool.acquire("warm")
        warm.close()
        held = pool.acquire("held")
        held.exec("export STATE=1")
        assert wait_for(lambda: pool.stats()["reaped"] >= 2)
        assert pool.stats()["warm"] == 0 and pool.stats()["in_use"] == 0
        result = held.exec("echo ${STATE:-lost}")
        assert result.stdout == "lost\n" and result.state_lost_before
        held.close()
    finally:
        pool.shutdown()


def test_a_busy_sandbox_is_never_reaped(client: Sandlot, tmp_path: Path, audit: AuditCollector) -> None:
    pool = make_pool(client, tmp_path, idle_timeout=0.3, max_lifetime=0.3)
    try:
        with pool.acquire("busy") as box:
            result = box.exec("sleep 1.5; echo done")
            destroyed = [e.data for e in audit.events if e.kind.value == "destroy"]
            assert result.stdout == "done\n" and not result.state_lost_before, (result, destroyed)
    finally:
        pool.shutdown()


def test_max_lifetime(client: Sandlot, tmp_path: Path) -> None:
    pool = make_pool(client, tmp_path, idle_timeout=None, max_lifetime=0.5)
    try:
        box = pool.acquire("k")
        box.exec("export STATE=1")
        assert wait_for(lambda: pool.stats()["reaped"] >= 1)
        result = box.exec("echo ${STATE:-lost}")
        assert result.stdout == "lost\n" and result.state_lost_before
        box.close()
    finally:
        pool.shutdown()


def test_prewarmed_sandboxes_are_adopted(client: Sandlot, tmp_path: Path) -> None:
    pool = make_pool(client, tmp_path, idle_timeout=None, prewarm=2)
    try:
        assert wait_for(lambda: pool.stats()["prewarmed"] >= 2)
        box = pool.acquire("new-key")
        assert box.id.startswith("pool-warm-")
        assert pool.stats()["adopted"] == 1
        alias = tmp_path / "locks" / f"{pool.sandbox_id('new-key')}.alias"
        assert alias.read_text() == box.id
        assert box.exec("echo warm").stdout == "warm\n"
        assert wait_for(lambda: pool.stats()["prewarmed"] >= 2)  # replenished in the background
        box.close()
    finally:
        pool.shutdown()
    assert not alias.exists()


def test_threads_never_share_a_sandbox_between_keys(client: Sandlot, tmp_path: Path) -> None:
    pool = make_pool(client, tmp_path, max_sandboxes=4, idle_timeout=None)
    keys = [f"key-{i % 4}" for i in range(24)]

    def turn(key: str) -> tuple[str, str, str]:
        with pool.acquire(key) as box:
            out = box.exec(f'[ -f owner ] || echo {key} > owner; cat owner').stdout.strip()
            return key, box.id, out

    try:
        with concurrent.futures.ThreadPoolExecutor(8) as workers:
            results = list(workers.map(turn, keys))
        ids: dict[str, set[str]] = {}
        for key, box_id, owner in results:
            assert owner == key  # the sandbox was only ever this key's
            ids.setdefault(key, set()).add(box_id)
        assert all(len(v) == 1 for v in ids.values())
        assert len(set().union(*ids.values())) == 4
        assert pool.stats()["created"] == 4
    finally:
        pool.shutdown()


def test_asyncio(client: Sandlot, tmp_path: Path) -> None:
    pool = make_pool(client, tmp_path, idle_timeout=None)

    async def agent(key: str) -> str:
        box = await pool.aacquire(key)
        try:
            return (await box.aexec(f"echo {key}")).stdout
        finally:
            await pool.arelease(box)

    async def main() -> list[str]:
        try:
            return list(await asyncio.gather(*(agent(f"c{i % 3}") for i in range(9))))
        finally:
            await pool.ashutdown()

    assert asyncio.run(main()) == [f"c{i % 3}\n" for i in range(9)]
    assert pool.stats()["created"] == 3


def test_discovery_refuses_a_sandbox_with_another_policy(tmp_path: Path, audit: AuditCollector) -> None:
    client = Sandlot(Config(provider="local"), pm=make_pm(audit))
    settings = PoolConfig(namespace="shared", lock_dir=str(tmp_path / "locks"), idle_timeout=None)
    first = Pool(client, pool_config=settings, handle_signals=False)
    other = Pool(client, pool_config=settings, policy=Policy(limits=Limits(timeout=5)), handle_signals=False)
    same = Pool(client, pool_config=settings, handle_signals=False)
    try:
        box = first.acquire("k")
        with pytest.raises(SandboxError, match="different policy"):
            other.acquire("k")
        assert same.acquire("k").id == box.id  # found through the provider, not created again
        assert same.stats()["attached"] == 1 and same.stats().get("created", 0) == 0
    finally:
        same.shutdown()
        other.shutdown()
        first.shutdown()


DISCOVER_SCRIPT = textwrap.dedent(
    """
    import os, sys
    from sandlot.api import Sandlot
    from sandlot.config import Config
    from sandlot.pool import Pool, PoolConfig
    config = Config(provider="docker", providers={"docker": {"image": sys.argv[2]}})
    pool = Pool(Sandlot(config), pool_config=PoolConfig(namespace=sys.argv[3], lock_dir=sys.argv[1]),
                handle_signals=False)
    box = pool.acquire("conversation-1")
    box.exec("echo from-first-process > note.txt")
    print(box.id, flush=True)
    os._exit(0)  # a crash: no shutdown, the container stays
    """
)


@pytest.mark.slow
def test_another_process_reattaches_by_key(provider_name: str, client: Sandlot, tmp_path: Path) -> None:
    if provider_name != "docker":
        pytest.skip(f"{provider_name} sandboxes cannot be attached from another process (no Feature.ATTACH)")
    from lifecycle_kit import DOCKER_IMAGE

    pool = make_pool(client, tmp_path, idle_timeout=None)
    try:
        out = subprocess.run(
            [sys.executable, "-c", DISCOVER_SCRIPT, str(tmp_path / "locks"), DOCKER_IMAGE, pool.settings.namespace],
            capture_output=True, text=True, timeout=120,
        )
        assert out.returncode == 0, out.stderr
        first_id = out.stdout.strip()
        box = pool.acquire("conversation-1")
        assert box.id == first_id and pool.stats()["attached"] == 1
        assert box.exec("cat note.txt").stdout == "from-first-process\n"
    finally:
        pool.shutdown()
    assert live_ids(client, pool) == set()


@pytest.mark.slow
def test_two_processes_racing_for_a_key_create_one_sandbox(provider_name: str, client: Sandlot, tmp_path: Path) -> None:
    if provider_name != "docker":
        pytest.skip(f"{provider_name} sandboxes are per process; only the lock is shared")
    from lifecycle_kit import DOCKER_IMAGE

    script = DISCOVER_SCRIPT
    namespace = f"race-{time.monotonic_ns()}"
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(tmp_path / "locks"), DOCKER_IMAGE, namespace],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=180) for p in procs]
    try:
        assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
        assert outs[0][0].strip() == outs[1][0].strip()
        assert len(docker_containers(f"sandlot.label.{POOL_LABEL}={namespace}")) == 1
    finally:
        client.delete(sandbox_id_for("conversation-1", namespace))
