"""Backend-as-a-service platforms: Supabase, Hasura and Appwrite (shared by both analyzers, judged on the whole
text).

What needs a careful reviewer:

* a linked (remote, production) database reset, every project of the account deleted, every storage bucket emptied
  or deleted, an Appwrite database or bucket deleted;
* anonymous clients given every row and column of a table (Hasura permissions with an empty filter), a GraphQL
  engine served on every address without an admin secret;
* the auth settings opened: redirects allowed to any URL (`https://**`), an account added to the administrators'
  team as its owner or labelled admin.

Local resets (``supabase db reset`` without ``--linked``), permissions with a filter on the caller's id, and buckets
of a test project are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Words without which no rule here can match.
_WORDS = GateWords("supabase", "hasura", "appwrite", "uri_allow_list", ignore_case=True)
_I = re.IGNORECASE
_REMOTE_RESET = re.compile(r"\bsupabase\s+db\s+reset\b[^\n]*--linked\b|\bsupabase\s+db\s+reset\b[^\n]*--db-url\b", _I)
_PROJECTS_DELETED = re.compile(r"\bsupabase\s+projects\s+delete\b", _I)
_STORAGE_EMPTIED = re.compile(
    r"\bsupabase\s+storage\s+rm\s+-r\b[^\n]*--linked|\.(?:empty_bucket|delete_bucket)\(|\bdatabases\s+delete\b"
    r"|\bstorage\s+delete-bucket\b",
    _I,
)
_ANONYMOUS_EVERYTHING = re.compile(
    r"[\"']role[\"']\s*:\s*[\"'](?:anonymous|anon|public)[\"'][\s\S]{0,200}?[\"']filter[\"']\s*:\s*\{\s*\}"
    r"|[\"']filter[\"']\s*:\s*\{\s*\}[\s\S]{0,200}?[\"']role[\"']\s*:\s*[\"'](?:anonymous|anon|public)[\"']",
    _I,
)
_OPEN_ENGINE = re.compile(r"hasura/graphql-engine", _I)
_EVERY_ADDRESS = re.compile(r"0\.0\.0\.0:\d+:\d+")
_ADMIN_SECRET = re.compile(r"HASURA_GRAPHQL_ADMIN_SECRET|HASURA_GRAPHQL_JWT_SECRET")
_ANY_REDIRECT = re.compile(r"uri_allow_list[\s\S]{0,200}?https?://\*\*", _I)
_ADMINS_TEAM = re.compile(
    r"(?:create_membership|create-membership)[\s\S]{0,200}?(?:admin|administrators?)[\s\S]{0,200}?\bowner\b"
    r"|update_labels\([^)]*[\"'](?:admin|superuser)[\"']",
    _I,
)


def backend_platform_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Supabase, Hasura or Appwrite project."""
    if not _WORDS.any_in(text):
        return []
    low = text.lower()
    found = []
    projects = "supabase" in low and _PROJECTS_DELETED.search(text) and each_item(text)
    storage = _STORAGE_EMPTIED.search(text)
    emptied = storage and (each_item(text) or "prod" in low)
    if ("supabase" in low and _REMOTE_RESET.search(text)) or projects or emptied:
        what = ("resets a linked (remote) database, deletes every project, or empties or deletes every storage bucket "
                "or database a listing gives")  # fmt: skip
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _ANONYMOUS_EVERYTHING.search(text):
        what = "gives anonymous clients every row of a table (a permission with an empty filter)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "hasura" in low and _OPEN_ENGINE.search(text) and _EVERY_ADDRESS.search(text) and not _ADMIN_SECRET.search(text):
        what = "serves a GraphQL engine on every address without an admin secret (anyone reads and writes the database)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if ("uri_allow_list" in low and _ANY_REDIRECT.search(text)) or ("appwrite" in low and _ADMINS_TEAM.search(text)):
        what = "lets sign-in redirects go to any URL, or makes an account owner of the administrators' team"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found
