"""Domains and their DNS: mail or name servers handed to another party, transfer locks lifted (shared by both
analyzers, judged on the whole text).

Whoever a domain's MX records name receives its mail (password resets included), and whoever its NS records
name answers for every host in it. Pointing either at a host of an unrelated domain, through Route 53, a
DNS provider's API, a registrar's API or ``nsupdate``, hands them over; well-known mail and DNS providers
are where such records ordinarily point. A registrar's transfer lock lifted, or the transfer (EPP) code
taken along with it, lets the domain itself be moved to another owner.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Spellings without which :data:`_MAIL_OR_NAME_RECORD` cannot match but by `update add … MX` (checked apart).
_RECORD_WORDS = GateWords("\"MX\"", "'MX'", "\"NS\"", "'NS'", "setCustom", "--type", "NameServers=")
_MAIL_OR_NAME_RECORD = re.compile(
    r"[\"']?\b[Tt]ype[\"']?\s*[:=]\s*[\"'](?:MX|NS)[\"']|Command=namecheap\.domains\.dns\.setCustom"
    r"|update\s+add\s+\S+\s+(?:\d+\s+)?(?:IN\s+)?(?:MX|NS)\b|--type[= ](?:MX|NS)\b|\bNameServers="
)
_CHANGE = re.compile(r"UPSERT|CREATE|update\s+add|setCustom|NameServers=|\.(?:post|put|patch|create)\(|-X\s*P", re.I)
#: The domain a record belongs to: its name, the zone, a registrar's SLD/TLD pair.
_OWN_NAME = re.compile(
    r"[\"']?\b(?:name|zone|domain|domain_?name)[\"']?\s*[:=]\s*[\"']([a-z0-9.-]+\.[a-z]{2,})\.?[\"']"
    r"|\bzone\s+([a-z0-9.-]+\.[a-z]{2,})\b|update\s+add\s+([a-z0-9.-]+\.[a-z]{2,})\.?\s",
    re.IGNORECASE,
)
_SLD_TLD = re.compile(r"\bSLD=([\w-]+)&TLD=([\w.]+)", re.IGNORECASE)
#: Hosts the records point at: an MX value (`10 mx.example.net.`), a content or value field, a name-server list.
_TARGET = re.compile(
    r"[\"'](?:\d{1,5}\s+)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)\.?[\"']"
    r"|NameServers=([a-z0-9.,-]+)|\b(?:MX|NS)\s+(?:\d{1,5}\s+)?([a-z0-9-]+(?:\.[a-z0-9-]+)+)\.?",
    re.IGNORECASE,
)
#: Registrable domains of the mail and DNS providers such records ordinarily name.
_PROVIDERS = frozenset(
    {"google.com", "googlemail.com", "outlook.com", "microsoft.com", "zoho.com", "zoho.eu", "protonmail.ch",
     "messagingengine.com", "mimecast.com", "pphosted.com", "mailgun.org", "sendgrid.net", "amazonses.com",
     "amazonaws.com", "awsdns-00.com", "cloudflare.com", "googledomains.com", "domaincontrol.com",
     "azure-dns.com", "azure-dns.net", "azure-dns.org", "azure-dns.info", "nsone.net", "dnsimple.com",
     "registrar-servers.com", "digitalocean.com", "linode.com", "ultradns.net", "dynect.net", "hetzner.com",
     "ovh.net", "gandi.net", "dnsmadeeasy.com", "name.com", "porkbun.com", "fastmail.com", "icloud.com"}
)  # fmt: skip
_SECOND_LEVEL = frozenset({"co", "com", "org", "net", "ac", "gov", "edu"})
_TRANSFER_UNLOCK = re.compile(
    r"disable-domain-transfer-lock|[\"']?(?:transfer_?lock|locked|registrar_?lock|RegistrarLock)[\"']?\s*[:=]\s*"
    r"(?:False|false|0|[\"']?(?:off|disabled?)[\"']?)\b|/lock\b[\s\S]{0,120}?[\"']locked[\"']\s*:\s*(?:False|false)",
    re.IGNORECASE,
)
_TRANSFER_CODE = re.compile(r"auth_?code|authcode|epp_?code|transfer_?code|get-domain-auth-code", re.IGNORECASE)


def registrable(host: str) -> str:
    """The registrable domain of ``host`` (``mail.example.co.uk`` → ``example.co.uk``)."""
    labels = host.lower().rstrip(".").split(".")
    if len(labels) >= 3 and labels[-2] in _SECOND_LEVEL and len(labels[-1]) == 2:
        return ".".join(labels[-3:])
    if labels[-2:-1] and labels[-2].startswith("awsdns-"):
        return "awsdns-00.com"
    return ".".join(labels[-2:])


def _handed_over(code: str) -> list[str]:
    """Hosts of other parties that MX or NS records in ``code`` are set to."""
    own = {registrable(d) for m in _OWN_NAME.finditer(code) for d in m.groups() if d}
    own |= {registrable(f"{sld}.{tld}") for sld, tld in _SLD_TLD.findall(code)}
    if not own:
        return []  # whose domain it is cannot be told
    targets = []
    for match in _TARGET.finditer(code):
        single, listed, spelled = match.groups()
        for host in listed.split(",") if listed else [single or spelled or ""]:
            if "." in host and not host.replace(".", "").isdigit() and re.search(r"[a-z]", host.split(".")[-1], re.I):
                targets.append(host)
    return [t for t in targets if registrable(t) not in own and registrable(t) not in _PROVIDERS and "." in t]


def domain_text_risks(code: str) -> list[OperationRisk]:
    """A domain's mail or name servers pointed at another party, or the domain unlocked for transfer."""
    found = []
    records = _RECORD_WORDS.any_in(code) or ("update" in code and (" MX" in code or " NS" in code))
    if records and _MAIL_OR_NAME_RECORD.search(code):
        others = _handed_over(code) if _CHANGE.search(code) else []
        if others:
            found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                       f"points the domain's mail or name servers at another party's host "
                                       f"({others[0]}): its mail or every name in it goes there"))  # fmt: skip
    if "lock" in code and (
        "disable-domain-transfer-lock" in code or (_TRANSFER_UNLOCK.search(code) and _TRANSFER_CODE.search(code))
    ):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "unlocks the domain for transfer (whoever holds its transfer code can move it "
                                   "to another owner)"))  # fmt: skip
    return found
