"""Chat workspaces: Slack, Discord (shared by both analyzers, judged on the whole text).

A bot or an admin token reaches every channel and member of a workspace. What needs a careful reviewer:

* a user made an administrator or owner of the workspace through the admin API;
* every message of the channels a listing gives deleted (Discord's ``purge(limit=None)``, Slack's ``chat.delete``
  over a channel's history).

Posting to a channel, answering slash commands and exporting one's own channel are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Slack's admin methods that promote a user (`admin.users.setAdmin`, the SDK's `admin_users_setOwner`).
_PROMOTES = re.compile(r"admin[._]users[._]set(?:Admin|Owner)\b")
#: Every message of a channel deleted: Discord's purge without a limit, Slack's chat.delete over its history.
_PURGES_ALL = re.compile(r"\.purge\(\s*limit\s*=\s*None")
_DELETES_HISTORY = re.compile(
    r"chat[._]delete\b[\s\S]*conversations[._]history|conversations[._]history[\s\S]*chat[._]delete"
)


def chat_workspace_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a chat workspace's members and messages."""
    found = []
    if ("setAdmin" in text or "setOwner" in text) and _PROMOTES.search(text):
        what = "makes a user an administrator or owner of the chat workspace"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    purges = "purge(" in text and _PURGES_ALL.search(text) is not None
    if (purges or ("chat" in text and "delete" in text and _DELETES_HISTORY.search(text))) and each_item(text):
        what = "deletes every message of each channel a listing gives"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    return found
