"""Network security appliances: F5 BIG-IP (tmsh, iControl REST, iRules), Palo Alto PAN-OS (XML API) and
FortiGate (CLI and REST) (shared by both analyzers, judged on the whole text).

What needs a careful reviewer:

* a firewall rule that allows everything (any source, destination, application and service), every security
  or NAT rule deleted, management access (HTTP, telnet, every host) opened on an outside interface;
* administrator accounts added: a BIG-IP admin of every partition with a bash shell, a PAN-OS superuser, a
  FortiGate ``super_admin`` API user trusted from anywhere, root's SSH login switched back on;
* every virtual server or pool deleted, every service of a load balancer stopped on its members;
* an iRule that copies requests' credentials (``Authorization``, cookies) to a log server, and stored
  pre-shared keys and passwords read in plain text.

Rules with named zones and services, configuration backups and status reads are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Words without which no rule here can match.
_WORDS = GateWords("tmsh", "mgmt/tm", "HSL::", "bigstart", "<member>", "<superuser>", "rulebase", "api/v2/",
                   "allowaccess", "trusthost", "super_admin", "plain-text-password", "config firewall")  # fmt: skip
_ANY = r"<member>any</member>"
_ALLOW_ALL_PANOS = re.compile(
    r"<source>" + _ANY + r"</source>[\s\S]{0,200}?<destination>" + _ANY + r"</destination>[\s\S]{0,200}?"
    r"<application>" + _ANY + r"</application>[\s\S]{0,200}?<service>" + _ANY + r"</service>[\s\S]{0,200}?"
    r"<action>allow</action>"
)
_ALLOW_ALL_FORTIGATE = re.compile(
    r"[\"']srcaddr[\"']\s*:\s*\[\s*\{\s*[\"']name[\"']\s*:\s*[\"']all[\"'][\s\S]{0,300}?[\"']service[\"']\s*:\s*"
    r"\[\s*\{\s*[\"']name[\"']\s*:\s*[\"']ALL[\"'][\s\S]{0,200}?[\"']action[\"']\s*:\s*[\"']accept[\"']"
    r"|\bset\s+srcaddr\s+[\"']?all[\s\S]{0,200}?\bset\s+service\s+[\"']?ALL[\s\S]{0,200}?\bset\s+action\s+accept",
    re.IGNORECASE,
)
_RULES_DELETED = re.compile(
    r"action\W{1,4}delete[\s\S]{0,800}?rulebase\b|rulebase\b[\s\S]{0,800}?action\W{1,4}delete", re.IGNORECASE
)
_EVERY_SERVICE_DELETED = re.compile(r"\btmsh\s+delete\s+ltm\s+(?:virtual|pool|node)\s+all\b", re.IGNORECASE)
_MANAGEMENT_OPENED = re.compile(
    r"\ballowaccess\b[^\n\"]*\b(?:http|telnet)\b"
    r"|\bunset\s+trusthost\d*\b"
    r"|\b(?:sys\s+(?:httpd|sshd)\s+allow\s+replace-all-with\s*\{\s*ALL\s*\}|allow-service\s+all\b)"
    r"|/sys/sshd[\s\S]{0,200}?[\"']allow[\"']\s*:\s*\[\s*[\"']ALL[\"']"
    r"|disablerootlogin[\s\S]{0,120}?false",
    re.IGNORECASE,
)
_ADMIN_CREATED = re.compile(
    r"\btmsh\s+create\s+auth\s+user\b[^\n]*\brole\s+admin\b[^\n]*\bshell\s+bash\b"
    r"|all-partitions[\s\S]{0,120}?[\"']role[\"']\s*:\s*[\"']admin[\"'][\s\S]{0,200}?[\"']shell[\"']\s*:\s*[\"']bash"
    r"|<superuser>yes</superuser>"
    r"|[\"']accprofile[\"']\s*:\s*[\"']super_admin[\"'][\s\S]{0,300}?0\.0\.0\.0\s+0\.0\.0\.0",
    re.IGNORECASE,
)
_CREDENTIALS_LOGGED = re.compile(r"HSL::send\b[^\n]*HTTP::(?:header\s+(?:Authorization|Cookie)|cookie|password)", re.I)
_PLAIN_PASSWORDS = re.compile(r"plain-text-password\W{1,4}(?:1|true|enable)", re.IGNORECASE)
_SERVICES_STOPPED = re.compile(r"\bbigstart\s+stop\b(?!\s+\w)")


def network_appliance_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a load balancer or a firewall appliance."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _ALLOW_ALL_PANOS.search(text) or _ALLOW_ALL_FORTIGATE.search(text):
        what = "adds a firewall rule that allows everything (any source, destination, application and service)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if (_RULES_DELETED.search(text) and each_item(text)) or _EVERY_SERVICE_DELETED.search(text):
        what = "deletes every firewall rule, or every virtual server and pool, of an appliance"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _MANAGEMENT_OPENED.search(text):
        what = "opens an appliance's management (HTTP, telnet, every host, root's SSH login) to anyone who reaches it"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _ADMIN_CREATED.search(text):
        what = "creates an appliance administrator (every partition with a shell, a superuser, a trusted-anywhere API)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _CREDENTIALS_LOGGED.search(text):
        what = "installs an iRule that copies requests' credentials (Authorization headers, cookies) to a log server"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _PLAIN_PASSWORDS.search(text):
        what = "reads an appliance's stored passwords and pre-shared keys in plain text"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _SERVICES_STOPPED.search(text) and each_item(text):
        what = "stops every service of the load balancers a loop gives (both members of a pair: all traffic stops)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    return found
