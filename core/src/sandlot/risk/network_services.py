"""DNS, DHCP and IP address management: Infoblox, BlueCat, NetBox, BIND, Kea and ISC DHCP (shared by both
analyzers, judged on the whole text).

What needs a careful reviewer:

* a name pointed at a bare outside address (a host or A record rewritten: logins and mail go to whoever holds it),
  every client handed an outside resolver (DHCP option 6) or an outside proxy (a WPAD or PAC file's ``PROXY``),
  recursion or zone transfers opened to any address;
* every zone deleted with its files (``rndc delzone -clean`` over a listing), every address, prefix or VLAN of
  NetBox deleted in bulk;
* a DHCP pool exhausted on purpose: fixed addresses for every host of a network, a MAC address changed again and
  again to take lease after lease;
* administrators created (Infoblox's admin group, BlueCat's ``userType=ADMIN``); NetBox's API tokens read out.

Records pointed at the organisation's own addresses, one zone reloaded after a check, reservations for named hosts
and ping sweeps of a subnet to reconcile it are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_data

#: The proxies a proxy auto-config script returns (`return "PROXY 203.0.113.88:8080; DIRECT"`).
_PAC_PROXIES = re.compile(r"\b(?:PROXY|HTTPS|SOCKS5?)\s+(\d{1,3}(?:\.\d{1,3}){3})\b")
#: Words without which no rule here can match.
_WORDS = GateWords("FindProxyForURL",
                   "record", "rdata", "addresses=", "ipv4addr", "domain-name-servers", "allow_transfer",
                   "allow-transfer", "allow_recursive", "allow-recursion", "delzone", "pynetbox", "fixedaddress",
                   "dhclient", "adminuser", "usertype=admin", "users.tokens", ignore_case=True)  # fmt: skip
_I = re.IGNORECASE
_IP = r"(\d{1,3}(?:\.\d{1,3}){3})"
#: An address a record is given (BlueCat's properties, Infoblox's fields, doctl's and the APIs' record data).
_RECORD_ADDRESS = re.compile(
    r"(?:addresses=|ipv4addr\W{1,4}|--record-data[= ]|[\"'](?:data|content|rdata|answer)[\"']\s*:\s*[\"'])" + _IP, _I
)
_ANY_BARE_ADDRESS = re.compile(r"[\"'=\s]" + _IP + r"[\"'\s,]")
#: An existing record rewritten (not a new one created for a new server).
_RECORDS_CHANGED = re.compile(
    r"records\s+update\b|\.(?:put|patch)\([^\n]*(?:/records?/|record:(?:a|host)\b|/update\b|/types/)"
    r"|-X\s*(?:PUT|PATCH)\b[^\n]*(?:/records?/|record:(?:a|host)\b|/update\b)",
    _I,
)
_OUTSIDE_RESOLVERS = re.compile(r"domain-name-servers[\s\S]{0,80}?" + _IP, _I)
_OPEN_TO_ANY = re.compile(
    r"allow[_-](?:transfer|recursi\w+|query)\W[\s\S]{0,160}?(?:\bany\b|\"Any\"|'Any')"
    r"|allow-(?:transfer|recursion)\s*\{\s*any\s*;",
    _I,
)
_ZONES_DELETED = re.compile(r"\brndc\b[^\n]*\bdelzone\b", _I)
_NETBOX_BULK_DELETE = re.compile(r"\.all\(\)[\s\S]{0,200}?\.delete\(\s*\w+\s*\)|\.all\(\)\.delete\(\)")
_POOL_FILLED = re.compile(r"\.hosts\(\)[\s\S]{0,300}?fixedaddress|fixedaddress[\s\S]{0,300}?\.hosts\(\)", _I)
_MAC_CHURN = re.compile(r"\baddress\s+[\"']?(?:02:|\$)[\s\S]{0,300}?\bdhclient\b", _I)
_ENDLESS = re.compile(r"\bwhile\s+(?::|true)\s*;?\s*do\b|\bwhile\s+True\s*:", _I)
_ADMIN_CREATED = re.compile(r"admin_groups\W{1,6}admin-group|\baddUser\b[^\n]*userType=ADMIN", _I)
_TOKENS_READ = re.compile(r"\busers\.tokens\.all\(\)[\s\S]{0,200}?\.key\b")


def network_service_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a DNS, DHCP or IP address management service."""
    if not _WORDS.any_in(text):
        return []
    low = text.lower()
    found = []
    records = "record" in low or "addresses=" in low or "rdata" in low
    pointed = [a for a in _RECORD_ADDRESS.findall(text) if outside_address(a)] if records else []
    if not pointed and records and _RECORDS_CHANGED.search(text) and each_item(text):
        # (`target = "203.0.113.200"` … `put(f"…/records/{rec['id']}", json={"data": target})` for every record)
        pointed = [a for a in _ANY_BARE_ADDRESS.findall(text) if outside_address(a)]
    if pointed and _RECORDS_CHANGED.search(text):
        what = f"points DNS records at a bare outside address ({pointed[0]}): whoever holds it gets the traffic"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    resolvers = _OUTSIDE_RESOLVERS.findall(text) if "domain-name-servers" in low else []
    if any(outside_address(a) for a in resolvers):
        what = "hands every DHCP client an outside DNS resolver (every name they look up can be answered falsely)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    proxies = _PAC_PROXIES.findall(text) if "FindProxyForURL" in text else []
    if any(outside_address(a) for a in proxies):
        what = "hands every browser an outside proxy (a WPAD or PAC file): whoever holds it sees and changes traffic"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if ("allow" in low) and _OPEN_TO_ANY.search(text):
        what = "opens DNS recursion, queries or zone transfers to any address (an open resolver; every record read)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if ("delzone" in low and _ZONES_DELETED.search(text) and each_item(text)) or (
        "pynetbox" in low and _NETBOX_BULK_DELETE.search(text)
    ):
        what = "deletes every DNS zone a listing gives, or every object of NetBox's IPAM in bulk"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if ("fixedaddress" in low and _POOL_FILLED.search(text)) or (
        "dhclient" in low and _MAC_CHURN.search(text) and _ENDLESS.search(text)
    ):
        what = "exhausts a DHCP pool (every address reserved, or lease after lease taken under new MAC addresses)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if ("adminuser" in low or "usertype=admin" in low) and _ADMIN_CREATED.search(text):
        what = "creates an administrator of the IPAM or DNS appliance"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "users.tokens" in low and _TOKENS_READ.search(text) and sends_data(text):
        what = "reads NetBox's API tokens out and sends them away"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION, what))
    return found
