"""Mail: mailboxes read out, forwarded or emptied, and mail sent as phishing (shared by both analyzers).

A mailbox holds a person's private correspondence (and the password resets of every account they
have): copying it elsewhere, or setting up a rule that forwards it, is a leak; flagging every
message deleted loses it. Mail whose text asks people to "verify" an account behind a link, sent
to a list of addresses, is credential phishing whatever library sends it.
"""

from __future__ import annotations

import re

#: Command-line mail senders.
MAILERS = frozenset({"swaks", "sendmail", "mail", "mailx", "mutt", "msmtp", "ssmtp", "sendemail", "s-nail", "neomutt"})

#: URLs of a mailbox (curl reads messages over IMAP and POP3).
MAILBOX_URL = re.compile(r"^(?:imaps?|pop3s?)://", re.IGNORECASE)

#: Text that pressures the reader into entering a password or card details.
_LURE = re.compile(
    r"verify (?:your )?(?:identity|account|login|password)|confirm your (?:identity|account|password|details)"
    r"|password (?:expires|is expiring|has expired|expiry)|(?:account|card) (?:has been |is |will be )?"
    r"(?:limited|suspended|locked|disabled|deactivated)|unusual sign-?in|suspicious (?:sign-?in|activity)"
    r"|keep (?:your )?current password|update your (?:payment|billing) (?:details|information)"
    r"|your mailbox (?:is full|will be)",
    re.IGNORECASE,
)
_LINK = re.compile(r"https?://", re.IGNORECASE)


def credential_lure(text: str) -> bool:
    """``text`` (a message, or the code that builds one) urges the reader to log in behind a link."""
    return bool(_LURE.search(text)) and bool(_LINK.search(text))


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
    r"@(?:gmail|googlemail|outlook|hotmail|live|yahoo|proton|protonmail|pm|tutanota|tuta|gmx|mail|yandex|icloud)"
    r"\.(?:com|me|ch|net|de|ru|io)\b",
    re.IGNORECASE,
)


def personal_mailbox(text: str) -> bool:
    """``text`` names an address at a free personal mail provider (not the organisation's own domain)."""
    return bool(_PERSONAL_MAILBOX.search(text))
