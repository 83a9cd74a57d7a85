"""MongoDB administered through mongosh or a driver (shared by both analyzers, judged on the whole text).

A MongoDB administration command names what it does to the whole deployment. What needs a careful reviewer:

* the superuser roles (``root``, ``__system``, ``userAdminAnyDatabase``) or a custom role allowed every action on
  every resource, given to an account with a password spelled in the code or to an application's user;
* every account's password reset to a known value;
* every running operation killed (internal ones too), the nodes forced down, writes locked and never unlocked;
* a member at a bare outside address added to a replica set (it receives a copy of all data);
* collections made to delete their documents: a TTL index that expires them at once, a capped collection a few
  kilobytes big.

Users with ordinary roles, backups, indexes on expiry fields, stepping a primary down and killing slow queries are
routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, each_item

#: Words without which no rule here can match.
_WORDS = GateWords("createUser", "grantRolesToUser", "updateUser", "changeUserPassword", "killOp", "rs.add",
                   "replSetReconfig", "expireAfterSeconds", "convertToCapped", "shutdown", "fsync",
                   "anyAction")  # fmt: skip
#: The roles that hold every right over the deployment (userAdminAnyDatabase can grant itself any role).
_SUPERUSER_ROLE = re.compile(
    r"(?:role[\"']?\s*[:=]\s*|roles[\"']?\s*[:=]\s*\[\s*|\bfor\s+\w+\s+in\s+\(\s*|\b[A-Z]\w*=)"
    r"[\"'\\]*(?:root|__system|userAdminAnyDatabase)\b"
    r"|\b(?:createUser|grantRolesToUser|updateUser)\([^)]{0,200}?[\"'](?:root|__system|userAdminAnyDatabase)[\"']"
)
_USER_COMMAND = re.compile(r"\b(?:createUser|grantRolesToUser|updateUser)\b")
#: A password spelled in the code (not read from the environment or prompted for).
_LITERAL_PASSWORD = re.compile(r"\bpwd[\"']?\s*[:=]\s*\\?[\"'](?!\$)[^\"'\s\\]{3,}\\?[\"']")
#: A custom role allowed every action on every resource.
_EVERY_ACTION = re.compile(r"anyResource[\"']?\s*:\s*(?:True|true)[\s\S]{0,200}?anyAction|anyAction[\s\S]{0,200}?"
                           r"anyResource[\"']?\s*:\s*(?:True|true)")
_PASSWORD_RESET = re.compile(r"\b(?:updateUser|changeUserPassword)\b[^\n]*\bpwd[\"']?\s*[:=]\s*[\"'][^\"'$]{3,}[\"']"
                             r"|\bchangeUserPassword\(\s*[^,\n]+,\s*[\"'][^\"'$]{3,}[\"']")
_USER_LISTING = re.compile(r"usersInfo|getUsers\(|system\.users")
#: Operations killed: the listing they come from, and what narrows it to some (slow, a client's, a namespace's).
_KILL_EACH = re.compile(r"currentOp[\s\S]{0,400}?killOp|killOp[\s\S]{0,400}?currentOp")
_OPS_NARROWED = re.compile(
    r"secs_running|microsecs_running|waitingForLock|planSummary|appName|client|\bns\b|[\"']ns[\"']|desc|"
    r"[\"']op[\"']\s*\]|\.op\s*===?|[\"']op[\"']\s*:|active[\"']?\s*[:=]\s*(?:True|true)[\s\S]{0,80}secs"
)
_EVERY_OP = re.compile(r"[\"']?\$all[\"']?\s*:\s*(?:True|true|1)\b|currentOp\(\s*(?:true|True)\s*\)")
#: A replica-set member at a bare address (`rs.add({host: "203.0.113.7:27017", hidden: true})`).
_MEMBER_HOST = re.compile(r"[\"']?host[\"']?\s*:\s*[\"'](\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?[\"']|rs\.add\(\s*[\"']"
                          r"(\d{1,3}(?:\.\d{1,3}){3})")
#: A TTL index: the field it keys on and how many seconds documents live.
_TTL_INDEX = re.compile(
    r"[\"']?(\w+)[\"']?\s*[:,]\s*(?:1|ASCENDING|pymongo\.ASCENDING)\s*\)?\s*\}?\s*\]?\s*,\s*\{?\s*"
    r"[\"']?expireAfterSeconds[\"']?\s*[:=]\s*(\d+)"
)
_EXPIRY_FIELD = re.compile(r"expir|until|delete|purge|ttl|valid|end", re.IGNORECASE)
_CAPPED_SIZE = re.compile(r"convertToCapped[\s\S]{0,120}?size[\"']?\s*[:=]\s*(\d+)")
_FORCED_SHUTDOWN = re.compile(
    r"[\"']?shutdown[\"']?\s*[:,]\s*(?:1|true|True)?[\s\S]{0,60}?force[\"']?\s*[:=]\s*(?:true|True)"
    r"|shutdownServer\(\s*\{[^}]*force\s*:\s*true"
)
_FSYNC_LOCK = re.compile(r"fsyncLock\(|[\"']fsync[\"'][^\n]*lock\s*[:=]\s*(?:True|true)")
_FSYNC_UNLOCK = re.compile(r"fsyncUnlock|unlock", re.IGNORECASE)
_LOCAL = re.compile(r"localhost|127\.0\.0\.1|mongomock|testcontainers|@pytest\.fixture|\bdef test_")


def document_store_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a MongoDB deployment through its administration commands."""
    if not _WORDS.any_in(text):
        return []
    found = []
    superuser = _USER_COMMAND.search(text) and _SUPERUSER_ROLE.search(text)
    if (superuser and ("__system" in text or "grantRolesToUser" in text or _LITERAL_PASSWORD.search(text))) or (
        "anyAction" in text and _EVERY_ACTION.search(text)
    ):
        what = ("gives a MongoDB account the superuser role (root, __system, every action on every resource) "
                "with a password spelled in the code or to an application's user")
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _PASSWORD_RESET.search(text) and (_USER_LISTING.search(text) or each_item(text)):
        what = "resets the password of every MongoDB account a listing gives to a known value"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    each_op = "forEach" in text or any_loop(text)
    if "killOp" in text and _KILL_EACH.search(text) and each_op and (
        _EVERY_OP.search(text) or not _OPS_NARROWED.search(text)
    ):
        what = "kills every running MongoDB operation (replication and internal ones too)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if "rs.add" in text or "replSetReconfig" in text:
        members = [m[1] or m[2] for m in _MEMBER_HOST.finditer(text)]
        outside = next((ip for ip in members if outside_address(ip)), None)
        if outside is not None:
            what = f"adds a member at an outside address ({outside}) to a replica set (it receives a copy of all data)"
            found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    expiring = [m for m in _TTL_INDEX.finditer(text) if int(m[2]) <= 60 and not _EXPIRY_FIELD.search(m[1])]
    if expiring:
        what = (f"puts a TTL index that expires documents after {expiring[0][2]} seconds on {expiring[0][1]} "
                "(every document is deleted at once)")
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    capped = [int(m[1]) for m in _CAPPED_SIZE.finditer(text)]
    if capped and min(capped) < 1 << 20:
        what = f"converts collections to capped ones of {min(capped):,} bytes (all but their newest documents go)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    local = _LOCAL.search(text) is not None
    if "shutdown" in text and _FORCED_SHUTDOWN.search(text) and not local:
        what = "forces MongoDB nodes down without waiting for the secondaries (acknowledged writes can be lost)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if "fsync" in text and _FSYNC_LOCK.search(text) and not _FSYNC_UNLOCK.search(text):
        what = "locks MongoDB nodes against writes and never unlocks them (every write waits)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found
