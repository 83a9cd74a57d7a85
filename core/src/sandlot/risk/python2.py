"""Python 2 source read as the Python 3 it means.

Old exploits, admin scripts and pasted answers are still written in Python 2: ``print "x"``,
``except OSError, e:``, ``exec code in ns``, ``0777``. Python 3's parser rejects them, and an analyzer
that stopped there would only say "does not parse". :func:`modernise` rewrites those statements line by
line (so line numbers stay) into their Python 3 spelling; the names (``urllib2``, ``commands``,
``raw_input``) are the tables' business.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_PRINT = re.compile(r"^(?P<head>\s*(?:(?:if|elif|while|for|with|else|try|except|finally)\b[^#]*?:\s*)?)print\b"
                    r"(?!\s*\()(?!\s*=)(?P<rest>.*)$")  # fmt: skip
_PRINT_TO = re.compile(r"^>>\s*(?P<file>[^,]+),\s*(?P<args>.*)$")
_EXCEPT = re.compile(r"^(?P<head>\s*except\s+)(?P<kinds>.+?),\s*(?P<name>\w+)\s*:(?P<tail>.*)$")
_RAISE = re.compile(r"^(?P<head>\s*raise\s+)(?P<kind>[\w.]+)\s*,\s*(?P<args>.+?)\s*$")
_EXEC = re.compile(r"^(?P<head>\s*)exec\s+(?!\()(?P<code>.+?)(?:\s+in\s+(?P<ns>.+?))?\s*$")
_OCTAL = re.compile(r"(?<![\w.])0(?P<digits>[0-7]+)(?![\w.])")
_LONG = re.compile(r"(?<![\w.])(?P<digits>\d+)[lL](?!\w)")
_BACKTICK = re.compile(r"`(?P<expr>[^`\n]+)`")
#: Statements only Python 2 has: worth a second parse.
_PYTHON2 = re.compile(
    r"(?:^|;)\s*print\s+[^\s(=]|^\s*print\s*$|^\s*except\s+[^:]+,\s*\w+\s*:|(?:^|;)\s*exec\s+[^\s(]|^\s*raise\s+[\w.]+\s*,"
    r"|`[^`\n]+`|<>|(?<![\w.])0[0-7]+(?![\w.])|\b\d+[lL]\b",
    re.MULTILINE,
)


def looks_like_python2(code: str) -> bool:
    """``code`` has at least one statement only Python 2 accepts."""
    return bool(_PYTHON2.search(code))


def modernise(code: str) -> str:
    """``code`` with Python 2's print/exec statements, ``except X, e``, ``raise E, msg``, octal and long
    literals, backticks and ``<>`` rewritten as Python 3; one output line per input line."""
    return "\n".join(_line(line) for line in code.split("\n"))


def _line(line: str) -> str:
    code, comment = _split_comment(line)
    code = _outside_strings(code, _literals)
    return ";".join(_statement(part) for part in _split_statements(code)) + comment


def _statement(code: str) -> str:
    if m := _PRINT.match(code):
        rest = m.group("rest").strip()
        to = _PRINT_TO.match(rest)
        if to:
            code = f"{m.group('head')}print({to.group('args').rstrip(',')}, file={to.group('file').strip()})"
        else:
            code = f"{m.group('head')}print({rest.rstrip(',')})"
    elif m := _EXCEPT.match(code):
        code = f"{m.group('head')}{m.group('kinds')} as {m.group('name')}:{m.group('tail')}"
    elif m := _RAISE.match(code):
        code = f"{m.group('head')}{m.group('kind')}({m.group('args')})"
    elif m := _EXEC.match(code):
        namespace = f", {m.group('ns')}" if m.group("ns") else ""
        code = f"{m.group('head')}exec({m.group('code')}{namespace})"
    return code


def _literals(text: str) -> str:
    text = _OCTAL.sub(lambda m: "0o" + m.group("digits"), text)
    text = _LONG.sub(lambda m: m.group("digits"), text)
    text = _BACKTICK.sub(lambda m: f"repr({m.group('expr')})", text)
    return text.replace("<>", "!=")


def _outside_strings(line: str, rewrite: Callable[[str], str]) -> str:
    """Apply ``rewrite`` to the parts of ``line`` outside string literals."""
    parts = re.split(r"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')""", line)
    return "".join(part if i % 2 else rewrite(part) for i, part in enumerate(parts))


def _split_statements(code: str) -> list[str]:
    """``code`` cut at each ``;`` outside string literals (``import x; exec x.read()``)."""
    if ";" not in code:
        return [code]
    parts = re.split(r"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')""", code)
    statements = [""]
    for i, part in enumerate(parts):
        if i % 2:
            statements[-1] += part
            continue
        first, *rest = part.split(";")
        statements[-1] += first
        statements.extend(rest)
    return statements


def _split_comment(line: str) -> tuple[str, str]:
    """``line`` cut before a ``#`` that is not inside a string."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote and line[i - 1] != "\\":
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return line[:i], line[i:]
    return line, ""
