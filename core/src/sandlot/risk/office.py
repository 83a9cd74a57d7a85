"""Office documents and their automation turned against their readers (shared by both analyzers, judged on the
whole text: Python driving Excel or LibreOffice, registry and profile edits, CSV files written for colleagues).

Office files run code in two ways a reviewer must see: macros (VBA, LibreOffice Basic or Python) and formulas
(DDE, ``WEBSERVICE``, ``IMPORTDATA``). What needs approval:

* macro protection lowered: Office's ``VBAWarnings`` and ``AccessVBOM``, Protected View switched off, Excel's
  ``AutomationSecurity`` set to run every macro silently, LibreOffice's macro security level 0;
* macros planted or injected: VBA added to a workbook from code fetched at run time, a workbook saved into
  ``XLSTART`` (opened with every Excel start), auto-run macros that start a shell;
* formulas written into exports that run commands (``=cmd|' /C …'!A0``) or send cells to a web address when a
  colleague opens the file;
* LibreOffice's remote-control (UNO) socket opened on every interface: whoever connects drives it, macros included.

Reports written with openpyxl, conversions with ``soffice --headless --convert-to`` and formulas that only compute
are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Words without which no rule here matches (a cheap test first).
_WORDS = GateWords("VBAWarnings", "AccessVBOM", "ProtectedView", "InPV", "AutomationSecurity", "MacroSecurityLevel",
                   "DisableMacrosExecution", "VBComponents", "XLSTART", "Workbook_Open", "Document_Open", "Auto_Open",
                   "cmd|", "WEBSERVICE", "IMPORTDATA", "IMPORTXML", "DDE", "socket,host")  # fmt: skip

_MACROS_UNLOCKED = re.compile(
    # Office's trust settings in the registry (`reg add … /v VBAWarnings /d 1`, winreg's SetValueEx(k, "VBAWarnings",
    # 0, REG_DWORD, 1)); a loop over the Protected View switches counts through their names
    r"\b(?:VBAWarnings|AccessVBOM)\b[\s\S]{0,80}?(?:/d\s+1\b|REG_DWORD,\s*1\b|-Value\s+1\b)"
    r"|\bDisable(?:InternetFiles|Attachements|Attachments|UnsafeLocations)InPV\b"
    # Excel driven with every macro of every file it opens allowed (msoAutomationSecurityLow)
    r"|\.AutomationSecurity\s*=\s*1\b"
    # LibreOffice: macro security "Low", or macros switched back on
    r"|MacroSecurityLevel[\s\S]{0,120}?<value>0</value>|DisableMacrosExecution[\s\S]{0,120}?<value>false</value>",
)
_MACRO_INJECTED = re.compile(r"\.VBComponents\b[\s\S]{0,300}?\.(?:AddFromString|AddFromFile)\(")
_FETCHES = re.compile(r"\b(?:requests\.get|urlopen|httpx\.get|Invoke-WebRequest|iwr|curl|wget)\b|https?://")
_AUTORUN_SHELL = re.compile(
    r"\b(?:Workbook_Open|Document_Open|Auto_Open|AutoOpen)\b[\s\S]{0,400}?\b(?:Shell|WScript\.Shell|powershell)\b",
    re.IGNORECASE,
)
_STARTUP_WORKBOOK = re.compile(r"XLSTART|PERSONAL\.XLSB", re.IGNORECASE)
#: Formulas that run a command (DDE) or send cells to a web address when the sheet is opened.
_ACTIVE_FORMULA = re.compile(
    r"[=@+-](?:cmd|msexcel|excel)\s*\|\s*'|[=@]\s*DDE\s*\("
    r"|=\s*(?:WEBSERVICE|IMPORTDATA|IMPORTXML|IMPORTHTML|IMAGE)\s*\(\s*\"https?://[^\"]*\"\s*&",
    re.IGNORECASE,
)
_UNO_EVERYWHERE = re.compile(r"--accept=[\"']?socket,host=(?:0\.0\.0\.0|\*|::)\b")


def office_text_risks(text: str) -> list[OperationRisk]:
    """Macro protection lowered, macros planted, active formulas written, LibreOffice opened to the network."""
    if not _WORDS.any_in(text):
        return []
    found: list[OperationRisk] = []
    if _MACROS_UNLOCKED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "turns off Office's macro protection (every document's macros run, unasked)"))
    injected = _MACRO_INJECTED.search(text) is not None
    if (injected and (_FETCHES.search(text) or _STARTUP_WORKBOOK.search(text))) or _AUTORUN_SHELL.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "plants a macro that runs fetched code or a shell (at once or whenever the "
                                   "document or Excel opens)"))  # fmt: skip
    if _ACTIVE_FORMULA.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                   "writes spreadsheet formulas that run a command or send cells to a web address "
                                   "when the file is opened"))  # fmt: skip
    if _UNO_EVERYWHERE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                                   "opens LibreOffice's remote-control socket on every interface (whoever connects "
                                   "runs macros and reads files)"))  # fmt: skip
    return found
