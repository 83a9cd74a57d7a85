"""Lifecycle, faults, stats and file transfer on a real engine."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from typing import Any

import pytest
from docker_kit import IMAGE, docker_config, sandlot_cli

from sandlot.api import Sandlot
from sandlot.errors import ProviderUnavailable, SandboxError, SandboxNotFound
from sandlot.files import FileErrorCode, TransferResult
from sandlot_docker.provider import DockerProvider, container_name, volume_name
from sandlot_docker.sandbox import DockerSandbox
from sandlot_docker.stats import ContainerStats


@pytest.fixture
def box(client: Sandlot) -> Iterator[DockerSandbox]:
    with client.create(labels={"suite": "lifecycle"}) as sandbox:
        assert isinstance(sandbox, DockerSandbox)
        yield sandbox


def _provider(client: Sandlot) -> DockerProvider:
    assert isinstance(client.provider, DockerProvider)
    return client.provider


# -- lifecycle -------------------------------------------------------------------------


def test_attach_from_another_process(client: Sandlot, box: DockerSandbox) -> None:
    box.exec("echo from-parent > shared.txt")
    script = textwrap.dedent(
        f"""
        from sandlot.api import Sandlot
        from sandlot.config import Config
        client = Sandlot(Config(provider="docker", providers={{"docker": {{"image": {IMAGE!r}}}}}))
        other = client.attach({box.id!r})
        print(other.exec("cat shared.txt; echo child > child.txt").stdout, end="")
        other.close()
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "from-parent\n"
    # Closing an attached handle leaves the sandbox to its creator.
    assert box.exec("cat child.txt").stdout == "child\n"


def test_list_carries_labels_and_ignores_foreign_containers(api: Any, client: Sandlot, box: DockerSandbox) -> None:
    foreign = api.create_container(IMAGE, entrypoint=["sleep", "infinity"], name="sandlot-foreign-x")
    try:
        infos = {info.id: info for info in _all(client)}
        assert infos[box.id].labels == {"suite": "lifecycle"}
        assert infos[box.id].status == "running" and infos[box.id].created_at <= time.time()
        assert "foreign-x" not in infos
        with pytest.raises(SandboxNotFound):
            client.attach("foreign-x")
        with pytest.raises(SandboxError, match="not created by sandlot"):
            client.delete("foreign-x")
        assert api.inspect_container(foreign["Id"])["Id"] == foreign["Id"]
    finally:
        api.remove_container(foreign["Id"], force=True)


def _all(client: Sandlot) -> list[Any]:
    items: list[Any] = []
    cursor = None
    while True:
        page = client.list(cursor=cursor, limit=2)
        items.extend(page.items)
        if page.next_cursor is None:
            return items
        cursor = page.next_cursor


def test_close_removes_container_and_volume(api: Any, client: Sandlot) -> None:
    box = client.create()
    assert isinstance(box, DockerSandbox)
    name = container_name(box.id)
    assert api.inspect_volume(volume_name(box.id))
    box.close()
    assert not api.containers(all=True, filters={"name": name})
    assert not api.volumes(filters={"name": volume_name(box.id)})["Volumes"]


def test_gc_removes_only_old_matching_sandboxes(client: Sandlot) -> None:
    provider = _provider(client)
    keep = client.create(labels={"gc-test": "keep"})
    old = client.create(labels={"gc-test": "old"})
    try:
        assert provider.gc(3600, labels={"gc-test": "old"}) == []
        assert provider.gc(0, labels={"gc-test": "old"}, dry_run=True) == [old.id]
        assert old.id in {i.id for i in _all(client)}
        done = sandlot_cli("docker", "gc", "--older-than", "0s", "--label", "gc-test=old")
        assert done.returncode == 0, done.stderr
        assert f"removed {old.id}" in done.stdout
        ids = {i.id for i in _all(client)}
        assert old.id not in ids and keep.id in ids
    finally:
        keep.close()
        old.close()


# -- faults ----------------------------------------------------------------------------


def test_engine_unreachable_names_the_socket(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    sock = tmp_path / "no-engine.sock"
    monkeypatch.setenv("DOCKER_HOST", f"unix://{sock}")
    with pytest.raises(ProviderUnavailable) as caught:
        Sandlot(docker_config())
    assert str(sock) in str(caught.value) and "dockerd" in str(caught.value)
    monkeypatch.delenv("DOCKER_HOST")


def test_engine_unreachable_through_the_option(api: Any, tmp_path: Any) -> None:
    # The configured address is checked by the availability check, before anything is created.
    sock = tmp_path / "gone.sock"
    with pytest.raises(ProviderUnavailable, match=str(sock)):
        Sandlot(docker_config(docker_host=f"unix://{sock}"))


def test_missing_image_names_the_build_command(api: Any) -> None:
    client = Sandlot(docker_config(image="sandlot-no-such-image:1"))
    with pytest.raises(SandboxError) as caught:
        client.create()
    message = str(caught.value)
    assert "sandlot-no-such-image:1" in message
    assert "sandlot docker build-image --tag sandlot-no-such-image:1" in message


def test_unknown_runtime_fails_clearly_and_leaves_nothing(api: Any) -> None:
    client = Sandlot(docker_config(runtime="sandlot-no-such-runtime"))
    before = {c["Id"] for c in api.containers(all=True)}
    with pytest.raises(SandboxError, match="sandlot-no-such-runtime"):
        client.create()
    assert {c["Id"] for c in api.containers(all=True)} == before


@pytest.mark.parametrize("how", ["kill", "remove"])
def test_container_lost_from_outside_fails_clearly(api: Any, client: Sandlot, how: str) -> None:
    box = client.create()
    assert isinstance(box, DockerSandbox)
    try:
        if how == "kill":
            api.kill(box.container_id)
        else:
            api.remove_container(box.container_id, force=True)
        started = time.monotonic()
        with pytest.raises(SandboxError, match=r"stopped|removed") as caught:
            for _ in range(2):  # the first may report the lost shell; the next must fail
                box.exec("echo hi", timeout=10)
        assert time.monotonic() - started < 20
        assert box.id in str(caught.value) and "recreate" in str(caught.value)
    finally:
        box.close()


def test_container_lost_from_outside_is_recreated_when_configured(api: Any) -> None:
    client = Sandlot(docker_config(on_container_lost="recreate"))
    box = client.create()
    assert isinstance(box, DockerSandbox)
    try:
        box.exec("echo before > f")
        first = box.container_id
        api.remove_container(first, force=True)
        result = box.exec("echo again; cat f 2>/dev/null || echo no-f", timeout=30)
        if result.state_lost_after:
            result = box.exec("echo again; cat f 2>/dev/null || echo no-f", timeout=30)
        assert result.stdout == "again\nno-f\n" and result.state_lost_before
        assert box.container_id != first
    finally:
        box.close()
    assert not api.containers(all=True, filters={"name": container_name(box.id)})


# -- stats and files -------------------------------------------------------------------


def test_stats(box: DockerSandbox) -> None:
    box.exec("(while :; do :; done) >/dev/null 2>&1 &")
    stats = box.stats()
    assert isinstance(stats, ContainerStats)
    assert stats.cpu_percent > 20
    assert 0 < stats.memory_used_bytes < stats.memory_limit_bytes == 1024 * 1024 * 1024
    assert stats.pids >= 3 and stats.pids_limit == 256
    assert stats.network_rx_bytes == 0 and stats.network_tx_bytes == 0


def _contents(results: list[TransferResult]) -> dict[str, bytes | None]:
    return {r.path: r.content for r in results}


def test_upload_download_roundtrip(box: DockerSandbox) -> None:
    blob = os.urandom(3 * 1024 * 1024)
    results = box.upload({"deep/er/blob.bin": blob, "notes.txt": "héllo\n".encode(), "/workspace/abs.txt": b"abs"})
    assert all(r.ok for r in results), results
    assert box.exec("sha256sum deep/er/blob.bin | cut -c1-16").stdout.strip() == hashlib.sha256(blob).hexdigest()[:16]
    assert box.exec("stat -c %u deep/er/blob.bin").stdout.strip() == "1000"
    got = box.download(["deep/er/blob.bin", "notes.txt", "/workspace/abs.txt", "missing.txt", "deep"])
    expected = {"deep/er/blob.bin": blob, "notes.txt": "héllo\n".encode(), "/workspace/abs.txt": b"abs"}
    assert _contents(got[:3]) == expected
    assert [r.error for r in got[3:]] == [FileErrorCode.FILE_NOT_FOUND, FileErrorCode.IS_DIRECTORY]
    [refused] = box.upload({"/etc/passwd": b"x"})
    assert refused.error == FileErrorCode.PERMISSION_DENIED and refused.violation is not None


def test_batches_report_per_file_and_never_replace_a_directory(box: DockerSandbox) -> None:
    odd_name = "dir with space/-n $(touch pwned) `id`.txt"
    box.upload({odd_name: b"\x00\xffodd\n"})
    assert box.read_bytes(odd_name) == b"\x00\xffodd\n"
    assert box.exec("ls pwned 2>/dev/null || echo absent").stdout == "absent\n"
    many = {f"many/f{i}.txt": f"{i}".encode() for i in range(6)} | {"/tmp/t.txt": b"tmp"}
    bad = {"/etc/cron.d/x": b"x", "many": b"a directory", "/workspace/.env": b"SECRET=1"}
    results = box.upload(many | bad)
    assert [r.path for r in results] == list(many | bad)
    assert all(r.ok for r in results[: len(many)]), results
    assert [r.error for r in results[len(many) :]] == [
        FileErrorCode.PERMISSION_DENIED,
        FileErrorCode.IS_DIRECTORY,
        FileErrorCode.PERMISSION_DENIED,
    ]
    assert _contents(box.download(list(many))) == many
    assert box.exec("stat -c %u many/f0.txt").stdout.strip() == "1000"


def test_violation_context_for_attached_sandbox(client: Sandlot, box: DockerSandbox) -> None:
    other = client.attach(box.id)
    try:
        result = other.exec("touch /etc/x")
        assert result.violation is not None and result.violation.resource == "/etc/x"
        assert json.dumps(result.violation.reason)
    finally:
        other.close()


def test_missing_shell_fails_clearly_and_leaves_nothing(api: Any) -> None:
    client = Sandlot(docker_config(shell="/bin/no-such-shell"))
    with pytest.raises(SandboxError, match="/bin/no-such-shell"):
        client.create(sandbox_id="missing-shell-test")
    assert not api.containers(all=True, filters={"name": container_name("missing-shell-test")})
    assert not api.volumes(filters={"name": volume_name("missing-shell-test")})["Volumes"]
