"""Chat workspaces: Slack and Discord, and the self-hosted Mattermost, Rocket.Chat and Matrix Synapse (shared by both
analyzers, judged on the whole text).

A bot or an admin token reaches every channel and member of a workspace. What needs a careful reviewer:

* a user made an administrator or owner of the workspace through the admin API (Mattermost's ``system_admin`` role
  given over a listing, Rocket.Chat's ``admin`` role set in its database; a Synapse admin registered with a password
  written in the code is ``identity.literal_password_admin``'s);
* every message of the channels a listing gives deleted (Discord's ``purge(limit=None)``, Slack's ``chat.delete``
  over a channel's history), or every room of a homeserver purged;
* every channel's posts, or a compliance export, sent to another host; an outgoing webhook on every channel;
* another user's session taken (Synapse's admin ``login`` as a user);
* the server allowed to reach internal and metadata addresses, or its second factor switched off.

Posting to a channel, answering slash commands and exporting one's own channel are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_elsewhere

#: Slack's admin methods that promote a user (`admin.users.setAdmin`, the SDK's `admin_users_setOwner`).
_PROMOTES = re.compile(r"admin[._]users[._]set(?:Admin|Owner)\b")
#: Every message of a channel deleted: Discord's purge without a limit, Slack's chat.delete over its history.
_PURGES_ALL = re.compile(r"\.purge\(\s*limit\s*=\s*None")
_DELETES_HISTORY = re.compile(
    r"chat[._]delete\b[\s\S]*conversations[._]history|conversations[._]history[\s\S]*chat[._]delete"
)


_SELF_HOSTED_WORDS = GateWords("system_admin", "system-admin", "/posts", "/messages", "_synapse/admin",
                               "hooks/outgoing", "mmctl", "TwoFactor",
                               "AllowedUntrustedInternalConnections", "rocketchat")  # fmt: skip
#: The system administrator role given to the users a listing gives (`/users/{id}/roles`, `mmctl roles system-admin`).
_SYSTEM_ADMIN = re.compile(r"/roles[\"'][^\n]*system_admin|\bmmctl\b[^\n]*\broles\s+system-admin"
                           r"|[\"']roles[\"']\s*:\s*\{\s*[\"']\$(?:each|addToSet|push)[^\n]*[\"']admin[\"']"
                           r"|\$addToSet[^\n]*[\"']roles[\"'][^\n]*[\"']admin[\"']")
_CHANNEL_POSTS = re.compile(r"/channels/\S*?/posts|/rooms/\S*?/messages|\bmmctl\s+export\s+(?:download|create)")
#: A copy's destination given by a bare address (`scp FILE user@203.0.113.61:/in/`).
_COPIED_TO_ADDRESS = re.compile(r"@(\d{1,3}(?:\.\d{1,3}){3}):")
#: The chat servers' own hosts (where their messages belong).
_CHAT_HOSTS = re.compile(r"^(?:localhost|127\.)|chat|matrix|mattermost|rocket|\.(?:local|internal)(?:\.|$)")
_ROOMS_PURGED = re.compile(r"_synapse/admin/v2/rooms/[\s\S]{0,300}?[\"']purge[\"']\s*:\s*True|"
                           r"-X\s*DELETE[^\n]*_synapse/admin/v2/rooms/")
_OUTGOING_HOOK = re.compile(r"hooks/outgoing[\s\S]{0,600}?callback_urls")
_LOGIN_AS = re.compile(r"_synapse/admin/v1/users/[^\n]*/login\b")
_INTERNAL_ALLOWED = re.compile(r"AllowedUntrustedInternalConnections[^\n]*(?:169\.254\.169\.254|0\.0\.0\.0/0)")
_SECOND_FACTOR_OFF = re.compile(r"TwoFactor\w*(?:Enabled|Enforced)[\"']?\s*[:=,]\s*(?:False|false)\b")


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
    if _SELF_HOSTED_WORDS.any_in(text):
        found += _self_hosted_risks(text)
    return found


def _self_hosted_risks(text: str) -> list[OperationRisk]:
    """Mattermost, Rocket.Chat and Synapse: administrators made, messages sent away or purged, sessions taken."""
    found = []
    if (_SYSTEM_ADMIN.search(text) and each_item(text)) or ("rocketchat" in text and _SYSTEM_ADMIN.search(text)):
        what = "makes users administrators of a chat server (every channel and message)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    exported = "mmctl" in text and any(outside_address(a) for a in _COPIED_TO_ADDRESS.findall(text))
    if _CHANNEL_POSTS.search(text) and (sends_elsewhere(text, _CHAT_HOSTS) or exported):
        what = "sends every channel's posts (private ones included), or a compliance export, to another host"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    # (the rooms a name test picks, a CI bot's leftovers, are a clean-up)
    purged = _ROOMS_PURGED.search(text) and "startswith(" not in text and "search_term" not in text
    if (purged or _OUTGOING_HOOK.search(text)) and each_item(text):
        what = "purges every room of a homeserver, or adds an outgoing webhook to every channel"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _LOGIN_AS.search(text):
        what = "logs in as another user through the homeserver's admin API (their rooms and messages)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _INTERNAL_ALLOWED.search(text) or _SECOND_FACTOR_OFF.search(text):
        what = "lets the chat server reach internal or metadata addresses, or switches its second factor off"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    return found
