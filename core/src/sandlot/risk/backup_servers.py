"""Backup servers driven through their consoles: Bacula and Bareos (``bconsole``), judged on the whole text
(shared by both analyzers).

A backup server's console can take away what every restore depends on. What needs a careful reviewer:

* backup volumes purged and deleted from the catalog, one after another over a listing;
* retention cut to hours or minutes (the next prune throws away every older backup);
* hundreds of full runs of every job queued at once (the tape drives and the storage are busy for days).

Listing volumes, running one job, restoring a test file and pruning by the configured retention are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

#: Words without which no rule here can match.
_WORDS = GateWords("volume=", "Retention", "run job=")
#: A volume purged or deleted by a name a loop or a listing fills in (`delete volume={n} yes`).
_VOLUME_DELETE = re.compile(r"\b(?:purge|delete)\s+volume\s*=\s*(?:\{|\$|%)")
#: Retention cut to hours, minutes or seconds.
_SHORT_RETENTION = re.compile(
    r"(?:Volume|File|Job)\s+Retention[^\n]{0,60}?\b(?:\d+\s*(?:hours?|h|minutes?|mins?|seconds?|secs?|s)|[12]\s*days?)\b",
    re.I,
)
_REPEATED_RUNS = re.compile(r"\brun\s+job\s*=[\s\S]{0,200}?\brange\(\s*(\d+)\s*\)|(?:\brange\(|\bseq\s+\d+\s+)\s*(\d+)"
                            r"\s*\)?[\s\S]{0,200}?\brun\s+job\s*=")


def backup_server_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a backup server through its console or its settings."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _VOLUME_DELETE.search(text) and any_loop(text):
        what = "purges and deletes backup volumes from the catalog, one after another (their backups are gone)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _SHORT_RETENTION.search(text):
        what = "cuts backup retention to a day or less (the next prune throws every older backup away)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    runs = _REPEATED_RUNS.search(text)
    if runs is not None and int(runs[1] or runs[2]) >= 50:
        what = f"queues {int(runs[1] or runs[2])} runs of backup jobs at once (drives and storage busy for days)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found
