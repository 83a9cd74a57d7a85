"""Game servers and their consoles: Minecraft and friends driven through RCON, a screen session or their files
(shared by both analyzers, judged on the whole text).

A game server's console speaks for every player on it: an operator can change the world, ban anyone, read the
chat. What needs a careful reviewer:

* an account made an operator (or given every permission, LuckPerms' ``*``) while the whitelist is switched off
  or every current operator is removed;
* every operator removed in a loop;
* thousands of entities summoned (the server stalls for everyone).

Opping a named admin from the team, backups, whitelisting players and restarts are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Words without which no rule here can match (an operator only counts with the server opened or emptied of them).
_WORDS = GateWords("deop", "permission set", "whitelist", "white-list", "summon")
#: A player made an operator (`op NAME` sent to the console, a level-4 entry added to ops.json).
_OPPED = re.compile(r"[\"'`]op\s+[\w.-]+|\bop\s+\w+\^M|[\"']level[\"']\s*:\s*4\b")
#: The whitelist switched off (the console's `whitelist off`, server.properties' `white-list=false`).
_WHITELIST_OFF = re.compile(r"\bwhitelist\s+off\b|white-list\s*=\s*false|enforce-whitelist\s*=\s*false")
#: Every permission granted (LuckPerms' wildcard node).
_EVERY_PERMISSION = re.compile(r"\bpermission\s+set\s+[\"']?\*[\"']?\s+true\b")
#: Operators removed one after another (`for name in current: … deop {name}`).
_DEOP_EACH = re.compile(r"\bfor\b[^\n]*\n[^\n]*\bdeop\s+(?:\{|\$)")
#: Entities summoned in a loop of thousands of rounds.
_SUMMON_LOOP = re.compile(r"(?:seq\s+\d+\s+(\d{4,})|range\(\s*(\d{4,})\s*\))[\s\S]{0,300}?\bsummon\b")


def game_server_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a game server through its console or its files."""
    if not _WORDS.any_in(text):
        return []
    found = []
    opened = _WHITELIST_OFF.search(text) is not None or _DEOP_EACH.search(text) is not None
    if (_OPPED.search(text) and opened) or _EVERY_PERMISSION.search(text):
        what = "makes a player an operator with every permission (and opens the server or removes its operators)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    elif _DEOP_EACH.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "removes every operator of a game server"))
    summons = _SUMMON_LOOP.search(text)
    if summons is not None:
        count = int(summons[1] or summons[2])
        what = f"summons entities {count:,} times (the server stalls for every player)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found
