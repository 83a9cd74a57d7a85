"""Mail: mailboxes read out, forwarded or emptied, and mail sent as phishing (shared by both analyzers).

A mailbox holds a person's private correspondence (and the password resets of every account they
have): copying it elsewhere, or setting up a rule that forwards it, is a leak; flagging every
message deleted loses it. Mail whose text asks people to "verify" an account behind a link, sent
to a list of addresses, is credential phishing whatever library sends it.

A mail server's own tools say the same of everyone's mail at once: every message copied to another
address (Postfix's ``always_bcc``), the server opened as a relay for the whole Internet, plaintext
logins allowed, the queue or every mailbox emptied (``postsuper -d ALL``, ``doveadm expunge -A``), a
migration that deletes the source mail (``imapsync --delete1``). A mail system's protections taken away
(:func:`mail_security_risks`): admin role groups handed out, filtering switched off or bypassed for everyone, SPF
opened to any sender, every mailbox given to an application.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import registered_domain
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import url_hosts

#: Command-line mail senders.
MAILERS = frozenset({"swaks", "sendmail", "mail", "mailx", "mutt", "msmtp", "ssmtp", "sendemail", "s-nail", "neomutt"})

#: URLs of a mailbox (curl reads messages over IMAP and POP3).
MAILBOX_URL = re.compile(r"^(?:imaps?|pop3s?)://", re.IGNORECASE)

#: Text that pressures the reader into entering a password or card details.
_LURE = re.compile(
    r"verify (?:your )?(?:identity|account|login|password|credentials|card|bank|payment)"
    r"|confirm your (?:bank |card |payment |billing )?(?:identity|account|password|details|credentials)"
    r"|(?:mailbox|storage) quota (?:exceeded|is full)"
    r"|restore (?:your )?(?:mailbox |email )?access"
    r"|password (?:expires|is expiring|has expired|expiry)|(?:account|card) (?:has been |is |will be )?"
    r"(?:limited|suspended|locked|disabled|deactivated)|unusual sign-?in|suspicious (?:sign-?in|activity)"
    r"|keep (?:your )?current password|update your (?:payment|billing) (?:details|information)"
    r"|your mailbox (?:is full|will be)|(?:session|login|sign-?in) (?:has )?expired|re-?(?:authenticate|login|log in"
    r"|sign in|enter your (?:password|credentials))\b",
    re.IGNORECASE,
)
_LINK = re.compile(r"https?://", re.IGNORECASE)


def credential_lure(text: str) -> bool:
    """``text`` (a message, or the code that builds one) urges the reader to log in behind a link (one that does not
    lead to the sender's own organisation: an expiry reminder pointing at the company's reset page is routine)."""
    if not (_LURE.search(text) and _LINK.search(text)):
        return False
    organisations = {d.lower() for d in _SENDER_DOMAIN.findall(text)}  # (the whole domain: look-alikes differ there)
    hosts = [h.lower() for h in _LINK_HOST.findall(text)]
    own = bool(organisations) and bool(hosts) and all(
        any(h == o or h.endswith("." + o) for o in organisations) for h in hosts
    )
    return not own


#: Mail addresses' domains and links' hosts (whose organisation a link leads to).
_SENDER_DOMAIN = re.compile(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)")
_LINK_HOST = re.compile(r"https?://([\w-]+(?:\.[\w-]+)+)", re.IGNORECASE)


#: Mail API calls and settings that forward a mailbox elsewhere (Gmail, Microsoft Graph, Exchange, GAM).
_FORWARDING = re.compile(
    r"forwardingAddresses\(\)\.create|updateAutoForwarding|autoForwarding|[\"']forward[\"']\s*:"
    r"|[\"']forwardTo[\"']|[\"']redirectTo[\"']|ForwardingSmtpAddress|DeliverToMailboxAndForward",
)


def forwards_mailbox(text: str) -> bool:
    """``text`` (an API call's source) sets up forwarding of a mailbox's mail to another address."""
    return ("orward" in text or "redirectTo" in text) and bool(_FORWARDING.search(text))


#: IMAP message sets and flags that mark every message of a folder deleted.
_EVERY_MESSAGE = re.compile(r"^(?:1:\*|\*|1:\d{4,})$")


def deletes_every_message(message_set: str, flags: str) -> bool:
    """An IMAP STORE of ``\\Deleted`` on every message of the folder (``1:*``)."""
    return bool(_EVERY_MESSAGE.match(message_set.strip())) and "\\deleted" in flags.lower()


def gam_action(args: list[str]) -> tuple[str, str] | None:
    """What a GAM (Google Workspace admin) command does to mailboxes: ("exfiltration"|"delete", what)."""
    lowered = [a.lower() for a in args]
    joined = " ".join(lowered)
    everyone = lowered[:2] == ["all", "users"] or lowered[:1] in (["ou"], ["group"], ["domain"])
    if re.search(r"\bforward\s+on\b|\badd\s+forwardingaddress\b|\bfilter\b.*\bforward\b", joined):
        return "exfiltration", "gam forwards a mailbox's mail to another address"
    if "delegate" in lowered or re.search(r"\badd\s+delegates?\b", joined):
        return "exfiltration", "gam gives another account access to a mailbox"
    if re.search(r"\bdelete\s+messages\b|\btrash\s+messages\b|\bempty\s+trash\b", joined) and (
        everyone or "doit" in lowered
    ):
        return "delete", "gam deletes the mail of " + ("every user's mailbox" if everyone else "a mailbox")
    if everyone and re.search(r"\b(?:delete|suspend)\b", joined) and "users" in lowered[:2]:
        return "delete", "gam deletes or suspends data of every user"
    return None


#: Mailbox providers anyone can sign up to: an administrator account for one of these is for an outsider.
_PERSONAL_MAILBOX = re.compile(
    r"@(?:gmail|googlemail|outlook|hotmail|live|yahoo|proton|protonmail|pm|tutanota|tuta|gmx|mail|yandex|icloud"
    # disposable inboxes anyone can read
    r"|mailinator|guerrillamail|sharklasers|yopmail|10minutemail|temp-mail|trashmail)"
    r"\.(?:com|me|ch|net|de|ru|io|org)\b",
    re.IGNORECASE,
)


def personal_mailbox(text: str) -> bool:
    """``text`` names an address at a free personal mail provider (not the organisation's own domain)."""
    return bool(_PERSONAL_MAILBOX.search(text))


#: A sieve script's redirect (``redirect :copy "someone@example.net";``): each mail goes to that address too.
_SIEVE_REDIRECT = re.compile(r"redirect\s+(?::copy\s+)?\\?\"([^\"\s@]+@[^\"\s\\]+)")


#: A sieve script every mailbox of the server runs (Stalwart's trusted scripts and its `session.data.script`,
#: Dovecot's `sieve_before`/`sieve_after`, a global script): what it redirects, it redirects from everyone.
_SERVER_WIDE_SIEVE = re.compile(
    r"\bsieve\.trusted\b|\bsieve_(?:before|after|global|default)\b|\bsession\.data\.script\b"
)
#: The domain of an address.
_MAIL_DOMAIN = re.compile(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)")


def sieve_redirect_outside(text: str) -> str | None:
    """The address a sieve script in ``text`` redirects mail to, when that is a personal mailbox, or when the
    script runs for every mailbox of the server and the address is at another domain than the server's (the
    domains of its web addresses and of the other addresses the text names)."""
    if "redirect" not in text:
        return None
    targets = [m[1] for m in _SIEVE_REDIRECT.finditer(text)]
    if not targets:
        return None
    if _SERVER_WIDE_SIEVE.search(text):
        own = {registered_domain(h) for h in url_hosts(text)}
        own |= {registered_domain(d) for d in _MAIL_DOMAIN.findall(text) if not any(d in t for t in targets)}
        outside = [t for t in targets if own and registered_domain(t.rsplit("@", 1)[1]) not in own]
        if outside:
            return outside[0]
    return next((t for t in targets if personal_mailbox(t)), None)


#: Mail servers' administration tools whose words :func:`mail_server_command` reads.
MAIL_SERVER_TOOLS = frozenset({"postconf", "postsuper", "doveadm", "imapsync", "exim", "exim4"})
_BCC_SETTING = re.compile(r"^(?:always_bcc|sender_bcc_maps|recipient_bcc_maps)$")
_EVERY_NETWORK = re.compile(r"(?:^|[\s,])(?:0\.0\.0\.0/0|\[?::\]?/0)\b")
_CLEARTEXT_SETTINGS = {
    "disable_plaintext_auth": "no", "smtpd_tls_security_level": "none", "ssl": "no", "auth_allow_cleartext": "yes",
}  # fmt: skip


def _settings(args: Sequence[str]) -> dict[str, str]:
    """``postconf -e 'key = value'`` and ``key=value`` words as a mapping."""
    found = {}
    for arg in args:
        if "=" in arg and not arg.startswith("-"):
            key, value = arg.split("=", 1)
            found[key.strip()] = value.strip()
    return found


def mail_server_command(name: str, args: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """What one Postfix, Exim, Dovecot or imapsync command does to everyone's mail; ``repeated``: it runs once
    per listed item."""
    if name == "postconf":
        for key, value in _settings(args).items():
            if _BCC_SETTING.match(key) and value:
                return OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                     f"postconf copies every message the server handles to {value}")  # fmt: skip
            if key == "mynetworks" and _EVERY_NETWORK.search(value):
                return OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                     "postconf trusts every network to relay mail (an open relay)")  # fmt: skip
            if key == "smtpd_relay_restrictions" and re.fullmatch(r"permit\b.*", value):
                return OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                     "postconf lets anyone relay mail through the server (an open relay)")  # fmt: skip
            if _CLEARTEXT_SETTINGS.get(key) == value:
                what = f"postconf sets {key} = {value}: passwords cross the network in clear"
                return OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)
    if name == "postsuper" and any(a == "-d" for a in args) and "ALL" in args:
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "postsuper deletes every queued message")
    if name in ("exim", "exim4") and any(a in ("-Mrm", "-Mg") for a in args) and repeated:
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "exim deletes every queued message a listing gives")
    if name == "doveadm" and args[:1] in (["expunge"], ["purge"], ["force-resync"]) and "-A" in args:
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                             f"doveadm {args[0]} -A acts on every user's mailbox")  # fmt: skip
    if name == "imapsync" and any(a in ("--delete1", "--delete", "--delete2", "--delete2folders") for a in args):
        what = "imapsync deletes mail while it copies (the source or whatever the target lacks)"
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
    return None


#: Words without which no rule of :func:`mail_security_risks` can match.
_SECURITY_WORDS = GateWords("RoleGroupMember", "TransportRule", "SafeAttachment", "SafeLinks", "MalwareFilter",
                            "AntiPhish", "HostedContentFilter", "antispoofing", "spf1", "content_filter",
                            "smtpd_milters", "appRoleAssignments", "full_access_as_app", "attach",
                            "rcpt.relay")  # fmt: skip
_ADMIN_ROLE_GROUP = re.compile(
    r"\bAdd-RoleGroupMember\b[^\n]*-Identity\s+[\"']?(?:Organization Management|Security Administrator|Compliance "
    r"Management|Recipient Management)",
    re.IGNORECASE,
)
#: Spam and malware filtering switched off or bypassed for everyone (Exchange Online / Defender for Office 365,
#: Mimecast, Postfix's content filters), anyone allowed to send as the domain (SPF `+all`).
_FILTERING_OFF = re.compile(
    r"\bNew-TransportRule\b[^\n]*-SetSCL\s+-1\b|\bSet-(?:SafeAttachment|SafeLinks)Policy\b[^\n]*-Enable\s+\$false\b"
    r"|\bDisable-(?:SafeAttachmentRule|SafeLinksRule|AntiPhishRule|HostedContentFilterRule|MalwareFilterRule)\b"
    r"|\bSet-MalwareFilterPolicy\b[^\n]*-EnableFileFilter\s+\$false\b"
    r"|antispoofing-bypass[\s\S]{0,400}?[\"']from[\"']\s*:\s*\{\s*[\"']type[\"']\s*:\s*[\"']everyone[\"']"
    r"|[\"']from[\"']\s*:\s*\{\s*[\"']type[\"']\s*:\s*[\"']everyone[\"'][\s\S]{0,400}?antispoofing-bypass"
    r"|\bv=spf1\b[^\"'\n]*\s\+all\b"
    r"|\bpostconf\s+-e\s+['\"]?(?:content_filter|smtpd_milters|non_smtpd_milters)\s*=\s*['\"]?(?:\s|$|['\"])",
    re.IGNORECASE,
)
#: Every mailbox given to an application (Graph app roles Mail.ReadWrite/Mail.Send, EWS's full_access_as_app).
_MAILBOX_APP_ROLES = re.compile(
    r"appRoleAssignments[\s\S]{0,600}?(?:Mail\.ReadWrite|Mail\.Send|Mail\.Read\b|MailboxSettings\.ReadWrite)"
    r"|(?:Mail\.ReadWrite|Mail\.Send|full_access_as_app)[\s\S]{0,600}?appRoleAssignments",
    re.IGNORECASE,
)


def mail_security_risks(text: str) -> list[OperationRisk]:
    """A mail system's protections taken away (judged on the whole text): Exchange's admin role groups handed out,
    spam, phishing and malware filtering switched off or bypassed for everyone, SPF opened to any sender, every
    mailbox of a tenant given to an application."""
    if not _SECURITY_WORDS.any_in(text):
        return []
    found = []
    if "RoleGroupMember" in text and _ADMIN_ROLE_GROUP.search(text):
        what = "adds an account to Exchange's Organization Management (or another admin role group)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _FILTERING_OFF.search(text):
        what = ("switches spam, phishing or malware filtering off or bypasses it for everyone, or lets anyone send "
                "as the domain (SPF +all)")
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _MAILBOX_APP_ROLES.search(text):
        what = "grants an application every mailbox of the tenant (read, send as anyone)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "relay" in text and _RELAY_FOR_ANYONE.search(text):
        what = "lets anyone relay mail through the server (an open relay: spam and phishing sent as the domain)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if "attach" in text and _RECORDS_ATTACHED.search(text) and _to_another_domain(text):
        what = "mails people's records (an export of members, customers or staff) to an address of another domain"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found


#: Stalwart's relay rule set to let every sender relay (`session.rcpt.relay = true`, in its config or its settings
#: API's pair, or `add-config session.rcpt.relay true`).
_RELAY_FOR_ANYONE = re.compile(r"\brcpt\.relay[\"',\s]*=?\s*[\"']?true\b", re.IGNORECASE)
#: An export of people's records attached to a message (`add_attachment(open(".../exports/members_full.csv"…`).
_RECORDS_ATTACHED = re.compile(
    r"(?:/exports?/|_export|/giftaid/)[^\"'\n]*(?:member|customer|client|contact|patient|staff|employee|stockist"
    r"|donor|volunteer|booking|student|guest|declaration)[^\"'\n]*\.(?:csv|xlsx?|json)\b[\s\S]{0,600}?\.?(?:add_)?attach"
    r"|(?:add_)?attach[\s\S]{0,300}?(?:member|customer|client|contact|patient|staff|employee|stockist|donor)"
    r"\w*\.(?:csv|xlsx?)\b",
    re.IGNORECASE,
)
_FROM = re.compile(r"\[\s*[\"']From[\"']\s*\]\s*=\s*[\"'][^\"'@]*@([\w.-]+)")
_TO = re.compile(r"\[\s*[\"'](?:To|Cc|Bcc)[\"']\s*\]\s*=\s*[\"'][^\"'@]*@([\w.-]+)")


def _to_another_domain(text: str) -> bool:
    """The message's sender is at one domain and a recipient at another."""
    senders = {registered_domain(h) for h in _FROM.findall(text)}
    recipients = {registered_domain(h) for h in _TO.findall(text)}
    return bool(senders) and bool(recipients - senders)
