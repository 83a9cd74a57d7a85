"""Access proxies and privileged access management: Teleport (``tctl``, ``tsh``) and HashiCorp Boundary (shared by
both analyzers, judged on the whole text).

These decide who may log in to every server, database and cluster behind them. What needs a careful reviewer:

* accounts given the ``editor`` role (Teleport's administrator), roles that allow every node as root, every
  Kubernetes group ``system:masters``, every resource and verb, or impersonation of anyone; anonymous principals
  added to Boundary's administrators; every pending access request approved by a script;
* identities and keys minted or exported: ``tctl auth sign --user=admin``, the certificate authorities' private keys
  (``tctl auth export --keys``), join tokens that live for a year or carry a fixed value, Boundary's brokered
  credentials collected from ``authorize-session``;
* second factors switched off for the cluster (``second_factor: off``, session MFA not required);
* everyone locked out (``tctl lock`` for every user), every role or scope removed.

Issuing short join tokens, listing sessions and requests, updating one user's traits and reviewing one request are
routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import ARGV_SEP, each_item, sends_data

#: Words without which no rule here can match.
_WORDS = GateWords("tctl", "boundary", "second_factor", "require_session_mfa", "set-password", ignore_case=True)
_I = re.IGNORECASE
_EDITOR_GRANTED = re.compile(
    r"\btctl" + ARGV_SEP + r"users" + ARGV_SEP + r"(?:add|update)\b[^\n]*?--(?:set-)?roles[= \"',]+[\w,\"' -]*"
    r"\beditor\b",
    _I,
)
_BROAD_ROLE = re.compile(
    r"node_labels:\s*\n?\s*['\"]\*['\"]\s*:\s*['\"]\*['\"][\s\S]{0,400}?logins:\s*\[[^\]]*\broot\b"
    r"|logins:\s*\[[^\]]*\broot\b[\s\S]{0,400}?node_labels:\s*\n?\s*['\"]\*['\"]\s*:\s*['\"]\*['\"]"
    r"|kubernetes_groups:\s*\[[^\]]*system:masters"
    r"|impersonate:\s*\n\s*users:\s*\[\s*['\"]\*['\"]"
    r"|resources:\s*\[\s*['\"]\*['\"]\s*\]\s*\n\s*verbs:\s*\[\s*['\"]\*['\"]",
    _I,
)
_ROLE_CREATED = re.compile(r"\btctl" + ARGV_SEP + r"(?:create|edit)\b", _I)
#: A user document given the editor role before it is written back (`yq '.spec.roles += ["editor"]'`).
_EDITOR_IN_DOCUMENT = re.compile(r"roles\W{1,8}(?:\+=\s*)?\[[^\]]*[\"']editor[\"']", _I)
#: Boundary's admin account given a new password (`accounts/{id}:set-password` for `login_name == "admin"`).
_ADMIN_PASSWORD_SET = re.compile(
    r"[\"']admin[\"'][\s\S]{0,300}?:set-password|:set-password[\s\S]{0,300}?[\"']admin[\"']"
)
_REQUESTS_APPROVED = re.compile(r"\brequests" + ARGV_SEP + r"approve\b", _I)
_ADMIN_SIGNED = re.compile(r"\bauth" + ARGV_SEP + r"sign\b[^\n]*--user[= ]['\"]?admin\b", _I)
_CA_KEYS_EXPORTED = re.compile(r"\bauth" + ARGV_SEP + r"export\b[^\n]*--keys\b", _I)
_LONG_TOKEN = re.compile(
    r"\btokens" + ARGV_SEP + r"add\b[^\n]*(?:--ttl[= ](?:\d{4,}h|\d{3,}d)|--value[= ]\S+)", _I
)
_MFA_OFF = re.compile(
    r"second_factor[\"']?\]?\s*[:=]\s*[\"']?off\b|require_session_mfa[\"']?\]?\s*[:=]\s*(?:false|False)\b", _I
)
_EVERYONE_LOCKED = re.compile(r"\btctl" + ARGV_SEP + r"lock\b", _I)
_ROLES_REMOVED = re.compile(r"\btctl" + ARGV_SEP + r"rm" + ARGV_SEP + r"roles?/", _I)
_ANONYMOUS_ADMIN = re.compile(r"\broles" + ARGV_SEP + r"add-principals\b[^\n]*\bu_anon\b", _I)
_SCOPES_DELETED = re.compile(r"\bboundary" + ARGV_SEP + r"scopes" + ARGV_SEP + r"delete\b", _I)
_BROKERED = re.compile(r"\bauthorize-session\b[\s\S]{0,300}?\b(?:credentials|secret)\b", _I)


def access_proxy_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Teleport or Boundary deployment."""
    if not _WORDS.any_in(text):
        return []
    low = text.lower()
    found = []
    teleport = "tctl" in low
    written = teleport and _ROLE_CREATED.search(text)
    broad = written and (_BROAD_ROLE.search(text) or _EDITOR_IN_DOCUMENT.search(text))
    if (teleport and _EDITOR_GRANTED.search(text)) or broad or ("u_anon" in low and _ANONYMOUS_ADMIN.search(text)):
        what = ("gives an account administrator rights over the access proxy, or a role that reaches every server as "
                "root, every cluster as system:masters or impersonates anyone")  # fmt: skip
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if teleport and _REQUESTS_APPROVED.search(text) and each_item(text):
        what = "approves every pending access request a listing gives (nobody reviews who gets in)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if teleport and (_ADMIN_SIGNED.search(text) or _CA_KEYS_EXPORTED.search(text)):
        what = "mints an admin identity or exports the certificate authorities' private keys (a login to everything)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if teleport and _LONG_TOKEN.search(text):
        what = "issues a join token that lives for a year or more, or has a fixed value (anyone holding it joins)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if "set-password" in low and _ADMIN_PASSWORD_SET.search(text):
        what = "sets a new password on the access proxy's admin account"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("second_factor" in low or "require_session_mfa" in low) and _MFA_OFF.search(text):
        what = "switches second-factor authentication off for the access proxy"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    removed = teleport and (_EVERYONE_LOCKED.search(text) or _ROLES_REMOVED.search(text))
    if (removed or ("boundary" in low and _SCOPES_DELETED.search(text))) and each_item(text):
        what = "locks out every user, or removes every role or scope a listing gives"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if "authorize-session" in low and _BROKERED.search(text) and sends_data(text):
        what = "collects the credentials Boundary brokers for its targets and sends them away"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION, what))
    return found
