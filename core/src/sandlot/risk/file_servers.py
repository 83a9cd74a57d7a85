"""File servers and shares: anonymous WebDAV or FTP roots over the home or ``/``, every mounted share emptied,
batch scripts of share clients (shared by both analyzers: settings on the whole text, ``smbclient -c`` and ``sftp
-b`` scripts through the shell analyzer).

A file server that lets anyone in is only as harmful as what it serves: a project's ``public/`` folder is a
download page, the home directory or ``/`` is every key and document on the machine. Share clients' scripts upload
and fetch like ``scp``: a dot-folder of credentials uploaded, Windows' password hives fetched from an admin share, or
an ``authorized_keys`` file written on the server are what a reviewer must see.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel

#: A server that lets anyone in: WsgiDAV's anonymous mapping or option, vsftpd's anonymous root, pyftpdlib's anonymous.
_ANONYMOUS = re.compile(
    r"[\"']user_mapping[\"']\s*:\s*\{\s*[\"']\*[\"']\s*:\s*True|--auth[= ]anonymous\b|\banon_root=/\s*$"
    r"|\.add_anonymous\(",
    re.MULTILINE,
)
#: What it serves: `/`, or the home directory.
_SERVES_EVERYTHING = re.compile(
    r"--root[= ][\"']?(?:/|~|\$HOME)[\"']?(?:\s|$)|\banon_root=/\s*$"
    r"|[\"']provider_mapping[\"']\s*:\s*\{[^}]*:\s*(?:os\.path\.expanduser\(\s*[\"']~[\"']\s*\)|[\"']/[\"']"
    r"|Path\.home\(\)|str\(Path\.home\(\)\))"
    r"|\.add_anonymous\(\s*(?:[\"']/[\"']|os\.path\.expanduser\(\s*[\"']~[\"']\s*\)|str\(Path\.home\(\)\))",
    re.MULTILINE,
)
#: Mounted network shares listed (from /proc/mounts or findmnt) and their contents deleted.
_SHARES_LISTED = re.compile(r"/proc/mounts|/etc/mtab|\bfindmnt\b[^\n]*-t\s*(?:nfs|cifs)")
_SHARE_TYPES = re.compile(r"[\"'](?:nfs4?|cifs|smb3?)[\"']")
_DELETES = re.compile(r"\bshutil\.rmtree\(|\bos\.(?:remove|unlink)\(|\brm\s+-\w*r")
#: Windows' password hives and the domain database, named in a share path.
_PASSWORD_HIVES = re.compile(r"(?:^|[\\/])(?:SAM|SYSTEM|SECURITY|ntds\.dit)$", re.IGNORECASE)


#: Syncthing's web interface (the whole configuration, new devices and shares) on every interface.
_SYNC_GUI_EVERYWHERE = re.compile(r"(?:gui-address|raw-address|guiAddress|<address>|[\"']address[\"']\s*:)"
                                  r"[=\s\"']*(?:set\s+)?(?:0\.0\.0\.0|\[::\]|:):?\d*")  # fmt: skip
#: A Syncthing device added, and the home directory (or `/`) shared, or every folder it offers accepted.
_SYNC_DEVICE_ADDED = re.compile(r"/rest/config/devices|config\s+devices\s+add|[\"']deviceID[\"']")
_SYNC_SHARES_EVERYTHING = re.compile(
    r"[\"']path[\"']\s*:\s*(?:os\.path\.expanduser\(\s*[\"']~[\"']\s*\)|[\"'](?:~|/|\$HOME)/?[\"']|str\(Path\.home\(\)\))"
    r"|--path[= ][\"']?(?:~|\$HOME|/)/?[\"']?(?:\s|$)|[\"']?autoAcceptFolders[\"']?\s*[:=]\s*(?:true|True)"
)


def file_server_text_risks(text: str) -> list[OperationRisk]:
    """Anonymous servers of the home or ``/``, every mounted share emptied, and Syncthing opened, spelled in
    ``text``."""
    found: list[OperationRisk] = []
    if "yncthing" in text or "8384" in text:
        if _SYNC_GUI_EVERYWHERE.search(text):
            found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                       "serves Syncthing's web interface on every interface (whoever reaches it adds "
                                       "devices and shares folders)"))  # fmt: skip
        if _SYNC_DEVICE_ADDED.search(text) and _SYNC_SHARES_EVERYTHING.search(text):
            found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                       "adds a Syncthing device and shares the home directory with it (or accepts "
                                       "every folder it offers)"))  # fmt: skip
    if ("anon" in text or "user_mapping" in text) and _ANONYMOUS.search(text) and _SERVES_EVERYTHING.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "serves the home directory or / to anyone, without a login (every key and "
                                   "document, often writable)"))  # fmt: skip
    if "mount" in text and _SHARES_LISTED.search(text) and _SHARE_TYPES.search(text) and _DELETES.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes the contents of every mounted network share"))
    return found


def share_script_risks(script: str, local: str) -> tuple[list[OperationRisk], list[str]]:
    """What a share client's batch ``script`` (``smbclient -c``, ``sftp -b``) does: risks, and the local files it
    fetched that hold secrets. ``local``: the directory it starts in (``lcd`` moves it)."""
    found: list[OperationRisk] = []
    secrets: list[str] = []
    here = local.rstrip("/") or "/"
    for line in re.split(r"[;\n]", script):
        words = line.split()
        if not words:
            continue
        verb, rest = words[0].lstrip("-").lower(), words[1:]
        if verb == "lcd" and rest:
            here = rest[0] if rest[0].startswith(("/", "~")) else f"{here}/{rest[0]}"
        elif verb in ("put", "mput") and rest:
            source = rest[0] if rest[0].startswith(("/", "~")) else f"{here}/{rest[0]}"
            target = rest[1] if len(rest) > 1 else rest[0]
            if target.endswith("authorized_keys"):
                found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                           "writes an ssh key into authorized_keys on the server (a way in)"))
            elif re.search(r"(?:^|/)\.(?:ssh|aws|gnupg|kube|docker|azure|config/gcloud)(?:/|$)", source):
                found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION,
                                           f"{verb} uploads credentials ({source})"))
        elif verb == "get" and rest and _PASSWORD_HIVES.search(rest[0].replace("\\", "/")):
            found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                       f"fetches Windows' password hashes ({rest[0]}) from a share"))
            secrets.append(rest[1] if len(rest) > 1 else rest[0].replace("\\", "/").rsplit("/", 1)[-1])
    return found, secrets
