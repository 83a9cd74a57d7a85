"""The tool set: every tool's declaration next to the function that runs it."""

from __future__ import annotations

from sandlot.tools import descriptions as text
from sandlot.tools.functions import bash, glob, grep, ls, read_file, str_replace, write_file
from sandlot.tools.spec import ToolSpec, boolean, integer, number, obj, string

_RELATIVE = "Absolute, or relative to the sandbox's working directory."

TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "bash",
        text.BASH,
        obj(
            ["command"],
            command=string("The shell command to run.", minLength=1),
            timeout=number(
                "Seconds before the command and everything it started are killed (default: the sandbox's limit).",
                exclusiveMinimum=0,
            ),
        ),
        bash,
    ),
    ToolSpec(
        "ls",
        text.LS,
        obj([], path=string(f"The directory to list. {_RELATIVE}", minLength=1, default=".")),
        ls,
    ),
    ToolSpec(
        "glob",
        text.GLOB,
        obj(
            ["pattern"],
            pattern=string("The glob pattern, e.g. '**/*.py' or 'src/**/test_*.{py,pyi}'.", minLength=1),
            path=string(f"The directory to search below. {_RELATIVE}", minLength=1, default="."),
        ),
        glob,
    ),
    ToolSpec(
        "grep",
        text.GREP,
        obj(
            ["pattern"],
            pattern=string("The text to search for (an extended regular expression if regex is true).", minLength=1),
            path=string(f"The file, or the directory to search below. {_RELATIVE}", minLength=1, default="."),
            glob=string(
                "Only search files whose name matches this glob, e.g. '*.py'; with a '/' it matches "
                "paths relative to path, e.g. 'src/**/*.ts'.",
                minLength=1,
            ),
            regex=boolean("Treat pattern as an extended regular expression instead of literal text."),
            ignore_case=boolean("Match regardless of letter case."),
        ),
        grep,
    ),
    ToolSpec(
        "read_file",
        text.READ_FILE,
        obj(
            ["path"],
            path=string(f"The file to read. {_RELATIVE}", minLength=1),
            offset=integer("The line number to start at, counting from 1.", minimum=1, default=1),
            limit=integer("How many lines to read (default: as many as the tool's line limit allows).", minimum=1),
        ),
        read_file,
    ),
    ToolSpec(
        "write_file",
        text.WRITE_FILE,
        obj(
            ["path", "content"],
            path=string(f"The file to write. {_RELATIVE}", minLength=1),
            content=string("The complete new content of the file."),
        ),
        write_file,
    ),
    ToolSpec(
        "str_replace",
        text.STR_REPLACE,
        obj(
            ["path", "old", "new"],
            path=string(f"The file to edit. {_RELATIVE}", minLength=1),
            old=string("The exact text to replace, whitespace and indentation included.", minLength=1),
            new=string("The text to put in its place (empty to delete old)."),
            replace_all=boolean("Replace every occurrence instead of requiring exactly one."),
        ),
        str_replace,
    ),
)

#: The tools by name.
BY_NAME = {spec.name: spec for spec in TOOLS}

#: The tools that cannot change anything: offer only these to an agent that should just look.
READ_ONLY = ("ls", "glob", "grep", "read_file")
