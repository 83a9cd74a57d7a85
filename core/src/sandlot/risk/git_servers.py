"""Self-hosted Git servers: Gitea and Forgejo, GitLab (its Rails console and rake tasks), Gerrit (shared by both
analyzers, judged on the whole text).

What needs a careful reviewer:

* every user's password set to one known value through the server's admin command (an administrator created with a
  password written in the code is ``identity.literal_password_admin``'s);
* a server-side hook written into every repository, a push mirror of every repository to another host, or a system
  webhook sending every repository's events to another host;
* an administrator's token minted with the sudo or admin scopes and a value chosen in the code;
* anonymous users given rights on every project (Gerrit's All-Projects);
* the server's own database emptied behind its back (repositories, users, access rows deleted with SQL);
* tens of thousands of refs pushed to a shared server at once.

Mirroring, branch clean-ups with filters, backups and health checks are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import any_loop

#: Words without which no rule here can match.
_WORDS = GateWords("change-password", "personal_access_tokens", "set_token", "All-Projects", "gitea.db", "refs/tags",
                   "hooks/git/", "push_mirrors", "admin/hooks")  # fmt: skip
_SERVER_HOOK = re.compile(r"/hooks/git/(?:pre|post)-receive\b|/hooks/git/update\b")
_SYSTEM_WEBHOOK = re.compile(r"/admin/hooks\b[\s\S]{0,600}?https?://(?!(?:localhost|127\.))")
_PASSWORD_FOR_ALL = re.compile(r"change-password[\s\S]{0,200}?--password[\"',\s=]+[\"']?(?!\$)[^\s\"'$]{4,}")
_ADMIN_TOKEN = re.compile(
    r"personal_access_tokens\.create!?\([^)]*(?::sudo|:admin_mode|[\"']sudo[\"']|[\"']admin_mode[\"'])"
    r"|\.set_token\(\s*[\"'][^\"']+[\"']"
)
_ANONYMOUS_EVERYWHERE = re.compile(
    r"All-Projects[\s\S]{0,800}?Anonymous Users|Anonymous Users[\s\S]{0,800}?All-Projects"
    r"|global:Anonymous-Users[\s\S]{0,400}?(?:push|forgeCommitter|forgeAuthor|submit)"
)
_SERVER_DATABASE_WIPE = re.compile(
    r"(?:gitea|forgejo|gogs)\.db\b[\s\S]{0,200}?\bDELETE\s+FROM\s+(?:repository|\"?user\"?|access)\b"
    r"(?![^;\n]*\bWHERE\s+id\s*=)",
    re.IGNORECASE,
)
_REF_FLOOD = re.compile(r"(?:\bseq\s+\d+\s+|\brange\()\s*(\d{5,})[\s\S]{0,300}?refs/tags[\s\S]{0,300}?\bgit\s+push\b")


def git_server_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a self-hosted Git server."""
    if not _WORDS.any_in(text):
        return []
    found = []
    if _PASSWORD_FOR_ALL.search(text) and any_loop(text):
        what = "sets every Git server user's password to one known value"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ((_SERVER_HOOK.search(text) or "push_mirrors" in text) and any_loop(text)) or _SYSTEM_WEBHOOK.search(text):
        what = "adds a server-side hook or a push mirror to every repository, or a system webhook for every event"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if _ADMIN_TOKEN.search(text):
        what = "mints an administrator's token with sudo or admin scopes (or a value chosen in the code)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _ANONYMOUS_EVERYWHERE.search(text):
        what = "gives anonymous users rights on every project of a Gerrit server (All-Projects)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _SERVER_DATABASE_WIPE.search(text):
        what = "deletes repositories, users or access rows straight from a Git server's database"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    flood = _REF_FLOOD.search(text)
    if flood is not None:
        what = f"pushes {int(flood[1]):,} tags to a shared Git server (every clone and fetch carries them)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    return found
