"""The manager on every provider, with the provider's real enforcement (bwrap, Docker)."""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from lifecycle_kit import SANDBOX_UID, Approver, AuditCollector, make_pm, provider_config

from sandlot.api import Sandlot
from sandlot.approval import Decision
from sandlot.grants import GrantKind
from sandlot.manager import Manager


@pytest.fixture
def host_dir(provider_name: str) -> Iterator[Path]:
    """An existing host directory outside every sandbox's writable paths (and outside /tmp,
    which bwrap replaces with a private one)."""
    path = Path("/var/tmp") / f"sandlot-grant-{secrets.token_hex(4)}"
    path.mkdir()
    if provider_name == "docker" and os.geteuid() == 0:
        os.chown(path, SANDBOX_UID, SANDBOX_UID)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_lifecycle_and_no_leaks(provider_name: str, sandbox_workdir: Path, audit: AuditCollector) -> None:
    client = Sandlot(provider_config(provider_name), pm=make_pm(audit))
    manager = Manager(client, workdir=sandbox_workdir, handle_signals=False)
    assert manager.sandbox is None and not [e for e in audit.events if e.kind.value == "create"]
    manager.write_file("dir/hello.txt", "hi there")
    assert manager.read_file("dir/hello.txt") == b"hi there"
    assert (sandbox_workdir / "dir" / "hello.txt").read_text() == "hi there"
    manager.exec("export KEEP=1")
    assert manager.exec("echo $KEEP").stdout == "1\n"
    manager.shutdown()
    made = {e.sandbox_id for e in audit.events if e.kind.value == "create"}
    gone = {e.sandbox_id for e in audit.events if e.kind.value == "destroy"}
    assert made and made == gone
    remaining = {info.id for info in client.list().items}
    assert not made & remaining


def test_real_violation_granted_for_the_session(
    provider_name: str, sandbox_workdir: Path, host_dir: Path, audit: AuditCollector
) -> None:
    if provider_name != "bwrap":
        pytest.skip(
            f"{provider_name}: host paths outside the sandbox's mounts are not blocked but absent (docker) or "
            f"not enforced (local); grants on them are covered by the network test and test_manager"
        )
    approver = Approver(Decision.ALLOW_SESSION)
    client = Sandlot(provider_config(provider_name), pm=make_pm(audit, approver))
    with Manager(client, workdir=sandbox_workdir, handle_signals=False) as manager:
        (sandbox_workdir / "kept.txt").write_text("kept")
        result = manager.exec(f"echo data > {host_dir}/out.txt")
        assert len(approver.requests) == 1, (result.output, approver.requests)
        assert manager.grants[0].kind is GrantKind.WRITE and manager.grants[0].target == str(host_dir)
        assert result.ok and result.violation is None and result.state_lost_before, result.output
        assert (host_dir / "out.txt").read_text() == "data\n"
        assert manager.exec("cat kept.txt").stdout == "kept"  # the workdir survived the rebuild


def test_real_default_deny_is_not_offered(provider_name: str, sandbox_workdir: Path, audit: AuditCollector) -> None:
    if provider_name == "local":
        pytest.skip("the local provider enforces no filesystem policy")
    approver = Approver(default=Decision.ALLOW_ALWAYS)
    client = Sandlot(provider_config(provider_name), pm=make_pm(audit, approver))
    (sandbox_workdir / ".env").write_text("SECRET=1\n")
    if provider_name == "docker" and os.geteuid() == 0:
        os.chown(sandbox_workdir / ".env", SANDBOX_UID, SANDBOX_UID)
    with Manager(client, workdir=sandbox_workdir, handle_signals=False) as manager:
        result = manager.exec("cat .env")
        assert "SECRET" not in result.stdout
        assert approver.requests == []


def test_a_destroyed_sandbox_is_rebuilt(provider_name: str, sandbox_workdir: Path, audit: AuditCollector) -> None:
    client = Sandlot(provider_config(provider_name), pm=make_pm(audit))
    with Manager(client, workdir=sandbox_workdir, handle_signals=False) as manager:
        manager.exec("export STATE=1")
        first = manager.sandbox
        assert first is not None
        if provider_name == "docker":
            import subprocess

            subprocess.run(["docker", "rm", "-f", f"sandlot-{first.id}"], check=True, capture_output=True)
        else:
            client.delete(first.id)
        result = manager.exec("echo ${STATE:-fresh}")
        assert result.stdout == "fresh\n" and result.state_lost_before
        assert manager.sandbox is not first


RESOLVE = "python3 -c \"import socket; socket.getaddrinfo('example.org', 80)\""


@pytest.fixture
def egress_network(provider_name: str) -> Iterator[str | None]:
    """For Docker, network mode "all" needs a named network: an internal one (no egress) is enough here."""
    if provider_name != "docker":
        yield None
        return
    import subprocess

    name = f"sandlot-test-{secrets.token_hex(4)}"
    subprocess.run(["docker", "network", "create", "--internal", name], check=True, capture_output=True)
    yield name
    subprocess.run(["docker", "network", "rm", name], capture_output=True)


def test_real_network_violation_granted(
    provider_name: str, sandbox_workdir: Path, audit: AuditCollector, egress_network: str | None
) -> None:
    if provider_name == "local":
        pytest.skip("the local provider does not block the network")
    approver = Approver(Decision.ALLOW_SESSION)
    config = provider_config(provider_name)
    if egress_network is not None:
        import attrs

        config = attrs.evolve(config, providers={"docker": {**config.providers["docker"], "network": egress_network}})
    client = Sandlot(config, pm=make_pm(audit, approver))
    with Manager(client, workdir=sandbox_workdir, handle_signals=False) as manager:
        first = manager.exec("true") and manager.sandbox
        result = manager.exec(RESOLVE)
        assert len(approver.requests) == 1, result.output
        assert approver.requests[0].violation.kind.value == "network"  # type: ignore[union-attr]
        assert manager.policy.network.mode.value == "all"
        assert manager.sandbox is not first and manager.sandbox.policy.network.mode.value == "all"  # type: ignore[union-attr]
        # Whether the name resolves depends on this machine's network; it is no longer the sandbox's doing.
        assert result.violation is None and result.state_lost_before


def test_a_grant_the_provider_cannot_apply_is_withdrawn(provider_name: str, sandbox_workdir: Path) -> None:
    if provider_name != "docker":
        pytest.skip("only Docker needs more configuration (an egress network) for network mode 'all'")
    approver = Approver(Decision.ALLOW_ALWAYS)
    client = Sandlot(provider_config(provider_name), pm=make_pm(approver))
    with Manager(client, workdir=sandbox_workdir, handle_signals=False) as manager:
        result = manager.exec(RESOLVE)
        assert len(approver.requests) == 1
        assert result.violation is not None and manager.grants == ()
        assert manager.policy.network.mode.value == "none"
        assert manager.exec("echo still-works").stdout == "still-works\n"
    from sandlot.config import user_config_path

    assert not user_config_path().exists()  # nothing persisted for a grant that never applied


def test_real_violation_allowed_once(provider_name: str, sandbox_workdir: Path, host_dir: Path) -> None:
    if provider_name != "bwrap":
        pytest.skip(f"{provider_name}: see test_real_violation_granted_for_the_session")
    approver = Approver(Decision.ALLOW_ONCE, Decision.DENY)
    client = Sandlot(provider_config(provider_name), pm=make_pm(approver))
    with Manager(client, workdir=sandbox_workdir, handle_signals=False) as manager:
        manager.exec("mkdir sub && cd sub")
        session_box = manager.sandbox
        result = manager.exec(f"pwd > {host_dir}/once.txt")
        assert result.ok and result.violation is None, result.output
        assert (host_dir / "once.txt").read_text() == f"{sandbox_workdir}/sub\n"  # ran where the session was
        assert manager.grants == () and manager.sandbox is session_box
        again = manager.exec(f"echo again > {host_dir}/twice.txt")
        assert again.violation is not None and not (host_dir / "twice.txt").exists()
        assert len(approver.requests) == 2
        assert {i.id for i in client.list().items} == {session_box.id}  # type: ignore[union-attr]
