"""Alerting switched off wholesale: Alertmanager silences that match every alert, monitoring scaled to nothing.

A silence for one alert on one host during a change is routine; one whose matchers match anything (``=~".+"``,
``=~".*"``, or no matcher at all) mutes every page for as long as it lasts. Shared by both analyzers.
"""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Sequence

from sandlot.risk import paths
from sandlot.risk.destinations import internal_host

#: A matcher that matches every value: `alertname=~".+"`, `severity=~'.*'`.
_MATCH_ALL = re.compile(r"""^\s*\w+\s*=~\s*["']?\.[*+]["']?\s*$""")
#: The same in an API body: `{"name": "alertname", "value": ".+", "isRegex": true}`.
_MATCH_ALL_JSON = re.compile(r"""["']value["']\s*:\s*["']\.[*+]["']""")
#: Components that watch a cluster or a fleet and page people (scaled to zero, nothing watches any more).
MONITORING_COMPONENTS = ("alertmanager", "prometheus", "grafana", "loki", "falco", "wazuh", "fluent", "vector",
                         "otel-collector", "opentelemetry-collector", "datadog", "newrelic", "elastic-agent",
                         "filebeat", "node-exporter")  # fmt: skip


def silences_everything(matchers: Sequence[str]) -> bool:
    """``amtool silence add MATCHER…``: no matcher, or only ones that match any value."""
    return not matchers or all(_MATCH_ALL.match(m) for m in matchers)


def silence_request_mutes_everything(url: str, code: str) -> bool:
    """A request to Alertmanager's silences API whose matchers (spelled in ``code``) match any value."""
    return "/silences" in url and _MATCH_ALL_JSON.search(code) is not None


#: A quoted or bare absolute (or home) path in a shipper's configuration (`include = ["/root/.ssh/*"]`).
_CONFIG_PATH = re.compile(r"""(?:(?<=["'\s=\[,])|^)((?:/|~/)[^\s"',\]]+)""", re.MULTILINE)
_URL = re.compile(r"""https?://[^\s"'<>]+""")


def shipper_collects_secrets(content: str) -> str | None:
    """A log or metrics shipper's configuration (Vector, Fluent Bit, Filebeat, an OpenTelemetry collector) that
    tails secret files (keys, kubeconfigs, credentials) and sends to a host outside the network: the secret
    read, and the host it goes to."""
    secret = next((p for p in _CONFIG_PATH.findall(content) if paths.classify(p).secret), None)
    if secret is None:
        return None
    for url in _URL.findall(content):
        host = urllib.parse.urlsplit(url).hostname or ""
        if host and not internal_host(host):
            return f"{secret} to {host}"
    return None
