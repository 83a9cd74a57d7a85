"""Time-series and metrics stores: Prometheus, VictoriaMetrics, InfluxDB, Grafana (shared by both analyzers,
judged on the whole text).

Metrics are an organisation's memory of how its systems behaved (and the evidence of incidents). What needs a
careful reviewer:

* every series deleted through an admin API (a selector that matches every metric name), or every block of a
  Thanos or Mimir bucket marked for deletion (the compactor removes them);
* every bucket's retention cut to hours (older data expires at once);
* a scheduled task that posts a bucket's rows to an outside address;
* a user made Grafana server administrator.

Deleting one metric by name, a bucket's retention set for a test, and read-only queries are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: An admin delete whose selector matches every metric (`{__name__=~".+"}`, `{__name__!=""}`).
_DELETE_EVERY_SERIES = re.compile(
    r"delete_series[\s\S]{0,200}__name__\s*(?:=~\s*\\?[\"']\.[+*]\\?[\"']|!=\s*\\?[\"']\\?[\"'])"
)
#: A bucket's retention set to seconds, minutes or hours, for each bucket a listing gives.
_SHORT_RETENTION = re.compile(r"every_seconds\s*=\s*(?P<seconds>\d+)|--retention[\s=]+(?P<span>\d+)(?P<unit>[smh])\b")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600}
_EACH_BUCKET = re.compile(r"\bfor\s+\w+\s+in\b[\s\S]{0,300}bucket|bucket[\s\S]{0,300}\bfor\s+\w+\s+in\b", re.I)
#: An InfluxDB task (Flux) that posts rows to a web address.
_TASK_POSTS = re.compile(r"option\s+task\s*=[\s\S]{0,1200}http\.post\(\s*url\s*:\s*\"https?://")
_GRAFANA_ADMIN = re.compile(r"[\"']isGrafanaAdmin[\"']\s*:\s*(?:True|true)")
#: A block marked for deletion: `thanos tools bucket mark --marker=deletion-mark.json`, or the marker file written.
_BLOCKS_MARKED = re.compile(r"\bbucket\s+mark\b[^\n]*deletion-mark|deletion-mark\.json[^\n]*\.upload")
_METRICS_WORDS = GateWords("delete_series", "every_seconds", "--retention", "option task", "isGrafanaAdmin",
                           "deletion-mark")  # fmt: skip


def metrics_store_risks(text: str) -> list[OperationRisk]:
    """Metrics stores emptied, cut short or copied out, and Grafana administrators made."""
    if not _METRICS_WORDS.any_in(text):
        return []
    found = []
    if _DELETE_EVERY_SERIES.search(text):
        what = "deletes every series of a metrics store through its admin API"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if "deletion-mark" in text and _BLOCKS_MARKED.search(text) and each_item(text):
        what = "marks every block of a metrics bucket for deletion (the compactor removes them)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    for match in _SHORT_RETENTION.finditer(text):
        seconds = int(match["seconds"]) if match["seconds"] else int(match["span"]) * _UNIT_SECONDS[match["unit"]]
        if 0 < seconds < 86400 and _EACH_BUCKET.search(text):
            what = "cuts the retention of every bucket to less than a day (older data expires at once)"
            found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
            break
    if "task" in text and _TASK_POSTS.search(text):
        what = "creates a scheduled task that posts a bucket's rows to a web address"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _GRAFANA_ADMIN.search(text):
        what = "makes a user a Grafana server administrator (every organisation, data source and user)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found
