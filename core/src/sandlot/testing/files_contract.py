"""Contract tests for file operations; part of :class:`sandlot.testing.ProviderContract`.

Every provider runs these against its own sandboxes: exact round trips (property-based),
the error codes, paths that look like shell syntax or options, binary and big files,
concurrent edits, and the filesystem policy seen through file operations.
"""

from __future__ import annotations

import hashlib
import os
import threading
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandlot.api import Sandlot
from sandlot.errors import FileOperationError
from sandlot.files.model import FileErrorCode
from sandlot.files.operations import UploadSource
from sandlot.sandbox import Sandbox

#: File names that would run something, or be read as options, if they were ever spliced
#: into shell text or an argv without ``--``.
NASTY_NAMES = (
    "-n",
    "--help",
    "-rf",
    "with space.txt",
    "it's.txt",
    'say "hi".txt',
    "$(touch pwned).txt",
    "`touch pwned`.txt",
    "${IFS}pwned;touch pwned",
    "a\nb.txt",
    "trailing newline\n",
    "back\\slash",
    "semi;colon&amp|pipe>redir<in",
    "*.glob?[x]",
    "ünïcødé-名前.txt",
    "tab\there",
    " leading and trailing ",
    "\x01ctl",
)

# One sandbox serves every example; the same test method runs once per provider class.
_PROPERTY_CHECKS = [HealthCheck.function_scoped_fixture, HealthCheck.differing_executors]


# Every character a file name can hold: no "/", no NUL, no lone surrogates.
def _chars(exclude: str) -> st.SearchStrategy[str]:
    return st.characters(categories=["L", "M", "N", "P", "S", "Z", "Cc", "Cf", "Co"], exclude_characters=exclude)


_NAME_CHARS = _chars("/\0")
_TEXT_CHARS = _chars("\0")
_NAMES = st.text(_NAME_CHARS, min_size=1, max_size=40).filter(lambda n: n not in (".", ".."))


def _code(exc: pytest.ExceptionInfo[FileOperationError]) -> FileErrorCode:
    return exc.value.code


class FileOperationsContract:
    """File operations every provider must get right. Subclass and provide ``sandlot_client``."""

    @pytest.fixture
    def sandlot_client(self) -> Sandlot:
        raise NotImplementedError("subclasses of a sandlot contract must provide the sandlot_client fixture")

    @pytest.fixture
    def sandbox(self, sandlot_client: Sandlot) -> Iterator[Sandbox]:
        box = sandlot_client.create()
        try:
            yield box
        finally:
            box.close()

    # -- read and write ------------------------------------------------------------------

    def test_write_then_read(self, sandbox: Sandbox) -> None:
        sandbox.write("notes/today.txt", "line 1\nline 2\nline 3\n")
        assert sandbox.read_text("notes/today.txt") == "line 1\nline 2\nline 3\n"
        assert sandbox.read_bytes("notes/today.txt") == b"line 1\nline 2\nline 3\n"
        assert sandbox.exec("cat notes/today.txt").stdout == "line 1\nline 2\nline 3\n"
        sandbox.write("notes/today.txt", b"shorter")
        assert sandbox.read_text(os.path.join(sandbox.files_root, "notes", "today.txt")) == "shorter"

    def test_relative_paths_start_at_the_files_root_not_the_shell_cwd(self, sandbox: Sandbox) -> None:
        sandbox.exec("mkdir -p elsewhere && cd elsewhere")
        sandbox.write("where.txt", "root")
        assert sandbox.exec(f'cat "{sandbox.files_root}/where.txt"').stdout == "root"

    def test_read_line_windows(self, sandbox: Sandbox) -> None:
        sandbox.write("lines.txt", "".join(f"{i}\n" for i in range(10)) + "last")
        assert sandbox.read_text("lines.txt", offset=2, limit=3) == "2\n3\n4\n"
        assert sandbox.read_text("lines.txt", offset=9) == "9\nlast"
        assert sandbox.read_text("lines.txt", offset=8, limit=100) == "8\n9\nlast"
        assert sandbox.read_text("lines.txt", offset=50, limit=5) == ""
        assert sandbox.read_text("lines.txt", limit=0) == ""
        with pytest.raises(ValueError, match="offset"):
            sandbox.read_text("lines.txt", offset=-1)

    def test_read_errors(self, sandbox: Sandbox) -> None:
        sandbox.write("dir/file.txt", "x")
        with pytest.raises(FileOperationError) as missing:
            sandbox.read_text("dir/nope.txt")
        assert _code(missing) == FileErrorCode.FILE_NOT_FOUND and "dir/nope.txt" in str(missing.value)
        with pytest.raises(FileOperationError) as directory:
            sandbox.read_bytes("dir")
        assert _code(directory) == FileErrorCode.IS_DIRECTORY
        with pytest.raises(FileOperationError) as under_file:
            sandbox.read_text("dir/file.txt/deeper")
        assert _code(under_file) == FileErrorCode.NOT_A_DIRECTORY
        for bad in ("", "a\0b"):
            with pytest.raises(FileOperationError) as invalid:
                sandbox.read_text(bad)
            assert _code(invalid) == FileErrorCode.INVALID_PATH

    def test_binary_file_read_as_text_is_a_clear_error(self, sandbox: Sandbox) -> None:
        sandbox.write("blob.bin", bytes(range(256)))
        with pytest.raises(FileOperationError) as exc:
            sandbox.read_text("blob.bin")
        assert _code(exc) == FileErrorCode.NOT_TEXT and "bytes" in str(exc.value)
        sandbox.write("latin1.txt", "café".encode("latin-1"))
        with pytest.raises(FileOperationError) as latin:
            sandbox.read_text("latin1.txt")
        assert _code(latin) == FileErrorCode.NOT_TEXT
        assert sandbox.read_bytes("latin1.txt") == "café".encode("latin-1")

    def test_write_errors(self, sandbox: Sandbox) -> None:
        sandbox.write("d/f.txt", "x")
        with pytest.raises(FileOperationError) as directory:
            sandbox.write("d", "over a directory")
        assert _code(directory) == FileErrorCode.IS_DIRECTORY
        with pytest.raises(FileOperationError) as under_file:
            sandbox.write("d/f.txt/child", "x")
        assert _code(under_file) == FileErrorCode.NOT_A_DIRECTORY
        assert sandbox.read_text("d/f.txt") == "x"

    def test_write_keeps_the_mode_of_an_existing_file(self, sandbox: Sandbox) -> None:
        sandbox.write("run.sh", "#!/bin/sh\necho one\n")
        sandbox.exec("chmod 755 run.sh")
        sandbox.write("run.sh", "#!/bin/sh\necho two\n")
        assert sandbox.exec("./run.sh").stdout == "two\n"

    @settings(max_examples=25, deadline=None, suppress_health_check=_PROPERTY_CHECKS)
    @given(name=_NAMES, content=st.binary(max_size=4096))
    def test_any_name_and_content_round_trip(self, sandbox: Sandbox, name: str, content: bytes) -> None:
        sandbox.write(f"prop/{name}", content)
        assert sandbox.read_bytes(f"prop/{name}") == content
        assert f"{sandbox.files_root}/prop/{name}" in [info.path for info in sandbox.ls("prop")]
        sandbox.delete(f"prop/{name}")

    @settings(max_examples=15, deadline=None, suppress_health_check=_PROPERTY_CHECKS)
    @given(text=st.text(_TEXT_CHARS, max_size=2000))
    def test_any_text_round_trips(self, sandbox: Sandbox, text: str) -> None:
        sandbox.write("text.txt", text)
        assert sandbox.read_text("text.txt") == text

    # -- names that look like code -------------------------------------------------------

    def test_nasty_names_are_data(self, sandbox: Sandbox) -> None:
        sandbox.exec("mkdir -p nasty")
        for index, name in enumerate(NASTY_NAMES):
            content = f"{index} $(touch pwned) `touch pwned` ' \" \\ {name}\n".encode()
            sandbox.write(f"nasty/{name}", content)
            assert sandbox.read_bytes(f"nasty/{name}") == content, name
        listed = {info.name for info in sandbox.ls("nasty")}
        assert listed == set(NASTY_NAMES)
        found = sandbox.glob("*", path="nasty", include_hidden=True)
        assert {p.rsplit("/", 1)[-1] for p in found} == set(NASTY_NAMES)
        hits = sandbox.grep("touch pwned", path="nasty")
        assert {m.path.rsplit("/", 1)[-1] for m in hits} == set(NASTY_NAMES)
        assert sandbox.edit("nasty/-n", "$(touch pwned)", "safe") == 1
        for name in NASTY_NAMES:
            sandbox.delete(f"nasty/{name}")
        assert sandbox.ls("nasty") == []
        check = sandbox.exec(f'find "{sandbox.files_root}" /tmp -name pwned 2>/dev/null')
        assert check.stdout == "", check.stdout

    def test_non_utf8_names(self, sandbox: Sandbox) -> None:
        name = os.fsdecode(b"raw-\xff\xfe.bin")
        sandbox.write(name, b"\xff")
        assert sandbox.read_bytes(name) == b"\xff"
        assert os.path.join(sandbox.files_root, name) in [info.path for info in sandbox.ls(".")]
        # the name on disk holds the raw byte 0xff (od -tx1 and find are POSIX: busybox too)
        assert sandbox.exec("find . -name 'raw-*' | od -An -tx1 | grep -c ff").stdout.strip() == "1"
        with pytest.raises(FileOperationError) as invalid:
            sandbox.write("lone-\ud800-surrogate", b"x")
        assert _code(invalid) == FileErrorCode.INVALID_PATH

    def test_patterns_are_data(self, sandbox: Sandbox) -> None:
        sandbox.write("p.txt", "-e x\n$(id)\n.*\n[a]\n")
        assert [m.line for m in sandbox.grep("-e x", path="p.txt")] == [1]
        assert [m.line for m in sandbox.grep("$(id)", path="p.txt")] == [2]
        assert [m.line for m in sandbox.grep(".*", path="p.txt")] == [3]
        assert [m.line for m in sandbox.grep("[a]", path="p.txt")] == [4]
        assert sandbox.glob("$(touch pwned)") == []
        assert sandbox.exec("ls pwned 2>/dev/null || echo absent").stdout == "absent\n"

    # -- edit ----------------------------------------------------------------------------

    def test_edit(self, sandbox: Sandbox) -> None:
        sandbox.write("e.py", "a = 1\nb = 1\nc = 2\n")
        assert sandbox.edit("e.py", "c = 2", "c = 3") == 1
        assert sandbox.read_text("e.py") == "a = 1\nb = 1\nc = 3\n"
        with pytest.raises(FileOperationError) as ambiguous:
            sandbox.edit("e.py", "= 1", "= 9")
        assert _code(ambiguous) == FileErrorCode.AMBIGUOUS_MATCH and "2 times" in str(ambiguous.value)
        assert sandbox.edit("e.py", "= 1", "= 9", replace_all=True) == 2
        assert sandbox.read_text("e.py") == "a = 9\nb = 9\nc = 3\n"
        with pytest.raises(FileOperationError) as absent:
            sandbox.edit("e.py", "zzz", "y")
        assert _code(absent) == FileErrorCode.STRING_NOT_FOUND
        with pytest.raises(FileOperationError) as missing:
            sandbox.edit("nope.py", "a", "b")
        assert _code(missing) == FileErrorCode.FILE_NOT_FOUND
        sandbox.write("bin", b"\x00\x01")
        with pytest.raises(FileOperationError) as binary:
            sandbox.edit("bin", "a", "b")
        assert _code(binary) == FileErrorCode.NOT_TEXT

    def test_edit_refuses_to_overwrite_a_changed_file(self, sandbox: Sandbox) -> None:
        sandbox.write("c.txt", "mine\n")
        target = os.path.join(sandbox.files_root, "c.txt")
        with pytest.raises(FileOperationError) as exc:
            sandbox._files.replace(target, b"what I read earlier\n", b"new\n")
        assert _code(exc) == FileErrorCode.FILE_CHANGED
        assert sandbox.read_text("c.txt") == "mine\n"

    def test_concurrent_edits_of_one_file_are_all_kept(self, sandbox: Sandbox) -> None:
        sandbox.write("counter.txt", "".join(f"slot{i}=0\n" for i in range(8)))
        errors: list[BaseException] = []

        def bump(i: int) -> None:
            try:
                sandbox.edit("counter.txt", f"slot{i}=0", f"slot{i}=1")
            except BaseException as exc:
                errors.append(exc)

        threads = [threading.Thread(target=bump, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert sandbox.read_text("counter.txt") == "".join(f"slot{i}=1\n" for i in range(8))

    # -- listing and searching -----------------------------------------------------------

    def test_ls(self, sandbox: Sandbox) -> None:
        sandbox.write("tree/b.txt", "12345")
        sandbox.write("tree/.hidden", "")
        sandbox.write("tree/sub/c.txt", "")
        sandbox.exec("ln -s b.txt tree/link")
        entries = {info.name: info for info in sandbox.ls("tree")}
        assert sorted(entries) == [".hidden", "b.txt", "link", "sub"]
        assert entries["sub"].is_dir and not entries["b.txt"].is_dir
        assert entries["b.txt"].size == 5 and entries["b.txt"].modified > 0
        assert entries["link"].is_symlink and not entries["b.txt"].is_symlink
        assert entries["b.txt"].path == f"{sandbox.files_root}/tree/b.txt"
        with pytest.raises(FileOperationError) as missing:
            sandbox.ls("no-such-dir")
        assert _code(missing) == FileErrorCode.FILE_NOT_FOUND
        with pytest.raises(FileOperationError) as not_dir:
            sandbox.ls("tree/b.txt")
        assert _code(not_dir) == FileErrorCode.NOT_A_DIRECTORY

    def test_glob(self, sandbox: Sandbox) -> None:
        root = sandbox.files_root
        for path in ("g/a.py", "g/b.md", "g/sub/c.py", "g/sub/deep/d.py", "g/.hidden/e.py", "g/sub/.f.py"):
            sandbox.write(path, "x")
        assert sandbox.glob("**/*.py", path="g") == [f"{root}/g/a.py", f"{root}/g/sub/c.py", f"{root}/g/sub/deep/d.py"]
        assert sandbox.glob("*.py", path="g") == [f"{root}/g/a.py"]
        assert sandbox.glob("g/*.{py,md}") == [f"{root}/g/a.py", f"{root}/g/b.md"]
        assert sandbox.glob(f"{root}/g/sub/*.py") == [f"{root}/g/sub/c.py"]
        hidden = sandbox.glob("**/*.py", path="g", include_hidden=True)
        assert f"{root}/g/.hidden/e.py" in hidden and f"{root}/g/sub/.f.py" in hidden
        assert sandbox.glob(".hidden/*", path="g") == [f"{root}/g/.hidden/e.py"]
        assert len(sandbox.glob("**/*.py", path="g", limit=2)) == 2
        assert f"{root}/g/sub" in sandbox.glob("*", path="g")
        with pytest.raises(FileOperationError) as missing:
            sandbox.glob("*", path="nowhere")
        assert _code(missing) == FileErrorCode.FILE_NOT_FOUND

    def test_grep(self, sandbox: Sandbox) -> None:
        root = sandbox.files_root
        sandbox.write("s/a.py", "import os\nprint('Hello')\nhello = 1\n")
        sandbox.write("s/sub/b.txt", "say hello\n")
        sandbox.write("s/bin.dat", b"hello\x00binary")
        sandbox.write("s/.hidden.txt", "hello hidden\n")
        literal = sandbox.grep("hello", path="s")
        assert [(m.path, m.line, m.text) for m in literal] == [
            (f"{root}/s/a.py", 3, "hello = 1"),
            (f"{root}/s/sub/b.txt", 1, "say hello"),
        ]
        assert len(sandbox.grep("hello", path="s", ignore_case=True)) == 3
        assert [m.path for m in sandbox.grep("hello", path="s", glob="*.txt")] == [f"{root}/s/sub/b.txt"]
        assert [m.line for m in sandbox.grep("^(import|print)", path="s", regex=True)] == [1, 2]
        assert [m.line for m in sandbox.grep("^hello", path="s/a.py", regex=True)] == [3]  # anchors are per line
        assert [m.line for m in sandbox.grep("os$", path="s/a.py", regex=True)] == [1]
        assert len(sandbox.grep("hello", path="s", ignore_case=True, max_results=2)) == 2
        assert len(sandbox.grep("hello", path="s", include_hidden=True)) == 3
        assert [m.line for m in sandbox.grep("o", path="s/a.py")] == [1, 2, 3]
        assert sandbox.grep("absent-string", path="s") == []
        with pytest.raises(FileOperationError) as missing:
            sandbox.grep("x", path="nowhere")
        assert _code(missing) == FileErrorCode.FILE_NOT_FOUND
        with pytest.raises(ValueError, match="regular expression"):
            sandbox.grep("(unclosed", regex=True)

    # -- delete --------------------------------------------------------------------------

    def test_delete(self, sandbox: Sandbox) -> None:
        sandbox.write("del/a.txt", "a")
        sandbox.write("del/sub/b.txt", "b")
        sandbox.write("target.txt", "kept")
        sandbox.exec("ln -s ../target.txt del/link")
        sandbox.delete("del/link")
        assert sandbox.read_text("target.txt") == "kept"
        sandbox.delete("del/a.txt")
        with pytest.raises(FileOperationError) as directory:
            sandbox.delete("del")
        assert _code(directory) == FileErrorCode.IS_DIRECTORY
        sandbox.delete("del", recursive=True)
        with pytest.raises(FileOperationError) as missing:
            sandbox.delete("del")
        assert _code(missing) == FileErrorCode.FILE_NOT_FOUND
        with pytest.raises(FileOperationError) as root:
            sandbox.delete(".", recursive=True)
        assert _code(root) == FileErrorCode.INVALID_PATH

    # -- batches and big files -----------------------------------------------------------

    def test_batches_report_per_file(self, sandbox: Sandbox, tmp_path: Path) -> None:
        host_file = tmp_path / "host.bin"
        host_file.write_bytes(b"from the host")
        sandbox.write("adir/x", "x")
        batch: dict[str, UploadSource] = {
            "up/a.txt": b"a",
            "up/b.txt": "b",
            "up/c.bin": host_file,
            "adir": b"over a dir",
            "bad\0name": b"x",
        }
        results = sandbox.upload(batch)
        assert [r.path for r in results] == ["up/a.txt", "up/b.txt", "up/c.bin", "adir", "bad\0name"]
        assert [r.error for r in results] == [
            None,
            None,
            None,
            FileErrorCode.IS_DIRECTORY,
            FileErrorCode.INVALID_PATH,
        ]
        downloads = sandbox.download(["up/a.txt", "up/c.bin", "missing", "adir", "up/b.txt"])
        assert [r.content for r in downloads] == [b"a", b"from the host", None, None, b"b"]
        assert [r.error for r in downloads] == [
            None,
            None,
            FileErrorCode.FILE_NOT_FOUND,
            FileErrorCode.IS_DIRECTORY,
            None,
        ], [(r.path, r.error, r.message) for r in downloads]  # (the module is not rewritten by pytest: say what came)
        assert all(r.message for r in downloads if not r.ok)
        sandbox.write("keep.txt", "kept")
        [missing_source] = sandbox.upload({"keep.txt": tmp_path / "no-such-host-file"})
        assert missing_source.error == FileErrorCode.FILE_NOT_FOUND and "no-such-host-file" in missing_source.message
        assert sandbox.read_text("keep.txt") == "kept"  # the target was not touched

    def test_file_objects_stream_in_and_out(self, sandbox: Sandbox, tmp_path: Path) -> None:
        payload = os.urandom(3 * 1024 * 1024 + 17)
        source = tmp_path / "in.bin"
        source.write_bytes(payload)
        with open(source, "rb") as handle:
            sandbox.upload_file("streamed.bin", handle)
        dest = tmp_path / "out.bin"
        assert sandbox.download_file("streamed.bin", dest) == len(payload)
        assert dest.read_bytes() == payload
        with pytest.raises(FileOperationError):
            sandbox.download_file("missing.bin", tmp_path / "never.bin")
        assert not (tmp_path / "never.bin").exists() and not (tmp_path / "never.bin.part").exists()

    @pytest.mark.slow
    def test_100_mib_streams_without_being_held_in_memory(self, sandbox: Sandbox, tmp_path: Path) -> None:
        size = 100 * 1024 * 1024
        source = tmp_path / "big.bin"
        digest = hashlib.sha256()
        with open(source, "wb") as handle:
            block = os.urandom(1024 * 1024)
            for i in range(100):
                piece = block[i:] + block[:i]
                digest.update(piece)
                handle.write(piece)
        tracemalloc.start()
        try:
            sandbox.upload_file("big.bin", source)
            _, peak_up = tracemalloc.get_traced_memory()
            tracemalloc.reset_peak()
            dest = tmp_path / "back.bin"
            assert sandbox.download_file("big.bin", dest) == size
            _, peak_down = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert max(peak_up, peak_down) < 40 * 1024 * 1024, (peak_up, peak_down)
        back = hashlib.sha256()
        with open(dest, "rb") as handle:
            while chunk := handle.read(1024 * 1024):
                back.update(chunk)
        assert back.hexdigest() == digest.hexdigest()
        assert sandbox.exec("wc -c < big.bin").stdout.strip() == str(size)

    # -- policy --------------------------------------------------------------------------

    def test_denied_paths_fail_with_a_violation(self, sandbox: Sandbox) -> None:
        for path in ("/etc/shadow", "sub/../../../../../../etc/shadow", f"{sandbox.policy_home}/.ssh/id_rsa"):
            with pytest.raises(FileOperationError) as exc:
                sandbox.read_bytes(path)
            assert _code(exc) == FileErrorCode.PERMISSION_DENIED, path
            assert exc.value.violation is not None and exc.value.violation.kind == "filesystem"
        with pytest.raises(FileOperationError) as write:
            sandbox.write("/etc/shadow", "x")
        assert _code(write) == FileErrorCode.PERMISSION_DENIED
        [result] = sandbox.download(["/etc/shadow"])
        assert result.error == FileErrorCode.PERMISSION_DENIED and result.violation is not None

    def test_denied_paths_through_symlinks(self, sandbox: Sandbox) -> None:
        sandbox.exec("ln -s /etc/shadow shadow-link && mkdir -p l && ln -s /etc l/etc-dir")
        for path in ("shadow-link", "l/etc-dir/shadow"):
            with pytest.raises(FileOperationError) as exc:
                sandbox.read_bytes(path)
            assert _code(exc) == FileErrorCode.PERMISSION_DENIED, path
            with pytest.raises(FileOperationError) as grep:
                sandbox.grep("root", path=path)
            assert _code(grep) == FileErrorCode.PERMISSION_DENIED, path
