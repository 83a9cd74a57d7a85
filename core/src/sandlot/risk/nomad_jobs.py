"""Nomad clusters driven through the CLI, the HTTP API and python-nomad (shared by both analyzers, judged on the
whole text).

A Nomad cluster runs whatever job specs it is given on every client node it picks. What needs a careful reviewer:

* every job a listing gives stopped and purged, every allocation sent SIGKILL, every client node drained at once;
* task groups scaled to thousands;
* the anonymous policy given write or exec rights (anyone who reaches the API submits jobs);
* a job spec fetched from a web address and run, or a task whose artifact comes from a bare IP address;
* every variable a listing gives purged (the jobs' secrets and settings).

Running one's own job file, draining one named node, scaling to a handful and reading variables are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import MASS_COUNT, OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, each_item

_NOMAD_WORDS = GateWords("nomad", "Nomad", "NOMAD", "/v1/allocation", "GetterSource")
_PURGED_JOBS = re.compile(r"\bderegister_job\([^)\n]*purge\s*=\s*True|/v1/job/[^\s\"']*[\"'?][^\n]*purge")
_KILLED_ALLOCATIONS = re.compile(r"/allocation/[^\n]*/signal\b[\s\S]{0,200}?SIGKILL|\balloc\s+signal\b[^\n]*SIGKILL")
_SCALED = re.compile(r"\bjob\s+scale\b[^\n;&|]*\s(\d+)\s*(?:$|[;&|])|[\"']Count[\"']\s*:\s*(\d+)", re.MULTILINE)
_DRAINED = re.compile(r"\bnode\s+drain\s+[^\n]*-enable\b|\bdrain_node(?:_with_spec)?\(")
_ANONYMOUS_WRITE = re.compile(r"\bacl\s+policy\s+apply\b[^\n]*\banonymous\b[\s\S]{0,400}?policy\s*=\s*\"write\"")
_FETCHED_SPEC = re.compile(
    r"\bnomad\s+job\s+run\b[^\n]*<\(\s*(?:curl|wget)\b|\b(?:curl|wget)\b[^\n|]*\|\s*nomad\s+job\s+run\b"
)
_BARE_IP_ARTIFACT = re.compile(
    r"GetterSource[\"']?\s*[:=]\s*[\"']https?://\d{1,3}(?:\.\d{1,3}){3}"
    r"|\bartifact\s*\{[^}]*\bsource\s*=\s*\"https?://\d{1,3}(?:\.\d{1,3}){3}"
)
_PURGED_VARIABLES = re.compile(r"\bvar\s+purge\b|/v1/var/[^\n]*\.delete\(|\.delete\([^\n]*/v1/var/")


def nomad_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Nomad cluster's jobs, nodes, policies and variables."""
    if not _NOMAD_WORDS.any_in(text):
        return []
    found = []
    if _PURGED_JOBS.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "stops and purges every job a listing gives (their allocations and history go)"))
    if _KILLED_ALLOCATIONS.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "kills every allocation a listing gives (SIGKILL: the cluster's services stop)"))
    if any(int(n) >= MASS_COUNT for m in _SCALED.finditer(text) for n in m.groups() if n):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   "scales task groups to thousands of allocations (the cluster runs out)"))
    if _DRAINED.search(text) and (each_item(text) or "xargs" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "drains every client node a listing gives at once (their jobs stop)"))
    if _ANONYMOUS_WRITE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "gives Nomad's anonymous policy write rights (anyone who reaches it runs jobs)"))
    if _FETCHED_SPEC.search(text) or _BARE_IP_ARTIFACT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "runs a job spec or an artifact downloaded from a web address on the cluster's "
                                   "nodes"))  # fmt: skip
    if _PURGED_VARIABLES.search(text) and (each_item(text) or "xargs" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "purges every Nomad variable a listing gives (the jobs' secrets and settings)"))
    return found
