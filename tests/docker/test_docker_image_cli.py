"""The image builder's pieces and the `sandlot docker` commands."""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any

import pytest
from docker_kit import sandlot_cli

from sandlot_docker.cli import parse_duration
from sandlot_docker.image import IMAGE_LABEL, SANDBOX_UID, _add_user, build_hint, import_tar


def test_add_user_edits_the_rootfs_files(tmp_path: Path) -> None:
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (tmp_path / "etc" / "group").write_text("root:x:0:\n")
    _add_user(tmp_path)
    assert f"sandlot:x:{SANDBOX_UID}:{SANDBOX_UID}:" in (tmp_path / "etc" / "passwd").read_text()
    assert (tmp_path / "etc" / "group").read_text().endswith(f"sandlot:x:{SANDBOX_UID}:\n")
    assert (tmp_path / "home" / "sandlot").stat().st_uid == SANDBOX_UID


def test_import_tar_tags_and_labels_the_image(api: Any, tmp_path: Path) -> None:
    (tmp_path / "root" / "etc").mkdir(parents=True)
    (tmp_path / "root" / "etc" / "hostname").write_text("x\n")
    tarball = tmp_path / "rootfs.tar"
    with tarfile.open(tarball, "w") as tar:
        tar.add(tmp_path / "root", arcname=".")
    tag = "sandlot-import-test:1"
    try:
        image_id = import_tar(api, tarball, tag)
        info = api.inspect_image(tag)
        assert info["Id"] == image_id
        assert info["Config"]["Labels"][IMAGE_LABEL] == "1"
    finally:
        api.remove_image(tag, force=True)


def test_docker_commands_are_registered() -> None:
    done = sandlot_cli("docker", "--help")
    assert done.returncode == 0, done.stderr
    assert "build-image" in done.stdout and "gc" in done.stdout
    assert build_hint("a:b") == "sandlot docker build-image --tag a:b"


@pytest.mark.parametrize(("text", "seconds"), [("90", 90), ("15m", 900), ("2h", 7200), ("1d", 86400), ("0s", 0)])
def test_durations(text: str, seconds: float) -> None:
    assert parse_duration(text) == seconds


def test_bad_gc_arguments_are_refused() -> None:
    done = sandlot_cli("docker", "gc", "--older-than", "soon")
    assert done.returncode != 0 and "duration" in done.stderr
