"""Data smuggled out through DNS lookups (shared by both analyzers, judged on the whole text).

A lookup of ``<data>.<domain>`` reaches whoever runs that domain's name server, through every firewall that lets
DNS out. Data cut into label-sized chunks (``fold -w 60``, ``blob[i:i+30]``) and looked up one chunk at a time is
that channel, whatever the data is; so are the rows of a table or the lines of a file looked up one by one. Looking
up fixed host names, or one name a variable holds, is ordinary.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_LOOKUP_WORDS = GateWords("dig", "nslookup", "host ", "gethostbyname", "getaddrinfo", "resolve(", "drill")
#: A lookup of a name that begins with a variable's value and ends in a fixed domain (`"$c.$RANDOM.ns1.x.net"`,
#: `f"{blob[i:i+30]}.{dom}"`).
_DATA_LOOKUP = re.compile(
    r"\b(?:dig|nslookup|host|drill)\b[^\n]*[\"' ]\$\{?\w+\}?\.[^\s\"']*[\w-]+\.[a-z]{2,}"
    r"|\b(?:gethostbyname|getaddrinfo|resolve)\(\s*f[\"'](?:\{[^}]+\}[\w-]*)+\."
)
#: Data cut into chunks the size of a DNS label (or encoded to fit one).
_CHUNKED = re.compile(r"\bfold\s+-w\s*\d+|\bcut\s+-c|\bsplit\s+-b|\[\s*\w+\s*:\s*\w+\s*\+\s*\d+\s*\]|\bbase32\b"
                      r"|\bxxd\s+-p")  # fmt: skip

#: ...or records, one lookup each: a loop over a query's rows, a file's lines or a table (`for code, balance in
#: db.execute(…)`, `while read`).
_RECORD_LOOP = re.compile(r"\bfor\b[^\n]*\b(?:execute|fetchall|fetchmany|reader|DictReader|readlines|iterrows"
                          r"|itertuples|objects\.\w+)\(|\bwhile\s+(?:IFS=\S*\s+)?read\b")


def dns_tunnel_risks(text: str) -> list[OperationRisk]:
    """Chunks of data, or records one by one, looked up as names under a domain, in ``text``."""
    if not _LOOKUP_WORDS.any_in(text):
        return []
    if _DATA_LOOKUP.search(text) and (_CHUNKED.search(text) or _RECORD_LOOP.search(text)):
        return [OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                              "sends data out in chunks hidden in DNS lookups (to whoever runs the domain's name "
                              "server)")]  # fmt: skip
    return []
