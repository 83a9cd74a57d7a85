"""Headless CMSs and app backends you host yourself: Strapi, Directus and PocketBase (their CLIs, admin APIs and
settings), shared by both analyzers and judged on the whole text.

Such a backend is the database, the login and the API of an app at once: its roles and rules decide what an
anonymous visitor may read or change. What needs a careful reviewer:

* the public (anonymous) role given create, update or delete, or a collection's API rules emptied (open to all);
* all content pushed to another instance (``strapi transfer --to``), or collections imported with every other one
  deleted (``deleteMissing``);
* a backup from another host uploaded and restored over the live data;
* request logging switched off (its retention set to zero days).

Content edits, schema migrations, one role's read access, a backup downloaded to the organisation's own store and
a token minted for its own CI are routine (a token sent to another host is the whole-text key check's).
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import internal_host
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import sending_hosts, url_hosts

_WORDS = GateWords("strapi", "Strapi", "directus", "Directus", "pocketbase", "PocketBase", "/api/collections",
                   "users-permissions", "/permissions", "Rule", "/api/backups", "onRecordAuth")  # fmt: skip
#: The anonymous role given write access: Directus's permission with `"role": None` (or null) for create, update or
#: delete; Strapi's users-permissions public role with actions enabled; PocketBase rules set to "" (anyone).
_PUBLIC_WRITE = re.compile(
    r"/permissions\b[\s\S]{0,300}?[\"']role[\"']\s*:\s*(?:None|null)\b"
    r"|[\"']type[\"']\]?\s*==\s*[\"']public[\"'][\s\S]{0,600}?\[[\"']enabled[\"']\]\s*=\s*True"
    r"|\\?[\"'](?:list|view|create|update|delete)Rule\\?[\"']\s*:\s*\\?[\"']\\?[\"']\s*[,}][\s\S]{0,120}?"
    r"\\?[\"'](?:update|delete)Rule\\?[\"']\s*:\s*\\?[\"']\\?[\"']",
)
_TRANSFER_OUT = re.compile(r"\bstrapi\s+transfer\b[\s\S]{0,200}?--to\s+[\"']?https?://")
_IMPORT_DELETING = re.compile(r"/collections/import\b[\s\S]{0,400}?deleteMissing[\"']?\s*:\s*(?:True|true)")
_FOREIGN_RESTORE = re.compile(r"/api/backups/upload\b[\s\S]{0,400}?/restore\b")
_LOGS_OFF = re.compile(r"[\"']logs[\"']\s*:\s*\{\s*[\"']maxDays[\"']\s*:\s*0\b")
_WRITES = re.compile(r"[\"'](?:create|update|delete)[\"']")
#: An unencrypted export of all content (`strapi export --no-encrypt`).
_PLAIN_EXPORT = re.compile(r"\bstrapi\s+export\b[^\n]*--no-encrypt")
#: A login hook that sends the password it sees (`onRecordAuthWithPasswordRequest(… $http.send(… e.password …`).
_PASSWORD_HOOK = re.compile(r"\bonRecordAuth\w*\([\s\S]{0,600}?\$http\.send\([\s\S]{0,400}?\.password\b")


def headless_cms_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a headless CMS or app backend: anonymous write access, content pushed elsewhere or
    collections dropped, another host's backup restored, request logging switched off."""
    if not _WORDS.any_in(text):
        return []
    found = []
    public = _PUBLIC_WRITE.search(text)
    if public and (not public.group(0).startswith("/permissions") or _WRITES.search(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "lets anonymous visitors change or delete a backend's records (the public role "
                                   "or empty API rules)"))  # fmt: skip
    if _TRANSFER_OUT.search(text) or (_PLAIN_EXPORT.search(text) and any(
        not internal_host(h) for h in sending_hosts(text)
    )):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "pushes all of a CMS's content and media to another instance or host"))
    if _IMPORT_DELETING.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "imports collections with deleteMissing (every other collection and its records "
                                   "is dropped)"))  # fmt: skip
    restored = _FOREIGN_RESTORE.search(text)
    if restored and any(not h.startswith(("127.", "localhost")) for h in url_hosts(text[: restored.start()])):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "restores a backup fetched from another host over the live data (its accounts "
                                   "and superusers with it)"))  # fmt: skip
    if _PASSWORD_HOOK.search(text):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION,
                                   "installs a login hook that sends every password it sees to another host"))
    if _LOGS_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "switches a backend's request logging off (nothing kept to review)"))
    return found
