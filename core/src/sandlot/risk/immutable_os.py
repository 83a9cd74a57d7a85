"""Immutable OS fleets: Talos Linux (``talosctl`` and its machine-config patches), Bottlerocket (``apiclient``) and
Flatcar (shared by both analyzers, judged on the whole text). Nodes are driven only through their APIs, so a patch or
a reset reaches the whole cluster at once.

What needs a careful reviewer:

* nodes reset (disks wiped), rebooted in an endless loop, or every etcd member told to leave;
* the kubelet or API server opened to anonymous requests (``anonymous-auth``, ``AlwaysAllow``), Talos API access
  with ``os:admin`` given to pods, a cluster-admin binding or manifests from a bare address added to the config;
* images, registries or well-known registry names pointed at a bare outside address (installer images, mirrors,
  ``extraHostEntries``), or registry TLS checks switched off;
* Bottlerocket's superpowered host containers, kernel lockdown off, or its settings (bootstrap token, cluster
  certificate) sent away.

Configs generated from the secrets bundle, one node upgraded or rebooted, kubeconfigs fetched and health checks are
routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import ARGV_SEP, any_loop, sends_data

_FLEET_WORDS = GateWords("talosctl", "apiclient", "superpowered", "kubernetesTalosAPIAccess", "extraHostEntries",
                         "extraManifests", "update-ssh-keys")  # fmt: skip
#: Several nodes in one `-n a,b,c`, or a loop over them.
_MANY_NODES = re.compile(r"-n" + ARGV_SEP + r"[\"']?[\w.$\"{}]+,[\w.]")
_RESET = re.compile(r"\btalosctl\b[^\n]*?" + ARGV_SEP + r"reset\b")
_ENDLESS_REBOOT = re.compile(r"while\s+(?::|true)(?=[\s;])[\s\S]{0,300}?\btalosctl\b[^\n]*\breboot\b")
_ETCD_LEAVE = re.compile(r"\betcd" + ARGV_SEP + r"(?:leave|remove-member)\b")
_OPEN_API = re.compile(r"anonymous-auth[\"']?\s*:\s*[\"']?true|authorization-mode[\"']?\s*:\s*[\"']?AlwaysAllow"
                       r"|allowedRoles[\"']?\s*:\s*\[[^\]]*os:admin|name:\s*cluster-admin\b[\s\S]{0,200}?name:\s*default\b")
_BARE_IMAGE = re.compile(r"(?:--image[\"',\s=]+|IMAGE\s*=\s*[\"']|\.source=|endpoints[\"']?\s*:\s*\[?\s*[\"']?"
                         r"(?:https?://)?|extraManifests[\s\S]{0,120}?https?://|[\"']ip[\"']\s*:\s*[\"'])"
                         r"(\d{1,3}(?:\.\d{1,3}){3})")
_TLS_OFF = re.compile(r"insecureSkipVerify[\"']?\s*:\s*(?:True|true)")
_BOTTLEROCKET = re.compile(r"superpowered[\"'=:\s]+(?:True|true)|[\"']?lockdown[\"']?\s*[:=]\s*[\"']?none")
_SETTINGS_SENT = re.compile(r"\bapiclient\s+get\s+settings\b")


def immutable_os_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Talos, Bottlerocket or Flatcar fleet."""
    if not _FLEET_WORDS.any_in(text):
        return []
    found = []
    fleet = _MANY_NODES.search(text) is not None or any_loop(text)
    if (_RESET.search(text) and fleet) or _ENDLESS_REBOOT.search(text) or (_ETCD_LEAVE.search(text) and fleet):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "resets (wipes) several cluster nodes, reboots them in an endless loop, or makes "
                                   "every etcd member leave"))  # fmt: skip
    if _OPEN_API.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "opens the kubelet or API server to anonymous requests, or gives pods or a "
                                   "default service account administrator rights over the nodes"))  # fmt: skip
    if any(outside_address(a) for a in _BARE_IMAGE.findall(text)) or _TLS_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "points nodes' images, registries or manifests at a bare outside address (or "
                                   "turns registry TLS checks off): what they run comes from there"))  # fmt: skip
    if _BOTTLEROCKET.search(text) or (_SETTINGS_SENT.search(text) and sends_data(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "gives a host container root over the node, turns kernel lockdown off, or sends "
                                   "the node's settings (bootstrap token) away"))  # fmt: skip
    return found
