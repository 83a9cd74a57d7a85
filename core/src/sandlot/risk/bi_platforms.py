"""BI and dashboard tools: Apache Superset, Metabase and Redash, through their REST APIs (shared by both analyzers,
judged on the whole text).

What needs a careful reviewer:

* the database connections' passwords and tunnel keys read out of the tool and sent to another host;
* a connection string that makes the server run a SQL script fetched from the network (H2's ``INIT=RUNSCRIPT``);
* a subscription or alert that sends people's records or logins to a personal mailbox or an outside webhook;
* every question or dashboard a listing gives published as a public link;
* a Python data source allowed to import ``os`` or ``subprocess`` (every query runs commands on the server).

Dashboards, saved queries, alerts to the organisation's own addresses and one connection tested are routine.
(Administrators given to personal mailboxes are ``identity.personal_admin_grant``'s.)
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.mail import personal_mailbox
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.sql import personal_data_query
from sandlot.risk.text_shapes import each_item, outside_url, sends_elsewhere

_BI_WORDS = GateWords("/api/database", "/api/data_sources", "RUNSCRIPT", "/api/pulse", "channel_type",
                      "/api/destinations", "/public_link")
_CONNECTION_SECRETS = re.compile(r"[\"'](?:password|tunnel-private-key|private_key|service_account_info)[\"']")
#: The BI tool's own hosts (where its settings belong).
_OWN_HOSTS = re.compile(r"^(?:localhost|127\.)|metabase|superset|redash|\bbi\b|dashboards?")
_REMOTE_SCRIPT = re.compile(r"INIT=RUNSCRIPT\s+FROM\s+\\?['\"]?(?:https?|ftp)://", re.IGNORECASE)
_MAILED = re.compile(r"[\"']channel_type[\"']\s*:\s*[\"']email[\"']")
_SHELL_IMPORTS = re.compile(r"allowedImportModules[\"']?\s*:\s*[\"'][^\"']*\b(?:os|subprocess|pty|ctypes)\b")


def bi_platform_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a BI tool's database connections, subscriptions and data sources."""
    if not _BI_WORDS.any_in(text):
        return []
    found = []
    if _CONNECTION_SECRETS.search(text) and sends_elsewhere(text, _OWN_HOSTS):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends a BI tool's database connection secrets (passwords, tunnel keys) to "
                                   "another host"))  # fmt: skip
    if _REMOTE_SCRIPT.search(text):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                                   "gives a connection string that makes the server run a SQL script fetched from "
                                   "the network (H2's INIT=RUNSCRIPT runs code)"))  # fmt: skip
    delivered = (_MAILED.search(text) and personal_mailbox(text)) or ("/api/destinations" in text and outside_url(text))
    if delivered and personal_data_query(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends a query of people's records or logins to a personal mailbox or an outside "
                                   "webhook on a schedule"))  # fmt: skip
    if "/public_link" in text and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "publishes every question or dashboard a listing gives as a public link (anyone "
                                   "with the link reads the data)"))  # fmt: skip
    if "python" in text and _SHELL_IMPORTS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "adds a Python data source allowed to import os or subprocess (queries run "
                                   "commands on the server)"))  # fmt: skip
    return found
