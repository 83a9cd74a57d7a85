"""Container orchestrators besides Kubernetes: Docker Swarm, Nomad, Consul (shared by both analyzers).

An orchestrator runs every service of a cluster, and its control plane decides what runs where and who may talk
to whom. What needs a careful reviewer:

* every node removed from a swarm, every job of a cluster stopped and purged;
* thousands of replicas asked for at once;
* a command run inside a running allocation (judged like one run there over ssh);
* the anonymous token given the management policy, every service allowed to reach every other, the mesh's
  mutual TLS made optional;
* services given the Docker socket or the host's root file system on every node.

Deploying, scaling within reason and inspecting one's own jobs are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import MASS_COUNT, OperationRisk
from sandlot.risk.model import Category, RiskLevel

#: Command-line tools whose cluster commands :func:`orchestrator_command` reads.
ORCHESTRATOR_TOOLS = frozenset({"docker", "nomad", "consul"})
#: Consul's built-in anonymous token (what every request without a token acts as).
_ANONYMOUS_TOKEN = "00000000-0000-0000-0000-000000000002"


def orchestrator_command(name: str, args: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """The risk of one Swarm, Nomad or Consul command line (``repeated``: once per item of a loop or listing)."""
    words = [a for a in args if not a.startswith("-")]
    if name == "docker" and words[:2] == ["node", "rm"] and repeated:
        what = "docker node rm removes every node a listing gives from the swarm (the cluster is gone)"
        return OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)
    if name == "docker" and words[:2] in (["service", "create"], ["service", "update"], ["service", "scale"]):
        counts = [int(a.rsplit("=", 1)[-1]) for a in args if re.fullmatch(r"(?:--replicas=|[\w.-]+=)?\d+", a)]
        counts += [int(args[i + 1]) for i, a in enumerate(args[:-1]) if a == "--replicas" and args[i + 1].isdigit()]
        if counts and max(counts) >= 10 * MASS_COUNT:
            what = f"docker service asks for {max(counts):,} replicas (every node's CPU and memory taken)"
            return OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)
    if name == "nomad" and words[:2] == ["job", "stop"] and "-purge" in args and repeated:
        what = "nomad stops and purges every job a listing gives (their history and allocations are gone)"
        return OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)
    if name == "consul" and words[:3] == ["acl", "token", "update"] and _ANONYMOUS_TOKEN in args and any(
        "global-management" in a for a in args
    ):
        what = "consul gives the anonymous token the management policy (every request becomes an administrator)"
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)
    return None


def allocation_command(name: str, args: Sequence[str]) -> list[str]:
    """The command ``nomad alloc exec [options] ALLOC CMD...`` runs inside the allocation, as words."""
    if name != "nomad" or args[:2] != ["alloc", "exec"]:
        return []
    rest = list(args[2:])
    while rest and rest[0].startswith("-"):
        rest = rest[2:] if rest[0] in ("-task", "-job", "-namespace", "-address", "-token", "-region") else rest[1:]
    return rest[1:]


#: Consul intentions letting every service (`*`) reach every other.
_ALLOW_EVERYONE = re.compile(
    r"[\"']Name[\"']\s*:\s*[\"']\*[\"'][\s\S]{0,200}[\"']Action[\"']\s*:\s*[\"']allow[\"']"
    r"|consul\s+intention\s+create\s+(?:-allow\s+)?[\"']?\*[\"']?\s+[\"']?\*"
)
_PERMISSIVE_MTLS = re.compile(r"MutualTLSMode[\"']?\s*[:=]\s*[\"']?permissive|AllowEnablingPermissiveMutualTLS[\"']?\s*"
                              r"[:=]\s*(?:True|true)")  # fmt: skip
#: A Docker SDK mount of the engine's socket or the host's root into a service or container.
_HOST_MOUNT = re.compile(r"Mount\(\s*[\"'][^\"']*[\"']\s*,\s*[\"'](?:/var/run/docker\.sock|/)[\"']")


def orchestrator_text_risks(text: str) -> list[OperationRisk]:
    """Meshes opened to every service or to plaintext, services given the host (judged on the whole text)."""
    found = []
    if ("intention" in text or "Sources" in text) and _ALLOW_EVERYONE.search(text):
        what = "lets every service of the mesh reach every other (its deny rules no longer apply)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if ("Permissive" in text or "permissive" in text) and _PERMISSIVE_MTLS.search(text):
        what = "makes the service mesh accept plaintext traffic (mutual TLS no longer required)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if "Mount(" in text and _HOST_MOUNT.search(text):
        what = "gives a service the Docker socket or the host's root file system (root on every node it runs on)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found
