"""SQL (and database shell) statements that harm a database server or its host (shared by both analyzers)."""

from __future__ import annotations

import re

from sandlot.risk.model import Category

_DANGEROUS_SQL = re.compile(
    r"\bDROP\s+(?P<drop>DATABASE|SCHEMA)\b|\.(?P<mongo>dropDatabase)\(|\b(?P<program>FROM\s+PROGRAM)\b"
    r"|\b(?P<terminate>pg_terminate_backend)\b|\b(?P<series>generate_series)\s*\(\s*1\s*,\s*\d{8,}",
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
    if found["terminate"]:
        return "terminates other sessions' backends", Category.PROCESS
    return "generates a huge number of rows", Category.RESOURCE
