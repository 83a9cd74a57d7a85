"""Classify file-system paths and grade operations on them (shared by both analyzers).

Paths come from constant folding and may be partially unknown: every unknown piece is
the :data:`HOLE` character. Classification works on path *components*, so a hole in
the prefix (``f"{home}/.ssh/id_rsa"``) still matches the ``.ssh`` rule while a path
that is entirely a hole is :attr:`PathKind.UNKNOWN`.
"""

from __future__ import annotations

import enum
import functools
import posixpath
import re
from collections.abc import Iterable

import attrs

from sandlot.risk.model import Finding, RiskLevel

#: Stands for an unknown piece of a folded string (a variable, a call result...).
HOLE = "\x00"
#: The spelling of :data:`HOLE` inside generated source text (a valid identifier and word).
HOLE_WORD = "__sandlot_hole__"


class PathKind(enum.Enum):
    """Where a path points, from the point of view of the damage an operation can do."""

    UNKNOWN = "unknown"
    RELATIVE = "path in the working directory"
    WORKDIR = "the working directory itself"
    TEMP = "temporary directory"
    NULL = "null device"
    DEVICE = "block or memory device"
    ROOT = "file-system root"
    SYSTEM_TOP = "top-level system directory"
    SYSTEM = "system file"
    HOME_TOP = "home directory"
    HOME = "file in the home directory"
    EXTERNAL = "data directory outside the system tree"  # /mnt/backup, /data/x, /workspace/y


@attrs.frozen
class PathInfo:
    """Classification of one path; the flags are independent of :attr:`kind`."""

    path: str
    kind: PathKind
    secret: bool = False  # credentials, keys, password databases, browser profiles
    persistence: bool = False  # executed later without the user asking: rc files, cron...
    privilege: bool = False  # writing it grants privileges: sudoers, passwd, ld.so.preload
    history: bool = False  # shell history: deleting it hides tracks
    public: bool = False  # public half of a key pair, known_hosts

    @property
    def label(self) -> str:
        for flag, text in (
            (self.persistence, "persistence location"),
            (self.privilege, "privilege file"),
            (self.history, "shell history"),
            (self.secret, "secret file"),
        ):
            if flag:
                return text
        return self.kind.value


# Top-level directories of a Unix system (and macOS). Their contents belong to the OS.
_SYSTEM_TOPS = frozenset(
    {
        "bin", "boot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "opt", "proc", "root",
        "sbin", "sys", "usr", "var", "snap", "System", "Library", "Applications",
        "private", "home", "Users", "Windows", "windows", "Program Files", "Program Files (x86)",
        "ProgramData",
        # the Nix store and its database: every program of a NixOS system lives there
        "nix",
    }
)  # fmt: skip
_TEMP_PREFIXES = (("tmp",), ("var", "tmp"), ("dev", "shm"), ("private", "tmp"))
# Devices that hold a whole disk or the machine's memory; every other /dev entry (null,
# tty*, pts, random...) is harmless to read or write.
_DISK_DEVICE_PREFIXES = (
    "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "mem", "kmem", "port", "disk", "rdisk", "loop", "md", "dm-",
    "mapper", "sr", "root", "nbd", "zram", "ram", "bus", "fb", "mtd", "cciss", "ada", "da", "drbd", "rbd", "zd",
)  # fmt: skip
#: Folders of /dev that hold terminals, sound, input and other character devices (not volumes).
_CHARACTER_DEVICE_DIRS = frozenset(
    {"pts", "fd", "net", "input", "snd", "dri", "char", "cpu", "hugepages", "serial", "v4l", "usb", "vfio",
     "bsg", "hidraw", "infiniband", "vhost-net", "dma_heap", "tty", "stdin", "stdout", "stderr"}
)  # fmt: skip
#: Where installed Python packages live, for code that asks Python (`find_spec(...).origin`, `sysconfig`'s purelib):
#: a file written there changes what every program importing the package runs.
INSTALLED_PACKAGES = "/usr/lib/python3/site-packages"
#: A browser profile's files of saved sessions, passwords and history.
_BROWSER_PROFILE_FILES = frozenset({"cookies", "login data", "web data", "local state", "history", "cookies.sqlite"})
# Files whose content is a secret wherever they live.
_SECRET_NAMES = frozenset(
    {
        "shadow", "gshadow", "shadow-", "master.passwd", ".netrc", ".pgpass", ".git-credentials", ".renviron",
        # a Splunk forwarder's key for its stored passwords, an OSSEC or Wazuh agent's keys
        "splunk.secret", "client.keys", "authd.pass",
        # Traefik's ACME store (every certificate's private key)
        "acme.json",
        # TrueNAS's configuration database and the secret its stored passwords are encrypted with
        "freenas-v1.db", "pwenc_secret",
        # a ZeroTier node's private identity (its local API token is read to ask the service on this machine)
        "identity.secret",
        ".npmrc", ".pypirc", ".env", ".envrc", "credentials", "credentials.json", "id_rsa", "id_dsa",
        "id_ecdsa", "id_ed25519", "login data", "cookies", "key3.db", "key4.db", "logins.json",
        "cookies.sqlite", "web data", "local state", "wallet.dat", ".vault-token", "kubeconfig",
        "application_default_credentials.json", "access_tokens.db", "accesstokens.json",
        "msal_token_cache.json", ".boto", ".s3cfg", "secrets.yaml", "secrets.yml", "secrets.json",
        ".htpasswd", "keychain", "login.keychain-db", "passwd", "environ", "kcore", "id_rsa_legacy", "sudoers",
        "tailscaled.state", "keystore.properties", "firebase-tools.json", "loginusers.vdf", "ssfn",
        "sam.ldb", "secrets.ldb", "ntds.dit", "krb5.keytab", "service_account.json", "service-account.json",
        "serviceaccount.json", "oauth2service.json", "wp-config.php", "configuration.php", "localsettings.php",
        "sip.conf", "pjsip.conf", "google-ads.yaml", "googleads.yaml",
        # applications' own database and master passwords (ZoneMinder, Odoo)
        "zm.conf", "odoo.conf", ".odoorc", "openerp-server.conf", "freepbx.conf",
        # the shared secret every node of an Erlang cluster (RabbitMQ, CouchDB) authenticates with
        ".erlang.cookie",
        # Grafana's admin password, secret key and database password
        "grafana.ini",
        # Icecast's source, relay and admin passwords (whoever has them takes over the stream)
        "icecast.xml",
        # adb's private key (every phone that trusted this computer accepts it)
        "adbkey",
        # MySQL's client logins (the maintenance account's too) and ProxySQL's admin and backend credentials
        ".mylogin.cnf", "debian.cnf", "proxysql.cnf",
        # the VirusTotal CLI's API key
        ".vt.toml",
        # Claude Code's login (OAuth tokens)
        ".credentials.json",
        # PostgreSQL's settings written by ALTER SYSTEM (a standby's primary_conninfo holds the replication password)
        "postgresql.auto.conf",
        # Perforce's login tickets; k3s's and RKE2's admin kubeconfigs and the token every node joins with
        ".p4tickets", "k3s.yaml", "rke2.yaml", "node-token",
        # OpenStack's clouds (passwords or application credentials), the MAAS CLI's profiles (API keys), the Linode
        # and Vultr CLIs' tokens
        "clouds.yaml", "secure.yaml", ".maascli.db", "linode-cli", ".vultr-cli.yaml",
        # ActiveMQ Artemis's users and their passwords; Akamai's API client credentials; aptly's publishing keys
        "artemis-users.properties", ".edgerc", "aptly.conf",
        # PyIceberg's catalogs (their tokens and object-store keys)
        ".pyiceberg.yaml",
    }
)  # fmt: skip
# Directories whose whole content is secret.
_SECRET_DIRS = frozenset(
    {
        ".ssh", ".aws", ".gnupg", ".azure", ".kube", ".docker", ".password-store", "gcloud",
        # SAP's secure store, NetSuite's CLI credentials
        "rsecssfs", ".netsuitecli", ".suitecloud-sdk",
        ".mozilla", "google-chrome", "bravesoftware", ".thunderbird", "keychains",
        "1password", "keepassxc", ".terraform.d", "ssl/private", ".vault", "secrets", "discord",
        "discordcanary", "tdata", "wallets", "keystore", ".electrum", "exodus", ".bitcoin", ".ethereum",
        "local storage", "opera software", "microsoft/edge", "credentials", "wireguard", "system-connections",
        # iPhone backups (messages, photos, keychain items)
        "mobilesync",
        # AI coding agents' session transcripts (the user's prompts, pasted keys, tool output)
        ".claude/projects", ".codex/sessions",
        # Ethereum validators' signing keys (lighthouse, teku, prysm) and the deposit CLI's output
        "lighthouse/validators", "teku/validator", "validator_keys", "prysm/wallet",
        # App Store Connect API keys (where altool and fastlane look for them)
        ".appstoreconnect", "private_keys", ".private_keys",
        # Subversion's cached logins; CockroachDB's node and client certificates with their keys (the CA's too)
        ".subversion/auth", ".cockroach-certs", "cockroach/certs",
        # Teleport's client profiles and certificates (`tsh login` keys)
        ".tsh",

        # NATS's operator and account seeds (nsc), a Pulsar cluster's issued tokens
        "nsc/keys", "conf/tokens",
        # Home Assistant's users, password hashes and refresh tokens
        ".storage/auth",
    }
)  # fmt: skip
#: Applications whose data directory (below ~/.config, ~/.local/share, ~/Library/Application Support, a snap or
#: a flatpak) holds private messages, mail, keys or a browser profile; elsewhere the name means nothing.
_PRIVATE_APP_DIRS = frozenset(
    {"chromium", "signal", "slack", "telegram desktop", "telegramdesktop", "whatsapp", "element", "skype",
     "microsoft teams", "teams", "zoom", "evolution", "geary", "keyrings", "vivaldi", "thunderbird", "wire", "session"}
)  # fmt: skip
_APP_DATA_PARENTS = frozenset({".config", "share", "application support", "snap", "app"})
_SECRET_DIR_NAMES = frozenset(d for d in _SECRET_DIRS if "/" not in d)
_SECRET_DIR_PATHS = tuple(d for d in _SECRET_DIRS if "/" in d)
_MACOS_PRIVATE_DIRS = frozenset(
    {"messages", "safari", "mail", "cookies", "com.apple.tcc", "keychains", "accounts", "calendars",
     "addressbook", "com.apple.safari", "notes", "group containers"}
)  # fmt: skip
_TOKEN_TOOL_DIRS = frozenset(
    {"gh", "github-copilot", "glab-cli", "hub", "rclone", "heroku", "doctl", "hcloud", "netlify", "vercel", "op",
     "huggingface",
     "wandb",
     "stripe", "solana", "hubspot", "twilio-cli", "sf", "sfdx", "argocd"}
)  # fmt: skip
#: Directories right below the home where command-line tools keep their login tokens (every file is one).
_HOME_TOKEN_DIRS = frozenset({".sfdx", ".sf", ".twilio-cli", ".fly", ".railway", ".config/hubspot",
                              ".config/twilio-cli"})  # fmt: skip
_TOKEN_FILES = frozenset({"hosts.yml", "rclone.conf", "credentials", "config.yaml", "cli.toml",
                          "auth.json", "token", "stored_tokens", "settings", "config.toml", "id.json",
                          "hosts.json", "apps.json", "config"})  # fmt: skip
_TOKEN_NAMES = frozenset({"credentials.toml", ".terraformrc", ".dockercfg", "rclone.conf", ".vault-token",
                          "state.vscdb"})  # fmt: skip
#: Asterisk's settings that hold secrets (peers' passwords, manager and ARI logins, voicemail PINs).
_ASTERISK_SECRETS = ("sip", "pjsip", "iax", "manager", "voicemail", "ari", "res_odbc", "cdr_", "cel_", "chan_")
_PRIVATE_KEY_NAME = re.compile(r"(?:^|[_.-])priv(?:ate)?(?:[_.-]|$)")
_SECRET_SUFFIXES = (".key", ".p12", ".pfx", ".keystore", ".jks", ".kdbx", ".ppk", ".tfstate", ".tfstate.backup", ".p8",
                    ".keytab",
                    # NATS's credentials files (its nkey seeds live in nsc's keys folder: `.nk` is also Nuke's scripts)
                    ".creds",
                    ".ovpn", ".keyring")
_HISTORY_NAMES = frozenset(
    {".bash_history", ".zsh_history", ".history", ".python_history", ".mysql_history",
     ".psql_history", ".sh_history", ".node_repl_history", ".dbshell", "mongosh_repl_history", ".rediscli_history",
     ".sqlite_history", ".lesshst", ".viminfo", "wtmp", "btmp", "lastlog",
     "auth.log",
     "syslog", "secure", "messages", "kern.log", "audit.log", "faillog", "system.journal"}
)  # fmt: skip
#: The system's own logs: an administrator reads them all day; rewriting or deleting them hides tracks.
_SYSTEM_LOGS = frozenset(
    {"wtmp", "btmp", "lastlog", "auth.log", "syslog", "secure", "messages", "kern.log", "audit.log", "faillog",
     "system.journal"}
)  # fmt: skip
_RC_NAMES = frozenset(
    {
        ".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zprofile", ".zshenv",
        ".zlogin", ".cshrc", ".tcshrc", ".kshrc", "config.fish", ".xinitrc", ".xprofile",
        ".xsessionrc", "bash.bashrc", "profile", "environment", "rc.local", "crontab", "anacrontab",
        "authorized_keys", "authorized_keys2", "sitecustomize.py", "usercustomize.py", ".pythonrc",
        ".vimrc", ".inputrc", ".bash_logout", ".gitconfig", ".npmrc", ".pam_environment", ".bash_aliases",
        ".zsh_aliases",
        # what IEx and erl run at the start of every console and node (`~/.iex.exs`, `~/.erlang`)
        ".iex.exs", ".erlang",
        # what mongosh and the legacy mongo shell run at the start of every session
        ".mongoshrc.js", ".mongorc.js",
    }
)  # fmt: skip
_PERSISTENCE_DIRS = frozenset(
    {
        "cron.d", "cron.daily", "cron.hourly", "cron.weekly", "cron.monthly", "crontabs", "cron",
        "systemd", "init.d", "rc.d", "profile.d", "autostart", "launchagents", "launchdaemons",
        "xdg", "update-motd.d", "udev", "hooks", "startup", "modules-load.d", "environment.d",
    }
)  # fmt: skip
#: Settings files of systemd's own daemons in /etc/systemd (they start nothing).
_SYSTEMD_DAEMON_SETTINGS = frozenset(
    {"journald.conf", "logind.conf", "resolved.conf", "timesyncd.conf", "coredump.conf", "networkd.conf",
     "sleep.conf", "oomd.conf", "homed.conf", "pstore.conf", "journal-upload.conf", "journal-remote.conf"}
)  # fmt: skip
_PRIVILEGE_NAMES = frozenset(
    {"sudoers", "passwd", "shadow", "group", "gshadow", "ld.so.preload", "pam.d", "sudoers.d",
     "ld.so.conf", "ld.so.conf.d", "polkit-1", "doas.conf", "security"}
)  # fmt: skip
_CA_BUNDLES = frozenset(
    {"cacert.pem", "ca-certificates.crt", "ca-bundle.crt", "ca-bundle.trust.crt", "tls-ca-bundle.pem"}
)
_HOME_ALIASES = frozenset({"~", "$HOME", "${HOME}", "%USERPROFILE%", "$USERPROFILE"})
_USER = "\x01user"  # placeholder user name for "~" (cannot clash with a real name)
# Below these, content is regenerable: deleting it loses nothing (caches, trash).
_DISPOSABLE_DIRS = frozenset(
    {".cache", "__pycache__", "node_modules", ".pytest_cache", ".mypy_cache", ".ruff_cache", "trash", ".npm",
     ".yarn", ".pnpm-store", ".gradle", ".m2", ".ccache", ".ivy2", ".sbt", ".nuget", "caches", ".bun", "cache",
     "transcodes", "thumbnails"}
)  # fmt: skip
#: Folder names a cache's own name ends with (`plugin-cache`, `et-cache`, `page_cache`; a build agent's virtualenvs
#: built for its jobs, `~/.clearml/venvs-builds`).
_CACHE_SUFFIXES = ("-cache", "_cache", "venvs-builds", "-builds")
#: An application's folders it regenerates on its own (Magento's compiled code and preprocessed views, its temporary
#: folders, Grocy's compiled views, Django's collected static files).
_REGENERATED_DIRS = frozenset({"view_preprocessed", "generated", "temp", "tmp", "viewcache", "staticfiles",
                               "templates_c"})  # (Smarty's compiled templates: `_data/templates_c`)
#: A key file named as the public half of a pair (`oauth-public.key`, `public_key.pem`, `jwt-pubkey.pem`).
_PUBLIC_KEY_NAME = re.compile(r"(?:^|[-_.])(?:public|pubkey)(?:[-_.]?key)?\.(?:key|pem)$", re.IGNORECASE)
#: BIND's DNSSEC key pair files: `K<zone>.+<algorithm>+<id>.key` holds the public DNSKEY (`.private`, the secret).
_DNSSEC_PUBLIC_KEY = re.compile(r"^k[\w.-]+\.\+0\d{2}\+[\d\x00…*?]+\.key$", re.IGNORECASE)  # (1xx: HMAC, secret)
#: A CI agent account's workspaces (Jenkins, GitLab Runner, Buildkite, GitHub's runner).
_CI_WORKSPACE = re.compile(
    r"^/home/(?:jenkins|gitlab-runner|buildkite-agent|runner|github-runner|teamcity|bamboo|drone)/(?:[^/]+/)*"
    r"(?:workspace|builds|_work)/."
)
#: Folders a build or a test run writes and rebuilds.
_BUILD_OUTPUT = frozenset(
    {"build", "dist", "out", "target", "tmp", "temp", ".next", ".nuxt", "coverage", ".tox", ".venv", "venv",
     "htmlcov", "_build", "bin", "obj", ".terraform", "artifacts", "__sapper__", ".svelte-kit", ".parcel-cache",
     ".coverage", ".nox", ".hypothesis", ".turbo", ".angular", ".expo", ".vite",
     # Unreal's and Xcode's build output (`Binaries`, `Intermediate`, `Saved/StagedBuilds`, `DerivedData`)
     "binaries", "intermediate", "stagedbuilds", "deriveddata"}
)  # fmt: skip


def rebuilt_folder(name: str) -> bool:
    """``name`` (a folder's name) is one a build or a package manager fills again: build output or dependencies."""
    lowered = name.strip("/").lower()
    return lowered in _BUILD_OUTPUT or lowered in _DEPENDENCY_DIRS


#: A web framework's command that fills its collected static files folder again (Django's, Mayan's).
_STATIC_REBUILT = re.compile(r"\b(?:collectstatic|preparestatic)\b")
_STATIC_FOLDERS = frozenset({"static", "staticfiles", "static_root", "collected_static"})


def static_folder_rebuilt(path: str, text: str) -> bool:
    """``path`` is a web application's collected static files folder, which ``text`` has the framework fill again
    (`rm -rf /var/lib/mayan/static` before `mayan-edms.py preparestatic`): generated, not data."""
    return posixpath.basename(path.rstrip("/")) in _STATIC_FOLDERS and _STATIC_REBUILT.search(text) is not None


#: The file an application keeps the key it encrypts its stored credentials with in (Flowise's `encryption.key`).
_DATA_ENCRYPTION_KEYS = frozenset({"encryption.key", "encryption_key", ".encryption_key", "encryptionkey"})
#: Folders a package manager fetches again.
_DEPENDENCY_DIRS = frozenset({"node_modules", "vendor", "bower_components"})


def _components(path: str) -> tuple[bool, list[str]]:
    """Split ``path`` into (absolute, components) after home and ``..`` normalisation."""
    text = path.strip().replace("\\", "/")
    for alias in _HOME_ALIASES:
        if text == alias or text.startswith(alias + "/"):
            text = "~" + text[len(alias) :]
            break
    if text.startswith("~") and not text.startswith("~/") and text != "~":
        # ~user/... is another user's home: as sensitive as ours.
        rest = text.split("/", 1)
        text = "~/" + rest[1] if len(rest) > 1 else "~"
    if text.startswith("file://"):
        text = text[len("file://") :]
    if len(text) >= 2 and text[1] == ":" and text[0].isalpha():
        text = "/" + text[2:].lstrip("/")  # C:\Windows -> /Windows (a system top below)
    elif text.startswith("/mnt/") and len(text) >= 6 and text[5].isalpha() and text[6:7] in ("", "/"):
        text = text[6:] or "/"  # WSL's /mnt/c is the Windows drive C:, /mnt/c/Users/dana a Windows home
    if text == "~" or text.startswith("~/"):
        # Spell the home as /home/<user> so that "~/.." normalises to /home, not ".".
        text = "/home/" + _USER + text[1:]
    absolute = text.startswith("/")
    normal = posixpath.normpath(text) if text else "."
    comps = [c for c in normal.split("/") if c and c != "."]
    if not absolute:
        # "../../etc/passwd" climbs out of the working directory towards the system.
        while comps and comps[0] == "..":
            comps.pop(0)
            absolute = True
        if absolute and (not comps or comps[0] not in _SYSTEM_TOPS):
            absolute = False
    return absolute, comps


def _home_relative(absolute: bool, comps: list[str]) -> list[str] | None:
    """The components below the user's home, or None when ``comps`` is not in a home."""
    if absolute and len(comps) >= 2 and comps[0] in ("home", "Users"):
        return comps[2:]
    if absolute and comps and comps[0] == "root":
        return comps[1:]
    return None


#: Where containers mount the host's root (`docker run -v /:/host`, a DaemonSet's hostPath `/host`).
_HOST_MOUNT = re.compile(r"^/(?:host|hostfs|host-root|host_root|mnt/host)/(?=[^/])")


#: OpenStack services whose /etc/<service>/*.conf hold the database's and the service account's passwords.
_OPENSTACK_SERVICES = frozenset({"nova", "neutron", "keystone", "glance", "cinder", "ironic", "ironic-inspector",
                                 "heat", "octavia", "barbican", "placement", "manila", "designate", "swift"})
#: A database's or a broker's connection URL (its query names the certificates and keys the client logs in with).
_CONNECTION_URL = re.compile(
    r"(?:postgres(?:ql)?|mysql|mariadb|cockroachdb|mongodb(?:\+srv)?|rediss?|amqps?)(?:\+\w+)?://"
)


@functools.lru_cache(maxsize=8192)
def classify(path: str) -> PathInfo:
    """Classify ``path`` (may contain :data:`HOLE`)."""
    if not path or path.strip(HOLE + " ") == "":
        return PathInfo(path, PathKind.UNKNOWN)
    if "?" in path and _CONNECTION_URL.match(path):
        # (`postgresql://…/shop?sslkey=~/.certs/client.key`: the client authenticates with the key it is given)
        return attrs.evolve(classify(path[: path.index("?")]), path=path)
    host = _HOST_MOUNT.match(path) if path.startswith(("/host", "/mnt/host")) else None
    if host is not None:
        # the host's root mounted into a container (`-v /:/host`): /host/etc/ld.so.preload is the host's file
        return attrs.evolve(classify(path[host.end() - 1 :]), path=path)
    absolute, comps = _components(path)
    lowered = [c.lower() for c in comps]
    name = lowered[-1] if lowered else ""
    if ("*" in name or name.endswith(HOLE)) and name.strip("*" + HOLE):
        name = name.replace("*", "").replace(HOLE, "")  # a glob (`.env*`, `id_*`) matches the file it spells
    home = _home_relative(absolute, comps)
    kind = _kind(absolute, comps, home)
    joined = "/".join(lowered)
    secret = (
        name in _SECRET_NAMES
        or name.endswith(_SECRET_SUFFIXES)
        # .pem holds certificates (public) as often as keys: only key-looking names count
        or (name.endswith(".pem") and any(k in name for k in ("key", "priv", "id_")))
        # an exported private key by its name (`serverkey_private.asc`)
        or (_PRIVATE_KEY_NAME.search(name) is not None and name.endswith((".asc", ".gpg", ".der", ".jwk")))
        or name in _SECRET_DIR_NAMES
        or not _SECRET_DIR_NAMES.isdisjoint(lowered[:-1])
        or any(part in joined for part in _SECRET_DIR_PATHS)
        or (name.startswith(".env.") and not name.endswith((".example", ".sample", ".template")))
        or (name.endswith(".env") and name != ".env" and absolute and home is None)  # /opt/app/conf/broker.env
        or (len(lowered) >= 2 and lowered[-2] == ".ssh" and name.startswith("id_"))
        # a browser's recording of a session (HAR): every request's cookies and authorization headers
        or name.endswith(".har")
        # a Jupyter kernel's connection file (its signing key lets anyone run code in it), a server's token file
        or ("runtime" in lowered[:-1] and name.startswith(("kernel-", "jpserver-", "nbserver-"))
            and name.endswith((".json", ".html")))
        or ("runtime" in lowered[:-1] and "jupyter" in lowered[:-1] and name.endswith(".json"))
        or (name == "runtime" and lowered[-2:-1] == ["jupyter"])
        # OpenStack services' settings (database and service passwords), Graylog's password secret and admin hash,
        # NetBox's secret key and database password
        or (len(lowered) >= 3 and lowered[0] == "etc" and lowered[1] in _OPENSTACK_SERVICES and name.endswith(".conf"))
        or (name == "server.conf" and "graylog" in lowered[:-1])
        or (name == "configuration.py" and "netbox" in lowered[:-1])
        # Gitea's and GitLab's own secrets (session and token signing keys, the database password)
        or (name == "app.ini" and any(c in ("gitea", "forgejo", "gogs") for c in lowered))
        or name in ("gitlab-secrets.json",)
        # a MongoDB replica set's internal key (whoever holds it joins the set as a member: every document)
        or (name.endswith("keyfile") and any("mongo" in c for c in lowered))
        # RADIUS's shared secrets with every network device, and its database password
        or ("freeradius" in lowered[:-1] and name in ("clients.conf", ".dbpass", "sql", "authorize", "users"))
        # network devices' configuration archives (their passwords, keys and SNMP communities) and the logins
        # RANCID and Oxidized use to fetch them
        or name == ".cloginrc"
        # remote-support agents' settings: their IDs, password hashes and unattended-access keys
        or (any(c in ("anydesk", ".anydesk", "teamviewer", "rustdesk") for c in lowered[:-1])
            and name.endswith((".conf", ".toml", ".ini")))
        # a swarm manager's keys and its raft log (the cluster's secrets, encrypted with keys kept beside them)
        or lowered[:4] == ["var", "lib", "docker", "swarm"]
        # an ssh agent's socket and its directory (whoever reaches it signs with the user's keys)
        or (absolute and len(lowered) in (2, 3) and lowered[0] == "tmp" and lowered[1].startswith("ssh-")
            and (len(lowered) == 2 or name.startswith("agent.")))
        # a PKI directory taken whole (a cluster's or a service's CA and keys), a certificate's live directory
        or (absolute and name == "pki" and lowered[0] == "etc")
        or (absolute and len(lowered) == 4 and lowered[:3] == ["etc", "letsencrypt", "live"])
        # the ssh server's directory taken whole: its host keys (whoever has them is this host to every client)
        or (absolute and lowered == ["etc", "ssh"])
        # acme.sh's saved DNS provider API keys and account settings
        or (".acme.sh" in lowered[:-1] and name.endswith(".conf"))
        # CUPS' queue definitions (device URIs carry share passwords) and its spool (the documents people printed)
        or (lowered[:2] == ["etc", "cups"] and name in ("printers.conf", "classes.conf"))
        or lowered[:3] == ["var", "spool", "cups"]
        # PHP applications' own configuration (Moodle, Nextcloud, phpBB): the database password
        or (name == "config.php" and absolute and (lowered[:2] in (["var", "www"], ["srv", "www"]) or any(
            c in ("moodle", "nextcloud", "owncloud", "phpbb", "phpmyadmin") for c in lowered[:-1])))
        # Magento's `app/etc/env.php`: the database password and the encryption key of the store
        or (name == "env.php" and lowered[-3:-1] == ["app", "etc"])
        or (("oxidized" in lowered or "rancid" in lowered)
            and (any(c in ("configs", "configs.git") for c in lowered) or name == "config"))
        # a payment HSM's key components and the machine's HSM folder (zone master keys, PIN keys)
        or _KEY_COMPONENT_NAME.search(name) is not None
        or (absolute and "hsm" in lowered[:-1])
        # tokens of command-line tools kept in their config directory (gh, glab, hub, rclone...)
        or (
            (".config" in lowered[:-2] or ".cache" in lowered[:-2] or len(lowered) == 2)
            and lowered[-2].lstrip(".") in _TOKEN_TOOL_DIRS
            and name in _TOKEN_FILES
        )
        or name in _TOKEN_NAMES
        # a service's key folder outside any project (/opt/drm/keys, /srv/app/private_keys)
        or (absolute and home is None and any(c in ("keys", "private_keys", "privkeys") for c in lowered[1:]))
        or (home is not None and any("/".join(home[:n]).lower() in _HOME_TOKEN_DIRS for n in (1, 2)))
        # a token tool's whole directory below ~/.config (~/.config/gh: hosts.yml and all)
        or (home is not None and len(home) == 2 and home[0] == ".config" and home[1].lower() in _TOKEN_TOOL_DIRS)
        or name.endswith(".binarycookies")
        # service-account keys (Firebase admin SDK), signing passwords in the user's Gradle properties,
        # Foundry's keystores
        or "firebase-adminsdk" in name
        or (name.endswith(".json") and _SERVICE_ACCOUNT_KEY.search(name) is not None)  # sa-key.json, gcp_sa_key.json
        or (name == "settings.php" and "sites" in lowered[:-1])  # Drupal's database credentials and salt
        # Let's Encrypt's whole tree, its accounts and archived keys (the live certificates are public)
        or lowered == ["etc", "letsencrypt"]
        or "letsencrypt/accounts" in joined
        or "letsencrypt/archive" in joined
        or (name.endswith(".json") and "keypair" in name)  # Solana identity, vote and withdrawer keys
        # Mirth Connect's keystores and database credentials
        or ("mirthconnect" in lowered[:-1] and any(c in ("appdata", "conf") for c in lowered))
        or name in ("mirth.properties", "keystore.jks")
        # Asterisk's configuration: SIP peers' secrets, the manager interface's passwords, voicemail PINs
        or (lowered[:2] == ["etc", "asterisk"] and name.endswith(".conf")
            and (name.startswith(_ASTERISK_SECRETS) or "*" in name or HOLE in name))
        # Wi-Fi passwords (wpa_supplicant), OctoPrint's API key, secret key and users
        or name.startswith("wpa_supplicant") or name == "octopi-wpa-supplicant.txt"
        or (".octoprint" in lowered[:-1] and name in ("config.yaml", "users.yaml"))
        # Concourse's fly targets (bearer tokens), a TeamCity agent's auth token and the server's database login
        or name in (".flyrc", "buildagent.properties")
        or (name == "database.properties" and ".buildserver" in lowered[:-1])
        # n8n's folder and its `config` (the key that decrypts every stored credential)
        or name == ".n8n" or (name == "config" and lowered[-2:-1] == [".n8n"])
        # Plex Media Server's settings (its PlexOnlineToken signs in as the owner's plex.tv account)
        or (name == "preferences.xml" and "plex media server" in lowered[:-1])
        # data tools' connection profiles (warehouse passwords, workspace tokens) and monitoring agents' API keys
        or (name.startswith("credentials.") and name.endswith((".ini", ".yaml", ".yml", ".toml", ".cfg", ".conf")))
        or name in (".databrickscfg", "secrets.env", "secrets.toml", "secrets.ini", "newrelic-infra.yml")
        or (name == "profiles.yml" and ".dbt" in lowered[:-1])
        or (name == "config" and ".snowsql" in lowered[:-1])
        or (name == "datadog.yaml" and "datadog-agent" in lowered[:-1])
        # Zigbee2MQTT's network key and MQTT password, and its coordinator backup (the key again)
        or ("zigbee2mqtt" in lowered[:-1] and name in ("configuration.yaml", "secret.yaml", "coordinator_backup.json"))
        # mail servers' login databases and relay passwords, and DKIM signing keys (Debian's /etc/dkimkeys)
        or (lowered[:2] == ["etc", "dovecot"] and name in ("users", "passwd", "passwd.db"))
        or name in ("sasl_passwd", "sasl_passwd.db", "passwd.client")
        or "dkimkeys" in lowered[:-1]
        # host keys and certificate authorities of sshd, private keys kept in a CA's `private/` folder
        or (lowered[:2] == ["etc", "ssh"] and (name.endswith(("_key", "_ca")) or "ca_key" in name))
        or (len(lowered) >= 2 and lowered[-2] == "private" and name.endswith(_KEY_MATERIAL))
        # an app's keys file below the home (`~/.config/ccxt/keys.json`, `~/.myapp/api_keys.yaml`)
        or (home is not None and len(home) >= 2 and _KEYS_FILE.fullmatch(name) is not None)
        or (name == "gradle.properties" and ".gradle" in lowered[:-1])
        or (len(lowered) >= 2 and lowered[-2] == "keystores" and ".foundry" in lowered)
        or (home is not None and _private_app_data(lowered))
        or any(c.endswith((".photoslibrary", ".photolibrary")) for c in lowered)
        # macOS keeps mail, messages, browser data and privacy grants below ~/Library
        or ("library" in lowered[:-1] and any(d in lowered[:-1] for d in _MACOS_PRIVATE_DIRS))
    )
    # ssh's ControlMaster sockets (`ControlPath ~/.ssh/cm-%r@%h:%p`): connections, no key material
    control_socket = _CONTROL_SOCKET.match(name) is not None
    public = (name.endswith(".pub") or name in ("known_hosts", "authorized_keys", "config") or "config.d" in lowered
              or control_socket)  # fmt: skip
    if (public and ".ssh" in lowered) or name.endswith(".pub") or _DNSSEC_PUBLIC_KEY.match(name) or (
        _PUBLIC_KEY_NAME.search(name) is not None
    ):
        # a public key is public wherever it is kept (`secrets/deploy_key.pub`, `storage/oauth-public.key`)
        secret = False
    svnserve = lowered[-2:-1] == ["conf"] and any("svn" in c for c in lowered[:-2])  # its logins, in plain text
    if name == "passwd" and not (absolute and lowered[:1] == ["etc"]) and not svnserve:
        secret = False  # only the system password database is sensitive
    if "mobilesync" in lowered[:-1] and name in ("info.plist", "status.plist"):
        secret = False  # a backup's device name, version and date (its content stays secret)
    if absolute and lowered[:3] in (["var", "lib", "lockdown"], ["var", "db", "lockdown"]):
        secret = True  # iOS pairing records: each one unlocks a phone that trusted this computer
    if name == ".gpg-id" and ".password-store" in lowered[:-1]:
        secret = False  # the ids of the GPG keys the store is encrypted to (public)
    if "serviceaccount" in lowered[:-1] and name != "token":
        secret = False  # a pod's namespace name and the cluster's CA certificate are public
    if secret and "truststore" in name:
        secret = False  # trusted CA certificates (public), whatever the keystore format
    if secret and kind is PathKind.RELATIVE and name in _BROWSER_PROFILE_FILES and any(
        "test" in c or "e2e" in c or c in ("tmp", "fixtures") for c in lowered[:-1]
    ):
        secret = False  # a throwaway browser profile a project's end-to-end tests made (their own cookies)
    if secret and "extensions" in lowered[:-1] and name.endswith((".json", ".js", ".css", ".html", ".png", ".svg")):
        secret = False  # an installed browser extension's own files (its manifest, scripts), not the profile's data
    if name == "mem" and lowered[:1] == ["proc"]:
        secret = True  # another process's memory: its keys and passwords
    if name in ("environ",) and "proc" not in lowered:
        secret = False
    if name == "credentials" and not any(c.startswith(".") for c in lowered[:-1]) and HOLE not in path:
        secret = False  # a project file called "credentials" in the working directory
    if name == "config" and len(lowered) >= 2 and lowered[-2] == ".aws":
        secret = False  # region and profile names; the keys live in ~/.aws/credentials
    if kind in (PathKind.NULL, PathKind.DEVICE):
        secret = False
    if secret and name.endswith(".txt") and any("dkim" in c for c in lowered[:-1]):
        secret = False  # opendkim-genkey's `<selector>.txt`: the public key's DNS record, published on purpose
    # (`messages`, `secure`, `syslog` are the system's logs only in a log folder: `/families/17/messages` is not)
    history = name in _HISTORY_NAMES and (name not in _SYSTEM_LOGS or any("log" in c for c in lowered[:-1]))
    persistence = _is_persistence(lowered, name, home, absolute)
    privilege = (
        absolute
        and bool(lowered)
        and lowered[0] == "etc"
        # (/etc/passwd itself, not a proxy's `/etc/squid/passwd` login file)
        and ((name in _PRIVILEGE_NAMES and (len(lowered) == 2 or name not in ("passwd", "group")))
             or any(c in _PRIVILEGE_NAMES for c in lowered[1:-1]))
    )
    # authorized_keys lets a key log in; TCC.db grants screen, camera and disk access on macOS
    privilege = privilege or name in ("authorized_keys", "tcc.db")
    # the certificates every TLS connection trusts: a rogue CA added there intercepts them all
    privilege = privilege or name in _CA_BUNDLES or "ca-certificates" in lowered[:-1] or "ca-trust" in lowered
    return PathInfo(
        path,
        kind,
        secret=secret,
        persistence=persistence,
        privilege=privilege,
        history=history,
        public=public,
    )


def _kind(absolute: bool, comps: list[str], home: list[str] | None) -> PathKind:
    if home is not None:
        if not home or _everything(home):
            return PathKind.HOME_TOP
        if home[0].lower() in _DISPOSABLE_DIRS or (len(home) >= 2 and home[1].lower() == "caches"):
            return PathKind.TEMP
        if "deriveddata" in (c.lower() for c in home):
            return PathKind.TEMP  # ~/Library/Developer/Xcode/DerivedData: Xcode's build cache
        if home[0].lower() in (".local", ".config", ".var", "snap", "library") and any(
            c.lower() in ("cache", "caches", "swap", "__pycache__") for c in home[2:]
        ):
            return PathKind.TEMP  # ~/.local/state/nvim/swap, ~/.local/share/app/cache: an application's cache
        return PathKind.HOME
    if not absolute:
        if not comps or _everything(comps):
            return PathKind.WORKDIR
        if all(c.replace(HOLE, "") in ("", "*") for c in comps[:1]) and HOLE in comps[0]:
            return PathKind.UNKNOWN
        return PathKind.RELATIVE
    if not comps or _everything(comps):
        return PathKind.ROOT
    top = comps[0]
    for prefix in _TEMP_PREFIXES:
        if tuple(comps[: len(prefix)]) == prefix:
            return PathKind.TEMP
    if comps[:2] == ["run", "user"] and len(comps) >= 4:
        return PathKind.TEMP  # a file of a user's runtime directory (a pid file, a socket): gone at logout
    if top == "dev" and len(comps) >= 2:
        if comps[1] in ("shm", "mqueue"):
            return PathKind.TEMP
        if comps[1].startswith(_DISK_DEVICE_PREFIXES) or comps[1] in ("disk", "block") or comps[1].startswith(HOLE):
            return PathKind.DEVICE
        if HOLE in comps[1] and any(p.startswith(comps[1].split(HOLE)[0]) for p in _DISK_DEVICE_PREFIXES):
            return PathKind.DEVICE  # `/dev/r${disk}`: a disk's name completed at run time
        if len(comps) >= 3 and comps[1] not in _CHARACTER_DEVICE_DIRS:
            return PathKind.DEVICE  # /dev/<volume group>/<logical volume>: a disk of LVM
        return PathKind.NULL
    if top in ("home", "Users") and (len(comps) == 1 or _everything(comps[1:])):
        return PathKind.SYSTEM_TOP  # every user's home at once
    if len(comps) == 1 or _everything(comps[1:]):
        return PathKind.SYSTEM_TOP  # any top-level directory: /etc, /mnt, /data...
    if top in _SYSTEM_TOPS or HOLE in top:
        return PathKind.SYSTEM
    # /srv/<app>, /data/x, /mnt/backup: data of services and users, not the OS's own files
    return PathKind.EXTERNAL


def _everything(comps: list[str]) -> bool:
    """``comps`` is a glob for every file below: ``*``, ``**``, ``**/*``."""
    return all(c in ("*", "**") for c in comps)


def _sourced_at_shell_start(home: list[str]) -> bool:
    """A file below the home that a shell sources at every start: oh-my-zsh's ``custom/*.zsh``, the
    ``~/.zshrc.d/`` and ``~/.bashrc.d/`` drop-in folders, fish's ``conf.d``."""
    name = home[-1] if home else ""
    return (
        (home[:2] == [".oh-my-zsh", "custom"] and name.endswith(".zsh") and len(home) == 3)
        or (len(home) == 2 and home[0] in (".zshrc.d", ".bashrc.d", ".bash_profile.d", ".profile.d"))
        or (home[:3] == [".config", "fish", "conf.d"] and name.endswith(".fish"))
    )


def _is_persistence(lowered: list[str], name: str, home: list[str] | None, absolute: bool) -> bool:
    if name.startswith(".") and HOLE in name and name.endswith(("rc", "profile")) and len(lowered) <= 3:
        return True  # ~/.${SHELL##*/}rc: the user's shell rc file, whichever shell
    if name in _RC_NAMES:
        # "profile"/"environment" only count under /etc; dotfiles count anywhere in a home.
        if name in ("profile", "environment", "crontab") and lowered[:1] != ["etc"]:
            return name == "crontab" and "spool" in lowered
        project_file = not absolute and bool(lowered) and HOLE not in lowered[0] and "$" not in lowered[0]
        if name.startswith("authorized_keys") and project_file and ".ssh" not in lowered:
            return False  # a key file a repository's configuration management ships (`roles/base/files/`)
        # editor and tool settings are not run by the shell: dotfile managers link them all the time
        return name not in (".gitconfig", ".npmrc", ".vimrc", ".inputrc")
    installed = absolute or bool(lowered and HOLE in lowered[0])  # not a file of the project
    if home is not None and _sourced_at_shell_start([c.lower() for c in home]):
        return True
    if lowered[-2:-1] == ["systemd"] and name in _SYSTEMD_DAEMON_SETTINGS:
        return False  # journald's or logind's own settings (sizes, timeouts), not a unit that runs something
    if any(d in _PERSISTENCE_DIRS for d in lowered[:-1]):
        # git hooks (.git/hooks, ~/.config/git/hooks) run on every commit; other "hooks" dirs are just names
        if "hooks" in lowered[:-1] and ".git" not in lowered and "git" not in lowered:
            return False
        # a project's own udev/ or systemd/ folder is source code; only the system's and the home's run
        return installed or "hooks" in lowered[:-1]
    startup = (name == ".rprofile" and (home is not None or absolute)) or (name == ".octaverc" and home is not None)
    if startup or name == "rprofile.site" or (name == "startup.jl" and lowered[-3:-1] == [".julia", "config"]):
        return True  # R's, Octave's and Julia's startup code, run at every session's start (not a project's own)
    if name.endswith("profile.ps1") and ("powershell" in lowered or "windowspowershell" in lowered):
        return True  # PowerShell's profiles: run in every PowerShell session the user starts
    if "startup" in lowered and "start menu" in lowered:
        return True  # Windows' Startup folder: what is in it runs at every logon
    if "_work" in lowered and ("_actions" in lowered or "_tool" in lowered) and "actions-runner" in lowered:
        return True  # a self-hosted runner's cached actions and tools: later jobs run them
    if name in ("custom.js", "custom.css") and lowered[-3:-1] == [".jupyter", "custom"]:
        return True  # the classic notebook loads ~/.jupyter/custom/custom.js into every notebook page
    if name == "delegates.xml" and any(c.startswith("imagemagick") for c in lowered[:-1]):
        return installed or home is not None  # ImageMagick's table of shell commands, run on every conversion
    if name.endswith((".service", ".timer", ".socket")) or name.endswith(".plist"):
        return installed and ("systemd" in lowered or "launchagents" in lowered or "launchdaemons" in lowered)
    # a .pth file runs its `import` lines at every interpreter start; an unknown directory
    # (`$(python3 -c 'print(site.getsitepackages()[0])')`) is most likely the site directory
    return bool(
        name.endswith(".pth")
        and ("site-packages" in lowered or "dist-packages" in lowered or any(HOLE in c for c in lowered[:-1]))
    )


#: A project's own settings files (its .env, its CMS configuration): read by its own tooling, not read out.
#: A project's environment files per stage (``.env.local``, ``.env.development``).
_ENV_VARIANT = re.compile(r"^\.env\.[\w-]+$")
_OWN_SETTINGS = frozenset({".env", ".envrc", ".htpasswd", "wp-config.php", "settings.php", "configuration.php",
                           "localsettings.php", ".npmrc", ".yarnrc", ".yarnrc.yml"})  # fmt: skip


#: A certificate or key file in a service's TLS folder under /etc (or that folder itself, copied into).
_SERVICE_TLS_FILE = re.compile(
    r"^/etc/(?:ssl/(?!certs(?:/|$))[\w.-]+|(?!ssl/|pki/|kubernetes/)[\w.-]+/(?:[\w.-]+/)?(?:tls|ssl|certs?))/"
    r"(?:[\w.-]+\.(?:key|pem|crt|cert|p12|pfx))?$"
)


def service_tls_file(path: str) -> bool:
    """``path`` is a certificate or key in a service's own TLS folder under /etc (``/etc/nginx/tls/privkey.pem``,
    ``/etc/ssl/realtime/``), not the machine's trust store nor a cluster's CA."""
    return _SERVICE_TLS_FILE.match(path) is not None


def application_settings(path: str) -> bool:
    """``path`` is a deployed application's own settings file (``/var/www/limesurvey/application/config/config.php``,
    ``/opt/formbricks/.env``): its database login and keys beside the settings a program checks or uses."""
    name = _EDIT_COPY.sub("", posixpath.basename(path))
    return application_tree(path) and (
        name in _OWN_SETTINGS or _ENV_VARIANT.match(name) is not None or name in _APPLICATION_SETTINGS
    )


def database_file(path: str) -> bool:
    """``path`` names an application's whole database, a database server's data or log file, or a dump of one
    (``users.db``, ``app.sqlite-wal``, ``tempdb.mdf``, ``crm.sql.gz``)."""
    return _DATABASE_FILE.search(path) is not None


_DATABASE_FILE = re.compile(
    r"\.(?:sqlite3?|db|mdb|accdb|fdb|mdf|ndf|ldf|dbf|ibd|sql|dump)(?:-wal|-shm|-journal)?$|\.sql\.gz$", re.IGNORECASE
)
#: Names of a web application's main settings file, beside its code (database login and keys among them).
_APPLICATION_SETTINGS = frozenset({"config.php", "config.inc.php", "local.php", "app.ini", "configuration.py",
                                   "settings.py", "parameters.yml", "database.yml", "config.yml", "config.yaml"})


#: ssh ControlMaster socket names (`ControlPath ~/.ssh/cm-%r@%h:%p`).
_CONTROL_SOCKET = re.compile(r"(?:cm|control|master|mux|ctl|sockets?)[-_%]")
#: Payment keys by their names: zone, terminal and PIN master keys, key-encrypting keys, their components.
#: (a bare `KEK` is a firmware variable's name, as `efi-readvar -v KEK` gives it: a key file has more to its name)
_KEY_COMPONENT_NAME = re.compile(r"(?:^|[_.-])(?:zmk|zpk|tmk|tpk|lmk|kek|pvk|cvk)[_.-]"
                                 r"|[_.-](?:zmk|zpk|tmk|tpk|lmk|kek|pvk|cvk)$|key_?components?")
#: A file that by its name holds an application's API keys, secrets or tokens.
_KEYS_FILE = re.compile(r"(?:api[_-]?)?(?:keys?|secrets?|tokens?)\.(?:json|ya?ml|toml|ini|env)", re.IGNORECASE)
#: SDKs and toolchains of hosted CI images, deleted to free disk space on a runner.
_PREINSTALLED_TOOLCHAINS = ("/usr/share/dotnet/", "/usr/local/lib/android/", "/opt/ghc/", "/opt/hostedtoolcache/",
                            "/usr/local/share/boost/", "/usr/local/.ghcup/", "/usr/share/swift/")  # fmt: skip
#: A tool's log folder inside its own dot-directory of the home (``~/.ros/log/2024-…``).
_APP_LOGS = re.compile(r"^~/\.[^/]+/(?:[^/]+/)*logs?(?:/[^/]|/?$)")  # (its files, or the whole logs folder)
def _private_app_data(lowered: list[str]) -> bool:
    """A messenger's, mail client's or keyring's data directory below an application-data folder."""
    return any(d in _PRIVATE_APP_DIRS and i > 0 and lowered[i - 1] in _APP_DATA_PARENTS for i, d in enumerate(lowered))


#: Certificate keys and key stores by their extension: inside a project, its own (development) keys.
_KEY_MATERIAL = (".key", ".pem", ".p12", ".pfx", ".jks", ".keystore")


def read_level(info: PathInfo) -> RiskLevel:
    """Risk of reading the file at ``info``."""
    # `auth.log`, its rotations (`auth.log.2.gz`) and a glob over them (`auth.log*`)
    log = re.sub(r"(?:\.\d+)?(?:\.gz)?\*?$", "", posixpath.basename(info.path).lower())
    if info.history and log in _SYSTEM_LOGS and not info.secret:
        return RiskLevel.SAFE
    own_name = _EDIT_COPY.sub("", posixpath.basename(info.path))  # `.env.bak`: the copy `sed -i.bak` left
    if info.secret and info.kind is PathKind.RELATIVE and (
        own_name in _OWN_SETTINGS or _ENV_VARIANT.match(own_name) or info.path.lower().endswith(_KEY_MATERIAL)
        or own_name.endswith((".tfstate", ".tfstate.backup"))  # the project's own state, read by its own tools
    ):
        # the project's own settings or its own (development) TLS keys, used by its own tooling; sent anywhere,
        # the flow that carries them is critical
        return RiskLevel.MEDIUM
    if info.secret and (tool_profile(info.path) or info.path.lower().endswith(".har") or "/freeradius/" in info.path):
        # the user's connection profiles, read by their own tools, and session recordings read to debug or redact
        # them; sent anywhere, the flow that carries them is critical
        return RiskLevel.MEDIUM
    if info.secret and info.privilege and _components(info.path)[1][-2:-1] in ([], ["etc"], ["sudoers.d"]) and (
        posixpath.basename(info.path) == "sudoers" or "/sudoers.d/" in info.path
    ):
        # who may run what as root, read to audit it (no password is in it); sent anywhere, the flow is critical
        return RiskLevel.MEDIUM
    if info.secret and _CONTAINER_SECRET.match(info.path):
        # one secret a container was given (Docker and Compose mount them there), read by the app it was given to;
        # sent anywhere, the flow that carries it is critical
        return RiskLevel.MEDIUM
    if info.secret or info.history:
        return RiskLevel.HIGH
    if info.kind is PathKind.DEVICE:
        return RiskLevel.HIGH  # raw disks and /dev/mem hold everything
    return RiskLevel.SAFE


#: One named secret mounted into a container (`/run/secrets/db_password`), not a glob over all of them.
_CONTAINER_SECRET = re.compile(r"^/(?:var/)?run/secrets/[\w.-]+$")


def whole_file_system(path: str, *, listed: bool = False) -> bool:
    """``path`` is ``/``, or (``listed``: a loop over ``os.listdir("/")``) every top-level folder in turn."""
    return path.strip() == "/" or (listed and path == "/" + HOLE)


def holds_app_secrets(path: str) -> bool:
    """``path`` is a folder of many applications' settings (``~/.config``, ``~/.local/share``, ``~/Library``,
    ``/etc``): among them their tokens, keys and saved logins (gh's hosts.yml, rclone.conf, a browser profile)."""
    absolute, comps = _components(path)
    home = _home_relative(absolute, comps)
    lowered = [c.lower() for c in (home if home is not None else comps)]
    if home is not None:
        return lowered in ([".config"], [".local"], [".local", "share"], ["library"],
                           ["library", "application support"], [".var", "app"], ["snap"])  # fmt: skip
    return absolute and lowered == ["etc"]


def git_hook(path: str) -> bool:
    """``path`` is one hook of a repository (``.git/hooks/pre-commit``)."""
    return bool(re.search(r"(?:^|/)\.git/hooks/[^/]+$", path))


def repository_file_for_hook(source: str, hook: str) -> bool:
    """``source`` lies in the same repository as the git ``hook`` linked to it (``scripts/hooks/pre-commit``
    for ``.git/hooks/pre-commit``): the project's own tracked hook, installed."""
    if not git_hook(hook) or "/.git/" in f"/{source}" or "://" in source:
        return False
    if source.startswith(("/", "~")) and not hook.startswith("/"):
        return False  # a file elsewhere on the machine, for the working directory's repository
    root = hook.rsplit(".git/hooks/", 1)[0]
    return source.startswith(root)


def tool_profile(path: str) -> bool:
    """A tool's connection profiles in the user's home (dbt's profiles.yml, ~/.databrickscfg, snowsql's config,
    kubectl's and OctoPrint's config), or the copy an edit of one goes through (``config.json.tmp``): targets and
    settings next to the credentials."""
    lowered = _EDIT_COPY.sub("", path.lower().replace("\\", "/"))
    return lowered.endswith(
        ("/.dbt/profiles.yml", "/.databrickscfg", "/.snowsql/config", "/.kube/config", "/.octoprint/config.yaml",
         "/.vault-token", "/serviceaccount/token")
    ) or (lowered in ("~/.databrickscfg", "~/.vault-token"))


def profile_edit(path: str, read: Iterable[str]) -> bool:
    """Writing ``path`` edits a tool profile this code read first (read, changed, written back): docker's
    config.json too, whose registry logins are printed when it is only read, and an application's ``.env`` (a
    secret rotated in place)."""
    base = _EDIT_COPY.sub("", path)
    profile = tool_profile(path) or base.lower().endswith("/.docker/config.json") or posixpath.basename(base) == ".env"
    return profile and any(_EDIT_COPY.sub("", r) == base for r in read)


def soften_profile_reads(findings: list[Finding], path: str, rule: str) -> list[Finding]:
    """``findings`` with the ``rule`` reads of the profile ``path`` (or of its edit copy) lowered to MEDIUM."""
    base = _EDIT_COPY.sub("", path)
    names = {describe(classify(p)) for p in (base, *(base + s for s in (".tmp", ".new", ".bak")))}
    return [
        attrs.evolve(f, level=RiskLevel.MEDIUM)
        if f.rule_id == rule and f.level > RiskLevel.MEDIUM and any(f.message.endswith(n) for n in names)
        else f
        for f in findings
    ]


#: The suffix of the temporary or backup copy a file is edited through.
_EDIT_COPY = re.compile(r"\.(?:tmp|new|bak|orig|swp)$|\.tmp\.[\w\x00]+$")


#: Names of files that only hold view settings or thumbnails (deleting them loses nothing).
JUNK_NAMES = frozenset({".ds_store", "thumbs.db", "desktop.ini", "ehthumbs.db", ".directory", "*.pyc", "*.pyo",
                        "__pycache__", "*.swp", "*~", ".~lock.*", "._*"})  # fmt: skip
#: A web application archive dropped into a servlet container's deployment folder.
_DEPLOYED_ARCHIVE = re.compile(
    r"^/(?:var/lib|opt|usr/share|srv)/[\w.-]*(?:tomcat|jetty|wildfly)[\w.-]*/webapps/[\w.-]+\.war$"
)
#: /etc folders of the system and of the services and tools it is made of (their settings change the machine).
_SYSTEM_SETTINGS_DIRS = frozenset(
    {"ssh", "sudoers.d", "pam.d", "security", "systemd", "apt", "yum.repos.d", "dnf", "profile.d", "ld.so.conf.d",
     "modprobe.d", "modules-load.d", "udev", "sysctl.d", "default", "network", "networkmanager", "netplan", "ssl",
     "pki", "ca-certificates", "selinux", "apparmor", "apparmor.d", "audit", "rsyslog.d", "logrotate.d", "polkit-1",
     "dbus-1", "x11", "grub.d", "init.d", "skel", "sysconfig", "cron.d", "cron.daily", "cron.hourly", "cron.weekly",
     "cron.monthly", "crontabs", "docker", "containerd", "kubernetes", "nginx", "apache2", "httpd", "haproxy",
     "postfix", "dovecot", "exim4", "mysql", "postgresql", "redis", "samba", "bind", "dnsmasq.d", "wireguard",
     "openvpn", "iptables", "nftables.d", "firewalld", "ufw", "fail2ban", "sssd", "krb5.conf.d", "ldap", "openldap",
     "letsencrypt", "cups", "libvirt", "initramfs-tools", "dracut.conf.d", "tmpfiles.d", "environment.d", "xdg",
     "dconf", "gdm", "gdm3", "lightdm", "sddm", "polkit", "chrony", "ntp", "systemd-resolved", "resolvconf",
     "update-motd.d", "rc.local.d", "local.d", "supervisor", "sv", "runit", "binfmt.d", "wpa_supplicant", "opt",
     "ansible", "salt", "puppetlabs", "chef", "consul.d", "vault.d", "nomad.d", "etcd", "kong", "traefik", "envoy",
     "caddy", "step-ca", "munge", "slurm", "keycloak", "dropbear", "xrdp", "anydesk", "firejail", "mosquitto",
     "freeradius", "elasticsearch", "grafana", "prometheus", "datadog-agent", "filebeat", "fluent-bit", "influxdb",
     "rabbitmq", "patroni", "opendkim", "restic", "vmware", "secureboot", "gatekeeper", "jupyterhub", "rstudio",
     "claude-code", "conda", "pip", "npm", "java", "maven", "gradle", "imagemagick-6", "pve", "hostapd",
     "opensearch", "kibana", "logstash", "mongod", "mongodb", "memcached", "varnish", "squid", "unbound", "knot",
     "powerdns", "coredns", "keepalived", "corosync", "pacemaker", "ceph", "glusterfs", "zfs", "mdadm", "lvm",
     "multipath", "iscsi", "nfs", "exports.d", "smartd", "nut", "snmp", "zabbix", "nagios", "icinga2", "telegraf",
     "loki", "tempo", "alertmanager", "vector", "otelcol", "ossec", "wazuh", "falco", "suricata", "snort", "clamav",
     "crowdstrike", "osquery", "auditbeat", "tailscale", "zerotier", "strongswan", "ipsec.d", "ppp", "dhcp",
     "containers", "cni", "crio", "k3s", "rancher", "minio", "gitlab", "gitlab-runner", "jenkins", "sonarqube",
     "nexus", "artifactory", "harbor", "registry", "gitea", "drone", "buildkite-agent", "github-runner"}
)  # fmt: skip
#: An application's environment or secret file in its folder under /etc (`/etc/orders/app.env`, `…/api_token`,
#: `/etc/delivery-planner/freight.key`).
_APP_ENV_FILE = re.compile(
    r"^/etc/(?P<app>[\w.-]+?)(?:/(?:[\w.-]+\.env|\.env|env|environment"
    r"|[\w.-]*(?:password|passwd|secret|token|api[_.]?key)[\w.-]*|[\w-]+\.key)"
    r"|\.env)$"  # (or one named for it straight under /etc: `/etc/vaultwarden.env`)
)
#: An application's own settings file in its folder under /etc (`/etc/tempmon/tempmon.toml`), or in one folder of it
#: (a collector's or an alert's own file, `/etc/netdata/go.d/nginx.conf`).
_APP_SETTINGS = re.compile(
    r"^/etc/(?P<app>[\w.-]+)/(?:[\w.-]+/)?(?:[\w.-]+\.(?:toml|ya?ml|json|conf|ini|cfg|properties|pem|crt|cer)"
    r"|config\.js)(?:\.tmp|\.new)?$"  # (or a Node application's `config.js`: Renovate's /etc/renovate/config.js)
)


def app_settings(path: str) -> bool:
    """``path`` is an application's own settings file in its own folder under /etc, not the system's."""
    found = _APP_SETTINGS.match(path)
    return found is not None and found["app"].lower() not in _SYSTEM_SETTINGS_DIRS


def app_main_settings(path: str) -> bool:
    """``path`` is an application's main settings file in its own folder under /etc, named for the application or
    as its config (``/etc/odoo/odoo.conf``, ``/etc/grocy/config.ini``): its database login beside the settings a
    program checks; not a key or a certificate."""
    found = _APP_SETTINGS.match(path)
    if found is None or found["app"].lower() in _SYSTEM_SETTINGS_DIRS or path.endswith((".pem", ".crt", ".cer")):
        return False
    stem = posixpath.basename(path).split(".")[0].lower()
    return stem in (found["app"].lower(), "config", "settings", "app", "main")


def app_environment_file(path: str) -> bool:
    """``path`` is an application's own environment or secret file under /etc (``/etc/orders/app.env``,
    ``/etc/gameserver/rcon_password``): the secrets it is deployed with, rendered there by its deployment."""
    found = _APP_ENV_FILE.match(path)
    return found is not None and found["app"].lower() not in _SYSTEM_SETTINGS_DIRS


#: Diagnostic dumps: JVM heap dumps and error logs, core files.
_DIAGNOSTIC_DUMP = re.compile(r"\.hprof\b|^core\.[\w…*]+$|\.core$|^hs_err_pid")
#: A file name marked temporary by its writer: a `.tmp` (or `.temp`) part before the end or a number.
_TEMPORARY_NAME = re.compile(r"\.(?:tmp|temp|part|partial|crdownload)(?:\.[\w*?…]*)?$", re.IGNORECASE)
_TRASH = ("~/.Trash/", "~/.local/share/Trash/", "/.Trashes/")


def _app_root(path: str) -> list[str]:
    """The folder an application is deployed in (``/var/www/<site>``, ``/srv/<app>``, ``/opt/<app>``)."""
    parts = path.split("/")
    return parts[:4] if parts[1:3] == ["var", "www"] else parts[:3]


def application_spool(path: str) -> bool:
    """``path`` is in an application's own spool folder (``/var/spool/lis/…``), not the system's (cron, mail)."""
    comps = path.split("/")
    return len(comps) >= 5 and comps[:3] == ["", "var", "spool"] and comps[3] not in _SYSTEM_SPOOLS


def keeps_data(source: str, dest: str) -> bool:
    """A move or rename that keeps what it moves: a backup name beside it, another name in the same folder of the
    home or the project, or the Trash (recoverable)."""
    if not dest or not source:
        return False
    if any(marker in dest + "/" for marker in _TRASH):
        return True
    src, dst = source.split(HOLE, 1)[0].rstrip("/"), dest.split(HOLE, 1)[0].rstrip("/")
    if dest.startswith(source) and dest != source:
        return True  # ~/.zshrc -> ~/.zshrc.bak
    if any(c.lower() in ("quarantine", "quarantined") for c in dest.split("/")):
        return True  # a suspect file set aside for review, not destroyed
    if dest.startswith("/") and _BACKUP_DIR.search(dest) and not _BACKUP_DIR.search(source):
        return True  # old recordings or logs moved into an archive or backup folder: kept, only elsewhere
    if source.startswith("~/Downloads/") and dest.startswith("~/") and not dest.startswith("~/Downloads"):
        return True  # a download put where it belongs (a key into its tool's settings folder): still in the home
    if source.startswith("~/.") and dest.startswith("~/") and not any(
        c.lower() in _DISPOSABLE_DIRS or c.lower() in ("tmp", "temp") for c in dest.split("/")
    ):
        # `~/.tmux.conf` to `~/.config/tmux/tmux.conf`, a dotfile into `~/.dotfiles_backup/<date>/`: still the user's
        return True
    if application_spool(source) and application_spool(dest) and source.split("/")[:4] == dest.split("/")[:4]:
        return True  # /var/spool/lis/error/x.hl7 -> /var/spool/lis/inbound/: moved between an application's queues
    if application_tree(source) and application_tree(dest) and _app_root(source) == _app_root(dest):
        return True  # /var/www/forum/uploads/incoming/x -> …/quarantine/x: moved within the application's own tree
    if posixpath.dirname(source) and posixpath.dirname(source) == posixpath.dirname(dest):
        return True  # renamed in its own folder
    absolute, src_parts = _components(src)
    _, dst_parts = _components(dst)
    # ~/Downloads/x -> ~/Downloads/Images/x: sorted within the same folder of the home
    home = _home_relative(absolute, src_parts)
    if home is not None:
        return len(src_parts) >= 3 and src_parts[:3] == dst_parts[:3]
    # /srv/photos/inbox/x -> /srv/photos/library/2024/x: sorted within the same share
    return absolute and len(src_parts) >= 3 and src_parts[:2] == dst_parts[:2] and _kind(True, src_parts, None) in (
        PathKind.EXTERNAL,
    )


def planted_link(link: PathInfo, target: PathInfo) -> bool:
    """A link in the shared temporary directory to a secret, privileged or start-up file of the system or the
    home: whoever writes or reads the link's name (a root job's predictable file) reaches the target."""
    return (
        link.kind is PathKind.TEMP
        and (target.secret or target.privilege or target.persistence)
        and target.kind in (PathKind.SYSTEM, PathKind.HOME, PathKind.HOME_TOP)
    )


#: Commands a file of the same name earlier on PATH (/usr/local/bin) would stand in for: a trojan.
_SHADOWED_COMMANDS = frozenset(
    {"ls", "ps", "sudo", "su", "ssh", "scp", "bash", "sh", "cat", "cp", "mv", "rm", "find", "grep", "login",
     "passwd", "top", "netstat", "ss", "who", "w", "id", "curl", "wget", "systemctl", "crontab", "lsof", "env",
     "which", "sshd", "mount", "chmod", "chown", "kill", "dig", "nc"}
)  # fmt: skip


#: A limit of a cgroup of one's own (`/sys/fs/cgroup/batch/memory.max`) or the file that places processes in it.
#: A limit set in the part of the tree systemd delegates to a user (`…/user@1000.service/app.slice/etl/memory.max`).
_USER_CGROUP_LIMIT = re.compile(
    r"^/sys/fs/cgroup/user\.slice/user-[^/]+\.slice/user@[^/]+\.service/(?:[^/\x00*]+/)+(?:memory\.(?:max|high)|pids\.max"
    r"|cpu\.(?:max|weight)|io\.(?:max|weight)|cgroup\.procs)$"
)
_OWN_ID_MAP = re.compile(r"^/proc/self/(?:uid_map|gid_map|setgroups)$")
_CGROUP_LIMIT = re.compile(
    # (a group of one's own: systemd's slices, scopes and services hold the machine's services and users)
    r"^/sys/fs/cgroup/(?:(?![^/]*\.(?:slice|scope|service)/)[^/\x00*]+/)+(?:memory\.(?:max|high|low|min|swap\.max)|pids\.max|cpu\.(?:max|weight)"
    r"|io\.(?:max|weight)|cpuset\.(?:cpus|mems)|cgroup\.(?:procs|threads|subtree_control))$"
)


#: A board's LEDs and GPIO pins in sysfs.
_BOARD_IO = re.compile(r"^/sys/class/(?:leds/[^/]+/(?:brightness|trigger|delay_on|delay_off)"
                       r"|gpio/(?:export|unexport|gpio\d+/(?:value|direction|edge|active_low)))$")


#: The kernel's tuning knobs for performance and debugging (CPU frequency governors, huge pages, a block queue's
#: scheduler, console log level, dynamic debug, PCI rescans and driver binding): set and reset every day, unlike its
#: security switches (`kptr_restrict`, `randomize_va_space`, `core_pattern`, `sysrq-trigger`, `modules_disabled`).
_KERNEL_TUNABLE = re.compile(
    r"^/sys/devices/system/cpu/(?:cpu[^/]*/)?cpufreq/(?:policy[^/]*/)?(?:scaling_governor|scaling_max_freq"
    r"|scaling_min_freq|energy_performance_preference|boost)$|^/sys/devices/system/cpu/intel_pstate/\w+$"
    r"|^/sys/(?:kernel/mm|devices/system/node/[^/]+)/hugepages/hugepages-[^/]+/nr_(?:overcommit_)?hugepages$"
    r"|^/sys/kernel/mm/transparent_hugepage/(?:enabled|defrag)$|^/sys/block/[^/]+/queue/(?:scheduler|read_ahead_kb"
    r"|nr_requests|rotational)$|^/proc/sys/kernel/printk$|^/sys/kernel/debug/dynamic_debug/control$"
    r"|^/sys/bus/pci/(?:rescan|drivers_probe|devices/[^/]+/(?:driver_override|rescan|driver/unbind)"
    r"|drivers/[^/]+/(?:bind|unbind|new_id))$|^/proc/sys/vm/(?:drop_caches|swappiness|dirty_\w+)$"
    # storage and driver modules' performance parameters (the ZFS ARC's size, NVMe queue depths)
    r"|^/sys/module/(?:zfs|spl|nvme|nvme_core|scsi_mod|nfs|sunrpc|md_mod|dm_mod|mlx5_core|ixgbe)/parameters/\w+$"
)


def kernel_tunable(path: str) -> bool:
    """``path`` is one of the kernel's performance or debugging knobs (see :data:`_KERNEL_TUNABLE`)."""
    return _KERNEL_TUNABLE.match(path.replace(HOLE, "x")) is not None


#: Which kernel modules load at boot and with what options (blacklists, `options`, `alias` lines).
_MODULE_SETTINGS = re.compile(r"^/etc/(?:modprobe\.d|modules-load\.d)/[^/]+\.conf$|^/etc/modules$")


#: The system's own copies in /var/backups (account files, dpkg's and apt's state, alternatives).
_SYSTEM_BACKUP_NAME = re.compile(r"(?:passwd|group|shadow|gshadow|dpkg|apt|alternatives|infodir|aptitude)\b")


#: Folders whose files a web or TFTP server hands out.
_SERVED_ROOTS = ("/var/www/", "/var/lib/tftpboot/", "/srv/tftp/", "/tftpboot/")


#: The kinds of file that hold an organisation's or a person's work (photos, footage, recordings, documents,
#: spreadsheets, databases, scans, mail stores, drawings, CAD/CAM programs): every one of them in a tree, deleted
#: whatever its age, is the work itself.
WORK_FILE_SUFFIXES = frozenset(
    {".mp4", ".mov", ".mkv", ".avi", ".m4v", ".mxf", ".jpg", ".jpeg", ".png", ".heic", ".tif", ".tiff", ".dng", ".cr2",
     ".nef", ".raw", ".wav", ".mp3", ".flac", ".aif", ".aiff", ".m4a", ".csv", ".xls", ".xlsx", ".ods", ".odt", ".doc",
     ".docx", ".pdf", ".db", ".sqlite", ".sqlite3", ".mdb", ".accdb", ".dat", ".parquet", ".las", ".dlis", ".dcm",
     ".dicom", ".nii", ".eml", ".msg", ".pst", ".dwg", ".dxf", ".rvt", ".rfa", ".ifc", ".skp", ".step", ".stp", ".3dm",
     ".sldprt", ".sldasm", ".nc", ".cnc", ".ngc", ".gcode", ".mcd", ".lbrn", ".lbrn2", ".stl", ".3mf", ".f3d", ".ai",
     ".psd", ".indd", ".svg", ".cbz", ".cbr", ".epub", ".mobi", ".azw3", ".m4b"}
)  # fmt: skip


def write_level(info: PathInfo) -> RiskLevel:
    """Risk of creating, overwriting or appending to the file at ``info``."""
    if kernel_tunable(info.path) or _MODULE_SETTINGS.match(info.path) or (info.path + "/").startswith("/usr/src/"):
        return RiskLevel.MEDIUM  # (what a module setting runs, an `install` line, is judged on the text written)
    if info.kind is PathKind.DEVICE or (info.privilege and info.kind is not PathKind.RELATIVE):
        return RiskLevel.CRITICAL
    if info.persistence or info.history:
        return RiskLevel.HIGH
    if info.kind is not PathKind.RELATIVE and case_document(info.path) and not _NEW_CASE_FILE.search(info.path):
        return RiskLevel.HIGH  # a case's evidence, custody log or privileged record rewritten
    if _MODEL_CACHE_FILE.search(info.path):
        return RiskLevel.HIGH  # a cached model's files replaced: every later load of that model gets them
    if info.kind is PathKind.SYSTEM and info.path.startswith("/var/log/") and not info.history:
        return RiskLevel.LOW  # services and jobs append to their own logs
    if info.path.startswith(("/var/lock/", "/run/lock/")):
        return RiskLevel.LOW  # a lock file (`exec 9>/var/lock/etl.lock; flock -n 9`)
    if info.path in _LOCALE_SETTINGS:
        return RiskLevel.MEDIUM  # which locales are generated, the time zone: the machine's language settings
    if application_tree(info.path) and _APPLICATION_LOG.search(info.path):
        return RiskLevel.LOW  # an application's own log, or its compressed rotation (`storage/logs/app-1.log.gz`)
    if (
        info.kind is PathKind.SYSTEM
        and application_tree(info.path)
        and _APPLICATION_OUTPUT.search(info.path)
        and not (info.secret or info.persistence)
    ):
        return RiskLevel.MEDIUM  # an application's own archives, exports or reports (`/opt/pms/archive/…tar.gz`)
    if info.kind is PathKind.SYSTEM and info.path.startswith("/var/backups/") and posixpath.dirname(info.path) != (
        "/var/backups"
    ):
        return RiskLevel.LOW  # a new backup in a service's own folder of /var/backups (not the system's own copies)
    if posixpath.dirname(info.path) == "/var/backups" and not _SYSTEM_BACKUP_NAME.match(posixpath.basename(info.path)):
        return RiskLevel.MEDIUM  # a dated copy of a service's data (`wiki-2024-06-01.db`), not the system's own copies
    if "textfile_collector" in info.path or info.path.startswith(
        ("/var/lib/prometheus/node-exporter/", "/var/lib/node_exporter/textfile")
    ):
        return RiskLevel.LOW  # a metric for node_exporter's textfile collector
    if info.path.startswith(("/etc/apt/keyrings", "/usr/share/keyrings")):
        return RiskLevel.MEDIUM  # a key only the repositories naming it with signed-by trust
    if service_tls_file(info.path):
        # a service's own certificate or key put in its TLS folder (`/etc/nginx/tls/privkey.pem`): it serves with
        # them; the machine's trust store (`/etc/ssl/certs`, `/etc/pki`) and a cluster's CA are not such a folder
        return RiskLevel.MEDIUM
    if _BOARD_IO.match(info.path):
        return RiskLevel.LOW  # a board's LED or GPIO pin switched (the Pi's activity LED, a relay on pin 17)
    if _CGROUP_LIMIT.match(info.path) or _USER_CGROUP_LIMIT.match(info.path) or _OWN_ID_MAP.match(info.path):
        # (or a user's own delegated groups; a new user namespace's own id maps, written by the process itself)
        return RiskLevel.MEDIUM  # a child cgroup's limit set, or a process placed in it (not its release agent)
    name = posixpath.basename(info.path)
    if (
        info.path.startswith(("/usr/local/bin/", "/usr/local/lib/", "/usr/local/share/", "/opt/"))
        and not (info.persistence or info.privilege)
        and name
        and HOLE not in name
        and name not in _SHADOWED_COMMANDS
    ):
        return RiskLevel.MEDIUM  # one named program installed where the distribution ships nothing
    if (
        info.path.startswith(_SERVED_ROOTS)
        and "." in name
        and HOLE not in name.rsplit(".", 1)[1]  # (`/var/www/html/ks/{host}.ks`: the kind of file is known)
        and not (info.secret or _SERVED_CODE.search(name))
    ):
        # a file published on a site or to network-booting machines (a download, a page's data, a kickstart):
        # what it runs is judged apart
        return RiskLevel.MEDIUM
    if info.path.startswith(_SERVED_ROOTS[1:]) and not (info.secret or info.persistence or info.privilege):
        return RiskLevel.MEDIUM  # a boot loader, a kernel or a per-machine boot menu handed out by TFTP
    if info.path.startswith(("/var/lib/", "/usr/share/")) and _MEDIA_FILE.search(name) and not info.persistence:
        return RiskLevel.MEDIUM  # a sound or an image put in an application's data (`…/asterisk/sounds/custom/`)
    if _DEPLOYED_ARCHIVE.match(info.path) or (app_settings(info.path) and not info.secret):
        return RiskLevel.MEDIUM  # a web application deployed as a WAR; an application's own settings under /etc
    if app_environment_file(info.path):
        return RiskLevel.MEDIUM  # an application's environment file, its secrets rendered by its deployment
    if _APP_STATE_FILE.match(info.path) and not (info.secret or info.persistence or info.privilege) and (
        info.path.split("/")[3].lower() not in _STATE_STORES
    ):
        return RiskLevel.MEDIUM  # an application's own state in its /var/lib folder (`/var/lib/notify/seen.json`)
    if info.kind in (PathKind.ROOT, PathKind.SYSTEM_TOP, PathKind.SYSTEM):
        return RiskLevel.HIGH
    if name.lower() in _DATA_ENCRYPTION_KEYS and info.kind is not PathKind.RELATIVE:
        return RiskLevel.HIGH  # an application's key for what it stores encrypted replaced: all of that is lost
    if info.secret:
        # Creating .env from .env.example in a project, or a CI job's kubeconfig in the temporary
        # directory, is routine; overwriting the user's keys is not.
        if info.kind is PathKind.RELATIVE:
            return RiskLevel.LOW
        if HOLE in posixpath.basename(info.path) and not info.persistence and info.kind is PathKind.HOME:
            return RiskLevel.MEDIUM  # a new file named at run time (`prod-$(date).tfstate`): nothing overwritten
        if _NAMED_SSH_KEY.match(info.path) and name.split(".")[0] not in _DEFAULT_IDENTITIES:
            return RiskLevel.MEDIUM  # a key of its own for one service (`~/.ssh/bank_sftp_ed25519`), not the user's
        if _own_tool_credentials(info.path):
            return RiskLevel.MEDIUM  # a small tool's own login saved in its settings folder (`vendctl login`)
        if _NAMED_GCLOUD_KEY.match(info.path):
            return RiskLevel.MEDIUM  # a service account's key of its own (`~/.config/gcloud/translate-sa.json`)
        if _NAMED_KUBECONFIG.match(info.path):
            return RiskLevel.MEDIUM  # a kubeconfig of its own for one cluster (`~/.kube/dev.yaml`), not the user's
        where_credentials_live = (PathKind.HOME, PathKind.HOME_TOP, PathKind.SYSTEM, PathKind.ROOT)
        return RiskLevel.HIGH if info.kind in where_credentials_live else RiskLevel.MEDIUM
    if info.kind is PathKind.HOME_TOP:
        return RiskLevel.MEDIUM
    if info.kind is PathKind.HOME:
        return RiskLevel.LOW
    if info.kind is PathKind.UNKNOWN:
        return RiskLevel.LOW
    return RiskLevel.SAFE


#: The bookkeeping a job keeps in its own /var/lib folder: what it has seen, its cursor or last run (not its
#: records, logs or settings).
_APP_STATE_FILE = re.compile(
    r"^/var/lib/[\w.-]+/(?:[\w.-]+/)?[\w.-]*(?:seen|state|cursor|offset|last[_-]?run|checkpoint|progress|watermark)"
    r"[\w.-]*\.(?:json|txt|state|db|pickle)$",
    re.IGNORECASE,
)
#: An application's own output folders (what it archives, exports or reports), below its installed tree.
_APPLICATION_OUTPUT = re.compile(r"/(?:archives?|backups?|exports?|reports?|dumps?)/[^/]+$", re.IGNORECASE)
#: A kubeconfig of its own in the user's ~/.kube (one per cluster), not the default one.
_NAMED_KUBECONFIG = re.compile(r"^~/\.kube/[\w.-]+\.ya?ml$")
#: A key file of its own in gcloud's folder, not one of gcloud's own credential stores.
_NAMED_GCLOUD_KEY = re.compile(r"^~/\.config/gcloud/(?!application_default_credentials\.json$|credentials\.db$"
                               r"|access_tokens\.db$)[\w.-]+\.json$")  # fmt: skip
#: /var/lib folders of databases, package managers and container engines (their files are not pruned by age).
_STATE_STORES = frozenset({"postgresql", "pgsql", "mysql", "mariadb", "mongodb", "redis", "etcd", "docker",
                           "containerd", "containers", "kubelet", "dpkg", "apt", "rpm", "elasticsearch", "opensearch",
                           "cassandra", "influxdb", "clickhouse", "rabbitmq", "kafka", "zookeeper", "ldap",
                           "libvirt"})  # fmt: skip
#: Dot-folders of the home where a single client keeps its own key (a warehouse's or a database's CLI).
_KEYED_TOOL_DIRS = frozenset({"snowflake", "snowsql", "dbt", "databricks", "psql", "mysql", "clickhouse-client"})
#: ssh's ControlMaster sockets in a folder of their own under ~/.ssh.
_SSH_CONTROL_SOCKETS = re.compile(r"^~/\.ssh/(?:cm|sockets?|control\w*|mux|ctl)(?:/|$)")
#: The system's language and time-zone settings.
_LOCALE_SETTINGS = frozenset({"/etc/locale.gen", "/etc/default/locale", "/etc/locale.conf", "/etc/timezone",
                              "/etc/vconsole.conf"})  # fmt: skip


def _own_tool_credentials(path: str) -> bool:
    """``~/.config/<tool>/credentials.json`` (or ``~/.<tool>/key.p8``) of a tool that is not one whose credentials
    open other doors (a cloud CLI, a code host, a browser or a messenger)."""
    parts = path.split("/")
    if len(parts) == 3 and parts[0] == "~" and parts[1].startswith(".") and HOLE not in path:
        tool = parts[1][1:].lower()
        return bool(tool) and parts[1] not in _SECRET_DIR_NAMES and tool in _KEYED_TOOL_DIRS
    if len(parts) != 4 or parts[:2] != ["~", ".config"] or HOLE in path:
        return False
    tool = parts[2].lower()
    return not (tool in _SECRET_DIR_NAMES or tool in _TOKEN_TOOL_DIRS or tool in _PRIVATE_APP_DIRS
                or tool in {"gcloud", "gh", "hub", "git", "rclone", "op", "1password"})  # fmt: skip


#: A private key file with a name of its own directly in ~/.ssh (`deploy_ed25519`, `route-sync_rsa`, `bank.pem`).
_NAMED_SSH_KEY = re.compile(
    r"^~/\.ssh/(?!(?:authorized_keys2?|config|known_hosts(?:\.old)?|rc|environment)$)[\w.-]+$"
)
#: ssh's default identities: what every `ssh host` offers (replacing one changes who the user is everywhere).
_DEFAULT_IDENTITIES = frozenset({"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "id_ecdsa_sk", "id_ed25519_sk"})
#: System directories of package-manager caches (deleting them is the usual image clean-up).
PACKAGE_CACHES = (
    "/var/lib/apt/lists/",
    "/var/cache/apt/",
    "/var/cache/yum/",
    "/var/cache/dnf/",
    "/var/cache/apk/",
    "/var/cache/pacman/pkg/",
    "/var/cache/zypp/",
    # FreeBSD's package cache, its world and kernel build objects, poudriere's work folders and build logs
    "/var/cache/pkg/",
    "/usr/obj/",
    "/usr/local/poudriere/data/wrkdirs/",
    "/usr/local/poudriere/data/cache/",
    "/usr/local/poudriere/data/logs/",
)


def project_output(path: str) -> bool:
    """``path`` is a build output or cache folder of a project kept in a home (``~/src/app/build``,
    ``…/app/*.egg-info``), not a folder of the home itself."""
    absolute, comps = _components(path)
    below = _home_relative(absolute, comps) or []
    base = below[-1].lower().replace("*", "").replace(HOLE, "") if below else ""
    output = base in _BUILD_OUTPUT or base in _DISPOSABLE_DIRS or base.endswith(".egg-info")
    # an entry named as temporary (`~/builds/tmp-4711`), or anything in the home's own scratch folder (`~/tmp/x`)
    output = output or base.startswith(("tmp-", "tmp_", "tmp.", "temp-", "temp_", "scratch-", "scratch_"))
    output = output or (len(below) >= 2 and below[0].lower() in ("tmp", "temp", "scratch"))
    return output and len(below) >= 2


#: One tool's own folder unpacked under /usr/local (Go's, Node's, CUDA's), not the hierarchy's shared folders.
_LOCAL_TOOL_FOLDER = re.compile(r"^/usr/local/(?!(?:bin|sbin|lib|lib64|libexec|share|include|etc|src|man|games|var)$)"
                                r"[\w.+-]+$")  # fmt: skip


_RUNTIME_MARKER = re.compile(r"^/(?:var/)?(?:run|lock)/(?:[\w.-]+/)?[^/\x00]*\.(?:pid|lock)$")


def delete_level(info: PathInfo, *, recursive: bool) -> RiskLevel:
    """Risk of deleting ``info`` (and, if ``recursive``, everything below it)."""
    if posixpath.basename(info.path.rstrip("/")).lower() in JUNK_NAMES and info.kind not in (
        PathKind.ROOT,
        PathKind.SYSTEM_TOP,
    ):
        return RiskLevel.LOW  # .DS_Store, Thumbs.db, *.pyc: view settings and caches
    if posixpath.basename(info.path).startswith((".zcompdump", "zcompdump")) and info.kind is not PathKind.SYSTEM:
        return RiskLevel.LOW  # zsh's completion cache: compinit writes it again
    if _TEMPORARY_NAME.search(posixpath.basename(info.path)) and info.kind in (PathKind.HOME, PathKind.RELATIVE):
        return RiskLevel.LOW  # a program's half-written temporary files (`main.shada.tmp.*`, `x.json.tmp`)
    kind = info.kind
    if kind in (PathKind.ROOT, PathKind.SYSTEM_TOP, PathKind.HOME_TOP, PathKind.DEVICE):
        return RiskLevel.CRITICAL
    if not recursive and (
        _RUNTIME_MARKER.match(info.path) or (application_tree(info.path) and info.path.endswith((".pid", ".lock")))
    ):
        return RiskLevel.LOW  # a pid or lock file under /run or an application's tree: a running program's marker
    if recursive and posixpath.basename(info.path.rstrip("/")) == ".git" and kind is not PathKind.TEMP:
        return RiskLevel.HIGH  # the repository's whole history (a copy's, staged in a temporary folder, is not it)
    if kind is PathKind.SYSTEM and (info.path.rstrip("/") + "/").startswith(PACKAGE_CACHES):
        return RiskLevel.LOW  # package lists and downloaded packages: the package manager rebuilds them
    if kind is PathKind.SYSTEM and (info.path.rstrip("/") + "/").startswith(_PREINSTALLED_TOOLCHAINS):
        return RiskLevel.MEDIUM  # an SDK a hosted CI image ships (freeing its space): a reinstall brings it back
    if _LOCAL_TOOL_FOLDER.match(info.path.rstrip("/")):
        return RiskLevel.MEDIUM  # a tool unpacked into /usr/local (`/usr/local/go`), removed to be replaced
    if _BUILT_SOURCE.match(info.path) and not info.privilege:
        return RiskLevel.MEDIUM  # a source tree unpacked in /usr/src to be built (`…/asterisk-20.9.0/build`)
    if kind is PathKind.SYSTEM and not info.privilege and _DIAGNOSTIC_DUMP.search(posixpath.basename(info.path)):
        return RiskLevel.MEDIUM  # a crashed or inspected JVM's heap dump, a core file: diagnostics, gigabytes each
    if kind is PathKind.SYSTEM and not info.privilege and (
        any(c.lower() in _DISPOSABLE_DIRS for c in info.path.split("/")[3:])
        or (info.path.startswith("/var/cache/") and len([c for c in info.path.split("/") if c]) >= 3)
        or _regenerated_by_application(info.path)
        # (or a folder named as a cache inside a service's own data: `…/radicale/…/.Radicale.cache`, `pagecache`)
        or (_SERVICE_FOLDER.match(info.path) is not None and len(info.path.rstrip("/").split("/")) >= 5
            and posixpath.basename(info.path.rstrip("/")).lower().endswith("cache"))
    ):
        return RiskLevel.MEDIUM  # a service's cache (/var/lib/jellyfin/transcodes, /var/cache/nginx): regenerated
    if info.privilege or kind is PathKind.SYSTEM:
        return RiskLevel.CRITICAL if info.privilege else RiskLevel.HIGH
    parts = info.path.rstrip("/").split("/")
    if kind is PathKind.EXTERNAL and any(c.lower() in ("scratch", "tmp", "temp") for c in parts[1:-2]):
        # something inside one user's or job's folder of a shared scratch area (`/mnt/scratch/fio/run.1`), not the
        # area nor a user's whole folder in it
        return RiskLevel.MEDIUM
    if kind not in (PathKind.RELATIVE, PathKind.TEMP, PathKind.WORKDIR) and _BACKUP_DIR.search(info.path):
        return RiskLevel.HIGH  # backups, dumps or a database's WAL: the copies a restore needs
    if info.persistence and not info.secret and kind is PathKind.HOME and _USER_JOB.search(info.path):
        return RiskLevel.MEDIUM  # a user's own unit, timer or autostart entry removed: a job stops, no data lost
    if info.persistence and not info.secret and not recursive and git_hook(info.path):
        return RiskLevel.MEDIUM  # one hook of a repository removed: a check stops running, nothing is lost
    if _SSH_CONTROL_SOCKETS.match(info.path):
        return RiskLevel.LOW  # ssh's multiplexing sockets (`ControlPath ~/.ssh/cm/%r@%h:%p`): opened again
    if kind is PathKind.HOME and not info.persistence and not info.secret and _CI_WORKSPACE.match(info.path):
        return RiskLevel.MEDIUM  # a build agent's workspaces (`/home/jenkins/agent/workspace/app@tmp`): made again
    if kind is PathKind.HOME and not info.persistence and (
        any(c.lower() in _DISPOSABLE_DIRS or c.lower().endswith(_CACHE_SUFFIXES) for c in info.path.split("/")[1:-1])
        or posixpath.basename(info.path.rstrip("/")).lower().endswith(_CACHE_SUFFIXES)
    ):
        # a cache inside a tool's folder (`~/.terraform.d/plugin-cache`, a site's `wp-content/et-cache`): made again
        return RiskLevel.MEDIUM
    if kind is PathKind.TEMP and info.secret and not (info.persistence or info.history):
        return RiskLevel.LOW  # a key or token file put in the temporary folder for a job, removed after it
    if info.secret and kind is PathKind.HOME and not (info.persistence or info.history) and (
        any(c.lower() in ("cache", "caches") for c in info.path.split("/")) or "token_cache" in info.path.lower()
    ):
        return RiskLevel.MEDIUM  # cached sign-in tokens (`~/.aws/sso/cache`): the tool asks to sign in again
    if info.secret or info.persistence or info.history:
        return RiskLevel.HIGH
    if kind is PathKind.HOME and _installed_software(info.path):
        return RiskLevel.MEDIUM  # ~/.local/go: a toolchain a reinstall brings back (not ~/.local/share: data)
    if kind is PathKind.HOME and _APP_LOGS.search(info.path):
        return RiskLevel.MEDIUM  # a tool's own logs below its dot-directory (~/.ros/log/…): pruned, not data
    if kind is PathKind.HOME and project_output(info.path):
        return RiskLevel.MEDIUM  # a project's build output or caches (~/src/app/dist): the next build remakes them
    if kind is PathKind.HOME:
        return RiskLevel.HIGH if recursive else RiskLevel.MEDIUM
    lowered = info.path.lower()
    # (`./build/backup-artifacts`: a project's build output named after what it builds)
    built = kind is PathKind.RELATIVE and _components(info.path)[1][:1] in (["build"], ["dist"], ["out"], ["target"])
    if recursive and not built and (any(w in lowered for w in ("backup", "snapshot")) or lowered.startswith("/media/")):
        return RiskLevel.HIGH  # backups and removable media hold the only other copy of the data
    if recursive and kind in (PathKind.EXTERNAL, PathKind.UNKNOWN) and personal_media(info.path):
        return RiskLevel.HIGH  # a NAS share of photos, videos or documents: often the only copy
    if recursive and info.path.rstrip("/") in ("..", "../*", "../" + HOLE):
        return RiskLevel.HIGH  # everything beside the project: the user's other projects
    if kind is PathKind.EXTERNAL and recursive:
        # a data directory outside the project (a mount, /srv, /data) holds what no build brings back; its
        # build output and caches (/app/dist, /workspace/x/node_modules) do not
        rebuilt = any(c in _DISPOSABLE_DIRS or c in _BUILD_OUTPUT for c in lowered.split("/")[2:]) or (
            _regenerated_by_application(info.path)
        )
        return RiskLevel.MEDIUM if rebuilt else RiskLevel.HIGH
    if kind is PathKind.UNKNOWN or kind is PathKind.EXTERNAL:
        return RiskLevel.MEDIUM if recursive else RiskLevel.LOW
    if kind is PathKind.NULL:
        return RiskLevel.SAFE
    if kind is PathKind.WORKDIR:
        # `rm -rf .`, `rm -rf *`, `rm -rf ..`: the whole project, not a build directory in it.
        return RiskLevel.HIGH if recursive else RiskLevel.MEDIUM
    return RiskLevel.LOW


def _regenerated_by_application(path: str) -> bool:
    """``path`` is a deployed application's own cache or generated code (Magento's `var/page_cache`, `generated/code`;
    Laravel's compiled views and caches, `storage/framework/views`): the application makes it again."""
    if not application_tree(path):
        return False
    return any(c.lower().endswith(_CACHE_SUFFIXES) or c in _REGENERATED_DIRS for c in path.split("/")[4:]) or (
        "/storage/framework/" in path + "/" and not path.rstrip("/").endswith("/storage/framework")
    )


#: A cloud service account's key file by its usual names (``sa-key.json``, ``gcp-sa-key.json``).
_SERVICE_ACCOUNT_KEY = re.compile(r"(?:^|[-_.])(?:sa|gsa|gcp|gcloud)[-_]?key(?:[-_.]|$)|service[-_]?account", re.I)
#: Names of scanned identity documents people handed over (a folder of them, or a file pattern that picks them).
ID_DOCUMENT_WORDS = (r"id_?scans?|id_?documents?|id_?cards?|passports?|passport_?scans?|driver_?licen[cs]es?"
                     r"|licen[cs]e_?scans?|identity_?documents?|national_?ids?")
#: Folder names of people's records: patients', employees', customers' (one file holds many people).
_PEOPLE_RECORDS = re.compile(
    # patients' records and the raw data of a lab (often the only copy)
    r"^(?:phi|emr|ehr|patients?|clinical|medical|health_?records|raw_?(?:data|sequencing|runs)?|rawdata"
    # employees' records: payroll, HR exports, tax forms
    r"|payroll|hr|personnel|tax_?forms|w-?2s?|1099s?"
    # people's calls: a PBX's recordings and voicemail; a law firm's matters
    r"|voicemail|call_?recordings|recordings|matters|ediscovery|e-discovery|custodians?"
    # anti-money-laundering filings, identity checks' documents, data-subject requests' exports
    r"|sars?|kyc|aml|dsars?"
    # people under supervision or in custody: case notes, probation and parole files, juvenile records
    r"|case_?(?:worker_?)?notes|case_?files|probation|parole|inmates|juvenile|sealed"
    # a folder its owner marked confidential
    r"|confidential"
    # every user's mailbox on a mail server
    r"|vmail|maildirs?"
    # identity documents people handed over (scans of passports, licences, ID cards)
    r"|" + ID_DOCUMENT_WORDS +
    r"|insurance_?(?:scans?|cards?))$"
    # records an organisation must keep: aircraft and maintenance records, medical and case records
    r"|(?:^|[_-])records(?:[_.-]|$)"
    r"|(?:^|[_-])(?:identified|phi|payroll|salar(?:y|ies)|compensation|bank_?details|ssns?|clinical|patients?"
    r"|cardholders?|pii|cdrs?|dmv|id[_-]?scans?|passport[_-]?scans?"
    r"|dbgap|controlled_?access)(?:[_.-]|$)"
    # an export named for the people it lists (`contacts.csv`, `medical_certificates.csv`, `customers-2024.json`; an
    # application's database of them is read to serve them, not handed over)
    r"|(?:^|[_-])(?:contacts|customers|subscribers|employees|medical)(?:[_-][^/]*)?\.(?:csv|tsv|xlsx?|jsonl?|xml|zip"
    r"|t?gz)$",
    re.IGNORECASE,
)
#: Folder names of people's own media and documents (a NAS share, a Nextcloud data directory).
_PERSONAL_MEDIA = re.compile(
    r"^(?:photos?|pictures|dcim|camera ?roll|music|videos|movies|documents|family|albums?|homes"
    # a production's camera originals and dailies (the only copy of what was shot)
    r"|camera_?originals|ocf|footage|dailies|rushes"
    # video surveillance recordings (often the evidence of an incident)
    r"|cctv|surveillance|nvr_?recordings)$",
    re.IGNORECASE,
)


def people_records(path: str) -> bool:
    """``path`` lies in a folder of people's records (``/srv/payroll``, ``/mnt/phi``, ``exports/patients``):
    one file there is many people's private data."""
    if path.lower().endswith(_SOURCE_SUFFIXES):
        return False  # a program about payroll or patients (src/hr/models.py) is not their records
    return any(_PEOPLE_RECORDS.search(c) for c in path.split("/"))


def personal_media(path: str) -> bool:
    """``path`` lies in a folder of people's photos, videos, music or documents (``/volume1/photo``), patients'
    records (``/mnt/phi``, ``raw_identified``), a lab's raw data (``raw_sequencing``) or a law firm's matters,
    privileged documents and evidence (``/mnt/dms/Matters``, ``legal_hold``)."""
    if path.lower().endswith(_SOURCE_SUFFIXES):
        return False  # a program about payroll or patients (src/hr/models.py) is not their records
    lowered = path.lower()
    return (
        case_document(path)
        or any(_PERSONAL_MEDIA.search(c) or _PEOPLE_RECORDS.search(c) for c in path.split("/"))
        or "/nextcloud/data/" in lowered
        or "/asterisk/monitor" in lowered  # Asterisk's call recordings
    )


#: Folders of a legal case whose every document is confidential on its own: privileged material, what a legal
#: hold preserves, the evidence and its chain of custody.
_CASE_FOLDER = re.compile(
    r"^(?:privileged|privilege_?review|legal_?holds?|evidence|custody|chain_of_custody)$"
    # what sources submitted to a newsroom's SecureDrop (their identities depend on it)
    r"|(?:^|[_-])(?:privileged|legal_?hold|evidence_?holds?|chain_of_custody|securedrop)(?:[_.-]|$)",
    re.IGNORECASE,
)


def case_document(path: str) -> bool:
    """``path`` is in (or is) a legal case's privileged, held or evidence folder: one such file is a leak."""
    return not path.lower().endswith(_SOURCE_SUFFIXES) and any(_CASE_FOLDER.search(c) for c in path.split("/"))


#: A file added to a case folder, not one of its records rewritten: a name made at run time (a host, a time) or a
#: checksum or custody sidecar of another file (`sdb.raw.sha256`, `sdb.raw.custody.json`), a folder's checksum
#: manifest or hash log (`MANIFEST.sha256`, `hashes.txt`).
_NEW_CASE_FILE = re.compile(r"/[^/]*\x00[^/]*$|\.\w+\.(?:sha\d+|md5|custody\.json|manifest)$"
                            r"|/(?:manifest|hashes|checksums?|sha\d+sums?|md5sums?)(?:\.\w+)?$", re.IGNORECASE)
_SOURCE_SUFFIXES = (".py", ".js", ".ts", ".tsx", ".jsx", ".go", ".rb", ".java", ".kt", ".php", ".sh", ".md", ".rst",
                    ".html", ".css", ".scss", ".vue", ".rs", ".c", ".h", ".cpp", ".cs", ".swift", ".sql", ".ipynb",
                    ".toml", ".ini", ".cfg", ".lock")  # fmt: skip


#: Folders of the home that hold installed toolchains and SDKs (a reinstall brings them back), by their first
#: component and the second ones that count (None: any).
_TOOLCHAIN_DIRS: dict[str, frozenset[str] | None] = {
    ".local": None, "android-sdk": None, "flutter": None, ".nvm": frozenset({"versions"}),
    ".pyenv": frozenset({"versions"}), ".rbenv": frozenset({"versions"}), ".rustup": frozenset({"toolchains"}),
    ".sdkman": frozenset({"candidates"}), ".cargo": frozenset({"bin"}), "go": frozenset({"bin"}),
    "android": frozenset({"sdk"}), ".android": frozenset({"avd", "cache"}),
}  # fmt: skip


def _installed_software(path: str) -> bool:
    """``path`` is a toolchain or SDK installed in the home (``~/.local/go``, ``~/android-sdk/cmdline-tools``,
    ``~/.pyenv/versions/3.12.1``), not the user's data (``~/.local/share``, ``~/.local/state``)."""
    absolute, comps = _components(path)
    home = _home_relative(absolute, comps)
    if home is None or len(home) < 2 or HOLE in home[1] or home[1] in ("*",):
        return False
    first, second = home[0].lower(), home[1].lower()
    if first not in _TOOLCHAIN_DIRS or (first == ".local" and second in ("share", "state")):
        return False
    allowed = _TOOLCHAIN_DIRS[first]
    return allowed is None or second in allowed


#: A file inside the Hugging Face cache of a model or dataset (what `from_pretrained` loads from then on).
_MODEL_CACHE_FILE = re.compile(r"/\.cache/huggingface/hub/(?:models|datasets)--[^/]+/(?:snapshots|blobs)/[^/]")
#: Files a web server runs or obeys when they sit in its tree (scripts, handlers, access rules).
_SERVED_CODE = re.compile(r"\.(?:php\d?|phtml|phar|inc|jsp|jspx|aspx?|ashx|cgi|pl|py|rb|sh|lua|html?|m?js|svg|mp3)$"
                          r"|^\.htaccess$|^\.user\.ini$|^web\.config$", re.IGNORECASE)
#: Sounds and images (what an application plays or shows, not what it runs).
_MEDIA_FILE = re.compile(r"\.(?:wav|mp3|ogg|gsm|ulaw|alaw|g722|sln\d*|flac|png|jpe?g|gif|svg|webp|ico)$", re.IGNORECASE)
#: Below a source tree unpacked in /usr/src (not the folder of all sources itself, nor the kernel's headers).
_BUILT_SOURCE = re.compile(r"/usr/src/(?!linux)[\w.+-]+/.")
#: A folder of backups, dumps or write-ahead logs (outside the project).
_BACKUP_DIR = re.compile(r"/(?:backups?|dumps|snapshots|pg_wal|wal|archive(?:s)?)(?:/|$)", re.IGNORECASE)
#: A user's scheduled or started-at-login job: a systemd user unit, an XDG autostart entry, a LaunchAgent.
_USER_JOB = re.compile(r"^~/(?:\.config/systemd/user/|\.config/autostart/|Library/LaunchAgents/)[^/]+\.(?:service|timer"
                       r"|socket|path|desktop|plist)$")
#: Folders whose files are kept for a while and then pruned (backups, dumps, logs, snapshots).
_ROTATED_DIRS = frozenset({"backups", "backup", "dumps", "logs", "log", "snapshots", "archives", "archive"})


def irreplaceable_folder(path: str) -> bool:
    """``path`` (an absolute folder a script ``cd``s into) is where deleting by relative name destroys what a
    restore needs or what the system runs on: backups, dumps, a database's WAL, /etc, the home, the root."""
    info = classify(path)
    return bool(_BACKUP_DIR.search(path)) or path.startswith("/etc") or info.kind in (
        PathKind.ROOT, PathKind.SYSTEM_TOP, PathKind.HOME_TOP
    )


#: Folders of camera recorders (footage kept for a retention period, then deleted by age): NVRs, CCTV, `*-cam`.
_FOOTAGE_FOLDER = re.compile(
    r"(?:^|/)(?:nvr|cctv|surveillance|frigate|zoneminder|motioneye|cameras?|(?:[\w]+[-_])?cams?|webcams?|ipcams?)"
    r"(?:/|$)",
    re.IGNORECASE,
)


#: Folder names that say old copies are kept there (`db-logs`, `config-backups`).
_ROTATED_SUFFIXES = ("_logs", "-logs", "_log", "-log", "-backups", "_backups")


def filtered_delete_level(info: PathInfo, level: RiskLevel, *, aged: bool = False, expired: bool = False) -> RiskLevel:
    """Deleting only the files of a tree a name or age test selects (rotation, clean-up), not all of it.
    ``aged``: the test picks files older than some age (what a clean-up of spooled files keeps is the recent);
    ``expired``: and only older than it (`-mtime +30`, `st_mtime < cutoff`), not a window of recent ones."""
    if info.kind in (PathKind.WORKDIR, PathKind.RELATIVE, PathKind.TEMP):
        return RiskLevel.LOW
    if not aged and level >= RiskLevel.HIGH and _BACKUP_DIR.search(info.path) and info.path.startswith("/"):
        return level  # every dump or archive of a backup folder picked by its type, not the old ones: the backups
    comps = [c for c in info.path.split("/") if c]
    if (comps[:2] == ["var", "backups"] or (comps[:2] == ["var", "log"] and aged)) and len(comps) >= 3 and not (
        info.history
    ):
        # an application's old logs or backups (rotation), not the system's; every log of a service picked only by
        # its name (`find /var/log/postgresql -name '*.log*' -delete`) is its record erased, not rotated
        return min(level, RiskLevel.MEDIUM)
    if application_tree(info.path) and any(c.lower() in ("log", "logs") for c in comps[2:]):
        return min(level, RiskLevel.MEDIUM)  # an installed application's own old logs (`/opt/app/logs/debug-*.log`)
    if aged and application_scratch(info.path):
        return min(level, RiskLevel.MEDIUM)  # an installed application's old temporary files (`/opt/bot/tmp/…`)
    if aged and application_tree(info.path) and not (info.secret or personal_media(info.path)):
        return min(level, RiskLevel.MEDIUM)  # an application's old work pruned by age (`/opt/CAPEv2/storage/analyses`)
    if aged and comps[:2] == ["var", "lib"] and len(comps) >= 4 and comps[2].lower() not in _STATE_STORES and not (
        info.secret or case_document(info.path)
    ):
        return min(level, RiskLevel.MEDIUM)  # an application's old artifacts pruned by age (`/var/lib/farm/artifacts`)
    if aged and comps[:2] in (["var", "spool"], ["var", "cache"]) and len(comps) >= 3 and comps[2] not in (
        _SYSTEM_SPOOLS
    ):
        return min(level, RiskLevel.MEDIUM)  # an application's old spooled or cached files (`receipt_*.pdf`)
    # (or, pruned by age, a top-level folder named for them: `/rmmbackups`)
    named_for_copies = bool(comps) and aged and comps[0].lower().endswith(("backups", "backup", "dumps", "snapshots"))
    if comps and (comps[0].lower() in _ROTATED_DIRS or named_for_copies) and not info.secret:
        return min(level, RiskLevel.MEDIUM)  # old dumps pruned by name and age from a backup volume (`/backup`)
    rotated = any(c.lower() in _ROTATED_DIRS or c.lower().endswith(_ROTATED_SUFFIXES)
                  for c in comps[1:])  # fmt: skip
    if info.kind is PathKind.HOME and rotated and not info.secret:
        return min(level, RiskLevel.MEDIUM)  # the user's own old dumps or logs pruned by age (`~/backups/db`)
    if aged and comps[:2] == ["var", "opt"] and rotated and not info.secret:
        return min(level, RiskLevel.MEDIUM)  # an appliance's old backup archives (`/var/opt/gitlab/backups`)
    if aged and info.kind is PathKind.EXTERNAL and rotated and not (info.secret or case_document(info.path)):
        return min(level, RiskLevel.MEDIUM)  # old copies pruned by age from a backup volume (`/mnt/backup/sar`)
    if expired and _FOOTAGE_FOLDER.search(info.path):
        return min(level, RiskLevel.MEDIUM)  # a camera recorder's footage past its retention (`/mnt/nvr/…` +30 days)
    if info.kind in (PathKind.EXTERNAL, PathKind.UNKNOWN) and personal_media(info.path) and not any(
        c.lower() in _DISPOSABLE_DIRS for c in info.path.split("/")
    ):
        return level  # old photos are not old logs: selecting them by age still deletes them
    return min(level, RiskLevel.MEDIUM if info.kind in (PathKind.EXTERNAL, PathKind.UNKNOWN) else RiskLevel.HIGH)


def mode_level(
    info: PathInfo, *, world_writable: bool, setuid: bool, opens_secret: bool, others_read: bool = True
) -> RiskLevel:
    """Risk of a permission change; ``opens_secret`` means others gain read access.

    ``others_read=False`` (a numeric mode without 0o004) under /etc only lets the file's group in,
    which there is root's (0440 is what sudoers files must have)."""
    if not others_read and info.path.startswith("/etc/"):
        opens_secret = False
    system = info.kind in (PathKind.ROOT, PathKind.SYSTEM_TOP, PathKind.SYSTEM, PathKind.DEVICE)
    if setuid and info.kind is PathKind.RELATIVE and package_staging(info.path):
        return RiskLevel.MEDIUM  # the bit a package's setuid helper ships with, set in its build tree (fakeroot)
    if setuid:
        return RiskLevel.CRITICAL if system else RiskLevel.HIGH
    if world_writable and (system or info.privilege or info.secret or info.kind is PathKind.HOME_TOP):
        return RiskLevel.CRITICAL
    if (info.secret or info.privilege) and opens_secret:
        # 0640 with a group chosen for it (root:eth for a node's JWT secret) lets that group in, not everyone
        return RiskLevel.HIGH if others_read or info.privilege else RiskLevel.MEDIUM
    if system:
        return RiskLevel.HIGH if world_writable else RiskLevel.MEDIUM
    if world_writable:
        # shared data outside the project: anyone on the machine may now plant or alter files
        return RiskLevel.MEDIUM if info.kind is PathKind.EXTERNAL else RiskLevel.LOW
    return RiskLevel.SAFE


#: A package's staging tree inside the project: `debian/<pkg>/usr/…`, `$pkgdir`/`pkg/<name>/usr/…` (makepkg),
#: `rpmbuild/BUILDROOT/…`, a DESTDIR the build installs into.
_PACKAGE_STAGING = re.compile(
    r"^(?:\./)?(?:debian/[\w.+-]+|(?:[\w.-]+/)*(?:pkg|BUILDROOT|destdir|DESTDIR|staging|stage)(?:/[\w.+-]+)*)"
    r"/(?:usr/(?:s?bin|lib\w*|libexec)|s?bin|opt/[\w.+-]+)/"
)


_INBOX = re.compile(r"(?:^|/)(?:Downloads|[Aa]ttachments?|[Uu]ploads?|[Ii]ncoming)/")


def untrusted_inbox(path: str) -> bool:
    """``path`` is where other people's files arrive: downloads, mail attachments, uploads."""
    return _INBOX.search(path) is not None


def package_staging(path: str) -> bool:
    """``path`` is a file in a package's staging tree (what the package will install), not on the system."""
    return _PACKAGE_STAGING.match(path) is not None


def operating_system_tree(info: PathInfo) -> bool:
    """``info`` is the root or below one of the operating system's own top-level directories (/etc, /usr,
    /home...), not a top-level folder an application or a container image made for itself (/app, /data)."""
    absolute, comps = _components(info.path)
    return absolute and (not comps or comps[0] in _SYSTEM_TOPS or _everything(comps))


#: Folders that hold programs (what a file in them is, is run).
_PROGRAM_DIRS = frozenset({"bin", "sbin", "libexec"})
#: A shared library or a Windows program or driver, wherever it sits.
_PROGRAM_FILE = re.compile(r"\.(?:so(?:\.\d+)*|dll|exe|dylib|sys)$", re.IGNORECASE)


def installed_program(info: PathInfo) -> bool:
    """``info`` is a program or library outside the project and the temporary folders (a file of a bin or libexec
    folder, a shared library, an .exe): rewriting its bytes changes what runs; a build in the project is the
    user's own."""
    if info.kind in (PathKind.RELATIVE, PathKind.WORKDIR, PathKind.TEMP):
        return False
    _, comps = _components(info.path)
    return any(c in _PROGRAM_DIRS for c in comps[:-1]) or bool(_PROGRAM_FILE.search(info.path))


def application_scratch(path: str) -> bool:
    """``path`` lies in an installed application's temporary or cache folder (``/opt/crawler/tmp``,
    ``/var/lib/forum/tmp/upload-chunks``)."""
    parts = path.split("/")
    own = application_tree(path) or (parts[1:3] == ["var", "lib"] and len(parts) > 4 and parts[3] not in ("", "dpkg",
                                                                                                         "apt", "rpm"))
    # (an application's own data folder straight under /var: `/var/iliasdata/default/temp`)
    own = own or (len(parts) > 4 and application_var_folder(path))
    # (`work`: a server's working folder of traces and core files, SAP's and Tomcat's; PHP's session folders, whose
    # files expire)
    return own and any(c.lower() in ("tmp", "temp", "cache", "work") or c.startswith("sessions") for c in parts[3:])


def application_var_folder(path: str) -> bool:
    """``path`` is (or lies in) an application's own folder straight under /var (``/var/teampass_sk``,
    ``/var/iliasdata/default``), not one the system keeps there (logs, spools, state, web roots)."""
    parts = path.split("/")
    return len(parts) > 2 and parts[0] == "" and parts[1] == "var" and parts[2] not in _SYSTEM_VAR_FOLDERS | {"www"}


#: The folders of /var the system itself keeps (logs, mail and job spools, backups, run-time state).
_SYSTEM_VAR_FOLDERS = frozenset({"", "log", "spool", "mail", "backups", "run", "lock", "lib", "cache", "tmp", "opt",
                                 "local", "db", "empty", "crash", "audit", "account", "adm"})  # fmt: skip


def tested_site_config(path: str, text: str) -> bool:
    """``path`` is a web server's site or include file and ``text`` has the server check its configuration
    (`nginx -t`, `apachectl configtest`) before it reloads: a site deployed, judged by what else the text does."""
    return _SITE_CONFIG.match(path) is not None and _CONFIG_TESTED.search(text) is not None


_SITE_CONFIG = re.compile(r"/etc/(?:nginx/(?:sites-available|sites-enabled|conf\.d)|apache2/(?:sites-available"
                          r"|conf-available)|httpd/conf\.d)/[^/\x00]*$")  # (or the folder a file is installed into)
_CONFIG_TESTED = re.compile(r"\bnginx[\"',\s]+-t\b|\b(?:apachectl|apache2ctl)[\"',\s]+(?:configtest|-t)\b"
                            r"|\bhttpd[\"',\s]+-t\b")


def application_state(path: str) -> bool:
    """``path`` is a file in a folder of /var/lib or /var/cache named for one application or job
    (``/var/lib/collab-drift/hashes.json``), not the package manager's, the init system's or a container engine's."""
    match = _STATE_FOLDER.match(path)
    return match is not None and match[1] not in _SYSTEM_STATE


_STATE_FOLDER = re.compile(r"^/var/(?:lib|cache)/([\w.-]+)/[^\x00]")
#: Folders of /var/lib and /var/cache the system's own components keep (their state is the machine's).
_SYSTEM_STATE = frozenset({"dpkg", "apt", "rpm", "yum", "dnf", "docker", "containerd", "kubelet", "systemd", "polkit-1",
                           "sudo", "pam", "snapd", "NetworkManager", "dhcp", "ucf", "cloud", "lxc", "lxd", "libvirt",
                           "sss", "krb5kdc", "ldap", "samba", "private", "machines", "portables", "flatpak",
                           "AccountsService", "gdm3", "lightdm", "man-db", "logrotate", "update-notifier"})  # fmt: skip


def application_tree(path: str) -> bool:
    """``path`` lies inside one application's deployed tree (``/var/www/shop/storage``, ``/srv/app/media``,
    ``/opt/tool/cache``): the application's own files, not the system's nor every site's."""
    return bool(_APPLICATION_TREE.match(path))


_APPLICATION_TREE = re.compile(r"^/(?:var/www|srv|opt|usr/sap)/[\w.-]+/(?:[^\x00]|\x00(?:$|/))")
#: A log file (or its numbered, compressed rotation) in a folder named for logs.
_APPLICATION_LOG = re.compile(r"/logs?/(?:[^/]+/)*(?:[^/]+\.log(?:[.-][\w\u2026-]+)?(?:\.(?:gz|bz2|xz|zst))?"
                             r"|[^/]*[\x00\u2026][^/]*)$")  # (or a file a listing of that folder names)
#: Spools and caches of the system itself (scheduled jobs, mail queues), not of an application.
_SYSTEM_SPOOLS = frozenset({"cron", "anacron", "at", "atjobs", "mail", "postfix", "exim4", "mqueue", "clientmqueue",
                            "rsyslog", "apt", "debconf", "ldconfig"})  # fmt: skip


def service_folder(path: str, user: str) -> bool:
    """``path`` is the folder (or a file) a service named like ``user`` keeps for itself: ``/var/log/orders-api``
    for the user ``orders``, ``/var/lib/grafana`` for ``grafana``."""
    match = _SERVICE_FOLDER.match(path)
    name = user.split(":", 1)[0].strip().lower()
    if match is None or re.fullmatch(r"[a-z_][\w-]{2,}", name) is None:
        return False
    folder = match[1].lower()
    # (`openwebui` keeps `/var/lib/open-webui`: the same name, spelled with a hyphen)
    squeezed = re.sub(r"[-_.]", "", folder)
    return (
        name in folder
        or re.sub(r"[-_]", "", name) in squeezed
        or any(folder.startswith(s) for s in _SERVICE_ACCOUNTS.get(name, ()))
    )


#: Distributions' accounts named otherwise than the services that run as them (Debian's squid runs as `proxy`).
_SERVICE_ACCOUNTS: dict[str, tuple[str, ...]] = {
    "proxy": ("squid", "c-icap", "e2guardian"),
    "www-data": ("www", "nginx", "apache2", "php"),
    "bind": ("named",),
    "named": ("bind",),
    "_chrony": ("chrony",),
}


_SERVICE_FOLDER = re.compile(
    r"^/(?:var/log|var/lib|var/cache|var/spool|var/run|run|srv|opt|var/www|etc|var/db"
    # (or a folder of its own straight under /var: `/var/pretix/data`, `/var/mycodo-root`)
    r"|var(?!/(?:log|lib|cache|spool|run|tmp|mail|backups|local|opt|db|www|empty|crash|games)/))/([\w.-]+)(?:/|$)"
)


def enables_available(target: str, link: str) -> bool:
    """``ln -s …/sites-available/x …/sites-enabled/`` (or ``…/sites-enabled/x``): enabling configuration that is
    already in place."""
    link_dir = link.rstrip("/") if link.endswith("/") else posixpath.dirname(link)
    if not target.startswith(("/", "~", HOLE)):
        target = posixpath.normpath(posixpath.join(link_dir, target))  # (a relative link: `../sites-available/x`)
    source_dir = posixpath.dirname(target.rstrip("/"))
    return (
        source_dir.endswith("-available")
        and link_dir.endswith("-enabled")
        and posixpath.dirname(source_dir) == posixpath.dirname(link_dir)
    )


def has_hole(text: str) -> bool:
    return HOLE in text


class PathSet(set[str]):
    """File names in which a name with holes (``/tmp/$t.txt``, written in a loop) stands for each name it
    could take: ``"/tmp/sms.txt" in files`` once ``"/tmp/\x00.txt"`` was added."""

    def __contains__(self, name: object) -> bool:
        if set.__contains__(self, name):
            return True
        if not isinstance(name, str) or HOLE in name:
            return False
        return any(HOLE in pattern and _hole_pattern(pattern).fullmatch(name) for pattern in self)


@functools.lru_cache(maxsize=256)
def may_name(pattern: str, name: str) -> bool:
    """``pattern`` (a name with holes: ``/var/log/x/\x00.log\x00``) may stand for ``name``, holes and all."""
    return bool(_hole_pattern(pattern).fullmatch(name))


def _hole_pattern(pattern: str) -> re.Pattern[str]:
    prefix = pattern.split(HOLE, 1)[0]
    if "/" not in prefix:
        return re.compile(r"(?!)")  # `$f` or `$dir/x`: anything at all, so nothing in particular
    return re.compile("[^/]+".join(re.escape(part) for part in pattern.split(HOLE)))


def describe(info: PathInfo) -> str:
    """Human-readable path with holes shown as ``…``."""
    return f"{info.path.replace(HOLE, '…')} ({info.label})"


_APP_CODE = re.compile(r"/smali[^/]*/|\.app/|/Frameworks/|\.(?:smali|dex|dylib)$")


def app_code(path: str) -> bool:
    """``path`` is code inside an app being built (decompiled smali, a bundle's frameworks, a dex or dylib)."""
    return bool(_APP_CODE.search(path))


_PLUGIN_FOLDER = re.compile(r"(?:^|/)(?:plugins|mods|addons|extensions|BepInEx)(?:/|$)", re.IGNORECASE)


def plugin_folder(path: str) -> bool:
    """``path`` is (or lies in) a folder an application loads code from (plugins, mods, add-ons, extensions)."""
    return bool(_PLUGIN_FOLDER.search(path))


#: Libraries preloaded to test, profile or speed up programs (fake clocks, allocators, sanitizers, fsync-less
#: I/O, test wrappers), as their packages install them.
_TOOLING_LIBRARY = re.compile(
    r"^lib(?:faketime\w*|eatmydata|jemalloc|tcmalloc\w*|mimalloc|[atlu]san|SegFault|stdbuf|fakeroot\w*"
    r"|nss_wrapper|socket_wrapper|uid_wrapper|resolv_wrapper|dislocator|gtk3-nocsd)(?:[.-][\w.-]*)?\.so[\d.]*$"
)
_SYSTEM_LIBRARY_DIRS = ("/usr/lib/", "/usr/lib64/", "/lib/", "/lib64/", "/usr/local/lib/", "/opt/homebrew/lib/")


def audit_log(path: str) -> bool:
    """``path`` is a log that records who did what (an audit trail) of the system or an application."""
    return bool(_AUDIT_LOG.search(path))


_AUDIT_LOG = re.compile(r"^/var/log/(?:[^/]+/)*[^/]*audit[^/]*$", re.IGNORECASE)


def credential_helper(path: str) -> bool:
    """``path`` is a credential helper program: docker and git hand it every username, password and token."""
    return posixpath.basename(path).startswith(("docker-credential-", "git-credential-"))


def tooling_preload(value: str) -> bool:
    """``value`` (an LD_PRELOAD list) only names installed testing, profiling or allocator libraries."""
    entries = [e for e in re.split(r"[:\s]+", value) if e]
    return bool(entries) and all(
        _TOOLING_LIBRARY.match(posixpath.basename(e)) and ("/" not in e or e.startswith(_SYSTEM_LIBRARY_DIRS))
        for e in entries
    )

