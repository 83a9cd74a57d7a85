"""Password managers and single sign-on portals run in-house: Vaultwarden, Authentik and Authelia (their admin
panels and APIs, `ak shell`, configuration and user files), shared by both analyzers and judged on the whole text.

These hold every other login of an organisation, and decide who gets in anywhere. What needs a careful reviewer:

* open sign-ups without verification, the admin token switched off, an access policy dropped to `bypass` or from
  two factors to one, the MFA stage removed from the login flow;
* second factors stripped from every account, every account deleted, an account made owner of every organisation;
* an administrator given a password (or a password hash) written in the code, or a recovery link sent away;
* the audit events deleted, password-reset notices or every user's details forwarded to another host.

Secrets generated for a new install, backups of the data folder, an invitation to one user and a restart after an
upgrade are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_data, sends_elsewhere

_WORDS = GateWords("admin/config", "SIGNUPS_ALLOWED", "DISABLE_ADMIN_TOKEN", "/admin/users", "authentik", "akadmin",
                   "authelia", "Authelia", "default_policy", "policy:", "two_factor", "create_recovery_key",
                   "event_retention", "Event.objects", "AUTHENTIK", "flows/bindings", "ak shell")  # fmt: skip
#: Vaultwarden's settings: anyone may sign up unverified, or the admin panel needs no token.
_OPEN_VAULT = re.compile(r"[\"']?(?:disable_admin_token|DISABLE_ADMIN_TOKEN)[\"']?\s*[:=]\s*(?:True|true)\b"
                         r"|[\"']?(?:signups_verify|SIGNUPS_VERIFY)[\"']?\s*[:=]\s*(?:False|false)\b")  # fmt: skip
_SIGNUPS_OPEN = re.compile(r"[\"']?(?:signups_allowed|SIGNUPS_ALLOWED)[\"']?\s*[:=]\s*(?:True|true)\b")
#: Every account's second factor removed, or every account deleted, through Vaultwarden's admin API.
_ACCOUNT_ACTION = re.compile(r"/admin/users/\S*?/(remove-2fa|delete)\b")
_OWNER_TYPE = re.compile(r"user_type\\?[\"']?\s*:\s*0\b")  # (0: owner)
#: An access policy dropped: `default_policy: bypass`, two-factor rules turned into one-factor ones.
_BYPASS_POLICY = re.compile(r"policy[\"'\]]*\s*[:=]\s*[\"']?bypass\b|policy:\s*bypass/"
                            r"|default_policy\W{1,12}\\1\s*bypass\b")  # (sed's `s/^(default_policy:).*/\1 bypass/`)
_ONE_FACTOR = re.compile(r"(?:policy\W{1,12}|=\s*[\"'])one_factor\b")
#: The MFA stage unbound from Authentik's login flow.
_MFA_UNBOUND = re.compile(r"/flows/bindings/[\s\S]{0,400}?authenticator-validate|authenticator-validate[\s\S]{0,400}?"
                          r"\.delete\(\s*f?[\"'][^\"']*/flows/bindings/")  # fmt: skip
#: An administrator given a password (or a hash) spelled in the code: Authentik's API, blueprints and `ak shell`,
#: Authelia's users file.
_ADMIN_WITH_PASSWORD = re.compile(
    r"is_superuser[\s\S]{0,600}?/set_password/[\s\S]{0,120}?[\"']password[\"']\s*:\s*[\"'](?![{$])[^\"'\s]{6,}"
    r"|password:\s*(?![{$])[^\s\"']{6,}[\s\S]{0,200}?authentik Admins"
    r"|[\"'](?:akadmin|admin|administrator)[\"'][\s\S]{0,200}?\.set_password\(\s*[\"'][^\"'{]{6,}[\"']"
    r"|users_database\.yml[\s\S]{0,400}?\$argon2id?\$[\s\S]{0,300}?\badmins\b"
    r"|\$argon2id?\$[\s\S]{0,300}?\badmins\b[\s\S]{0,300}?users_database\.yml"
)
_AUDIT_ERASED = re.compile(r"\bEvent\.objects\.all\(\)\.delete\(\)|event_retention[\"']?\s*:\s*[\"']seconds=")
_RECOVERY_LINK = re.compile(r"\bcreate_recovery_key\b")
_RESET_NOTICES = re.compile(r"notification\.txt")
_USER_LIST = re.compile(r"/core/users/|/admin/users\b")
_PORTAL_HOSTS = re.compile(r"^(?:localhost|127\.)|auth|vault|sso|login|\.internal$")


def login_portal_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a password manager or a sign-on portal: opened, its second factors or policies
    dropped, accounts taken over or deleted, its records or reset links sent away."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _OPEN_VAULT.search(text) or (_SIGNUPS_OPEN.search(text) and "erif" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "opens the password manager: its admin panel without a token, or sign-ups "
                                   "without e-mail verification"))  # fmt: skip
    actions = {m.group(1) for m in _ACCOUNT_ACTION.finditer(text)}
    if actions and each_item(text):
        what = "strips two-factor login from" if "remove-2fa" in actions else "deletes"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, f"{what} every account the admin API lists"))
    if "/admin/users/org_type" in text and _OWNER_TYPE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "makes an account owner of organisations in the password manager"))
    if _BYPASS_POLICY.search(text) or ("two_factor" in text and _ONE_FACTOR.search(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "drops the portal's access policy to bypass or from two factors to one"))
    if _MFA_UNBOUND.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "removes the MFA stage from the portal's login flow (a password is enough)"))
    if _ADMIN_WITH_PASSWORD.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "gives an administrator of the portal a password (or hash) written in the code"))
    if _AUDIT_ERASED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes the portal's audit events or keeps them for seconds"))
    if (_RECOVERY_LINK.search(text) or _RESET_NOTICES.search(text)) and sends_data(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends account recovery or password-reset links to another host"))
    if _USER_LIST.search(text) and "email" in text and each_item(text) and sends_elsewhere(text, _PORTAL_HOSTS):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "reads every account's details from the portal and sends them to another host"))
    return found
