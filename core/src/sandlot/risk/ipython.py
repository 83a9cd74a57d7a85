"""IPython (Jupyter) cell syntax turned into plain Python the analyzer parses.

A notebook cell is Python plus a few shell escapes: ``!cmd`` and ``x = !cmd`` run a shell command
(``{expr}`` and ``$name`` are replaced by Python values first), line magics (``%env``, ``%run``,
``%pip``, ``%cd``, ``%system``) do what their name says, and a cell magic on the first line
(``%%bash``, ``%%sh``, ``%%script bash``) makes the whole cell a shell script. The rewrite keeps one
line per line so findings point at the right place.
"""

from __future__ import annotations

import re

_SHELL_CELL = re.compile(r"^\s*%%(?:bash|sh|script\s+(?:ba|z|da)?sh|system)\b[^\n]*\n", re.M)
_BANG = re.compile(r"^(?P<indent>\s*)(?:(?P<target>[\w.\[\]'\"]+)\s*=\s*)?!!?(?P<command>.*)$")
_MAGIC = re.compile(r"^(?P<indent>\s*)(?:(?P<target>[\w.\[\]'\"]+)\s*=\s*)?%(?P<name>\w+)\s*(?P<rest>.*)$")


def looks_like_ipython(code: str) -> bool:
    """The code has IPython escapes (lines starting with ``!`` or ``%``, or ``x = !cmd``)."""
    return any(
        _BANG.match(line) or _MAGIC.match(line) or line.lstrip().startswith("%%")
        for line in code.splitlines()
        if line.strip()[:1] in ("!", "%") or "= !" in line or "= %" in line
    )


def shell_cell(code: str) -> str | None:
    """The shell script of a ``%%bash``/``%%sh`` cell (the cell magic starts the cell), else None."""
    stripped = code.lstrip("\n")
    match = _SHELL_CELL.match(stripped)
    return stripped[match.end() :] if match and match.start() == 0 else None


def _fstring(command: str) -> str:
    """IPython's interpolation: ``$name`` and ``{expr}`` are Python values, ``$$`` is a literal dollar."""
    command = command.replace("$$", "\x00")
    command = re.sub(r"\$(\w+)", r"{\1}", command).replace("\x00", "$")
    escaped = command.replace("\\", "\\\\").replace('"', '\\"')
    return 'f"' + escaped + '"'


def to_python(code: str) -> str:
    """Plain Python with the same effect as the IPython cell ``code`` (line for line)."""
    out: list[str] = []
    for line in code.splitlines():
        bang = _BANG.match(line) if line.lstrip()[:1] == "!" or re.match(r"^\s*[\w.\[\]'\"]+\s*=\s*!", line) else None
        magic = _MAGIC.match(line) if not line.lstrip().startswith("%%") else None
        if bang:
            indent, target, command = bang["indent"], bang["target"], bang["command"].strip()
            call = f'__import__("subprocess").getoutput({_fstring(command)})'
            out.append(f"{indent}{target} = {call}" if target else f"{indent}{call}")
        elif magic:
            value = _line_magic(magic["name"], magic["rest"].strip(), assigned=bool(magic["target"]))
            out.append(magic["indent"] + (f"{magic['target']} = {value}" if magic["target"] else value))
        elif line.lstrip().startswith("%%"):
            out.append("")  # another cell magic (%%time, %%capture): the cell below it is still Python
        else:
            out.append(line)
    return "\n".join(out)


def _line_magic(name: str, rest: str, *, assigned: bool = False) -> str:
    if name in ("system", "sx", "pip", "conda"):
        command = rest if name in ("system", "sx") else f"{name} {rest}"
        return f'__import__("subprocess").getoutput({_fstring(command)})'
    if name == "env":
        if not rest:
            # `snapshot = %env` is every variable of the environment; `%env` alone prints them
            return 'dict(__import__("os").environ)' if assigned else 'print(__import__("os").environ)'
        key, _, value = rest.replace("=", " ", 1).partition(" ")
        if value:
            return f'__import__("os").environ[{key.strip()!r}] = {_fstring(value.strip())}'
        get = f'__import__("os").environ.get({key.strip()!r})'
        return get if assigned else f"print({get})"
    if name in ("time", "timeit", "prun"):
        return re.sub(r"^(?:-\w+(?:\s+\d+)?\s+)*", "", rest) or "pass"  # the statement it times still runs
    if name == "run":
        script = rest.split()[-1] if rest.split() else ""
        return f'__import__("runpy").run_path({script!r})' if script else "pass"
    if name == "cd" and rest:
        return f'__import__("os").chdir({_fstring(rest)})'
    if name in ("load", "loadpy") and rest:
        return f"exec(open({rest.split()[-1]!r}).read())"
    return "pass"  # %timeit, %matplotlib, %load_ext...: no effect outside the kernel
