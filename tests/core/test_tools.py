"""sandlot.tools on a real local sandbox: every tool, every limit and notice, the schemas and the dispatcher.

Tests only use paths relative to the sandbox's own temporary directory: the local provider does
not isolate, so an absolute path here would be the host's.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Iterator
from typing import Any

import pytest

from sandlot import Config, FilesystemPolicy, Policy, Sandbox, create_sandbox
from sandlot.tools import (
    BY_NAME,
    READ_ONLY,
    TOOLS,
    ErrorText,
    ToolLimits,
    acall,
    bash,
    call,
    glob,
    grep,
    ls,
    read_file,
    schemas,
    str_replace,
    write_file,
)


def _open(policy: Policy | None = None) -> Sandbox:
    box = create_sandbox(Config(provider="local"), policy=policy)
    # Everything below writes relative paths; make sure they land in a throwaway directory.
    assert box.files_root.startswith("/tmp/") and box.files_root != "/tmp"
    return box


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    box = _open()
    yield box
    box.close()


@pytest.fixture
def guarded() -> Iterator[Sandbox]:
    box = _open(Policy(filesystem=FilesystemPolicy(deny=("secret",), read_only=("frozen",))))
    yield box
    box.close()


def under(sb: Sandbox, relative: str) -> str:
    return f"{sb.files_root}/{relative}"


def numbered(first: int, lines: list[str]) -> str:
    return "\n".join(f"{first + i:>6}\t{line}" for i, line in enumerate(lines))


# -- bash --------------------------------------------------------------------------------


def test_bash_returns_stdout_and_stderr(sb: Sandbox) -> None:
    out = bash(sb, "echo out; echo err >&2")
    assert out == "out\nerr\n" and not isinstance(out, ErrorText)


def test_bash_reports_the_exit_code_and_no_output(sb: Sandbox) -> None:
    assert bash(sb, "sh -c 'echo nope; exit 3'") == "nope\n[exit code 3]"
    assert bash(sb, "true") == "[no output]"


def test_bash_keeps_state_between_calls(sb: Sandbox) -> None:
    bash(sb, "mkdir -p sub && cd sub")
    assert bash(sb, "pwd").strip() == under(sb, "sub")


def test_bash_keeps_head_and_tail_and_every_notice(sb: Sandbox) -> None:
    full = "".join(f"{i}\n" for i in range(1, 1001))
    out = bash(sb, "seq 1 1000; sh -c 'exit 4'", limits=ToolLimits(bash_chars=40))
    head, notice, tail = out.split("\n[", 2)[0], out.split("\n[", 2)[1], out.split("\n[", 2)[2]
    assert head == full[:20].rstrip("\n")
    assert notice.startswith(f"... {len(full) - 40:,} of {len(full):,} characters omitted from the middle")
    assert out.endswith(full[-20:] + "[exit code 4]")
    assert tail  # the kept tail sits between the notice and the exit code


def test_bash_under_the_limit_is_untouched(sb: Sandbox) -> None:
    assert bash(sb, "printf 1234567890", limits=ToolLimits(bash_chars=10)) == "1234567890"


def test_bash_timeout_and_its_cap(sb: Sandbox) -> None:
    out = bash(sb, "sleep 5", timeout=30, limits=ToolLimits(bash_max_timeout=0.3))
    assert "[timed out after" in out
    assert out.endswith("[the timeout was capped at 0.3s]")


def test_bash_bad_arguments_are_errors(sb: Sandbox) -> None:
    assert bash(sb, "true", timeout=0).startswith("Error (invalid_argument): timeout must be")
    out = bash(sb, "echo \0")
    assert isinstance(out, ErrorText) and "NUL" in out


# -- ls ----------------------------------------------------------------------------------


def test_ls_lists_dirs_and_files_with_sizes(sb: Sandbox) -> None:
    sb.write("proj/b.txt", "12345")
    sb.write("proj/.hidden", "")
    sb.write("proj/sub/x", "")
    assert ls(sb, "proj") == f"{under(sb, 'proj')}: 3 entries\n.hidden  0 bytes\nb.txt  5 bytes\nsub/"
    assert ls(sb, "proj/sub") == f"{under(sb, 'proj/sub')}: 1 entry\nx  0 bytes"


def test_ls_empty_and_failures(sb: Sandbox, guarded: Sandbox) -> None:
    bash(sb, "mkdir empty")
    assert ls(sb, "empty") == f"{under(sb, 'empty')}: empty directory"
    missing = ls(sb, "nope")
    assert isinstance(missing, ErrorText)
    assert missing == f"Error (file_not_found): {under(sb, 'nope')}: No such file or directory"
    sb.write("f", "")
    assert ls(sb, "f").startswith("Error (not_a_directory)") and "use read_file" in ls(sb, "f")
    denied = ls(guarded, "secret")
    assert denied.startswith(f"Error (permission_denied): {under(guarded, 'secret')}: denied by the policy")
    assert denied.splitlines()[-1].startswith("sandlot: blocked (filesystem):")


def test_ls_truncates_at_the_char_limit(sb: Sandbox) -> None:
    for i in range(20):
        sb.write(f"many/f{i:02}", "")
    out = ls(sb, "many", limits=ToolLimits(ls_chars=50))
    lines = out.splitlines()
    entries = lines[1:-1]
    assert entries == [f"f{i:02}  0 bytes" for i in range(len(entries))]
    assert sum(len(e) + 1 for e in entries) <= 50 < sum(len(e) + 1 for e in entries) + len("f00  0 bytes") + 1
    assert lines[-1] == (
        f"[showing {len(entries)} of 20 entries (ls output is limited to 50 characters); "
        "use glob with a pattern to find the rest]"
    )


# -- glob --------------------------------------------------------------------------------


def test_glob_finds_sorted_absolute_paths(sb: Sandbox) -> None:
    for name in ("src/b.py", "src/a.py", "src/deep/c.py", "src/d.txt", ".git/e.py"):
        sb.write(name, "")
    expected = [under(sb, p) for p in ("src/a.py", "src/b.py", "src/deep/c.py")]
    assert glob(sb, "**/*.py") == "\n".join(expected)
    assert glob(sb, "*.py", path="src") == "\n".join(expected[:2])
    assert glob(sb, "*.rs") == f"No paths match '*.rs' under {sb.files_root}."


def test_glob_truncates_with_the_total(sb: Sandbox) -> None:
    for i in range(10):
        sb.write(f"g/{i}.txt", "")
    lines = glob(sb, "g/*", limits=ToolLimits(glob_results=3)).splitlines()
    assert lines == [
        *(under(sb, f"g/{i}.txt") for i in range(3)),
        "[showing 3 of 10 matches; narrow the pattern or the path]",
    ]
    assert "[showing" not in glob(sb, "g/*", limits=ToolLimits(glob_results=10))


def test_glob_failures(sb: Sandbox) -> None:
    assert glob(sb, "*", path="nope").startswith("Error (file_not_found)")


# -- grep --------------------------------------------------------------------------------


def test_grep_formats_matches_and_filters(sb: Sandbox) -> None:
    sb.write("code/a.py", "import os\nTODO: fix\n")
    sb.write("code/b.md", "todo list\n")
    path_a, path_b = under(sb, "code/a.py"), under(sb, "code/b.md")
    assert grep(sb, "TODO") == f"{path_a}:2:TODO: fix"
    assert grep(sb, "todo", ignore_case=True) == f"{path_a}:2:TODO: fix\n{path_b}:1:todo list"
    assert grep(sb, "todo", ignore_case=True, glob="*.md") == f"{path_b}:1:todo list"
    assert grep(sb, "^im.ort", regex=True, path="code/a.py") == f"{path_a}:1:import os"
    assert grep(sb, "nothing") == f"No matches for 'nothing' under {sb.files_root}."
    assert grep(sb, "x", glob="*.rs") == f"No matches for 'x' under {sb.files_root} in files matching '*.rs'."


def test_grep_failures(sb: Sandbox) -> None:
    bad = grep(sb, "(", regex=True)
    assert isinstance(bad, ErrorText) and bad.startswith("Error (invalid_argument): invalid regular expression")
    assert grep(sb, "x", path="nope").startswith("Error (file_not_found)")


def test_grep_truncates_results_and_long_lines(sb: Sandbox) -> None:
    sb.write("hits.txt", "".join(f"hit {i}\n" for i in range(10)))
    out = grep(sb, "hit", limits=ToolLimits(grep_results=3))
    lines = out.splitlines()
    assert len(lines) == 4 and all(line.startswith(under(sb, "hits.txt:")) for line in lines[:3])
    assert lines[-1] == "[showing 3 matching lines; there are more: narrow the pattern, the path or the glob filter]"
    assert "[showing" not in grep(sb, "hit", limits=ToolLimits(grep_results=10))
    sb.write("long.txt", "needle" + "x" * 100 + "\n")
    cut = grep(sb, "needle", path="long.txt", limits=ToolLimits(line_chars=10))
    assert cut == f"{under(sb, 'long.txt')}:1:needlexxxx [... line truncated: 106 characters]"


# -- read_file ---------------------------------------------------------------------------


def test_read_file_numbers_lines_like_cat_n(sb: Sandbox) -> None:
    sb.write("f.txt", "alpha\n\tbeta\r\ngamma")
    assert read_file(sb, "f.txt") == "     1\talpha\n     2\t\tbeta\n     3\tgamma"


def test_read_file_ranges(sb: Sandbox) -> None:
    lines = [f"line {i}" for i in range(1, 13)]
    sb.write("twelve.txt", "\n".join(lines) + "\n")
    assert read_file(sb, "twelve.txt", offset=3, limit=2) == (
        numbered(3, lines[2:4]) + "\n[showing lines 3-4; the file has more lines: pass offset=5 to read on]"
    )
    assert read_file(sb, "twelve.txt", offset=10) == numbered(10, lines[9:])
    assert read_file(sb, "twelve.txt", offset=11, limit=2) == numbered(11, lines[10:])
    past = read_file(sb, "twelve.txt", offset=13)
    assert isinstance(past, ErrorText)
    assert (
        past == f"Error (invalid_argument): offset 13 is past the end of {under(sb, 'twelve.txt')}, which has 12 lines"
    )


def test_read_file_line_limit_by_default(sb: Sandbox) -> None:
    sb.write("twelve.txt", "".join(f"{i}\n" for i in range(1, 13)))
    out = read_file(sb, "twelve.txt", limits=ToolLimits(read_file_lines=5))
    assert out == numbered(1, ["1", "2", "3", "4", "5"]) + (
        "\n[showing lines 1-5; the file has more lines: pass offset=6 to read on]"
    )


def test_read_file_char_limit(sb: Sandbox) -> None:
    sb.write("wide.txt", "".join("x" * 20 + "\n" for _ in range(10)))
    out = read_file(sb, "wide.txt", offset=2, limits=ToolLimits(read_file_chars=60))
    row = "x" * 20
    # Each numbered line is 6 + 1 + 20 characters plus its newline: two fit in 60.
    assert out == numbered(2, [row, row]) + (
        "\n[truncated at 60 characters: showing lines 2-3; pass offset=4 to read on]"
    )


def test_read_file_cuts_long_lines(sb: Sandbox) -> None:
    sb.write("long.txt", "a" * 50 + "\nshort\n")
    out = read_file(sb, "long.txt", limits=ToolLimits(line_chars=8))
    assert out == numbered(1, ["aaaaaaaa [... line truncated: 50 characters]", "short"])


def test_read_file_failures(sb: Sandbox, guarded: Sandbox) -> None:
    sb.write("empty.txt", "")
    assert read_file(sb, "empty.txt") == f"[{under(sb, 'empty.txt')} is empty]"
    assert read_file(sb, "nope") == f"Error (file_not_found): {under(sb, 'nope')}: No such file or directory"
    sb.write("blob.bin", b"\x00\x01\x02")
    binary = read_file(sb, "blob.bin")
    assert binary.startswith("Error (not_text):") and "inspect it with bash" in binary
    bash(sb, "mkdir d")
    assert read_file(sb, "d").startswith("Error (is_directory)")
    assert read_file(sb, "empty.txt", offset=0).startswith("Error (invalid_argument): offset is a line number")
    assert read_file(sb, "empty.txt", limit=0).startswith("Error (invalid_argument): limit is a number of lines")
    denied = read_file(guarded, "secret/key")
    assert denied.startswith("Error (permission_denied)") and "sandlot: blocked (filesystem)" in denied


# -- write_file and str_replace ----------------------------------------------------------


def test_write_file_creates_parents_and_reports(sb: Sandbox) -> None:
    out = write_file(sb, "new/dir/f.txt", "héllo\nworld")
    assert out == f"Wrote 12 bytes (2 lines) to {under(sb, 'new/dir/f.txt')}"
    assert sb.read_text("new/dir/f.txt") == "héllo\nworld"


def test_write_file_refused_by_the_policy(guarded: Sandbox) -> None:
    out = write_file(guarded, "frozen/f.txt", "x")
    assert isinstance(out, ErrorText)
    assert out.startswith(f"Error (permission_denied): {under(guarded, 'frozen/f.txt')}: read-only by the policy")
    assert out.splitlines()[-1].startswith("sandlot: blocked (filesystem):")
    assert write_file(guarded, "elsewhere.txt", "x").startswith("Wrote 1 byte (1 line)")


def test_str_replace(sb: Sandbox) -> None:
    sb.write("e.py", "a = 1\nb = 1\nc = 2\n")
    assert str_replace(sb, "e.py", "c = 2", "c = 3") == f"Replaced 1 occurrence in {under(sb, 'e.py')}"
    assert sb.read_text("e.py") == "a = 1\nb = 1\nc = 3\n"
    assert str_replace(sb, "e.py", " = 1", " = 0", replace_all=True) == f"Replaced 2 occurrences in {under(sb, 'e.py')}"
    assert sb.read_text("e.py") == "a = 0\nb = 0\nc = 3\n"


def test_str_replace_failures(sb: Sandbox) -> None:
    sb.write("e.py", "x = 1\nx = 1\n")
    missing = str_replace(sb, "e.py", "y = 1", "y = 2")
    assert isinstance(missing, ErrorText)
    assert missing.startswith(f"Error (string_not_found): {under(sb, 'e.py')}: the string to replace does not occur")
    assert "copy the text exactly" in missing
    ambiguous = str_replace(sb, "e.py", "x = 1", "x = 2")
    assert ambiguous.startswith("Error (ambiguous_match):") and "occurs 2 times" in ambiguous
    assert sb.read_text("e.py") == "x = 1\nx = 1\n"
    assert str_replace(sb, "e.py", "x", "x").startswith("Error (invalid_argument): old and new are the same")
    assert str_replace(sb, "e.py", "", "y").startswith("Error (invalid_argument): old must be a non-empty string")
    assert str_replace(sb, "nope.py", "a", "b").startswith("Error (file_not_found)")


def test_limits_are_validated() -> None:
    with pytest.raises(ValueError, match="bash_chars"):
        ToolLimits(bash_chars=0)
    with pytest.raises(ValueError, match="bash_max_timeout"):
        ToolLimits(bash_max_timeout=-1)
    assert ToolLimits(bash_max_timeout=None).bash_max_timeout is None


# -- schemas -----------------------------------------------------------------------------

KEYWORDS = {"type", "description", "default", "minimum", "exclusiveMinimum", "minLength"}
PY_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
}


def test_every_tool_has_a_schema() -> None:
    assert [spec.name for spec in TOOLS] == ["bash", "ls", "glob", "grep", "read_file", "write_file", "str_replace"]
    assert set(BY_NAME) == {spec.name for spec in TOOLS} and set(READ_ONLY) <= set(BY_NAME)


@pytest.mark.parametrize("spec", TOOLS, ids=lambda s: s.name)
def test_schema_is_a_valid_object_schema(spec: Any) -> None:
    schema = spec.parameters
    assert json.loads(json.dumps(schema)) == schema
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert set(schema) == {"type", "properties", "required", "additionalProperties"}
    assert set(schema["required"]) <= set(schema["properties"])
    assert len(spec.description) > 80  # written for a model: it says what comes back and what to do
    for name, prop in schema["properties"].items():
        assert set(prop) <= KEYWORDS, name
        assert prop["type"] in PY_TYPES and prop["description"], name
        if "default" in prop:
            assert isinstance(prop["default"], PY_TYPES[prop["type"]]), name


@pytest.mark.parametrize("spec", TOOLS, ids=lambda s: s.name)
def test_schema_matches_the_function_signature(spec: Any) -> None:
    params = list(inspect.signature(spec.function).parameters.values())
    assert params[0].name == "sb" and params[-1].name == "limits"
    assert params[-1].kind is inspect.Parameter.KEYWORD_ONLY
    arguments = params[1:-1]
    schema = spec.parameters
    assert [p.name for p in arguments] == list(schema["properties"])
    assert [p.name for p in arguments if p.default is inspect.Parameter.empty] == schema["required"]
    for p in arguments:
        if "default" in schema["properties"][p.name]:
            assert schema["properties"][p.name]["default"] == p.default, p.name


def test_schema_styles_and_copies() -> None:
    anthropic = schemas()
    assert [s["name"] for s in anthropic] == [spec.name for spec in TOOLS]
    assert set(anthropic[0]) == {"name", "description", "input_schema"}
    mcp = schemas("mcp", tools=READ_ONLY)
    assert [s["name"] for s in mcp] == list(READ_ONLY) and "inputSchema" in mcp[0]
    openai = schemas("openai")[0]
    assert openai["type"] == "function" and set(openai["function"]) == {"name", "description", "parameters"}
    anthropic[0]["input_schema"]["properties"].clear()
    assert TOOLS[0].parameters["properties"]  # callers get copies
    with pytest.raises(ValueError, match="unknown tools"):
        schemas(tools=["rm"])
    with pytest.raises(ValueError, match="unknown schema style"):
        TOOLS[0].schema("gemini")  # type: ignore[arg-type]


# -- call --------------------------------------------------------------------------------


def test_call_runs_a_tool(sb: Sandbox) -> None:
    assert call(sb, "write_file", {"path": "c.txt", "content": "one\ntwo\n"}).startswith("Wrote 8 bytes")
    assert call(sb, "read_file", {"path": "c.txt", "offset": 2}) == numbered(2, ["two"])
    # JSON text as OpenAI sends it, an integral float, and a null for an optional argument.
    assert call(sb, "read_file", '{"path": "c.txt", "limit": 1.0, "offset": null}') == numbered(1, ["one"]) + (
        "\n[showing lines 1-1; the file has more lines: pass offset=2 to read on]"
    )
    assert call(sb, "bash", {"command": "echo hi"}) == "hi\n"
    assert asyncio.run(acall(sb, "ls", {})).startswith(f"{sb.files_root}: 1 entry")


def test_call_passes_limits(sb: Sandbox) -> None:
    out = call(sb, "bash", {"command": "seq 1 1000"}, limits=ToolLimits(bash_chars=10))
    assert "characters omitted from the middle" in out


def test_call_reports_bad_calls(sb: Sandbox) -> None:
    unknown = call(sb, "rm", {"path": "x"})
    assert isinstance(unknown, ErrorText)
    assert unknown == (
        "Error (unknown_tool): there is no tool 'rm'; "
        "the tools are bash, ls, glob, grep, read_file, write_file, str_replace"
    )
    assert call(sb, "read_file", {}) == "Error (invalid_arguments): read_file: missing required argument 'path'"
    assert call(sb, "read_file", {"path": None}).endswith("missing required argument 'path'")
    assert call(sb, "read_file", {"path": "x", "lines": 3}) == (
        "Error (invalid_arguments): read_file: unknown argument(s) 'lines'; it takes path, offset, limit"
    )
    assert call(sb, "read_file", {"path": 3}) == "Error (invalid_arguments): read_file: path must be a string, got 3"
    assert call(sb, "read_file", {"path": "x", "limit": "3"}).endswith('limit must be an integer, got "3"')
    assert call(sb, "read_file", {"path": "x", "limit": True}).endswith("limit must be an integer, got true")
    assert call(sb, "read_file", {"path": "x", "limit": 1.5}).endswith("limit must be an integer, got 1.5")
    assert call(sb, "read_file", {"path": "x", "offset": 0}).endswith("offset must be >= 1, got 0")
    assert call(sb, "grep", {"pattern": "x", "regex": "yes"}).endswith('regex must be true or false, got "yes"')
    assert call(sb, "bash", {"command": "true", "timeout": 0}).endswith("timeout must be > 0, got 0")
    assert call(sb, "bash", {"command": ""}).endswith("command must not be empty")
    assert call(sb, "bash", "{not json").startswith("Error (invalid_arguments): bash: the arguments are not valid JSON")
    assert call(sb, "bash", "[1]") == "Error (invalid_arguments): bash: the arguments must be a JSON object, got list"
    # Every problem at once, so one retry can fix them all.
    both = call(sb, "str_replace", {"path": "x", "old": 1, "extra": 2})
    assert "missing required argument 'new'" in both and "'extra'" in both and "old must be a string" in both


def test_call_only_runs_offered_tools(sb: Sandbox) -> None:
    refused = call(sb, "bash", {"command": "touch made"}, tools=READ_ONLY)
    assert refused == "Error (unknown_tool): there is no tool 'bash'; the tools are ls, glob, grep, read_file"
    assert sb.glob("made") == []
    assert call(sb, "glob", {"pattern": "*"}, tools=READ_ONLY) == f"No paths match '*' under {sb.files_root}."
