"""Phones driven from a computer turned against their owners (shared by both analyzers, judged on the whole text:
adb and AT commands, USSD codes, Frida, eSIM tools).

A phone on a USB cable or in adb's reach obeys whoever holds the computer. What needs a careful reviewer: calls
forwarded to another number, a SIM's PIN guessed, the eSIM profiles (the phone's line) deleted, a script fetched at
run time injected into an app, an app installed as device administrator with location and notification access
(stalkerware). A developer's own debug app, screenshots, logs and test installs are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

_WORDS = GateWords("*21*", "**21", "CCFC", "CPIN", "profile delete", "frida", "set-active-admin", "set-device-owner")

#: Unconditional call forwarding switched on: the GSM code `**21*NUMBER#` (or `*21*`), or AT+CCFC=0,3,"NUMBER".
_FORWARDING = re.compile(r"\*\*?21\*\+?[\d{}$]{3,}|AT\+CCFC=0,3,")
_PIN_GUESS = re.compile(r"AT\+CPIN=")
_ESIM_DELETED = re.compile(r"\b(?:lpac|esim|lpa)\b[^\n]*\bprofile\b[^\n]*\b(?:delete|remove)\b")
_FRIDA_FETCHED = re.compile(r"\bfrida\b[\s\S]{0,400}?(?:requests\.get|urlopen|curl\s|wget\s|https?://)"
                            r"|(?:requests\.get|urlopen|curl\s|wget\s)[\s\S]{0,400}?\bfrida\b")  # fmt: skip
_FRIDA_INJECTS = re.compile(r"\.create_script\(|\bfrida\b[^\n]*\s-l\s|\bfrida\b[^\n]*-U\b")
_DEVICE_ADMIN = re.compile(r"\bdpm\s+set-(?:active-admin|device-owner)\b")
_SPYING_GRANTS = re.compile(r"ACCESS_(?:FINE|BACKGROUND)_LOCATION|BIND_NOTIFICATION_LISTENER|READ_SMS|RECORD_AUDIO"
                            r"|notification_listener|appops\s+set")  # fmt: skip


def phone_risks(text: str) -> list[OperationRisk]:
    """What ``text`` makes a connected phone or modem do to its owner."""
    if not _WORDS.any_in(text):
        return []
    found: list[OperationRisk] = []
    if _FORWARDING.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "forwards every call of the phone to another number"))
    if _PIN_GUESS.search(text) and any_loop(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "guesses a SIM card's PIN (or PUK) in a loop"))
    if _ESIM_DELETED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "deletes eSIM profiles (the phone's lines, not recoverable from the phone)"))
    if _FRIDA_INJECTS.search(text) and _FRIDA_FETCHED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "injects a script fetched at run time into an app on the phone (Frida)"))
    if _DEVICE_ADMIN.search(text) and _SPYING_GRANTS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "installs an app as the phone's administrator with location, message or "
                                   "notification access (stalkerware)"))  # fmt: skip
    return found
