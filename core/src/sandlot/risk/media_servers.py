"""Self-hosted media servers: Jellyfin, Emby and Plex, through their REST APIs and settings files (shared by both
analyzers, judged on the whole text).

What needs a careful reviewer:

* an account made an administrator (``IsAdministrator``), or one password set for every account a listing gives;
* the server opened to every network without a login (Plex's ``allowedNetworks`` of ``0.0.0.0``);
* a plugin repository on a bare outside address added (its plugins run inside the server);
* every item of the library deleted through the API (the files on disk go with them);
* viewers' watch histories, names or e-mail addresses sent to a host other than the server's own.

Library scans, one item's metadata refreshed, plugins from the official repositories and reports kept on the
server are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_elsewhere

_MEDIA_WORDS = GateWords("IsAdministrator", "NewPw", "allowedNetworks", "/Repositories", "/Items", "IsPlayed",
                         "LastPlayedDate", "PlaybackActivity", "plex.tv/api")  # fmt: skip
_ADMIN_MADE = re.compile(r"[\"']?IsAdministrator[\"']?\s*[=:]\s*(?:True|true)\b")
_PASSWORD_SET = re.compile(r"[\"']NewPw[\"']\s*:\s*[\"'][^\"'$]")
_EVERY_NETWORK = re.compile(r"allowedNetworks[\"']?\s*[,=:]\s*[\"']?0\.0\.0\.0/(?:0|0\.0\.0\.0)\b")
_REPOSITORY_URL = re.compile(r"https?://(\d{1,3}(?:\.\d{1,3}){3})[:/][^\s\"']*manifest", re.IGNORECASE)
_LIBRARY_DELETED = re.compile(r"(?:\.delete\(|-X\s*DELETE\b)[^\n]*/Items\b")
_VIEWER_DATA = re.compile(r"IsPlayed|LastPlayedDate|PlaybackActivity|plex\.tv/api/v2/(?:friends|users)")
#: The media server's own hosts (where its data belongs) and the vendor's account service.
_OWN_HOSTS = re.compile(r"^(?:localhost|127\.|plex\.tv$)|\.local$|jellyfin|emby|plex|media")


def media_server_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a media server's accounts, network exposure, plugins, library and viewers."""
    if not _MEDIA_WORDS.any_in(text):
        return []
    found = []
    if _ADMIN_MADE.search(text) or (_PASSWORD_SET.search(text) and each_item(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "makes a media server account an administrator, or sets one password for every "
                                   "account a listing gives"))  # fmt: skip
    if _EVERY_NETWORK.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "lets every network use the media server without a login"))
    if "/Repositories" in text and any(outside_address(a) for a in _REPOSITORY_URL.findall(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "adds a plugin repository on a bare outside address (its plugins run in the "
                                   "server)"))  # fmt: skip
    if "Recursive" in text and _LIBRARY_DELETED.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes every item of a media library through the API (the files go with them)"))
    if _VIEWER_DATA.search(text) and sends_elsewhere(text, _OWN_HOSTS):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends viewers' watch histories or contact details to another host"))
    return found
