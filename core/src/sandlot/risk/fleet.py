"""Commands sent to a fleet of machines (shared by both analyzers through the shell analyzer).

Configuration management and remote-execution tools run on other machines what a shell would run
here: ``ansible all -m shell -a CMD``, ``salt '*' cmd.run CMD``, ``aws ssm send-command`` with a
``commands`` parameter, ``awx ad_hoc_commands create``, StackStorm's ``st2 run core.remote cmd=CMD``,
MeshCentral's ``meshctrl runcommand``, ``pdsh``/``pssh``/``clush``, and the tasks of an Ansible playbook. Each
module call is translated to the shell command line with the same effect (``file: path=X
state=absent`` is ``rm -rf X``, ``authorized_key: user=root`` appends to
``/root/.ssh/authorized_keys``), which the shell analyzer then grades like any other.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence

from sandlot.risk.model import Finding, RiskLevel
from sandlot.risk.paths import PathKind
from sandlot.risk.shell_words import options

#: Task keywords of a playbook (everything else in a task is the module).
_TASK_KEYWORDS = frozenset(
    {"name", "become", "become_user", "when", "register", "loop", "with_items", "tags", "notify", "vars",
     "ignore_errors", "delegate_to", "args", "environment", "changed_when", "failed_when", "no_log", "until",
     "retries", "delay", "run_once", "check_mode", "block", "rescue", "always", "listen", "async", "poll"}
)  # fmt: skip


def _q(text: str) -> str:
    return shlex.quote(text)


#: Accounts that the machines are administered or deployed through (removed everywhere, nobody can log in to fix it).
_OPERATORS_ACCOUNT = re.compile(r"root|admin\w*|sysadmin|deploy\w*|ansible|ops|operator|automation|ubuntu|ec2-user"
                                r"|centos|debian|cloud-user")


def module_commands(module: str, params: dict[str, str]) -> list[str]:
    """Shell command lines with the effect of one Ansible module call (empty when unknown or harmless)."""
    module = module.rsplit(".", 1)[-1]  # ansible.builtin.file -> file
    free = params.get("_raw_params", "") or params.get("cmd", "")
    path = params.get("path") or params.get("dest") or params.get("name", "")
    state = params.get("state", "")
    if module in ("shell", "command", "raw", "script"):
        return [free] if free else []
    if module == "file":
        if state == "absent" and path:
            return [f"rm -rf -- {_q(path)}"]
        if params.get("mode") and path:
            return [f"chmod {params['mode']} {_q(path)}"]
        return []
    if module == "authorized_key":
        user = params.get("user", "")
        home = "/root" if user == "root" else f"/home/{user}" if user else "~"
        return [f"echo {_q(params.get('key', 'KEY'))} >> {home}/.ssh/authorized_keys"]
    if module == "cron":
        job = params.get("job", "")
        return [f"(crontab -l; echo {_q('* * * * * ' + job)}) | crontab -"] if job else []
    if module in ("lineinfile", "blockinfile", "copy", "template"):
        content = params.get("line") or params.get("block") or params.get("content", "")
        if not path or state == "absent":
            return []
        return [f"printf '%s\\n' {_q(content)} >> {_q(path)}"] if content else [f"cp SOURCE {_q(path)}"]
    if module == "user" and state == "absent" and _OPERATORS_ACCOUNT.fullmatch(params.get("name", "")):
        # an account the machines are run through removed (a departed person's is offboarding, and stays quiet);
        # `remove=yes`: its home and mail too, `force=yes`: while it is logged in
        removes = [flag for key, flag in (("remove", "-r"), ("force", "-f"))
                   if params.get(key) in ("yes", "true", "True")]
        return [" ".join(["userdel", *removes, _q(params["name"])])]
    if module == "user":
        words = ["useradd"]
        if params.get("groups"):
            words += ["-G", params["groups"]]
        if params.get("uid"):
            words += ["-u", params["uid"]]
        if params.get("non_unique") in ("yes", "true", "True"):
            words += ["-o"]  # (a second account with an existing uid: uid 0 is another root)
        if params.get("password"):
            words += ["-p", "PASSWORD"]
        return [" ".join(_q(w) for w in [*words, params.get("name", "user")])] if len(words) > 1 else []
    if module in ("service", "systemd", "systemd_service") and params.get("name"):
        verb = {"stopped": "stop", "restarted": "restart", "started": "start"}.get(state, "")
        commands = [f"systemctl {verb} {_q(params['name'])}"] if verb else []
        if params.get("enabled") in ("no", "false", "False"):
            commands.append(f"systemctl disable {_q(params['name'])}")
        return commands
    if module in ("apt", "yum", "dnf", "package") and state in ("absent", "removed") and params.get("name"):
        return [f"apt-get remove -y {_q(params['name'])}"]
    if module == "reboot":
        return ["reboot"]
    return []


def _key_values(text: str) -> dict[str, str]:
    """``path=/var/lib/mysql state=absent`` (Ansible's k=v form); words without ``=`` are the free form."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    params: dict[str, str] = {}
    free: list[str] = []
    for word in words:
        key, eq, value = word.partition("=")
        if eq and re.fullmatch(r"[a-z_]+", key):
            params[key] = value
        else:
            free.append(word)
    if free:
        params["_raw_params"] = " ".join(free)
    return params


def _module_call(args: list[str], module_options: tuple[str, ...], args_options: tuple[str, ...]) -> list[str]:
    """An Ansible module named by one option and given its arguments by another (``-m file -a 'path=… mode=…'``)."""
    module = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in module_options), "command")
    raw = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in args_options), "")
    if module.rsplit(".", 1)[-1] in ("shell", "command", "raw"):
        return [raw] if raw else []
    return module_commands(module, _key_values(raw))


def adhoc_commands(name: str, args: Sequence[str]) -> list[str]:
    """What an ad-hoc fleet command runs on every target (``ansible``, ``salt``, ``aws ssm``, ``pdsh``...)."""
    args = list(args)
    if name == "ansible":
        return _module_call(args, ("-m", "--module-name"), ("-a", "--args"))
    if name in ("salt", "salt-ssh"):
        operands = [a for a in args if not a.startswith("-")]
        if len(operands) >= 3 and operands[1] in ("cmd.run", "cmd.run_all", "cmd.run_bg", "cmd.shell",
                                                  "cmd.exec_code"):  # fmt: skip
            return [operands[2]]
        if len(operands) >= 4 and operands[1] in ("file.append", "file.write"):
            # `file.append /etc/cron.d/x "LINE"`: the line added to that file on every minion
            return [f"printf '%s\\n' {_q(line)} >> {_q(operands[2])}" for line in operands[3:5]]
        if len(operands) >= 4 and operands[1] == "file.set_mode":
            return [f"chmod {_q(operands[3])} {_q(operands[2])}"]  # `file.set_mode /usr/bin/find 4755`
        if len(operands) >= 3 and operands[1] in ("file.remove", "file.rmdir"):
            return [f"rm -rf -- {_q(operands[2])}"]
        if len(operands) >= 4 and operands[1] == "ssh.set_auth_key":
            # `ssh.set_auth_key root KEY`: a key that logs in as that user on every minion
            return module_commands("authorized_key", {"user": operands[2], "key": operands[3]})
        return []
    if name == "awx" and args[:2] == ["ad_hoc_commands", "create"]:
        # `awx ad_hoc_commands create --module_name shell --module_args CMD`: AWX runs it on the inventory's hosts
        return _module_call(args, ("--module_name",), ("--module_args",))
    if name == "st2" and args[:1] in (["run"], ["execution"]) and any(
        a.startswith(("core.local", "core.remote", "linux.")) for a in args
    ):
        # `st2 run core.remote_sudo hosts=… cmd=CMD`: StackStorm runs CMD there (as root with `_sudo`)
        return [a.split("=", 1)[1] for a in args if a.startswith("cmd=")]
    if name == "meshctrl" and "runcommand" in args:
        # `meshctrl runcommand --id DEVICE --run CMD`: MeshCentral's agent runs CMD on that device (as SYSTEM or root)
        return [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--run"]
    if name == "aws" and args[:2] == ["ssm", "send-command"]:
        found: list[str] = []
        for i, arg in enumerate(args):
            value = args[i + 1] if arg == "--parameters" and i + 1 < len(args) else ""
            value = value or (arg.split("=", 1)[1] if arg.startswith("--parameters=") else "")
            if value:
                found += _ssm_commands(value)
        return found
    if name == "consul" and args[:1] == ["exec"]:
        # `consul exec -shell=true CMD`: the command runs on every node of the datacenter
        rest = [a for a in args[1:] if not a.startswith("-")]
        return [" ".join(rest)] if rest else []
    if name in ("pdsh", "pssh", "parallel-ssh", "clush"):
        valued = frozenset({"-w", "-x", "-g", "-h", "-H", "-l", "-p", "-t", "-o", "-e", "-O", "-f", "-R"})
        rest = options(args, valued)[1]
        return [" ".join(rest)] if rest else []
    if name == "az" and "run-command" in args:
        scripts = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--scripts"]
        return [" ".join(scripts)] if scripts else []
    if name == "fab" and "--" in args:
        rest = args[args.index("--") + 1 :]  # `fab -H a,b -- 'CMD'`: an ad-hoc command on every host given
        return [" ".join(rest)] if rest else []
    return []


def _ssm_commands(value: str) -> list[str]:
    """``commands=["a","b"]`` (the CLI shorthand) or ``{"commands": ["a", "b"]}`` (JSON)."""
    try:
        document = json.loads(value)
        if isinstance(document, dict) and isinstance(document.get("commands"), list):
            return [str(c) for c in document["commands"]]
    except ValueError:
        pass
    match = re.search(r"commands=\[(.*)\]", value, re.S)
    if match:
        return re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1)) or [match.group(1)]
    match = re.search(r"commands=(.+)", value)
    return [match.group(1)] if match else []


_PLAY = re.compile(r"^\s*-?\s*hosts:\s*\S", re.M)
_TASKS = re.compile(r"^\s*(?:tasks|pre_tasks|post_tasks|handlers):\s*$", re.M)
_MODULE_LINE = re.compile(r"^(?P<indent>\s*)(?:-\s+)?(?P<module>[a-z_][\w.]*):\s*(?P<inline>.*)$")


def looks_like_playbook(text: str) -> bool:
    if "hosts:" not in text or ("tasks:" not in text and "handlers:" not in text):
        return False  # (words without which neither pattern matches)
    return bool(_PLAY.search(text) and _TASKS.search(text))


def playbook_commands(text: str, limit: int = 12) -> list[str]:
    """The command lines the tasks of an Ansible playbook amount to (a line scan, no YAML library)."""
    if not looks_like_playbook(text):
        return []
    lines = text.splitlines()
    found: list[str] = []
    for index, line in enumerate(lines):
        match = _MODULE_LINE.match(line)
        if match is None or match.group("module") in _TASK_KEYWORDS or match.group("module") in ("hosts", "tasks"):
            continue
        module, inline = match.group("module"), match.group("inline").strip()
        indent = len(match.group("indent")) + (2 if line.lstrip().startswith("- ") else 0)
        params = _key_values(inline) if inline and "=" in inline else {}
        if inline and "=" not in inline:
            params["_raw_params"] = inline.strip("'\"")
        for follow in lines[index + 1 :]:
            stripped = follow.strip()
            if not stripped:
                continue
            if len(follow) - len(follow.lstrip()) <= indent:
                break
            key, sep, value = stripped.partition(":")
            if sep and re.fullmatch(r"[a-z_]+", key):
                params[key] = value.strip().strip("'\"")
        commands = module_commands(module, params) if params else []
        found += [c for c in commands if c]
        if len(found) >= limit:
            break
    return found[:limit]


#: What a command does that, on every host of a fleet at once, is an outage or a breach (a finding's rule suffix).
FLEET_HARMS = frozenset({"kill", "power", "kernel", "firewall", "user-admin", "defense-evasion", "device"})
#: Service actions that take a service down (a restart or a reload brings it back).
SERVICE_STOPS = re.compile(r"\b(?:stop|mask|disable|kill)\b")


def fleet_harm(findings: Sequence[Finding]) -> Finding | None:
    """The first finding that is `medium` on one machine and an outage or a breach on every machine of a fleet
    (processes killed, services stopped, firewalls or security modules changed, accounts added)."""
    return next(
        (
            f
            for f in findings
            if f.level == RiskLevel.MEDIUM
            and (
                f.rule_id.split(".", 1)[-1] in FLEET_HARMS
                or (f.rule_id == "shell.service" and bool(SERVICE_STOPS.search(f.message)))
                # an application's data (uploads, media) deleted on every server of the group
                or (f.rule_id == "shell.delete" and f"({PathKind.EXTERNAL.value})" in f.message)
            )
        ),
        None,
    )
