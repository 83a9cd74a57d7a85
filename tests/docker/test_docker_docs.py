"""docs/providers/docker.md stays true: its Python examples run, its TOML validates, every option is listed."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import attrs
import pytest
from docker_kit import IMAGE

from sandlot.config import config_from_data
from sandlot_docker.image import DEFAULT_IMAGE
from sandlot_docker.options import DockerOptions
from sandlot_docker.provider import options_from

DOC = Path(__file__).resolve().parents[2] / "docs" / "providers" / "docker.md"
PYTHON = re.compile(r"```python\n(.*?)```", re.DOTALL)
TOML = re.compile(r"```toml\n(.*?)```", re.DOTALL)


def test_every_option_is_documented() -> None:
    text = DOC.read_text()
    for field in attrs.fields(DockerOptions):
        assert f"| `{field.name}` |" in text, f"option {field.name} is missing from {DOC.name}"


@pytest.mark.parametrize("block", TOML.findall(DOC.read_text()))
def test_toml_examples_validate(block: str) -> None:
    data = tomllib.loads(block)
    config = config_from_data(data)
    options_from(config.providers.get("docker", {}))


@pytest.mark.parametrize("code", PYTHON.findall(DOC.read_text()))
def test_python_examples_run(api: Any, code: str, tmp_path: Path) -> None:
    code = code.replace(DEFAULT_IMAGE, IMAGE)
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "hello from sandlot" in done.stdout
    assert "blocked (filesystem): /etc/x" in done.stdout
