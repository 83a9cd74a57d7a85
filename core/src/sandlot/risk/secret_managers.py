"""Secrets managers: 1Password (``op`` and Connect), Doppler, Infisical, Bitwarden Secrets Manager (shared by both
analyzers, judged on the whole text).

Reading one secret to use it, or moving a secret into another store, is their purpose; what needs a careful
reviewer:

* every item of every vault read through the Connect API and sent to an address on the internet;
* an account put into the Owners or Administrators group (every vault, every member);
* secrets written where a web server serves them (``/var/www/html/config.json``): anyone can download them.

Secrets injected into a process (``doppler run -- …``), copied into a forge's or a cloud's secret store, and one
environment's settings exported to a git-ignored file are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import ARGV_SEP, sends_data

#: Words without which no rule here can match.
_WORDS = GateWords("/v1/vaults", "group", "doppler", "bws", "infisical", "op read", "op item", ignore_case=True)
_I = re.IGNORECASE
_VAULT_ITEMS_READ = re.compile(r"/v1/vaults/[^\s]{0,40}?/items", _I)
_ADMIN_GROUP_GRANT = re.compile(
    r"\bgroup" + ARGV_SEP + r"user" + ARGV_SEP + r"grant\b[^\n]*(?:Owners|Administrators)\b"
    r"|[\"'](?:Owners|Administrators)[\"'][\s\S]{0,200}?[\"']group[\"']" + ARGV_SEP + r"[\"']user[\"']" + ARGV_SEP
    + r"[\"']grant[\"']"
)
_SECRETS_CLI = re.compile(
    r"\b(?:doppler\s+secrets|bws\s+secret|infisical\s+(?:export|secrets)|op\s+(?:read|item\s+get))"
    r"|[\"'](?:bws|doppler|infisical)[\"']\s*,\s*[\"'](?:secret|secrets|export)[\"']"
)
_WEB_ROOT = re.compile(r"/var/www/|/usr/share/nginx/html/|/srv/www/")


def secret_manager_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does with a secrets manager."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if "/v1/vaults" in text and _VAULT_ITEMS_READ.search(text) and sends_data(text):
        what = "reads the items of the password vaults through 1Password Connect and sends them away"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION, what))
    if "grant" in text and _ADMIN_GROUP_GRANT.search(text):
        what = "puts an account into the password manager's Owners or Administrators group (every vault)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _SECRETS_CLI.search(text) and _WEB_ROOT.search(text):
        what = "writes secrets where a web server serves them (anyone can download them)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found
