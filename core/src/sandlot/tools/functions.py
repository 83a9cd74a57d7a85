"""The tools as plain functions: a sandbox and the model's arguments in, text for the model out.

Expected failures (a missing file, a policy refusal, a bad regular expression) come back as
:class:`~sandlot.tools.output.ErrorText`, never as exceptions, so one bad call cannot end an
agent loop; a closed or broken sandbox and wrongly typed arguments still raise.
"""

from __future__ import annotations

import attrs

from sandlot.errors import FileOperationError
from sandlot.files.paths import normalise
from sandlot.sandbox import POLICY_TIMEOUT, Sandbox, Timeout
from sandlot.tools.limits import DEFAULT_LIMITS, ToolLimits
from sandlot.tools.output import count, cut_line, error, file_error, fit, head_and_tail, invalid


def _shown(sb: Sandbox, path: str) -> str:
    """The absolute path the sandbox resolved ``path`` to, for messages (the model may have given a relative one)."""
    return normalise(path, sb.files_root)


def bash(sb: Sandbox, command: str, timeout: float | None = None, *, limits: ToolLimits = DEFAULT_LIMITS) -> str:
    """Run ``command`` in the sandbox's shell; stdout, stderr and notices (exit code, timeout,
    policy violation) as one text, cut to ``limits.bash_chars`` keeping the head and the tail."""
    effective: Timeout = POLICY_TIMEOUT
    capped = ""
    if timeout is not None:
        if timeout <= 0:
            return error("invalid_argument", f"timeout must be a number of seconds > 0, got {timeout!r}")
        effective = float(timeout)
        if limits.bash_max_timeout is not None and effective > limits.bash_max_timeout:
            effective = limits.bash_max_timeout
            capped = f"\n[the timeout was capped at {limits.bash_max_timeout:g}s]"
    try:
        result = sb.exec(command, timeout=effective)
    except ValueError as exc:
        return invalid(exc)
    # The notices (exit code, timeout, violation) end the output and must survive the cut whole:
    # only the streams are cut, the notices are what the same result says with no output.
    notices = attrs.evolve(result, stdout_bytes=b"", stderr_bytes=b"").output
    text = result.output
    streams = text[: len(text) - len(notices)] if notices else text
    if not streams and not notices:
        return "[no output]" + capped
    return head_and_tail(streams, limits.bash_chars) + notices + capped


def ls(sb: Sandbox, path: str = ".", *, limits: ToolLimits = DEFAULT_LIMITS) -> str:
    """The directory's entries, one a line: ``name/`` for directories, ``name  N bytes`` for files."""
    try:
        entries = sb.ls(path)
    except FileOperationError as exc:
        return file_error(exc)
    directory = _shown(sb, path)
    if not entries:
        return f"{directory}: empty directory"
    lines = []
    for entry in entries:
        line = entry.name + "/" if entry.is_dir else f"{entry.name}  {count(entry.size, 'byte')}"
        lines.append(line + ("  (symlink)" if entry.is_symlink else ""))
    kept, cut = fit(lines, limits.ls_chars)
    header = f"{directory}: {count(len(entries), 'entry', 'entries')}"
    text = "\n".join([header, *kept])
    if cut:
        text += (
            f"\n[showing {len(kept):,} of {count(len(entries), 'entry', 'entries')} "
            f"(ls output is limited to {limits.ls_chars:,} characters); use glob with a pattern to find the rest]"
        )
    return text


def glob(sb: Sandbox, pattern: str, path: str = ".", *, limits: ToolLimits = DEFAULT_LIMITS) -> str:
    """Absolute paths below ``path`` matching ``pattern``, sorted, at most ``limits.glob_results``."""
    try:
        # All matches, not limit + 1: the sandbox walks the whole tree either way, and the total helps the model.
        found = sb.glob(pattern, path=path)
    except FileOperationError as exc:
        return file_error(exc)
    except ValueError as exc:
        return invalid(exc)
    if not found:
        where = "" if pattern.startswith("/") else f" under {_shown(sb, path)}"
        return f"No paths match {pattern!r}{where}."
    shown = found[: limits.glob_results]
    text = "\n".join(shown)
    if len(found) > len(shown):
        text += f"\n[showing {len(shown):,} of {len(found):,} matches; narrow the pattern or the path]"
    return text


def grep(
    sb: Sandbox,
    pattern: str,
    path: str = ".",
    glob: str | None = None,
    regex: bool = False,
    ignore_case: bool = False,
    *,
    limits: ToolLimits = DEFAULT_LIMITS,
) -> str:
    """Matching lines as ``path:line:text``, at most ``limits.grep_results``."""
    try:
        # One more than shown tells whether there are more without collecting every match of a broad pattern.
        matches = sb.grep(
            pattern,
            path=path,
            glob=glob,
            regex=regex,
            ignore_case=ignore_case,
            max_results=limits.grep_results + 1,
        )
    except FileOperationError as exc:
        return file_error(exc)
    except ValueError as exc:
        return invalid(exc)
    if not matches:
        only = f" in files matching {glob!r}" if glob else ""
        return f"No matches for {pattern!r} under {_shown(sb, path)}{only}."
    shown = matches[: limits.grep_results]
    text = "\n".join(f"{m.path}:{m.line}:{cut_line(m.text, limits.line_chars)}" for m in shown)
    if len(matches) > len(shown):
        text += (
            f"\n[showing {len(shown):,} matching lines; there are more: "
            "narrow the pattern, the path or the glob filter]"
        )
    return text


def read_file(
    sb: Sandbox, path: str, offset: int = 1, limit: int | None = None, *, limits: ToolLimits = DEFAULT_LIMITS
) -> str:
    """Lines of a text file numbered like ``cat -n``; ``offset`` is the 1-based first line,
    ``limit`` the number of lines (default ``limits.read_file_lines``)."""
    if offset < 1:
        return error("invalid_argument", f"offset is a line number counting from 1, got {offset}")
    if limit is not None and limit < 1:
        return error("invalid_argument", f"limit is a number of lines >= 1, got {limit}")
    wanted = limits.read_file_lines if limit is None else limit
    try:
        # One line more than wanted says whether the file goes on, without reading all of a big file.
        text = sb.read_text(path, offset=offset - 1, limit=wanted + 1)
    except FileOperationError as exc:
        return file_error(exc)
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()  # the last line's newline, or an empty read
    more = len(lines) > wanted
    lines = lines[:wanted]
    shown = _shown(sb, path)
    if not lines:
        return _empty_read(sb, path, shown, offset)
    numbered = (
        f"{offset + i:>6}\t{cut_line(line.removesuffix(chr(13)), limits.line_chars)}" for i, line in enumerate(lines)
    )
    kept, cut = fit(numbered, limits.read_file_chars)
    last = offset + len(kept) - 1
    body = "\n".join(kept)
    if cut:
        return (
            f"{body}\n[truncated at {limits.read_file_chars:,} characters: showing lines {offset}-{last}; "
            f"pass offset={last + 1} to read on]"
        )
    if more:
        return f"{body}\n[showing lines {offset}-{last}; the file has more lines: pass offset={last + 1} to read on]"
    return body


def _empty_read(sb: Sandbox, path: str, shown: str, offset: int) -> str:
    if offset == 1:
        return f"[{shown} is empty]"
    try:
        # The file is shorter than offset, so reading it whole to count its lines is cheap.
        text = sb.read_text(path)
    except FileOperationError as exc:
        return file_error(exc)
    total = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    return error("invalid_argument", f"offset {offset} is past the end of {shown}, which has {count(total, 'line')}")


def write_file(sb: Sandbox, path: str, content: str, *, limits: ToolLimits = DEFAULT_LIMITS) -> str:
    """Create or overwrite a text file (missing parent directories are created)."""
    try:
        sb.write(path, content)
    except FileOperationError as exc:
        return file_error(exc)
    lines = content.count("\n") + (1 if content and not content.endswith("\n") else 0)
    return f"Wrote {count(len(content.encode()), 'byte')} ({count(lines, 'line')}) to {_shown(sb, path)}"


def str_replace(
    sb: Sandbox, path: str, old: str, new: str, replace_all: bool = False, *, limits: ToolLimits = DEFAULT_LIMITS
) -> str:
    """Replace the exact text ``old`` with ``new``; ``old`` must occur once unless ``replace_all``."""
    if old == new:
        return error("invalid_argument", "old and new are the same text; there is nothing to change")
    try:
        replaced = sb.edit(path, old, new, replace_all=replace_all)
    except FileOperationError as exc:
        return file_error(exc)
    except ValueError as exc:
        return invalid(exc)
    return f"Replaced {count(replaced, 'occurrence')} in {_shown(sb, path)}"
