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
* an org's refresh token printed (``sf org display --verbose``): whoever gets it is logged in;
* Salesforce's own destroyers: Bulk API ``hardDelete`` jobs, ``Database.emptyRecycleBin``, destructive deploys
  with ``--purge-on-delete``, managed packages uninstalled from production, sandboxes deleted in a loop or
  created without end, every record of a listing deleted one by one;
* Salesforce's doors: a connected app's OAuth callback at a bare outside address or pre-approved with full
  scope and IP restrictions bypassed, remote sites with protocol security off, a known password set on a user,
  every administrator's login frozen, Apex downloaded and run anonymously, CLI plugins from a bare address.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Command-line tools of CRM and messaging platforms this module reads.
CRM_TOOLS = frozenset({"sf", "sfdx", "twilio"})
#: Words that make whole-text CRM checks worth running (a cheap gate).
#: Parts of :data:`CRM_WORDS` (a scan for them is cheaper than the pattern's).
_CRM_WORD_PARTS = GateWords("OptOut", "OptedOut", "DoNotCall", "_management", "System Administrator", "Permissions",
                            "LoginIpRange", "SecuritySettings", "hard_delete", "hardDelete", "emptyRecycleBin",
                            "destructiveChanges", "callbackUrl", "disableProtocolSecurity", "/password", "IsFrozen",
                            "executeAnonymous", "apex run", "setEndpoint")  # fmt: skip
CRM_WORDS = re.compile(
    r"HasOptedOut|DoNotCall|EmailOptOut|bypass_(?:list|unsubscribe|spam)_management|System Administrator"
    r"|Permissions|LoginIpRange|SecuritySettings|hard_?[dD]elete|emptyRecycleBin|destructiveChanges|callbackUrl"
    r"|disableProtocolSecurity|sobjects/User/|IsFrozen|executeAnonymous|apex\s+run|setEndpoint",
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
_USER_UPDATE = re.compile(r"\bUser\.update\(|--sobject\s+User\b|\bupdate\s+User\b|sobjects/User\b|\.ProfileId\s*=\s*\w",
                          re.IGNORECASE)
_POWERFUL_PERMISSIONS = re.compile(
    r"Permissions(?:ModifyAllData|ViewAllData|ManageUsers|AuthorApex|ModifyMetadata)"
    # `{"Permissions" + f: True for f in flags}` over a list naming them
    r"|[\"']Permissions[\"']\s*\+[\s\S]{0,400}?[\"'](?:ModifyAllData|ViewAllData|ManageUsers|AuthorApex)[\"']"
    r"|[\"'](?:ModifyAllData|ViewAllData|ManageUsers|AuthorApex)[\"'][\s\S]{0,400}?[\"']Permissions[\"']\s*\+"
)
_HARD_DELETE = re.compile(
    r"[\"']operation[\"']\s*:\s*[\"']hardDelete[\"']|\bDatabase\.emptyRecycleBin\(|\.hard_delete\("
)
_PURGING_DEPLOY = re.compile(r"--purge-on-delete|purgeOnDelete[\"']?\s*[:=]\s*(?:True|true)")
_OAUTH_CALLBACK = re.compile(r"<callbackUrl>\s*https?://(\d{1,3}(?:\.\d{1,3}){3})")
_OPEN_CONNECTED_APP = re.compile(r"<ipRelaxation>\s*BYPASS\s*<[\s\S]*<scopes>\s*Full\s*<|<scopes>\s*Full\s*<[\s\S]*"
                                 r"<ipRelaxation>\s*BYPASS\s*<")
_PROTOCOL_SECURITY_OFF = re.compile(r"disableProtocolSecurity[\"'>]?\s*[:=>]?\s*[\"']?(?:True|true)\b")
_KNOWN_PASSWORD = re.compile(
    r"sobjects/User/[^\s\"']*/password[\s\S]{0,200}?NewPassword[\"']?\s*:\s*[\"'][^\"'$]{4,}[\"']"
    r"|\bSystem\.setPassword\(\s*\w+\s*,\s*'[^']{4,}'"
)
_FROZEN = re.compile(r"[\"']?IsFrozen[\"']?\s*[:=]\s*(?:True|true)\b")
#: Apex calling out to a bare address with people's records in the body.
_APEX_CALLOUT = re.compile(r"\.setEndpoint\(\s*'https?://(\d{1,3}(?:\.\d{1,3}){3})")
_PEOPLE_FIELDS = re.compile(r"\bSELECT\b[^\]]*\b(?:Email|Phone|MobilePhone|Birthdate|SSN\w*)\b", re.IGNORECASE)
_ANONYMOUS_APEX = re.compile(r"executeAnonymous|\bapex\s+run\b")
_FETCHED_CODE = re.compile(r"(?:urlopen|requests\.get|httpx\.get|\bcurl\b|\bwget\b)[^\n]*https?://"
                           r"(?:gist\.|raw\.|pastebin|[^\s\"'/]*\.(?:githubusercontent|gitlab)\.)")
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
    if not _CRM_WORD_PARTS.any_in(text) or not CRM_WORDS.search(text):
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
    if _HARD_DELETE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "hard-deletes CRM records in bulk (past the recycle bin)"))  # fmt: skip
    if "destructiveChanges" in text and _PURGING_DEPLOY.search(text):
        what = "deploys destructive changes with purge-on-delete (objects, their fields and records go for good)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    callbacks = [ip for ip in _OAUTH_CALLBACK.findall(text) if outside_address(ip)]
    if callbacks or _OPEN_CONNECTED_APP.search(text):
        what = (f"points a connected app's OAuth callback at a bare outside address ({callbacks[0]}): tokens go there"
                if callbacks else "deploys a connected app with full scope and IP restrictions bypassed")
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _PROTOCOL_SECURITY_OFF.search(text):
        what = "lets the org call out over plain HTTP (a remote site with protocol security off)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _KNOWN_PASSWORD.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "sets a known password on a Salesforce user"))
    if _FROZEN.search(text) and each_item(text):
        what = "freezes the login of every user a listing gives (administrators locked out)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if any(outside_address(ip) for ip in _APEX_CALLOUT.findall(text)) and _PEOPLE_FIELDS.search(text):
        what = "deploys Apex that sends people's records (emails, phones) to a bare outside address"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _ANONYMOUS_APEX.search(text) and _FETCHED_CODE.search(text):
        what = "runs Apex downloaded from the network as anonymous Apex in an org"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE, what))
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
    if name in ("sf", "sfdx"):
        risk = _salesforce_command(args, joined, repeated=repeated)
        if risk is not None:
            return risk
    if name == "twilio" and args[:1] and "messages:create" in args[0] and repeated:
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, "twilio texts every number a list gives (bulk SMS)")
    if name == "twilio" and args[:1] and re.search(r":(?:remove|delete)$", args[0]) and repeated:
        what = "twilio removes every resource a listing gives (phone numbers released, recordings deleted)"
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
    return None


def _salesforce_command(args: Sequence[str], joined: str, *, repeated: bool) -> OperationRisk | None:
    """``sf`` commands that delete packages, sandboxes and records or install plugins from anywhere."""
    org = re.search(r"(?:--target-org|-o|-u|--targetusername)[= ](\S+)", joined)
    production = org is not None and "prod" in org.group(1).lower()
    if re.search(r"\bpackage\s+uninstall\b|force:package:uninstall", joined) and (production or org is None):
        what = "uninstalls a managed package from production (its objects and their records are deleted)"
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
    if re.search(r"\borg\s+delete\s+sandbox\b", joined):
        return OperationRisk(RiskLevel.HIGH if repeated else RiskLevel.MEDIUM, Category.FILESYSTEM,
                             "sf deletes sandboxes" + (" (every one a list gives)" if repeated else ""))  # fmt: skip
    if re.search(r"\borg\s+create\s+sandbox\b", joined) and repeated:
        return OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                             "sf creates sandbox after sandbox (each a copy of production)")  # fmt: skip
    if re.search(r"\bdata\s+delete\s+record\b|force:data:record:delete", joined) and repeated:
        # (a scratch org's test records cleaned up is routine; production's records one by one are not)
        return OperationRisk(RiskLevel.HIGH if production else RiskLevel.MEDIUM, Category.FILESYSTEM,
                             "sf deletes every record a listing gives" + (" in production" if production else ""))
    plugin = re.search(r"\bplugins\s+install\s+(?:\S+\s+)*?(https?)://([\w.-]+)", joined)
    if plugin is not None and (plugin[1] == "http" or outside_address(plugin[2])):
        what = "installs a CLI plugin from a plain-HTTP or bare outside address (its code runs with the org's login)"
        return OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)
    return None


#: A phone number's call or text handler (where the platform sends its calls and messages).
NUMBER_ROUTE = re.compile(r"\b(?:VoiceUrl|voice_url|voiceCallbackValue|SmsUrl|sms_url|answer_url|answerUrl)\b")


def prints_org_secrets(name: str, args: Sequence[str]) -> bool:
    """``sf org display --verbose``: an org's access token and its refresh token (the sfdxAuthUrl)."""
    return name in ("sf", "sfdx") and "--verbose" in args and bool(
        re.search(r"\borg\s+display\b|force:org:display|org:display", " ".join(args))
    )
