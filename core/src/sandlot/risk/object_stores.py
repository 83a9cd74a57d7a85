"""Object stores and file shares: MinIO's ``mc``, rclone, S3 bucket settings, Nextcloud shares (shared by both
analyzers; commands judged by their words, settings on the whole text).

A bucket is often the only copy of what it holds, and its settings decide who reads it and how long anything in it
lives. What needs a careful reviewer:

* buckets removed with their contents, or emptied recursively (``mc rb --force``, ``mc rm -r --force``,
  ``rclone purge``, ``rclone delete`` of a whole remote);
* buckets made public (``mc anonymous set public``, a policy for principal ``*``), a MinIO account made
  administrator, rclone's file server or remote-control API opened to every address without a login;
* lifecycle rules that expire every object within days, object versions deleted past their retention lock
  (``--bypass-governance-retention``), retention in compliance mode for decades (nothing can be deleted, and
  everything is billed, until then);
* a bucket replicated into another account, a week-long presigned link posted to a chat, a public Nextcloud link
  without a password, data copied to an object store at a bare outside address, a Nextcloud administrator made.

Test buckets on a local MinIO, objects under a prefix, short-lived links and read-only listings are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import (
    backup_host,
    chat_webhook,
    internal_host,
    loopback_url,
    outside_address,
    public_drop,
)
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: `mc alias set NAME URL …`: where an alias points.
_MC_ALIAS = re.compile(r"\bmc\s+(?:alias\s+set|config\s+host\s+add)\s+(\S+)\s+[\"']?(\S+?)[\"']?(?:\s|$)")
_PUBLIC_POLICIES = frozenset({"public", "download", "upload"})
_ADMIN_POLICIES = frozenset({"consoleAdmin", "readwrite", "diagnostics", "writeonly"})


def _local_alias(target: str, script: str) -> bool:
    alias = target.split("/", 1)[0]
    urls = [url for name, url in _MC_ALIAS.findall(script) if name == alias]
    return alias in ("local", "play") or any(loopback_url(u) for u in urls)


def object_store_command(name: str, args: list[str], script: str) -> list[OperationRisk]:
    """What ``mc`` or ``rclone`` told ``args`` does to buckets and remotes (``script``: the whole text, for the
    aliases it sets)."""
    words = [a for a in args if not a.startswith("-")]
    flags = {a.split("=", 1)[0] for a in args if a.startswith("-")}
    found = []
    if name in ("mc", "mcli") and words:
        targets = [w for w in words[1:] if "/" in w or w.isidentifier()]
        local = bool(targets) and all(_local_alias(t, script) for t in targets)
        if words[0] == "rb" and "--force" in flags and not local:
            found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                       "mc rb --force removes a bucket with everything in it"))  # fmt: skip
        whole = [t for t in targets if len(t.strip("/").split("/")) <= 2]
        if words[0] == "rm" and flags & {"-r", "--recursive"} and "--force" in flags and whole and not local:
            what = f"mc rm empties {whole[0]} recursively (a whole bucket)"
            found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
        if words[0] in ("anonymous", "policy") and len(words) > 2 and words[1] == "set" and (
            words[2] in _PUBLIC_POLICIES
        ) and not local:
            what = f"mc {words[0]} set {words[2]} lets anyone {'write to' if words[2] == 'upload' else 'read'} a bucket"
            found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
        if words[:3] == ["admin", "policy", "attach"] and any(w in _ADMIN_POLICIES for w in words[3:]):
            found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                       "mc admin policy attach gives an account the object store's admin or "
                                       "every-bucket rights"))  # fmt: skip
    if name == "rclone" and words:
        remote = [w for w in words[1:] if ":" in w and not w.startswith(("/", "."))]
        filtered = bool(flags & {"--min-age", "--max-age", "--include", "--filter", "--exclude", "--files-from"})
        scratch = all(re.search(r"(?i)(?:tmp|temp|scratch|cache|test)", w) for w in remote)
        # (a whole remote or bucket: `b2:acme-backups`; `gdrive:old-exports/2019` is one folder of it)
        whole_remote = all(len([p for p in w.split(":", 1)[1].split("/") if p]) <= 1 for w in remote)
        if words[0] in ("purge", "delete") and remote and whole_remote and not filtered and not scratch:
            what = f"rclone {words[0]} deletes everything under {remote[0]}"
            found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
        served = words[1:2] if words[0] == "serve" and len(words) > 2 else []
        addresses = [a.split("=", 1)[1] if "=" in a else args[i + 1] for i, a in enumerate(args[:-1])
                     if a.split("=", 1)[0] in ("--addr", "--rc-addr")]  # fmt: skip
        open_address = any(not re.match(r"(?:localhost|127\.|\[::1\]|unix)", a) for a in addresses)
        login = bool(flags & {"--user", "--htpasswd", "--auth-proxy", "--rc-user", "--rc-htpasswd"})
        if served and open_address and not login and words[2] in ("/", "~", "$HOME"):
            what = f"rclone serve {served[0]} shares {words[2]} on every address without a login"
            found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
        away = _remote_elsewhere(words[2], script) if words[0] in _RCLONE_COPIES and len(words) >= 3 else None
        if away:
            what = f"rclone {words[0]} sends {words[1]} to a remote the script defines at {away} (someone else's store)"
            found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
        if words[0] == "rcd" and "--rc-no-auth" in flags and (open_address or not addresses):
            what = "rclone rcd runs its remote-control API without a login (anyone reaching it copies or deletes)"
            found.append(OperationRisk(RiskLevel.HIGH if open_address else RiskLevel.MEDIUM, Category.NETWORK, what))
    if name == "radosgw-admin":
        found += _rgw_admin(words, args)
    if name == "garage":
        found += _garage(words, flags, script)
    return found


_RCLONE_COPIES = frozenset({"copy", "sync", "move", "copyto", "moveto"})
#: A remote spelled on the command line (`:s3,endpoint=https://…:bucket/`, `:webdav,url='https://…'`) and one
#: defined through the environment (`RCLONE_CONFIG_OUT_ENDPOINT=https://…`).
_INLINE_REMOTE_HOST = re.compile(r"^:\w+,[^:]*?\b(?:endpoint|url)=[\"']?(?:https?://)?([\w.-]+)")
_CREATED_REMOTE_HOST = re.compile(r"\brclone\s+config\s+create\s+([\w-]+)\s+\w+\b[^\n]*?\bendpoint[= ]\s*[\"']?"
                                  r"(?:https?://)?([\w.-]+)")  # (`rclone config create NAME s3 … endpoint URL`)
_ENV_REMOTE_HOST = re.compile(r"\bRCLONE_CONFIG_(\w+?)_(?:ENDPOINT|URL|HOST)=[\"']?(?:https?://)?([\w.-]+)")


def _remote_elsewhere(destination: str, script: str) -> str | None:
    """The outside host of an rclone destination defined in the script itself (not a configured remote of the
    organisation's), or None."""
    inline = _INLINE_REMOTE_HOST.match(destination)
    hosts = [inline.group(1)] if inline else []
    if not inline and ":" in destination:
        name = destination.split(":", 1)[0]
        defined = [*_ENV_REMOTE_HOST.findall(script), *_CREATED_REMOTE_HOST.findall(script)]
        hosts = [host for remote, host in defined if remote.lower() == name.lower()]
    return next((h for h in hosts if not (internal_host(h) or backup_host(h))), None)


def _rgw_admin(words: list[str], args: list[str]) -> list[OperationRisk]:
    """Ceph RGW's admin tool: accounts made administrators, every-user capabilities, buckets purged."""
    found = []
    caps = " ".join(a.split("=", 1)[1] if a.startswith("--caps=") else args[i + 1] for i, a in enumerate(args[:-1])
                    if a in ("--caps",) or a.startswith("--caps="))  # fmt: skip
    caps += " ".join(a.split("=", 1)[1] for a in args[-1:] if a.startswith("--caps="))
    if words[:1] == ["user"] and words[1:2] in (["modify"], ["create"]) and ("--admin" in args or "--system" in args):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "radosgw-admin makes an account an RGW administrator or system user (every "
                                   "bucket and account)"))  # fmt: skip
    if words[:2] == ["caps", "add"] and re.search(r"\b(?:users|metadata|buckets|zone)=\*", caps):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "radosgw-admin gives an account capabilities over every user or bucket"))
    if words[:2] == ["bucket", "rm"] and "--purge-objects" in args:
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "radosgw-admin removes a bucket with every object in it"))
    if words[:2] == ["user", "rm"] and "--purge-data" in args:
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "radosgw-admin removes an account with all its buckets and objects"))
    if words[:2] == ["usage", "trim"] and not any(a.startswith(("--uid", "--bucket")) for a in args):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "radosgw-admin erases every account's usage records (what billing and audits read)"))
    return found


#: Buckets whose name says they hold a website (what `garage bucket website --allow` is for).
_WEBSITE_BUCKET = re.compile(r"(?i)www|web|site|static|public|assets|docs|blog|cdn")


def _garage(words: list[str], flags: set[str], script: str) -> list[OperationRisk]:
    """Garage's CLI: buckets opened to the web or deleted, a key made owner of every bucket, nodes dropped."""
    found = []
    bucket = words[2] if len(words) > 2 else ""
    if words[:2] == ["bucket", "website"] and "--allow" in flags and not _WEBSITE_BUCKET.search(bucket):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   f"garage serves bucket {bucket} as a public website (anyone reads it)"))
    if words[:2] == ["bucket", "delete"] and "--yes" in flags:
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "garage deletes a bucket"))
    if words[:2] == ["bucket", "allow"] and "--owner" in flags and each_item(script):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "garage makes a key owner of every bucket the loop lists"))
    if words[:2] == ["layout", "remove"] and each_item(script):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "garage removes the cluster's nodes from its layout one by one (their copies "
                                   "of the data are dropped)"))  # fmt: skip
    return found


#: SeaweedFS's shell (`weed shell`, its commands usually piped in): collections deleted, anonymous S3 write or admin,
#: every volume's extra replicas dropped.
_WEED_COLLECTION_DELETE = re.compile(r"collection\.delete\b[^\n]*-force\b")
_WEED_ANONYMOUS = re.compile(r"s3\.configure\b[^\n]*-user=anonymous\b[^\n]*-actions=[^\s\"']*\b(?:Write|Admin)\b")
_WEED_REPLICAS_DROPPED = re.compile(r"replication\s+000\b[\s\S]{0,300}?volume\.fix\.replication\b[^\n]*-doDelete")


#: Lifecycle rules: an expiration of every object (or old version) within a week, and a rule scoped by a prefix.
_LIFECYCLE = re.compile(r"put[-_]bucket[-_]lifecycle|\bilm\s+(?:rule\s+)?(?:add|import)\b|set_bucket_lifecycle")
_QUICK_EXPIRY = re.compile(r"(?:\"?Expiration\"?\s*[:=]\s*\{\s*\"?Days\"?|\"?NoncurrentDays\"?|--expire-days|"
                           r"--noncurrent-expire-days|--expiry-days)\W+[0-7]\b")  # fmt: skip
_SCOPED = re.compile(r"\"?Prefix\"?\s*[:=]\s*[\"'][^\"'\s]+[\"']|--prefix[= ][\"']?\w")
#: Retention a bucket cannot shorten: compliance mode for ten years or more.
_COMPLIANCE = re.compile(r"COMPLIANCE", re.IGNORECASE)
_LONG_LOCK = re.compile(r"\"?Years\"?\W+(\d+)|\"?Days\"?\s*[:=]\s*(\d{4,})|365\s*\*\s*(\d+)|\b(\d+)y\b")
#: Deletes that pass an object lock's governance retention.
_BYPASS = re.compile(r"bypass[-_]governance|BypassGovernanceRetention\s*=\s*True|\bmc\s+rm\b[^\n]*--bypass",
                     re.IGNORECASE)  # fmt: skip
_VERSION_DELETE = re.compile(r"delete-object\b[^\n]*--version-id|\bdelete_object\([^)]*VersionId")
#: A bucket policy for everyone.
_PUBLIC_POLICY = re.compile(r"set_bucket_policy|put_bucket_policy|put-bucket-policy")
_EVERYONE = re.compile(r"[\"']Principal[\"']\s*:\s*(?:[\"']\*[\"']|\{\s*[\"']AWS[\"']\s*:\s*\[?\s*[\"']\*[\"'])")
#: Replication into an account named in the rule.
_REPLICATION = re.compile(r"put[-_]bucket[-_]replication")
_OTHER_ACCOUNT = re.compile(r"[\"']Account[\"']\s*:\s*[\"']\d{12}[\"']")
#: A presigned link valid for a day or more.
_LONG_PRESIGN = re.compile(r"presign[\s\S]{0,200}?(?:--expires-in|ExpiresIn|expires)\W+(\d+)")
#: Nextcloud's share API asked for a public link (share type 3).
_PUBLIC_LINK = re.compile(r"files_sharing/api/v1/shares[\s\S]{0,400}?[\"']?shareType[\"']?\s*[:=]\s*[\"']?3\b")
#: An object store at a bare address (an rclone remote's endpoint, an mc alias, a MinIO client) and data put there.
_STORE_ADDRESS = re.compile(r"RCLONE_CONFIG_\w+_ENDPOINT=[\"']?https?://([\d.]+)|\bmc\s+alias\s+set\s+\S+\s+[\"']?"
                            r"https?://([\d.]+)|\bMinio\(\s*[\"']([\d.]+)")  # fmt: skip
_PUT = re.compile(r"\brclone\s+(?:copy|sync|move)\b|\bmc\s+(?:cp|mirror|pipe)\b|\.f?put_object\(")
#: Nextcloud's occ making an administrator.
_NEXTCLOUD_ADMIN = re.compile(r"\bocc\b[\s\S]{0,80}?(?:user:add\b[^\n]*--group[= ]admin\b|group:adduser\W+admin\b)")
_WORDS = GateWords("lifecycle", "ilm", "COMPLIANCE", "compliance", "ypass", "version", "olicy", "eplication", "presign",
                   "files_sharing", "RCLONE_CONFIG", "alias set", "Minio(", "occ", "weed")  # fmt: skip


def object_store_text_risks(text: str) -> list[OperationRisk]:
    """Bucket settings and shares spelled anywhere in ``text`` (a boto3 call, an ``aws s3api`` line, JSON)."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _LIFECYCLE.search(text) and _QUICK_EXPIRY.search(text) and not _SCOPED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "sets a lifecycle rule that expires every object of a bucket (or its old "
                                   "versions) within days"))  # fmt: skip
    if _COMPLIANCE.search(text) and any(
        int(next(g for g in m.groups() if g)) >= (3650 if m.group(2) else 10) for m in _LONG_LOCK.finditer(text)
    ):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   "locks objects in compliance mode for a decade or more (nobody can delete them, "
                                   "and they are billed, until then)"))  # fmt: skip
    if _BYPASS.search(text) or (_VERSION_DELETE.search(text) and each_item(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes object versions one by one or past their retention lock (what "
                                   "versioning and object lock kept to restore from)"))  # fmt: skip
    if _PUBLIC_POLICY.search(text) and _EVERYONE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "sets a bucket policy that lets anyone (principal *) read or write it"))
    if _REPLICATION.search(text) and _OTHER_ACCOUNT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "replicates a bucket into another account (every new object is copied there)"))
    presigned = _LONG_PRESIGN.search(text)
    if presigned is not None and int(presigned.group(1)) >= 86_400 and (chat_webhook(text) or public_drop(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "posts a presigned link valid for days to a chat or a public drop (anyone with "
                                   "it downloads the object)"))  # fmt: skip
    if _PUBLIC_LINK.search(text) and "password" not in text.lower().split("shares", 1)[-1]:
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "creates a public Nextcloud link without a password (anyone with it reads the "
                                   "folder)"))  # fmt: skip
    addresses = [a for m in _STORE_ADDRESS.finditer(text) for a in m.groups() if a]
    if any(outside_address(a) for a in addresses) and _PUT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "copies data to an object store at a bare outside address"))
    if "weed" in text and _WEED_COLLECTION_DELETE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes SeaweedFS collections with their volumes (the data in them)"))
    if "weed" in text and _WEED_ANONYMOUS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "gives anonymous S3 clients of SeaweedFS write or admin rights"))
    if "weed" in text and _WEED_REPLICAS_DROPPED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "sets every SeaweedFS volume to one copy and deletes the others"))
    if _NEXTCLOUD_ADMIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "makes a Nextcloud account an administrator"))
    return found
