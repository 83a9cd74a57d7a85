"""Filesystem and network policy: translation (no engine needed) and enforcement on a real container."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import attrs
import pytest
from docker_kit import IMAGE, SANDBOX_UID, docker_config, sandlot_cli

from sandlot.api import Sandlot
from sandlot.errors import PolicyNotEnforceable
from sandlot.plugins import get_plugin_manager
from sandlot.policy import FilesystemPolicy, NetworkMode, NetworkPolicy, Policy, resolve_filesystem
from sandlot.provider import translate_policy
from sandlot.results import ViolationKind
from sandlot_docker.options import DockerOptions
from sandlot_docker.provider import ensure_masks
from sandlot_docker.sandbox import DockerSandbox
from sandlot_docker.translate import DockerNativePolicy, DockerTranslateContext


def _translate(policy: Policy, workdir: Path, **options: Any) -> DockerNativePolicy:
    effective = policy.effective()
    mask_dir, mask_file = ensure_masks()
    ctx = DockerTranslateContext(
        workdir=workdir,
        filesystem=resolve_filesystem(effective.filesystem, workdir=workdir),
        environment=effective.environment.build(),
        sandbox_id="t1",
        user=f"{SANDBOX_UID}:{SANDBOX_UID}",
        mask_dir=mask_dir,
        mask_file=mask_file,
    )
    native = translate_policy(get_plugin_manager(), "docker", effective, DockerOptions(**options), ctx)
    assert isinstance(native, DockerNativePolicy)
    return native


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project that is also $HOME, with secrets and persistence targets in it."""
    root = tmp_path / "home"
    (root / ".ssh").mkdir(parents=True)
    (root / ".ssh" / "id_rsa").write_text("PRIVATE KEY\n")
    (root / ".env").write_text("TOKEN=hunter2\n")
    (root / ".bashrc").write_text("# rc\n")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("print('hi')\n")
    (root / ".git" / "hooks").mkdir(parents=True)
    for dirpath, _, files in os.walk(root):
        os.chown(dirpath, SANDBOX_UID, SANDBOX_UID)
        for name in files:
            os.chown(os.path.join(dirpath, name), SANDBOX_UID, SANDBOX_UID)
    monkeypatch.setenv("HOME", str(root))
    return root


# -- translation (pure) ----------------------------------------------------------------


def test_translation_mounts_masks_and_skips(project: Path) -> None:
    native = _translate(Policy(), project)
    mounts = {m["Target"]: m for m in native.host_config["Mounts"]}
    assert mounts[str(project)]["ReadOnly"] is False
    assert mounts[str(project / ".git" / "hooks")]["ReadOnly"] is True
    assert mounts[str(project / ".bashrc")]["ReadOnly"] is True
    for secret in (project / ".ssh", project / ".env"):
        assert secret.as_posix() in native.masked
        assert mounts[str(secret)]["ReadOnly"] is True
        assert mounts[str(secret)]["Source"] != str(secret)  # the stand-in, never the secret
    assert all(m["Source"] not in (str(project / ".ssh"), str(project / ".env")) for m in mounts.values())
    data = native.to_data()
    json.dumps(data)
    assert data["docker_argv"][:2] == ["docker", "create"]
    text = native.explain()
    assert "cap-drop ALL" in text and "mask " + str(project / ".env") in text


def test_read_write_inside_deny_is_refused(project: Path) -> None:
    policy = Policy(filesystem=FilesystemPolicy(read_write=[".", "~/.ssh"]))
    with pytest.raises(PolicyNotEnforceable, match=r"inside the denied path .*\.ssh"):
        _translate(policy, project)


@pytest.mark.parametrize("path", ["/", "/proc/1", "/var/run", "/run"])
def test_unmountable_paths_are_refused(project: Path, path: str) -> None:
    with pytest.raises(PolicyNotEnforceable):
        _translate(Policy(filesystem=FilesystemPolicy(read_write=[".", path])), project)


def test_docker_socket_is_never_mounted(tmp_path: Path) -> None:
    sock = Path("/var/run/docker.sock")
    if not sock.exists():
        pytest.skip("no docker socket on this machine to try to mount")
    with pytest.raises(PolicyNotEnforceable, match="Docker engine socket"):
        _translate(Policy(filesystem=FilesystemPolicy(read_write=[".", str(sock)])), tmp_path)


def test_network_all_needs_a_named_network(tmp_path: Path) -> None:
    policy = Policy(network=NetworkPolicy(mode=NetworkMode.ALL))
    with pytest.raises(PolicyNotEnforceable, match=r"providers\.docker\.network"):
        _translate(policy, tmp_path)
    with pytest.raises(PolicyNotEnforceable, match="share another network namespace"):
        _translate(policy, tmp_path, network="host")
    assert _translate(policy, tmp_path, network="sandlot-net").host_config["NetworkMode"] == "sandlot-net"


def test_limits_translate(tmp_path: Path) -> None:
    policy = Policy()
    policy = attrs.evolve(
        policy,
        limits=attrs.evolve(policy.limits, memory_mb=64, processes=32, cpu_seconds=5, file_size_mb=1, open_files=50),
    )
    host = _translate(policy, tmp_path, cpus=0.5, runtime="runsc").host_config
    assert host["Memory"] == host["MemorySwap"] == 64 * 1024 * 1024
    assert host["PidsLimit"] == 32 and host["NanoCpus"] == 500_000_000 and host["Runtime"] == "runsc"
    ulimits = {u["Name"]: u["Soft"] for u in host["Ulimits"]}
    assert ulimits == {"cpu": 5, "fsize": 1024 * 1024, "nofile": 50}


def test_read_only_wins_over_read_write(project: Path) -> None:
    policy = Policy(filesystem=FilesystemPolicy(read_write=[".", "./src"], read_only=["./src"]))
    mounts = {m["Target"]: m for m in _translate(policy, project).host_config["Mounts"]}
    assert mounts[str(project / "src")]["ReadOnly"] is True


# -- enforcement on the engine ---------------------------------------------------------


@pytest.fixture
def project_box(api: Any, project: Path) -> Any:
    client = Sandlot(docker_config())
    with client.create(workdir=project) as box:
        yield box


def test_workdir_is_bound_at_the_same_path(project_box: DockerSandbox, project: Path) -> None:
    assert project_box.exec("pwd").stdout.strip() == str(project)
    assert project_box.exec("cat src/app.py").stdout == "print('hi')\n"
    assert project_box.exec("echo new > src/new.txt").ok
    assert (project / "src" / "new.txt").read_text() == "new\n"


def test_secrets_are_not_readable(project_box: DockerSandbox, project: Path) -> None:
    for rel in (".ssh/id_rsa", ".env"):
        result = project_box.exec(f"cat {rel}")
        assert result.exit_code != 0 and "PRIVATE" not in result.stdout and "hunter2" not in result.stdout
        assert result.violation is not None and result.violation.kind is ViolationKind.FILESYSTEM
        assert result.violation.resource.startswith(str(project / rel.split("/")[0]))
        assert "deny" in result.violation.reason
    grep = project_box.exec("grep -r hunter2 . ; grep -r PRIVATE . ; true")
    assert "hunter2" not in grep.stdout and "PRIVATE" not in grep.stdout
    # Writing a secret's place fails too, and the host file is untouched.
    assert project_box.exec("echo x > .env").exit_code != 0
    assert (project / ".env").read_text() == "TOKEN=hunter2\n"


def test_read_only_paths_and_outside_mounts(project_box: DockerSandbox, project: Path) -> None:
    result = project_box.exec("echo evil >> .bashrc")
    assert result.exit_code != 0
    assert result.violation is not None and result.violation.resource == str(project / ".bashrc")
    assert "read_only" in result.violation.reason
    assert (project / ".bashrc").read_text() == "# rc\n"
    result = project_box.exec("touch .git/hooks/pre-commit")
    assert result.violation is not None and result.violation.resource == str(project / ".git/hooks/pre-commit")
    result = project_box.exec("mkdir /opt/x")
    assert result.violation is not None and result.violation.kind is ViolationKind.FILESYSTEM
    assert result.violation.resource == "/opt/x"
    result = project_box.exec("python3 -c \"open('/usr/lib/x', 'w')\"")
    assert result.violation is not None and result.violation.resource == "/usr/lib/x"


def test_host_paths_outside_the_policy_are_invisible(project_box: DockerSandbox, project: Path) -> None:
    outside = project.parent / "outside.txt"
    outside.write_text("host only\n")
    result = project_box.exec(f"cat {outside}; ls /root; cat /etc/shadow")
    assert "host only" not in result.stdout
    assert project_box.exec("cat /work/main/README.md").exit_code != 0


def test_file_transfer_respects_the_policy(project_box: DockerSandbox, project: Path) -> None:
    from sandlot.files import FileErrorCode

    [written] = project_box.upload({"out/data.bin": bytes(range(256)) * 10})
    assert written.ok and (project / "out" / "data.bin").read_bytes() == bytes(range(256)) * 10
    [read] = project_box.download(["src/app.py"])
    assert read.content == b"print('hi')\n"
    [secret] = project_box.download([".env"])
    assert secret.error == FileErrorCode.PERMISSION_DENIED and "denied" in secret.message
    assert secret.violation is not None and secret.violation.kind == "filesystem"
    keys, cron = project_box.upload({".ssh/authorized_keys": b"ssh-rsa AAA", "/etc/cron.d/x": b"* * * * * root sh"})
    assert keys.error == FileErrorCode.PERMISSION_DENIED and "denied" in keys.message
    assert cron.error == FileErrorCode.PERMISSION_DENIED
    assert not (project / ".ssh" / "authorized_keys").exists()


def test_explain_cli_prints_the_create_arguments(api: Any, project: Path, tmp_path: Path) -> None:
    config = tmp_path / "sandlot.toml"
    config.write_text(f'provider = "docker"\n[providers.docker]\nimage = "{IMAGE}"\n')
    done = sandlot_cli("policy", "explain", "--provider", "docker", "--config", str(config), "--workdir", str(project))
    assert done.returncode == 0, done.stderr
    assert "docker create" in done.stdout and "--cap-drop ALL" in done.stdout
    assert f"mask {project}/.env" in done.stdout
    as_json = sandlot_cli("policy", "explain", "--provider", "docker", "--config", str(config), "--json")
    assert json.loads(as_json.stdout)["config"]["HostConfig"]["CapDrop"] == ["ALL"]


def test_a_custom_engine_socket_is_never_mounted(tmp_path: Path) -> None:
    sockdir = tmp_path / "engine"
    sockdir.mkdir()
    policy = Policy(filesystem=FilesystemPolicy(read_write=[".", str(sockdir)]))
    with pytest.raises(PolicyNotEnforceable, match="engine socket"):
        _translate(policy, tmp_path, docker_host=f"unix://{sockdir}/docker.sock")


def test_mounts_are_refused_fail_closed(api: Any, tmp_path: Path) -> None:
    from sandlot.files import Mount

    config = attrs.evolve(docker_config(), mounts=(Mount("/workspace", str(tmp_path)),))
    with pytest.raises(PolicyNotEnforceable, match="cannot show host directories at virtual paths"):
        Sandlot(config).create()
