"""Software license servers (FlexLM/FlexNet's ``lmutil``, RLM) and their vendor kits (shared by both analyzers, judged
on the whole text).

What needs a careful reviewer:

* license servers shut down (``lmdown -force``) for every server a list gives: everyone's licensed tools stop;
* other users' checkouts removed (``lmremove`` in a loop over ``lmstat``): their running sessions lose their seats;
* every free seat taken (one idle session per seat ``lmstat`` reports free): nobody else can work;
* a vendor kit's encryption seeds or keys sent away (whoever has them mints licenses).

(A vendor daemon patched in place is the analyzers' ``binary-patch`` rule, for any installed program.)

``lmstat`` reports, rereading license files (``lmreread``) and one's own checkouts are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop, sends_data

_LICENSE_WORDS = GateWords("lmdown", "lmremove", "lmstat", "ENCRYPTION_SEED", "VENDOR_KEY")
_SERVERS_DOWN = re.compile(r"\blmdown\b[^\n]*-force|[\"']lmdown[\"'][^\n]*[\"']-force[\"']")
_CHECKOUTS_REMOVED = re.compile(r"\blmremove\b")
_SEATS_HELD = re.compile(r"licen[sc]es?\W*\s+in\s+use[\s\S]{0,400}?\bfor\s+\w+\s+in\s+range\(\s*\w+\s*-\s*\w+\s*\)")
_VENDOR_SEEDS = re.compile(r"\bENCRYPTION_SEED|\bVENDOR_KEY\d")


def license_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to license servers, other users' seats and vendor kits."""
    if not _LICENSE_WORDS.any_in(text):
        return []
    found = []
    if _SERVERS_DOWN.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "shuts down every license server a list gives (everyone's licensed tools stop)"))
    if _CHECKOUTS_REMOVED.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "removes other users' license checkouts one by one (their sessions lose their "
                                   "seats)"))  # fmt: skip
    if _SEATS_HELD.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   "takes every free license seat with idle sessions (nobody else can work)"))
    if _VENDOR_SEEDS.search(text) and sends_data(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                                   "sends a license vendor kit's encryption seeds or keys away (whoever has them "
                                   "mints licenses)"))  # fmt: skip
    return found
