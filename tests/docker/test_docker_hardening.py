"""Every hardening default, proven on a real container: docker inspect and /proc from inside."""

from __future__ import annotations

from typing import Any

import pytest
from docker_kit import SANDBOX_UID

from sandlot.api import Sandlot
from sandlot.sandbox import Sandbox
from sandlot_docker.sandbox import DockerSandbox


@pytest.fixture
def box(client: Sandlot) -> Any:
    with client.create() as sandbox:
        yield sandbox


def _inspect(api: Any, sandbox: Sandbox) -> dict[str, Any]:
    assert isinstance(sandbox, DockerSandbox)
    info: dict[str, Any] = api.inspect_container(sandbox.container_id)
    return info


def test_inspect_proves_every_default(api: Any, box: Sandbox) -> None:
    info = _inspect(api, box)
    host, config = info["HostConfig"], info["Config"]
    assert host["CapDrop"] == ["ALL"] and not host.get("CapAdd")
    assert "no-new-privileges:true" in host["SecurityOpt"]
    # The engine's default seccomp profile: nothing overrides it.
    assert not any(opt.startswith("seccomp") for opt in host["SecurityOpt"])
    assert host["ReadonlyRootfs"] is True
    assert "size=" in host["Tmpfs"]["/tmp"] and "noexec" in host["Tmpfs"]["/tmp"]
    assert config["User"] == f"{SANDBOX_UID}:{SANDBOX_UID}"
    assert host["PidsLimit"] == 256
    assert host["Memory"] == 1024 * 1024 * 1024 and host["MemorySwap"] == host["Memory"]
    assert host["NanoCpus"] == 1_000_000_000
    assert host["NetworkMode"] == "none"
    assert host["Init"] is True
    assert host["Privileged"] is False
    assert host["IpcMode"] == "private"
    assert config["Labels"]["sandlot.owner"] == "sandlot-docker"
    assert config["Labels"]["sandlot.sandbox-id"] == box.id
    sources = [m.get("Source", "") for m in info["Mounts"]]
    assert not any("docker.sock" in s or s in ("/var/run", "/run") for s in sources)
    assert info["State"]["Running"] is True


def test_process_status_inside(box: Sandbox) -> None:
    status = dict(
        line.split(":", 1) for line in box.exec("cat /proc/self/status").stdout.splitlines() if ":" in line
    )
    assert int(status["CapEff"].strip(), 16) == 0
    assert int(status["CapPrm"].strip(), 16) == 0
    assert int(status["CapBnd"].strip(), 16) == 0
    assert status["NoNewPrivs"].strip() == "1"
    assert status["Seccomp"].strip() == "2"  # filter mode: the default profile is loaded
    assert status["Uid"].split()[0] == str(SANDBOX_UID)


def test_root_filesystem_is_read_only_and_tmp_is_bounded(box: Sandbox) -> None:
    result = box.exec("touch /etc/sandlot-x")
    assert result.exit_code != 0 and "Read-only file system" in result.stderr
    assert box.exec("echo ok > /tmp/x && cat /tmp/x").stdout == "ok\n"
    assert box.exec("echo ok > ./x && cat ./x").stdout == "ok\n"  # the workspace volume
    mounts = box.exec("cat /proc/mounts").stdout
    assert any(line.split()[1] == "/tmp" and "size=65536k" in line for line in mounts.splitlines())


def test_no_engine_socket_and_no_privilege_escalation(box: Sandbox) -> None:
    assert box.exec("ls /var/run/docker.sock /run/docker.sock").exit_code != 0
    # setuid binaries do not raise privileges under no-new-privileges.
    result = box.exec("su -c id root </dev/null; id -u")
    assert result.stdout.strip().splitlines()[-1] == str(SANDBOX_UID)


def test_init_reaps_orphaned_zombies(box: Sandbox) -> None:
    box.exec("(sh -c 'sleep 0.1 & exec sleep 0.2' &)")
    result = box.exec("sleep 0.5; cat /proc/[0-9]*/stat 2>/dev/null | awk '$3 == \"Z\"' | wc -l")
    assert result.stdout.strip() == "0"
