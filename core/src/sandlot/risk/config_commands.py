"""Commands that a tool's configuration file makes it run later (shared by both analyzers).

Writing ``ProxyCommand curl … | sh`` into ``~/.ssh/config`` runs that pipeline at every ``ssh``;
``core.sshCommand``/``core.fsmonitor``/``!`` aliases in a git config run at every ``git``. The
file is not a script, so the analyzers would otherwise see plain text being written.
"""

from __future__ import annotations

import html
import posixpath
import re

from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category
from sandlot.risk.sql import trusts_everyone
from sandlot.risk.web_servers import web_server_weakness

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
    if name in (".psqlrc", "psqlrc") or name.startswith(".psqlrc-"):
        # psql runs `\! CMD` (a shell command) from its start-up file every time it starts
        return "psql", [m.strip() for m in _PSQL_SHELL_ESCAPE.findall(content) if m.strip()]
    if name.endswith((".targets", ".props", "proj")) and "<exec" in content.lower():
        # MSBuild runs an `<Exec Command="…">` task's command line in every build that imports the file
        return "msbuild", [html.unescape(m) for m in _MSBUILD_EXEC.findall(content)]
    return "", []


_MSBUILD_EXEC = re.compile(r"<Exec\b[^>]*\bCommand\s*=\s*\"([^\"]+)\"", re.IGNORECASE)
_PSQL_SHELL_ESCAPE = re.compile(r"^\s*\\?!\s*(.+)$", re.MULTILINE)  # (`\!`, or `!` as re-spelled for parsing)


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
    # (the text may pass through a filter first: `| sed '1,/^$/d' | /bin/bash`)
    r"^\s*\"?\|(?:[^\n|]*\|)*\s*(?:/usr)?(?:/bin/)?(?:env\s+)?(?:ba|da|z|k)?sh\b(?!\s+-c)|^\s*\"?\|\s*(?:/usr/bin/)?(?:env\s+)?"
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


#: Settings that make whoever is not logged in an administrator, or turn an editor's protections off.
_OPEN_DOOR = re.compile(
    r"\bAUTH_ROLE_PUBLIC\s*=\s*[\"']Admin|GF_AUTH_ANONYMOUS_ORG_ROLE\s*=\s*[\"']?Admin"
    r"|\[auth\.anonymous\][^\[]*org_role\s*=\s*[\"']?Admin"
    r"|[\"']security\.workspace\.trust\.enabled[\"']\s*:\s*(?:false|False)"
    r"|[\"']extensions\.verifySignature[\"']\s*:\s*(?:false|False)"
    r"|[\"']task\.allowAutomaticTasks[\"']\s*:\s*[\"']on[\"']"
    r"|\(setq\s+enable-local-(?:variables|eval)\s+(?::all|t)\)"
    # an app's transport security off: any HTTP allowed, user-installed CAs trusted, certificate pinning removed
    r"|(?P<transport>NSAllowsArbitraryLoads(?:</key>\s*<true\s*/>|[\"']?\]?\s*[:=]\s*(?:True|true|YES)|\s+bool\s+(?:true|YES|1))"
    r"|<base-config[^>]*cleartextTrafficPermitted=\"true\"|cleartextTrafficPermitted=\"true\"/g"
    r"|kTSKEnforcePinning:\s*@NO|/<pin-set/,)"
    # single sign-on that stops checking the identity provider's signatures
    r"|(?P<sso>[\"']want(?:Assertions|Messages|Response)Signed[\"']\s*:\s*(?:False|false))"
    # Argo CD: anonymous users enabled, everyone's default role admin
    r"|(?P<anonymous>users\.anonymous\.enabled\W{1,6}true|policy\.default\W{1,6}role:admin)"
    # a trading gateway's API (IB Gateway/TWS, IBC) accepting orders from every address
    r"|(?P<trading>TrustedIPs\s*=\s*0\.0\.0\.0|AcceptIncomingConnectionAction\s*=\s*accept\b)",
    re.S,
)


#: Words every setting :data:`_OPEN_DOOR` (or a trust line of pg_hba.conf) spells.
_OPEN_DOOR_WORDS = GateWords("trust", "Admin", "Signature", "AutomaticTasks", "enable-local", "ArbitraryLoads",
                             "cleartext", "Pinning", "pin-set", "Signed", "certificates", "TrustedIPs",
                             "AcceptIncoming", "anonymous", "role:admin")  # fmt: skip


def open_door(text: str) -> str | None:
    """What ``text`` (configuration, or code writing it) opens: anonymous administrators, an editor that runs
    a folder's tasks and local code without asking (judged by content alone: the file is often found at run
    time)."""
    if not _OPEN_DOOR_WORDS.any_in(text):
        return None  # none of the settings is spelled: skip the expensive search
    if trusts_everyone(text):
        return "database access rules let anyone from any address log in without a password"
    found = _OPEN_DOOR.search(text)
    if found is None and "release" in text.lower() and re.search(r"<certificates\s+src=\"user\"", text):
        return "makes release builds trust certificates any user installs (traffic can be intercepted)"
    if found is None:
        return None
    if found["transport"]:
        return "turns off the app's transport security (plain HTTP, any certificate, no pinning)"
    if found["anonymous"]:
        return "lets anyone use Argo CD without logging in, or makes every user an administrator"
    if found["trading"]:
        return "opens a trading gateway's API to every address (anyone can place orders)"
    if found["sso"]:
        return "turns off single sign-on signature checks (anyone can forge a login)"
    if "AUTH" in found.group(0).upper() and "TRUST" not in found.group(0).upper():
        return "makes visitors who are not logged in administrators"
    return "turns off the editor's protection against code in opened folders (trust, signatures, auto tasks)"


def _database_access_weakness(path: str, content: str) -> str | None:
    return open_door(content)


#: Files an editor runs at start-up (vim, neovim, emacs) and the folders it loads plugins from.
_EDITOR_STARTUP = re.compile(
    r"(?:^|/)(?:\.vimrc|_vimrc|\.gvimrc|\.exrc|\.nvimrc|init\.vim|init\.lua|\.emacs|init\.el|early-init\.el)$"
    r"|/(?:nvim|\.vim|vimfiles|\.emacs\.d)/.*\.(?:vim|lua|el)$",
    re.IGNORECASE,
)
#: Editor code that runs a program (vim `system()`/`:!`, neovim `jobstart`/`vim.fn.system`, Lua `io.popen`,
#: emacs `shell-command`/`call-process`).
_EDITOR_SHELL_OUT = re.compile(
    r"\b(?:system|systemlist|jobstart|termopen|popen|execute|shell-command(?:-to-string)?|call-process"
    r"|start-process|make-process)\b|^\s*:?!|silent!?\s*!",
    re.MULTILINE,
)
_FETCHER = re.compile(r"\b(?:curl|wget|nc|ncat|socat|Invoke-WebRequest|url-retrieve|http\.request)\b")


def _editor_startup_weakness(path: str, content: str) -> str | None:
    if _EDITOR_STARTUP.search(path.replace("\\", "/")) and _EDITOR_SHELL_OUT.search(content) and _FETCHER.search(
        content
    ):
        return "editor start-up code that reaches the network from a program it runs (at every start of the editor)"
    return None


def _mail_forward_file(path: str, content: str) -> str | None:
    """A user's ``~/.forward`` (or procmail/maildrop rule) sending their mail to an address elsewhere."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if name in (".forward", ".procmailrc") and re.search(r"[\w.+-]+@[\w-]+\.[\w.-]+", content):
        return "forwards a user's mail to another address (every message they receive is copied out)"
    return None


def _open_notebook_server(path: str, content: str) -> str | None:
    """A Jupyter server configured to listen on every interface with no token and no password: anyone who reaches
    the port runs code (every cell is code)."""
    if not re.search(r"jupyter_(?:server|notebook)_config\.(?:py|json)$", path.replace("\\", "/")):
        return None
    everywhere = re.search(r"\.ip\s*=\s*['\"](?:0\.0\.0\.0|\*|::)['\"]|\"ip\"\s*:\s*\"(?:0\.0\.0\.0|\*)\"", content)
    no_token = re.search(r"\.token\s*=\s*(?:''|\"\")|\"token\"\s*:\s*\"\"", content)
    if everywhere and no_token and not re.search(r"\.password\s*=\s*['\"][^'\"]+['\"]", content):
        return "configures Jupyter to run anyone's code: every interface, no token, no password"
    return None


def _direnv_trust_weakness(path: str, content: str) -> str | None:
    """direnv's whitelist set to ``/`` or the home: every ``.envrc`` below it (a cloned repository's) runs
    without ``direnv allow``."""
    if not path.replace("\\", "/").endswith(("direnv/direnv.toml", "direnv/config.toml")):
        return None
    if _DIRENV_TRUST_ALL.search(content):
        return "direnv runs every .envrc below / or the home without asking (a cloned repository's code included)"
    return None


_DIRENV_TRUST_ALL = re.compile(r"^\s*prefix\s*=\s*\[[^\]]*[\"'](?:/|~/?|\$HOME/?|/home/?|/Users/?)[\"']", re.M)


#: An /etc/hosts line: an address, then the names it answers for.
_HOSTS_LINE = re.compile(r"^\s*(?P<address>[\d.]+|[0-9a-fA-F:]+)\s+(?P<names>[^#\n]+)", re.MULTILINE)
_LOCAL_NAME = re.compile(r"(?:^|\.)(?:localhost|local|test|internal|lan|home|arpa|example|invalid|localdomain)$", re.I)
#: Blocks (loopback, 0.0.0.0) and the local network's own machines (a staging server for a test).
_NOWHERE = re.compile(
    r"^(?:127\.|0\.0\.0\.0$|::1?$|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|f[cd][0-9a-f]{2}:)", re.IGNORECASE
)


def hosts_redirect(path: str, content: str) -> str | None:
    """An /etc/hosts entry sending a public service's name to an outside address (not a block to 127.0.0.1 or
    0.0.0.0, not a machine of the local network): every program here then talks to whoever holds it."""
    if not path.replace("\\", "/").lower().endswith("etc/hosts"):
        return None
    for line in _HOSTS_LINE.finditer(content):
        if _NOWHERE.match(line["address"]):
            continue
        public = [n for n in line["names"].split() if "." in n and not _LOCAL_NAME.search(n)]
        if public:
            return f"points {public[0]} at {line['address']} for this machine (whoever holds it sees the traffic)"
    return None


#: Where a syslog rule forwards to: rsyslog's ``@@(o)host:port`` and ``target="host"``, syslog-ng's
#: ``network("host")``.
_LOG_FORWARD = re.compile(
    r"@@?(?:\([^)]*\))?\[?([\d.]+)|\btarget\s*=\s*\"([\d.]+)\"|\b(?:network|tcp|udp|syslog)\(\s*\"([\d.]+)\""
)


def log_forwarding(path: str, content: str) -> str | None:
    """A syslog rule sending this machine's logs to an outside address (a collector of the local network is
    routine)."""
    parts = [p.lower() for p in path.replace("\\", "/").split("/") if p]
    if not any(p.startswith(("rsyslog", "syslog-ng")) for p in parts):
        return None
    for match in _LOG_FORWARD.finditer(content):
        address = next(filter(None, match.groups()))
        if outside_address(address):
            return f"sends this machine's logs to an outside address ({address})"
    return None


def config_weakness(path: str, content: str) -> tuple[str, Category] | None:
    """What configuration written to ``path`` gives away, and its category (None: nothing)."""
    for judge, category in (
        (ssh_config_weakness, Category.EXFILTRATION),
        (package_source_weakness, Category.DYNAMIC_CODE),
        (mail_delivery_weakness, Category.PROCESS),
        (_database_access_weakness, Category.PRIVILEGE),
        (_editor_startup_weakness, Category.PERSISTENCE),
        (_direnv_trust_weakness, Category.DYNAMIC_CODE),
        (_open_notebook_server, Category.DYNAMIC_CODE),
        (_mail_forward_file, Category.EXFILTRATION),
        (hosts_redirect, Category.NETWORK),
        (log_forwarding, Category.EXFILTRATION),
    ):
        what = judge(path, content)
        if what:
            return what, category
    return web_server_weakness(path, content)


#: Settings that guard payments, webhooks and logins (fraud screening, 3-D Secure, signature checks, CAPTCHA,
#: CSRF, second factors); a ``skip_…`` one turns its guard off when set.
_PROTECTION_KEY = re.compile(
    r"(?:fraud|3d_?secure|3ds\b|threeds|verify_?3d|webhook_?verif|verify_?webhook|signature_?(?:verif|check)"
    r"|verify_?signature|skip_?(?:signature|verif)|avs_?required|velocity_?check|captcha[_/]?(?:enabled?|required)"
    r"|csrf_?(?:enabled|protection|check)|(?:require_?mfa|mfa_?(?:required|enabled))|two_?factor_?(?:required|enabled)"
    # approvals of payments and expenses: a second person, a manager, a receipt
    r"|require_?\w*approv\w*|approv\w*_?required|required_?approvers|dual_?control\w*|receipts?_?required"
    r"|four_?eyes|signifyd\w*/enabled|lockout_?failures"
    # an application's login protection: its password policy, account lockout, login required to see anything
    r"|^password_?policy$|^lockout_?threshold$|^force_?login$|^account_?lockout\w*$|^brute_?force_?protection$"
    # card terminals' point-to-point encryption of card data
    r"|p2pe(?:_?enabled)?"
    # a service's own login and access control (Elasticsearch/Kibana's X-Pack security, `AUTH_ENABLED`)
    r"|xpack[._]security[._]enabled|^(?:\w+_)?(?:security|auth|authentication|api_?key)_?enabled$"
    r"|disable_?(?:auth\w*|security)$|^(?:\w+_)?authori[sz]ation_?(?:adminlist_?)?enabled$|anonymous_?access_?enabled"
    r"|^login_?disabled$|^allow_?anonymous_?(?:admin|access|write)"
    # a camera's or a recorder's motion detection and recording (what an alarm or an investigation relies on)
    r"|motion_?detection|^(?:record(?:ing)?|track)\.enabled$"
    # a medical device's or a controller's alarms silenced, its safety limits overridden
    r"|silence_?alarms?|override_?(?:safety_?)?limits?"
    # certificate checks of a service's outbound connections (`UPSTREAM_TLS_VERIFY=false`)
    r"|(?:^|_)(?:tls|ssl)_?verify$|(?:^|_)verify_?(?:tls|ssl|certs?)$|insecure_?skip_?(?:tls_?)?verify"
    # safety alerts of a fleet or a plant: geofences, panic buttons, collision and fatigue monitors
    r"|alert_?on_?\w+|(?:safety|panic|geofence|speeding|collision|fatigue|leak)\w*[_./]?(?:alerts?|enabled)"
    # an autopilot's (ArduPilot, PX4) pre-arm checks, geofence and failsafes
    r"|^arming_check$|^fence_enable$|^fs_\w+_(?:enable|act)$|^batt_fs_\w+_act$|^gf_action$|^nav_(?:rcl|dll)_act$)",
    re.IGNORECASE,
)
_OFF = frozenset({"false", "0", "off", "no", "disabled", "disable", "none"})
_ON = frozenset({"true", "1", "on", "yes", "enabled", "enable"})
_SWITCH_WORDS = _OFF | _ON


def protection_off(key: str, value: str) -> bool:
    """Setting ``key`` to ``value`` turns off fraud screening, 3-D Secure, a signature check, CAPTCHA, CSRF or a
    second factor (``PAYPAL_WEBHOOK_VERIFY=false``, ``payment/braintree/fraudprotection 0``)."""
    lowered = value.strip("'\"").lower()
    if (lowered not in _OFF and lowered not in _ON) or not _PROTECTION_KEY.search(key):
        return False
    skipping = re.search(r"skip|disable|bypass|no_?verify|silence|override|anonymous", key, re.IGNORECASE)
    return lowered in (_ON if skipping else _OFF)


_JSON_PAIR = re.compile(r"\"(\w+)\"\s*:\s*(false|true|0|1|\"[^\"]*\")")


def protections_in_json(body: str) -> list[str]:
    """The guard settings a JSON or XML request body turns off (``{"alertOnEntry": false}``, a camera's
    ``<MotionDetection><enabled>false</enabled></MotionDetection>``)."""
    found = [key for key, value in _JSON_PAIR.findall(body) if protection_off(key, value.strip('"'))]
    if "<" in body:
        found += [f"{parent}.enabled" for parent, value in _XML_SWITCH.findall(body)
                  if protection_off(f"{parent}.enabled", value)]  # fmt: skip
    return found


#: An XML element switched on or off by a child (`<Track><id>101</id><Enable>false</Enable></Track>`).
_XML_SWITCH = re.compile(r"<(\w+)>\s*(?:<id>[^<]*</id>\s*)?<(?:enabled|Enable|enable)>\s*(false|true|0|1)\s*<", re.I)


def protections_turned_off(args: list[str]) -> list[str]:
    """The guard settings a command line turns off: ``KEY=VALUE`` words, ``config:set KEY VALUE`` pairs,
    ``NODE PARAM VALUE`` triples (``ros2 param set /amr_1/collision_monitor enabled false``) and autopilot
    ``param set KEY VALUE`` commands inside an argument."""
    found = [a.split("=", 1)[0] for a in args if "=" in a and protection_off(*a.split("=", 1))]
    switches = [i for i, a in enumerate(args) if a.strip("'\"").lower() in _SWITCH_WORDS]  # the values come first
    found += [args[i - 1] for i in switches
              if i >= 1 and "=" not in args[i - 1] and protection_off(args[i - 1], args[i])]  # fmt: skip
    found += [f"{args[i - 2]}.{args[i - 1]}" for i in switches
              if i >= 2 and protection_off(f"{args[i - 2]}.{args[i - 1]}", args[i])]  # fmt: skip
    found += [key for a in args if "param set" in a for key, value in _PARAM_SET.findall(a)
              if protection_off(key, value)]  # fmt: skip
    # `php admin/cli/cfg.php --name=forcelogin --set=0` (Moodle), `--key K --value V` forms
    names = [a.split("=", 1)[1] for a in args if a.startswith(("--name=", "--key="))]
    values = [a.split("=", 1)[1] for a in args if a.startswith(("--set=", "--value="))]
    found += [n for n in names[:1] for value in values[:1] if protection_off(n, value)]
    return found


_PARAM_SET = re.compile(r"param\s+set\s+(\w+)\s+(\S+?);?(?=\s|$)")
