"""SIP proxies: Kamailio and OpenSIPS, their routing scripts and tables (shared by both analyzers, judged on the whole
text). A proxy decides who may place calls and where they go; a call that reaches a premium number costs money.

What needs a careful reviewer:

* every address trusted (``kamctl address add 1 0.0.0.0 0``, a permissions row with mask 0): calls skip
  authentication, an open relay for toll fraud;
* the routing script's authentication taken out (``route(AUTH)`` commented, ``WITH_AUTH`` undefined);
* a routing script that runs what a request's header carries (``exec_avp("$hdr(…)")``);
* calls routed through a gateway or dispatcher destination at a bare outside address.

Dispatcher reloads, one carrier's address trusted, subscribers added one by one and configuration checks are
routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_SIP_WORDS = GateWords("kamctl", "opensips", "kamailio", "route(AUTH)", "WITH_AUTH", "exec_avp", "exec_cmd",
                       "dr_gateways", "dispatcher.add")  # fmt: skip
#: Every source address trusted: `kamctl address add GRP 0.0.0.0 0`, or a permissions row with mask 0.
_EVERYONE_TRUSTED = re.compile(r"\b(?:kamctl|opensips-cli)\b[^\n]*\baddress\s+add\s+\d+\s+0\.0\.0\.0\s+0\b"
                               r"|INSERT\s+INTO\s+address\b[^;]*'0\.0\.0\.0'\s*,\s*0\b", re.IGNORECASE)
_AUTH_REMOVED = re.compile(r"#\s*route\(AUTH\)|#!trydef\s+WITH_AUTH_DISABLED|#!define\s+WITH_AUTH\b[^\n]*/\s*#"
                           r"|s/\^?#!define WITH_AUTH")
_HEADER_RUN = re.compile(r"\bexec_(?:avp|cmd|msg)\(\s*\"[^\"]*\$hdr\(")
_OUTSIDE_ROUTE = re.compile(r"\bdispatcher\.add\s+\d+\s+sips?:(\d{1,3}(?:\.\d{1,3}){3})|dr_gateways\b[^;]*'(\d{1,3}(?:"
                            r"\.\d{1,3}){3})(?::\d+)?'")


def sip_proxy_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a SIP proxy's trust, authentication, routing script and destinations."""
    if not _SIP_WORDS.any_in(text):
        return []
    found = []
    if _EVERYONE_TRUSTED.search(text) or _AUTH_REMOVED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "lets every address place calls through a SIP proxy without authentication (an "
                                   "open relay for toll fraud)"))  # fmt: skip
    if _HEADER_RUN.search(text):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                                   "adds a SIP routing script that runs commands a request's header carries"))
    if any(outside_address(a) for pair in _OUTSIDE_ROUTE.findall(text) for a in pair if a):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "routes calls through a gateway at a bare outside address (whoever holds it hears "
                                   "and bills them)"))  # fmt: skip
    return found
