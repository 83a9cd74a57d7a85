"""No module of the package binds one top-level name twice.

The risk modules hold hundreds of module-level patterns; a second ``_NAME = re.compile(...)`` further down a file
silently replaces the first for every use, above and below (this happened three times: a fetch pattern in the Python
analyzer, a loop pattern and an admin-flag pattern in the whole-text checks), so the rules that were written against
the first one test something else.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import sandlot

PACKAGE = Path(sandlot.__file__).parent


def _top_level_bindings(tree: ast.Module) -> dict[str, list[int]]:
    lines: dict[str, list[int]] = defaultdict(list)
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names = [node.target.id]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        else:
            continue
        for name in names:
            lines[name].append(node.lineno)
    return lines


def test_no_top_level_name_is_bound_twice() -> None:
    rebound = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for name, lines in _top_level_bindings(ast.parse(path.read_text(encoding="utf-8"))).items():
            if len(lines) > 1:
                rebound.append(f"{path.relative_to(PACKAGE)}: {name} bound at lines {lines}")
    assert not rebound, "top-level names bound more than once (the last silently wins):\n" + "\n".join(rebound)


def test_the_check_sees_a_rebinding() -> None:
    tree = ast.parse("import re\n_X = re.compile('a')\ndef f(): return _X\n_X = re.compile('b')\n")
    assert _top_level_bindings(tree)["_X"] == [2, 4]
