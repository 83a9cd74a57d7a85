"""Can bwrap sandbox anything on this machine? If not: why, and how to fix it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from sandlot.provider import Availability
from sandlot_bwrap import seccomp

#: How often a bwrap that failed while setting up is started again (transient mount churn).
SETUP_ATTEMPTS = 3

INSTALL_FIX = "apt-get install bubblewrap (dnf install bubblewrap; pacman -S bubblewrap)"


def _read(path: str) -> str | None:
    try:
        return Path(path).read_text().strip()
    except OSError:
        return None


def check(bwrap: str = "bwrap") -> Availability:
    if not sys.platform.startswith("linux"):
        return Availability(
            False,
            reason=f"bwrap needs Linux (this is {sys.platform})",
            fix="use the seatbelt provider on macOS, or docker",
        )
    exe = shutil.which(bwrap)
    if exe is None:
        return Availability(False, reason=f"the bubblewrap executable {bwrap!r} was not found on PATH", fix=INSTALL_FIX)
    try:
        seccomp.native_arch()
    except seccomp.UnsupportedArch as exc:
        return Availability(False, reason=str(exc), fix="run on x86_64 or aarch64, or use the docker provider")
    if _read("/proc/sys/user/max_user_namespaces") == "0":
        return Availability(
            False,
            reason="user namespaces are disabled (user.max_user_namespaces = 0)",
            fix="sysctl -w user.max_user_namespaces=15000",
        )
    if _read("/proc/sys/kernel/unprivileged_userns_clone") == "0":
        return Availability(
            False,
            reason="unprivileged user namespaces are disabled (kernel.unprivileged_userns_clone = 0)",
            fix="sysctl -w kernel.unprivileged_userns_clone=1",
        )
    return _probe(exe)


_PROBED_OK: set[str] = set()


def _probe(exe: str) -> Availability:
    """Run the namespaces bwrap needs: the only reliable test (AppArmor, seccomp of a container
    runtime or a setuid-less build can each forbid what the sysctls allow).

    Success is remembered for the process. A failure is retried and never cached: bwrap's
    recursive read-only bind of / fails transiently while another program (Docker creating a
    container) adds and removes mounts, and such a blip must not disable the provider.
    """
    if exe in _PROBED_OK:
        return Availability(True)
    result = Availability(False)
    for attempt in range(SETUP_ATTEMPTS):
        result = _probe_once(exe)
        if result.ok:
            _PROBED_OK.add(exe)
            return result
        time.sleep(0.05 * (attempt + 1))
    return result


def _probe_once(exe: str) -> Availability:
    argv = [
        exe,
        "--unshare-user",
        "--uid",
        "1000",
        "--gid",
        "1000",
        "--disable-userns",
        "--cap-drop",
        "ALL",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup",
        "--unshare-net",
        "--ro-bind",
        "/",
        "/",
        "--dev",
        "/dev",
        "--proc",
        "/proc",
        "--",
        "/bin/true",
    ]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20, env={"PATH": "/usr/bin:/bin"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Availability(False, reason=f"running {exe} failed: {exc}", fix=INSTALL_FIX)
    if done.returncode == 0:
        return Availability(True)
    detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
    fix = "sysctl -w user.max_user_namespaces=15000"
    if _read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
        fix = (
            "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile allowing userns for bwrap"
        )
    return Availability(False, reason=f"bwrap cannot create its namespaces here: {detail[0]}", fix=fix)
