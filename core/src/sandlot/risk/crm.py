"""CRM and customer-support platforms: Salesforce, HubSpot, Zendesk, Intercom, Twilio, SendGrid (shared by
both analyzers).

What customers entrusted to a company lives here, and the harm is spelled in each platform's words:

* every record of an object deleted past the recycle bin (``hard_delete``, ``sf data delete bulk
  --hard-delete``), or deleted in bulk in a production org;
* people's choices overridden: opt-outs cleared (``HasOptedOutOfEmail = false``), unsubscribes bypassed
  (SendGrid's ``bypass_list_management``), text messages sent to every number of a customer list;
* administrators made: the System Administrator profile, permission sets with Modify All Data or Manage
  Users, Zendesk admins, HubSpot super admins;
* an org's defences lowered: login IP ranges deleted, MFA assignments removed, session locking, clickjack and
  CSRF protection or password policies turned off in SecuritySettings metadata;
* an org's refresh token printed (``sf org display --verbose``): whoever gets it is logged in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel

#: Command-line tools of CRM and messaging platforms this module reads.
CRM_TOOLS = frozenset({"sf", "sfdx", "twilio"})
#: Words that make whole-text CRM checks worth running (a cheap gate).
#: Parts of :data:`CRM_WORDS` (a scan for them is cheaper than the pattern's).
_CRM_WORD_PARTS = ("OptOut", "OptedOut", "DoNotCall", "_management", "System Administrator", "Permissions",
                   "LoginIpRange", "SecuritySettings", "hard_delete")  # fmt: skip
CRM_WORDS = re.compile(
    r"HasOptedOut|DoNotCall|EmailOptOut|bypass_(?:list|unsubscribe|spam)_management|System Administrator"
    r"|Permissions(?:ModifyAllData|ViewAllData|ManageUsers|AuthorApex)|LoginIpRange|SecuritySettings"
    r"|hard_delete",
)

_CONSENT_CLEARED = re.compile(
    r"\.\s*(?:HasOptedOutOf(?:Email|Fax)|DoNotCall|EmailOptOut)\s*=\s*false\b"  # Apex: c.HasOptedOutOfEmail = false
    r"|[\"'](?:HasOptedOutOf(?:Email|Fax)|DoNotCall|EmailOptOut)[\"']\s*:\s*(?:False|false|0)\b"  # a record dict
    r"|\b(?:HasOptedOutOf(?:Email|Fax)|DoNotCall)=false\b",  # sf data update --values "HasOptedOutOfEmail=false"
    re.IGNORECASE,
)
_UNSUBSCRIBES_BYPASSED = re.compile(
    r"[\"']?bypass_(?:list|unsubscribe|spam|bounce)_management[\"']?\s*[:=]\s*\{?\s*[\"']?enable[\"']?\s*[:=]\s*"
    r"(?:True|true|1)",
)
_ADMIN_PROFILE = re.compile(r"Name\s*=\s*\\?[\"']System Administrator\\?[\"']")
_USER_UPDATE = re.compile(r"\bUser\.update\(|--sobject\s+User\b|\bupdate\s+User\b|sobjects/User/", re.IGNORECASE)
_POWERFUL_PERMISSIONS = re.compile(r"Permissions(?:ModifyAllData|ViewAllData|ManageUsers|AuthorApex|ModifyMetadata)")
_ASSIGNMENT = re.compile(r"PermissionSetAssignment|assign", re.IGNORECASE)
_MFA_ASSIGNMENT_REMOVED = re.compile(r"MFA[\s\S]{0,600}PermissionSetAssignment\.delete\(", re.IGNORECASE)
_SECURITY_SETTINGS_OFF = re.compile(
    r"<(?:lockSessionsToIp|lockSessionsToDomain|enableClickjack\w*|enableCSRFOn\w+|enableXssProtection"
    r"|requireHttps|requireHttpOnly|enableContentSniffingProtection)>\s*false\s*<"
    r"|<expiration>\s*Never\s*<|<maxLoginAttempts>\s*NoLimit\s*<|<minimumPasswordLength>\s*[1-7]\s*<",
    re.IGNORECASE,
)


def crm_text_risks(text: str) -> list[OperationRisk]:
    """What a whole script or module does to a CRM org or its customers, judged on its text."""
    if not any(w in text for w in _CRM_WORD_PARTS) or not CRM_WORDS.search(text):
        return []
    found = []
    if _CONSENT_CLEARED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "clears people's opt-outs (email or call consent overwritten)"))  # fmt: skip
    if _UNSUBSCRIBES_BYPASSED.search(text):
        what = "mails people who unsubscribed (SendGrid's unsubscribe lists bypassed)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _ADMIN_PROFILE.search(text) and _USER_UPDATE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "gives a user Salesforce's System Administrator profile"))  # fmt: skip
    if _POWERFUL_PERMISSIONS.search(text) and _ASSIGNMENT.search(text):
        what = "grants Modify All Data, View All Data or Manage Users through a permission set"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if re.search(r"LoginIpRange\.delete\(", text) or _MFA_ASSIGNMENT_REMOVED.search(text):
        what = "removes login IP restrictions or MFA requirements from Salesforce users"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "SecuritySettings" in text and _SECURITY_SETTINGS_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "turns off an org's session, clickjack, CSRF or password protections"))  # fmt: skip
    if ".hard_delete(" in text:
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "hard-deletes CRM records in bulk (past the recycle bin)"))  # fmt: skip
    return found


def crm_command(name: str, args: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """One ``sf``/``sfdx``/``twilio`` command: records deleted in bulk, texts sent to a whole list."""
    joined = " ".join(args)
    if name in ("sf", "sfdx") and re.search(r"\bdata\s+delete\s+bulk\b|force:data:bulk:delete", joined):
        org = re.search(r"(?:--target-org|-o|-u|--targetusername)[= ](\S+)", joined)
        production = org is not None and "prod" in org.group(1).lower()
        if "--hard-delete" in args or production:
            where = "past the recycle bin" if "--hard-delete" in args else "in production"
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, f"{name} deletes records in bulk {where}")
    if name == "twilio" and args[:1] and "messages:create" in args[0] and repeated:
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, "twilio texts every number a list gives (bulk SMS)")
    if name == "twilio" and args[:1] and re.search(r":(?:remove|delete)$", args[0]) and repeated:
        what = "twilio removes every resource a listing gives (phone numbers released, recordings deleted)"
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
    return None


#: A phone number's call or text handler (where the platform sends its calls and messages).
NUMBER_ROUTE = re.compile(r"\b(?:VoiceUrl|voice_url|voiceCallbackValue|SmsUrl|sms_url|answer_url|answerUrl)\b")


def prints_org_secrets(name: str, args: Sequence[str]) -> bool:
    """``sf org display --verbose``: an org's access token and its refresh token (the sfdxAuthUrl)."""
    return name in ("sf", "sfdx") and "--verbose" in args and bool(
        re.search(r"\borg\s+display\b|force:org:display|org:display", " ".join(args))
    )
