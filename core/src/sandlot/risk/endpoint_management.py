"""Device and endpoint management turned against the fleet (shared by both analyzers, judged on the whole text:
Jamf's, Intune's and Fleet's APIs called from Python or curl, osquery queries, configuration profiles).

A management server reaches every managed computer and phone, as root. Through it one script does to all of them
what a reviewer would want to see first:

* a script or command pushed to every computer (a policy scoped to all computers, Fleet's script runner in a loop,
  every device locked or wiped);
* the fleet's secrets collected: FileVault recovery keys, LAPS passwords, every user's shell history;
* trust and power handed out: a root certificate installed everywhere, an administrator account of the server.

Windows' own fleet tools are judged the same way: Configuration Manager (a script or a wiping task sequence
deployed to All Systems, every application removed, Full Administrator granted through the AdminService or its
database, the network access account's password or BitLocker recovery keys read), WSUS (critical and security
updates declined, clients pointed at a plain-HTTP update server at a bare address), PowerShell DSC (an
administrator with a plain-text password on every node, nodes pulling configurations from a bare outside address)
and Chocolatey (a plain-HTTP source at a bare address with checksums off).

Inventory reports, one device's command, check-ins (``jamf recon``, ``jamf policy``) and read-only queries are
routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Words without which no rule here matches (a cheap test first).
_WORDS = GateWords("all_computers", "scripts/run", "DeviceLock", "EraseDevice", "DeviceWipe", "RecoveryKey",
                   "filevault", "LAPS", "local-admin-password", "shell_history", "com.apple.security.root",
                   "privilege_set", "privilegeSet", "SMS00001", "CMApplication", "Full Administrator", "RBAC_Admins",
                   "NetworkAccessAccount", "DecryptString", "WsusUpdate", "WUServer", "PSDscAllowPlainTextPassword",
                   "ConfigurationRepositoryWeb", "choco")  # fmt: skip
#: Configuration Manager: All Systems (SMS00001) sent a script or a task sequence that wipes the disk.
_ALL_SYSTEMS = re.compile(r"\bSMS00001\b")
_CM_PAYLOAD = re.compile(r"Invoke-CMScript\b|New-CMTaskSequenceDeployment\b|TaskSequence[\s\S]{0,400}?(?:Wipe|Format)"
                         r"|\b(?:Wipe|Format)\b[\s\S]{0,400}?TaskSequence", re.IGNORECASE)
_EVERY_APPLICATION_REMOVED = re.compile(r"Get-CMApplication\b[\s\S]{0,400}?Remove-CMApplication\b", re.IGNORECASE)
_CM_FULL_ADMIN = re.compile(r"[\"']Full Administrator[\"']|\bINSERT\s+INTO\s+RBAC_(?:Admins|ExtendedPermissions)\b",
                            re.IGNORECASE)
_CM_SECRETS = re.compile(r"CCM_NetworkAccessAccount\b|RecoveryAndHardwareCore\.DecryptString\b")
#: WSUS: critical or security updates declined; clients pointed at an update server over plain HTTP at an address.
_UPDATES_DECLINED = re.compile(r"-Classification\s+(?:Critical|Security)\b[^\n]*\|\s*Deny-WsusUpdate\b", re.IGNORECASE)
_PLAIN_UPDATE_SERVER = re.compile(r"\bWU(?:Status)?Server\b[\s\S]{0,80}?http://(\d{1,3}(?:\.\d{1,3}){3})")
#: DSC: a local administrator with a password in plain text on every node; a pull server at a bare address.
_DSC_ADMIN = re.compile(r"PSDscAllowPlainTextPassword\s*=\s*\$true[\s\S]{0,800}?Administrators", re.IGNORECASE)
_PULL_SERVER = re.compile(r"ConfigurationRepositoryWeb\b[\s\S]{0,200}?ServerURL\s*=\s*[\"']https?://(\d{1,3}(?:\.\d{1,3}){3})")
#: Chocolatey: a plain-HTTP source at a bare address, and checksums switched off.
_CHOCO_UNVERIFIED = re.compile(r"choco\s+source\s+add\b[^\n]*-s(?:ource)?[= ]\s*[\"']?http://\d{1,3}(?:\.\d{1,3}){3}"
                               r"[\s\S]{0,400}?allowEmptyChecksums", re.IGNORECASE)

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
    if _SERVER_ADMIN.search(text) or _CM_FULL_ADMIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "creates an administrator of the management server (every device it manages)"))
    found += _windows_fleet_risks(text)
    return found


def _windows_fleet_risks(text: str) -> list[OperationRisk]:
    found = []
    if (_ALL_SYSTEMS.search(text) and _CM_PAYLOAD.search(text)) or _EVERY_APPLICATION_REMOVED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "sends a script or a disk-wiping task sequence to All Systems, or removes every "
                                   "Configuration Manager application"))  # fmt: skip
    if _CM_SECRETS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "reads Configuration Manager's network access account or the fleet's BitLocker "
                                   "recovery keys"))  # fmt: skip
    plain = _PLAIN_UPDATE_SERVER.search(text)
    pulled = _PULL_SERVER.search(text)
    if (
        _UPDATES_DECLINED.search(text)
        or (plain is not None and outside_address(plain[1]))
        or (pulled is not None and outside_address(pulled[1]))
        or _CHOCO_UNVERIFIED.search(text)
    ):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "withholds security updates, or has machines take updates, configurations or "
                                   "packages from a bare outside or plain-HTTP source"))  # fmt: skip
    if _DSC_ADMIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "creates a local administrator with a plain-text password on every DSC node"))
    return found
