"""Identities of machines and service accounts: Kerberos keytabs, SSH certificate authorities, workload identity
federation (shared by both analyzers, judged on the whole text).

A machine's identity is a key that nobody types in: whoever holds it is the machine, with no second factor. What
needs a careful reviewer:

* Kerberos keys exported from the KDC without re-keying (``ktadd -norandkey``), or krbtgt's and kadmin's keys at
  all: the keytab logs in as that principal, and krbtgt's forges any ticket in the realm;
* an SSH certificate role (Vault's SSH secrets engine) that signs certificates for any user, root included;
* a cloud role trusting GitHub's OIDC tokens with no condition on the subject: every repository on GitHub can take
  it.

A host's own keytab written by ``ktadd`` (which gives the principal new keys), a role limited to named users, and a
trust policy pinned to one repository are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: A keytab export (`ktadd`, `xst`) that keeps the principal's keys (`-norandkey`) or names krbtgt or kadmin.
_KEYTAB_EXPORT = re.compile(r"\b(?:ktadd|xst)\b[^\n]{0,200}?(?:\s-norandkey\b|\bkrbtgt/|\bkadmin/)")
#: An SSH signing role for every user name (`allowed_users="*"`, `allowed_users=*`).
_ANY_USER = re.compile(r"\ballowed_users[\"']?\s*[=:]\s*[\"']?\*[\"',\s]")
_SSH_ROLE = re.compile(r"\ballow_user_certificates\b|\bkey_type[\"']?\s*[=:]\s*[\"']?ca\b")
#: GitHub Actions' OIDC issuer trusted through web identity.
_GITHUB_OIDC_TRUST = re.compile(r"token\.actions\.githubusercontent\.com[\s\S]{0,600}AssumeRoleWithWebIdentity"
                                r"|AssumeRoleWithWebIdentity[\s\S]{0,600}token\.actions\.githubusercontent\.com")
_SUBJECT_CONDITION = re.compile(r"githubusercontent\.com:sub\b|[\"']sub[\"']\s*:")
_WORDS = GateWords("ktadd", "xst", "allowed_users", "AssumeRoleWithWebIdentity")


def machine_identity_risks(text: str) -> list[OperationRisk]:
    """Machine identities exported, signed for anyone, or trusted from anywhere."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _KEYTAB_EXPORT.search(text):
        what = ("exports Kerberos keys into a keytab without re-keying, or krbtgt's or kadmin's (whoever holds it is "
                "that principal; krbtgt's forges any ticket)")
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _ANY_USER.search(text) and _SSH_ROLE.search(text):
        what = "configures an SSH certificate role that signs certificates for any user name, root included"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _GITHUB_OIDC_TRUST.search(text) and not _SUBJECT_CONDITION.search(text):
        what = ("trusts GitHub's OIDC tokens with no condition on the subject (any repository on GitHub can take the "
                "role)")
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found
