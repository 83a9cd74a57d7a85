"""Command tables of the shell analyzer: which commands read, write, fetch, run, decode...

Plain data plus the small parsers that read numbers out of command words.
"""

from __future__ import annotations

import re

#: Read-eval-print loops of the JVM (and a few others) that run what standard input gives them.
STDIN_REPLS = frozenset({"jshell", "groovysh", "groovy", "scala", "jrunscript", "kotlinc", "clojure", "irb", "ghci"})
#: Source files by the interpreter that runs them (code written into one runs whenever it is loaded).
CODE_SUFFIXES = {".py": "python", ".php": "php", ".js": "node", ".mjs": "node", ".cjs": "node", ".rb": "ruby",
                 ".pl": "perl", ".el": "emacs", ".java": "java", ".groovy": "groovy", ".jsh": "jshell"}  # fmt: skip
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "fish", "csh", "tcsh", "mksh", "rbash"})
PYTHONS = frozenset({"python", "python2", "python3", "pypy", "pypy3", "ipython"})
OTHER_INTERPRETERS = frozenset(
    {
        "perl",
        "ruby",
        "node",
        "nodejs",
        "php",
        "lua",
        "pwsh",
        "powershell",
        "Rscript",
        "tclsh",
        "osascript",
        "deno",
        "bun",
        "R",
        "julia",
        "octave",
        "octave-cli",
        "matlab",
    }
)
DOWNLOADERS = frozenset({"curl", "wget", "fetch", "aria2c", "http", "https", "lynx", "links", "tftp", "gdown"})
NETWORK = DOWNLOADERS | frozenset(
    {
        "nc", "ncat", "netcat", "socat", "telnet", "ssh", "autossh", "scp", "sftp", "ftp", "rsync", "mail",
        "mailx", "sendmail", "mutt", "dig", "nslookup", "host", "smbclient", "rclone",
        "s3cmd", "aws", "gsutil", "ping", "irc", "torify", "proxychains", "mosquitto_sub", "mosquitto_pub",
        "kcat", "kafkacat", "websocat", "wscat", "nats", "gh", "glab", "hub", "tea",
        # message brokers' command-line publishers
        "amqp-publish", "kafka-console-producer", "kafka-console-producer.sh",
    }
)  # fmt: skip
READERS = frozenset(
    {
        "cat", "tac", "less", "more", "head", "tail", "base64", "base32", "xxd", "od", "hexdump",
        "strings", "grep", "egrep", "fgrep", "rg", "awk", "gawk", "sed", "cp", "mv", "rsync", "scp",
        "tar", "zip", "7z", "gzip", "bzip2", "xz", "gpg", "openssl", "nl", "sort", "uniq", "cut",
        "jq", "yq", "vi", "vim", "nano", "view", "emacs", "sqlite3", "diff", "cmp", "curl", "nc",
        "ncat", "md5sum", "sha256sum", "tee", "dd", "source", ".", "paste", "column", "iconv",
        "python", "python3", "perl", "ruby", "node", "zcat", "bat", "xclip", "pbcopy", "mail",
    }
)  # fmt: skip


#: Converters of line endings in place (the text stays what it was).
LINE_END_CONVERTERS = frozenset({"dos2unix", "unix2dos", "mac2unix", "unix2mac"})
# Commands that take a secret path without reading the secret out (use or inspect it; `wc` only counts).
SECRET_USERS = frozenset(
    {*LINE_END_CONVERTERS, "postmap", "postconf", "ls", "stat", "wc", "test", "[", "[[", "file", "ssh", "sftp",
     "ssh-keygen", "ssh-add", "ssh-copy-id", "chmod",
     "chown", "mkdir", "touch", "du", "realpath", "readlink", "dirname", "basename", "echo", "printf",
     "git", "export", "ansible", "ansible-playbook", "docker", "podman", "nerdctl", "kubectl", "terraform", "gcloud",
     "openvpn", "wg-quick", "wg", "nmcli"}
)  # fmt: skip
DECODERS = frozenset(
    {"base64", "base32", "xxd", "uudecode", "openssl", "gunzip", "zcat", "rev", "tr", "gzip", "bzip2", "xz",
     "b64decode"}  # (the BSDs' base64 decoder)
)
WRAPPERS = frozenset(
    {"nohup", "time", "nice", "ionice", "stdbuf", "setsid", "command", "builtin", "exec", "unbuffer",
     "caffeinate", "chronic", "flock", "torsocks", "proxychains", "proxychains4", "faketime", "strace",
     "ltrace", "catchsegv", "script", "busybox", "then", "do", "else", "!", "RUN"}
)  # fmt: skip
PRIVILEGE_TOOLS = frozenset({"sudo", "doas", "pkexec", "su", "runuser", "gosu", "su-exec", "chroot"})
USER_ADMIN = frozenset(
    {"useradd", "adduser", "usermod", "userdel", "groupadd", "groupmod", "passwd", "chpasswd", "visudo",
     "setcap", "gpasswd", "newusers", "chage", "vipw", "pwconv", "deluser", "delgroup"}
)  # fmt: skip
DISK_TOOLS = frozenset(
    {"mkfs", "mke2fs", "mkswap", "wipefs", "fdisk", "sfdisk", "parted", "sgdisk", "gdisk", "blkdiscard",
     "cryptsetup", "badblocks", "hdparm", "diskutil", "format", "mkdosfs", "nvme"}
)  # fmt: skip
POWER = frozenset({"shutdown", "reboot", "halt", "poweroff", "telinit", "init", "kexec"})
MINERS = frozenset(
    {"xmrig", "minerd", "cpuminer", "cgminer", "bfgminer", "ethminer", "t-rex", "nbminer", "xmr-stak", "lolminer"}
)
SCANNERS = frozenset(
    {"nmap", "masscan", "zmap", "hping3", "unicornscan", "rustscan", "nikto", "sqlmap", "hydra", "medusa",
     "svmap", "svmap.py", "sipvicious_svmap"}
)
#: Tools whose purpose is attacking other machines or their users (payloads, relays, credential dumps, spoofing).
ATTACK_TOOLS = frozenset(
    {"msfvenom", "msfconsole", "responder", "Responder.py", "ettercap", "bettercap", "arpspoof", "mitm6",
     "aireplay-ng", "mdk3", "mdk4", "wifite", "evil-winrm", "crackmapexec", "netexec", "nxc", "kerbrute",
     "impacket-secretsdump", "impacket-psexec", "impacket-wmiexec", "impacket-smbexec", "impacket-ntlmrelayx",
     "impacket-GetUserSPNs", "secretsdump.py", "psexec.py", "wmiexec.py", "smbexec.py", "ntlmrelayx.py",
     "GetUserSPNs.py", "chisel", "ligolo-ng", "sliver-server", "sliver-client", "beef-xss", "setoolkit",
     # more of impacket's attack examples (remote execution, roasting, forged tickets, delegation, ACL abuse)
     *(f"{prefix}{tool}{suffix}" for tool in ("services", "atexec", "dcomexec", "GetNPUsers", "ticketer", "getST",
                                              "getTGT", "addcomputer", "rbcd", "dacledit", "owneredit", "raiseChild",
                                              "goldenPac", "mimikatz")
       for prefix, suffix in (("impacket-", ""), ("", ".py"))),
     "ysoserial", "ysoserial.net", "certipy", "certipy-ad", "bloodyAD", "pywhisker.py", "targetedKerberoast.py",
     # SIPVicious: extensions enumerated and their passwords cracked on a PBX
     "svwar", "svcrack", "svwar.py", "svcrack.py", "sipvicious_svwar", "sipvicious_svcrack",
     # rogue access points that collect 802.1X logins (MSCHAPv2 hashes) and Wi-Fi handshakes
     "hostapd-wpe", "eaphammer", "hostapd-mana", "wifiphisher", "airgeddon",
     # layer-2 attacks: DHCP starvation and rogue DHCP, STP and VLAN hopping
     "yersinia", "dhcpstarv", "dhcpig", "pig.py"}
)  # fmt: skip
#: Their harmless uses: listing what they offer, testing themselves.
ATTACK_TOOL_INFO = frozenset({"-l", "--list", "-h", "--help", "--version", "-V", "--script-updatedb", "--script-help",
                              "--iflist"})  # fmt: skip
SECURITY_SERVICES = (
    # a directory's authentication services: stopped, nobody can log in
    "samba-ad-dc",
    "sssd",
    "winbind",
    "krb5-kdc",
    "slapd",
    "freeradius",
    "firewall",
    "ufw",
    "iptables",
    "apparmor",
    "selinux",
    "auditd",
    "fail2ban",
    "clamav",
    "falco",
    "osquery",
    "crowdstrike",
    "sshd",
    "rsyslog",
    "syslog",
    "journald",
    # endpoint security and monitoring agents (killing them is defence evasion)
    "falcon",
    "wazuh",
    "ossec",
    "clamd",
    "sysdig",
    "splunk",
    "filebeat",
    "auditbeat",
    "elastic-agent",
    "sentinel",
    "cbagent",
    "tanium",
    "qualys",
    "datadog",
    "td-agent",
    "fluent-bit",
    "node_exporter",
    # macOS: built-in malware protection, Gatekeeper's policy daemon, endpoint agents by vendor
    "xprotect",
    "com.apple.mrt",
    "syspolicyd",
    "carbonblack",
    "jamf.protect",
    "objective-see",
    # safety interlocks of equipment (antennas, lasers, machines) and plant alarms: stopped, nothing warns
    "interlock",
    "alarm",
    "safety",
    "estop",
    "restraint-monitor",
    "leak-monitor",
    "leak-detect",
    # a vessel's or vehicle's position reporting to its regulator (a fishing boat's VMS, an AIS transponder)
    "vms-",
    "beacon",
    "transponder",
    # a node's cluster agent: stopping it takes the machine out of its cluster
    "kubelet",
    # video surveillance: stopping the recorder blinds the cameras
    "zoneminder",
    "frigate",
    "shinobi",
    "motioneye",
    "go2rtc",
)
#: Backup agents, jobs and their timers: switched off, nothing is backed up from then on (and nobody is told).
BACKUP_SERVICES = ("backup", "veeam", "restic", "borg", "bacula", "bareos", "duplicati", "urbackup", "amanda",
                   "rsnapshot", "kopia", "duplicity", "pgbackrest", "barman", "wal-g")  # fmt: skip
#: Pipe stages that pass lines of a process listing on, perhaps fewer of them.
PID_FILTERS = frozenset(
    {
        "grep",
        "egrep",
        "fgrep",
        "awk",
        "gawk",
        "mawk",
        "sed",
        "cut",
        "sort",
        "uniq",
        "tr",
        "head",
        "tail",
        "column",
        "tee",
        "cat",
    }
)
PACING_COMMANDS = frozenset({"sleep", "read", "wait", "timeout", "inotifywait", "usleep", "select"})
HUGE_LOOP = 100


def _counted_range(text: str) -> list[int]:
    """The numbers of a ``seq`` or ``{a..b}`` range (none when ``text`` is not one)."""
    if "seq" not in text and ".." not in text:
        return []
    tokens = text.replace("{", " ").replace("}", " ").replace("..", " ").replace(")", " ").split()
    return [int(token) for token in tokens if token.isdigit()]


def counts_to_many(text: str) -> bool:
    """``$(seq 1 1000)``, ``{1..5000}``, ``$(seq 500)``: a loop over at least :data:`HUGE_LOOP` values."""
    numbers = _counted_range(text)
    if len(numbers) == 1:
        return numbers[0] >= HUGE_LOOP
    return len(numbers) >= 2 and abs(numbers[-1] - numbers[0]) >= HUGE_LOOP


def loop_count(text: str) -> int | None:
    """How many values ``$(seq 1 64)`` or ``{1..64}`` counts through (None when not a counted range)."""
    numbers = _counted_range(text)
    if len(numbers) == 1:
        return numbers[0]
    return abs(numbers[-1] - numbers[0]) + 1 if len(numbers) >= 2 else None


INLINE_DOWNLOADS = (
    # R's and Julia's: a script sourced from a URL, a file downloaded, a connection opened to a URL
    'source("http', "source('http", "download.file(", "downloads.download(", "download(\"http", 'url("http',
    "url('http", "httr::get(", "req_perform(",
    "downloadstring", "downloadfile", "webclient", "invoke-webrequest", "iwr ", "invoke-restmethod", "irm ",
    "net::http", "open-uri", "urlopen", "file_get_contents('http", 'file_get_contents("http', "http.get(",
    "https.get(", "fetch(", "lwp::simple", "httparty", "curl ", "wget ", 'get("http', "get('http",
    "'https').get(", '"https").get(', "'http').get(", '"http").get(', "axios.get(", "got(", "net/http",
    "datawithcontentsofurl", "stringwithcontentsofurl", "nsurlsession", "urlwithstring(",
)  # fmt: skip
INLINE_EVALS = ("iex", "invoke-expression", "eval", "exec", "system(", "spawn", "start-process", "instance_eval",
                'source("http', "source('http", "include(download", "include(downloads.download")  # fmt: skip
#: Decoding calls of inline code (node, perl, ruby, PowerShell, php) that hide a payload.
INLINE_DECODERS = ("base64", "atob(", "buffer.from(", "fromhex", "unhexlify", "b64decode", "frombase64string",
                   "decode_base64", "unpack(\"m", "gzinflate", "str_rot13")  # fmt: skip
ENDLESS_DEVICES = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})
BUFFERING = frozenset({"sort", "tac", "tail", "rev", "shuf", "uniq", "awk", "sed", "grep"})


#: Words that make a secret tool dump every secret rather than print one.
SECRET_DUMP_WORDS = frozenset({"--export-secret-keys", "--export-secret-subkeys", "export", "aws_secret_access_key",
                               "get-session-token", "--with-decryption"})  # fmt: skip
#: Secret tools that read the project's own (encrypted or template) secret files to configure a program.
SECRET_CONSUMERS = frozenset({"sops", "op", "doppler", "dotenv", "direnv", "chamber", "teller", "infisical",
                              "envchain", "grep", "docker", "podman", "compose"})  # fmt: skip
#: Printers of short-lived session tokens (minutes to hours), as opposed to stored secrets.
SESSION_TOKEN_WORDS = frozenset({"print-access-token", "print-identity-token", "get-access-token"})
#: Commands that print secrets: tool -> the words (any of which) that make it print one.
SECRET_PRINTERS: dict[str, tuple[str, ...]] = {
    "aws": ("get-secret-value", "get-session-token", "aws_secret_access_key", "--with-decryption",
            "Environment.Variables"),  # (a function's environment: its keys and passwords)
    "gcloud": ("print-access-token", "print-identity-token", "access"),
    # `az ad app credential reset` prints the new secret; publishing profiles hold deploy passwords
    "az": ("keyvault", "get-access-token", "credential", "list-publishing-profiles"),
    "vault": ("read", "kv"),
    # Rails' encrypted credentials decrypted (`credentials:show`)
    "rails": ("credentials:show",),
    "gh": ("token",),
    "op": ("read", "item"),
    "pass": ("show",),
    "gpg": ("--export-secret-keys", "--export-secret-subkeys"),
    "secret-tool": ("lookup",),
    "bw": ("get", "export"),
    "lpass": ("show", "export"),
    "keyring": ("get",),
    "doctl": ("token",),
    "heroku": ("auth:token", "config", "config:get"),  # (an app's config vars: its database URLs and keys)
    "ansible-vault": ("view",),  # the vault's variables decrypted
    "netlify": ("env:list", "env:get"),
    "f5mku": ("-K",),  # a BIG-IP's master key (it decrypts every stored password)
    "nomad": ("var",),  # `nomad var get`: a job's stored secrets
    "npm": ("token",),  # `npm token create`: a new publishing token
    "garage": ("--show-secret",),  # `garage key info --show-secret`: an access key's secret
    "radosgw-admin": ("info",),  # `radosgw-admin user info`: the account's access and secret keys
}  # fmt: skip
OUTPUT_OPTIONS = frozenset({"-o", "-out", "-keyout", "--output", "-O", "--out", "-w", "--write", "-ep",
                            "--export-path"})  # fmt: skip
PROBES = frozenset({"ping", "fping", "arping", "nc", "ncat", "netcat", "telnet", "curl", "nslookup", "dig", "host"})
GENERIC_PROCESS_NAMES = frozenset(
    {"python", "python3", "node", "java", "bash", "sh", "zsh", "ruby", "perl", "php", "sshd", "nginx", "apache2",
     "httpd", "postgres", "mysqld", "redis-server", "gunicorn", "uwsgi"}
)  # fmt: skip
RUNTIMES = frozenset({"java", "node", "nodejs", "deno", "bun", "php", "ruby", "perl", "dotnet", "mono", "wine",
                      # WebAssembly runtimes: a module runs with the directories, variables and network given to it
                      "wasmtime", "wasmer", "wasmedge", "wasm3", "iwasm", "wazero"})
SECRET_FILE_PATTERNS = (
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
    ".pem",
    ".key",
    ".env",
    "credentials",
    "wallet",
    ".kdbx",
    ".git-credentials",
    ".ppk",
    ".netrc",
    "shadow",
    ".p12",
    ".pfx",
    ".tfstate",
    ".tfvars",
    "kubeconfig",
)
CREDENTIAL_WORDS = ("password", "passwd", "secret", "token", "api_key", "apikey", "api-key", "private key", "aws_",
                    # the shapes of tokens themselves: GitHub, Slack, AWS keys, Stripe/OpenAI, Google, PEM keys
                    "ghp_", "gho_", "github_pat", "xox", "akia", "sk-", "sk_live", "aiza", "begin rsa", "begin openssh",
                    "private-key")  # fmt: skip
#: Ports of the services a developer's machine runs for them; whatever holds one is that service.
SERVICE_PORTS = {"5432": "postgres", "3306": "mysqld", "6379": "redis-server", "27017": "mongod", "22": "sshd",
                 "9200": "elasticsearch", "5672": "rabbitmq", "2379": "etcd", "6443": "kube-apiserver",
                 "1521": "oracle", "1433": "sqlservr", "9042": "cassandra", "11211": "memcached", "389": "slapd",
                 "8200": "vault", "5984": "couchdb"}  # fmt: skip
HISTORY_VARS = frozenset({"HISTFILE", "HISTSIZE", "HISTFILESIZE", "HISTCONTROL", "HISTIGNORE", "SAVEHIST"})
DISK_FILL = 10 * (1 << 30)  # 10 GiB in one go fills most sandboxes' disks
UNITS = {"": 1, "b": 512, "c": 1, "w": 2, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40, "p": 1 << 50}

#: System package managers, and the sub-commands that install or refresh packages.
PACKAGE_MANAGERS = frozenset({"apt-get", "apt", "dnf", "yum", "apk", "zypper", "pacman", "microdnf", "tdnf",
                              "grafana-cli", "tlmgr",  # (Grafana's plugin catalogue, TeX Live's package manager)
                              "pkg", "pkg_add"})  # (FreeBSD's and OpenBSD's)
PACKAGE_ACTIONS = frozenset({"install", "update", "upgrade", "add", "-S", "-Sy", "-Syu", "makecache", "clean"})

#: Unsafe deserializers of other languages (ruby, php, perl, node) that run code from the data.
INLINE_DESERIALIZERS = ("marshal.load", "yaml.load(", "yaml.unsafe_load", "unserialize(", "storable::thaw", "thaw(",
                        "readrds(url(", "load(url(",
                        "node-serialize", "serialize.unserialize", "psych.unsafe_load")  # fmt: skip

#: Names of system processes malware likes to hide behind.
SYSTEM_PROCESS_NAMES = frozenset(
    {"sshd", "systemd", "kworker", "kthreadd", "cron", "crond", "dbus-daemon", "rsyslogd", "udevd", "init",
     "bash", "sh", "login", "agetty", "containerd", "dockerd", "kubelet", "nginx", "apache2", "httpd", "sd-pam"}
)  # fmt: skip

#: Commands whose output is what a file or document holds (data, not code one wrote).
DATA_READERS = frozenset(
    {"jq", "yq", "cat", "head", "tail", "cut", "xmllint", "xq", "tomlq", "dasel", "redis-cli", "valkey-cli", "psql",
     "mysql", "mariadb", "sqlite3", "mongosh", "etcdctl", "consul"}
)  # fmt: skip
#: Sockets of container engines: whoever talks to them can start a privileged container.
ENGINE_SOCKETS = frozenset({"docker.sock", "containerd.sock", "podman.sock", "crio.sock", "dockershim.sock"})
#: Sockets whose client controls the host: container engines and libvirt's daemons.
MANAGEMENT_SOCKETS = ENGINE_SOCKETS | {"libvirt-sock", "virtqemud-sock", "libvirt-admin-sock", "virtproxyd-sock",
                                      "redis.sock", "redis-server.sock", "mysqld.sock", "mysql.sock",
                                      ".s.PGSQL.5432", "memcached.sock"}  # fmt: skip
#: Processes of database and broker servers (ZooKeeper's is QuorumPeerMain, Kafka's main class kafka.Kafka): killed
#: with SIGKILL, their writes in flight are lost and every client drops.
DATA_SERVER_PROCESSES = ("postgres", "mysqld", "mariadbd", "mongod", "redis-server", "clickhouse-server", "etcd",
                         "kafka.kafka", "kafka\\.kafka", "quorumpeermain", "cassandradaemon", "rabbitmq-server")
#: Processes that are running virtual machines: killing them pulls the plug on their guests.
VIRTUAL_MACHINE_PROCESSES = ("qemu-system", "qemu-kvm", "/usr/bin/kvm", "vboxheadless", "virtualboxvm", "vmware-vmx")
#: Options of `docker run/exec/create` that take a value (so the image and the command can be found).
CONTAINER_VALUED = frozenset(
    {"-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "-v", "--volume", "-p", "--publish",
     "--name", "--network", "--net", "-m", "--memory", "--cpus", "--entrypoint", "-l", "--label", "--mount",
     "--device", "--cap-add", "--cap-drop", "-h", "--hostname", "--restart", "--platform", "--pull",
     "--security-opt", "--ulimit", "--shm-size", "--gpus", "--add-host", "--dns", "--tmpfs", "--runtime",
     "--pid", "--ipc", "--uts", "--userns", "--cgroupns", "--log-driver", "--log-opt", "--stop-signal"}
)  # fmt: skip
#: Options naming the file a command makes out of its input (extract, decrypt, convert, unhide).
DERIVED_OUTPUT_OPTIONS = ("-o", "--output", "-out", "-xf", "--extractfile", "-O", "-d", "-C", "--directory")
#: Packages without which a phone does not boot or work (removing them is bricking it).
PHONE_CORE_PACKAGES = ("com.android.systemui", "com.google.android.gms", "com.android.phone", "com.android.settings",
                       "com.android.providers", "com.android.launcher", "com.android.vending", "android ")  # fmt: skip
#: Where a phone keeps its owner's photos, messages and app data.
PHONE_PRIVATE_PATHS = (
    "/sdcard/DCIM", "/sdcard/Pictures", "WhatsApp", "/data/data", "/data/user", "Databases", "/sdcard/Android/media",
    "/data/media", "com.whatsapp", "org.telegram", "/sdcard/Download",
)  # fmt: skip
#: Termux:API commands that read a phone's owner's whereabouts, messages, contacts or surroundings.
PHONE_SENSORS = {
    "termux-location": "location", "termux-sms-list": "text messages", "termux-call-log": "call log",
    "termux-contact-list": "contacts", "termux-wifi-connectioninfo": "Wi-Fi network (location)",
    "termux-wifi-scaninfo": "nearby Wi-Fi networks (location)", "termux-telephony-cellinfo": "cell towers (location)",
    "termux-clipboard-get": "clipboard", "termux-camera-photo": "camera", "termux-microphone-record": "microphone",
    "termux-notification-list": "notifications (message previews)",
}  # fmt: skip
#: Android content providers holding the owner's messages, calls and contacts (`content query --uri …`).
PHONE_PROVIDERS = re.compile(r"content://(?:sms|mms|mms-sms|call_log|contacts|com\.android\.contacts)\b")
#: ffmpeg input formats that capture the screen, a camera or a microphone.
CAPTURE_FORMATS = frozenset({"x11grab", "kmsgrab", "gdigrab", "avfoundation", "dshow", "v4l2", "video4linux2",
                             "alsa", "pulse", "jack", "pipewire", "wayland", "screen-capture-recorder"})  # fmt: skip
#: How inline code of other languages reads the whole environment.
INLINE_ENV_DUMPS = ("process.env)", "process.env,", "process.env}", "process.env]", "json.stringify(process.env",
                    "%env", "os.environ)", "env::vars()", "dict(os.environ", "getenv()", "environ)", "env.to_h",
                    "$_server", "$_env")  # fmt: skip
#: Branches others build on: rewriting them on the remote rewrites everyone's history.
SHARED_BRANCHES = frozenset({"main", "master", "trunk", "develop", "dev", "production", "prod", "stable", "HEAD"})
#: gh/glab options that take a value (so the sub-command and the API path can be found).
FORGE_VALUED = frozenset({"-X", "--method", "-f", "-F", "--field", "--raw-field", "-H", "--header", "-R", "--repo",
                          "-q", "--jq", "--input", "-p", "--preview", "-t", "--template", "--hostname", "-L",
                          "--limit", "--json", "-n", "--name", "-D", "--dir", "--title", "-b", "--body"})  # fmt: skip
#: Package managers and installers (their flags decide whether what they fetch is verified).
PACKAGE_TOOLS = frozenset({"go", "dnf", "yum", "apt", "apt-get", "zypper", "rpm", "dpkg", "pip", "pip3", "npm", "yarn",
                           "pnpm", "gem", "cargo", "nix", "nix-env", "brew", "composer", "conda", "mamba", "uv",
                           "poetry", "pipx", "bundle", "snap", "flatpak", "cpanm", "cpan"})  # fmt: skip
#: Programs that print what is typed on the keyboard (``xinput test`` too).
KEY_LOGGERS = frozenset({"logkeys", "showkey", "evtest", "keylogger", "lkl"})
#: Hosts of code and packages whose URLs projects install from directly (an archive of a tag, a wheel).
KNOWN_CODE_HOSTS = ("github.com", "githubusercontent.com", "gitlab.com", "bitbucket.org", "pythonhosted.org",
                    "pypi.org", "download.pytorch.org", "codeload.github.com", "huggingface.co")  # fmt: skip
#: Command-line clients of language models: what they print is a model's answer.
MODEL_CLIS = frozenset({"llm", "sgpt", "aichat", "ollama", "chatgpt", "mods", "fabric-ai", "gemini", "claude"})
#: Language package clients that take the registry to install from as an option, with that option.
REGISTRY_CLIENTS = frozenset({"npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx", "gem", "cargo", "composer"})
REGISTRY_OPTIONS = ("--registry", "--source", "--index", "--repository-url")
#: Actions of those clients that fetch and run package code (npx and the like always do).
FETCHING_ACTIONS = frozenset({"install", "i", "add", "ci", "exec", "dlx", "x", "update", "upgrade"})
PACKAGE_RUNNERS = frozenset({"npx", "pnpx", "bunx"})
#: Flags that turn off signature, checksum or TLS verification of what is installed.
UNVERIFIED_FLAGS = frozenset({"--nogpgcheck", "--no-gpg-check", "--allow-unauthenticated",
                              "--allow-insecure-repositories", "--no-verify", "--no-verify-ssl", "--insecure",
                              "--no-check-certificate",
                              "--no-quarantine", "--dangerous", "--nosignature", "--nodigest", "--force-badname",
                              "--allow-downgrades", "--skip-verify", "--trust-all"})  # fmt: skip
#: Packages without which a Linux system does not boot or cannot repair itself.
ESSENTIAL_PACKAGES = frozenset({"libc6", "glibc", "coreutils", "dpkg", "rpm", "apt", "systemd", "bash", "sudo",
                                "util-linux", "login", "passwd", "libc-bin", "base-files", "init", "dnf", "yum",
                                "linux-image-generic", "grub-pc", "grub2", "openssh-server"})  # fmt: skip
#: Lockfiles: what they pin is what installs fetch.
LOCKFILES = frozenset({"package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "Cargo.lock", "Gemfile.lock",
                       "composer.lock", "go.sum", "uv.lock", "Pipfile.lock", "requirements.txt"})  # fmt: skip
#: Scanner options that take a value (ports, rates, scripts), so the targets can be found.
SCANNER_VALUED = frozenset(
    {"-p", "--port", "--ports", "--rate", "--max-rate", "--script", "-oN", "-oX", "-oG", "-oA", "-e", "--top-ports",
     "-T", "--exclude", "-iL", "--source-port", "-S", "--min-rate"}
)  # fmt: skip
#: Compilers: what they build runs what the source says.
COMPILERS = frozenset({"gcc", "cc", "clang", "g++", "c++", "clang++", "tcc", "icc", "gcc-12", "gcc-13", "gcc-14"})
#: Compiler options that take a value (so the source files can be found).
COMPILER_VALUED = frozenset({"-o", "-x", "-I", "-L", "-l", "-D", "-U", "-include", "-MF", "-MT", "-std", "-isystem"})
#: tmux commands whose arguments are a command line to run.
TMUX_RUNNERS = frozenset(
    {"new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp",
     "respawn-window", "respawnw", "run-shell", "run", "send-keys", "send", "display-popup", "popup"}
)  # fmt: skip
#: Key names `tmux send-keys` types after the command text.
TMUX_KEYS = frozenset({"Enter", "C-m", "C-c", "C-d", "KPEnter", "Escape", "Space", "Tab"})
#: redis-cli options that take a value (so the command words can be told apart).
REDIS_CLI_VALUED = frozenset(
    {"-h", "-p", "-s", "-a", "-u", "-n", "-r", "-i", "--user", "--pass", "--tls-cert", "--tls-key", "--cacert",
     "--cacertdir", "--sni", "-d", "--pattern", "--count"}
)  # fmt: skip

#: Options whose value names files to leave out (tar, rsync, zip, grep...).
EXCLUDE_OPTIONS = ("--exclude", "--exclude-from", "--exclude-dir", "--ignore", "--exclude-vcs-ignores")

#: Cloud CLI commands that destroy whole resources: (tool, words that must all appear).
CLOUD_DESTROY = (
    ("aws", ("delete-hosted-zone",)),
    ("aws", ("s3", "rb")),
    ("aws", ("s3", "rm", "--recursive")),
    ("aws", ("terminate-instances",)),
    ("aws", ("delete-bucket",)),
    ("aws", ("delete-db-instance",)),
    ("aws", ("delete-db-cluster",)),
    ("aws", ("delete-stack",)),
    ("aws", ("delete-snapshot",)),
    ("aws", ("delete-volume",)),
    ("aws", ("delete-table",)),
    ("aws", ("delete-secret",)),
    ("aws", ("delete-cluster",)),
    ("aws", ("delete-user",)),
    ("aws", ("delete-function",)),
    ("aws", ("ecr", "delete-repository")),
    ("gcloud", ("artifacts", "repositories", "delete")),
    ("vercel", ("project", "rm")),
    ("vercel", ("projects", "rm")),
    ("netlify", ("sites:delete",)),
    ("gcloud", ("functions", "delete")),
    ("gsutil", ("rm", "-r")),
    ("gsutil", ("rb",)),
    ("gcloud", ("projects", "delete")),
    ("gcloud", ("instances", "delete")),
    ("gcloud", ("sql", "instances", "delete")),
    ("gcloud", ("clusters", "delete")),
    ("gcloud", ("buckets", "delete")),
    ("az", ("group", "delete")),
    ("az", ("vm", "delete")),
    ("az", ("storage", "account", "delete")),
    ("az", ("storage", "container", "delete")),
    ("az", ("storage", "blob", "delete-batch")),
    ("az", ("aks", "delete")),
    ("terraform", ("destroy",)),
    ("tofu", ("destroy",)),
    ("pulumi", ("destroy",)),
    ("pulumi", ("stack", "rm")),
    ("cdk", ("destroy",)),
    ("cdktf", ("destroy",)),
    ("terragrunt", ("destroy",)),
    ("terragrunt", ("run-all", "destroy")),
    ("terraform", ("state", "push", "-force")),
    ("terraform", ("workspace", "delete")),
    ("tofu", ("workspace", "delete")),
    ("tofu", ("state", "push", "-force")),
    ("tofu", ("state", "rm")),
    ("kubectl", ("delete", "namespace")),
    ("kubectl", ("delete", "ns")),
    ("kubectl", ("delete", "--all")),
    ("kubectl", ("delete", "-A")),
    ("kubectl", ("delete", "--all-namespaces")),
    ("kubectl", ("delete", "pv")),
    ("kubectl", ("delete", "pvc")),
    ("helm", ("uninstall",)),
    ("doctl", ("delete",)),
    ("hcloud", ("delete",)),
    ("linode-cli", ("delete",)),
    ("linode-cli", ("rebuild",)),
    ("vultr-cli", ("delete",)),
    # PaaS apps with their databases and volumes, a load balancer's virtual servers, functions' file shares
    ("heroku", ("apps:destroy",)),
    ("heroku", ("pg:reset",)),
    ("fly", ("apps", "destroy")),
    ("flyctl", ("apps", "destroy")),
    ("fly", ("volumes", "destroy")),
    ("flyctl", ("volumes", "destroy")),
    ("netlify", ("api", "deleteSite")),
    ("aws", ("delete-load-balancer",)),
    ("az", ("storage", "file", "delete-batch")),
    ("az", ("functionapp", "delete")),
    ("az", ("webapp", "delete")),
    ("tmsh", ("delete", "ltm", "virtual")),
    ("jf", ("rt", "del")),
    ("jfrog", ("rt", "del")),
)
#: Infrastructure tools printing what their state or stack holds in clear (database passwords, keys).
IAC_SECRET_PRINTS = (
    ("terraform", ("state", "pull")),
    ("tofu", ("state", "pull")),
    ("terraform", ("output", "-json")),
    ("terraform", ("show", "-json")),
    ("pulumi", ("--show-secrets",)),
    ("pulumi", ("stack", "export")),
)
CLOUD_TOOLS = (
    frozenset(tool for tool, _ in CLOUD_DESTROY)
    | {tool for tool, _ in IAC_SECRET_PRINTS}
    | {"crane", "regctl", "skopeo"}  # container registries' own clients (image deletes)
)

#: ssh options that take a value (so the host and the remote command can be told apart).
SSH_VALUED = frozenset(
    {"-p", "-i", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-b", "-c", "-E", "-e", "-I", "-m", "-O", "-Q", "-S",
     "-W", "-w", "-B"}
)  # fmt: skip

#: systemctl/service actions on an installed service that are routine with sudo.
ROUTINE_SERVICE_ACTIONS = frozenset(
    {"restart", "reload", "status", "try-restart", "start", "daemon-reload", "daemon-reexec", "enable", "is-active",
     "is-enabled",
     "reload-or-restart", "--failed", "list-units", "list-timers", "show", "cat", "is-failed",
     # a unit a package ships masked (hostapd on Debian), unmasked to be started: its own settings are judged apart
     "unmask",
     # supervisorctl's: configuration re-read and applied, a program's log followed
     "reread", "update", "avail", "tail",
     # launchd's: a job restarted or printed
     "kickstart", "print", "list"}
)  # fmt: skip
#: Groups whose members administer the machine (or can become root through a device or a daemon).
ADMIN_GROUPS = frozenset({"sudo", "wheel", "admin", "root", "adm", "docker", "lxd", "disk", "shadow", "libvirt"})
#: Administration tools whose own rules grade what they do: run with sudo they are MEDIUM unless
#: those rules say more (an interpreter, a shell or an unknown program run as root stays HIGH, and
#: so does kill: as root it reaches every user's processes).
GRADED_ADMIN_TOOLS = frozenset(
    {"postmap", "newaliases", "grub-mknetdir", "grub2-mknetdir",
     # DNS servers administered locally (zones signed and rectified, caches flushed, keys rolled)
     "pdnsutil", "rndc", "unbound-control", "unbound-anchor", "knotc", "keymgr", "dnssec-keygen", "dnssec-settime",
     "dnssec-signzone",
     # upgrades and their safety nets: release upgrades, snapshots, /etc in version control, outdated services
     "do-release-upgrade", "needrestart", "etckeeper", "snapper", "grub-reboot", "pg_upgradecluster",
     "iptables-restore-translate", "iptables-translate", "ip6tables-translate", "swanctl", "ipsec", "netplan",
     "useradd", "adduser", "usermod", "userdel", "deluser", "delgroup", "groupadd",
     "groupmod", "gpasswd", "chage",
     "passwd", "chpasswd", "visudo", "setcap", "ufw", "firewall-cmd", "iptables", "ip6tables", "nft", "iptables-save",
     "netfilter-persistent",
     "sysctl", "mount", "umount", "lvextend", "lvcreate", "lvresize", "pvresize", "vgextend", "resize2fs",
     "xfs_growfs", "growpart", "losetup", "qemu-nbd", "debootstrap", "mmdebstrap", "setfacl", "mdadm", "smartctl",
     "mknod",
     # file attributes (immutable, append-only) graded by the files they are set on
     "chattr",
     # kernel modules built, signed and installed, the initramfs rebuilt, firmware metadata refreshed
     "dkms", "depmod", "update-initramfs", "dracut", "mkinitcpio", "kmodsign", "sign-file", "mokutil", "fwupdmgr",
     # Secure Boot keys enrolled and binaries signed, disks' TPM unlock slots bound to measurements
     "update-secureboot-policy", "sbctl", "sbsign", "sbverify", "systemd-cryptenroll", "fwupdtool",
     # directory servers and Kerberos administered locally (what they are told is graded by its own rules)
     "ldapmodify", "ldapadd", "ipa-getkeytab", "getcert", "kadmin.local", "dsconf", "dsctl",
     # backup tools run as root to read every file (what they forget, prune or send is graded by their own rules)
     "restic", "borg", "borgmatic", "kopia", "duplicity", "rsnapshot",
     # Nix: garbage collected, the store verified or optimised, channels and generations, systems rebuilt
     "nix-collect-garbage", "nix-store", "nix-channel", "nix-env", "nixos-rebuild", "home-manager",
     "switch-to-configuration",
     # wireless radios and access points, RADIUS run in the foreground to debug it
     "iw", "iwconfig", "iwlist", "rfkill", "hostapd", "hostapd_cli", "wpa_cli", "freeradius", "radiusd",
     "insmod", "rmmod", "dpdk-devbind", "dpdk-devbind.py", "driverctl",
     "lvs", "vgs", "pvs", "lsblk", "blkid", "findmnt", "parted",
     "mkfs", "mkfs.ext4", "mkfs.xfs", "semanage", "restorecon", "setsebool", "getsebool", "chcon", "aa-status",
     "apparmor_parser", "aa-enforce", "aa-complain", "logrotate", "crontab", "chmod", "chown", "chgrp", "grep",
     "cat", "tail", "head", "less", "awk", "sed", "zgrep", "zcat", "find", "ls", "stat", "rm",
     "dnf", "yum", "apt", "apt-get", "zypper", "pacman", "apk", "snap", "port", "openssl", "ssh-keygen", "sshd",
     "nginx",
     "hostnamectl", "timedatectl", "loginctl", "ip", "ss", "tcpdump", "exportfs", "wg", "modprobe", "dd",
     "needs-restarting", "rpm", "dpkg", "update-alternatives", "journalctl", "docker", "curl", "wget", "arping",
     "nsupdate", "tshark", "nmap",
     "podman", "ctr", "crictl", "kubeadm", "who", "last", "lastb", "w", "id", "getent",
     "salt", "salt-call", "salt-ssh", "ansible", "ansible-playbook", "softwareupdate",
     # security audits, integrity checks and VPN clients, whose own rules grade what they do
     "lynis", "rkhunter", "chkrootkit", "aide", "debsums", "fail2ban-client", "fail2ban-regex", "cscli",
     "clamscan", "freshclam", "oscap",
     "tiger", "wg-quick", "tailscale", "zerotier-cli", "openvpn", "nmcli", "resolvectl",
     # auditing and tracing, graded by what they watch (keystroke and TLS capture have their own rule)
     "auditctl", "ausearch", "aureport", "bpftrace", "sysdig", "perf", "syslog-ng", "rsyslogd", "promtool",
     "offcputime-bpfcc", "profile-bpfcc", "execsnoop-bpfcc", "opensnoop-bpfcc", "biolatency-bpfcc",
     "offcputime", "execsnoop", "opensnoop", "biolatency", "tcptop", "runqlat",
     # trust store refreshes (what they trust is judged where the certificate is written)
     "update-ca-certificates", "update-ca-trust", "trust",
     # archives unpacked (graded by where), terminfo entries compiled, ZFS datasets snapshotted or destroyed
     "tar", "unzip", "tic", "zfs", "zpool",
     # package sources (graded where the source is written) and the selected Xcode
     "add-apt-repository", "apt-add-repository", "xcode-select", "xcodebuild",
     # joining a directory and checking it (graded by their own rules)
     "realm", "net", "sss_cache", "adcli", "samba-tool", "kinit", "klist", "wbinfo",
     # server consoles graded by what they are told (rndc status, asterisk -rx "core show …"), htpasswd files
     "asterisk", "fs_cli", "htpasswd",
     # hypervisors' and mail servers' own tools, graded by what they are told to do
     "virsh", "qm", "pct", "pvesh", "pveum", "esxcli", "vim-cmd", "postconf", "postsuper", "doveadm",
     # printers and their queues (CUPS)
     "cupsenable", "cupsdisable", "cupsaccept", "cupsreject", "lpadmin", "lpstat", "lpinfo", "cupsctl", "lpoptions",
     "cancel", "lprm", "lpmove", "chsh",
     # a mail server's DKIM keys made (graded where they are read or sent)
     "opendkim-genkey",
     # a web server's and PHP's modules, sites and settings switched on or off (what they serve is graded where the
     # configuration is written); a database's tables checked, analysed or optimised; a database client run as
     # root over its socket (the statements it is given are graded by the SQL rules)
     "phpenmod", "phpdismod", "a2enmod", "a2dismod", "a2ensite", "a2dissite", "a2enconf", "a2disconf", "mysqlcheck",
     "mysql", "mariadb",
     # a serial line's speed and mode set (a device is read or written, graded where that happens)
     "stty"}
)  # fmt: skip
#: Commands that write files: run as root they are graded by the file they write.
ROOT_FILE_WRITERS = frozenset(
    {"tee", "cp", "install", "mkdir", "ln", "touch", "mv", "rsync", "bmaptool", *LINE_END_CONVERTERS,
     "gzip", "xz", "zstd", "bzip2", "truncate"}  # (a file compressed where it lies, a log emptied in place)
)
#: Configuration checks and reloads admins run with sudo.
ROUTINE_ROOT_CHECKS = frozenset(
    {("nginx", ("-t",)), ("nginx", ("-s", "reload")), ("apachectl", ("configtest",)), ("apachectl", ("graceful",)),
     ("apache2ctl", ("configtest",)), ("sshd", ("-t",)), ("visudo", ("-c",)), ("named-checkconf", ()),
     ("fdisk", ("-l",)), ("parted", ("-l",)), ("blkid", ()), ("opendkim", ("-n",)), ("blockdev", ("--setro",)),
     ("true", ()), ("-v", ()), ("id", ()), ("whoami", ()), ("rosdep", ("init",)),
     # macOS: the DNS cache flushed, Spotlight's index switched on or rebuilt
     ("postfix", ("check",)), ("postfix", ("reload",)), ("postfix", ("status",)),
     ("dscacheutil", ("-flushcache",)), ("killall", ("-HUP", "mDNSResponder")), ("mdutil", ("-i", "on", "/")),
     ("mdutil", ("-E", "/"))}
)  # fmt: skip
#: Daemons' configuration checks (``sudo php-fpm8.1 -t``, ``freeradius -XC``): the options or words that make
#: the command only parse its configuration and exit (empty: the tool does nothing else).
CONFIG_CHECKS: dict[str, frozenset[str]] = {
    "bacula-dir": frozenset({"-t"}), "bacula-sd": frozenset({"-t"}), "bacula-fd": frozenset({"-t"}),
    "bareos-dir": frozenset({"-t"}), "bareos-sd": frozenset({"-t"}), "bareos-fd": frozenset({"-t"}),
    "nginx": frozenset({"-t", "-T"}), "php-fpm": frozenset({"-t", "-tt"}), "nagios": frozenset({"-v"}),
    "php": frozenset({"-l"}),  # (a PHP file's syntax checked: `php -l config.php`)
    "nagios4": frozenset({"-v"}), "icinga": frozenset({"--validate", "-C"}),
    "apachectl": frozenset({"configtest", "-t"}),
    "apache2ctl": frozenset({"configtest", "-t"}), "httpd": frozenset({"-t", "-n"}), "nebula": frozenset({"-test"}),
    "crowdsec": frozenset({"-t"}),
    "sshd": frozenset({"-t", "-T"}),
    "visudo": frozenset({"-c"}), "freeradius": frozenset({"-XC", "-C"}), "radiusd": frozenset({"-XC", "-C"}),
    "haproxy": frozenset({"-c"}), "kea-dhcp4": frozenset({"-t"}), "kea-dhcp6": frozenset({"-t"}),
    "dovecot": frozenset({"-n"}), "varnishd": frozenset({"-C"}), "caddy": frozenset({"validate"}),
    "postfix": frozenset({"check"}), "squid": frozenset({"parse"}), "promtool": frozenset({"check"}),
    "nft": frozenset({"-c"}), "iptables-restore": frozenset({"--test", "-t"}), "spamassassin": frozenset({"--lint"}),
    "sssctl": frozenset({"config-check", "domain-status", "domain-list", "user-checks"}),
    "ip6tables-restore": frozenset({"--test", "-t"}), "keepalived": frozenset({"-t", "--config-test"}),
    "exim": frozenset({"-bV"}),
    "exim4": frozenset({"-bV"}), "named-checkconf": frozenset(), "named-checkzone": frozenset(),
    "unbound-checkconf": frozenset(), "testparm": frozenset(), "kamailio": frozenset({"-c"}),
    # DHCP and TFTP servers and log shippers parsing their configuration and exiting
    "dhcpd": frozenset({"-t", "-T"}), "dnsmasq": frozenset({"--test"}), "fluentd": frozenset({"--dry-run"}),
    "td-agent": frozenset({"--dry-run"}), "telegraf": frozenset({"--test", "--test-wait"}), "shibd": frozenset({"-t"}),
    "augenrules": frozenset({"--check"}), "osqueryctl": frozenset({"config-check"}),
    "osqueryd": frozenset({"--config_check"}),
    # log and metrics shippers checking their configuration (and, for the Beats, their output's reachability)
    "filebeat": frozenset({"test"}), "metricbeat": frozenset({"test"}), "auditbeat": frozenset({"test"}),
    "heartbeat": frozenset({"test"}), "packetbeat": frozenset({"test"}), "vector": frozenset({"validate"}),
    "fluent-bit": frozenset({"--dry-run", "-D"}), "otelcol": frozenset({"validate"}),
    "otelcol-contrib": frozenset({"validate"}), "amtool": frozenset({"check-config"}),
    "logstash": frozenset({"-t", "--config.test_and_exit"}), "promtail": frozenset({"-check-syntax", "--check-syntax"}),
}  # fmt: skip
#: Ports logs are shipped to: syslog (UDP/TCP/TLS), Splunk forwarders and HEC, Beats, Fluentd, GELF.
LOG_SHIPPING_PORTS = frozenset({"514", "601", "6514", "10514", "9997", "8088", "5044", "24224", "12201"})
#: Signals that ask a daemon to reload its configuration or reopen its logs (``kill -HUP $(cat nginx.pid)``).
RELOAD_SIGNALS = frozenset({"-HUP", "-SIGHUP", "-1", "-USR1", "-SIGUSR1", "-USR2", "-SIGUSR2",
                            # (a worker told to stop taking jobs, or paused and resumed: Sidekiq's quiet is TSTP)
                            "-TSTP", "-SIGTSTP", "-CONT", "-SIGCONT"})
#: Apache's switches of modules, sites and configuration snippets (what a site serves is judged where it is
#: written).
WEB_SERVER_SWITCHES = frozenset({"a2enmod", "a2dismod", "a2ensite", "a2dissite", "a2enconf", "a2disconf"})
#: Read-only inspection tools (processes, sockets, logs, disks) and certbot (the host's own certificates),
#: commonly run with sudo.
ROOT_INSPECTORS = frozenset(
    {"journalctl", "dmesg", "lsof", "ss", "netstat", "du", "df", "lsblk", "iotop", "htop", "certbot", "udevadm",
     "mailq", "postqueue", "postcat", "kvm-ok", "virt-host-validate", "lspci", "lsusb", "dmidecode",
     # what holds a file or a port (its -k kill has its own rule), security modules' state and denials explained
     "fuser", "audit2why", "aa-status", "apparmor_status", "sestatus", "getenforce", "smartctl", "ls", "stat",
     "osqueryi", "aureport", "ausearch",
     # a root-only settings file read into JSON or a digest (they print; where that goes is graded there)
     "jq", "sha256sum", "sha512sum", "sha1sum", "md5sum", "b2sum", "cksum",
     "systemd-analyze",
     # network path diagnosis (TCP and ICMP probes need raw sockets)
     "traceroute", "tcptraceroute", "mtr",
     # locales generated and chosen, caches of fonts, manual pages and file names rebuilt
     "locale-gen", "update-locale", "localectl", "localedef", "fc-cache", "mandb", "updatedb",
     # a support bundle collected for a case (graded by where it is sent)
     "sosreport", "supportconfig",
     # the TPM's measurements and capabilities, firmware variables read out
     "tpm2_pcrread", "tpm2_eventlog", "tpm2_getcap", "tpm2_readpublic", "efi-readvar", "lsns",
     # tape drives and changers identified (SCSI inquiries, not writes)
     "tapeinfo", "lsscsi", "sg_inq", "loaderinfo",
     # SQL Server on Linux's own settings tool (memory, TLS, trace flags; it restarts nothing itself)
     "mssql-conf"}
)  # fmt: skip

#: Network commands that carry data in their arguments (DNS names, ping payloads, URLs).
ARG_SENDERS = frozenset({"dig", "nslookup", "host", "ping", "ping6", "drill", "kdig", "traceroute"})
#: Names of environment variables that hold credentials.
CREDENTIAL_NAME = re.compile(
    r"(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL|AUTH_KEY|AUTHORI[SZ]ATION_?KEY"
    r"|(?:DOOR|GATE|ALARM|MASTER|ACCESS|ENTRY)_?(?:PIN|CODE))",
    re.IGNORECASE,
)
#: Database shells: they run the SQL (or CQL, or JavaScript) given with -c/-e, in a file or on stdin.
SQL_CLIENTS = frozenset(
    {"psql", "mysql", "mariadb", "sqlite3", "clickhouse-client", "sqlcmd", "cockroach", "mongosh", "mongo", "cqlsh",
     "clickhouse", "duckdb", "snowsql", "influx", "hdbsql", "sqlplus", "ysqlsh", "ycqlsh",
     # Hadoop's and the lakehouse's SQL shells (Hive, Trino, Presto, Impala, Spark SQL)
     "beeline", "hive", "trino", "trino-cli", "presto", "presto-cli", "impala-shell", "spark-sql"}
)  # fmt: skip
#: Database shell options that give the statements to run (then stdin is data, not SQL).
SQL_SCRIPT_OPTIONS = frozenset({"-c", "--command", "-f", "--file", "-e", "--execute", "--eval"})
#: A database server's administration programs (run as its service account with ``sudo -u postgres``).
DATABASE_ADMIN_TOOLS = frozenset(
    {"createuser", "createdb", "dropuser", "dropdb", "pg_dump", "pg_dumpall", "pg_restore", "pg_basebackup", "pg_ctl",
     "pg_ctlcluster", "pg_isready", "vacuumdb", "reindexdb", "pg_upgrade", "pg_controldata", "mysqladmin",
     "mysqldump", "mysqlcheck"}
)  # fmt: skip
#: Programs that use a key, keystore or certificate they are given (to sign, build, authenticate or run a node)
#: without printing it.
KEY_TOOLS = frozenset(
    {"keytool", "jarsigner", "apksigner", "codesign", "productsign", "notarytool", "security", "gradle", "gradlew",
     "xcodebuild", "fastlane", "geth", "lighthouse", "prysm", "beacon-chain", "validator", "teku", "nimbus_beacon_node",
     "reth", "erigon", "bitcoind", "lnd", "openvpn", "wg-quick", "ssh-add", "sshfs", "helm", "bundletool",
     "altool", "signtool", "osslsigncode", "kinit", "k5start", "msktutil", "sf", "sfdx",
     # TLS clients and certificate tools given a client key or a CA key
     "etcdctl", "kubeadm", "mkcert", "step", "cfssl", "consul", "nomad", "cockroach",
     # a broker's admin tool signing client tokens with the cluster's key; DKIM keys generated and checked
     "pulsar", "opendkim-testkey", "opendkim-genkey",
     # Rundeck's CLI storing a node key in its key storage (`rd keys create -f KEY`)
     "rd",
     # a web or proxy login file's own tools: a user's hash set or checked (the file is not printed)
     "htpasswd", "htdigest", "basic_ncsa_auth",
     # Talos configs generated from the cluster's secrets bundle (`talosctl gen config --with-secrets`)
     "talosctl"}
)  # fmt: skip
#: Tools that run a script file given after ``run``/``exec`` (``npx hardhat run deploy.js``).
SCRIPT_RUNNERS = frozenset({"hardhat", "truffle", "brownie", "forge", "ape", "ts-node", "tsx", "npx", "pnpx"})
#: Ports of development web servers: relaying them to every interface shows a page, not a database or a wallet.
DEV_WEB_PORTS = frozenset({"80", "443", "3000", "3001", "4200", "5000", "5173", "8000", "8080", "8081"})
#: Folders others can drop files in (uploads, shared and public folders, temporary directories).
DROP_BOXES = frozenset(
    {"upload", "uploads", "incoming", "inbox", "dropbox", "shared", "public", "user_uploads", "tmp", "shm",
     "submissions", "submission", "inbound", "thinclient_drives", "downloads", "quarantine",
     # a document service's watched or hot folders, where users drop files for it to pick up
     "watchedfolders", "hotfolder", "hotfolders"}
)  # fmt: skip
#: Ports of administration consoles and data stores that must not face the internet.
ADMIN_PORTS = {
    "2375": "the Docker API", "2376": "the Docker API", "25575": "a game server's RCON console",
    "27015": "a game server's RCON console", "4369": "Erlang's port mapper (its nodes run code for the cookie)",
    "5432": "PostgreSQL", "3306": "MySQL", "6379": "Redis",
    "27017": "MongoDB", "9200": "Elasticsearch", "8545": "a node's RPC", "8332": "a wallet's RPC",
    "11211": "memcached", "5984": "CouchDB", "9000": "a management console", "10250": "the kubelet API",
    "2379": "etcd (every secret of the cluster)", "8123": "ClickHouse's HTTP interface",
}  # fmt: skip

#: Names of what watches, alarms, records or keeps safe (monitors, alarms, recorders, safety controllers, backups).
WATCHERS = re.compile(r"alert|alarm|monitor|watchdog|detect|sensor|logger|audit|telemetr|\btlm|gpsd?\b|dashcam"
                      r"|\beld\b|\beld-|fire|safety|vent|haccp|cctv|camera|\bnvr\b|backup"
                      # vessels' and vehicles' position reporting (a fishing boat's VMS, a transponder, a tracker)
                      r"|\bvms\b|\bvms-|beacon|transponder|\bgps\w*|tracking|tracker|uplink|\w+logd\b")  # fmt: skip
#: Programs that write firmware into a device's flash (a microcontroller, a motor controller, a board's SPI chip).
FLASH_TOOLS = frozenset(
    {"dfu-util", "st-flash", "avrdude", "esptool", "esptool.py", "openocd", "flashrom", "stm32flash", "bossac",
     "nrfjprog", "pyocd", "JLinkExe", "teensy_loader_cli", "picotool", "uf2conv.py", "uuu",
     # ESP boards' over-the-air uploader (Arduino's and ESPHome's espota)
     "espota.py",
     # flight controllers' firmware uploaders (ArduPilot, PX4)
     "uploader.py", "px_uploader.py"}
)  # fmt: skip
