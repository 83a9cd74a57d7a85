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

_EDGE = r"(?:^|://|[@\s\"'=])(?:[\w-]+\.)*(?:"
_END = r")(?=$|[/:?#\s\"'])"
#: Request catchers and out-of-band (OAST) interaction servers: they exist to record who called and with what.
_BEACONS = (
    r"webhook\.site|pipedream\.net|requestbin\.(?:com|net|io)|requestcatcher\.com"
    r"|beeceptor\.com|hookbin\.com|postb\.in|ptsv[23]\.com|requestinspector\.com|mockbin\.org"
    r"|requestrepo\.com|webhook\.cool|typedwebhook\.tools|httpdump\.app"
    # out-of-band interaction servers
    r"|interact\.sh|oast\.(?:pro|live|site|online|fun|me)|oastify\.com"
    r"|burpcollaborator\.net|dnslog\.cn|ceye\.io"
)
#: Anonymous file hosts and paste sites.
_FILE_DROPS = (
    r"transfer\.sh|file\.io|0x0\.st|tmpfiles\.org|bashupload\.com|oshi\.at|gofile\.io"
    r"|(?:litterbox\.)?catbox\.moe|temp\.sh|(?:free\.)?keep\.sh|anonfiles\.com|uguu\.se|pixeldrain\.com"
    r"|filebin\.net|send\.cm|tempfile\.(?:org|io)"
    # paste sites
    r"|pastebin\.com|paste\.ee|hastebin\.com|termbin\.com|ix\.io|sprunge\.us|paste\.rs|dpaste\.(?:com|org)"
    r"|rentry\.(?:co|org)|ghostbin\.\w+|paste\.c-net\.org|clbin\.com"
)
_BEACON = re.compile(_EDGE + _BEACONS + _END, re.IGNORECASE)
_PUBLIC_DROP = re.compile(_EDGE + _BEACONS + "|" + _FILE_DROPS + _END, re.IGNORECASE)


def personal_host(text: str) -> bool:
    """``text`` names a host on a dynamic-DNS or tunnel service (someone's home machine)."""
    return bool(_PERSONAL_HOST.search(text))


def public_drop(text: str) -> bool:
    """``text`` (a URL, a host, a command line) names a request catcher, an anonymous file host, a paste site
    or an out-of-band interaction server: whatever is sent there is readable by whoever holds the link."""
    return bool(_PUBLIC_DROP.search(text))


def beacon(text: str) -> bool:
    """``text`` names a request catcher or an out-of-band interaction server: even a plain GET with data
    spelled into its address reports that data to whoever watches it."""
    return bool(_BEACON.search(text))
