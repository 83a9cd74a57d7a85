"""Commands that a tool's configuration file makes it run later (shared by both analyzers).

Writing ``ProxyCommand curl … | sh`` into ``~/.ssh/config`` runs that pipeline at every ``ssh``;
``core.sshCommand``/``core.fsmonitor``/``!`` aliases in a git config run at every ``git``. The
file is not a script, so the analyzers would otherwise see plain text being written.
"""

from __future__ import annotations

import posixpath
import re

from sandlot.risk.model import Category
from sandlot.risk.sql import trusts_everyone

_SSH_COMMAND = re.compile(r"^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand|Match\s+exec)\s*=?\s*(.+)$", re.I | re.M)
_GIT_COMMAND = re.compile(
    r"^\s*(?:sshCommand|fsmonitor|pager|editor|askpass|helper|[\w.-]+\s*=\s*!)\s*=?\s*!?(.+)$",
    re.I | re.M,
)


def config_commands(path: str, content: str) -> tuple[str, list[str]]:
    """(the tool, the command lines) that ``content`` written to ``path`` makes the tool run."""
    parts = [p.lower() for p in path.replace("\\", "/").split("/") if p]
    name = parts[-1] if parts else ""
    if (name in ("config", "ssh_config") and (".ssh" in parts or "ssh" in parts)) or name.endswith(".ssh.conf"):
        return "ssh", [_unquote(m) for m in _SSH_COMMAND.findall(content) if m.strip().lower() != "none"]
    if name in (".gitconfig", "gitconfig") or (name == "config" and (".git" in parts or "git" in parts)):
        commands = [_unquote(m) for m in _GIT_COMMAND.findall(content)]
        return "git", [c for c in commands if posixpath.basename(c.split(" ", 1)[0]) not in _HARMLESS_GIT_HELPERS]
    return "", []


#: Programs git configs commonly name (editors, pagers, credential stores) that run nothing else.
_HARMLESS_GIT_HELPERS = frozenset(
    {"vim", "nvim", "vi", "nano", "emacs", "code", "less", "more", "cat", "delta", "diff-so-fancy", "cache",
     "store", "osxkeychain", "manager", "manager-core", "libsecret", "true", "hooks", ".githooks"}
)  # fmt: skip


def _unquote(command: str) -> str:
    command = command.strip()
    if len(command) >= 2 and command[0] == command[-1] and command[0] in "\"'":
        return command[1:-1]
    return command


def ssh_config_weakness(path: str, content: str) -> str | None:
    """What an ssh client configuration gives away: the agent to every host it connects to."""
    parts = [p.lower() for p in path.replace("\\", "/").split("/") if p]
    if not parts or not (parts[-1] in ("config", "ssh_config") and ("ssh" in parts or ".ssh" in parts)):
        return None
    every_host = re.search(r"^\s*Host\s+\*\s*$", content, re.M | re.I)
    if every_host and re.search(r"^\s*ForwardAgent\s+yes", content, re.M | re.I):
        return "ssh config forwards the agent to every host (any of them can use your keys)"
    if every_host and re.search(r"^\s*(?:StrictHostKeyChecking\s*=?\s*no|UserKnownHostsFile\s*=?\s*/dev/null)\b",
                                content, re.M | re.I):  # fmt: skip
        return "ssh config stops checking host keys for every host (any connection can be intercepted)"
    return None


def package_source_weakness(path: str, content: str) -> str | None:
    """Package-manager configuration pointing installs at plain HTTP or turning verification off."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name not in ("config.toml", "config", ".npmrc", ".yarnrc", ".yarnrc.yml", "pip.conf", "pip.ini", ".gemrc",
                    ".condarc", "nix.conf", "settings.xml", "init.gradle", "gradle.properties") or (
        "cargo" not in path and name in ("config.toml", "config")) or (name == "settings.xml" and ".m2" not in path
    ):  # fmt: skip
        return None
    lowered = content.lower()
    if re.search(r"(?:registry|index|index-url|url|substituters|channels)\s*[=:]\s*[\"']?(?:\w+\+)?http://",
                 lowered) or re.search(r"<url>\s*http://", lowered) or any(
        k in lowered for k in ("strict-ssl=false", "strict-ssl = false", "trusted-host", "require-sigs = false",
                               "enablestrictssl: false", "ssl_verify: false", "ssl.insecure>true",
                               "allowinsecureprotocol")
    ):  # fmt: skip
        return f"{name} makes package installs use plain HTTP or skip verification"
    return None


#: A delivery action handing a mail's text to a shell or an interpreter: ``| /bin/sh`` in a procmail recipe,
#: ``"|bash"`` in a .forward file.
_MAIL_TO_INTERPRETER = re.compile(
    r"^\s*\"?\|\s*(?:/usr)?(?:/bin/)?(?:env\s+)?(?:ba|da|z|k)?sh\b(?!\s+-c)|^\s*\"?\|\s*(?:/usr/bin/)?(?:env\s+)?"
    r"(?:python3?|perl|ruby|node)\s*(?:-\s*)?(?:[\"|2>]|$)",
    re.M,
)


def mail_delivery_weakness(path: str, content: str) -> str | None:
    """A mail filter (procmail, .forward) that runs the text of incoming mail as a script: anyone who
    can send the user a mail runs commands."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name in (".procmailrc", "procmailrc", ".forward", ".mailfilter") and _MAIL_TO_INTERPRETER.search(content):
        return f"{name} runs the text of incoming mail as a script (commands by mail)"
    return None


def _database_access_weakness(path: str, content: str) -> str | None:
    # judged by content alone: the file is found at run time (`psql -c 'show hba_file'`)
    if trusts_everyone(content):
        return "database access rules let anyone from any address log in without a password"
    return None


def config_weakness(path: str, content: str) -> tuple[str, Category] | None:
    """What configuration written to ``path`` gives away, and its category (None: nothing)."""
    for judge, category in (
        (ssh_config_weakness, Category.EXFILTRATION),
        (package_source_weakness, Category.DYNAMIC_CODE),
        (mail_delivery_weakness, Category.PROCESS),
        (_database_access_weakness, Category.PRIVILEGE),
    ):
        what = judge(path, content)
        if what:
            return what, category
    return None
