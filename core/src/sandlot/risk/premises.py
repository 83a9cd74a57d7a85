"""Physical security systems driven over HTTP: door controllers, alarm panels, cameras (shared by both
analyzers).

Their APIs say in their own words what opens a building: a door's mode set to ``unlocked`` (or an
override that holds it open), an alarm area disarmed or its zones bypassed. A camera's snapshot or
stream is footage of people: sent anywhere, it is their images leaving.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel

_DOOR_PATH = re.compile(r"/(?:doors?|locks?|smartlocks?|gates?)(?:/|\b)", re.IGNORECASE)
_UNLOCKED = re.compile(r"\bunlock(?:ed)?\b|\bopen(?:ed)?\b|\bfree_?access\b|\bpassage\b", re.IGNORECASE)
_ALARM_OFF = re.compile(r"/disarm\b|/bypass\b|SecurityCP/control/(?:disarm|bypass)|/zones?/\S*/bypass", re.IGNORECASE)
#: Where a camera (or an NVR) hands out a still image or a stream.
CAMERA_IMAGE = re.compile(
    r"snapshot\.cgi|/snapshot(?:\.jpg)?\b|/webcam/\?action=snapshot|/ISAPI/Streaming/channels/\S*/picture|/cgi-bin/\S*(?:snap|jpg)|^rtsp://"
    r"|/api/\S*/latest\.jpg|/api/events/\S*/(?:clip|snapshot)|/api/camera_proxy(?:_stream)?/",
    re.IGNORECASE,
)


def premises_request(method: str, url: str, body: str) -> OperationRisk | None:
    """What an HTTP call does to a building's doors or alarm (None: nothing this module knows)."""
    if method.upper() in ("POST", "PUT", "PATCH") and _DOOR_PATH.search(url) and _UNLOCKED.search(f"{url} {body}"):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "unlocks doors of a building (anyone can walk in)")
    if method.upper() in ("POST", "PUT", "PATCH") and _ALARM_OFF.search(url):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "disarms an alarm or bypasses its zones")
    return None
