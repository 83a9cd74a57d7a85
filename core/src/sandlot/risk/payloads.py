"""Command lines shipped inside data to run somewhere else (shared by both analyzers).

A Kubernetes manifest's ``command: ["sh", "-c", "nc … -e /bin/sh"]``, EC2 user data, a
``docker.sock`` create request or a CronJob body is data to the code that sends it, but a
command to the machine that receives it. Both analyzers pick such strings out of constants,
here-documents and long arguments and analyse them as shell, keeping only what is HIGH or worse.
"""

from __future__ import annotations

import re

from sandlot.risk.fleet import looks_like_playbook, playbook_commands
from sandlot.risk.gate_words import GateWords

#: Shapes that only a command line (not prose, not a path) has and that are worth a shell parse,
#: each behind a word it cannot match without: one scan per shape present, not a scan of every
#: shape at every position (this test runs on most long strings both analyzers see).
_SHAPES: tuple[tuple[tuple[str, ...], re.Pattern[str] | None], ...] = tuple(
    (words, re.compile(pattern, re.IGNORECASE) if pattern else None)
    for words, pattern in (
        (("|",), r"\|\s*(?:ba|da|z|k)?sh\b|\b(?:curl|wget)\b[^|;&]*\|\s*\w|\b(?:env|printenv)\b\s*\|"),
        (("/dev/tcp/",), None),
        (("nc ", "nc\t", "ncat"), r"\b(?:nc|ncat)\b[^|;&]*\s-[ce]\b"),
        (("netcat",), r"\bnetcat\b[^|;&]*\s-[ce]\b"),
        (("exec:",), r"\bsocat\b[^|;&]*\bexec:"),
        (("bash",), r"\bbash\s+-i\b"),
        (("chmod",), r"\bchmod\s+[0-7]?[2-7][0-7]{3}\b"),
        (("nsenter",), r"\bnsenter\s"),
        (("base64",), r"\bbase64\s+(?:-d|--decode)\b"),
        (("mkfifo",), r"\bmkfifo\b"),
        (("rm ", "rm\t"), r"\brm\s+-[a-z]*r[a-z]*f?\s+/"),
        (("xmrig",), None),
        (("chroot",), r"chroot\s+/"),
        (("(){", "() {", "()\t{"), r"(\w|:)\(\)\s*\{[^}]*\|\s*\1\s*&"),  # a fork bomb: f(){ f|f& };f
        (("curl",), r"\bcurl\b[^|;&]*\s(?:-d|--data[\w-]*|-F|-T)\s*@"),
        (("node", "perl", "ruby", "php", "python"), r"\b(?:node|perl|ruby|php)\s+-[er]\b|\bpython3?\s+-c\b"),
        (("write18", "\\input{|"), None),
    )
)
#: make's $(shell …), run when the Makefile is read; TeX's `\write18{…}` and `\input{|"…"}`, run when the document
#: is compiled with shell escape.
_MAKE_SHELL = re.compile(r"\$\(shell\s+((?:[^()]|\([^()]*\))*)\)|\\write18\s*\{((?:[^{}]|\{[^{}]*\})*)\}"
                         r"|\\input\s*\{\|\s*\"?([^\"}]*)")  # fmt: skip
#: A mining pool address or a miner's name: a miner's set-up wherever it appears (an image, a manifest).
MINER = re.compile(
    r"\bstratum\d?\+(?:tcp|ssl|tls)://|\b(?:xmrig|xmr-stak|cpuminer|minerd|nbminer|lolminer|ethminer|phoenixminer)\b"
    # the public pools' own host names (`-o pool.supportxmr.com:443`)
    r"|\b(?:[\w-]+\.)?(?:supportxmr|moneroocean|nanopool|2miners|f2pool|hashvault|herominers|c3pool|minexmr|unmineable"
    r"|nicehash|ethermine|viabtc|antpool)\.(?:com|org|net|pro|io|stream)\b",
    re.IGNORECASE,
)


#: Words without which :data:`MINER` cannot match (a scan for them is far cheaper than the pattern's).
_MINER_WORDS = GateWords("stratum", "xmr", "miner", "pool.", "moneroocean", "hashvault", "unmineable", "nicehash",
                         "ethermine", "viabtc", ignore_case=True)


def looks_like_payload(text: str) -> bool:
    """Cheap test before a shell parse."""
    lowered = text.lower()
    for words, shape in _SHAPES:
        if any(word in lowered for word in words) and (shape is None or shape.search(text)):
            return True
    return looks_like_playbook(text)


def names_miner(text: str) -> bool:
    """``text`` names a mining pool or a miner (see :data:`MINER`)."""
    return _MINER_WORDS.any_in(text) and bool(MINER.search(text))


def embedded_commands(text: str, limit: int = 6, *, whole_scripts: bool = False) -> list[str]:
    """Candidate command lines in ``text``: its quoted strings (JSON, YAML) that look like commands,
    else the lines that do; ``whole_scripts``: a string that is a shell script (a shebang first) as a whole."""
    if looks_like_playbook(text):
        return playbook_commands(text, limit)  # an Ansible playbook: its tasks as command lines
    if whole_scripts and _SHELL_SHEBANG.match(text):
        return [text]  # a whole shell script (user data, a lifecycle hook): analysed as one
    found: list[str] = [
        command for m in _MAKE_SHELL.finditer(text) for command in m.groups() if command and looks_like_payload(command)
    ]
    found += [inner for inner in _quoted_strings(text) if len(inner) >= 6 and looks_like_payload(inner)]
    if not found:
        found = [line.strip() for line in text.splitlines() if looks_like_payload(line)]
        # a YAML item or key, a settings file's hook (`on_event_start wget … | sh`, `command = curl … | bash`)
        found = [re.sub(r"^\s*(?:-\s+|[\w-]+:\s+|[a-z]\w*_\w+\s+(?=[a-z/.])|[\w.-]+\s*=\s*)", "", line)
                 for line in found]  # fmt: skip
    # (`@php -r …`: composer's and make's prefix for a command run quietly; `-c "curl … | bash"`: a shell's
    # argument list spelled in another language, `new ProcessStartInfo("/bin/bash", "-c \"…\"")`)
    found = [flagged[2] if (flagged := _SHELL_FLAG.fullmatch(c)) else c for c in found]
    found = [_CRON_SCHEDULE.sub("", c, count=1) for c in found]  # `*/10 * * * * curl … | bash`: the command
    return [command.lstrip()[1:] if command.lstrip().startswith("@") else command for command in found[:limit]]


#: A shell script's first line (`#!/bin/bash`, `#!/usr/bin/env sh`).
_SHELL_SHEBANG = re.compile(r"\s*#!\s*(?:/usr)?/bin/(?:env\s+)?(?:ba|da|z|k)?sh\b")
#: A crontab line's five schedule fields before its command.
_CRON_SCHEDULE = re.compile(r"^\s*(?:[\d*/,-]+\s+){5}(?=\S)")
#: A shell's `-c` and the command after it, unquoted.
_SHELL_FLAG = re.compile(r"\s*-c\s+([\"']?)(.*?)\1\s*", re.DOTALL)


def _quoted_strings(text: str) -> list[str]:
    """The contents of the quoted strings of ``text``, each quote paired with its own closing quote."""
    found: list[str] = []
    i = 0
    while i < len(text):
        quote = text[i]
        if quote not in "\"'":
            i += 1
            continue
        j = i + 1
        while j < len(text) and text[j] != quote and text[j] != "\n":
            j += 2 if text[j] == "\\" and quote == '"' else 1
        if j < len(text) and text[j] == quote:
            found.append(text[i + 1 : j].replace('\\"', '"'))
            i = j + 1
        else:
            i += 1  # an apostrophe in prose, or a quote left open on its line
    return found
