"""Policy engines and admission control: OPA and Gatekeeper, Kyverno (shared by both analyzers, judged on the
whole text).

Admission policies are a cluster's guard rails; turning them into no-ops looks like ordinary configuration. What
needs a careful reviewer:

* the admission webhooks deleted, or made to fail open;
* a policy replaced by one that allows everything (`default allow := true`);
* exemptions for every policy or every namespace (a Kyverno PolicyException of `*`, Gatekeeper's ignore label on
  every namespace, every namespace excluded from every process);
* image signature verification switched to audit only;
* OPA bundles fetched over plain HTTP from a bare address;
* a generate rule that binds cluster-admin to a user in every namespace.

A narrow exemption for one namespace, policy tests and dry runs are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Words without which no rule here can match.
_WORDS = GateWords("gatekeeper", "Gatekeeper", "kyverno", "Kyverno", "opa", "OPA", "PolicyException", "verifyImages",
                   "allow", "verify-image")  # fmt: skip
_WEBHOOKS_GONE = re.compile(
    r"delete[\"',\s_]+(?:validating|mutating)[_ ]?webhook[_ ]?configurations?\b[\s\S]{0,200}?(?:gatekeeper|kyverno)"
    r"|(?:gatekeeper|kyverno)[\s\S]{0,200}?delete_(?:validating|mutating)_webhook_configuration"
    r"|(?:gatekeeper|kyverno)[\s\S]{0,300}?(?:failurePolicy[\"']?\s*[:=]\s*[\"']?|failurePolicy[\"'],\s*[\"']value[\"']\s*:\s*[\"'])"
    r"Ignore",
    re.IGNORECASE,
)
_ALLOW_ALL = re.compile(r"(?:\b|\\n)default\s+allow\s*:?=\s*true\b")
_EXEMPT_ALL = re.compile(
    r"PolicyException[\s\S]{0,600}?(?:policyName[\"']?\s*:\s*[\"']\*[\"']|namespaces[\"']?\s*:\s*\[\s*[\"']\*[\"'])"
    r"|excludedNamespaces[\"']?\s*:\s*\[\s*[\"']\*[\"'][\s\S]{0,200}?processes[\"']?\s*:\s*\[\s*[\"']\*[\"']"
    r"|processes[\"']?\s*:\s*\[\s*[\"']\*[\"'][\s\S]{0,200}?excludedNamespaces[\"']?\s*:\s*\[\s*[\"']\*[\"']"
)
#: Gatekeeper's ignore label set (`admission.gatekeeper.sh/ignore=true`), not removed (`…/ignore-`, a null value).
_IGNORE_LABEL = re.compile(r"admission\.gatekeeper\.sh/ignore(?:=(?!-)|[\"']\s*:\s*[\"']?(?:true|yes|[\"']))", re.I)
_AUDIT = r"(?:validationFailureAction|failureAction)(?:[\"']?\]?\s*[:=]\s*|[\"'],\s*[\"']value[\"']\s*:\s*)[\"']?Audit"
_AUDIT_ONLY = re.compile(r"(?:verifyImages|verify-image)[\s\S]{0,600}?" + _AUDIT + "|" + _AUDIT
                         + r"[\s\S]{0,600}?(?:verifyImages|verify-image)")
_BUNDLE_SOURCE = re.compile(r"(?:services|bundles)[\s\S]{0,300}?url[\"']?\s*[:=]\s*[\"']?http://(\d{1,3}(?:\.\d{1,3}){3})")
_GENERATED_ADMIN = re.compile(r"\bgenerate\s*:[\s\S]{0,800}?(?:Cluster)?RoleBinding[\s\S]{0,600}?cluster-admin")


def policy_engine_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a cluster's admission policies."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _WEBHOOKS_GONE.search(text) or _ALLOW_ALL.search(text):
        what = "removes or fails open the admission webhooks, or replaces a policy with one that allows everything"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _EXEMPT_ALL.search(text) or (_IGNORE_LABEL.search(text) and (each_item(text) or "xargs" in text)):
        what = "exempts every namespace or every policy from admission control"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _AUDIT_ONLY.search(text):
        what = "switches image signature verification to audit only (unsigned images are admitted)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if any(outside_address(ip) for ip in _BUNDLE_SOURCE.findall(text)):
        what = "has OPA fetch its policy bundles over plain HTTP from a bare outside address"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if _GENERATED_ADMIN.search(text):
        what = "generates a cluster-admin binding in every namespace (a policy that hands out administrators)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found
