"""Mail suites you host yourself: Mailcow, Mailu and Mail-in-a-Box (their settings files, admin APIs and the
Postfix, Dovecot and Rspamd inside them), shared by both analyzers and judged on the whole text.

One server holds every person's mail, and its settings files decide who else gets a copy. What needs a careful
reviewer (Postfix's and Dovecot's own commands are :mod:`sandlot.risk.mail`'s):

* a copy of every message sent to an address through a settings file (``always_bcc`` in ``extra.cf``) or a
  global sieve script (``sieve_before``) that redirects;
* a master login to every mailbox set to a value written in the code;
* every folder of every mailbox deleted in a loop over the users;
* outside networks allowed to relay, or brute-force protection given every address as an exception;
* the suite's secrets (``mailcow.conf``, DKIM private keys, a config export), its mailbox records or people's
  messages sent to another host;
* a configuration from another host applied with every object it lacks deleted.

Backups to the organisation's own hosts, status checks, one mailbox's quota and restarts are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, sends_elsewhere, url_hosts

_WORDS = GateWords("always_bcc", "sieve_", "DOVECOT_MASTER", "doveadm", "mailcow", "mailu", "Mailu", "fwdhost",
                   "DKIM_PRIV", "/get/mailbox", "config-update", "fail2ban", "mailinabox")  # fmt: skip
_OWN_HOSTS = re.compile(r"^(?:localhost|127\.)|^(?:mail|box|imap|smtp|mailcow|mailu)\.")
_BCC_LINE = re.compile(r"\b(?:always_bcc|sender_bcc_maps|recipient_bcc_maps)\s*=\s*[\w.+-]+@[\w.-]+")
_GLOBAL_SIEVE = re.compile(r"\bsieve_(?:before|after|global)\w*\s*=")
_SIEVE_REDIRECT = re.compile(r"\bredirect\s+(?::copy\s+)?\\?[\"'][^\"'\s@]+@")
_MASTER_LOGIN = re.compile(r"\bDOVECOT_MASTER_PASS\\?[\"']?\s*[:=]\s*\\?[\"']?(?![$])[^\s\"'$]{4,}")
_MAILBOXES_DELETED = re.compile(r"\bdoveadm\b[^\n]*\bmailbox\s+delete\b[^\n]*\s-r\b")
_EVERY_FOLDER_EXPUNGED = re.compile(r"[\"']?mailbox[\"']?,?\s+[\"']?\*[\"']?,?\s+"
                                    r"[\"']?(?:savedbefore|before)[\"']?,?\s+"
                                    r"f?[\"']?(?:\{\w+\}|0)d")  # fmt: skip
#: A retention of zero days as a default (`os.environ.get("RETENTION_DAYS", "0")`, `days=0`).
_ZERO_DEFAULT = re.compile(r"\.get\(\s*[\"']\w+[\"']\s*,\s*[\"']0[\"']\s*\)|\b\w*days\s*=\s*0\s*[,)]")
_RELAY_HOST = re.compile(r"/add/fwdhost\b")
_CIDR = re.compile(r"\b(\d{1,3}(?:\.\d{1,3}){3})/\d{1,2}\b")
_EVERYONE_EXEMPT = re.compile(r"[\"']whitelist[\"']\s*:\s*[\"']0\.0\.0\.0/0")
_SECRETS = re.compile(r"mailcow\.conf|DKIM_PRIV_KEYS|\bconfig-export\b[^\n]*--secrets|/doveadm/v1\b|/get/mailbox/all\b"
                      r"|/home/user-data/mail\b|STORAGE_ROOT/mail\b")  # fmt: skip
_FOREIGN_CONFIG = re.compile(r"\bconfig-update\b[^\n]*--delete-objects|--delete-objects[^\n]*\bconfig-update\b")


def mail_suite_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a hosted mail suite: every message copied away, master logins, mailboxes emptied,
    relays and protections opened, secrets and mail sent to another host, foreign configurations applied."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _BCC_LINE.search(text) or (_GLOBAL_SIEVE.search(text) and _SIEVE_REDIRECT.search(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "configures the mail server to copy every message to an address (a bcc setting "
                                   "or a global sieve redirect)"))  # fmt: skip
    if _MASTER_LOGIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "sets a master login to every mailbox to a password written in the code"))
    expunged = _EVERY_FOLDER_EXPUNGED.search(text) is not None and _ZERO_DEFAULT.search(text) is not None
    if (_MAILBOXES_DELETED.search(text) or expunged) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes every folder of every user's mailbox"))
    if _RELAY_HOST.search(text) and any(outside_address(a) for a in _CIDR.findall(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "lets outside networks relay mail through the server"))
    if _EVERYONE_EXEMPT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "exempts every address from brute-force banning"))
    if _SECRETS.search(text) and sends_elsewhere(text, _OWN_HOSTS):
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION,
                                   "sends a mail suite's secrets, mailbox records or mail to another host"))
    if _FOREIGN_CONFIG.search(text) and any(not _OWN_HOSTS.search(h) for h in url_hosts(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "applies a mail configuration from another host, deleting every account it "
                                   "lacks"))  # fmt: skip
    return found
