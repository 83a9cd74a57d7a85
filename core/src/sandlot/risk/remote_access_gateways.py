"""Remote access gateways: Apache Guacamole, MeshCentral and RustDesk (shared by both analyzers, judged on the whole
text). Whoever administers one reaches every machine behind it.

What needs a careful reviewer:

* Guacamole's ``ADMINISTER`` permission given (through its REST API or straight into its database), its built-in
  ``guacadmin`` account put back with the default password, or its stored connection passwords and keys read out and
  sent away;
* a MeshCentral account made a site administrator, or new self-registered accounts given full rights;
* a RustDesk client given a fixed unattended-access password written in the code.

Connections and users managed one by one, recordings listed, agents installed from the vendor and passwords drawn
from a vault are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import sends_data

_GATEWAY_WORDS = GateWords("ADMINISTER", "guacadmin", "guacamole_connection_parameter", "--adminaccount",
                           "newAccountsRights", "rustdesk")  # fmt: skip
_ADMINISTER = re.compile(r"guacamole_system_permission[\s\S]{0,300}?ADMINISTER|/systemPermissions[\s\S]{0,200}?"
                         r"ADMINISTER|ADMINISTER[\s\S]{0,200}?(?:guacamole_system_permission|/systemPermissions)")
#: The SHA-256 of Guacamole's default `guacadmin` password with its default salt.
_DEFAULT_GUACADMIN = re.compile(r"CA458A7D494E3BE824F5E1E175A1556C0F8EEF2C2D7DF3633BEC4A29C4411960", re.IGNORECASE)
_STORED_LOGINS = re.compile(r"guacamole_connection_parameter[\s\S]{0,400}?(?:password|private-key|passphrase)")
_MESH_ADMIN = re.compile(r"--adminaccount\b|newAccountsRights[\"']?\]?\s*[=:]\s*\[?\s*[\"']fulladmin")
_FIXED_PASSWORD = re.compile(
    r"\brustdesk(?:\.exe)?[\"']?\s*,?\s*[\"']?--password[\"']?\s*,?\s*[\"'](?![$%{])[^\"'\s]{4,}"
)


def remote_access_gateway_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a remote access gateway's administrators, stored logins and unattended access."""
    if not _GATEWAY_WORDS.any_in(text):
        return []
    found = []
    if _ADMINISTER.search(text) or _DEFAULT_GUACADMIN.search(text) or _MESH_ADMIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "makes an account an administrator of a remote access gateway, or restores its "
                                   "default administrator password (every machine behind it is reachable)"))
    if _STORED_LOGINS.search(text) and sends_data(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "reads a remote access gateway's stored connection passwords and keys and sends "
                                   "them away"))  # fmt: skip
    if _FIXED_PASSWORD.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "gives a remote desktop client a fixed unattended-access password written in the "
                                   "code (whoever reads it takes the machine)"))  # fmt: skip
    return found
