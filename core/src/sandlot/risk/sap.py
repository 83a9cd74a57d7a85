"""SAP systems administered from scripts: RFC calls (pyrfc, startrfc), HANA SQL (hdbcli, hdbsql), sapcontrol and
the instance profiles (shared by both analyzers, judged on the whole text).

What needs a careful reviewer:

* users' password hashes read out of USR02, or the user tables written directly (SAP_ALL in UST04, locks lifted
  in USR02): every change document and authorisation check bypassed;
* generated ABAP installed and run over RFC (``RFC_ABAP_INSTALL_AND_RUN``): any code at all, as the RFC user;
* the standard users (``SAP*``, ``DDIC``, ``EARLYWATCH``) unlocked or given a known password, or every user a
  listing gives a known password;
* HANA's SYSTEM user reactivated, users with admin privileges granted ``WITH ADMIN OPTION``, passwords that never
  expire, the password policy weakened, the backup catalog deleted with its files;
* instance profiles that bring back the ``SAP*`` fallback login or switch lockout off;
* the database hard-killed (``HDB kill``), every instance stopped.

Reading profiles, listing instances, transports and backups are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

#: Words without which no rule here can match.
_WORDS = GateWords("USR02", "usr02", "UST04", "RFC_ABAP_INSTALL_AND_RUN", "BAPI_USER", "ALTER USER",
                   "WITH ADMIN OPTION", "BACKUP CATALOG DELETE", "login/", "HDB kill", "minimal_password_length",
                   "StopSystem")  # fmt: skip
_PASSWORD_HASHES = re.compile(
    r"\bUSR02\b[\s\S]{0,300}?\b(?:PWDSALTEDHASH|PASSCODE|BCODE)\b|\b(?:PWDSALTEDHASH|PASSCODE|BCODE)\b[\s\S]{0,300}?"
    r"\bUSR02\b",
    re.IGNORECASE,
)
_USER_TABLE_WRITE = re.compile(
    r"\b(?:UPDATE|UPSERT|INSERT\s+INTO|MODIFY)\s+(?:\w+\.)?(?:USR02|UST04|UST12|AGR_USERS)\b", re.IGNORECASE
)
_STANDARD_USER = re.compile(r"['\"](?:SAP\*|DDIC|EARLYWATCH|TMSADM|SAPCPIC)['\"]")
_KNOWN_PASSWORD = re.compile(r"\bBAPIPWD[\"']?\s*:\s*[\"'][^\"'$]{4,}[\"']|\bPASSWORD\s*=\s*[\"'][^\"'$]{4,}[\"']")
_HANA_USER = re.compile(
    r"\bALTER\s+USER\s+SYSTEM\s+ACTIVATE\b|\bALTER\s+USER\s+\w+\s+PASSWORD\s+\"[^\"]+\"[^;\n]*NO\s+FORCE_FIRST_PASSWORD"
    r"|\bDISABLE\s+PASSWORD\s+LIFETIME\b|\bGRANT\b[^;\n]*\b(?:USER|ROLE|DATA)\s+ADMIN\b[^;\n]*\bWITH\s+ADMIN\s+OPTION\b",
    re.IGNORECASE,
)
_WEAK_POLICY = re.compile(r"minimal_password_length[\"')\s]*=\s*'?([1-7])\b|login/min_password_lng\s*=\s*([1-5])\b"
                          r"|login/no_automatic_user_sapstar\s*=\s*0\b|login/fails_to_user_lock\s*=\s*(?:[2-9]\d|\d{3,})")
_BACKUPS_DELETED = re.compile(r"\bBACKUP\s+CATALOG\s+DELETE\b[^;\n]*\bCOMPLETE\b", re.IGNORECASE)
_HARD_STOP = re.compile(r"\bHDB\s+kill(?:-9)?\b|-function\s+StopSystem\s+ALL\b")


def sap_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to an SAP system through RFC, HANA SQL, sapcontrol or its profiles."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _PASSWORD_HASHES.search(text):
        what = "reads SAP users' password hashes (USR02: every login can be cracked offline)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _USER_TABLE_WRITE.search(text):
        what = "writes SAP's user tables directly (profiles, locks: no change documents, no checks)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "RFC_ABAP_INSTALL_AND_RUN" in text:
        what = "installs and runs generated ABAP over RFC (any code, as the RFC user)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if "BAPI_USER" in text and (
        _STANDARD_USER.search(text) or (_KNOWN_PASSWORD.search(text) and (any_loop(text) or "chr" in text))
    ):
        what = "unlocks SAP's standard users or sets a known password on the users a list gives"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _HANA_USER.search(text):
        what = "reactivates HANA's SYSTEM user or makes administrators with passwords that never expire"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _WEAK_POLICY.search(text):
        what = "weakens SAP's logins (the SAP* fallback login back, lockout off, passwords of a few characters)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _BACKUPS_DELETED.search(text):
        what = "deletes HANA's backups from the catalog and from storage (COMPLETE)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _HARD_STOP.search(text):
        what = "hard-kills the HANA database or stops every instance of an SAP system"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    return found


def sap_control_function(args: list[str]) -> str:
    """The web method a ``sapcontrol``/``saphostctrl`` call invokes (``-function ListInstances``), or ""."""
    return next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "-function"), "")


def sap_control_reads(args: list[str]) -> bool:
    """``saphostctrl -function ListInstances``, ``sapcontrol -nr 00 -function GetProcessList``: state, read."""
    return sap_control_function(args).startswith(("List", "Get", "Check", "ABAPGetWPTable"))
