"""Virtual-path mounts on bwrap: host directories at /workspace and /mnt/..., the host layout hidden."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandlot import Config, FileErrorCode, FileOperationError, Mount, Sandlot
from sandlot.sandbox import Sandbox
from sandlot.testing import FileOperationsContract

sys.path.insert(0, str(Path(__file__).parent))

from bwrap_kit import FAKE_ENV, requires_bwrap

pytestmark = requires_bwrap


def mounted_client(home: Path, base: Path, *mounts: Mount) -> Sandlot:
    options = {"home": str(home), "quarantine_dir": str(base / "q")}
    return Sandlot(Config(provider="bwrap", providers={"bwrap": options}, mounts=mounts))


@pytest.fixture
def dirs(base: Path) -> tuple[Path, Path]:
    project, data = base / "project", base / "data"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("print('hi')\n")
    (project / ".env").write_text(FAKE_ENV + "\n")
    data.mkdir()
    (data / "table.csv").write_text("a,b\n1,2\n")
    return project, data


@pytest.fixture
def box(home: Path, base: Path, dirs: tuple[Path, Path]) -> Iterator[Sandbox]:
    project, data = dirs
    client = mounted_client(home, base, Mount("/workspace", str(project)), Mount("/mnt/data", str(data), True))
    with client.create() as sandbox:
        yield sandbox


def test_commands_see_the_virtual_layout(box: Sandbox, dirs: tuple[Path, Path]) -> None:
    project, data = dirs
    result = box.exec("pwd; echo $HOME; ls /workspace/src; ls /mnt; cat /mnt/data/table.csv")
    assert result.stdout == "/workspace\n/workspace\napp.py\ndata\na,b\n1,2\n", result.output
    # The host copies are hidden (an empty directory over the project), and /proc does not name them.
    hidden = box.exec(f"ls -A {project} {data}")
    assert hidden.exit_code != 0 and "app.py" not in hidden.stdout and "table.csv" not in hidden.stdout
    mountinfo = box.exec("cat /proc/self/mountinfo").stdout
    assert str(project) not in mountinfo and str(data) not in mountinfo and " /workspace " in mountinfo


def test_writes_reach_the_host_and_read_only_mounts_refuse(box: Sandbox, dirs: tuple[Path, Path]) -> None:
    project, data = dirs
    assert box.exec("echo out > /workspace/out.txt").ok
    assert (project / "out.txt").read_text() == "out\n"
    refused = box.exec("echo x > /mnt/data/new.csv")
    assert refused.exit_code != 0 and refused.violation is not None
    assert "/mnt/data/new.csv" in refused.violation.resource and str(data) not in refused.output
    assert not (data / "new.csv").exists()


def test_denied_files_inside_a_mount_stay_denied(box: Sandbox) -> None:
    result = box.exec("cat /workspace/.env")
    assert result.exit_code != 0 and "FAKE" not in result.stdout
    assert result.violation is not None and result.violation.resource == "/workspace/.env", result.violation
    with pytest.raises(FileOperationError) as exc:
        box.read_text("/workspace/.env")
    assert exc.value.code == FileErrorCode.PERMISSION_DENIED and exc.value.violation is not None


def test_file_operations_use_virtual_paths(box: Sandbox, dirs: tuple[Path, Path]) -> None:
    project, _ = dirs
    assert box.files_root == "/workspace"
    assert box.read_text("src/app.py") == "print('hi')\n"
    assert box.glob("**/*.py") == ["/workspace/src/app.py"]
    assert [m.path for m in box.grep("a,b", path="/mnt/data")] == ["/mnt/data/table.csv"]
    box.write("/workspace/src/new.py", "x = 1\n")
    assert (project / "src" / "new.py").read_text() == "x = 1\n"
    with pytest.raises(FileOperationError) as exc:
        box.write("/mnt/data/new.csv", "x")
    assert exc.value.code == FileErrorCode.PERMISSION_DENIED


def test_symlinks_cannot_leave_a_mount(box: Sandbox, dirs: tuple[Path, Path], base: Path) -> None:
    project, _ = dirs
    (base / "outside.txt").write_text("host only")
    (project / "escape").symlink_to(base / "outside.txt")
    with pytest.raises(FileOperationError) as exc:
        box.read_text("escape")
    assert exc.value.code == FileErrorCode.INVALID_PATH
    # Commands still see the host read-only outside the mounts, as without mounts.
    assert box.exec("cat escape").stdout == "host only"


class TestBwrapMountedFileContract(FileOperationsContract):
    """The whole file-operation contract, through a mount at /workspace."""

    @pytest.fixture
    def sandlot_client(self, home: Path, base: Path) -> Sandlot:
        (base / "ws").mkdir()
        return mounted_client(home, base, Mount("/workspace", str(base / "ws")))
