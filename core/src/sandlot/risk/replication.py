"""Database replication and high availability turned against the databases (shared by both analyzers, judged on
the whole text: SQL sent from Python or psql, redis-cli and patronictl commands, etcd calls, IPMI fencing).

Replication is how a database's copies stay in step, and its controls reach every copy at once. What needs a
careful reviewer:

* a cluster's manager told to forget it (`patronictl remove`, its keys deleted from etcd), or every node fenced;
* the history replicas and point-in-time recovery need thrown away (`RESET MASTER`, binary logs purged up to now);
* a primary's data sent elsewhere: Redis made the replica of an outside "master" (its data replaced, a module
  loaded), WAL archived to a public or foreign bucket;
* trust handed out: `pg_hba.conf` letting every address in without a password;
* replication slots created by the dozen with no consumer (the WAL they keep fills the disk).

Lag checks, `patronictl list`, one switchover, `pg_rewind --dry-run` and lab replicas are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

#: Words without which no rule here matches (a cheap test first).
_WORDS = GateWords("patronictl", "REPLICAOF", "replicaof", "SLAVEOF", "slaveof", "MODULE LOAD", "RESET MASTER",
                   "PURGE BINARY", "trust", "archive_command", "replication_slot", "/service/", "chassis")  # fmt: skip

_CLUSTER_REMOVED = re.compile(r"\bpatronictl\b[^\n]*[\"',\s]remove[\"',\s]")
_ROGUE_MASTER = re.compile(r"\b(?:REPLICAOF|SLAVEOF)[\"',\s]+\*?[\"']?(?P<host>(?!NO\b)[\w.:-]+)", re.IGNORECASE)
_MODULE_LOAD = re.compile(r"\bMODULE[\"',\s]+LOAD\b", re.IGNORECASE)
_HISTORY_DROPPED = re.compile(
    r"\bRESET\s+(?:MASTER|BINARY\s+LOGS\s+AND\s+GTIDS)\b|\bPURGE\s+BINARY\s+LOGS\s+BEFORE\s+NOW\(\)"
    # (`BEFORE NOW() - INTERVAL 7 DAY`: the last week's logs kept, what binlog_expire_logs_seconds would do)
    r"(?!\s*-\s*INTERVAL\s+(?:[1-9]\d*\s+(?:DAY|WEEK|MONTH)|(?:[2-9]\d|\d{3,})\s+HOUR))",
    re.IGNORECASE,
)
_TRUST_EVERYONE = re.compile(
    r"(?:^|[\"'])\s*host(?:ssl|nossl)?\s+all\s+all\s+(?:0\.0\.0\.0/0|::/0|all)\s+trust\b", re.MULTILINE
)
_SENDS_PUBLICLY = r"(?:--acl\s+public-read|--no-sign-request|\bcurl\b|\bnc\b|\bscp\b[^\n]*@\d)"
_ARCHIVE_OUT = re.compile(
    rf"archive_command[\s\S]{{0,300}}?{_SENDS_PUBLICLY}|{_SENDS_PUBLICLY}[\s\S]{{0,300}}?archive_command"
)
_SLOTS_MADE = re.compile(r"pg_create_(?:physical|logical)_replication_slot")
_PATRONI_KEYS_DELETED = re.compile(r"(?:\bdel\s+--prefix|delete_prefix\()\s*\(?\s*[\"']?/service/?[\"']?")
_FENCED = re.compile(r"\bchassis[\"',\s]+power[\"',\s]+(?:off|reset|cycle)\b")


def replication_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a replicated database cluster as a whole."""
    if not _WORDS.any_in(text):
        return []
    found: list[OperationRisk] = []
    if _CLUSTER_REMOVED.search(text) or _PATRONI_KEYS_DELETED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "removes a Patroni cluster's state (its database nodes lose their leader and "
                                   "configuration)"))  # fmt: skip
    rogue = [m["host"] for m in _ROGUE_MASTER.finditer(text) if outside_address(m["host"].split(":")[0])]
    if rogue:
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   f"makes a Redis the replica of an outside master ({rogue[0]}): its data is "
                                   "replaced by theirs"))  # fmt: skip
    if _MODULE_LOAD.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "loads a native module into a Redis server (code running inside it)"))
    if _HISTORY_DROPPED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes every binary log (replicas and point-in-time recovery lose them)"))
    if _TRUST_EVERYONE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "lets every address log in to PostgreSQL as anyone without a password"))
    if _ARCHIVE_OUT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "archives the database's WAL (every change) to a public or outside place"))
    if _SLOTS_MADE.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   "creates replication slots in a loop (the WAL they hold fills the disk)"))
    if _FENCED.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "powers off every machine a loop gives through its management controller"))
    return found
