"""Managed Kubernetes (EKS, GKE, AKS, Rancher) and the stream-processing platforms run on it (Flink, Druid,
Pinot), shared by both analyzers and judged on the whole text.

What needs a careful reviewer:

* a cluster's API server opened: GKE's authorized networks switched off or set to the whole internet, legacy
  ABAC switched on, AKS's authorized IP ranges cleared, EKS's public endpoint opened to 0.0.0.0/0;
* every cluster a listing gives deleted or stopped (``eksctl delete cluster`` through ``xargs``, AKS's
  ``begin_stop`` over ``managed_clusters.list()``);
* node pools of a hundred nodes or more (the bill);
* Rancher's global ``admin`` role bound to an account; a mutating admission webhook served from an address on the
  internet that sees every pod or secret created;
* a stream platform's data thrown away: Druid's retention rule set to ``dropForever`` for the default or for every
  datasource, every segment of a Pinot table deleted; every running Flink job cancelled.

Deleting one named test cluster, scaling a node pool to a few nodes, retention rules that keep recent data and
cancelling one job after a savepoint are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import MASS_COUNT, OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, outside_url

#: Words without which no rule here can match.
_WORDS = GateWords("legacy-authorization", "master-authorized-networks", "authorized-ip-ranges", "publicaccesscidrs",
                   "public-access-cidrs", "eksctl", "managed_clusters", "--num-nodes", "--node-count", "agentpool",
                   "globalrolebindings", "mutatingwebhook", "dropforever", "/segments/", "flink",
                   ignore_case=True)  # fmt: skip
_I = re.IGNORECASE
_API_SERVER_OPENED = re.compile(
    r"--enable-legacy-authorization\b|--no-enable-master-authorized-networks\b"
    r"|--master-authorized-networks[= ]['\"]?0\.0\.0\.0/0"
    r"|--api-server-authorized-ip-ranges[= ](?:\"\"|''|['\"]?0\.0\.0\.0/0)"
    r"|publicAccessCidrs\W{1,4}0\.0\.0\.0/0|set-public-access-cidrs\b[^\n]*0\.0\.0\.0/0",
    _I,
)
_CLUSTER_DELETED = re.compile(r"\beksctl\s+delete\s+cluster\b|\bmanaged_clusters\.begin_(?:delete|stop)\(", _I)
#: Node counts asked of eksctl, gcloud and az (or an AKS agent pool's), not a batch job's `srun --nodes`.
_NODE_COUNT = re.compile(
    r"\b(?:eksctl|gcloud\s+container|az\s+aks)\b[^\n]*?--(?:nodes|nodes-min|num-nodes|node-count|min-count)[= ](\d+)"
    r"|\bAgentPool\([^)]*\bcount\s*=\s*(\d+)",
    _I,
)
_GLOBAL_ADMIN = re.compile(r"globalrolebindings[\s\S]{0,300}?globalRoleId\W{1,4}(?:admin|restricted-admin)\b", _I)
_WEBHOOK_SEES = re.compile(r"\b(?:pods|secrets|serviceaccounts|\*)\b")
_DROP_FOREVER = re.compile(r"dropForever[\s\S]{0,400}?/rules/|/rules/[\s\S]{0,400}?dropForever", _I)
_DEFAULT_OR_EVERY = re.compile(r"/rules/_default\b")
_SEGMENTS_DELETED = re.compile(r"(?:-X\s*DELETE|\.delete\(|method\s*=\s*['\"]DELETE)[^\n]*/segments/\w+(?:[?'\"\s]|$)"
                               r"|/segments/\w+[^\n]*-X\s*DELETE", _I)  # fmt: skip
_JOBS_CANCELLED = re.compile(r"\bflink\b[^\n]*\bcancel\b", _I)


def managed_cluster_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a managed Kubernetes cluster or a stream platform."""
    if not _WORDS.any_in(text):
        return []
    low = text.lower()
    found = []
    if _API_SERVER_OPENED.search(text):
        what = "opens a cluster's API server to the internet or to legacy authorization (ABAC: no RBAC checks)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if ("eksctl" in low or "managed_clusters" in low) and _CLUSTER_DELETED.search(text) and each_item(text):
        what = "deletes or stops every Kubernetes cluster a listing gives"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    sized = "eksctl" in low or "--num-nodes" in low or "--node-count" in low or "agentpool" in low
    nodes = max((int(a or b) for a, b in _NODE_COUNT.findall(text)), default=0) if sized else 0
    if nodes >= MASS_COUNT:
        what = f"asks for a node pool of {nodes} nodes (the bill, and the account's quota)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if "globalrolebindings" in low and _GLOBAL_ADMIN.search(text):
        what = "binds Rancher's global admin role to an account (every cluster Rancher manages)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "mutatingwebhook" in low and outside_url(text) and _WEBHOOK_SEES.search(text):
        what = "registers a mutating admission webhook served from the internet (it sees and rewrites every pod)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if "dropforever" in low and _DROP_FOREVER.search(text) and (_DEFAULT_OR_EVERY.search(text) or each_item(text)):
        what = "sets Druid's retention to drop every segment forever (the default rule, or every datasource's)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if "/segments/" in low and _SEGMENTS_DELETED.search(text):
        what = "deletes every segment of a Pinot table"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if "flink" in low and _JOBS_CANCELLED.search(text) and each_item(text):
        what = "cancels every running Flink job a listing gives (their state is lost without a savepoint)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    return found
