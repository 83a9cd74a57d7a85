"""Identity brokers and API gateways driven through their admin APIs and CLIs: Keycloak (REST, ``kcadm.sh``), Kong,
Tyk (shared by both analyzers, judged on the whole text).

They decide who logs in and which requests reach the services behind them. What needs a careful reviewer:

* clients' secrets read (``/clients/{id}/client-secret``) and sent to another host;
* a user's session taken over through the admin impersonation endpoint;
* an account made administrator of the identity provider or the gateway (Keycloak's master-realm admin role, Kong's
  ``super-admin``);
* every API of a gateway switched to keyless (no authentication);
* a gateway plugin that runs shell commands (``io.popen``, ``os.execute`` in Kong's pre-function);
* every realm a listing gives deleted.

Reading one client's settings, adding consumers with their own keys and rate limits are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, sends_elsewhere

_BROKER_WORDS = GateWords("client-secret", "impersonation", "rbac/users", "/realms/", "use_keyless", "pre-function",
                          "post-function", "kcadm")  # fmt: skip
_CLIENT_SECRETS = re.compile(r"/client-secret\b")
#: Hosts an identity provider's own API lives on (internal names: where its secrets are read, not sent).
_OWN_HOSTS = re.compile(r"(?:^|\.)(?:localhost|sso|keycloak|auth|idp)\b|\.(?:internal|local|svc)$|^127\.|^10\.")
_IMPERSONATION = re.compile(r"/users/\S*?/impersonation\b")
_GATEWAY_ADMIN = re.compile(
    r"rbac/users[\s\S]{0,300}?super-admin|/realms/master/[^\n]*role-mappings[\s\S]{0,300}?\broles/(?:realm-)?admin\b"
    r"|roles/(?:realm-)?admin\b[\s\S]{0,400}?/realms/master/[^\n]*role-mappings"
)
_KEYLESS = re.compile(r"[\"']use_keyless[\"']\]?\s*[=:]\s*(?:True|true)\b")
_COMMAND_PLUGIN = re.compile(r"(?:pre|post)-function[\s\S]{0,600}?\b(?:io\.popen|os\.execute)\b"
                             r"|\b(?:io\.popen|os\.execute)\b[\s\S]{0,600}?(?:pre|post)-function")  # fmt: skip
_REALM_DELETE = re.compile(r"\bkcadm(?:\.sh)?\b[^\n]*\bdelete\s+realms/|\bdelete\s+realms/\S*\{")


def identity_broker_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to an identity provider's or an API gateway's clients, accounts and APIs."""
    if not _BROKER_WORDS.any_in(text):
        return []
    found = []
    if _CLIENT_SECRETS.search(text) and sends_elsewhere(text, _OWN_HOSTS):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION,
                                   "sends an identity provider's client secrets to another host"))
    if _IMPERSONATION.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "takes over a user's session through the admin impersonation endpoint"))
    if _GATEWAY_ADMIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "makes an account administrator of the identity provider or the API gateway"))
    if _KEYLESS.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "switches every API of a gateway to keyless (anyone calls them)"))
    if _COMMAND_PLUGIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "installs a gateway plugin that runs shell commands (a back door in every "
                                   "request's path)"))  # fmt: skip
    if _REALM_DELETE.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes every realm a listing gives (their users, clients and logins)"))
    return found
