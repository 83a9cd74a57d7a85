"""Kubernetes control objects: admission webhooks, aggregated roles, leader leases, pod security, object floods
(shared by both analyzers, judged on the whole text).

Besides the workloads, a cluster runs on a few objects that decide what every later request becomes: the
admission webhooks that see (and may rewrite) every pod, the roles that aggregate into ``view`` and ``edit``,
the leases that say which controller manager and scheduler lead, the Pod Security labels of each namespace, and
etcd's room for objects. What needs a careful reviewer:

* a webhook registered at a bare outside address, or a webhook server whose patch adds privileged containers,
  the node's root or an image from a bare address to every pod it admits;
* a wildcard rule (every verb on every resource) added to an aggregated or built-in role;
* the control plane's leader-election leases written to another holder;
* every namespace relabelled to the ``privileged`` Pod Security level;
* an OpenShift security context constraint rewritten to admit privileged or host-namespace pods, and an
  operator catalog served from an image at a bare outside address (what it lists installs cluster-wide);
* objects created by the thousand in a loop (etcd fills; the API server slows for everyone), and a batch
  cluster's queue filled with thousands of jobs that only hold nodes.

Operators' own webhooks, roles with named verbs and resources, and test namespaces are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

_Q = r"[\"']?"
#: An admission webhook's endpoint given as a URL on a bare address (`url: https://203.0.113.14:8443/mutate`).
_WEBHOOK_URL = re.compile(r"\burl" + _Q + r"\s*[:=]\s*" + _Q + r"https?://(\d{1,3}(?:\.\d{1,3}){3})")
#: A webhook server's JSON patch adding containers or volumes to what it admits...
_PATCH_ADDS = re.compile(r"/spec/(?:template/spec/)?(?:containers|initContainers|volumes)/-")
#: ...that run privileged, mount the node's root, or come from a registry on a bare address.
_DANGEROUS_POD_PART = re.compile(
    r"privileged" + _Q + r"\s*[:=]\s*(?:True|true)\b"
    r"|hostPath" + _Q + r"\s*[:=]\s*\{\s*" + _Q + r"path" + _Q + r"\s*[:=]\s*[\"']?/[\"'\s,}]"
    r"|image" + _Q + r"\s*[:=]\s*[\"']?\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?/"
)
#: A rule granting every verb on every resource of every API group (JSON, YAML flow style, the Python client).
_WILDCARD_RULE = re.compile(
    r"api_?[gG]roups"
    + _Q
    + r"\s*[:=]\s*\[\s*[\"']\*[\"']\s*\][\s\S]{0,120}?resources"
    + _Q
    + r"\s*[:=]\s*\[\s*[\"']\*[\"']\s*\][\s\S]{0,120}?verbs"
    + _Q
    + r"\s*[:=]\s*\[\s*[\"']\*[\"']\s*\]"
)
#: Roles every user already holds or that aggregate into the built-in ones.
_SHARED_ROLE = re.compile(r"aggregate-to-(?:view|edit|admin)|system:(?:basic-user|discovery|public-info-viewer)")
#: The leases the control plane's components elect their leader with, given a holder.
_CONTROL_PLANE_LEASE = re.compile(r"kube-(?:controller-manager|scheduler)|cloud-controller-manager")
_LEASE_HOLDER = re.compile(r"holderIdentity|holder_identity")
_PRIVILEGED_NAMESPACE = re.compile(r"pod-security\.kubernetes\.io/enforce" + _Q + r"\s*[:=]\s*" + _Q + "privileged")
#: A loop of thousands of rounds (`range(200_000)`, `seq 1 20000`, `{1..5000}`).
_THOUSANDS = re.compile(
    r"\brange\(\s*(?:\d+\s*,\s*)?(\d[\d_]{3,})\s*[,)]|\bseq\s+(?:\d+\s+)?(\d{4,})\b|\{\d+\.\.(\d{4,})\}"
)
#: What creates an object of the cluster (or submits a batch job) each round.
_CREATES_OBJECT = re.compile(
    r"\bkubectl\s+(?:-n\s+\S+\s+)?(?:create|apply|run)\b|\.create_namespaced_\w+\(|\.create_\w+\("
)
#: Batch schedulers' submit commands, and a job that only holds its nodes (`--wrap "sleep 604800"`).
_SUBMITS_JOB = re.compile(r"\b(?:sbatch|qsub|bsub)\b")
_IDLE_JOB = re.compile(r"\bsleep\s+\d{3,}|--exclusive\b")
#: A job put on a shared queue (Redis lists, RQ, Celery).
_QUEUES_JOB = re.compile(r"\b[LR]PUSH\b|\.enqueue\(|\.delay\(|\.apply_async\(|\.send_task\(|\.lpush\(|\.rpush\(")
#: A security context constraint's guards switched on for every pod it admits, and the object written back.
_SCC_OPENED = re.compile(r"allow(?:PrivilegedContainer|HostNetwork|HostPID|HostDirVolumePlugin)\W{1,4}true\b")
_SCC_WRITTEN = re.compile(r"\b(?:oc|kubectl)\s+(?:replace|apply|patch)\b|\.(?:replace|patch|apply)\(")
#: An operator catalog whose index image sits at a bare address.
_CATALOG_IMAGE = re.compile(r"kind\W+CatalogSource\b[\s\S]{0,600}?\bimage\W+(\d{1,3}(?:\.\d{1,3}){3})[:/]")
_WORDS = GateWords("kube", "Webhook", "AdmissionReview", "aggregate-to", "system:", "pod-security", "holderIdentity",
                   "holder_identity", "sbatch", "qsub", "bsub", "PUSH", "enqueue", "delay(", "apply_async", "send_task",
                   "push(", "allowPrivilegedContainer", "allowHost", "CatalogSource")  # fmt: skip


def cluster_control_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to the objects that control a Kubernetes cluster."""
    if not _WORDS.any_in(text):
        return []
    found = []
    webhook = "WebhookConfiguration" in text or "V1MutatingWebhook" in text
    address = next((a for a in _WEBHOOK_URL.findall(text) if outside_address(a)), None) if webhook else None
    if address is not None:
        what = f"registers an admission webhook at a bare outside address ({address}): it sees and may change objects"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if "AdmissionReview" in text and _PATCH_ADDS.search(text) and _DANGEROUS_POD_PART.search(text):
        what = (
            "answers admission reviews with a patch that adds privileged containers, the node's root or an image "
            "from a bare address to every pod"
        )
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if (
        "*" in text
        and ("aggregate-to" in text or "system:" in text)
        and _SHARED_ROLE.search(text)
        and _WILDCARD_RULE.search(text)
    ):
        what = "adds every permission (all verbs on all resources) to a role every viewer or editor inherits"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("holderIdentity" in text or "holder_identity" in text) and _CONTROL_PLANE_LEASE.search(text):
        what = "writes the control plane's leader-election leases to another holder (controllers and scheduling stop)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if "pod-security" in text and _PRIVILEGED_NAMESPACE.search(text) and (each_item(text) or "--all" in text):
        what = "sets every namespace to the privileged Pod Security level (any pod may take over its node)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "allow" in text and _SCC_OPENED.search(text) and _SCC_WRITTEN.search(text) and "scc" in text.lower():
        what = "rewrites a security context constraint to admit privileged or host-namespace pods (node root)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    catalog = _CATALOG_IMAGE.search(text) if "CatalogSource" in text else None
    if catalog is not None and outside_address(catalog[1]):
        what = f"adds an operator catalog served from a bare outside address ({catalog[1]}): what it lists installs"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    rounds = _THOUSANDS.search(text)
    count = int(next(g for g in rounds.groups() if g).replace("_", "")) if rounds else 0
    if count >= 1000 and "kube" in text and _CREATES_OBJECT.search(text):
        what = f"creates {count:,} cluster objects in a loop (etcd fills up; the API server slows for everyone)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if count >= 100_000 and _QUEUES_JOB.search(text):
        what = f"puts {count:,} jobs on a shared queue (the workers and every other job behind them are swamped)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if count >= 1000 and _SUBMITS_JOB.search(text) and _IDLE_JOB.search(text):
        what = f"submits {count:,} batch jobs that hold whole nodes or only sleep (the shared queue is taken)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found
