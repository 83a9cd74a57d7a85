"""Is known content written to a start-up or system configuration file harmless? (shared by both analyzers)

Writing a persistence location (a ``.pth`` file, ``sitecustomize.py``, a unit, a cron table, the
project's own git hook) or a system configuration file (``/etc/sysctl.d``, ``/etc/hosts``,
``/etc/sudoers.d``, ``sshd_config``) is HIGH or worse because whatever it holds runs later, or
changes the machine, without being asked. When the content is known and does nothing worth a
look (paths in a ``.pth``, a backup job in a unit, a swappiness tweak, one command a group may
run with sudo, ``PasswordAuthentication no``), the write is only MEDIUM; harmful content is
graded on its own by the analyzers either way.
"""

from __future__ import annotations

import ast
import posixpath
import re
import shlex
from collections.abc import Callable

from sandlot.risk import paths
from sandlot.risk.destinations import private_address
from sandlot.risk.mail import personal_mailbox
from sandlot.risk.model import Category, Finding, RiskLevel
from sandlot.risk.paths import HOLE, PathInfo, PathKind


def harmless_content(info: PathInfo, content: str) -> bool:
    """``content`` written to ``info`` (a start-up location or a system configuration file) is quiet."""
    if not content.strip():
        return False
    name = posixpath.basename(info.path.replace("\\", "/")).lower()
    comps = [c.lower() for c in info.path.replace("\\", "/").split("/") if c not in ("", ".")]
    if name.endswith(".pth") and info.persistence:
        # only lines starting with `import` run (and must be quiet); the others are directories added to sys.path
        lines = [line.strip() for line in content.splitlines() if line.strip()]
        imports = [line for line in lines if line.startswith(("import ", "import\t"))]
        return all(line.replace(HOLE, "") and (line in imports or ("import" not in line and ";" not in line))
                   for line in lines) and (not imports or (HOLE not in content and _quiet_python("\n".join(imports))
                                                          and not any(hidden_or_temporary(i) for i in imports)))
    if name in _CREDENTIAL_CONFIGS and info.secret:
        return _known_services(content)  # a token from the environment, for a registry or a platform by name
    if name == ".pgpass":
        # `localhost:5432:app_dev:postgres:postgres`: a login for a database on this machine (a dev server)
        lines = [line for line in content.splitlines() if line.strip() and not line.startswith("#")]
        return bool(lines) and all(line.split(":", 1)[0] in ("localhost", "127.0.0.1", "::1") for line in lines)
    if name == "fstab" and comps[:1] == ["etc"]:
        return True  # a mount entry (a UUID known only at run time is still a mount entry)
    if comps == ["etc", "shells"]:
        # a login shell registered for chsh (`$(brew --prefix)/bin/zsh`): each line a path to a shell
        lines = [line.strip() for line in content.splitlines() if line.strip()]
        return bool(lines) and all(
            line.startswith(("/", HOLE)) and posixpath.basename(line) in _LOGIN_SHELLS for line in lines
        )
    if "sources.list.d" in comps[:-1] and "signed-by=" in content and "://" in content:
        return _apt_source(content)  # a repository trusted only with its own key (the release may be $(...))
    if HOLE in content:
        if "eval" in content:
            content = _TOOL_HOOK_HOLE.sub(lambda m: m.group(0).replace(HOLE, "sh"), content)  # `direnv hook $shell`
        if "deny" in content:
            content = _DENIED_HOLE.sub("deny 192.0.2.1;", content)  # a blocklist entry: whoever it is, shut out
        if "export" in content:  # `export WINHOME="$W"`: a plain variable set to whatever the value is
            content = _PLAIN_EXPORT_HOLE.sub(lambda m: m.group(0).replace(HOLE, "/x"), content)
    if HOLE in content:
        return False
    for family, judge in _FAMILIES:
        if family(name, comps, info):
            return judge(content)
    return False


#: Shells a system lists in /etc/shells.
_LOGIN_SHELLS = frozenset({"sh", "bash", "zsh", "fish", "dash", "ksh", "mksh", "tcsh", "csh", "nu", "xonsh", "elvish",
                           "pwsh", "rbash", "oksh", "yash"})  # fmt: skip


def web_site(info: PathInfo) -> bool:
    """A site definition of a web server (what it serves or relays), not its global configuration."""
    comps = [c.lower() for c in info.path.split("/") if c]
    return (
        comps[:1] == ["etc"]
        and len(comps) >= 4
        and comps[1] in ("nginx", "apache2", "httpd", "caddy")
        and comps[2] in ("sites-available", "sites-enabled", "conf.d", "conf-available", "vhosts.d", "sites")
    )


def quiet(findings: list[Finding]) -> bool:
    """Nothing above LOW, and no network, dynamic code or persistence at all."""
    return all(f.level <= RiskLevel.LOW and f.category not in _LOUD for f in findings)


def cron_commands(table: str, *, with_user: bool = False) -> list[str]:
    """The command lines of a crontab's entries (five time fields, a user in /etc/cron.d, or an @keyword)."""
    commands: list[str] = []
    for line in table.splitlines():
        line = line.strip().lstrip(HOLE)  # the existing table (`crontab -l`), unknown, runs into the first new line
        if not line or line.startswith("#") or re.match(r"^\w+=", line):
            continue
        keyword = line.startswith("@")
        fields = line.split(None, (1 if keyword else 5) + (1 if with_user else 0))
        if len(fields) == (2 if keyword else 6) + (1 if with_user else 0):
            commands.append(fields[-1])
    return commands


#: Dot-folders of the home where installers put programs on purpose (not hiding places).
_TOOL_DIRS = (".local", ".cargo", ".pyenv", ".nvm", ".rbenv", ".deno", ".bun", ".volta", ".npm-global", ".krew",
              ".zfunc", ".zsh", ".oh-my-zsh", ".zsh_functions", ".venv", ".virtualenvs")
#: Dot-files right in the home that shells are set up to read (a split-out part of the rc file), and the
#: interactive Python's start-up file (what it holds is judged where it is written).
_SHELL_DOTFILES = frozenset(
    {".aliases", ".bash_aliases", ".zsh_aliases", ".functions", ".exports", ".extra", ".path", ".shell_aliases",
     ".aliases.sh", ".bashrc.local", ".zshrc.local", ".localrc", ".bash_functions", ".pythonrc", ".pythonrc.py",
     ".pystartup"}
)  # fmt: skip
_HIDDEN_TEMP = re.compile(r"(?:^|[\s=\"'(])/(?:tmp|var/tmp|dev/shm)/\.")


def hidden_or_temporary(command: str) -> bool:
    """A program or script in /tmp, /dev/shm, a dot-directory or a dot-file: where droppers hide (or anything
    done in a hidden folder of a temporary directory: ``cd /tmp/.x && ./kworkerd``)."""
    if _HIDDEN_TEMP.search(command):
        return True
    parts = [p for p in re.split(r";|&&|\|\|", command) if p.strip()] if "\n" not in command.strip() else []
    if len(parts) > 1:  # `mount … 2>/dev/null; sh /mnt/.t/update.sh`: each command of the line
        return any(hidden_or_temporary(p) for p in parts)
    words = re.split(r"\s+(?:\d?>>?|<|\|)", command, maxsplit=1)[0].split()  # not the redirect targets
    if words[:1] == ["flock"]:
        # `flock -n /tmp/nb.lock /opt/app/bin/job.sh`: the lock file is a name to lock on, the program follows it
        rest = words[1:]
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] in ("-w", "--timeout", "-E", "--conflict-exit-code") else rest[1:]
        words = rest[1:]
    if (
        words[:1] == ["export"]
        and all(re.match(r"[A-Z][A-Z0-9]*_(?:ROOT|DIR|HOME)=", w) for w in words[1:])
        and "$(" not in command
        and "`" not in command
    ):
        return False  # `export PYENV_ROOT="$HOME/.pyenv"` names a directory, it runs nothing
    # a script anywhere on the line, run from a hidden folder (`sh -c 'python3 ~/.local/lib/.kh/logger.py'`), or a
    # hidden folder the line changes into (`pgrep -f bot || (cd ~/.cache/.fb && nohup python3 bot.py &)`)
    scripts = [w.strip("\"'") for w in words[3:] if w.strip("\"'").endswith(_SCRIPT_SUFFIXES) and "/" in w]
    scripts += [m.group(1).strip("\"'") for m in _CD_TARGET.finditer(command)]
    for word in [*words[:3], *scripts]:
        if "/" not in word:
            continue
        word = re.sub(r"^[A-Z][A-Z0-9_]*=", "", word).strip("\"'")  # `PYTHONSTARTUP="$HOME/.pythonrc"`: the path
        if paths.classify(word).kind is PathKind.TEMP:
            return True
        parts = word.split("/")
        if len(parts) == 2 and parts[0] in ("~", "$HOME", "${HOME}") and parts[1] in _SHELL_DOTFILES:
            continue  # `. ~/.aliases`: the rc file's own split-out part
        if any(part.startswith(".") and part not in (".", "..", *_TOOL_DIRS) for part in parts):
            return True
    return False


_SCRIPT_SUFFIXES = (".py", ".sh", ".js", ".pl", ".rb", ".ps1")
_CD_TARGET = re.compile(r"\bcd\s+([^\s;&|)]+/[^\s;&|)]*)")
#: What start-up code must not do at all, even at LOW: it would do it at every start, unasked.
_LOUD = frozenset({Category.NETWORK, Category.EXFILTRATION, Category.DYNAMIC_CODE, Category.PERSISTENCE})


def tame(findings: list[Finding]) -> bool:
    """Nothing above MEDIUM (a service signalled, a log written) and no network, dynamic code or persistence."""
    return all(f.level <= RiskLevel.MEDIUM and f.category not in _LOUD for f in findings)


def _quiet_shell(commands: list[str]) -> bool:
    from sandlot.risk.shell_analyzer import analyze_shell

    return all(tame(analyze_shell(c)) and not hidden_or_temporary(c) and not fetches_then_runs(c) for c in commands)


def heartbeats_only(commands: list[str]) -> bool:
    """Every request these commands make is a heartbeat: a URL fetched and thrown away (``curl -fsS -o /dev/null
    https://hc-ping.com/…`` after a backup), no data sent."""
    requests = [m for c in commands for m in _REQUEST.finditer(c)]
    return bool(requests) and all(
        _DISCARDED.search(r.group(0)) and not _SENDS_DATA.search(r.group(0)) for r in requests
    )


_REQUEST = re.compile(r"\b(?:curl|wget)\b[^|;&]*")
_DISCARDED = re.compile(r"(?:-o|--output|-O|--output-document)[ =]?/dev/null|--spider")
_SENDS_DATA = re.compile(r"\s(?:-d|--data\S*|-F|--form|-T|--upload-file|--post-\w+|--body-\w+)(?:\s|=|$)")


def fetches_then_runs(command: str) -> bool:
    """``command`` pulls code and then runs it: on a schedule, whatever is pushed runs here, unreviewed."""
    return bool(_FETCH_THEN_RUN.search(command))


#: A command that pulls code and then runs it.
_FETCH_THEN_RUN = re.compile(
    r"\bgit\s+(?:pull|fetch|clone)\b[^#\n]*(?:&&|;)\s*(?:\./|(?:ba|z)?sh\s|make\b|npm\s|yarn\s|python3?\s|docker\s+compose"
    r"|docker-compose\b|kubectl\s+apply|ansible-playbook\b|(?:terraform|tofu|terragrunt)\s+apply\b|chezmoi\s+apply\b"
    r"|helm\s+(?:upgrade|install)\b|pulumi\s+up\b)"
    # tools that fetch a repository and apply it in one step
    r"|\bchezmoi\s+init\b[^#\n]*--apply|\bchezmoi\s+update\b|\bansible-pull\b"
)


def _quiet_python(code: str) -> bool:
    """Start-up code (a .pth line, sitecustomize) runs in every interpreter: not even a process may start."""
    from sandlot.risk.python_analyzer import analyze_python

    found = analyze_python(code)
    return quiet(found) and not any(f.category is Category.PROCESS for f in found) and not _patches_modules(code)


def _patches_modules(code: str) -> bool:
    """``secrets.randbelow = …``: start-up code replacing what an imported module does, in every interpreter."""
    if "import" not in code or "=" not in code:
        return False
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return False
    imported = {(alias.asname or alias.name).split(".")[0] for node in ast.walk(tree)
                if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}  # fmt: skip
    targets = [t for node in ast.walk(tree) if isinstance(node, ast.Assign) for t in node.targets]
    roots = [t.value for t in targets if isinstance(t, ast.Attribute)]
    while any(isinstance(r, ast.Attribute) for r in roots):
        roots = [r.value if isinstance(r, ast.Attribute) else r for r in roots]
    return any(isinstance(r, ast.Name) and r.id in imported for r in roots)


def _udev_rule(content: str) -> bool:
    # a udev rule runs programs only through RUN/PROGRAM/IMPORT{program}; MODE/GROUP set permissions
    lowered = content.lower().replace(" ", "")
    runs = any(k in lowered for k in ("run+=", "run=", "program=", "import{program}"))
    return not runs and not re.search(r'mode="0?[0-7]*[67]{2}"', lowered)


def _unit(content: str, *, system: bool) -> bool:
    """A unit whose commands are quiet; a system unit (run as root at boot) only with the system's programs."""
    commands = [m.group(1).lstrip("-@:+!") for m in re.finditer(r"^\s*Exec\w*\s*=\s*(.+)$", content, re.M)]
    if not commands:
        return False  # a timer or a socket starts a unit whose content is not here
    if _STARVING_UNIT.search(content):
        return False  # real-time scheduling or top priority: a busy unit starves everything else of the CPU
    if any(posixpath.basename(c.split()[0]) in REMOTE_DESKTOP_SERVERS for c in commands if c.split()):
        return False  # a desktop shared over the network from every boot on: remote access that stays
    installed = all(c.split()[0].startswith(_SYSTEM_PROGRAM_DIRS) for c in commands if c.split())
    # an application deployed under /opt or /srv run by its own account (`User=myapp`), not root, from a place
    # that is neither hidden, temporary nor someone's home
    own_account = _SERVICE_ACCOUNT.search(content) is not None and all(
        c.split()[0].startswith(_APPLICATION_DIRS) and not hidden_or_temporary(c) for c in commands if c.split()
    )
    if system and not installed and not own_account:
        return False  # a program installed by hand (/usr/local/bin/upd, /opt/...) run as root at every boot
    return _quiet_shell(commands)


#: Servers that share the desktop over the network (VNC, RDP, remote-support agents).
REMOTE_DESKTOP_SERVERS = frozenset(
    {"x11vnc", "vncserver", "x0vncserver", "Xvnc", "tigervncserver", "xrdp", "rustdesk", "anydesk", "teamviewer",
     "teamviewerd", "meshagent", "vino-server", "gnome-remote-desktop", "krfb"}
)  # fmt: skip
#: A unit's ``User=`` naming an account other than root.
_SERVICE_ACCOUNT = re.compile(r"^\s*User\s*=\s*(?!root\s*$|0\s*$)[a-z_][\w.-]*\s*$", re.M)
_APPLICATION_DIRS = ("/opt/", "/srv/", "/usr/local/bin/", "/usr/local/sbin/", "/usr/local/lib/", "/usr/bin/", "/bin/",
                     "/usr/sbin/", "/sbin/", "/usr/lib/", "/lib/")


#: Unit settings that put a service above every other process (real-time scheduling, the highest priority, never
#: chosen by the OOM killer).
_STARVING_UNIT = re.compile(
    r"^\s*(?:CPUSchedulingPolicy\s*=\s*(?:fifo|rr)|Nice\s*=\s*-(?:1[5-9]|20)|OOMScoreAdjust\s*=\s*-1000"
    r"|CPUSchedulingPriority\s*=\s*(?:[5-9]\d))\s*$",
    re.M | re.I,
)
_SYSTEM_PROGRAM_DIRS = ("/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/", "/usr/lib/", "/lib/")


def _logrotate(content: str) -> bool:
    scripts = re.findall(r"(?:post|pre)rotate|firstaction|lastaction", content)
    bodies = re.findall(r"(?:postrotate|prerotate|firstaction|lastaction)\s*\n(.*?)\n\s*endscript", content, re.S)
    return not scripts or _quiet_shell([b for b in bodies if b.strip()])


_DANGEROUS_SYSCTL = re.compile(
    r"^\s*(?:kernel\.randomize_va_space\s*=\s*0|kernel\.yama\.ptrace_scope\s*=\s*0|kernel\.kptr_restrict\s*=\s*0|"
    r"kernel\.dmesg_restrict\s*=\s*0|kernel\.core_pattern\s*=\s*\||kernel\.unprivileged_bpf_disabled\s*=\s*0|"
    r"fs\.protected_\w+\s*=\s*0|kernel\.modules_disabled|kernel\.sysrq\s*=\s*1\b|vm\.overcommit_memory\s*=\s*1|"
    r"fs\.suid_dumpable\s*=\s*[12])",
    re.M,
)
_BROAD_SUDO = re.compile(r"NOPASSWD:\s*ALL\b|\)\s*(?:NOPASSWD:\s*)?ALL\s*$|!authenticate|ALL\s*=\s*ALL", re.M | re.I)
#: A sudoers rule naming the commands it allows by absolute path: `%ops ALL=(root) NOPASSWD: /usr/bin/x`.
_SUDO_RULE = re.compile(r"^\s*[%\w.+-]+\s+[\w.,+-]+\s*=\s*(?:\([^)]*\)\s*)?(?:\w+:\s*)*/\S+")


def _narrow_sudo(content: str) -> bool:
    """Every rule lets a named user or group run named programs, none lets anyone run anything: not every
    user, and no program that opens a root shell by its own options (tar's checkpoint actions, rsync -e, find
    -exec, an editor, an interpreter)."""
    rules = [line for line in content.splitlines() if line.strip() and not line.lstrip().startswith(("#", "Defaults"))]
    commands = [c.strip() for r in rules for c in re.sub(r"^[^=]*=\s*(?:\([^)]*\)\s*)?(?:\w+:\s*)*", "", r).split(",")]
    # a program allowed with any arguments (none given, or `*`) whose options run commands
    escapes = [
        c
        for c in commands
        if c.split()
        and posixpath.basename(c.split()[0]) in _SHELL_ESCAPING_PROGRAMS
        and (len(c.split()) == 1 or "*" in c)
    ]
    return (
        bool(rules)
        and all(_SUDO_RULE.match(r) and not _EVERYONE.match(r) for r in rules)
        and not _BROAD_SUDO.search(content)
        and not escapes
    )


#: A sudoers rule for every user (`ALL`, the `users` group every account is in).
_EVERYONE = re.compile(r"\s*(?:ALL|%users|%everyone|%domain\\?\s?users)\b", re.I)
#: Programs whose options run commands: allowed through sudo, each is a root shell.
_SHELL_ESCAPING_PROGRAMS = frozenset(
    {"tar", "rsync", "find", "vim", "vi", "nano", "less", "more", "man", "awk", "gawk", "python", "python3", "perl",
     "ruby", "node", "bash", "sh", "zsh", "env", "cp", "mv", "tee", "dd", "docker", "podman", "zip", "git", "ssh",
     "scp", "rclone", "apt", "apt-get", "pip", "pip3", "make", "systemctl", "journalctl", "crontab", "chmod",
     "chown", "sed", "xargs", "nmap", "tcpdump", "openssl", "socat", "nc", "curl", "wget",
     # kernel code loaded, capabilities granted, other roots and namespaces entered
     "insmod", "modprobe", "kexec", "setcap", "mount", "chroot", "nsenter", "unshare", "systemd-run",
     # toolchains and package managers that build and run code (a `go run`, a build script, an install hook)
     "go", "cargo", "npm", "npx", "gem", "bundle", "composer", "java", "php", "lua", "Rscript", "julia"}
)  # fmt: skip


_WEAK_SSHD = re.compile(
    r"^\s*(?:PermitRootLogin\s+yes|PermitEmptyPasswords\s+yes|AuthorizedKeys(?:File|Command)\b|"
    r"PasswordAuthentication\s+yes|StrictModes\s+no|PermitUserEnvironment\s+yes|ForceCommand\b)",
    re.M | re.I,
)
#: A host name of a public service (an /etc/hosts entry redirecting or blocking it is a man in the middle, or
#: cuts the machine off from it: security updates, a package index).
_PUBLIC_NAME = re.compile(r"\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|co|ai|app|cloud|gov|edu)\b", re.I)


def _hosts(content: str) -> bool:
    for line in content.splitlines():
        fields = line.split("#", 1)[0].split()
        if len(fields) >= 2 and any(_PUBLIC_NAME.fullmatch(n) for n in fields[1:]):
            return False
    return True


def _nfs_exports(content: str) -> bool:
    """NFS exports of a data or image folder (not /, /etc, /home or /root) to hosts of private networks only
    (a lab board's root file system, a build share), whatever their squash options."""
    for line in content.splitlines():
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) < 2 or fields[0].rstrip("/") in ("", "/etc", "/home", "/root", "/var", "/usr", "/boot"):
            return False
        clients = [f.split("(", 1)[0] for f in fields[1:]]
        if not all(c and private_address(c.split("/", 1)[0]) for c in clients):
            return False  # `*`, a public address, a host name: who is allowed is not a private network
    return True


def _apt_source(content: str) -> bool:
    """A repository whose packages apt verifies: over HTTPS, or pinned to its own key (``signed-by=``: apt
    checks the signatures whatever the transport); never ``trusted=yes``."""
    return "trusted=yes" not in content and not re.search(
        r"^\s*deb(?:-src)?\s+(?:\[(?![^]]*signed-by=)[^]]*\]\s+)?http://", content, re.M
    )


def _web_server(content: str) -> bool:
    """An nginx/apache site serving the project: not the whole disk, not relaying traffic to another host."""
    if re.search(r"^\s*(?:root|alias)\s+/\s*;", content, re.M):
        return False
    for target in re.findall(r"(?:proxy_pass|mirror|ProxyPass\s+\S+)\s+(\S+?);?\s*$", content, re.M):
        host = target.split("://", 1)[-1].split("/", 1)[0].split(":")[0]
        if "." in host and not host.startswith(("127.", "localhost", "10.", "192.168.", "unix")):
            return False  # traffic (and its cookies) relayed to another machine
    return True


#: Shell start-up files: what they run, they run in every new shell.
_RC_FILES = frozenset({".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile", ".zshenv", ".bash_aliases",
                       ".zsh_aliases", ".zlogin", "config.fish", ".kshrc"})  # fmt: skip
#: Folders whose files a shell sources at every start (oh-my-zsh's custom/, ~/.zshrc.d/, fish's conf.d/).
_SHELL_DROP_IN = re.compile(r"/(?:\.oh-my-zsh/custom|\.zshrc\.d|\.bashrc\.d|\.bash_profile\.d|\.profile\.d|conf\.d)/")
#: An alias or a function named like a command that asks for a password: it collects the password.
_PASSWORD_WRAPPER = re.compile(r"\balias\s+(?:sudo|su|ssh|passwd|login|doas|gpg)=|\b(?:sudo|su|ssh|passwd|doas)\s*\(\)")


#: `eval "$(TOOL init zsh)"`, `eval "$(/opt/homebrew/bin/brew shellenv)"`, `eval "$(ssh-agent -s)"`: an
#: installed tool printing its own shell integration for the shell to load.
TOOL_SHELL_HOOK = (
    r"""eval\s+["']?\$\(\s*(?:command\s+)?(?:[\w.~-]*/)*[\w.-]+(?:\s+--?[\w-]+)*\s+"""
    r"""(?:init|hook|shellenv|completion|activate|env)\b[^)|;&]*\)["']?|eval\s+["']?\$\(\s*ssh-agent\s+-s\s*\)["']?"""
)
#: `command -v kubectl >/dev/null && source <(kubectl completion bash)`: an installed tool's completions loaded.
_TOOL_COMPLETION = (
    r"""(?:command\s+-v\s+[\w.-]+\s*>\s*/dev/null(?:\s+2>&1)?\s*&&\s*)?(?:source|\.)\s+<\(\s*[\w./~-]+"""
    r"""(?:\s+--?[\w-]+)*\s+(?:completion|completions|init|hook|shellenv)\b[^)|;&`$]*\)"""
)
#: An export of a plain variable (not one that makes programs load code) whose value is known only at run time.
_PLAIN_EXPORT_HOLE = re.compile(
    r"^export[ \t]+(?!(?:PATH|LD_\w+|DYLD_\w+|BASH_ENV|ENV|PROMPT_COMMAND|PYTHON\w*|NODE_OPTIONS|PERL5\w*|RUBY\w*"
    r"|JAVA_TOOL_OPTIONS|GIT_\w+|EDITOR|VISUAL|PAGER|SHELL|HISTFILE)=)[A-Z][A-Z0-9_]*=[\"']?\x00[\"']?[ \t]*$",
    re.MULTILINE,
)
#: A web server's blocklist line for an address known only at run time (`deny {ip};`).
_DENIED_HOLE = re.compile(r"^[ \t]*deny[ \t]+\x00[ \t]*;[ \t]*$", re.MULTILINE)
#: An installed tool's shell hook whose shell name is known only at run time (`eval "$(direnv hook $shell)"`).
_TOOL_HOOK_HOLE = re.compile(
    r"""eval\s+["']?\$\(\s*[\w./~-]+\s+(?:init|hook|completion|activate|env)\s+\x00\s*\)["']?"""
)
#: Lines of a shell start-up file that only configure the shell: aliases, PATH, editor, locale and prompt
#: settings, options and key bindings, sourcing a file, an installed tool's shell hook.
_RC_LINE = re.compile(
    r"""^(?:alias\s+[\w.-]+=.+|export(?:\s+(?:PATH|EDITOR|VISUAL|PAGER|LANG|LC_\w+|HISTSIZE|HISTFILESIZE|TERM|GOPATH"""
    r"""|[A-Z][A-Z0-9_]*(?:_ROOT|_DIR|HOME)|INPUTRC|HISTFILE(?=["']?[$~/][^\s]*(?<!/dev/null)["']?(?:\s|$)))=\S+)+"""
    r"""|ZSH_THEME=\S+|plugins=\([\w\s.-]*\)"""
    r"""|(?:PATH|PS1|PROMPT|RPROMPT|EDITOR|HISTSIZE|HISTFILESIZE|SAVEHIST|HISTCONTROL|HISTTIMEFORMAT)=\S.*"""
    r"""|export\s+PYTHONSTARTUP=["']?(?:~|\$HOME|\$\{HOME\})/\.py[\w.]*["']?"""
    r"""|PROMPT_COMMAND=["']?history\s+-[anw]\s*(?:;\s*history\s+-[anrw]\s*)*"""
    r"""(?:\$\{PROMPT_COMMAND:\+;\s*\$PROMPT_COMMAND\}|;\s*\$PROMPT_COMMAND)?["']?|fpath\+?=\S+|compinit\b[\w\s-]*|(?:setopt|unsetopt|shopt|bindkey|autoload|zstyle|complete|set\s+-o)\b.*"""
    r"""|(?:source|\.)\s+\S+(?:\s+(?:[12]?>>?\s*/dev/null|2>&1))*"""
    r"""|\[\[?\s+-[fdrs]\s+\S+\s+\]\]?\s+&&\s+(?:(?:source|\.)\s+\S+|export\s+PATH=\S+)"""
    r"""|""" + TOOL_SHELL_HOOK + r"""|""" + _TOOL_COMPLETION + r""")\s*$"""
)


def _rc_lines(content: str) -> bool:
    """Only configuration every shell would apply harmlessly (see :data:`_RC_LINE`), helper functions whose
    bodies are quiet and which do not take a common command's name, plugin managers' lines loading plugins by
    name, and nothing it runs loud."""
    if _PASSWORD_WRAPPER.search(content):
        return False
    rest, functions = _split_functions(content.replace("\\\n", " "))
    if functions is None or not _quiet_shell(functions):
        return False
    commands = [line.strip() for line in rest.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    # plugins by name (`zsh-users/zsh-autosuggestions`, `OMZP::git`); a snippet from a URL is any server's code
    plugins = [c for c in commands if _PLUGIN_MANAGER_LINE.match(_QUOTED.sub('""', c)) and "://" not in c]
    ices = [m.group(1) for c in plugins for m in _ZINIT_ICE.finditer(c)]
    if any("$(" in ice or "`" in ice or "<(" in ice for ice in ices) or not _quiet_shell(ices):
        return False
    lines = [c for c in commands if c not in plugins]
    return bool(commands or functions) and all(_RC_LINE.match(c) for c in lines) and _quiet_shell(lines)


#: `name() {` or `function name {`: a shell function's first line.
_FUNCTION_START = re.compile(r"^[ \t]*(?:function[ \t]+)?([\w.:-]+)[ \t]*(?:\(\))?[ \t]*\{", re.MULTILINE)
#: Commands a function must not be named after (it would run instead of them, with whatever it adds).
_SHADOWED = frozenset({"cd", "ls", "git", "ps", "kill", "rm", "cp", "mv", "cat", "sudo", "su", "ssh", "scp", "curl",
                       "wget", "python", "python3", "pip", "npm", "make", "docker", "kubectl", "grep", "find", "top",
                       "which", "type", "command", "builtin", "exec", "source", "history", "clear", "exit", "login"})
#: A zsh or bash plugin manager loading plugins by name (`zinit light zsh-users/zsh-autosuggestions`).
_PLUGIN_MANAGER_LINE = re.compile(r"^(?:zinit|zi|antigen|zplug|antidote|sheldon)\b(?:[ \t]+[\w\"'./:=@{}+-]+)*[ \t]*$")
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
#: zinit's ice modifiers that run commands (`atload"…"`, `atclone"…"`).
_ZINIT_ICE = re.compile(r"\b(?:atinit|atload|atclone|atpull|run-atpull|make|mv|cp)[\"']([^\"']*)[\"']")


def _split_functions(content: str) -> tuple[str, list[str] | None]:
    """``content`` without its function definitions, and the definitions; None when one is unbalanced or shadows
    a common command."""
    functions: list[str] = []
    while (start := _FUNCTION_START.search(content)) is not None:
        if start.group(1) in _SHADOWED:
            return content, None
        depth, end = 0, None
        for i in range(start.end() - 1, len(content)):
            if content[i] == "{":
                depth += 1
            elif content[i] == "}":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
        if end is None:
            return content, None
        functions.append(content[start.start() : end])
        content = content[: start.start()] + content[end:]
    return content, functions


#: Variables that make programs load code: a library into every process, a file every shell runs first.
CODE_LOADING_VARIABLES = re.compile(
    r"^\s*(?:export\s+)?(?:LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w+|BASH_ENV|ENV|PYTHONSTARTUP|PYTHONPATH"
    r"|PROMPT_COMMAND|NODE_OPTIONS|PERL5OPT|JAVA_TOOL_OPTIONS|GIT_\w+)\b",
    re.MULTILINE,
)


def _environment_lines(content: str) -> bool:
    """Session variables (``environment.d``, ``~/.pam_environment``): settings, never code loaded into
    programs or a PATH through a hidden or temporary folder."""
    lines = [line for line in content.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return not CODE_LOADING_VARIABLES.search(content) and not any(hidden_or_temporary(line) for line in lines)


#: Files that hold a tool's credentials for the services it talks to.
_CREDENTIAL_CONFIGS = frozenset({".pypirc", ".netrc", ".npmrc", "pip.conf", "pip.ini", ".yarnrc.yml"})
#: Package registries and platforms such files name (a token for them is what the file is for).
_KNOWN_SERVICE = re.compile(
    r"^(?:(?:upload\.|test\.)?pypi\.org|registry\.(?:npmjs\.org|yarnpkg\.com)|npm\.pkg\.github\.com"
    r"|(?:api|git)\.heroku\.com|(?:api\.)?github\.com|(?:[\w-]+\.)?gitlab\.com|[\w-]+\.jfrog\.io"
    r"|[\w.-]+\.pkg\.dev|[\w-]+\.d\.codeartifact\.[\w-]+\.amazonaws\.com|pkgs\.dev\.azure\.com"
    r"|[\w-]+\.pkgs\.visualstudio\.com|files\.pythonhosted\.org)$",
    re.IGNORECASE,
)
_NAMED_HOST = re.compile(r"(?:https?://|\bmachine\s+|//)([\w.-]+\.[a-z]{2,})", re.IGNORECASE)


def _known_services(content: str) -> bool:
    """Every host ``content`` names is a known registry or platform (and it names at least one)."""
    hosts = _NAMED_HOST.findall(content.replace(HOLE, ""))
    return bool(hosts) and all(_KNOWN_SERVICE.match(h) for h in hosts)


#: An AppArmor rule letting a confined program at one folder's files (``/data/mysql/** rwk,``).
_APPARMOR_PATH_RULE = re.compile(r"^\s*(?:owner\s+)?(/[\w.@{}*-]+(?:/[\w.@{}*-]*)*)\s+[rwklm]+,\s*$")


def _apparmor_paths(content: str) -> bool:
    """A local AppArmor override that only adds file rules for named folders: no unconfined execution,
    capabilities or the whole file system."""
    lines = [line for line in content.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    matches = [_APPARMOR_PATH_RULE.match(line) for line in lines]
    return bool(lines) and all(m is not None and m[1].strip("/*") not in ("", "@{HOME}", "home") for m in matches)


def _desktop_entry(content: str) -> bool:
    """An XDG autostart entry that starts nothing (``Hidden=true``, autostart disabled) or a quiet command."""
    if re.search(r"^\s*(?:Hidden\s*=\s*true|X-GNOME-Autostart-enabled\s*=\s*false)\s*$", content, re.M | re.I):
        return True
    commands = re.findall(r"^\s*Exec\s*=\s*(.+)$", content, re.M)
    return bool(commands) and _quiet_shell(commands) and not any(hidden_or_temporary(c) for c in commands)


#: apt settings that trust unsigned or downgraded repositories, or route every download elsewhere.
_APT_WEAKENING = re.compile(
    r"AllowInsecureRepositories|AllowUnauthenticated|AllowDowngradeToInsecure|trusted|Verify-(?:Peer|Host)|Proxy"
    r"|Check-Valid-Until|Pre-Install-Pkgs",
    re.I,
)


def _apt_settings(content: str) -> bool:
    """An apt.conf.d file of plain settings (no recommends, keep downloads) or hooks whose commands are quiet;
    never trust in unsigned repositories or a proxy in the middle."""
    if _APT_WEAKENING.search(content):
        return False
    hooks = re.findall(r"::(?:Pre|Post)-Invoke\s*\{([^}]*)\}", content, re.I)
    commands = [c for hook in hooks for c in re.findall(r'"([^"]+)"', hook)]
    return not hooks or (bool(commands) and _quiet_shell(commands))


def _launch_agent(content: str) -> bool:
    """A launchd job running a program of the user's (not hidden, not in a temporary directory, quiet)."""
    args = re.findall(r"<string>([^<]*)</string>", content)
    program = re.search(r"<key>Program(?:Arguments)?</key>\s*(?:<array>)?\s*<string>([^<]*)</string>", content)
    if program is None:
        return False
    # (each <string> of ProgramArguments is one argv word: `/bin/sh`, `-c`, then the whole script)
    command = shlex.join(args[args.index(program.group(1)) :]) if program.group(1) in args else program.group(1)
    return _quiet_shell([command])


_Family = tuple[Callable[[str, list[str], PathInfo], bool], Callable[[str], bool]]
#: Postfix's lookup tables (routes, rewrites, access lists), written as text and compiled with postmap.
_POSTFIX_MAPS = frozenset({"transport", "virtual", "sender_access", "recipient_access", "access", "relocated",
                           "canonical", "sender_canonical", "recipient_canonical", "helo_access", "client_access",
                           "relay_domains", "generic"})  # fmt: skip


def _mail_map(text: str) -> bool:
    addresses = re.findall(r"\d{1,3}(?:\.\d{1,3}){3}", text)
    return not (
        re.search(r"bcc|:include:|^\s*[^#\s][^:\n]*:\s*[\"']?\|", text, re.IGNORECASE | re.MULTILINE)
        or any(not private_address(a) and not a.startswith("127.") for a in addresses)
        or personal_mailbox(text)  # root's or the postmaster's mail copied to someone's own mailbox
    )


_RISKY_PHP_INI = re.compile(
    r"auto_(?:prepend|append)_file|allow_url_include\s*=\s*(?:on|1|true)|(?:disable_functions|open_basedir)\s*=\s*"
    r"(?:$|[\"']{2})|extension\s*=\s*\S*/",
    re.IGNORECASE | re.MULTILINE,
)
_FAMILIES: tuple[_Family, ...] = (
    (lambda n, c, i: n.endswith(".py") and i.persistence and (
        n in ("sitecustomize.py", "usercustomize.py") or any(x in ("startup", "site-packages", "dist-packages")
                                                              for x in c)), _quiet_python),
    (lambda n, c, i: (i.kind is PathKind.RELATIVE or i.path.startswith(HOLE)) and len(c) >= 3
     and c[-3:-1] == [".git", "hooks"] and ".." not in c, lambda t: _quiet_shell([t])),
    (lambda n, c, i: n in (".pythonrc", ".pythonrc.py", ".pystartup"), _quiet_python),
    (lambda n, c, i: n == ".pam_environment" or ("environment.d" in c[:-1] and n.endswith(".conf")),
     _environment_lines),
    (lambda n, c, i: n.endswith(".rules") and "udev" in c, _udev_rule),
    (lambda n, c, i: n.endswith((".service", ".timer", ".socket", ".path", ".mount")) and "systemd" in c
     and c[:1] in (["etc"], ["lib"], ["usr"]), lambda t: _unit(t, system=True)),
    (lambda n, c, i: n.endswith((".service", ".timer", ".socket", ".path", ".mount")) and "systemd" in c,
     lambda t: _unit(t, system=False)),
    (lambda n, c, i: "cron.d" in c[:-1] or (n == "crontab" and c[:1] == ["etc"]),
     lambda t: bool(cron_commands(t, with_user=True)) and _quiet_shell(cron_commands(t, with_user=True))),
    (lambda n, c, i: "logrotate.d" in c[:-1] or n == "logrotate.conf", _logrotate),
    (lambda n, c, i: "sysctl.d" in c[:-1] or n == "sysctl.conf", lambda t: not _DANGEROUS_SYSCTL.search(t)),
    (lambda n, c, i: "sudoers.d" in c[:-1] or n == "sudoers", _narrow_sudo),
    (lambda n, c, i: "sshd_config.d" in c[:-1] or n == "sshd_config", lambda t: not _WEAK_SSHD.search(t)),
    (lambda n, c, i: n == "hosts" and c[:1] == ["etc"], _hosts),
    # Docker's daemon settings: a mirror and log rotation are routine; the API on TCP, registries trusted without
    # TLS, the firewall or user namespaces turned off are not
    (lambda n, c, i: c == ["etc", "docker", "daemon.json"],
     lambda t: not re.search(r"[\"']hosts[\"']|insecure-registries|[\"']tlsverify[\"']\s*:\s*false"
                             r"|[\"']iptables[\"']\s*:\s*false|authorization-plugins|no-new-privileges[\"']\s*:\s*false",
                             t)),
    (lambda n, c, i: c == ["etc", "exports"] or "exports.d" in c[:-1], _nfs_exports),
    (lambda n, c, i: "sources.list.d" in c[:-1] or n == "sources.list", _apt_source),
    (lambda n, c, i: c[:1] == ["etc"] and any(x in ("nginx", "apache2", "httpd") for x in c), _web_server),
    # mail routing maps and aliases: routes to the organisation's relays are routine; copies of all mail (bcc),
    # routes to bare outside addresses and aliases that pipe mail into programs are not
    (lambda n, c, i: (c[:2] == ["etc", "postfix"] and n in _POSTFIX_MAPS) or c in (["etc", "aliases"],
                                                                                    ["etc", "mail", "aliases"]),
     _mail_map),
    # rspamd's local settings: thresholds and worker settings; a module switched off is not
    (lambda n, c, i: c[:2] == ["etc", "rspamd"] and len(c) == 4 and c[2] in ("local.d", "override.d"),
     lambda t: not re.search(r"\benabled\s*=\s*false|\breject\s*=\s*(?:null|\d{3,})", t)),
    # PHP's settings: limits and timeouts are routine; code prepended to every page, remote includes, the
    # function and folder restrictions emptied, or an extension loaded from a path are not
    (lambda n, c, i: c[:1] == ["etc"] and "php" in c[1] and n.endswith(".ini"), lambda t: not _RISKY_PHP_INI.search(t)),
    (lambda n, c, i: (n in _RC_FILES or (i.persistence and _SHELL_DROP_IN.search(i.path) is not None))
     and i.kind is not PathKind.SYSTEM, _rc_lines),
    (lambda n, c, i: c[:2] == ["etc", "profile.d"] and n.endswith(".sh"), _rc_lines),
    (lambda n, c, i: n.endswith(".desktop") and "autostart" in c[:-1], _desktop_entry),
    (lambda n, c, i: c[:3] == ["etc", "apt", "apt.conf.d"] and len(c) == 4, _apt_settings),
    # WSL's settings: mounts, interop, systemd (a `[boot] command=` runs at every start)
    (lambda n, c, i: c == ["etc", "wsl.conf"], lambda t: not re.search(r"^\s*command\s*=", t, re.M)),
    # a syslog rule writing to a local file, not forwarding to another host or running a program
    (lambda n, c, i: "rsyslog.d" in c[:-1] or "syslog-ng" in c[:-1],
     lambda t: not re.search(r"@@?[\w.\[]|omfwd|omprog|\btarget\s*=|program\(|network\(|\^", t)),
    (lambda n, c, i: n.endswith(".plist") and "launchagents" in c, _launch_agent),
    (lambda n, c, i: c[:2] == ["etc", "apparmor.d"] and "local" in c[2:-1], _apparmor_paths),
)  # fmt: skip
