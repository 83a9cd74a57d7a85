"""High-availability clusters: Pacemaker and Corosync (``pcs``, ``crm``), DRBD, fencing (shared by both analyzers,
judged on the whole text).

A cluster's safety rests on fencing and quorum: a node that lost contact must be stopped before another takes its
data. What needs a careful reviewer:

* fencing switched off together with quorum ignored, or DRBD forced primary (both sides write: split brain, the
  data of one side is lost);
* the cluster's configuration destroyed on every node;
* every member fenced (rebooted or powered off) one after another;
* a cluster resource whose command connects a shell to another machine (it is restarted wherever it fails).

Status, standby for maintenance, configuration checks and backups of the configuration are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

#: Words without which no rule here can match.
_WORDS = GateWords("stonith", "primary --force", "cluster destroy", "stonith_admin", "ocf:heartbeat:anything")
_FENCING_OFF = re.compile(r"stonith-enabled\s*=\s*false", re.IGNORECASE)
_QUORUM_IGNORED = re.compile(r"no-quorum-policy\s*=\s*ignore", re.IGNORECASE)
_FORCED_PRIMARY = re.compile(r"\bdrbdadm\s+primary\s+--force\b|\bdrbdadm\s+--force\s+primary\b")
_DESTROYED = re.compile(r"\bpcs\s+cluster\s+destroy\b[^\n]*--all\b|\bcrm\s+cluster\s+remove\b")
_FENCES = re.compile(
    r"\bstonith_admin\b[^\n]*--(?:reboot|off|fence)\b|\bpcs[\"',\s]+stonith[\"',\s]+fence\b|\bcrm\s+node\s+fence\b"
)
_SHELL_RESOURCE = re.compile(r"ocf:heartbeat:anything[\s\S]{0,400}?(?:/dev/tcp/|\bnc\s+-e\b|\bbash\s+-i\b)")


def ha_cluster_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Pacemaker/Corosync cluster and its DRBD volumes."""
    if not _WORDS.any_in(text):
        return []
    found = []
    forced = _FORCED_PRIMARY.search(text) is not None
    if (_FENCING_OFF.search(text) and (_QUORUM_IGNORED.search(text) or forced)) or (forced and any_loop(text)):
        what = "switches fencing off with quorum ignored or forces DRBD primary (both sides write: split brain)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _DESTROYED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "destroys the cluster's configuration"))
    if _FENCES.search(text) and any_loop(text):
        what = "fences every member of the cluster one after another (each is rebooted or powered off)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if _SHELL_RESOURCE.search(text):
        what = "creates a cluster resource that connects a shell to another machine (restarted wherever it fails)"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.NETWORK, what))
    return found
