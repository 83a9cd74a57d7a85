"""The manager on the local provider: lazy creation, grants, approvals, recovery, shutdown."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from lifecycle_kit import Approver, AuditCollector, PolicyDetector

from sandlot.approval import Decision
from sandlot.config import Config, load_config, user_config_path
from sandlot.errors import FileOperationError, SandboxClosed, SandboxError
from sandlot.grants import Grant, GrantKind
from sandlot.manager import Manager
from sandlot.policy import FilesystemPolicy, Policy


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """An existing directory outside the manager's working directory."""
    path = tmp_path / "outside"
    path.mkdir()
    return path


def manager_for(client, tmp_path: Path, detector: PolicyDetector, **kwargs) -> Manager:  # type: ignore[no-untyped-def]
    workdir = tmp_path / "session"
    workdir.mkdir(exist_ok=True)
    detector.workdir = workdir
    return Manager(client, workdir=workdir, handle_signals=False, **kwargs)


def test_nothing_is_created_before_the_first_command(make_local, audit: AuditCollector) -> None:  # type: ignore[no-untyped-def]
    client = make_local()
    manager = Manager(client, handle_signals=False)
    try:
        assert manager.sandbox is None
        assert client.list().items == ()
        assert audit.kinds() == []
        result = manager.exec("echo hi")
        assert result.stdout == "hi\n"
        assert [info.id for info in client.list().items] == [manager.sandbox.id]  # type: ignore[union-attr]
        assert audit.kinds(manager.session)[:2] == ["create", "exec"]
    finally:
        manager.shutdown()


def test_files_persist_and_state_persists_between_commands(make_local) -> None:  # type: ignore[no-untyped-def]
    with Manager(make_local(), handle_signals=False) as manager:
        manager.write_file("notes/a.txt", b"\x00binary\xff")
        assert manager.read_file("notes/a.txt") == b"\x00binary\xff"
        manager.exec("export GREETING=hello; cd /")
        assert manager.exec('echo "$GREETING $(pwd)"').stdout == "hello /\n"
        with pytest.raises(FileOperationError):
            manager.read_file("missing.txt")


def test_no_approver_means_deny(make_local, tmp_path: Path, detector, outside: Path, audit) -> None:  # type: ignore[no-untyped-def]
    manager = manager_for(make_local(), tmp_path, detector)
    try:
        result = manager.exec(f"needs-write {outside}/f")
        assert result.violation is not None
        assert manager.grants == ()
        approvals = [e for e in audit.events if e.kind.value == "approval"]
        assert approvals and approvals[-1].data["decision"] == "deny"
        assert approvals[-1].data["grant"] == {"kind": "write", "target": str(outside)}
    finally:
        manager.shutdown()


def test_allow_once_reruns_with_the_grant_then_drops_it(make_local, tmp_path, detector, outside) -> None:  # type: ignore[no-untyped-def]
    approver = Approver(Decision.ALLOW_ONCE, Decision.DENY)
    client = make_local(approver)
    manager = manager_for(client, tmp_path, detector)
    try:
        manager.exec("cd /tmp")
        first = manager.sandbox
        result = manager.exec(f"needs-write {outside}/f")
        assert result.violation is None
        assert len(approver.requests) == 1
        request = approver.requests[0]
        assert request.kind == "violation" and request.command == f"needs-write {outside}/f"
        assert request.grant == f"write access below {outside}"
        # The grant was dropped: the session sandbox is the same and still blocks it.
        assert manager.sandbox is first and manager.grants == ()
        assert manager.exec("pwd").stdout == "/tmp\n"
        assert manager.exec(f"needs-write {outside}/f").violation is not None
        assert len(approver.requests) == 2
        # The temporary sandbox is gone.
        assert [i.id for i in client.list().items] == [first.id]  # type: ignore[union-attr]
    finally:
        manager.shutdown()


def test_allow_session_rebuilds_and_grants_survive_rebuilds(make_local, tmp_path, detector, outside) -> None:  # type: ignore[no-untyped-def]
    approver = Approver(Decision.ALLOW_SESSION)
    client = make_local(approver)
    manager = manager_for(client, tmp_path, detector)
    try:
        manager.exec("export KEPT=1")
        first = manager.sandbox
        result = manager.exec(f"needs-write {outside}/f")
        assert result.violation is None
        assert result.state_lost_before  # the rebuilt shell starts fresh, and the caller is told
        assert manager.sandbox is not first
        assert manager.grants == (Grant(GrantKind.WRITE, str(outside)),)
        assert str(outside) in manager.policy.filesystem.read_write
        assert manager.exec(f"needs-write {outside}/g").violation is None
        assert len(approver.requests) == 1  # not asked again
        # A crash later: the rebuilt sandbox keeps the grant.
        client.delete(manager.sandbox.id)  # type: ignore[union-attr]
        again = manager.exec(f"needs-write {outside}/h")
        assert again.violation is None and again.state_lost_before
        assert len(approver.requests) == 1
    finally:
        manager.shutdown()


def test_allow_always_persists_without_clobbering(make_local, tmp_path, detector, outside) -> None:  # type: ignore[no-untyped-def]
    path = user_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    original = '# my settings\nprovider = "local"  # keep this comment\n\n[policy.limits]\ntimeout = 30\n'
    path.write_text(original)
    approver = Approver(Decision.ALLOW_ALWAYS)
    manager = manager_for(make_local(approver), tmp_path, detector)
    try:
        assert manager.exec(f"needs-write {outside}/f").violation is None
    finally:
        manager.shutdown()
    text = path.read_text()
    assert text.startswith(original)
    assert "[[approval.grants]]" in text and f'target = "{outside}"' in text
    loaded = load_config(cwd=tmp_path)
    assert loaded.config.approval.grants == (Grant(GrantKind.WRITE, str(outside)),)
    assert loaded.config.policy.limits.timeout == 30
    # A new session starts with the permanent grant: nobody is asked.
    approver2 = Approver()
    later = manager_for(make_local(approver2, config=loaded.config), tmp_path, detector)
    try:
        assert later.exec(f"needs-write {outside}/f").violation is None
        assert approver2.requests == []
    finally:
        later.shutdown()


def test_built_in_defaults_are_never_granted(make_local, tmp_path, detector, audit) -> None:  # type: ignore[no-untyped-def]
    approver = Approver(default=Decision.ALLOW_ALWAYS)
    manager = manager_for(make_local(approver), tmp_path, detector)
    secret = os.path.expanduser("~/.ssh/id_rsa")
    try:
        result = manager.exec(f"needs-read {secret}")
        assert result.violation is not None
        assert approver.requests == []  # nothing to ask: it cannot be granted
        assert "~/.ssh" in manager.policy.filesystem.deny
        refused = [e for e in audit.events if e.kind.value == "approval"][-1]
        assert "built-in deny entry '~/.ssh'" in refused.data["problem"]
    finally:
        manager.shutdown()
    assert not user_config_path().exists()


def test_config_opt_out_makes_one_default_grantable(make_local, tmp_path, detector) -> None:  # type: ignore[no-untyped-def]
    policy = Policy(filesystem=FilesystemPolicy(deny=("~/.ssh",), exempt=("~/.ssh",)))
    approver = Approver(default=Decision.ALLOW_SESSION)
    manager = manager_for(make_local(approver), tmp_path, detector, policy=policy)
    try:
        assert manager.exec(f"needs-read {os.path.expanduser('~/.ssh/config')}").violation is None
        assert manager.grants == (Grant(GrantKind.UNDENY, "~/.ssh"),)
        assert "~/.ssh" not in manager.policy.filesystem.deny
        # Every other default stays.
        assert manager.exec(f"needs-read {os.path.expanduser('~/.aws/credentials')}").violation is not None
        assert "~/.aws" in manager.policy.filesystem.deny
    finally:
        manager.shutdown()


def test_network_grant(make_local, tmp_path, detector) -> None:  # type: ignore[no-untyped-def]
    approver = Approver(Decision.ALLOW_SESSION)
    manager = manager_for(make_local(approver), tmp_path, detector)
    try:
        assert manager.exec("needs-network example.org").violation is None
        assert manager.policy.network.mode.value == "all"
    finally:
        manager.shutdown()


@pytest.mark.parametrize("answer", ["maybe", RuntimeError("approver crashed")])
def test_a_broken_approver_denies(make_local, tmp_path, detector, outside, answer) -> None:  # type: ignore[no-untyped-def]
    from sandlot.hookspecs import hookimpl

    class Broken:
        @hookimpl
        def sandlot_approve(self, request):  # type: ignore[no-untyped-def]
            if isinstance(answer, Exception):
                raise answer
            return answer

    manager = manager_for(make_local(Broken()), tmp_path, detector)
    try:
        assert manager.exec(f"needs-write {outside}/f").violation is not None
        assert manager.grants == ()
    finally:
        manager.shutdown()


def test_rounds_are_bounded(make_local, tmp_path, detector, outside) -> None:  # type: ignore[no-untyped-def]
    from sandlot.grants import ApprovalConfig

    # The deny entry wins over the write grant, so every round finds the next entry to lift;
    # with max_rounds = 1 only the first is asked for.
    policy = Policy(filesystem=FilesystemPolicy(deny=(str(outside),)))
    approver = Approver(default=Decision.ALLOW_SESSION)
    config = Config(provider="local", approval=ApprovalConfig(max_rounds=1))
    manager = manager_for(make_local(approver, config=config), tmp_path, detector, policy=policy)
    try:
        result = manager.exec(f"needs-write {outside}/f")
        assert len(approver.requests) == 1
        assert manager.grants == (Grant(GrantKind.UNDENY, str(outside)),)
        assert result.violation is not None and "write denied" in result.violation.reason
    finally:
        manager.shutdown()


def test_a_dead_sandbox_is_rebuilt_and_the_caller_told(make_local, tmp_path, detector, monkeypatch, audit) -> None:  # type: ignore[no-untyped-def]
    manager = manager_for(make_local(), tmp_path, detector)
    try:
        manager.exec("export STATE=1")
        broken = manager.sandbox
        assert broken is not None

        def gone(*args, **kwargs):  # type: ignore[no-untyped-def]
            raise SandboxError("its container was removed from outside")
            yield  # a generator, like the real _run

        monkeypatch.setattr(broken, "_run", gone)
        result = manager.exec("echo ${STATE:-unset}")
        assert result.stdout == "unset\n" and result.state_lost_before
        assert manager.sandbox is not broken and broken.closed
        assert "recover" in audit.kinds(manager.session)
        assert not manager.exec("true").state_lost_before
    finally:
        manager.shutdown()


def test_death_during_a_command_is_not_rerun(make_local, tmp_path, detector, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from sandlot.results import OutputChunk

    manager = manager_for(make_local(), tmp_path, detector)
    try:
        manager.exec("true")
        broken = manager.sandbox

        def dies(*args, **kwargs):  # type: ignore[no-untyped-def]
            yield OutputChunk("stdout", b"partial")
            raise SandboxError("transport broke")

        monkeypatch.setattr(broken, "_run", dies)
        with pytest.raises(SandboxError, match="transport broke"):
            manager.exec("echo once > ran.txt")
        result = manager.exec("echo next")
        assert result.stdout == "next\n" and result.state_lost_before
    finally:
        manager.shutdown()


def test_shutdown_releases_everything(make_local) -> None:  # type: ignore[no-untyped-def]
    client = make_local()
    manager = Manager(client, handle_signals=False)
    manager.exec("true")
    workdir = manager.workdir
    assert workdir is not None and workdir.is_dir()
    manager.shutdown()
    manager.shutdown()  # idempotent
    assert client.list().items == ()
    assert not workdir.exists()
    with pytest.raises(SandboxClosed):
        manager.exec("true")


def test_concurrent_threads_and_tasks_share_one_sandbox(make_local) -> None:  # type: ignore[no-untyped-def]
    import asyncio
    import concurrent.futures

    client = make_local()
    with Manager(client, handle_signals=False) as manager:
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            outs = list(pool.map(lambda i: manager.exec(f"echo {i}").stdout, range(12)))
        assert outs == [f"{i}\n" for i in range(12)]

        async def main() -> list[str]:
            results = await asyncio.gather(*(manager.aexec(f"echo a{i}") for i in range(6)))
            return [r.stdout for r in results]

        assert asyncio.run(main()) == [f"a{i}\n" for i in range(6)]
        assert len(client.list().items) == 1


SIGNAL_SCRIPT = textwrap.dedent(
    """
    import sys, time
    from sandlot.config import Config
    from sandlot.api import Sandlot
    from sandlot.manager import Manager
    from sandlot.pool import Pool, PoolConfig
    client = Sandlot(Config(provider="local"))
    manager = Manager(client)
    pool = Pool(client, pool_config=PoolConfig(lock_dir=sys.argv[1]))
    a = manager.exec("echo $$").stdout.strip()
    b = pool.acquire("k").exec("echo $$").stdout.strip()
    print(a, b, manager.workdir, flush=True)
    time.sleep(60)
    """
)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_signals_shut_everything_down(tmp_path: Path, signum: int) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", SIGNAL_SCRIPT, str(tmp_path / "locks")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().split()
        assert len(line) == 3, line
        pids, workdir = [int(p) for p in line[:2]], Path(line[2])
        assert all(_alive(pid) for pid in pids) and workdir.is_dir()
        proc.send_signal(signum)
        proc.wait(timeout=30)
        assert proc.returncode != 0  # the signal still ends the program as it would have
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(pid) for pid in pids)
        assert not workdir.exists()
    finally:
        proc.kill()
        proc.wait()


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


def test_interpreter_exit_shuts_down(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        from sandlot.config import Config
        from sandlot.api import Sandlot
        from sandlot.manager import Manager
        manager = Manager(Sandlot(Config(provider="local")))
        print(manager.exec("echo $$").stdout.strip(), manager.workdir, flush=True)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    pid, workdir = out.stdout.split()
    time.sleep(0.2)
    assert not _alive(int(pid)) and not Path(workdir).exists()


def test_audit_log_file_has_no_secrets(make_local, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from sandlot.audit import AuditConfig
    from sandlot.policy import EnvironmentPolicy

    log_path = tmp_path / "audit" / "log.jsonl"
    config = Config(
        provider="local",
        policy=Policy(environment=EnvironmentPolicy(set={"API_TOKEN": "tok-3f9a8b7c"})),
        audit=AuditConfig(enabled=True, path=str(log_path)),
    )
    client = make_local(config=config)
    other = Manager(make_local(), handle_signals=False)  # audit not enabled: not in this file
    with Manager(client, handle_signals=False) as manager:
        assert manager.exec("echo $API_TOKEN").stdout == "tok-3f9a8b7c\n"
        manager.exec("curl -H 'Authorization: tok-3f9a8b7c' x; echo $PW", env={"PW": "hunter2-pass"})
        manager.exec("echo hunter2-pass")  # not a secret of this command: written as is
        manager.write_file("f.txt", "content-never-logged")
        other.exec("echo other-session")
    other.shutdown()
    text = log_path.read_text()
    assert oct(log_path.stat().st_mode & 0o777) == "0o600"
    assert "tok-3f9a8b7c" not in text and "content-never-logged" not in text
    events = [json.loads(line) for line in text.splitlines()]
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "create" and kinds[-1] == "destroy" and "file" in kinds
    execs = [e for e in events if e["kind"] == "exec"]
    assert execs[1]["command"] == "curl -H 'Authorization: [redacted]' x; echo $PW"
    assert execs[1]["env_names"] == ["PW"] and "hunter2" not in json.dumps(execs[1])
    assert {"exit_code", "duration", "violation", "command"} <= set(execs[0])
    assert all(e["session"] == manager.session for e in events)
    assert "other-session" not in text


def test_allow_always_with_an_unwritable_config_keeps_the_session_grant(  # type: ignore[no-untyped-def]
    make_local, tmp_path, detector, outside, audit
) -> None:
    path = user_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[approval]\nbogus = 1\n")  # sandlot refuses to touch an invalid file
    manager = manager_for(make_local(Approver(Decision.ALLOW_ALWAYS)), tmp_path, detector)
    try:
        assert manager.exec(f"needs-write {outside}/f").violation is None
        assert manager.grants == (Grant(GrantKind.WRITE, str(outside)),)
        event = [e for e in audit.events if e.kind.value == "approval"][-1]
        assert event.data["decision"] == "allow_always" and event.data["persisted_to"] is None
        assert "not saved" in event.data["problem"]
    finally:
        manager.shutdown()
    assert path.read_text() == "[approval]\nbogus = 1\n"


def test_file_operations_go_through_the_sandbox_api(make_local, tmp_path, detector) -> None:  # type: ignore[no-untyped-def]
    with manager_for(make_local(), tmp_path, detector) as manager:
        assert manager.sandbox is None
        manager.write_file("src/a.py", "x = 1\n")  # creates the sandbox
        assert manager.sandbox is not None
        assert manager.edit("src/a.py", "x = 1", "x = 2") == 1
        assert manager.read_text("src/a.py") == "x = 2\n"
        assert [i.name for i in manager.ls("src")] == ["a.py"]
        assert manager.glob("**/*.py") == [str(tmp_path / "session" / "src" / "a.py")]
        assert [m.line for m in manager.grep("x", path="src")] == [1]
        manager.delete("src", recursive=True)
        with pytest.raises(FileOperationError) as exc:
            manager.read_file("src/a.py")
        assert exc.value.code == "file_not_found"


def test_blocked_file_write_goes_to_the_approver(make_local, tmp_path, detector, outside, audit) -> None:  # type: ignore[no-untyped-def]
    approver = Approver(Decision.DENY, Decision.ALLOW_ONCE, Decision.ALLOW_SESSION)
    manager = manager_for(make_local(approver), tmp_path, detector)
    try:
        # Local file operations write only below read_write paths: outside is refused...
        with pytest.raises(FileOperationError) as denied:
            manager.write_file(f"{outside}/one.txt", "1")
        assert denied.value.code == "permission_denied" and denied.value.violation is not None
        assert not (outside / "one.txt").exists()
        request = approver.requests[0]
        assert request.command == f"write {outside}/one.txt" and request.grant == f"write access below {outside}"
        # ...allowed once (a temporary sandbox; the grant is dropped)...
        manager.write_file(f"{outside}/two.txt", "2")
        assert (outside / "two.txt").read_text() == "2" and manager.grants == ()
        # ...then for the session: later writes need no new question.
        manager.write_file(f"{outside}/three.txt", "3")
        manager.write_file(f"{outside}/four.txt", "4")
        assert manager.grants == (Grant(GrantKind.WRITE, str(outside)),)
        assert len(approver.requests) == 3
        files = [e.data for e in audit.events if e.kind.value == "file"]
        assert [(f["operation"], f["ok"]) for f in files] == [
            ("write", False),
            ("write", False),
            ("write", True),
            ("write", False),
            ("write", True),
            ("write", True),
        ]
        assert all("content" not in json.dumps(f) for f in files)
    finally:
        manager.shutdown()
