"""Storage stacks opened to others: ZFS rights and NFS shares, iSCSI targets and NBD exports of whole disks, remote
shares mounted over the system's programs (shared by both analyzers: commands through the shell analyzer, settings
on the whole text).

A block device or a pool exported without authentication is every file on it, readable and writable by anyone who
can reach the port; a share exported with ``no_root_squash`` lets every client's root be root on it; ZFS rights
given to ``everyone`` let any local account destroy datasets; a remote share mounted over ``/usr/local/bin`` runs
whatever its owner puts there, as whoever runs a command.

Images attached locally (``qemu-nbd -c /dev/nbd0 disk.qcow2``), shares for named clients and read-only exports are
routine. What deletes volumes and snapshots is judged in :mod:`sandlot.risk.backups`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.model import Category, RiskLevel

#: ZFS permissions that destroy, replace or read out whole datasets, or pass the rights on.
_POWERFUL_ZFS_RIGHTS = frozenset({"destroy", "mount", "receive", "send", "allow", "rollback", "promote"})
#: An NFS share option that opens it to every client or keeps clients' root as root.
_OPEN_NFS = re.compile(r"no_root_squash|\brw=(?:\*|@?0\.0\.0\.0/0)|^on$")
#: targetcli attributes that serve a target to every initiator without a login.
_OPEN_TARGET = re.compile(r"\bauthentication=0\b[\s\S]{0,200}?\bgenerate_node_acls=1\b"
                          r"|\bgenerate_node_acls=1\b[\s\S]{0,200}?\bauthentication=0\b")  # fmt: skip


def storage_command_risks(name: str, args: Sequence[str]) -> list[OperationRisk]:
    """What ``name args`` (zfs, qemu-nbd, nbd-server) opens to others."""
    words = [a for a in args if not a.startswith("-")]
    found: list[OperationRisk] = []
    if name == "zfs" and words[:1] == ["allow"]:
        everyone = "everyone" in words or "-e" in args
        rights = {r for w in words[1:] for r in w.split(",")}
        if everyone and rights & _POWERFUL_ZFS_RIGHTS:
            found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                       "zfs allow gives every account the right to destroy, replace or send out "
                                       "datasets"))  # fmt: skip
    if name == "zfs" and words[:1] == ["set"]:
        for setting in words[1:]:
            key, _, value = setting.partition("=")
            if key == "sharenfs" and _OPEN_NFS.search(value):
                found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                           f"zfs shares a dataset over NFS to every client or with their root kept "
                                           f"({value})"))  # fmt: skip
    if name == "qemu-nbd" and not any(a in ("-c", "--connect") or a.startswith("--connect=") for a in args):
        device = next((w for w in words if w.startswith("/dev/")), None)
        if device is not None:
            found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                       f"qemu-nbd serves the raw device {device} over the network (every file on "
                                       "it, to whoever connects)"))  # fmt: skip
    if name == "nbd-server" and any(w.startswith("/dev/") for w in words):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "nbd-server serves a raw device over the network"))
    return found


#: An fstab line mounting a remote share (`host:/export`, `//host/share`) over a directory of programs or settings.
_REMOTE_OVER_SYSTEM = re.compile(
    r"(?:^|[\"'])\s*(?P<source>(?://)?[\w.-]+(?::/|/)[^\s]*)\s+(?P<point>/(?:usr/(?:local/)?)?s?bin|/usr/lib\w*|/etc"
    r"|/lib\w*|/opt/[\w.-]+/bin)/?\s+(?:nfs4?|cifs|smb3|sshfs|fuse\.sshfs|9p)\b",
    re.MULTILINE,
)


def storage_text_risks(text: str) -> list[OperationRisk]:
    """Remote shares mounted over the system's programs in an fstab line ``text`` spells, iSCSI targets opened."""
    found: list[OperationRisk] = []
    if "generate_node_acls" in text and _OPEN_TARGET.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "serves an iSCSI target to every initiator without a login (targetcli's demo "
                                   "mode)"))  # fmt: skip
    if "fstab" not in text:
        return found
    for match in _REMOTE_OVER_SYSTEM.finditer(text):
        host = match["source"].lstrip("/").split(":")[0].split("/")[0]
        if outside_address(host) or not re.fullmatch(r"[\d.]+", host):
            found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                       f"mounts a remote share ({match['source']}) over {match['point']} at every "
                                       "boot (whatever its owner puts there runs as whoever runs a command)"))
            break
    return found
