"""Quality and safety records falsified in place (shared by both analyzers, judged on the whole text).

Food plants, labs, workshops and drop zones keep the records that decide what may be sold, flown or used:
a lot's pathogen tests, a reserve parachute's repack date, an appliance's last inspection. A script that
sets the failed tests of held lots to a pass, or stamps every overdue inspection as done today, releases
what should stay on hold without anyone having tested or inspected it; so does a log whose alarm entries are
rewritten as OK. An ordinary records job writes the
result of one test it just ran, or the date of one service that was done; it does not pick the failing or
overdue rows and overwrite their verdict with a constant.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

_RECORD_WORDS = GateWords("update", "ALARM", "FAIL", "POSITIVE", ignore_case=True)
#: Alarm or failure entries of a log rewritten as normal (`sed -i 's/,ALARM$/,OK/'`, `.replace("FAIL", "PASS")`).
_ALARM_REWRITTEN = re.compile(
    r"\bs(?P<sep>[/|#])[^\n]*?\b(?:ALARM|FAIL(?:ED)?|POSITIVE|OUT_OF_RANGE)\b[^\n]*?(?P=sep)[^\n]*?"
    r"\b(?:OK|PASS(?:ED)?|NORMAL|NEGATIVE|IN_RANGE)\b[^\n]*?(?P=sep)"
    r"|\.replace\(\s*[\"'][^\"'\n]*\b(?:ALARM|FAIL(?:ED)?|POSITIVE)\b[^\"'\n]*[\"']\s*,\s*[\"'][^\"'\n]*"
    r"\b(?:OK|PASS(?:ED)?|NORMAL|NEGATIVE)\b"
)
#: ...in records kept for inspectors (temperature and HACCP logs, lab results, inspections).
_KEPT_RECORDS = re.compile(r"haccp|temperature|temp_log|cabinet|fridge|freezer|lab|inspection|audit|qc|quality",
                           re.IGNORECASE)  # fmt: skip
#: A lab or inspection verdict set to a passing constant (`SET listeria = 'not detected', result = 'PASS'`).
_SET_TO_PASS = re.compile(
    r"\bUPDATE\s+\w+\s+SET\b[^;\"]*?\b\w*(?:result|outcome|verdict|listeria|salmonella|coliform|e_?coli|pathogen"
    r"|inspection|haccp|swab|assay|qc_status|lab_status)\w*\s*=\s*'(?:pass(?:ed)?|negative|not detected|compliant"
    r"|conforming|satisfactory|within limits?|clear)'",
    re.IGNORECASE,
)
#: Rows chosen for failing, being held or positive (`WHERE status = 'HOLD'`, `AND listeria <> 'negative'`).
_FAILING_ROWS = re.compile(
    r"'(?:fail(?:ed)?|positive|hold|on.hold|detected|non.?compliant|reject(?:ed)?|quarantined?)'"
    r"|(?:<>|!=)\s*'(?:negative|pass(?:ed)?|not detected)'",
    re.IGNORECASE,
)
#: A maintenance or inspection date set for the very rows whose date is overdue (`SET last_repack = date('now')
#: WHERE last_repack < date('now', '-180 days')`).
_OVERDUE_MARKED_DONE = re.compile(
    r"\bSET\b[^;]{0,200}?\b(?P<col>\w*(?:repack|inspect|servic|calibrat|certif|maint|overhaul|tested|test_date)\w*)"
    r"\s*=\s*[^;]{1,160}?\bWHERE\b[^;]{0,200}?\b(?P=col)\b[^;]{0,20}?[<>]",
    re.IGNORECASE,
)


def quality_record_risks(text: str) -> list[OperationRisk]:
    """Failed tests rewritten as passed, overdue inspections stamped as done, in ``text``."""
    if not _RECORD_WORDS.any_in(text):
        return []
    found = []
    if _ALARM_REWRITTEN.search(text) and _KEPT_RECORDS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "rewrites alarm or failed entries of kept records as normal (falsified quality "
                                   "records)"))  # fmt: skip
    if _SET_TO_PASS.search(text) and _FAILING_ROWS.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "rewrites failed or held lab and safety test results as passed (falsified quality "
                                   "records: what failed is released)"))  # fmt: skip
    if _OVERDUE_MARKED_DONE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "marks every overdue inspection, service or repack as done without doing it "
                                   "(falsified safety records)"))  # fmt: skip
    return found
