"""SQL (and database shell) statements that harm a database server or its host (shared by both analyzers)."""

from __future__ import annotations

import re

from sandlot.risk.model import Category

_DANGEROUS_SQL = re.compile(
    r"\bDROP\s+(?P<drop>DATABASE|SCHEMA)\b|\.(?P<mongo>dropDatabase)\(|\b(?P<program>FROM\s+PROGRAM)\b"
    r"|\b(?P<terminate>pg_terminate_backend)\b|\b(?P<series>generate_series)\s*\(\s*1\s*,\s*\d{8,}"
    # every document of a collection or an index: deleteMany({}), remove({}), a delete_by_query matching all
    r"|(?P<wipe>\b(?:deleteMany|delete_many|remove)\s*\(\s*\{\s*\}|_delete_by_query\b[\s\S]*\bmatch_all\b"
    r"|\bFLUSHALL\b)"
    # a login role made superuser, the server opened to every address, every privilege on everything
    r"|(?P<grant>\b(?:ALTER|CREATE)\s+(?:ROLE|USER)\b[^;]*\bSUPERUSER\b|\blisten_addresses\s*(?:=|TO)\s*'\*'"
    r"|\bGRANT\s+ALL\s+PRIVILEGES\s+ON\s+\*\.\*)",
    re.IGNORECASE,
)


def dangerous_sql(text: str) -> tuple[str, Category] | None:
    """What ``text`` does to the server (``"drops a whole schema"``) and its category, or None."""
    found = _DANGEROUS_SQL.search(text)
    if found is None:
        return None
    if found["drop"] or found["mongo"]:
        return f"drops a whole {(found['drop'] or 'database').lower()}", Category.FILESYSTEM
    if found["program"]:
        return "runs a shell command on the database server (COPY ... FROM PROGRAM)", Category.PROCESS
    if found["wipe"]:
        return "deletes every document or key (a whole collection, index or server)", Category.FILESYSTEM
    if found["grant"]:
        return "gives a role superuser rights or opens the server to every address", Category.PRIVILEGE
    if found["terminate"]:
        return "terminates other sessions' backends", Category.PROCESS
    return "generates a huge number of rows", Category.RESOURCE


#: Client and ORM methods that empty a whole store when called as written (the text is the call's source).
_WIPE_CALLS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\.(?:delete_many|remove)\(\s*\{\s*\}"), "deletes every document of a collection"),
    (re.compile(r"\.(?:drop_database|dropDatabase)\("), "drops a whole database"),
    (re.compile(r"\.(?:flushall|flushdb)\("), "empties the key-value server"),
    (re.compile(r"\.delete_by_query\([\s\S]*match_all"), "deletes every document of the indices"),
    (re.compile(r"\.indices\.delete\([\s\S]*(?:'\*'|\"\*\"|_all)"), "deletes every index"),
    (re.compile(r"\.recursive_delete\("), "deletes a collection and everything below it"),
    (re.compile(r"\.drop_all\("), "drops every table of the schema"),
    (re.compile(r"\.objects\.all\(\)\.delete\(|\.query\([\w.]+\)\.delete\("), "deletes every row of a table"),
    (re.compile(r"\bcall_command\(\s*['\"](?:flush|reset_db)['\"]"), "empties the database"),
)
#: A store that is clearly a local or test one (a fixture, an in-memory database, a fake).
_LOCAL_STORE = re.compile(
    r"localhost|127\.0\.0\.1|sqlite|:memory:|mongomock|fakeredis|\bmoto\b|testcontainers|@pytest\.fixture"
    r"|\bdef test_|unittest|\btest_?db\b|TEST_DATABASE|\bsetUp\(|\btearDown\(",
)
_PRODUCTION = re.compile(r"prod(?:uction)?\b|\bPROD_|_PROD\b|-prod[-.]|\.prod\.", re.IGNORECASE)


def store_wipe(call_source: str) -> str | None:
    """What the database call in ``call_source`` wipes (``"drops every table of the schema"``), or None."""
    for pattern, what in _WIPE_CALLS:
        if pattern.search(call_source):
            return what
    return None


def local_store(module_source: str) -> bool:
    """The code works on a local or test store and names no production one."""
    return bool(_LOCAL_STORE.search(module_source)) and not production_target(module_source)


def production_target(source: str) -> bool:
    """The code names a production database, settings module, host, profile or stack."""
    return bool(_PRODUCTION.search(source))
