"""The generic (POSIX sh) file backend on busybox: its ash runs the session, its applets are the tools.

The backend promises to need only a POSIX shell and the usual tools, not GNU coreutils, findutils
or grep (busybox grep has neither -Z nor -I: the backend notices and switches to a per-file form).
A bwrap sandbox whose PATH holds only busybox applets, with the shell backend forced, runs the
whole file-operation contract (bwrap also gives the policy tests a real deny list to meet).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandlot import Config, EnvironmentPolicy, Policy, Sandlot
from sandlot.files.shell import ShellFiles
from sandlot.sandbox import Sandbox
from sandlot.testing import FileOperationsContract

sys.path.insert(0, str(Path(__file__).parent))

from bwrap_kit import requires_bwrap

BUSYBOX = shutil.which("busybox")

pytestmark = [
    requires_bwrap,
    pytest.mark.skipif(BUSYBOX is None, reason="busybox is not installed (scripts/setup.sh --with-docker installs it)"),
]


class TestBusyboxShellFiles(FileOperationsContract):
    @pytest.fixture
    def sandlot_client(self, home: Path, base: Path) -> Sandlot:
        applets = base / "busybox"
        applets.mkdir()
        subprocess.run([str(BUSYBOX), "--install", "-s", str(applets)], check=True)
        options = {"home": str(home), "quarantine_dir": str(base / "q"), "shell": str(applets / "sh")}
        policy = Policy(environment=EnvironmentPolicy(set={"PATH": str(applets)}))
        return Sandlot(Config(provider="bwrap", providers={"bwrap": options}, policy=policy))

    @pytest.fixture
    def sandbox(self, sandlot_client: Sandlot) -> Iterator[Sandbox]:
        box = sandlot_client.create()
        box._file_backend = ShellFiles(box)  # not the host fast path: the shell, on busybox
        try:
            assert "busybox" in box.exec("readlink /proc/$$/exe; readlink \"$(command -v grep)\"").stdout
            yield box
        finally:
            box.close()
