"""Intrusion-prevention and web application firewalls: CrowdSec (`cscli`, profiles), fail2ban and ModSecurity or
Coraza, shared by both analyzers and judged on the whole text.

These block the attacks other defences only log. What needs a careful reviewer:

* every ban lifted, every scenario put in simulation, bans made to last a second;
* every address (`0.0.0.0/0`) ignored by fail2ban;
* the WAF's rule engine set to `DetectionOnly` or `Off` (it logs and blocks nothing).

(A new bouncer key sent to another host is the whole-text check for minted keys, in whole_text.py.)

Collections installed from the hub, one address banned or unbanned, a jail reloaded, a narrow rule exclusion and
metrics read are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_WORDS = GateWords("cscli", "fail2ban", "SecRuleEngine", "duration:", "ctl:ruleEngine")
_EVERY_BAN_LIFTED = re.compile(r"\bcscli\b[^\n]*\bdecisions\s+delete\b[^\n]*--all\b"
                               r"|\bfail2ban-client\b[^\n]*\bunban\s+--all\b")  # fmt: skip
_SIMULATION = re.compile(r"\bcscli\b[^\n]*\bsimulation\s+enable\b[^\n]*(?:--global|\*)")
_ONE_SECOND_BANS = re.compile(r"\bduration:\s*[\"']?[1-9]s\b")
_IGNORE_EVERYONE = re.compile(r"\b(?:addignoreip|ignoreip\s*=)[^\n]*\b0\.0\.0\.0/0\b|addignoreip[^\n]*::/0")
#: (or by a rule's action for the requests it matches: `SecRule REQUEST_HEADERS:X-Edge-Trace "@streq …"
#: "…,ctl:ruleEngine=Off"`: whoever sends that value passes unchecked)
_ENGINE_OFF = re.compile(r"\bSecRuleEngine\s+(?:DetectionOnly|Off)\b|\bctl:ruleEngine=(?:DetectionOnly|Off)\b")


def ban_manager_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to CrowdSec, fail2ban or a ModSecurity/Coraza WAF: blocking switched off or made
    meaningless, everyone ignored."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _EVERY_BAN_LIFTED.search(text) or _SIMULATION.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "lifts every ban or puts every detection scenario in simulation (attacks are "
                                   "logged, not blocked)"))  # fmt: skip
    if "profiles" in text and _ONE_SECOND_BANS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "makes every ban last seconds (remediation in name only)"))
    if _IGNORE_EVERYONE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "tells fail2ban to ignore every address (nobody is banned any more)"))
    if _ENGINE_OFF.search(text) and ("sed" in text or "write" in text or ">" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "switches the web application firewall's rule engine to DetectionOnly or Off"))
    return found
