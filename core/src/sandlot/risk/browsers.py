"""Browsers driven by programs: the DevTools protocol, launch flags, automation frameworks (shared by both
analyzers, judged on the whole text).

A browser the user is logged in with holds every session they have. Through its debugging port (CDP) a program
reads all its cookies or runs script in every open tab; launched with that port open to other origins, or with
an extension loaded from a hidden folder, it stays that way. Automation frameworks that fill login forms from
a list of stolen pairs, or solve captchas through a paid service, attack other people's sites.

Driving a throwaway browser profile in end-to-end tests, screenshots and PDFs of one's own pages are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: A program speaking to a browser's debugging port.
_CDP = re.compile(r"webSocketDebuggerUrl|:9222\b|remote-debugging|/json/version|chrome-remote-interface")
_ALL_COOKIES = re.compile(r"Network\.getAllCookies|Storage\.getCookies")
_EVALUATES = re.compile(r"Runtime\.evaluate|Page\.addScriptToEvaluateOnNewDocument")
_FETCHES_CODE = re.compile(r"https?://[^\s\"']+\.js\b|\bcurl\b[^\n|]*https?://|\.get\(\s*[\w\"']")
#: Launch flags that open a browser (the user's own profile, or to any origin) to its debugging port.
_REAL_PROFILE = re.compile(
    r"--user-data-dir=[\"']?[^\s\"']*(?:Application Support/Google/Chrome|\.config/(?:google-chrome|chromium)"
    r"|AppData\\+Local\\+Google\\+Chrome)",
    re.IGNORECASE,
)
_ANY_ORIGIN = re.compile(r"--remote-allow-origins=[\"']?\*|--remote-debugging-address=[\"']?0\.0\.0\.0")
#: An extension loaded from a hidden folder (a name starting with a dot).
_HIDDEN_EXTENSION = re.compile(r"--load-extension=[\"']?[^\s\"']*/\.[\w-]+")
#: Extension code that collects every cookie and sends it off.
_EXTENSION_COOKIE_THEFT = re.compile(
    r"chrome\.cookies\.getAll\([\s\S]{0,300}fetch\(|fetch\([\s\S]{0,300}chrome\.cookies\.getAll"
)
_DRIVER_ANY_IP = re.compile(r"chromedriver\b[^\n]*--(?:allowed|whitelisted)-ips=(?:[\"']{2}|\s|$)")
#: Username and password pairs read from a list and typed into a login form (credential stuffing).
_COMBO_LIST = re.compile(r"split\(\s*[\"']:[\"']|combo", re.IGNORECASE)
_TYPES_PASSWORD = re.compile(r"\.fill\([^)]*pass|\bpassword\b[^\n]*send_keys|send_keys\([^)]*\bpw\b", re.IGNORECASE)
#: A captcha handed to a solving service (a task created, an image or a site key sent, a solver's client used).
_CAPTCHA_TASK = re.compile(r"createTask|in\.php|/in\b|\.solve\(|solve_?captcha|sitekey|websiteKey|googlekey"
                           r"|recaptcha|hcaptcha|turnstile|body=|base64|\.normal\(|ImageToText", re.IGNORECASE)
#: Paid captcha-solving services (a human or a model solves each challenge for the script).
_CAPTCHA_SOLVERS = re.compile(r"2captcha|anti-captcha|anticaptcha|capsolver|capmonster|deathbycaptcha", re.I)
_BROWSER_WORDS = GateWords("9222", "remote-debugging", "webSocketDebuggerUrl", "load-extension", "chromedriver",
                           "captcha", "CAPTCHA", "fill(", "send_keys", "chrome.cookies")


def browser_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to browsers (the user's own, through its debugging port) or with them to others."""
    if not _BROWSER_WORDS.any_in(text):
        return []
    found = []
    cdp = _CDP.search(text) is not None
    if cdp and _ALL_COOKIES.search(text):
        what = "reads every cookie of a running browser through its debugging port (all its logged-in sessions)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if cdp and _EVALUATES.search(text) and _FETCHES_CODE.search(text):
        what = "runs fetched script in a browser's open tabs through its debugging port"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if "remote-debugging" in text and (_REAL_PROFILE.search(text) or _ANY_ORIGIN.search(text)):
        what = "opens a browser's debugging port on the user's own profile or to any origin (its sessions exposed)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if "load-extension" in text and _HIDDEN_EXTENSION.search(text):
        what = "loads a browser extension from a hidden folder (it sees every page the user opens)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if "chrome.cookies" in text and _EXTENSION_COOKIE_THEFT.search(text):
        what = "writes a browser extension that collects every cookie and sends them off"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if "chromedriver" in text and _DRIVER_ANY_IP.search(text):
        what = "runs a WebDriver server that accepts clients from any address (it drives a browser for them)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _TYPES_PASSWORD.search(text) and _COMBO_LIST.search(text) and re.search(r"\bfor\b", text):
        what = "types username and password pairs from a list into a login form (credential stuffing)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    # (an account's balance asked for, and nothing else: no captcha is sent to be solved)
    balance_only = "alance" in text and not _CAPTCHA_TASK.search(text)
    if "captcha" in text.lower() and _CAPTCHA_SOLVERS.search(text) and not balance_only:
        what = "has captchas solved by a paid service (automated sign-ups or logins on someone else's site)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    return found
