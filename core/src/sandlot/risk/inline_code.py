"""One-liners of languages without a parser here (perl, ruby, node, php, lua) reduced to shell.

``perl -MFile::Path=remove_tree -e 'remove_tree($ENV{HOME})'`` is ``rm -rf ~``; ``node -e
"fs.appendFileSync(os.homedir() + '/.ssh/authorized_keys', key)"`` is an append to
``~/.ssh/authorized_keys``. The file-system primitives of those languages are matched (after their
spellings of the home directory are folded to ``~``) and turned into the shell command with the same
effect, which the shell analyzer grades by path like any other. This reads text, not a syntax tree:
it only finds calls whose path argument is a string constant, possibly joined to the home directory.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: Spellings of the home directory in those languages.
_HOME = re.compile(
    r"""\$ENV\{\s*['"]?HOME['"]?\s*\}|ENV\[\s*['"]HOME['"]\s*\]|ENV\.fetch\(\s*['"]HOME['"][^)]*\)|Dir\.home\b"""
    r"""|process\.env\.HOME\b|process\.env\[\s*['"]HOME['"]\s*\]|(?:require\(\s*['"]os['"]\s*\)|\bos)\.homedir\(\)"""
    r"""|os\.getenv\(\s*['"]HOME['"]\s*\)|getenv\(\s*['"]HOME['"]\s*\)|\$_SERVER\[\s*['"]HOME['"]\s*\]"""
    r"""|File\.expand_path\(\s*['"]~['"]\s*\)"""
    # Julia's, R's and Octave's
    r"""|\bhomedir\(\)|path\.expand\(\s*['"]~['"]\s*\)|Sys\.getenv\(\s*['"]HOME['"]\s*\)|normalizePath\(\s*['"]~['"]\s*\)""",
)
_STRING = r"""(?:(?P<q>['"`])(?P<path>[^'"`\n]*)(?P=q)|(?P<bare>~(?:/[\w./-]*)?))"""
#: `HOME . "/x"`, `HOME + '/x'`, `HOME .. "/x"`, `path.join(HOME, "x")`, `File.join(HOME, "x")`
_JOINED = re.compile(r"""~\s*(?:\.\.|\.|\+)\s*(['"])([^'"\n]*)\1""")
_JOIN_CALL = re.compile(r"""(?:(?:path|File|Path)\.(?:join|resolve)|\bjoinpath|\bfile\.path|\bfullfile)"""
                        r"""\(\s*['"]?~['"]?\s*,((?:\s*(['"])[^'"\n]*\2\s*,?)+)\)""")  # fmt: skip
_JOINED_PART = re.compile(r"['\"]([^'\"]*)['\"]")

_FS = r"""(?:\bfs|require\(\s*['"]fs['"]\s*\))(?:\.promises)?\."""
#: (pattern with a `path` group, shell template): deletions, writes and appends.
_PRIMITIVES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern + _STRING if not pattern.endswith(")") else pattern), template)
    for pattern, template in (
        (r"\b(?:remove_tree|rmtree)\(\s*", "rm -rf -- {path}"),
        (r"FileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry(?:_secure)?|rmtree)\(\s*", "rm -rf -- {path}"),
        (_FS + r"(?:rmSync|rm|rmdirSync|rmdir)\(\s*", "rm -rf -- {path}"),
        (r"\brimraf(?:\.sync)?\(\s*", "rm -rf -- {path}"),
        (r"\bshutil\.rmtree\(\s*", "rm -rf -- {path}"),
        (r"\bfind(?:depth)?\(\s*(?:sub\s*\{[^}]*(?:unlink|rmdir)[^}]*\}|\\&\w+)\s*,\s*", "rm -rf -- {path}"),
        (r"\bopen\(\s*(?:my\s+)?\$?\w+\s*,\s*['\"]>>['\"]\s*,\s*", "echo data >> {path}"),
        (r"\bopen\(\s*(?:my\s+)?\$?\w+\s*,\s*['\"]>['\"]\s*,\s*", "echo data > {path}"),
        (r"\bFile\.open\(\s*", "echo data >> {path}"),
        (r"\bFile\.write\(\s*", "echo data > {path}"),
        (_FS + r"(?:appendFileSync|appendFile)\(\s*", "echo data >> {path}"),
        (_FS + r"(?:writeFileSync|writeFile)\(\s*", "echo data > {path}"),
        (r"\bfile_put_contents\(\s*", "echo data > {path}"),
        (r"\bio\.open\(\s*", "echo data >> {path}"),
        (r"\bos\.remove\(\s*", "rm -f -- {path}"),
        (r"\bchmod\(\s*0?[0-7]*[2367]\s*,\s*", "chmod 777 {path}"),  # perl/php chmod(0777, PATH)
        # R's unlink (recursive or not), Julia's rm(PATH; recursive=true), Octave's and MATLAB's rmdir(PATH, 's')
        (r"\bunlink(?=\([^)\n]*recursive\s*=\s*(?:TRUE|T)\b)\(\s*", "rm -rf -- {path}"),
        (r"\bunlink(?=\(list\.files\([^\n]*recursive\s*=\s*(?:TRUE|T)\b)\(list\.files\(\s*", "rm -rf -- {path}/*"),
        (r"\bfile\.remove\(\s*", "rm -f -- {path}"),
        (r"\brm(?=\([^)\n]*recursive\s*=\s*true\b)\(\s*", "rm -rf -- {path}"),
        (r"\brmdir(?=\([^)\n]*,\s*['\"]s['\"]\s*\))\(\s*", "rm -rf -- {path}"),
        # reads of a file's text: a secret file read is graded like `cat` of it
        (r"\b(?:readLines|readChar|read_file|readlines|fileread|File\.read|IO\.read|readFileSync|file_get_contents)"
         r"\(\s*", "cat -- {path}"),
        (r"\bread(?=\([^\n]*,\s*String\s*\))\(\s*", "cat -- {path}"),  # Julia's read(PATH, String)
    )
)
#: Julia's `pipeline(`a`, `b`)`: a shell pipeline of two commands.
_JULIA_PIPELINE = re.compile(r"pipeline\(\s*`([^`]+)`\s*,\s*`([^`]+)`\s*\)")
#: Every process of the user killed (`tools::pskill(-1L)`, perl's `kill 9, -1`, Ruby's `Process.kill(:KILL, -1)`).
_KILLS_EVERYTHING = re.compile(r"\bpskill\(\s*-1L?\b|\bkill\s*\(?\s*['\"]?(?:9|KILL|SIGKILL|TERM|15)['\"]?\s*,\s*-1\b"
                               r"|Process\.kill\(\s*:?['\"]?\w+['\"]?\s*,\s*-1\b")  # fmt: skip
#: A loop that never ends, in those languages' spellings.
_FOREVER = re.compile(
    r"while\s*\(?\s*(?:true|1)\s*\)?|\bloop\s*(?:do\b|\{)|for\s*\(\s*;\s*;\s*\)|\bwhile\s+true\s+do\b|setInterval\("
    r"|\brepeat\s*\{"
)
_WRITES = re.compile(r"\.write\(|\bprint\s+\{?\$?\w+\}?|\bsyswrite\b|writeSync\(|\bfwrite\(|:write\(|<<\s*['\"]")
_GROWS = re.compile(
    r"\.push\(|Buffer\.alloc|new\s+Array\(|\.concat\(|\bpush\s*@|<<\s*[(]?['\"]?\w|\.append\(|string\.rep\(|\bcall\s+add\("
    r"|\[\[\s*length\(|\bpush!\("
)


#: A deletion of each path a loop gives (`remove_tree($_) for qw(/var/www /home)`, `rmtree([qw(/a /b)])`).
_DELETES_VARIABLE = re.compile(r"\b(?:remove_tree|rmtree|rmdir|unlink|FileUtils\.rm_rf|FileUtils\.rm_r)\(?\s*"
                               r"(?:\$\w+|\w+\b(?!\())")  # fmt: skip
_WORD_LIST = r"(?:qw|%w)(?:\(([^)]*)\)|\[([^\]]*)\]|\{([^}]*)\})"
_DELETES_LIST = re.compile(r"\b(?:remove_tree|rmtree|FileUtils\.rm_rf|FileUtils\.rm_r)\(\s*\[?\s*" + _WORD_LIST)
_LOOP_LIST = re.compile(r"\b(?:for|foreach)\b[^;{]*?" + _WORD_LIST + r"|" + _WORD_LIST + r"\.each\b"
                        r"|\[((?:\s*['\"][^'\"]+['\"]\s*,?)+)\]\.each\b")  # fmt: skip
#: An in-place edit whose substitution removes every line's text (`perl -0777 -pi -e 's/.*//s' FILE…`).
_IN_PLACE = re.compile(r"(?:^|\s)-\w*i(?:\.\w+)?(?:\s|$)")
_EMPTYING_SUBSTITUTION = re.compile(r"\bs([/#|!])\^?(?:\.\*|\[\\s\\S\]\*|\.\+)\$?\1\1[gsmx]*(?:\s|['\";]|$)")
#: Code that reads its standard input and posts it over HTTP: an uploader at the end of a pipeline.
_READS_STDIN = re.compile(r"\bSTDIN\b|\$stdin\b|php://stdin|process\.stdin|\bio\.read\(|\bARGF\b")
_POSTS = re.compile(r"Net::HTTP(?:\.post|::Post|\.start)|HTTP::Tiny|LWP::UserAgent|->post\(|curl_exec"
                    r"|CURLOPT_POSTFIELDS|https?\.request\(|\bfetch\(|RestClient\.post|Faraday\.post|HTTParty\.post"
                    r"|stream_context_create",
                    re.IGNORECASE)  # fmt: skip
#: An ORM query for a table of people that names their contact or login columns (`User.pluck(:email, :phone)`,
#: `User::select('name','email','phone')->get()`), or serialises all of them.
_PEOPLE_QUERY = re.compile(
    r"\b(?:App\\+Models\\+)?(?:User|Customer|Client|Member|Patient|Guest|Contact|Person|Employee|Subscriber|Account)s?"
    r"(?:::|\.)(?:all|pluck|select|get|find_each|where|cursor|chunk|each|map|limit)\b"
)
#: People's contact and login columns named as ORM symbols or strings (a whole table's worth of them, two suffice:
#: unlike :func:`sandlot.risk.sql.personal_fields`, which judges one record's fields).
#: (or read off each record: `u.email, u.phone`)
_PERSONAL_COLUMN = re.compile(r"(?:[:'\"]|\b[a-z]\.)(?:e?mail|email_address|phone|mobile|address|ssn|dob|date_of_birth"
                              r"|birth_date|encrypted_password|password_digest|password|password_hash|card_number"
                              r"|iban)\b")  # fmt: skip


#: A JavaScript module bound to a short name: `const n = require("net")`, `import * as cp from "child_process"`.
_REQUIRE_ALIAS = re.compile(r"""(?:\b(?:const|let|var)\s+|,\s*)(\w+)\s*=\s*require\(\s*['"](?:node:)?([\w/]+)['"]"""
                            r"""\s*\)"""
                            r"""|\bimport\s+(?:\*\s+as\s+)?(\w+)\s+from\s+['"](?:node:)?([\w/]+)['"]""")  # fmt: skip


def fold_requires(code: str) -> str:
    """``code`` with JavaScript module aliases spelled as the modules (``n.connect(`` becomes ``net.connect(``),
    so the keyword tests see what a one-liner calls whatever it named the module."""
    aliases = {(m[1] or m[3]): (m[2] or m[4]) for m in _REQUIRE_ALIAS.finditer(code)}
    aliases = {alias: module for alias, module in aliases.items() if alias != module}
    if not aliases:
        return code
    pattern = re.compile(r"(?<![\w.$])(" + "|".join(map(re.escape, aliases)) + r")\.")
    return pattern.sub(lambda m: aliases[m[1]] + ".", code)


#: A web server that opens the file its request names: any file the process can read, to whoever asks.
_SERVES_REQUESTED_FILE = re.compile(r"createServer\([\s\S]*?(?:createReadStream|readFileSync|readFile|sendFile)\("
                                    r"[^)]*\b(?:\w+\.url|req\.path|request\.path|params)\b")  # fmt: skip


def serves_requested_files(code: str) -> bool:
    """``code`` (node) runs a web server that reads whatever path a request names."""
    return "createServer" in code and _SERVES_REQUESTED_FILE.search(code) is not None


def uploads_stdin(code: str) -> bool:
    """``code`` (perl, ruby, php, node) posts what it reads on standard input to a web server."""
    return _READS_STDIN.search(code) is not None and _POSTS.search(code) is not None


def reads_people(code: str) -> bool:
    """``code`` queries an application's table of people for their contact or login details."""
    return _PEOPLE_QUERY.search(code) is not None and len(set(_PERSONAL_COLUMN.findall(code))) >= 2


def _looped_deletions(code: str) -> list[str]:
    listed = ["".join(g or "" for g in m.groups()) for m in _DELETES_LIST.finditer(code)]
    if _DELETES_VARIABLE.search(code):
        listed += ["".join(groups) for groups in _LOOP_LIST.findall(code)]
    return [f"rm -rf -- {_quote(path.strip(chr(39) + chr(34) + ', '))}" for items in listed
            for path in items.replace(",", " ").split() if path.strip("'\", ")]  # fmt: skip


def _emptied_in_place(code: str, positional: Sequence[str]) -> list[str]:
    if not (_IN_PLACE.search(code) and _EMPTYING_SUBSTITUTION.search(code)):
        return []
    return [f"truncate -s 0 -- {_quote(path)}" for path in positional if not path.startswith("-")]


def _bind_arguments(code: str, positional: Sequence[str]) -> str:
    if not positional:
        return code

    def value(index: int) -> str:
        return "'" + positional[index] + "'" if 0 <= index < len(positional) else "''"

    code = re.sub(r"\$ARGV\[(\d)\]|\bARGV\[(\d)\]", lambda m: value(int(m.group(1) or m.group(2))), code)
    code = re.sub(r"process\.argv\[(\d)\]", lambda m: value(int(m.group(1)) - 1), code)
    return re.sub(r"@ARGV\b", value(0), code)


#: A path below the home expanded by the language (`path.expand("~/.Renviron")`, `File.expand_path("~/x")`).
_EXPANDED = re.compile(r"""(?:path\.expand|normalizePath|File\.expand_path|expanduser|tilde_expand)"""
                       r"""\(\s*(['"])(~/[^'"\n]*)\1\s*\)""")  # fmt: skip


def _fold_home(code: str) -> str:
    code = _EXPANDED.sub(lambda m: f"'{m[2]}'", code)
    code = _HOME.sub("~", code)
    code = _JOIN_CALL.sub(lambda m: "'~/" + "/".join(p.strip("/") for p in _JOINED_PART.findall(m[1])) + "'", code)
    code = _JOINED.sub(lambda m: f"'~{m.group(2)}'", code)
    # "#{~}/x", "${~}/x", "$~/x" inside interpolated strings
    return re.sub(r"#\{~\}|\$\{~\}", "~", code)


def inline_commands(code: str, positional: Sequence[str] = (), limit: int = 6) -> list[str]:
    """Shell command lines with the effect of the file-system calls in ``code``; ``positional`` are the
    arguments after the code (``perl -e CODE ARG``: ``$ARGV[0]``, ``@ARGV``, node's ``process.argv[1]``)."""
    folded = _fold_home(_bind_arguments(code, positional))
    found: list[str] = []
    for pattern, template in _PRIMITIVES:
        for match in pattern.finditer(folded):
            path = (match.group("path") or match.group("bare") or "").strip()
            if path:
                found.append(template.format(path=_quote(path)))
    found += _looped_deletions(folded) + _emptied_in_place(code, positional)
    found += [f"{a} | {b}" for a, b in _JULIA_PIPELINE.findall(folded)]
    if _KILLS_EVERYTHING.search(code):
        found.append("kill -9 -1")
    return found[:limit]


def endless_growth(code: str) -> str | None:
    """``"disk"`` or ``"memory"`` when the code writes or grows without end, else None."""
    if not _FOREVER.search(code) or re.search(r"\b(?:break|last|exit|return)\b", code):
        return None
    if _WRITES.search(code):
        return "disk"
    if _GROWS.search(code):
        return "memory"
    return None


def _quote(path: str) -> str:
    if re.fullmatch(r"[\w./~+-]+", path):
        return path
    if path.startswith("~/"):
        return "~/" + _quote(path[2:])  # keep ~ unquoted: the shell analyzer must see the home directory
    return "'" + path.replace("'", "'\\''") + "'"


_AWK_ASSIGNMENT = re.compile(r"""(?m)(?:^|[;{]\s*|\s)(?P<name>[A-Za-z_]\w*)\s*=(?!=)\s*(?P<expr>[^;\n}]+)""")
_AWK_PART = re.compile(r"""\s*(?:"(?P<s>(?:\\.|[^"\\])*)"|(?P<n>[A-Za-z_]\w*))""")


def awk_with_constants(program: str) -> str:
    """``program`` with variables built from string constants folded into the calls that use them:
    ``cmd = "curl " url " | sh"; system(cmd)`` becomes ``system("curl http://... | sh")``."""
    values: dict[str, str] = {}
    for match in _AWK_ASSIGNMENT.finditer(program):
        expr, parts, pos = match["expr"].strip(), [], 0
        while pos < len(expr):
            part = _AWK_PART.match(expr, pos)
            if part is None or part.end() == pos:
                break
            name = part["n"]
            if part["s"] is not None:
                parts.append(part["s"])
            elif name is not None and name in values:
                parts.append(values[name])
            else:
                break
            pos = part.end()
        if pos >= len(expr.rstrip()) and parts:
            values[match["name"]] = "".join(parts)
    if not values:
        return program
    return re.sub(
        r"\b(system|print\s*\|)\s*\(?\s*([A-Za-z_]\w*)\s*\)?",
        lambda m: f'{m[1]}("{values[m[2]]}")' if m[2] in values else m[0],
        program,
    )
