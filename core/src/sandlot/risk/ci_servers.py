"""CI/CD servers: TeamCity, Concourse (``fly``) and Spinnaker (``spin``, Gate's API), shared by both analyzers and
judged on the whole text. Whoever administers them ships code to production.

What needs a careful reviewer:

* the server's administrator role given (TeamCity's ``SYSTEM_ADMIN``), or Concourse's ``main`` team handed to a
  single user's login;
* every pipeline a listing gives destroyed;
* a deployment pipeline's manual approval stage taken out.

Pipelines set or triggered one at a time, builds queued, agents authorised and tokens used to log in are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item

_CI_WORDS = GateWords("SYSTEM_ADMIN", "set-team", "destroy-pipeline", "spin", "manualJudgment")
_ADMIN_ROLE = re.compile(r"/roles/SYSTEM_ADMIN/|\bset-team\b[^\n]*-n\s+main\b[^\n]*--(?:github|local|oidc)-user\b")
_EVERY_PIPELINE = re.compile(r"\bdestroy-pipeline\b|\bspin\s+pipeline\s+delete\b")
_APPROVAL_REMOVED = re.compile(r"[\"']type[\"']\]\s*!=\s*[\"']manualJudgment[\"']|manualJudgment[\"']?\s*\)?\s*\]?\s*"
                               r"(?:\.remove|del\b)")


def ci_server_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a CI/CD server's administrators, pipelines and approvals."""
    if not _CI_WORDS.any_in(text):
        return []
    found = []
    if _ADMIN_ROLE.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "makes an account an administrator of a CI/CD server (it ships code to "
                                   "production)"))  # fmt: skip
    if _EVERY_PIPELINE.search(text) and each_item(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                   "destroys every pipeline a listing gives"))
    if _APPROVAL_REMOVED.search(text):
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                   "takes the manual approval stage out of a deployment pipeline"))
    return found
