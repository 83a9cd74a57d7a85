"""Every hook is documented in docs/hooks.md and exercised by a test."""

from __future__ import annotations

import re
from pathlib import Path

from sandlot import hookspecs

REPO = Path(__file__).resolve().parents[2]
HOOKS = sorted(name for name in dir(hookspecs) if name.startswith("sandlot_"))


def test_there_are_hooks() -> None:
    assert {
        "sandlot_register_providers",
        "sandlot_translate_policy",
        "sandlot_detect_violation",
        "sandlot_assess_risk",
        "sandlot_approve",
        "sandlot_register_commands",
    } <= set(HOOKS)


def test_every_hook_has_a_docstring_with_its_convention() -> None:
    for name in HOOKS:
        doc = getattr(hookspecs, name).__doc__ or ""
        assert re.search(r"collected|firstresult", doc, re.IGNORECASE), name


def test_every_hook_is_documented() -> None:
    text = (REPO / "docs" / "hooks.md").read_text()
    for name in HOOKS:
        assert f"## {name}" in text, f"docs/hooks.md has no section for {name}"


def test_every_hook_is_implemented_in_a_test() -> None:
    sources = "\n".join(p.read_text() for p in (REPO / "tests").rglob("*.py") if p.name != "test_hooks_documented.py")
    for name in HOOKS:
        assert re.search(rf"def {name}\(", sources), f"no test implements {name}"
