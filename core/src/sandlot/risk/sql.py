"""SQL (and database shell) statements that harm a database server or its host (shared by both analyzers)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from sandlot.risk.destinations import internal_host, outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category

_DANGEROUS_SQL = re.compile(
    # a database function or trigger that posts rows (tokens, new records) to a web address
    r"(?P<posts>\bhttp_post\s*\(\s*(?:url\s*:=\s*)?'https?://)|"
    r"\bDROP\s+(?P<drop>DATABASE|SCHEMA|KEYSPACE|EXTENSION(?=[^;]*\bCASCADE\b))\b|\.(?P<mongo>dropDatabase)\(|\b(?P<program>(?:FROM|TO)\s+PROGRAM)\b"
    r"|\b(?P<terminate>pg_terminate_backend)\b(?![\s\S]*\bstate\s*=\s*'idle[\s\S]*\binterval\b)|\b(?P<series>generate_series)\s*\(\s*1\s*,\s*\d{8,}"
    r"|\bDEBUG\s+POPULATE\s+(?P<populate>\d{7,})"
    # every document of a collection or an index: deleteMany({}), remove({}), a delete_by_query matching all
    r"|(?P<wipe>\b(?:deleteMany|delete_many|remove)\s*\(\s*\{\s*\}|_delete_by_query\b[\s\S]*\bmatch_all\b"
    r"|\bFLUSHALL\b|\bTRUNCATE\s+(?:TABLE\s+)?[^;]*\bCASCADE\b"
    # SQLite's schema table emptied with writable_schema: every table gone (the file left unreadable)
    r"|\bwritable_schema\s*=\s*(?:1|ON|true)\b[\s\S]{0,80}?\b(?:DELETE\s+FROM|UPDATE)\s+sqlite_(?:master|schema)\b"
    # every collection of a database dropped one by one (mongosh's getCollectionNames, pymongo's list)
    r"|\b(?:getCollectionNames|list_collection_names)\s*\(\s*\)[\s\S]{0,80}?\b(?:drop\s*\(\s*\)|drop_collection\s*\())"
    # a login role made superuser, the server opened to every address, every privilege on everything
    r"|(?P<share>\bALTER\s+SHARE\s+\S+\s+(?:ADD|SET)\s+ACCOUNTS\b)"
    r"|(?P<grant>\b(?:ALTER|CREATE)\s+(?:ROLE|USER)\b[^;]*\b(?:SUPERUSER|CREATEUSER)\b|\blisten_addresses\s*(?:=|TO)\s*'\*'"
    r"|\bALLOWED_IP_LIST\s*=\s*\(\s*'0\.0\.0\.0/0'"
    r"|\bGRANT\s+ALL(?:\s+PRIVILEGES)?\s+ON\s+\*\.\*|\bGRANT\s+ALL\b[^;]*\bTO\s+(?:ROLE\s+)?PUBLIC\b"
    # (ClickHouse: an account without a password that logs in from anywhere)
    r"|\bCREATE\s+USER\b[^;]*\bIDENTIFIED\s+WITH\s+no_password\b(?![^;]*\bHOST\s+(?:LOCAL\b|IP\s+'(?:127\.|::1)))"
    # warehouse administrator roles handed out (Snowflake), every privilege on every schema of a database
    r"|\bGRANT\s+ROLE\s+(?:ACCOUNTADMIN|SECURITYADMIN|ORGADMIN|SYSADMIN|USERADMIN)\b"
    r"|\bGRANT\s+ROLE\b[^;]*\bTO\s+ROLE\s+PUBLIC\b|\bDEFAULT_ROLE\s*=\s*'?(?:ACCOUNTADMIN|SECURITYADMIN|ORGADMIN)\b"
    r"|\bGRANT\s+ALL\s+PRIVILEGES\s+ON\s+(?:ALL|FUTURE)\s+\w+\s+IN\s+(?:DATABASE|ACCOUNT)\b"
    # an application's own user table edited to make someone its administrator
    r"|\bUPDATE\b[^;]*\bSET\b[^;]*\b(?:super_?user|is_?superuser|is_?admin|is_?staff|account_manager|admin|root_admin)\s*=\s*"
    r"(?:1|true|'1'|'t'|'true')\b"
    r"|\bUPDATE\s+\w*users?\b[^;]*\bSET\b[^;]*\brole\s*=\s*'(?:\w*_)?(?:super_?admin|admin|administrator|owner|root)'"
    r"|\bINSERT\s+INTO\s+\w*users?\b[^;]*'(?:super_?admin|administrator|owner)'"
    # (Pterodactyl's panel: `root_admin` set in the column list's values)
    r"|\bINSERT\s+INTO\s+\w*users?\s*\([^)]*\broot_admin\b[^;]*\bVALUES\b[^;]*,\s*1\s*,"
    # (a users or memberships table whose column list names the role, given the admins' one: Ghostfolio's `"User"`
    # row as 'ADMIN', Typebot's `"MemberInWorkspace"` rows for every workspace a SELECT gives)
    r"|\bINSERT\s+INTO\s+[\"`]?\w*(?:users?|members?\w*)[\"`]?\s*\([^)]*\brole\b[^)]*\)\s*(?:VALUES\s*\(|SELECT\b)"
    r"[^;]*'(?:super_?)?(?:admin(?:istrator)?|owner)'"
    # every account created from now on an administrator (the users table's role column defaulted to it)
    r"|\bALTER\s+TABLE\s+[\"`]?\w*users?[\"`]?\s+ALTER\s+(?:COLUMN\s+)?[\"`]?(?:role|is_?admin|is_?superuser|is_?staff)"
    r"[\"`]?\s+SET\s+DEFAULT\s+(?:'(?:super_?)?admin(?:istrator)?'|true\b|1\b)"
    # someone put into the administrators' group or role of an application (`phpbb_user_group`, `user_roles`)
    r"|\bINSERT\s+INTO\s+\w*(?:user_?groups?|group_?members?|user_?roles?|role_?members?|members?_?roles?)\b[^;]*"
    r"'(?:administrators?|admins?|super_?admins?|owners?)'"
    # a RADIUS account that always authenticates, or one handed the devices' admin level
    r"|\bradcheck\b[^;]*Auth-Type[^;]*Accept|\bradreply\b[^;]*priv-lvl\s*=\s*15"
    # a superuser inserted straight into a framework's user table; a trigger that makes new rows administrators
    r"|\bINSERT\s+INTO\s+auth_user\b[^;]*\bis_superuser\b|\bNEW\.\w*(?:admin|superuser|staff)\w*\s*:?=\s*(?:true|1)\b"
    # an administrator inserted straight into a MongoDB-backed application's admin or privilege collection
    r"|\bdb\.(?:admin|admins|privilege|privileges|users?)\.insert(?:One|Many)?\([^;]*\brole\W{1,4}(?:admin|super_?admin|owner)\b"
    r"|\bdb\.admins?\.insert(?:One|Many)?\("
    # WordPress's role of a user, kept in its user meta (`wp_capabilities` = `a:1:{s:13:"administrator";b:1;}`)
    r"|\b\w*_capabilities\b[^;]*\badministrator\b|\badministrator\b[^;]*\b\w*_capabilities\b)"
    # a file written on the database server by a query (a page in the web root, a library to load)
    r"|(?P<outfile>\bINTO\s+(?:OUT|DUMP)FILE\b)"
    # a table locked against everyone for an hour or more
    r"|(?P<lock>\bLOCK\s+TABLE\b[^;]*\bACCESS\s+EXCLUSIVE\b[\s\S]{0,200}?\bpg_sleep\(\s*\d{4,})"
    # approvals and second factors switched off for everyone (required approvers, dual control, MFA)
    # every administrator of an application (or every SIP subscriber) given one password (no WHERE: all of them); a
    # dev database's users scrubbed to a placeholder are not administrators
    r"|(?P<passwords>\bUPDATE\s+\w*(?:admin|subscriber)\w*\s+SET\s+(?:(?!\bWHERE\b)[^;])*?"
    r"\bpassword\w*\s*="
    r"(?:(?!\bWHERE\b)[^;])*(?:;|$))"
    r"|(?P<controls>\bUPDATE\b[^;]*\bSET\b[^;]*\b(?:required_approvers|dual_control\w*|require_\w*approv\w*"
    r"|mfa_?(?:required|enabled)|two_factor_\w+|receipts?_required|callback_\w*required)\s*=\s*(?:0|false|'0'|'f'"
    r"|'false')\b"
    # every account's second factor cleared (no WHERE: not one locked-out person's reset)
    # (`UPDATE "User" SET "twoFactorEnabled" = false`: a quoted table, a camel-case column)
    r"|\bUPDATE\s+\\?[\"`]?\w+\\?[\"`]?\s+SET\s+(?:(?!\bWHERE\b)[^;])*\b(?:two_?fa_\w+|\w*_2fa_\w+|totp_\w+"
    r"|two_?factor_?\w*)\\?[\"`]?\s*=\s*(?:0|false|'0'|'false'|NULL)\b(?:(?!\bWHERE\b)[^;])*(?:;|$)"
    # an application's own login switched off in its settings table (Uptime Kuma's `disableAuth`)
    r"|\b(?:UPDATE|INSERT\s+INTO)\s+\w*settings?\b[^;]*'disable_?auth\w*'[^;]*'(?:true|1)'"
    r"|\b(?:UPDATE|INSERT\s+INTO)\s+\w*settings?\b[^;]*'(?:true|1)'[^;]*'disable_?auth\w*'"
    # pending payments approved in bulk by the database (a second approver written in, not given)
    r"|\bUPDATE\s+\w*(?:wire|payment|transfer|payout|disbursement)\w*\s+SET\s+status\s*=\s*'APPROVED'"
    # every role of an application given to one login
    r"|\bINSERT\s+INTO\s+\w*user_?roles\b[^;]*\bSELECT\b[^;]*\bFROM\s+\w*roles\b"
    # the administrator role given to an account by a row of its own (`INSERT INTO AspNetUserRoles … r.Name = 'Admin'`)
    r"|\bINSERT\s+(?:OR\s+IGNORE\s+)?INTO\s+\w*user_?roles\b[^;]*\bname\s*=\s*'(?:admin|administrator|superuser)'"
    # an application's settings table: its password policy, lockout or forced login switched off
    # Snowflake's account guards: its network policy removed, MFA off, unloads to any URL allowed
    r"|\bALTER\s+ACCOUNT\s+UNSET\s+NETWORK_POLICY\b|\bDISABLE_MFA\s*=\s*TRUE\b"
    r"|\bPREVENT_UNLOAD_TO_INLINE_URL\s*=\s*FALSE\b|\bREQUIRE_STORAGE_INTEGRATION_FOR_STAGE_\w+\s*=\s*FALSE\b"
    r"|\bUPDATE\b[^;]*\bSET\s+value\s*=\s*'?(?:0|false|off|no)\b'?\s+WHERE\s+(?:name|key|setting|setting_name"
    r"|option_name)\s*(?:=\s*|IN\s*\([^)]*?)'?(?:password_?policy|lockout_?threshold|force_?login|\w*mfa\w*"
    r"|\w*two_?factor\w*|\w*audit\w*|e_?sig\w*|\w*second_signer\w*)\b)"
    # payees' bank accounts rewritten in bulk (not one payee by its id): their payments go elsewhere
    r"|(?P<payee>\bUPDATE\b[^;]*\bSET\b[^;]*\b(?:routing_?number|account_?number|iban|bank_account\w*|payee_account\w*"
    r"|pay_account\w*|pay_sort_?code)"
    r"\s*=[^;]*?\bWHERE\b(?![^;]*?\b\w*id\s*=\s*(?:%s|\?|:\w+|\d+|'[^']*')\s*(?:;|$|\)|AND\b)))"
    # every chunk of a hypertable dropped (a cutoff in the future keeps nothing); every series of a metrics store
    r"|(?P<chunks>\bdrop_chunks\s*\([^;]*older_than\s*=>\s*(?:now\(\)|current_timestamp)\s*\+"
    r"|\bDROP\s+SERIES\s+FROM\s+/\.\*/)"
    # a table's history thrown away at once (Delta VACUUM with no retention): no time travel back
    r"|(?P<history>\bVACUUM\b[^;]*\bRETAIN\s+0\s+HOURS\b|retentionDurationCheck\.enabled\W+false"
    # Iceberg's snapshots expired with no retention (Trino, Spark): no earlier version to go back to
    r"|\bexpire_snapshots\s*\([^)]*retention_threshold\s*=>\s*'0[smhd]?'"
    r"|\bexpire_snapshots\s*\([^)]*older_than\s*=>\s*(?:now\(\)|current_timestamp)[^)]*retain_last\s*=>\s*[01]\b)"
    # a warehouse made huge or never suspended, its spending limit removed
    r"|(?P<spend>\bWAREHOUSE_SIZE\s*=\s*'?(?:X?[4-6]X-?LARGE|X[4-6]LARGE)\b|\bAUTO_SUSPEND\s*=\s*0\b"
    r"|\bUNSET\s+RESOURCE_MONITOR\b)"
    # the audit trail emptied (changes made before it can no longer be traced)
    r"|(?P<audit>\b(?:DELETE\s+FROM|TRUNCATE\s+(?:TABLE\s+)?|DROP\s+(?:TABLE|TRIGGER)\s+(?:IF\s+EXISTS\s+)?"
    r"|UPDATE\s+(?=[\w.\"`]*audit\w*\s+SET\b))\s*[\w.\"`]*audit\w*"
    # (or an application's activity log, every row of it: `DELETE FROM activities`)
    r"|\b(?:DELETE\s+FROM|TRUNCATE\s+(?:TABLE\s+)?)\s*[\"`]?\w*activit(?:y|ies)(?:_log)?[\"`]?\s*(?:;|\Z))"
    # row-level security switched off or its policies dropped: every tenant's rows open to every other
    r"|(?P<rls>\b(?:DISABLE|NO\s+FORCE)\s+ROW\s+LEVEL\s+SECURITY\b|\bDROP\s+(?:(?:ROW\s+ACCESS|MASKING)\s+)?POLICY\b"
    # a role let past every policy, or the public roles of a hosted Postgres given its service role
    r"|\bALTER\s+ROLE\s+\S+\s+(?:WITH\s+)?BYPASSRLS\b|\bGRANT\s+service_role\s+TO\s+(?:anon|authenticated|public)\b"
    r"|\bUNSET\s+(?:MASKING|ROW\s+ACCESS)\s+POLICY\b"
    # a whole schema's or database's tables readable by every role
    r"|\bGRANT\s+(?:SELECT|USAGE|READ)\b[^;]*\bON\s+(?:ALL\s+TABLES|SCHEMA|DATABASE|FUTURE\s+TABLES)\b[^;]*"
    r"\bTO\s+(?:ROLE\s+)?PUBLIC\b)"
    # rows sent to another server from inside the database (dblink to a literal address)
    r"|(?P<dblink>\bdblink(?:_exec|_connect)?\s*\(\s*'[^']*\bhost=(?P<dbhost>[\d.]+))"
    # (ClickHouse's table function: `INSERT INTO FUNCTION url('https://…', …) SELECT …` posts the rows there)
    r"|(?P<urlfn>\bINSERT\s+INTO\s+FUNCTION\s+url\s*\(\s*'https?://(?:[^@/']*@)?(?P<fnhost>[\w.-]+))"
    # functions in languages that reach the operating system: plpython3u, plperlu, a sys_exec UDF
    # everyone's balance emptied but one account's (`… SET balance = 0 WHERE username != ?`)
    r"|(?P<zeroed>\bUPDATE\b[^;]*\bSET\s+(?:\w+\s*=[^;,]*,\s*)*(?:balance|credits?|wallet\w*|points|coins|money)\s*=\s*0\b"
    r"[^;]*\bWHERE\b[^;]*(?:!=|<>)"
    # every payment's or invoice's amount set to zero (no WHERE: all of them)
    r"|\bUPDATE\s+\w*(?:payment|invoice|charge|order|transaction)s?\b\s+SET\s+(?:\w+\s*=[^;,]*,\s*)*"
    r"amount\w*\s*=\s*0\b(?![^;]*\bWHERE\b))"
    # people taken off a protective list (gambling self-exclusion, do-not-call, mail suppression), not as it expires
    r"|(?P<protect>\bDELETE\s+FROM\s+[\w.]*?(?:self_?exclu\w*|exclusion_list\w*|do_not_(?:call|contact|mail)\w*"
    r"|\w*dnc\w*|\w*suppression\w*)\b(?![^;]*(?:expir|\bends?_|until|end_date|lifted|<\s*(?:now|CURRENT_)))"
    r"(?!\s+WHERE\s+\w*id\s*=\s*(?:\?|%s|\$\d|:\w+)\s*(?:;|$|[\"'])))"
    # every row of a table set to expire within hours (ClickHouse's MODIFY TTL, Cassandra's COPY … WITH TTL)
    r"|(?P<expire>\bMODIFY\s+TTL\b[^;]*?\bINTERVAL\s+\d+\s+(?:SECOND|MINUTE|HOUR)\b"
    r"|\bCOPY\s+[\w.$]+\s+FROM\b[^;]*\bTTL\s*=\s*\d{1,4}\b)"
    r"|(?P<udf>\bLANGUAGE\s+'?pl(?:python3?u|perlu|tclu|sh)\b|\bsys_(?:exec|eval)\s*\(|\blib_mysqludf_sys\b)",
    re.IGNORECASE,
)


#: What follows DROP DATABASE when it names a test's, a developer's or a scratch database (``test_3f9a``,
#: ``app_dev``, ``tmp_import``): recreated from migrations or seeds.
_THROWAWAY_NAME = re.compile(
    r"\s+(?:IF\s+EXISTS\s+)?[\"`'\[]?(?:(?:test|tmp|temp|scratch|ci|dev|local|restore_drill|drill|pytest)(?:_|\b)"
    r"|(?:it|e2e)_)"  # (an integration test's: `it_3f9a`)
    # a CI database's schema (`ANALYTICS_CI."DBT_CI_PR_12"`), one per pull request
    r"|\s+(?:IF\s+EXISTS\s+)?\w*_(?:CI|TEST|DEV)\.(?!\s)"
    r"|\s+(?:IF\s+EXISTS\s+)?[\"`'\[]?\w+_(?:test|tmp|dev|local|scratch|drill|it|e2e|ci)\b"
    # (a copy a dump is restored into to check it: `monica_restore_check`)
    r"|\s+(?:IF\s+EXISTS\s+)?[\"`'\[]?\w*_restore_(?:check|test|verify)\b",
    re.IGNORECASE,
)


def throwaway_database(name: str) -> bool:
    """``name`` is a test's, a developer's or a scratch database (``test_3f9a``, ``app_dev``)."""
    return bool(_THROWAWAY_NAME.match(" " + name))


_DROPPED_DATABASE = re.compile(
    r"\bDROP\s+DATABASE\s+(?:IF\s+EXISTS\s+)?[\"`\[]?([\w-]+)(?![\w\x00-])", re.IGNORECASE
)


#: A database filled again after it was made (a dump restored or loaded into it).
_REFILLED = re.compile(r"\bpg_restore\b|\bpsql\b[^\n]*(?:\s-f\s|<)|\|\s*(?:psql|mysql)\b|\bmysql\b[^\n]*<|\bloaddata\b"
                       r"|\brestore\b|\bimport\b|\bclone\b|\bTEMPLATE\b"
                       # (a compressed dump piped into a client, whatever variable names it)
                       r"|\b(?:gunzip|zcat|xzcat|zstdcat|gzip\s+-\w*d\w*)\b[^\n|]*\|", re.IGNORECASE)


def made_here(database: str, source: str) -> bool:
    """``source`` creates the database ``database`` itself (``CREATE DATABASE x``, ``createdb x``, a backup
    restored under ``new_db_name = 'x'``) and the name is not production's: the script's own to drop."""
    if not database or production_target(database):
        return False
    name = re.escape(database)
    created = re.search(
        rf"(?:\bCREATE\s+DATABASE\s+(?:IF\s+NOT\s+EXISTS\s+)?[\"`\[]?|\bnew_db_name\s*=\s*'"
        rf"|\bcreatedb\b[^\n;|&]*(?<![\w-])){name}(?![\w\x00{{$-])",
        source,
        re.IGNORECASE,
    )
    if created is None:
        return False
    dropped = re.search(rf"(?:\bdropdb\b[^\n;|&]*(?<![\w-])|\bDROP\s+DATABASE\s+(?:IF\s+EXISTS\s+)?[\"`\[]?){name}"
                        rf"(?![\w\x00{{$-])", source, re.IGNORECASE)  # fmt: skip
    # (dropped first and made again: its own only when a backup is restored into it, not left empty)
    return dropped is None or created.start() < dropped.start() or bool(_REFILLED.search(source, created.end()))


def drops_database_made_here(statement: str, source: str) -> bool:
    """``statement`` drops a database that ``source`` creates itself (:func:`made_here`)."""
    dropped = _DROPPED_DATABASE.search(statement)
    return dropped is not None and made_here(dropped[1], source)


#: Words at least one of which every statement :data:`_DANGEROUS_SQL` matches spells (a cheap test first).
_DANGER_WORDS = re.compile(
    r"DROP|PROGRAM|TERMINATE|SERIES|POPULATE|DELETE|REMOVE|FLUSHALL|TRUNCATE|COLLECTION|SHARE|ROLE|USER|LISTEN"
    r"|ALLOWED_IP|GRANT|UPDATE|RADCHECK|RADREPLY|VACUUM|RETENTION|WAREHOUSE|SUSPEND|RESOURCE_MONITOR|LANGUAGE"
    r"|SYS_|MYSQLUDF|ROW\s+LEVEL|POLICY|DBLINK|AUDIT|PUBLIC|MFA|INLINE_URL|STORAGE_INTEGRATION|CHUNKS|SERIES"
    r"|OUTFILE|DUMPFILE|INTO\s+FUNCTION|EXCLUSIVE|auth_user|NEW\.|_capabilities|db\.admin|http_post|TTL|expire_snapshots|BALANCE"
    r"|BYPASSRLS|service_role",
    re.IGNORECASE,
)


#: A retention delete whose cut-off is later than now (`DELETE FROM comment WHERE published < now() + interval %s`).
_FUTURE_CUT_OFF = re.compile(
    r"\bDELETE\s+FROM\s+[\w\"`.]+\s+WHERE\s+[\w\"`.]+\s*<=?\s*(?:now\(\)|current_(?:date|timestamp)\b|getdate\(\)"
    r"|sysdate\b)\s*\+\s*(?:interval\b|\d)", re.IGNORECASE
)


def dangerous_sql(text: str) -> tuple[str, Category] | None:
    """What ``text`` does to the server (``"drops a whole schema"``) and its category, or None."""
    if _DANGER_WORDS.search(text) is None:
        return None
    if _FUTURE_CUT_OFF.search(text):
        return "deletes every row (its cut-off lies in the future: every row is older than it)", Category.FILESYSTEM
    found = _DANGEROUS_SQL.search(text)
    if found is None:
        return None
    if found["drop"] and _THROWAWAY_NAME.match(text, found.end()):
        return dangerous_sql(text[found.end() :])  # a test's or a scratch database: its own to drop
    if found["drop"] or found["mongo"]:
        what = (found["drop"] or "database").lower()
        if what == "extension":
            return "drops an extension with CASCADE (every column, index and table that uses it)", Category.FILESYSTEM
        return f"drops a whole {what}", Category.FILESYSTEM
    if found["outfile"]:
        return "writes a file on the database server from a query (a web page, a library)", Category.PERSISTENCE
    if found["lock"]:
        return "locks a table against every other session for an hour or more", Category.RESOURCE
    if found["program"]:
        return "runs a shell command on the database server (COPY ... PROGRAM)", Category.PROCESS
    if found["udf"]:
        return "creates or calls a function that runs operating-system commands on the server", Category.PROCESS
    if found["wipe"]:
        return "deletes every row, document or key (whole tables, collections, indices or servers)", Category.FILESYSTEM
    if found["passwords"]:
        return "sets one password for every administrator or subscriber of an application (a known login to all)", (
            Category.PRIVILEGE
        )
    if found["controls"]:
        return "turns off approvals, receipts, second factors or login protection for everyone", Category.PRIVILEGE
    if found["share"]:
        return "shares a database with another account (every row the share grants)", Category.EXFILTRATION
    if found["grant"]:
        return "gives a role superuser or every right, or opens the server to every address", Category.PRIVILEGE
    if found["audit"]:
        return "deletes or rewrites audit records (hides who changed what)", Category.PERSISTENCE
    if found["rls"]:
        return "switches off row-level security or masking, or opens tables to every role", Category.PRIVILEGE
    if found["dblink"]:
        if not outside_address(found["dbhost"]):
            return dangerous_sql(text[found.end() :])  # a database of the local network
        return f"sends rows from inside the database to another server ({found['dbhost']})", Category.EXFILTRATION
    if found["urlfn"]:
        if internal_host(found["fnhost"]):
            return dangerous_sql(text[found.end() :])  # a server of the local network
        return f"sends rows from inside the database to another server ({found['fnhost']})", Category.EXFILTRATION
    if found["chunks"]:
        return "drops every chunk or series of a time-series store (its whole history)", Category.FILESYSTEM
    if found["payee"]:
        return "rewrites many payees' bank accounts at once (their payments go elsewhere)", Category.EXFILTRATION
    if found["history"]:
        return "deletes a table's whole history (no way back to earlier versions)", Category.FILESYSTEM
    if found["spend"]:
        return "makes a warehouse huge, never suspended or without a spending limit", Category.RESOURCE
    if found["posts"]:
        return "makes the database post rows to a web address (a function or trigger with http_post)", (
            Category.EXFILTRATION
        )
    if found["zeroed"]:
        return "empties every account's balance but one (the others' money or credits are gone)", Category.FILESYSTEM
    if found["protect"]:
        return ("takes people off a self-exclusion, do-not-contact or suppression list (they are marketed to, "
                "called or let gamble again)", Category.FILESYSTEM)
    if found["expire"]:
        return "makes every row of a table expire within hours (the data deletes itself)", Category.FILESYSTEM
    if found["terminate"]:
        return "terminates other sessions' backends", Category.PROCESS
    return "generates a huge number of rows or keys", Category.RESOURCE


#: Client and ORM methods that empty a whole store when called as written (the text is the call's source).
_WIPE_CALLS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\.(?:delete_many|remove)\(\s*\{\s*\}"), "deletes every document of a collection"),
    (re.compile(r"\.(?:drop_database|dropDatabase)\("), "drops a whole database"),
    (re.compile(r"\.(?:flushall|flushdb|flush_all)\(|execute_command\(\s*['\"]FLUSH(?:ALL|DB)"),
     "empties the key-value server"),
    (re.compile(r"\.control\.(?:purge|shutdown)\("), "purges every queue or stops every worker"),
    # (redis-py's `r.shutdown(nosave=True)`: the server stops, and what it held in memory since its last save is lost)
    (re.compile(r"\.shutdown\([^)]*\bnosave\s*=\s*True"), "stops the key-value server without saving it"),
    (re.compile(r"retention\.(?:ms|bytes)['\"]\s*:\s*['\"]?[0-9]{1,4}['\"]?\s*[,}]"),
     "sets topics' retention near zero"),
    (re.compile(r"\.delete_by_query\([\s\S]*match_all"), "deletes every document of the indices"),
    (re.compile(r"\.indices\.delete\([\s\S]*(?:'\*'|\"\*\"|_all)"), "deletes every index"),
    (re.compile(r"\.recursive_delete\("), "deletes a collection and everything below it"),
    (re.compile(r"\.drop_all\("), "drops every table of the schema"),
    (re.compile(r"\.objects\.all\(\)\.delete\(|\.query\([\w.]+\)\.delete\("), "deletes every row of a table"),
    (re.compile(r"\bcall_command\(\s*['\"](?:flush|reset_db)['\"]"), "empties the database"),
)
#: A store that is clearly a local or test one (a fixture, an in-memory database, a fake).
_LOCAL_STORE = re.compile(
    r"localhost|127\.0\.0\.1|sqlite|:memory:|mongomock|fakeredis|\bmoto\b|testcontainers|@pytest\.fixture"
    r"|\bdef test_|unittest|\btest_?db\b|TEST_DATABASE|\bsetUp\(|\btearDown\(",
)
_PRODUCTION = re.compile(r"(?<![a-z])prod(?:uction)?(?![a-z])", re.IGNORECASE)


def store_wipe(call_source: str) -> str | None:
    """What the database call in ``call_source`` wipes (``"drops every table of the schema"``), or None."""
    for pattern, what in _WIPE_CALLS:
        if pattern.search(call_source):
            return what
    return None


#: HTTP calls to search engines and brokers that empty, open or take over the whole store.
_STORE_REQUESTS: tuple[tuple[str, re.Pattern[str], re.Pattern[str] | None, str, Category], ...] = (
    ("DELETE", re.compile(r"/(?:_all|\*[^/]*|[\w.-]*\*[\w.,*-]*)/?$"), None,
     "deletes every index (a wildcard or _all)", Category.FILESYSTEM),
    ("PUT", re.compile(r"/_cluster/settings$"), re.compile(r"destructive_requires_name\W+false", re.I),
     "lets one request delete every index (destructive_requires_name off)", Category.FILESYSTEM),
    ("PUT", re.compile(r"/_(?:plugins|opendistro)/_security/api/rolesmapping/all_access$"), re.compile(r"\*"),
     "maps everyone to the all_access role", Category.PRIVILEGE),
    ("PUT", re.compile(r"/api/users/[^/]+$"), re.compile(r"administrator"), "creates a broker administrator",
     Category.PRIVILEGE),
    # a FHIR server: every resource expunged, or every resource of a type deleted by a conditional delete
    ("POST", re.compile(r"/\$expunge$"), re.compile(r"expungeEverything"),
     "expunges every resource of a FHIR server (patients' records, for good)", Category.FILESYSTEM),
    ("DELETE", re.compile(r"/fhir/[A-Z][A-Za-z]+/?$"), None,
     "deletes every resource of a FHIR type a search matches (patients' records)", Category.FILESYSTEM),
    ("POST", re.compile(r"/(?:solr/)?[\w.\x00-]+/config$"),
     re.compile(r"VelocityResponseWriter[\s\S]*resource\.loader\.enabled"),
     "enables templates that run code on the search server (VelocityResponseWriter)", Category.DYNAMIC_CODE),
)
_EVERYTHING_QUERY = re.compile(r"<delete>\s*<query>\s*\*:\*\s*</query>|\"delete\"\s*:\s*\{\s*\"query\"\s*:\s*\"\*:\*\"")


def store_request(method: str, url: str, body: str) -> tuple[str, Category] | None:
    """What an HTTP call does to a search engine or a broker: every index deleted, everyone made admin."""
    path = url.split("?", 1)[0]
    if _EVERYTHING_QUERY.search(body):
        return "deletes every document (a delete query of *:*)", Category.FILESYSTEM
    for verb, pattern, needs, what, category in _STORE_REQUESTS:
        if method.upper() == verb and pattern.search(path) and (needs is None or needs.search(body)):
            return what, category
    return None


#: The code makes sure it works on a test database: it checks the name (`startswith("test_")`) or loads the
#: project's test settings.
_TEST_DATABASE = re.compile(
    r"(?:NAME|name|database|db_name|dbname)[\"'\]]*\)?\.startswith\(\s*[\"']test"
    r"|DJANGO_SETTINGS_MODULE[\"'\]]*\s*[=,]\s*[\"'][\w.]*settings[._](?:test|testing|e2e|ci)\b"
)


def guarded_test_database(module_source: str) -> bool:
    """The code checks that the database it empties is a test's (by its name, or by test settings)."""
    return bool(_TEST_DATABASE.search(module_source)) and not production_target(module_source)


_TEST_HARNESS = re.compile(r"@pytest\.fixture|\bdef test_|\bunittest\b|\bsetUp\(|\btearDown\(")
_THIS_MACHINE = re.compile(r"localhost|127\.0\.0\.1|testcontainers|:memory:")


def test_harness_database(module_source: str) -> bool:
    """Tests (a fixture, a test case) reset a database on this machine and name no production one."""
    return (
        _TEST_HARNESS.search(module_source) is not None
        and _THIS_MACHINE.search(module_source) is not None
        and not production_target(module_source)
    )


def local_store(module_source: str) -> bool:
    """The code works on a local or test store and names no production one (a mocked cloud, whatever its
    resources are called, is local)."""
    if _MOCKED_CLOUD.search(module_source) or guarded_test_database(module_source):
        return True
    return bool(_LOCAL_STORE.search(module_source)) and not production_target(module_source)


_MOCKED_CLOUD = re.compile(r"\bfrom moto import|@mock_\w+|\bmock_aws\(|\blocalstack\b")


def production_target(source: str) -> bool:
    """The code names a production database, settings module, host, profile or stack (a guard that refuses to run
    against production, `if "prod" in dsn: sys.exit(…)`, names it only to stay away from it)."""
    if _PRODUCTION.search(source) is None:
        return False
    return bool(_PRODUCTION.search(_PRODUCTION_GUARD.sub("", source))) if "in" in source else True


#: A check that production is not the target, and its refusal (`if "prod" in dsn: sys.exit("refusing")`).
_PRODUCTION_GUARD = re.compile(
    r"^[ \t]*if\b[^\n]*[\"']prod(?:uction)?[\"']\s+in\b[^\n]*:[ \t]*(?:\n[ \t]+)?(?:sys\.exit|raise|exit)\b[^\n]*",
    re.MULTILINE | re.IGNORECASE,
)


#: Columns that identify people or hold what they would not share (a customer table's contact and payment data).
_PERSONAL_COLUMN = re.compile(
    r"\b(?:[a-z0-9]+_)*?(?P<column>e_?mail(?:_address)?|phone(?:_number)?|mobile|full_?name|first_name|last_name|surname"
    r"|(?:home_|street_|mailing_|postal_|billing_)?address"
    r"|street|post_?code|postal_?code|zip_?code"
    r"|ssn|social_security\w*|national_id|tax_id|tin|passport\w*|card_(?:number|last4|no)|credit_card\w*|iban|dob|pan|cvv"
    r"|cardholder\w*|(?:last_|client_|remote_)?ip(?:_address|_addr)?|discord_id|acc_number|account_number"
    r"|bank_account\w*|routing_number|account_?(?:no|num)|routing_?(?:no|num)"
    r"|date_of_birth|birth_?date|salary|diagnosis|(?:driver_?)?licen[cs]e_?(?:no|num|number)|driver_?licen[cs]e"
    r"|medical\w*|medications?|prescriptions?|life_support|health_\w+|insurance_?(?:id|number|no)|member_?id"
    r"|lat|lon|lng|latitude|longitude|city"
    # a person's vehicle (a plate or a VIN leads to its keeper) and insurance policy
    r"|(?:license_|licence_|number_|reg_)?plate(?:_no|_number|_state)?|vin|policy_?(?:no|num|number)"
    # a patient's medical record number, and what was dispensed to them
    r"|mrn|medical_record_(?:no|number)|drug(?:_name)?"
    # advertising and device identifiers (they single a person out as well as a name does)
    r"|(?:advertising|ad|device)_?id|idfa|gaid|maid"
    # travellers: a booking's locator, the passenger's name and loyalty number
    r"|pax_?name|passenger_?name|record_?locator|ffp_?(?:number|no)|frequent_?flyer\w*"
    # people named by their role, and what opens their doors (a fob's or badge's id clones it)
    r"|(?:member|customer|client|guest|patient|tenant|owner)_?name|(?:fob|badge|card)_?uid|fob_?(?:id|code)"
    r"|badge_?(?:id|number)|facility_code|(?:door|gate|access|keypad|alarm)_code|pin|pin_?code|passcode"
    # LoRaWAN devices' root and session keys (whoever has them speaks as the device)
    r"|app_?key|nwk_?key|app_?s_?key|nwk_?s_?(?:enc_)?key"
    # the accounts' password hashes (cracked offline, or replayed where the hash is the login)
    r"|password|passwd|(?:hashed_|encrypted_)?password(?:_?hash|_encrypted|_digest)?|pass_?hash|pwd_?hash)\b",
    re.IGNORECASE,
)
_SELECT = re.compile(r"\bSELECT\b(?P<columns>[\s\S]*?)\bFROM\b", re.IGNORECASE)
#: A Cypher query's returned properties (`MATCH (c:Customer) RETURN c.name, c.email, c.dob`).
_CYPHER_RETURN = re.compile(r"\bMATCH\b[^;]*?\bRETURN\b(?P<columns>[^\"';]*)", re.IGNORECASE)
#: Columns whose values alone are enough to harm someone.
_SENSITIVE_COLUMN = re.compile(
    r"^(?:ssn|social_security\w*|national_id|tax_id|tin|passport\w*|card_number|credit_card\w*|pan|cvv"
    r"|iban|acc_number|account_number|account_?(?:no|num)|routing_?(?:no|num)|bank_account\w*|routing_number|dob|date_of_birth|birth_?date|salary|diagnosis"
    r"|driver_?licen[cs]e_?(?:no|num|number)|driver_?licen[cs]e|medical\w*|medications?|prescriptions?"
    r"|life_support|health_\w+|(?:fob|badge|card)_?uid|fob_?(?:id|code)|badge_?(?:id|number)|facility_code"
    r"|(?:door|gate|access|keypad|alarm)_code|pin|pin_?code|passcode"
    # LoRaWAN devices' root and session keys (whoever has them speaks as the device)
    r"|app_?key|nwk_?key|app_?s_?key|nwk_?s_?(?:enc_)?key"
    r"|password|passwd|(?:hashed_|encrypted_)?password(?:_?hash|_encrypted|_digest)?|pass_?hash|pwd_?hash)$",
    re.IGNORECASE,
)


#: The content of a table of conversations selected: `SELECT title, chat FROM chat`, `SELECT body FROM messages`.
_PRIVATE_MESSAGES = re.compile(
    r"\bSELECT\b(?:(?!\bFROM\b)[\s\S]){0,200}?\b(?:\w+\.)?(?:chat|message|body|content|transcript)\b"
    r"(?:(?!\bFROM\b)[\s\S]){0,200}?\bFROM\s+[\"`]?(?:chats?|messages?|conversations?|direct_messages|dms|transcripts?)"
    r"[\"`]?(?:\s|;|$)"
    # a forum's private messages (Discourse's `archetype = 'private_message'`, phpBB's `privmsgs`)
    r"|\bSELECT\b[\s\S]{0,600}?\b(?:private_?messages?|privmsgs)\b",
    re.IGNORECASE,
)


#: SAP's tables of people's records (HR infotypes 0002/0006/0008/0009, business partners' and vendors' banks).
_SAP_PEOPLE_TABLES = re.compile(r"\bFROM\s+(?:\w+\.)?(?:PA000[2689]|PA0021|LFBK|KNBK|BUT0BK|BUT000|ADRC)\b",
                                re.IGNORECASE)


def personal_data_query(text: str) -> bool:
    """``text`` selects people's records: three or more identifying columns, or one that is sensitive on its
    own (a national id, a card number), or the addresses of a whole table of people (``SELECT email, name FROM
    members``), or every column of a table of people (``SELECT * FROM patients``). A newsletter's ``SELECT email
    FROM subscribers WHERE id = ?`` is one person."""
    if "*" in text and _EVERY_COLUMN_OF_PEOPLE.search(text):
        return True
    if _PRIVATE_MESSAGES.search(text):
        return True  # people's conversations (a chat app's or an assistant's history)
    if "FROM" in text.upper() and _SAP_PEOPLE_TABLES.search(text):
        return True  # SAP's tables of employees' personal and bank data, suppliers' and customers' bank accounts
    selects = [*_SELECT.finditer(text), *(_CYPHER_RETURN.finditer(text) if "MATCH" in text.upper() else ())]
    for select in selects:
        # (SOQL and ORMs spell columns in camelCase: `MailingStreet`, `BirthDate`)
        spelled = _CAMEL_HUMP.sub("_", select["columns"])
        found = list(_PERSONAL_COLUMN.finditer(spelled))
        columns = {m["column"].lower() for m in found}
        # (`a.full_name, a.email, b.full_name, b.email`: two people's names and addresses side by side)
        qualified = {(spelled[max(0, m.start() - 3) : m.start()].rpartition(" ")[2], m["column"].lower())
                     for m in found}  # fmt: skip
        if len(columns) >= 3 or len(qualified) >= 4 or any(_SENSITIVE_COLUMN.match(c) for c in columns):
            return True
        reaches = columns & {"email", "e_mail", "email_address", "phone", "phone_number", "address", "home_address"}
        if reaches and _WHOLE_PEOPLE_TABLE.match(text, select.end()):
            return True
        # (`SELECT r.name, r.phone, r.email …`: a name and both ways to reach each row's person, whatever the table
        # is called; a reminder's name and phone alone reach each person about their own booking)
        names = {c.strip().rsplit(".", 1)[-1].split()[0].lower() for c in select["columns"].split(",") if c.strip()}
        if names & {"email", "e_mail", "email_address"} and names & {"phone", "mobile", "phone_number"} and names & {
            "name", "full_name", "first_name", "last_name"
        }:
            return True
    return False


def personal_fields(text: str) -> bool:
    """``text`` is a field list an API is asked for (``name,email,phone,passportNo,dob``) that names people's
    records the way :func:`personal_data_query` judges a SELECT's columns; camelCase names count as snake_case."""
    columns = {m["column"].lower() for m in _PERSONAL_COLUMN.finditer(_CAMEL_HUMP.sub("_", text))}
    return len(columns) >= 3 or any(_SENSITIVE_COLUMN.match(c) for c in columns)


def people_row(names: Iterable[str]) -> bool:
    """Variables a row is read into (``read -r id name phone email addr``) that together identify and reach a
    person: three contact fields or more, or what :func:`personal_fields` counts as people's records."""
    names = list(names)
    return sum(1 for n in names if _CONTACT_NAME.fullmatch(n)) >= 3 or personal_fields(",".join(names))


_CONTACT_NAME = re.compile(
    r"(?:(?:full|first|last|owner|customer|client|patient|guest)_?)?"
    r"(?:name|e_?mail|phone|mobile|tel|addr(?:ess)?|street|dob|ssn|birth_?date)",
    re.IGNORECASE,
)


def payment_or_identity_field(key: str) -> bool:
    """``row["pan"]``, ``guest["passport_no"]``: a field whose value alone lets someone pay or pass as its owner."""
    return bool(_PAYMENT_OR_IDENTITY_KEY.match(_CAMEL_HUMP.sub("_", key)))


_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z])")
_PAYMENT_OR_IDENTITY_KEY = re.compile(
    r"^(?:pan|cvv2?|cvc|card_?(?:number|no|num)|credit_?card(?:_?number)?|track_?[12](?:_?data)?|ssn"
    r"|social_security(?:_number)?|passport(?:_?(?:no|number|num))?|national_id(?:_number)?|iban|bank_account(?:_number)?)$",
    re.IGNORECASE,
)


_PEOPLE_TABLES = (
    r"(?:members|users|customers|subscribers|patients|employees|contacts|clients|leads|residents"
    r"|citizens|voters|students|guests|tenants|donors|applicants|parolees|probationers|inmates|offenders"
    r"|defendants|victims|witnesses|claimants|policyholders|insureds|beneficiaries|borrowers|cardholders"
    r"|staff|officers|personnel|workers|drivers|volunteers|teachers|nurses|passengers|travell?ers|parents|children"
    r"|motorists|riders|callers|owners)"
)
#: The rest of a SELECT naming a table of people, with no WHERE, JOIN or LIMIT picking some of them.
_WHOLE_PEOPLE_TABLE = re.compile(
    rf"\s*[\w.\"`]*?\b{_PEOPLE_TABLES}\b(?:[\"`]?\s*(?:;|\)|$|ORDER\s+BY)|[\"']\s*[,)\n]"
    # (or all of them but those taken out: `WHERE unsubscribed = 0`, `WHERE deleted_at IS NULL`; not those who opted
    # in to something, a choice each made)
    r"|\s+WHERE\s+(?:\w+\.)?(?:un\w+|(?:is_)?(?:deleted|archived|disabled|banned)(?:_at)?)\s*(?:=|IS)\s*"
    r"(?:0|FALSE|NULL)\s*(?:;|\)|$|ORDER\s+BY|[\"']\s*[,)\n]))",
    re.IGNORECASE,
)
#: Every column of a table of people (`SELECT * FROM claimants`, or joined in: `… JOIN claimants USING (id)`).
_EVERY_COLUMN_OF_PEOPLE = re.compile(
    rf"\bSELECT\s+\*\s+FROM\s+(?:[\w.\"`]+\s+(?:\w+\s+)?(?:(?:INNER|LEFT|RIGHT|FULL)\s+(?:OUTER\s+)?)?JOIN\s+)?"
    rf"[\w.\"`]*?\b{_PEOPLE_TABLES}\b",
    re.IGNORECASE,
)


#: A pg_hba.conf line letting anyone from any address log in as anyone without a password.
_TRUST_EVERYONE = re.compile(r"^\s*host\w*\s+\S+\s+\S+\s+(?:0\.0\.0\.0/0|::/0|all|0/0)\s+trust\b", re.M)
#: A substitution turning PostgreSQL's password or identity checks into ``trust``.
_TO_TRUST = re.compile(r"(?:md5|scram-sha-256|peer|ident|password|cert)\b.*?(?P<d>[/|#@,])trust(?P=d)")


def trusts_everyone(content: str) -> bool:
    """``content`` (pg_hba.conf lines) lets every address log in without a password."""
    return bool(_TRUST_EVERYONE.search(content))


def logins_to_trust(sed_script: str) -> bool:
    """A sed substitution rewriting PostgreSQL authentication methods to ``trust`` (no password at all)."""
    return sed_script.startswith("s") and bool(_TO_TRUST.search(sed_script))


#: Statements that write a query's rows into object storage (Redshift UNLOAD, Snowflake COPY INTO a location,
#: BigQuery EXPORT DATA).
_UNLOAD = re.compile(
    r"\bUNLOAD\s*\(|\bCOPY\s+INTO\s+'?(?:s3|gcs|azure|gs)://|\bEXPORT\s+DATA\b"
    # ClickHouse's table functions: rows inserted into a bucket, a web address or another server
    r"|\bINSERT\s+INTO\s+FUNCTION\s+(?:s3|url|gcs|azureBlobStorage|remote|remoteSecure|mysql|postgresql|hdfs)\s*\(",
    re.IGNORECASE
)


#: A named stage pointing at a bucket (Snowflake): `COPY INTO @stage` writes there.
_EXTERNAL_STAGE = re.compile(r"\bCREATE\s+(?:OR\s+REPLACE\s+)?STAGE\b[^;]*\bURL\s*=\s*'(?:s3|gcs|azure|gs)://", re.I)
_INTO_STAGE = re.compile(r"\bCOPY\s+INTO\s+@", re.IGNORECASE)
#: A whole table of people (customers, users, patients, orders...) selected with every column.
_PEOPLE_TABLE = re.compile(
    r"\bSELECT\s+\*\s+FROM\s+[\w.\"]*?\b(?:customers?|users?|clients?|patients?|employees?|members?|contacts?"
    r"|accounts?|orders?|subscribers?|leads?)\b",
    re.IGNORECASE,
)


def unloads_personal_data(text: str, context: str = "") -> bool:
    """``text`` copies people's records out of the warehouse into object storage (a bucket anyone may own);
    ``context`` is the rest of the script, where a stage ``COPY INTO @stage`` writes to may be defined."""
    unloads = bool(_UNLOAD.search(text)) or (
        bool(_INTO_STAGE.search(text)) and bool(_EXTERNAL_STAGE.search(context or text))
    )
    return unloads and (personal_data_query(text) or bool(_PEOPLE_TABLE.search(text)))


#: DROP TABLE (or VIEW, or TOPIC) of a name known only at run time: run over a listing, it drops all of them.
_DROP_NAMED_AT_RUN_TIME = re.compile(r"\bDROP\s+(?:TABLE|VIEW|STAGE|STREAM)\b", re.IGNORECASE)


def drops_table(text: str) -> bool:
    """``text`` drops a table or a view."""
    return bool(_DROP_NAMED_AT_RUN_TIME.search(text))


#: Migration and ORM tools told to drop every table (or to migrate down to nothing): the database emptied.
_SCHEMA_RESET = re.compile(
    r"\balembic\b.*\bdowngrade\s+base\b|\bprisma\s+(?:migrate\s+reset|db\s+push\s+.*--force-reset)"
    r"|\bmanage\.py\s+(?:flush|reset_db|migrate\s+\w+\s+zero)\b|\b(?:rails|rake)\s+db:(?:drop|reset|schema:load|purge)\b"
    r"|\b(?:rails|rake)\s+db:rollback\s+STEP=(?:[1-9]\d+)\b"
    # Redmine's plugins migrated back to version 0: every table the plugins made dropped
    r"|\bredmine:plugins:migrate\b[^\n]*\bVERSION=0\b"
    r"|\bflyway\b.*\bclean\b|\bknex\s+migrate:rollback\s+--all|\bsequelize\s+db:(?:migrate:undo:all|drop)"
    r"|\bdbmate\b.*\bdrop\b|\bgoose\b.*\breset\b|\bliquibase\b.*\bdropAll\b|\bmigrate\b.*\bdrop\s+-f\b"
    # Laravel, Sequelize's CLI, Ecto (mix tasks, and a release's `rollback(Repo, 0)`: every migration undone)
    r"|\bartisan\s+(?:migrate:(?:fresh|reset|refresh)|db:wipe)\b|\bsequelize-cli\s+db:(?:migrate:undo:all|drop)"
    r"|\becto\.(?:drop|reset)\b|\becto\.rollback\b[^\n]*--all\b|\bRelease\.rollback\(\s*[\w.]+\s*,\s*0\s*\)"
    # Entity Framework's CLI
    r"|\bdotnet\s+ef\s+database\s+drop\b"
    # Doctrine (Symfony and the PHP applications built on it): the schema or the database dropped, forced
    r"|\bdoctrine:(?:schema|database):drop\b[^\n]*--force\b"
    # Alembic's Python API taken down to base
    r"|\bcommand\.downgrade\(\s*\w+\s*,\s*[\"']base[\"']"
    # Airflow's metadata database (every DAG run, connection and variable)
    r"|\bairflow[\"',\s]+(?:db[\"',\s]+reset|resetdb)\b"
)


def schema_reset(command: str) -> bool:
    """``command`` makes a migration tool drop every table of the database it points at."""
    return bool(_SCHEMA_RESET.search(command))


_TRUNCATE = re.compile(r"\bTRUNCATE\b", re.IGNORECASE)
#: A table's name, quoted (`"GL Entry"`, `` `tabGL Entry` ``, `[Order Lines]`) or bare (`public.orders`).
_TABLE_PART = r"(?:`[^`\n]+`|\"[^\"\n]+\"|\[[^\]\n]+\]|[\w\x00]+)"
# (each dot between two parts required: `(?:\w+\.?)+` would try every split of a long name before failing)
_TABLE = rf"{_TABLE_PART}(?:\.{_TABLE_PART})*"
_DELETE_ALL = re.compile(
    # (`WHERE 1=1`: the filter a helper falls back to when its list of keys is empty)
    rf"\bDELETE\s+FROM\s+{_TABLE}\s*(?:WHERE\s+(?:1\s*=\s*1|TRUE)\s*)?$"
    # (every row but one named row: `DELETE FROM notes WHERE noteId != 'root'`)
    rf"|\bDELETE\s+FROM\s+{_TABLE}\s*WHERE\s+[\w\"`.]+\s*(?:!=|<>)\s*'[^']*'\s*$"
    # MySQL's multi-table form without a WHERE (`DELETE o, m FROM orders o LEFT JOIN meta m ON …`)
    r"|^DELETE\s+\w+(?:\s*,\s*\w+)*\s+FROM\b(?![\s\S]*\bWHERE\b)",
    re.IGNORECASE,
)
_UPDATE = re.compile(rf"\bUPDATE\s+{_TABLE}\s+SET\b", re.IGNORECASE)
_WHERE = re.compile(r"\bWHERE\b", re.IGNORECASE)


#: A load into tables (after they were emptied): INSERT, COPY, bulk loaders, DataFrame writes.
_RELOADS = re.compile(r"\bINSERT\b|\bCOPY\b|\bLOAD\s+DATA\b|\.to_sql\(|copy_expert|copy_from|executemany|bulk_|"
                      r"\.load\(|\bMERGE\b|\\copy\b|mysqlimport|pg_restore", re.IGNORECASE)


def refills_tables(source: str) -> bool:
    """The code loads data into tables (truncate-and-load): what it empties, it fills again at once."""
    return _RELOADS.search(source) is not None


#: A DELETE of the rows newer than some moment (the latest records, not a retention clean-up of old ones).
_RECENT_DELETE = re.compile(
    r"\bDELETE\s+FROM\s+[\w.\"`]+\s+WHERE\s+[\w.\"`]*?(?:_at|_on|date|time|timestamp)\w*\s*>=?\s*"
    r"(?:now\(\)|current_date|current_timestamp|sysdate|getdate\(\))",
    re.IGNORECASE,
)


def deletes_recent_rows(text: str) -> bool:
    """``text`` deletes a table's most recent rows (``WHERE paid_at > now() - interval '45 days'``)."""
    return "DELETE" in text.upper() and bool(_RECENT_DELETE.search(text))


def deletes_before_far_future(text: str) -> bool:
    """``text`` deletes the rows dated before a day decades ahead (``WHERE issued_at < '2999-12-31'``, a purge's
    cut-off left at its default): every row, not the old ones."""
    return "DELETE" in text.upper() and _FAR_FUTURE_CUT_OFF.search(text) is not None


_FAR_FUTURE_CUT_OFF = re.compile(
    r"\bDELETE\s+FROM\b[^;]*?\bWHERE\b[^;]*?<=?\s*(?:COALESCE\([^;]{0,80}?)?'(?:20[7-9]\d|2[1-9]\d\d|[3-9]\d\d\d)-\d\d-\d\d",
    re.IGNORECASE
)


def empties_tables(text: str) -> bool:
    """``text`` drops, truncates or deletes every row of a table, or rewrites every row (an UPDATE without a
    WHERE: every price set to zero)."""
    return drops_table(text) or emptied_table_count(text) > 0


def deletes_every_row(text: str) -> bool:
    """``text`` truncates a table, deletes all its rows or drops it (not an UPDATE: a settings table's one row
    is rewritten without a WHERE by design)."""
    return drops_table(text) or any(
        not _SCRATCH_TABLE.search(statement) and (_TRUNCATE.search(statement) or _DELETE_ALL.search(statement.strip()))
        for statement in text.split(";")
    )


def emptied_table_count(text: str) -> int:
    """How many statements of ``text`` truncate a table, delete all its rows or rewrite every row (staging and
    temporary tables, emptied before a load by design, not counted)."""
    count = 0
    for statement in text.split(";"):
        if _SCRATCH_TABLE.search(statement):
            continue  # a staging or temporary table emptied before a load: refilled by design
        rewrites_every_row = _UPDATE.search(statement) is not None and _WHERE.search(statement) is None
        if _TRUNCATE.search(statement) or _DELETE_ALL.search(statement.strip()) or rewrites_every_row:
            count += 1
        dropped = _DROP_TABLES.search(statement)
        if dropped:  # `DROP TABLE IF EXISTS payments, collateral, court_dates CASCADE`: each table named
            count += len([t for t in dropped["tables"].split(",") if t.strip() and not _SCRATCH_NAME.search(t)])
    return count


_DROP_TABLES = re.compile(r"\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?P<tables>[\w.\"`\[\]]+(?:\s*,\s*[\w.\"`\[\]]+)*)",
                          re.IGNORECASE)
_SCRATCH_NAME = re.compile(r"\bstg_|staging\b|_stg\b|\btmp_|_tmp\b|\btemp_|_temp\b|scratch|#|\btest_", re.IGNORECASE)


_SCRATCH_TABLE = re.compile(
    r"\b(?:TRUNCATE(?:\s+TABLE)?|DELETE\s+FROM|UPDATE)\s+(?:IF\s+EXISTS\s+)?[\w.\"`]*?(?:\bstg_|staging\b|_stg\b"
    r"|\btmp_|_tmp\b|\btemp_|_temp\b|scratch|#"
    # a server's own query and trace logs (ClickHouse's `system.query_log`), kept only for diagnosis
    r"|\bsystem\.(?:\w+_log\b|\$|\x00))",
    re.IGNORECASE,
)


#: Container settings that switch a data store's authentication off.
_NO_AUTH_SETTING = re.compile(
    r"^(?:xpack\.security\.enabled=false|plugins\.security\.disabled=true|DISABLE_SECURITY_PLUGIN=true"
    r"|POSTGRES_HOST_AUTH_METHOD=trust|(?:MYSQL_|MARIADB_)?ALLOW_EMPTY_(?:ROOT_)?PASSWORD=(?:yes|1|true)"
    r"|MARIADB_ALLOW_EMPTY_ROOT_PASSWORD=(?:yes|1|true)|ALLOW_ANONYMOUS_LOGIN=yes)$",
    re.IGNORECASE,
)


def unauthenticated_store(settings: list[str], ports: list[str]) -> bool:
    """A container given ``settings`` (``-e`` values) that switch its data store's logins off, with a port
    published on every interface (``-p 9200:9200`` binds 0.0.0.0 unless an address is named)."""
    everywhere = any(p.count(":") == 1 or p.startswith(("0.0.0.0:", "[::]:", "::")) for p in ports)
    return everywhere and any(_NO_AUTH_SETTING.match(s) for s in settings)


#: A database URL and its host (`postgresql://collector:pw@34.89.120.17:5432/mirror`).
_DATABASE_URL = re.compile(r"\b(?:postgres(?:ql)?|mysql|mariadb|mssql|oracle|mongodb|redshift)(?:\+\w+)?://"
                           r"[^@\s'\"/]*@([\w.-]+)")  # fmt: skip
#: Rows written into a database (a table created and filled, a DataFrame stored, a bulk copy).
_ROW_COPY = re.compile(r"\.insert\(|\.to_sql\(|copy_expert|copy_from|executemany|bulk_insert|insert_many")
#: A table of people (or of their payments and addresses) named in a string.
_NAMED_PEOPLE_TABLE = re.compile(rf"[\"'](?:{_PEOPLE_TABLES}|customer|payment\w*|addresses|accounts)[\"']",
                                 re.IGNORECASE)


def copies_people_to_address(code: str) -> str | None:
    """The outside address (a bare IP) of a second database that ``code`` copies tables of people into from the
    first, or None."""
    if code.count("://") < 2 or not _ROW_COPY.search(code):
        return None
    hosts: list[str] = _DATABASE_URL.findall(code)
    outside = [h for h in hosts if outside_address(h)]
    if len(hosts) >= 2 and outside and _NAMED_PEOPLE_TABLE.search(code):
        return outside[0]
    return None


#: A cartesian product: tables cross-joined, listed side by side with nothing relating them, or graph patterns
#: matched side by side (`MATCH (a:Person), (b:Person)`).
_CYPHER_PRODUCT = re.compile(r"\bMATCH\s*\(\w+:\w+\)\s*,\s*\(\w+:\w+\)(?![^\n\"']*\bWHERE\b)", re.IGNORECASE)
_CROSS_JOIN = re.compile(r"\bCROSS\s+JOIN\b", re.IGNORECASE)
_COMMA_TABLES = re.compile(
    r"\bSELECT\b[^;\"']{0,300}?\bFROM\s+[\w.$]+(?:\s+(?!WHERE\b)\w+)?\s*,\s*(?:[\w.$]+|\()"
    r"(?:(?!\bWHERE\b)[^;\"'])*?(?:[;\"']|$)",
    re.IGNORECASE,
)
#: Without one of these words there is no query to multiply.
_QUERY_WORDS = GateWords("cross join", "select", "match (", ignore_case=True)
#: Repeated without end, or run side by side by the dozen (threads, background jobs, a parallel hint).
_ENDLESS_OR_PARALLEL = re.compile(
    r"\bwhile\s+(?:True|1|1\s*=\s*1)\b|\bwhile\s+(?:true|:)\s*;?\s*do\b"
    r"|\bparallel\s*\(\s*(?:\w+\s*,\s*)?(?:[3-9]\d|\d{3,})\s*\)"
    r"|\brange\(\s*(?:[2-9]\d|\d{3,})\s*\)[\s\S]{0,300}?\bThread\b|\bThread\b[\s\S]{0,300}?\brange\(\s*(?:[2-9]\d|\d{3,})\s*\)"
    r"|\bseq\s+(?:1\s+)?(?:[2-9]\d|\d{3,})\b[\s\S]{0,300}?&\s*$|\bxargs\b[^\n]*-P\s*(?:[2-9]\d|\d{3,})\b",
    re.MULTILINE,
)


def cartesian_flood(text: str) -> bool:
    """``text`` runs cartesian-product queries (every row times every row) without end or dozens at once: the
    database server's CPU, memory and temporary space run out for everyone."""
    if not _QUERY_WORDS.any_in(text):
        return False
    cartesian = len(_CROSS_JOIN.findall(text)) >= 1 or _COMMA_TABLES.search(text) is not None or (
        _CYPHER_PRODUCT.search(text) is not None
    )
    return cartesian and _ENDLESS_OR_PARALLEL.search(text) is not None
