"""FreeBSD and OpenBSD hosts: packages (`pkg`, `pkg_add`), the pf firewall and jails, shared by both analyzers and
judged on the whole text.

What needs a careful reviewer:

* a package installed straight from a web address (its install scripts run as root), every package removed;
* pf rules that let anyone reach a login or remote-desktop port;
* a jail given the host's devices or the right to mount (what keeps it in is gone), every jail stopped.

Packages from the configured repositories, pf tables refreshed, jails created, started and restarted are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

_WORDS = GateWords("pkg", "pass in", "enforce_statfs", "devfs_ruleset", "allow.", "jail")
#: (a command line, or its words as a program's argument list: `["pkg", "add", "-f", URL]`)
_PACKAGE_FROM_URL = re.compile(r"\bpkg[\"',\s]+add\b[^\n]*?\bhttps?://|\bpkg_add\b[^\n]*?\bhttps?://")
_EVERY_PACKAGE_REMOVED = re.compile(r"\bpkg[\"',\s]+(?:delete|remove)\b[^\n]*?(?:[\"'\s]-\w*a\w*\b|--all\b)")
#: pf letting anyone reach a login, remote-desktop or admin port.
_PF_OPEN = re.compile(r"\bpass\s+in\b[^\n]*\bfrom\s+any\b[^\n]*\bport\s*(?:=\s*)?"
                      r"(?:\{[^}]*\b(?:22|23|3389|5900|2375|6379|8443|9000)\b|(?:22|23|3389|5900|2375|6379)\b)")
#: A jail's confinement loosened: the host's devices (ruleset 0), every mount visible or mountable, raw sockets.
_JAIL_LOOSENED = re.compile(r"\benforce_statfs\s*=\s*0\b|\bdevfs_ruleset\s*=\s*0\b|\ballow\.mount(?:\.\w+)?\b"
                            r"(?!\s*=\s*(?:0|false))|\ballow\.raw_sockets\b(?!\s*=\s*(?:0|false))")  # fmt: skip
_JAIL_REMOVED = re.compile(r"\bjail\s+-r\b")


def bsd_host_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a FreeBSD or OpenBSD host: packages from web addresses or all removed, pf opened to
    anyone, jails loosened or all stopped."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _PACKAGE_FROM_URL.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "installs a package straight from a web address (its install scripts run as "
                                   "root)"))  # fmt: skip
    if _EVERY_PACKAGE_REMOVED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "removes every installed package"))
    if ("pfctl" in text or "pf.conf" in text) and _PF_OPEN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "adds pf rules that let anyone reach a login, remote-desktop or admin port"))
    if _JAIL_LOOSENED.search(text) and ("jail" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "gives a jail the host's devices, mounts or raw sockets (its confinement "
                                   "loosened)"))  # fmt: skip
    if _JAIL_REMOVED.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, "stops every jail a listing gives"))
    return found
