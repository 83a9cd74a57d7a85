"""Home automation hubs: Home Assistant (its Supervisor, websocket and REST APIs, ``.storage``), Node-RED,
Zigbee2MQTT and other MQTT-driven locks (shared by both analyzers, judged on the whole text).

A hub opens the doors it controls and holds the household's logins. What needs a careful reviewer:

* doors unlocked, garages opened or alarms disarmed by publishing commands to their topics;
* an administrator made (``system-admin`` in ``.storage/auth`` or through ``config/auth/create``), logins skipped for
  every network (``trusted_networks`` with ``0.0.0.0/0``), Node-RED's editor login removed;
* the SSH add-on's protection mode switched off, or a Node-RED flow that runs whatever an MQTT topic sends;
* every backup a listing gives removed.

Turning lights on, reading states and one backup's removal are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

_HUB_WORDS = GateWords("UNLOCK", "unlock", "disarm", "system-admin", "trusted_networks", "adminAuth", "/security",
                       "\"exec\"", "backups remove", "backups delete")  # fmt: skip
#: A command published to a lock, a garage door or an alarm (`mosquitto_pub -t …/front_door/set -m UNLOCK`).
_PUBLISHED_OPENING = re.compile(
    r"(?:mosquitto_pub\b|\.publish\()[\s\S]{0,300}?(?:\bUNLOCK\b|[\"']unlock[\"']|\bdisarm\b)"
    r"|[\"']state[\"']\s*:\s*[\"']UNLOCK[\"'][\s\S]{0,600}?\.publish\(",
)
_ADMIN_MADE = re.compile(r"[\"']group_ids[\"']\s*[\]:=]+\s*\[?\s*[\"']system-admin[\"']")
_EVERYONE_TRUSTED = re.compile(r"trusted_networks:[\s\S]{0,120}?-\s*0\.0\.0\.0/0")
_EDITOR_OPEN = re.compile(r"(?://\s*|_|\b)adminAuth\w*\s*[:=][\s\S]{0,400}?uiHost\s*:\s*[\"']0\.0\.0\.0"
                          r"|s/\^?\\?s*adminAuth/[^/]*/")  # fmt: skip
_PROTECTION_OFF = re.compile(r"/addons/[^\s\"']*/security[\"']?[^\n]*[\"']protected[\"']\s*:\s*(?:False|false)")
_COMMAND_FLOW = re.compile(r"[\"']type[\"']\s*:\s*[\"']mqtt in[\"'][\s\S]{0,400}?[\"']type[\"']\s*:\s*[\"']exec[\"']")
_BACKUPS_REMOVED = re.compile(r"\bha\s+backups?\s+(?:remove|delete)\b")


def home_automation_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a home's locks, alarm, hub accounts and add-ons."""
    if not _HUB_WORDS.any_in(text):
        return []
    found = []
    if _PUBLISHED_OPENING.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "unlocks doors or disarms an alarm by publishing commands to them"))
    if _ADMIN_MADE.search(text) or _EVERYONE_TRUSTED.search(text) or _EDITOR_OPEN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "makes an administrator of a home automation hub or lets anyone in without a "
                                   "login"))  # fmt: skip
    if _PROTECTION_OFF.search(text) or _COMMAND_FLOW.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "switches an add-on's protection mode off, or runs whatever an MQTT topic sends "
                                   "as shell commands"))  # fmt: skip
    if _BACKUPS_REMOVED.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "removes every backup of a home automation hub a listing gives"))
    return found
