"""SharePoint, OneDrive and the Microsoft Graph driven by PnP PowerShell, the SharePoint Online module, the CLI for
Microsoft 365 (``m365``), Office365-REST-Python-Client or plain Graph requests (shared by both analyzers, judged
on the whole text).

A tenant's files are the organisation's documents; who can read, keep or restore them is set here. What needs a
careful reviewer:

* site collections deleted past the recycle bin, recycle bins emptied, every item of a site's libraries deleted,
  version history removed or switched off;
* access handed out across the tenant: an application granted write or ownership on every site, a guest made
  site collection admin, someone else's OneDrive given a new owner, Graph application roles that manage roles,
  applications or every site assigned, tenant-wide admin consent granted;
* the tenant opened: anonymous edit links as the default, links that never expire, IP enforcement or
  unmanaged-device limits or modern-authentication-only switched off;
* the tenant searched for files of passwords and keys (what is found is sent on);
* a web server handing out the tenant's access tokens to whoever asks.

Backups of a library, one link removed, reports on sharing and storage are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

#: Words without which no rule here can match.
_WORDS = GateWords("PnP", "SPO", "spo ", "recycle", "Recycle", "sharepoint", "SharePoint", "graph.microsoft.com",
                   "appRoleAssignments", "oauth2PermissionGrants", "get_token")  # fmt: skip
_SITES_DELETED = re.compile(r"\bRemove-(?:PnPTenantSite|SPOSite|PnPSite)\b[^\n]*-SkipRecycleBin|\bspo\s+site\s+remove\b"
                            r"[^\n]*--skipRecycleBin|\bRemove-SPODeletedSite\b", re.IGNORECASE)
_BINS_EMPTIED = re.compile(
    r"\bClear-(?:PnPTenantRecycleBinItem|PnPRecycleBinItem|SPODeletedSite)\b|\brecycle_?bin\.delete_all\(\)"
    r"|\bspo\s+(?:site\s+)?recyclebinitem\s+clear\b|\bRemove-PnPFileFromSite\b[^\n]*-Recycle:?\$?false",
    re.IGNORECASE,
)
_VERSIONS_GONE = re.compile(r"\bRemove-PnPFileVersion\b[^\n]*-All\b|\bversions\.delete_all\(\)|-EnableVersioning\s+"
                            r"\$?false\b|[\"']?EnableVersioning[\"']?\s*[:=]\s*(?:False|false)\b", re.IGNORECASE)
_ITEMS_DELETED = re.compile(r"\.delete_object\(\)|\bRemove-PnPListItem\b[^\n]*-Force")
_SITE_GRANT = re.compile(r"[\"']roles[\"']\s*:\s*\[\s*[\"'](?:write|owner|fullcontrol)[\"']", re.IGNORECASE)
_GUEST_ADMIN = re.compile(
    r"(?:site\s+admin\s+add|Add-PnPSiteCollectionAdmin|Set-SPOUser\b[^\n]*-IsSiteCollectionAdmin\s+\$?true"
    r"|Set-(?:PnP|SPO)TenantSite\b[^\n]*-Owners?)\b[^\n]*(?:#EXT#|outlook\.com|gmail\.com|hotmail\.com|yahoo\.)",
    re.IGNORECASE,
)
_ONEDRIVE_OWNER = re.compile(r"(?:Set-(?:PnP|SPO)TenantSite|Add-PnPSiteCollectionAdmin|Set-SPOUser|site\s+admin\s+add)"
                             r"\b[^\n]*-my\.sharepoint\.com/personal/", re.IGNORECASE)
_POWERFUL_GRAPH_ROLES = re.compile(r"RoleManagement\.ReadWrite\.Directory|Application\.ReadWrite\.All|AppRoleAssignment"
                                   r"\.ReadWrite\.All|Sites\.FullControl\.All|Directory\.ReadWrite\.All")
_ADMIN_CONSENT = re.compile(r"oauth2PermissionGrants[\s\S]{0,400}?AllPrincipals|AllPrincipals[\s\S]{0,400}?"
                            r"oauth2PermissionGrants|/adminconsent\b")
_TENANT_OPENED = re.compile(
    r"-DefaultSharingLinkType\s+AnonymousAccess\b|-RequireAnonymousLinksExpireInDays\s+0\b"
    r"|-IPAddressEnforcement\s+\$?false\b|-ConditionalAccessPolicy\s+AllowFullAccess\b"
    r"|-LegacyAuthProtocolsEnabled\s+\$?true\b"
    r"|-SharingCapability\s+ExternalUserAndGuestSharing\b[^\n]*-DefaultLinkPermission\s+Edit\b",
    re.IGNORECASE,
)
_SECRET_WORDS = r"(?:passw|kdbx|secret|credential|connection string|\.pem\b|\.key\b)"
_SECRET_SEARCH = re.compile(
    r"(?:search/query|Submit-PnPSearchQuery|Find-PnPFile)[\s\S]{0,400}?" + _SECRET_WORDS
    + r"|queryString[\"']?\s*:\s*[\"'][^\"']*" + _SECRET_WORDS + r"[\s\S]{0,400}?search/query",
    re.IGNORECASE,
)
_TOKEN_SERVER = re.compile(r"@app\.(?:route|get|post)\([\s\S]{0,600}?\.get_token\(|\.get_token\([\s\S]{0,600}?"
                           r"@app\.(?:route|get|post)\(")
_EVERYWHERE = re.compile(r"host\s*=\s*[\"']0\.0\.0\.0[\"']")


def sharepoint_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Microsoft 365 tenant's sites, files and access."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _SITES_DELETED.search(text) or _BINS_EMPTIED.search(text):
        what = "deletes site collections past the recycle bin or empties recycle bins (the files cannot be restored)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _VERSIONS_GONE.search(text):
        what = "removes files' version history or switches versioning off (earlier versions are gone)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _ITEMS_DELETED.search(text) and any_loop(text) and ("lists" in text or "Get-PnPList" in text):
        what = "deletes every item of a site's lists and libraries"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if ("/permissions" in text and _SITE_GRANT.search(text) and any_loop(text) and "getAllSites" in text) or (
        _GUEST_ADMIN.search(text)
    ):
        what = "gives an application or a guest write or admin rights on every site of the tenant"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _ONEDRIVE_OWNER.search(text):
        what = "makes an account an owner of someone else's OneDrive (every file of theirs)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("appRoleAssignments" in text and _POWERFUL_GRAPH_ROLES.search(text)) or _ADMIN_CONSENT.search(text):
        what = "grants an application tenant-wide Graph permissions (roles, applications, every site) or admin consent"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _TENANT_OPENED.search(text):
        what = "opens the tenant: anonymous edit links by default, links that never expire, or IP and device limits off"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _SECRET_SEARCH.search(text) and ("/content" in text or "downloadUrl" in text or "Get-PnPFile" in text):
        what = "searches the tenant's files for passwords and keys and downloads what it finds"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _TOKEN_SERVER.search(text) and _EVERYWHERE.search(text):
        what = "serves the tenant's access tokens to whoever asks a web server on every address"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found
