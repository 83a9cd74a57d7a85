"""OpenStack clouds: the ``openstack`` and ``swift`` command-line clients and the Python SDKs (shared by both
analyzers).

An OpenStack administrator's credentials reach every project of the cloud: its servers, volumes, images, networks
and the accounts of its users. What needs a careful reviewer:

* the admin role given on every project, a whole domain (inherited) or the whole system; admin passwords set to a
  written value; application credentials without restrictions;
* security groups opened to the whole internet on every port or a login or database port, port security removed,
  a project's private network shared with every project;
* volumes, servers, images, snapshots or object containers deleted for every item a listing gives, or a whole
  account emptied;
* quotas lifted and hundreds of servers started, volumes or networks created without end, images filled from
  ``/dev/zero``.

Creating one project's servers, networks and rules, rotating one user's password from a vault and listing
anything are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.shell_words import option_values
from sandlot.risk.text_shapes import each_item

#: Command-line clients this module reads.
OPENSTACK_TOOLS = frozenset({"openstack", "swift"})

#: Ports whose service is a login or a database (opened to everyone, it is guessed at or read).
_SENSITIVE_PORTS = frozenset({22, 23, 445, 1433, 1521, 2375, 2379, 3306, 3389, 5432, 5900, 5984, 6379, 9200, 11211,
                              27017})  # fmt: skip
_EVERYWHERE = ("0.0.0.0/0", "::/0")
_WORDS = GateWords("openstack", "keystone", "glance", "cinder", "neutron", "nova", "swift")
_OPEN_RULE = re.compile(r"remote_ip_prefix\s*=\s*[\"'](?:0\.0\.0\.0/0|::/0)[\"']")
_PORT_MIN = re.compile(r"port_range_min\s*=\s*(\d+)")
_PORT_MAX = re.compile(r"port_range_max\s*=\s*(\d+)")
_SHARED_WITH_ALL = re.compile(r"target_(?:project_id|tenant)\s*=\s*[\"']\*[\"']")
_ADMIN_ROLE = re.compile(
    r"find_role\(\s*[\"']admin[\"']|roles\.find\(\s*name\s*=\s*[\"']admin[\"']|role\s*=\s*[\"']admin"
)
_ROLE_GRANT = re.compile(r"\bassign_(?:project|domain|system)_role_to_(?:user|group)\(|\.roles\.grant\(")
_WIDE_GRANT = re.compile(r"\bassign_(?:system|domain)_role_to_(?:user|group)\(|\.roles\.grant\([^)]*\bdomain\s*=")
_USER_WITH_PASSWORD = re.compile(r"(?:\.users\.create|\bcreate_user)\([^)]*\bpassword\s*=\s*[\"']")
_MASS_CREATE = re.compile(
    r"range\(\s*(\d{3,})\s*\)\s*(?:\)|:)[\s\S]{0,300}?\.(?:create_server|create_volume|servers\.create|volumes\.create)\("
)
_CREATES = re.compile(r"\.(?:create_volume|create_network|create_server|create_image|volumes\.create)\(")
_WHILE_TRUE = re.compile(r"\bwhile\s+True\s*:")
_BREAK_ON_ERROR = re.compile(r"\bexcept\b[^\n]*:\s*\n\s*break\b")


def openstack_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to an OpenStack cloud through its Python SDKs."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if "remote_ip_prefix" in text and _OPEN_RULE.search(text):
        low = [int(p) for p in _PORT_MIN.findall(text)]
        high = [int(p) for p in _PORT_MAX.findall(text)]
        every_port = not low or any(lo <= 1 and hi >= 65535 for lo, hi in zip(low, high, strict=False))
        if every_port or _SENSITIVE_PORTS & set(low):
            what = "opens a security group to the whole internet on every port or a login or database port"
            found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if "target_" in text and _SHARED_WITH_ALL.search(text):
        what = "shares a project's network or object with every project of the cloud (RBAC target '*')"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    grants_admin = _ROLE_GRANT.search(text) is not None and _ADMIN_ROLE.search(text) is not None
    if grants_admin and (_WIDE_GRANT.search(text) or each_item(text) or _USER_WITH_PASSWORD.search(text)):
        what = "gives an account the admin role of the cloud (every project, a whole domain or the system)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    mass = _MASS_CREATE.search(text)
    if mass is not None and int(mass[1]) >= 100:
        what = f"creates {int(mass[1]):,} servers or volumes at once (the cloud's capacity, and a bill)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    # (a retry loop breaks once its server is made; one that breaks only on an error runs until the cloud is full)
    endless = "itertools.count()" in text or (
        _WHILE_TRUE.search(text) is not None and text.count("break") == len(_BREAK_ON_ERROR.findall(text))
    )
    if endless and _CREATES.search(text):
        what = "creates volumes, networks or servers without end (until the cloud runs out)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found


def openstack_command(name: str, args: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """What one ``openstack`` or ``swift`` command does that needs approval; ``repeated``: once per listed item."""
    words = [a for a in args if not a.startswith("-")]
    if name == "swift":
        if "delete" in words[:2] and "--all" in args:  # (after an option's value: `--os-storage-url URL`)
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                 "swift delete --all empties every container of an account")  # fmt: skip
        return None
    joined = " ".join(args)
    if words[:2] == ["role", "add"] and "admin" in words[2:]:
        wide = "--inherited" in args or "--system" in args or ("--domain" in args and "--project" not in args)
        if wide or repeated:
            what = "gives the admin role on every project of a domain, the system or a listing"
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)
        return OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "gives the admin role on a project")
    if words[:4] == ["security", "group", "rule", "create"] and any(f"--remote-ip {w}" in joined for w in _EVERYWHERE):
        ports = _option(args, "--dst-port")
        protocol = _option(args, "--protocol") or "any"
        low, _, high = (ports or "").partition(":")
        every_port = (ports is None and protocol != "icmp") or (low.isdigit() and int(low) <= 1 and high == "65535")
        if every_port or (low.isdigit() and int(low) in _SENSITIVE_PORTS):
            return OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                 "opens a security group to the whole internet on every port or a login or "
                                 "database port")  # fmt: skip
        return None
    if words[:2] == ["baremetal", "node"] and words[2:3] in (["undeploy"], ["delete"], ["clean"], ["rebuild"]) and (
        repeated
    ):
        what = f"openstack baremetal node {words[2]} for every node a listing gives (their workloads and disks go)"
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
    if "delete" in words[1:4]:
        if repeated or "--all-projects" in args:
            kind = " ".join(words[: words.index("delete")])
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                 f"openstack {kind} delete for every item a listing gives")  # fmt: skip
        if "--purge" in args:
            return OperationRisk(RiskLevel.MEDIUM, Category.FILESYSTEM, "deletes a volume with its snapshots")
        return None
    if words[:2] == ["server", "create"]:
        count = max((int(v) for v in (_option(args, "--min"), _option(args, "--max")) if v and v.isdigit()), default=0)
        if count >= 100:
            return OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                 f"starts {count:,} servers at once (the cloud's capacity, and a bill)")  # fmt: skip
    if words[:2] == ["port", "set"] and ("--no-security-group" in args or "--disable-port-security" in args):
        level = RiskLevel.HIGH if repeated else RiskLevel.MEDIUM
        return OperationRisk(level, Category.NETWORK, "removes the firewall (port security) of a server's port")
    if words[:2] == ["image", "create"] and _option(args, "--file") in ("/dev/zero", "/dev/urandom", "/dev/random"):
        return OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                             "uploads an endless device as an image (the image store fills)")  # fmt: skip
    written = (_option(args, "--password") or "$")[:1] not in ("$", "\x00")
    if words[:2] == ["user", "set"] and written and (words[2:3] == ["admin"] or words[-1:] == ["admin"]):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                             "sets the cloud administrator's password to a value written in the script")  # fmt: skip
    if words[:3] == ["application", "credential", "create"] and "--unrestricted" in args:
        what = "creates an unrestricted application credential (it can make more credentials)"
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)
    if words[:3] == ["network", "rbac", "create"] and (
        _option(args, "--target-project") == "*" or "--target-all-projects" in args
    ):
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                             "shares a project's network with every project of the cloud")  # fmt: skip
    return None


def _option(args: Sequence[str], name: str) -> str | None:
    """The first value given to option ``name`` (``--name value`` or ``--name=value``)."""
    return next(iter(option_values(args, name)), None)
