"""Document and photo archives you host yourself: Paperless-ngx, Immich and Seafile (their APIs, hooks, settings and
CLIs), shared by both analyzers and judged on the whole text.

Such an archive holds a household's or an office's scanned letters, contracts, IDs and photos, often the only copy.
What needs a careful reviewer:

* every document deleted and the trash emptied (nothing to restore);
* documents, assets or library files sent to a host other than the archive's own (a consume hook that uploads each
  new scan elsewhere);
* a login that trusts a header anyone can send (Paperless's remote-user switch without a proxy that sets it);
* originals uploaded to another server with the local copies deleted.

Tagging, searching, one document's download, exports to the organisation's own backup host and re-running the
classifier are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import sends_elsewhere

_WORDS = GateWords("paperless", "PAPERLESS", "Paperless", "immich", "seafile", "seaf-cli", "/api/documents",
                   "DOCUMENT_SOURCE_PATH", "/api/assets", "/api2/repos")  # fmt: skip
_OWN_HOSTS = re.compile(r"^(?:localhost|127\.)|paperless|immich|seafile")
_BULK_DELETE = re.compile(r"/bulk_edit/?[\s\S]{0,300}?[\"']method[\"']\s*:\s*[\"']delete[\"']"
                          r"|[\"']method[\"']\s*:\s*[\"']delete[\"'][\s\S]{0,300}?/bulk_edit\b")  # fmt: skip
_TRASH_EMPTIED = re.compile(r"/api/trash/?[\s\S]{0,200}?[\"']action[\"']\s*:\s*[\"']empty[\"']|/api/trash/empty\b")
_EVERY_ID = re.compile(r"\.get\(\s*[\"']all[\"']|\[[\"']all[\"']\]")
_DOCUMENTS_READ = re.compile(r"DOCUMENT_SOURCE_PATH|DOCUMENT_ARCHIVE_PATH|/api/documents/[^\s\"']*download"
                             r"|/api/assets/[^\s\"']*(?:original|download)|/api2/repos/[^\s\"']*/file")  # fmt: skip
_HEADER_LOGIN = re.compile(r"\bPAPERLESS_ENABLE_HTTP_REMOTE_USER(?:_API)?\s*[=:]\s*[\"']?(?:true|1)\b", re.IGNORECASE)
_TRUSTED_PROXY = re.compile(r"authelia|authentik|oauth2-proxy|forward_auth|auth_request|127\.0\.0\.1:\d+:\d+[\"']?\s*$",
                            re.IGNORECASE | re.MULTILINE)  # fmt: skip
_UPLOAD_AND_DELETE = re.compile(r"\bimmich\s+upload\b[^\n]*\s--delete\b")
_LOGIN_HOST = re.compile(r"\bimmich\s+login(?:-key)?\s+[\"']?https?://([\w.-]+)")


def document_archive_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a document or photo archive: everything deleted, documents sent elsewhere, a login
    anyone can forge, originals moved to another server."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _BULK_DELETE.search(text) and (_TRASH_EMPTIED.search(text) or _EVERY_ID.search(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes every document of an archive (and empties its trash)"))
    if _DOCUMENTS_READ.search(text) and sends_elsewhere(text, _OWN_HOSTS):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends an archive's documents or photos to another host"))
    if _HEADER_LOGIN.search(text) and not _TRUSTED_PROXY.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "lets a request header name the user who logs in (anyone can send it)"))
    login = _LOGIN_HOST.search(text)
    if _UPLOAD_AND_DELETE.search(text) and login is not None and not _OWN_HOSTS.search(login.group(1)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   f"uploads the photo library to another server ({login.group(1)}) and deletes the "
                                   "originals"))  # fmt: skip
    return found
