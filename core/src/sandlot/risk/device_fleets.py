"""Fleets of networked devices administered over their web APIs: cameras, recorders, embedded controllers
(shared by both analyzers, judged on the whole text).

Cameras and recorders answer HTTP APIs (ISAPI, CGI) with an administrator's rights, and what is sent to one is
usually sent to every one of a list. What needs a careful reviewer:

* an administrator account added to devices, telnet switched on or stream authentication off;
* firmware downloaded from a bare address pushed to devices;
* camera streams relayed to a server at a bare outside address.

Reading a device's status, rebooting one and pulling its snapshots for the company's own recorder are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.model import Category, RiskLevel

_ADMIN_ACCOUNT = re.compile(
    r"<userLevel>\s*Administrator\s*</userLevel>|userManager\.cgi\?action=addUser[^\s\"']*user\.Group=admin"
    r"|[\"']?(?:userLevel|user_level|group|role)[\"']?\s*[:=]\s*[\"']?(?:Administrator|admin)[\"']?[^\n]{0,200}/(?:users|addUser)",
    re.IGNORECASE,
)
_OPENED_ACCESS = re.compile(
    r"Telnet\.Enable[\"']?\s*[:=]\s*[\"']?true|RTSP\.Authentication[\"']?\s*[:=]\s*[\"']?false"
    r"|telnet_?enable[\"']?\s*[:=]\s*[\"']?(?:true|1)\b|Network\.FirewallEnable[\"']?\s*[:=]\s*[\"']?false",
    re.IGNORECASE,
)
_FIRMWARE_PUSH = re.compile(r"updateFirmware|firmware[/_-]?(?:upload|upgrade|update)|/upgrade\.cgi", re.IGNORECASE)
_BARE_DOWNLOAD = re.compile(r"(?:requests\.get\(|urlopen\(|\bcurl\b[^\n]*|\bwget\b[^\n]*)[\"' ]*\w+://(\d{1,3}(?:\.\d{1,3}){3})")
_STREAM_RELAY = re.compile(r"-i\s+[\"']?(?:rtsp|\$)[^\n]*\s[\"']?(?:rtmps?|srt)://(\d{1,3}(?:\.\d{1,3}){3})")
_WORDS = ("userLevel", "addUser", "Telnet", "RTSP", "elnet", "irmware", "upgrade", "rtmp", "srt://")


def device_fleet_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to networked devices through their administration APIs."""
    if not any(word in text for word in _WORDS):
        return []
    found = []
    if _ADMIN_ACCOUNT.search(text):
        what = "adds an administrator account to devices through their web API"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _OPENED_ACCESS.search(text):
        what = "switches telnet on, stream authentication or the firewall off on devices"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _FIRMWARE_PUSH.search(text) and any(outside_address(a) for a in _BARE_DOWNLOAD.findall(text)):
        what = "pushes firmware downloaded from a bare outside address to devices (what they run from then on)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if any(outside_address(a) for a in _STREAM_RELAY.findall(text)):
        what = "relays camera streams to a server at a bare outside address"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found
