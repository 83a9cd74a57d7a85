"""Distributed SQL databases: CockroachDB, YugabyteDB, TiDB and Vitess (shared by both analyzers, judged on the
whole text).

Their statements and tools arrive through ``cockroach sql``, ``ysqlsh``, ``tiup``, ``pd-ctl``, ``vtctldclient``
or a driver's ``execute``; what needs a careful reviewer:

* the cluster's administrator role given away (``GRANT admin TO …``, the managed services' superuser roles,
  PostgreSQL's roles that read and write the server's files or run its programs), logins allowed to create
  roles and logins;
* rows sent out of the cluster: a changefeed, a backup, an export or a backup schedule into an address on the
  internet (a bare outside address, or TLS checks switched off), an ``IMPORT`` that fetches the machine's cloud
  credentials from the metadata service;
* the cluster taken apart: every node a listing gives decommissioned, every TiKV store deleted or written off
  (``unsafe remove-failed-stores``), a whole TiDB cluster destroyed, Vitess keyspaces deleted recursively or
  primaries' tablets deleted, databases dropped on the tablets as DBA;
* resources: a table split into hundreds of thousands of ranges, a ballast file that fills a store's disk, an
  unthrottled workload without end against a shared cluster;
* a node started without authentication (``--insecure``) and listening on every interface.

One node decommissioned after a health check, changefeeds into the organisation's own Kafka, backups into its
own bucket, grants of ordinary roles and insecure single-node clusters on this machine are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk, credential_metadata_url
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import ARGV_SEP, each_item

#: Words without which no rule here can match.
_WORDS = GateWords("grant", "createlogin", "changefeed", "backup", "export into", "import into", "import table",
                   "decommission", "pd-ctl", "tiup", "deletekeyspace", "deletetablets", "deleteshards",
                   "executefetchasdba", "split at", "--splits", "ballast", "workload", "--insecure",
                   ignore_case=True)  # fmt: skip
_I = re.IGNORECASE
_ADMIN_ROLE_GRANT = re.compile(
    r"\bGRANT\s+(?:\w+\s*,\s*)*(?:admin|rds_superuser|cloudsqlsuperuser|azure_pg_admin|yb_superuser|yb_db_admin"
    r"|pg_execute_server_program|pg_write_server_files|pg_read_server_files)\s+TO\s+['\"]?(\w+)",
    _I,
)
_ROLE_MAKERS = re.compile(r"\b(?:ALTER|CREATE)\s+(?:USER|ROLE)\b[^;\"]*\bCREATEROLE\b[^;\"]*\bCREATELOGIN\b", _I)
#: A changefeed, backup or export into a URL, and the URL.
_SENT_INTO = re.compile(
    r"\b(?:CHANGEFEED\b|BACKUP\b|EXPORT\s+INTO\b)[^;]*?\bINTO\s+'(?P<url>[^']+)'", _I
)
_URL_HOSTS = re.compile(r"(?:://|AWS_ENDPOINT=(?:https?://)?|@)(\d{1,3}(?:\.\d{1,3}){3})\b")
_TLS_OFF = re.compile(r"insecure_tls_skip_verify=true", _I)
_IMPORT_FROM = re.compile(r"\bIMPORT\b[^;]*?\b(?:DATA|FROM)\b[^;]*", _I)
_NODES_DECOMMISSIONED = re.compile(
    r"\bnode" + ARGV_SEP + r"decommission" + ARGV_SEP + r"(?:\*\w+|\$\(|\$\{?\w+\[@\]|(?:\d+\s+){2,}\d+|\{\})", _I
)
_STORES_DELETED = re.compile(r"\bstore" + ARGV_SEP + r"delete\b", _I)
_STORES_WRITTEN_OFF = re.compile(r"\bunsafe" + ARGV_SEP + r"remove-failed-stores\b", _I)
_CLUSTER_DESTROYED = re.compile(
    r"\btiup" + ARGV_SEP + r"cluster" + ARGV_SEP + r"destroy" + ARGV_SEP + r"(?P<name>[\w.-]+)", _I
)
_THROWAWAY_CLUSTER = re.compile(r"test|dev|tmp|temp|scratch|sandbox|local|demo|ci\b", _I)
_VITESS_TEARDOWN = re.compile(
    r"\b(?:DeleteKeyspace|DeleteShards)\b[^\n]*--recursive|\bDeleteTablets\b[^\n]*--allow-primary"
    r"|\bExecuteFetchAsDBA\b[^\n]*\bDROP\s+(?:DATABASE|SCHEMA)\b",
    _I,
)
_MANY_SPLITS = re.compile(r"\bSPLIT\s+AT\s+SELECT\s+generate_series\s*\(\s*\d+\s*,\s*(\d+)|--splits[= ](\d+)", _I)
_BALLAST = re.compile(r"\bdebug" + ARGV_SEP + r"ballast\b[^\n]*--size[= ]?(\d+)%", _I)
_ENDLESS_WORKLOAD = re.compile(r"\bworkload" + ARGV_SEP + r"run\b[^\n]*(?:\\\n[^\n]*){0,4}", _I)
_CONCURRENCY = re.compile(r"--concurrency[= ](\d+)")
_UNTHROTTLED = re.compile(r"--max-rate[= ]0\b|--duration[= ]0\b")
_INSECURE_START = re.compile(r"\bcockroach" + ARGV_SEP + r"start\b[^\n]*(?:\\\n[^\n]*){0,4}", _I)
_EVERY_INTERFACE = re.compile(r"--(?:listen-addr|advertise-addr|http-addr)[= ](?:0\.0\.0\.0|\[::\])\b")
#: Ranges or concurrency from which a split or a load test swamps a shared cluster.
_MANY_RANGES = 10_000
_MANY_CLIENTS = 1_000


def distributed_database_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a CockroachDB, YugabyteDB, TiDB or Vitess cluster."""
    if not _WORDS.any_in(text):
        return []
    low = text.lower()  # (each rule looks only when its own keyword is there)
    found = []
    granted = _ADMIN_ROLE_GRANT.search(text) if "grant" in low else None
    if granted is not None or ("createlogin" in low and _ROLE_MAKERS.search(text)):
        everyone = granted is not None and granted[1].lower() == "public"
        what = ("gives " + ("every role (PUBLIC)" if everyone else "an account")
                + " the cluster's administrator role, a role that runs the server's programs or reads its files, "
                "or the right to create roles and logins")  # fmt: skip
        found.append(OperationRisk(RiskLevel.CRITICAL if everyone else RiskLevel.HIGH, Category.PRIVILEGE, what))
    sends = "changefeed" in low or "backup" in low or "export into" in low
    for sent in _SENT_INTO.finditer(text) if sends else ():
        # (`INTO '{dest}'`: the address is spelled elsewhere in the code, in the variable's value)
        where = text if "{" in sent["url"] or "$" in sent["url"] else sent["url"]
        host = next((h for h in _URL_HOSTS.findall(where) if outside_address(h)), None)
        if host is not None or _TLS_OFF.search(sent["url"]):
            where = f"a bare outside address ({host})" if host else "a sink whose TLS certificate is not checked"
            found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                       f"streams or backs up the cluster's rows into {where}"))  # fmt: skip
            break
    imports = "import into" in low or "import table" in low
    if imports and any(credential_metadata_url(m) for m in _IMPORT_FROM.findall(text)):
        what = "imports the machine's cloud credentials from the metadata service into a table"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    decommissioned = "decommission" in low and _NODES_DECOMMISSIONED.search(text)
    deleted = ("tiup" in low or "pd-ctl" in low) and _STORES_DELETED.search(text) and each_item(text)
    if decommissioned or deleted or ("remove-failed-stores" in low and _STORES_WRITTEN_OFF.search(text)):
        what = "decommissions or deletes every node or store a listing gives, or writes stores off as failed"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    destroyed = _CLUSTER_DESTROYED.search(text) if "tiup" in low else None
    if destroyed is not None and not _THROWAWAY_CLUSTER.search(destroyed["name"]):
        what = f"destroys the TiDB cluster {destroyed['name']} and its data"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if ("delete" in low or "executefetchasdba" in low) and _VITESS_TEARDOWN.search(text):
        what = "deletes Vitess keyspaces, shards or primaries' tablets, or drops their databases as DBA"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    many = "split at" in low or "--splits" in low
    splits = max((int(a or b) for a, b in _MANY_SPLITS.findall(text)), default=0) if many else 0
    ballast = max((int(s) for s in _BALLAST.findall(text)), default=0) if "ballast" in low else 0
    loads = _ENDLESS_WORKLOAD.findall(text) if "workload" in low else []
    flood = any(
        max((int(c) for c in _CONCURRENCY.findall(run)), default=0) >= _MANY_CLIENTS and _UNTHROTTLED.search(run)
        for run in loads
    )
    if splits >= _MANY_RANGES or ballast >= 50 or flood:
        what = ("splits a table into hundreds of thousands of ranges, fills a store's disk with ballast, or runs "
                "an unthrottled load without end")  # fmt: skip
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    starts = _INSECURE_START.findall(text) if "--insecure" in low else []
    if any("--insecure" in start and _EVERY_INTERFACE.search(start) for start in starts):
        what = "starts a node without authentication or TLS (--insecure) listening on every interface"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    return found
