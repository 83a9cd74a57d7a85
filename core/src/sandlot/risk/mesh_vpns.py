"""Mesh VPNs and overlay networks: Headscale, NetBird, ZeroTier and Nebula (their controllers' APIs and CLIs), shared
by both analyzers and judged on the whole text.

A mesh VPN decides which machines may reach which: a join key or an open network is a way into every host on it.
What needs a careful reviewer:

* a reusable, long-lived join key (a pre-auth key) sent to another host;
* a network made public, or every pending member authorised at once;
* a policy that lets every peer reach every other on every protocol;
* an administrator added for an address outside the organisation;
* every node deleted, or the list of nodes and users sent elsewhere.

One node enrolled with a setup key, a client brought up or down, certificates signed for a new host and a single
member authorised are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import registered_domain
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_elsewhere, url_hosts

_WORDS = GateWords("preauthkey", "zerotier", "headscale", "netbird", "/controller/network", "api/v1/network")
_JOIN_KEY = re.compile(r"/api/v1/preauthkey\b|\bpreauthkeys?\s+create\b")
_MESH_HOSTS = re.compile(r"^(?:localhost|127\.)|headscale|netbird|zerotier|nebula|tailscale")
_NETWORK_PUBLIC = re.compile(r"[\"']private[\"']\s*\]?\s*[:=]\s*(?:False|false)\b")
_EVERY_MEMBER_AUTHORISED = re.compile(r"/member\b[\s\S]{0,300}?[\"']authorized[\"']\s*:\s*(?:True|true)\b")
_ALL_TO_ALL = re.compile(r"/api/policies\b[\s\S]{0,600}?\\?[\"']protocol\\?[\"']\s*:\s*\\?[\"']all\\?[\"']"
                         r"[\s\S]{0,400}?\bAll\b|\bAll\b[\s\S]{0,400}?/api/policies\b[\s\S]{0,600}?\\?[\"']protocol"
                         r"\\?[\"']\s*:\s*\\?[\"']all\\?[\"']")  # fmt: skip
_ADMIN_USER = re.compile(r"/users\b[\s\S]{0,300}?\\?[\"']email\\?[\"']\s*:\s*\\?[\"'][^\"'@\s]+@([\w.-]+)[\s\S]{0,200}?"
                         r"\\?[\"']role\\?[\"']\s*:\s*\\?[\"']admin")  # fmt: skip
_NODES_DELETED = re.compile(r"\bheadscale\s+(?:nodes|node)\s+(?:delete|rm)\b|/api/v1/node/[^\s\"']*[\"']?\s*,?\s*"
                            r"(?:method\s*=\s*)?[\"']?DELETE|requests\.delete\([^)]*/api/v1/node/")  # fmt: skip
_INVENTORY = re.compile(r"\bheadscale\s+(?:users|nodes)\s+list\b|/api/v1/(?:node|user)\b|listpeers|/member\b")


def mesh_vpn_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a mesh VPN: join keys sent away, networks opened, every peer allowed everywhere,
    outside administrators, nodes deleted or listed to another host."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _JOIN_KEY.search(text) and sends_elsewhere(text, _MESH_HOSTS):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends a mesh VPN join key to another host (whoever holds it joins the network)"))
    if "zerotier" in text.lower() and _NETWORK_PUBLIC.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "makes a ZeroTier network public (anyone with its id joins)"))
    if _EVERY_MEMBER_AUTHORISED.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "authorises every pending member of a mesh network, unknown devices included"))
    if _ALL_TO_ALL.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "adds a mesh VPN policy letting every peer reach every other on every protocol"))
    admin = _ADMIN_USER.search(text)
    own = {registered_domain(h) for h in url_hosts(text)}
    if admin is not None and own and registered_domain(admin.group(1)) not in own:
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   f"makes an address outside the organisation ({admin.group(1)}) a mesh VPN "
                                   "administrator"))  # fmt: skip
    if _NODES_DELETED.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "deletes every node registered in the mesh VPN's controller"))
    if _INVENTORY.search(text) and sends_elsewhere(text, _MESH_HOSTS):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends the mesh VPN's list of nodes and users to another host"))
    return found
