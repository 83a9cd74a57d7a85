"""The Python examples in the docs run, as written, against the local provider."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)


def examples() -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        for index, match in enumerate(BLOCK.finditer(path.read_text())):
            found.append((f"{path.relative_to(REPO)}#{index}", match.group(1)))
    return found


@pytest.mark.parametrize(("where", "code"), examples(), ids=[w for w, _ in examples()])
def test_example_runs(where: str, code: str, tmp_path: Path) -> None:
    # Examples use the configured default provider; here it is "local" so they need nothing else.
    (tmp_path / "sandlot.toml").write_text('provider = "local"\n')
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"{where} failed:\n{proc.stderr}"
