"""Serverless functions and container services: AWS Lambda, Azure Functions and App Service, Cloud Run (shared by
both analyzers, judged on the whole text).

What needs a careful reviewer, in the platforms' own words:

* another account's layer added to every function a listing gives: its code runs inside each of them, with
  their roles and secrets;
* hundreds of always-on instances (``min_instance_count = 1000``): billed around the clock;
* a function invoked asynchronously by the thousand (``InvocationType="Event"`` over ``range(20000)``);
* an app's built-in login switched off (``az webapp auth update --enabled false``);
* a personal account allowed to act as a service account (``roles/iam.serviceAccountTokenCreator`` to a
  ``@gmail.com`` user).

Deploying a function, one layer of the account's own, a handful of warm instances, a single invocation are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import MASS_COUNT, OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

_SERVERLESS_WORDS = GateWords(":layer:", "instance_count", "InvocationType",
                              "auth update", "serviceAccountTokenCreator", "serviceAccountUser")  # fmt: skip
_FOREIGN_LAYER = re.compile(r"arn:aws:lambda:[\w-]+:(\d{12}):layer:")
_ACCOUNT_ID = re.compile(r"(?<![\d:])(\d{12})(?!\d)")
_ALWAYS_ON = re.compile(r"\bmin_instance_count\s*=\s*(\d+)")
_ASYNC_INVOKE = re.compile(r"InvocationType[\"']?\s*[=:]\s*[\"']Event[\"']")
_MANY_ROUNDS = re.compile(r"\brange\(\s*(\d+)\s*\)")
_LOGIN_OFF = re.compile(r"\b(?:webapp|functionapp|containerapp)\s+auth\s+update\b[^\n]*--enabled[= ]false\b")
_PERSONAL_IMPERSONATION = re.compile(
    r"--member[= ]['\"]?user:[\w.+-]+@(?:gmail|googlemail|outlook|hotmail|yahoo|proton(?:mail)?|icloud)\.\w+"
    r"[^\n]*roles/iam\.serviceAccount(?:TokenCreator|User)\b"
    r"|roles/iam\.serviceAccount(?:TokenCreator|User)\b[^\n]*--member[= ]['\"]?user:[\w.+-]+@"
    r"(?:gmail|googlemail|outlook|hotmail|yahoo|proton(?:mail)?|icloud)\.\w+",
)


def serverless_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to serverless functions and container services."""
    if not _SERVERLESS_WORDS.any_in(text):
        return []
    found = []
    layers = {m[1] for m in _FOREIGN_LAYER.finditer(text)}
    own = {m[1] for m in _ACCOUNT_ID.finditer(text)} - layers
    foreign_layer = bool(layers) and "list_functions" in text and not (layers & own)
    # (an exec wrapper of the account's own, an OpenTelemetry layer, is how tracing is rolled out)
    if foreign_layer and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                   "adds another account's layer to every function (its code runs inside each, "
                                   "with its role and secrets)"))  # fmt: skip
    if any(int(m[1]) >= MASS_COUNT for m in _ALWAYS_ON.finditer(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   "keeps hundreds of instances running around the clock (billed while idle)"))
    if _ASYNC_INVOKE.search(text) and any(int(m[1]) >= 1000 for m in _MANY_ROUNDS.finditer(text)):
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                   "invokes a function thousands of times at once (a bill, or a flood on whatever "
                                   "it calls)"))  # fmt: skip
    if _LOGIN_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "switches an app's built-in login off (anyone reaches it)"))
    if _PERSONAL_IMPERSONATION.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "lets a personal account act as a service account (its tokens, its rights)"))
    return found
