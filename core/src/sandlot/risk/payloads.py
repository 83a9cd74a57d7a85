"""Command lines shipped inside data to run somewhere else (shared by both analyzers).

A Kubernetes manifest's ``command: ["sh", "-c", "nc … -e /bin/sh"]``, EC2 user data, a
``docker.sock`` create request or a CronJob body is data to the code that sends it, but a
command to the machine that receives it. Both analyzers pick such strings out of constants,
here-documents and long arguments and analyse them as shell, keeping only what is HIGH or worse.
"""

from __future__ import annotations

import re

#: Shapes that only a command line (not prose, not a path) has and that are worth a shell parse.
_TRIGGER = re.compile(
    r"\|\s*(?:ba|da|z|k)?sh\b|/dev/tcp/|\b(?:nc|ncat|netcat)\b[^|;&]*\s-[ce]\b|\bsocat\b[^|;&]*\bexec:|"
    r"\bbash\s+-i\b|\bchmod\s+[0-7]?[2-7][0-7]{3}\b|\bnsenter\s|\bbase64\s+(?:-d|--decode)\b|\bmkfifo\b|"
    r"\brm\s+-[a-z]*r[a-z]*f?\s+/|\bcurl\b[^|;&]*\|\s*\w|\bwget\b[^|;&]*\|\s*\w|xmrig|chroot\s+/|"
    r"(\w|:)\(\)\s*\{[^}]*\|\s*\1\s*&",  # a fork bomb: f(){ f|f& };f
    re.IGNORECASE,
)
#: make's $(shell …), run when the Makefile is read.
_MAKE_SHELL = re.compile(r"\$\(shell\s+((?:[^()]|\([^()]*\))*)\)")
_QUOTED = re.compile(r'"((?:\\.|[^"\\]){6,})"|\'([^\']{6,})\'')
#: A mining pool address or a miner's name: a miner's set-up wherever it appears (an image, a manifest).
MINER = re.compile(
    r"\bstratum\d?\+(?:tcp|ssl|tls)://|\b(?:xmrig|xmr-stak|cpuminer|minerd|nbminer|lolminer|ethminer|phoenixminer)\b",
    re.IGNORECASE,
)


def looks_like_payload(text: str) -> bool:
    """Cheap test before a shell parse."""
    return bool(_TRIGGER.search(text))


def embedded_commands(text: str, limit: int = 6) -> list[str]:
    """Candidate command lines in ``text``: its quoted strings (JSON, YAML) that look like commands,
    else the lines that do."""
    found: list[str] = [m.group(1) for m in _MAKE_SHELL.finditer(text) if looks_like_payload(m.group(1))]
    for match in _QUOTED.finditer(text):
        inner = (match.group(1) or match.group(2) or "").replace('\\"', '"')
        if looks_like_payload(inner):
            found.append(inner)
    if not found:
        found = [line.strip() for line in text.splitlines() if looks_like_payload(line)]
        found = [re.sub(r"^\s*(?:-\s+|[\w-]+:\s+)", "", line) for line in found]  # a YAML item or key
    return found[:limit]
