"""TeX documents that read files into their output (shared by both analyzers, judged on the whole text).

``\\verbatiminput{~/.aws/credentials}``, ``\\lstinputlisting{/etc/shadow}``: compiling the document copies the file
into the PDF, which is then shared like any document. A document's own chapters, figures and listings of the
project's sources are routine; a credential file typeset is a secret read. Commands a document runs when compiled
with shell escape (``\\write18{…}``, ``\\input{|"…"}``) are found by :mod:`sandlot.risk.payloads`.
"""

from __future__ import annotations

import re

from sandlot.risk import paths
from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel

#: TeX's and its packages' commands that put a file's text into the document.
_INCLUSION = re.compile(
    r"\\(?:verbatiminput|VerbatimInput|lstinputlisting|inputminted\s*\{[\w+-]+\}|input|include|includepdf"
    r"|verbatimtabinput|listinginput)\s*(?:\[[^\]\n]*\]\s*)?\{([^{}\n]+)\}"
)
#: Ways a shell or a TeX document spells the home directory.
_HOME = re.compile(r"^(?:\$HOME|\$\{HOME\}|\\string~|~)")


def secret_inclusions(text: str) -> list[str]:
    """Secret files (keys, credentials, password databases) that a TeX document in ``text`` typesets."""
    if "\\" not in text or ("input" not in text and "include" not in text):
        return []
    found = []
    for match in _INCLUSION.finditer(text):
        path = _HOME.sub("~", match[1].strip())
        if path.startswith(("/", "~")) and paths.classify(path).secret:
            found.append(path)
    return found


def typesetting_risks(text: str) -> list[OperationRisk]:
    """A secret file read into a document."""
    secrets = secret_inclusions(text)
    if not secrets:
        return []
    what = f"typesets {secrets[0]} into a document (the secret is copied into the PDF it builds)"
    return [OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)]
