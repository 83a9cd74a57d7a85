"""Enterprise storage arrays: NetApp ONTAP (its CLI over ssh and its REST API), Dell PowerScale/Isilon and Pure
Storage FlashArray (shared by both analyzers, judged on the whole text).

What needs a careful reviewer:

* volumes deleted, destroyed and eradicated, or reverted to an old snapshot (later writes discarded), every
  snapshot and schedule deleted;
* the cluster stopped: every node halted with takeover inhibited, every data SVM stopped;
* the array's guards switched off: anti-ransomware, auditing, snapshot policies; SMB signing and encryption
  off or SMB1 on; exports open to every client with root access; shares running as root for Everyone;
* administrator logins created (ONTAP's admin role, Isilon's SystemAdmin or SecurityAdmin, the diag account
  unlocked), and the cluster peered with a bare outside address without encryption (its volumes mirrored there).

Creating volumes, snapshots and exports for named clients, and reading the cluster's health, are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Words without which no rule here can match.
_WORDS = GateWords("volume delete", "volume offline", "node halt", "vserver stop", "purevol", "destroy_volume",
                   "eradicate", "snapshot restore", "snapshots delete", "anti-ransomware", "anti_ransomware",
                   "audit disable", "snapshot-policy none", "signing", "smb1", "0.0.0.0/0", "run_as_root",
                   "login create", "--add-user", "/diag", "peer create", "cluster/peers", "restore_to",
                   "Administrators", "security/accounts")  # fmt: skip
_VOLUMES_DESTROYED = re.compile(
    r"\bvolume\s+delete\b[^\n;]*-volume\s+[!*\w]*\*|\bpurevol\s+eradicate\b|\beradicate_volume\("
    r"|\bisi\s+snapshot\s+snapshots\s+delete\s+--all\b"
)
_SNAPSHOT_REVERT = re.compile(
    r"\bvolume\s+snapshot\s+restore\b[^\n]*-force\s+true|[\"']restore_to\b"
)
_CLUSTER_STOPPED = re.compile(r"\bsystem\s+node\s+halt\s+-node\s+\*|\bnode\s+halt\b[^\n]*-inhibit-takeover\s+true")
_SVM_STOPPED = re.compile(r"\bvserver\s+stop\b")
_GUARDS_OFF = re.compile(
    r"\banti-ransomware\s+volume\s+disable\b|[\"']anti_ransomware[\"']\s*:\s*\{\s*[\"']state[\"']\s*:\s*"
    r"[\"']disabled|\bvserver\s+audit\s+(?:disable|delete)\b|-volume\s+\*\s+-snapshot-policy\s+none\b"
    r"|-is-signing-required\s+false|-smb1-enabled\s+true|[\"']smb1[\"']\s*:\s*True|[\"']smb_signing[\"']\s*:\s*False"
)
_OPEN_EXPORT = re.compile(
    r"0\.0\.0\.0/0[\s\S]{0,300}?superuser|superuser[\s\S]{0,300}?0\.0\.0\.0/0"
    r"|[\"']run_as_root[\"']\s*:\s*\[\s*everyone|run_as_root[\s\S]{0,200}?S-1-1-0"
)
_ADMIN_LOGIN = re.compile(
    r"\bsecurity\s+login\s+create\b[^\n]*-role\s+admin\b"
    r"|\bisi\s+auth\s+roles\s+modify\s+(?:SystemAdmin|SecurityAdmin)\s+--add-user\b"
    r"|/security/accounts\b[\s\S]{0,600}?[\"']role[\"']\s*:\s*(?:\{\s*[\"']name[\"']\s*:\s*)?[\"']admin[\"']"
    r"|/diag[\"'][\s\S]{0,200}?[\"']locked[\"']\s*:\s*False"
    r"|BUILTIN\\+Administrators[\s\S]{0,400}?members|add-members\b[^\n]*BUILTIN\\+Administrators"
)
_PEER = re.compile(
    r"(?:peer\s+create\s+-peer-addrs\s+|cluster/peers[\s\S]{0,200}?ip_addresses\W+)(\d{1,3}(?:\.\d{1,3}){3})"
)


def storage_array_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to an enterprise storage array."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _VOLUMES_DESTROYED.search(text) or _SNAPSHOT_REVERT.search(text):
        what = "destroys a storage array's volumes or snapshots, or reverts volumes to a snapshot (later writes lost)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _CLUSTER_STOPPED.search(text) or (_SVM_STOPPED.search(text) and each_item(text)):
        what = "halts every node of a storage cluster, or stops every storage VM (all NFS and SMB service stops)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if _GUARDS_OFF.search(text) or _OPEN_EXPORT.search(text):
        what = ("switches a storage array's guards off (anti-ransomware, auditing, snapshots, SMB signing) or opens "
                "its exports and shares to everyone with root access")
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _ADMIN_LOGIN.search(text):
        what = "creates a storage administrator login (or unlocks the diagnostic account)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    peer = next((a for a in _PEER.findall(text) if outside_address(a)), None)
    if peer is not None:
        what = f"peers the storage cluster with a bare outside address ({peer}): its volumes can be mirrored there"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found
