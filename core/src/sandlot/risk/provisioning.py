"""Bare-metal provisioning: MAAS, Foreman and the files machines install themselves from (shared by both analyzers).

A provisioning server decides what every new machine runs on its first boot: its kickstart or preseed, the SSH keys
put on it, the accounts it has. What needs a careful reviewer:

* a second root account (uid 0) or passwordless sudo for everyone written into what machines install;
* an SSH key downloaded from a bare outside address registered for deployments (it opens every machine deployed);
* a MAAS administrator created with a password written in the script;
* every host a listing gives marked for rebuild or deleted (a rebuild reinstalls the machine: its disks are wiped),
  every deployed machine released (and erased);
* network-booting machines chained to a bare outside address; root's authorized_keys written by the installer's
  post-install step.

Rendering kickstarts from an inventory, reserving addresses and building one host are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Command-line clients of provisioning servers whose words this module reads.
PROVISIONING_TOOLS = frozenset({"maas", "hammer"})

_WORDS = GateWords("NOPASSWD", "useradd", "adduser", "sshkeys", "ssh_keys", "ssh-keys", "deploy_keys", "deploy-keys",
                   "chain", "authorized_keys")  # fmt: skip
#: iPXE told to boot what an address serves (`chain --autofree http://203.0.113.45/boot/${mac}.ipxe`).
_CHAIN_FROM = re.compile(r"\bchain\s+(?:--?\w+\s+)*https?://(\d{1,3}(?:\.\d{1,3}){3})\b")
#: An installer's post-install step (kickstart, preseed, cloud-init) that adds a key to root's authorized_keys.
_INSTALL_PLANTS_KEY = re.compile(r"(?:%post|late[_-]command|runcmd)[\s\S]{0,400}?/root/\.ssh/authorized_keys")
#: Every user given passwordless sudo (`ALL ALL=(ALL) NOPASSWD: ALL`, `%users …`).
_EVERYONE_SUDO = re.compile(
    r"(?:^|[\"'\s]|(?<=\\n))(?:ALL|%users|%everyone)\s+ALL\s*=\s*\(ALL(?::ALL)?\)\s*NOPASSWD:\s*ALL\b"
)
#: A second account with uid 0 (`useradd -o -u 0`).
_SECOND_ROOT = re.compile(
    r"(?:\b|(?<=\\n))(?:useradd|adduser)\b[^\n;|&'\"]*?\s-(?:o\s+-u|u\s*)\s*0\b(?![\d.])[^\n;|&]*"
)
#: An SSH key API of a provisioning, code-hosting or cloud service.
_KEY_API = re.compile(r"\bsshkeys\b|\bssh[_-]keys\b|\bdeploy[_-]keys\b")
_BARE_DOWNLOAD = re.compile(r"https?://(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?/")


def provisioning_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` plants in the machines a provisioning server installs (or any machine)."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if "NOPASSWD" in text and _EVERYONE_SUDO.search(text):
        what = "gives every user passwordless sudo (anyone with an account is root)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "-u" in text and _SECOND_ROOT.search(text):
        what = "creates a second root account (uid 0 under another name)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "chain" in text and any(outside_address(ip) for ip in _CHAIN_FROM.findall(text)):
        what = "makes network-booting machines boot what a bare outside address serves (iPXE chain)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if "authorized_keys" in text and _INSTALL_PLANTS_KEY.search(text):
        what = "adds an SSH key to root's authorized_keys in what every new machine installs"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if _KEY_API.search(text) and any(outside_address(ip) for ip in _BARE_DOWNLOAD.findall(text)):
        what = "registers an SSH key downloaded from a bare outside address (its holder logs into what it deploys)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    return found


def provisioning_command(name: str, args: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """What one MAAS or Foreman (hammer) command does that needs approval; ``repeated``: once per listed item."""
    words = [a for a in args if not a.startswith("-")]
    if name == "maas" and len(words) >= 3 and words[1:3] == ["users", "create"]:
        fields = dict(w.split("=", 1) for w in words[3:] if "=" in w)
        if fields.get("is_superuser", "").lower() in ("1", "true", "yes") and fields.get("password", "$")[:1] != "$":
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                 "creates a MAAS administrator with a password written in the script")  # fmt: skip
    if name == "maas" and len(words) >= 3 and words[1:3] in (["machine", "release"], ["machines", "release"]) and (
        repeated or words[1] == "machines"  # (`machines release machines=a,b,c`: several at once)
    ):
        erase = any(w.lower() in ("erase=true", "erase=1") for w in words)
        what = "releases every deployed machine a listing gives" + (" and erases its disks" if erase else "")
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what + " (their workloads are gone)")
    if name == "hammer" and words[:1] == ["host"] and repeated:
        after = args[args.index("--build") + 1 :][:1] if "--build" in args else []
        rebuild = after in (["true"], ["yes"], ["1"]) or any(a in ("--build=true", "--build=yes") for a in args)
        if rebuild or words[1:2] == ["delete"]:
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                 "marks every host a listing gives for rebuild or deletes it (a rebuild reinstalls "
                                 "the machine: its disks are wiped)")  # fmt: skip
    return None
