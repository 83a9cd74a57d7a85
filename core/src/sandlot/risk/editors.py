"""What a text editor started from a command line is told to do: vim's Ex commands, Emacs Lisp.

``vim -Es -c '!curl … | sh' -c 'qa!'``, ``nvim --headless -c 'lua os.execute(…)'`` and
``emacs --batch --eval '(delete-directory "~" t)'`` run shell commands, code of another language or
file operations without any editor window. This module reads those command lines (no parser: the
commands are short and their shapes few) and says what they amount to, in terms the shell analyzer
already grades: shell command lines, inline code of a named language, scripts sourced from a URL,
and files emptied or encrypted in place.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

import attrs

from sandlot.risk.shell_words import option_values

#: Editors whose command line can carry commands (vim's family and Emacs's).
VIMS = frozenset({"vim", "nvim", "vi", "ex", "view", "gvim", "vimdiff", "rvim", "nvim-qt"})
EMACSES = frozenset({"emacs", "emacsclient", "emacs-nox"})
EDITORS = VIMS | EMACSES

#: vim's options taking a value (the value is not a file to edit).
_VIM_VALUED = frozenset(
    {"-c", "--cmd", "-S", "-u", "-U", "-i", "-s", "-w", "-W", "-T", "-t", "-q", "--servername", "--listen",
     "--server", "--remote-send", "--remote-expr", "--startuptime", "-r", "-L"}
)  # fmt: skip

#: An Ex command that hands the rest of its line to a shell: `!cmd`, `silent !cmd`, `r !cmd`, `w !cmd`.
_EX_SHELL = re.compile(r"^(?:(?:sil(?:ent)?!?|keepalt|noautocmd)\s+)*(?:(?:r(?:ead)?|w(?:rite)?|\d*,?\d*)\s*)?!(.+)$")
#: `lua …`, `py3 …`, `perl …`: an Ex command running a line of another language.
_EX_CODE = re.compile(r"^(?:sil(?:ent)?!?\s+)*(lua|py3|python3|python|pyx|perl|ruby)\s+(.+)$", re.DOTALL)
#: `so https://…`, `source http://…`: a script read from the network and run.
_EX_REMOTE_SOURCE = re.compile(r"^(?:sil(?:ent)?!?\s+)*(?:so(?:urce)?|ru(?:ntime)?|luafile|pyfile|py3file)\s+(\S+://\S+)")
#: `system("cmd")`, `systemlist('cmd')`, `jobstart("cmd")`, `termopen(…)`: vimscript's ways to run a command.
_VIM_SYSTEM = re.compile(r"""\b(?:system|systemlist|jobstart|job_start|termopen|term_start)\(\s*(['"])(.+?)\1""")
#: `jobstart(['sh', '-c', 'cmd'])`: the argv list form.
_VIM_SYSTEM_LIST = re.compile(r"""\b(?:system|systemlist|jobstart|job_start|termopen|term_start)\(\s*\[([^\]]*)\]""")
#: Ex commands that empty the buffer, and those that write it back.
#: (`silent`, and `argdo`/`bufdo`: the command runs in every file of the argument or buffer list)
_EX_PREFIX = r"^(?:(?:sil(?:ent)?!?|argdo|bufdo|windo|tabdo|cfdo|cdo|ldo|lfdo)\s+)*"
_EX_EMPTIES = re.compile(_EX_PREFIX + r"(?:%\s*d(?:elete)?\b|1,\$\s*d(?:elete)?\b|norm(?:al)?!?\s+ggdG|g/\^/d)")
_EX_WRITES = re.compile(_EX_PREFIX + r"(?:w|wq|wq!|x|xa|xit|wa|wall|wqa|wqall|up|update|exit)!?\b")
#: `args **/*.py`, `argadd src/*`: files put in the argument list by a command instead of the command line.
_EX_ARGS = re.compile(r"^(?:ar(?:gs)?|arga(?:dd)?|bad(?:d)?|e(?:dit)?)!?\s+(.+)$")
_EX_KEY = re.compile(r"^(?:sil(?:ent)?!?\s+)*(?:set|setl|setlocal)\s+(?:.*\s)?key=\S")

_ELISP_STRING = r'"((?:\\.|[^"\\])*)"'
#: `(shell-command "cmd")` and its siblings: one shell command line.
_ELISP_SHELL = re.compile(
    r"\((?:shell-command|shell-command-to-string|async-shell-command|call-process-shell-command"
    r"|start-process-shell-command\s+" + _ELISP_STRING + r"\s+\S+)\s+" + _ELISP_STRING
)
#: `(start-process NAME BUFFER "prog" "arg"…)`, `(call-process "prog" nil nil nil "arg"…)`,
#: `(process-lines "prog" "arg"…)`, `(make-process :command '("prog" "arg"…))`: a program and its arguments.
_ELISP_PROCESS = re.compile(
    r"\((?:start-process\s+" + _ELISP_STRING + r"\s+\S+|call-process|process-lines"
    r"|make-process\s[^()]*:command\s+'?)\s*\(?((?:\s*(?:" + _ELISP_STRING + r"|nil|t|0))+)"
)
_ELISP_HOME = re.compile(
    r"""\(expand-file-name\s+"~/?"\s*\)|\(getenv\s+"HOME"\)|\(file-truename\s+"~/?"\)|\(expand-file-name\s+"~"\)"""
)
_ELISP_DELETE_DIR = re.compile(r'\(delete-directory\s+"([^"]*)"\s+(t|nil)?')
_ELISP_DELETE_FILE = re.compile(r'\(delete-file\s+"([^"]*)"')
#: Lisp that fetches a URL and then evaluates or loads what came back.
_ELISP_FETCH = re.compile(r"\burl-(?:retrieve|retrieve-synchronously|insert-file-contents|copy-file)\b|\(request\s")
_ELISP_EVAL = re.compile(r"\((?:eval-buffer|eval-region|eval\s+\(read|load\b|load-file\b|package-install-file\b)")


@attrs.frozen
class EditorActions:
    """What an editor's command line amounts to."""

    commands: tuple[str, ...] = ()  # shell command lines it runs
    code: tuple[tuple[str, str], ...] = ()  # (language, code): `lua …`, `py3 …`
    sourced_urls: tuple[str, ...] = ()  # scripts read from the network and run
    emptied: tuple[str, ...] = ()  # files whose content it deletes and writes back
    encrypted: tuple[str, ...] = ()  # files it rewrites encrypted with a key given on the command line
    scripts: tuple[str, ...] = ()  # every command or expression given (for loops and growth)

    @property
    def runs_code(self) -> bool:
        return bool(self.scripts)


def editor_actions(name: str, args: Sequence[str]) -> EditorActions:
    """Read an editor's arguments (``name`` is its command name: vim, nvim, emacs, emacsclient...)."""
    if name in VIMS:
        return _vim(args)
    if name in EMACSES:
        return _emacs(name, args)
    return EditorActions()


def _vim(args: Sequence[str]) -> EditorActions:
    scripts: list[str] = []
    files: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg in ("-c", "--cmd", "--remote-expr") and i + 1 < len(args):
            scripts.append(args[i + 1])
            i += 2
            continue
        if arg == "--remote-send" and i + 1 < len(args):
            # keystrokes typed into a running editor: `:!cmd<CR>` runs cmd there
            keys = re.sub(r"<(?:CR|Enter|Esc|C-\\><C-N>)>", "\n", args[i + 1], flags=re.IGNORECASE)
            scripts.extend(line.lstrip(":") for line in keys.splitlines() if line.startswith(":"))
            i += 2
            continue
        if arg.startswith("+") and len(arg) > 1 and not arg[1:].isdigit() and not arg.startswith("+/"):
            scripts.append(arg[1:])
        elif arg in _VIM_VALUED:
            i += 1
        elif arg == "--":
            files.extend(args[i + 1 :])
            break
        elif not arg.startswith(("-", "+")):
            files.append(arg)
        i += 1
    commands: list[str] = []
    code: list[tuple[str, str]] = []
    urls: list[str] = []
    empties = writes = keyed = False
    for script in scripts:
        for ex in _ex_commands(script):
            shell = _EX_SHELL.match(ex)
            inline = _EX_CODE.match(ex)
            remote = _EX_REMOTE_SOURCE.match(ex)
            if shell:
                commands.append(shell[1].strip())
            elif inline:
                language = {"py3": "python", "python3": "python", "pyx": "python"}.get(inline[1], inline[1])
                code.append((language, inline[2]))
            elif remote:
                urls.append(remote[1])
            listed = _EX_ARGS.match(ex)
            if listed:
                files.extend(listed[1].split())
            empties = empties or bool(_EX_EMPTIES.match(ex))
            writes = writes or bool(_EX_WRITES.match(ex))
            keyed = keyed or bool(_EX_KEY.match(ex))
            commands.extend(_vim_system_calls(ex))
    return EditorActions(
        commands=tuple(commands),
        code=tuple(code),
        sourced_urls=tuple(urls),
        emptied=tuple(files) if empties and writes else (),
        encrypted=tuple(files) if keyed and writes else (),
        scripts=tuple(scripts),
    )


def _ex_commands(script: str) -> list[str]:
    """An Ex command line split at ``|``, except where a command takes the rest of the line (``!cmd``, ``lua``)."""
    parts: list[str] = []
    rest = script.strip()
    while rest:
        rest = rest.lstrip(" :")
        if _EX_SHELL.match(rest) or _EX_CODE.match(rest) or rest.startswith(("exe", "norm", "g/", "call")):
            parts.append(rest)  # (`exe "…|…"` and `call f("a|b")` keep their bars too)
            break
        head, bar, rest = rest.partition("|")
        if head.strip():
            parts.append(head.strip())
        if not bar:
            break
    return parts


def _vim_system_calls(ex: str) -> list[str]:
    """``call system('cmd')``, ``exe "!cmd"``, ``jobstart(['sh', '-c', 'cmd'])``: the command lines they run."""
    found = [m[2] for m in _VIM_SYSTEM.finditer(ex)]
    for m in _VIM_SYSTEM_LIST.finditer(ex):
        argv = re.findall(r"""(['"])(.*?)\1""", m[1])
        if argv:
            found.append(shlex.join(a for _, a in argv))
    executed = re.match(r"""^exe(?:c(?:ute)?)?\s+(['"])!(.+)\1\s*$""", ex)
    if executed:
        found.append(executed[2])
    return found


def _emacs(name: str, args: Sequence[str]) -> EditorActions:
    if name == "emacsclient" and any(a in ("-e", "--eval") for a in args):
        # every operand after `-e` is an expression to evaluate in the running Emacs
        first = next(i for i, a in enumerate(args) if a in ("-e", "--eval"))
        scripts = [a for a in args[first + 1 :] if not a.startswith("-")]
    else:
        scripts = option_values(args, "--eval", "-eval", "--execute")
    commands: list[str] = []
    urls: list[str] = []
    for script in scripts:
        lisp = _ELISP_HOME.sub('"~"', script)
        lisp = re.sub(r'\(expand-file-name\s+"([^"]*)"\s+"~/?"\)', r'"~/\1"', lisp)
        lisp = lisp.replace("user-emacs-directory", '"~/.emacs.d/"')
        commands.extend(_unescape(m[2]) for m in _ELISP_SHELL.finditer(lisp))
        for m in _ELISP_PROCESS.finditer(lisp):
            argv = [_unescape(s) for s in re.findall(_ELISP_STRING, m[2])]
            if argv:
                commands.append(shlex.join(argv))
        for m in _ELISP_DELETE_DIR.finditer(lisp):
            commands.append(("rm -rf -- " if m[2] == "t" else "rmdir -- ") + _home_quoted(m[1]))
        for m in _ELISP_DELETE_FILE.finditer(lisp):
            commands.append("rm -f -- " + _home_quoted(m[1]))
        if _ELISP_FETCH.search(lisp) and _ELISP_EVAL.search(lisp):
            urls.extend(re.findall(r'"(\w+://[^"]+)"', lisp) or ["(a URL)"])
    return EditorActions(commands=tuple(commands), sourced_urls=tuple(urls), scripts=tuple(scripts))


def _home_quoted(path: str) -> str:
    """A shell word for ``path`` that keeps a leading ``~`` expandable."""
    if path == "~" or path.startswith("~/"):
        return "~" + shlex.quote(path[1:]) if len(path) > 1 else "~"
    return shlex.quote(path)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)
