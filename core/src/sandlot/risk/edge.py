"""CDNs and web application firewalls: Cloudflare, Fastly, Akamai configured through their APIs and CLIs
(shared by both analyzers, judged on the whole text).

The edge stands in front of a site: it filters attacks, limits abusive clients, terminates TLS and decides what
every visitor receives. What needs a careful reviewer:

* WAF, rate-limit or bot rulesets emptied, or skipped for some sources; bot protection switched off;
* TLS weakened (flexible SSL, TLS 1.0, authenticated origin pulls off);
* IP blocklists emptied; the whole cache purged without end;
* a third-party script injected into every page, the whole site redirected to another domain;
* request logs with cookies and headers pushed to a destination, tokens with every write permission;
* the origin pointed at a bare outside address, Akamai's attack groups set to no action or token authentication
  stripped, the account's Admin role granted.

Targeted purges, log-only rules, plans and dry runs are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.domains import registrable
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_SECURITY_PHASE = r"http_ratelimit|http_request_firewall_managed|http_request_firewall_custom|http_request_sbfm"
_RULESET_EMPTIED = re.compile(rf"(?:{_SECURITY_PHASE})[\s\S]{{0,400}}[\"']?rules[\"']?\s*:\s*\[\s*\]")
_SKIPS_PROTECTION = re.compile(
    rf"[\"']action[\"']\s*:\s*[\"']skip[\"'][\s\S]{{0,400}}(?:{_SECURITY_PHASE}|[\"'](?:waf|rateLimit|bic)[\"'])"
)
_BOTS_OFF = re.compile(r"fight_mode[\"']?\s*[:=]\s*(?:False|false)")
_TLS_WEAKENED = re.compile(
    r"[\"'](?:tls_client_auth|always_use_https)[\"']\s*[,:]\s*(?:\{\s*[\"']value[\"']\s*:\s*)?[\"']off[\"']"
    r"|[\"']ssl[\"']\s*[,:]\s*(?:\{\s*[\"']value[\"']\s*:\s*)?[\"'](?:flexible|off)[\"']"
    r"|[\"']min_tls_version[\"']\s*[,:]\s*(?:\{\s*[\"']value[\"']\s*:\s*)?[\"']1\.0[\"']"
)
_PURGE_EVERYTHING = re.compile(r"purge_everything|/ccu/v3/(?:delete|invalidate)/")
#: The origin a CDN fetches from set to a bare address (`"OriginUrl": "http://203.0.113.50"`, Akamai's origin).
_BARE_ORIGIN = re.compile(
    r"(?:OriginUrl|originServer|[\"']hostname[\"']|/hostname[\"']\s*,\s*[\"']value[\"']\s*:)\W{1,6}(?:https?://)?"
    r"(\d{1,3}(?:\.\d{1,3}){3})\b",
    re.IGNORECASE,
)
#: Akamai's WAF attack groups set to take no action, token authentication stripped from a property.
_AKAMAI_PROTECTION_OFF = re.compile(
    r"attack-groups[\s\S]{0,400}?[\"']action[\"']\s*:\s*[\"']none[\"']"
    r"|verifyTokenAuthorization[\s\S]{0,200}?(?:!=|select|del\(|remove)|(?:!=|select|del\(|remove)[\s\S]{0,200}?"
    r"verifyTokenAuthorization"
)
_ADMIN_GRANT = re.compile(r"auth-grants[\s\S]{0,300}?[\"']roleName[\"']\s*:\s*[\"']Admin|[\"']roleName[\"']\s*:\s*"
                          r"[\"']Admin[\"'][\s\S]{0,300}?auth-grants")  # fmt: skip
_ENDLESS = re.compile(r"\bwhile\s+(?:True|true|:|1)\b|itertools\.cycle\(")
_BLOCKLIST_EMPTIED = re.compile(
    r"network-list[\s\S]{0,600}[\"']list[\"']\s*:\s*\[\s*\]|[\"']list[\"']\s*:\s*\[\s*\][\s\S]{0,600}network-list"
    r"|(?:while\s+read|for\s+\w+\s+in)\b[\s\S]{0,300}acl-entry\s+delete\b"
)
_INJECTED_SCRIPT = re.compile(r"HTMLRewriter[\s\S]{0,600}<script\s+src=[\"']https?://")
_LOGGED_SECRETS = re.compile(r"[\"'](?:Cookies|RequestHeaders)[\"']")
_EVERY_WRITE_PERMISSION = re.compile(
    r"permission_groups[\s\S]{0,400}(?:endswith\(\s*\(?[\"'](?:Write|Edit)|com\.cloudflare\.api\.account\.\*)"
    r"|com\.cloudflare\.api\.account\.\*[\s\S]{0,400}permission_groups"
)
_FORWARD_SITE = re.compile(
    r"forwarding_url[\s\S]{0,400}?[\"']url[\"']\s*:\s*[\"']https?://(?P<to>[\w.-]+)"
)
_WHOLE_SITE = re.compile(r"[\"']value[\"']\s*:\s*[\"']\*(?P<from>[\w.-]+\.[a-z]{2,})/\*[\"']")
_EDGE_WORDS = GateWords("rulesets", "fight_mode", "tls_client_auth", "min_tls_version", "purge_everything",
                        "network-list", "acl-entry", "HTMLRewriter", "logpush", "Logpush", "permission_groups",
                        "forwarding_url", '"ssl"', "'ssl'", "/ccu/", "OriginUrl", "originServer", "hostname",
                        "attack-groups", "verifyTokenAuthorization", "auth-grants")  # fmt: skip


def edge_risks(text: str) -> list[OperationRisk]:
    """CDN and WAF configuration that removes protections, injects code, redirects or leaks a site's traffic."""
    if not _EDGE_WORDS.any_in(text):
        return []
    found = []
    if _RULESET_EMPTIED.search(text) or _SKIPS_PROTECTION.search(text) or _BOTS_OFF.search(text):
        what = "empties or bypasses a site's WAF, rate-limit or bot rules at the CDN"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _TLS_WEAKENED.search(text):
        what = "weakens a site's TLS at the CDN (flexible SSL, TLS 1.0, origin authentication off)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _PURGE_EVERYTHING.search(text) and _ENDLESS.search(text):
        what = "purges a CDN's whole cache without end (every request falls through to the origin)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if _BLOCKLIST_EMPTIED.search(text):
        what = "empties a CDN's IP blocklist (every blocked address gets through)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "HTMLRewriter" in text and _INJECTED_SCRIPT.search(text):
        what = "injects a third-party script into every page the CDN serves"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if "logpush" in text.lower() and _LOGGED_SECRETS.search(text):
        what = "pushes request logs with visitors' cookies or headers to a destination (their sessions leak)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _EVERY_WRITE_PERMISSION.search(text):
        what = "creates an API token with every write permission of the account"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    origin = next((a for a in _BARE_ORIGIN.findall(text) if outside_address(a)), None)
    if origin is not None and ("PRODUCTION" in text or "OriginUrl" in text or "VerifyOriginSSL" in text):
        what = f"points the CDN's origin at a bare outside address ({origin}): every visitor gets what it serves"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _AKAMAI_PROTECTION_OFF.search(text):
        what = "sets the WAF's attack groups to take no action, or strips token authentication from a property"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "auth-grants" in text and _ADMIN_GRANT.search(text):
        what = "grants an identity the Admin role on the CDN account's top-level group"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    whole, forward = _WHOLE_SITE.search(text), _FORWARD_SITE.search(text)
    if whole and forward and registrable(whole["from"]) != registrable(forward["to"]):
        what = f"redirects the whole site to another domain ({forward['to']})"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    return found
