"""Active Directory administered from scripts: ldap3, PowerShell's ActiveDirectory and GroupPolicy modules,
samba-tool, net rpc, dsacls (shared by both analyzers, judged on the whole text).

A domain's directory decides who is who on every machine joined to it. What needs a careful reviewer:

* every machine's local administrator password read (LAPS attributes), or the domain Administrator's password
  reset to a known value;
* code planted for every machine or user: an immediate scheduled task in a GPO's SYSVOL folder, a logon script
  set on every account;
* the permissions behind every privileged account changed (AdminSDHolder), or the right to replicate the
  directory's secrets (DCSync) granted;
* Kerberos pre-authentication switched off on accounts (their password hashes can be requested by anyone);
* passwords sprayed across every account of a listing; a wildcard or WPAD record added to the domain's DNS;
* every user's home folder deleted over a listing.

Searching the directory, adding a user to an ordinary group and reporting on password expiry are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, each_item

#: Words without which no rule here can match.
_WORDS = GateWords("AdmPwd", "msLAPS", "LapsADPassword", "SYSVOL", "scriptPath", "AdminSDHolder",
                   "Replicating Directory", "DCSync", "PREAUTH", "PreAuth", "0x400000", "4194304", "dnsNode",
                   "dns add", "rpc password", "homeDirectory", "Welcome1", "Password1", "Passw0rd",
                   "Changeme")  # fmt: skip
_LAPS = re.compile(r"ms-Mcs-AdmPwd|msLAPS-(?:Encrypted)?Password|Get-LapsADPassword|Get-AdmPwdPassword")
_GPO_TASK = re.compile(r"SYSVOL[\s\S]{0,400}?ScheduledTasks|ImmediateTask(?:V2)?[\s\S]{0,2000}?SYSVOL", re.IGNORECASE)
_LOGON_SCRIPT = re.compile(r"[\"']scriptPath[\"'][\s\S]{0,80}?MODIFY_REPLACE|Set-ADUser\b[^\n]*-ScriptPath\b")
_ADMIN_SD_HOLDER = re.compile(r"AdminSDHolder[\s\S]{0,600}?(?:GenericAll|GenericWrite|WriteDacl|AddAccessRule|/G\b)")
_DCSYNC = re.compile(r"Replicating Directory Changes(?: All)?|DS-Replication-Get-Changes|-Rights\s+DCSync", re.I)
_GRANTS = re.compile(r"\bdsacls\b[^\n]*/G\b|AddAccessRule|Add-DomainObjectAcl|Set-Acl|add_ace|dacledit", re.I)
_NO_PREAUTH = re.compile(r"DONT_REQ_PREAUTH\s*=|\b0x400000\b|\b4194304\b|-DoesNotRequirePreAuth\s+\$?true", re.I)
_UAC_CHANGE = re.compile(r"userAccountControl[\s\S]{0,200}?(?:MODIFY_REPLACE|modify)|Set-ADAccountControl", re.I)
_WILDCARD_DNS = re.compile(r"DC=\*,[^\"']*MicrosoftDNS|\bdns\s+add\s+\S+\s+\S+\s+['\"]?(?:\*|wpad)['\"]?\s+A\b", re.I)
_WILDCARD_NODE = re.compile(r"[\"']DC=(?:\*|wpad),", re.IGNORECASE)
_ADMIN_PASSWORD = re.compile(r"\bnet\s+rpc\s+password\s+['\"]?Administrator['\"]?\s+['\"][^'\"$]{4,}['\"]"
                             r"|Set-ADAccountPassword\b[^\n]*Administrator[^\n]*-Reset", re.I)
_COMMON_PASSWORD = re.compile(r"[\"'\s](?:Welcome|Password|Passw0rd|Summer|Winter|Spring|Autumn|Changeme|Letmein"
                              r"|Qwerty|Company|Corp)\d{1,4}!?(?=[\"'\s])", re.IGNORECASE)
_LOGIN_TRY = re.compile(r"\.bind\(\)|\bsmbclient\b|\bkinit\b|\bcrackmapexec\b|\bnxc\b|\bnetexec\b|\brpcclient\b")
_HOME_DELETE = re.compile(r"homeDirectory[\s\S]{0,400}?(?:rmtree\(|Remove-Item\b[^\n]*-Recurse|\brm\s+-rf\b)")


def active_directory_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to an Active Directory domain."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _LAPS.search(text):
        what = "reads machines' local administrator passwords from the directory (LAPS)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _GPO_TASK.search(text) or (_LOGON_SCRIPT.search(text) and any_loop(text)):
        what = "plants code for every machine or user of the domain (a GPO's scheduled task, a logon script)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if _ADMIN_SD_HOLDER.search(text) or (_DCSYNC.search(text) and _GRANTS.search(text)):
        what = "grants rights over every privileged account or to replicate the directory's secrets (DCSync)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _NO_PREAUTH.search(text) and (_UAC_CHANGE.search(text) or "PreAuth" in text):
        what = "switches Kerberos pre-authentication off on accounts (anyone can request their password hashes)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _WILDCARD_DNS.search(text) or ("MicrosoftDNS" in text and _WILDCARD_NODE.search(text)):
        what = "adds a wildcard or WPAD record to the domain's DNS (every unknown name, or proxy lookups, to one host)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _ADMIN_PASSWORD.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "resets the domain Administrator's password"))
    if len(_COMMON_PASSWORD.findall(text)) >= 3 and _LOGIN_TRY.search(text) and any_loop(text):
        what = "tries common passwords against every account a listing gives (password spraying: lockouts, breaches)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _HOME_DELETE.search(text) and each_item(text):
        what = "deletes the home folder of every user a directory search gives"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    return found
