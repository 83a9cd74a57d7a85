"""DNS filters and resolvers you run yourself: Pi-hole, AdGuard Home and Technitium (their CLIs, settings files,
databases and APIs), shared by both analyzers and judged on the whole text.

Every lookup of a network passes through such a server: its query log is a record of what every person and
device visited, its upstreams and rewrites decide where every name leads. What needs a careful reviewer:

* the admin password blanked or the accounts removed (anyone on the network administers it);
* upstream resolvers or rewrites pointed at an outside address (every lookup, or the organisation's own names,
  answered by someone else);
* an allowlist subscribed from another host, an app or a whole configuration loaded from one;
* every zone deleted, filtering and query logging switched off and the logs cleared;
* an administrator added with a password written in the code;
* the query history, the client and lease tables or the accounts sent to another host;
* tens of thousands of rules inserted (every lookup is matched against each).

Rebuilding the block lists, allowing one domain, restarting DNS, internal upstreams and backups are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, sends_elsewhere, url_hosts

_WORDS = GateWords("pihole", "PIHOLE", "pi.hole", "gravity", "AdGuard", "adguard", "/control/", "5380", "technitium",
                   "Technitium", "setupVars")  # fmt: skip
_OWN_HOSTS = re.compile(r"^(?:pi\.hole|localhost)$|^(?:127|10|192\.168)\.|adguard|pihole|technitium|^dns\d*\.")
#: (a `WEBPASSWORD=` line rewritten by sed or `re.sub` is the whole-text check for blanked admin passwords)
_PASSWORD_BLANKED = re.compile(r"^\s*WEBPASSWORD=\s*$|\bpihole\s+-a\s+-p\s*(?:[\"']{2})?\s*$"
                               r"|[\"']users[\"']\]\s*=\s*\[\]|^\s*users:\s*\[\]", re.MULTILINE)  # fmt: skip
_UPSTREAMS = re.compile(r"upstream(?:s|_dns)\\?[\"']?\s*[:=]\s*\[([^\]]*)\]|\bdns\.upstreams\b[^\n]*")
_REWRITE_ANSWER = re.compile(r"/control/rewrite/add\b[\s\S]{0,400}?(?:[\"']answer[\"']\s*:\s*\w+|\banswer=)")
_IPV4 = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")
_FOREIGN_ALLOWLIST = re.compile(r"[\"']whitelist[\"']\s*:\s*True|whitelist=true|/filtering/add_url[\s\S]{0,200}?"
                                r"whitelist[\"']?\s*[:=]\s*(?:True|true)", re.IGNORECASE)  # fmt: skip
_APP_FROM_URL = re.compile(r"/apps/downloadAndInstall\b")
_CONFIG_IMPORT = re.compile(r"/teleporter\b[\s\S]{0,300}?files\s*=|\bpihole-FTL\s+--teleporter\s+\S+\.zip\b")
_ZONES_DELETED = re.compile(r"/zones/delete\b")
_ADMIN_GROUP = re.compile(r"memberOfGroups\s*=\s*[\"']?Administrators")
_LITERAL_PASS = re.compile(r"[\"']pass(?:word)?[\"']\s*:\s*[\"'][^\"'$]{6,}[\"']|\bpass=[^&\s\"'$]{6,}")
_LOGGING_OFF = re.compile(r"querylog_clear|stats_reset|pihole\s+(?:-f|flush)\b|DELETE\s+FROM\s+queries\b",
                          re.IGNORECASE)
_HISTORY = re.compile(r"pihole-FTL\.db|querylog|/network/devices|/dhcp/leases|\bleases\.json\b|AdGuardHome\.yaml"
                      r"|/queries\b")  # fmt: skip
#: A copy over ssh to a bare outside address (`scp leases.json sync@203.0.113.61:/in/`).
_COPIED_TO_ADDRESS = re.compile(r"\b(?:scp|rsync)\b[^\n]*(?:\\\n[^\n]*)*?@(\d{1,3}(?:\.\d{1,3}){3}):")
#: The admin password set to a value written in the code (`/api/user/changePassword?token=…&pass=admin`).
_PASSWORD_SET = re.compile(r"/user/changePassword\?[^\s\"']*\bpass=(?![$%{])[^&\s\"']+")
_MASS_RULES = re.compile(r"\brange\(\s*(\d[\d_]{4,})\s*\)")


def dns_filter_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a DNS filter: logins removed, lookups redirected, foreign lists or configuration
    loaded, zones deleted, logs cleared, history sent away, rules by the ten thousand."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _PASSWORD_BLANKED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "removes a DNS filter's admin password or accounts (anyone on the network "
                                   "administers it)"))  # fmt: skip
    upstreams = [a for m in _UPSTREAMS.finditer(text) for a in _IPV4.findall(m.group(0))]
    rewrites = [a for m in _REWRITE_ANSWER.finditer(text) for a in _IPV4.findall(text)] if _REWRITE_ANSWER.search(
        text) else []  # fmt: skip
    if any(outside_address(a) for a in [*upstreams, *rewrites]):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "points a network's lookups (its upstreams or its own host names) at an outside "
                                   "address"))  # fmt: skip
    hosts = url_hosts(text)
    foreign = [h for h in hosts if not _OWN_HOSTS.search(h) and h != "github.com"]
    if _FOREIGN_ALLOWLIST.search(text) and foreign:
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "subscribes a DNS filter to an allowlist another host controls"))
    if (_APP_FROM_URL.search(text) or _CONFIG_IMPORT.search(text)) and foreign:
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "loads a DNS server's app or whole configuration from another host"))
    if _ZONES_DELETED.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes every zone of a DNS server"))
    if _ADMIN_GROUP.search(text) and _LITERAL_PASS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "adds a DNS server administrator with a password written in the code"))
    if _LOGGING_OFF.search(text) and ("False" in text or "false" in text or "querylog_clear" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "clears a DNS filter's query log and statistics (no record of lookups)"))
    if _PASSWORD_SET.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "sets a DNS server's admin password to a value written in the code"))
    if _HISTORY.search(text) and (
        sends_elsewhere(text, _OWN_HOSTS) or any(outside_address(a) for a in _COPIED_TO_ADDRESS.findall(text))
    ):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends a DNS filter's query history, clients, leases or accounts to another host"))
    mass = max((int(n.replace("_", "")) for n in _MASS_RULES.findall(text)), default=0)
    if mass >= 10000 and ("domainlist" in text or "/control/filtering" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   f"inserts {mass} filter rules (every lookup is matched against each)"))
    return found
