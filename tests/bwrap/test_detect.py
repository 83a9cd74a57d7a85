"""Violation detection: no false positives on ordinary failures; set-up vs command failures; availability."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

from sandlot.errors import ProviderUnavailable, SandboxError
from sandlot.policy import Limits, NetworkMode, NetworkPolicy, Policy, resolve_filesystem
from sandlot.provider import TranslateContext
from sandlot.results import ExecResult
from sandlot.violations import ViolationContext
from sandlot_bwrap import availability, detect
from sandlot_bwrap.options import BwrapOptions
from sandlot_bwrap.provider import BwrapShellProcess
from sandlot_bwrap.translate import translate

sys.path.insert(0, str(Path(__file__).parent))

from bwrap_kit import make_client

ORDINARY_FAILURES = [
    "false",
    "exit 3",
    "cat missing-file.txt",
    "ls /nonexistent-dir",
    "cd /nonexistent-dir",
    "grep -r needle-not-there src.py",
    "python3 -c 'raise SystemExit(2)'",
    "python3 -c 'import no_such_module'",
    "python3 -c 'open(\"missing.json\")'",
    "python3 -c 'def f(:'",
    "sh -c 'echo broken >&2; exit 1'",
    "test -f nothing",
    "rm missing-file",
    "mkdir src.py",
    "echo data > dir-that-does-not-exist/x",
    "cp missing a",
    "git status",
    "sleep 0.1; exit 1",
    "touch ro && chmod 444 ro && echo x > ro",
    "kill %1",
    "diff <(echo a) <(echo b)",
    "head -c 10 /etc/passwd > /dev/null; false",
    # The sandbox's own loopback service not running (no host listener on the port either).
    "curl -sS -m 3 http://127.0.0.1:9/",
    "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", 9))'",
]


@pytest.mark.parametrize("command", ORDINARY_FAILURES)
def test_no_false_positives_on_ordinary_failing_commands(bwrap_ok: None, sandbox: Any, command: str) -> None:
    result = sandbox.exec(command, timeout=20)
    assert result.violation is None, f"{command!r}: {result.violation} / {result.output}"


def test_no_false_positives_with_network_all_and_limits(bwrap_ok: None, client: Any, workdir: Path) -> None:
    policy = Policy(network=NetworkPolicy(mode=NetworkMode.ALL), limits=Limits(timeout=20, memory_mb=1024))
    with client.create(workdir=workdir, policy=policy) as box:
        for command in ("curl -sS -m 3 http://127.0.0.1:1/", "false", "cat nope"):
            result = box.exec(command)
            assert result.exit_code != 0 and result.violation is None, (command, result.violation)


def _context(policy: Policy, workdir: Path, home: Path, command: str = "") -> ViolationContext:
    eff = policy.effective()
    fs = resolve_filesystem(eff.filesystem, workdir=workdir, home=str(home))
    return ViolationContext(
        provider="bwrap",
        command=command,
        policy=eff,
        filesystem=fs,
        extra={"read_write": fs.read_write, "masks": (), "private_dirs": (Path("/tmp"),), "workdir": workdir},
    )


def test_detector_classifies_messages(workdir: Path, home: Path) -> None:
    ctx = _context(Policy(limits=Limits(memory_mb=100)), workdir, home)

    def kind(stderr: str, code: int = 1, c: ViolationContext = ctx) -> str | None:
        v = detect.detect(ExecResult(exit_code=code, stderr_bytes=stderr.encode()), c)
        return None if v is None else f"{v.kind.value}:{v.resource}"

    assert kind(f"cat: {home}/.ssh/id_rsa: Permission denied") == f"filesystem:{home}/.ssh/id_rsa"
    assert kind("touch: cannot touch '/usr/x': Read-only file system") == "filesystem:/usr/x"
    assert kind(f"cat: {workdir}/missing: No such file or directory") is None
    assert kind("cat: /etc/hostname-missing: No such file or directory") is None
    # a temporary folder's random name (`…-test-p6jjutiu`) is not `-p 6`: pid 1's children exist on every host
    assert kind("cat: /var/tmp/sandlot-test-p6jjutiu/work/missing: No such file or directory") is None
    assert kind("MemoryError") == "resource:memory"
    assert kind("curl: (6) Could not resolve host: pypi.org") == "network:pypi.org"
    all_net = _context(Policy(network=NetworkPolicy(mode=NetworkMode.ALL)), workdir, home)
    assert kind("curl: (6) Could not resolve host: pypi.org", c=all_net) is None
    no_limits = _context(Policy(), workdir, home)
    assert kind("MemoryError", c=no_limits) is None
    assert kind("bash: fork: retry: Resource temporarily unavailable", c=no_limits) is None


def test_availability_reports_missing_bwrap_and_disabled_userns(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = availability.check("bwrap-does-not-exist")
    assert not missing.ok and "apt-get install bubblewrap" in missing.fix
    monkeypatch.setattr(availability, "_read", lambda path: "0" if path.endswith("max_user_namespaces") else None)
    disabled = availability.check()
    if not os.path.exists("/usr/bin/bwrap") and not disabled.ok and "not found" in disabled.reason:
        pytest.skip("bwrap not installed")
    assert not disabled.ok and "user namespaces" in disabled.reason and "sysctl" in disabled.fix


def test_unavailable_provider_fails_closed(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    from sandlot.api import Sandlot
    from sandlot.config import Config

    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ProviderUnavailable, match="bubblewrap"):
        Sandlot(Config(provider="bwrap"))


def test_setup_failure_is_told_apart_from_command_failure(bwrap_ok: None, workdir: Path, home: Path) -> None:
    policy = Policy().effective()
    fs = resolve_filesystem(policy.filesystem, workdir=workdir, home=str(home))
    ctx = TranslateContext(workdir=workdir, filesystem=fs, environment={})
    good = translate(policy, BwrapOptions(home=str(home)), ctx)
    import attrs

    broken = attrs.evolve(good, args=("--bind", "/nonexistent-source-dir", "/mnt", *good.args))
    proc = BwrapShellProcess(broken, preexec=None)
    assert proc.exit_status(10) not in (None, 0)
    assert proc.setup_failed()
    proc.kill()
    ok = BwrapShellProcess(good, preexec=None)
    ok.write(b"handshake\n")  # the driver echoes it once the shell runs
    event = None
    for _ in range(100):
        event = ok.next_event(0.1)
        if event is not None:
            break
    assert event is not None and event[1]
    ok.write(b"m1\n1\nexit 7\n0\n-1\n")  # marker, 1-line command, no cwd/env, no stdin
    assert ok.exit_status(10) == 7
    assert not ok.setup_failed() and ok.status["exit-code"] == 7
    ok.kill()


def test_creation_error_names_setup_failure(bwrap_ok: None, home: Path, workdir: Path) -> None:
    client = make_client(home, shell="/nonexistent/shell")
    with pytest.raises(SandboxError, match="set"):
        client.create(workdir=workdir)


def test_transient_setup_failure_is_retried(bwrap_ok: None, home: Path, workdir: Path, base: Path) -> None:
    """bwrap's recursive bind of / fails now and then while Docker adds and removes mounts."""
    counter = base / "count"
    script = base / "flaky-bwrap"
    script.write_text(
        "#!/bin/sh\n"
        f"n=$(cat '{counter}' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '{counter}'\n"
        'if [ "$n" = 2 ]; then\n'
        '  echo "bwrap: Can\'t bind mount /oldroot/ on /newroot/: Invalid argument" >&2; exit 1\n'
        "fi\n"
        'exec bwrap "$@"\n'
    )
    script.chmod(0o755)
    with make_client(home, bwrap=str(script)).create(workdir=workdir) as box:
        assert box.exec("echo up").stdout == "up\n"
    assert int(counter.read_text()) >= 3  # probe, the failed start, the retried start
