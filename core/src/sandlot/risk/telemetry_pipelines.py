"""Telemetry pipelines rewired: OpenTelemetry Collector, Vector and agents' exporters (shared by both analyzers,
judged on the whole text).

A collector sees every log line, trace and metric of the services that report to it, request bodies and users'
identifiers included, and its redaction processors are what keeps secrets out of them. What needs a careful
reviewer: an exporter on a bare outside IP address added to the pipelines, or the redaction processor taken out of
them (a copy of everything leaves, unscrubbed). Exporters to the vendor's named endpoints or to internal addresses,
and pipelines rearranged otherwise, are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_PIPELINE_WORDS = GateWords("pipelines", "exporters", "sinks")
_EXPORTER_ADDRESS = re.compile(r"[\"']?endpoint[\"']?\s*[:=]\s*[\"']?(?:\w+://)?(\d{1,3}(?:\.\d{1,3}){3})")
_REDACTION_REMOVED = re.compile(
    r"(?:del\(|!=|not\s+\w+\.startswith\(\(?|\bremove\()[^\n]*[\"'](?:redaction|attributes/scrub)"
)


def telemetry_text_risks(text: str) -> list[OperationRisk]:
    """Exporters to outside addresses and redaction removed from a telemetry pipeline, in ``text``."""
    if not _PIPELINE_WORDS.any_in(text) or "pipelines" not in text:
        return []
    outside = any(outside_address(ip) for ip in _EXPORTER_ADDRESS.findall(text))
    if outside and _REDACTION_REMOVED.search(text):
        return [OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                              "sends a copy of every telemetry pipeline to an outside address with the redaction "
                              "processor removed (logs and traces leave unscrubbed)")]  # fmt: skip
    return []
