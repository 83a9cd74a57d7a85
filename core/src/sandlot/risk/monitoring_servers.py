"""Host and service monitoring servers of the Nagios family: Icinga 2, Checkmk (OMD sites, Livestatus), Nagios and
Naemon, shared by both analyzers and judged on the whole text.

Monitoring is how an outage, an intrusion or a full disk gets noticed; it also holds the keys that let agents join.
What needs a careful reviewer:

* checks, notifications or event handlers switched off for everything at once (external commands through
  Livestatus or the command pipe, the Icinga application's own switches);
* every site, every host or every node of the monitoring removed or shut down in a loop;
* the join secret (Icinga's `TicketSalt`) sent to another host;
* Livestatus opened over TCP to every address without TLS.

One host's downtime, one service acknowledged, a site restarted, a configuration checked and reloaded are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_data

_WORDS = GateWords("DISABLE_", "STOP_EXECUTING", "enable_notifications", "omd", "bulk-delete", "shutdown-process",
                   "TicketSalt", "LIVESTATUS_TCP")  # fmt: skip
#: External commands that switch a whole monitoring core's work off (no host or service named).
_GLOBAL_OFF = re.compile(r"\b(?:DISABLE_NOTIFICATIONS|STOP_EXECUTING_(?:SVC|HOST)_CHECKS|DISABLE_EVENT_HANDLERS"
                         r"|STOP_ACCEPTING_PASSIVE_(?:SVC|HOST)_CHECKS)\b(?![;_])")  # fmt: skip
_COMMAND_CHANNEL = re.compile(r"COMMAND\s*\[|nagios\.cmd|icinga2\.cmd|naemon\.cmd|/tmp/run/live\b|unixcat|lq\b")
_APPLICATION_OFF = re.compile(r"icingaapplications?\b[\s\S]{0,300}?[\"']?enable_(?:notifications|host_checks"
                              r"|service_checks|event_handlers)[\"']?\s*[:=]\s*(?:false|False)\b")  # fmt: skip
_SITE_REMOVED = re.compile(r"\bomd\s+(?:-f\s+)?rm\b|[\"']omd[\"'][^\n]*[\"']rm[\"']")
_HOSTS_BULK_DELETED = re.compile(r"host_config/actions/bulk-delete/invoke")
_NODE_SHUTDOWN = re.compile(r"/v1/actions/shutdown-process\b")
_TICKET_SALT = re.compile(r"\bTicketSalt\b")
_LIVESTATUS_OPEN = re.compile(r"LIVESTATUS_TCP_ONLY_FROM[\"',\s=]+[\"']?(?:0\.0\.0\.0|::/0|\*)")


def monitoring_server_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Nagios-family monitoring server: everything muted, sites, hosts or nodes removed,
    its join secret sent away, its query socket opened."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if (_GLOBAL_OFF.search(text) and _COMMAND_CHANNEL.search(text)) or _APPLICATION_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "switches monitoring's checks, notifications or event handlers off for "
                                   "everything (outages and intrusions go unnoticed)"))  # fmt: skip
    if _SITE_REMOVED.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "removes every monitoring site a listing gives (history and configuration)"))
    if _HOSTS_BULK_DELETED.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes every monitored host from the monitoring configuration"))
    if _NODE_SHUTDOWN.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "shuts down every monitoring node the endpoint list gives"))
    if _TICKET_SALT.search(text) and sends_data(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends Icinga's TicketSalt away (whoever holds it mints join tickets for any "
                                   "agent)"))  # fmt: skip
    if _LIVESTATUS_OPEN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "opens Livestatus over TCP to every address (anyone queries the monitoring and "
                                   "sends it commands)"))  # fmt: skip
    return found
