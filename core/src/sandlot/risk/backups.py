"""Backups, snapshots and synchronisation tools (shared by both analyzers through the shell analyzer).

Two harms hide in ordinary-looking sync and backup commands:

* a mirror *with deletion* (``rclone sync``, ``gsutil rsync -d``, ``aws s3 sync --delete``, ``azcopy sync
  --delete-destination=true``) deletes whatever its destination has that its source lacks: run from an empty
  directory, or onto the home or the system, it wipes the destination;
* a copy of the home, the machine or a secret to a remote (a bucket, an rclone remote) is the data leaving.

And backup software itself can destroy the backups: deleting a whole repository, forgetting every snapshot,
destroying snapshot trees, turning the backups off.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Collection, Sequence

import attrs

from sandlot.risk import paths
from sandlot.risk.ledgers import payment_file, test_money
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.paths import HOLE
from sandlot.risk.shell_words import options


@attrs.frozen
class BackupRisk:
    level: RiskLevel
    category: Category
    what: str


#: name -> (subcommands that copy, subcommands that mirror with deletion, options that turn deletion on).
_SYNC_TOOLS: dict[str, tuple[frozenset[str], frozenset[str], tuple[str, ...]]] = {
    "rclone": (frozenset({"copy", "copyto", "move", "moveto", "sync"}), frozenset({"sync"}), ()),
    "gsutil": (frozenset({"cp", "rsync", "mv"}), frozenset(), ("-d",)),
    "s3": (frozenset({"cp", "sync", "mv"}), frozenset(), ("--delete",)),  # `aws s3 ...`
    "azcopy": (frozenset({"copy", "cp", "sync"}), frozenset(), ("--delete-destination=true", "--delete-destination")),
    "s3cmd": (frozenset({"put", "sync"}), frozenset(), ("--delete-removed",)),
    "mc": (frozenset({"cp", "mirror", "mv"}), frozenset(), ("--remove",)),
}
_VALUED = frozenset({"--exclude", "--include", "--filter", "-x", "--transfers", "--checkers", "--config",
                     "--storage-class", "--profile", "--region", "--endpoint-url", "--bwlimit", "--log-file",
                     "--exclude-pattern", "--include-pattern", "-j", "--log-level"})  # fmt: skip
#: Options of lftp's mirror and put that take a value.
_TRANSFER_VALUED = frozenset({"-x", "-X", "-i", "-I", "--exclude", "--include", "--exclude-glob", "--include-glob",
                              "-P", "--parallel", "--newer-than", "--older-than", "--log", "-O", "-N"})  # fmt: skip
#: Places a mirror with deletion must never land on.
_PRECIOUS = (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP, paths.PathKind.SYSTEM)
_EMPTY_SOURCES = ("/dev/null", "/var/empty", "/var/lib/empty")


def fresh_temporary(path: str) -> bool:
    """``path`` is a directory ``mktemp -d`` just made (empty): mirrored with --delete, it empties the target."""
    return path.rstrip("/") == "/tmp/" + HOLE


def _remote(word: str) -> bool:
    return "://" in word or bool(re.match(r"^[A-Za-z0-9_.-]{2,}:(?!//)", word))


def _operands(args: Sequence[str], valued: frozenset[str] = _VALUED) -> list[str]:
    return options(args, valued)[1]


def sync_risks(name: str, args: Sequence[str], made_dirs: Collection[str] = ()) -> list[BackupRisk]:
    """Risks of a cloud or remote copy/sync command (``aws`` is passed as ``s3`` with its subcommands)."""
    tool = _SYNC_TOOLS.get(name)
    operands = _operands(args)
    if tool is None or len(operands) < 3:
        return []
    copying, mirroring, delete_options = tool
    verb, *locations = operands
    if verb not in copying or len(locations) < 2:
        return []
    *sources, dest = locations
    found: list[BackupRisk] = []
    deleting = verb in mirroring or any(a in delete_options or a.startswith(delete_options) for a in args if a)
    deleting = deleting and not any(a in ("--dry-run", "-n", "--dryrun") for a in args)
    if deleting:
        dest_info = paths.classify(dest)
        if not _remote(dest) and dest_info.kind in _PRECIOUS:
            what = f"mirrors onto {paths.describe(dest_info)} deleting what the source lacks"
            found.append(BackupRisk(paths.delete_level(dest_info, recursive=True), Category.FILESYSTEM, what))
        elif any(s.rstrip("/") in made_dirs or s in _EMPTY_SOURCES or fresh_temporary(s) for s in sources):
            found.append(BackupRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                    f"mirrors an empty directory onto {dest}, deleting everything there"))  # fmt: skip
    if _remote(dest):
        for source in sources:
            info = paths.classify(source)
            if info.secret:
                found.append(BackupRisk(RiskLevel.CRITICAL, Category.EXFILTRATION,
                                        f"copies {paths.describe(info)} to {dest}"))  # fmt: skip
            elif info.kind in (paths.PathKind.ROOT, paths.PathKind.HOME_TOP, paths.PathKind.SYSTEM_TOP):
                found.append(BackupRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                        f"copies {paths.describe(info)} to {dest}"))  # fmt: skip
    return found


def _keeps_at_most_one(args: Sequence[str]) -> bool:
    """A retention policy's every ``--keep-*`` count is 0 or 1 (`--keep-latest=1 --keep-daily=0 …`): one snapshot
    at most survives (a policy with no hourlies but thirty dailies keeps a month)."""
    counts = []
    for i, arg in enumerate(args):
        key, eq, value = arg.partition("=")
        if key.startswith("--keep-") and not eq and i + 1 < len(args):
            value = args[i + 1]
        if key.startswith("--keep-"):
            counts.append(value.strip())
    return bool(counts) and all(c in ("0", "1") for c in counts)


def _zero_keep(args: Sequence[str]) -> bool:
    for i, arg in enumerate(args):
        key, eq, value = arg.partition("=")
        if key.startswith("--keep-") and not eq and i + 1 < len(args):
            value = args[i + 1]
        if key.startswith("--keep-") and value.strip() in ("0", "0d", "0h"):
            return True
        if key == "--keep-within" and re.fullmatch(r"\d+h", value.strip()):
            return True  # (hours only: restic's `m` is months) the last few hours' snapshots, the history gone
    return False


_SNAPSHOT_VERBS = frozenset({"delete", "forget", "destroy", "subvolume", "disable", "deletelocalsnapshots",
                             "removedestination", "labelclear", "rollback", "recreate", "config", "prune", "policy",
                             "expire"})  # fmt: skip


def snapshot_risks(name: str, args: Sequence[str], *, repeated: bool = False, exact: bool = False) -> list[BackupRisk]:
    """Backup and snapshot tools used to destroy the backups (or stop taking them); ``repeated``: the command
    runs once per item of a listing (xargs, a loop); ``exact``: each word is one argument (an argv from a
    program), so an unknown one names one item, not a listing expanded in its place."""
    operands = _operands(args)
    if name in ("zfs", "zpool") and any(re.fullmatch(r"-[a-zA-Z]*n[a-zA-Z]*", a) for a in args):
        return []  # `zfs destroy -nv …`: a dry run, what would go is printed
    # the first operand that is a subcommand: `restic -r s3:host/bucket forget` has the repository first
    verb = next((o for o in operands if o in _SNAPSHOT_VERBS), "")
    operands = operands[operands.index(verb) :] if verb else operands
    what = ""
    if name == "borg" and verb == "delete":
        targets = operands[1:]
        # (`borg delete ::` names the repository set in BORG_REPO, no archive: the whole of it)
        whole = any("::" not in t or t.endswith("::") for t in targets)
        if not targets or whole or "--glob-archives" in args or "-a" in args:
            what = "borg delete removes a whole backup repository (every archive in it)"
    elif name == "borg" and verb == "config" and "append_only" in operands and operands[-1:] == ["0"]:
        what = "borg config switches a repository's append-only mode off (its archives can be deleted from then on)"
    elif name == "borg" and verb == "recreate" and any(a.startswith(("--exclude", "-e")) for a in args):
        what = "borg recreate rewrites the repository's archives without what it excludes (gone from all history)"
    elif name in ("restic", "kopia") and verb in ("forget", "snapshot") and _zero_keep(args):
        what = f"{name} forget keeps no snapshot (or only the last hours'): every backup is dropped"
    elif name == "kopia" and verb == "policy" and _keeps_at_most_one(args):
        what = "kopia policy keeps one snapshot at most: every other backup is dropped at the next maintenance"
    elif name == "kopia" and verb in ("delete", "expire") and (repeated or "--all" in args) and (
        "--delete" in args or "blob" in args
    ):
        # (`kopia snapshot list --all … | xargs kopia snapshot delete --delete`, `kopia blob delete` of every pack)
        what = "kopia deletes every snapshot (or every data blob) a listing gives: the backups are gone"
    elif name in ("borg", "borgmatic") and verb == "prune" and _zero_keep(args):
        what = f"{name} prune keeps no archive (or only the last hours'): every backup is dropped"
    elif name == "restic" and verb == "forget" and (repeated or any(HOLE in t for t in operands[1:])):
        what = "restic forget drops every snapshot a listing gives"
    elif name == "zfs" and verb == "destroy" and any(f in args for f in ("-r", "-R", "-rf", "-Rf", "-fr")):
        what = "zfs destroy -r destroys a dataset with all its children and snapshots"
    elif name == "zfs" and verb == "destroy" and any("@" in t and "%" in t for t in operands[1:]):
        what = "zfs destroy removes a whole range of snapshots"
    elif name == "zfs" and verb == "destroy" and any("@" not in t and t.strip(HOLE) for t in operands[1:]):
        what = "zfs destroy removes a whole dataset (its files and snapshots)"
    elif name == "zfs" and verb == "destroy" and (repeated or (not exact and any(HOLE in t for t in operands[1:]))):
        what = "zfs destroy removes every snapshot a listing gives"
    elif name == "zfs" and verb == "rollback" and repeated and any(re.fullmatch(r"-[a-zA-Z]*[rR][a-zA-Z]*", a)
                                                                   for a in args):  # fmt: skip
        what = "zfs rollback -r rolls every dataset a listing gives back (later data and snapshots destroyed)"
    elif name == "zpool" and verb in ("destroy", "labelclear"):
        what = f"zpool {verb} destroys a whole storage pool"
    elif name == "btrfs" and operands[:2] == ["subvolume", "delete"] and any("*" in t for t in operands[2:]):
        what = "btrfs deletes every snapshot subvolume matching a glob"
    elif name == "btrfs" and operands[:2] == ["subvolume", "delete"] and (
        repeated or any(t.endswith(HOLE) for t in operands[2:])
    ):
        what = "btrfs deletes every subvolume a listing gives (their files and snapshots)"
    elif name == "tmutil" and verb in ("disable", "delete", "deletelocalsnapshots", "removedestination"):
        what = f"tmutil {verb} stops or deletes Time Machine backups"
    elif name in ("snapper",) and verb == "delete" and any("-" in t for t in operands[1:]):
        what = "snapper deletes a range of snapshots"
    if not what:
        return []
    return [BackupRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)]


#: Every program :func:`sync_risks` and :func:`snapshot_risks` know (``aws`` for ``aws s3``).
BACKUP_TOOLS = frozenset({"rclone", "gsutil", "aws", "azcopy", "s3cmd", "mc", "borg", "restic", "kopia", "zfs", "btrfs",
                          "tmutil", "snapper", "lftp", "sftp", "ftp", "zpool", "borgmatic"})  # fmt: skip
#: Commands whose output is a whole database (everyone's records): a backup, or a leak if sent out.
DB_DUMPERS = frozenset({"pg_dump", "pg_dumpall", "mysqldump", "mariadb-dump", "mongodump", "mongoexport",
                        "cockroach", "sqlite3", "influxd", "etcdctl", "pg_basebackup"})  # fmt: skip
#: Senders that put their stdin on the wire as an HTTP body or a raw stream (not a storage or database client).
RAW_SENDERS = frozenset({"curl", "wget", "http", "https", "nc", "ncat", "netcat", "socat", "telnet"})


def transfer_script_risks(script: str, context: str = "") -> list[BackupRisk]:
    """Uploads in an lftp/sftp/ftp batch script (``mirror -R ~``, ``put -r ~/.ssh``): what leaves, and how bad.
    ``context``: the command line running the script (a test server's name makes a payment file test money)."""
    found: list[BackupRisk] = []
    for line in script.splitlines():
        try:
            words = shlex.split(line, comments=True)
        except ValueError:
            continue
        if not words:
            continue
        verb, rest = words[0].lstrip("-"), words[1:]
        operands = _operands(rest, _TRANSFER_VALUED)
        if verb == "mirror" and any(w in ("-R", "--reverse") for w in rest):
            sources = operands[:1]
        elif verb in ("put", "mput", "reput"):
            sources = operands[:1] if verb == "put" else operands
        else:
            continue
        for source in sources:
            info = paths.classify(source)
            if info.secret:
                found.append(BackupRisk(RiskLevel.CRITICAL, Category.EXFILTRATION,
                                        f"{verb} uploads {paths.describe(info)}"))  # fmt: skip
            elif info.kind in (paths.PathKind.ROOT, paths.PathKind.HOME_TOP, paths.PathKind.SYSTEM_TOP):
                found.append(BackupRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                        f"{verb} uploads {paths.describe(info)}"))  # fmt: skip
            elif payment_file(source):
                level = RiskLevel.MEDIUM if test_money(script + " " + context) else RiskLevel.HIGH
                found.append(BackupRisk(level, Category.EXFILTRATION, f"{verb} submits a payment file ({source})"))
    return found
