"""Platforms you host yourself for your apps: Dokku, CapRover and Coolify (their CLIs and APIs), shared by both
analyzers and judged on the whole text.

Such a platform runs every app of a host as root-managed containers and keeps their config vars (database URLs,
API keys) beside them. What needs a careful reviewer:

* every app destroyed (in a loop over the app list, or forced);
* an app's containers given the host: privileged mode, the host's PID namespace, its root filesystem or the
  Docker socket;
* apps' config vars, ENV files or stored SSH keys sent to another host;
* limits cleared and apps scaled to dozens of containers each, or every app scaled to zero;
* a plugin installed from an unknown host (its hooks run as root);
* an app's password protection switched off, a dashboard password set to a value written in the code, API access
  opened to every address.

Deploys, restarts, reports, one app's config var set and a plugin from the project's own organisation are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, sends_elsewhere

_WORDS = GateWords("dokku", "caprover", "appDefinitions", "coolify", "captain")
_OWN_HOSTS = re.compile(r"^(?:localhost|127\.)|captain|coolify|dokku")
_EVERY_APP_DESTROYED = re.compile(r"\bapps:destroy\b|/appDefinitions/delete\b"
                                  r"|/applications/[^\s\"']*[\"']?[^\n]*\bdelete")  # fmt: skip
_HOST_GIVEN = re.compile(r"--privileged|--pid[= ]host|-v\s+/:/|/var/run/docker\.sock"
                         r"|[\"']hostPath[\"']\s*:\s*[\"']/[\"']")  # fmt: skip
_CONFIG_READ = re.compile(r"\bconfig:(?:export|show)\b|\bdokku\s+config\s|/home/dokku/\S*/ENV\b|/envs\b"
                          r"|/security/keys\b")  # fmt: skip
_SCALE = re.compile(r"\bps:scale\b[^\n]*?=(\d+)")
_LIMITS_CLEARED = re.compile(r"\bresource:(?:limit|reserve)-clear\b|--memory\s+0\b")
_EVERY_APP_STOPPED = re.compile(r"[\"']instanceCount[\"']\]?\s*[=:]\s*0\b")
_PLUGIN_URL = re.compile(r"https?://([\w.-]+)/[^\s\"']*\.git\b")
_AUTH_OFF = re.compile(r"\bhttp-auth:off\b")
_LITERAL_PASSWORD = re.compile(r"/changepassword\b[\s\S]{0,300}?newPassword\\?[\"']\s*:\s*\\?[\"'][^\"'$\\]{4,}[\"']")
_API_OPEN = re.compile(r"\ballowed_ips\s*=\s*'0\.0\.0\.0/0'")


def self_hosted_paas_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a self-hosted app platform: apps destroyed, containers given the host, config sent
    away, resources exhausted, foreign plugins, protection switched off."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _EVERY_APP_DESTROYED.search(text) and (any_loop(text) or "--force apps:destroy" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "destroys every app of a self-hosted platform (their containers and data)"))
    if ("docker-options:add" in text or "hostPath" in text) and _HOST_GIVEN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "gives an app's containers the host (privileged mode, its root filesystem or the "
                                   "Docker socket)"))  # fmt: skip
    if _CONFIG_READ.search(text) and sends_elsewhere(text, _OWN_HOSTS):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION,
                                   "sends apps' config vars, ENV files or stored keys to another host"))
    most = max((int(n) for n in _SCALE.findall(text)), default=0)
    if (most >= 50 or (most >= 20 and any_loop(text))) and _LIMITS_CLEARED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   f"clears apps' resource limits and scales them to {most} containers each"))
    if _EVERY_APP_STOPPED.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, "scales every app of the platform to zero"))
    if "plugin:install" in text and any(h != "github.com" for h in _PLUGIN_URL.findall(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "installs a platform plugin from an unknown host (its hooks run as root)"))
    if _AUTH_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "switches off the password in front of an app"))
    if _LITERAL_PASSWORD.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "sets a platform's dashboard password to a value written in the code"))
    if _API_OPEN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "opens a platform's API to every address"))
    return found
