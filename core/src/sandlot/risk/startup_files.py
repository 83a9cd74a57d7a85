"""Is known content written to a start-up location harmless? (shared by both analyzers)

Writing a persistence location (a ``.pth`` file, ``sitecustomize.py``, an IPython start-up file,
the project's own git hook) is HIGH because whatever it holds runs later without being asked.
When the content is known and does nothing worth a look (paths in a ``.pth``, imports and
magics in a start-up file, a linter in a pre-commit hook), the write is only MEDIUM; harmful
content is graded on its own by the analyzers either way.
"""

from __future__ import annotations

import posixpath

from sandlot.risk.model import Category, Finding, RiskLevel
from sandlot.risk.paths import HOLE, PathInfo, PathKind


def harmless_startup_content(info: PathInfo, content: str) -> bool:
    """``content`` written to the persistence location ``info`` runs nothing worth a look."""
    if not info.persistence or not content.strip():
        return False
    name = posixpath.basename(info.path.replace("\\", "/")).lower()
    if name.endswith(".pth"):
        # only lines starting with `import` run; the others are directories added to sys.path
        lines = [line.strip() for line in content.splitlines() if line.strip()]
        return all("import" not in line and line.replace(HOLE, "") and ";" not in line for line in lines)
    if HOLE in content:
        return False
    comps = [c for c in info.path.replace("\\", "/").split("/") if c not in ("", ".")]
    project_hook = (
        info.kind is PathKind.RELATIVE and len(comps) >= 3 and comps[-3:-1] == [".git", "hooks"] and ".." not in comps
    )
    startup_code = name in ("sitecustomize.py", "usercustomize.py") or (
        name.endswith(".py") and any(c in ("startup", "site-packages", "dist-packages") for c in comps)
    )
    if startup_code:
        from sandlot.risk.python_analyzer import analyze_python

        return quiet(analyze_python(content))
    if name.endswith(".rules") and "udev" in comps:
        # a udev rule runs programs only through RUN/PROGRAM/IMPORT{program}; MODE/GROUP set permissions
        lowered = content.lower()
        return not any(k in lowered for k in ("run+=", "run=", "program=", "import{program}")) and not any(
            m in lowered for m in ('mode="0666"', 'mode="0777"', 'mode="666"', 'mode="777"')
        )
    if project_hook:
        from sandlot.risk.shell_analyzer import analyze_shell

        return quiet(analyze_shell(content))
    return False


#: What start-up code must not do at all, even at LOW: it would do it at every start, unasked.
_LOUD = frozenset({Category.NETWORK, Category.EXFILTRATION, Category.DYNAMIC_CODE, Category.PERSISTENCE})


def quiet(findings: list[Finding]) -> bool:
    """Nothing above LOW, and no network, dynamic code or persistence at all."""
    return all(f.level <= RiskLevel.LOW and f.category not in _LOUD for f in findings)
