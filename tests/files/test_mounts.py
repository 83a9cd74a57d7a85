"""Virtual-path mounts: configuration, the path map, and the local provider (bwrap: tests/bwrap/test_mounts.py).

The file-operation contract does not run through local mounts: local commands see host
paths (no namespaces), and the contract mixes commands and file operations on one path.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sandlot import Config, FileErrorCode, FileOperationError, Mount, Sandlot
from sandlot.config import config_from_data
from sandlot.errors import ConfigError, SandboxError
from sandlot.files.paths import PathMap
from sandlot.sandbox import Sandbox


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    project, data = tmp_path / "project", tmp_path / "data"
    project.mkdir()
    data.mkdir()
    (data / "table.csv").write_text("a,b\n1,2\n")
    return project, data


@pytest.fixture
def box(dirs: tuple[Path, Path]) -> Iterator[Sandbox]:
    project, data = dirs
    mounts = (Mount("/workspace", str(project)), Mount("/mnt/data", str(data), read_only=True))
    with Sandlot(Config(provider="local", mounts=mounts)).create() as sandbox:
        yield sandbox


def test_config_reads_mount_tables() -> None:
    config = config_from_data(
        {
            "mounts": [
                {"virtual": "/workspace", "host": "~/proj"},
                {"virtual": "/mnt/d", "host": "/d", "read_only": True},
            ]
        },
        source="sandlot.toml",
    )
    assert config.mounts == (Mount("/workspace", "~/proj"), Mount("/mnt/d", "/d", read_only=True))


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        ({"virtual": "workspace", "host": "/x"}, "virtual: expected an absolute, normalised path"),
        ({"virtual": "/a/../b", "host": "/x"}, "virtual: expected an absolute, normalised path"),
        ({"virtual": "/", "host": "/x"}, "would hide the sandbox's own /"),
        ({"virtual": "/proc/x", "host": "/x"}, "would hide the sandbox's own /proc"),
        ({"virtual": "/w", "host": "relative"}, "host: expected an absolute path"),
        ({"virtual": "/w"}, "mounts[0].host: missing required key"),
        ({"virtual": "/w", "host": "/x", "mode": "rw"}, "unknown key(s) mode"),
    ],
)
def test_bad_mounts_are_config_errors(entry: dict[str, str], expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        config_from_data({"mounts": [entry]}, source="sandlot.toml")
    assert "sandlot.toml" in str(info.value) and expected in str(info.value)


def test_path_map_translates_and_masks(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "sub").mkdir()
    host = str((tmp_path / "p").resolve())
    path_map = PathMap.of([Mount("/workspace", str(tmp_path / "p")), Mount("/workspace/sub", str(tmp_path / "p/sub"))])
    assert path_map.to_host("/workspace/a/b") == host + "/a/b"
    assert path_map.to_host("/workspace/sub/x") == host + "/sub/x"
    assert path_map.to_host("/elsewhere") == "/elsewhere"
    assert path_map.to_virtual(host + "/a") == "/workspace/a"
    text = f"{host}/a {host}x '{host}' {host}:1 ({host})".encode()
    assert path_map.mask(text) == f"/workspace/a {host}x '/workspace' /workspace:1 (/workspace)".encode()
    with pytest.raises(FileNotFoundError, match="does not exist"):
        PathMap.of([Mount("/w", str(tmp_path / "missing"))])
    with pytest.raises(ValueError, match="share the virtual path"):
        PathMap.of([Mount("/w", host), Mount("/w", host)])


def test_missing_host_directory_fails_creation(tmp_path: Path) -> None:
    client = Sandlot(Config(provider="local", mounts=(Mount("/workspace", str(tmp_path / "nope")),)))
    with pytest.raises(SandboxError, match=r"/workspace: host directory .* does not exist"):
        client.create()


def test_local_commands_start_in_the_first_mount_and_output_is_masked(box: Sandbox, dirs: tuple[Path, Path]) -> None:
    project, data = dirs
    result = box.exec(f"pwd; echo $HOME; ls {data}; echo {project.resolve()}/x >&2")
    assert result.stdout == "/workspace\n/workspace\ntable.csv\n"
    assert result.stderr == "/workspace/x\n"
    assert str(project.resolve()) not in result.output
    assert box.files_root == "/workspace"


def test_local_file_operations_use_virtual_paths(box: Sandbox, dirs: tuple[Path, Path]) -> None:
    project, data = dirs
    box.write("notes.txt", "hello")
    assert (project / "notes.txt").read_text() == "hello"
    assert box.read_text("/mnt/data/table.csv") == "a,b\n1,2\n"
    assert [i.path for i in box.ls("/mnt/data")] == ["/mnt/data/table.csv"]
    assert box.glob("**/*.csv", path="/mnt/data") == ["/mnt/data/table.csv"]
    assert [m.path for m in box.grep("1,2", path="/mnt/data")] == ["/mnt/data/table.csv"]
    with pytest.raises(FileOperationError) as read_only:
        box.write("/mnt/data/new.csv", "x")
    assert read_only.value.code == FileErrorCode.PERMISSION_DENIED and "read-only" in str(read_only.value)
    assert not (data / "new.csv").exists()


def test_local_symlinks_cannot_leave_a_mount(box: Sandbox, dirs: tuple[Path, Path], tmp_path: Path) -> None:
    project, _ = dirs
    (tmp_path / "outside.txt").write_text("host secret")
    (project / "escape").symlink_to(tmp_path / "outside.txt")
    (project / "inner").symlink_to(project / "notes-target")
    (project / "notes-target").write_text("inside")
    assert box.read_text("inner") == "inside"
    for op in (lambda: box.read_text("escape"), lambda: box.write("escape", "x")):
        with pytest.raises(FileOperationError) as exc:
            op()
        assert exc.value.code == FileErrorCode.INVALID_PATH and "outside its mount /workspace" in str(exc.value)
    assert (tmp_path / "outside.txt").read_text() == "host secret"


def test_local_writes_outside_read_write_paths_are_refused(box: Sandbox) -> None:
    with pytest.raises(FileOperationError) as exc:
        box.write("/etc/sandlot-must-not-exist", "x")
    assert exc.value.code == FileErrorCode.PERMISSION_DENIED and exc.value.violation is not None
    assert not Path("/etc/sandlot-must-not-exist").exists()
