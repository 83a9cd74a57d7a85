"""Service discovery and coordination inside clusters: Consul, etcd, ZooKeeper, cluster DNS, service meshes
(shared by both analyzers, judged on the whole text).

These systems hold every service's configuration and secrets, decide where names resolve and which traffic is
trusted. What needs a careful reviewer:

* a coordination store read whole (Consul's KV tree or tokens, every etcd key) and sent to another host;
* every key deleted (`etcdctl del "" --from-key`), ZooKeeper's metadata trees deleted recursively, Consul's raft
  peers removed one by one (the cluster loses quorum);
* Consul's whole KV tree deleted, a service's catalog entries replaced by an outside address, intentions allowing
  every service to reach every other;
* a management token minted (Consul's `global-management`, the ACL bootstrap reset, logins bound to the management
  policy), or authentication turned off
  (`etcdctl auth disable`, ACLs' default policy `allow`, ZooKeeper's `world:anyone` on the root);
* the cluster's DNS forwarded to an outside resolver;
* the mesh turned against its traffic: requests mirrored to an outside host, a Lua filter posting headers and cookies
  out, the sidecar injector's template changed (every new pod runs what it adds), proxies told to skip every port
  or accept unauthenticated traffic, every pod's proxy shut down, the control plane's debug port published.

Reading one key, health checks, a dev agent, snapshots kept locally and tests under a scratch path are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_elsewhere

#: A coordination store read whole: Consul's KV tree and tokens, etcd's every key or a snapshot.
_WHOLE_STORE = re.compile(r"/v1/kv/\??\S*recurse|\bconsul\s+kv\s+export\b|\bconsul\s+acl\s+token\s+list\b"
                          r"|\betcdctl\b[^\n]*\bget\s+[\"']{2}\s+--(?:prefix|from-key)|\betcdctl\b[^\n]*--prefix\s+"
                          r"[\"']?/?[\"']?\s*$|\betcdctl\b[^\n]*\bsnapshot\s+save\b", re.MULTILINE)  # fmt: skip
#: ...sent somewhere: a request body or an upload to a host that is not this machine or the cluster's own.
_CLUSTER_HOSTS = re.compile(r"^(?:localhost|127\.|\[?::1)|\.(?:svc|local|internal|lan)(?:\.|$)|consul|etcd")
_EVERY_KEY = re.compile(r"\betcdctl\b[^\n]*\bdel\s+[\"']{2}\s+--(?:from-key|prefix)|\betcdctl\b[^\n]*\bdel\s+--prefix"
                        r"\s+[\"']?/?[\"']?\s*$"
                        # Kubernetes' whole state (`etcdctl del /registry/ --prefix`, from Python's argv too)
                        r"|\betcdctl[\"',\s]+(?:[^\n]*?[\"',\s])?del[\"',\s]+(?:--prefix[\"',\s]+[\"']?/registry/?"
                        r"(?=[\"',\s]|$)|[\"']?/registry/?(?=[\"',\s]|$)[^\n]*--prefix)", re.MULTILINE)  # fmt: skip
#: etcd's root or Kubernetes' whole state as a key prefix (`client.delete_prefix("/registry/")`).
_ROOT_PREFIX = re.compile(r"[\"']/(?:registry/?)?[\"']")
#: ZooKeeper trees deleted recursively (zkCli's deleteall/rmr, kazoo's delete(recursive=True)) under a root path.
_ZK_TREE_DELETE = re.compile(r"\b(?:deleteall|rmr)\s+[\"']?(?:/[\w.-]+|\$\w+|\"\$\w+\")|\.delete\([^)]*recursive\s*="
                             r"\s*True")  # fmt: skip
_ZK = re.compile(r"zookeeper|kazoo|zkCli|zkcli|zookeeper-shell", re.IGNORECASE)
_SCRATCH = re.compile(r"/(?:test|tmp|scratch|it-|ci-)[\w-]*", re.IGNORECASE)
_LOCAL_ZK = re.compile(r"(?:127\.0\.0\.1|localhost):2181")
#: etcd's authentication switched off, Consul's ACLs' default policy opened, ZooKeeper's ACLs set open to anyone.
_AUTH_OFF = re.compile(r"\betcdctl\b[^\n]*\bauth\s+disable\b|\.auth_disable\(|\bdefault_policy\s*=\s*[\"']allow"
                       r"|\bsetAcl\s+(?:-R\s+)?/\S*\s+world:anyone:c?d?r?w?a?\b")  # fmt: skip
_QUORUM_LOSS = re.compile(r"\braft\s+remove-peer\b")
#: (the built-in management policy by its fixed id too)
_MANAGEMENT_TOKEN = re.compile(r"global-management|/v1/acl/bootstrap|acl-bootstrap-reset"
                               r"|00000000-0000-0000-0000-000000000001")  # fmt: skip
#: A token minted, or logins of an auth method bound to a role (`/v1/acl/binding-rule`).
_TOKEN_MADE = re.compile(r"\bacl\s+token\s+create\b|/v1/acl/token\b|/v1/acl/bootstrap|acl-bootstrap-reset"
                         r"|/v1/acl/binding-rule\b|\bacl\s+binding-rule\s+create\b")  # fmt: skip
#: Consul's whole KV tree deleted: the root with `recurse`, or every key an export lists.
_KV_TREE_DELETE = re.compile(
    r"^.*(?:\.delete\(|-X\s*DELETE\b).*/v1/kv/?[\"'?].*recurse.*$"
    r"|\bconsul\s+kv\s+delete\s+-recurse(?:\s+[\"']{2}|\s+[\"']?/[\"']?)?\s*$"
    r"|\bconsul\s+kv\s+export\s+[\"']{2}[^\n]*\|\s*xargs\b[^\n]*\bconsul\s+kv\s+delete\b",
    re.MULTILINE,
)
#: A service instance registered (its address on the line), as opposed to deregistered.
_REGISTERED_ADDRESS = re.compile(r"^(?!.*deregister).*\bregister\b.*?(\d{1,3}(?:\.\d{1,3}){3})", re.MULTILINE)
_ALLOW_ALL_INTENTION = re.compile(
    r"\bintention\s+create\s+-allow\b[^\n]*[\"']\*[\"']\s+[\"']\*[\"']"
    r"|[\"']SourceName[\"']\s*:\s*[\"']\*[\"'][\s\S]{0,200}?[\"']Action[\"']\s*:\s*[\"']allow[\"']"
)
_DNS_FORWARD = re.compile(r"forward\s+\.\s+(\d{1,3}(?:\.\d{1,3}){3})")
_MIRROR_HOST = re.compile(r"\bmirror[\"']?\s*:\s*\{?\s*[\"']?host[\"']?\s*:\s*[\"']?([\w.-]+)")
_LUA_EXFIL = re.compile(r"envoy_on_request[\s\S]{0,800}?httpCall[\s\S]{0,400}?|httpCall[\s\S]{0,400}?envoy_on_request")
_HEADERS_READ = re.compile(r"\b(?:authorization|cookie)\b", re.IGNORECASE)
_INJECTOR_CHANGED = re.compile(r"istio-sidecar-injector[\s\S]{0,1500}?(?:\bkubectl\s+(?:apply|replace|patch|edit)\b"
                               r"|patch_namespaced_config_map|replace_namespaced_config_map)")  # fmt: skip
_MESH_SKIPPED = re.compile(r"config\.linkerd\.io/skip-(?:inbound|outbound)-ports=[\"']?1-65535"
                           r"|default-inbound-policy=[\"']?all-unauthenticated"
                           r"|traffic\.sidecar\.istio\.io/exclude(?:Inbound|Outbound)Ports[\"']?\s*[:=]\s*"
                           r"[\"']?\*")  # fmt: skip
_PROXY_QUIT = re.compile(r"/quitquitquit\b")
_DEBUG_PUBLISHED = re.compile(r"istiod[\w.-]*[\s\S]{0,200}?\b1501[024]\b|\b1501[024]\b[\s\S]{0,200}?istiod")
_GATEWAY_ANY_HOST = re.compile(r"[\"']?hosts[\"']?\s*:\s*\[\s*[\"']\*[\"']")
_WORDS = GateWords("consul", "etcdctl", "/v1/kv", "deleteall", "intention", "SourceName", "catalog", "rmr",
                   "recursive", "raft", "global-management", "acl",
                   "forward", "mirror", "httpCall", "sidecar-injector", "linkerd.io", "sidecar.istio.io",
                   "quitquitquit", "istiod", "auth", "default_policy", "setAcl", "delete_prefix")  # fmt: skip
#: A word each alternative of a pattern below spells. _WORDS lets through most texts that send anything ("auth",
#: "forward", "acl"), and a pattern of several alternatives is tried at every character of the text.
_WHOLE_STORE_WORDS = GateWords("/v1/kv/", "consul", "etcdctl")
_AUTH_OFF_WORDS = GateWords("etcdctl", ".auth_disable(", "default_policy", "setAcl")
_INTENTION_WORDS = GateWords("intention", "SourceName")
_MESH_SKIPPED_WORDS = GateWords("config.linkerd.io", "default-inbound-policy", "traffic.sidecar.istio.io")


def coordination_risks(text: str) -> list[OperationRisk]:
    """Coordination stores emptied or copied out, management tokens minted, and the mesh turned against its
    traffic."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _WHOLE_STORE_WORDS.any_in(text) and _WHOLE_STORE.search(text) and sends_elsewhere(text, _CLUSTER_HOSTS):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends a coordination store's whole content (every key, secret or token) to "
                                   "another host"))  # fmt: skip
    if ("etcdctl" in text and _EVERY_KEY.search(text)) or (".delete_prefix(" in text and _ROOT_PREFIX.search(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes every key of an etcd cluster"))
    tree = _ZK_TREE_DELETE.search(text) if _ZK.search(text) else None
    local = _LOCAL_ZK.search(text) is not None or "pytest" in text  # a test's own namespace on a local server
    if tree is not None and not _SCRATCH.search(tree.group()) and not local:
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes ZooKeeper trees recursively (the metadata clusters like Kafka keep "
                                   "there)"))  # fmt: skip
    if _AUTH_OFF_WORDS.any_in(text) and _AUTH_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "turns off a coordination store's authentication (anyone reaching it reads and "
                                   "writes every key and secret)"))  # fmt: skip
    if _QUORUM_LOSS.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "removes a Consul cluster's raft peers one by one (it loses quorum and stops)"))
    if _MANAGEMENT_TOKEN.search(text) and _TOKEN_MADE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "mints a Consul management token, or binds logins to the management policy "
                                   "(every secret, service and setting of the datacenter)"))  # fmt: skip
    if "kv" in text and _KV_TREE_DELETE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes Consul's whole KV tree (every service's configuration)"))
    if "deregister" in text and any(outside_address(ip) for ip in _REGISTERED_ADDRESS.findall(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "replaces a service's instances in the catalog with an outside address (its "
                                   "clients connect there)"))  # fmt: skip
    if _INTENTION_WORDS.any_in(text) and _ALLOW_ALL_INTENTION.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "lets every service of the mesh reach every other (its authorization gone)"))
    resolvers = [ip for ip in _DNS_FORWARD.findall(text) if outside_address(ip)]
    if resolvers and ("coredns" in text.lower() or "Corefile" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   f"forwards the cluster's DNS to an outside resolver ({resolvers[0]}): it answers "
                                   "for every name the cluster looks up"))  # fmt: skip
    mirrored = [h for h in _MIRROR_HOST.findall(text) if not h.endswith((".svc", ".local", ".internal")) and "." in h]
    if mirrored:
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   f"mirrors a service's traffic to {mirrored[0]} (a copy of every request)"))
    lua = _LUA_EXFIL.search(text) if "httpCall" in text else None
    if lua is not None and _HEADERS_READ.search(lua.group()):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "adds an Envoy filter that posts every request's authorization header or cookies "
                                   "to another host"))  # fmt: skip
    if "istio-sidecar-injector" in text and _INJECTOR_CHANGED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "changes the mesh's sidecar injector (every new pod runs what its template adds)"))
    if _MESH_SKIPPED_WORDS.any_in(text) and _MESH_SKIPPED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "makes the mesh's proxies skip every port or accept unauthenticated traffic"))
    if _PROXY_QUIT.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "shuts down the mesh proxy of every pod a listing gives (their traffic stops)"))
    if "istiod" in text and _DEBUG_PUBLISHED.search(text) and _GATEWAY_ANY_HOST.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "publishes the mesh control plane's debug port through a gateway for any host"))
    return found
