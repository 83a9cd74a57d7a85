"""Fleets of networked devices administered over their web APIs: cameras, recorders, embedded controllers
(shared by both analyzers, judged on the whole text).

Cameras and recorders answer HTTP APIs (ISAPI, CGI) with an administrator's rights, and what is sent to one is
usually sent to every one of a list. What needs a careful reviewer:

* an administrator account added to devices, telnet switched on or stream authentication off;
* firmware downloaded from a bare address pushed to devices;
* camera streams relayed to a server at a bare outside address;
* every device of a list given a trivial access code (``0000``) or its safety, monitoring or lockout checks
  switched off;

Reading a device's status, rebooting one and pulling its snapshots for the company's own recorder are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

_ADMIN_ACCOUNT = re.compile(
    r"<userLevel>\s*Administrator\s*</userLevel>|userManager\.cgi\?action=addUser[^\s\"']*user\.Group=admin"
    r"|[\"']?(?:userLevel|user_level|group|role)[\"']?\s*[:=]\s*[\"']?(?:Administrator|admin)[\"']?[^\n]{0,200}/(?:users|addUser)",
    re.IGNORECASE,
)
_OPENED_ACCESS = re.compile(
    r"Telnet\.Enable[\"']?\s*[:=]\s*[\"']?true|RTSP\.Authentication[\"']?\s*[:=]\s*[\"']?false"
    r"|telnet_?enable[\"']?\s*[:=]\s*[\"']?(?:true|1)\b|Network\.FirewallEnable[\"']?\s*[:=]\s*[\"']?false"
    # Hikvision's ISAPI: the stream's authentication set to none, an account's password set to a default
    r"|<certificateType>\s*none\s*</certificateType>|<password>\s*(?:admin|password|12345|123456|0000)\s*</password>",
    re.IGNORECASE,
)
_FIRMWARE_PUSH = re.compile(r"updateFirmware|firmware[/_-]?(?:upload|upgrade|update)|/upgrade\.cgi", re.IGNORECASE)
_BARE_DOWNLOAD = re.compile(r"(?:requests\.get\(|urlopen\(|\bcurl\b[^\n]*|\bwget\b[^\n]*)[\"' ]*\w+://(\d{1,3}(?:\.\d{1,3}){3})")
_STREAM_RELAY = re.compile(r"-i\s+[\"']?(?:rtsp|\$)[^\n]*\s[\"']?(?:rtmps?|srt)://(\d{1,3}(?:\.\d{1,3}){3})")
#: Access codes set to trivial values, or a device's safety, monitoring or lockout checks set off...
_TRIVIAL_CODE = re.compile(
    r"(?:code|pin|passcode|password)\w*[\"']?\s*[:=]\s*[\"'](?:0000|1111|1234|12345|123456|000000)[\"']", re.I
)
_SAFETY_OFF = re.compile(
    r"\b(?!check_same_thread\b)\w*(?:monitor|check|interlock|lockout|failsafe|safety|overspeed|protect)\w*[\"']?\s*[:=]"
    r"\s*[\"']?"
    r"(?:0|false|off|no)(?![\w.])"
    # a camera's recording or motion detection stopped (Dahua's `RecordMode[0].Mode=2` is "off")
    r"|\bRecord\w*(?:\[\d+\])?\.(?:Mode=2|Enable=false)\b|\b(?:record(?:ing)?|motion_?detect\w*)[\"']?\s*[:=]\s*[\"']?"
    r"(?:false|off|0)\b",
    re.I,
)
#: A heating machine's own limits switched off (`"high_limit_c": 0`, `"auto_off_enabled": False`, `overtemp: off`).
_LIMITS_OFF = re.compile(r"[\"']?\w*(?:over_?temp|high_limit|auto_?off|auto_?shut_?off|thermal_?cut_?off|e_?stop)"
                         r"\w*[\"']?\s*[:=]\s*[\"']?(?:0|false|off|no)(?![\w.])", re.IGNORECASE)  # fmt: skip
#: Words, case aside, a match of :data:`_LIMITS_OFF` or of :data:`_SAFETY_OFF` holds: without one the pattern (whose
#: `\w*` before them is retried at every character of every word) need not run. (Only for an ASCII text: re's
#: IGNORECASE also equates a few other letters, the Kelvin sign or a long s, with ASCII ones.)
_LIMIT_WORDS = GateWords("overtemp", "over_temp", "high_limit", "autooff", "auto_off", "autoshut", "auto_shut",
                         "thermalcut", "thermal_cut", "estop", "e_stop", ignore_case=True)
_SAFETY_WORDS = GateWords("monitor", "check", "interlock", "lockout", "failsafe", "safety", "overspeed", "protect",
                          "record", "motion", ignore_case=True)
#: ...sent to devices (a request that changes a setting).
_HTTP_CHANGE = re.compile(r"\.(?<!@app\.)(?<!@router\.)(?<!@bp\.)(?<!@api\.)(?:patch|put|post)\(")
_CURL_CHANGE = re.compile(r"\bcurl\b[^\n]*(?:-X\s*(?:POST|PUT|PATCH)|\s-d\s|--data)")
#: A device setting that names where it reports or connects (`"path1_ip": "198.51.100.140"`, `server=…`).
_QUOTED_ADDRESS = re.compile(r"[\"'](\d{1,3}(?:\.\d{1,3}){3})[\"']")
_ADDRESS_KEY = re.compile(
    r"(?<!\w)(?!\w*(?:dns|ntp|time|gateway|gw|mask|resolver))\w*(?:_ip|ip|host|server|addr|address)\d?[\"']?\s*[:=]\s*$",
    re.IGNORECASE,
)
_SET_PARAM = re.compile(r"/setparam\b")
_WORDS = GateWords("userLevel", "addUser", "Telnet", "RTSP", "ISAPI", "elnet", "irmware", "upgrade", "rtmp", "srt://")


def device_fleet_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to networked devices through their administration APIs."""
    found = fleet_guard_risks(text)
    if not _WORDS.any_in(text):
        return found
    if _ADMIN_ACCOUNT.search(text):
        what = "adds an administrator account to devices through their web API"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _OPENED_ACCESS.search(text):
        what = "switches telnet on, stream authentication or the firewall off, or sets a default password, on devices"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _FIRMWARE_PUSH.search(text) and any(outside_address(a) for a in _BARE_DOWNLOAD.findall(text)):
        what = "pushes firmware downloaded from a bare outside address to devices (what they run from then on)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if any(outside_address(a) for a in _STREAM_RELAY.findall(text)):
        what = "relays camera streams to a server at a bare outside address"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found


def _change_request(text: str) -> bool:
    """``text`` sends a change to a device (an HTTP POST, PUT or PATCH, a setConfig action)."""
    return (
        (".p" in text and _HTTP_CHANGE.search(text) is not None)
        or ("curl" in text and _CURL_CHANGE.search(text) is not None)
        or "action=setConfig" in text
        or ("/setparam" in text and _SET_PARAM.search(text) is not None)
    )


def fleet_guard_risks(text: str) -> list[OperationRisk]:
    """Access codes made trivial, or safety and lockout checks switched off, on each device a loop gives."""
    if not _change_request(text):
        return []
    trivial = _TRIVIAL_CODE.search(text)
    repointed = [
        m[1] for m in _QUOTED_ADDRESS.finditer(text)
        if outside_address(m[1]) and _ADDRESS_KEY.search(text, max(0, m.start() - 60), m.start())
    ]  # fmt: skip
    if repointed and each_item(text):
        what = f"points every device's reporting or uplink at an outside address ({repointed[0]})"
        return [OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)]
    if (_LIMIT_WORDS.any_in(text) or not text.isascii()) and _LIMITS_OFF.search(text):
        # one kiln, furnace or heater is enough: nothing stops it overheating
        what = "switches off a machine's over-temperature limit or automatic shut-off (nothing stops it overheating)"
        return [OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)]
    safety_off = (_SAFETY_WORDS.any_in(text) or not text.isascii()) and _SAFETY_OFF.search(text)
    if not (trivial or safety_off) or not each_item(text):
        return []
    what = (
        "sets every device's access code to a trivial value"
        if trivial
        else "switches off a safety, monitoring, recording or lockout check on every device a loop gives"
    )
    return [OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)]
