"""Policy translation: the argv, the seccomp program, masks, limits, explain, fail-closed cases."""

from __future__ import annotations

import os
import socket
import struct
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from sandlot.errors import ConfigError, PolicyNotEnforceable
from sandlot.plugins import create_plugin_manager
from sandlot.policy import FilesystemPolicy, Limits, NetworkMode, NetworkPolicy, Policy, resolve_filesystem
from sandlot.provider import SandboxSpec, TranslateContext, translate_policy
from sandlot_bwrap import seccomp
from sandlot_bwrap.options import BwrapOptions
from sandlot_bwrap.translate import BwrapPolicy, translate

sys.path.insert(0, str(Path(__file__).parent))

from bwrap_kit import make_client


def native(policy: Policy, workdir: Path, home: Path, *, host_uid: int = 1000, **options: Any) -> BwrapPolicy:
    effective = policy.effective()
    fs = resolve_filesystem(effective.filesystem, workdir=workdir, home=str(home))
    context = TranslateContext(workdir=workdir, filesystem=fs, environment={"PATH": "/usr/bin:/bin"})
    return translate(effective, BwrapOptions(home=str(home), **options), context, host_uid=host_uid)


def option_values(args: tuple[str, ...], flag: str, count: int = 1) -> list[tuple[str, ...]]:
    return [tuple(args[i + 1 : i + 1 + count]) for i, a in enumerate(args) if a == flag]


def test_hardening_flags(workdir: Path, home: Path) -> None:
    args = native(Policy(), workdir, home).args
    cut = args.index("--")
    head = args[:cut]
    for flag in (
        "--unshare-user",
        "--disable-userns",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup",
        "--unshare-net",
        "--die-with-parent",
        "--new-session",
        "--clearenv",
    ):
        assert flag in head, flag
    assert option_values(head, "--cap-drop") == [("ALL",)]
    assert option_values(head, "--uid") == [("1000",)] and option_values(head, "--gid") == [("1000",)]
    assert ("/", "/") in option_values(head, "--ro-bind", 2)
    assert option_values(head, "--proc") == [("/proc",)] and option_values(head, "--dev") == [("/dev",)]
    assert ("/tmp",) in option_values(head, "--tmpfs")


def test_binds_and_masks(workdir: Path, home: Path) -> None:
    pol = native(Policy(filesystem=FilesystemPolicy(read_write=(".",), read_only=("./.git",))), workdir, home)
    head = pol.args[: pol.args.index("--")]
    binds = option_values(head, "--bind", 2)
    ro = option_values(head, "--ro-bind", 2)
    assert (str(workdir), str(workdir)) in binds
    assert (str(workdir / ".git"), str(workdir / ".git")) in ro
    assert head.index("--bind") < head.index(str(workdir / ".git"))  # read_only after: it wins
    masked = {m.path for m in pol.filesystem.masks}
    assert {home / ".ssh", home / ".aws", workdir / ".env", workdir / "proj" / ".env"} <= masked
    assert Path("/etc/shadow") in masked
    # .git/hooks is below the read-only .git: no separate bind needed, and no rw bind for it
    assert not any(dest == str(workdir / ".git" / "hooks") for _, dest in binds)


def test_read_only_wins_over_nested_read_write(workdir: Path, home: Path) -> None:
    (workdir / "src").mkdir(exist_ok=True)
    pol = native(Policy(filesystem=FilesystemPolicy(read_write=(".", "./src"), read_only=(".",))), workdir, home)
    binds = option_values(pol.args, "--bind", 2)
    assert binds == []


def test_network_all_shares_the_network(workdir: Path, home: Path) -> None:
    pol = native(Policy(network=NetworkPolicy(mode=NetworkMode.ALL)), workdir, home)
    assert "--unshare-net" not in pol.args


def test_allowlist_fails_closed(workdir: Path, home: Path) -> None:
    with pytest.raises(PolicyNotEnforceable):
        native(Policy(network=NetworkPolicy(mode=NetworkMode.ALLOWLIST, allow_hosts=("pypi.org",))), workdir, home)


def test_limits_unprivileged_host_use_rlimits_and_nproc_wrapper(workdir: Path, home: Path) -> None:
    import resource

    limits = Limits(memory_mb=256, cpu_seconds=5, processes=10, file_size_mb=2, open_files=64)
    pol = native(Policy(limits=limits), workdir, home, host_uid=1000)
    assert pol.rlimits[resource.RLIMIT_AS] == (256 * 2**20, 256 * 2**20)
    assert pol.rlimits[resource.RLIMIT_CPU] == (5, 6)
    assert pol.rlimits[resource.RLIMIT_FSIZE] == (2 * 2**20, 2 * 2**20)
    assert pol.rlimits[resource.RLIMIT_NOFILE] == (64, 64)
    assert pol.rlimits[resource.RLIMIT_CORE] == (0, 0)
    assert pol.nproc == 13 and pol.pids_max is None
    tail = pol.args[pol.args.index("--") + 1 :]
    assert tail[:4] == ("/bin/bash", "--noprofile", "--norc", "-c") and "13" in tail
    root = native(Policy(limits=limits), workdir, home, host_uid=0)
    assert root.nproc is None and root.pids_max == 13
    assert root.memory_max == 256 * 2**20 and pol.memory_max is None


def test_explain_and_to_data(workdir: Path, home: Path) -> None:
    pol = native(Policy(limits=Limits(memory_mb=128)), workdir, home)
    text = pol.explain()
    assert "--unshare-user" in text and "--cap-drop ALL" in text
    assert "socket(domain)" in text and "RLIMIT_AS" in text and str(home / ".ssh") in text
    data = pol.to_data()
    assert data["argv"][0] == "bwrap" and data["network"] == "none"
    assert any(m["path"] == str(home / ".ssh") and m["dir"] for m in data["masks"])
    argv = pol.argv(seccomp_fd=7, status_fd=9)
    assert argv[argv.index("--seccomp") + 1] == "7" and argv[argv.index("--json-status-fd") + 1] == "9"


def test_translate_hook_answers_only_for_bwrap(workdir: Path, home: Path) -> None:
    pm = create_plugin_manager()
    fs = resolve_filesystem(Policy().filesystem, workdir=workdir, home=str(home))
    ctx = TranslateContext(workdir=workdir, filesystem=fs, environment={})
    assert isinstance(translate_policy(pm, "bwrap", Policy(), BwrapOptions(), ctx), BwrapPolicy)
    assert pm.hook.sandlot_translate_policy(provider="other", policy=Policy(), options=None, context=ctx) is None


def test_provider_explain_via_client(home: Path, workdir: Path) -> None:
    client = make_client(home)
    text = client.provider.explain(client.spec(workdir=workdir)).explain()
    assert "bwrap argv" in text and str(workdir / ".env") in text


def test_options_reject_uid_zero_and_bad_values() -> None:
    with pytest.raises(ValueError):
        BwrapOptions(uid=0)
    with pytest.raises(ValueError):
        BwrapOptions(gid=0)
    with pytest.raises(ConfigError):
        from sandlot.api import Sandlot
        from sandlot.config import Config

        Sandlot(Config(provider="bwrap", providers={"bwrap": {"uid": "1000"}}))


def test_quarantine_inside_writable_path_is_refused(bwrap_ok: None, home: Path, workdir: Path) -> None:
    client = make_client(home, quarantine=workdir / "q")
    with pytest.raises(ConfigError):
        client.create(workdir=workdir)


# ----------------------------------------------------------------------------- seccomp


def _run_bpf(code: bytes, nr: int, arch: int, args: tuple[int, ...] = (0,) * 6) -> int:
    """A tiny classic-BPF interpreter for the opcodes the generator emits."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, *args)
    insns = [struct.unpack("=HBBI", code[i : i + 8]) for i in range(0, len(code), 8)]
    pc, acc = 0, 0
    while True:
        op, jt, jf, k = insns[pc]
        if op == 0x20:
            acc = int(struct.unpack_from("=I", data, k)[0])
            pc += 1
        elif op == 0x15:
            pc += 1 + (jt if acc == k else jf)
        elif op == 0x35:
            pc += 1 + (jt if acc >= k else jf)
        elif op == 0x06:
            return int(k)
        else:
            raise AssertionError(f"unexpected opcode {op:#x}")


def test_seccomp_program_semantics() -> None:
    arch = seccomp.ARCHES["x86_64"]
    prog = seccomp.build(allow_unix=False, arch=arch)
    nr = arch.syscalls

    def run(n: int, *a: int) -> int:
        return _run_bpf(prog.code, n, arch.audit_arch, tuple(a) + (0,) * (6 - len(a)))

    assert run(nr["socket"], socket.AF_UNIX) == seccomp.RET_ERRNO | 97
    assert run(nr["socket"], socket.AF_VSOCK) == seccomp.RET_ERRNO | 97
    assert run(nr["socket"], socket.AF_INET) == seccomp.RET_ALLOW
    assert run(nr["socket"], socket.AF_INET6) == seccomp.RET_ALLOW
    assert run(nr["socket"], (1 << 32) | socket.AF_INET) == seccomp.RET_ALLOW  # kernel truncates to int
    assert run(nr["ioctl"], 1, seccomp.TIOCSTI) == seccomp.RET_ERRNO | 1
    assert run(nr["ioctl"], 1, (1 << 32) | seccomp.TIOCSTI) == seccomp.RET_ERRNO | 1
    assert run(nr["ioctl"], 1, 0x5413) == seccomp.RET_ALLOW
    assert run(nr["io_uring_setup"]) == seccomp.RET_ERRNO | 38
    assert run(0x40000000 | nr["socket"], socket.AF_UNIX) == seccomp.RET_KILL_PROCESS
    assert _run_bpf(prog.code, 102, 0x40000003) == seccomp.RET_KILL_PROCESS  # i386 socketcall
    assert run(0) == seccomp.RET_ALLOW
    allowed = seccomp.build(allow_unix=True, arch=arch)
    assert _run_bpf(allowed.code, nr["socket"], arch.audit_arch, (socket.AF_UNIX, 0, 0, 0, 0, 0)) == seccomp.RET_ALLOW


def test_unsupported_arch_fails_closed(monkeypatch: pytest.MonkeyPatch, workdir: Path, home: Path) -> None:
    monkeypatch.setattr("platform.machine", lambda: "s390x")
    with pytest.raises(PolicyNotEnforceable):
        native(Policy(), workdir, home)


def test_sandbox_spec_default_is_effective() -> None:
    assert "~/.ssh" in SandboxSpec().policy.filesystem.deny
    assert attrs.has(BwrapOptions) and os.sep == "/"
