"""Graph databases: Neo4j (Cypher through cypher-shell or a driver, APOC, neo4j-admin) and Gremlin servers
(shared by both analyzers, judged on the whole text).

What needs a careful reviewer:

* every node deleted (``MATCH (n) DETACH DELETE n`` with no label or condition, outside a local test), every
  database of a listing dropped with its data, a downloaded dump loaded over the live database;
* the admin role granted, every privilege given to PUBLIC, every other user suspended or stripped of admin;
* APOC made to reach out: a trigger that posts new nodes or relationships to another host, Cypher fetched from a
  bare address and run, the instance metadata service read through ``LOAD CSV`` or ``apoc.load``;
* a Gremlin server made to run a process; billions of padded nodes created.

Labelled deletes, reads, roles with named privileges and local test databases emptied between tests are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, outside_url

#: Words without which no rule here can match.
_WORDS = GateWords("DETACH DELETE", "DROP DATABASE", "GRANT ROLE", "GRANT ALL", "SUSPENDED", "REVOKE ROLE", "apoc.",
                   "LOAD CSV", "gremlin", "UNWIND range", "overwrite-destination", ignore_case=True)  # fmt: skip
_I = re.IGNORECASE
_EVERY_NODE_DELETED = re.compile(
    r"\bMATCH\s*\(\s*(\w+)\s*\)\s*(?:CALL\s*\{\s*WITH\s+\1\s+)?DETACH\s+DELETE\s+\1\b", _I
)
_LOCAL_TEST = re.compile(r"(?:localhost|127\.0\.0\.1|testcontainers|Neo4jContainer)[\s\S]*?\b(?:pytest|test|fixture)"
                         r"|\b(?:pytest|fixture)\b[\s\S]*?(?:localhost|127\.0\.0\.1|testcontainers)", _I)
_DATABASES_DROPPED = re.compile(r"\bDROP\s+DATABASE\b[^\n\"]*\bDESTROY\s+DATA\b", _I)
_DATABASE_LISTING = re.compile(r"\bSHOW\s+DATABASES\b", _I)
_ADMIN_GRANTED = re.compile(
    r"\bGRANT\s+ROLE\s+[`'\"]?admin[`'\"]?\s+TO\b|\bGRANT\s+ALL\s+(?:\S+\s+)?PRIVILEGES\s+ON\s+\S+(?:\s+\*)?\s+TO\s+PUBLIC\b",
    _I,
)
_USERS_SHUT_OUT = re.compile(r"\bSET\s+STATUS\s+SUSPENDED\b|\bREVOKE\s+ROLE\s+[`'\"]?admin[`'\"]?\s+FROM\b", _I)
_TRIGGER_POSTS = re.compile(r"apoc\.trigger\.(?:install|add)\b[\s\S]{0,600}?(?:apoc\.load\.json\w*|apoc\.export|"
                            r"https?://)", _I)
_FETCHED_CYPHER = re.compile(r"apoc\.cypher\.(?:runMany|runFile|run|doIt)\b", _I)
_BARE_HTTP = re.compile(r"https?://(\d{1,3}(?:\.\d{1,3}){3})")
_METADATA_READ = re.compile(r"(?:LOAD\s+CSV|apoc\.load\.\w+)[\s\S]{0,300}?169\.254\.169\.254|169\.254\.169\.254"
                            r"[\s\S]{0,300}?(?:LOAD\s+CSV|apoc\.load\.\w+)", _I)
_GREMLIN_PROCESS = re.compile(r"gremlin[\"']?\s*:\s*[\"'][^\n]*?\.execute\(\)|Runtime\.getRuntime\(\)[^\n]*gremlin"
                              r"|gremlin[^\n]*Runtime\.getRuntime\(\)", _I)
_HUGE_UNWIND = re.compile(r"\bUNWIND\s+range\(\s*\d+\s*,\s*(\d[\d_]{8,})\s*\)[\s\S]{0,200}?\bCREATE\b", _I)
_DUMP_LOADED_OVER = re.compile(r"database[\"',\s]+load\b[\s\S]{0,200}?--overwrite-destination(?:=true)?", _I)


def graph_database_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a graph database."""
    if not _WORDS.any_in(text):
        return []
    found = []
    every_node = _EVERY_NODE_DELETED.search(text) is not None and not _LOCAL_TEST.search(text)
    if every_node or (_DATABASES_DROPPED.search(text) and (_DATABASE_LISTING.search(text) or each_item(text))):
        what = "deletes every node of a graph, or drops every database of a listing with its data"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _DUMP_LOADED_OVER.search(text) and any(outside_address(a) for a in _BARE_HTTP.findall(text)):
        what = "loads a dump downloaded from a bare outside address over the live graph database"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if _ADMIN_GRANTED.search(text) or (_USERS_SHUT_OUT.search(text) and each_item(text)):
        what = "grants a graph database's admin role or every privilege to PUBLIC, or shuts every other user out"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _TRIGGER_POSTS.search(text) and outside_url(text):
        what = "installs an APOC trigger that sends new nodes or relationships to another host"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _FETCHED_CYPHER.search(text) and any(outside_address(a) for a in _BARE_HTTP.findall(text)):
        what = "runs Cypher fetched from a bare outside address inside the database"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if _METADATA_READ.search(text):
        what = "makes the database server read the cloud metadata service (its instance credentials)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _GREMLIN_PROCESS.search(text):
        what = "makes a Gremlin server start a process (code runs on the database server)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    huge = _HUGE_UNWIND.search(text)
    if huge and int(huge[1].replace("_", "")) >= 100_000_000:
        what = f"creates {int(huge[1].replace('_', '')):,} nodes (the store fills its disk)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found
