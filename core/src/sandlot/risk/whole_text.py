"""Risks judged on a whole script or module's text, the same for both analyzers.

Some harms are spelled across statements rather than in one call or command: a CRM org's records
exported and its sharing opened, a Vault policy that grants everything, MAVLink's force-disarm number
next to its command, browser code that sends what shoppers type. Each analyzer reports these under its
own rule prefix (``python.`` or ``shell.``) with the suffix given here.
"""

from __future__ import annotations

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.crm import crm_text_risks
from sandlot.risk.devices import force_disarm
from sandlot.risk.identity import vault_superuser
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.storefronts import form_grabber


def whole_text_risks(code: str) -> list[tuple[str, OperationRisk]]:
    """``(rule suffix, risk)`` for each harm ``code`` spells as a whole."""
    found: list[tuple[str, OperationRisk]] = [("crm", risk) for risk in crm_text_risks(code)]
    superuser = vault_superuser(code)
    if superuser is not None:
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, superuser)))
    if force_disarm(code):
        what = "force-disarms vehicles (motors stop, in flight too)"
        found.append(("vehicle-command", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if form_grabber(code):
        what = "plants browser code that sends what shoppers type into forms to another host (a skimmer)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    return found
