"""Splunk administration: its CLI, its REST API and its .conf files (shared by both analyzers, judged on the
whole text).

What needs a careful reviewer:

* administrator accounts added (``splunk add user … -role admin``), ordinary roles made to inherit or grant
  ``admin``, the admin password reset by moving ``etc/passwd`` aside and seeding a new one;
* the management port opened: remote login allowed always, splunkd's TLS switched off;
* forwarded data copied to a bare outside address (a ``tcpout`` group or a forward server);
* every indexed event deleted (``splunk clean eventdata``/``all`` without an index named).

Users with ordinary roles, forwarders pointed at the organisation's indexers, and cleaning one test index are
routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Words without which no rule here can match.
_WORDS = GateWords("splunk", "Splunk", "importRoles", "grantableRoles", "allowRemoteLogin", "enableSplunkdSSL",
                   "tcpout", "outputs/tcp", "outputs.conf", "user-seed.conf")  # fmt: skip
_ADMIN_USER = re.compile(r"\bsplunk\b[\"',\s]+add[\"',\s]+user\b[^\n]*?-role[\"',\s]+admin\b")
_ROLE_GETS_ADMIN = re.compile(
    r"\[role_(?!admin\])\w+\][^\[]*?(?:importRoles|grantableRoles)\s*=\s*[^\n\[]*\badmin\b"
)
_REMOTE_LOGIN = re.compile(r"allowRemoteLogin\W{1,6}always\b|enableSplunkdSSL\W{1,6}false\b", re.IGNORECASE)
_SEEDED_ADMIN = re.compile(r"user-seed\.conf")
_PASSWD_MOVED = re.compile(r"(?:\bmv\b|\.move\(|\brename\b|\.rename\()[^\n]*etc/passwd\b")
_FORWARD_TARGET = re.compile(
    r"(?:\bservers?\s*[=:]\s*[\"']?|\bforward-server\s+|outputs/tcp[^\n]*?servers?\W{1,4})(\d{1,3}(?:\.\d{1,3}){3}):\d+"
)
_CLEAN_EVERYTHING = re.compile(r"\bclean[\"',\s]+(?:eventdata|all)\b(?![^\n]*-index)")


def splunk_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Splunk deployment."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _ADMIN_USER.search(text) or _ROLE_GETS_ADMIN.search(text):
        what = "gives an account Splunk's admin role (or makes an ordinary role inherit or grant it)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _SEEDED_ADMIN.search(text) and _PASSWD_MOVED.search(text):
        what = "resets Splunk's admin password by moving its password file aside (every local account is locked out)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _REMOTE_LOGIN.search(text):
        what = "opens Splunk's management port to remote logins with default credentials, or turns its TLS off"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    target = next((a for a in _FORWARD_TARGET.findall(text) if outside_address(a)), None)
    if target is not None and (
        "tcpout" in text or "forward-server" in text or "outputs/tcp" in text or "outputs.conf" in text
    ):
        what = f"forwards the indexed data to a bare outside address ({target})"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if "splunk" in text and _CLEAN_EVERYTHING.search(text):
        what = "deletes every indexed event (splunk clean without an index named)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    return found
