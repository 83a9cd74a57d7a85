"""Service meshes and their proxies: Istio, Linkerd and Envoy objects (shared by both analyzers, judged on the whole
text).

A mesh's control plane speaks for every workload: a ServiceEntry can send every pod's traffic for a login provider
to another address, the sidecar injector's template is copied into every new pod, an EnvoyFilter can take the
gateway's authentication out or run code a request carries, a WasmPlugin loads a module into every proxy. What
needs a careful reviewer:

* hosts pinned to a bare outside address for the whole mesh, or the injector's template given an extra container;
* authentication filters removed from a gateway, mutual TLS turned off for the whole mesh;
* proxy code loaded over plain HTTP or from a bare address, Lua that runs what a request sends;
* every sidecar told to quit, every service's connection pool cut to one, every request aborted;
* the control plane's plaintext or debug ports put on a load balancer open to the internet.

Routing a service, a canary's weights, fault injection on one test service and mTLS set to STRICT are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_WORDS = GateWords("ServiceEntry", "sidecar-injector", "quitquitquit", "DestinationRule", "WasmPlugin", "EnvoyFilter",
                   "VirtualService", "PeerAuthentication", "1501", "inlineCode", "inline_code")  # fmt: skip
_ADDRESS = re.compile(r"[\"']?address[\"']?\s*:\s*[\"']?(\d{1,3}(?:\.\d{1,3}){3})")
_PRIVILEGED = re.compile(r"privileged[\"']?\s*:\s*(?:true|True)")
_BARE_URL = re.compile(r"(?:tcp|https?|grpc)://(\d{1,3}(?:\.\d{1,3}){3})")
_EVERY_POD = re.compile(r"(?:\s|[\"'])-A\b|--all-namespaces|\ball_namespaces\b|list_pod_for_all_namespaces")
_WILDCARD_HOST = re.compile(r"[\"']?host[\"']?\s*:\s*[\"']?\*(?:\.svc\.cluster\.local|\.cluster\.local|\.local)?"
                            r"[\"'\s,}]")
_STARVED_POOL = re.compile(r"maxConnections[\"']?\s*:\s*1\b|maxEjectionPercent[\"']?\s*:\s*100\b")
_CONTROL_PLANE_PORTS = re.compile(r"\b(?:15010|15014|15000)\b")
_OPEN_TO_ALL = re.compile(r"0\.0\.0\.0/0|internet-facing")
_PLAIN_MODULE = re.compile(r"[\"']?url[\"']?\s*:\s*[\"']?http://")
_AUTH_FILTERS = re.compile(r"ext_authz|envoy\.filters\.http\.rbac|jwt_authn|oauth2")
_REQUEST_CODE = re.compile(r"\bloadstring\s*\(|\bload\s*\(\s*(?:c|code|h:|request|body|[\w.:]*get\()")
_FULL_ABORT = re.compile(r"abort[\s\S]{0,160}?percent(?:age)?[\"']?\s*:\s*\{?\s*[\"']?(?:value[\"']?\s*:\s*)?100\b")
_MESH_WIDE = re.compile(r"[\"']?gateways[\"']?\s*:|hosts[\"']?\s*:\s*\[?\s*[\"']?\*")
_MTLS_OFF = re.compile(r"namespace[\"']?\s*:\s*[\"']?istio-system[\s\S]{0,400}?mode[\"']?\s*:\s*[\"']?DISABLE")


def mesh_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a service mesh and every workload behind it."""
    if not _WORDS.any_in(text):
        return []
    found = []

    def add(level: RiskLevel, category: Category, what: str) -> None:
        found.append(OperationRisk(level, category, what))

    if "ServiceEntry" in text and "STATIC" in text:
        pinned = next((ip for ip in _ADDRESS.findall(text) if outside_address(ip)), None)
        if pinned is not None:
            add(RiskLevel.HIGH, Category.NETWORK, f"sends the mesh's traffic for some hosts to {pinned} (ServiceEntry)")
    if "sidecar-injector" in text and (
        _PRIVILEGED.search(text) or any(outside_address(ip) for ip in _BARE_URL.findall(text))
    ):
        add(RiskLevel.HIGH, Category.PERSISTENCE,
            "changes the sidecar injector's template: every new pod gets what it adds")  # fmt: skip
    if "quitquitquit" in text and (_EVERY_POD.search(text) or "xargs" in text):
        add(RiskLevel.HIGH, Category.PROCESS, "tells every sidecar of the mesh to quit (their pods lose the network)")
    if "DestinationRule" in text and _WILDCARD_HOST.search(text) and _STARVED_POOL.search(text):
        add(RiskLevel.HIGH, Category.RESOURCE,
            "caps every service's connections at one or ejects all their hosts (a DestinationRule for every host)")
    if ("LoadBalancer" in text or "NodePort" in text) and _CONTROL_PLANE_PORTS.search(text) and (
        _OPEN_TO_ALL.search(text)
    ):
        add(RiskLevel.HIGH, Category.NETWORK,
            "puts the mesh control plane's plaintext or debug ports on a load balancer open to everyone")
    if "WasmPlugin" in text and (_PLAIN_MODULE.search(text) or any(outside_address(ip) for ip in
                                                                  _BARE_URL.findall(text))):  # fmt: skip
        add(RiskLevel.HIGH, Category.DYNAMIC_CODE,
            "loads a WebAssembly module into the mesh's proxies over plain HTTP or from a bare address")  # fmt: skip
    if "EnvoyFilter" in text and "REMOVE" in text and _AUTH_FILTERS.search(text):
        add(RiskLevel.HIGH, Category.PRIVILEGE, "removes authentication or authorization filters from the proxies")
    if ("inlineCode" in text or "inline_code" in text) and _REQUEST_CODE.search(text):
        add(RiskLevel.HIGH, Category.DYNAMIC_CODE, "adds a Lua filter that runs code a request carries")
    if "VirtualService" in text and "fault" in text and _FULL_ABORT.search(text) and _MESH_WIDE.search(text):
        add(RiskLevel.HIGH, Category.RESOURCE, "aborts every request to the hosts a gateway or the mesh serves")
    if "PeerAuthentication" in text and _MTLS_OFF.search(text):
        add(RiskLevel.HIGH, Category.NETWORK, "turns mutual TLS off for the whole mesh (root namespace)")
    return found
