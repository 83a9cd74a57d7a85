"""Document and file-sharing platforms: Google Drive, SharePoint/OneDrive, Box, Dropbox (shared by both
analyzers).

Their harm is a setting or a permission, spelled in a request body or a command line:

* files or folders shared with anyone who has the link (Drive ``"type": "anyone"``, Graph ``createLink``
  with ``"scope": "anonymous"``, Box ``"access": "open"``, Dropbox public links);
* ownership handed to another account (``transferOwnership``), a tenant opened to external sharing;
* legal holds deleted and retention policies retired, so that what a court or a regulator needs can go;
* trash emptied for every user of a domain (GAM), every remote of rclone purged.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Words (lower case) that make the checks worth running: a cheap gate over the lowered source.
SHARING_WORDS = GateWords("anyone", "anonymous", "transferownership", "sharingcapability", "legal", "retention",
                          "shared_link", "visibility", "access", "default", ignore_case=True)  # fmt: skip


def mentions_sharing(text: str) -> bool:
    """The source spells something these checks look for (in any case)."""
    return SHARING_WORDS.any_in(text)
_ANYONE = re.compile(
    r"\btype\W{1,6}anyone\b|\bscope\W{1,6}anonymous\b|\baccess\W{1,6}open\b|RequestedVisibility\.public\b"
    r"|(?:\b|_)visibility\W{1,6}public\b|--type[= ]anyone\b|\badd\s+share\s+anyone\b|\bAnonymousAccess\b"
    # GAM's `add drivefileacl ID anyone`, a calendar's ACL for everyone (`"scope": {"type": "default"}`)
    r"|\bdrivefileacl\s+\S+\s+anyone\b|\bscope\W{1,8}type\W{1,6}default\b",
    re.IGNORECASE,
)
_OWNER = re.compile(r"transferOwnership\W{1,6}(?:True|true)|\brole\W{1,6}owner\b[\s\S]{0,200}transferOwnership")
_TENANT_SHARING = re.compile(
    r"sharingCapability\W{1,6}(?:externalUserAndGuestSharing|externalUserSharingOnly)"
    r"|--SharingCapability[= ](?:ExternalUserAndGuestSharing|ExternalUserSharingOnly)",
    re.IGNORECASE,
)


def sharing_risk(text: str) -> OperationRisk | None:
    """What a request body, a call's source or a command line does to who can read an organisation's files."""
    if not mentions_sharing(text):
        return None
    if _ANYONE.search(text):
        return OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                             "shares files with anyone who has the link (no sign-in)")  # fmt: skip
    if _OWNER.search(text):
        return OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "transfers the ownership of files to an account")
    if _TENANT_SHARING.search(text):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "opens the whole tenant to sharing with outsiders")
    return None


#: Python methods that remove a legal hold or retire a retention policy (Box, Google Vault, Graph).
HOLD_METHODS = frozenset({"delete", "retire", "update_info", "remove"})
_HOLD = re.compile(r"legal_?hold|legalHold|retention_?polic|retentionPolic|\bholds\(\)|vault", re.IGNORECASE)


def removes_holds(call_source: str) -> bool:
    """A call that deletes a legal hold or retires a retention policy (``policy.delete()`` over
    ``get_legal_hold_policies()``; the call's source or its loop names the hold)."""
    return bool(_HOLD.search(call_source))


def hold_request(method: str, url: str, body: str) -> OperationRisk | None:
    """A REST call that retires a retention policy or deletes a legal hold (Box, Graph, Vault)."""
    path = url.split("?", 1)[0]
    if method.upper() in ("PUT", "PATCH") and re.search(r"/retention_?policies/[^/]+$", path, re.I) and re.search(
        r"retired|disabled", body, re.I
    ):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "retires a retention policy (protected files can go)")
    if method.upper() == "DELETE" and re.search(r"/legal_?hold\w*/[^/]+$|/legalHolds/[^/]+$|/holds/[^/]+$", path, re.I):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "deletes a legal hold")
    return None


def document_command(name: str, args: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """Box, GAM and rclone command lines that delete holds, empty every user's trash or purge remotes."""
    joined = " ".join(args)
    if name == "box" and re.match(r"legal-hold-polic(?:y|ies):delete|retention-policies:update", joined) and (
        "delete" in joined or re.search(r"--status[= ]retired", joined)
    ):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "box removes legal holds or retention policies")
    if name == "gam" and re.search(r"\ball\s+users\b.*\bempty\s+drivetrash\b|\bdelete\s+drivefile\b.*\bpurge", joined):
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                             "gam empties or purges Drive files across users (no way back)")  # fmt: skip
    if name == "gam" and re.search(r"\bdelete\s+(?:hold|matter)\b|\bupdate\s+hold\b.*\bremove", joined):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "gam removes Vault legal holds")
    if name == "rclone" and args[:1] in (["purge"], ["delete"], ["deletefile"]):
        targets = [a for a in args[1:] if not a.startswith("-")]
        root = any(re.fullmatch(r"[\w.-]+:/?", t) or t.endswith(":") for t in targets)
        if root or (repeated and any("\x00" in t for t in targets)):
            what = f"rclone {args[0]} empties a whole remote" + (" (each one listed)" if repeated else "")
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
    return None


def prints_remote_secrets(name: str, args: Sequence[str]) -> bool:
    """``rclone config dump``/``show``: every remote's tokens and passwords, decrypted."""
    return name == "rclone" and args[:2] in (["config", "dump"], ["config", "show"])
