"""Storage stacks opened to others: ZFS rights and NFS shares, iSCSI targets and NBD exports of whole disks, remote
shares mounted over the system's programs (shared by both analyzers: commands through the shell analyzer, settings
on the whole text).

A block device or a pool exported without authentication is every file on it, readable and writable by anyone who
can reach the port; a share exported with ``no_root_squash`` lets every client's root be root on it; ZFS rights
given to ``everyone`` let any local account destroy datasets; a remote share mounted over ``/usr/local/bin`` runs
whatever its owner puts there, as whoever runs a command.

Images attached locally (``qemu-nbd -c /dev/nbd0 disk.qcow2``), shares for named clients and read-only exports are
routine. What deletes volumes and snapshots is judged in :mod:`sandlot.risk.backups`.

Distributed storage clusters (Ceph, GlusterFS) hold everyone's volumes: pools, images, file systems or volumes
deleted, every OSD purged or taken out, replicas cut to one, I/O paused or recovery let loose on client traffic,
a client given every capability, a volume opened to every client. One OSD replaced, one image removed and the
maintenance flags (``noout``) are routine.
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


def storage_command_risks(name: str, args: Sequence[str], line: str = "") -> list[OperationRisk]:
    """What ``name args`` (zfs, qemu-nbd, nbd-server) opens to others, or takes from them (``line``: the command
    as written)."""
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
            if key in ("reservation", "refreservation") and re.search(r"\bget\b[^)]*\bavail(?:able)?\b", line):
                found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                           f"zfs reserves all the pool's free space for one dataset ({key}): every "
                                           "other dataset is full"))  # fmt: skip
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
    found += appliance_risks(text)
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


#: A pool's free space read (`zfs get -Hp -o value available tank`) and all of it reserved or preallocated.
_FREE_SPACE = re.compile(r"\bzfs[\"',\s]+get\b[^\n]*\bavailable\b|zpool[\"',\s]+list\b[^\n]*\bfree\b")
_RESERVES = re.compile(r"\bcreate[\"',\s]+-V\b|\b(?:ref)?reservation=|[\"',\s]-V[\"',\s]")
#: TrueNAS's middleware (`midclt call …`, its REST API): start-up commands that download and run code, users with
#: sudo for everything without a password, root's password login over SSH, guest-writable shares forced to root.
_APPLIANCE_DOOR = re.compile(
    r"(?:initshutdownscript|cronjob)\.create[\s\S]{0,300}?(?:curl|wget)\b[^\n]*\|\s*(?:ba)?sh\b"
    r"|[\"']sudo_commands_nopasswd[\"']\s*:\s*\[\s*[\"']ALL[\"']"
    r"|[\"']rootlogin[\"']\s*:\s*(?:true|True)\b"
    r"|[\"']guestok[\"']\s*:\s*(?:true|True)\b[\s\S]{0,300}?force[ _]?user[\"']?\s*[:=]\s*[\"']?root\b"
)


def appliance_risks(text: str) -> list[OperationRisk]:
    """Storage appliances (ZFS, TrueNAS) filled to the last byte or opened to anyone through their middleware."""
    found = []
    if ("available" in text or "free" in text) and _FREE_SPACE.search(text) and _RESERVES.search(text):
        what = "reserves or preallocates all of a pool's free space (every other dataset stops writing)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    doors = "create" in text or "rootlogin" in text or "guestok" in text or "sudo_" in text
    if doors and _APPLIANCE_DOOR.search(text):
        what = ("opens a storage appliance: start-up commands that download code, passwordless sudo for everything, "
                "root logins over SSH or guest-writable shares acting as root")
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found


#: Cluster-wide settings that lose data or starve clients when raised (recovery) or lowered (replicas).
_RECOVERY_SETTINGS = frozenset({"osd_max_backfills", "osd_recovery_max_active", "osd_recovery_max_active_hdd",
                                "osd_recovery_max_active_ssd"})  # fmt: skip
#: OSD flags that stop client I/O or keep the cluster from healing.
_HALTING_FLAGS = frozenset({"pause", "noup", "noin", "norecover", "nobackfill"})


def cluster_storage_risks(name: str, args: Sequence[str], *, repeated: bool) -> list[OperationRisk]:
    """What ``name args`` (ceph, rbd, rados, ceph-volume, gluster) does to a storage cluster; ``repeated``: it runs
    once per item of a listing (a loop, xargs)."""
    words = [a for a in args if not a.startswith("-")]
    joined = " ".join(words)
    every = repeated  # (one OSD or image named by a variable is one, not every one)

    def risk(level: RiskLevel, category: Category, what: str) -> list[OperationRisk]:
        return [OperationRisk(level, category, f"{name} {what}")]

    if name == "ceph":
        if words[:3] == ["osd", "pool", "delete"] or words[:2] == ["fs", "rm"]:
            return risk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes a pool or a file system with all its data")
        if words[:2] in (["osd", "purge"], ["osd", "destroy"]) or words[:3] == ["osd", "crush", "remove"]:
            level = RiskLevel.HIGH if every else RiskLevel.MEDIUM
            return risk(level, Category.FILESYSTEM, "removes OSDs" + (" (every one a listing gives)" if every else ""))
        if words[:2] == ["osd", "out"] and (every or len(words) > 4):
            return risk(RiskLevel.HIGH, Category.RESOURCE, "takes many OSDs out at once (data moves or is lost)")
        if words[:2] == ["osd", "pause"] or (words[:2] == ["osd", "set"] and set(words[2:]) & _HALTING_FLAGS):
            return risk(RiskLevel.HIGH, Category.RESOURCE, "stops client I/O or the cluster's recovery")
        if words[:3] == ["osd", "pool", "set"] and words[4:6] in (["size", "1"], ["min_size", "1"]):
            return risk(RiskLevel.HIGH, Category.FILESYSTEM, "keeps one copy of a pool's data (one failure loses it)")
        placement = words[:3] == ["osd", "pool", "set"] and words[4:5] in (["pg_num"], ["pgp_num"])
        if placement and _number(words[5:6]) >= 16384:
            return risk(RiskLevel.HIGH, Category.RESOURCE, "gives a pool tens of thousands of placement groups")
        if words[:2] == ["config", "set"] and len(words) >= 5:
            key, value = words[3], words[4]
            if key == "mon_allow_pool_size_one" and value == "true":
                return risk(RiskLevel.HIGH, Category.FILESYSTEM, "allows pools with a single copy of their data")
            if (key in _RECOVERY_SETTINGS and _number([value]) >= 16) or (
                key.startswith("osd_recovery_sleep") and value == "0"
            ) or (key == "mon_max_pg_per_osd" and _number([value]) >= 10000):
                return risk(RiskLevel.HIGH, Category.RESOURCE, f"sets {key} to {value} (recovery floods clients' I/O)")
        if words[:2] == ["pg", "mark_unfound_lost"] or (len(words) >= 3 and words[0] == "pg" and
                                                       words[2] == "mark_unfound_lost"):  # fmt: skip
            level = RiskLevel.HIGH if every else RiskLevel.MEDIUM
            return risk(level, Category.FILESYSTEM, "gives up unfound objects for lost (their data is gone)")
        if words[:1] == ["auth"] and words[1:2] in (["caps"], ["get-or-create"], ["add"], ["get-or-create-key"]):
            client = words[2] if len(words) > 2 else ""
            caps = " ".join(words[3:])
            if client != "client.admin" and re.search(r"\bmon\s+allow\s+\*", caps) and "osd allow *" in caps:
                return risk(RiskLevel.HIGH, Category.PRIVILEGE, f"gives {client} every capability (cluster admin)")
    if name == "rbd" and (words[:1] in (["rm"], ["remove"]) or words[:2] == ["snap", "purge"]) and every:
        return risk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes every image or snapshot a listing gives")
    if name == "rados" and words[:1] == ["purge"]:
        return risk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes every object of a pool")
    if name == "rados" and "bench" in words and "write" in words:
        seconds = _number(words[words.index("bench") + 2 : words.index("bench") + 3])
        if seconds >= 3600:
            return risk(RiskLevel.HIGH, Category.RESOURCE, f"writes benchmark data into a pool for {seconds:,} s")
    if name == "ceph-volume" and "zap" in words and "--destroy" in args and every:
        return risk(RiskLevel.HIGH, Category.FILESYSTEM, "wipes every device a listing gives")
    if name == "gluster" and words[:2] == ["volume", "delete"] and every:
        return risk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes every volume a listing gives")
    if name == "gluster" and words[:2] == ["volume", "set"] and re.search(
        r"\b(?:auth\.allow|nfs\.rpc-auth-allow)\s+['\"]?\*", joined
    ):
        return risk(RiskLevel.HIGH, Category.NETWORK, "opens a volume to every client")
    return []


def prints_cluster_keys(name: str, args: Sequence[str]) -> bool:
    """``ceph auth ls`` (or ``export``, ``get``): the cluster's keys, printed."""
    words = [a for a in args if not a.startswith("-")]
    return name == "ceph" and words[:1] == ["auth"] and words[1:2] in (["ls"], ["list"], ["export"], ["get"],
                                                                         ["print-key"], ["get-key"])  # fmt: skip


def _number(words: Sequence[str]) -> int:
    return int(words[0]) if words and words[0].isdigit() else 0
