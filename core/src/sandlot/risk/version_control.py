"""Centralised version control servers: Perforce Helix Core, Subversion and Mercurial (shared by both analyzers,
judged on the whole text).

What needs a careful reviewer:

* Helix's protections table given a ``super`` or ``admin`` line (for everyone, or an account written in), its
  security level or password rules lowered (``security=0``, ``dm.password.minlength=0``);
* the server's recovery thrown away: checkpoints, rotated journals or the live journal and ``db.*`` files
  removed; every Mercurial repository's history stripped without a backup;
* every running command terminated and the server stopped, or a fleet of servers stopped one by one;
* an ``auth-check`` trigger whose script keeps the passwords it is handed, a hook that runs what a commit's
  revision property says (anyone who commits chooses the command).

Reading the protections table, rotating journals with ``p4d -jc``, stopping one server for maintenance and
hooks that check what they are given are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import ARGV_SEP, each_item

#: Words without which no rule here can match.
_WORDS = GateWords("protect", "security=", "minlength", "checkpoints", "journal", "strip", "terminate", "admin",
                   "auth-check", "svnlook", ignore_case=True)  # fmt: skip
#: A protections line that makes someone a super user or an administrator of a path.
_SUPER_LINE = re.compile(r"(?:\\t|\b)(?:super|admin)\s+(?:user|group)\s+\S+\s+\S+\s+-?//", re.IGNORECASE)
_PROTECTIONS_SAVED = re.compile(r"\bprotect\s+-i\b|\bsave_protect\(|\brun_protect\([^)]*-i|\binput_protect", re.I)
_SECURITY_LOWERED = re.compile(
    r"\bsecurity=[01]\b|\bdm\.password\.minlength=0\b|\bdm\.user\.noautocreate=0\b|\bauth\.sso\.allow\.passwd=1\b"
)
_HELIX_CONFIGURE = re.compile(r"\bconfigure" + ARGV_SEP + r"set\b", re.IGNORECASE)
_RECOVERY_REMOVED = re.compile(r"\brm\b[^\n]*\bcheckpoints?/\*|\brm\b[^\n]*/(?:root/)?db\.[\w*]")
_JOURNAL_GONE = re.compile(r"\brm\b[^\n]*\bjournal\b|:\s*>\s*\S*journal\b|\btruncate\b[^\n]*journal\b")
_HISTORY_STRIPPED = re.compile(
    r"\bstrip\b[^\n]*--no-backup[^\n]*-r\s*['\"]?(?:roots\(all\(\)\)|all\(\)|0\b|:)"
    r"|\bstrip\b[^\n]*-r\s*['\"]?(?:roots\(all\(\)\)|all\(\))[^\n]*--no-backup"
)
_COMMANDS_TERMINATED = re.compile(r"\bmonitor" + ARGV_SEP + r"terminate\b", re.IGNORECASE)
_SERVER_STOPPED = re.compile(r"\badmin" + ARGV_SEP + r"stop\b|\brun_admin\(\s*['\"]stop['\"]", re.IGNORECASE)
_PASSWORD_KEPT = re.compile(r"\bread\b[^\n]*\b(\w*(?:pw|pass|password|secret)\w*)\b[\s\S]*?\$\{?\1\b[^\n]*>>")
_PROPERTY_RUN = re.compile(r"\$\((?:[^()]*\bsvnlook\b[^()]*\bprop(?:get|list)\b[^()]*)\)[\s\S]{0,200}?\beval\b")


def version_control_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Perforce, Subversion or Mercurial server."""
    if not _WORDS.any_in(text):
        return []
    low = text.lower()
    found = []
    if "protect" in low and _SUPER_LINE.search(text) and _PROTECTIONS_SAVED.search(text):
        what = "adds a super or admin line to Helix's protections table (an account gets every right on the depots)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("security=" in low or "minlength" in low or "noautocreate" in low) and (
        _SECURITY_LOWERED.search(text) and _HELIX_CONFIGURE.search(text)
    ):
        what = "lowers the Helix server's security level or password rules"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    journal = "journal" in low and _JOURNAL_GONE.search(text)
    if ("checkpoint" in low or "db." in low) and _RECOVERY_REMOVED.search(text) and journal:
        what = "removes the Helix server's checkpoints and journals (nothing to recover its metadata from)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if "strip" in low and _HISTORY_STRIPPED.search(text):
        what = "strips a Mercurial repository's whole history without a backup"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    terminated = "terminate" in low and _COMMANDS_TERMINATED.search(text) and each_item(text)
    stopped = "stop" in low and _SERVER_STOPPED.search(text)
    if (terminated and stopped) or (stopped and each_item(text) and "p4" in low):
        what = "terminates every running version-control command and stops the server, or stops every server"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if "auth-check" in low and _PASSWORD_KEPT.search(text):
        what = "installs an auth-check trigger that keeps every password it is given"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION, what))
    if "svnlook" in low and _PROPERTY_RUN.search(text):
        what = "a hook runs what a commit's revision property says (anyone who commits chooses the command)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    return found
