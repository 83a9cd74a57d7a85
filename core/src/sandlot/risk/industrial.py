"""Industrial and building control: PLCs, drives, OPC UA and BACnet servers (shared by both analyzers).

On a plant or a building network a write is a physical act: a Modbus coil turns a pump off, a holding
register is a drive's speed or a boiler's set-point, an S7 CPU put in STOP halts the line, an OPC UA
``…_Enable`` node written ``False`` silences an alarm, a BACnet write at priority 1 overrides every
operator. Reads (polling, dashboards) are harmless, and so are writes to a simulator on this machine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.gate_words import GateWords

#: Python libraries that talk to field devices (a cheap gate: lower-case names).
FIELD_LIBRARIES = GateWords("pymodbus", "snap7", "asyncua", "opcua", "bac0", "bacpypes", "pycomm3", "pylogix", "cpppo",
                            "minimalmodbus", "umodbus", "pymodbustcp", ignore_case=True)  # fmt: skip
#: Methods of those libraries that change what a device does.
FIELD_WRITES = frozenset(
    {"write_coil", "write_coils", "write_register", "write_registers", "plc_stop", "plc_cold_start",
     "plc_hot_start", "db_write", "write_area", "as_db_write", "mb_write", "write_multiple_coils",
     "write_multiple_registers", "write_single_coil", "write_single_register", "set_value", "write_value",
     "write_attribute_value", "write_attributes", "write_bit", "write_float", "write_long"}
)  # fmt: skip
#: BAC0's ``write("addr obj inst presentValue value - priority")``, pylogix/pycomm3 ``Write``/``write``.
_BACNET_WRITE = re.compile(r"presentValue\s+\S+(?:\s+-\s+\d+)?")
#: Signs that the device is a simulator or a lab bench on this machine.
_LOCAL_DEVICE = re.compile(r"localhost|127\.0\.0\.1|\bsimulat\w*|\bsoft-?plc\b|\blab\b|\btest(?:bench)?\b", re.I)
_PRODUCTION = re.compile(r"(?<![a-z])prod(?:uction)?(?![a-z])|\bplant\b|\blive\b", re.I)


def local_devices(source: str) -> bool:
    """The code drives a simulator or a bench device on this machine, and names no plant or production one."""
    return bool(_LOCAL_DEVICE.search(source)) and not _PRODUCTION.search(source) and not re.search(
        r"\b(?:10|172\.(?:1[6-9]|2\d|3[01])|192\.168)\.\d+\.\d+", source
    )


def field_write(method: str, call_source: str) -> bool:
    """A call that changes a field device: a coil, a register, a CPU's run state, a node's value."""
    if method in FIELD_WRITES:
        return True
    return method in ("write", "Write") and bool(_BACNET_WRITE.search(call_source) or "Write(" in call_source)


def field_command(name: str, args: Sequence[str]) -> bool:
    """``mbpoll``/``modpoll`` given values after the device (a write of coils or registers), BACnet's
    ``bacwp``."""
    if name in ("bacwp", "bacwpm"):
        return True  # bacnet-stack's write-property tools: every call is a write
    if name not in ("mbpoll", "modpoll"):
        return False
    valued = {"-m", "-a", "-t", "-r", "-c", "-p", "-b", "-d", "-s", "-P", "-o", "-l"}
    operands = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in valued:
            skip = True
        elif not arg.startswith("-"):
            operands.append(arg)
    return len(operands) >= 2  # the device, then the values written to it


#: Modbus/TCP spoken by hand: an MBAP header packed (`struct.pack(">HHHB", …)`) for a connection to port 502...
_MBAP_HEADER = re.compile(r"struct\.pack\(\s*[\"']>HHHB")
_MODBUS_PORT = re.compile(r",\s*502\s*\)|:502\b|\bport\s*=\s*502\b")
#: ...with a write function code among a call's arguments (5 and 15 coils, 6 and 16 registers).
_WRITE_FUNCTION = re.compile(r"\([^()\n]*,\s*(?:0x0?[56]|0x0[fF]|0x10|5|6|15|16)\s*,[^()\n]*\)")


def raw_modbus_write(text: str) -> bool:
    """``text`` builds Modbus/TCP frames itself and sends a write (coils or registers of a PLC)."""
    return "502" in text and bool(_MBAP_HEADER.search(text)) and bool(_MODBUS_PORT.search(text)) and bool(
        _WRITE_FUNCTION.search(text)
    )

