"""File operations: sandlot's ``Sandbox`` methods vs LangChain Deep Agents' ``BaseSandbox``, per provider.

    python3 benchmarks/file_ops.py [--providers local,bwrap,docker] [--rounds 40] [--warmup 3]
        [--image sandlot-bench:bookworm] [--markdown FILE]

Per-operation latency of read, write, edit, ls, grep and glob on a 10 KiB text file in a
tree of 1,002 files (50 directories of 20 small files, the target file and a file the
writes overwrite), on both sides in the same run, the rounds interleaved (one call of each
operation on each side per round, so load from other processes hits both alike).

The baseline is Deep Agents' own ``BaseSandbox`` (its read, write, edit, ls, grep and glob,
unchanged), subclassed with the ``execute`` a straightforward integration would write:

* local: ``subprocess.run(command, shell=True)`` in the tree, as its ``LocalShellBackend``
  does, with ``PATH`` such that ``python3`` is ``/usr/bin/python3`` (no shims);
* bwrap: one ``bwrap`` per command (``--ro-bind / /``, the tree bound read-write, ``--dev``,
  ``--proc``, a private ``/tmp``, ``--unshare-all``, ``--die-with-parent``), running ``sh -c``;
* docker: the SDK's ``container.exec_run(["sh", "-c", command])`` on the container sandlot
  created (same user, same working directory). The SDK was faster than the CLI's
  ``docker exec`` (see ``docker_exec.py``), so it is the stronger baseline. BaseSandbox runs
  ``python3`` scripts that import ``json``, which the test image's ``python3-minimal`` lacks
  (every read, ls, edit and glob fails there), so both sides run on
  ``sandlot-bench:bookworm``, the test image's recipe (debootstrap, no registry) with
  Debian's full ``python3``; the script builds it (about a minute, as root) when it is missing.

``upload_files`` (which Deep Agents' write uses after its ``python3`` preflight) writes the
host file directly for local and bwrap (the tree is a host directory: the cheapest possible
transfer) and uses the engine's archive API (``put_archive``) for Docker. Sandlot and the
baseline each work on their own copy of the tree (same layout, same contents), side by side.
Both sides' results are checked once before timing: same content after write and read,
same file after an edit, same entries from ls, same matches from grep and glob.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import importlib.metadata
import io
import itertools
import os
import platform
import posixpath
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from _stats import median_ms, p90_ms, report
from deepagents.backends.protocol import ExecuteResponse, FileDownloadResponse, FileUploadResponse
from deepagents.backends.sandbox import BaseSandbox

from sandlot.api import Sandlot
from sandlot.config import Config
from sandlot.errors import ProviderNotFound, ProviderUnavailable
from sandlot.sandbox import Sandbox

#: What ``python3`` (and everything else) resolves through in the baseline: /usr/bin/python3.
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
DIRS, FILES_PER_DIR = 50, 20
NEEDLE = "needle_token"
GLOB = "**/*.txt"
TARGET = "target.txt"
WRITTEN = "written.txt"
EDIT_A, EDIT_B = "EDIT_ME_ALPHA", "EDIT_ME_OMEGA"
#: Read, write and edit must be this many times faster (median) on each provider.
TARGETS = {"local": 20.0, "bwrap": 20.0, "docker": 5.0}
TARGETED = ("read", "write", "edit")
#: The Docker image both sides run on: the test image's recipe plus Debian's full python3.
PYTHON_IMAGE = "sandlot-bench:bookworm"


# -- the fixture ---------------------------------------------------------------------------


def text_file(lines: int, tag: str) -> str:
    """``lines`` lines of 64 bytes each (63 characters and a newline)."""
    return "".join(
        f"{tag} line {n:04d}: lorem ipsum dolor sit amet, consectetur adipiscing".ljust(63)[:63] + "\n"
        for n in range(lines)
    )


def target_text() -> str:
    """10,240 bytes: 160 lines, one edit marker, one grep match."""
    lines = text_file(160, "target").splitlines(keepends=True)
    lines[80] = f"{EDIT_A} is the one string the edits swap".ljust(63) + "\n"
    lines[120] = f"{NEEDLE} in the target file".ljust(63) + "\n"
    return "".join(lines)


def written_text(variant: int) -> str:
    return text_file(160, f"written{variant}")


def make_tree(root: Path) -> None:
    """50 directories of 20 files (half .txt, half .py; every tenth holds the needle) plus two 10 KiB files."""
    for d in range(DIRS):
        sub = root / f"pkg{d:02d}"
        sub.mkdir(parents=True)
        for f in range(FILES_PER_DIR):
            body = text_file(4, f"file {d}/{f}")
            if (d * FILES_PER_DIR + f) % 10 == 0:
                body += f"{NEEDLE} = {d * FILES_PER_DIR + f}\n"
            (sub / f"mod{f:02d}.{'txt' if f % 2 == 0 else 'py'}").write_text(body)
    (root / TARGET).write_text(target_text())
    (root / WRITTEN).write_text(written_text(1))


def tree_archive(source: Path, names: tuple[str, ...], uid: int) -> bytes:
    """A tar of ``source`` once under each of ``names``, owned by ``uid``."""

    def owned(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = uid
        info.uname = info.gname = ""
        return info

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name in names:
            tar.add(source, arcname=name, filter=owned)
    return buffer.getvalue()


# -- the baselines -------------------------------------------------------------------------


class HostTreeSandbox(BaseSandbox):
    """A BaseSandbox whose commands run in a subprocess per command and whose files are host files."""

    def __init__(self, root: Path, argv: Callable[[str], list[str]] | None = None) -> None:
        self.root = root
        self._argv = argv
        self._env = {"PATH": SYSTEM_PATH, "LANG": "C.UTF-8", "HOME": str(root)}

    @property
    def id(self) -> str:
        return f"bench-{self.root.name}"

    def execute(self, command: str, *, timeout: int | None = None) -> ExecuteResponse:
        if self._argv is None:  # local: what LocalShellBackend.execute does
            done = subprocess.run(
                command, shell=True, cwd=self.root, env=self._env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout or 120, check=False,
                start_new_session=True,
            )  # fmt: skip
        else:
            done = subprocess.run(
                self._argv(command), env=self._env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout or 120, check=False,
            )  # fmt: skip
        return ExecuteResponse(output=done.stdout.decode("utf-8", "replace"), exit_code=done.returncode)

    def upload_files(self, files: list[tuple[str, bytes]]) -> list[FileUploadResponse]:
        out = []
        for path, content in files:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                Path(path).write_bytes(content)
                out.append(FileUploadResponse(path=path))
            except OSError as exc:
                out.append(FileUploadResponse(path=path, error=str(exc)))
        return out

    def download_files(self, paths: list[str]) -> list[FileDownloadResponse]:
        out = []
        for path in paths:
            try:
                out.append(FileDownloadResponse(path=path, content=Path(path).read_bytes()))
            except OSError as exc:
                out.append(FileDownloadResponse(path=path, error=str(exc)))
        return out


def bwrap_argv(tree: Path) -> Callable[[str], list[str]]:
    """One bwrap per command, with the binds sandlot's bwrap sandbox has (less its hardening)."""
    prefix = [
        shutil.which("bwrap") or "bwrap",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/tmp",
        "--bind", str(tree), str(tree),
        "--unshare-all", "--die-with-parent", "--new-session",
        "--chdir", str(tree),
        "--", "/bin/sh", "-c",
    ]  # fmt: skip
    return lambda command: [*prefix, command]


class DockerExecSandbox(BaseSandbox):
    """A BaseSandbox on a running container: an exec per command (SDK), the archive API for uploads."""

    def __init__(self, container: Any, user: str, workdir: str) -> None:
        self.container = container
        self.user = user
        self.workdir = workdir

    @property
    def id(self) -> str:
        return str(self.container.id)

    def execute(self, command: str, *, timeout: int | None = None) -> ExecuteResponse:
        code, output = self.container.exec_run(["sh", "-c", command], user=self.user, workdir=self.workdir)
        return ExecuteResponse(output=output.decode("utf-8", "replace"), exit_code=code)

    def upload_files(self, files: list[tuple[str, bytes]]) -> list[FileUploadResponse]:
        uid = int(self.user.split(":")[0])
        out = []
        for path, content in files:
            buffer = io.BytesIO()
            with tarfile.open(fileobj=buffer, mode="w") as tar:
                info = tarfile.TarInfo(posixpath.basename(path))
                info.size, info.mode, info.uid, info.gid, info.mtime = len(content), 0o644, uid, uid, time.time()
                tar.addfile(info, io.BytesIO(content))
            ok = self.container.put_archive(posixpath.dirname(path), buffer.getvalue())
            out.append(FileUploadResponse(path=path, error=None if ok else "put_archive failed"))
        return out

    def download_files(self, paths: list[str]) -> list[FileDownloadResponse]:
        out = []
        for path in paths:
            stream, _ = self.container.get_archive(path)
            with tarfile.open(fileobj=io.BytesIO(b"".join(stream))) as tar:
                member = tar.extractfile(tar.getmembers()[0])
                out.append(FileDownloadResponse(path=path, content=member.read() if member else b""))
        return out


# -- one provider --------------------------------------------------------------------------


class Side:
    """The six operations on one side, each returning something ``check`` can look at."""

    def __init__(self, name: str, ops: dict[str, Callable[[], object]], check: Callable[[str, object], None]) -> None:
        self.name = name
        self.ops = ops
        self.check = check


def toggler(first: tuple[str, str], second: tuple[str, str]) -> Iterator[tuple[str, str]]:
    return itertools.cycle((first, second))


def sandlot_side(box: Sandbox, tree: str) -> Side:
    """``tree`` is the tree's path as the sandbox sees it (relative to its files_root)."""
    edits = toggler((EDIT_A, EDIT_B), (EDIT_B, EDIT_A))
    writes = itertools.cycle((written_text(0), written_text(1)))
    target, written = f"{tree}/{TARGET}", f"{tree}/{WRITTEN}"

    def edit() -> int:
        old, new = next(edits)
        return box.edit(target, old, new)

    def check(op: str, value: object) -> None:
        if op == "edit" and value != 1:
            raise AssertionError(f"sandlot edit replaced {value} occurrences")

    ops: dict[str, Callable[[], object]] = {
        "read": lambda: box.read_text(target),
        "write": lambda: box.write(written, next(writes)),
        "edit": edit,
        "ls": lambda: box.ls(tree),
        "grep": lambda: box.grep(NEEDLE, path=tree),
        "glob": lambda: box.glob(GLOB, path=tree),
    }
    return Side("sandlot", ops, check)


def deepagents_side(backend: BaseSandbox, tree: str) -> Side:
    """``tree`` is the tree's absolute path in the baseline's sandbox."""
    edits = toggler((EDIT_A, EDIT_B), (EDIT_B, EDIT_A))
    writes = itertools.cycle((written_text(0), written_text(1)))
    target, written = f"{tree}/{TARGET}", f"{tree}/{WRITTEN}"

    def edit() -> object:
        old, new = next(edits)
        return backend.edit(target, old, new)

    def check(op: str, value: object) -> None:
        error = getattr(value, "error", None)
        if error:
            raise AssertionError(f"Deep Agents {op} failed: {error}")

    ops: dict[str, Callable[[], object]] = {
        "read": lambda: backend.read(target),
        "write": lambda: backend.write(written, next(writes)),
        "edit": edit,
        "ls": lambda: backend.ls(tree),
        "grep": lambda: backend.grep(NEEDLE, path=tree),
        "glob": lambda: backend.glob(GLOB, path=tree),
    }
    return Side("deepagents", ops, check)


def relative(paths: list[str], root: str) -> list[str]:
    return sorted(posixpath.relpath(p, root) for p in paths)


def verify(box: Sandbox, sl_tree: str, sl_abs: str, backend: BaseSandbox, da_tree: str) -> None:
    """Both sides do the same work: same content, same entries, same matches."""
    fresh = written_text(7)
    box.write(f"{sl_tree}/{WRITTEN}", fresh)
    if box.read_text(f"{sl_tree}/{WRITTEN}") != fresh:
        raise AssertionError("sandlot: read after write differs")
    assert not backend.write(f"{da_tree}/{WRITTEN}", fresh).error
    read = backend.read(f"{da_tree}/{WRITTEN}")
    if read.file_data is None or read.file_data["content"] != fresh.rstrip("\n"):
        raise AssertionError(f"Deep Agents: read after write differs ({read.error})")
    # The bytes each side left on disk, read back through sandlot (both trees are in the same sandbox).
    if box.read_bytes(f"{sl_abs}/{WRITTEN}") != box.read_bytes(f"{da_tree}/{WRITTEN}"):
        raise AssertionError("the written files differ between the two sides")
    target = box.read_text(f"{sl_tree}/{TARGET}")
    da_read = backend.read(f"{da_tree}/{TARGET}")
    if da_read.file_data is None or da_read.file_data["content"] != target.rstrip("\n"):
        raise AssertionError("the two sides read the target differently")
    if box.edit(f"{sl_tree}/{TARGET}", EDIT_A, EDIT_B) != 1:
        raise AssertionError("sandlot: the edit failed")
    if backend.edit(f"{da_tree}/{TARGET}", EDIT_A, EDIT_B).error:
        raise AssertionError("Deep Agents: the edit failed")
    if box.read_bytes(f"{sl_abs}/{TARGET}") != box.read_bytes(f"{da_tree}/{TARGET}"):
        raise AssertionError("the edited files differ between the two sides")
    box.edit(f"{sl_tree}/{TARGET}", EDIT_B, EDIT_A)
    backend.edit(f"{da_tree}/{TARGET}", EDIT_B, EDIT_A)

    sl_ls = relative([info.path for info in box.ls(sl_tree)], sl_abs)
    da_ls = relative([entry["path"] for entry in backend.ls(da_tree).entries or []], da_tree)
    sl_grep = sorted((posixpath.relpath(m.path, sl_abs), m.line) for m in box.grep(NEEDLE, path=sl_tree))
    da_matches = backend.grep(NEEDLE, da_tree).matches or []
    da_grep = sorted((posixpath.relpath(m["path"], da_tree), m["line"]) for m in da_matches)
    sl_glob = relative(box.glob(GLOB, path=sl_tree), sl_abs)
    da_glob = relative([m["path"] for m in backend.glob(GLOB, da_tree).matches or []], da_tree)
    for what, mine, theirs in (("ls", sl_ls, da_ls), ("grep", sl_grep, da_grep), ("glob", sl_glob, da_glob)):
        if mine != theirs or not mine:
            raise AssertionError(f"{what}: sandlot found {len(mine)}, Deep Agents {len(theirs)}")
    print(
        f"  checked: write/read/edit agree; ls {len(sl_ls)} entries, grep {len(sl_grep)} matches, "
        f"glob {len(sl_glob)} files on both sides",
        file=sys.stderr,
    )


def measure(sides: tuple[Side, Side], rounds: int, warmup: int) -> dict[str, tuple[list[float], list[float]]]:
    """Per operation: (sandlot seconds, Deep Agents seconds); each round runs every operation once per side."""
    samples: dict[str, tuple[list[float], list[float]]] = {op: ([], []) for op in sides[0].ops}
    for index in range(warmup + rounds):
        for op in samples:
            for side, out in zip(sides, samples[op], strict=True):
                func = side.ops[op]
                start = time.perf_counter()
                value = func()
                elapsed = time.perf_counter() - start
                side.check(op, value)
                if index >= warmup:
                    out.append(elapsed)
    return samples


def run_host(provider: str, args: argparse.Namespace) -> dict[str, tuple[list[float], list[float]]]:
    """local or bwrap: both trees in one host directory (outside /tmp, which bwrap replaces)."""
    base = Path(tempfile.mkdtemp(prefix=f"sandlot-fileops-{provider}-", dir="/var/tmp"))
    try:
        make_tree(base / "sl")
        make_tree(base / "da")
        box = Sandlot(Config(provider=provider)).create(workdir=base)
        try:
            argv = bwrap_argv(base / "da") if provider == "bwrap" else None
            backend = HostTreeSandbox(base / "da", argv)
            verify(box, "sl", str(base / "sl"), backend, str(base / "da"))
            sides = (sandlot_side(box, "sl"), deepagents_side(backend, str(base / "da")))
            return measure(sides, args.rounds, args.warmup)
        finally:
            box.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


class ImageLacksPython(Exception):
    pass


def run_docker(args: argparse.Namespace) -> dict[str, tuple[list[float], list[float]]]:
    """Both trees in the sandbox's working directory, in the container sandlot created."""
    import docker

    sdk = docker.from_env()
    box = Sandlot(Config(provider="docker", providers={"docker": {"image": args.image}})).create()
    try:
        container = sdk.containers.get(box.container_id)  # type: ignore[attr-defined]
        workdir = box.files_root
        user = box.exec("echo $(id -u):$(id -g)").stdout.strip()
        probe = box.exec("python3 -c 'import base64, codecs, fnmatch, glob, json'")
        if probe.exit_code != 0:
            said = (probe.stderr.strip().splitlines() or [f"exit status {probe.exit_code}"])[-1]
            raise ImageLacksPython(
                f"Deep Agents' BaseSandbox needs python3 with its standard library in the sandbox; "
                f"image {args.image} has not got it ({said}): use --image {PYTHON_IMAGE}"
            )
        staging = Path(tempfile.mkdtemp(prefix="sandlot-fileops-docker-"))
        try:
            make_tree(staging / "tree")
            container.put_archive(workdir, tree_archive(staging / "tree", ("sl", "da"), int(user.split(":")[0])))
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        backend = DockerExecSandbox(container, user, workdir)
        da_tree = posixpath.join(workdir, "da")
        verify(box, "sl", posixpath.join(workdir, "sl"), backend, da_tree)
        sides = (sandlot_side(box, "sl"), deepagents_side(backend, da_tree))
        return measure(sides, args.rounds, args.warmup)
    finally:
        box.close()


def docker_unavailable(image: str) -> str | None:
    """Why Docker cannot be measured, or None; builds :data:`PYTHON_IMAGE` when it is missing."""
    try:
        import docker
    except ImportError:
        return "the docker SDK is not installed (pip install docker)"
    try:
        sdk = docker.from_env()
        sdk.ping()
    except Exception as exc:
        return f"the engine is unreachable: {type(exc).__name__}: {exc}"
    try:
        sdk.images.get(image)
        return None
    except docker.errors.ImageNotFound:
        if image != PYTHON_IMAGE:
            return f"image {image} not found"
    from sandlot.errors import SandboxError
    from sandlot_docker.image import build_image

    print(f"docker: building {image} (debootstrap with python3, cached under ~/.cache/sandlot-docker)", file=sys.stderr)
    try:
        build_image(sdk.api, image, cache_dir=Path.home() / ".cache" / "sandlot-docker", packages=("python3",))
    except SandboxError as exc:
        return f"cannot build {image}: {exc}"
    return None


# -- the report ----------------------------------------------------------------------------


def times(ratio: float) -> str:
    """How many times faster sandlot is; below 1 it is slower, which is said outright."""
    return f"{ratio:.1f}x" if ratio >= 1 else f"{ratio:.2f}x (sandlot {1 / ratio:.0f}x slower)"


def table(provider: str, samples: dict[str, tuple[list[float], list[float]]]) -> list[str]:
    goal = TARGETS[provider]
    lines = [
        f"### {provider}",
        "",
        "| operation | sandlot median | sandlot p90 | Deep Agents median | Deep Agents p90 | ratio (medians) | runs |",
        "|---|---|---|---|---|---|---|",
    ]
    ratios = {}
    for op, (mine, theirs) in samples.items():
        ratios[op] = median_ms(theirs) / median_ms(mine)
        lines.append(
            f"| {op} | {median_ms(mine):.3f} ms | {p90_ms(mine):.3f} ms | {median_ms(theirs):.3f} ms | "
            f"{p90_ms(theirs):.3f} ms | {times(ratios[op])} | {len(mine)} |"
        )
    worst = min(ratios[op] for op in TARGETED)
    lines += [
        "",
        f"{provider}: Deep Agents' median / sandlot's: " + ", ".join(f"{op} {times(r)}" for op, r in ratios.items())
        + f"; target >= {goal:.0f}x for read/write/edit: "
        + ("met" if worst >= goal else f"NOT met (lowest {worst:.1f}x)"),
        "",
    ]  # fmt: skip
    return lines


def machine_line(providers: list[str], image: str) -> str:
    parts = [
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Linux {platform.release()}",
        f"Python {platform.python_version()}",
        f"deepagents {importlib.metadata.version('deepagents')}",
    ]
    if "bwrap" in providers and shutil.which("bwrap"):
        parts.append(subprocess.run(["bwrap", "--version"], capture_output=True, text=True).stdout.strip())
    if "docker" in providers:
        with contextlib.suppress(Exception):
            import docker

            version = docker.from_env().version()
            parts.append(f"Docker engine {version.get('Version')} (API {version.get('ApiVersion')}), image {image}")
    load = os.getloadavg()[0]
    parts.append(f"load average {load:.2f} at start, {datetime.date.today().isoformat()}")
    return ", ".join(parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--providers", default="local,bwrap,docker", help="comma-separated: local, bwrap, docker")
    parser.add_argument("--rounds", type=int, default=40, help="timed calls per operation and side")
    parser.add_argument("--warmup", type=int, default=3, help="untimed rounds first")
    parser.add_argument("--image", default=PYTHON_IMAGE, help="Docker image with python3 (built when missing)")
    parser.add_argument("--markdown", type=Path, help="also write the figures as Markdown to this file")
    args = parser.parse_args()
    providers = [p.strip() for p in args.providers.split(",") if p.strip()]
    unknown = sorted(set(providers) - set(TARGETS))
    if unknown:
        parser.error(f"unknown providers: {', '.join(unknown)}")

    lines = [
        machine_line(providers, args.image),
        f"tree: {DIRS} directories x {FILES_PER_DIR} files + {TARGET} (10,240 bytes) + {WRITTEN} (10,240 bytes); "
        f"grep {NEEDLE!r} (literal) and glob {GLOB!r} over the tree; {args.rounds} rounds after {args.warmup} "
        f"warm-up rounds, interleaved",
        "",
    ]
    for provider in providers:
        print(f"{provider}: measuring ...", file=sys.stderr)
        if provider == "docker" and (reason := docker_unavailable(args.image)) is not None:
            print(f"docker: skipped ({reason})", file=sys.stderr)
            lines += [f"docker: skipped ({reason})", ""]
            continue
        try:
            samples = run_docker(args) if provider == "docker" else run_host(provider, args)
        except (ProviderUnavailable, ProviderNotFound, ImageLacksPython) as exc:
            print(f"{provider}: skipped, cannot create a sandbox ({exc})", file=sys.stderr)
            lines += [f"{provider}: skipped ({exc})", ""]
            continue
        lines += table(provider, samples)
    report("\n".join(lines).rstrip(), args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
