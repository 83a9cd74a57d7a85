"""Application platforms (Heroku, Fly.io, Vercel, Netlify, Render, Azure Functions' settings) driven through their
CLIs and APIs (shared by both analyzers, judged on the whole text).

A platform holds an app's code, its add-on databases and the config vars that hold their passwords. What needs a
careful reviewer, in the platforms' own words:

* an app transferred to a person's address (``heroku apps:transfer someone@…``, ``/account/app-transfers``):
  the code, the data and the add-ons change hands;
* an account given owner or manage rights over apps or the team;
* config vars or app settings read and sent to a host other than the platform's own API;
* a buildpack fetched from a bare IP address (its scripts run in every build, with the app's config);
* performance machines or dynos by the dozen for every app or region;
* a database published with its password check off (``POSTGRES_HOST_AUTH_METHOD=trust`` and a public address).

Deploys, releases, one review app's teardown, setting a config var and scaling a handful of dynos are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import MASS_COUNT, OperationRisk, costly_machine
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, sends_elsewhere

_PAAS_WORDS = GateWords("heroku", "vercel", "netlify", "machines.dev", "fly ", "flyctl", "render.com", "buildpack",
                        "POSTGRES_HOST_AUTH_METHOD", "list_application_settings", "appsettings")  # fmt: skip
_TRANSFER_TO_PERSON = re.compile(
    r"\bapps:transfer\b[^\n]*?\s[\w.+-]+@[\w-]+\.[\w.]+"
    r"|app-transfers[\s\S]{0,300}?[\"']recipient[\"']\s*:\s*[\"'][^\"'@\s]+@",
)
_OWNER_GRANT = re.compile(
    r"/teams/[^\s\"']*/members[\s\S]{0,300}?[\"']role[\"']\s*:\s*[\"'](?:OWNER|ADMIN|owner|admin)[\"']"
    r"|collaborators[\s\S]{0,300}?[\"']permissions[\"']\s*:\s*\[[^\]]*[\"']manage[\"']"
    r"|\baccess:add\b[^\n]*--permissions[= ]\S*\bmanage\b",
)
#: Reads of an app's config vars or settings (their values: database URLs, API keys).
_SETTINGS_READ = re.compile(r"/config-vars\b|/env\b[^\n]*\bdecrypt=true|\blist_application_settings\(")
_PLATFORM_HOSTS = re.compile(r"(?:^|\.)(?:heroku\.com|vercel\.com|netlify\.com|machines\.dev|fly\.io|render\.com"
                             r"|azure\.com|windows\.net|microsoft\.com)$")  # fmt: skip
_BARE_IP_BUILDPACK = re.compile(r"https?://\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?/[^\s\"']*(?:buildpack|\.tgz|\.tar\.gz)")
_MACHINE_COUNT = re.compile(
    r"[\"']quantity[\"']\s*:\s*(\d+)|\bscale\s+count\s+(\d+)|\brange\(\s*(\d+)\s*\)|--count[= ](\d+)"
)
#: The size a scale or a machine is given (`--vm-size performance-16x`, `"size": "performance-l"`).
_SIZE = re.compile(r"(?:--vm-size[= ]|--size[= ]|[\"']size[\"']\s*:\s*[\"'])([\w.-]+)")
_MANY_CPUS = re.compile(r"\bcpus[\"']?\s*[:=]\s*(?:[89]|\d{2})\b")
_TRUST_AUTH = re.compile(r"POSTGRES_HOST_AUTH_METHOD[\"']?\]?\s*[=:]\s*[\"']?trust\b")


def paas_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to apps on an application platform."""
    if not _PAAS_WORDS.any_in(text):
        return []
    found = []
    if _TRANSFER_TO_PERSON.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "transfers an app to a person's account (its code, data and add-ons change "
                                   "hands)"))  # fmt: skip
    if _OWNER_GRANT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "gives an account owner or manage rights over a platform's apps or team"))
    if _SETTINGS_READ.search(text) and sends_elsewhere(text, _PLATFORM_HOSTS):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION,
                                   "sends apps' config vars or settings (database URLs, API keys) to another host"))
    if "buildpack" in text and _BARE_IP_BUILDPACK.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "installs a buildpack from a bare IP address (its scripts run in every build, "
                                   "with the app's config)"))  # fmt: skip
    counts = [(int(n), i == 2) for m in _MACHINE_COUNT.finditer(text) for i, n in enumerate(m.groups()) if n]
    most = max((n for n, _ in counts), default=0)
    # (a loop's `range(50)` counts only with large machines: a hundred pages of a listing are not machines)
    if any(n >= MASS_COUNT and not ranged for n, ranged in counts) or (
        most >= 20 and any_loop(text)
        and (any(costly_machine(size) for size in _SIZE.findall(text)) or _MANY_CPUS.search(text) is not None)
    ):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   f"starts {most} or more large machines or dynos (for every app or region)"))
    published = ("ips allocate" in text or "\"services\"" in text) and "127.0.0.1" not in text
    if published and _TRUST_AUTH.search(text):
        # (a development container on 127.0.0.1 is the docker rules' to judge)
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "publishes a database with its password check off (trust: anyone who reaches it "
                                   "logs in)"))  # fmt: skip
    return found
