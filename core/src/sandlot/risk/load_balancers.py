"""Load balancers driven through their runtime APIs and shells: HAProxy's admin socket, F5 BIG-IP's tmsh and
iControl REST (shared by both analyzers, judged on the whole text).

A load balancer decides where every user's connection goes. What needs a careful reviewer:

* every server or frontend a listing gives taken out of service (``show servers state`` then ``set server …
  state maint``, ``disable frontend``, ``shutdown sessions``, weights set to 0): the sites behind it go down;
* a server on a public address added to a live backend: users' traffic (logins included) goes there;
* every virtual server, pool or node of a BIG-IP deleted (``tmsh delete ltm virtual all``);
* an administrator account with a bash shell created on the appliance.

Draining one named server for maintenance, reading statistics and adding a private-address server are routine.
"""

from __future__ import annotations

import ipaddress
import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_BALANCER_WORDS = GateWords("show servers", "show stat", "show backend", "add server", "tmsh", "/mgmt/tm")
_SERVER_LISTING = re.compile(r"\bshow\s+(?:servers\s+state|stat|backend|servers\s+conn)\b")
_OUT_OF_SERVICE = re.compile(
    r"\bset\s+server\s+\S+\s+state\s+maint\b|\bdisable\s+(?:frontend|server)\b|\bshutdown\s+sessions\b"
    r"|\bset\s+weight\s+\S+\s+0\b"
)
_ADDED_SERVER = re.compile(r"\badd\s+server\s+\S+\s+\[?([0-9a-fA-F.:]+?)\]?:\d+")
_DELETE_ALL = re.compile(r"\bdelete\s+ltm\s+(?:virtual|pool|node|rule|profile\s+\S+)\s+all\b")
_APPLIANCE_ADMIN = re.compile(
    r"/auth/user\b[\s\S]{0,400}?(?:[\"']role[\"']\s*:\s*[\"']admin[\"']|[\"']shell[\"']\s*:\s*[\"']bash[\"'])"
    r"|\bcreate\s+auth\s+user\b[^\n]*\brole\s+admin\b"
)


def _public(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    # (the documentation ranges count as somebody else's addresses, as they do in examples)
    documentation = address.startswith(("192.0.2.", "198.51.100.", "203.0.113."))
    return documentation or not (ip.is_private or ip.is_loopback or ip.is_link_local)


def balancer_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a load balancer's servers, virtual servers and accounts."""
    if not _BALANCER_WORDS.any_in(text):
        return []
    found = []
    if _SERVER_LISTING.search(text) and _OUT_OF_SERVICE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "takes every server or frontend a load balancer lists out of service (the sites "
                                   "behind it go down)"))  # fmt: skip
    if any(_public(m[1]) for m in _ADDED_SERVER.finditer(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "adds a server on a public address to a live backend (users' traffic goes there)"))
    if _DELETE_ALL.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes every virtual server, pool or node of a load balancer"))
    if ("/mgmt/tm" in text or "tmsh" in text) and _APPLIANCE_ADMIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "creates an administrator (or a bash-shell account) on a load balancer"))
    return found
