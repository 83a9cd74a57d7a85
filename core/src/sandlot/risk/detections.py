"""Security monitoring's own content: detection rules, exceptions, log retention and log forwarding
(shared by both analyzers, judged on the whole text).

A SIEM only sees what its rules look for, what its exceptions let through and what its retention keeps; its
forwarders decide where the logs go. What needs a careful reviewer:

* detection rules or scheduled searches disabled in bulk;
* an exception that matches everything (`value: "*"`), attached to the rules;
* a lifecycle policy that deletes logs at once, a superuser created in the log store;
* logs dumped or forwarded to a bare outside address;
* a request that asks a service to skip its audit trail (``"skip_audit": True``);
* malware samples run or imported on the machine itself (not in a detonation sandbox): a folder of samples
  executed natively, under ``strace`` or ``wine``, or a sample archive's contents run after extraction.

An endpoint detection console's fleet actions are judged too: every host contained or isolated, every agent
uninstalled, disabled or disconnected, a file quarantined on every machine, exclusions of a whole drive or of
``/``, prevention policies switched off one after another.

Tuning one rule, adding a narrow exception and setting a retention of days or months are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

_RULES_DISABLED = re.compile(
    r"detection_engine/rules/_bulk_action[\s\S]{0,200}?[\"']disable[\"']|[\"']action[\"']\s*:\s*[\"']disable[\"']"
    r"[\s\S]{0,200}?detection_engine|saved/searches[\s\S]{0,400}?disabled=1"
)
_CATCH_ALL_EXCEPTION = re.compile(r"exception_lists?/items[\s\S]{0,600}?[\"']value[\"']\s*:\s*[\"']\*[\"']")
_IMMEDIATE_DELETE = re.compile(r"[\"']delete[\"']\s*:\s*\{\s*[\"']min_age[\"']\s*:\s*[\"']0(?:ms|s|m|h|d)?[\"']")
_STORE_SUPERUSER = re.compile(r"_security/user/[\s\S]{0,300}?[\"']roles[\"']\s*:\s*\[[^\]]*[\"']superuser[\"']")
_DUMP_TO_ADDRESS = re.compile(r"--output=?[\"']?\w+://(?:[^@/\s]*@)?(\d{1,3}(?:\.\d{1,3}){3})")
_FORWARD_TO_ADDRESS = re.compile(r"^\s*server\s*=\s*(\d{1,3}(?:\.\d{1,3}){3}):\d+", re.MULTILINE)
#: A request or setting that has a service leave what it does out of its audit log.
_AUDIT_SKIPPED = re.compile(
    r"[\"']?(?:skip|suppress|bypass|disable|no)[-_]?audit(?:[-_]?(?:log|trail))?[\"']?\s*[:=]\s*[\"']?(?:True|true|1|yes)\b"
    r"|[\"']audit(?:[-_]?(?:log|trail))?[\"']\s*:\s*(?:False|false|0)\b",
)
#: A malware sample run here: its folder's files executed (natively, under strace or wine) or imported, or what
#: an archive with the malware exchanges' password (`infected`) held run after extraction.
_SAMPLE_FOLDER = r"(?<![.\w])(?:/|~/)[\w./-]*(?:samples?|malware|detonat\w*|quarantine)/[^\s\"']*"
_SAMPLE_RUN = re.compile(
    r"\b(?:wine|strace\b[^\n]*?|ltrace)\s+[^\n]*?" + _SAMPLE_FOLDER
    + r"|\bcd\s+" + _SAMPLE_FOLDER + r"[^\n]*?&&\s*(?:wine\s+)?\./"
    + r"|(?:spec_from_file_location|exec_module|runpy\.run_path)[\s\S]{0,200}?" + _SAMPLE_FOLDER
    + r"|" + _SAMPLE_FOLDER + r"[\s\S]{0,300}?(?:spec_from_file_location|exec_module)"
    + r"|\bfind\s+" + _SAMPLE_FOLDER + r"[^\n]*\|\s*xargs\b[^\n]*\bwine\b"
    + r"|" + _SAMPLE_FOLDER + r"[\s\S]{0,300}?\bstrace\b[\s\S]{0,200}?str\(sample\)"
)
_INFECTED_ARCHIVE = re.compile(r"(?:\s-p|--password[= ]|setpassword\(\s*b?)[\"']?infected\b")
_RUNS_EXTRACTED = re.compile(r"^\s*\./\S+|\bwine\s+\S+\.exe\b|subprocess\.\w+\(\s*\[?\s*(?:str\()?\w+", re.MULTILINE)
_EDR_WORDS = GateWords("action_name", "devices-actions", "/machines/", "agents/actions", "exclusion", "prevention")
_WORDS = GateWords("action_name", "devices-actions", "/machines/", "agents/actions", "exclusion", "prevention",
                   "udit", "detection_engine", "saved/searches", "exception_list", "min_age", "_security/user",
                   "--output", "tcpout", "sample", "malware", "detonat", "quarantine", "infected")  # fmt: skip


#: An EDR console's actions on hosts: contain, isolate, uninstall, disable, disconnect, quarantine a file.
_FLEET_ACTION = re.compile(
    r"devices-actions/v\d\?action_name=contain|action_name\W{1,4}contain|/machines/(?:\{[^}\n]*\}|[^\s\"'/]+)/(?:isolate|"
    r"StopAndQuarantineFile|offboard)\b|agents/actions/(?:uninstall|disable-agent|disconnect|shutdown)\b"
)
#: ...on every host: a listing looped over, or a filter that matches them all (the whole tenant, every site).
_EVERY_HOST_FILTER = re.compile(
    r"[\"']filter[\"']\s*:\s*\{\s*(?:[\"'](?:isActive|tenant)[\"']\s*:\s*[Tt]rue\s*\}|[\"'](?:siteIds|accountIds)"
    r"[\"']\s*:\s*(?:\[\s*\w+\[|sites\b|accounts\b|ids\b))|devices-scroll|queries/devices"
    r"|\.map\(\s*\w+\s*,\s*\w+\s*\)"  # (a function mapped over a listing by a thread pool)
)
#: An exclusion of a whole drive or of the root (`C:\\`, `/`) from every monitor.
_ROOT_EXCLUSION = re.compile(r"exclusions?\b[\s\S]{0,600}?(?:[\"']value[\"']\s*:\s*root\b|[\"']C:\\\\[\"'])"
                             r"[\s\S]{0,600}?(?:disable_all_monitors|pathExclusionType)"
                             r"|[\"']C:\\\\[\"'][\s\S]{0,600}?disable_all_monitors")
_PREVENTION_OFF = re.compile(r"policy/\w+/prevention[\s\S]{0,1200}?[\"']enabled[\"']\s*:\s*False|prevention_settings"
                             r"[\s\S]{0,600}?[\"']enabled[\"']\s*:\s*False")


def edr_console_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a fleet of endpoints through an EDR console's API."""
    found = []
    if _FLEET_ACTION.search(text) and (each_item(text) or _EVERY_HOST_FILTER.search(text)):
        what = "contains, isolates, uninstalls or disables the endpoint agent on every host a listing or filter gives"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if _ROOT_EXCLUSION.search(text) or (_PREVENTION_OFF.search(text) and each_item(text)):
        what = "excludes whole drives from the endpoint agent, or switches its prevention policies off one by one"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found


def detection_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a SIEM's rules, exceptions, retention and forwarding."""
    if not _WORDS.any_in(text):
        return []
    found = edr_console_risks(text) if _EDR_WORDS.any_in(text) else []
    disabled = _RULES_DISABLED.search(text)
    if disabled and ("saved/searches" not in disabled[0] or each_item(text)):
        what = "disables detection rules or scheduled searches in bulk (attacks go unnoticed)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _CATCH_ALL_EXCEPTION.search(text):
        what = "adds a detection exception that matches everything (every alert it is attached to is silenced)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _IMMEDIATE_DELETE.search(text):
        what = "sets a log lifecycle policy that deletes the logs at once"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _STORE_SUPERUSER.search(text):
        what = "creates a superuser in the log store (every index, every setting)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "udit" in text and _AUDIT_SKIPPED.search(text):
        what = "asks a service to leave what it does out of its audit trail"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if _SAMPLE_RUN.search(text) or (_INFECTED_ARCHIVE.search(text) and _RUNS_EXTRACTED.search(text)):
        what = "runs or imports malware samples on this machine (outside a detonation sandbox)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    addresses = [*_DUMP_TO_ADDRESS.findall(text), *(_FORWARD_TO_ADDRESS.findall(text) if "tcpout" in text else [])]
    if any(outside_address(a) for a in addresses):
        what = "dumps or forwards logs to a bare outside address"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found


#: Endpoint detection agents' own command-line tools.
EDR_AGENT_CLIS = frozenset({"mdatp", "sentinelctl", "falconctl"})
#: What turns an agent off or blinds it: protection features disabled, exclusions or allowed threats added, the
#: agent unprotected, stopped or unloaded, its registration deleted.
_EDR_TAMPER = re.compile(
    r"^(?:config\s+[\w-]+\s+--value\s+(?:disabled|passive)|exclusion\s+[\w-]+\s+add|threat\s+allowed\s+add"
    r"|control\s+(?:unprotect|stop|unload|disable)|agent\s+uninstall|unload|uninstall)\b"
    r"|(?:^|\s)(?:-d|--delete)(?:\s|$)"
)


def edr_agent_tampering(name: str, args: list[str]) -> str | None:
    """What ``name ARGS`` does to an endpoint detection agent when it blinds or stops it (``mdatp config
    real-time-protection --value disabled``, ``sentinelctl control unprotect``, ``falconctl -d``), else None: its
    status, scans, definitions updates and diagnostics are routine."""
    tamper = _EDR_TAMPER.search(" ".join(args)) if name in EDR_AGENT_CLIS else None
    if tamper is None:
        return None
    return f"{name} {tamper.group().strip()} switches off or blinds the endpoint detection agent"
