"""Log platforms: Grafana Loki and Promtail, Fluent Bit and Fluentd, Graylog (shared by both analyzers, judged on
the whole text).

Logs hold what services printed: bearer tokens, passwords in URLs, session cookies. What needs a careful reviewer:

* a log query that hunts for credentials (``|~ "(?i)bearer|password="``: every token the logs ever printed);
* a shipper's output pointed at a bare outside address (every collected log line goes there);
* every stream of a Loki tenant deleted (a delete request whose selector matches everything).

Queries for errors, outputs to the organisation's own Loki or Elasticsearch and deletes of one job's streams are
routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Words without which no rule here can match.
_WORDS = GateWords("|~", "|=", "[output]", "<match", "clients:", "loki/api/v1/delete", "destination",
                   ignore_case=True)
_I = re.IGNORECASE
#: A LogQL line filter (or a regex of one) naming credentials.
_CREDENTIAL_HUNT = re.compile(
    r"\|[~=]\s*[\"'`][^\"'`\n]*(?:bearer|password|passwd|api[_-]?key|secret|token|set-cookie|authorization"
    r"|x-api-key|private[_ ]key)",
    _I,
)
_SHIPPER_OUTPUT = re.compile(
    r"\[OUTPUT\][^\[]*?\b(?:Host|host)\s+(\d{1,3}(?:\.\d{1,3}){3})\b"
    r"|<match\b(?:(?!</match>)[\s\S]){0,400}?\bhost\s+(\d{1,3}(?:\.\d{1,3}){3})\b"
    # (Netdata streaming to a parent or exporting to a time-series store: `destination = tcp:203.0.113.77:19999`,
    # in stream.conf or exporting.conf, or set with configparser)
    r"|\bdestination[\"']?\s*(?:=|,)\s*[\"']?(?:tcp:|udp:)?(\d{1,3}(?:\.\d{1,3}){3})\b"
    r"|\bclients:\s*\n\s*-\s*url:\s*https?://(\d{1,3}(?:\.\d{1,3}){3})\b",
    _I,
)
_EVERY_STREAM_DELETED = re.compile(r"loki/api/v1/delete[^\n]*\{[^}]*=~\s*\\?[\"']\.[*+]\\?[\"']", _I)


def log_platform_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does with a log platform."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if ("|~" in text or "|=" in text) and _CREDENTIAL_HUNT.search(text):
        what = "searches the logs for bearer tokens, passwords and keys (every credential a service ever printed)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    shipped = next((a for m in _SHIPPER_OUTPUT.findall(text) for a in m if a and outside_address(a)), None)
    if shipped is not None:
        what = f"ships every collected log line or metric to a bare outside address ({shipped})"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if "delete" in text and _EVERY_STREAM_DELETED.search(text):
        what = "deletes every log stream of a Loki tenant (a selector that matches everything)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    return found
