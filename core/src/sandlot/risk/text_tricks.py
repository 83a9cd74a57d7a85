"""Unicode used to hide what text says (shared by both analyzers, judged on the whole text).

What a reviewer reads and what a program does can differ when text carries characters nobody sees. What needs a
careful reviewer:

* bidirectional controls (U+202A-U+202E, U+2066-U+2069) written into source code: the line displays in another
  order than it runs (Trojan Source), so a changed check looks unchanged;
* credentials spelled as zero-width characters (U+200B, U+200C, U+200D, U+2060) bit by bit in a file: a token
  carried out in a commit or a document nobody sees it in;
* a Python file written with a ``coding: utf-7`` cookie: its "comments" decode to statements that run.

Stripping those characters from text, scanning for them and displaying right-to-left text are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Bidirectional controls, as characters or as escapes in code (`\u202e`, `\N{RIGHT-TO-LEFT OVERRIDE}`, `\xe2\x80\xae`).
_BIDI = re.compile(
    "[\u202a-\u202e\u2066-\u2069]"
    r"|\\u(?:202[a-eA-E]|206[6-9])|\\U0000(?:202[a-eA-E]|206[6-9])|\\xe2\\x80\\xa[a-eA-E]|\\xe2\\x81\\xa[6-9]"
    r"|\\N\{(?:RIGHT-TO-LEFT|LEFT-TO-RIGHT) (?:OVERRIDE|ISOLATE|EMBEDDING)\}|\\N\{(?:FIRST STRONG|POP DIRECTIONAL)"
)
_ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060]|" + r"\\u(?:200[bcdBCD]|2060)")
#: Where such characters are only looked for or removed (a sanitiser or a scanner: a list or set of them), not
#: written.
_HANDLED = re.compile(
    r"\.replace\([^)\n]*\)|\bre\.\w+\([^\n]*|\[[^\]\n]*\]|\.translate\([^)\n]*\)|maketrans\([^)\n]*\)"
    r"|\{(?:\s*[\"'][^\"'\n]*[\"']\s*,?)+\}"
    r"|\bin\s+\w+|\btr\s+-d[^\n]*|\bgrep\b[^\n]*|\bsed\s+[^\n]*s/[^\n]*//"
)
#: Source code written (a file with a program's suffix named, and a write to it or a commit).
_SOURCE_FILE = re.compile(r"\.(?:py|js|ts|jsx|tsx|go|rs|c|h|cc|cpp|java|kt|rb|php|sh|swift|cs)[\"'\s)]")
_WRITES = re.compile(r"\.write_text\(|\.write\(|open\([^)]*[\"'][wa]|>>?\s*\S|\btee\b|\bsed\s+-i|\bgit\s+commit\b"
                     r"|[\"']commit[\"']")  # fmt: skip
#: Bits of a value spelled one by one (`f"{b:08b}"`, `format(b, "08b")`, `bin(`).
_BITS = re.compile(r":08b\}|[\"']08b[\"']|\bbin\(|\bxxd\s+-b\b")
_CREDENTIAL_READ = re.compile(r"environ[^\n]{0,40}(?:TOKEN|SECRET|PASSWORD|API_KEY)|\$\{?\w*(?:TOKEN|SECRET|PASSWORD)")
_UTF7_COOKIE = re.compile(r"coding[:=]\s*utf[-_]?7\b", re.IGNORECASE)
_WORDS = GateWords("\\u", "\\U", "\\x", "\\N", "coding", "\u202e", "\u2066", "\u200b", "\u200c", "\u202a", "\u202b",
                   "\u202c", "\u202d", "\u2067", "\u2068", "\u2069", "\u200d", "\u2060")  # fmt: skip


def text_trick_risks(text: str) -> list[OperationRisk]:
    """Invisible or reordering characters planted where people read, and code hidden in a UTF-7 file."""
    if not _WORDS.any_in(text):
        return []
    found = []
    bidi, zero_width = _BIDI.search(text) is not None, _ZERO_WIDTH.search(text) is not None
    # (only texts that hold such characters at all are cleared of the places that merely strip or look for them)
    unhandled = _HANDLED.sub("", text) if bidi or zero_width else ""
    if bidi and _BIDI.search(unhandled) and _SOURCE_FILE.search(text) and _WRITES.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "writes bidirectional control characters into source code (the code displays in "
                                   "another order than it runs: a changed check looks unchanged)"))  # fmt: skip
    if zero_width and _ZERO_WIDTH.search(unhandled) and _BITS.search(text) and _CREDENTIAL_READ.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "spells a credential in invisible zero-width characters (carried out in text "
                                   "nobody sees it in)"))  # fmt: skip
    if _UTF7_COOKIE.search(text) and _WRITES.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "writes a Python file declared as UTF-7 (what looks like comments decodes to "
                                   "statements that run)"))  # fmt: skip
    return found
