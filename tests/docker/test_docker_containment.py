"""Containment cases that apply to a container: egress, host loopback, bombs, survivors, limits."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from docker_kit import docker_config

from sandlot.api import Sandlot
from sandlot.policy import NetworkMode, NetworkPolicy
from sandlot.results import ViolationKind
from sandlot.sandbox import Sandbox
from sandlot_docker.sandbox import DockerSandbox

# Counts processes whose command line contains "sleep 7771" (the check itself does not match).
SURVIVORS = (
    'n=0; for p in /proc/[0-9]*; do c=$(tr "\\0" " " < "$p/cmdline" 2>/dev/null) || continue; '
    'case "$c" in *"slee""p 7771"*) n=$((n+1));; esac; done; echo "survivors=$n"'
)


def _make(**limits: Any) -> Sandbox:
    client = Sandlot(docker_config())
    policy = client.config.policy
    policy = attrs.evolve(policy, limits=attrs.evolve(policy.limits, **limits))
    return client.create(policy=policy)


@pytest.fixture
def box(api: Any) -> Iterator[Sandbox]:
    with _make() as sandbox:
        yield sandbox


# -- network ---------------------------------------------------------------------------


def test_egress_is_blocked_and_reported(box: Sandbox) -> None:
    result = box.exec(
        "python3 -c \"import socket; socket.create_connection(('192.0.2.1', 80), timeout=3)\"", timeout=20
    )
    assert result.exit_code != 0 and "Network is unreachable" in result.stderr
    assert result.violation is not None and result.violation.kind is ViolationKind.NETWORK
    dns = box.exec("python3 -c \"import socket; socket.getaddrinfo('example.com', 80)\"", timeout=20)
    assert dns.exit_code != 0
    assert dns.violation is not None and dns.violation.kind is ViolationKind.NETWORK
    # Only the loopback interface exists.
    interfaces = [line.split(":")[0].strip() for line in box.exec("cat /proc/net/dev").stdout.splitlines()[2:]]
    assert interfaces == ["lo"]


def test_host_loopback_services_are_unreachable(box: Sandbox) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    accepted: list[object] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept())
            except OSError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        probe = (
            "python3 -c \"import socket,sys\n"
            f"for h in ('127.0.0.1', '172.17.0.1', 'host.docker.internal'):\n"
            f"  try: socket.create_connection((h, {port}), timeout=2); print('REACHED', h)\n"
            "  except OSError as e: print('blocked', h, e)\""
        )
        result = box.exec(probe, timeout=30)
    finally:
        stop.set()
        thread.join(2)
        server.close()
    assert "REACHED" not in result.stdout, result.output
    assert result.stdout.count("blocked") == 3
    assert accepted == []


def test_network_all_uses_the_named_network(api: Any) -> None:
    name = "sandlot-test-net"
    try:
        api.inspect_network(name)
    except Exception:
        api.create_network(name, driver="bridge", internal=True)
    try:
        client = Sandlot(docker_config(network=name))
        policy = attrs.evolve(client.config.policy, network=NetworkPolicy(mode=NetworkMode.ALL))
        with client.create(policy=policy) as box:
            assert isinstance(box, DockerSandbox)
            host = api.inspect_container(box.container_id)["HostConfig"]
            assert host["NetworkMode"] == name
            devices = box.exec("cat /proc/net/dev").stdout
            assert "eth0" in devices
    finally:
        api.remove_network(name)


# -- bombs and limits -------------------------------------------------------------------


@pytest.mark.slow
def test_fork_bomb_is_contained(api: Any) -> None:
    with _make(processes=64) as box:
        assert isinstance(box, DockerSandbox)
        started = time.monotonic()
        result = box.exec("b() { b | b & }; b; sleep 5", timeout=5)
        assert time.monotonic() - started < 30
        pids = api.inspect_container(box.container_id)["HostConfig"]["PidsLimit"]
        assert pids == 64
        assert result.violation is not None and result.violation.kind is ViolationKind.RESOURCE
        assert result.violation.resource == "processes"
        # The sandbox is usable again (possibly with a fresh shell) and the bomb is gone.
        after = box.exec("echo alive", timeout=30)
        assert after.stdout == "alive\n"
        assert box.stats().pids < 10


def test_memory_bomb_is_an_oom_violation(api: Any) -> None:
    with _make(memory_mb=64) as box:
        result = box.exec("python3 -c 'b = bytearray(512 * 1024 * 1024)'", timeout=60)
        assert result.exit_code == 137
        assert result.violation is not None and result.violation.kind is ViolationKind.RESOURCE
        assert result.violation.resource == "memory" and "64 MiB" in result.violation.reason
        assert box.exec("echo still here").stdout == "still here\n"
        # A later, unrelated kill is not blamed on memory.
        assert box.exec("sleep 5 & kill -9 $!; wait $!").violation is None


def test_disk_bomb_hits_the_size_limits(api: Any) -> None:
    client = Sandlot(docker_config(workspace_size_mb=16, tmp_size_mb=8))
    with client.create() as box:
        work = box.exec("head -c 100000000 /dev/zero > big; echo rc=$?", timeout=60)
        assert "No space left on device" in work.stderr
        assert int(box.exec("stat -c %s big").stdout) <= 16 * 1024 * 1024
        tmp = box.exec("head -c 100000000 /dev/zero > /tmp/big", timeout=60)
        assert "No space left on device" in tmp.stderr
        box.exec("rm -f big /tmp/big")
        assert box.exec("echo fine > small && cat small").stdout == "fine\n"


def test_file_size_cpu_and_open_file_limits(api: Any) -> None:
    with _make(file_size_mb=1, cpu_seconds=1, open_files=64) as box:
        big = box.exec("head -c 3000000 /dev/zero > f; stat -c %s f")
        assert big.exit_code != 0 or big.stdout.strip() == "1048576"
        assert int(box.exec("stat -c %s f").stdout) == 1048576
        spin = box.exec("python3 -c 'while True: pass'", timeout=30)
        assert not spin.timed_out and spin.exit_code != 0  # SIGXCPU/SIGKILL after 1 s of CPU
        assert box.exec("ulimit -n").stdout.strip() == "64"


def test_survivors_after_timeout(box: Sandbox) -> None:
    result = box.exec(
        "nohup sleep 7771 >/dev/null 2>&1 & "
        "setsid sh -c 'trap \"\" TERM HUP INT; sleep 7771' & "
        "(sh -c 'sleep 7771 & sleep 7771' &) ; "
        "sleep 7771",
        timeout=1,
    )
    assert result.timed_out
    time.sleep(0.3)
    assert box.exec(SURVIVORS).stdout == "survivors=0\n"
    assert box.exec("echo ok").stdout == "ok\n"


def test_timeouts_keep_background_jobs_of_earlier_commands(box: Sandbox) -> None:
    """A timeout kills the timed-out command's tree and orphans, not the container's keep-alive."""
    result = box.exec("sleep 30", timeout=1)
    assert result.timed_out
    assert box.exec("echo ok").stdout == "ok\n"
    assert box.exec("sleep 30", timeout=1).timed_out
    assert box.exec("echo still").stdout == "still\n"
