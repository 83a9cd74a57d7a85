"""Oracle Database and Microsoft SQL Server administration (shared by both analyzers, judged on the whole text).

The statements arrive through sqlplus, RMAN, dgmgrl, sqlcmd, dbatools or a driver's ``execute``; what needs
a careful reviewer is the same either way:

* the administrator roles given away: ``GRANT DBA``/``SYSDBA``/``EXEMPT ACCESS POLICY``, ``sysadmin`` or
  ``CONTROL SERVER``, impersonation of ``sa`` (to everyone: ``PUBLIC``, every authenticated or domain user);
* logins weakened: the default profile's lockout and password checks off, every account's password reset over
  a listing, the default schemas unlocked, ``sa`` enabled again;
* the password hashes read (``sys.user$``, ``sys.sql_logins``, ``Export-DbaLogin`` sent away; PostgreSQL's
  ``pg_authid``, MySQL's ``mysql.user`` and CockroachDB's ``system.users`` alike);
* data and its recovery destroyed: every tablespace of a listing dropped with its datafiles, the database
  dropped with its backups, RMAN's backups and archived logs force-deleted, every table emptied
  (``sp_MSforeachtable 'DELETE FROM ?'``), databases removed replica by replica;
* the server made to run other code or reach out: ``xp_cmdshell`` switched on, CLR's strict security off or an
  ``UNSAFE`` assembly, Java's permission to run any file, network ACLs opened to every host for ``PUBLIC``,
  a linked server at a bare outside address;
* persistence: a logon trigger that grants roles, a server trigger that protects a login from being dropped,
  a startup procedure that creates logins;
* availability and audit: a forced failover or a standby activated, every instance shut down without a
  checkpoint, sessions killed without end, the audit trail purged unarchived or the server audit switched off.

Grants of named object privileges, one service account's password rotated, planned switchovers, RMAN's
retention deletes (``DELETE OBSOLETE``, ``… BACKED UP 2 TIMES``) and audit purges after archiving are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: Words without which no rule here can match (SQL keywords in any case).
_WORDS = GateWords("grant", "sysadmin", "profile", "account unlock", "identified by", "alter login", "user$",
                   "sql_logins", "passwordhash", "pg_authid", "authentication_string", "hashedpassword",
                   "export-dbalogin", "tablespace", "drop database", "delete",
                   "sp_msforeachtable", "remove-dbadatabase", "asmcmd", "xp_cmdshell", "clr strict", "unsafe",
                   "grant_permission", "acl_admin", "linkedserver", "after logon", "on all server", "sp_procoption",
                   "failover", "standby", "shutdown", "kill", "audit", ignore_case=True)  # fmt: skip
_I = re.IGNORECASE
_EVERYONE = r"(?:PUBLIC|\[?public\]?|\[?NT AUTHORITY\\+Authenticated Users\]?|\[?[\w.-]+\\+Domain Users\]?|Everyone)"
#: Oracle's administrator roles and system privileges that amount to one.
_ORACLE_ADMIN_GRANT = re.compile(
    r"\bGRANT\s+(?:[\w$]+(?:\s+\w+)*\s*,\s*)*(?:DBA|SYSDBA|SYSOPER|SYSBACKUP|SYSDG|SYSKM|ALL\s+PRIVILEGES"
    r"|EXEMPT\s+(?:ACCESS|REDACTION)\s+POLICY|BECOME\s+USER|JAVASYSPRIV|(?:DATAPUMP_)?IMP_FULL_DATABASE"
    r"|GRANT\s+ANY\s+(?:ROLE|PRIVILEGE)|DBADM|SYSADM|SECADM|SYSCTRL|ACCESSCTRL|DATAACCESS)\b[\w$\s,]*?\bTO\b\s*['\"]?(\S*)",
    _I,
)
#: SQL Server's: the sysadmin role, CONTROL SERVER, impersonating sa (by T-SQL, the old procedure or dbatools).
_SQLSERVER_ADMIN_GRANT = re.compile(
    r"\bALTER\s+SERVER\s+ROLE\s+\[?sysadmin\]?\s+ADD\s+MEMBER\s+(\[[^\]]+\]|\S+)"
    r"|\bsp_addsrvrolemember\b[^;\n]*?sysadmin"
    r"|\bGRANT\s+CONTROL\s+SERVER\s+TO\s+(\[[^\]]+\]|\S+)"
    r"|\bGRANT\s+IMPERSONATE\s+ON\s+LOGIN::\[?sa\]?"
    r"|-(?:AddRole|ServerRole)\s+['\"]?sysadmin\b",
    _I,
)
_TO_EVERYONE = re.compile(_EVERYONE + r"(?![\w-])", _I)
_DEFAULT_PROFILE_OPENED = re.compile(
    r"\bALTER\s+PROFILE\s+DEFAULT\s+LIMIT\b[^;\"]*?\b(?:FAILED_LOGIN_ATTEMPTS\s+UNLIMITED|PASSWORD_VERIFY_FUNCTION\s+NULL)",
    _I,
)
_PASSWORD_RESET = re.compile(r"\bALTER\s+USER\b[^;\n]*?\bIDENTIFIED\s+BY\b", _I)
_USER_LISTING = re.compile(r"\b(?:dba_users|all_users|cdb_users)\b", _I)
_ORACLE_DEFAULT_SCHEMAS = re.compile(r"\b(?:DBSNMP|OUTLN|XDB|MDSYS|CTXSYS|ORDSYS|WMSYS|ANONYMOUS|SCOTT|OLAPSYS)\b")
_UNLOCK = re.compile(r"\bACCOUNT\s+UNLOCK\b", _I)
_SA_ENABLED = re.compile(r"\bALTER\s+LOGIN\s+\[?sa\]?\s+ENABLE\b", _I)
_HASHES = re.compile(
    r"\bsys\.user\$|\bspare4\b|\bsys\.sql_logins\b[\s\S]{0,300}?\bpassword_hash\b"
    r"|\bpassword_hash\b[\s\S]{0,300}?\bsys\.sql_logins\b|LOGINPROPERTY\s*\([^)]*PasswordHash"
    # PostgreSQL's, MySQL's and CockroachDB's (`pg_authid.rolpassword`, `mysql.user`, `system.users`)
    r"|\brolpassword\b[\s\S]{0,200}?\bpg_authid\b|\bauthentication_string\b[\s\S]{0,200}?\bmysql\.user\b"
    r"|\bhashedPassword\b[\s\S]{0,200}?\bsystem\.users\b",
    _I,
)
_EXPORTED_LOGINS = re.compile(r"\bExport-DbaLogin\b", _I)
_SENT_AWAY = re.compile(r"Invoke-(?:RestMethod|WebRequest)\b|\bcurl\b|\brequests\.(?:post|put)\(|\bnc\s", _I)
_TABLESPACE_DROP = re.compile(r"\bDROP\s+TABLESPACE\b[^;\n]*\bINCLUDING\s+CONTENTS\s+AND\s+DATAFILES\b", _I)
_TABLESPACE_LISTING = re.compile(r"\bdba_tablespaces\b|\bv\$tablespace\b", _I)
_DATABASE_WITH_BACKUPS = re.compile(r"\bDROP\s+DATABASE\s+INCLUDING\s+BACKUPS\b", _I)
_FORCED_BACKUP_DELETE = re.compile(
    r"\bDELETE\s+(?:NOPROMPT\s+)?FORCE\s+(?:NOPROMPT\s+)?(?:BACKUP|COPY|ARCHIVELOG\s+ALL)\b"
    r"(?![^;\n]*\b(?:BACKED\s+UP|COMPLETED\s+BEFORE|OBSOLETE|EXPIRED)\b)",
    _I,
)
_EVERY_TABLE_EMPTIED = re.compile(r"\bsp_MSforeachtable\s+N?['\"](?:DELETE\s+FROM|TRUNCATE\s+TABLE|DROP\s+TABLE)\b", _I)
_DATABASE_REMOVED = re.compile(r"\bRemove-DbaDatabase\b", _I)
_ASM_REMOVE = re.compile(r"\basmcmd\s+rm\s+-\w*[rf]", _I)
_CMDSHELL_ON = re.compile(r"\bsp_configure\s+N?'xp_cmdshell'\s*,\s*1\b", _I)
_CLR_OPENED = re.compile(r"'clr\s+strict\s+security'\s*,\s*0\b|\bPERMISSION_SET\s*=\s*UNSAFE\b", _I)
_JAVA_RUNS_FILES = re.compile(r"\bDBMS_JAVA\.GRANT_PERMISSION\s*\([^)]*<<ALL FILES>>[^)]*execute", _I)
_NETWORK_ACL_OPEN = re.compile(
    r"\bAPPEND_HOST_ACE\s*\(\s*host\s*=>\s*'\*'[\s\S]{0,300}?principal_name\s*=>\s*'PUBLIC'"
    r"|\bGRANT\s+EXECUTE\s+ON\s+(?:SYS\.)?(?:UTL_TCP|UTL_HTTP|UTL_SMTP|UTL_FILE|DBMS_JAVA)\s+TO\s+PUBLIC\b",
    _I,
)
_LINKED_SERVER = re.compile(r"\bsp_addlinkedserver\b[\s\S]{0,400}?(\d{1,3}(?:\.\d{1,3}){3})", _I)
_LOGON_TRIGGER_GRANTS = re.compile(r"\bAFTER\s+LOGON\s+ON\s+DATABASE\b[\s\S]{0,800}?\bGRANT\b", _I)
_LOGIN_GUARD_TRIGGER = re.compile(
    r"\bON\s+ALL\s+SERVER\b[\s\S]{0,200}?\b(?:DROP|ALTER)_LOGIN\b[\s\S]{0,800}?\bROLLBACK\b", _I
)
_STARTUP_PROCEDURE = re.compile(r"\bsp_procoption\b[\s\S]{0,120}?'startup'", _I)
_CREATES_LOGIN = re.compile(r"\bCREATE\s+(?:LOGIN|USER)\b|\bsysadmin\b|\bGRANT\s+DBA\b", _I)
_FORCED_FAILOVER = re.compile(
    r"\bFAILOVER\s+TO\s+\S+\s+IMMEDIATE\b|\bACTIVATE\s+(?:PHYSICAL\s+|LOGICAL\s+)?STANDBY\s+DATABASE\b"
    r"|\bFORCE_FAILOVER_ALLOW_DATA_LOSS\b|Invoke-DbaAgFailover\b[^\n]*-Force\b",
    _I,
)
_ABRUPT_SHUTDOWN = re.compile(r"\bSHUTDOWN\s+(?:WITH\s+NOWAIT|ABORT)\b", _I)
_SESSION_KILL = re.compile(r"\bKILL\s+(?:\{|'|\$|\d)|\bALTER\s+SYSTEM\s+KILL\s+SESSION\b", _I)
_ENDLESS = re.compile(r"\bwhile\s+(?:True|1)\s*:|\bwhile\s+(?:true|:)\s*;?\s*do\b", _I)
_AUDIT_PURGED = re.compile(r"\bCLEAN_AUDIT_TRAIL\b[\s\S]{0,300}?use_last_arch_timestamp\s*=>\s*FALSE", _I)
_SERVER_AUDIT_OFF = re.compile(r"\bALTER\s+SERVER\s+AUDIT\s+\S+\s+WITH\s*\(\s*STATE\s*=\s*OFF\s*\)", _I)
_SERVER_AUDIT_ON = re.compile(r"\bSTATE\s*=\s*ON\b", _I)


def enterprise_database_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to an Oracle database or a SQL Server instance."""
    if not _WORDS.any_in(text):
        return []
    low = text.lower()  # (each rule looks only when its own keyword is there: "delete" and "grant" are common)
    found = []
    grants = "grant" in low or "sysadmin" in low
    oracle = _ORACLE_ADMIN_GRANT.search(text) if grants else None
    sqlserver = _SQLSERVER_ADMIN_GRANT.search(text) if grants else None
    if oracle or sqlserver:
        grantee = oracle[1] if oracle else sqlserver[1] or sqlserver[2] or "" if sqlserver else ""
        everyone = bool(grantee) and _TO_EVERYONE.match(grantee.strip("'\";,")) is not None
        role = "the DBA role or a system privilege as strong" if oracle else "sysadmin or CONTROL SERVER"
        who = "everyone (PUBLIC, every authenticated or domain user)" if everyone else "an account"
        found.append(OperationRisk(RiskLevel.CRITICAL if everyone else RiskLevel.HIGH, Category.PRIVILEGE,
                                   f"gives {who} {role} (administrator of the whole database server)"))  # fmt: skip
    if ("profile" in low and _DEFAULT_PROFILE_OPENED.search(text)) or (
        "identified" in low and _PASSWORD_RESET.search(text) and _USER_LISTING.search(text) and each_item(text)
    ):
        what = "turns off the database's login lockout or password checks, or resets every account's password"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "unlock" in low and _UNLOCK.search(text) and len(set(_ORACLE_DEFAULT_SCHEMAS.findall(text))) >= 2:
        what = "unlocks Oracle's default schemas (their passwords are known)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "alter login" in low and _SA_ENABLED.search(text):
        what = "enables SQL Server's sa login again (the account every attack tries first)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    hashes = any(w in low for w in ("user$", "spare4", "sql_logins", "passwordhash", "pg_authid",
                                    "authentication_string", "hashedpassword")) and _HASHES.search(text)
    if hashes or ("export-dbalogin" in low and _SENT_AWAY.search(text)):
        what = "reads the database's password hashes (every login can be cracked offline)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    dropped = "tablespace" in low and _TABLESPACE_DROP.search(text)
    if (dropped and (_TABLESPACE_LISTING.search(text) or each_item(text))) or (
        "drop database" in low and _DATABASE_WITH_BACKUPS.search(text)
    ):
        what = "drops tablespaces with their datafiles, or the database with its backups"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if "force" in low and _FORCED_BACKUP_DELETE.search(text):
        what = "force-deletes RMAN's backups or archived logs (what a restore needs)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    removed = ("remove-dbadatabase" in low or "asmcmd" in low) and (
        _DATABASE_REMOVED.search(text) or _ASM_REMOVE.search(text)
    )
    if ("sp_msforeachtable" in low and _EVERY_TABLE_EMPTIED.search(text)) or (removed and each_item(text)):
        what = "empties every table, or removes databases or datafiles one after another"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if ("xp_cmdshell" in low or "clr" in low or "unsafe" in low or "grant_permission" in low) and (
        _CMDSHELL_ON.search(text) or _CLR_OPENED.search(text) or _JAVA_RUNS_FILES.search(text)
    ):
        what = "lets the database server run operating-system commands or unchecked code (xp_cmdshell, UNSAFE CLR)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if ("acl_admin" in low or "to public" in low) and _NETWORK_ACL_OPEN.search(text):
        what = "lets every database user reach any host from inside the database (network ACL opened to PUBLIC)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    linked = _LINKED_SERVER.search(text) if "linkedserver" in low else None
    if linked is not None and outside_address(linked[1]):
        what = f"links the server to a bare outside address ({linked[1]}): queries send its data there"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if (
        ("after logon" in low and _LOGON_TRIGGER_GRANTS.search(text))
        or ("all server" in low and _LOGIN_GUARD_TRIGGER.search(text))
        or ("sp_procoption" in low and _STARTUP_PROCEDURE.search(text) and _CREATES_LOGIN.search(text))
    ):
        what = "installs a trigger or startup procedure that grants roles or keeps a login alive"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if ("failover" in low or "standby" in low) and _FORCED_FAILOVER.search(text):
        what = "forces a failover or activates a standby (the primary and the standby part ways: data is lost)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if ("shutdown" in low and _ABRUPT_SHUTDOWN.search(text) and each_item(text)) or (
        "kill" in low and _SESSION_KILL.search(text) and _ENDLESS.search(text)
    ):
        what = "shuts down instances without a checkpoint, or kills sessions without end"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if "audit" in low and (
        _AUDIT_PURGED.search(text) or (_SERVER_AUDIT_OFF.search(text) and not _SERVER_AUDIT_ON.search(text))
    ):
        what = "purges the audit trail before it is archived, or switches the server audit off"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found
