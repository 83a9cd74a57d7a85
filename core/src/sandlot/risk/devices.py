"""Commands sent to network devices and PBXs (shared by both analyzers).

Routers, switches and firewalls are driven with their own command languages through netmiko, PyEZ,
paramiko shells, expect scripts or ssh here-documents: ``write erase`` and ``request system
zeroize`` wipe them, ``no access-class`` and ``set system services telnet`` open their management to
the network, ``username x privilege 15`` or an EEM applet plants an administrator, ``no router bgp`` or a
shut port channel cuts everything behind the device off. The text sent is what counts, whatever carries it
(a Nornir task, a NAPALM candidate, RANCID's ``clogin -c``, Arista's eAPI, PAN-OS' XML API).
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_WIPE = re.compile(
    r"^\s*(?:write\s+erase|erase\s+(?:startup-config|nvram:|flash:|bootflash:)|format\s+(?:flash|bootflash|disk|usb)\S*"
    r"|delete\s+/force|request\s+system\s+(?:zeroize|storage\s+cleanup|halt|power-off)|fsctl\s+shutdown"
    r"|core\s+stop\b|hupall\b|execute\s+factoryreset|channel\s+request\s+hangup\s+all\b|hangup\s+request\s+all\b"
    # ASA's whole configuration cleared; RouterOS reset to defaults; an EOS switch's flash emptied from its bash
    r"|clear\s+configure\s+all\b|/system\s+reset-configuration\b"
    r"|bash\s+(?:timeout\s+\d+\s+)?(?:sudo\s+)?rm\s+-\w*r\w*\s+/mnt/flash\b)",
    re.IGNORECASE | re.MULTILINE,
)
_RELOAD = re.compile(
    r"^\s*(?:reload(?:\s+in\s+\d+)?(?:\s+reason\b[^\n]*)?|request\s+system\s+reboot)\s*(?:\\r|\\n)?\s*$", re.I | re.M
)
_COPY_OUT = re.compile(
    r"^\s*copy\s+(?:running|startup)-config\s+(?:tftp|ftp|scp|http|https)://", re.IGNORECASE | re.MULTILINE
)
_OPEN = re.compile(
    r"^\s*(?:no\s+access-class\b|no\s+ip\s+access-list\b|transport\s+input\s+(?:telnet|all)\b|ip\s+http\s+server\b"
    r"|set\s+system\s+services\s+(?:telnet|web-management\s+http)\b|delete\s+firewall\s+family\s+inet\s+filter\b"
    r"|delete\s+interfaces\s+lo0\s+unit\s+0\s+family\s+inet\s+filter|snmp-server\s+community\s+\S+\s+RW\b"
    r"|no\s+aaa\s+new-model\b|no\s+login\s*$|no\s+ip\s+access-group\b"
    # an ACL whose first line lets everything through; RouterOS' firewall emptied or its services opened to all;
    # FortiGate administrators trusted from any address
    r"|access-list\s+\S+\s+line\s+1\s+(?:extended\s+)?permit\s+ip\s+any\s+any\b"
    r"|/ip\s+firewall\s+filter\s+remove\s+\[\s*find\s*\]|/ip\s+service\s+set\s+[^\n;]*address=0\.0\.0\.0/0"
    r"|trusthost\d*\s+0\.0\.0\.0\s+0\.0\.0\.0\b"
    # OpenWrt: a radio without encryption (an open Wi-Fi network into the LAN)
    r"|uci\s+set\s+wireless\.\S+\.encryption=[\"']?none\b)",
    re.IGNORECASE | re.MULTILINE,
)
#: Routing torn down: a routing process or a router's policies removed, the default route sent to a null interface.
_ROUTING = re.compile(
    r"^\s*(?:no\s+router\s+(?:bgp|ospf|ospfv3|eigrp|isis|rip)\b|delete\s+protocols(?:\s+(?:bgp|ospf|ospf3|isis|mpls))?\s*$"
    r"|delete\s+policy-options\s*$|no\s+ip\s+route\s+0\.0\.0\.0\s+0\.0\.0\.0\b"
    r"|ip\s+route\s+0\.0\.0\.0\s+0\.0\.0\.0\s+Null0\b|set\s+routing-options\s+static\s+route\s+0\.0\.0\.0/0\s+discard"
    # FRR's spelling: the default route to a blackhole or a null interface
    r"|ip\s+route\s+0\.0\.0\.0/0\s+(?:blackhole|Null0|reject)\b)",
    re.IGNORECASE | re.MULTILINE,
)
#: An aggregate or uplink interface (a range, a port channel, a 10/40/100G port) shut down: the switch goes dark.
_UPLINK_DOWN = re.compile(
    r"^\s*interface\s+(?:range\b|port-channel|ten|forty|hundred|te\d|fo\d|hu\d|ae\d|bundle-ether)[^\n]*\n\s*shutdown\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_ADMIN = re.compile(
    r"^\s*(?:username\s+\S+\s+privilege\s+15\b|set\s+system\s+login\s+user\s+\S+\s+class\s+super-user\b"
    r"|event\s+manager\s+applet\b)|accprofile\W+super_admin",
    re.IGNORECASE | re.MULTILINE,
)


#: Remote commands of telematics platforms that stop, immobilise or open vehicles (or silence their alarms).
_VEHICLE_COMMAND = re.compile(
    r"STARTER_?DISABLE|immobili[sz]e|starter[_-]?disable|engine[_-]?(?:stop|disable|kill|cut)|fuel[_-]?cut"
    r"|door[_-]?unlock|unlock[_-]?(?:all[_-]?)?doors|disable[_-]?alarm|alarm[_-]?(?:off|disable)",
    re.IGNORECASE,
)


def force_disarm(text: str) -> bool:
    """``text`` sends MAVLink's arm/disarm command with the magic number that disarms even in flight (or MAVProxy's
    ``disarm force``)."""
    return (
        ("ARM_DISARM" in text and "21196" in text)
        or ("arm" in text and _MAVPROXY_DISARM.search(text) is not None)
        or "FLIGHTTERMINATION" in text  # MAV_CMD_DO_FLIGHTTERMINATION: motors cut, the vehicle falls
    )


_MAVPROXY_DISARM = re.compile(r"\bdisarm\s+force\b|\barm\s+throttle\s+force\b")


#: A device command's safety limits or interlocks overridden (`"override_limits": True`), sent to the devices.
_LIMITS_OVERRIDDEN = re.compile(r"[\"']?\b\w*(?:override|bypass|ignore|disable)_?(?:limits?|safety|interlocks?"
                                r"|thermal_?limits?)\w*[\"']?\s*[:=]\s*[\"']?(?:True|true|1|yes|on)\b")
_SENT_TO_DEVICES = re.compile(r"\.publish\(|\bmosquitto_pub\b|\.(?:post|put|patch)\(|\bcurl\b[^\n]*(?:-d|--data)")


def limits_overridden(text: str) -> bool:
    """``text`` sends devices a command with their safety limits or interlocks overridden (a dryer run at 95 °C
    with `"override_limits": True`): nothing stops the machine overheating or overrunning."""
    return (
        ("verride" in text or "ypass" in text or "gnore" in text or "isable" in text)
        and _LIMITS_OVERRIDDEN.search(text) is not None
        and _SENT_TO_DEVICES.search(text) is not None
    )


def safety_off(text: str) -> bool:
    """``text`` sets a drone's geofence, failsafes or pre-arm checks to 0 (``FENCE_ENABLE``, ``FS_GCS_ENABLE``,
    ``ARMING_CHECK``), turns a robot arm's joint limits off, or clears its protective stop and releases its brakes
    from a script: nothing keeps the machine in its area or stops it when something fails."""
    if "param" in text.lower() and _SAFETY_PARAM_OFF.search(text) is not None:
        return True
    if "limits" in text and _JOINT_LIMITS_OFF.search(text) is not None:
        return True
    if ("fence" in text or "collision" in text or "safety" in text) and _SAFETY_NODE_OFF.search(text) is not None:
        return True
    return "protective stop" in text and _ARM_UNLOCKED.search(text) is not None


#: ros2_control / MoveIt joint limits switched off (`has_velocity_limits: false`, `soft_limits: False`).
_JOINT_LIMITS_OFF = re.compile(
    r"has_(?:velocity|acceleration|effort|position)_limits[\"']?\]?\s*[:=]\s*(?:false|False)\b"
    r"|has_\(velocity\|acceleration\)_limits:\)[^\n]*\bfalse\b|[\"']soft_limits[\"']\s*:\s*False\b"
)
#: A Universal Robots arm's protective stop unlocked and its brakes released through the dashboard server.
_ARM_UNLOCKED = re.compile(r"unlock protective stop[\s\S]{0,300}brake release|brake release[\s\S]{0,300}unlock "
                           r"protective stop")  # fmt: skip


#: A robot's or drone's safety node switched off: nav2's collision monitor deactivated, a safety controller
#: bypassed, MAVProxy's `fence disable`.
_SAFETY_NODE_OFF = re.compile(
    r"lifecycle\s+set\s+/?\w*(?:collision|safety)\w*\s+(?:deactivate|shutdown|cleanup)"
    r"|/?\w*safety\w*/set_bypass\b|\bfence\s+disable\b"
)
_SAFETY_PARAM_OFF = re.compile(
    r"[\"']?\b(?:FENCE_ENABLE|FS_\w*_?ENABLE|ARMING_CHECK|FS_THR_ENABLE)\b[\"']?\s*[:,=\s]\s*0\b"
)


def transmits_on_protected_band(name: str, args: list[str]) -> bool:
    """A software radio told to transmit (``hackrf_transfer -t``) on aviation or satellite-navigation frequencies
    (ADS-B and transponders at 1090/1030 MHz, the 121.5 MHz distress channel, GPS L1 1575.42 MHz)."""
    if name != "hackrf_transfer" or "-t" not in args:
        return False
    frequencies = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "-f"]
    return any(_protected(f) for f in frequencies)


def _protected(value: str) -> bool:
    try:
        hz = float(value)
    except ValueError:
        return False
    return any(abs(hz - band) <= 2e6 for band in (1090e6, 1030e6, 121.5e6, 1575.42e6, 1227.6e6))


def vehicle_command(text: str) -> bool:
    """``text`` (a request body, an MQTT message) tells vehicles to stop, be immobilised or unlock."""
    return bool(_VEHICLE_COMMAND.search(text))


def places_calls(text: str) -> bool:
    """``text`` is a PBX command or an AMI action that dials out (``channel originate``, ``Action: Originate``)."""
    return _ORIGINATE.search(text) is not None


_ORIGINATE = re.compile(r"\b(?:channel\s+originate|originate\s+[\w{]|Action:\s*Originate)\b", re.IGNORECASE)


def forwards_calls_abroad(text: str) -> bool:
    """``text`` (PBX console commands) sets an extension's call forwarding to an international number."""
    return _FORWARD_ABROAD.search(text) is not None


def dialplan_risk(text: str) -> str | None:
    """What an Asterisk dialplan ``text`` spells lets callers do: dial whatever number they give back out through
    a trunk from an inbound context (calls the PBX pays for: toll fraud), or run shell commands from the digits
    they dial or from a download (``System()``)."""
    if _INBOUND_RELAY.search(text):
        return "rewrites the dialplan so that inbound calls are dialled back out through the trunk (toll fraud)"
    if _DIALPLAN_SHELL.search(text):
        return "adds a dialplan step that runs shell commands a caller dials or a server sends (System())"
    return None


#: Asterisk's call-forward database families (all calls, busy, unanswered) set to an international number.
_FORWARD_ABROAD = re.compile(r"\bdatabase\s+put\s+CF[BU]?\s+\S+\s+(?:00|\+)\d{6,}", re.IGNORECASE)
_DIALPLAN_SHELL = re.compile(r"\b(?:Try)?System\([^)\n]*(?:\$\{EXTEN|\|\s*(?:ba)?sh\b|\bcurl\b|\bwget\b|bash\s+-c)")
_INBOUND_RELAY = re.compile(
    r"\[from-(?:external|trunk|pstn|did|inbound|carrier)[\w-]*\][^\[]{0,300}?exten\s*=>\s*_[XNZ0-9.!\[\]-]*[.!]\s*,"
    r"[^\[]{0,300}?Dial\([^)\n]*\$\{EXTEN\}@",
    re.IGNORECASE,
)


def device_commands_risk(text: str) -> OperationRisk | None:
    """The risk of configuration or exec commands ``text`` sent to a network device or a PBX console."""
    if _WIPE.search(text):
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "wipes, zeroizes or stops a network device or PBX")
    if _COPY_OUT.search(text):
        return OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                             "copies a device's configuration (its passwords and keys) to another host")  # fmt: skip
    if _ADMIN.search(text):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                             "plants an administrator (or a script running as one) on a network device")  # fmt: skip
    if _OPEN.search(text):
        return OperationRisk(
            RiskLevel.HIGH, Category.NETWORK,
            "opens a network device to the network (ACLs removed, telnet or HTTP on, Wi-Fi without encryption)",
        )  # fmt: skip
    if _ROUTING.search(text):
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                             "tears down a network device's routing (a routing process or its policies removed, "
                             "the default route sent nowhere)")  # fmt: skip
    if _UPLINK_DOWN.search(text):
        what = "shuts down a device's uplinks or port channels (everything behind it is cut off)"
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)
    if _RELOAD.search(text):
        return OperationRisk(RiskLevel.MEDIUM, Category.PROCESS, "reboots a network device")
    return None


#: Libraries and tools that carry commands to devices (a module using none of them sends nothing).
DEVICE_LIBRARIES = re.compile(r"\b(?:netmiko|napalm|jnpr|ncclient|paramiko|ESL|pexpect|telnetlib|scrapli)\b|\bnornir")

#: Methods that send command text to a device.
DEVICE_SEND_METHODS = frozenset(
    {"send_config_set", "send_command", "send_command_timing", "send_multiline", "send_config_from_file", "send",
     "sendline", "load", "cli", "api", "write", "send_configs", "load_merge_candidate", "load_replace_candidate"}
)  # fmt: skip


#: A Tasmota device told where to fetch its firmware (``OtaUrl``) and to flash it (``Upgrade 1``).
_OTA_URL = re.compile(r"OtaUrl(?:%20|\s|\+)+(?P<url>https?://[^\s;&'\"%]+)", re.IGNORECASE)
_UPGRADE = re.compile(r"Upgrade(?:%20|\s|\+)+1\b", re.IGNORECASE)
_OWN_FIRMWARE_HOST = re.compile(
    r"^https?://(?:ota\.tasmota\.com|localhost|127\.|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|[\w-]+\.local\b"
    r"|[\w-]+(?:[:/]|$))",
    re.IGNORECASE,
)


def foreign_firmware(text: str) -> str | None:
    """The firmware server ``text`` points devices at and has them flash from, when it is neither the vendor's
    nor on the local network (an unknown server's image runs on every device)."""
    url = _OTA_URL.search(text)
    if url is None or not _UPGRADE.search(text) or _OWN_FIRMWARE_HOST.match(url["url"]):
        return None
    return url["url"]


#: A charger (OCPP) or a device fleet told to install firmware from a plain-HTTP address, or without its signature
#: checked.
_FIRMWARE_PUSH = re.compile(r"UpdateFirmware|update[-_]firmware|firmware[-_]update", re.IGNORECASE)
_UNVERIFIED_IMAGE = re.compile(
    r"[\"'](?:location|url)[\"']\s*:\s*[\"']http://(?!localhost|127\.|10\.|192\.168\.)"
    r"|skip_?signature(?:_?(?:check|verification))?[\"']?\s*[:=]\s*(?:True|true|1)"
)
#: Chargers told to start sessions without authorising who plugs in (free charging for anyone).
_CHARGING_UNAUTHORISED = re.compile(
    r"AuthorizeRemoteTxRequests(?:\W{1,6}value)?\W{1,6}false|FreeVendEnabled(?:\W{1,6}value)?\W{1,6}true"
    r"|AllowOfflineTxForUnknownId(?:\W{1,6}value)?\W{1,6}true",
    re.IGNORECASE,
)


def unverified_firmware_push(text: str) -> bool:
    """``text`` has chargers or devices install firmware from a plain-HTTP address or skip its signature check."""
    if "irmware" not in text and "IRMWARE" not in text:
        return False
    return _FIRMWARE_PUSH.search(text) is not None and _UNVERIFIED_IMAGE.search(text) is not None


def charging_unauthorised(text: str) -> bool:
    """``text`` turns off chargers' authorisation (OCPP ``AuthorizeRemoteTxRequests``, free vend)."""
    return ("Tx" in text or "Vend" in text) and _CHARGING_UNAUTHORISED.search(text) is not None


#: Machines that heat, cut or move (printers, CNC, lasers) told to drop their safeguards.
_LIMITS_OFF = re.compile(r"\$2[012]\s*=\s*0\b")
_BEAM_ON = re.compile(r"(?<![A-Z0-9])M[34]\s*S\d{3,}")  # (after a `\n` escape too)
_THERMAL_GUARD_OFF = re.compile(
    r"verify_heater[^\n]{0,80}(?:re\.sub|replace|\bsed\b|#)|(?:re\.sub|replace|\bsed\b)[^\n]{0,80}verify_heater"
    r"|//\s*#define\s+THERMAL_PROTECTION_|\bmax_temp\s*[:=]\s*(?:3[5-9]\d|[4-9]\d\d)\b",
    re.IGNORECASE,
)
_FACTORY_RESET = re.compile(r"\bM502\b[\s\S]{0,40}\bM500\b")
_EVERY_HOST = re.compile(r"\bfor\s+\w+\s+in\b|\{\d+\.\.\d+\}|\bxargs\b|\bwhile\s+read\b")


def every_device(text: str) -> bool:
    """``text`` repeats its commands for each host of a list (a loop, a brace range, xargs)."""
    return _EVERY_HOST.search(text) is not None
_SHODAN_TARGETS = re.compile(r"\bshodan\b[\s\S]*\bip_str\b", re.IGNORECASE)
_SENDS_COMMANDS = re.compile(r"\.(?:post|put|send|write)\(|curl\s+[^\n]*-X\s*P|\bnc\b")
_AUTOLOGIN_EVERYWHERE = re.compile(r"autologinLocal[\s\S]{0,300}(?:0\.0\.0\.0/0|::/0)|(?:0\.0\.0\.0/0|::/0)"
                                   r"[\s\S]{0,300}autologinLocal")


def machine_risks(text: str) -> list[OperationRisk]:
    """3D printers, CNC machines and lasers: safeguards dropped, calibration wiped across a farm, other people's
    machines found on Shodan and commanded, a printer server logging everyone in."""
    found = []
    if _LIMITS_OFF.search(text) and _BEAM_ON.search(text):
        what = "turns a machine's limits or homing off and fires its laser or spindle"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if _THERMAL_GUARD_OFF.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                   "removes a printer's thermal-runaway protection or raises its heater past the "
                                   "hardware's limit (a fire risk)"))  # fmt: skip
    if _FACTORY_RESET.search(text) and _EVERY_HOST.search(text):
        what = "factory-resets and saves every printer's EEPROM (their calibration is lost)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _SHODAN_TARGETS.search(text) and _SENDS_COMMANDS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "sends commands to other people's machines found through Shodan"))  # fmt: skip
    if _AUTOLOGIN_EVERYWHERE.search(text):
        what = "logs in anyone from any network automatically (OctoPrint's autologin)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found


#: cangen with no gap between frames (``-g 0``) on a bus that is not a virtual one (``vcan0``).
_CAN_FLOOD = re.compile(r"\bcangen\s+(?![\"']?vcan)[^\n]*?-g\s*0(?:\.0*)?(?:\s|$)")
#: UDS SecurityAccess keys tried one after another until the ECU unlocks (a brute force).
_SEED_KEY = re.compile(r"\bsend_key\b|\bsecurity_?access\b|\bSecurityAccess\b|\b27\s*0?[2468]\b")
_KEY_SPACE = re.compile(r"itertools\.product\(|\bproduct\(\s*range\(|range\(\s*(?:0x10000|65536|0x100000000)"
                        r"|\$\(seq\s+0\s+(?:65535|0x[fF]{4})\)|\{0\.\.65535\}")


#: NMEA sentences that steer an autopilot (track and heading commands), sent onto a ship's network or port.
_STEERING_SENTENCE = re.compile(r"[$!]?(?:GP|II|EC|IN)?(?:APB|RMB|XTE|HSC|ROR|RSA|HTC),")
_SENDS_SENTENCES = re.compile(r"\.sendto\(|\.send\(|\.write\(|SO_BROADCAST|\bsocat\b|\bnc\b")


_KEY_SPACE_WORDS = GateWords("product(", "0x10000", "65536", "0x100000000", "seq 0", "{0..65535}")


def vehicle_bus_risks(text: str) -> list[OperationRisk]:
    """A vehicle's CAN bus flooded (its ECUs starved of the bus), an ECU's security access brute-forced, a
    ship's autopilot sent steering sentences."""
    found = []
    steering = any(w in text for w in ("APB,", "RMB,", "XTE,", "HSC,", "ROR,", "RSA,", "HTC,"))
    if steering and _STEERING_SENTENCE.search(text) and _SENDS_SENTENCES.search(text):
        what = "sends autopilot steering sentences (NMEA track or heading commands) onto a vessel's network"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if "cangen" in text and _CAN_FLOOD.search(text):
        what = "floods a CAN bus with frames back to back (the vehicle's own ECUs cannot transmit)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if _KEY_SPACE_WORDS.any_in(text) and _KEY_SPACE.search(text) and _SEED_KEY.search(text):
        what = "tries security-access keys one after another until an ECU unlocks (a brute force)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found


#: PAN-OS' XML API told to delete a firewall's rulebase (or a part of it).
_RULEBASE_DELETE = re.compile(r"action=delete\b[\s\S]{0,600}rulebase|rulebase[\s\S]{0,600}action=delete\b")
#: The command list of a JSON-RPC call to Arista's eAPI (`"cmds": ["enable", "bash …"]`).
_EAPI_COMMANDS = re.compile(r"[\"']cmds[\"']\s*:\s*\[([^\]]*)\]")
#: A device told to boot another software image.
_BOOT_IMAGE = re.compile(r"^\s*(?:boot\s+system\s+\S|request\s+system\s+software\s+add\b)", re.I | re.M)
#: An image fetched over the internet (not from the local network or the vendor's own site).
_FOREIGN_DOWNLOAD = re.compile(
    r"(?:curl|wget|urlretrieve|requests\.get|fetch)\b[^\n]*?https?://(?!(?:localhost|127\.|10\.|192\.168\."
    r"|172\.(?:1[6-9]|2\d|3[01])\.|[\w.-]*\b(?:cisco|juniper|arista|paloaltonetworks|fortinet)\.com\b))"
    r"(?P<host>[\w.-]+\.[a-z]{2,})",
    re.IGNORECASE,
)


def device_api_risks(text: str) -> list[OperationRisk]:
    """Firewalls' and switches' HTTP APIs told to delete their rules or run destructive commands, and devices
    booted from an image downloaded from a stranger's server."""
    found = []
    if "rulebase" in text and _RULEBASE_DELETE.search(text):
        what = "deletes a firewall's security rules through its API"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if "cmds" in text:
        commands = "\n".join(
            command for block in _EAPI_COMMANDS.findall(text) for command in re.findall(r"[\"']([^\"']+)[\"']", block)
        )
        risk = device_commands_risk(commands) if commands else None
        if risk is not None:
            found.append(risk)
    if "boot" in text or "software" in text:
        download = _FOREIGN_DOWNLOAD.search(text) if _BOOT_IMAGE.search(text) else None
        if download is not None:
            what = f"boots network devices from a software image downloaded from {download['host']}"
            found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    return found


#: RouterOS fetching a script from a bare address and importing (running) it.
_ROUTER_FETCH = re.compile(r"/tool\s+fetch\b[^\n]*?url=\\?[\"']?(?:https?|ftp)://(\d{1,3}(?:\.\d{1,3}){3})")
#: A NETCONF edit deleting a whole top-level hierarchy of a router's configuration.
_NETCONF_DELETE = re.compile(
    r"<(interfaces|protocols|routing-options|firewall|system|policy-options|security)\s+"
    r"(?:\w+:)?operation=\\?[\"'](?:delete|remove)\\?[\"']"
)
#: BIRD exporting every route to a peer (`filter x { accept; }` used for export, `export all;`).
_ACCEPT_ALL_FILTER = re.compile(r"\bfilter\s+(\w+)\s*\{\s*accept\s*;\s*\}")
#: More-specific routes of a prefix list generated and announced (ExaBGP's `announce route`).
_BULK_ANNOUNCE = re.compile(r"\.subnets\(\s*(?:new_prefix\s*=\s*)?\d+[\s\S]{0,300}?announce\s+route\b")


def router_text_risks(text: str) -> list[OperationRisk]:
    """Routers told to run a downloaded script on a schedule, to delete a whole part of their configuration, to
    leak every route to a peer, or to announce more-specific routes of prefixes generated in bulk."""
    found = []
    fetched = [ip for ip in _ROUTER_FETCH.findall(text) if outside_address(ip)] if "fetch" in text else []
    if fetched and "/import" in text:
        what = f"has a router fetch a script from an outside address ({fetched[0]}) and run it"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    removed = _NETCONF_DELETE.search(text) if "operation=" in text else None
    if removed is not None:
        what = f"deletes a router's whole {removed[1]} configuration (NETCONF)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if "accept" in text and any(
        re.search(rf"\bexport\s+filter\s+{name}\b", text) for name in _ACCEPT_ALL_FILTER.findall(text)
    ):
        what = "exports every route to a BGP peer through an accept-everything filter (a route leak)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if "announce" in text and _BULK_ANNOUNCE.search(text):
        what = "announces more-specific routes generated from a prefix list (a BGP hijack of those prefixes)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    return found

