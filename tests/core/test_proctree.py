"""Process-tree walking and killing, setsid'd and orphaned descendants included."""

from __future__ import annotations

import os
import subprocess
import time

from sandlot import proctree


def test_descendants_and_kill_tree() -> None:
    proc = subprocess.Popen(["sh", "-c", "sleep 300 & (sleep 301 &) ; setsid sleep 302 & wait"])
    try:
        deadline = time.monotonic() + 10
        while len(proctree.descendants(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        found = proctree.descendants(proc.pid)
        assert len(found) >= 2
        assert os.getpid() not in found and proc.pid not in found
        proctree.kill_descendants(proc.pid)
        assert proctree.descendants(proc.pid) == []
    finally:
        proctree.kill_tree(proc.pid)
        proc.wait(10)
