"""Pure text helpers shared by every file backend: decoding, line windows, replacement, globs."""

from __future__ import annotations

import re
from functools import lru_cache

from sandlot.errors import FileOperationError
from sandlot.files.model import FileErrorCode


def decode_text(data: bytes, path: str) -> str:
    """``data`` as UTF-8 text, or a ``not_text`` error (a NUL byte or invalid UTF-8)."""
    if b"\0" in data:
        raise FileOperationError(
            FileErrorCode.NOT_TEXT, path, "is a binary file (contains NUL bytes); read it as bytes"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileOperationError(
            FileErrorCode.NOT_TEXT, path, f"is not UTF-8 text (invalid byte at offset {exc.start}); read it as bytes"
        ) from None


def check_window(offset: int, limit: int | None) -> None:
    if not isinstance(offset, int) or offset < 0:
        raise ValueError(f"offset must be an integer >= 0 (a line number counting from 0), got {offset!r}")
    if limit is not None and (not isinstance(limit, int) or limit < 0):
        raise ValueError(f"limit must be None or an integer >= 0 (a number of lines), got {limit!r}")


def line_window(text: str, offset: int, limit: int | None) -> str:
    """Lines ``offset`` .. ``offset + limit`` of ``text`` (0-based), line endings kept."""
    if offset == 0 and limit is None:
        return text
    # Lines end at "\n" only, as for grep's line numbers (str.splitlines would also split at \r, \f...).
    lines = text.split("\n")
    pieces = [line + "\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    end = None if limit is None else offset + limit
    return "".join(pieces[offset:end])


def replace_text(text: str, old: str, new: str, *, replace_all: bool, path: str) -> tuple[str, int]:
    """``text`` with ``old`` replaced by ``new``, and how many times; errors name the file."""
    if not old:
        raise ValueError("old must be a non-empty string")
    count = text.count(old)
    if count == 0:
        raise FileOperationError(FileErrorCode.STRING_NOT_FOUND, path, "the string to replace does not occur")
    if count > 1 and not replace_all:
        raise FileOperationError(
            FileErrorCode.AMBIGUOUS_MATCH,
            path,
            f"the string to replace occurs {count} times; give more context or pass replace_all=True",
        )
    return text.replace(old, new), count


def _expand_braces(pattern: str) -> list[str]:
    """``a{b,c}d`` -> ``[abd, acd]`` (nested braces too); unbalanced braces stay literal."""
    depth = 0
    start = -1
    for i, ch in enumerate(pattern):
        if ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                inner = pattern[start + 1 : i]
                options, level, piece = [], 0, ""
                for c in inner:
                    if c == "," and level == 0:
                        options.append(piece)
                        piece = ""
                        continue
                    level += c == "{"
                    level -= c == "}"
                    piece += c
                options.append(piece)
                if len(options) == 1:
                    continue
                head, tail = pattern[:start], pattern[i + 1 :]
                return [
                    head + expanded + rest
                    for option in options
                    for expanded in _expand_braces(option)
                    for rest in _expand_braces(tail)
                ]
    return [pattern]


def component_regex(part: str) -> str:
    """A regex for one path component: ``*``, ``?``, ``[...]``/``[!...]`` within it, the rest literal."""
    out, i = [], 0
    while i < len(part):
        ch = part[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            close = part.find("]", i + 2 if part[i + 1 : i + 2] in ("!", "^") else i + 1)
            if close == -1:
                out.append(re.escape(ch))
            else:
                body = part[i + 1 : close]
                negate = body[:1] in ("!", "^")
                body = body[1:] if negate else body
                out.append("[" + ("^/" if negate else "") + body.replace("\\", "\\\\") + "]")
                i = close
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def _glob_regex(pattern: str) -> str:
    parts = pattern.split("/")
    out = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if part == "**":
            out.append(".*" if last else "(?:[^/]+/)*")
        else:
            out.append(component_regex(part) + ("" if last else "/"))
    return "".join(out)


@lru_cache(maxsize=256)
def compile_glob(pattern: str) -> re.Pattern[str]:
    """A regex matching relative paths: ``*``/``?``/``[...]`` within a component, ``**`` across
    any number of directories, ``{a,b}`` alternatives."""
    while pattern.startswith("./"):
        pattern = pattern[2:]
    alternatives = [_glob_regex(p) for p in _expand_braces(pattern)]
    return re.compile("(?:" + "|".join(alternatives) + r")\Z", re.DOTALL)


def glob_asks_for_hidden(pattern: str) -> bool:
    """Whether a component of ``pattern`` names dot-entries explicitly (``.github/**``, ``**/.env``)."""
    return any(part.startswith(".") and part not in (".", "..") for part in pattern.split("/"))


def is_hidden(relative: str) -> bool:
    return any(part.startswith(".") for part in relative.split("/") if part not in ("", "."))


def include_matches(pattern: str, relative: str) -> bool:
    """The grep include filter: a pattern without ``/`` matches file names, one with ``/`` relative paths."""
    target = relative if "/" in pattern.replace("**/", "") else relative.rsplit("/", 1)[-1]
    return compile_glob(pattern).match(target) is not None
