"""Kubernetes access and GitOps delivery (shared by both analyzers, judged on the whole text).

Who may do what in a cluster is written in bindings and identity maps, and what runs in it is whatever the
repositories its GitOps controllers follow say. What needs a careful reviewer:

* ``cluster-admin`` bound to every service account, every authenticated or anonymous user;
* an outside identity mapped to ``system:masters`` (EKS's ``aws-auth``, ``eksctl create iamidentitymapping``);
* an Argo CD project opened to any repository, any destination and any cluster-wide kind;
* applications pointed at a repository on a bare outside address.

Binding a role to one named service account, and syncing the organisation's own repositories, are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.model import Category, RiskLevel

_CLUSTER_ADMIN_ROLE = re.compile(r"\bname:\s*cluster-admin\b|--clusterrole[= ]cluster-admin\b|[\"']cluster-admin[\"']")
_EVERYONE = re.compile(r"system:(?:serviceaccounts|authenticated|unauthenticated|anonymous)\b(?!:)")
_MASTERS_MAPPING = re.compile(r"system:masters")
_IDENTITY_MAP = re.compile(r"mapRoles|mapUsers|iamidentitymapping|aws-auth")
#: An Argo CD project's guards opened: any source repository together with any destination or cluster-wide kind.
_ANY_SOURCE = re.compile(r"sourceRepos[\"']?\s*:\s*\[\s*[\"']\*[\"']")
_ANY_TARGET = re.compile(r"[\"']?server[\"']?\s*:\s*[\"']\*[\"']|clusterResourceWhitelist[\s\S]{0,80}?[\"']\*[\"']")
_GIT_ADDRESS = re.compile(r"\w+://(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?/[\w./-]*")
_REPO_URL = re.compile(r"repoURL[\"']?\s*[:=]\s*[\"']?\w+://(\d{1,3}(?:\.\d{1,3}){3})|--repo[= ]\w+://(\d{1,3}(?:\.\d{1,3}){3})")


def gitops_risks(text: str) -> list[OperationRisk]:
    """What ``text`` gives away in a Kubernetes cluster or in what its GitOps controllers deploy."""
    found = []
    if "cluster-admin" in text and _CLUSTER_ADMIN_ROLE.search(text) and _EVERYONE.search(text):
        what = "binds cluster-admin to every service account or every (even anonymous) user of the cluster"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.PRIVILEGE, what))
    if "system:masters" in text and _IDENTITY_MAP.search(text) and _MASTERS_MAPPING.search(text):
        what = "maps an identity to system:masters (cluster administrator, beyond any RBAC rule)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "sourceRepos" in text and _ANY_SOURCE.search(text) and _ANY_TARGET.search(text):
        what = "opens an Argo CD project to any repository, any destination and any cluster-wide kind"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    # (the URL may be held in a variable: `MIRROR = "https://203.0.113.44/…"; {"repoURL": MIRROR}`)
    addresses = [m[1] or m[2] for m in _REPO_URL.finditer(text)] if "repoURL" in text or "--repo" in text else []
    if not addresses and ("repoURL" in text or "--repo" in text):
        addresses = _GIT_ADDRESS.findall(text)
    for address in addresses:
        if outside_address(address):
            what = f"points applications at a repository on a bare outside address ({address}): it decides what runs"
            found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
            break
    return found
