"""Text the tools hand back: error results, notices and the cuts that keep output within limits."""

from __future__ import annotations

from collections.abc import Iterable

from sandlot.errors import FileOperationError
from sandlot.files.model import FileErrorCode


class ErrorText(str):
    """The result of a tool that failed: still plain text for the model, but tellable apart
    (``isinstance(result, ErrorText)``) so a host can set MCP's ``isError`` or Anthropic's ``is_error``."""

    __slots__ = ()


#: Advice appended to an error when the underlying message is not enough for a model to recover.
_HINTS = {
    FileErrorCode.NOT_TEXT: "It is not UTF-8 text; inspect it with bash (e.g. `file PATH`, `head -c 256 PATH | xxd`).",
    FileErrorCode.IS_DIRECTORY: "Use ls or glob to see what the directory contains.",
    FileErrorCode.NOT_A_DIRECTORY: "The path, or a directory on it, is a file; use read_file to read a file.",
    FileErrorCode.STRING_NOT_FOUND: (
        "Read the file and copy the text exactly, including whitespace and indentation "
        "(without the line-number prefix read_file adds)."
    ),
    FileErrorCode.AMBIGUOUS_MATCH: "Include more of the surrounding text in old, or set replace_all to true.",
    FileErrorCode.FILE_CHANGED: "The file changed while it was being edited; read it again and retry.",
}


def error(code: str, message: str) -> ErrorText:
    return ErrorText(f"Error ({code}): {message}")


def file_error(exc: FileOperationError) -> ErrorText:
    """``Error (code): path: reason``, then a hint for the model and the policy's verdict if it blocked the path."""
    lines = [f"Error ({exc.code}): {exc}"]
    hint = _HINTS.get(exc.code)
    if hint is not None:
        lines.append(hint)
    if exc.violation is not None:
        lines.append(exc.violation.one_line())
    return ErrorText("\n".join(lines))


def invalid(exc: ValueError) -> ErrorText:
    """A value the sandbox refused (a bad regular expression, an empty string): the model's argument."""
    return error("invalid_argument", str(exc))


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 line``, ``2,000 lines``."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def cut_line(line: str, limit: int) -> str:
    """``line`` shortened to ``limit`` characters, with a marker giving its full length."""
    if len(line) <= limit:
        return line
    return f"{line[:limit]} [... line truncated: {len(line):,} characters]"


def head_and_tail(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters: the start and the end, the middle replaced by a notice.

    The tail matters as much as the head: it holds the error, the summary, the exit code.
    """
    if len(text) <= limit:
        return text
    head = limit // 2
    tail = limit - head
    dropped = len(text) - limit
    start, end = text[:head], text[len(text) - tail :]
    notice = (
        f"[... {dropped:,} of {len(text):,} characters omitted from the middle of the output; "
        "redirect it to a file and read_file or grep it to see all of it ...]"
    )
    return start + ("" if start.endswith("\n") else "\n") + notice + "\n" + end


def fit(lines: Iterable[str], budget: int) -> tuple[list[str], bool]:
    """The leading ``lines`` whose joined length (one newline each) stays within ``budget``, and
    whether any were left out. The first line is kept, cut if need be, so the output is never empty."""
    kept: list[str] = []
    used = 0
    for line in lines:
        size = len(line) + 1
        if used + size > budget:
            if not kept:
                kept.append(line[: max(budget - 1, 0)])
            return kept, True
        kept.append(line)
        used += size
    return kept, False
