"""Lakehouse tables (Delta Lake, Apache Iceberg, Hudi) harmed through their files or their Python APIs (shared by
both analyzers, judged on the whole text).

A lakehouse table is its data files plus the log or metadata that says which of them make up each version. What
needs a careful reviewer:

* the log or metadata itself deleted or overwritten (``_delta_log``, ``*.metadata.json``, the manifests under
  ``metadata/``): every version of the table becomes unreadable, though its data files remain;
* every old version thrown away at once (``DeltaTable.vacuum(0)``, the retention check switched off): no time
  travel back to before a bad write.

Maintenance through the engines' own procedures (``OPTIMIZE``, ``expire_snapshots`` with a retention, ``VACUUM``
with the default one) is routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_LAKEHOUSE_WORDS = GateWords("_delta_log", "metadata", "vacuum(", "retentionDurationCheck")
#: The table's own bookkeeping: Delta's log, Iceberg's metadata files and manifests, Hudi's timeline.
_TABLE_METADATA = re.compile(r"_delta_log|\.metadata\.json|/metadata/|[\"']metadata[\"']|/\.hoodie\b")
#: ...deleted or overwritten (rm, a filesystem's delete, an open for writing).
_DESTROYED = re.compile(r"\brm\s+-\w*r|\s-rm\b|\.(?:rm|delete|remove|delete_objects|rmtree)\("
                        r"|\.open\([^)\n]*[\"']wb?[\"']|-exec\s+rm\b")  # fmt: skip
_ZERO_RETENTION = re.compile(r"\.vacuum\(\s*0(?:\.0)?\s*\)|retentionDurationCheck\.enabled[\"']?\s*,\s*[\"']?false")


def lakehouse_text_risks(text: str) -> list[OperationRisk]:
    """Lakehouse tables' logs or metadata destroyed, or every old version thrown away, in ``text``."""
    if not _LAKEHOUSE_WORDS.any_in(text):
        return []
    found = []
    if _TABLE_METADATA.search(text) and _DESTROYED.search(text) and ("delta" in text or "iceberg" in text.lower()
                                                                      or "hoodie" in text or "warehouse" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes or overwrites lakehouse tables' logs or metadata (every version of the "
                                   "tables becomes unreadable)"))  # fmt: skip
    if _ZERO_RETENTION.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "vacuums a Delta table with no retention (every earlier version is deleted: no "
                                   "time travel back)"))  # fmt: skip
    return found
