"""Run the bwrap test modules again as an unprivileged host user (when these tests run as root).

A sandbox started by root and one started by an ordinary user differ in ways that matter
(uid mapping onto host root, RLIMIT_NPROC vs. a pids cgroup, which host files the bwrap
process itself can reach), so ``python -m pytest`` from the repository root covers both:
as root, this test creates the ``sandlot-test`` user if missing and runs the suite under
it with ``runuser``.

The checkout and the interpreter running the tests may live where that user cannot read
(a pyenv or a checkout under /root), so the run uses a private, world-readable copy of
the two packages under test, the test modules and their pure-Python dependencies, and
this interpreter when the user can run it, else a system Python of the same minor version.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
USER = "sandlot-test"
CHILD_FLAG = "SANDLOT_BWRAP_UNPRIVILEGED_CHILD"
MODULES = ("test_containment.py", "test_detect.py", "test_translate.py", "test_contract.py", "test_mounts.py")
#: Top-level modules the suite imports, and their distributions (for metadata and entry points).
PACKAGES = {
    "attr": "attrs",
    "attrs": "attrs",
    "cattr": "cattrs",
    "cattrs": "cattrs",
    "pluggy": "pluggy",
    "_pytest": "pytest",
    "pytest": "pytest",
    "py": "pytest",
    "iniconfig": "iniconfig",
    "packaging": "packaging",
    "platformdirs": "platformdirs",
    "click": "click",
    "typing_extensions": "typing_extensions",
    "exceptiongroup": "exceptiongroup",
    "pygments": "pygments",
    "hypothesis": "hypothesis",
    "_hypothesis_pytestplugin": "hypothesis",
    "_hypothesis_ftz_detector": "hypothesis",
    "_hypothesis_globals": "hypothesis",
    "sortedcontainers": "sortedcontainers",
}

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="already unprivileged: the other modules are the unprivileged run"),
    pytest.mark.skipif(os.environ.get(CHILD_FLAG) == "1", reason="inside the unprivileged run"),
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bwrap is not installed"),
]


def _ensure_user() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(USER)
    except KeyError:
        pass
    if shutil.which("useradd") is None:
        pytest.skip("useradd is not available to create the unprivileged test user")
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", USER],
        check=True,
        capture_output=True,
    )
    return pwd.getpwnam(USER)


def _can_run(user: str, path: str) -> bool:
    done = subprocess.run(["runuser", "-u", user, "--", path, "-c", "import sys"], capture_output=True)
    return done.returncode == 0


def _interpreter(user: str) -> str:
    if _can_run(user, sys.executable):
        return sys.executable
    minor = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for candidate in (f"/usr/bin/{minor}", f"/usr/local/bin/{minor}"):
        if os.path.exists(candidate) and _can_run(user, candidate):
            return candidate
    pytest.skip(f"no {minor} the user {user} can run (the test interpreter is {sys.executable})")


def _private_site(dest: Path) -> None:
    """Copy the pure-Python dependencies (and their metadata) where the test user can read them."""
    dest.mkdir()
    dists: set[str] = {"sandlot", "sandlot-bwrap"}
    for module, dist in PACKAGES.items():
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            continue
        dists.add(dist)
        if spec.submodule_search_locations:
            src = Path(next(iter(spec.submodule_search_locations)))
            shutil.copytree(src, dest / src.name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(spec.origin, dest / Path(spec.origin).name)
    for dist in dists:
        try:
            info = importlib.metadata.distribution(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
        path = getattr(info, "_path", None)
        if path is not None and Path(path).is_dir():
            shutil.copytree(path, dest / Path(path).name)


def _copy_sources(dest: Path) -> None:
    """The packages under test (whatever this process imports) and the test modules."""
    import sandlot
    import sandlot_bwrap

    ignore = shutil.ignore_patterns("__pycache__")
    for module in (sandlot, sandlot_bwrap):
        src = Path(str(module.__file__)).resolve().parent
        shutil.copytree(src, dest / "src" / src.name, ignore=ignore)
    shutil.copytree(HERE, dest / "tests", ignore=ignore)


def test_suite_passes_as_unprivileged_user() -> None:
    user = _ensure_user()
    assert user.pw_uid != 0
    runtime = Path(tempfile.mkdtemp(prefix="sandlot-bwrap-unpriv-", dir="/var/tmp"))
    try:
        python = _interpreter(USER)
        _private_site(runtime / "site")
        _copy_sources(runtime)
        for root, _dirs, files in os.walk(runtime):
            os.chmod(root, 0o755)
            for name in files:
                os.chmod(os.path.join(root, name), 0o644)
        work = runtime / "run"
        work.mkdir()
        os.chown(work, user.pw_uid, user.pw_gid)
        tests = runtime / "tests"
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "HOME": str(work),
            "PYTHONPATH": os.pathsep.join([str(runtime / "site"), str(runtime / "src")]),
            "PYTHONDONTWRITEBYTECODE": "1",
            "LANG": "C.UTF-8",
            CHILD_FLAG: "1",
        }
        argv = [
            "runuser",
            "-u",
            USER,
            "--",
            "env",
            "-i",
            *(f"{k}={v}" for k, v in env.items()),
            python,
            "-m",
            "pytest",
            "-q",
            "-rs",
            "-p",
            "no:cacheprovider",
            "-c",
            "/dev/null",
            "--rootdir",
            str(tests),
            "--confcutdir",
            str(tests),
            *(str(tests / m) for m in MODULES),
        ]
        done = subprocess.run(argv, cwd=work, capture_output=True, text=True, timeout=900)
        tail = (done.stdout + done.stderr)[-6000:]
        assert done.returncode == 0, f"unprivileged run failed:\n{tail}"
        summary = done.stdout.strip().splitlines()[-1]
        assert " passed" in summary, tail
        # Only tests that need root may be skipped (e.g. the memory cgroup), nothing for lack of bwrap.
        skips = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
        assert all("needs root" in line for line in skips), tail
    finally:
        shutil.rmtree(runtime, ignore_errors=True)
