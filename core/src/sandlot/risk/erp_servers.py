"""ERP servers run in-house: Frappe/ERPNext (``bench``, server scripts, whitelisted methods, doctypes) and Odoo
(XML-RPC, ``odoo-bin shell``), shared by both analyzers and judged on the whole text.

An ERP holds a company's ledgers, its staff's bank and tax details and its customers' records, and its scripting
features run code inside the server. What needs a careful reviewer:

* a server script or whitelisted method reachable by guests that runs the code or SQL a request sends;
* an Odoo server action whose code is hidden in an encoded string;
* the company's outgoing mail pointed at another relay, and a webhook or a scheduled mail that sends people's
  records (addresses, phones, bank and tax numbers) to an outside address;
* an app installed from another organisation's server onto the site, a site dropped without a backup.

Reports, one record corrected, backups with ``bench backup``, apps from the usual forges and migrations are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import internal_host, names_outside_address, registered_domain
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_WORDS = GateWords("frappe", "bench", "ir.actions.server", "ir.mail_server", "odoo")
#: A Frappe server script open to guests that executes what the request carries.
_GUEST_SCRIPT = re.compile(r"[\"']Server Script[\"'][\s\S]{0,600}?[\"']allow_guest[\"']\s*:\s*(?:1|True)\b")
_RUNS_REQUEST = re.compile(r"\bexec\(\s*frappe\.form_dict|\beval\(\s*frappe\.form_dict|frappe\.request\.data")
#: A method whitelisted for guests that hands its parameter to the database as SQL.
_GUEST_SQL = re.compile(
    r"whitelist\(\s*allow_guest\s*=\s*True\s*\)\s*\n\s*def\s+\w+\(\s*(\w+)[\s\S]{0,400}?\.db\.sql\(\s*(\w+)\b"
)
#: An Odoo server action with code, the code decoded from base64 or executed from a string.
_SERVER_ACTION_CODE = re.compile(r"[\"']ir\.actions\.server[\"'][\s\S]{0,400}?[\"']state[\"']\s*:\s*[\"']code[\"']")
_HIDDEN_CODE = re.compile(r"b64decode|\bexec\(|__import__\(")
#: Odoo's outgoing mail servers switched off or replaced by one at another address.
_MAIL_SERVER = re.compile(r"ir\.mail_server")
_OTHERS_OFF = re.compile(r"\.write\(\s*\{\s*[\"']active[\"']\s*:\s*False")
#: People's details in a doctype's fields (what a webhook sends or a report mails).
_PERSONAL_FIELDS = re.compile(r"[\"'](?:\w*_)?(?:email(?:_id)?|mobile(?:_no)?|phone|tax_id|pan_number|bank_ac_no"
                              r"|date_of_birth|(?:current|primary|permanent)_address)[\"']")  # fmt: skip
_WEBHOOK = re.compile(r"[\"']doctype[\"']\s*:\s*[\"']Webhook[\"'][\s\S]{0,300}?[\"']request_url[\"']\s*:\s*"
                      r"[\"']https?://([\w.-]+)")  # fmt: skip
_MAILED_RECORDS = re.compile(r"\bget_all\(\s*[\"'](?:Employee|Customer|Contact|Patient|Student|Member)[\"']")
_RECIPIENTS = re.compile(r"recipients\s*=\s*\[?\s*[\"'][^\"'@]+@([\w.-]+)")
#: `bench get-app URL` and the site it is for.
_GET_APP = re.compile(r"\bbench\s+get-app\s+(?:--\S+\s+)*https?://([\w.-]+)/")
_SITE = re.compile(r"--site[= ]([\w.-]+)")
_FORGES = ("github.com", "gitlab.com", "bitbucket.org", "frappe.io", "frappe.cloud")
_DROP_SITE = re.compile(r"\bdrop-site\b[^\n]*--no-backup|[\"']drop-site[\"'][^\n]*[\"']--no-backup[\"']")


def erp_server_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Frappe/ERPNext or Odoo server: code and SQL from requests, hidden server actions,
    mail and records sent elsewhere, foreign apps installed, sites dropped."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _GUEST_SCRIPT.search(text) and _RUNS_REQUEST.search(text):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                                   "adds a server script open to guests that runs the code a request sends"))
    guest_sql = _GUEST_SQL.search(text)
    if guest_sql is not None and guest_sql.group(1) == guest_sql.group(2):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.NETWORK,
                                   "whitelists a method for guests that runs whatever SQL it is sent"))
    if _SERVER_ACTION_CODE.search(text) and _HIDDEN_CODE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "creates an Odoo server action whose code is hidden (decoded or executed from a "
                                   "string)"))  # fmt: skip
    if _MAIL_SERVER.search(text) and (_OTHERS_OFF.search(text) or names_outside_address(text)) and (
        "smtp_host" in text
    ):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "routes the company's outgoing mail through another relay (every message passes "
                                   "through it)"))  # fmt: skip
    webhook = _WEBHOOK.search(text)
    if webhook is not None and not internal_host(webhook.group(1)) and _PERSONAL_FIELDS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   f"adds a webhook that sends people's details on every change to {webhook.group(1)}"))
    recipients = [registered_domain(h) for h in _RECIPIENTS.findall(text)]
    if _MAILED_RECORDS.search(text) and _PERSONAL_FIELDS.search(text) and "attachments" in text and any(
        not internal_host(h) for h in recipients
    ):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "mails people's records (contact, bank or tax details) as an attachment"))
    sites = {registered_domain(s) for s in _SITE.findall(text)}
    for host in _GET_APP.findall(text):
        if not host.lower().endswith(_FORGES) and not internal_host(host) and registered_domain(host) not in sites:
            found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                       f"installs an app from another organisation's server ({host}) into the ERP"))
            break
    if _DROP_SITE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "drops an ERP site (its database and files) without a backup"))
    return found
