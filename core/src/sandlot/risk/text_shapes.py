"""Shapes the whole-text rules share (both analyzers): a loop over the items of a listing, a web address of a host
on the internet, text hidden in invisible characters."""

from __future__ import annotations

import functools
import re

#: A loop over what a listing gives: `for x in …`, `for key, vid in …`, `while read …`, `xargs`, `.forEach(`.
_EACH_ITEM = re.compile(r"\bfor\s+\(?\w+(?:\s*,\s*\w+)*\s*,?\)?\s+in\b|\bwhile\s+read\b|\bxargs\b|\.forEach\(")
#: A web address whose host is on the internet: not this machine, a cluster's service or an internal name.
_OUTSIDE_URL = re.compile(
    r"https?://(?!localhost|127\.|\[::1\]|[\w.-]*\.(?:svc|local|internal|lan)(?:\.cluster\.local)?(?:[:/\"'\s]|$))"
    r"[\w.-]+\.[a-z]{2,}"
)


#: Between the words of a command line, whether written in a shell script or as a Python argument list
#: (`"node", "decommission"`): rules that read either spell it with this.
ARGV_SEP = r"[\"',\s]+"


#: Data handed to another host: an HTTP client's POST or PUT, urlopen, a raw socket's sendall, curl or netcat.
#: (The lookahead names the letters every branch can begin with: a pattern that begins with `\b` gets no first-
#: character scan from the regex engine, and with it the search skips most of the text three times faster.)
_SENDS = re.compile(
    r"(?=[rhu.cna])(?:\b(?:requests|httpx)\.(?:post|put)\(|\.(?:post|put)\(\s*[\"']https?://|\burlopen\(|\.sendall\("
    r"|\bcurl\b|\bnc\s|\bapprise\.Apprise\()",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=16)
def sends_data(text: str) -> bool:
    """``text`` sends something to another host (a POST or PUT, urlopen, a socket's sendall, curl, netcat).

    (Remembered for the last few texts: the whole-text checks of one snippet ask it three or four times.)
    """
    return _SENDS.search(text) is not None


#: What sends data to a URL spelled on its line: a POST or PUT, urlopen, a request with a body, curl with a body or
#: an upload.
_SENDING = (r"\.(?:post|put)\(|\burlopen\(|\bRequest\([^\n]*\bdata=|\bcurl\b[^\n]*\s(?:-d|--data\S*|-T|-F"
            r"|--upload-file)\s")
#: A line that sends data to a URL spelled on it.
_SENDING_LINE = re.compile(rf"^.*(?:{_SENDING}).*$", re.MULTILINE)
#: Whether any line does, asked of the whole text first: most texts have no sending line, and finding that out
#: costs a fraction of matching every line from its start. (The lookahead names the letters every branch begins
#: with: a pattern that begins with `\b` gets no first-character scan from the regex engine.)
_SENDS_ON_A_LINE = re.compile(rf"(?=[.uRc])(?:{_SENDING})")
#: (WebSocket addresses too, and Apprise's `json://`, `xml://` and `form://` ones: an HTTP POST to that host.)
_URL_HOST = re.compile(r"(?:https?|wss?|jsons?|xmls?|forms?)://([^/\s\"'?:]+)")
#: A pipe into netcat aimed at an address (`… | nc -w 5 203.0.113.40 9000`): what flows in goes to that host.
_NETCAT_HOST = re.compile(r"\|\s*(?:nc|ncat|netcat)\b[^\n|]*?\b(\d{1,3}(?:\.\d{1,3}){3})\b")


def sends_elsewhere(text: str, own_hosts: re.Pattern[str]) -> bool:
    """A line of ``text`` sends data to a web address whose host ``own_hosts`` does not match (the service's own
    API is where its data belongs; a webhook or a bare address is somewhere else). A sending line that names no
    address (`requests.post(SINK, …)`) sends to whichever the text spells elsewhere; a pipe into netcat sends to
    the address it names."""
    return any(not own_hosts.search(host.lower()) for host in destination_hosts(text))


def destination_hosts(text: str) -> list[str]:
    """The hosts ``text`` may send data to: those its sending lines spell, and every host it names when a sending
    line names none (`requests.post(SINK, …)` sends wherever ``SINK`` was spelled)."""
    lines = _sending_lines(text)
    hosts = sending_hosts(text)
    if lines and any("://" not in line for line in lines):
        hosts += _URL_HOST.findall(text)
    return hosts


def sending_hosts(text: str) -> list[str]:
    """The hosts ``text`` sends data to, where the sending line spells them (a POST's URL, a netcat pipe's
    address)."""
    hosts = [host for line in _sending_lines(text) for host in _URL_HOST.findall(line)]
    return hosts + (_NETCAT_HOST.findall(text) if "nc" in text else [])


def _sending_lines(text: str) -> list[str]:
    """The lines of ``text`` that send data to a web address."""
    return _SENDING_LINE.findall(text) if _SENDS_ON_A_LINE.search(text) else []


def url_hosts(text: str) -> list[str]:
    """The host of every web address ``text`` spells."""
    return _URL_HOST.findall(text)


def each_item(text: str) -> bool:
    """``text`` repeats something for each item a listing, a file or a command gives."""
    return _EACH_ITEM.search(text) is not None


def any_loop(text: str) -> bool:
    """``text`` repeats something: for each item of a listing, or in any ``for … in`` loop (a constant list too)."""
    return _EACH_ITEM.search(text) is not None or _FOR_IN.search(text) is not None


_FOR_IN = re.compile(r"\bfor\s+\w+\s+in\b")


def outside_url(text: str) -> bool:
    """``text`` spells a web address of a host on the internet."""
    return _OUTSIDE_URL.search(text) is not None


#: Unicode tag characters (U+E0020-U+E007E): each spells an ASCII character, and none is visible.
_TAG_RUN = re.compile("[\U000e0020-\U000e007e]{6,}")


def hidden_tag_texts(text: str) -> list[str]:
    """The ASCII texts spelled by runs of invisible Unicode tag characters in ``text`` (a command hidden in what
    looks like an empty string)."""
    if text.isascii():
        return []
    return ["".join(chr(ord(c) - 0xE0000) for c in run) for run in _TAG_RUN.findall(text)]
