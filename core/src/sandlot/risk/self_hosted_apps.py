"""Self-hosted servers administered through their own APIs and consoles: Zabbix (its JSON-RPC API and agents),
Nextcloud (``occ``), AWX and Rundeck (shared by both analyzers, judged on the whole text).

What needs a careful reviewer:

* every monitored host deleted, monitoring silenced for years (a maintenance without data collection over every
  host group), the guest account or a new account made Super admin, a command run by an agent that connects a
  shell to another machine;
* every Nextcloud account deleted over a listing, the server's whole file system mounted as external storage for
  everyone, every group folder force-deleted, every trash bin and file version purged.

An automation platform's superuser made (AWX's ``is_superuser``, a Rundeck ACL allowing everything to a group), or
every stored credential decrypted, needs one too.

Adding a host, a maintenance window of hours, a user with an ordinary role, cleaning one user's trash are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

#: Words without which no rule here can match.
_WORDS = GateWords("host.delete", "roleid", "maintenance", "system.run", "user:delete", "files_external:create",
                   "groupfolders:delete", "trashbin:cleanup", "versions:cleanup", "is_superuser", "aclpolicy",
                   "get_input")  # fmt: skip
_AUTOMATION_SUPERUSER = re.compile(
    r"--is_superuser\s+true\b|\bawx-manage\b[\s\S]{0,300}?is_superuser\s*=\s*True"
    r"|is_superuser\s*=\s*True[\s\S]{0,300}?\bawx-manage\b"
    r"|/api/v2/users/[\s\S]{0,200}?[\"']is_superuser[\"']\s*:\s*(?:True|true)"
    r"|[\"']is_superuser[\"']\s*:\s*(?:True|true)[\s\S]{0,300}?/users/"
)
_CREDENTIALS_DECRYPTED = re.compile(
    r"Credential\.objects\.all\(\)[\s\S]{0,300}?\.get_input\(|\.get_input\([\s\S]{0,300}?Credential\.objects\.all\(\)"
)
_EVERY_HOST_DELETED = re.compile(r"host\.get[\s\S]{0,600}?host\.delete|host\.delete[\s\S]{0,600}?host\.get")
#: Zabbix's Super admin role (id 3) given to an account, the guest account among them.
_SUPER_ADMIN = re.compile(r"[\"']?roleid[\"']?\s*[:=]\s*[\"']?3[\"']?(?!\d)")
_ACCOUNT_CHANGE = re.compile(r"\buser\.(?:create|update)\b")
#: A span of years: `10 * 365 * 86400`, `3650*86400`, or a count of seconds of two years or more.
_YEARS = re.compile(
    r"\b(?:[2-9]|\d{2,})\s*\*\s*365\s*\*\s*86400\b|\b(?:7[3-9]\d|[89]\d\d|\d{4,})\s*\*\s*86400\b"
    r"|\b(?:[6-9]\d{7}|\d{9,})\b"
)
_NO_DATA = re.compile(r"maintenance_type\\?[\"']?\s*[:=]\s*[\"']?1\b")
_AGENT_SHELL = re.compile(
    r"system\.run\[[^\]]*(?:/dev/tcp/|\bnc\s+-e\b|\bsh\s+-i\b|\bbash\s+-i\b|\bcurl\b[^\]]*\|\s*sh)"
)
_EVERY_ACCOUNT_DELETED = re.compile(r"user:list[\s\S]{0,600}?user:delete|user:delete[\s\S]{0,600}?user:list")
_ROOT_STORAGE = re.compile(r"files_external:create\b[^\n]*\blocal\b[^\n]*datadir=/(?:[\"'\s,\]]|$)")
_PURGES = re.compile(r"groupfolders:delete\b[\s\S]{0,120}?--force|trashbin:cleanup\b[\s\S]{0,60}?--all-users"
                     r"|versions:cleanup\b")


def self_hosted_app_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Zabbix or Nextcloud server through its API or console."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _EVERY_HOST_DELETED.search(text):
        what = "deletes every host a monitoring listing gives"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _ACCOUNT_CHANGE.search(text) and _SUPER_ADMIN.search(text):
        what = "makes an account (the guest account too) a Super admin of the monitoring server"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "maintenance.create" in text and _NO_DATA.search(text) and _YEARS.search(text):
        what = "silences monitoring for years (a maintenance without data collection)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _AGENT_SHELL.search(text):
        what = "has a monitoring agent run a command that connects a shell to another machine or runs a download"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.NETWORK, what))
    if (_EVERY_ACCOUNT_DELETED.search(text) and any_loop(text)) or ("user:delete" in text and "xargs" in text):
        what = "deletes every Nextcloud account a listing gives"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _AUTOMATION_SUPERUSER.search(text) or ("aclpolicy" in text and "allow: '*'" in text and "group:" in text):
        what = "makes an account a superuser of an automation platform, or gives a group every right (AWX, Rundeck)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _CREDENTIALS_DECRYPTED.search(text):
        what = "decrypts every credential an automation platform stores (machine, cloud and vault logins)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _ROOT_STORAGE.search(text):
        what = "mounts the server's whole file system as Nextcloud external storage (users browse /etc, keys, data)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if len(_PURGES.findall(text)) >= 2 or ("groupfolders:delete" in text and any_loop(text) and "--force" in text):
        what = "force-deletes group folders or purges every trash bin and file version (nothing to restore)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    return found
