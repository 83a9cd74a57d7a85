"""MySQL and MariaDB administration, and ProxySQL in front of them (shared by both analyzers, judged on the whole
text).

What needs a careful reviewer:

* accounts with an empty password, or every privilege from any host (``'root'@'%' … WITH GRANT OPTION``);
* the server made a replica of a bare outside address, or ProxySQL pointed (or mirrored) at one: every write or
  every query goes there;
* ProxySQL's admin interface put on every address with its default credentials;
* the query log written into a web folder as a PHP file (a web shell);
* the whole server locked for writes and never unlocked;
* every row of a table purged (``pt-archiver --purge --where 1=1``), columns dropped on production with the
  tool's checks off, tables converted to the BLACKHOLE engine (their rows are thrown away).

Grants to named hosts, replicas of internal sources, read locks released after a snapshot are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Words without which no rule here can match.
_WORDS = GateWords("IDENTIFIED", "GRANT", "SOURCE_HOST", "MASTER_HOST", "mysql_servers", "mirror_hostgroup",
                   "mysql_ifaces", "general_log_file", "READ LOCK", "pt-archiver", "pt-online-schema-change",
                   "BLACKHOLE")  # fmt: skip
_EMPTY_PASSWORD = re.compile(r"\bIDENTIFIED\s+(?:WITH\s+\w+\s+)?BY\s+''", re.IGNORECASE)
_ANY_HOST_ADMIN = re.compile(r"\bGRANT\s+ALL\b[^;\n]*\bON\s+\*\.\*\s+TO\s+'[^']*'@'%'[^;\n]*\bWITH\s+GRANT\s+OPTION"
                             r"|\bGRANT\s+ALL\b[^;\n]*\bON\s+\*\.\*\s+TO\s+'[^']*'@'\{\w+\}'[^;\n]*WITH\s+GRANT\s+OPTION",
                             re.IGNORECASE)
_SOURCE_HOST = re.compile(r"\b(?:SOURCE|MASTER)_HOST\s*=\s*'(\d{1,3}(?:\.\d{1,3}){3})'", re.IGNORECASE)
_ADDRESS = r"'(\d{1,3}(?:\.\d{1,3}){3})'"
_PROXY_BACKEND = re.compile(r"\bmysql_servers\b[^;\n]*" + _ADDRESS + r"|hostname\s*=\s*" + _ADDRESS)
_PROXY_ADMIN_OPEN = re.compile(
    r"admin-mysql_ifaces[\s\S]{0,200}?0\.0\.0\.0|0\.0\.0\.0:6032[\s\S]{0,200}?admin-mysql_ifaces"
)
_WEB_SHELL_LOG = re.compile(r"\bgeneral_log_file\s*=\s*'[^']*(?:\.php\b|/var/www/|/htdocs/|public_html)", re.IGNORECASE)
_READ_LOCK = re.compile(r"\bFLUSH\s+TABLES\s+WITH\s+READ\s+LOCK\b", re.IGNORECASE)
_ENDLESS = re.compile(r"\bwhile\s+(?:True|1)\s*:|\bwhile\s+true\b|\bsleep\s+infinity\b")
_PURGE_ALL = re.compile(r"\bpt-archiver\b[\s\S]{0,300}?--purge\b[\s\S]{0,200}?--where[\"',\s=]+[\"']?1\s*=\s*1"
                        r"|\bpt-archiver\b[\s\S]{0,300}?--where[\"',\s=]+[\"']?1\s*=\s*1[\s\S]{0,200}?--purge\b")
_COLUMNS_DROPPED = re.compile(r"\bpt-online-schema-change\b[\s\S]{0,300}?DROP\s+COLUMN[\s\S]{0,400}?--execute\b", re.I)
_BLACKHOLE = re.compile(r"\bALTER\s+TABLE\s+\S+\s+ENGINE\s*=\s*BLACKHOLE\b", re.IGNORECASE)


def mysql_admin_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a MySQL or MariaDB server, or to the ProxySQL in front of it."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _EMPTY_PASSWORD.search(text) or _ANY_HOST_ADMIN.search(text):
        what = "creates a MySQL account with an empty password or every privilege from any host"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    sources = [m[1] for m in _SOURCE_HOST.finditer(text)] + [
        m[1] or m[2] for m in _PROXY_BACKEND.finditer(text) if "mysql_servers" in text
    ]
    outside = next((ip for ip in sources if outside_address(ip)), None)
    if outside is not None or ("mirror_hostgroup" in text and "mysql_query_rules" in text):
        what = ("points replication or ProxySQL at a bare outside address" + (f" ({outside})" if outside else "")
                + ": the data or every query goes there")
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _PROXY_ADMIN_OPEN.search(text) and "admin_credentials" in text:
        what = "puts ProxySQL's admin interface on every address with known credentials"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _WEB_SHELL_LOG.search(text):
        what = "writes MySQL's query log into a web folder as a script (a web shell)"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE, what))
    if _READ_LOCK.search(text) and "UNLOCK TABLES" not in text.upper() and _ENDLESS.search(text):
        what = "locks every table of a MySQL server for writes and holds the lock forever"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if _PURGE_ALL.search(text) or _COLUMNS_DROPPED.search(text) or _BLACKHOLE.search(text):
        what = "purges every row of a table, drops columns on a live table or sends tables' rows to BLACKHOLE"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    return found
