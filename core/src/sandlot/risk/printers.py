"""Printers, print servers and scanners: PJL and PostScript sent to port 9100, CUPS queues, MFP web settings
(shared by both analyzers).

A printer runs what it is sent: PJL reformats or reads its disk, PostScript with ``exitserver`` changes every
later job until it is power-cycled, a job without a timeout spins for ever. A print server's queues are shared by
everyone in the building, and a scanner sends what it scans wherever its profile says. What needs a careful
reviewer:

* a printer's storage reinitialised or deleted, its stored jobs read off its disk;
* its persistent state changed (``exitserver``), or a job that never ends;
* every queue of a print server deleted, hundreds of copies queued in a loop;
* a scan-to-folder profile pointed at an outside address, a driver installed from a network share;
* CUPS administration opened to the network.

Status queries (``@PJL INFO STATUS``), test pages and queue settings are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Print-server tools :func:`print_command` reads.
PRINT_TOOLS = frozenset({"lp", "lpr", "lpadmin", "cupsctl"})

_PJL_WIPE = re.compile(r"\bFS(?:INIT|DELETE)\b")
_PJL_UPLOAD = re.compile(r"\bFSUPLOAD\b")
_EXITSERVER = re.compile(r"serverdict\s+begin\s+0\s+exitserver\b|\btrue\s+0\s+startjob\b")
_ENDLESS_JOB = re.compile(r"setjobtimeout[\s\S]{0,200}\}\s*loop\b|\}\s*loop\b[\s\S]{0,200}setjobtimeout")
#: A driver installed with one of its files on another machine's share (a UNC path).
_REMOTE_DRIVER = re.compile(
    r"AddPrinterDriverEx\w*[\s\S]{0,600}\\{2,}[\w.-]+\\+|\\{2,}[\w.-]+\\+[\s\S]{0,600}AddPrinterDriverEx"
)
_SCAN_PROFILE = re.compile(r"scan", re.IGNORECASE)
#: The host of a UNC path or of an SMB destination setting.
_UNC_HOST = re.compile(
    r"\\{2,}(\d{1,3}(?:\.\d{1,3}){3})\\+|smb_?(?:Host|server)\W{1,6}(\d{1,3}(?:\.\d{1,3}){3})", re.IGNORECASE
)
#: pycups queueing hundreds of copies per job, from a loop.
_COPIES_FLOOD = re.compile(r"\bprintFiles?\([\s\S]{0,200}[\"']copies[\"']\s*:\s*[\"']?[1-9]\d{2,}")
_PRINTER_WORDS = GateWords("@PJL", "@pjl", "exitserver", "startjob", "setjobtimeout", "AddPrinterDriver", "smb",
                           '\\\\', "printFile")  # fmt: skip


def printer_risks(text: str) -> list[OperationRisk]:
    """What PJL, PostScript or a device's settings in ``text`` do to printers and scanners."""
    if not _PRINTER_WORDS.any_in(text):
        return []
    found = []
    pjl = "@PJL" in text or "@pjl" in text
    if pjl and _PJL_WIPE.search(text):
        what = "reinitialises or deletes a printer's storage (PJL FSINIT/FSDELETE: stored jobs, fonts, forms)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if pjl and _PJL_UPLOAD.search(text):
        what = "copies files off a printer's disk (PJL FSUPLOAD: stored and held jobs)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _EXITSERVER.search(text):
        what = "changes a printer's persistent state with PostScript exitserver (every later job is affected)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    elif _ENDLESS_JOB.search(text):
        what = "sends a PostScript job with its timeout off that never ends (the printer hangs)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if "AddPrinterDriver" in text and _REMOTE_DRIVER.search(text):
        what = "installs a printer driver whose files come from a network share (code loaded by the spooler as SYSTEM)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "printFile" in text and _COPIES_FLOOD.search(text) and re.search(r"\bfor\s+\w+\s+in\b", text):
        what = "queues hundreds of copies on printers from a loop (paper, toner and the queues exhausted)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if _SCAN_PROFILE.search(text):
        hosts = [a or b for a, b in _UNC_HOST.findall(text)]
        if any(outside_address(h) for h in hosts):
            what = "points a scanner's destination at a share on an outside address (every scan is sent there)"
            found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found


def print_command(name: str, args: Sequence[str], *, repeated: bool, endless: bool) -> OperationRisk | None:
    """The risk of one CUPS command line (``repeated``: once per item of a loop or listing; ``endless``: in a
    loop that never ends)."""
    if name == "lpadmin" and "-x" in args:
        if repeated:
            what = "lpadmin deletes every print queue a listing gives (nobody can print)"
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
        return OperationRisk(RiskLevel.MEDIUM, Category.FILESYSTEM, "lpadmin deletes a print queue")
    if name == "cupsctl" and any(a in ("--remote-admin", "--remote-any") for a in args):
        what = "cupsctl opens the print server's administration (or its queues) to the network"
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)
    if name in ("lp", "lpr"):
        copies = [a[2:] or (args[i + 1] if i + 1 < len(args) else "") for i, a in enumerate(args)
                  if a in ("-n", "-#") or (a.startswith(("-n", "-#")) and a[2:].isdigit())]  # fmt: skip
        many = any(c.isdigit() and int(c) >= 100 for c in copies)
        if (many and repeated) or endless:
            what = f"{name} queues " + ("jobs without end" if endless else "hundreds of copies on every queue")
            return OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what + " (paper, toner and the queue exhausted)")
    return None
