"""Device and endpoint management turned against the fleet (shared by both analyzers, judged on the whole text:
Jamf's, Intune's and Fleet's APIs called from Python or curl, osquery queries, configuration profiles).

A management server reaches every managed computer and phone, as root. Through it one script does to all of them
what a reviewer would want to see first:

* a script or command pushed to every computer (a policy scoped to all computers, Fleet's script runner in a loop,
  every device locked or wiped);
* the fleet's secrets collected: FileVault recovery keys, LAPS passwords, every user's shell history;
* trust and power handed out: a root certificate installed everywhere, an administrator account of the server.

Inventory reports, one device's command, check-ins (``jamf recon``, ``jamf policy``) and read-only queries are
routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Words without which no rule here matches (a cheap test first).
_WORDS = GateWords("all_computers", "scripts/run", "DeviceLock", "EraseDevice", "DeviceWipe", "RecoveryKey",
                   "filevault", "LAPS", "local-admin-password", "shell_history", "com.apple.security.root",
                   "privilege_set", "privilegeSet")  # fmt: skip

_EVERY_COMPUTER = re.compile(r"<all_(?:computers|mobile_devices)>\s*true\s*</all_|[\"']allComputers[\"']\s*:\s*true")
_PUSHES_CODE = re.compile(r"<scripts?>|scriptContents|<script_contents>|<payloads>|files_and_processes|<run_command>")
_SCRIPT_RUNNER = re.compile(r"/scripts/run\b|/api/v\d+/fleet/scripts/run")
_DEVICE_COMMAND = re.compile(r"\b(?:DeviceLock|EraseDevice|DeviceWipe|wipe|retire)\b")
_FLEET_SECRETS = re.compile(
    r"personalRecoveryKey|/filevault\b|recoveryKey|/local-admin-password|\bLAPS\b[^\n]{0,80}password"
    r"|\bshell_history\b",
    re.IGNORECASE,
)
_FETCHES_MANY = re.compile(r"computers-inventory|/computers\b|/hosts\b|fleetctl\s+query|--labels|All Hosts|/devices\b")
_ROOT_CA_PROFILE = re.compile(r"com\.apple\.security\.root\b")
_SERVER_ADMIN = re.compile(r"<privilege_set>\s*Administrator\s*</privilege_set>|[\"']privilegeSet[\"']\s*:\s*"
                           r"[\"']ADMINISTRATOR[\"']")  # fmt: skip


def endpoint_management_risks(text: str) -> list[OperationRisk]:
    """What a management server is told to do to its whole fleet in ``text``."""
    if not _WORDS.any_in(text):
        return []
    found: list[OperationRisk] = []
    loops = each_item(text) or "while read" in text
    if (_EVERY_COMPUTER.search(text) and _PUSHES_CODE.search(text)) or (_SCRIPT_RUNNER.search(text) and loops):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "runs a script or installs a payload on every managed computer (as root)"))
    if _DEVICE_COMMAND.search(text) and loops and ("mobiledevice" in text or "/devices" in text or "computer" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "locks or wipes every managed device a listing gives"))
    if _FLEET_SECRETS.search(text) and _FETCHES_MANY.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "collects the fleet's secrets (disk recovery keys, admin passwords, shell "
                                   "histories)"))  # fmt: skip
    if _ROOT_CA_PROFILE.search(text) and (_EVERY_COMPUTER.search(text) or "Install Automatically" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "installs a root certificate on every managed computer (their TLS traffic can be "
                                   "read)"))  # fmt: skip
    if _SERVER_ADMIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "creates an administrator of the management server (every device it manages)"))
    return found
