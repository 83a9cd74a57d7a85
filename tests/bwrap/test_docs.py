"""The Python examples in docs/providers/bwrap.md run, as written, against the real bwrap provider."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


DOC = Path(__file__).resolve().parents[2] / "docs" / "providers" / "bwrap.md"
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
EXAMPLES = BLOCK.findall(DOC.read_text())


def test_the_doc_has_examples() -> None:
    assert EXAMPLES


@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_example_runs(bwrap_ok: None, code: str, tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "hi from /tmp as uid 1000" in proc.stdout or "hi from" not in code
