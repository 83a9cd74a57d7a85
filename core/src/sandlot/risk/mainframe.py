"""IBM z/OS operations: RACF, the operator console, JCL utilities, JES, CICS and z/OS UNIX (shared by both
analyzers, judged on the whole text).

The commands arrive through the Zowe CLI or SDK, z/OSMF's REST API, ``tsocmd`` or a job's SYSIN; what needs a
careful reviewer is the same either way:

* RACF privileges taken or given away: SPECIAL, OPERATIONS or AUDITOR, UID 0, ``BPX.SUPERUSER``, a connect to
  ``SYS1`` with JOIN, ALTER or UPDATE on system datasets (to everyone by UACC), a library APF-authorised;
* RACF's protection and auditing switched off (``SETROPTS NOPROTECTALL``, ``NOSAUDIT``, ``LOGOPTIONS(NEVER…)``),
  and the RACF database copied out (its password hashes);
* data destroyed: IDCAMS deletes with PURGE of production datasets or a user catalog, DASD volumes
  reinitialised by ICKDSF, system PARMLIB members emptied;
* the system stopped: JES2 abended or terminated, CICS regions shut down immediately, Db2 stopped with FORCE,
  address spaces forced, network interfaces and VTAM applids taken down, every job cancelled whoever owns it,
  every CICS transaction disabled;
* persistence: a started task planted in ``SYS1.PROCLIB``, a JES2 automatic command, ``/etc/rc`` appended to.

Listing datasets, submitting a team's own jobs, displays (``D A,L``) and ``LISTUSER`` are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Words without which no rule here can match.
_WORDS = GateWords("altuser", "adduser", "altdsd", "addsd", "ralter", "setprog", "setropts", "racf", "idcams",
                   "ickdsf", "parmlib", "$pjes2", "cemt", "stop db2", ",arm", "v net,", "v tcpip", "z eod", "sys1",
                   "bpx.", "zos-jobs", "zos-files", "list_jobs", "delete_data_set", "delete_dsn", "tranid=*",
                   "proclib", "$ta,", "/etc/rc", ignore_case=True)  # fmt: skip
_I = re.IGNORECASE
_RACF_PRIVILEGE = re.compile(
    r"\b(?:ALTUSER|ADDUSER)\s+\S+[^\"'\n]*?\b(?:SPECIAL|OPERATIONS|AUDITOR)\b(?!\s*\))"
    r"|\bOMVS\s*\(\s*UID\s*\(\s*0\s*\)"
    r"|\bPERMIT\s+BPX\.SUPERUSER\b"
    r"|\bCONNECT\s+\S+\s+GROUP\s*\(\s*SYS1\s*\)[^\"'\n]*AUTHORITY\s*\(\s*(?:JOIN|CONNECT)\s*\)"
    r"|\bPERMIT\s+'?SYS1\.[^\"\n]*?ACCESS\s*\(\s*(?:ALTER|CONTROL|UPDATE)\s*\)"
    r"|\b(?:ALTDSD|ADDSD)\s+'?SYS1\.[^\"\n]*?UACC\s*\(\s*(?:ALTER|CONTROL|UPDATE)\s*\)"
    r"|\bRALTER\s+FACILITY\s+BPX\.\S*\s+UACC\s*\(\s*(?:READ|UPDATE|CONTROL|ALTER)\s*\)"
    r"|\bSETPROG\s+APF\s*,\s*ADD\b",
    _I,
)
_RACF_OFF = re.compile(r"\b(?:NOPROTECTALL|NOSAUDIT|NOOPERAUDIT|NOAUDIT\s*\(|LOGOPTIONS\s*\(\s*NEVER)", _I)
#: Access to system datasets given by a PERMIT whose profile a variable holds (`for p in "'SYS1.**'" …`).
_PERMIT_STRONG = re.compile(r"\bPERMIT\s+\S+[^\"\n]*?ACCESS\s*\(\s*(?:ALTER|CONTROL|UPDATE)\s*\)", _I)
_SYSTEM_DATASETS = re.compile(r"'SYS1\.\*\*'|\bSYS1\.(?:PARMLIB|RACF|LINKLIB|LPALIB|PROCLIB)\b", _I)
_PRODUCTION_DATASETS = re.compile(r"[\"'\s(](?:PROD|PRD|SYS1)\.[A-Z]", re.IGNORECASE)
#: Every dataset of a listing deleted (the Zowe CLI's or SDK's delete in a loop).
_DATASET_DELETE = re.compile(r"zos-files[\"',\s]+delete[\"',\s]+data-set|\.delete_data_set\(|\bdelete_dsn\(", _I)
_RACF_DATABASE = re.compile(r"\bSYS1\.RACF\w*|\bracf2john\b", _I)
_RACF_COPIED = re.compile(r"\bdownload\b|\bIRRDBU00\b|\bracf2john\b|\bREPRO\b", _I)
_DATA_DESTROYED = re.compile(
    r"\bDELETE\s+'?(?:PROD|PRD|SYS1)\.\S+[^\n]*?\bPURGE\b|\bUSERCATALOG\s+RECOVERY\b"
    r"|\bPGM=ICKDSF\b[\s\S]{0,400}?\bINIT\b[\s\S]{0,200}?\bPURGE\b"
    r"|upload\s+file-to-data-set\s+/dev/null\s+[\"']?SYS1\.",
    _I,
)
_SYSTEM_STOPPED = re.compile(
    r"\$PJES2\s*,\s*(?:ABEND|TERM)\b|\bCEMT\s+P(?:ERFORM)?\s+SHUT(?:DOWN)?\s+IMM(?:EDIATE)?\b"
    r"|\bSTOP\s+DB2\s+MODE\s*\(\s*FORCE\s*\)|[\"'\s]FORCE\s+[A-Z$#@][\w$#@]*\s*,\s*ARM\b"
    r"|\bV\s+NET\s*,\s*INACT\b|\bV\s+TCPIP\s*,[^\"'\n]*,\s*STOP\b|\bZ\s+EOD\b",
    _I,
)
_EVERY_JOB_CANCELLED = re.compile(
    r"owner\W{1,4}\*[\s\S]{0,400}?\b(?:cancel|delete|purge)_?\s*job|owner\W{1,4}\*[\s\S]{0,400}?\bzos-jobs\s+"
    r"(?:cancel|delete)\b",
    _I,
)
_EVERY_TRANSACTION_DISABLED = re.compile(r"TRANID\s*=\s*\*[\s\S]{0,300}?DISABLED|DISABLED[\s\S]{0,300}?TRANID=\*", _I)
_PLANTED_TASK = re.compile(
    r"(?:upload|write)\w*[^\n]{0,200}?SYS1\.PROCLIB\s*\(|\$TA\s*,\s*I\s*=|>>\s*/etc/rc\b", _I
)


def mainframe_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a z/OS system."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _RACF_PRIVILEGE.search(text) or (_PERMIT_STRONG.search(text) and _SYSTEM_DATASETS.search(text)):
        what = "gives an id RACF's system-wide authority (SPECIAL, OPERATIONS, UID 0, BPX.SUPERUSER, SYS1 access, APF)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "SETROPTS" in text.upper() and _RACF_OFF.search(text):
        what = "switches off RACF's protection or auditing (unprotected datasets allowed, nothing logged)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _RACF_DATABASE.search(text) and _RACF_COPIED.search(text):
        what = "copies the RACF database out (every user's password hash, to crack offline)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _DATA_DESTROYED.search(text) or (
        _DATASET_DELETE.search(text) and each_item(text) and _PRODUCTION_DATASETS.search(text)
    ):
        what = "destroys production or system datasets, a user catalog or whole DASD volumes"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if (
        _SYSTEM_STOPPED.search(text)
        or _EVERY_JOB_CANCELLED.search(text)
        or _EVERY_TRANSACTION_DISABLED.search(text)
    ):
        what = "stops the system's work: JES2, CICS, Db2 or the network forced down, every job or transaction stopped"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if _PLANTED_TASK.search(text):
        what = "plants a started task, an automatic command or a start-up line that runs at every IPL or on a timer"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    return found
