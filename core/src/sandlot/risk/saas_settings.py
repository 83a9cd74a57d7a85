"""Settings of hosted platforms changed through their APIs: feature flags, remote configuration, webhooks and
marketing lists (shared by both analyzers, judged on the whole text).

A platform's settings reach every user at once: a remote-config value is what every installed app reads next, a
webhook is where every event (raw inbound mail, unsubscribes) goes, a flag turned on is on for everyone. What
needs a careful reviewer:

* remote configuration or a webhook pointed at a bare outside address;
* every flag of a project turned on in a loop, or a flag that skips a login check switched on;
* people who opted out (unsubscribed, blacklisted, suppressed) put back on the lists, one after another;
* a platform's records deleted permanently for each item a listing gives;
* the budget of every ad set or campaign a listing gives raised to thousands a day (the money is spent).

Reading flags, toggling one named flag and subscribing the company's own endpoint are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

#: A platform setting that other software reads or calls: remote configuration, webhooks, inbound-parse routes.
_PLATFORM_SETTING = re.compile(r"remoteConfig|remote-config|/webhooks?\b|/hooks\b|parse/settings|event/settings"
                               r"|/subscriptions?\b|notification_?url|push[-_]?endpoint", re.IGNORECASE)  # fmt: skip
_BARE_ADDRESS_URL = re.compile(
    r"[\"']?(?:https?://)?(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?:/[^\"'\s]*)?[\"']|https?://(\d{1,3}(?:\.\d{1,3}){3})\b"
)
#: Every flag turned on (LaunchDarkly's semantic patch, Unleash's `/on`), or a flag that skips a login check.
_FLAG_ON = re.compile(r"[\"']turnFlagOn[\"']|/environments/[\w-]+/on\b|[\"']on[\"']\s*:\s*(?:True|true)", re.I)
_LOGIN_SKIP_FLAG = re.compile(r"(?:skip|bypass|disable|no)[-_.]?(?:mfa|2fa|otp|auth|login|captcha|sso)\w*", re.I)
#: Opted-out people put back (`"emailBlacklisted": False`, `unsubscribed: false`, `status: "subscribed"` over all).
_OPT_OUT_CLEARED = re.compile(
    r"[\"'](?:email|sms)?_?[Bb]lacklisted[\"']\s*:\s*(?:False|false)|[\"'](?:unsubscribed|opted_?out|optout"
    r"|do_not_(?:email|contact|call|sms)|suppressed)[\"']\s*:\s*(?:False|false)",
)
#: (a CDN's `/purge` empties a cache, it deletes nothing of a record)
_PERMANENT_DELETE = re.compile(r"delete-permanent|permanent-?delete|permanentlyDelete", re.IGNORECASE)
#: An ad budget of at least 10,000 a day in the currency's cents (Meta's `daily_budget`), or in micros (Google Ads).
_HUGE_BUDGET = re.compile(
    r"(?:daily|lifetime)_budget[\"']?\s*[:=]\s*[\"']?(?:\d{7,}|[1-9]\d{5}\b)|amount_micros[\"']?\s*[:=]\s*[\"']?\d{11,}"
)
_WORDS = GateWords("emote", "hook", "settings", "ubscri", "otification", "Flag", "/on", "lacklisted", "nsubscri",
                   "pted", "do_not", "uppress", "ermanent", "budget", "micros", "ndpoint")  # fmt: skip


def saas_setting_risks(text: str) -> list[OperationRisk]:
    """What ``text`` changes in hosted platforms' settings that reaches every user or every event."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _PLATFORM_SETTING.search(text) and any(outside_address(a or b) for a, b in _BARE_ADDRESS_URL.findall(text)):
        what = ("points a platform's remote configuration or webhook at a bare outside address (every app or every "
                "event goes there)")
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    flag_on = _FLAG_ON.search(text)
    if flag_on and (each_item(text) or _LOGIN_SKIP_FLAG.search(text)):
        what = "switches on every feature flag of a project, or a flag that skips a login check, for everyone"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _OPT_OUT_CLEARED.search(text) and each_item(text):
        what = "puts people who opted out (unsubscribed, blacklisted) back on the lists, one after another"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _PERMANENT_DELETE.search(text) and each_item(text):
        what = "deletes a platform's records permanently, one after another (no trash to restore from)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if ("budget" in text or "micros" in text) and _HUGE_BUDGET.search(text) and each_item(text):
        what = "raises the budget of every ad set or campaign a listing gives to thousands a day (money spent)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found
