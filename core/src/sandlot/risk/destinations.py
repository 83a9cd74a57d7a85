"""Where data sent over the network ends up, judged by the host alone.

Two kinds of host say who will read what is sent to them, whatever the request looks like:

* a *personal* host (a dynamic-DNS name, a tunnel) is someone's own machine, not the organisation's;
* a *public drop* (a request catcher, an anonymous file host, a paste site, an out-of-band interaction
  server) keeps what it receives for whoever holds the link: nothing an organisation runs its own data
  through. Data read at run time and sent there has left.
"""

from __future__ import annotations

import re

#: Dynamic-DNS and tunnel hosts: a machine of the person running the command, not the organisation's.
_PERSONAL_HOST = re.compile(
    r"\.(?:duckdns\.org|no-ip\.(?:org|com|biz|info)|ddns\.net|dynu\.(?:com|net)|hopto\.org|zapto\.org"
    r"|sytes\.net|servebeer\.com|myftp\.(?:org|biz)|freedns\.afraid\.org|ngrok(?:-free)?\.(?:io|app|dev)"
    r"|trycloudflare\.com|serveo\.net)\b",
    re.IGNORECASE,
)

#: Request catchers and out-of-band (OAST) interaction servers: they exist to record who called and with what.
_BEACONS = frozenset(
    {"webhook.site", "pipedream.net", "requestbin.com", "requestbin.net", "requestbin.io", "requestcatcher.com",
     "beeceptor.com", "hookbin.com", "postb.in", "ptsv2.com", "ptsv3.com", "requestinspector.com", "mockbin.org",
     "requestrepo.com", "webhook.cool", "typedwebhook.tools", "httpdump.app", "interact.sh", "oast.pro",
     "oast.live", "oast.site", "oast.online", "oast.fun", "oast.me", "oastify.com", "burpcollaborator.net",
     "dnslog.cn", "ceye.io"}
)  # fmt: skip
#: Anonymous file hosts and paste sites.
_FILE_DROPS = frozenset(
    {"transfer.sh", "file.io", "0x0.st", "tmpfiles.org", "bashupload.com", "oshi.at", "gofile.io", "catbox.moe",
     "temp.sh", "keep.sh", "anonfiles.com", "uguu.se", "pixeldrain.com", "filebin.net", "send.cm", "tempfile.org",
     "tempfile.io", "pastebin.com", "paste.ee", "hastebin.com", "termbin.com", "ix.io", "sprunge.us", "paste.rs",
     "dpaste.com", "dpaste.org", "rentry.co", "rentry.org", "ghostbin.com", "ghostbin.co", "clbin.com",
     "paste.c-net.org"}
)  # fmt: skip
_PUBLIC_DROPS = _BEACONS | _FILE_DROPS
#: A host name (two labels or more) and what may stand right before one: a user, a space, a quote, ``=``.
_HOST = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+")  # `_` too: labels a script spells (`HF_TOKEN.x.oast…`)
_HOST_EDGE = frozenset("@ \t\n\"'=")
_HOST_END = frozenset("/:?#\"' \t\n")


#: API paths that subscribe a URL to a platform's events (webhooks, subscriptions, notification targets).
SUBSCRIPTION_URL = re.compile(r"webhook|subscription|/hooks\b|notification|event_?destination", re.IGNORECASE)


def personal_host(text: str) -> bool:
    """``text`` names a host on a dynamic-DNS or tunnel service (someone's home machine)."""
    return bool(_PERSONAL_HOST.search(text))


def public_drop(text: str) -> bool:
    """``text`` (a URL, a host, a command line) names a request catcher, an anonymous file host, a paste site
    or an out-of-band interaction server: whatever is sent there is readable by whoever holds the link."""
    return _names_host(text, _PUBLIC_DROPS)


def beacon(text: str) -> bool:
    """``text`` names a request catcher or an out-of-band interaction server: even a plain GET with data
    spelled into its address reports that data to whoever watches it."""
    return _names_host(text, _BEACONS)


def _names_host(text: str, domains: frozenset[str]) -> bool:
    """A host in ``text`` (not a path, ``github.com/file.io``) lies in one of ``domains`` (subdomains too)."""
    lowered = text.lower()
    if not any(domain in lowered for domain in domains):
        return False  # the common case, decided by substring tests alone
    text = text.replace("\x00", "x")  # a label known only at run time is still a label
    for match in _HOST.finditer(text):
        start, end = match.span()
        if start and text[start - 1] not in _HOST_EDGE and not text.endswith("://", 0, start):
            continue
        if end < len(text) and text[end] not in _HOST_END:
            continue
        labels = match.group().lower().split(".")
        if ".".join(labels[-2:]) in domains or ".".join(labels[-3:]) in domains:
            return True
    return False
