"""Directory and identity administration: admin groups and roles, MFA and sign-in policies, device wipes,
credentials for apps, whole-directory dumps (shared by both analyzers).

Active Directory, Entra ID (Microsoft Graph), Okta, Google Workspace (GAM), Jamf and Intune each spell
the same harms their own way: a member added to ``Domain Admins`` or a Global Administrator role
assignment, conditional access switched off, MFA factors reset for everyone, every managed device
wiped, a 99-year secret added to an application, every person object read with all attributes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import internal_host, outside_address, registered_domain
from sandlot.risk.gate_words import GateWords
from sandlot.risk.mail import personal_mailbox
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, url_hosts

#: Active Directory groups whose members administer the domain (or can become its administrators).
ADMIN_GROUP = re.compile(
    r"\b(?:Domain|Enterprise|Schema|Key|Enterprise Key) Admins\b|\bCN=Administrators\b|\bAccount Operators\b"
    r"|\bBackup Operators\b|\bGroup Policy Creator Owners\b|\bDnsAdmins\b|^Administrators$"
    # a directory's POSIX groups that grant root or administration (`cn=sudo-hpc`, `cn=hpc-admins`, `cn=wheel`)
    r"|\bcn=(?:[\w-]+-admins?|admins?(?:-[\w-]+)?|sudo(?:ers)?(?:-[\w-]+)?|wheel|root)\s*,",
    re.IGNORECASE,
)
#: Entra ID / Microsoft 365 / Google Workspace administrator roles (names and well-known template ids).
ADMIN_ROLE = re.compile(
    r"62e90394-69f5-4237-9190-012177145e10|e8611ab8-c189-46e8-94e1-60213ab1f814|194ae4cb-b126-40b2-bd5b-6091b380977d"
    r"|Global Administrator|Privileged Role Administrator|Company Administrator|Security Administrator"
    r"|_SEED_ADMIN_ROLE|Super ?Admin",
    re.IGNORECASE,
)

#: REST calls of identity and device-management APIs: (method, path pattern, what, category, needs in body).
_REQUESTS: tuple[tuple[str, re.Pattern[str], str, Category, re.Pattern[str] | None], ...] = (
    ("POST", re.compile(r"/roleManagement/directory/roleAssignments|/directoryRoles/[^/]+/members"),
     "assigns a directory administrator role", Category.PRIVILEGE, None),
    ("PATCH", re.compile(r"/identity/conditionalAccess/policies/"),
     "switches a conditional access policy off", Category.PRIVILEGE, re.compile(r"disabled", re.I)),
    ("PATCH", re.compile(r"/policies/identitySecurityDefaultsEnforcementPolicy"),
     "switches the tenant's security defaults (MFA for everyone) off", Category.PRIVILEGE,
     re.compile(r"isEnabled\W+false", re.I)),
    ("PATCH", re.compile(r"/authenticationMethodsPolicy|/authenticationMethodConfigurations/"),
     "turns a sign-in method or the authentication policy off", Category.PRIVILEGE, re.compile(r"disabled", re.I)),
    ("POST", re.compile(r"/lifecycle/reset_factors|/factors/[^/]+/?$"),
     "removes users' enrolled MFA factors", Category.PRIVILEGE, None),
    ("DELETE", re.compile(r"/api/v1/users/[^/]+/factors/"), "removes users' enrolled MFA factors",
     Category.PRIVILEGE, None),
    ("POST", re.compile(r"/managedDevices/[^/]+/(?:wipe|retire)|/EraseDevice/|/computercommands/command/EraseDevice"),
     "wipes managed devices", Category.FILESYSTEM, None),
    ("POST", re.compile(r"/applications/[^/]+/addPassword|/servicePrincipals/[^/]+/addPassword"),
     "adds a long-lived secret to an application (a credential that outlives people)", Category.PERSISTENCE, None),
    ("POST", re.compile(r"/api/v1/users/[^/]+/lifecycle/(?:deactivate|suspend)"), "deactivates users",
     Category.FILESYSTEM, None),
    ("POST", re.compile(r"/api/v1/accounts/[^/]+/admins/?$"), "makes a user an account administrator",
     Category.PRIVILEGE, None),
    # a hub's or an application's user record given its admin flag (JupyterHub, Gitea, most admin APIs)
    ("PATCH", re.compile(r"/users/[^/?]+/?$"), "makes a user an administrator", Category.PRIVILEGE,
     re.compile(r"(?:^|[\s\"'{,])(?:admin|is_?admin|isAdmin|is_superuser|superuser|site_admin)[\"']?\s*:?\s*(?:True|true)\b"
                # (or a role list that names one: `{"roles": ["player", "superadmin"]}`)
                r"|\broles?\b[^\]}]{0,80}?\b(?:super_?admin|administrator|admin|owner)\b")),
    # a new account created as an administrator (Foreman's `admin: true`, Graylog's `roles: ["Admin"]`), a cloud
    # account's user created unrestricted (Linode)
    ("POST", re.compile(r"/api/(?:v\d+/)?users/?$"), "creates an administrator account", Category.PRIVILEGE,
     re.compile(r"\badmin[\"']?\s*:?\s*True\b|\broles[\"']?\s*:?\s*\[?[\"']?(?:admin|administrator)\b", re.I)),
    ("POST", re.compile(r"/account/users/?$"), "creates an unrestricted account user (every resource of the account)",
     Category.PRIVILEGE, re.compile(r"\brestricted[\"']?\s*:?\s*False\b", re.I)),
    # an organisation's membership promoted to admin (Infisical, most SaaS admin APIs)
    ("PATCH", re.compile(r"/memberships/[^/?]+/?$"), "makes a member an administrator of the organisation",
     Category.PRIVILEGE, re.compile(r"\brole[\"']?\s*:?\s*[\"']?(?:admin|owner)\b", re.I)),
    # an application's admin role assigned to a user by the role's name in the path (Druid's basic security)
    ("POST", re.compile(r"/users/[^/?]+/roles/(?:admin|administrator|superuser|super_admin)/?$"),
     "gives a user the administrator role", Category.PRIVILEGE, None),
    ("POST", re.compile(r"/users/[^/?]+/tokens/?$"), "mints an administrator token for a user", Category.PRIVILEGE,
     re.compile(r"\badmin:")),
    ("POST", re.compile(r"/api/users/?$"), "creates a Portainer administrator", Category.PRIVILEGE,
     re.compile(r"\brole\W{1,4}1\b")),
    ("POST", re.compile(r"/api/v1/(?:users|groups)/[^/]+/roles/?$"), "assigns an Okta administrator role",
     Category.PRIVILEGE, re.compile(r"SUPER_ADMIN|ORG_ADMIN|APP_ADMIN|USER_ADMIN|HELP_DESK_ADMIN", re.I)),
    ("POST", re.compile(r"/wp-json/wp/v2/users/?(?:\?|$|/\d+)"), "makes a WordPress administrator",
     Category.PRIVILEGE, re.compile(r"\badministrator\b")),
    ("POST", re.compile(r"api\.gusto\.com/v1/companies/[^/]+/admins"), "adds a payroll company administrator",
     Category.PRIVILEGE, None),
    ("PUT", re.compile(r"zendesk\.com/api/v2/users/|/api/v2/users/[^/]+\.json"),
     "makes a support-desk account an administrator", Category.PRIVILEGE, re.compile(r"\brole\W+admin\b", re.I)),
    ("POST", re.compile(r"zendesk\.com/api/v2/users|api\.hubapi\.com/settings/v3/users"),
     "makes a support-desk or CRM account an administrator", Category.PRIVILEGE,
     re.compile(r"\brole\W+admin\b|\bsuperAdmin\b(?!\W+false)", re.I)),
    ("DELETE", re.compile(r"/deviceManagement/(?:deviceCompliancePolicies|deviceConfigurations)/|"
                          r"/identity/conditionalAccess/policies/"),
     "deletes device compliance, configuration or access policies", Category.PRIVILEGE, None),
)  # fmt: skip

#: APIs whose answers are people's records: a FHIR server's patients, a REDCap project, an LMS's or a
#: directory's users and enrolments.
_PEOPLE_API = re.compile(
    r"/fhir/\S*Patient|/Patient(?:\?|/|$)|redcap\S*/api|/api/v1/(?:accounts/[^/]+/)?users(?:\?|/?$)"
    r"|/enrollments(?:\?|/?$)|/api/v1/courses/[^/]+/students"
    # CRM and support platforms' people: contacts, leads, end users, call recordings
    r"|api\.intercom\.io/contacts|api\.hubapi\.com/crm/v3/objects/(?:contacts|leads)|zendesk\.com/api/v2/users"
    r"|freshdesk\.com/api/v2/contacts|/services/data/v[\d.]+/query/?\?q=SELECT[^&]*(?:Email|Phone)|/Recordings"
    # stores' customers and orders (Shopify, WooCommerce, BigCommerce), HR systems' employees
    r"|/admin/api/[^/]+/(?:customers|orders)(?:\.json|/search\.json)|/wp-json/wc/v\d/(?:customers|orders)"
    r"|api\.bigcommerce\.com/stores/[^/]+/v[23]/(?:customers|orders)|api\.gusto\.com/v1/companies/[^/]+/employees"
    r"|api\.bamboohr\.com/\S*/employees/directory|/ccx/service/\S*/Human_Resources"
    # where people and the vehicles they drive have been: location histories, trips, driver records
    r"|/locations/history|/vehicles/locations|/vehicles/stats/history|/gps/history|/fleet/drivers|/trips(?:\?|/?$)",
    re.IGNORECASE,
)


#: An administrator's (or owner's) role given: ``access_role = AccessRoleEnum.ADMIN``, ``--role=owner``.
_ROLE_KEY = r"(?:access_?role|role|roles|permission_?level|user_?type|security_?level|admin_?level)"
#: (as a JSON key, an assignment or an option, not a word of prose: "your role: admin" grants nothing)
_ADMIN_GRANT = re.compile(
    rf"(?:[\"']{_ROLE_KEY}[\"']\s*:|\b{_ROLE_KEY}\s*=|--{_ROLE_KEY}[= ])"
    r"[^\n]{0,80}?\b(?:admin|administrator|owner|super_?admin|account_?admin|full_?access)\b"
    # the administrators' role or group looked up by name, to put the account in it (SCIM, Looker, jq)
    r"|\b(?:name|displayName)\b[\"']?\s*(?:==|\beq\b)\s*\\?[\"'](?:(?:account|site|org|super)\s+)?(?:admins?|administrators?)\\?[\"']"
    # an administrators' group joined by name (Jira's `site-admins`, `jira-admins-<site>`)
    r"|[\"'](?:site|org|jira|confluence|system)-admin(?:istrator)?s(?:-[\w-]+)?[\"'][\s\S]{0,300}?(?:\b|To)group"
    # Play Console's account-wide permissions (`CAN_MANAGE_PERMISSIONS_GLOBAL`: who may grant everything)
    r"|\bCAN_MANAGE_PERMISSIONS_GLOBAL\b"
    # BI tools: Metabase's superuser flag, Superset's Admin role given, Redash's admin group appended
    r"|\bfab\s+create-admin\b|\bis_superuser[\"']?\s*[:=]\s*True\b|\bfind_role\(\s*[\"']Admin[\"']\s*\)|\bgroup_ids\s*=\s*array_append\b",
    re.IGNORECASE,
)


def outside_admin_invited(text: str) -> str | None:
    """The address of another organisation than the application's own ``text`` invites or adds with an
    administrator's, an owner's or a maintainer's role (`post(f"{API}/invitations", json={"role": "maintainer",
    "email": "qa@labelops.example.net"})`): someone else's account gets the run of it."""
    if not _INVITED.search(text) or not _PRIVILEGED_ROLE.search(text):
        return None
    own = {registered_domain(h) for h in url_hosts(text)}
    return next((address for address, domain in _QUOTED_MAIL_ADDRESS.findall(text)
                 if own and registered_domain(domain) not in own and not internal_host(domain)), None)  # fmt: skip


_INVITED = re.compile(r"invit|/members?\b|/memberships?\b", re.IGNORECASE)
_PRIVILEGED_ROLE = re.compile(r"[\"']role[\"']\s*:\s*[\"'](?:admin|administrator|owner|maintainer|super_?admin)[\"']",
                              re.IGNORECASE)
_QUOTED_MAIL_ADDRESS = re.compile(r"[\"']([\w.+-]+@([\w-]+(?:\.[\w-]+)+))[\"']")


def personal_admin_grant(text: str) -> bool:
    """``text`` makes an address at a free personal mail provider an administrator or owner of something
    (an ad account, a tenant, a fleet): control handed to someone's own account."""
    return "@" in text and personal_mailbox(text) and bool(_ADMIN_GRANT.search(text))


#: An account created with administrator rights in an API body...
_ADMIN_FLAG = re.compile(r"[\"'](?:super_?admin|is_?admin|admin|is_superuser|IsAdministrator|administrator)[\"']\s*:\s*"
                         r"(?:True|true)\b"
                         r"|\\?[\"']superuser\\?[\"']\s*:\s*\\?[\"']?1\b"  # (Snipe-IT's permissions JSON)
                         r"|[\"']roles[\"']\s*:\s*\[\s*[\"']admin[\"']"  # (Checkmk's user_config)
                         r"|[\"']privileges?[\"']\s*:\s*[\"']admin[\"']"  # (Mail-in-a-Box's user privileges)
                         # (an API body's or a Ruby call's role, a Django user's staff or superuser flag)
                         r"|[\"']?\b(?:global_)?role[\"']?\s*(?::|=>)\s*[\"'](?:admin|administrator|owner|super_?admin)[\"']"
                         # (a chained assignment too: `u.is_superuser=u.is_staff=u.is_active=True`)
                         r"|\bis_(?:superuser|staff|admin(?:istrator)?)\s*=(?:\s*[\w.]+\s*=)*\s*True\b"
                         # (Keycloak's realm-admin client role mapped to the account)
                         r"|/roles/realm-admin\b"
                         # (an ORM's administrators' role looked up by name: Eloquent's `Role::where("name", "admin")`)
                         r"|\bwhere\(\s*[\"']name[\"']\s*,\s*[\"'](?:admin|administrator|owner|super_?admin)[\"']\s*\)")
#: ...and a password written in the code beside it.
_LITERAL_PASSWORD = re.compile(r"[\"']?\b(?:password|passwd|Password)[\"']?\s*(?::|=>)\s*"
                               r"[\"'](?![{$%<])[^\"'\s]{6,}[\"']|\bset_password\(\s*[\"'][^\"'{]{6,}[\"']\s*\)"
                               # (Gotify's `"pass"` key; a PHP model's `$u->password = '…'` before it is saved)
                               r"|[\"']pass[\"']\s*:\s*[\"'](?![{$%<])[^\"'\s]{6,}[\"']"
                               # (a name given a literal first, then set as the password: `NEW_PW = "…"` …
                               # `user.set_password(NEW_PW)`)
                               r"|\b(?P<pw>\w+)\s*=\s*[\"'](?![{$%<])[^\"'\s]{6,}[\"'][\s\S]{0,400}?"
                               r"\bset_password\(\s*(?P=pw)\s*\)"
                               # (Stalwart's principal: `"secrets": ["…"]`)
                               r"|[\"']secrets[\"']\s*:\s*\[\s*[\"'](?![{$%<])[^\"'\s]{6,}[\"']"
                               r"|->password\s*=\s*[\"'](?![{$%<])[^\"'\s]{6,}[\"']"
                               # (Keycloak's credential: `{"type": "password", "value": "…"}`)
                               r"|[\"']type[\"']\s*:\s*[\"']password[\"']\s*,\s*[\"']value[\"']\s*:\s*"
                               r"[\"'](?![{$%<])[^\"'\s]{6,}[\"']")


#: A bcrypt or argon2 hash spelled in the code (`$2b$10$…`, shell-escaped `\$2b\$10\$…`), and a user row's password set
#: where the user is the admin (or a parameter).
_HASH_LITERAL = (r"\\?\$(?:2[aby]\\?\$\d\d|argon2\w*)\\?\$|\bargon2(?:id|i|d)\$v="
                 # (or a SHA-crypt one, `$6$salt$…`, as /etc/shadow and Stalwart's fallback admin keep them)
                 r"|\\?\$[56]\\?\$(?:rounds=\d+\\?\$)?[\w./]{1,16}\\?\$[\w./]{40,}"
                 # (or Django's, `pbkdf2_sha256$600000$salt$…`)
                 r"|\bpbkdf2_sha\d+\$\d{4,}\$[\w./+]{4,}\$[\w./+=]{20,}")
_ADMIN_PASSWORD_SET = (r"\bUPDATE\s+\\?[\"`]?\w*user\w*\\?[\"`]?\s+SET\s+password\s*=[\s\S]{0,200}?"
                       r"(?:username|login|email)\s*=\s*(?:'admin'|%s|\?)")
#: An admin CLI creating an administrator with a literal password: Gitea's and Forgejo's `admin user create --admin
#: --password X`, Synapse's `register_new_matrix_user -a -p X` (a value from a variable or a call is not spelled).
_CLI_LITERAL_ADMIN = re.compile(
    r"\buser[\"',\s]+create\b(?=[\s\S]{0,300}?--admin\b)[\s\S]{0,300}?--password[\"',\s=]+[\"']?(?![$])[^\s\"'$()\[\]]{4,}"
    r"(?=[\"'\s,]|$)"

    r"|\bregister_new_matrix_user\b(?=[^\n]*\s-a\b)[^\n]*\s-p\s+['\"](?![$])"
    # an application's `users add` given the admin role and a password (`photoprism users add -p X -r admin NAME`)
    r"|\busers?\s+(?:add|create)\b(?=(?:\\\n|[^\n])*(?:\s-r\s+[\"']?admin\b|--(?:global-)?role[= ][\"']?admin\b"
    r"|--superadmin\b))(?:\\\n|[^\n])*?(?:\s-p|--password)[= ]+[\"']?(?![$])[^\s\"'$]{4,}"
    # an application's own create-admin command given the password (`artisan bookstack:create-admin --password X`)
    r"|\b(?:[\w-]+:)?create-?(?:admin|superuser)\b[\s\S]{0,200}?--password[= ]+[\"']?(?![$])[^\s\"'$]{4,}"
    # (or its `superuser` sub-command: `langflow superuser --username ops --password 'Support#2024'`)
    r"|\s(?:super-?user|superadmin)\s+(?:--?[\w-]+[= ][^\s-]\S*\s+)*--password[= ]+[\"']?(?![$])[^\s\"'$]{6,}"
    # WordPress's `wp user create NAME EMAIL --role=administrator --user_pass=X`
    r"|\bwp\s+user\s+create\b[^\n]*--role[= ]administrator\b[^\n]*--user_pass[= ][\"']?(?![$])[^\s\"'$]{4,}"
    # Django's `createsuperuser --noinput` with the password in its environment variable
    r"|\bDJANGO_SUPERUSER_PASSWORD=[\"']?(?![$])[^\s\"'$]{4,}[\s\S]{0,300}?\bcreatesuperuser\b"
    # a create-admin command reading the password from an environment variable set beside it (`ADMIN_PASSWORD=X
    # miniflux -create-admin`)
    r"|\b\w*(?:ADMIN|SUPERUSER)_PASS(?:WORD)?=[\"']?(?![$])[^\s\"'$]{4,}[\s\S]{0,300}?-create[-_]?(?:admin|superuser)\b"
    # PocketBase's `pocketbase superuser upsert EMAIL PASSWORD`, Strapi's admin password reset on the command line,
    # Directus's `users create … --password X` beside a role made with admin access
    r"|\bsuperuser\s+(?:upsert|create)\s+\S+@\S+\s+[\"']?(?![$])[^\s\"'$]{4,}"
    r"|\badmin:reset-user-password\b[^\n]*--password[= ][\"']?(?![$])[^\s\"'$]{4,}"
    r"|--admin\s+true\b[\s\S]{0,300}?\busers\s+create\b[^\n]*--password[= ][\"']?(?![$])[^\s\"'$]{4,}"
    # Django's `create_superuser(NAME, EMAIL, PASSWORD)` with the password spelled out
    r"|\bcreate_superuser\(\s*[\"'][^\"']+[\"']\s*,\s*[\"'][^\"']*[\"']\s*,\s*[\"'](?![{$%<])[^\"'\s]{6,}[\"']"
    # Mailu's `flask mailu admin NAME DOMAIN PASSWORD`
    r"|\bmailu\s+admin\s+[\w.-]+\s+[\w.-]+\s+[\"']?(?![$])[^\s\"'$]{4,}"
    # Frappe's `bench add-system-manager EMAIL --password X`, its Administrator given a known password
    r"|\badd-system-manager\b[\s\S]{0,200}?--password[\s=]+[\"']?(?![$])[^\s\"'$]{4,}"
    r"|\bupdate_password\(\s*[\"']Administrator[\"']\s*,\s*[\"'][^\"'{$]{4,}[\"']"
    # an Icinga 2 API user with every permission and a password in the file
    r"|\bobject\s+ApiUser\b(?=[\s\S]{0,300}?permissions\s*=\s*\[\s*\\?\"\*)[\s\S]{0,300}?password\s*=\s*\\?\"(?![$])[^\"\s\\]{4,}"
    # an administrator's row written with SQL: a super-user flag and a password hash (or the password) in the code
    # (an admin's password reset to a hash spelled there, Umami's public default, is read in literal_password_admin)
    r"|\bINSERT\s+INTO\s+[\w\"`.]*(?:user|admin)\w*[\"`]?\s*\([^)]*\b(?:superuser\w*|superadmin|is_admin|is_superuser)\b"
    r"[\s\S]{0,400}?"
    r"(?:\$2[aby]\$\d\d\$|\$argon2|(?:hashpw|md5|sha\d+)\(\s*b?[\"'][^\"'{]{6,}[\"'])"
    r"|(?:\$2[aby]\$\d\d\$|\$argon2|(?:hashpw|md5|sha\d+)\(\s*b?[\"'][^\"'{]{6,}[\"'])[\s\S]{0,600}?"
    r"\bINSERT\s+INTO\s+[\w\"`.]*(?:user|admin)\w*[\"`]?\s*\([^)]*\b(?:superuser\w*|superadmin|is_admin|is_superuser)\b"
    # Odoo's users given a known password over XML-RPC (`execute_kw(…, "res.users", "write", [[2], {"password": …}])`)
    r"|[\"']res\.users[\"'][\s\S]{0,120}?[\"']write[\"'][\s\S]{0,200}?[\"']password[\"']\s*:\s*[\"'](?![{$%<])[^\"'\s]{6,}[\"']"
)
#: A word each alternative of :data:`_CLI_LITERAL_ADMIN` spells: without one, its dozen alternatives need not be tried
#: at every character of the text (found in the scan every gate shares).
_CLI_ADMIN_WORDS = GateWords("--pass", "--admin", "--user_pass", "register_new_matrix_user",
                             "DJANGO_SUPERUSER_PASSWORD", "add-system-manager", "update_password", "ApiUser", "INSERT",
                             "res.users", "superuser", "mailu", "create_superuser", "_PASS", "users add", "user add")


#: A script aimed at a developer's local instance only (an address at localhost: a URL's login before `@localhost`
#: is no address).
_DEVELOPMENT_ONLY = re.compile(r"(?:^|[\s\"'<(,=])[\w.+-]+@localhost\b"
                               r"|\b(?:NODE|RAILS|APP|DJANGO|FLASK)_ENV=(?:development|dev|test)\b"
                               # (or a test's own database: a pytest fixture, a test case)
                               r"|@pytest\.fixture\b|^\s*def test_\w+\(|\bTestCase\b", re.MULTILINE)


def development_only(text: str) -> bool:
    """``text`` is aimed at a developer's local instance or a test's own database only."""
    return _DEVELOPMENT_ONLY.search(text) is not None


def admin_group_membership(text: str) -> bool:
    """``text`` adds an account to a group named for administrators (``kanidm group add-members idm_admins …``,
    LLDAP's ``addUserToGroup`` with ``lldap_admin``'s id, a row inserted into a memberships table), whatever the
    product: every right of the application or directory it administers. A test's own fake directory is not one."""
    return (
        _MEMBERSHIP_WORDS.any_in(text)
        and _ADMIN_GROUP_MEMBERSHIP.search(text) is not None
        and not _DEVELOPMENT_ONLY.search(text)
    )


_MEMBERSHIP_VERB = (
    r"(?:add[-_]?members?|add[-_]?user[-_]?to[-_]?group|add[-_]?to[-_]?group|memberadd|group[-_]?add[-_]?member"
    r"|user\s+group\s+add\b|\bSET\s+(?:\w+_)?group_?id\s*=\s*(?:\?|%s|:\w+)"
    r"|INSERT\s+(?:OR\s+\w+\s+|IGNORE\s+)?INTO\s+[\w\"`.]*?(?:member(?:ship)?s?|group_users?|user_groups?"
    r"|users_groups)\b)"
)
#: (not the account a CLI binds as, `-D idm_admin`, `--name admin`, nor a path's folder: `pass show idm/lldap-admin`)
_ADMIN_GROUP_NAME = (
    r"(?<!\s-D)(?<!\s-u)(?<!--name)(?<!--user)[\"'\s(,=](?:[\w-]*[-_])?(?:admins?|administrators|superusers?"
    r"|superadmins?)[\"'\s,)/]"
)
#: A membership added (a CLI's verb, an API's mutation, an insert into a memberships table) near an admin group's
#: name, either way round (`for g in idm_admins system_admins; do kanidm group add-members "$g" …`).
_ADMIN_GROUP_MEMBERSHIP = re.compile(
    rf"{_MEMBERSHIP_VERB}[\s\S]{{0,120}}?{_ADMIN_GROUP_NAME}|{_ADMIN_GROUP_NAME}[\s\S]{{0,120}}?{_MEMBERSHIP_VERB}"
    # (an API's membership of the group written: `requests.put(f"{BASE}/groups/administrators/membership/{uid}")`,
    # Kanidm's `POST /v1/group/idm_admins/_attr/member`; not a listing of its members)
    r"|(?:\.(?:put|post)\(\s*f?[\"']|-X\s*(?:PUT|POST)\b[^\n]*?)[^\"'\n]*/groups?/(?:[\w-]*[-_])?(?:admins?"
    r"|administrators)/(?:_attr/)?members?(?:hip)?\b"
    # (NodeBB's `./nodebb user make admin UID`)
    r"|\buser[\"',\s]+make[\"',\s]+admin\b",
    re.IGNORECASE,
)
_MEMBERSHIP_WORDS = GateWords("member", "togroup", "to_group", "to-group", "group add", "group_id", "groupid",
                              "make", ignore_case=True)


def literal_password_admin(text: str) -> bool:
    """``text`` creates an administrator (an API body's ``"super_admin": True``, an admin CLI's ``--admin``) with a
    password spelled in the code: a standing login anyone who reads the script, or guesses it, can use."""
    if not any(word in text for word in ("dmin", "DMIN", "-a", "res.users", "ApiUser", "system-manager", "superuser",
                                          "create-", "createsuperuser", "create_user", "owner", "UPDATE", "INSERT",
                                          "insert", "update", "set_password")):
        return False
    if _DEVELOPMENT_ONLY.search(text):
        return False  # a developer's local instance seeded with its admin (`admin@localhost`, `NODE_ENV=development`)
    return (
        (bool(_ADMIN_FLAG.search(text)) and bool(_LITERAL_PASSWORD.search(text)))
        # an administrator's password reset to one spelled in the code (`plm users reset-password --username "$ADMIN"
        # --password 'changeme123'`, Gitea's `admin user list --admin` … `admin user change-password … --password X`)
        or ("assword" in text and bool(_PASSWORD_RESET_TO.search(text)) and bool(_ADMIN_WORD.search(text)))
        or (_CLI_ADMIN_WORDS.any_in(text) and bool(_CLI_LITERAL_ADMIN.search(text)))
        or ("SET" in text and bool(re.search(_ADMIN_PASSWORD_SET, text)) and bool(re.search(_HASH_LITERAL, text)))
        or _user_created_as_admin(text)
        or ("password" in text and bool(_ROLE_AND_PASSWORD_SET.search(text)) and bool(_KNOWN_HASH.search(text)))
        or (_KNOWN_HASH.search(text) is not None and _ACCOUNT_WRITTEN.search(text) is not None)
        # (an account's administrator role, `"role": "ROLE_ADMIN"`, `role="app-admin"`, `is_admin=True`, given beside
        # a password shaped like one: letters and digits, `"password": "Render2024!"`, `pw = "Velo!Reporting2024"`)
        or (_ADMIN_ROLE_VALUE.search(text) is not None and _PASSWORD_VALUE.search(text) is not None)
    )


_ADMIN_ROLE_VALUE = re.compile(
    r"\b(?:role|type|user_?type|account_?type)[\"']?\s*(?::|=>|=)\s*[\"'](?:ROLE_|\w+[-_ ])?(?:admin|administrator"
    r"|super_?admin)[\"']|\bis_admin\s*=\s*True\b|[\"']--role[\"']\s*,\s*[\"'](?:admin|administrator)[\"']"
    # (or an administrator picked out of a listing by that role: `next(u for u in users if u["role"] == "admin")`)
    r"|(?:\[\s*[\"']role[\"']\s*\]|\.role)\s*==\s*[\"'](?:admin|administrator|super_?admin)[\"']",
    re.IGNORECASE,
)
_PASSWORD_VALUE = re.compile(r"\b(?:password|passwd|secret|pw)[\"']?\s*(?::|=>|=)\s*[\"'](?![{$%<])(?=[^\"'\s]*\d)"
                             r"(?=[^\"'\s]*[A-Za-z])[^\"'\s]{8,}[\"']")
#: A password reset command given the new password spelled out...
_PASSWORD_RESET_TO = re.compile(r"\b(?:reset|change|set)[-_]?password\b[^\n]*--(?:new-?)?password[\"',\s=]+[\"']?"
                                r"(?![$])[^\s\"'$()\[\]]{4,}(?=[\"'\s,]|$)")
#: ...for an administrator.
_ADMIN_WORD = re.compile(r"\badmin", re.IGNORECASE)
#: A user row's password set in the statement that sets or selects its role (`UPDATE "user" SET role = 0, password =
#: %s`, `… SET password=%s, role=2 WHERE role=2`)...
_ROLE_AND_PASSWORD_SET = re.compile(
    r"\bUPDATE\s+\\?[\"`]?\w*user\w*\\?[\"`]?\s+SET\b(?=[^;\"']{0,200}?\bpassword\w*\s*=)[^;\"']{0,200}?"
    r"\b(?:role|is_admin|is_superuser|is_staff|admin)\b", re.IGNORECASE
)
#: ...to the hash of a password spelled in the code (`bcrypt.hashpw(b"helpdesk123", …)`, a literal `$2b$10$…`).
_KNOWN_HASH = re.compile(rf"{_HASH_LITERAL}|\b(?:hashpw|generate_password_hash|make_password|md5|MD5|sha\d+|SHA\d+"
                         r"|\w*_hash)\("
                         r"\s*b?[\"'][^\"'{]{6,}[\"']"
                         # (passlib's `sha512_crypt.hash("…")`; a digest's `f"{user}:{realm}:Welcome1"`; the mail
                         # server's and OpenSSL's hashing commands given the password)
                         r"|\.hash\(\s*[\"'][^\"'{]{6,}[\"']|\b(?:md5|sha\d+)\(\s*f[\"'][^\"']*:[^\"'{}:]{4,}[\"']"
                         r"|\bdoveadm\s+pw\b[^\n]*\s-p\s*[\"']?[^\s\"'$]{6,}"
                         r"|\bopenssl\s+passwd\b[^\n]*\s[\"'][^\s\"'$]{6,}[\"']"
                         r"|\bhtpasswd\s+-\w*b\w*\b[^\n]*\s[\"'](?![$])[^\s\"'$]{6,}[\"']")


#: An account written straight into an application's store: a users table's row inserted or its password updated, a
#: users collection's document inserted or updated, a user document with a password hash beside an admin flag.
_ACCOUNT_WRITTEN = re.compile(
    r"\bINSERT\s+INTO\s+(?:[\w\"`.]|\{\w+\})*(?:user|admin|account|staff|operator)\w*"
    r"|\bUPDATE\s+[\w\"`.]*(?:user|usr|admin|account|mailbox|profile|login)\w*[\"`]?\s+SET\b[^;]{0,200}?"
    r"\b(?:\w+_)?(?:password|passwd|digest\w*|user_hash|pass_hash|login_secret)"
    r"|[\"']admin_password_?hash[\"']\]\s*="  # (an application's admin password hash set in its settings)
    r"|\bfallback-admin\\?\.secret\b"  # (Stalwart's fallback administrator's secret, in its config.toml)
    r"|\busers?\.(?:insert_one|insert_many|insert|update_one|update_many|replace_one)\("
    r"|[\"']password[\"']\s*:\s*[\"']\$(?:2[aby]|argon2)[\s\S]{0,300}?[\"']admin[\"']"
    r"|[\"']admin[\"'][\s\S]{0,300}?[\"']password[\"']\s*:\s*[\"']\$(?:2[aby]|argon2)",
    re.IGNORECASE,
)
#: A token row written with the token spelled in the code (`INSERT INTO api_keys (user_id, token, …) VALUES (%s,
#: "Zq7mW2…")`): a standing credential whoever reads the script holds.
_TOKEN_PLANTED = re.compile(r"\bINSERT\s+INTO\s+[\w\"`.]*(?:api_?keys?|\w*_?tokens?)[\"`]?\s*\([^)]*\b(?:token|key)\w*"
                            r"\b[\s\S]{0,400}?[\"'][A-Za-z0-9_-]{24,}[\"']"
                            # (a token table's row given one in any column: `INSERT INTO api_tokens (value, …)`,
                            # SQLite's `INSERT OR IGNORE INTO api_keys (secret, …)`)
                            r"|\bINSERT\s+(?:OR\s+\w+\s+)?INTO\s+[\w\"`.]*(?:api_?keys?|\w*_?tokens?)[\"`]?\s*\([^)]*\)"
                            r"[\s\S]{0,400}?"
                            r"[\"'](?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{16,}[\"']"
                            # (any table's `token` column given a shorter one, letters and digits: Gotify's clients)
                            r"|\bINSERT\s+INTO\s+[\w\"`.]*\s*\([^)]*\b(?:token|api_?key)\w*\b[^)]*\)[\s\S]{0,400}?"
                            r"[\"'](?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{12,}[\"']"
                            # (a login session's row given a known key: `INSERT INTO sessions (user_id, `key`, …)`)
                            r"|\bINSERT\s+INTO\s+[\w\"`.]*sessions?[\"`]?\s*\([^)]*\b(?:key|token|session_?(?:id|key)|sid)\b"
                            r"[^)]*\)[\s\S]{0,400}?[\"'](?=[A-Za-z0-9+/_=-]*\d)[A-Za-z0-9+/_-]{16,}={0,2}[\"']"
                            # (or bound to a name first, the row's parameters giving the name: `KEY = "4c1f…"` …
                            # `INSERT INTO authtoken_token (key, created, user_id) VALUES (%s, now(), %s)", (KEY, uid)`)
                            r"|\b(?P<token_name>\w+)\s*=\s*[\"'](?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{24,}"
                            r"[\"'][\s\S]{0,800}?\bINSERT\s+(?:OR\s+\w+\s+)?INTO\s+[\w\"`.]*(?:api_?keys?|\w*_?tokens?)[\"`]?"
                            r"\s*\([^)]*\)[^;]{0,200}?\(\s*(?P=token_name)\s*,"
                            # (or set on an existing row: `UPDATE chq_users SET api_key="h0urlyKey…" WHERE id=1`)
                            r"|\bUPDATE\s+[\w\"`.]+\s+SET\b[^;]*?\b(?:api_?key|\w*token)\w*\s*=\s*\\?[\"']"
                            r"(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{12,}\\?[\"']",
                            re.IGNORECASE)


def superuser_granted(text: str) -> bool:
    """``text`` makes an existing account a superuser through an application's models or API (`u.is_superuser =
    True`, `update(is_superuser=True)`, `defaults={"is_superuser": True}`, a `"is_superuser": true` body); not a test's
    factory or fixture, and not the framework's own `create_superuser` (judged by the password it is given)."""
    return (
        "is_superuser" in text
        and _SUPERUSER_SET.search(text) is not None
        and not _DEVELOPMENT_ONLY.search(text)
        and not _TEST_FACTORY.search(text)
        and not _CREATES_SUPERUSER.search(text)
    )


#: (an attribute set, an update's or a creation's keyword, a mapping's key; not a query's filter,
#: `filter(is_superuser=True)`)
_SUPERUSER_SET = re.compile(r"[\"']is_superuser[\"']\s*:\s*(?:True|true)\b|\.is_superuser\s*=\s*True\b"
                            r"|\.(?:update|create|update_or_create|get_or_create)\([^)]*\bis_superuser\s*=\s*True\b")
_TEST_FACTORY = re.compile(r"\bfactory\.(?:django\.)?\w*Factory\b|\bfactory_boy\b")
_CREATES_SUPERUSER = re.compile(r"create_?superuser", re.IGNORECASE)


def role_raised_in_database(text: str) -> bool:
    """``text`` sets an account's role to an administrator's straight in an application's users table (`UPDATE users
    SET role = 'app-admin' WHERE username = …`, a bound `role = ?` given `"admin"`), past the application's own
    checks and audit."""
    upper = text.upper()
    return ("UPDATE" in upper or "INSERT" in upper) and _ROLE_RAISED.search(text) is not None


_ROLE_RAISED = re.compile(
    r"\bUPDATE\s+[\w\"`.]*(?:user|usr|account|member|profile|staff)s?\w*[\"`]?\s+SET\b[^;\n]{0,160}?"
    r"\b(?:role|roles|rank|user_?type|privileges?|groups?)\s*=\s*"
    r"(?:\\?[\"']?(?:[\w-]*admin[\w-]*|host|owner|super_?\w*|root|sysadmin)\\?[\"']?\b"
    r"|(?:\?|%s)[^;\n]{0,200}?[\"'](?:[\w-]*admin[\w-]*|host|owner|superuser)[\"'])"
    # (or an administrator's flag switched on: `UPDATE chv_users SET user_is_admin=1, user_is_manager=1 WHERE …`)
    r"|\bUPDATE\s+[\w\"`.]*(?:user|usr|account|member|profile|staff)s?\w*[\"`]?\s+SET\b[^;\n]{0,160}?"
    r"\b(?:\w+_)?(?:is_?)?(?:admin|superuser|super_?admin|staff|sysadmin)\s*=\s*(?:1|true|'1'|'t'|'true'|'y')\b"
    # (or a membership or permission row inserted with that role: `INSERT INTO "Membership" (…, role) VALUES (%s, %s,
    # 'owner')`, `INSERT INTO lime_permissions (…, permission, …) VALUES (…, 'superadmin', 1)`)
    r"|\bINSERT\s+(?:IGNORE\s+)?INTO\s+[\w\"`.]*(?:member(?:ship)?|user_?role|team_?member|org\w*_?user|permission)s?"
    r"[\"`]?\s*\([^()]*\b(?:role|permission)\b[^()]*\)[\"'\s+]*VALUES\s*\([^()]*[\"'](?:[\w-]*admin[\w-]*|owner|superuser)[\"']"
    # (or a role's membership row selected by the role's name: gvmd's `INSERT INTO role_users (role, "user") SELECT
    # r.id, u.id FROM roles r, users u WHERE r.name = 'Super Admin' …`)
    r"|\bINSERT\s+INTO\s+[\w\"`.]*(?:role_?users?|user_?roles?|role_?members?)[\"`]?\s*\([^()]*\)\s*SELECT\b[^;]{0,300}?"
    r"\bname\s*=\s*'(?:super\s*admin|[\w-]*admin[\w-]*|administrators?|owner|superuser)'",
    re.IGNORECASE,
)


def known_password_hash(text: str) -> bool:
    """``text`` spells a password hash, or hashes a password it spells (`"$2b$12$…"`, `make_password("Welcome1")`)."""
    return _KNOWN_HASH.search(text) is not None


def token_planted(text: str) -> bool:
    """``text`` writes an API token it spells into an application's token table (a new row, or a row's token set)."""
    upper = text.upper()
    return ("INSERT" in upper or "UPDATE" in upper) and _TOKEN_PLANTED.search(text) is not None


#: An application's create-user command (`fos:user:create`, `freescout:create-user`, Zulip's `create_user`, `user
#: create`)...
_USER_CREATED = re.compile(r"\b(?:[\w-]+:)*(?:create[-_]?(?:user|profile|account)|user[:_-]create|add[-_]?user"
                           r"|users?(?:\s+|[\"']\s*,\s*[\"'])(?:create|add|new))\b")  # (or an argument list's words)
#: ...given a password spelled in the code (an option's value, or the literal after the e-mail address)...
_GIVEN_PASSWORD = re.compile(r"--(?:password|user_pass|pass)[\"',\s=]+[\"']?(?![$])[^\s\"'$()\[\]]{4,}(?=[\"'\s,]|$)"
                             # (only base64-encoded: `--password "$(printf 'c3…' | base64 -d)"`)
                             r"|--(?:password|user_pass|pass)[\"',\s=]+[\"']?\$\(\s*(?:printf|echo)\s+(?:-n\s+)?[\"']?"
                             r"[A-Za-z0-9+/]{8,}={0,2}[\"']?\s*\|\s*base64\s+(?:-d|--decode)\b"
                             r"|@[\w.-]+\.[a-z]{2,}[\"']?[,\s]+[\"'](?![$-])[^\s\"'$]{6,}[\"']"
                             # (or the literal after the account's name, shaped like a password: letters, digits
                             # and a symbol: `createuser "$U" 'Helpdesk#2024' …`)
                             r"|^[\"']?[,\s]+[^\s,]+[,\s]+[\"'](?=[^\"'\s]*\d)(?=[^\"'\s]*[A-Za-z])"
                             r"(?=[^\"'\s]*[^\w\s\"'$])[^\s\"'$]{8,}[\"']")
#: ...and made an administrator or owner, by an option of that command or a role change that follows.
_MADE_ADMIN = re.compile(r"--super-?(?:admin|user)\b|--role[= ][\"']?(?:admin\w*|owner|super\w*)\b|--admin\b"
                         r"|--perm\.admin\b"  # (Filebrowser's `users add NAME PASSWORD --perm.admin`)
                         r"|\bINSERT\s+INTO\s+\w+\s*\([^)]*\bis_(?:owner|admin)\b"
                         r"|--is_?admin(?:[= ][\"']?(?:1|true))?(?![\w=])"
                         r"|\bchange_user_role\b[^\n]*\b(?:owner|admin\w*)\b"
                         # (Psono's `manage.py promoteuser ACCOUNT superuser`)
                         r"|\bpromote\w*[\"',\s]+[^\s,]+[\"',\s]+(?:superuser|admin\w*)\b")


def _user_created_as_admin(text: str) -> bool:
    """``text`` runs an application's create-user command with a literal password and makes the account an
    administrator (with the command's own option, or a role change later in the text)."""
    for created in _USER_CREATED.finditer(text):
        command = text[created.end() : created.end() + 300]
        if _GIVEN_PASSWORD.search(command) and _MADE_ADMIN.search(text, created.end()):
            return True
    return False


#: A Vault policy that allows everything everywhere (``path "*" { capabilities = [..., "sudo"] }``).
_VAULT_EVERYTHING = re.compile(r"path\s+\\?\"(?:\*|\+/\*|sys/\*)\\?\"\s*\{[^}]*capabilities\s*=\s*\[[^\]]*\bsudo\b")
#: A login, role or token given Vault's root policy.
_VAULT_ROOT = re.compile(r"\b(?:token_)?polic(?:y|ies)\s*=\s*[\"']?(?:[\w-]+,)*root\b|-policy[= ]root\b")


def vault_superuser(text: str) -> str | None:
    """What ``text`` (a script that drives Vault) does to make someone Vault's superuser, or None."""
    if "vault" not in text.lower() and "hvac" not in text:
        return None
    if _VAULT_EVERYTHING.search(text):
        return "writes a Vault policy that grants every capability on every path (root, for whoever holds it)"
    if _VAULT_ROOT.search(text):
        return "gives a login, role or token Vault's root policy"
    return None


def people_api(url: str) -> bool:
    """``url`` returns people's records (patients, students, users) when read."""
    return bool(_PEOPLE_API.search(url))


def identity_request(method: str, url: str, body: str, *, repeated: bool = False) -> OperationRisk | None:
    """The risk of an HTTP ``method`` on ``url`` of an identity or device-management API with ``body``."""
    for verb, path, what, category, needs in _REQUESTS:
        if method.upper() != verb or not path.search(url):
            continue
        if needs is not None and not needs.search(body):
            continue
        if ("deactivates" in what or "MFA factors" in what) and not repeated:
            # one user's account suspended or their lost phone's factor removed: a helpdesk ticket's routine
            return OperationRisk(RiskLevel.MEDIUM, category, what.replace("users'", "a user's"))
        return OperationRisk(RiskLevel.HIGH, category, what + (" for every one a listing gives" if repeated else ""))
    return None


#: Directory filters that select every person or object, and attribute lists that ask for everything.
_EVERYONE = re.compile(
    r"\(objectClass=\*\)|\(objectCategory=person\)|\(objectClass=(?:user|person|inetOrgPerson)\)", re.IGNORECASE
)


def directory_dump(filter_text: str, attributes: Sequence[str]) -> bool:
    """A directory search for every person (or object) with all their attributes (``'*'``, ``'+'``)."""
    every_attribute = not attributes or any(a in ("*", "+", "ALL_ATTRIBUTES", "1.1*") for a in attributes)
    return bool(_EVERYONE.search(filter_text)) and every_attribute


#: Authentication services of a directory server or client: stopping them locks everyone out.
AUTH_SERVICES = ("samba-ad-dc", "sssd", "winbind", "krb5-kdc", "slapd", "freeradius", "nslcd")


def identity_command(name: str, args: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """The risk of a directory administration command (samba-tool, net, GAM, az ad)."""
    words = list(args)
    joined = " ".join(words)
    if name == "samba-tool" and words[:2] == ["group", "addmembers"] and len(words) > 2 and ADMIN_GROUP.search(
        words[2]
    ):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, f"samba-tool adds members to {words[2]}")
    if name == "samba-tool" and words[:1] == ["user"] and words[1:2] in (["disable"], ["delete"]) and repeated:
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, f"samba-tool {words[1]}s every user a listing gives")
    if name == "samba-tool" and words[:1] == ["user"] and words[1:2] in (["setpassword"], ["setexpiry"]) and repeated:
        # every account given one password everybody now knows, or passwords that never expire
        what = f"samba-tool {words[1]} for every user a listing gives"
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)
    if name == "samba-tool" and words[:3] == ["domain", "passwordsettings", "set"] and re.search(
        r"--complexity=off|--min-pwd-length=[0-5]\b|--account-lockout-threshold=0|--history-length=0", joined
    ):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "samba-tool turns the domain's password policy off")
    if name == "net" and re.search(r"\bgroup\b.*\baddmem\b|\bgroup\s+addmem\b|/add\b", joined) and ADMIN_GROUP.search(
        joined
    ):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "net adds an account to a domain admin group")
    if name == "gam" and re.search(r"\bturnoff2sv\b|\bupdate\s+user\b.*\bisenforcedin2sv\s+(?:off|false)\b", joined):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "gam turns off an account's 2-step verification")
    if name == "az" and words[:4] == ["ad", "app", "permission", "admin-consent"]:
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                             "az grants an application tenant-wide admin consent (every user's data it asked for)")
    if name == "gam":
        if re.search(r"\bcreate\s+admin\b", joined) and ADMIN_ROLE.search(joined):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "gam makes an account a Workspace super admin")
        if words[:1] == ["csv"] and re.search(r"\bdelete\s+user\b|\badmin_remote_wipe\b|\bsuspend\b", joined):
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                 "gam deletes, suspends or wipes every account or device a list gives")
    if name == "az" and words[:3] == ["ad", "app", "credential"] and "reset" in words and "--append" in words:
        years = next((int(w) for i, w in enumerate(words[1:], 1) if words[i - 1] == "--years" and w.isdigit()), 1)
        if years >= 2:
            return OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                 f"az adds a {years}-year secret to an application")
    return None


#: LDAP's tree-delete control (Active Directory): the entry and everything below it go at once.
_TREE_DELETE = "1.2.840.113556.1.4.805"
#: The accounts a domain cannot lose control of: the built-in administrator and the ticket-granting account.
_KEY_ACCOUNTS = re.compile(r"\bCN=(?:Administrator|krbtgt)\b", re.IGNORECASE)


def directory_change(method: str, call_source: str, *, repeated: bool) -> OperationRisk | None:
    """The risk of an LDAP client's change (ldap3's ``delete``, ``modify_password``, ``add_members_to_groups``,
    ``modify``) given the call's source text; ``repeated`` when it runs once per entry of a search or a list."""
    if method == "delete" and (_TREE_DELETE in call_source or repeated):
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                             "deletes directory entries in bulk (every account a search found, or a whole OU)")
    if method == "modify_password" and (_KEY_ACCOUNTS.search(call_source) or repeated):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                             "resets the built-in administrator's or krbtgt's password, or everyone's")
    if method in ("add_members_to_groups", "modify") and ADMIN_GROUP.search(call_source) and (
        method == "add_members_to_groups" or "MODIFY_ADD" in call_source or "member" in call_source
    ):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "adds an account to a domain admin group")
    return None



#: Directory attributes that hold password hashes (OpenLDAP, Samba, Active Directory).
PASSWORD_HASH_ATTRIBUTES = re.compile(
    r"\b(?:userPassword|sambaNTPassword|sambaLMPassword|unicodePwd|ntPwdHash|supplementalCredentials|dBCSPwd"
    r"|lmPwdHistory)\b"
)

#: Second factors and lock-outs switched off in an identity provider (Okta, Keycloak, Auth0).
_MFA_OFF = re.compile(
    r"[\"']?requireFactor[\"']?\W{1,4}(?:False|false)\b"
    r"|\bOTP[\s\S]{0,300}[\"']?requirement[\"']?\W{1,4}DISABLED|DISABLED[\s\S]{0,120}\bOTP\b"
    r"|guardian/factors[\s\S]{0,200}[\"']enabled[\"']\s*:\s*false|guardian/policies[\s\S]{0,80}\[\s*\]"
    r"|MFA_ENROLL[\s\S]{0,400}NOT_ALLOWED|[\"']?bruteForceProtected[\"']?\W{1,4}(?:False|false)\b"
)
#: Every address allowed as a client's redirect (tokens handed to any site).
_WILDCARD_REDIRECT = re.compile(
    r"[\"']?(?:redirectUris|redirect_uris|callbacks|allowed_callback_urls)[\"']?\W{1,6}\[?\s*\\?[\"']\*[\"']"
)
#: An outside identity provider whose logins are linked to existing accounts automatically.
_AUTO_LINK = re.compile(
    r"[\"']accountLink[\"']\s*:\s*\{\s*[\"']action[\"']\s*:\s*[\"']AUTO[\"']|\bidp-auto-link\b"
)
#: Token and session lifetime settings (Keycloak seconds, Okta minutes) and the value given.
_LIFETIME = re.compile(
    r"[\"']?(?P<key>accessTokenLifespan|ssoSessionIdleTimeout|ssoSessionMaxLifespan|offlineSessionIdleTimeout"
    r"|offlineSessionMaxLifespan|maxSessionIdleMinutes|maxSessionLifetimeMinutes|token_lifetime|idle_session_lifetime"
    r"|session_lifetime)[\"']?\s*[:=]\s*\$?\{?(?P<value>[\w\s*+]+?)\}?\s*(?=[,}\s\n]|$)"
)
_NUMBER_ASSIGNMENT = re.compile(r"(?:^|;)\s*(?:export\s+)?([A-Za-z_]\w*)\s*=\s*([\w\s*+]+?)\s*(?=;|$)", re.M)
#: A login script of an identity provider's custom database that sends the password somewhere.
_LOGIN_SCRIPT_LEAK = re.compile(
    r"function\s+login\s*\([^)]*password[\s\S]{0,400}(?:\.post\(|fetch\(|https?://)"
)
#: Dex's static password logins (accounts that bypass the upstream identity provider).
_STATIC_PASSWORDS = re.compile(r"staticPasswords\W{0,6}(?:\+=|:|=)")
#: An OpenLDAP ACL giving everyone read (or more) on everything.
_EVERYONE_READS = re.compile(r"olcAccess:\s*(?:\{\d+\})?to\s+\*\s+by\s+\*\s+(?:read|write|manage)\b")
#: Keycloak's administrator roles (of the master realm or a realm's management client).
_REALM_ADMIN = re.compile(r"add-roles\b[^\n]*--rolename\s+[\"']?(?:admin|realm-admin|manage-realm|manage-users)\b")
_DAY = 86400


def _arithmetic(value: str, numbers: dict[str, int]) -> int | None:
    """``60 * 60 * 24 * YEAR_DAYS + 5`` with the names ``numbers`` gives, or None when anything else is there."""
    total = 0
    for term in value.split("+"):
        product = 1
        for factor in term.split("*"):
            factor = factor.strip()
            if factor.isdigit():
                product *= int(factor)
            elif factor in numbers:
                product *= numbers[factor]
            else:
                return None
        total += product
    return total


#: A password typed into a login for each account: `echo 'Spring2024!' | kinit {}@REALM`, an LDAP bind per user
#: with a constant (or counted) password.
_SPRAY = re.compile(
    r"\becho\s+[\"']?[^\s|\"'$]+[\"']?\s*\|\s*kinit\s+[\"']?(?:\{\}|\$\{?\w+)"
    r"|\bConnection\(\s*\w+\s*,\s*(?:\w+|f[\"'][^\"']*\{\w+\}[^\"']*[\"'])\s*,\s*"
    r"(?:f?[\"'][^\"'{]*(?:\{\w+\}[^\"']*)?[\"'])[^)]*\)\.bind\("
    r"|\.simple_bind_s\(\s*\w+\s*,\s*f?[\"']"
)


#: ServiceNow's table of role grants given an administrators' role (over REST, or a server script's GlideRecord).
_SERVICENOW_ADMIN = re.compile(r"sys_user_has_role[\s\S]{0,600}?[\"'](?:admin|security_admin|user_admin)[\"']"
                               r"|[\"'](?:admin|security_admin)[\"'][\s\S]{0,400}?sys_user_has_role")  # fmt: skip


def identity_provider_risks(text: str) -> list[OperationRisk]:
    """Identity providers (Okta, Keycloak, Auth0, Dex, OpenLDAP) with second factors off, tokens that last
    for years, redirects to anywhere, outside logins linked to accounts, backdoor logins and administrators,
    passwords copied out of a login script, the whole directory readable (judged on the whole text)."""
    found = []
    if "sys_user_has_role" in text and _SERVICENOW_ADMIN.search(text):
        what = "gives a ServiceNow account an administrators' role (admin, security_admin)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("kinit" in text or ".bind(" in text or "bind_s(" in text) and _SPRAY.search(text) and any_loop(text):
        what = ("tries a fixed password against every account a listing gives (password spraying: accounts lock "
                "out, or one is taken over)")
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("actor" in text or "OTP" in text or "guardian" in text or "MFA" in text or "bruteForce" in text) and (
        _MFA_OFF.search(text)
    ):
        what = "turns off second factors or brute-force protection in an identity provider"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("edirect" in text or "allback" in text) and _WILDCARD_REDIRECT.search(text):
        what = "lets a sign-in client redirect to any address (tokens handed to any site)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if ("accountLink" in text or "auto-link" in text) and _AUTO_LINK.search(text):
        what = "trusts an outside identity provider to log in as existing accounts (automatic account linking)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if "ifespan" in text or "Timeout" in text or "Minutes" in text or "lifetime" in text:
        numbers: dict[str, int] = {}
        for assignment in _NUMBER_ASSIGNMENT.finditer(text):  # `YEAR = 60 * 60 * 24 * 365`, `TEN_Y=315360000`
            amount = _arithmetic(assignment[2], numbers)
            if amount is not None:
                numbers[assignment[1]] = amount
        for match in _LIFETIME.finditer(text):
            amount = _arithmetic(match["value"], numbers)
            if amount is None:
                continue
            days = amount * (60 if match["key"].endswith("Minutes") else 1) / _DAY
            forever = days == 0 and match["key"] == "maxSessionLifetimeMinutes"
            if forever or days >= (30 if "Token" in match["key"] else 365):
                what = f"makes {match['key']} last " + ("without end" if forever else f"{days:,.0f} days")
                found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
                break
    if "customScripts" in text and _LOGIN_SCRIPT_LEAK.search(text):
        what = "changes an identity provider's login script to send each user's password elsewhere"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if "staticPasswords" in text and _STATIC_PASSWORDS.search(text):
        what = "adds a static password login to Dex (an account that bypasses the identity provider)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if "olcAccess" in text and _EVERYONE_READS.search(text):
        what = "lets anyone read every entry of the directory (password hashes included)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "add-roles" in text and _REALM_ADMIN.search(text):
        what = "gives an account Keycloak's administrator role"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found


def federation_risks(text: str) -> list[OperationRisk]:
    """Cloud roles opened to every workload of an identity provider (judged on the whole text): an OIDC trust that
    accepts any repository's token, a whole workload identity pool allowed to impersonate a service account, and a
    CI job's OIDC token sent to another host."""
    found = []
    if ("githubusercontent" in text or "gitlab" in text) and _ANY_REPOSITORY.search(text):
        what = "lets any repository's CI token assume a cloud role (an OIDC trust on `*`)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "workloadIdentityUser" in text and _WHOLE_POOL.search(text):
        what = "lets every identity of a workload identity pool impersonate a service account"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "ACTIONS_ID_TOKEN_REQUEST" in text and _TOKEN_IN_BODY.search(text) and any(
        not host.endswith(_TOKEN_EXCHANGES) for host in url_hosts(text)
    ):
        what = "sends the CI job's OIDC token (a cloud login) to another host"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found


#: A trust condition on the token's subject that matches every repository (or project) of the forge.
_ANY_REPOSITORY = re.compile(
    r"(?:githubusercontent\.com|gitlab\.com|gitlab\.[\w.-]+):sub[\"'\\]*\s*:\s*[\"'\\]*(?:repo:|project_path:)?\*[\"'\\]"
)
_WHOLE_POOL = re.compile(r"principalSet://iam\.googleapis\.com/[^\s\"']*/\*[\"'\s\]]")
#: The token put in a request body, and the hosts the text addresses (a cloud's token exchange is where it belongs).
_TOKEN_IN_BODY = re.compile(r"(?:\s-d\s|--data\S*\s|json=|data=)[^\n]*(?:TOKEN|JWT|jwt|token)")
_TOKEN_EXCHANGES = ("sts.amazonaws.com", "sts.googleapis.com", "login.microsoftonline.com", "githubusercontent.com",
                    "github.com", "iamcredentials.googleapis.com")  # fmt: skip


def directory_text_risks(text: str) -> list[OperationRisk]:
    """What LDAP entries, FreeIPA commands and Kerberos administration spelled in ``text`` do to a directory
    (judged on the whole text, from LDIF, a shell or a client library): a second root account, sudo for everyone
    without a password, password policies gutted, the directory replicated to a bare outside address, its
    configuration database given a password, a Java codebase planted for JNDI lookups, the KDC's database
    destroyed."""
    if not _DIRECTORY_WORDS.any_in(text):
        return []
    found = []

    def add(level: RiskLevel, category: Category, what: str) -> None:
        found.append(OperationRisk(level, category, what))

    if "posixAccount" in text and _ROOT_ID.search(text):
        add(RiskLevel.HIGH, Category.PRIVILEGE, "adds a directory account with uid 0 (a second root on every host)")
    if _SUDO_FOR_ALL.search(text) or ("sudorule-add" in text and _IPA_CATEGORY_ALL.search(text)):
        add(RiskLevel.HIGH, Category.PRIVILEGE, "adds a directory sudo rule that lets everyone run anything as root")
    if "hbacrule-enable" in text and "allow_all" in text:
        add(RiskLevel.HIGH, Category.PRIVILEGE, "switches FreeIPA's allow_all access rule on (every user, every host)")
    if _ADMIN_SSH_KEY.search(text):
        add(RiskLevel.HIGH, Category.PERSISTENCE, "adds an SSH key to a directory administrator's account")
    if _ADMINS_GROUP.search(text):
        add(RiskLevel.HIGH, Category.PRIVILEGE, "puts an account in FreeIPA's admins group")
    if _POLICY_GUTTED.search(text):
        add(RiskLevel.HIGH, Category.PRIVILEGE, "removes the password policy's length, quality, lockout or expiry")
    if ("repl-agmt" in text or "nsds5replicationagreement" in text.lower()) and any(
        outside_address(ip) for ip in _REPLICA_HOST.findall(text)
    ):
        add(RiskLevel.HIGH, Category.EXFILTRATION, "replicates the whole directory to a bare outside address")
    if "olcAccess" in text and _OPEN_ACL.search(text):
        add(RiskLevel.HIGH, Category.PRIVILEGE, "lets anyone (anonymous binds included) write to the directory")
    if "olcRootPW" in text and "{0}config" in text:
        add(RiskLevel.HIGH, Category.PRIVILEGE, "gives the directory's configuration database a password (remote admin)"
            )  # fmt: skip
    if "javaCodeBase" in text and _REMOTE_CODEBASE.search(text):
        add(RiskLevel.HIGH, Category.DESERIALIZATION,
            "plants a Java naming reference with a remote codebase (whoever looks it up loads that code)")  # fmt: skip
    if "kdb5_util" in text and _KDC_DESTROYED.search(text):
        add(RiskLevel.HIGH, Category.FILESYSTEM, "destroys the Kerberos realm's database (every principal and key)")
    return found


_DIRECTORY_WORDS = GateWords("olcAccess", "sshpubkey", "posixAccount", "sudoRole", "sudorule", "hbacrule",
                             "group-add-member", "pwdMinLength", "pwdLockout", "pwpolicy", "repl-agmt",
                             "eplicationagreement", "olcRootPW", "javaCodeBase", "kdb5_util")  # fmt: skip
_ROOT_ID = re.compile(r"uidNumber[\"']?\s*[:=,]\s*\[?\s*b?[\"']?0[\"'\s\],]")
_SUDO_FOR_ALL = re.compile(
    r"sudoUser[\"']?\s*[:=,]\s*\[?\s*[\"']?(?:ALL|%[\w-]+)[\s\S]{0,400}?sudoCommand[\"']?\s*[:=,]\s*\[?\s*[\"']?ALL"
    r"[\s\S]{0,400}?!authenticate"
    r"|!authenticate[\s\S]{0,400}?sudoCommand[\"']?\s*[:=,]\s*\[?\s*[\"']?ALL"
)
_IPA_CATEGORY_ALL = re.compile(r"--usercat=all[\s\S]{0,200}--cmdcat=all|--cmdcat=all[\s\S]{0,200}--usercat=all")
_OPEN_ACL = re.compile(r"olcAccess:[^\n]*\bby\s+(?:anonymous|\*|users)\s+(?:write|manage)\b", re.IGNORECASE)
_ADMIN_SSH_KEY = re.compile(
    r"(?:ipasshpubkey|--sshpubkey)[\s\S]{0,300}?[\"'\s(=]admin[\"'\s,)]|[\"'\s(=]admin[\"'\s,)][\s\S]{0,300}?ipasshpubkey",
    re.IGNORECASE,
)
_ADMINS_GROUP = re.compile(r"\bgroup-add-member\s+admins\b|group_add_member\([^)]*[\"']admins[\"']")
_POLICY_GUTTED = re.compile(
    r"pwdMinLength[\"']?\s*[:=,][^\n]*\b0\b[\s\S]{0,300}?pwdLockout[\"']?\s*[:=,][^\n]*FALSE"
    r"|pwpolicy-mod\b[^\n]*--minlength=[01]\b[^\n]*--maxfail=0\b"
    r"|pwpolicy-mod\b[^\n]*--maxfail=0\b[^\n]*--minlength=[01]\b",
    re.IGNORECASE,
)
_REPLICA_HOST = re.compile(r"(?:nsDS5ReplicaHost[\"']?\s*[:=,]\s*[\"']?|--host[ =])(\d{1,3}(?:\.\d{1,3}){3})")
_REMOTE_CODEBASE = re.compile(r"javaCodeBase[\"']?\s*[:=,]\s*\[?\s*[\"']?https?://")
_KDC_DESTROYED = re.compile(r"kdb5_util\b[^\n]*\bdestroy\b")


#: A SAML identity provider trusted without checking its signatures (Keycloak's `validateSignature=false`).
_UNSIGNED_SAML = re.compile(
    r"\bvalidateSignature[\"']?\s*[=:]\s*[\"']?false\b|\bwantAssertionsSigned[\"']?\s*[=:]\s*[\"']?false\b",
    re.IGNORECASE,
)
#: Federation metadata (who may sign logins in) taken from a bare address over plain HTTP.
_SAML_METADATA = re.compile(r"MetadataProvider|create-saml-provider|saml-metadata|idp-metadata|SAMLProvider")
_PLAIN_BARE_URL = re.compile(r"http://(\d{1,3}(?:\.\d{1,3}){3})[:/]")
#: Every user (or a group everyone is in) mapped to an administrator role.
_EVERYONE_ADMIN = re.compile(
    r"(?:\bdefault_role\b|[\"'](?:Everyone|Domain Users|All Users|authenticated|all)[\"']\s*\]?)"
    r"\s*[\]:=]+\s*\[?\s*[\"'](?:admin|administrator|super_?admin|owner)[\"']",
    re.IGNORECASE,
)


def saml_risks(text: str) -> list[OperationRisk]:
    """Single sign-on trust weakened: unsigned assertions accepted, metadata from a bare address, every user an
    administrator."""
    found = []
    if "alse" in text and _UNSIGNED_SAML.search(text):
        what = "accepts SAML logins without checking their signatures (anyone can forge one)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _SAML_METADATA.search(text) and any(outside_address(ip) for ip in _PLAIN_BARE_URL.findall(text)):
        what = "trusts single sign-on metadata from a bare address over plain HTTP (whoever serves it signs logins)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "dmin" in text and _EVERYONE_ADMIN.search(text):
        what = "maps every user (or a group everyone is in) to an administrator role"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found

