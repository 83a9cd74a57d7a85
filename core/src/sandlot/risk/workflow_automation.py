"""Low-code workflow automation: n8n, Windmill and Kestra, through their APIs, CLIs and flow definitions (shared by
both analyzers, judged on the whole text).

What needs a careful reviewer:

* a workflow whose command step runs what a webhook request sends (`{{ $json.query.c }}`, `{{ trigger.body.c }}`):
  anyone who knows the URL runs commands on the workers;
* every stored variable, resource or credential read out and sent to another host;
* hundreds of thousands of runs queued at once (the workers, and whatever the script charges or mails, swamped);
* an account's second factor switched off from the CLI.

Workflows exported for review, one run triggered, variables read by the scripts that need them and the owner's own
MFA reset through the UI are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_elsewhere

_FLOW_WORDS = GateWords("{{", "get_variable", "get_resource", "/variables/list", "/credentials", "run_script_async",
                        "run_flow_async", "mfa:disable")  # fmt: skip
#: A command step fed from the request that triggered the workflow.
_REQUEST_COMMAND = re.compile(
    r"(?:[\"']command[\"']\s*:|\bcommands\s*:)[\s\S]{0,200}?\{\{\s*(?:\$json\.(?:query|body|headers|params)"
    r"|\$request|trigger\.(?:body|headers|parameters)|inputs\.)",
)
_STORE_READ = re.compile(r"\bget_variable\(|\bget_resource\(|/variables/list|/resources/list|/credentials\b")
#: The automation servers' own hosts (where their variables belong).
_OWN_HOSTS = re.compile(r"^(?:localhost|127\.)|windmill|n8n|kestra|\.(?:svc|local|internal)(?:\.|$)")
_RUNS = re.compile(r"\b(?:run_script_async|run_flow_async)\(")
_HUGE_COUNT = re.compile(r"\brange\(\s*\d{5,}\s*\)|=\s*\d{5,}\s*\)[\s\S]{0,400}?\brange\(")


def workflow_automation_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does through a workflow automation server: commands from requests, stores read out, runs
    queued in bulk, second factors removed."""
    if not _FLOW_WORDS.any_in(text):
        return []
    found = []
    if "{{" in text and _REQUEST_COMMAND.search(text):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                                   "adds a workflow whose command step runs what a webhook request sends (anyone "
                                   "with the URL runs commands)"))  # fmt: skip
    if _STORE_READ.search(text) and each_item(text) and sends_elsewhere(text, _OWN_HOSTS):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "reads every stored variable, resource or credential of an automation server and "
                                   "sends them to another host"))  # fmt: skip
    if _RUNS.search(text) and _HUGE_COUNT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   "queues tens of thousands of workflow runs at once (the workers and whatever the "
                                   "script touches are swamped)"))  # fmt: skip
    if "mfa:disable" in text:
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "switches an account's second factor off from the server's CLI"))
    return found
