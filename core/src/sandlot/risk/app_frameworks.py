"""Web application frameworks' own management: Django, Rails, Laravel, Spring Boot actuators, WordPress (shared by
both analyzers, judged on the whole text).

A framework's management commands act on the application's whole database and settings, and its admin endpoints
reconfigure the running service. What needs a careful reviewer:

* a migration reset (``migrate:fresh``, ``migrate app zero``, ``flush``, ``db:drop``) aimed at production, also
  through ``call_command`` or over ssh, and SQL that drops a schema piped into ``dbshell``;
* the user table dumped (``dumpdata auth.user``: password hashes and addresses) and sent away;
* a Spring Boot actuator told to shut down, or to take its data source or configuration from another host;
* settings that make sessions pickled or passwords unsalted MD5, a middleware that logs in as a superuser when a
  request carries a magic header, every user's password set to one value;
* a WordPress plugin installed from a web address, a Django server with debugging on for every address.

Migrations reset on a local or test database, fixtures dumped to the project, actuator health checks and plugins
from the WordPress directory by name are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.sql import dangerous_sql, production_target, schema_reset

#: `call_command("migrate", "billing", "zero")`, `call_command("flush")`: the management command, from Python.
_CALL_COMMAND_RESET = re.compile(r"call_command\(\s*[\"'](?:flush|reset_db)[\"']|call_command\(\s*[\"']migrate[\"']"
                                 r"\s*,\s*\w+\s*,\s*[\"']zero[\"']")  # fmt: skip
_USERS_DUMPED = re.compile(r"\bdumpdata\b[^\n]*\bauth\.user\b|[\"']dumpdata[\"']\s*,\s*[\"']auth\.user[\"']")
_SENT_AWAY = re.compile(r"\brequests\.(?:post|put)\(|\burlopen\(|\bcurl\b[^\n]*(?:-d|--data|-F|-T)\b|\baws\s+s3\s+cp\b"
                        r"|\bscp\b|\brclone\s+(?:copy|sync)\b")  # fmt: skip
_ACTUATOR_SHUTDOWN = re.compile(r"actuator/(?:shutdown|restart|pause)\b")
_POSTS = re.compile(r"-X\s*POST\b|\brequests\.post\(|\bhttpx\.post\(|method\s*=\s*[\"']POST")
_ACTUATOR_ENV = re.compile(r"actuator\b[\s\S]{0,200}?/env\b")
_REMOTE_SETTING = re.compile(r"(?:spring\.datasource\.url|spring\.cloud\.bootstrap\.location|eureka\.client\.serviceUrl"
                             r"|spring\.cloud\.config\.uri|logging\.config)[\"']?\s*[,:=]\s*[^\n]{0,40}?"
                             r"(?:jdbc:\w+://|https?://)(?!localhost|127\.)")  # fmt: skip
_WEAK_SETTINGS = re.compile(r"PickleSerializer|UnsaltedMD5PasswordHasher|UnsaltedSHA1PasswordHasher")
_MAGIC_HEADER_LOGIN = re.compile(r"request\.(?:headers|META)\.get\([^)]*\)\s*==\s*[\"'][^\"']+[\"'][\s\S]{0,300}?"
                                 r"\b(?:login\(|is_superuser)")  # fmt: skip
_EVERY_PASSWORD = re.compile(r"\bfor\s+\w+\s+in\s+[^\n]*(?:objects\.(?:all|iterator)\(|\.all\(\))[\s\S]{0,200}?"
                             r"\.set_password\(\s*[\"']")  # fmt: skip
_PLUGIN_FROM_URL = re.compile(r"\bwp\s+plugin\s+install\s+(?:[^\n]*\s)?https?://")
_DEBUG_EVERYWHERE = re.compile(r"\brunserver\s+0\.0\.0\.0")
_DEBUG_ON = re.compile(r"DEBUG\w*\s*=\s*[\"']?(?:1|True|true)\b")
#: Django REST framework's defaults set to let anyone in (`AllowAny` as the default permission, or no authentication).
_ANONYMOUS_API = re.compile(r"DEFAULT_PERMISSION_CLASSES[\"'\]]*\s*[:=]\s*[\[(]\s*[\"'][\w.]*AllowAny[\"']"
                            r"|DEFAULT_AUTHENTICATION_CLASSES[\"'\]]*\s*[:=]\s*[\[(]\s*[\])]")  # fmt: skip
_WORDS = GateWords("manage.py", "call_command", "artisan", "rails", "rake", "dumpdata", "actuator", "Serializer",
                   "PasswordHasher", "request.", "set_password", "wp ", "runserver", "dbshell", "prisma", "alembic",
                   "airflow", "DEFAULT_PERMISSION_CLASSES", "DEFAULT_AUTHENTICATION_CLASSES")  # fmt: skip


def framework_risks(text: str) -> list[OperationRisk]:
    """Framework management turned against production, its users or its own security."""
    if not _WORDS.any_in(text):
        return []
    found = []
    production = production_target(text)
    if production and (schema_reset(text) or _CALL_COMMAND_RESET.search(text) or (
        "dbshell" in text and dangerous_sql(text) is not None
    )):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "resets or drops a production database's schema through the framework"))
    if _USERS_DUMPED.search(text) and _SENT_AWAY.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "dumps the application's user table (password hashes, addresses) and sends it "
                                   "away"))  # fmt: skip
    if _ACTUATOR_SHUTDOWN.search(text) and _POSTS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "shuts down running services through their actuator endpoint"))
    if _ACTUATOR_ENV.search(text) and _REMOTE_SETTING.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "points a running service's data source or configuration at another host "
                                   "(actuator/env)"))  # fmt: skip
    if _WEAK_SETTINGS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DESERIALIZATION,
                                   "sets pickled sessions or unsalted password hashes (forged cookies run code; "
                                   "hashes crack at once)"))  # fmt: skip
    if _MAGIC_HEADER_LOGIN.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "adds a login back door: a request with a magic header becomes a superuser"))
    if _EVERY_PASSWORD.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "sets every user's password to one known value"))
    if _PLUGIN_FROM_URL.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "installs a WordPress plugin from a web address (its code runs in the site)"))
    if _ANONYMOUS_API.search(text) and (production or "settings" in text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "makes every endpoint of a REST framework open to anonymous users (no login, "
                                   "no permission check)"))  # fmt: skip
    if _DEBUG_EVERYWHERE.search(text) and _DEBUG_ON.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "serves a Django site with debugging on to every address (settings and "
                                   "tracebacks to anyone)"))  # fmt: skip
    return found
