"""Servers' management controllers (BMCs: IPMI, iDRAC, iLO, Redfish) driven by ipmitool, racadm, Redfish
requests, pyghmi or sushy (shared by both analyzers, judged on the whole text).

A management controller holds a server's power, console, disks and firmware below the operating system; what is
done through it bypasses everything the server itself enforces. What needs a careful reviewer:

* an administrator account added, or logins opened to anyone (IPMI cipher suite 0, authentication type NONE, an
  empty password), telnet or a writable SNMP community switched on;
* Secure Boot switched off, or a disk image mounted from a plain-HTTP or bare outside address;
* firmware flashed from a plain-HTTP or bare outside address;
* RAID volumes deleted or drives securely erased;
* every server a list gives powered off or hard-reset;
* IPMI's RAKP handshakes collected (each one a password hash to crack offline).

Reading sensors, event logs and the LAN settings, and powering on or cycling one named server, are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Words without which no rule here can match.
_WORDS = GateWords("ipmi", "IPMI", "racadm", "edfish", "hardreset", "pyghmi", "sushy", "storcli", "perccli", "ssacli",
                   "SecureBoot", "VirtualMedia")  # fmt: skip
#: An administrator account: IPMI privilege level 4, Redfish's Administrator role posted to the account service,
#: iDRAC's full privilege mask, pyghmi's administrator access.
_ADMIN_ACCOUNT = re.compile(
    r"\bchannel[\"',\s]+setaccess\b[^\n]*privilege=4\b|\buser[\"',\s]+priv[\"',\s]+\d+[\"',\s]+4\b"
    r"|AccountService/Accounts[\s\S]{0,400}?[\"']RoleId[\"']\s*:\s*[\"']Administrator"
    r"|[\"']RoleId[\"']\s*:\s*[\"']Administrator[\s\S]{0,400}?AccountService/Accounts"
    r"|\bcfgUserAdminPrivilege\s+0x1ff\b|\biDRAC\.Users\.\d+\.Privilege\s+0x1ff\b"
    r"|set_user_access\([^)]*privilege_level\s*=\s*[\"']administrator"
)
#: Logins any password passes: cipher suite 0 given a privilege (the first letter of `cipher_privs`), sessions
#: opened with it, authentication type NONE, an empty password.
_OPEN_LOGIN = re.compile(
    r"\bcipher_privs[\"',\s]+[aou]|\blanplus\b[^\n]*\s-C\s*0\b|\blan[\"',\s]+set[\"',\s]+\d+[\"',\s]+auth[\"',\s]+\w+"
    r"[\"',\s]+[^\n]*\bNONE\b|set_user_password\([^)]*password\s*=\s*[\"'][\"']"
)
#: Insecure protocols switched on through Redfish (telnet, a writable SNMP community).
_OPEN_PROTOCOL = re.compile(
    r"[\"']Telnet[\"']\s*:\s*\{\s*[\"']ProtocolEnabled[\"']\s*:\s*(?:true|True)"
    r"|[\"']AccessMode[\"']\s*:\s*[\"']Full[\"']"
)
_SECURE_BOOT_OFF = re.compile(r"[\"']SecureBootEnable[\"']\s*:\s*(?:false|False)")
#: A disk image mounted as virtual media, by its address.
_MEDIA_IMAGE = re.compile(r"[\"']Image[\"']\s*:\s*[\"'](https?)://([\w.-]+)")
#: Firmware images by their address, and the commands that flash them.
_FIRMWARE_URL = re.compile(r"(https?)://([\w.-]+)(?::\d+)?/[^\s\"']*\.(?:bin|img|fwpkg|hpm|rom|pldm|fw|tar|zip)\b")
_FLASHES = re.compile(r"SimpleUpdate|\bhpm[\"',\s]+upgrade\b|\bracadm\b[^\n]*\bupdate\b|\bfwupdate\b")
#: RAID volumes deleted, a controller's configuration reset, drives securely erased.
_STORAGE_WIPE = re.compile(
    r"Drive\.SecureErase|\b(?:storcli\w*|perccli\w*)\s+/c\S+/v(?:all|\d+|\S*\$)\s+del\b"
    r"|\bracadm\b[^\n]*\b(?:storage|raid)\s+(?:resetconfig|deletevd)\b|\bssacli\b[^\n]*\bdelete\b"
    r"|\bvolumes\.get_members\(\)[\s\S]{0,120}?\.delete\(\)"
)
#: Servers hard-reset or powered off (ipmitool's verbs and raw chassis-control codes, racadm, Redfish, pyghmi).
_POWER_OFF = re.compile(
    r"\bipmitool\b[^\n]*\bchassis\s+power\s+(?:off|reset|cycle)\b|\bracadm\b[^\n]*\bserveraction\s+"
    r"(?:hardreset|powerdown|powercycle)\b|[\"']ResetType[\"']\s*:\s*[\"'](?:ForceOff|ForceRestart|PowerCycle)"
    r"|\b(?:racadm|serveraction|hardreset)\b[\s\S]{0,200}?\b(?:hardreset|powerdown)\b"
    r"|\braw\s+0x0?0\s+0x0?2\s+0x0?[0235]\b|\.set_power\(\s*[\"'](?:off|reset|shutdown)[\"']"
)
_RAKP = re.compile(r"\brakp\s*2?\b", re.IGNORECASE)
#: ipmitool's subcommands that only read (sensors, logs, the controller's and LAN channel's settings).
_READS = {"sdr": (), "sensor": (), "fru": (), "mc": ("info", "guid", "selftest"), "lan": ("print",),
          "sel": ("list", "elist", "info"), "chassis": ("status", "power status"), "user": ("list", "summary"),
          "channel": ("info", "getaccess"), "power": ("status",), "dcmi": ("power reading", "discover")}  # fmt: skip


def management_controller_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to servers through their management controllers."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _ADMIN_ACCOUNT.search(text):
        what = "adds an administrator account to servers' management controllers (power, console and disks of each)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _OPEN_LOGIN.search(text):
        what = ("lets anyone log in to servers' management controllers (IPMI cipher suite 0, authentication type "
                "NONE or an empty password)")
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "Protocol" in text and _OPEN_PROTOCOL.search(text):
        what = "switches telnet or a writable SNMP community on for servers' management controllers"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _SECURE_BOOT_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "switches Secure Boot off on servers"))
    media = _MEDIA_IMAGE.findall(text) if "InsertMedia" in text else []
    if any(scheme == "http" or outside_address(host) for scheme, host in media):
        what = "mounts a disk image from a plain-HTTP or bare outside address as a server's virtual media"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    images = _FIRMWARE_URL.findall(text) if _FLASHES.search(text) else []
    if any(scheme == "http" or outside_address(host) for scheme, host in images):
        what = "has management controllers flash a firmware image from a plain-HTTP or bare outside address"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if _STORAGE_WIPE.search(text):
        what = "deletes servers' RAID volumes or securely erases their drives (the data on them is gone)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _POWER_OFF.search(text) and (each_item(text) or "xargs" in text or "while read" in text):
        what = "hard-resets or powers off every server a list gives through its management controller"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if "ipmitool" in text and _RAKP.search(text):
        what = "collects IPMI RAKP handshakes from management controllers (password hashes to crack offline)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found


def ipmitool_reads(args: Sequence[str]) -> bool:
    """``ipmitool ARGS`` only reads (``sdr``, ``sensor``, ``mc info``, ``lan print 1``, ``sel elist``)."""
    words = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            skip = len(arg) == 2 and arg[1] in "IHUPLCfkyptbmBTdRNO"  # an option with a value (`-I lanplus`)
        else:
            words.append(arg)
    if not words or words[0] not in _READS:
        return False
    allowed = _READS[words[0]]
    return not allowed or any(" ".join(words[1:]).startswith(verb) for verb in allowed)
