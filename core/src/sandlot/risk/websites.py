"""Websites: CMS command lines (wp-cli, drush), wikis (Confluence) and CDN APIs (shared by both analyzers).

``wp db reset`` and ``drush sql:drop`` empty a site's database; deactivating Wordfence or the
two-factor plugin, setting ``DISALLOW_FILE_EDIT`` to false or making ``administrator`` the default
role of open registration removes what protects the site; turning a zone's WAF or SSL off at the
CDN, or repointing every DNS record, sends its visitors elsewhere. On a hosting server, every account's
password reset through WHM, a reseller handed every privilege, and visitors from search engines redirected
to another site by a rewrite rule are what an intruder does. A wiki's spaces opened to anonymous visitors, or its
pages sent to another host, leak what the organisation wrote down.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import sends_elsewhere

#: Security and login-protection plugins of WordPress.
_SECURITY_PLUGINS = re.compile(
    r"^(?:wordfence|sucuri-scanner|ithemes-security(?:-pro)?|better-wp-security|all-in-one-wp-security-and-firewall"
    r"|limit-login-attempts(?:-reloaded)?|two-factor|wp-2fa|google-authenticator|miniorange-2-factor-authentication"
    r"|wp-cerber|ninjafirewall|defender-security|shield-security|login-lockdown)$",
    re.IGNORECASE,
)


#: Magento modules that guard logins and checkout.
_LOGIN_GUARDS = re.compile(r"TwoFactorAuth|ReCaptcha|Captcha|Securitytxt|AdminAdobeImsTwoFactorAuth", re.IGNORECASE)
#: Nextcloud apps that guard logins and uploads.
_NEXTCLOUD_GUARDS = re.compile(r"files_antivirus|twofactor_\w+|bruteforcesettings|suspicious_login|password_policy")
#: A discount of 100 % (or an amount as large as the order) with no usage or expiry limit.
_FULL_DISCOUNT = re.compile(r"(?:--amount[= ]|\bvalue\W{1,6}-?|(?:\b|_)amount\W{1,6})100(?:\.0+)?\b(?!\.?\d)")
_PERCENT = re.compile(r"percent", re.IGNORECASE)
_LIMITED = re.compile(r"usage_limit(?:_per_user)?\W{1,6}[1-9]|date_expires|ends_at|expires_at")


#: Drupal permissions that make whoever holds them an administrator.
_ADMIN_PERMISSION = re.compile(r"administer (?:users|permissions|modules|site configuration|software updates)"
                               r"|bypass node access|use php for settings")


def free_discount(text: str) -> bool:
    """``text`` (a command line or a request body) creates a 100 % discount nobody has to stop using."""
    return bool(_FULL_DISCOUNT.search(text) and _PERCENT.search(text) and not _LIMITED.search(text))


def cms_command(name: str, args: Sequence[str]) -> OperationRisk | None:
    """The risk of a wp-cli or drush command line."""
    words = [a for a in args if not a.startswith("@") and not a.startswith("--path")]
    verbs = " ".join(w for w in words if not w.startswith("-"))
    if name == "wp":
        if re.match(r"(?:db (?:reset|drop|clean)|site empty)\b", verbs):
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, f"wp {verbs.split()[0]} {verbs.split()[1]} "
                                 "empties the site's database")  # fmt: skip
        if re.match(r"plugin (?:deactivate|delete|uninstall)\b", verbs) and any(
            _SECURITY_PLUGINS.match(w) for w in words[2:]
        ):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "wp turns off the site's security plugins")
        if re.match(r"option (?:update|set) default_role administrator\b", verbs):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                 "wp makes every new registration an administrator")  # fmt: skip
        listed = any("\x00" in w for w in words)  # ids a listing gave: `wp post delete $(wp post list ...)`
        if re.match(r"(?:post|user|wc \w+) delete\b", verbs) and listed and ("--force" in args or "user" in verbs):
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                 f"wp {' '.join(verbs.split()[:2])} deletes every record a listing gives")  # fmt: skip
        if re.match(r"wc shop_coupon create\b", verbs) and free_discount(" ".join(args)):
            return OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "wp creates a 100%-off coupon without limits")
        if re.match(r"user create\b", verbs) and re.search(r"--role[= ]administrator\b", " ".join(args)):
            return OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "wp creates an administrator")
        if re.match(r"config set DISALLOW_FILE_(?:EDIT|MODS) false\b", verbs, re.IGNORECASE):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                 "wp lets administrators edit the site's PHP code from the browser")  # fmt: skip
    if name == "occ" and (
        (re.match(r"twofactorauth:enforce\b", verbs) and "--off" in args)
        or (re.match(r"app:disable\b", verbs) and _NEXTCLOUD_GUARDS.search(verbs))
        or (
            re.match(r"config:app:set\s+core\s+shareapi_(?:enforce_\w+)\b", verbs)
            and any(a in ("--value=no", "--value=false", "--value=0") for a in args)
        )
    ):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                             "occ turns off Nextcloud's two-factor login, link protections or antivirus")  # fmt: skip
    if name == "magento" and re.match(r"setup:uninstall\b|setup:db:rollback\b|setup:rollback\b", verbs):
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                             "magento uninstalls the store or rolls its database back (the store's data is gone)")
    if name == "magento" and re.match(r"module:disable\b", verbs) and _LOGIN_GUARDS.search(verbs):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "magento turns off two-factor login or CAPTCHA")
    if name == "drush":
        # (`site:install --db-url=sqlite://…`: a throwaway site of its own, a test's)
        scratch = any(a.startswith("--db-url=sqlite:") for a in args)
        if re.match(r"(?:sql:drop|sql-drop|site:install|site-install|si)\b", verbs) and not scratch:
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "drush drops or reinstalls the site's database")
        everyone = re.match(r"(?:role:perm:add|role-add-perm|rap) (?:anonymous|authenticated)\b", verbs)
        if everyone and _ADMIN_PERMISSION.search(verbs):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                 "drush gives anonymous or every logged-in visitor administration permissions")
        if re.match(r"(?:entity:delete|entity-delete|edel) \w+$", verbs):
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                 "drush deletes every entity of a type (every node, term or user of the site)")
        if re.match(r"(?:user:role:add|user-add-role|urol) administrator\b", verbs):
            return OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "drush makes a user an administrator")
    return None


#: Zone settings of a CDN that protect its visitors (web firewall, TLS, HTTPS redirects, bot checks).
_PROTECTIVE_SETTINGS = re.compile(
    r"/zones/[^/]+/settings/(?:waf|ssl|security_level|always_use_https|browser_check|min_tls_version|"
    r"automatic_https_rewrites|opportunistic_encryption|hotlink_protection)$"
)
_OFF_VALUES = re.compile(r"\b(?:off|essentially_off|disabled?|false)\b", re.IGNORECASE)


def cdn_request(method: str, url: str, body: str, *, repeated: bool) -> OperationRisk | None:
    """The risk of a CDN or DNS API call: protections switched off, every record repointed."""
    path = url.split("?", 1)[0]
    if method.upper() == "PATCH" and _PROTECTIVE_SETTINGS.search(path) and _OFF_VALUES.search(body):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "turns off the CDN's protection for the site")
    if method.upper() in ("PATCH", "PUT") and re.search(r"/dns_records/[^/]+$", path) and repeated:
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, "repoints every DNS record a listing gives")
    if method.upper() == "DELETE" and re.search(r"/dns_records/[^/]+$", path) and repeated:
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, "deletes every DNS record a listing gives")
    return None


def hosting_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a hosting server's accounts (WHM/cPanel) and to its sites' visitors (judged on the
    whole text, from a shell or Python)."""
    found = []
    if "acl-all" in text and _ALL_RESELLER_ACLS.search(text):
        what = "gives a hosting account every reseller privilege of WHM (acl-all)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "listaccts" in text and _PASSWORD_RESET.search(text):
        what = "resets the password of every hosting account a listing gives (WHM)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "HTTP_REFERER" in text and _SEARCH_REFERRER.search(text) and _OFFSITE_REWRITE.search(text):
        what = "redirects visitors who arrive from search engines to another site (an injected SEO spam redirect)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    return found


_ALL_RESELLER_ACLS = re.compile(r"acl-all[\"']?\s*[=:]\s*[\"']?1")
#: WHM's password change, by its API function (`whmapi1 passwd`, `/json-api/passwd`).
_PASSWORD_RESET = re.compile(r"whmapi1\s+passwd\b|(?<!etc)/passwd\b|[\"']passwd[\"']")
_SEARCH_REFERRER = re.compile(r"HTTP_REFERER\}?\s+\S*(?:google|bing|yahoo|duckduckgo|yandex)", re.IGNORECASE)
_OFFSITE_REWRITE = re.compile(r"RewriteRule\s+\S+\s+https?://", re.IGNORECASE)


_WIKI_WORDS = GateWords("addAnonymousPermissionsToSpace", "addAnonymousUsePermission", "/rest/api/content")
#: Confluence's own hosts (where its pages belong).
_WIKI_HOSTS = re.compile(r"^(?:localhost|127\.)|wiki|confluence|atlassian|\.(?:local|internal)(?:\.|$)")
_ANONYMOUS_EDIT = re.compile(r"addAnonymousPermissionsToSpace[\s\S]{0,400}?(?:EDITSPACE|SETSPACEPERMISSIONS|REMOVEPAGE)"
                             r"|(?:EDITSPACE|SETSPACEPERMISSIONS|REMOVEPAGE)[\s\S]{0,400}?addAnonymousPermissionsToSpace")


def wiki_risks(text: str) -> list[OperationRisk]:
    """A wiki's spaces opened to anonymous editing, or its pages sent to another host (judged on the whole text)."""
    if not _WIKI_WORDS.any_in(text):
        return []
    found = []
    if _ANONYMOUS_EDIT.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "lets anonymous visitors edit, delete or set permissions in wiki spaces"))
    if "/rest/api/content" in text and sends_elsewhere(text, _WIKI_HOSTS):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends a wiki's pages to another host"))
    return found
