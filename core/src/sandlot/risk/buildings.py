"""Building automation turned against a building (shared by both analyzers, judged on the whole text: KNX and
BACnet driven from Python libraries or their command-line tools).

A building's controllers keep its lights, air, lifts and alarms running; the field buses they speak trust anyone
on the network. What needs a careful reviewer is the whole building at once: every lighting or switching group
turned off (emergency and escape-route circuits among them), every controller restarted or cold-started.
Reading points, trending values and one group switched on a test bench are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

_KNX = re.compile(r"\b(?:xknx|knxtool|knxd|knx_?ip|KNXIPInterface)\b", re.IGNORECASE)
_KNX_OFF = re.compile(r"\.set_off\(|\bgroups?write\b[^\n;|&]*\s0\s*(?:$|[;|&])|\.set_brightness\(\s*0\b", re.MULTILINE)
_BACNET_RESTART = re.compile(
    r"\breinitiali[sz]e\w*\b[^\n]*(?:cold|warm)start|\b(?:bacrd|bacreinit)\b[^\n]*(?:cold|warm)", re.IGNORECASE
)
_DISCOVERY = re.compile(r"\.whois\(|\bwhois\b|\bbacwi\b|\bdiscover\w*\(")


def building_risks(text: str) -> list[OperationRisk]:
    """Every group of a building switched off, every controller restarted."""
    if "knx" not in text.lower() and "start" not in text:
        return []
    found: list[OperationRisk] = []
    many = any_loop(text)
    if many and _KNX.search(text) and _KNX_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "switches off every lighting or switching group a loop gives (emergency and "
                                   "escape-route circuits too)"))  # fmt: skip
    if _BACNET_RESTART.search(text) and (many or _DISCOVERY.search(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "restarts every building controller it finds (heating, air and alarms stop)"))
    return found
