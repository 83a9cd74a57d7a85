"""Administration commands that only report state: a storage stack's health and layout, file servers' clients
and exports, clocks, a managed Mac's check-ins, the kernel's tracing objects, GPUs (shared by both analyzers
through the shell one).

They need root to open devices or the BPF subsystem, so they are run with ``sudo`` every day (``sudo btrfs scrub
status``, ``sudo zpool status``, ``sudo mdadm --detail /dev/md0``, ``sudo bpftool prog show``). Being root changes
nothing they do: they print. Maintenance that keeps data intact (a scrub, a trim, a snapshot) counts with them.
Commands that change layouts, delete or export keep their own rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk import shell_words as W

#: Tools whose every use only reports (LVM's reporters, block ids, filesystem and I/O statistics).
_REPORTERS = frozenset(
    {"lvs", "vgs", "pvs", "lvdisplay", "vgdisplay", "pvdisplay", "lvmdiskscan", "pvscan", "vgscan", "lvscan",
     "blkid", "findmnt", "fstrim", "xfs_info", "dumpe2fs", "iostat", "zdb", "arcstat", "arc_summary",
     # file servers' state: connected clients, the parsed configuration, exports
     "smbstatus", "testparm", "showmount", "nfsstat"}
)  # fmt: skip


def _verbs(*spelled: str) -> frozenset[tuple[str, ...]]:
    return frozenset(tuple(words.split()) for words in spelled)


#: nvidia-smi's options that reset a GPU (every job on it dies).
GPU_RESETS = frozenset({"-r", "--gpu-reset"})


#: Tools with subcommands: the (group, verb) pairs (or first words) that report or keep data intact.
_READING_VERBS: dict[str, frozenset[tuple[str, ...]]] = {
    "btrfs": _verbs(
        "scrub status", "scrub start", "filesystem usage", "filesystem show", "filesystem df", "filesystem du",
        "fi usage", "fi show", "fi df", "fi du", "device stats", "device usage", "dev stats", "subvolume list",
        "subvolume show", "sub list", "sub show", "balance status", "qgroup show",
    ),
    "zpool": _verbs("status", "list", "iostat", "get", "history", "scrub", "events"),
    "zfs": _verbs("list", "get", "snapshot", "holds", "diff"),
    "gluster": _verbs("peer status", "pool list", "volume info", "volume status", "volume list", "volume heal info",
                      "snapshot list", "snapshot info"),
    "ceph": _verbs("status", "health", "df", "osd tree", "osd df", "osd stat", "osd ls", "osd dump", "pg stat",
                   "mon stat", "fs status", "fs ls", "orch ps", "orch ls", "orch device ls", "versions"),
    "cryptsetup": _verbs("luksDump", "status", "isLuks"),
    "nvme": _verbs("list", "smart-log", "id-ctrl", "id-ns", "error-log"),
    "bpftool": _verbs(
        *(f"{group} {verb}" for group in ("prog", "map", "net", "link", "btf", "perf", "cgroup")
          for verb in ("show", "list")),
        "feature probe", "feature",
    ),
    "losetup": _verbs("-l", "-a", "--list", "--all"),
    "chronyc": _verbs("tracking", "sources", "sourcestats", "activity", "ntpdata", "serverstats", "clients"),
    "timedatectl": _verbs("status", "show", "list-timezones", "timesync-status", "show-timesync"),
    "mdmclient": _verbs("QueryDeviceInformation", "QueryInstalledProfiles", "QueryCertificates",
                        "QuerySecurityInfo", "QueryInstalledApps", "dumpSCEPVars"),
}
#: Tools that only report when given one of these options (`mdadm --detail`, `tune2fs -l`, `e2fsck -n`).
_READING_OPTIONS: dict[str, frozenset[str]] = {
    "mdadm": frozenset({"--detail", "-D", "--examine", "-E", "--query", "-Q"}),
    "tune2fs": frozenset({"-l"}),
    "e2fsck": frozenset({"-n"}),
    "fsck": frozenset({"-n", "-N"}),
    "fsck.ext4": frozenset({"-n"}),
    "xfs_repair": frozenset({"-n"}),
    "sfdisk": frozenset({"-l", "--list", "-d", "--dump"}),
    "blockdev": frozenset({"--report", "--getsize64", "--getsz", "--getro", "--getbsz", "--getss"}),
    "hdparm": frozenset({"-I", "-i", "-t", "-T", "-tT", "-Tt", "-C", "-g"}),
    "pdbedit": frozenset({"-L", "--list"}),
    # configuration management's dry runs: what would change, printed
    "puppet": frozenset({"--noop"}),
    "chef-client": frozenset({"--why-run", "-W"}),
    "salt-call": frozenset({"test=True", "test=true"}),
    "hwclock": frozenset({"--show", "-r", "--get"}),
    "managedsoftwareupdate": frozenset({"--checkonly", "--show-config"}),
    "exportfs": frozenset({"-v", "-s"}),
    "wipefs": frozenset({"-n", "--no-act"}),  # the signatures listed, nothing erased
    "flashrom": frozenset({"-r", "--read"}),  # the firmware chip read into a file (a backup)
}
#: Options that change something even beside a reporting one (`mdadm --detail --scan >> mdadm.conf` only prints).
_CHANGING_OPTIONS = frozenset({"-y", "-Y", "-S", "-B", "-W", "-K", "--security-erase", "--security-set-pass", "--setro",
                               "--setrw", "--zero-superblock", "--fail", "--remove", "--stop"})  # fmt: skip


def reports_state(argv: Sequence[str]) -> bool:
    """``argv`` (a command without its ``sudo``) only reports storage or tracing state, or scrubs, trims or
    snapshots."""
    if not argv:
        return False
    name, args = W.base(argv[0]), list(argv[1:])
    if name in _REPORTERS:
        return True
    if name == "jamf":  # a check-in: inventory sent, the policies the server scoped to this Mac run
        return bool(args) and args[0] in ("recon", "policy", "checkJSSConnection", "version", "log", "manage")
    if name == "nvidia-smi":  # queries, persistence and clock settings; a reset kills the GPU's jobs
        return not any(a in GPU_RESETS for a in args)
    verbs = _READING_VERBS.get(name)
    if verbs is not None:
        words = [a for a in args if not a.startswith("-")] if name != "losetup" else args
        return tuple(words[:2]) in verbs or tuple(words[:1]) in verbs
    reading = _READING_OPTIONS.get(name)
    if reading is not None:
        return any(a in reading for a in args) and not any(a in _CHANGING_OPTIONS for a in args if a not in reading)
    # a product's own status or check helper (`documentserver-jwt-status.sh`), or a diagnostics tool's checks
    # (`rabbitmq-diagnostics -q check_port_connectivity`)
    stem = name.removesuffix(".sh")
    words = [a for a in args if not a.startswith("-")]
    return re.search(r"(?:^|-)(?:status|check|healthcheck)(?:-|$)", stem) is not None or (
        stem.endswith("-diagnostics") and bool(words) and words[0].startswith(("check_", "status", "ping", "list"))
    )
