"""Developer VMs and local environments: Vagrant, VirtualBox, Multipass, Lima and Dev Containers (shared by both
analyzers, judged on the whole text).

What needs a careful reviewer:

* every machine or disk image of the host destroyed (``vagrant global-status`` … ``destroy -f``, every registered
  disk closed with ``--delete``), not only the project's;
* a guest reachable from the network: VirtualBox's remote display without authentication on every address, a NAT
  port forward on every address to the guest's Docker API or a shell port;
* the host's root shared into a guest (everything on the host readable and writable from inside it);
* a Dev Container's lifecycle command that runs a download (every teammate who opens the project runs it);
* dozens of large VMs launched at once.

Destroying this project's machine, forwarding a port to localhost, sharing the project folder and launching a few
VMs are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import ARGV_SEP, each_item

#: Words without which no rule here can match.
_WORDS = GateWords("global-status", "closemedium", "vrde", "natpf", "sharedfolder", "postStartCommand",
                   "postCreateCommand", "onCreateCommand", "postAttachCommand", "initializeCommand",
                   "multipass", ignore_case=True)  # fmt: skip
_EVERY_MACHINE = re.compile(r"\bglobal-status\b[\s\S]{0,400}?\bdestroy\b|\bclosemedium\b[^\n]*--delete\b")
_OPEN_DISPLAY = re.compile(
    r"--vrdeauthtype[= ]null\b[\s\S]{0,200}?0\.0\.0\.0|0\.0\.0\.0[\s\S]{0,200}?--vrdeauthtype[= ]null"
)
_OPEN_FORWARD = re.compile(r"\bnatpf\d*\b[^\n]*0\.0\.0\.0\W{1,4}(?:2375|2376|4444|5555|1337|31337)\b")
_HOST_ROOT_SHARED = re.compile(
    r"\bsharedfolder" + ARGV_SEP + r"add\b[^\n]*--hostpath" + ARGV_SEP + r"/(?:[\"'\s,]|$)"
)
_LIFECYCLE_DOWNLOAD = re.compile(
    r"(?:postStartCommand|postCreateCommand|onCreateCommand|postAttachCommand|initializeCommand)[\s\S]{0,200}?"
    r"\b(?:curl|wget)\b[^\n]*\|\s*(?:ba|z|da)?sh\b"
    r"|\b(?:curl|wget)\b[^\n]*\|\s*(?:ba|z|da)?sh\b[\s\S]{0,200}?"
    r"(?:postStartCommand|postCreateCommand|onCreateCommand|postAttachCommand|initializeCommand)"
)
_MANY_VMS = re.compile(r"\bseq\s+1\s+(\d+)|\brange\(\s*(\d+)\s*\)")


def dev_machine_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a developer's VMs and environments."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _EVERY_MACHINE.search(text) and each_item(text):
        what = "destroys every VM or deletes every disk image registered on the host (not only this project's)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _OPEN_DISPLAY.search(text) or _OPEN_FORWARD.search(text):
        what = "exposes a VM on every address: its remote display without authentication, or its Docker API or a shell"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _HOST_ROOT_SHARED.search(text):
        what = "shares the host's whole file system into a VM (anything inside reads and writes the host)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _LIFECYCLE_DOWNLOAD.search(text):
        what = "makes a Dev Container run a download piped to a shell whenever the project is opened"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    launches = max((int(a or b) for a, b in _MANY_VMS.findall(text)), default=0) if "multipass" in text else 0
    if launches >= 20 and re.search(r"\blaunch\b", text):
        what = f"launches {launches} VMs at once (the host's memory and disk run out)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found
