"""Search clusters: Elasticsearch, OpenSearch and Solr administered through their APIs (shared by both
analyzers, judged on the whole text).

A search cluster holds copies of an organisation's records and answers queries from every service. What
needs a careful reviewer is what copies it elsewhere, opens it up, or takes away its guards:

* a snapshot repository on a third party's storage (every index can then be snapshotted into it);
* a watch that sends query results to an outside host on a schedule;
* an API key with every privilege on every index, a role mapping that makes everyone a superuser;
* memory circuit breakers, result-window limits or the disk watermark switched off (one query, or one bulk
  load, then takes the cluster down), or wildcard index deletes allowed (``destructive_requires_name: false``).

Snapshots to the cluster's own bucket, scoped API keys and ordinary settings changes are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk, foreign_endpoint
from sandlot.risk.destinations import internal_host
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_REPOSITORY = re.compile(r"_snapshot/|create_repository\(")
_ENDPOINT = re.compile(r"[\"']endpoint[\"']\s*:\s*[\"']([^\"']+)[\"']")
_WATCH = re.compile(r"put_watch\(|_watcher/watch/")
_WEBHOOK_HOST = re.compile(r"[\"']webhook[\"']\s*:\s*\{[^}]*?[\"']host[\"']\s*:\s*[\"']([^\"']+)[\"']")
_EVERY_PRIVILEGE = re.compile(
    r"[\"']names[\"']\s*:\s*\[\s*[\"']\*[\"']\s*\][\s\S]{0,120}[\"']privileges[\"']\s*:\s*\[\s*[\"']all[\"']"
    r"|[\"']privileges[\"']\s*:\s*\[\s*[\"']all[\"']\s*\][\s\S]{0,120}[\"']names[\"']\s*:\s*\[\s*[\"']\*[\"']"
)
_EVERYONE_SUPERUSER = re.compile(
    r"superuser[\s\S]{0,300}[\"'](?:username|realm\.name)[\"']\s*:\s*[\"']\*[\"']"
    r"|[\"'](?:username|realm\.name)[\"']\s*:\s*[\"']\*[\"'][\s\S]{0,300}superuser"
)
_GUARDS_OFF = re.compile(
    r"indices\.breaker\.[\w.]+[\"']?\s*:\s*(?:[\"']100%[\"']|false|False)"
    r"|max_result_window[\"']?\s*:\s*\d{9,}|search\.max_buckets[\"']?\s*:\s*\d{9,}"
    r"|disk\.threshold_enabled[\"']?\s*:\s*(?:false|False|[\"']false[\"'])"
)
_SEARCH_WORDS = GateWords("_snapshot", "create_repository", "watch", "api_key", "role_mapping", "breaker",
                          "max_result_window", "max_buckets", "threshold_enabled", "destructive_requires_name")


def search_cluster_risks(text: str) -> list[OperationRisk]:
    """Search clusters copied to a third party, opened to everyone or stripped of their guards."""
    if not _SEARCH_WORDS.any_in(text):
        return []
    found = []
    if _REPOSITORY.search(text) and any(foreign_endpoint(e) for e in _ENDPOINT.findall(text)):
        what = "registers a snapshot repository on a third party's storage (the cluster's indices copied there)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _WATCH.search(text) and any(not internal_host(h) for h in _WEBHOOK_HOST.findall(text)):
        what = "installs a watch that sends query results to an outside host on a schedule"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if ("api_key" in text or "role" in text) and _EVERY_PRIVILEGE.search(text):
        what = "creates a key or role with every privilege on every index"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "role_mapping" in text and _EVERYONE_SUPERUSER.search(text):
        what = "maps every user to the superuser role"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _GUARDS_OFF.search(text):
        what = "switches off a search cluster's memory or disk guards (one query or load can then take it down)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if "destructive_requires_name" in text and _WILDCARD_DELETES_ALLOWED.search(text):
        what = "lets wildcard deletes through (`DELETE *` or `logs-*` then removes every matching index)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    return found


_WILDCARD_DELETES_ALLOWED = re.compile(
    r"destructive_requires_name[\"']?\s*[:=]\s*(?:false|False|[\"']false[\"'])"
)
