"""Fediverse servers: Mastodon (``tootctl``, its admin API through Mastodon.py or REST) and Misskey (its admin API),
shared by both analyzers and judged on the whole text.

An instance holds its members' accounts, private messages and sign-in records, and every other server it federates
with trusts what it says. What needs a careful reviewer:

* ``tootctl self-destruct``: every federated server is told to delete the instance's accounts and posts;
* a new Owner account, or an administrator's second factor switched off with a password reset;
* every local account suspended in a loop, or the instance's federation blocks emptied;
* members' e-mail addresses and sign-in IPs read from the admin API and sent to another host.

One account's second factor reset on request, moderation of one account, media clean-ups and an admin account made
by the person running the script are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_elsewhere

_WORDS = GateWords("tootctl", "admin_account", "/api/v1/admin/", "/api/admin/")
_SELF_DESTRUCT = re.compile(r"\btootctl\b[^\n]*\bself-destruct\b")
#: (a command line, or its words as a program's argument list: `tootctl("accounts", "create", …)`)
_NEW_OWNER = re.compile(r"\baccounts[\"',\s]+create\b[\s\S]{0,300}?--role[\"',\s=]+Owner\b")
_TWO_FACTOR_OFF = re.compile(r"\baccounts[\"',\s]+modify\b[^\n]*--disable-2fa\b")
_TAKEN_OVER = re.compile(r"--reset-password\b|\bOwner\b|\badmin\b", re.IGNORECASE)
#: Accounts suspended or disabled through the admin API (Mastodon.py's `admin_account_moderate`, the REST action).
_MODERATED = re.compile(r"\badmin_account_moderate\([^)]*action\s*=\s*[\"'](?:suspend|disable|silence)[\"']"
                        r"|/api/v1/admin/accounts/[^\s\"']*/action[\s\S]{0,200}?[\"']type[\"']\s*:\s*[\"']suspend")
#: Members' addresses and sign-in IPs read from the admin API.
_MEMBER_RECORDS = re.compile(r"\badmin_accounts(?:_v2)?\(|/api/v1/admin/accounts\b|/api/admin/show-users\b")
_CONTACT_FIELDS = re.compile(r"[\"'](?:email|ips?|ip_address|last_sign_in_ip)[\"']")
#: Misskey: the administrator role handed out, the instance's blocks emptied.
_ADMIN_ROLE = re.compile(r"/api/admin/roles/assign\b")
_BLOCKS_EMPTIED = re.compile(r"/api/admin/update-meta\b[\s\S]{0,400}?[\"']blockedHosts[\"']\s*:\s*\[\s*\]")
#: The instance's own address: where its admin API is reached.
_INSTANCE_URL = re.compile(r"api_base_url\s*=\s*[\"']https?://([\w.-]+)|https?://([\w.-]+)[^\s\"']*/api/(?:v\d/)?admin/")


def fediverse_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Mastodon or Misskey instance: destroyed, taken over, its members suspended or their
    records sent away, its defences removed."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _SELF_DESTRUCT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "runs tootctl self-destruct (every federated server deletes the instance's "
                                   "accounts and posts)"))  # fmt: skip
    if "tootctl" in text and _NEW_OWNER.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "creates a new Owner account on the instance (full control of it)"))
    if "tootctl" in text and _TWO_FACTOR_OFF.search(text) and _TAKEN_OVER.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "switches off an administrator's second factor, or resets the password with it "
                                   "(the account taken over)"))  # fmt: skip
    if _MODERATED.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "suspends or disables every account the admin API lists"))
    if _MEMBER_RECORDS.search(text) and _CONTACT_FIELDS.search(text):
        own = {host for pair in _INSTANCE_URL.findall(text) for host in pair if host}
        own_hosts = re.compile("|".join(map(re.escape, own)) if own else r"^(?:localhost|127\.)")
        if sends_elsewhere(text, own_hosts):
            found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                       "reads members' e-mail addresses or sign-in IPs from the admin API and sends "
                                       "them to another host"))  # fmt: skip
    if _ADMIN_ROLE.search(text) and "isAdministrator" in text:
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "gives an account the instance's administrator role"))
    if _BLOCKS_EMPTIED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "empties the instance's list of blocked servers (every blocked server federates "
                                   "again)"))  # fmt: skip
    return found
