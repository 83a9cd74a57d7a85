"""The generic file backend: POSIX ``sh`` and coreutils inside the sandbox, through its shell session.

Paths, patterns and contents travel as data: paths and patterns as environment values of
the one command, contents as its stdin, and ``--`` ends options before every path. No
python is needed in the sandbox. Errors are classified from the C-locale ``strerror``
text the tools print, which GNU coreutils and busybox share.
"""

from __future__ import annotations

import hashlib
import posixpath
import secrets
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING

from sandlot.errors import FileOperationError
from sandlot.files.backend import FileBackend, GrepQuery, WalkEntry
from sandlot.files.model import FileErrorCode, FileInfo, GrepMatch
from sandlot.files.text import include_matches
from sandlot.results import ExecResult
from sandlot.sandbox import final_result

if TYPE_CHECKING:
    from sandlot.sandbox import Sandbox

#: Uploads are sent in pieces of this size (each piece is one command's stdin).
CHUNK_BYTES = 8 * 1024 * 1024

_READ = 'cat -- "$SL_P"'
_READ_LINES = 'tail -n "+$SL_FROM" -- "$SL_P" | head -n "$SL_COUNT"'
_WRITE = 'mkdir -p -- "$SL_D" && cat > "$SL_P"'
_APPEND = 'cat >> "$SL_P"'
# A multi-piece upload lands in a temporary file next to the target, then takes its place
# (copied over an existing file so its mode and links stay, moved otherwise).
_COMMIT = 'if [ -e "$SL_P" ]; then cat -- "$SL_T" > "$SL_P" && rm -f -- "$SL_T"; else mv -f -- "$SL_T" "$SL_P"; fi'
_DISCARD = 'rm -f -- "$SL_T"'
_REPLACE = (
    'h=$(sha256sum < "$SL_P") || exit 1; '
    'if [ "${h%% *}" != "$SL_H" ]; then echo "sandlot: file changed" >&2; exit 64; fi; '
    'cat > "$SL_P"'
)
# Enter the directory; dash's cd prints no strerror, so ls names the reason when it fails.
_CD = '{ [ -d "$SL_P" ] && cd -- "$SL_P"; } || { ls -d -- "$SL_P/." > /dev/null; exit 1; }; '
# Names come out NUL-terminated with a type letter; then an empty record; then one
# "size mtime" line per name from stat (numbers only: no name parsing).
_LS = (
    _CD + "set --; "
    'for f in * .[!.]* ..?*; do { [ -e "$f" ] || [ -h "$f" ]; } && set -- "$@" "$f"; done; '
    'for f in "$@"; do '
    'if [ -h "$f" ]; then if [ -d "$f" ]; then t=L; else t=l; fi; elif [ -d "$f" ]; then t=d; else t=f; fi; '
    "printf '%s%s\\0' \"$t\" \"$f\"; done; printf '\\0'; "
    '[ "$#" -eq 0 ] || stat -c "%s %Y" -- "$@"'
)
_PRUNE_HIDDEN = "\\( -name '.*' ! -path . -prune \\) -o"
# "@PRUNE@" becomes the hidden-entry pruning expression, or nothing.
# (No parentheses around -exec ... {} +: busybox find does not run them there.)
_WALK = (
    _CD + "find . @PRUNE@ -type d ! -path . -exec printf 'd%s\\0' {} + "
    "-o ! -type d -exec printf 'f%s\\0' {} +"
)
_EXISTS = 'ls -d -- "$SL_P" > /dev/null || exit 2; '
_GREP_TREE = (
    'if [ -d "$SL_P" ]; then '
    + _CD
    + 'find . @PRUNE@ -type f -exec grep -I -n -Z $SL_FLAGS -e "$SL_PAT" -- /dev/null {} + ; '
    'else grep -I -n -Z $SL_FLAGS -e "$SL_PAT" -- /dev/null "$SL_P"; fi'
)
_GREP_LIST = _CD + 'xargs -0 grep -I -n -Z $SL_FLAGS -e "$SL_PAT" -- /dev/null'
# Without GNU grep's -Z and -I (busybox): one grep per text file, each file's name framed by NULs
# before its matches. A file is text when removing NUL bytes leaves it unchanged.
_EACH_PORTABLE = (
    'for f do if tr -d "\\000" < "$f" | cmp -s - "$f"; then '
    'printf "\\000%s\\000" "$f"; grep -n $SL_FLAGS -e "$SL_PAT" -- "$f"; fi; done'
)
_GREP_TREE_PORTABLE = (
    'if [ -d "$SL_P" ]; then '
    + _CD
    + 'find . @PRUNE@ -type f -exec sh -c "$SL_EACH" sh {} + ; '
    # one file: unreadable is an error (in a tree it is skipped, as grep -r skips it)
    'else tr -d "\\000" < "$SL_P" > /dev/null || exit 2; sh -c "$SL_EACH" sh "$SL_P"; fi'
)
_GREP_LIST_PORTABLE = _CD + 'xargs -0 sh -c "$SL_EACH" sh'
_UNKNOWN_OPTION = ("invalid option", "unrecognized option", "unknown option", "illegal option")
# With a result cap, the matches stop flowing once enough arrived.
_HEAD = ' | head -n "$SL_MAX"'
_DELETE = 'rm -- "$SL_P"'
_DELETE_TREE = _EXISTS + 'rm -rf -- "$SL_P"'

# strerror texts (C locale) and what they mean; the first that occurs in stderr wins.
_ERRORS = (
    ("No such file or directory", FileErrorCode.FILE_NOT_FOUND),
    ("Permission denied", FileErrorCode.PERMISSION_DENIED),
    ("Operation not permitted", FileErrorCode.PERMISSION_DENIED),
    ("Read-only file system", FileErrorCode.PERMISSION_DENIED),
    ("Is a directory", FileErrorCode.IS_DIRECTORY),
    ("Not a directory", FileErrorCode.NOT_A_DIRECTORY),
    ("File exists", FileErrorCode.NOT_A_DIRECTORY),  # mkdir -p where a parent is a file
    ("File name too long", FileErrorCode.INVALID_PATH),
    ("sandlot: file changed", FileErrorCode.FILE_CHANGED),
)


def classify(stderr: str) -> tuple[FileErrorCode, str]:
    """The error code and a clean message (the strerror text, without tool names and paths)."""
    lowered = stderr.lower()  # busybox says "'x' is a directory"
    for text, code in _ERRORS:
        if text.lower() in lowered:
            return code, text
    lines = stderr.strip().splitlines()
    return FileErrorCode.FAILED, lines[-1] if lines else ""


def _env(path: str, **extra: str) -> dict[str, str]:
    return {"LC_ALL": "C", "SL_P": path, **extra}


def grep_flags(query: GrepQuery) -> str:
    return ("-E" if query.regex else "-F") + (" -i" if query.ignore_case else "")


def parse_grep_portable(data: bytes, root: str) -> list[GrepMatch]:
    """Parse the portable form: ``NUL name NUL`` then that file's ``line:text`` lines, per file."""
    matches: list[GrepMatch] = []
    tokens = data.split(b"\0")
    for name, block in zip(tokens[1::2], tokens[2::2], strict=False):
        shown = posixpath.normpath(posixpath.join(root, name.decode("utf-8", "surrogateescape")))
        for record in block.split(b"\n"):
            number, _, text = record.partition(b":")
            if number.isdigit():
                matches.append(GrepMatch(shown, int(number), text.decode("utf-8", "replace")))
    return matches


def parse_grep(data: bytes, root: str) -> list[GrepMatch]:
    """Parse ``grep -n -Z`` output: ``name NUL line:text LF`` records (names may hold newlines).

    Names are relative to ``root`` (or absolute, when one file was searched)."""
    matches: list[GrepMatch] = []
    tokens = data.split(b"\0")
    name = tokens[0]
    for token in tokens[1:]:
        record, _, next_name = token.partition(b"\n")
        number, _, text = record.partition(b":")
        if number.isdigit():
            shown = posixpath.normpath(posixpath.join(root, name.decode("utf-8", "surrogateescape")))
            matches.append(GrepMatch(shown, int(number), text.decode("utf-8", "replace")))
        name = next_name
    return matches


class ShellFiles(FileBackend):
    """File operations for any sandbox with ``sh``, coreutils, ``find`` and ``grep``."""

    def __init__(self, sandbox: Sandbox) -> None:
        self._sandbox = sandbox
        self._portable_grep = False  # set once grep turns out not to know -Z/-I (busybox)

    # -- running -------------------------------------------------------------------------

    def _run(self, script: str, path: str, env: Mapping[str, str], stdin: bytes | None = None) -> ExecResult:
        result = final_result(self._sandbox._stream_raw(script, env=env, stdin=stdin))
        self._check(result, path)
        return result

    def _collect(self, script: str, env: Mapping[str, str], stdin: bytes | None = None) -> tuple[ExecResult, bytes]:
        """Run ``script``; its whole stdout (not capped by the output limit) and result."""
        out: list[bytes] = []
        result: ExecResult | None = None
        for item in self._sandbox._stream_raw(script, env=env, stdin=stdin):
            if isinstance(item, ExecResult):
                result = item
            elif item.stream == "stdout":
                out.append(item.data)
        assert result is not None
        return result, b"".join(out)

    def _check(self, result: ExecResult, path: str) -> None:
        if result.timed_out:
            raise FileOperationError(FileErrorCode.FAILED, path, "the file operation timed out")
        if result.exit_code == 0 and result.violation is None:
            return
        self._fail(result, path)

    def _fail(self, result: ExecResult, path: str) -> None:
        code, message = classify(result.stderr)
        if result.violation is not None:
            code, message = FileErrorCode.PERMISSION_DENIED, result.violation.reason
        raise FileOperationError(code, path, message or f"failed with exit status {result.exit_code}", result.violation)

    # -- operations ----------------------------------------------------------------------

    def read(self, path: str) -> Iterator[bytes]:
        result: ExecResult | None = None
        for item in self._sandbox._stream_raw(_READ, env=_env(path)):
            if isinstance(item, ExecResult):
                result = item
            elif item.stream == "stdout":
                yield item.data
        assert result is not None
        self._check(result, path)

    def read_head(self, path: str, offset: int, limit: int) -> bytes:
        if limit == 0:
            return b""
        result = self._run(_READ_LINES, path, _env(path, SL_FROM=str(offset + 1), SL_COUNT=str(limit)))
        if result.stdout_truncation is not None:
            # More than the output limit: fall back to the streaming read, which is not capped.
            return super().read_head(path, offset, limit)
        if result.stderr.strip():  # tail failed; head's status is the pipeline's
            self._fail(result, path)
        return result.stdout_bytes

    def write(self, path: str, chunks: Iterable[bytes]) -> None:
        parent = posixpath.dirname(path) or "/"
        pieces = iter(chunks)
        first = next(pieces, b"")
        second = next(pieces, None)
        if second is None:
            self._run(_WRITE, path, _env(path, SL_D=parent), stdin=first)
            return
        temp = posixpath.join(parent, f".sandlot-upload-{secrets.token_hex(6)}")
        try:
            self._run(_WRITE, path, _env(temp, SL_D=parent), stdin=first)
            self._run(_APPEND, path, _env(temp), stdin=second)
            for piece in pieces:
                self._run(_APPEND, path, _env(temp), stdin=piece)
            self._run(_COMMIT, path, _env(path, SL_T=temp))
        except BaseException:
            final_result(self._sandbox._stream_raw(_DISCARD, env=_env(path, SL_T=temp)))
            raise

    def replace(self, path: str, expected: bytes, content: bytes) -> None:
        digest = hashlib.sha256(expected).hexdigest()
        self._run(_REPLACE, path, _env(path, SL_H=digest), stdin=content)

    def ls(self, path: str) -> list[FileInfo]:
        result = self._run(_LS, path, _env(path))
        data = result.stdout_bytes
        names_part, sep, stats_part = data.partition(b"\0\0") if not data.startswith(b"\0") else (b"", b"\0", data[1:])
        records = [r for r in names_part.split(b"\0") if r] if sep else []
        stats = stats_part.decode().split("\n")
        entries = []
        for index, record in enumerate(records):
            kind = chr(record[0])
            name = record[1:].decode("utf-8", "surrogateescape")
            size, modified = 0, 0.0
            if index < len(stats) and stats[index].strip():
                size_text, _, mtime_text = stats[index].partition(" ")
                size, modified = int(size_text), float(mtime_text)
            entries.append(
                FileInfo(
                    path=posixpath.join(path, name),
                    is_dir=kind in "dL",
                    size=0 if kind in "dL" else size,
                    modified=modified,
                    is_symlink=kind in "lL",
                )
            )
        return entries

    def walk(self, path: str, *, include_hidden: bool) -> list[WalkEntry]:
        script = _WALK.replace("@PRUNE@", "" if include_hidden else _PRUNE_HIDDEN)
        result, out = self._collect(script, _env(path))
        self._check(result, path)
        entries = []
        for record in out.split(b"\0"):
            if len(record) > 3:  # "d./x" at least
                relative = record[3:].decode("utf-8", "surrogateescape")
                entries.append(WalkEntry(relative, record[:1] == b"d"))
        return entries

    def grep(self, path: str, query: GrepQuery) -> list[GrepMatch]:
        env = _env(path, SL_PAT=query.pattern, SL_FLAGS=grep_flags(query))
        prune = "" if query.include_hidden else _PRUNE_HIDDEN
        head = ""
        if query.max_results is not None:
            env["SL_MAX"] = str(query.max_results)
            head = _HEAD
        entries: list[WalkEntry] | None = None
        if query.include is not None or query.max_results is not None:
            # A filter or a cap: list the files, choose and order them here (the cap then keeps
            # the first matches in path order, whatever order the directory lists them in).
            try:
                entries = self.walk(path, include_hidden=query.include_hidden)
            except FileOperationError as exc:
                if exc.code != FileErrorCode.NOT_A_DIRECTORY:
                    raise
                entries = None  # one file: grep it directly
        listing: bytes | None = None
        if entries is not None:
            files = sorted(
                "./" + e.relative
                for e in entries
                if not e.is_dir and (query.include is None or include_matches(query.include, e.relative))
            )
            if not files:
                return []
            listing = b"".join(f.encode("utf-8", "surrogateescape") + b"\0" for f in files)
        for portable in (False, True):
            if portable != self._portable_grep and not portable:
                continue
            if portable:
                env["SL_EACH"] = _EACH_PORTABLE
                # the cap counts lines, and each file's name is framed on a line of its own
                cap = ""
            else:
                cap = head
            if listing is not None:
                script = (_GREP_LIST_PORTABLE if portable else _GREP_LIST) + cap
                result, out = self._collect(script, env, stdin=listing)
            else:
                tree = (_GREP_TREE_PORTABLE if portable else _GREP_TREE).replace("@PRUNE@", prune)
                result, out = self._collect(_EXISTS + "{ " + tree + "; }" + cap, env)
            if not portable and not out and any(o in result.stderr for o in _UNKNOWN_OPTION):
                self._portable_grep = True  # a grep without -Z/-I: busybox and the like
                continue
            break
        # grep exits 1 when nothing matched and 2 on errors; unreadable files do not hide the
        # other files' matches, so only a search that produced nothing and failed is an error.
        if result.exit_code not in (0, 1) and not out:
            self._fail(result, path)
        matches = parse_grep_portable(out, path) if self._portable_grep else parse_grep(out, path)
        if query.max_results is not None:
            matches = matches[: query.max_results]
        return matches

    def delete(self, path: str, *, recursive: bool) -> None:
        self._run(_DELETE_TREE if recursive else _DELETE, path, _env(path))
