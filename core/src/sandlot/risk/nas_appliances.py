"""NAS appliances and storage systems: TrueNAS (its middleware through `midclt` or the Python client), OpenMediaVault
(`omv-rpc`, `omv-salt`) and Synology DSM (`synoshare`, `synouser`, `synowebapi`, its Web API), shared by both
analyzers and judged on the whole text.

A NAS holds an organisation's files and backups, and its own settings decide who reaches them. What needs a careful
reviewer:

* pools exported with destroy, datasets or shared folders deleted one after another;
* a share of a whole pool open to guests for writing, or an NFS export to everyone with root mapped to root;
* an account made administrator (or put in sudo) with a password in the code, a key added to root's account;
* the firewall, auto-block or a login service switched (telnet on, firewall off);
* a command registered to run at every boot that reaches another host, snapshots of the whole pool in an endless
  loop (an API key sent to another host is the whole-text check for minted keys, in whole_text.py).

Shares created for a team, settings deployed, shares and users listed, one snapshot taken are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

_WORDS = GateWords("pool.", "midclt", "middlewared", "omv-rpc", "ShareMgmt", "UserMgmt", "synoshare", "synouser",
                   "synogroup", "synowebapi", "SYNO.", "initshutdownscript", "sharing.",
                   "sshpubkey")  # fmt: skip
_DATA_DELETED = re.compile(r"pool\.dataset\.delete|pool\.export\b[\s\S]{0,200}?[\"']destroy[\"']\s*:\s*(?:true|True)"
                           r"|synoshare[\"',\s]+--del\b|[\"']ShareMgmt[\"'][\s\S]{0,60}?[\"']delete[\"']"
                           r"|\bShareMgmt\b\W+delete\b")  # fmt: skip
_EXPORT_DESTROY = re.compile(r"pool\.export\b[\s\S]{0,200}?\\?[\"']destroy\\?[\"']\s*:\s*(?:true|True)")
_OPEN_SHARE = re.compile(r"sharing\.smb\.create[\s\S]{0,300}?[\"']guestok[\"']\s*:\s*(?:True|true)"
                         r"|sharing\.nfs\.create[\s\S]{0,300}?[\"']maproot_user[\"']\s*:\s*[\"']root[\"']")
_ADMIN_GROUP = re.compile(r"synogroup[\"',\s]+--memberadd[\"',\s]+administrators\b"
                          r"|UserMgmt\W+setUser[\s\S]{0,300}?[\"']groups[\"']\s*:\s*\[[^\]]*[\"'](?:sudo|wheel|admin)[\"']"
                          r"[\s\S]{0,300}?[\"']password[\"']\s*:\s*[\"'](?![{$])[^\"']{6,}")  # fmt: skip
_ROOT_KEY = re.compile(r"[\"']root[\"'][\s\S]{0,300}?user\.update[\s\S]{0,200}?sshpubkey")
_GUARD_OFF = re.compile(r"SYNO\.Core\.Security\.(?:Firewall|AutoBlock)[\s\S]{0,200}?[\"']?(?:enable_firewall|enable)"
                        r"[\"']?\s*[:=,]\s*[\"']?false|enable_telnet=true|[\"']enable_telnet[\"']\s*:\s*(?:true|True)")
_BOOT_COMMAND = re.compile(r"initshutdownscript\.create")
_REACHES_OUT = re.compile(r"\bnc\b|/dev/tcp|\bcurl\b|\bwget\b|\bsh\s+-i\b|\bbash\s+-i\b|socat")
_ENDLESS = re.compile(r"\bwhile\s+(?:True\b|true\b|1\b|:)")
_SNAPSHOT = re.compile(r"zfs\.snapshot\.create|pool\.snapshottask|zfs\s+snapshot")


def nas_appliance_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a NAS appliance: its data deleted, shares opened to everyone, administrators and keys
    planted, its guards switched off, commands run at boot, endless snapshots."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _EXPORT_DESTROY.search(text) or (_DATA_DELETED.search(text) and each_item(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "destroys a NAS's pools, datasets or shared folders one after another (their "
                                   "data with them)"))  # fmt: skip
    if _OPEN_SHARE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "shares data with guests for writing, or exports it with root mapped to root"))
    if _ADMIN_GROUP.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "makes a NAS account an administrator (or gives it sudo)"))
    if _ROOT_KEY.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "adds an SSH key to the NAS's root account"))
    if _GUARD_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "switches the NAS's firewall or auto-block off, or telnet on"))
    if _BOOT_COMMAND.search(text) and _REACHES_OUT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "registers a command every boot runs that reaches another host"))
    if _SNAPSHOT.search(text) and _ENDLESS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   "snapshots a pool in an endless loop (the pool fills with snapshots)"))
    return found
