"""Python analyzer: one pass over the AST with name resolution, constant folding and def-use.

Every expression is evaluated once, in source order, into a :class:`~sandlot.risk.values.Val`
(what is known about it). Calls are matched by their *resolved* qualified name
(``o.system`` after ``import os as o`` is ``os.system``; ``model.eval`` is not
``builtins.eval``), their constant arguments are folded (paths, shell strings, code)
and graded, and provenance bits (secret file content, network data, decoded payloads,
function parameters) flow through assignments so that a secret reaching a network call
is reported as exfiltration.
"""

from __future__ import annotations

import ast
import base64
import contextlib
import copy
import functools
import inspect
import ipaddress
import itertools
import json
import math
import operator
import os
import posixpath
import re
import shlex
import stat
import textwrap
import tomllib
import unicodedata
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal

import attrs

from sandlot.risk import archives, paths
from sandlot.risk import folding as F
from sandlot.risk import python_tables as T
from sandlot.risk import shell_words as W
from sandlot.risk import values as v
from sandlot.risk.backups import DB_DUMPERS
from sandlot.risk.config_commands import (
    config_commands,
    config_weakness,
    open_door,
    package_source_weakness,
    protection_off,
    protections_in_json,
)
from sandlot.risk.control_plane import (
    MASS_COUNT,
    OperationRisk,
    assess_operation,
    assess_request,
    costly_machine,
    credential_metadata_url,
    foreign_endpoint,
    leaks_secrets,
    operation,
    own_backup_store,
    soften_verified,
    verifies_certificate,
    verifies_download,
    workflow_commands,
    workflow_file,
    workflow_leaks_secrets,
)
from sandlot.risk.crm import NUMBER_ROUTE
from sandlot.risk.destinations import (
    SUBSCRIPTION_URL,
    beacon,
    chat_message,
    creates_public_hub_repo,
    credential_services,
    data_label,
    delete_endpoint,
    internal_host,
    issuer_words,
    local_files_or_users,
    loopback_url,
    misdirected_credential,
    names_outside_address,
    outside_address,
    personal_account,
    personal_host,
    public_drop,
    scratch_remote,
)
from sandlot.risk.devices import (
    DEVICE_LIBRARIES,
    DEVICE_SEND_METHODS,
    device_commands_risk,
    foreign_firmware,
    places_calls,
    vehicle_command,
)
from sandlot.risk.documents import HOLD_METHODS, hold_request, mentions_sharing, removes_holds, sharing_risk
from sandlot.risk.fleet import adhoc_commands, fleet_harm
from sandlot.risk.gate_words import GateWords
from sandlot.risk.hypervisors import (
    DESTROY_METHODS,
    HYPERVISOR_LIBRARY_NAMES,
    VM_DESTROY_WHEN_REPEATED,
    datastore_file_url,
    hypervisor_text_risk,
    machine_storage,
)
from sandlot.risk.identity import (
    ADMIN_GROUP,
    PASSWORD_HASH_ATTRIBUTES,
    directory_change,
    directory_dump,
    identity_request,
    people_api,
)
from sandlot.risk.industrial import FIELD_LIBRARIES, field_write, local_devices
from sandlot.risk.ipython import looks_like_ipython, shell_cell, to_python
from sandlot.risk.ledgers import (
    CHAIN_SEND_METHODS,
    PAYMENT_PREFIXES,
    money_request,
    moves_money,
    payment_file,
    test_money,
)
from sandlot.risk.mail import credential_lure, deletes_every_message, forwards_mailbox, personal_mailbox
from sandlot.risk.model import Category, Finding, RiskLevel
from sandlot.risk.monitoring import silence_request_mutes_everything
from sandlot.risk.paths import HOLE, HOLE_WORD, INSTALLED_PACKAGES, credential_helper
from sandlot.risk.payloads import embedded_commands, looks_like_payload, names_miner
from sandlot.risk.premises import CAMERA_IMAGE, premises_request
from sandlot.risk.python2 import looks_like_python2, modernise
from sandlot.risk.schedulers import cancels_listed_jobs
from sandlot.risk.shell_tables import (
    ADMIN_PORTS,
    CODE_SUFFIXES,
    COMPILERS,
    CONTAINER_VALUED,
    DATA_SERVER_PROCESSES,
    DROP_BOXES,
    ENGINE_SOCKETS,
    FLASH_TOOLS,
    GENERIC_PROCESS_NAMES,
    INLINE_DESERIALIZERS,
    LOCKFILES,
    PACKAGE_TOOLS,
    SECURITY_SERVICES,
    SERVICE_PORTS,
    STDIN_REPLS,
    SYSTEM_PROCESS_NAMES,
    WATCHERS,
)
from sandlot.risk.sql import (
    dangerous_sql,
    deletes_every_row,
    deletes_recent_rows,
    drops_database_made_here,
    drops_table,
    empties_tables,
    guarded_test_database,
    local_store,
    payment_or_identity_field,
    people_row,
    personal_data_query,
    personal_fields,
    production_target,
    refills_tables,
    schema_reset,
    store_request,
    store_wipe,
    test_harness_database,
    unloads_personal_data,
)
from sandlot.risk.startup_files import fetches_then_runs, harmless_content, hidden_or_temporary, tame
from sandlot.risk.storefronts import delete_mutation, zeroes_prices
from sandlot.risk.text_shapes import hidden_tag_texts, url_hosts
from sandlot.risk.values import UNKNOWN, Val
from sandlot.risk.websites import cdn_request, free_discount
from sandlot.risk.whole_text import whole_text_risks
from sandlot.risk.windows import WINDOWS_WORDS, windows_text_risks

ANALYZER = "sandlot.python"
MAX_DEPTH = 6


class _Scope:
    __slots__ = ("bound", "globals_", "kind", "vals")

    def __init__(self, kind: str, bound: set[str]) -> None:
        self.kind = kind
        self.vals: dict[str, Val] = {}
        self.bound = bound
        self.globals_: set[str] = set()


class _FuncSummary:
    """What a function defined in the analysed code does with its parameters and returns."""

    __slots__ = (
        "exec_params",
        "forks",
        "handler",
        "name",
        "net_params",
        "node",
        "offset",
        "params",
        "ret",
        "self_calls",
        "shell_params",
        "yields",
    )  # fmt: skip

    def __init__(self, name: str, params: list[str]) -> None:
        self.name = name
        self.params = params
        self.offset = 0  # 1 for a method: params[0] is self/cls, call arguments start at params[1]
        self.ret: Val | None = None
        self.net_params = 0  # PARAM bits that reach a network call
        self.exec_params = 0  # ... that reach eval/exec
        self.shell_params = 0  # ... that reach a shell command
        self.forks = False
        self.self_calls = False
        self.yields: list[Val] = []  # what a generator yields
        self.handler = False  # a web route or message handler: its arguments are what a client sent
        self.node: ast.FunctionDef | ast.AsyncFunctionDef | None = None


class _ClassInfo:
    """A class defined in the analysed code: its methods, so that instances can be followed."""

    __slots__ = ("bases", "methods", "name")

    def __init__(self, name: str, bases: Sequence[str] = ()) -> None:
        self.name = name
        self.bases = tuple(bases)  # the qualified names of its base classes, as far as known
        self.methods: dict[str, _FuncSummary] = {}


class _Instance:
    """An instance of a local class; ``informed`` when its constructor got constant or tainted arguments."""

    __slots__ = ("cls", "informed")

    def __init__(self, cls: _ClassInfo, informed: bool) -> None:
        self.cls = cls
        self.informed = informed


class _Partial:
    """``functools.partial(f, *args, **kwargs)``: calling it calls ``f`` with these arguments first."""

    __slots__ = ("args", "kwargs", "target")

    def __init__(self, target: Val, args: list[Val], kwargs: dict[str, Val]) -> None:
        self.target, self.args, self.kwargs = target, args, kwargs


class _AnyOf:
    """One of several local functions, chosen at run time (a dispatch table with a computed key)."""

    __slots__ = ("choices",)

    def __init__(self, choices: list[Val]) -> None:
        self.choices = choices


class _MethodCaller:
    """``operator.methodcaller(name, *args)``: calling it on ``obj`` calls ``obj.name(*args)``."""

    __slots__ = ("args", "kwargs", "name")

    def __init__(self, name: str, args: list[Val], kwargs: dict[str, Val]) -> None:
        self.name, self.args, self.kwargs = name, args, kwargs


class _Loop:
    __slots__ = ("count", "endless", "fast", "function", "huge", "listing", "node", "runaway", "unbounded",
                 "until_error")

    def __init__(
        self,
        unbounded: bool,
        huge: bool,
        function: _FuncSummary | None,
        runaway: bool = False,
        count: int | None = None,
        endless: bool = False,
    ) -> None:
        self.count = count  # iterations, when known (`range(10_000)`)
        self.endless = endless  # `while True` that nothing in it ends (it may sleep between rounds)
        self.unbounded = unbounded
        self.huge = huge
        self.function = function
        self.runaway = runaway  # never ends and never sleeps (reading a camera or a socket is no pause)
        self.fast = False  # never ends and sleeps under a second a round (a write per round fills a disk)
        self.until_error = False  # `while True` left only by an exception (a quota error re-raised)
        self.listing = False  # iterates over what a directory listing gave (os.walk, glob, iterdir...)
        self.node: ast.AST | None = None  # the loop statement


def _collect_bound(
    body: Sequence[ast.AST], params: Sequence[str] = (), *, walrus: bool = True
) -> tuple[set[str], set[str]]:
    """Names a scope binds (assignments, imports, defs) and the names it declares global. Without
    ``walrus`` (no ``:=`` in the source) only the targets of statements can bind, so the other
    expressions are not walked."""
    if not walrus:
        return _statement_bindings(body, params)
    bound = set(params)
    declared_global: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
            stack.extend(node.decorator_list)
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name != "*":
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            declared_global.update(node.names)
        if not walrus and isinstance(node, ast.stmt):
            if isinstance(node, (ast.Expr, ast.Return, ast.Pass, ast.Raise, ast.Assert, ast.Break, ast.Continue)):
                continue  # binds nothing without `:=`
            if isinstance(node, ast.Assign):
                stack.extend(node.targets)
                continue
            for field, value in ast.iter_fields(node):
                if field in ("targets", "target"):
                    stack.extend(value if isinstance(value, list) else [value])
                elif isinstance(value, list):
                    stack.extend(v for v in value if isinstance(v, _BINDING_PARTS))
            continue
        stack.extend(ast.iter_child_nodes(node))
    return bound - declared_global, declared_global


#: Parts of a statement that may bind names when no ``:=`` is written: nested statements, except clauses,
#: ``with`` items (``as`` targets), ``match`` cases.
_BINDING_PARTS = (ast.stmt, ast.excepthandler, ast.withitem, ast.match_case)


def _descendants(nodes: Sequence[ast.AST]) -> list[ast.AST]:
    """Every node in ``nodes`` and below, in no particular order (``ast.walk`` without its generators)."""
    found: list[ast.AST] = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        found.append(node)
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                stack.extend(item for item in value if isinstance(item, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
    return found


def _statement_bindings(body: Sequence[ast.AST], params: Sequence[str]) -> tuple[set[str], set[str]]:
    """:func:`_collect_bound` for source without ``:=``: only statements' targets, imports, definitions, except
    and ``with ... as`` names and ``match`` captures bind, so expressions are never entered."""
    bound = set(params)
    declared_global: set[str] = set()
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.Name:
            bound.add(node.id)  # type: ignore[attr-defined]
        elif kind in _NESTING:
            stack.extend(getattr(node, "body", ()))
            stack.extend(getattr(node, "orelse", ()))
            stack.extend(getattr(node, "finalbody", ()))
            stack.extend(getattr(node, "handlers", ()))
            if kind in (ast.For, ast.AsyncFor):
                stack.append(node.target)  # type: ignore[attr-defined]
            elif kind in (ast.With, ast.AsyncWith):
                stack.extend(i.optional_vars for i in node.items if i.optional_vars is not None)  # type: ignore[attr-defined]
        elif kind is ast.Assign:
            stack.extend(node.targets)  # type: ignore[attr-defined]
        elif kind in (ast.AugAssign, ast.AnnAssign):
            stack.append(node.target)  # type: ignore[attr-defined]
        elif kind in (ast.Tuple, ast.List):
            stack.extend(node.elts)  # type: ignore[attr-defined]
        elif kind is ast.Starred:
            stack.append(node.value)  # type: ignore[attr-defined]
        elif kind in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            bound.add(node.name)  # type: ignore[attr-defined]
        elif kind in (ast.Import, ast.ImportFrom):
            for alias in node.names:  # type: ignore[attr-defined]
                if alias.name != "*":
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif kind is ast.ExceptHandler:
            if node.name:  # type: ignore[attr-defined]
                bound.add(node.name)  # type: ignore[attr-defined]
            stack.extend(node.body)  # type: ignore[attr-defined]
        elif kind in (ast.Global, ast.Nonlocal):
            declared_global.update(node.names)  # type: ignore[attr-defined]
        elif kind is ast.Delete:
            stack.extend(node.targets)  # type: ignore[attr-defined]
        elif kind is ast.Match:
            for case in node.cases:  # type: ignore[attr-defined]
                for part in ast.walk(case.pattern):  # `case {"x": x, **rest}`, `case [first, *others]`
                    bound.update(n for n in (getattr(part, "name", None), getattr(part, "rest", None)) if n)
                stack.extend(case.body)
    return bound - declared_global, declared_global


_NESTING = frozenset({ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try, ast.TryStar})


class PythonAnalyzer:
    """Analyze one module's source. Create one per piece of code."""

    def __init__(self, *, parse_error_level: RiskLevel = RiskLevel.MEDIUM, depth: int = 0) -> None:
        self.parse_error_level = parse_error_level
        self.depth = depth
        self.findings: list[Finding] = []
        self.scopes: list[_Scope] = []
        self.functions: list[_FuncSummary] = []
        self.loops: list[_Loop] = []
        self._walked: dict[int, list[ast.AST]] = {}  # the nodes inside each loop, walked once
        self._comp_endless = False  # the comprehension being evaluated iterates an endless iterator
        self._reduce_depth = 0  # a reduce() being folded (its expression may hold another)
        self._handler_sources: dict[int, str] = {}  # a request handler's source, unparsed once
        self._file_values: dict[str, Val] = {}  # what this program wrote to each file (read back, it is the same)
        self._own_pid_containers: set[str] = set()  # lists and dicts holding the pids of children it started
        self._secret_reads: set[str] = set()  # secret files read, and written (a token file kept up to date)
        self._secret_writes: set[str] = set()
        self.methods: dict[str, Val] = {}
        self.attrs: dict[str, Val] = {}
        self.downloaded: set[str] = set()
        self._dropped: set[str] = set()  # files written with decoded (embedded, obfuscated) bytes
        self.argv: list[str] | None = None  # sys.argv, when the caller knows it
        self._exec_memory = False  # executable memory was mapped (mmap PROT_EXEC, VirtualAlloc)
        self._credentials: set[str] = set()  # credential-named environment variables read so far
        self._external_reads = False  # files read from a data share outside the project and the system
        self.star_modules: list[str] = []
        self.lines: list[str] = []
        self._seen: set[tuple[str, int, int]] = set()
        self._inline_depth = 0
        self._cwd: str | None = None  # set by os.chdir with a constant path
        self.staged: set[str] = paths.PathSet()  # files that secret data was written into (staging before upload)
        self._bulk_files: set[str] = set()  # archives of people's photos and documents (sent out like a dump)
        self._endless_recursion: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, bool]] = []
        self._recursion_raised = False
        self._comp_size: int | None = None  # iteration count of the last comprehension generator
        self._comp_rounds: list[int] = []  # how often each comprehension around the current element runs it
        self._shells: list[ast.AST] = []  # interactive shells started
        self._sockets = False  # an outbound connection or listening socket was made
        self._inline_budget = 32
        self._arg_defaults: dict[str, Val] = {}  # argparse dest -> default value
        self._last_alloc: int | None = None  # bytes of the last allocation of known size
        self._stdin_shells: list[Val] = []  # Popen handles of shells that read commands from stdin
        self._class_bases: list[list[str]] = []  # base classes of the classes being defined
        self._tree = ast.Module(body=[], type_ignores=[])
        self._module_texts: list[str] | None = None  # every string constant of the module (on demand)
        self._unnamed_download = False  # network data was written to a file whose name is unknown
        self._lure: bool | None = None  # the module's text urges people to log in behind a link (computed once)
        self._unnamed_executable = False  # a file whose name is unknown was made executable
        self._device_opened = False  # a serial port, camera or microphone was opened
        self._memfd = False  # an anonymous memory file was created (memfd_create)
        self._per_element = 0  # inside a function a loop or a map calls once per element
        self._foreign_store = False  # an S3 client points at a third party's endpoint
        self._name_filters = 0  # inside `if x.name == "...":` bodies
        self._name_tests: list[tuple[list[str], bool]] = []  # their strings, and whether a name decides alone
        self._file_filters = 0  # inside `if f.endswith(".log") and age > limit:` bodies
        self._cut_off_now = False  # an age cut-off of zero (`time.time() - 0 * 86400`): no file is younger
        self._future_cut_offs: set[str] = set()  # names of cut-offs set in the future (`now() + timedelta(…)`)
        self._subset_loops = 0  # inside loops over a slice of a listing (`for old in sorted(glob(…))[:-7]:`)
        self._huge_maps = 0  # inside a function a pool maps over a huge iterable (`pool.map(fire, range(10**6))`)
        self._bound_cache: dict[tuple[int, tuple[str, ...]], tuple[set[str], set[str]]] = {}
        self._walrus = True  # the source has `:=` (expressions may bind names): set per module
        self._mentions_all_users = True  # the source spells allUsers (a public grant is possible)
        self._mentions_forwarding = True  # the source spells a mail-forwarding setting
        self._mentions_directory = True  # the source uses a directory (LDAP, Samba)
        self._mentions_devices = True  # the source drives network devices (netmiko, PyEZ, paramiko shells)
        self._mentions_cms = True  # the source calls a CDN's zone API
        self._mentions_drop = True  # the source names a request catcher, file host or paste site
        self._mentions_store = True  # the source spells GraphQL mutations, prices or discounts
        self._mentions_sharing = True  # the source spells link sharing, ownership, holds or retention
        self._mentions_field = True  # the source drives PLCs, drives or building controllers
        self._mentions_vehicles = True  # the source spells a vehicle's remote command
        self._code = ""  # the module's source
        self._mentions_tls = True  # the source spells a way of turning certificate checks off
        self._unverified_tls = False  # certificate checks were turned off for the whole process
        self._cron_jobs: list[str | None] = []  # commands of the jobs python-crontab was given (`cron.new(command=…)`)
        self._downloaded_on_path = False  # a downloaded file or folder was put on sys.path
        self._mentions_ota = True  # the source points devices at a firmware server (Tasmota's OtaUrl)
        self._mentions_nox = True  # the source is a noxfile (`session.run(*argv)` runs a program)
        self._mentions_hypervisor = True  # the source drives libvirt, vSphere, Proxmox or QEMU
        self._mentions_issuer = True  # the source names a known service's credential variable (OPENAI_API_KEY)
        self._assignments: dict[str, list[ast.expr]] | None = None  # name -> the values assigned to it anywhere
        self._storage_endpoint = ""  # the foreign object-storage endpoint an S3 client was pointed at
        self._tried_passwords: dict[int, set[str]] = {}  # login call -> the constant passwords it was given
        self._local_service: int | str | None = None  # a port of this machine's loopback the code connects to
        self._console_port: str | None = None  # a login, console or controller port of another host it connects to
        self._registries: dict[str, list[Val]] = {}  # dict name -> local functions stored in it
        self._self_written: set[str] = set()  # paths this code wrote
        self._created_names: set[str] = set()  # names of cloud or cluster objects this code created
        # files this code packed into an archive it writes (tar.add, zip.write) or encrypted into a copy (gpg -e)
        self._archived: set[str] = set()
        self._made_temporary: set[str] = set()  # folders tempfile.mkdtemp made for this run (wherever `dir=` put them)
        self._backed_up: set[str] = set()  # files copied aside before they are changed (`cfg` to `cfg.bak`)
        self._fresh_files: set[str] = set()  # files mkstemp or an exclusive os.open made (new, nothing replaced)
        self._listening_everywhere = False  # a server listens on every network interface
        self._interpreters_opened = False  # code.interact(), an InteractiveConsole
        self._home_archived = False  # every file of the home directory put into an archive
        self._secrets_served = False  # the environment or a secret file written into an HTTP response
        self._outside_peer: str | None = None  # a host outside the organisation this code connects to
        self._timeout_catchers = 0  # enclosing `try` blocks that end on a socket timeout

    # ----------------------------------------------------------------- entry point
    def analyze(self, code: str) -> list[Finding]:
        try:
            tree = ast.parse(code)
        except SyntaxError as exc:
            notebook = self._notebook_cell(code) or self._python2(code)
            if notebook is None:
                return self._parse_error(exc) + self._parsable_prefix(code, exc)
            if isinstance(notebook, list):
                return notebook  # a %%bash cell: the shell analyzer's findings
            code, tree = notebook
        except (ValueError, RecursionError, MemoryError) as exc:
            return self._parse_error(exc)
        return self._analyze_tree(code, tree)

    def _notebook_cell(self, code: str) -> list[Finding] | tuple[str, ast.Module] | None:
        """An IPython cell: its shell script's findings (``%%bash``), or the plain Python it amounts to."""
        if not looks_like_ipython(code):
            return None
        script = shell_cell(code)
        if script is not None:
            from sandlot.risk.shell_analyzer import analyze_shell

            return analyze_shell(script, parse_error_level=self.parse_error_level, depth=self.depth + 1)
        rewritten = to_python(code)
        try:
            return rewritten, ast.parse(rewritten)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None

    @staticmethod
    def _python2(code: str) -> tuple[str, ast.Module] | None:
        """Python 2 source: the Python 3 it means, parsed."""
        if not looks_like_python2(code):
            return None
        modern = modernise(code)
        try:
            return modern, ast.parse(modern)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None

    def _parsable_prefix(self, code: str, exc: SyntaxError) -> list[Finding]:
        """The lines before a syntax error (a Snakefile's Python preamble, a truncated paste): what they do
        still counts."""
        line = (exc.lineno or 0) - 1
        lines = code.splitlines()
        floor = max(0, line - 20)  # a statement that began far earlier: give up rather than re-parse for long
        while line > floor:
            prefix = "\n".join(lines[:line])
            try:
                ast.parse(prefix)
            except SyntaxError:
                line -= 1  # the error may sit in a statement that began earlier
                continue
            except (ValueError, RecursionError, MemoryError):
                return []
            return PythonAnalyzer(parse_error_level=self.parse_error_level, depth=self.depth).analyze(prefix)
        return []

    def _parse_error(self, exc: Exception) -> list[Finding]:
        self.findings.append(
            Finding(
                "python.parse-error",
                self.parse_error_level,
                f"the Python code does not parse ({type(exc).__name__}: "
                f"{getattr(exc, 'msg', str(exc))}); it cannot be shown to be safe",
                Category.PARSE,
                getattr(exc, "lineno", 0) or 0,
                0,
                "",
                ANALYZER,
            )
        )
        return self.findings

    def _analyze_tree(self, code: str, tree: ast.Module) -> list[Finding]:
        self.lines = code.splitlines()
        self._tree = tree
        self._walrus = ":=" in code
        lowered = code.lower()
        self._code = code
        self._mentions_all_users = "allUsers" in code or "allAuthenticatedUsers" in code
        self._mentions_forwarding = forwards_mailbox(code)
        self._mentions_directory = "ldap" in lowered or "samba" in lowered
        self._mentions_devices = _DEVICE_LIBRARY_WORDS.any_in(code) and bool(DEVICE_LIBRARIES.search(code))
        self._mentions_cms = "/zones/" in code or "cloudflare" in lowered
        self._mentions_drop = "://" in code and public_drop(code)
        self._mentions_store = "mutation" in code or "price" in code or "discount" in code
        self._mentions_sharing = mentions_sharing(code)
        self._mentions_field = FIELD_LIBRARIES.any_in(code)
        self._mentions_vehicles = _VEHICLE_WORDS.any_in(code) and vehicle_command(code)
        self._mentions_tls = "_create_unverified_context" in code or "VERIFY" in code or "UNAUTHORIZED" in code
        self._mentions_ota = "OtaUrl" in code
        self._mentions_nox = "nox" in code
        self._mentions_hypervisor = HYPERVISOR_LIBRARY_NAMES.any_in(code)
        self._mentions_issuer = "://" in code and _ISSUER_WORDS.any_in(code)
        bound, _ = _collect_bound(tree.body, walrus=self._walrus)
        module = _Scope("module", bound)
        self.scopes.append(module)
        self._preload_imports(tree)
        try:
            self._block(tree.body)
        except RecursionError:
            self._add(
                "python.too-complex", RiskLevel.MEDIUM, Category.PARSE, "the code is nested too deeply to analyse", None
            )
        self._guards_turned_off(tree)
        self._archive_escapes(tree, code)
        if "--bare" in code and scratch_remote(code):
            self.findings = [  # force pushes into the bare repository this code made (a test's remote)
                attrs.evolve(f, level=RiskLevel.MEDIUM)
                if f.rule_id == "shell.history-rewrite" and f.level > RiskLevel.MEDIUM
                else f
                for f in self.findings
            ]
        if any(f.rule_id.endswith(("download-exec", ".write")) and f.level > RiskLevel.MEDIUM for f in self.findings):
            certificate = verifies_certificate(code)  # only worth looking for when there is something to soften
            if verifies_download(code, "python") or certificate:
                self.findings = soften_verified(self.findings, certificate=certificate)
        skimmer = (
            any(w in lowered for w in ("cc", "card", "cvv", "cvc"))
            and _CARD_FIELDS.search(code)
            and _REQUEST_FORM.search(code)
            and not _PAYMENT_HOSTS.search(code)
        )
        if skimmer and self._sockets:
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      "sends card numbers typed at checkout to another host (a skimmer)", None)  # fmt: skip
        writes = _WRITE_WORDS.any_in(code) and _WRITES_FILES.search(code)
        opened = open_door(code) if writes else None
        if opened and not any(f.category is Category.PRIVILEGE and f.level >= RiskLevel.HIGH for f in self.findings):
            self._add("python.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE, opened, None)
        for hidden in hidden_tag_texts(code):
            # a command spelled in invisible tag characters (decoded and run by the code)
            from sandlot.risk.shell_analyzer import analyze_shell

            for finding in analyze_shell(hidden, depth=self.depth + 1):
                if finding.level >= RiskLevel.HIGH:
                    self._add(finding.rule_id, finding.level, finding.category,
                              f"{finding.message} (hidden in invisible Unicode tag characters)", None)  # fmt: skip
        if WINDOWS_WORDS.any_in(code):
            # Windows command text written into a file others run (a GPO's task, a logon script)
            for risk in windows_text_risks(code):
                what = f"{risk.what} (Windows commands spelled in the code)"
                self._add("python.windows", risk.level, risk.category, what, None)
        if "SSH_AUTH_SOCK" in code and (self._sockets or "create_connection" in code):
            self._add("python.exposure", RiskLevel.HIGH, Category.EXFILTRATION,
                      "talks to the ssh agent's socket and to the network (relays the agent's keys)", None)  # fmt: skip
        if self._listening_everywhere and self._local_service is not None:
            self._add("python.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"relays a service of this machine or the internal network (port {self._local_service}) to every "
                      "network interface", None)  # fmt: skip
        if self._listening_everywhere and self._console_port is not None and self._local_service is None:
            self._add("python.exposure", RiskLevel.HIGH, Category.NETWORK,
                      f"relays connections from every network interface to another host's {self._console_port} "
                      "(anyone who reaches this machine reaches it)", None)  # fmt: skip
        if self._outside_peer and self._local_service is not None and not self._listening_everywhere:
            self._add("python.tunnel", RiskLevel.HIGH, Category.NETWORK,
                      f"bridges port {self._local_service} of this machine or the internal network to "
                      f"{self._outside_peer} (a reverse tunnel from outside)", None)  # fmt: skip
        if self._secrets_served and self._listening_everywhere:
            self._add("python.exposure", RiskLevel.HIGH, Category.EXFILTRATION,
                      "serves the process environment or a secret file to anyone who connects (every interface, "
                      "no authentication)", None)  # fmt: skip
        if self._home_archived and self._listening_everywhere:
            self._add("python.exposure", RiskLevel.HIGH, Category.EXFILTRATION,
                      "serves an archive of every file in the home directory (keys, tokens, browser profiles) on every "
                      "network interface", None)  # fmt: skip
        if self._interpreters_opened and self._listening_everywhere:
            self._add("python.reverse-shell", RiskLevel.HIGH, Category.NETWORK,
                      "serves an interactive Python interpreter on every network interface (a remote shell)",
                      None)  # fmt: skip
        if self._device_opened and self._listening_everywhere:
            self._add(
                "python.exposure",
                RiskLevel.HIGH,
                Category.NETWORK,
                "serves a device (serial port, camera, microphone) on every network interface, without authentication",
                None,
            )
        if not any(f.level >= RiskLevel.HIGH for f in self.findings):
            self._shipped_payloads(tree)
        # (after the strings' own command lines: a check of the whole text does not stand in for what they do)
        for suffix, risk in whole_text_risks(code):
            self._add(f"python.{suffix}", risk.level, risk.category, risk.what, None)
        for fn, grows in self._endless_recursion:
            # Python stops runaway recursion at ~1000 frames unless the limit was raised
            level = RiskLevel.HIGH if grows or self._recursion_raised else RiskLevel.MEDIUM
            self._add(
                "python.endless-recursion", level, Category.RESOURCE, f"{fn.name}() calls itself with no base case", fn
            )
        self._own_credential_files()
        self._local_service_keys()
        return self.findings

    def _local_service_keys(self) -> None:
        """An application's API key read from its own state folder and used only against this machine's API
        (``open("/var/lib/mailinabox/api.key")``, then requests to 127.0.0.1) is how its tools log in: the read is
        ``medium``, as long as nothing of it leaves the machine."""
        keys = [p for p in self._secret_reads if p.startswith(("/var/lib/", "/etc/")) and _SERVICE_KEY_FILE.search(p)]
        if not keys or len(keys) != len(self._secret_reads):
            return
        hosts = url_hosts(self._code)
        if not hosts or not all(h in ("localhost", "127.0.0.1") for h in hosts) or "subprocess" in self._code:
            return
        if any(f.level >= RiskLevel.HIGH and f.rule_id != "python.secret-read" for f in self.findings):
            return
        self.findings = [
            attrs.evolve(f, level=RiskLevel.MEDIUM)
            if f.rule_id == "python.secret-read" and any(p in f.message for p in keys)
            else f
            for f in self.findings
        ]

    def _own_credential_files(self) -> None:
        """A token file the program reads, refreshes at the token's issuer and writes back is its own state: its
        reads and writes are ``medium``, as long as nothing of it leaves the machine."""
        if not any(f.rule_id == "python.secret-use" for f in self.findings):
            return  # only a token refreshed at its issuer makes rewriting the file routine
        own = [p for p in self._secret_reads & self._secret_writes if HOLE not in p]
        leaks = any(
            f.category is Category.EXFILTRATION and f.rule_id != "python.secret-read" and f.level >= RiskLevel.HIGH
            for f in self.findings
        )
        if not own or leaks:
            return
        self.findings = [
            attrs.evolve(f, level=RiskLevel.MEDIUM)
            if f.rule_id in ("python.secret-read", "python.write") and any(p in f.message for p in own)
            else f
            for f in self.findings
        ]

    def _shipped_payloads(self, tree: ast.Module) -> None:
        """Command lines in string constants sent to run elsewhere (manifests, user data, API bodies)."""
        code = self._code
        # every string constant is spelled in the source as it is, unless escapes spell it otherwise
        if "\\" not in code:
            joined = code
        elif _HIDING_ESCAPE.search(code):
            joined = "\n".join(self._module_strings())  # `"\x63url"`: only the decoded strings say what they spell
        else:
            joined = code.replace("\\n", "\n").replace("\\t", "\t")  # line breaks and tabs, spelled as escapes
        fetch_exec = "exec(" in joined and _FETCH_AND_EXEC.search(joined) is not None
        if not (looks_like_payload(joined) or names_miner(joined) or leaks_secrets(joined) or fetch_exec) and not (
            _MAYBE_BYTES.search(code) and _BYTES_LITERAL.search(code)
        ):
            return  # one search over every string constant at once: most modules ship no command line
        candidates = [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, (str, bytes))
            and (
                looks_like_payload(_text_of(node.value))
                or names_miner(_text_of(node.value))
                or leaks_secrets(_text_of(node.value))
                or (fetch_exec and _FETCH_AND_EXEC.search(_text_of(node.value)) is not None)
            )
        ]
        if not candidates:
            return
        shown = _shown_constants(tree, starts_processes=_STARTS_PROCESSES.search(code) is not None)
        for node in candidates:
            if id(node) in shown:
                continue
            text = _text_of(node.value)
            if leaks_secrets(text):
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          "a CI workflow that sends the repository's secrets out", node)  # fmt: skip
            if names_miner(text):
                self._add(
                    "python.miner",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    "names a miner or a mining pool",
                    node,
                )
            if fetch_exec and _FETCH_AND_EXEC.search(text) and self.depth < 3:
                # Python source held in a string (appended to a package's `__init__.py`, a wheel rewritten)
                found = analyze_python(text.strip(), parse_error_level=RiskLevel.LOW, depth=self.depth + 1)
                self._merge_nested([f for f in found if f.level >= RiskLevel.HIGH], node, "Python code in a string")
            for command in embedded_commands(text, whole_scripts=True):
                self._later_shell(command, node, "a command line in a string")

    def _preload_imports(self, tree: ast.Module) -> None:
        # Imports anywhere outside functions are visible to functions defined before them.
        stack: list[ast.AST] = list(tree.body)
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self._import(node)
            elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.expr)):
                stack.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, ast.stmt))

    # ----------------------------------------------------------------- findings
    def _add(self, rule: str, level: RiskLevel, category: Category, message: str, node: ast.AST | None) -> None:
        line = getattr(node, "lineno", 0) if node is not None else 0
        column = getattr(node, "col_offset", 0) if node is not None else 0
        key = (rule + message, line, column)
        if key in self._seen:
            return
        self._seen.add(key)
        self.findings.append(Finding(rule, level, message, category, line, column, self._evidence(node), ANALYZER))

    def _evidence(self, node: ast.AST | None) -> str:
        lineno: int | None = getattr(node, "lineno", None)
        if lineno is None:
            return ""
        start = lineno - 1
        if not 0 <= start < len(self.lines):
            return ""
        text = self.lines[start]
        col: int = getattr(node, "col_offset", 0)
        end_col: int | None = getattr(node, "end_col_offset", None)
        if getattr(node, "end_lineno", None) == lineno and end_col is not None:
            text = text[col:end_col]
        else:
            text = text[col:].strip() + " …"
        text = text.replace(HOLE_WORD, "…")
        return text if len(text) <= 160 else text[:160] + " …"

    def _written_script(self, data: Val, node: ast.AST, q: str, targets: Sequence[str] = ()) -> None:
        """A script written to a file runs later (a hook, a cron job, a .pth file every Python
        start executes): what it would do counts, at HIGH and above, as if this code did it."""

        for target in targets[:2]:
            for text in data.strings()[:2]:
                weakness = config_weakness(target, text)
                if weakness:
                    self._add("python.persistence", RiskLevel.HIGH, weakness[1], weakness[0], node)
                tool, commands = config_commands(target, text)
                for command in commands[:4]:
                    self._add(
                        "python.persistence",
                        RiskLevel.MEDIUM,
                        Category.PERSISTENCE,
                        f"{q} configures {tool} to run a command every time it is used",
                        node,
                    )
                    self._later_shell(command.replace(HOLE, HOLE_WORD), node, f"a {tool} configuration written by {q}")
        for target in targets[:2]:
            if workflow_file(target) and data.text and self.depth < MAX_DEPTH:
                # a CI workflow's steps run on the next push or schedule: what they run counts
                for command in workflow_commands(data.text)[:4]:
                    self._later_shell(command.replace(HOLE, HOLE_WORD), node, f"a CI workflow step written by {q}")
        for target in targets[:2]:
            name = posixpath.basename(target)
            if name.endswith((".yml", ".yaml")) and ("compose" in name or "kind" in name) and data.text:
                # a compose file (or a kind cluster's) this code writes and then starts: the shell rules read the
                # same document written by a here-document
                self._later_shell(f"cat > {shlex.quote(target)} <<'EOF'\n{data.text}\nEOF", node,
                                  f"a container file written by {q}")  # fmt: skip
        sections = any("%p" in t for t in data.strings()[:2])
        for text in data.strings()[:2] if sections else ():
            # a kickstart's %pre and %post sections run as root on every machine installed from it
            for section in _KICKSTART_SECTION.findall(text)[:2]:
                self._later_shell(section.replace(HOLE, HOLE_WORD), node, f"a kickstart section written by {q}")
        for target in targets[:2]:
            if not target.endswith((".service", ".desktop", ".plist")):
                continue
            for text in data.strings()[:2]:
                for command in _UNIT_COMMAND.findall(text):
                    program = command.split()[0].strip("\"'") if command.split() else ""
                    hosts = [urllib.parse.urlsplit(u).hostname or "" for u in re.findall(r"\w+://[^\s\"']+", command)]
                    hosts += re.findall(r"(?<![\w.])(\d{1,3}(?:\.\d{1,3}){3})(?::\d+)?(?![\w.])", command)
                    if self._fetched(program) or any(outside_address(h) for h in hosts):
                        self._add("python.persistence", RiskLevel.HIGH, Category.PERSISTENCE,
                                  f"a service written by {q} starts a program downloaded from the network (or one "
                                  "that connects to a bare outside address) at every boot or login", node)  # fmt: skip
                    self._later_shell(command.replace(HOLE, HOLE_WORD), node, f"a service written by {q}")
        for target in targets[:2]:
            if posixpath.basename(target) in ("Dockerfile", "Containerfile") or target.endswith(".dockerfile"):
                for text in data.strings()[:2]:
                    if "RUN" in text:  # an image's build steps: what they fetch, plant or send
                        document = "FROM scratch\n" + text.replace(HOLE, "")
                        self._later_shell(f"docker build -f- . <<'EOF'\n{document}\nEOF\n", node,
                                          f"a Dockerfile written by {q}")  # fmt: skip
        for target in targets[:2]:
            language = CODE_SUFFIXES.get(posixpath.splitext(target)[1].lower())
            for text in data.strings()[:2] if language not in (None, "python") else ():
                from sandlot.risk.shell_analyzer import analyze_inline_code

                found = analyze_inline_code(str(language), text.replace(HOLE, HOLE_WORD), depth=self.depth + 1)
                self._merge_nested([f for f in found if f.level >= RiskLevel.HIGH], node, f"code written by {q}")
        for text in data.strings()[:2]:
            python = (
                _SHEBANG_PYTHON.match(text)
                or (any(t.endswith(".pth") for t in targets) and text.lstrip().startswith("import "))
                # a module the project imports or a build runs (setup.py, conftest.py, a package's __init__)
                or any(t.endswith(".py") for t in targets)
            )
            if python:
                found = analyze_python(text.replace(HOLE, "_"), parse_error_level=RiskLevel.LOW, depth=self.depth + 1)
                self._merge_nested([f for f in found if f.level >= RiskLevel.HIGH], node, f"a script written by {q}")
                continue
            # (a BitBake recipe's or class's tasks are shell functions run when an image is built)
            if not _SHEBANG_SHELL.match(text) and not any(t.endswith(_SHELL_CODE_FILES) for t in targets):
                continue
            found = self._later_shell(text, node, f"a script written by {q}")
            helper = next((t for t in targets if credential_helper(t)), None)
            if helper and any(f.category in (Category.NETWORK, Category.EXFILTRATION) for f in found):
                self._add("python.exfiltration", RiskLevel.CRITICAL, Category.EXFILTRATION,
                          f"the credential helper written to {helper} sends the secrets it handles over the network",
                          node)  # fmt: skip

    def _fetched(self, path: str) -> bool:
        """``path`` came from the network: downloaded, or inside a directory that was (a clone)."""
        return path in self.downloaded or any(
            len(d.split(HOLE, 1)[0]) >= 2 and path.startswith(d.rstrip("/") + "/") for d in self.downloaded
        )

    def _soften_reads(self, path: str, rule: str) -> None:
        """The reads of a profile this code then wrote back were an edit: MEDIUM (sent anywhere, still critical)."""
        self.findings = paths.soften_profile_reads(self.findings, path, rule)

    def _soften(self, described: str, cap: RiskLevel) -> None:
        """Lower the write findings about ``described`` (a path) to ``cap``: its content proved harmless."""
        # (and the file's own reads: `if entry not in pgpass.read_text(): …append(entry)` reads to add a line once)
        self.findings = [
            attrs.evolve(f, level=cap)
            if f.level > cap
            and (
                (f.rule_id in ("python.write", "python.persistence") and described in f.message)
                or (f.rule_id == "python.secret-read" and f.message.endswith(" reads " + described))
            )
            else f
            for f in self.findings
        ]

    def _manifest(self, document: str, node: ast.AST) -> None:
        """A Kubernetes object created or patched from here: judged as ``kubectl apply`` of the same document."""
        self._later_shell(f"kubectl apply -f - <<'SANDLOT_EOF'\n{document}\nSANDLOT_EOF\n", node, "a Kubernetes object")

    def _remote_shell_command(self, q: str | None, command: Val, node: ast.Call) -> None:
        """``command=["sh", "-c", CODE]`` given to a container, a pod exec or a remote host: CODE runs there.
        (Any other argv whose words are known is read as the command line they spell: `["python3", "-c", CODE]`.)"""
        items = command.items or []
        if len(items) >= 3 and posixpath.basename(items[0].text or "") in T.SHELL_NAMES and items[1].text == "-c":
            for text in items[2].strings():
                self._later_shell(text, node, f"a command {q or 'a call'} runs")
        elif items and all(i.text is not None for i in items):
            self._later_shell(shlex.join(i.text or "" for i in items), node, f"a command {q or 'a call'} runs")
        elif command.items is None and command.text is not None and HOLE not in command.text:
            self._later_shell(command.text, node, f"a command {q or 'a call'} runs")

    def _later_shell(self, text: str, node: ast.AST, via: str) -> list[Finding]:
        """Shell code this program hands on to run later or elsewhere (a script, a config, a payload):
        what it would do counts from HIGH up; it need not parse cleanly (LOW if not). Returns all it found."""
        found = self._shell_findings(text, node, via, parse_error_level=RiskLevel.LOW)
        self._merge_nested([f for f in found if f.level >= RiskLevel.HIGH], node, via)
        return found

    def _shell_findings(self, text: str, node: ast.AST, via: str, *, parse_error_level: RiskLevel) -> list[Finding]:
        """The shell analyzer's findings for ``text``, placed at ``node`` and credited to ``via`` (the files it
        fills with a dump join this program's)."""
        from sandlot.risk.shell_analyzer import analyze_shell_nested

        return analyze_shell_nested(
            text,
            line=getattr(node, "lineno", 0),
            column=getattr(node, "col_offset", 0),
            evidence=self._evidence(node),
            via=via,
            parse_error_level=parse_error_level,
            depth=self.depth + 1,
            dumps=self._bulk_files,
            enclosing=self._code,
        )

    def _merge_nested(self, found: list[Finding], node: ast.AST, via: str) -> None:
        line = getattr(node, "lineno", 0)
        column = getattr(node, "col_offset", 0)
        evidence = self._evidence(node)
        for f in found:
            message = f.message if f.line == line or "(in " in f.message else f"{f.message} (in {via})"
            key = (f.rule_id + message, line, column)
            if key in self._seen:
                continue
            self._seen.add(key)
            self.findings.append(Finding(f.rule_id, f.level, message, f.category, line, column, evidence, f.analyzer))

    # ----------------------------------------------------------------- scopes
    def _lookup(self, name: str) -> Val:
        for scope in reversed(self.scopes):
            if scope.kind == "class" and scope is not self.scopes[-1]:
                continue  # class bodies are not visible from their methods
            found = scope.vals.get(name)
            if found is not None:
                return found
            if name in scope.bound:
                return UNKNOWN
        if name in T.BUILTINS:
            return Val(qual="builtins." + name)
        if name == "__builtins__":
            return Val(qual="builtins")
        if name == "get_ipython":
            return Val(qual="IPython.get_ipython")  # a notebook kernel's builtin
        if name == "__file__":
            return Val(text="./" + HOLE + ".py")
        for module in self.star_modules:
            return Val(qual=f"{module}.{name}")
        return UNKNOWN

    def _bind_name(self, name: str, val: Val) -> None:
        scope = self.scopes[-1]
        if name in scope.globals_:
            scope = self.scopes[0]
        scope.vals[name] = val
        if scope.kind == "class" and not isinstance(val.func, _FuncSummary):
            # a class attribute (or dataclass field default) is what self.name reads until assigned
            self.attrs[f"self.{name}"] = val
            self.attrs[f"cls.{name}"] = val

    def _rebind(self, name: str, val: Val) -> None:
        """Update a name where it lives: mutating a module-level dict or queue inside a function
        (``_STATE["k"] = secret``, ``outbox.put(env)``) changes the module's object."""
        for scope in reversed(self.scopes):
            if name in scope.vals and scope.kind != "class":
                scope.vals[name] = val
                return
        self._bind_name(name, val)

    def _bind(self, target: ast.AST, val: Val) -> None:
        if isinstance(target, ast.Name):
            self._bind_name(target.id, val)
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            items = val.items
            for i, elt in enumerate(elts):
                if isinstance(elt, ast.Starred):
                    self._bind(elt.value, Val(flags=val.flags & v.FLOWING))
                elif items is not None and len(items) == len(elts):
                    self._bind(elt, items[i])
                else:
                    self._bind(elt, Val(flags=val.flags & v.FLOWING))
        elif isinstance(target, ast.Attribute):
            if target.attr == "is_superuser" and val.num == 1:
                self._superuser(target)
            elif _ROLE_ATTRIBUTE.fullmatch(target.attr) and _ADMIN_ROLE.search(val.text or "") and self._in_loop():
                # `for user in Pager(server.users): user.site_role = "SiteAdministratorCreator"`
                self._add("python.identity", RiskLevel.HIGH, Category.PRIVILEGE,
                          f"makes every account a loop visits an administrator ({val.text})", target)  # fmt: skip
            key = self._attr_key(target)
            if key is not None:
                self.attrs[key] = val
            self._ev(target.value)
        elif isinstance(target, ast.Subscript):
            base = self._ev(target.value)
            index = self._ev(target.slice)
            if isinstance(val.func, _FuncSummary) and isinstance(target.value, ast.Name):
                # HANDLERS[name] = fn: a registry; HANDLERS[x]() may call any function stored in it
                registry = self._registries.setdefault(target.value.id, [])
                if all(r.func is not val.func for r in registry) and len(registry) < 4:
                    registry.append(val)
            if index.flags & v.OWNPID and isinstance(target.value, ast.Name):
                self._own_pid_containers.add(target.value.id)  # `children[proc.pid] = idx`
            stored = val.flags & (v.SECRET | v.ENV | v.NET | v.DECODED | v.CREDENTIAL)
            if stored and isinstance(target.value, ast.Name) and base.func is None and base.qual != "os.environ":
                # payload["key"] = secret: the container now carries the secret
                self._rebind(target.value.id, _with_flags(base, stored))
            elif (
                isinstance(target.value, ast.Name)
                and base.keys is not None
                and base.func is None
                and base.qual is None
                and len(base.keys) < 64
                and not v.constant(val)
            ):
                # `bundle[name] = fh.read()`: the dict holds what was read at run time now
                key = index.text if index.text is not None and HOLE not in index.text else "…"
                self._rebind(target.value.id, Val(text=base.text, flags=base.flags, num=base.num, items=base.items,
                                                  alts=base.alts, elem=base.elem, keys={**base.keys, key: val}))
            if index.text in _ENVIRONMENT_EFFECTS:
                self._preload_keys({index.text: val}, target)  # os.environ[...] or a child's environment copy
            elif base.qual == "<globals>" and index.text is not None and HOLE not in index.text:
                self._bind_name(index.text, val)  # globals()["w"] = os.walk: w is os.walk from now on
            elif base.qual == "<globals>" and index.text is None:
                self._add(
                    "python.globals-write",
                    RiskLevel.MEDIUM,
                    Category.DYNAMIC_CODE,
                    "writes a global whose name is only known at run time",
                    target,
                )
            elif base.qual in ("builtins", "sys.modules") and index.text is not None:
                self._add(
                    "python.monkeypatch",
                    RiskLevel.MEDIUM,
                    Category.DYNAMIC_CODE,
                    f"replaces {base.qual}[{index.text!r}]",
                    target,
                )
            if not _IDENTITY_KEY.search(ast.unparse(target.slice)):
                # (`seen[msg.get_srcSystem()] = …`: one entry per sender, replaced each round; a counter grows)
                self._loop_growth(target)
        elif isinstance(target, ast.Starred):
            self._bind(target.value, val)

    def _escaping_container_spec(self, keys: dict[str, Val], node: ast.AST) -> None:
        """A container engine API spec (``HostConfig``) with the host's root, pid namespace or privileges."""
        binds = keys.get("Binds", UNKNOWN).items or []
        if (
            keys.get("Privileged", UNKNOWN).num == 1
            or keys.get("PidMode", UNKNOWN).text == "host"
            or any((b.text or "").startswith("/:") for b in binds)
        ):
            self._add(
                "python.container-escape",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                "describes a container with the host's privileges, processes or root file system",
                node,
            )

    def _archive_escapes(self, tree: ast.Module, code: str) -> None:
        """Archives unpacked member by member to the paths their names give, or built to escape (zip slip)."""
        for call in archives.member_name_writes(tree, code):
            self._add("python.zip-slip", RiskLevel.HIGH, Category.FILESYSTEM,
                      "writes each archive member to the path its stored name gives, unchecked (a `../` name "
                      "escapes the folder: zip slip)", call)  # fmt: skip
        if "linkname" in code or "../" in code:
            for node, what in archives.crafted_members(tree):
                self._add("python.crafted-archive", RiskLevel.HIGH, Category.FILESYSTEM, f"builds {what}", node)

    def _guards_turned_off(self, tree: ast.Module) -> None:
        """Library settings that switch off a protection: Pillow's pixel limit, lxml's entity and DTD loading."""
        source = "\n".join(self.lines)
        if "MAX_IMAGE_PIXELS" not in source and "resolve_entities" not in source:
            return  # a cheap test before walking the whole tree
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Attribute) and t.attr == "MAX_IMAGE_PIXELS" for t in node.targets)
                and isinstance(node.value, ast.Constant)
                and node.value.value is None
            ):
                # (the images opened are all the project's own files, named in the code: a known large print)
                opened = [c.args[0] for c in ast.walk(tree) if isinstance(c, ast.Call) and c.args
                          and _call_name(c) == "open" and isinstance(c.func, ast.Attribute)
                          and isinstance(c.func.value, ast.Name) and c.func.value.id == "Image"]  # fmt: skip
                own = bool(opened) and all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) and not a.value.startswith(("/", "~"))
                    and "://" not in a.value for a in opened
                )  # fmt: skip
                self._add("python.decompression-bomb", RiskLevel.MEDIUM if own else RiskLevel.HIGH,
                          Category.RESOURCE,
                          "turns off Pillow's decompression-bomb limit (a small image can take all memory)"
                          + (" for the project's own images" if own else ""), node)  # fmt: skip
            elif isinstance(node, ast.Call) and _call_name(node) in ("XMLParser", "XMLPullParser", "iterparse"):
                options = {k.arg: k.value.value for k in node.keywords if k.arg and isinstance(k.value, ast.Constant)}
                on = [k for k in ("resolve_entities", "load_dtd") if options.get(k) is True]
                network = options.get("no_network") is False
                if "resolve_entities" in on and ("load_dtd" in on or network):
                    self._add("python.xxe", RiskLevel.HIGH, Category.EXFILTRATION,
                              "parses XML with external entities on (a document can read local files or URLs)",
                              node)  # fmt: skip

    def _uploaded_tree(self, method: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """``upload_folder(folder_path=~)``: the whole home or machine (keys, tokens, documents) sent away."""
        for val in [*args, *kwargs.values()]:
            for text in val.strings():
                info = paths.classify(text)
                if info.kind in (paths.PathKind.HOME_TOP, paths.PathKind.ROOT):
                    self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                              f"{method} uploads {paths.describe(info)}", node)  # fmt: skip
                    return
                if info.kind is paths.PathKind.EXTERNAL and creates_public_hub_repo(self._code):
                    # a data folder of the machine's (not the project's output) published to everyone
                    self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                              f"{method} uploads {paths.describe(info)} to a public repository it created",
                              node)  # fmt: skip
                    return

    def _cluster_size(self, kwargs: dict[str, Val], node: ast.Call) -> None:
        """Clusters created with hundreds of workers each, in a loop: thousands of machines billed at once."""
        workers = max((kwargs[k].num or 0 for k in _WORKER_COUNTS if k in kwargs), default=0)
        current = self.functions[-1] if self.functions else None
        machines = workers * math.prod(loop.count or 1 for loop in self.loops if loop.function is current)
        if workers >= 2 and machines >= 10 * MASS_COUNT:
            self._add("python.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                      f"starts clusters of {workers} workers in a loop ({machines:,} machines)", node)  # fmt: skip

    def _superuser(self, node: ast.AST) -> None:
        """An application account made superuser: a back door when the database is production's, or when the
        account belongs to a personal mailbox (an outsider)."""
        source = "\n".join(self.lines)
        production, outsider = production_target(source), personal_mailbox(source)
        migration = _MIGRATION.search(source) is not None  # run by every deployment, production's included
        self._add("python.app-admin", RiskLevel.HIGH if production or outsider or migration else RiskLevel.MEDIUM,
                  Category.PERSISTENCE,
                  "makes an application account a superuser" + (" in production" if production else "")
                  + (" for a personal mailbox address" if outsider else "")
                  + (" from a schema migration (every deployment runs it)" if migration else ""), node)  # fmt: skip

    def _server_method(self, method: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """Methods that open this machine to others whatever object they are called on (an SSH transport,
        an FTP authorizer)."""
        if method == "create_superuser":
            self._superuser(node)
        elif method == "update" and kwargs and (
            any(_PRIVILEGE_FIELD.fullmatch(k) and (val.num == 1 or _ADMIN_ROLE.search(val.text or ""))
                for k, val in kwargs.items())
            or any(k in ("password", "encrypted_password", "password_hash") for k in kwargs)
        ) and _BULK_QUERYSET.search(ast.unparse(node.func)):
            # `User.objects.filter(...).update(is_superuser=True)`, every password set to one value
            self._add("python.app-admin", RiskLevel.HIGH, Category.PRIVILEGE,
                      "changes the administrator rights or the passwords of every account a query selects",
                      node)  # fmt: skip
        elif method == "request_port_forward":
            self._add("python.tunnel", RiskLevel.HIGH, Category.NETWORK,
                      "asks the SSH server to forward one of its ports back here (a reverse tunnel)", node)  # fmt: skip
        elif method in ("add_anonymous", "add_user"):
            home = args[0] if method == "add_anonymous" and args else args[2] if len(args) > 2 else kwargs.get(
                "homedir", UNKNOWN)  # fmt: skip
            perm = (kwargs.get("perm") or (args[1] if method == "add_anonymous" and len(args) > 1 else UNKNOWN)).text
            writes = perm is not None and any(c in perm for c in "adfmwMT")
            for text in home.strings():
                info = paths.classify(text)
                exposed = info.kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP)
                if exposed or info.secret or (writes and method == "add_anonymous" and info.kind is not
                                              paths.PathKind.RELATIVE):  # fmt: skip
                    who = "anyone" if method == "add_anonymous" else "an FTP account"
                    self._add("python.file-server", RiskLevel.HIGH, Category.EXFILTRATION,
                              f"gives {who} {'write' if writes else 'read'} access to {paths.describe(info)}",
                              node)  # fmt: skip
                    return

    def _preload_keys(self, keys: Mapping[str, Val], node: ast.AST) -> None:
        """An environment (ours, or one made for a child) that preloads a library into every program started,
        or has every shell or interpreter started read a downloaded file first (``BASH_ENV``)."""
        for key, val in keys.items():
            if key == "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD" and (val.text or "").lower() not in ("", "0", "false"):
                self._add("python.deserialization", RiskLevel.HIGH, Category.DESERIALIZATION,
                          "turns off torch.load's safe loader for every load (a checkpoint can run code)",
                          node)  # fmt: skip
            if key in _STARTUP_FILE_VARIABLES and (
                val.flags & v.NET or any(self._fetched(t) for t in val.strings())
            ):
                self._add("python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          f"sets {key} to a downloaded file: every shell or interpreter started runs it first",
                          node)  # fmt: skip
            if key in ("LD_PRELOAD", "DYLD_INSERT_LIBRARIES"):
                # libfaketime, jemalloc, a sanitizer: installed test tooling
                # (or a shim this project built: `build/libmalloc_count.so`)
                own = (paths.PathKind.RELATIVE, paths.PathKind.WORKDIR)
                tooling = bool(val.strings()) and all(
                    paths.tooling_preload(t) or paths.classify(t).kind in own for t in val.strings()
                )
                self._add(
                    "python.preload",
                    RiskLevel.LOW if tooling else RiskLevel.HIGH,
                    Category.PRIVILEGE,
                    f"sets {key}: injects a library into every child process"
                    + (" (an installed testing or profiling library, or the project's own)" if tooling else ""),
                    node,
                )
                return

    def _attr_key(self, node: ast.Attribute) -> str | None:
        if isinstance(node.value, ast.Name):
            return f"{node.value.id}.{node.attr}"
        return None

    # ----------------------------------------------------------------- statements
    def _block(self, body: Sequence[ast.stmt]) -> None:
        narrowed = (0, 0)
        try:
            for stmt in body:
                self._stmt(stmt)
                if isinstance(stmt, ast.If) and not stmt.orelse and isinstance(stmt.body[-1], ast.Continue):
                    # `if not name.startswith(prefix): continue`: the rest of the loop body sees only the selected
                    named, selects = self._narrowing(stmt.test, negated=True)
                    narrowed = (narrowed[0] + named, narrowed[1] + selects)
                    self._name_filters += named
                    self._file_filters += selects
        finally:
            self._name_filters -= narrowed[0]
            self._file_filters -= narrowed[1]

    def _stmt(self, node: ast.stmt) -> None:
        handler = _STMT.get(type(node))
        if handler is not None:
            handler(self, node)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self._stmt(child)
            elif isinstance(child, ast.expr):
                self._ev(child)
            elif isinstance(child, (ast.ExceptHandler, ast.match_case)):
                self._block(child.body)

    @staticmethod
    def _narrowing(test: ast.expr, *, negated: bool = False) -> tuple[bool, bool]:
        """Whether ``test`` picks processes or files by a name (``proc.name() == "worker"``), and whether it
        selects some entries of a listing (``name.startswith("project-")``, an age). ``negated``: the test
        skips what does not match (a guard clause), so only a comparison for inequality names something."""
        constants = [
            c.value
            for n in ast.walk(test)
            if isinstance(n, ast.Compare) and (not negated or isinstance(n.ops[0], (ast.NotEq, ast.NotIn)))
            for c in [n.left, *n.comparators]
            if isinstance(c, ast.Constant) and isinstance(c.value, str)
        ]
        # ... unless the name is one every other program has ("python", "node", "java")
        named = any(c.lower() not in GENERIC_PROCESS_NAMES and c != "root" for c in constants)
        # (a guard that skips the entries a name pattern matches, `if job.endswith("Folder"): continue`, leaves
        # all the others: it excludes a few, it does not select)
        under_not = {id(n) for u in ast.walk(test) if isinstance(u, ast.UnaryOp) and isinstance(u.op, ast.Not)
                     for n in ast.walk(u.operand)} if negated else set()  # fmt: skip
        selects = any(
            ((isinstance(n, ast.Attribute) and n.attr in _SELECTING_ATTRS)
             or (isinstance(n, ast.Name) and n.id in _SELECTING_ATTRS))
            and not (negated and (n.attr if isinstance(n, ast.Attribute) else n.id) in _NAME_PATTERN_TESTS
                     and id(n) not in under_not)
            for n in ast.walk(test)
        )  # fmt: skip
        return named, selects

    def _binary_writes(self) -> set[str]:
        """Paths the module opens for binary writing anywhere (``open(CACHE, "wb")``): a pickle read from one of
        them is the program's own cache, whatever folder it lives in (unless it lets everyone write it)."""
        written: set[str] = set()
        if "chmod" in self._code and _WORLD_WRITABLE_MODE.search(self._code):
            return written
        for call in ast.walk(self._tree):
            if not (isinstance(call, ast.Call) and _call_name(call) == "open" and len(call.args) >= 2):
                continue
            mode = call.args[1]
            if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and "b" in mode.value and (
                "w" in mode.value or "a" in mode.value
            ):
                target = call.args[0]
                if isinstance(target, ast.Constant) and isinstance(target.value, str):
                    written.add(target.value)
                elif isinstance(target, ast.Name) and self._lookup(target.id).text:
                    written.add(self._lookup(target.id).text or "")
        return written

    def _keeps_nothing_back(self, test: ast.expr) -> bool:
        """``test`` compares an age with a limit of zero (``age >= RETENTION_DAYS`` where the retention is 0), or
        picks files by the kinds an archive holds (``name.endswith((".dcm", ".jpg"))``): every file, or every one
        that matters, passes it, so it selects nothing out."""
        alone = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) else [test]
        if _either_way(alone):
            return True  # `age < MAX_AGE or age >= MAX_AGE`: a test and its opposite, true of every file
        for one in alone:  # (an age test beside it still selects)
            if isinstance(one, ast.Call) and isinstance(one.func, ast.Attribute) and one.func.attr == "endswith" and (
                one.args
            ):
                suffixes = [c.value.lower() for c in ast.walk(one.args[0])
                            if isinstance(c, ast.Constant) and isinstance(c.value, str)]  # fmt: skip
                if suffixes and all(x in paths.WORK_FILE_SUFFIXES for x in suffixes):
                    return True
        for n in ast.walk(test):
            if not (isinstance(n, ast.Compare) and len(n.ops) == 1 and isinstance(n.ops[0], ast.GtE)):
                continue
            if isinstance(n.comparators[0], (ast.Name, ast.Constant)):
                limit = self._ev(n.comparators[0])
                if limit.num == 0 or limit.text == "0":  # (`int(os.environ.get("DAYS", "0"))`)
                    return True
        return False

    def _s_if(self, node: ast.If) -> None:
        self._ev(node.test)
        # `if proc.name() == "worker":` narrows whatever the body does to the processes (or files) named;
        # `if name.startswith("project-") and age > MAX_AGE:` selects some files of a listing, not all
        named, selects = self._narrowing(node.test)
        # (`TARGETS = {"postgres", "redis-server"}` … `if p.info["name"] in TARGETS:`: the names the set holds,
        # judged only beside a name the test itself spells; alone, a set of names kills each of them whoever runs it)
        held = [item.text for c in ast.walk(node.test) if isinstance(c, ast.Compare) and isinstance(c.ops[0], ast.In)
                for n in c.comparators if isinstance(n, ast.Name) for item in self._ev(n).items or ()
                if item.text is not None] if named else []  # fmt: skip
        selects = selects and not self._keeps_nothing_back(node.test)
        self._name_filters += named
        self._file_filters += selects
        tested = [c.value for c in ast.walk(node.test) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        tested += held
        # `if name in ("postgres", "mysqld"):` selects every process of a server; `… and "myapp" in cmd` does not
        alone = not any(isinstance(c, ast.BoolOp) and isinstance(c.op, ast.And) for c in ast.walk(node.test))
        self._name_tests.append((tested, alone) if named else ([], False))
        # `sql = "DELETE FROM t"; if email: sql += " WHERE …"`: without the branch the first value stays
        kept = {} if node.orelse else self._branch_strings(node.body)
        try:
            self._block(node.body)
        finally:
            self._name_filters -= named
            self._file_filters -= selects
            self._name_tests.pop()
        self._block(node.orelse)
        for name, before in kept.items():
            after = self._lookup(name)
            options = tuple(dict.fromkeys([*after.strings(), *before.strings()]))[: v.MAX_ALTS]
            if after.strings() and len(options) > 1:
                # (a Path stays a Path: `key = Path(a)`, `if …: key = Path(b)`, then `key.read_text()`)
                qual = after.qual if after.qual == before.qual else None
                self._bind_name(name, Val(text=after.text, alts=options, flags=after.flags | before.flags, qual=qual))

    def _zero_amount(self, expr: ast.expr) -> bool:
        """``expr`` is a product with a factor that is zero or negative (``max_age_days * 86400`` where the days
        default to 0, or to -3650), or a ``timedelta`` of such an amount (``timedelta(days=KEEP_DAYS)``)."""
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
            return self._zero_amount(expr.left) or self._zero_amount(expr.right)
        if isinstance(expr, ast.Call) and _call_name(expr) == "timedelta":
            amounts = [*expr.args, *(k.value for k in expr.keywords)]
            return bool(amounts) and all(self._zero_amount(a) for a in amounts)
        if not isinstance(expr, (ast.Name, ast.Constant, ast.UnaryOp)):
            return False
        amount = self._ev(expr)
        if amount.num is not None:
            return amount.num <= 0
        # (`int(os.environ.get("KEEP_DAYS", "0"))`, `"-3650"`)
        return amount.text is not None and re.fullmatch(r"\s*(?:0+|-\d+)\s*", amount.text) is not None

    def _branch_strings(self, body: list[ast.stmt]) -> dict[str, Val]:
        """The string values, before a branch runs, of the names its own statements assign."""
        names = [
            target.id
            for stmt in body
            for target in (stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)])
            if isinstance(stmt, (ast.Assign, ast.AugAssign)) and isinstance(target, ast.Name)
        ]
        values = {name: self._lookup(name) for name in names}
        return {name: val for name, val in values.items() if val.strings()}

    def _s_expr(self, node: ast.Expr) -> None:
        self._ev(node.value)

    def _s_assign(self, node: ast.Assign) -> None:
        val = self._ev(node.value)
        if isinstance(node.value, ast.BinOp) and isinstance(node.value.op, (ast.Sub, ast.Add)) and _NOW.search(
            ast.unparse(node.value.left)
        ):
            if isinstance(node.value.op, ast.Sub):
                # `cutoff = time.time() - max_age_days * 86400` with a default of 0 days: every file is older than it
                if self._zero_amount(node.value.right):
                    self._cut_off_now = True
                    # (`DELETE … WHERE date < ?` with that cut-off: every row is older than now)
                    self._future_cut_offs.update(t.id for t in node.targets if isinstance(t, ast.Name))
            else:
                # `cutoff = datetime.now() + KEEP`: a cut-off in the future, every row is older than it
                self._future_cut_offs.update(t.id for t in node.targets if isinstance(t, ast.Name))
        for target in node.targets:
            self._bind(target, val)
            self._event_handler(target, val, node)
            if self._mentions_tls:
                self._tls_off(target, node)
            if isinstance(target, ast.Attribute) and _dotted(target) in _PASSWORD_PROMPTS:
                # `getpass.getpass = _wrapper`: every password typed into this interpreter goes through it
                self._add("python.credential-capture", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"replaces {_dotted(target)} (every password typed is captured)", node)  # fmt: skip
            if (
                isinstance(target, ast.Subscript)
                and isinstance(target.slice, ast.Constant)
                and isinstance(target.slice.value, str)
                and (val.text is not None or val.num is not None)
                and protection_off(target.slice.value, val.text if val.text is not None else str(val.num))
                and ".write(" in self._code
            ):
                # `cfg["auth"]["login_disabled"] = "true"` … `cfg.write(fh)`: a settings file saved with its login off
                self._add("python.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE,
                          f"sets {target.slice.value} in a settings file it writes (a login or protection off)",
                          node)  # fmt: skip

    def _s_annassign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, self._ev(node.value))

    def _s_augassign(self, node: ast.AugAssign) -> None:
        right = self._ev(node.value)
        target = node.target
        if isinstance(target, ast.Name):
            left = self._lookup(target.id)
            self._bind_name(target.id, self._binop(node.op, left, right))
            if (
                self._unbounded_loop()
                and (right.text is not None or right.items is not None or left.text is not None)
                and isinstance(node.op, (ast.Add, ast.Mult))
            ):
                self._add(
                    "python.unbounded-growth",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    "grows a string or list in an endless loop (memory exhaustion)",
                    node,
                )
        else:
            self._bind(target, right)

    def _s_import(self, node: ast.Import | ast.ImportFrom) -> None:
        self._import(node)
        if self._downloaded_on_path and not (isinstance(node, ast.ImportFrom) and node.level):
            # `sys.path.insert(0, downloaded_zip)` then `import ext`: the module may be the download's
            self._add("python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      "imports code downloaded at run time (the download was put on sys.path)", node)  # fmt: skip

    def _import(self, node: ast.Import | ast.ImportFrom) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self._bind_name(alias.asname, Val(qual=self._norm(alias.name)))
                else:
                    top = alias.name.split(".")[0]
                    self._bind_name(top, Val(qual=top))
            return
        module = node.module or ""
        if node.level:
            module = "." + module  # relative import: the project's own code
        for alias in node.names:
            if alias.name == "*":
                if module and not module.startswith("."):
                    self.star_modules.append(module)
                continue
            qual = self._norm(f"{module}.{alias.name}")
            # flask's `request` (and its kin) is what the client sent
            self._bind_name(alias.asname or alias.name, Val(qual=qual, flags=v.NET if qual in T.WEB_REQUESTS else 0))

    def _s_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for deco in node.decorator_list:
            self._ev(deco)
        args = node.args
        params = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
        if args.vararg:
            params.append(args.vararg.arg)
        if args.kwarg:
            params.append(args.kwarg.arg)
        summary = _FuncSummary(node.name, params)
        summary.node = node
        func_val = Val(func=summary)
        self._bind_name(node.name, func_val)
        if self.scopes[-1].kind == "class":
            self.methods[node.name] = func_val
        self._analyse_function(node, summary, params)
        self._apply_decorators(node, func_val)

    def _bound_names(self, body: list[ast.stmt], params: Sequence[str]) -> tuple[set[str], set[str]]:
        """:func:`_collect_bound`, computed once per function body (it is re-analysed at each inlined call)."""
        key = (id(body), tuple(params))
        if key not in self._bound_cache:
            self._bound_cache[key] = _collect_bound(body, params, walrus=self._walrus)
        bound, declared = self._bound_cache[key]
        return set(bound), set(declared)

    def _apply_decorators(self, node: ast.FunctionDef | ast.AsyncFunctionDef, func_val: Val) -> None:
        """``@register`` / ``@sanitizer(".pdf")`` defined here: run the decorator on the function, so a
        registry it fills (``HANDLERS[name] = fn``) holds the function."""
        for deco in reversed(node.decorator_list):
            decorator = self._ev(deco)
            if isinstance(decorator.func, _FuncSummary) and decorator.func is not func_val.func:
                self._call_local(decorator.func, [func_val], {}, deco)

    def _analyse_function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, summary: _FuncSummary, params: list[str]
    ) -> None:
        args = node.args
        bound, declared = self._bound_names(node.body, params)
        scope = _Scope("function", bound)
        scope.globals_ = declared
        offset = 1 if self.scopes[-1].kind == "class" and params and params[0] in ("self", "cls") else 0
        summary.offset = offset
        defaults = {**self._option_defaults(node), **self._defaults(args)}
        # a web view, middleware or task queue handler: its arguments are what a client sent
        decorators = [_dotted(d) for d in getattr(node, "decorator_list", ())]
        # ... or a message handler by its name (`handle_downlink(msg)`, `on_message(client, userdata, msg)`)
        handler = any(_HANDLER_DECORATOR.search(d) for d in decorators) or _HANDLER_NAME.match(node.name) is not None
        # ... or a serverless function's entry point (`def handler(event, context)`): the event is the request
        handler = handler or params[:2] in (["event", "context"], ["event", "ctx"])
        summary.handler = summary.handler or handler
        invoke_task = any(d in ("task", "invoke.task", "fabric.task") for d in decorators)
        annotations = {a.arg: _dotted(a.annotation) for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
        for i, name in enumerate(params):
            index = i - offset
            flags = v.PARAM0 << index if 0 <= index < v.MAX_PARAMS else 0
            if index >= 0 and (
                handler or name in ("request", "req") or _REQUEST_ANNOTATION.search(annotations.get(name, ""))
            ):
                flags |= v.NET
            # `@task def clean(c): c.run("...")`: an invoke/fabric context runs shell command lines
            scope_qual = "invoke.Context()" if index == 0 and invoke_task else None
            default = defaults.get(name)
            # A parameter with a default is analysed with that default (the value when omitted).
            scope.vals[name] = (
                Val(
                    flags=flags | (default.flags & v.FLOWING),
                    text=default.text,
                    alts=default.alts,
                    num=default.num,
                    items=default.items,
                    keys=default.keys,  # `parts=_PARTS`: a settings dict, key by key
                    qual=default.qual,  # `root=Path.home()`: still a path object
                )
                if default is not None
                else Val(flags=flags, qual=scope_qual)
            )
        self.scopes.append(scope)
        self.functions.append(summary)
        saved_loops = self.loops
        self.loops = []
        try:
            self._block(node.body)
        finally:
            self.loops = saved_loops
            self.functions.pop()
            self.scopes.pop()
        if summary.self_calls and _recurses_without_base_case(node):
            grows = _recursion_fans_out(node) or any(
                isinstance(n, ast.Call)
                and (
                    (isinstance(n.func, ast.Attribute) and n.func.attr in T.GROWTH_METHODS)
                    or (isinstance(n.func, ast.Name) and n.func.id in ("bytearray", "bytes"))
                    # (a tree copied at every level, into the copy itself: the disk fills a thousand copies deep)
                    or (isinstance(n.func, ast.Attribute) and n.func.attr in ("copytree", "write_bytes", "write_text"))
                )
                for n in ast.walk(node)
            )
            self._endless_recursion.append((node, grows))
        if summary.forks and summary.self_calls:
            self._add(
                "python.fork-bomb",
                RiskLevel.CRITICAL,
                Category.RESOURCE,
                f"{node.name}() forks and calls itself (fork bomb)",
                node,
            )
        if node.name in ("__reduce__", "__reduce_ex__"):
            self._reduce(node)

    def _option_defaults(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, Val]:
        """``@click.option("--root", default="/")``: the value ``root`` has when the option is not given."""
        found: dict[str, Val] = {}
        for deco in node.decorator_list:
            if not (isinstance(deco, ast.Call) and _call_name(deco) in ("option", "argument", "Option", "Argument")):
                continue
            default = next((k.value for k in deco.keywords if k.arg == "default"), None)
            names = [a.value for a in deco.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if default is None or not names:
                continue
            plain = [n for n in names if not n.startswith("-")]
            name = plain[0] if plain else max(names, key=len).lstrip("-").split("/")[0]
            found[name.replace("-", "_")] = self._ev(default)
        return found

    def _defaults(self, args: ast.arguments) -> dict[str, Val]:
        return {arg.arg: self._ev(default) for arg, default in _parameter_defaults(args) if default is not None}

    def _reduce(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        # A pickle gadget: unpickling calls what __reduce__ returns.
        for ret in ast.walk(node):
            if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple) and ret.value.elts:
                target = self._ev(ret.value.elts[0])
                if target.qual in T.DANGEROUS_TARGETS or (target.qual or "").startswith(
                    ("os.", "subprocess.", "builtins.e")
                ):
                    self._add(
                        "python.pickle-gadget",
                        RiskLevel.HIGH,
                        Category.DESERIALIZATION,
                        f"__reduce__ makes unpickling call {target.qual}",
                        ret,
                    )
                    if len(ret.value.elts) > 1 and isinstance(ret.value.elts[1], ast.Tuple):
                        fake = ast.Call(func=ret.value.elts[0], args=list(ret.value.elts[1].elts), keywords=[])
                        ast.copy_location(fake, ret)
                        self._ev(fake)

    def _s_class(self, node: ast.ClassDef) -> None:
        for base in node.bases:
            self._ev(base)
        for deco in node.decorator_list:
            self._ev(deco)
        bases = [self._ev(b).qual or "" for b in node.bases]
        info = _ClassInfo(node.name, bases)
        bound, _ = _collect_bound(node.body, walrus=self._walrus)
        scope = _Scope("class", bound)
        self.scopes.append(scope)
        self._class_bases.append(bases)
        try:
            self._block(node.body)
        finally:
            self.scopes.pop()
            self._class_bases.pop()
        for name, val in scope.vals.items():
            if isinstance(val.func, _FuncSummary):
                info.methods[name] = val.func
        self._bind_name(node.name, Val(func=info))

    def _s_return(self, node: ast.Return) -> None:
        val = self._ev(node.value) if node.value is not None else UNKNOWN
        if self.functions and self.functions[-1].handler and val.flags & (v.ENV | v.SECRET):
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      "an endpoint returns the process environment or secret data to whoever calls it",
                      node)  # fmt: skip
        if self.functions:
            summary = self.functions[-1]
            prev = summary.ret
            if prev is None:
                summary.ret = val
            else:
                same = prev.text == val.text and prev.qual == val.qual
                summary.ret = Val(
                    text=prev.text if same else None,
                    qual=prev.qual if same else None,
                    flags=(prev.flags | val.flags) & v.FLOWING,
                )

    def _s_for(self, node: ast.For | ast.AsyncFor) -> None:
        it = self._ev(node.iter)
        if it.num is None and "ip_network" in self._code:
            it = copy.copy(it)  # (the iterable's own value is shared; only this loop's count is added)
            it.num = self._network_size(node.iter)
        infinite = it.qual in ("itertools.count()", "itertools.cycle()", "<iter-sentinel>")
        huge = it.num is not None and it.num >= T.HUGE_LOOP
        items = it.items or []
        if 0 < len(items) <= UNROLL_ITEMS and any(i.items is not None or i.keys is not None for i in items):
            # `for step in STEPS: subprocess.run(step)` over a constant list of argv lists (or
            # dicts): each element is analysed as itself, not as an unknown mix of all of them
            for item in items:
                self._bind(node.target, item)
                self._loop(node, infinite, huge)
            return
        element = self._element(it)
        if self._own_pid_containers and any(
            isinstance(n, ast.Name) and n.id in self._own_pid_containers for n in ast.walk(node.iter)
        ):
            element = Val(flags=element.flags | v.OWNPID)  # `for pid in list(children)`: the children it started
        self._bind(node.target, element)
        self._astronomical(it.num, node)
        parts = [element, *(element.items or [])]  # `for root, dirs, files in os.walk(...)`: the root is listed
        listing = any(HOLE in t for p in parts for t in p.strings())
        listing = listing or bool(_LISTING_ITER.search(ast.unparse(node.iter)))
        subset = it.qual == _SUBSET
        self._subset_loops += subset
        try:
            self._loop(node, infinite, huge, it.num, listing=listing)
        finally:
            self._subset_loops -= subset

    def _network_size(self, iterable: ast.expr) -> int | None:
        """How many addresses or subnets ``net.hosts()`` / ``net.subnets(new_prefix=N)`` yields, for the network
        the code names (``ip_network("10.0.0.0/8")``)."""
        if not (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Attribute)):
            return None
        network = _NETWORK_LITERAL.search(self._code)
        if network is None or iterable.func.attr not in ("hosts", "subnets"):
            return None
        bits = (128 if ":" in network[1] else 32) - int(network[2])
        if iterable.func.attr == "hosts":
            return max(int(2**bits) - 2, 1)
        new = next((kw.value for kw in iterable.keywords if kw.arg == "new_prefix"), None)
        if isinstance(new, ast.Constant) and isinstance(new.value, int):
            return int(2 ** max(new.value - int(network[2]), 0))
        return 2

    def _astronomical(self, count: int | None, node: ast.AST) -> None:
        """A loop of 10^10 iterations or more (a brute force) runs for days on every core it gets."""
        if count is not None and count >= 10**10:
            self._add("python.cpu-burn", RiskLevel.HIGH, Category.RESOURCE,
                      f"iterates {count:.1e} times (a brute force: days of CPU)", node)  # fmt: skip

    def _s_try(self, node: ast.Try) -> None:
        """A ``try`` whose handler catches a timeout ends the loops inside it when the data stops coming
        (``sock.settimeout(5)`` then ``while True: sock.recvfrom(…)``)."""
        catches = "settimeout" in self._code and any(
            h.type is not None and "imeout" in ast.unparse(h.type) for h in node.handlers
        )
        self._timeout_catchers += catches
        try:
            self._block(node.body)
        finally:
            self._timeout_catchers -= catches
        for handler in node.handlers:
            self._block(handler.body)
        self._block(node.orelse)
        self._block(node.finalbody)

    def _s_while(self, node: ast.While) -> None:
        test = self._ev(node.test)
        tested = {n.id for n in ast.walk(node.test) if isinstance(n, ast.Name)}
        # `done = False; while not done: _, done = dl.next_chunk()`: the body decides when the test turns false
        decided_inside = bool(tested & _assigned_names(node.body))
        infinite = (
            (isinstance(node.test, ast.Constant) and bool(node.test.value))
            or (test.num is not None and test.num != 0 and not decided_inside)
            or (
                isinstance(node.test, ast.UnaryOp)
                and isinstance(node.test.op, ast.Not)
                and isinstance(node.test.operand, ast.Constant)
                and not node.test.operand.value
            )
            # `while disk_usage(d).free > 0:` runs until the disk (or memory) is full
            or bool(_UNTIL_FULL.search(ast.unparse(node.test)))
            # `end = time.time() + 3600` … `while time.time() < end:`: an hour of rounds, as good as endless
            or self._long_deadline(node.test)
            # `while os.environ.get("CI"):` with nothing in the body changing the environment: set, it never ends
            or (
                _ENV_LOOKUP.match(ast.unparse(node.test)) is not None
                and not decided_inside
                and "environ" not in "".join(ast.unparse(s) for s in node.body)
            )
        ) and not self._timeout_catchers
        # `while n < 50_000_000:` with `n += 1` in the body: a counted loop of that many rounds
        bound = node.test.comparators[0] if isinstance(node.test, ast.Compare) and len(node.test.ops) == 1 else None
        huge = (
            isinstance(node.test, ast.Compare)
            and isinstance(node.test.ops[0], (ast.Lt, ast.LtE))
            and isinstance(node.test.left, ast.Name)
            and node.test.left.id in _assigned_names(node.body)
            and (self._ev(bound).num or 0) >= T.HUGE_LOOP
        )
        if _writes(node.test.value if isinstance(node.test, ast.NamedExpr) else node.test):
            # `while (n := f.write(chunk)):` writes as long as there is room
            self._add("python.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      "writes in a loop until writing fails (fills the disk)", node)  # fmt: skip
        self._loop(node, infinite, huge)

    def _long_deadline(self, test: ast.expr) -> bool:
        """``test`` compares the clock with a deadline ten minutes or more away, set in this code."""
        if not (isinstance(test, ast.Compare) and "time" in ast.unparse(test.left)):
            return False
        if not (len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Name)):
            return False
        name = test.comparators[0].id
        found = re.search(rf"\b{re.escape(name)}\s*=\s*time\.(?:time|monotonic)\(\)\s*\+\s*(\d+)", self._code)
        return found is not None and int(found[1]) >= 600

    def _loop(
        self,
        node: ast.For | ast.AsyncFor | ast.While,
        infinite: bool,
        huge: bool,
        count: int | None = None,
        *,
        listing: bool = False,
    ) -> None:
        inside = self._walked.get(id(node))
        if inside is None:
            inside = self._walked[id(node)] = _descendants(node.body)
        unbounded = infinite and not self._has_exit(node.body)
        # `while True: try: write() except OSError: break` stops only when the disk or memory is full
        until_exhausted = infinite and not self._has_exit(node.body, skip_exhaustion_handlers=True)
        if unbounded and not any(isinstance(n, ast.Call) and _call_name(n) in T.IO_CALL_NAMES for n in inside):
            self._add(
                "python.busy-loop",
                RiskLevel.HIGH,
                Category.RESOURCE,
                "an endless loop that never waits or stops (CPU exhaustion)",
                node,
            )
        runaway = infinite and not self._stops_or_sleeps(node.body)
        for counter in {n.target.id for n in inside if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)}:
            # `i += 1` in the body: i differs from one iteration to the next (a file name per frame)
            current = self._lookup(counter)
            if current.num is not None:
                self._rebind(counter, Val(flags=current.flags & v.FLOWING))
        endless = infinite and not any(isinstance(n, (ast.Break, ast.Return, ast.Raise)) for n in inside)
        function = self.functions[-1] if self.functions else None
        loop = _Loop(until_exhausted, huge, function, runaway, count, endless)
        loop.until_error = infinite and not any(isinstance(n, (ast.Break, ast.Return)) for n in inside)
        loop.listing = listing
        loop.node = node
        if endless:
            sleeps = [n for n in inside if isinstance(n, ast.Call) and _call_name(n) == "sleep"]
            loop.fast = bool(sleeps) and all(
                s.args and isinstance(s.args[0], ast.Constant) and isinstance(s.args[0].value, (int, float))
                and s.args[0].value < 1 for s in sleeps
            )  # fmt: skip
        self.loops.append(loop)
        try:
            self._block(node.body)
        finally:
            self.loops.pop()
        self._block(node.orelse)

    def _has_exit(self, body: Sequence[ast.stmt], *, skip_exhaustion_handlers: bool = False) -> bool:
        stack: list[ast.AST] = list(body)
        while stack:
            node = stack.pop()
            if skip_exhaustion_handlers and isinstance(node, ast.ExceptHandler) and _catches_exhaustion(node):
                continue
            if isinstance(node, (ast.Break, ast.Return, ast.Raise, ast.Yield, ast.YieldFrom, ast.Await)):
                return True  # ends the loop, or hands control to a consumer that can stop it
            if isinstance(node, ast.Call) and self._ends_or_paces(node):
                return True
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.While, ast.For)):
                continue
            stack.extend(ast.iter_child_nodes(node))
        return False

    def _stops_or_sleeps(self, body: Sequence[ast.stmt]) -> bool:
        """The loop can end, or it waits on purpose (sleep), outside handlers of a full disk."""
        for stmt in body:
            for node in ast.walk(stmt):
                if isinstance(node, ast.ExceptHandler) and _catches_exhaustion(node):
                    continue
                if isinstance(node, (ast.Break, ast.Return, ast.Raise, ast.Yield, ast.YieldFrom)):
                    return True
                if isinstance(node, ast.Call) and _call_name(node) in ("sleep", "exit", "_exit", "quit", "wait"):
                    return True
        return False

    def _runaway_loop(self) -> bool:
        current = self.functions[-1] if self.functions else None
        return any(loop.runaway and loop.function is current for loop in self.loops)

    def _ends_or_paces(self, call: ast.Call) -> bool:
        """A call that ends a loop (exit) or blocks it (sleep, queue.get, accept...): not a tight loop."""
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name not in T.PACING_CALLS:
            return False
        if name == "join" and isinstance(func, ast.Attribute):
            # thread.join() waits; os.path.join() and "sep".join() only build strings
            receiver = func.value
            if isinstance(receiver, ast.Constant) or (
                isinstance(receiver, ast.Attribute) and self._ev_qual(receiver) in ("os.path", "posixpath", "ntpath")
            ):
                return False
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner = self._lookup(func.value.id).qual
            # requests.get / session.get do not wait for anything: they are the flood itself
            if owner is not None and (owner + ".").startswith(T.NETWORK_PREFIXES) and name not in ("recv", "accept"):
                return False
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
            # `urlopen(url).read()`: reading the answer of the request just sent is part of the flood
            inner = self._ev_qual(func.value.func)
            if inner is not None and (inner + ".").startswith(T.NETWORK_PREFIXES):
                return False
        return True

    def _c_native_call(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """Calling a ctypes function pointer made from an address: machine code in memory runs."""
        if v.flowing(args) & (v.NET | v.DECODED):
            self._add(
                "python.shellcode",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                "runs machine code that was downloaded or decoded (shellcode)",
                node,
            )
        elif self._exec_memory:
            self._add(
                "python.shellcode",
                RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                "runs machine code placed in executable memory",
                node,
            )
        return Val()

    def _made_public(self, kwargs: dict[str, Val]) -> bool:
        """PyGithub's ``repo.edit(private=False)``, python-gitlab's ``visibility="public"`` (set as an
        attribute before ``save()`` too)."""
        private = kwargs.get("private")
        if private is not None and private.flags & v.BOOL and private.num == 0:
            return True
        if "public" in kwargs.get("visibility", UNKNOWN).strings():
            return True
        return _PUBLIC_ATTRIBUTE.search(self._code) is not None

    def _cloud_call(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> int:
        """Cloud SDK calls that destroy resources, grant rights, open them to the internet or read
        secrets; returns :data:`v.SECRET` when the result is secret data."""
        method = q.rsplit(".", 1)[-1]
        texts = _all_strings([*args, *kwargs.values()])
        op = operation(*q.rsplit(".", 2)[-2:])
        # the policy or key list may be built statements earlier, out of the call's reach: then what
        # the program spells anywhere decides
        risk = assess_operation(op, [*texts, *self._argument_constants(node)]) or assess_operation(
            op, self._module_strings()
        )
        if risk is not None:
            level = RiskLevel.MEDIUM if local_store(self._code) else risk.level  # moto, an emulator, a test
            if any(key in op for key in _KEY_CREATIONS) and _STORED_IN_VAULT.search(self._code):
                level = RiskLevel.MEDIUM  # a key rotated straight into a secrets store (the old one retired)
            self._add("python.cloud-control", min(level, risk.level), risk.category, f"{method} {risk.what}", node)
            if risk.secret:
                return v.SECRET
        if q.startswith(("github.", "gitlab.")) and method in ("edit", "save", "update") and self._made_public(kwargs):
            self._add("python.cloud-control", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{method} makes a private repository or project public", node)  # fmt: skip
        if method in ("invoke", "invoke_async", "start_execution") and _SELF_INVOCATION.search(
            ast.unparse(node) if "function_name" in self._code or "FUNCTION_NAME" in self._code else ""
        ):
            # from a loop each run starts several runs of itself: they multiply, and every one is billed;
            # a single continuation (the next page of work) is how long jobs are split
            fan_out = self._in_loop()
            self._add("python.cloud-abuse", RiskLevel.HIGH if fan_out else RiskLevel.MEDIUM, Category.RESOURCE,
                      f"{method} makes a serverless function invoke itself"
                      + (" several times per run (runaway recursion)" if fan_out else ""), node)  # fmt: skip
        launches = ("run_instances", "request_spot", "create_fleet", "instances.insert", "begin_create",
                    # SageMaker's jobs and notebooks each run on their own (GPU) machines
                    "create_training_job", "create_notebook_instance", "create_processing_job",
                    "create_transform_job", "create_hyper_parameter_tuning_job")
        call = ".".join(q.replace("()", "").lower().rsplit(".", 2)[-2:])  # `instances().insert` as instances.insert
        launching = any(w in call for w in launches)
        current = self.functions[-1] if self.functions else None
        if launching and any(loop.until_error and loop.function is current for loop in self.loops):
            why = f"{method} launches machines in an endless loop (until quota or money runs out)"
            self._add("python.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE, why, node)
        rounds = math.prod(loop.count or 1 for loop in self.loops if loop.function is current) * math.prod(
            self._comp_rounds
        )
        if launching and rounds >= MASS_COUNT // 2:
            why = f"{method} launches {rounds} machines, one per round of its loops"
            self._add("python.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE, why, node)
        scaling = any(w in method.lower() for w in ("scal", "capacity", "resize", "replicas"))
        if scaling and self._grows_every_round(node):
            why = f"{method} raises capacity every round of an endless loop (machines and cost without limit)"
            self._add("python.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE, why, node)
        counts = [n for n in self._argument_numbers(node) if n > 1]
        if counts and any(w in method.lower() for w in ("run_instances", "create_instances", "scale", "replicas")):
            many = max(counts) >= MASS_COUNT or (self._in_loop() and max(counts) >= 10)
            # ten or more of the largest GPU or memory machines at once: thousands an hour
            many = many or (max(counts) >= 10 and any(costly_machine(t) for t in self._argument_constants(node)))
            if many:
                self._add(
                    "python.cloud-abuse",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    f"{method} starts {max(counts)} machines or replicas" + (" in a loop" if self._in_loop() else ""),
                    node,
                )
        if "CapacityUnits" in ast.unparse(node) and counts and max(counts) >= 10_000:
            self._add("python.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                      f"{method} provisions {max(counts):,} capacity units (a bill, not a workload)", node)  # fmt: skip
        if method.startswith("create"):
            # (`create_namespaced_job("default", body)`: the namespace is where it is made, not what is made)
            made = [*args[1:]] if "namespaced" in method else [*args]
            made += [val for key, val in kwargs.items() if key != "namespace"]
            self._created_names.update(t for t in _all_strings(made) if t.strip(HOLE))
        if _CLOUD_DESTROY.match(method):
            # (`if committed < cut:` around the delete: the old ones a test picks, not every one listed)
            many = self._in_loop() and not self._filtered_loop(node)
            # whole buckets, namespaces, instances, databases... (objects, jobs, pods are routine clean-ups)
            if method == "delete":  # bucket.delete(): what the receiver is
                subject = q.rsplit(".", 1)[0].lower()
                heavy = any(w in subject for w in T.CLOUD_CONTAINERS)
                picked = node.func.value if isinstance(node.func, ast.Attribute) else None
                if isinstance(picked, ast.Call) and _call_name(picked) == "filter" and any(
                    k.arg == "Prefix" and (self._ev(k.value).text or "").replace(HOLE, "").strip("/")
                    for k in picked.keywords
                ):
                    heavy = False  # `objects.filter(Prefix=f"runs/{run_id}/").delete()`: the objects under a prefix
            else:  # delete_namespaced_job: the object is the job
                words = [w for w in method.lower().split("_")[1:] if w not in ("namespaced", "all")]
                heavy = any(w.rstrip("s") in T.CLOUD_CONTAINERS or w in T.CLOUD_CONTAINERS for w in words)
            # every release, tag or package of a project in a loop: the project's published history
            published = many and any(w in q.lower() for w in ("release", "tag", "package"))
            heavy = heavy or method.startswith("terminate") or published
            # every object of a production store (or every model of a registry), no prefix, name or age picked
            unfiltered = many and not (self._file_filters or self._name_filters)
            heavy = heavy or (unfiltered and (production_target(self._code) or "registered_model" in method))
            # every device identity or certificate of an IoT registry: the whole fleet is cut off
            heavy = heavy or (unfiltered and any(w in method.lower() for w in ("device", "thing", "certificate")))
            # every version a listing of versions gave: what versioning kept to restore from goes too
            heavy = heavy or (unfiltered and "list_object_versions" in self._code and "VersionId" in self._code)
            heavy = heavy and not local_store("\n".join(self.lines))  # DynamoDB Local in a test fixture
            # one version of a function (`Qualifier=`), a pull request's preview stack: made to be thrown away
            heavy = heavy and "Qualifier" not in kwargs and not any(_EPHEMERAL_NAME.search(t) for t in texts)
            # `ns = f"e2e-{uuid4()}"`, created then deleted: the object this code made a moment ago (a test's)
            heavy = heavy and not (args and set(args[0].strings()) & self._created_names)
            # every network policy or admission webhook a listing gives: the cluster's guards, not its workloads
            heavy = heavy or (many and any(w in method for w in _CLUSTER_GUARDS))
            # pods of every namespace deleted again and again without end: the whole cluster kept falling over
            heavy = heavy or (many and any(loop.endless for loop in self.loops) and "all_namespaces" in self._code)
            self._add(
                "python.cloud-destroy",
                RiskLevel.HIGH if heavy else RiskLevel.MEDIUM,
                Category.FILESYSTEM,
                f"{q.rsplit('.', 2)[-2] if '.' in q else q}.{method} destroys cloud resources"
                + (" in a loop (every one listed)" if many else ""),
                node,
            )
        elif any(t in ("0.0.0.0/0", "::/0") for t in texts) and "ingress" in method.lower():
            self._add(
                "python.cloud-exposure",
                RiskLevel.HIGH,
                Category.NETWORK,
                f"{method} opens access to the whole internet (0.0.0.0/0)",
                node,
            )
        elif any(t in ("public-read", "public-read-write", "authenticated-read") for t in texts) or (
            method == "put_public_access_block" and "False" not in texts and _has_false(kwargs)
        ):
            self._add(
                "python.cloud-exposure",
                RiskLevel.HIGH,
                Category.NETWORK,
                f"{method} makes cloud storage public",
                node,
            )
        return 0

    def _argument_constants(self, node: ast.Call) -> list[str]:
        """Strings written in a call's arguments and in the names they use (a policy dict dumped to JSON)."""
        found: list[str] = []
        for keyword, part in [*((None, a) for a in node.args), *((k.arg, k.value) for k in node.keywords)]:
            if keyword:
                found.append(keyword)  # `DesiredCapacity=2000`: the name says what the number is
            # in source order, so a dict's keys stay next to their values
            for sub in sorted(ast.walk(part), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))):
                if isinstance(sub, ast.Constant) and isinstance(sub.value, (str, bool, int, float)):
                    found.append(str(sub.value))
                elif isinstance(sub, ast.Name):
                    found.extend(_all_strings([self._lookup(sub.id)], keys=True))
        return found

    def _module_strings(self) -> list[str]:
        if self._module_texts is None:
            self._module_texts = [
                n.value for n in ast.walk(self._tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            ]
        return self._module_texts

    def _argument_numbers(self, node: ast.Call) -> list[int]:
        """Integers written in a call's arguments (counts, replicas)."""
        return [
            sub.value
            for part in [*node.args, *(k.value for k in node.keywords)]
            for sub in ast.walk(part)
            if isinstance(sub, ast.Constant) and isinstance(sub.value, int) and not isinstance(sub.value, bool)
        ]

    def _upload(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """``s3.upload_file(path)``, ``sftp.put(path)``: a file-upload API handed a secret file's path."""
        method = q.rsplit(".", 1)[-1]
        sends_data = method in ("files_upload", "post", "put") and any(k in kwargs for k in ("data", "files"))
        personal = personal_account(self._code) or any(personal_host(u) for u in _all_strings(args[:1]))
        if (method == "files_upload" or sends_data) and self._external_reads and personal:
            # a data share's files (archived or read) sent to someone's own cloud account
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} sends files of a data share outside the project to a personal account", node)  # fmt: skip
            return
        dumped = any(a.flags & (v.DUMP | v.SECRET) for a in args)  # (an archive of people's files, a key)
        if method.startswith("stor") and (self._external_reads or dumped) and any(
            outside_address(h) for pair in _FTP_SERVER.findall(self._code) for h in pair
        ):
            # a data share's files (recordings, records) stored on an FTP server at a bare outside address
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} sends files of a data share to an FTP server at a bare outside address", node)  # fmt: skip
            return
        if not method.startswith(("upload", "put", "send_file", "sendfile", "storbinary")):
            return
        # (`put_object(Bucket=…, Key="dev/terraform.tfstate", Body=b"…")`: the key names the object being made;
        # the data is the body)
        names = [kwargs[k] for k in ("Key", "Bucket", "key", "bucket", "Prefix") if k in kwargs]
        # (`sftp.put(local, remote)`: the second path names where it lands on the other machine)
        local = args[:1] if method == "put" and len(args) > 1 and q.endswith((".open_sftp().put", "().put")) else args
        sent = [*local, *(val for val in kwargs.values() if all(val is not n for n in names))]
        for text in _all_strings(sent):
            if payment_file(text) and method.startswith(("put", "upload", "storbinary")):
                test = test_money("\n".join(self.lines))
                self._add("python.money", RiskLevel.MEDIUM if test else RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{q} submits a payment file ({text}) (moves money)", node)  # fmt: skip
                break
            if ("/" not in text and not text.startswith(("~", "."))) or "://" in text or text.startswith("${"):
                # (a URL names no local file: `…/actions/secrets/NAME` is an API's path; `${file:/…:password}` is
                # a reference the receiving server resolves from its own files)
                continue
            info = paths.classify(text)
            # (a dump to the organisation's storage is a backup; to a server somewhere or a bare address, a leak)
            dump = text in self._bulk_files and (
                not q.startswith(T.STORAGE_PREFIXES) or names_outside_address(self._code)
            )
            if info.secret or self._bulk_personal(text):
                self._add(
                    "python.exfiltration",
                    RiskLevel.CRITICAL,
                    Category.EXFILTRATION,
                    f"{q} uploads {paths.describe(info)}",
                    node,
                )
                return
            if dump:
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{q} uploads a database dump or an archive of people's files ({text})", node)  # fmt: skip
                return
            data_folder = info.kind in (paths.PathKind.SYSTEM, paths.PathKind.EXTERNAL) and HOLE in text
            if data_folder and self._in_loop() and personal_account(self._code):
                # each file of a server's data folder, uploaded in turn to someone's own account
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{q} uploads every file of {paths.describe(info)} to a personal account", node)  # fmt: skip
                return

    def _c_typed_keys(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``pyautogui.write("rm -rf ~ …")`` after opening a terminal or the Run dialog: the text typed is a command
        line, run as the user the moment Enter is pressed."""
        typed = args[0] if args else kwargs.get("message", kwargs.get("text", UNKNOWN))
        for text in typed.strings():
            if " " in text and not text.startswith(("http://", "https://")):
                self._later_shell(text, node, f"keystrokes typed by {q}")
        return Val()

    def _c_template(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """string.Template(text), and its substitute(**values)."""
        if q == "string.Template":
            template = args[0] if args else kwargs.get("template", UNKNOWN)
            return Val(qual="string.Template()", text=template.text, flags=template.flags & v.FLOWING)
        template = func.base or UNKNOWN
        values = dict(kwargs)
        if args and args[0].keys:
            values = {**args[0].keys, **values}
        if template.text is None:
            return Val(flags=v.flowing(values.values()))
        return Val(text=F.template_substitute(template.text, values), flags=v.flowing(values.values()))

    def _c_remote_shell(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``conn.run("...")``, ``client.exec_command("...")``: a shell command line, run on that host
        (what it does there counts); what comes back is network data (invoke runs locally: it is not).
        A group of hosts (fabric's groups, parallel-ssh) or a loop over hosts runs it on each one."""
        before = len(self.findings)
        self._c_shell(q, func, args, kwargs, node)
        group = any(g in q for g in ("Group", "ParallelSSHClient", "from_connections")) or self._in_loop()
        command = args[0] if args else kwargs.get("command", UNKNOWN)
        self._fleet_command(q, command.text or "", self.findings[before:], node, group)
        local = q.startswith("invoke.") or q.endswith(".local")
        # what a known command prints on one's own host (`ls -1dt releases/*/`) is that host's listing, not a
        # stranger's data; an unknown command's output, or one that fetches, is the network's
        listing = command.text is not None and HOLE not in command.text and not _FETCHES.search(command.text)
        return Val(flags=0 if local or listing else v.NET, qual=T.INSTANCE_FACTORIES.get(q))

    def _fast_endless_loop(self) -> bool:
        """The code runs in an endless loop of this function that never pauses for a second or more."""
        current = self.functions[-1] if self.functions else None
        return any(lp.endless and (lp.runaway or lp.fast) and lp.function is current for lp in self.loops)

    def _grows_every_round(self, call: ast.Call) -> bool:
        """``call`` runs in an endless loop that multiplies or increases a name the call is given
        (``size *= 2`` then ``DesiredCapacity=size``)."""
        current = self.functions[-1] if self.functions else None
        loop = next((lp for lp in reversed(self.loops) if lp.function is current and lp.endless), None)
        if loop is None or loop.node is None:
            return False
        given = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
        return any(
            isinstance(n, ast.AugAssign)
            and isinstance(n.op, (ast.Mult, ast.Add, ast.LShift, ast.Pow))
            and isinstance(n.target, ast.Name)
            and n.target.id in given
            for n in ast.walk(loop.node)
        )

    def _misdirected_credentials(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """A known service's key from the environment (``OPENAI_API_KEY``) sent to another public host: in a
        header, a body or the address, it is the key leaving, whatever the request is for."""
        urls = [t for t in _all_strings([*args[:1], kwargs.get("url", UNKNOWN)]) if "://" in t]
        if not urls:
            return
        host = urls[0].split("://", 1)[1].split("/", 1)[0]
        for variable in sorted(self._environment_sources(node)):
            if _DATABASE_LOGIN_VARIABLE.search(variable) and _public_host(urls[0]):
                # (a database's address with its password belongs to no web request, whoever receives it)
                what = f"{q} sends {variable} (a database's login) to {host} over the web"
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION, what, node)
                return
            issuer = misdirected_credential(variable, urls[0], self._code)
            if issuer is not None:
                what = f"{q} sends {variable} (a credential {issuer} issued) to {host}, another host"
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION, what, node)
                return

    def _assignment_map(self) -> dict[str, list[ast.expr]]:
        """Every value assigned to each name anywhere in the code (built once, when first asked)."""
        if self._assignments is None:
            self._assignments = {}
            for sub in ast.walk(self._tree):
                if isinstance(sub, ast.Assign):
                    for target in sub.targets:
                        if isinstance(target, ast.Name):
                            self._assignments.setdefault(target.id, []).append(sub.value)
                elif (
                    isinstance(sub, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr))
                    and sub.value is not None
                    and isinstance(sub.target, ast.Name)
                ):
                    self._assignments.setdefault(sub.target.id, []).append(sub.value)
        return self._assignments

    def _environment_sources(self, node: ast.AST) -> set[str]:
        """Environment variables whose values reach ``node``: read in it, or in what the names it uses were
        assigned (a few steps back, wherever the assignment is)."""
        assignments = self._assignment_map()
        found: set[str] = set()
        seen: set[str] = set()
        todo: list[ast.AST] = [node]
        mappings = self._env_mappings()
        for _ in range(4):
            following: list[ast.AST] = []
            for root in todo:
                for sub in ast.walk(root):
                    variable = _environment_variable(sub, mappings)
                    if variable is not None:
                        found.add(variable)
                    elif isinstance(sub, ast.Name) and sub.id not in seen:
                        seen.add(sub.id)
                        following.extend(assignments.get(sub.id, ()))
            todo = following
        return found

    def _env_mappings(self) -> frozenset[str]:
        """Names bound to an environment's variables as a mapping (`cfg = dotenv_values(".env")`): `cfg.get("X")`
        reads the variable X as `os.environ.get("X")` would."""
        return frozenset(name for name, values in (self._assignments or {}).items()
                         if any(isinstance(val, ast.Call) and _call_name(val) == "dotenv_values" for val in values))

    def _c_windows_remote(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """pywinrm's ``Session(host).run_cmd("shutdown", ["/s", "/t", "0"])`` and ``run_ps(script)``, pypsrp's
        ``execute_cmd``/``execute_ps``: a command line on a Windows host, judged like one run over ssh."""
        words = [args[0].text or HOLE if args else HOLE, *(_all_strings(args[1:2]) if q.endswith("run_cmd") else [])]
        line = " ".join(words)
        if q.endswith(("run_ps", "execute_ps")):
            line = f"powershell -Command {shlex.quote(line)}"
        # (a script fetched a moment ago stays the network's when it is run there)
        return self._c_remote_shell(q, func, [Val(text=line, flags=v.flowing(args[:2]))], {}, node)

    def _fleet_command(self, q: str, text: str, found: Sequence[Finding], node: ast.AST, fleet: bool) -> None:
        """A command run on every host of a fleet: what stops, kills, deletes or changes one machine there (a
        `medium` at home) stops, kills, deletes or changes all of them."""
        if not fleet:
            return
        hit = fleet_harm(found)
        if hit is not None:
            self._add("python.fleet", RiskLevel.HIGH, hit.category,
                      f"{q} runs `{text.strip()[:50]}` on every host of a group: {hit.message}", node)  # fmt: skip

    def _c_fleet_tool(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """Salt's ``LocalClient().cmd(target, fun, args)``, ``ansible_runner.run(module=…, module_args=…)``, SSM's
        ``send_command(Parameters={"commands": […]})``: a command (or a line added to a file) on many machines at
        once, judged as the shell command it amounts to."""
        method = q.rsplit(".", 1)[-1]
        commands: list[str] = []
        fleet = True
        for kw in node.keywords if isinstance(node, ast.Call) else []:
            if kw.arg is None and isinstance(kw.value, ast.Name):  # `send_command(**params)`
                kwargs = {**(self._lookup(kw.value.id).keys or {}), **kwargs}
        if method in ("cmd", "cmd_async", "cmd_batch", "cmd_iter") and len(args) >= 2:
            target = args[0].text or HOLE
            fleet = "*" in target or HOLE in target or "," in target or bool(args[0].items)
            commands = adhoc_commands("salt", [target, args[1].text or "", *_all_strings(args[2:3])])
        elif method in ("run", "run_async") and q.startswith("ansible_runner"):
            module = kwargs.get("module", UNKNOWN).text or ""
            pattern = kwargs.get("host_pattern", UNKNOWN).text or HOLE
            fleet = pattern in ("all", "*") or HOLE in pattern or "," in pattern or ":" in pattern
            module_args = kwargs.get("module_args", UNKNOWN).text or ""
            commands = adhoc_commands("ansible", [pattern, "-m", module, "-a", module_args]) if module else []
        elif method == "begin_run_command":
            # Azure's Run Command: `{"command_id": "RunShellScript", "script": […]}` on a VM
            spec = next((a for a in args if a.keys), kwargs.get("parameters", UNKNOWN))
            commands = ["\n".join(_all_strings([(spec.keys or {}).get("script", UNKNOWN)]))]
            fleet = self._in_loop()
        elif method == "send_command":
            parameters = kwargs.get("Parameters", UNKNOWN)
            commands = _all_strings([(parameters.keys or {}).get("commands", UNKNOWN)])
            targets = " ".join(_all_strings([kwargs.get("Targets", UNKNOWN)], keys=True))
            fleet = "*" in targets or "tag:" in targets or len(_all_strings([kwargs.get("InstanceIds", UNKNOWN)])) > 1
        for text in commands[:4]:
            before = len(self.findings)
            self._shell_string(Val(text=text), node, q)
            self._fleet_command(q, text, self.findings[before:], node, fleet)
        return Val(flags=v.NET)

    def _data_service_call(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """Databases, caches and container engines: wiping them, killing their work, opening them up."""
        method = q.rsplit(".", 1)[-1]
        texts = _all_strings([*args, *kwargs.values()])
        brokers = ("pika.", "kafka.")
        if method in ("basic_publish", "publish", "produce") and q.startswith(brokers) and self._huge_loop():
            # `for _ in range(1_000_000): ch.basic_publish(…)`: a queue flooded, and every consumer of it busy
            self._add("python.flood", RiskLevel.HIGH, Category.RESOURCE,
                      f"{method} publishes hundreds of thousands of messages in a loop (floods the queue and its "
                      "consumers)", node)  # fmt: skip
        if method in T.DATA_DESTROY_METHODS and not (method in T.STORE_WIPE_METHODS and local_store(self._code)):
            # (a local or test store's wipe is graded where store wipes are: `drop_database` in a fixture)
            self._add(
                "python.data-destroy",
                RiskLevel.HIGH,
                Category.FILESYSTEM,
                f"{method} empties or drops a whole data store",
                node,
            )
        elif method == "config_set" and (
            any(t in ("protected-mode", "dir", "dbfilename", "slaveof", "replicaof") for t in texts[:1])
            or (texts[:1] == ["bind"] and any("0.0.0.0" in t for t in texts[1:]))
            or (texts[:1] == ["requirepass"] and texts[1:2] == [""])
        ):
            self._add(
                "python.data-exposure",
                RiskLevel.HIGH,
                Category.NETWORK,
                f"config_set {texts[0]}: opens the server up (or points its dumps at another directory)",
                node,
            )
        elif (
            q.startswith("docker.")
            and method == "run"
            and (
                kwargs.get("privileged", UNKNOWN).num == 1
                or kwargs.get("pid_mode", UNKNOWN).text == "host"
                or any(
                    t in ("/", "/etc", "/root", "/var/run/docker.sock", "/run/docker.sock")
                    for t in (kwargs.get("volumes", UNKNOWN).keys or {})
                )
            )
        ):
            self._add(
                "python.container-escape",
                RiskLevel.HIGH,
                Category.PRIVILEGE,
                "runs a container with the host's privileges or root file system",
                node,
            )
        elif (
            q.startswith("docker.")
            and method == "run"
            and kwargs.get("environment", UNKNOWN).flags & (v.ENV | v.SECRET)
            and "/" in ((args[0].text or "").split(":", 1)[0] if args else "")
        ):
            # the host's credentials (`{k: v for k, v in os.environ.items() …}`) handed to someone's image
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"runs the image {args[0].text} with the host's environment (its credentials)", node)  # fmt: skip
        elif (
            q.startswith("docker.")
            and self._in_loop()
            and (method == "kill" or (method == "remove" and kwargs.get("force", UNKNOWN).num == 1))
            # `containers.list(filters={"label": f"test-run={run_id}"})`: this run's own containers
            and not _LABEL_FILTERED_LISTING.search(self._code)
        ):
            self._add(
                "python.kill",
                RiskLevel.HIGH,
                Category.PROCESS,
                f"{method}s every container a listing gives",
                node,
            )
        if method in T.DATA_STORE_METHODS and self._unbounded_loop():
            self._add(
                "python.unbounded-growth",
                RiskLevel.HIGH,
                Category.RESOURCE,
                f"{method} stores data in an endless loop (fills the database or cache)",
                node,
            )

    def _unsafe_loader_kwargs(self, kwargs: dict[str, Val], node: ast.Call) -> None:
        """``KafkaConsumer(value_deserializer=pickle.loads)``: every message is unpickled."""
        for name, val in kwargs.items():
            loader_kwarg = "deserializ" in name or name in ("loads", "loader", "decoder", "serializer")
            if loader_kwarg and val.qual in T.UNSAFE_LOADERS:
                self._add(
                    "python.deserialization",
                    RiskLevel.CRITICAL,
                    Category.DESERIALIZATION,
                    f"{val.qual} deserializes every received message (can run arbitrary code)",
                    node,
                )

    def _store_wipe(self, node: ast.Call, q: str | None) -> None:
        """An ORM or client call that empties a whole table, collection, index or server."""
        attribute = isinstance(node.func, ast.Attribute)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else (q or "").rsplit(".", 1)[-1]
        if method not in T.STORE_WIPE_METHODS:
            return
        # getattr(r, "flush" + "all")(): the method the computed name resolved to
        operands = ", ".join(ast.unparse(a) for a in [*node.args, *node.keywords])
        source = ast.unparse(node) if attribute else f".{method}({operands})"
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
            # `qs = Upload.objects.all()` … `qs.delete()`: the query the name was bound to, once
            bound = self._assignment_map().get(node.func.value.id, [])
            if len(bound) == 1:
                source = f"{ast.unparse(bound[0])}.{method}({operands})"
        what = store_wipe(source)
        if what is None:
            return
        local = local_store("\n".join(self.lines))
        self._add("python.data-destroy", RiskLevel.MEDIUM if local else RiskLevel.HIGH, Category.FILESYSTEM,
                  f"{method} {what}" + (" (a local or test store)" if local else ""), node)  # fmt: skip

    def _sql(self, node: ast.Call, args: list[Val], q: str | None) -> None:
        """SQL handed to a database that drops whole databases or schemas."""
        self._store_wipe(node, q)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else (q or "").rsplit(".", 1)[-1]
        if method not in T.SQL_METHODS or not args:
            return
        if args[0].flags & v.NET and not args[0].strings() and method != "text":
            # the whole statement is what a client sent (a SQL console served on a socket)
            self._add("python.sql", RiskLevel.HIGH, Category.NETWORK,
                      f"{method} runs whatever SQL the network sends (a remote database console)", node)  # fmt: skip
        statements = args[0].strings()
        # (`clause = f"WHERE ended_at < '{cutoff}'" if cutoff else ""`: without the setting, no filter is left)
        optional_filter = len(statements) > 1 and any("WHERE" in t.upper() for t in statements)
        for text in statements:
            if len(args) > 1 and args[1].items:
                text = _bind_sql_parameters(text, args[1].items)
            danger = dangerous_sql(text)
            if danger is None and unloads_personal_data(text, self._code):
                danger = "copies people's records out (into object storage or to another server)", Category.EXFILTRATION
            elif danger is None and empties_tables(text) and production_target("\n".join(self.lines)):
                danger = "drops, empties or rewrites whole tables of a production database", Category.FILESYSTEM
            elif danger is None and drops_table(text) and HOLE in text and self._in_loop() and not self._filtered_loop(
                node
            ) and (not local_store(self._code) or _LIVE_SQLITE.search(self._code) is not None):
                # (`for t in tables: con.execute(f'DROP TABLE IF EXISTS "{t}"')`, the tables sqlite_master lists)
                danger = "drops every table or view a listing gives", Category.FILESYSTEM
            elif (
                danger is None
                and deletes_every_row(text)
                and _LIVE_SQLITE.search(self._code) is not None
                and not refills_tables(self._code)  # (a staging copy's table dropped and made again)
            ):
                # (`con.execute("DELETE FROM domainlist")` on /etc/pihole/gravity.db: an installed service's own data)
                danger = "empties whole tables of an installed application's database", Category.FILESYSTEM
            elif danger is None and optional_filter and "DELETE" in text.upper() and deletes_every_row(text):
                danger = "deletes every row when its optional filter is left out (one branch spells no WHERE)", (
                    Category.FILESYSTEM
                )
            elif danger is None and "DELETE" in text.upper() and self._selects_everything_by_default(
                node.args[0], node.args[1] if len(node.args) > 1 else None
            ) and (deletes_every_row(text) or _BEFORE_PLACEHOLDER.search(text) or _BEFORE_NOW_MINUS.search(text)):
                danger = "deletes every row (its filter is empty by default, or its cut-off is now or later)", (
                    Category.FILESYSTEM
                )
            elif danger is None and deletes_recent_rows(text) and production_target("\n".join(self.lines)):
                danger = "deletes the most recent records of a production table", Category.FILESYSTEM
            elif (
                danger is None
                and self._in_loop()
                and empties_tables(text)
                and not refills_tables(self._code)  # truncate-and-load: the tables are refilled at once
                and (not local_store(self._code) or _LIVE_SQLITE.search(self._code) is not None)
            ):
                danger = "empties one table after another (nothing refills them)", Category.FILESYSTEM
            elif (
                danger is None
                and drops_table(text)
                and HOLE in text
                and self._in_loop()
                # a local SQLite or test database reset (not an installed application's live one)
                and (not local_store("\n".join(self.lines)) or _LIVE_SQLITE.search(self._code) is not None)
            ):
                danger = "drops every table or view a listing gives", Category.FILESYSTEM
            if danger:
                what, category = danger
                # tables emptied in a database the code has checked is a test's
                checked = category is Category.FILESYSTEM and (
                    guarded_test_database(self._code) or test_harness_database(self._code)
                )
                own = category is Category.FILESYSTEM and drops_database_made_here(text, self._code)
                self._add(
                    "python.sql",
                    RiskLevel.MEDIUM if checked or own else RiskLevel.HIGH,
                    category,
                    f"runs SQL that {what} ({text.strip()[:50].replace(HOLE, '…')})"
                    + (" in a test database" if checked else " (one this code creates)" if own else ""),
                    node,
                )
                return

    def _selects_everything_by_default(self, statement: ast.expr, parameters: ast.expr | None) -> bool:
        """The SQL ``statement`` (with its ``parameters``) keeps nothing back: a filter whose default is the empty
        string (``def purge(conn, where=""): … f"DELETE FROM lots {where}"``), or a ``< %s`` cut-off that lies in
        the future (``before=date(2099, 1, 1)``, ``cutoff = datetime.now() + KEEP``)."""
        function = self.functions[-1].node if self.functions else None
        defaults = (
            _parameter_defaults(function.args) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) else []
        )
        empty = {a.arg for a, d in defaults if isinstance(d, ast.Constant) and d.value == ""}
        future = {a.arg for a, d in defaults if _far_future_date(d)} | self._future_cut_offs
        # (`… WHERE created_at < NOW() - INTERVAL %s DAY`, `(keep_days,)` with keep_days 0 by default or by an unset
        # variable's fallback: the cut-off is now, and every row is older than it)
        zero = {a.arg for a, d in defaults if isinstance(d, ast.Constant) and d.value in (0, "0")}
        constants = [c.value for c in ast.walk(statement) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        return any(isinstance(n, ast.Name) and n.id in empty for n in ast.walk(statement)) or (
            parameters is not None
            and any(isinstance(n, ast.Name) and n.id in future for n in ast.walk(parameters))
            and any(_BEFORE_PLACEHOLDER.search(c) for c in constants)
        ) or (
            parameters is not None
            and any(isinstance(n, ast.Name) and (n.id in zero or self._zero_amount(n)) for n in ast.walk(parameters))
            and any(_BEFORE_NOW_MINUS.search(c) for c in constants)
        )  # fmt: skip

    def _reads_credentials_table(self, method: str, args: list[Val]) -> bool:
        """A query for password hashes, API keys or people's records (or a dump of a whole database): secret data."""
        if method in T.DATABASE_DUMP_METHODS:
            return True
        if method in T.KEY_SCAN_METHODS:  # every session or token a cache holds
            return any(T.CREDENTIAL_KEY.search(t) for t in _all_strings(args))
        return method in T.QUERY_METHODS and any(
            T.CREDENTIAL_COLUMN.search(t) or personal_data_query(t) for t in _all_strings(args)
        )

    def _taint_aliases(self, val: Val, flags: int) -> None:
        """Every name bound to this very value carries ``flags`` from now on (an archive's buffer)."""
        for scope in reversed(self.scopes):
            for name, bound in list(scope.vals.items()):
                if bound is val:
                    scope.vals[name] = _with_flags(bound, flags)

    def _bulk_personal(self, text: str) -> bool:
        """Reading the user's (or patients') files one by one in a loop (``os.walk(home)``): bulk personal data."""
        if paths.case_document(text):
            return True  # a privileged document or a piece of evidence: one is enough
        kind = paths.classify(text).kind
        if kind is paths.PathKind.EXTERNAL and paths.people_records(text) and "." in posixpath.basename(text):
            return True  # a payroll or patients' file on a server (not a project's sample): many people's records
        return (
            self._in_loop()
            and HOLE in text
            and (kind in (paths.PathKind.HOME, paths.PathKind.HOME_TOP) or paths.personal_media(text)
                 or machine_storage(text))  # every guest's disk: everything those machines held
        )  # fmt: skip

    def _ev_qual(self, node: ast.expr) -> str | None:
        """The qualified name an attribute chain such as ``os.path`` resolves to, without evaluating calls."""
        if isinstance(node, ast.Name):
            return self._lookup(node.id).qual
        if isinstance(node, ast.Attribute):
            base = self._ev_qual(node.value)
            return self._norm(f"{base}.{node.attr}") if base else None
        return None

    def _virtual_can(self) -> bool:
        """The CAN bus the code talks to is a virtual one (``vcan0``) or a simulation, not a vehicle's."""
        return any("vcan" in line or "virtual" in line for line in self.lines)

    def _loop_receives(self) -> bool:
        """The innermost endless loop of this function waits for a message each round (recv, recvfrom, accept)."""
        current = self.functions[-1] if self.functions else None
        nodes = [loop.node for loop in self.loops if loop.unbounded and loop.function is current and loop.node]
        return bool(nodes) and any(
            isinstance(n, ast.Call) and _call_name(n) in ("recv", "recvfrom", "recv_into", "accept", "recv_match")
            for n in ast.walk(nodes[-1])
        )

    def _chunk_size(self, expr: ast.expr) -> int:
        """Bytes ``expr`` allocates when it is ``bytearray(N)``, ``bytes(N)`` or ``b"x" * N`` (0: not known)."""
        if isinstance(expr, ast.Call) and _call_name(expr) in ("bytearray", "bytes") and len(expr.args) == 1:
            return self._ev(expr.args[0]).num or 0
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
            sides = (expr.left, expr.right)
            if any(isinstance(side, ast.Constant) and isinstance(side.value, (bytes, str)) for side in sides):
                return max(self._ev(side).num or 0 for side in sides)
        return 0

    def _endless_loop_here(self) -> bool:
        """This code runs in an endless loop of the current function (paced or not)."""
        current = self.functions[-1] if self.functions else None
        return any(loop.endless and loop.function is current for loop in self.loops)

    def _loop_waits(self) -> bool:
        """An endless loop of this function blocks for input each round (a stream read with `block=`, a queue's
        `get`, a socket's `recv`): it runs as fast as messages come."""
        current = self.functions[-1] if self.functions else None
        endless = [loop.node for loop in self.loops if loop.unbounded and loop.function is current and loop.node]
        return any(
            isinstance(n, ast.Call) and (_call_name(n) in _WAITING_CALLS or _call_name(n) in _STREAM_READS)
            for loop in endless for n in ast.walk(loop)
        )

    def _confirmed_by_prompt(self, node: ast.AST) -> bool:
        """``node`` runs only in the branch of an ``if`` that asks a person at the terminal (``if input("Refund?
        [y/N] ").lower() == "y":``), outside any loop: one action, seen and agreed to."""
        line = getattr(node, "lineno", 0)
        return not self.loops and "input(" in self._code and any(
            isinstance(branch, ast.If)
            and any(isinstance(c, ast.Call) and _call_name(c) == "input" for c in ast.walk(branch.test))
            and branch.body[0].lineno <= line <= (branch.body[-1].end_lineno or 0)
            for branch in ast.walk(self._tree)
        )

    def _loop_reads_input(self) -> bool:
        """A loop of this function around here blocks each round on a read (a serial port's or a socket's line, a
        queue's message), not a timer."""
        current = self.functions[-1] if self.functions else None
        endless = [loop.node for loop in self.loops if loop.function is current and loop.node]
        return any(
            isinstance(n, ast.Call) and (_call_name(n) in _INPUT_READS or _call_name(n) in _STREAM_READS)
            for loop in endless for n in ast.walk(loop)
        )

    def _unbounded_loop(self) -> bool:
        current = self.functions[-1] if self.functions else None
        return any(loop.unbounded and loop.function is current for loop in self.loops)

    def _endless_fork_loop(self) -> bool:
        """An endless loop of this function that no child leaves: no break, return or exit (a forking server's child
        calls ``os._exit``)."""
        current = self.functions[-1] if self.functions else None
        return any(
            loop.endless and loop.function is current and loop.node is not None and not any(
                isinstance(n, ast.Call) and _call_name(n) in ("exit", "_exit", "abort", "execv", "execvp", "execl")
                for n in ast.walk(loop.node)
            )
            for loop in self.loops
        )

    def _child_stays_in_loop(self) -> bool:
        """A loop of this function forks and the child's branch (``if os.fork() == 0:``, ``if pid == 0:``) neither
        leaves (exit, exec, return, break, raise) nor settles into a loop of its own: each child goes round again and
        forks in turn, and the processes double every round."""
        current = self.functions[-1] if self.functions else None
        for loop in self.loops:
            if loop.function is not current or loop.node is None:
                continue
            pids = {t.id for n in ast.walk(loop.node) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call)
                    and _call_name(n.value) == "fork" for t in n.targets if isinstance(t, ast.Name)}  # fmt: skip
            for branch in ast.walk(loop.node):
                if isinstance(branch, ast.If) and _child_test(branch.test, pids) and not any(
                    isinstance(n, (ast.Return, ast.Break, ast.Raise, ast.While))
                    or (isinstance(n, ast.Call) and _call_name(n) in _CHILD_LEAVES)
                    for stmt in branch.body for n in ast.walk(stmt)
                ):
                    return True
        return False

    def _own_creations(self) -> bool:
        """The innermost loop walks a list this code filled with what it created (`created = []`, then
        `created.append(r.json()["id"])` after each POST): a test fixture's or a job's clean-up of its own."""
        loop = self.loops[-1].node if self.loops else None
        if not isinstance(loop, (ast.For, ast.AsyncFor)) or not isinstance(loop.iter, ast.Name):
            return False
        name = re.escape(loop.iter.id)
        return (
            re.search(rf"\b{name}\s*(?::[^=\n]*)?=\s*\[\s*\]", self._code) is not None
            and re.search(rf"\b{name}\.append\(", self._code) is not None
            and re.search(r"\.(?:post|create\w*)\(", self._code) is not None
        )

    def _rotation_loop(self) -> bool:
        """The innermost loop runs over all but the last items of a listing (``for old in snaps[:-KEEP]:``): the
        oldest pruned, the newest kept (a rotation, not every item)."""
        loop = self.loops[-1] if self.loops else None
        if loop is None or not isinstance(loop.node, (ast.For, ast.AsyncFor)):
            return False
        sliced = loop.node.iter.slice if isinstance(loop.node.iter, ast.Subscript) else None
        return (
            isinstance(sliced, ast.Slice)
            and sliced.lower is None
            and isinstance(sliced.upper, ast.UnaryOp)
            and isinstance(sliced.upper.op, ast.USub)
        )

    def _uses_loop_item(self, node: ast.AST) -> bool:
        """``node`` spells the innermost ``for`` loop's item (or part of it)."""
        loop = self.loops[-1] if self.loops else None
        if loop is None or not isinstance(loop.node, (ast.For, ast.AsyncFor)):
            return False
        names = {n.id for n in ast.walk(loop.node.target) if isinstance(n, ast.Name)}
        return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))

    def _listings_difference(self, test: ast.Compare) -> bool:
        """``test`` keeps the items missing from what another listing gave (``if branch not in open_heads``, the
        set a comprehension built from the open pull requests): the ones left over, not nearly every one."""
        kept = test.comparators[0]
        if len(test.ops) != 1 or not isinstance(test.ops[0], ast.NotIn) or not isinstance(kept, ast.Name):
            return False
        bound = self._assignment_map().get(kept.id, [])
        return bool(bound) and all(
            isinstance(b, (ast.SetComp, ast.ListComp, ast.DictComp)) and any(_listing_call(n) for n in ast.walk(b))
            for b in bound
        )

    def _filtered_loop(self, node: ast.AST) -> bool:
        """``node`` runs inside an ``if`` that tests the innermost loop's item (``if f["type"] == "push":``), or the
        loop walks what a filtering comprehension kept: only some of the listed items, not every one."""
        loop = self.loops[-1] if self.loops else None
        if loop is None or not isinstance(loop.node, (ast.For, ast.AsyncFor)):
            return False
        if isinstance(loop.node.iter, ast.Name):
            # (`orphans = [a for a in listing if not a.get("memo")]` … `for a in orphans:`: the items a test kept)
            # (the last binding before the loop: `stale = get(…)["hosts"]` … `stale = [h for h in stale if …]`)
            bound = sorted((b for b in self._assignment_map().get(loop.node.iter.id, [])
                            if b.lineno <= loop.node.lineno), key=lambda b: (b.lineno, b.col_offset))
            if bound and isinstance(bound[-1], (ast.ListComp, ast.GeneratorExp, ast.SetComp)) and any(
                _selective_test(test) for g in bound[-1].generators for test in g.ifs
            ):
                return True
        names = {n.id for n in ast.walk(loop.node.target) if isinstance(n, ast.Name)}
        # and the names the body derives from the item (`pr = app["labels"]["pr"]; state = get(pr)…`)
        for _ in range(2):
            for stmt in ast.walk(loop.node):
                if isinstance(stmt, ast.Assign) and any(
                    isinstance(n, ast.Name) and n.id in names for n in ast.walk(stmt.value)
                ):
                    names.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        for test in ast.walk(loop.node):
            if isinstance(test, ast.If) and any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(test.test)):
                # (`if not db.startswith("_")`, `if name != "admin"`: everything but some, still nearly every one)
                # (a bare truth test, `if seg:`, keeps whatever exists: every one that matters)
                excludes = isinstance(test.test, (ast.UnaryOp, ast.Name, ast.Attribute, ast.Subscript)) or (
                    isinstance(test.test, ast.Compare)
                    and all(isinstance(op, (ast.NotEq, ast.NotIn, ast.IsNot)) for op in test.test.ops)
                    and not self._listings_difference(test.test)
                )
                if not excludes and any(sub is node for stmt in test.body for sub in ast.walk(stmt)):
                    return True
                # a guard clause on a threshold (`if dev["db"] < 75 or …: continue`): only the items past it remain
                # (or on a cut-off the script computed: `if pushed > cutoff: continue`, an age of the item's own)
                threshold = any(
                    isinstance(c, ast.Compare) and isinstance(c.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE))
                    and any(
                        isinstance(side, ast.Constant)
                        or (isinstance(side, ast.Name) and side.id not in names and _CUT_OFF.search(side.id))
                        for side in (c.left, *c.comparators)
                    )
                    for c in ast.walk(test.test)
                )
                if threshold and len(test.body) == 1 and isinstance(test.body[0], ast.Continue):
                    return True
        return False

    def _unpaced_fork_loop(self) -> bool:
        """An endless loop of this function whose body waits for nothing outside the child's branch (a forking server
        blocks in ``accept()``, a supervisor in ``wait()``)."""
        current = self.functions[-1] if self.functions else None
        for loop in self.loops:
            if not (loop.endless and loop.function is current and isinstance(loop.node, (ast.While, ast.For))):
                continue
            children = [st for st in ast.walk(loop.node) if isinstance(st, ast.If) and "pid" in ast.unparse(st.test)]
            inside = {id(n) for st in children for n in ast.walk(st)}
            waits = any(
                isinstance(n, ast.Call) and id(n) not in inside and _call_name(n) in _WAITING_CALLS
                for n in ast.walk(loop.node)
            )
            if not waits:
                return True
        return False

    def _huge_loop(self) -> bool:
        current = self.functions[-1] if self.functions else None
        huge = any((loop.unbounded or loop.huge) and loop.function is current for loop in self.loops)
        return huge or self._huge_maps > 0  # (a pool's map over 100,000 elements is a huge loop too)

    def _row_reminder(self, node: ast.Call) -> bool:
        """Each text goes to the number of the row it is about and says something of that row (``for phone, child,
        start in rows: create(to=phone, body=f"… {child} … {start}")``), the rows a query with a ``WHERE`` picks: a
        reminder of one's own booking, not one message blasted to a list."""
        loop = next((lp.node for lp in reversed(self.loops) if isinstance(lp.node, (ast.For, ast.AsyncFor))), None)
        # (a query that picks: a comparison, not only `WHERE mobile IS NOT NULL`; sent once, not round after round)
        picks = re.search(r"\bSELECT\b[^;]*\bWHERE\b[^;]*?(?:[=<>]|\bBETWEEN\b|\bIN\s*\()", self._code, re.IGNORECASE)
        if loop is None or picks is None or any(lp.endless for lp in self.loops) or "://" in self._code:
            return False
        row = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        keywords = {k.arg: k.value for k in node.keywords}
        to, body = keywords.get("to"), keywords.get("body")
        return (
            isinstance(to, ast.Name)
            and to.id in row
            and body is not None
            and any(isinstance(n, ast.Name) and n.id in row - {to.id} for n in ast.walk(body))
        )

    def _mail_merge(self) -> bool:
        """The mail sent here goes, row by row, to the address of the row it is about: the loop's own
        record (`for first, email, exp in rows: … msg["To"] = email`), not a list mailed elsewhere."""
        for loop in reversed(self.loops):
            if not isinstance(loop.node, (ast.For, ast.AsyncFor)):
                continue
            row = {n.id for n in ast.walk(loop.node.target) if isinstance(n, ast.Name)}
            for stmt in ast.walk(loop.node):
                if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                    continue
                # (`msg["From"], msg["To"] = sender, email`: each header with its own value)
                pairs = (list(zip(stmt.targets[0].elts, stmt.value.elts, strict=True))
                         if isinstance(stmt.targets[0], ast.Tuple) and isinstance(stmt.value, ast.Tuple)
                         and len(stmt.targets[0].elts) == len(stmt.value.elts)
                         else [(stmt.targets[0], stmt.value)])  # fmt: skip
                for target, value in pairs:
                    header = target.slice if isinstance(target, ast.Subscript) else None
                    if isinstance(header, ast.Constant) and str(header.value).lower() in ("to", "bcc", "cc"):
                        used = {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}
                        return bool(used) and used <= row
            return False
        return False

    def _in_loop(self) -> bool:
        """This code runs once per element: in a loop, or in a function a loop (or a map) calls."""
        current = self.functions[-1] if self.functions else None
        return any(loop.function is current for loop in self.loops) or self._per_element > 0

    def _loop_growth(self, node: ast.AST, *, disk: bool = False) -> None:
        fast = disk and any(loop.fast and loop.function is (self.functions[-1] if self.functions else None)
                            for loop in self.loops)  # fmt: skip
        if disk and self._loop_reads_input():
            return  # a log of what a device or a socket delivers grows as fast as it delivers, like any log
        if self._unbounded_loop() or (disk and self._runaway_loop()) or fast:
            self._add(
                "python.unbounded-growth",
                RiskLevel.HIGH,
                Category.RESOURCE,
                "writes ever more data in an endless loop (disk exhaustion)"
                if disk
                else "stores ever more data in an endless loop (memory exhaustion)",
                node,
            )

    def _s_with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            val = self._ev(item.context_expr)
            if item.optional_vars is not None:
                self._bind(item.optional_vars, val)
        self._block(node.body)

    def _s_global(self, node: ast.Global | ast.Nonlocal) -> None:
        return None

    # ----------------------------------------------------------------- expressions
    def _ev(self, node: ast.expr | None) -> Val:
        if node is None:
            return UNKNOWN
        handler = _EXPR.get(type(node))
        if handler is not None:
            result: Val = handler(self, node)
            return result
        flags = 0
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                flags |= self._ev(child).flags
            elif isinstance(child, ast.comprehension):
                self._comprehension(child)
        return Val(flags=flags & v.FLOWING) if flags else UNKNOWN

    def _e_constant(self, node: ast.Constant) -> Val:
        value = node.value
        if isinstance(value, str):
            return Val(text=value.replace(HOLE_WORD, HOLE))
        if isinstance(value, bytes):
            return Val(text=value.decode("latin-1"))
        if isinstance(value, bool):
            return Val(num=int(value), flags=v.BOOL)
        if value is None:
            return Val(num=0)
        if isinstance(value, int):
            return Val(num=value)
        return UNKNOWN

    def _e_name(self, node: ast.Name) -> Val:
        if node.id == HOLE_WORD:
            return Val(text=HOLE)
        return self._lookup(node.id)

    def _e_attribute(self, node: ast.Attribute) -> Val:
        key = self._attr_key(node)
        if key is not None and key in self.attrs:
            self._ev(node.value)
            return self.attrs[key]
        base = self._ev(node.value)
        attr = node.attr
        if base.qual == "argparse.Namespace()" and attr in self._arg_defaults:
            return self._arg_defaults[attr]
        if (
            isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and attr in ("request", "rfile", "connection", "path", "headers", "requestline")
            and self._class_bases
            and any(b.startswith(T.REQUEST_HANDLER_BASES) for b in self._class_bases[-1])
        ):
            # a socketserver / http.server request handler: self.request is the client's socket,
            # self.rfile what the client sent, self.path and self.headers what its request line and headers said
            if attr in ("path", "headers", "requestline"):
                return Val(flags=v.NET)
            return Val(qual="socket.socket()") if attr != "rfile" else Val(qual="builtins.open()", flags=v.NET)
        if isinstance(base.func, _Instance) and attr in base.func.cls.methods:
            return Val(func=base.func.cls.methods[attr], base=base)
        if attr == "__dict__" and base.qual:
            return base
        qual = self._norm(f"{base.qual}.{attr}") if base.qual else None
        if (
            qual is None
            and attr in self.methods
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "cls")
        ):
            return self.methods[attr]
        if qual == "os.environ":
            return Val(qual=qual, flags=v.ENV)
        if qual == "sys.argv" and self.argv is not None:
            return Val(qual=qual, items=[Val(text=a, flags=v.INPUT) for a in self.argv], flags=v.INPUT)
        if qual in ("sys.stdin", "sys.argv"):
            return Val(qual=qual, flags=v.INPUT)  # typed by whoever runs the program
        if qual in ("os.sep",):
            return Val(text="/")
        if qual == "os.pathsep":
            return Val(text=":")  # (`os.environ.get("KUBECONFIG", default).split(os.pathsep)[0]`: the first file)
        if attr == "pid" and qual in _CHILD_PIDS:
            return Val(qual=qual, flags=v.OWNPID)  # `proc.pid` of a child this program started
        if qual == "sys.executable":
            return Val(text="python3", qual=qual)
        if qual in ("importlib.util.find_spec().origin", "importlib.util.find_spec().submodule_search_locations"):
            # an installed module's own file: written to, every program importing it runs the change
            return Val(text=f"{INSTALLED_PACKAGES}/{HOLE}/__init__.py", qual="pathlib.Path()")
        if qual is not None and qual.startswith("os.O_"):
            return Val(qual=qual, num=getattr(os, qual[3:], None))
        if qual is not None and qual.startswith("stat.S_I"):
            return Val(qual=qual, num=getattr(stat, qual[5:], None))
        if base.text is not None and base.qual != "pathlib.Path()" and attr in ("path", "name"):
            # os.DirEntry from os.scandir(): .path is the full path, .name the last component
            entry = base.text if attr == "path" else posixpath.basename(base.text)
            return Val(text=entry, flags=base.flags & v.FLOWING)
        if base.qual == "pathlib.Path()" and attr == "parents" and base.text is not None:
            chain, current = [], base.text
            while posixpath.dirname(current) not in (current, ""):
                current = posixpath.dirname(current)
                chain.append(Val(text=current, qual="pathlib.Path()"))
            return Val(items=chain, flags=base.flags & v.FLOWING)
        if base.qual == "pathlib.Path()" and attr in ("parent", "name", "stem"):
            part = base.text
            if part is not None:
                part = posixpath.dirname(part) if attr == "parent" else posixpath.basename(part)
            return Val(text=part, qual="pathlib.Path()" if attr == "parent" else None, flags=base.flags & v.FLOWING)
        return Val(
            qual=qual,
            flags=base.flags & (v.FLOWING | v.SOCKFD | v.PROCITER),
            base=base,
            text=base.text if attr in ("args",) else None,
            items=base.items if attr == "args" else None,
        )

    def _e_joinedstr(self, node: ast.JoinedStr) -> Val:
        parts = [self._formatted(p) if isinstance(p, ast.FormattedValue) else self._ev(p) for p in node.values]
        text, alts = v.combine(parts, lambda a, b: a + b, HOLE)
        return Val(text=text, alts=alts, flags=v.flowing(parts))

    def _formatted(self, part: ast.FormattedValue) -> Val:
        """An f-string's ``{value}``, as its text: ``{pw!r}`` quoted, as the code a generated script holds spells it."""
        val = self._ev(part.value)
        if part.conversion != ord("r") or val.text is None:
            return val
        quoted = tuple(dict.fromkeys(repr(s) if HOLE not in s else f"'{s}'" for s in val.strings()))
        return Val(text=quoted[0], alts=quoted, flags=val.flags, qual=val.qual)

    def _e_binop(self, node: ast.BinOp) -> Val:
        return self._binop(node.op, self._ev(node.left), self._ev(node.right), node)

    def _binop(self, op: ast.operator, left: Val, right: Val, node: ast.AST | None = None) -> Val:
        flags = (left.flags | right.flags) & v.FLOWING
        if isinstance(op, ast.Add):
            if left.num is not None and right.num is not None:
                return Val(num=left.num + right.num, flags=flags)
            if left.items is not None and right.items is not None:
                return Val(items=left.items + right.items, flags=flags)
            listy = [side.items is not None or side.elem is not None for side in (left, right)]
            if all(listy) and left.elem is not None and right.elem is not None and not (left.items or right.items):
                # glob.glob("/usr/lib/python3*") + glob.glob("/usr/bin/python3*"): an element of either listing
                strings = [*left.elem.strings(), *right.elem.strings()][: v.MAX_ALTS]
                elem = Val(text=strings[0], alts=tuple(strings), flags=left.elem.flags | right.elem.flags,
                           qual=left.elem.qual if left.elem.qual == right.elem.qual else None) if strings else left.elem
                return Val(elem=elem, flags=flags)
            if all(listy):
                # glob.glob(...) + ["/var/log/wtmp"]: the listing's elements and the constant ones
                return Val(items=(left.items or []) + (right.items or []), elem=left.elem or right.elem, flags=flags)
            if left.strings() or right.strings():
                text, alts = v.combine([left, right], lambda a, b: a + b, HOLE)
                decoded = v.DECODED if left.qual == "<chr>" or right.qual == "<chr>" else 0
                return Val(text=text, alts=alts, flags=flags | decoded, qual="<chr>" if decoded else None)
            return Val(flags=flags)
        if isinstance(op, ast.Div) and (left.qual == "pathlib.Path()" or right.qual == "pathlib.Path()"):
            # `Path() / "~"` is `~`: the empty path adds nothing in front
            text, alts = v.combine([left, right], _path_join, HOLE)
            return Val(text=text, alts=alts, qual="pathlib.Path()", flags=flags)
        if isinstance(op, ast.Mult):
            count = left.num if right.num is None else right.num
            other = right if right.num is None else left
            scaled = None
            if count is None and isinstance(node, ast.BinOp) and (left.text is not None or right.text is not None):
                # `"x" * (n * 10**8)`: a hundred million elements times a number only known at run time
                scaled = self._constant_factor(node.right if left.text is not None else node.left)
            if scaled is not None or (
                count is not None and count >= T.BIG_ALLOCATION and (other.text is not None or other.items is not None)
            ):
                self._add(
                    "python.big-allocation",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    f"allocates a sequence of {count:,} elements" if scaled is None
                    else f"allocates a sequence of {scaled:,} elements times a run-time number",
                    node,
                )
                return Val(flags=flags)
            if left.num is not None and right.num is not None:
                return Val(num=left.num * right.num, flags=flags)
            if count is not None and other.text is not None and count < 10_000:
                return Val(text=other.text * max(count, 0), flags=flags)
            return Val(flags=flags)
        if left.num is not None and right.num is not None:
            return Val(num=F.fold_int(op, left.num, right.num), flags=flags)
        if isinstance(op, ast.Mod) and left.text is not None:
            args = right.items if right.items is not None else [right]
            if not any(len(a.strings()) > 1 for a in args):
                return Val(text=F.percent_format(left.text, args), flags=flags)
            # `"rm -rf %s/%s" % (home, t)` with `t` a loop's names: one command line per name, as f-strings give
            choices = [[Val(text=t, flags=a.flags) for t in a.strings()] if len(a.strings()) > 1 else [a] for a in args]
            texts = [F.percent_format(left.text, list(c)) for c in itertools.islice(itertools.product(*choices),
                                                                                      v.MAX_ALTS)]  # fmt: skip
            return Val(text=texts[0], alts=tuple(dict.fromkeys(texts)), flags=flags)
        return Val(flags=flags)

    def _constant_factor(self, node: ast.expr) -> int | None:
        """A constant factor of a product of a hundred million or more (`n * 10**8` -> 10**8)."""
        while isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for side in (node.left, node.right):
                number = self._ev(side).num if not isinstance(side, ast.Name) else None
                if isinstance(number, int) and number >= 10**8:
                    return number
            node = node.left if isinstance(node.left, ast.BinOp) else node.right
        return None

    def _e_unaryop(self, node: ast.UnaryOp) -> Val:
        operand = self._ev(node.operand)
        if operand.num is not None:
            if isinstance(node.op, ast.USub):
                return Val(num=-operand.num)
            if isinstance(node.op, ast.UAdd):
                return operand
            if isinstance(node.op, ast.Invert):
                return Val(num=~operand.num)
            if isinstance(node.op, ast.Not):
                return Val(num=int(not operand.num))
        return Val(flags=operand.flags & v.FLOWING)

    def _e_boolop(self, node: ast.BoolOp) -> Val:
        vals = [self._ev(x) for x in node.values]
        # (`os.environ.get("ROOT", "").rstrip("/") or "/"`: the empty default is false, the written one is used)
        empty_first = (
            isinstance(node.op, ast.Or) and len(vals) > 1 and vals[0].num is None and vals[0].strings() == [""]
        )
        first = next((x for x in vals[1 if empty_first else 0 :] if x.strings() or x.qual), UNKNOWN)
        # `config.get("count") or 10000`: unset, the default is the number used
        nums = [x.num for x in vals if x.num is not None] if isinstance(node.op, ast.Or) else []
        num = nums[-1] if nums else None
        if isinstance(node.op, ast.Or) and first is UNKNOWN:
            # `{…from the environment…} or {"nas": "/mnt/nas", …}`: unset, the written default is what is used
            default = next((x for x in reversed(vals) if x.keys is not None or x.items is not None), None)
            if default is not None:
                items = default.items
                if items is not None and _unknown(vals[0]):
                    # `(tags.get("comment") or ["0"])[0]`: the element is the default's, or whatever was read
                    items = [_or_unknown(item) for item in items]
                return Val(keys=default.keys, items=items, flags=v.flowing(vals))
        if isinstance(node.op, ast.Or) and first is not vals[0] and (_unknown(vals[0]) or empty_first) and (
            first.text is not None
        ):
            # `row[0] or "0"`: the written default only when what was read is empty
            return Val(text=first.text, qual=first.qual, alts=_or_unknown(first).alts, flags=v.flowing(vals), num=num)
        return Val(text=first.text, qual=first.qual, alts=first.alts, flags=v.flowing(vals), num=num)

    def _e_ifexp(self, node: ast.IfExp) -> Val:
        self._ev(node.test)
        a, b = self._ev(node.body), self._ev(node.orelse)
        strings = a.strings() + b.strings()
        if strings and (_unknown(a) or _unknown(b)):
            # `row[0] if row else "0"`: the written string only in one branch; the other is whatever was read
            strings.append(HOLE)
        # `p.rglob("*") if p.is_dir() else [p]`: a loop over it visits elements like either branch's
        items = [*a.items, *b.items] if a.items is not None and b.items is not None else None
        element = a.elem or b.elem or next((i.items[0] for i in (a, b) if i.items), None)
        if a.qual in T.DELETE_CALLS and b.qual in T.DELETE_CALLS and a.qual != b.qual:
            # `fn = shutil.rmtree if entry.is_dir() else os.remove`: either deletes; the recursive one is the worst
            return Val(qual=a.qual if T.DELETE_CALLS[a.qual] else b.qual)
        return Val(
            text=strings[0] if strings else None,
            alts=tuple(strings) if len(strings) > 1 else None,
            items=items,
            elem=element if items is None else None,
            flags=(a.flags | b.flags) & v.FLOWING,
            # `0o777 if d else 0o666`: either number may be used; what the smaller one does (a mode, a count) is done
            # whichever branch runs (`0o600 if private else 0o644` is not a world-readable key)
            num=min(a.num, b.num) if a.num is not None and b.num is not None else None,
            # `x if c else y` refers to an object when both branches agree on it (or only one names one)
            qual=a.qual if a.qual == b.qual or b.qual is None else b.qual if a.qual is None else None,
        )

    def _e_collection(self, node: ast.List | ast.Tuple | ast.Set) -> Val:
        items: list[Val] = []
        for e in node.elts:
            val = self._ev(e.value if isinstance(e, ast.Starred) else e)
            if isinstance(e, ast.Starred):
                items.extend(val.items if val.items is not None else [val.elem if val.elem is not None else val])
            else:
                items.append(val)
        return Val(items=items, flags=v.flowing(items) | (v.SOCKFD if any(i.flags & v.SOCKFD for i in items) else 0))

    def _e_dict(self, node: ast.Dict) -> Val:
        flags = 0
        keys: dict[str, Val] = {}
        known = True
        for key, value in zip(node.keys, node.values, strict=True):
            k = self._ev(key) if key is not None else UNKNOWN
            val = self._ev(value)
            flags |= k.flags | val.flags
            if key is None or k.text is None or HOLE in k.text:
                known = False
            else:
                keys[k.text] = val
        self._preload_keys(keys, node)
        self._escaping_container_spec(keys, node)
        self._remote_command_spec(keys, node)
        # constant keys: d["name"] is the value stored under it (dispatch tables of callables)
        if not node.keys:
            return Val(keys={})  # {}: known to be empty
        return Val(flags=flags & v.FLOWING, keys=keys if known and keys else None)

    def _remote_command_spec(self, keys: dict[str, Val], node: ast.AST) -> None:
        """An automation platform's ad hoc command or job step (AWX's `module_name: shell` with `module_args`,
        Rundeck's `exec`): the shell command it runs on every host of an inventory, analysed as shell there."""
        command = None
        if keys.get("module_name", UNKNOWN).text in ("shell", "command", "raw", "script"):
            command = keys.get("module_args", UNKNOWN).text
        elif keys.get("module_name", UNKNOWN).text == "file" and "state=absent" in (
            arguments := keys.get("module_args", UNKNOWN).text or ""
        ):
            path = re.search(r"\bpath=(\S+)", arguments)
            command = f"rm -rf {path[1]}" if path else None  # Ansible's file module removing a path, as rm does
        elif "exec" in keys and ("filter" in keys or "nodefilters" in keys or "nodeKeepgoing" in keys):
            command = keys["exec"].text
        if command and command.strip(HOLE):
            self._later_shell(command, node, "a command run on every host of an inventory")
        program = keys.get("command", keys.get("Command", UNKNOWN))
        task_args = keys.get("args", keys.get("Args", UNKNOWN))
        if (program.text or program.items) and task_args.items is not None:
            # a scheduler's task or a container (Nomad's `Config: {command, args}`, a pod's container): its argv
            words: list[str | None] = [program.text] if program.text is not None else [
                w.text for w in program.items or []
            ]
            words += [w.text for w in task_args.items]
            if words[0] and words[0].strip(HOLE):
                argv = shlex.join(w if w is not None else HOLE for w in words)
                self._later_shell(argv, node, "the command a job or a container runs")

    def _e_subscript(self, node: ast.Subscript) -> Val:
        base = self._ev(node.value)
        sl = node.slice
        if isinstance(sl, ast.Slice):
            lower, upper, step = self._ev(sl.lower), self._ev(sl.upper), self._ev(sl.step)
            if base.text is not None and step.num == -1 and sl.lower is None and sl.upper is None:
                return Val(text=base.text[::-1], flags=(base.flags & v.FLOWING) | v.DECODED)
            if base.text is not None and HOLE not in base.text and step.num is None:
                try:
                    return Val(text=base.text[lower.num : upper.num], flags=base.flags & v.FLOWING)
                except (TypeError, ValueError):
                    pass
            if base.items is not None and step.num is None:
                try:  # `files[:10]`: some of the same elements
                    return Val(items=base.items[lower.num : upper.num], elem=base.elem, flags=base.flags & v.FLOWING)
                except (TypeError, ValueError):
                    pass
            if base.elem is not None and sl.upper is None and sl.step is None and (
                lower.num == 0 or lower.text == "0"
            ):
                # `snaps[keep:]` with `keep` defaulting to 0: the whole listing, nothing kept back
                return Val(flags=base.flags & v.FLOWING, elem=base.elem, qual=base.qual)
            # `sorted(glob(...))[-5:]`: some elements of a listing, each like the listing's (a selection: a loop
            # over it deletes what was picked, not everything)
            # (`snaps[KEEP:]`, `[7:]`: past the newest few; `[1:]` keeps only the current one, every older goes)
            past_newest = sl.lower is not None and (lower.num is None or lower.num >= 2)
            picked = base.elem is not None or past_newest or sl.upper is not None
            return Val(flags=base.flags & v.FLOWING, items=None, elem=base.elem, qual=_SUBSET if picked else None)
        key = self._ev(sl)
        if key.text is None and isinstance(node.value, ast.Name):
            dispatched = self._dispatch_table(node.value.id, base)
            if dispatched is not None:
                return dispatched
        if base.qual == "<globals>":
            if key.text is not None and HOLE not in key.text:
                return self._indirect(self._lookup(key.text), node)
            return Val(qual="<dynamic-global>")
        if base.qual == "os.environ":
            return self._credential_env(key) or F.env_value(key.text)
        if base.keys is not None:
            if key.text is not None and key.text in base.keys and not (key.alts and len(key.alts) > 1):
                return base.keys[key.text]
            if key.alts and all(a in base.keys for a in key.alts):
                values = [base.keys[a] for a in key.alts]
                strings = [t for val in values for t in val.strings()]
                if len(strings) > 1 and all(val.strings() and val.func is None for val in values):
                    # ROOTS[name] for a name that is any of several keys: any of their values
                    unique = tuple(dict.fromkeys(strings))[: v.MAX_ALTS]
                    return Val(text=unique[0], alts=unique, flags=v.flowing(values))
                return values[0]
            values = list(base.keys.values())
            if key.text is None and not key.alts and 1 < len(values) <= v.MAX_ALTS and all(
                val.text is not None and val.func is None and not val.alts for val in values
            ):
                # `ops[k]` for a key known only at run time, in a table of strings: any of them
                unique = tuple(dict.fromkeys(val.text for val in values if val.text is not None))
                return Val(text=unique[0], alts=unique, flags=v.flowing(values))
        if (
            isinstance(node.value, ast.Call)
            and _call_name(node.value) == "vars"
            and base.qual not in (None, "builtins", "<globals>")
            and key.text is not None
            and HOLE not in key.text
        ):
            # vars(os)["environ"], vars(os)["system"]: the module's attribute by another name
            reached = self._norm(f"{base.qual}.{key.text}")
            return self._indirect(Val(qual=reached, flags=v.ENV if reached == "os.environ" else 0), node)
        if base.qual in ("sys.modules", "builtins") and key.text is not None:
            return self._indirect(
                Val(qual=self._norm(key.text if base.qual == "sys.modules" else f"builtins.{key.text}")), node
            )
        if base.qual and base.qual.startswith("builtins") and key.text is not None:
            return self._indirect(Val(qual=self._norm(f"builtins.{key.text}")), node)
        if base.items is not None and key.num is not None and -len(base.items) <= key.num < len(base.items):
            return base.items[key.num]
        if base.elem is not None and not base.items and key.num is not None:
            return base.elem  # glob.glob(pattern)[0]: one of the paths the pattern matches
        if base.qual == "sys.argv":
            return Val(flags=v.INPUT)
        if _personal_key(key):
            # row["pan"], or `r[k] for k in ("name", "ssn")`: a card number or an SSN, whoever's it is
            return Val(flags=(base.flags & v.FLOWING) | v.SECRET)
        if any(T.CREDENTIAL_NAME.search(k) for k in key.strings()):
            return Val(flags=(base.flags & v.FLOWING) | v.CREDENTIAL)  # cfg["csms"]["basic_auth_password"]
        # proc.info["pid"] of a process from process_iter() is still that process
        return Val(flags=base.flags & (v.FLOWING | v.PROCITER))

    def _dispatch_table(self, name: str, table: Val) -> Val | None:
        """What ``TABLE[key]`` calls when the key is only known at run time: any function stored in it."""
        stored = list(self._registries.get(name, ()))
        if table.keys:
            stored += [val for val in table.keys.values() if isinstance(val.func, _FuncSummary)]
        if not stored:
            return None
        return stored[0] if len(stored) == 1 else Val(func=_AnyOf(stored[:4]))

    def _indirect(self, val: Val, node: ast.AST) -> Val:
        """A dangerous callable fetched out of a namespace dict (globals(), vars(builtins))."""
        if val.qual in T.DANGEROUS_TARGETS:
            self._add(
                "python.indirect-call",
                RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"reaches {val.qual} indirectly through a namespace lookup",
                node,
            )
        return val

    def _e_lambda(self, node: ast.Lambda) -> Val:
        """A lambda is a function like any other: analysed now, and again with each call's arguments."""
        params = [a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]]
        if node.args.vararg:
            params.append(node.args.vararg.arg)
        if node.args.kwarg:
            params.append(node.args.kwarg.arg)
        body = ast.Return(value=node.body)
        ast.copy_location(body, node.body)
        func = ast.FunctionDef(name="<lambda>", args=node.args, body=[body], decorator_list=[], returns=None)
        ast.copy_location(func, node)
        ast.fix_missing_locations(func)
        summary = _FuncSummary("<lambda>", params)
        summary.node = func
        self._analyse_function(func, summary, params)
        return Val(func=summary)

    def _endless_comprehension(self, node: ast.ListComp | ast.SetComp | ast.DictComp) -> None:
        """``[os.fork() for _ in count()]``: a list built from an endless iterator never ends; forking in it is a
        fork bomb, anything else fills the memory."""
        forks = any(isinstance(n, ast.Call) and _call_name(n) in ("fork", "Popen", "Process") for n in ast.walk(node))
        if forks:
            self._add("python.fork-bomb", RiskLevel.CRITICAL, Category.RESOURCE,
                      "forks once per item of an endless iterator (fork bomb)", node)  # fmt: skip
        else:
            self._add("python.unbounded-growth", RiskLevel.HIGH, Category.RESOURCE,
                      "builds a collection from an endless iterator (memory exhaustion)", node)  # fmt: skip

    def _comprehension(self, gen: ast.comprehension) -> None:
        it = self._ev(gen.iter)
        self._comp_size = it.num
        self._comp_endless = self._comp_endless or it.qual in _ENDLESS_ITERATORS
        self._bind(gen.target, self._element(it))
        self._per_element += 1  # `if not p.write_bytes(b"")`: a condition runs once per item too
        try:
            for cond in gen.ifs:
                self._ev(cond)
        finally:
            self._per_element -= 1

    def _e_comp(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> Val:
        names: set[str] = set()
        for gen in node.generators:
            for n in ast.walk(gen.target):
                if isinstance(n, ast.Name):
                    names.add(n.id)
        scope = _Scope("function", names)
        self.scopes.append(scope)
        self._comp_endless = False
        try:
            for gen in node.generators:
                self._comprehension(gen)
            if self._comp_endless and not isinstance(node, ast.GeneratorExp):
                self._endless_comprehension(node)
            if isinstance(node, ast.DictComp):
                self._comp_rounds.append(1)  # (the key and the value run once per item, like a loop body)
                try:
                    key, value = self._ev(node.key), self._ev(node.value)
                finally:
                    self._comp_rounds.pop()
                flags = (key.flags | value.flags) & v.FLOWING
                # `{k: expanduser(p) for k, p in PATHS.items()}`: each known key holds any of the values
                keys = {t: value for t in key.strings()[: v.MAX_ALTS]} if key.strings() and value.strings() else None
                return Val(flags=flags, keys=keys)
            folded = self._fold_chr_comprehension(node)
            if folded is not None:
                return folded
            size = self._comp_size
            if not isinstance(node, ast.GeneratorExp) and size is not None and size >= T.BIG_MATERIALISED:
                self._add(
                    "python.big-allocation",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    f"builds a {size:,}-element collection in memory",
                    node,
                )
            mapped = self._map_comprehension(node)
            if mapped is not None:
                return mapped
            self._last_alloc = None
            self._per_element += 1  # the element expression runs once per item, like a loop body
            self._comp_rounds.append(size or 1)
            try:
                elt = self._ev(node.elt)
            finally:
                self._per_element -= 1
                self._comp_rounds.pop()
            each = self._last_alloc
            if size is not None and isinstance(node.elt, ast.Call) and _call_name(node.elt) in ("Thread", "Process"):
                self._task_flood(node.elt, count=size)  # `[Thread(target=hammer) for _ in range(2000)]`
            if (
                not isinstance(node, ast.GeneratorExp)
                and size is not None
                and each is not None
                and each < T.BIG_ALLOCATION <= each * size
            ):
                self._add(
                    "python.big-allocation",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    f"builds {size:,} buffers of {each:,} bytes each in memory",
                    node,
                )
            one_per_item = len(node.generators) == 1 and not node.generators[0].ifs
            return Val(flags=elt.flags & v.FLOWING, elem=elt, num=size if one_per_item else None)  # its length
        finally:
            self.scopes.pop()

    def _map_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp) -> Val | None:
        """``[shlex.join(s) for s in STEPS]`` over a small constant list: the list of results."""
        if len(node.generators) != 1 or node.generators[0].ifs:
            return None
        gen = node.generators[0]
        it = self._ev(gen.iter)
        items = it.items
        if items is None and it.text is not None and HOLE not in it.text and 0 < len(it.text) <= UNROLL_ITEMS:
            items = [Val(text=c) for c in it.text]  # `parts[k] for k in "abcd"`: a string yields its characters
        if not items or len(items) > UNROLL_ITEMS:
            return None
        results = []
        for item in items:
            self._bind(gen.target, item)
            results.append(self._ev(node.elt))
        return Val(items=results, flags=v.flowing(results))

    def _fold_chr_comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp) -> Val | None:
        # [chr(c) for c in [111, 115]] spells out a string one code point at a time
        if len(node.generators) != 1 or isinstance(node, ast.SetComp):
            return None
        gen = node.generators[0]
        elt = node.elt
        if not (isinstance(elt, ast.Call) and isinstance(elt.func, ast.Name) and elt.func.id == "chr"):
            return None
        it = self._ev(gen.iter)
        if it.items is None or not all(i.num is not None for i in it.items):
            return None
        try:
            text = "".join(chr(i.num) for i in it.items if i.num is not None)
        except (ValueError, OverflowError):
            return None
        return Val(items=[Val(text=c) for c in text], flags=v.DECODED)

    def _e_namedexpr(self, node: ast.NamedExpr) -> Val:
        val = self._ev(node.value)
        self._bind(node.target, val)
        return val

    def _e_await(self, node: ast.Await) -> Val:
        return self._ev(node.value)

    def _e_yield(self, node: ast.Yield | ast.YieldFrom) -> Val:
        val = self._ev(node.value) if node.value is not None else UNKNOWN
        if isinstance(node, ast.YieldFrom):
            val = self._element(val)
        if self.functions and len(self.functions[-1].yields) < v.MAX_ALTS:
            self.functions[-1].yields.append(val)
        return UNKNOWN

    def _e_starred(self, node: ast.Starred) -> Val:
        return self._ev(node.value)

    def _element(self, it: Val) -> Val:
        if it.elem is not None and it.items:
            # a listing joined with constant elements: any of them
            strings = [t for i in it.items for t in i.strings()] + it.elem.strings()
            quals = {i.qual for i in it.items} | {it.elem.qual}
            return Val(
                text=strings[0] if strings else None,
                alts=tuple(strings[: v.MAX_ALTS]) if strings else None,
                qual=quals.pop() if len(quals) == 1 else None,
                flags=it.elem.flags | v.flowing(it.items),
            )
        if it.elem is not None:
            return it.elem
        tuples = it.items or []
        width = len(tuples[0].items or ()) if tuples else 0
        if width and all(i.items is not None and len(i.items) == width for i in tuples):
            # `for k, p in paths.items()`: tuples of the same shape, each position any of its values
            columns = zip(*(i.items or () for i in tuples), strict=True)
            return Val(items=[self._element(Val(items=list(column))) for column in columns],
                       flags=v.flowing(tuples))  # fmt: skip
        if it.items:
            strings = [s for i in it.items for s in i.strings()]
            flags = v.flowing(it.items)
            if strings and len(strings) >= len(it.items) / 2:
                # `for p in [Path.home() / "a", ..., *globbed]`: the loop variable is any of these paths
                quals = {i.qual for i in it.items if i.strings()}
                qual = quals.pop() if len(quals) == 1 else None
                return Val(text=strings[0], alts=tuple(strings[: v.MAX_ALTS]), flags=flags, qual=qual)
            nums = [i.num for i in it.items]
            if len(set(nums)) > 1 and all(isinstance(n, int) for n in nums):
                # `for port in (514, 6514):` the loop variable is any of these numbers, as `str(port)` spells it
                spelled = tuple(str(n) for n in nums[: v.MAX_ALTS])
                return Val(text=spelled[0], alts=spelled, flags=flags)
            return Val(flags=flags, num=nums[0] if len(set(nums)) == 1 else None)
        if it.qual == "builtins.open()":
            return Val(flags=(it.flags & v.FLOWING) | v.LINE)  # `for pw in wordlist:` one line after another
        if it.text is not None and it.qual is None:
            return Val(flags=it.flags & v.FLOWING)
        if it.qual is not None and it.qual.endswith(
            ("WebSocketResponse()", "WebSocket()", "ClientWebSocketResponse()")
        ):
            return Val(flags=v.NET)  # each message is what the other end sent
        if it.qual is not None and it.qual.startswith(_MESSAGE_CONSUMERS):
            return Val(flags=v.NET)  # each record is what some producer on the broker sent
        if it.qual is not None and it.qual.startswith((*T.CLOUD_PREFIXES, *T.DATA_SERVICE_PREFIXES, "fabric.")):
            # `for bucket in s3.buckets.all()`: each element is an object of the same SDK
            return Val(qual=it.qual.rstrip("()") + "[]()", flags=it.flags & v.FLOWING)
        return Val(flags=it.flags & v.FLOWING)

    # ----------------------------------------------------------------- calls
    def _e_call(self, node: ast.Call) -> Val:
        if isinstance(node.func, ast.IfExp):
            # `(shutil.rmtree if p.is_dir() else os.remove)(p)`: either function may be the one called
            self._ev(node.func.test)
            branches = [ast.Call(func=branch, args=node.args, keywords=node.keywords) for branch in
                        (node.func.body, node.func.orelse)]  # fmt: skip
            for branch_call in branches:
                ast.copy_location(branch_call, node)
            first = self._e_call(branches[0])
            self._e_call(branches[1])
            return first
        func = self._ev(node.func)
        args: list[Val] = []
        for a in node.args:
            val = self._ev(a)
            # f(*parts): the elements are the arguments, when the list is known
            args.extend(val.items if isinstance(a, ast.Starred) and val.items is not None else [val])
        kwargs: dict[str, Val] = {}
        star_flags = 0
        for kw in node.keywords:
            val = self._ev(kw.value)
            if kw.arg is None:
                star_flags |= val.flags
            else:
                kwargs[kw.arg] = val
        fallback = kwargs.get("fallback") if isinstance(node.func, ast.Attribute) and node.func.attr in (
            "get", "getint", "getfloat", "getboolean"
        ) else None
        if fallback is not None and fallback.text is not None:
            # `cfg.get("storage", "folder", fallback="/var/lib/radicale/collections")`: the setting, or that
            options = tuple(dict.fromkeys([*fallback.strings(), HOLE]))[: v.MAX_ALTS]
            return Val(text=options[0], alts=options, qual=fallback.qual, flags=fallback.flags & v.FLOWING)
        if fallback is not None and fallback.num is not None:
            return Val(num=fallback.num)  # `cfg.getint("retention", "keep_days", fallback=0)`: unset, that number
        if isinstance(func.func, _Partial):
            bound = func.func
            func, args, kwargs = bound.target, [*bound.args, *args], {**bound.kwargs, **kwargs}
        if isinstance(func.func, _AnyOf):
            results = [self._call_local(c.func, args, kwargs, node) for c in func.func.choices
                       if isinstance(c.func, _FuncSummary)]  # fmt: skip
            return Val(flags=v.flowing(results))
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and isinstance(node.func.value, ast.Name)
            and args
            and args[0].text is None
        ):
            dispatched = self._dispatch_table(node.func.value.id, func.base or UNKNOWN)
            if dispatched is not None:
                return dispatched  # HANDLERS.get(kind): any handler stored in it
        if isinstance(func.func, _MethodCaller) and args:
            caller, obj = func.func, args[0]
            if isinstance(obj.func, _Instance) and caller.name in obj.func.cls.methods:
                func = Val(func=obj.func.cls.methods[caller.name], base=obj)
            else:
                qual = self._norm(f"{obj.qual}.{caller.name}") if obj.qual else None
                func = Val(qual=qual, base=obj)
            args, kwargs = list(caller.args), dict(caller.kwargs)
        q = func.qual
        kinds = _library_kinds(q) if q is not None else 0
        self._sql(node, args, q)
        if isinstance(node.func, ast.Attribute):
            self._server_method(node.func.attr, args, kwargs, node)
            if node.func.attr in ("append", "extend") and node.args and self._endless_loop_here() and (
                self._chunk_size(node.args[0]) >= _HUGE_CHUNK
            ):
                # `while True: held.append(bytearray(512 << 20)); time.sleep(0.01)`: however paced, nothing is freed
                self._add("python.unbounded-growth", RiskLevel.HIGH, Category.RESOURCE,
                          "keeps hundreds of megabytes more in every round of an endless loop (memory exhaustion)",
                          node)  # fmt: skip
            remote = bool(kinds & (_NETWORK | _CLOUD))
            if node.func.attr.startswith("upload") and remote:
                self._uploaded_tree(node.func.attr, args, kwargs, node)
        local_target = bool(args) and (args[0].text or "").startswith(("localhost", "127.", "::1"))
        if kinds & _ATTACK and not local_target:
            self._add("python.attack-tool", RiskLevel.HIGH, Category.NETWORK,
                      f"{q} attacks another machine (remote execution, credential dumps, exploits)", node)  # fmt: skip
        if q is not None and kinds & _IAC and q.rsplit(".", 1)[-1][:1].isupper():
            # (`[aws.ec2.Instance(f"w-{i}", …) for i in range(500)]`: a comprehension declares one per round)
            declared = (max((loop.count or 0 for loop in self.loops), default=0) or 1) * math.prod(self._comp_rounds)
            if _open_ingress(kwargs):
                self._add("python.cloud-exposure", RiskLevel.HIGH, Category.NETWORK,
                          f"{q.rsplit('.', 1)[-1]} opens every port, or a login or database port, to the whole "
                          "internet (0.0.0.0/0)", node)  # fmt: skip
            if declared >= MASS_COUNT or any(loop.huge for loop in self.loops):
                self._add("python.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                          f"declares {declared or 'thousands of'} {q.rsplit('.', 1)[-1]} resources in a loop",
                          node)  # fmt: skip
        shipped = 0
        if q is not None and kinds & _CLOUD:
            shipped = self._cloud_call(q, args, kwargs, node)
        if q is not None and kinds & (_CLOUD | _NETWORK):
            self._upload(q, args, kwargs, node)
        if q is not None and kinds & _DATA_SERVICE:
            self._data_service_call(q, args, kwargs, node)
        self._unsafe_loader_kwargs(kwargs, node)
        if "command" in kwargs:
            self._remote_shell_command(q, kwargs["command"], node)
        elif kinds & _NETWORK and any(kwargs.get(k, UNKNOWN).keys for k in ("json", "data")):
            # a command line in a request's body (`post(f"{API}/agents/{id}/cmd/", json={"cmd": CMD, …})`): a
            # management API runs it on the machine it names
            body = next(kwargs[k].keys for k in ("json", "data") if kwargs.get(k, UNKNOWN).keys)
            for key in ("cmd", "command"):
                if body is not None and key in body:
                    self._remote_shell_command(q, body[key], node)
        elif args and isinstance(node.func, ast.Attribute) and node.func.attr in ("exec_run", "execute") and (
            (q or "").startswith(_CONTAINER_SDKS) or _shell_argv(args[0])
        ):
            # `container.exec_run(CMD)`, pylxd's `instance.execute(argv)`, or any `x.execute(["sh", "-c", CODE])`
            self._remote_shell_command(q, args[0], node)
        tail = q[q.rfind(".") + 1 :] if q is not None else ""
        if "allow_dangerous_deserialization" in kwargs and kwargs["allow_dangerous_deserialization"].num == 1:
            # LangChain's FAISS/pickle stores: the index file is unpickled (it can run code)
            fetched = any(a.flags & v.NET or any(self._fetched(t) for t in a.strings()) for a in args)
            # `FAISS.from_texts(…).save_local(DIR)` … `load_local(DIR, …)`: the index this code builds in the project
            own = ".save_local(" in self._code and bool(args) and bool(args[0].strings()) and all(
                paths.classify(t).kind in _SCRATCH_KINDS for t in args[0].strings()
            )
            level = RiskLevel.CRITICAL if fetched else RiskLevel.MEDIUM if own else RiskLevel.HIGH
            self._add("python.deserialization", level,
                      Category.DESERIALIZATION, "loads a vector store with pickle deserialization allowed"
                      + (" from a download" if fetched else " (one this code builds itself)" if own
                         else " (a shared index can run code)"), node)  # fmt: skip
        if tail in _TREE_READERS and any(
            paths.classify(t).kind in (paths.PathKind.HOME_TOP, paths.PathKind.ROOT)
            for a in [*args[:1], kwargs.get("input_dir", UNKNOWN), kwargs.get("path", UNKNOWN)] for t in a.strings()
        ):
            self._add("python.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} reads every file of the home or the machine (keys and tokens included) into documents",
                      node)  # fmt: skip
        pool = tail == "Pool" and q in ("multiprocessing.Pool", "multiprocessing.pool.Pool")
        processes = kwargs.get("processes", args[0] if args else UNKNOWN).num if pool else None
        if pool and (processes or 0) >= 128:
            self._add("python.fork-storm", RiskLevel.HIGH, Category.RESOURCE,
                      f"starts a pool of {processes} processes (far more than the machine's cores)", node)  # fmt: skip
        if q in _TEMPLATE_CONSTRUCTORS and args and args[0].flags & (v.NET | v.INPUT | v.DECODED):
            self._add("python.remote-code", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{q} compiles a template received from the network or a user (templates run code: SSTI)",
                      node)  # fmt: skip
        if tail in _REMOTE_DEBUGGERS and q is not None and q.startswith(_REMOTE_DEBUGGERS[tail]):
            self._remote_debugger(q, args, kwargs, node)
        if tail == "FastMCP" and kwargs.get("host", UNKNOWN).text in ("0.0.0.0", "::"):
            self._listens("0.0.0.0", node)  # an MCP server on every interface: anyone may call its tools
        if q in ("mmap.mmap", "ctypes.windll.kernel32.VirtualAlloc", "ctypes.CDLL().mprotect") and any(
            flag in ast.unparse(node) for flag in ("PROT_EXEC", "PAGE_EXECUTE", "0x40")
        ):
            self._exec_memory = True  # memory that may hold machine code
        if func.func is not None and isinstance(func.func, _FuncSummary):
            receiver = func.base if func.base is not None and isinstance(func.base.func, _Instance) else None
            return self._call_local(func.func, args, kwargs, node, receiver)
        if isinstance(func.func, _ClassInfo):
            return self._instantiate(func.func, args, kwargs, node)
        self._callbacks(q, node, args, kwargs)
        self._mail(q, node, kwargs)
        if self._mentions_hypervisor and isinstance(node.func, ast.Attribute):
            self._hypervisor(node.func.attr, node, args, kwargs)
        if self._mentions_sharing and isinstance(node.func, ast.Attribute):
            self._sharing(node.func.attr, node)
        if (
            self._mentions_vehicles
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("post", "put", "patch", "publish", "request", "send")
            and vehicle_command(" ".join(self._argument_constants(node)))
        ):
            what = f"{node.func.attr} sends a remote command that immobilises, stops or unlocks vehicles"
            self._add("python.vehicle-command", RiskLevel.HIGH, Category.PROCESS, what, node)
        if self._mentions_field and isinstance(node.func, ast.Attribute):
            call = ast.unparse(node) if node.func.attr in ("write", "Write") else ""
            # (pycomm3's and pylogix's `plc.write(tag, value)` sets a tag of a Logix controller)
            logix = node.func.attr in ("write", "Write") and re.search(r"\b(?:LogixDriver|SLCDriver|PLC)\(", self._code)
            if field_write(node.func.attr, call) or logix:
                local = local_devices(self._code)
                self._add("python.field-device", RiskLevel.MEDIUM if local else RiskLevel.HIGH, Category.PROCESS,
                          f"{node.func.attr} changes what a field device does (a PLC, a drive, a controller)"
                          + (" (a simulator or bench device here)" if local else ""), node)  # fmt: skip
        if isinstance(node.func, ast.Attribute) and self._in_loop() and _API_DELETE.search(node.func.attr):
            self._api_deletes(q, node, kwargs)
            if node.func.attr == "delete" and _is_network(q or "") and any(
                "/zones/" in t for t in _all_strings(args[:1])
            ) and not self._name_filters:
                # `for z in get(f"{api}/zones").json(): delete(f"{api}/zones/{z['id']}")`: a DNS server's every zone
                self._add("python.dns", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"{q} deletes every DNS zone a listing gives (their names stop resolving)", node)  # fmt: skip
        if (
            (q or "").startswith("twilio.")
            and (q or "").endswith("messages.create")
            and self._in_loop()
            and not v.constant(kwargs.get("to", UNKNOWN))
            and not _OPT_OUTS.search(self._code)  # reminders to people who agreed, opt-outs skipped
            and not self._filtered_loop(node)  # the few a test picks (a sensor past its threshold)
            and not self._row_reminder(node)
        ):
            self._add("python.bulk-message", RiskLevel.HIGH, Category.NETWORK,
                      "texts every number a list gives (bulk SMS)", node)  # fmt: skip
        rounds = math.prod(loop.count or 1 for loop in self.loops)
        if (
            (q or "").startswith("twilio.")
            and (q or "").endswith(("calls.create", "messages.create"))
            and rounds >= MASS_COUNT
            and v.constant(kwargs.get("to", UNKNOWN))
        ):
            self._add("python.bulk-message", RiskLevel.HIGH, Category.NETWORK,
                      f"calls or texts one number {rounds:,} times (harassment, and a bill)", node)  # fmt: skip
        if (
            self._in_loop()
            and isinstance(node.func, ast.Attribute)
            and node.func.attr.startswith("update")
            and NUMBER_ROUTE.search(" ".join(self._argument_constants(node)))
        ):
            what = "points every phone number's calls or texts at another URL (a listing's numbers)"
            self._add("python.telephony", RiskLevel.HIGH, Category.NETWORK, what, node)
        platform = self._platform(q, node, args, kwargs)
        if kinds & _CRM:
            platform |= self._crm_records(q or "", args)
        self._taint_through_method(node, func, args)
        if isinstance(node.func, ast.Attribute) and args and args[0].flags & (v.NET | v.DECODED):
            self._embedded_interpreter(q, node.func.attr, args[0], node)
        if (
            self._mentions_nox
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("run", "run_always", "run_install")
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "session"
            and args
        ):
            return self._argv_call(f"session.{node.func.attr}", args, node, {})  # nox: an argument vector, run
        if kwargs.keys() & _WORKER_COUNTS:
            self._cluster_size(kwargs, node)
        if self.loops and (
            (isinstance(node.func, ast.Attribute) and node.func.attr in _TASK_STARTERS)
            or (q in _THREAD_STARTERS and any(k.arg == "target" for k in node.keywords))
        ):
            self._task_flood(node)
        if (
            args
            and args[0].flags & v.OWNPID
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("append", "add")
            and isinstance(node.func.value, ast.Name)
        ):
            self._own_pid_containers.add(node.func.value.id)  # `pids.append(proc.pid)`
        queried = shipped | platform | (
            v.SECRET
            if isinstance(node.func, ast.Attribute) and self._reads_credentials_table(node.func.attr, args)
            else 0
        )
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr in _WHOLE_QUERYSET
            and isinstance(node.func.value, (ast.Attribute, ast.Call))
            and ".objects" in self._code
            and _PEOPLE_MANAGER.search(ast.unparse(node.func.value))
        ):
            # `User.objects.all()`, `Customer.objects.values_list("email", …)`: a whole table of people (asked
            # for some fields only, when they identify or reach them)
            fields = _all_strings(args)
            if not fields or personal_fields(",".join(fields)) or any(_CONTACT_FIELD.fullmatch(f) for f in fields):
                queried |= v.DUMP
        if queried & v.SECRET and func.base is not None and (func.base.qual or "").endswith(".cursor()"):
            self._taint_aliases(func.base, v.SECRET)  # `cur.execute(query)`, then `cur.fetchall()` returns the rows
        if kinds & _NETWORK and any(
            credential_metadata_url(t) for t in _all_strings(args[:1]) + _all_strings(kwargs.values())
        ):
            queried |= v.SECRET
            self._add(
                "python.secret-read",
                RiskLevel.HIGH,
                Category.EXFILTRATION,
                "asks the instance metadata service for the machine's cloud credentials",
                node,
            )
        if (
            kinds & _NETWORK
            and args
            and any(_BULK_DELETE_URL.search(t) for t in args[0].strings())
            and any(isinstance(n, (ast.ListComp, ast.GeneratorExp)) for k in node.keywords for n in ast.walk(k.value))
        ):
            # `post(".../object/delete", json={"Objects": [{"ArtifactID": i} for i in ids]})`: what a query returned
            self._add("python.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{q} deletes, in one request, every object a listing or query gave", node)  # fmt: skip
        if kinds & _NETWORK and self._mentions_ota:
            firmware = foreign_firmware(" ".join(_all_strings([*args, *kwargs.values()])))
            if firmware:
                self._add("python.device", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                          f"has devices flash firmware from an unknown server ({firmware})", node)  # fmt: skip
        if (
            kinds & _NETWORK
            and args
            and args[0].flags & v.DECODED
            and (len(args) > 1 or bool(kwargs.keys() & {"data", "json", "files"}))
            and any("://" in t and not loopback_url(t) for t in args[0].strings())
        ):
            # `Request(base64.b64decode(_e).decode(), data=…)`: the destination hidden from a reader of the code
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} sends data to an address the code hides (decoded at run time)", node)  # fmt: skip
        if kinds & _NETWORK and any(datastore_file_url(t) for t in _all_strings(args[:1])):
            queried |= v.SECRET  # a guest's disk or memory: its keys and data, whoever it is sent to next
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "environ"
            and func.base is not None
            and (func.base.flags & v.PROCITER or (q or "").startswith("psutil."))
            and self._in_loop()
        ):
            queried |= v.SECRET  # every process's environment: the API keys and tokens they were started with
            self._add("python.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                      "reads the environment of every process (the keys and tokens they hold)", node)  # fmt: skip
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr in _LOG_METHODS
            and self._fast_endless_loop()
            and _LOGS_TO_FILE.search(self._code)
        ):
            self._add("python.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      f"{node.func.attr} logs to a file in an endless loop that never pauses (fills the disk)",
                      node)  # fmt: skip
        if (
            isinstance(node.func, ast.Attribute)
            and node.func.attr == "write"
            and args
            and args[0].flags & (v.ENV | v.SECRET)
            and _dotted(node.func.value).endswith("wfile")
        ):
            self._secrets_served = True  # an HTTP handler's response: whoever sends the request reads it
        if q is None:
            # `browser.launch_persistent_context("~/.config/google-chrome")`: a secret path handed over
            if isinstance(node.func, ast.Attribute) and self._secret_arguments(node.func.attr, args, kwargs, node):
                queried |= v.SECRET
            if (
                isinstance(node.func, ast.Attribute)
                and node.func.attr in ("cookies", "get_cookies", "storage_state")
                and _ATTACHED_BROWSER.search(self._code)
            ):
                # the user's own running browser, attached over its debugging port: every site's session
                queried |= v.SECRET
                self._add("python.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          "reads the cookies of the user's running browser (attached over its debugging port)",
                          node)  # fmt: skip
            view = self._dict_view(node.func.attr, func.base) if isinstance(node.func, ast.Attribute) else None
            if view is not None:
                return view
            if (
                isinstance(node.func, ast.Attribute)
                and node.func.attr == "refresh"
                and args
                and (args[0].qual or "").startswith("google.auth.transport.")
            ):
                # google-auth exchanging a stored refresh token at Google's token endpoint: where it belongs
                self._add("python.secret-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          "refreshes a stored OAuth token at its issuer (google-auth)", node)  # fmt: skip
            if isinstance(node.func, ast.Attribute):
                self._session_call(node.func.attr, node)
                self._saved_in_place(node.func.attr, args, node)
                queried |= self._notebook_utilities(_dotted(node.func), kwargs, args, node)
            if isinstance(node.func, ast.Attribute) and node.func.attr in ("Screenshot", "ScreenshotArea",
                                                                          "ScreenshotWindow"):
                self._c_capture(f"D-Bus {node.func.attr}", func, args, kwargs, node)  # GNOME Shell's screenshots
                queried |= v.SECRET
            if (
                isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and func.base is not None
                and not (func.base.qual or "").startswith(("os.", "requests", "httpx", "urllib", "aiohttp"))
                and args
                and _personal_key(args[0])
            ):
                # `row.get("iban")`, `r.get(f) for f in ("company", "iban")`: someone's bank account or card number
                return Val(flags=(func.base.flags & v.FLOWING) | v.SECRET)
            if func.base is not None and func.base.qual is None and isinstance(node.func, ast.Attribute):
                self._method_on_unknown(node.func.attr, func.base, args, node)
                looked_up = self._mapping_get(node.func.attr, func.base, args)
                if looked_up is not None:
                    return looked_up
                if (
                    node.func.attr in ("get", "findtext", "getAttribute", "get_attribute")
                    and args
                    and any(T.CREDENTIAL_NAME.search(t) for t in args[0].strings()[:1])
                ):
                    # `device.findtext("Password")`, `row.get("api_token")`: a stored credential, whoever's it is
                    return Val(flags=(func.base.flags & v.FLOWING) | v.CREDENTIAL)
            if isinstance(node.func, ast.Attribute) and func.base is not None and node.func.attr in _BYTES_IO:
                # `p = tmp_path / "x.pkl"`: a path object of unknown type, written then read back by this code
                keys = {*func.base.strings(), ast.unparse(node.func.value)}  # its path, or the name holding it
                if node.func.attr in ("write_bytes", "write_text"):
                    self._self_written.update(keys)
                elif node.func.attr in ("read_bytes", "read_text") and keys & self._self_written:
                    return Val(flags=v.LOCALFILE)
            flags = v.flowing(args) | v.flowing(kwargs.values()) | (func.flags & v.FLOWING) | (star_flags & v.FLOWING)
            if isinstance(node.func, ast.Attribute) and node.func.attr.startswith(_KEY_USES):
                flags &= ~v.CREDENTIAL  # a signature, a digest or a transaction made with a key does not reveal it
            if isinstance(node.func, ast.Attribute) and func.base is not None and func.base.text is not None:
                return self._string_method(node.func.attr, func.base, args, flags, kwargs)
            return Val(flags=flags | queried)
        printing = q in ("builtins.print", "sys.stdout.write")
        credential = any(a.flags & v.CREDENTIAL and not a.flags & v.NET for a in args)  # not a response's fields
        if printing and credential and _ENCODED.search(self._code):
            # `print(b64encode(b64encode(token)))` in a CI job: the log's secret masking no longer recognises it
            what = "prints a credential encoded or reshaped (a CI log's secret masking misses it)"
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION, what, node)
        if q in _ROUND_TRIP_CALLS:
            stored = self._round_trip(q, func, args)
            if stored is not None:
                return stored  # what this program wrote to the file a moment ago, read back
        handler = _CALLS.get(q)
        result: Val | None = None
        if handler is not None:
            result = handler(self, q, func, args, kwargs, node)
        else:
            result = self._generic_call(q, func, args, kwargs, node)
        self._after_call(q, func, args, kwargs, node)
        if queried:
            result = _with_flags(result or Val(qual=T.INSTANCE_FACTORIES.get(q)), queried)
        if result is None:
            # (a connection or client made with a password does not hand the password back with its results)
            given = v.flowing(val for k, val in kwargs.items() if k not in _LOGIN_KWARGS)
            flags = v.flowing(args) | given | (func.flags & v.FLOWING) | (star_flags & v.FLOWING)
            if q.rsplit(".", 1)[-1] in _DATABASE_CONNECTORS:
                flags &= ~(v.SECRET | v.CREDENTIAL)  # its rows come from the database, not from how it logged in
            factory = T.INSTANCE_FACTORIES.get(q)
            if (
                factory is None
                and not q.endswith("()")
                and (q.rsplit(".", 1)[-1][:1].isupper() or q.startswith(T.CLIENT_PREFIXES))
            ):
                factory = q + "()"  # an instance (a class, or a connection/client from a network call)
            result = Val(qual=factory, flags=flags)
        if q.startswith("kubernetes."):
            result = self._kubernetes_call(q, args, kwargs, node, result)
        if q in ("os.fork", "os.forkpty"):
            result = _with_flags(result, v.OWNPID)  # the child's pid (killing it later stops its own child)
        if q.startswith(T.MODEL_CLIENT_PREFIXES) and q.rsplit(".", 1)[-1] in T.MODEL_CALLS:
            result = _with_flags(result, v.NET)  # a model's answer, from a remote service (and whatever it read)
        if (("files" in q or "messages()" in q) and _DOCUMENT_DOWNLOAD.search(q) and self._in_loop()) or q.endswith(
            "connections().list"
        ):
            # every document or mail a listing gives, everyone in the address book: people's data in bulk
            result = _with_flags(result, v.DUMP)
        if _is_network(q) and any(_MAILBOX_API.search(u) for u in _all_strings(args[:1])):
            result = _with_flags(result, v.DUMP)  # a mailbox's messages or attachments, read over its API
        if q.endswith(("messages().batchDelete", "team_members_set_admin_permissions")) or (
            _is_network(q) and self._in_loop() and any("/permanentDelete" in u for u in _all_strings(args[:1]))
        ):
            admin = q.endswith("set_admin_permissions")
            self._add("python.identity" if admin else "python.data-destroy", RiskLevel.HIGH,
                      Category.PRIVILEGE if admin else Category.FILESYSTEM,
                      f"{q} " + ("makes a team member an administrator" if admin
                                 else "deletes mail for good (past the trash)"), node)  # fmt: skip
        if _is_network(q) and any(_GRAPH_SUBSCRIPTION.search(u) for u in _all_strings(args[:1])):
            body = kwargs.get("json", kwargs.get("data", UNKNOWN)).keys or {}
            target = body.get("notificationUrl", UNKNOWN).text or ""
            watched = body.get("resource", UNKNOWN).text or ""
            if "messages" in watched.lower() and "://" in target and not re.search(r"microsoft|azure", target):
                what = f"subscribes {target.split('/')[2]} to every new mail of a mailbox (Graph)"
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION, what, node)
        if _is_network(q) and any("/global-init-scripts" in u for u in _all_strings(args[:1])):
            # a Databricks global init script: it runs as root on every node of every cluster at start
            script = (kwargs.get("json", UNKNOWN).keys or {}).get("script", UNKNOWN).text or ""
            with contextlib.suppress(ValueError, UnicodeDecodeError):
                script = base64.b64decode(script, validate=True).decode()  # (the API takes it base64-encoded)
            self._add("python.persistence", RiskLevel.MEDIUM, Category.PERSISTENCE,
                      "registers a script every cluster node runs as root at start (a global init script)",
                      node)  # fmt: skip
            if script:
                self._later_shell(script, node, "a global init script")
        if q.endswith("create_grant") and re.search(r"arn:aws:iam::\d{12}:root", ast.unparse(node)):
            self._add("python.cloud-control", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{q} lets a whole AWS account use a key (decrypt what it protects)", node)  # fmt: skip
        if _is_network(q) and any("api.github.com/gists" in u for u in _all_strings(args[:1])):
            gist = kwargs.get("json", UNKNOWN)
            public = (gist.keys or {}).get("public", UNKNOWN).num == 1
            if public and v.flowing([gist]) & (v.NET | v.SECRET | v.CREDENTIAL | v.DUMP):
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          "publishes data fetched from a service or secret data in a public gist", node)  # fmt: skip
        if q.endswith("MediaIoBaseDownload") and len(args) >= 2:
            self._taint_aliases(args[0], args[1].flags & v.FLOWING)  # the download fills the buffer it is given
        return result

    def _configured_base(self, node: ast.Call) -> bool:
        """The address starts with a base URL the program reads from its environment (`f"{JENKINS}/job/{name}"`,
        `JENKINS = os.environ["JENKINS_URL"]`): a client picks a path below it, not the host."""
        url = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "url"), None)
        parts = url.values if isinstance(url, ast.JoinedStr) else []
        first = parts[0] if len(parts) >= 2 else None
        # (`f"{BASE}{path}"` lets the client finish the host name: only a "/" right after the base pins it)
        pinned = len(parts) >= 2 and isinstance(parts[1], ast.Constant) and str(parts[1].value).startswith("/")
        name = first.value.id if isinstance(first, ast.FormattedValue) and isinstance(first.value, ast.Name) else None
        name = name if pinned else None
        return name is not None and re.search(
            rf"^{re.escape(name)}\s*=\s*os\.(?:environ|getenv)\b", self._code, re.MULTILINE
        ) is not None

    def _remote_debugger(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """A debugger or a remote interpreter listening on every interface: whoever connects runs code here."""
        first = args[0] if args else UNKNOWN
        host = (first.items[0].text if first.items else first.text) if q.startswith(("debugpy", "ptvsd")) else None
        host = host if host is not None else (kwargs.get("hostname") or kwargs.get("host") or UNKNOWN).text
        if q.endswith("RemotePdb") and args:
            host = args[0].text
        service = (first.qual or first.text or "") if q.startswith("rpyc") else "classic"
        if host in ("0.0.0.0", "", "::") and ("Classic" in service or "Slave" in service or not q.startswith("rpyc")):
            self._add("python.remote-code", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{q} lets anyone who reaches this machine run code in it (a debugger or remote interpreter "
                      "on every interface)", node)  # fmt: skip

    def _kubernetes_call(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call, result: Val) -> Val:
        """The Python client's model objects keep their fields (``V1Pod(spec=V1PodSpec(host_pid=True))``), and an
        object created, patched or replaced through the API is judged as its manifest."""
        method = q.rsplit(".", 1)[-1]
        if method.startswith("V1") and kwargs and result.keys is None:
            return Val(qual=result.qual, flags=result.flags, keys={_camel(k): val for k, val in kwargs.items()})
        if method.startswith(("create_", "patch_", "replace_")) or method in ("create_from_dict", "create_from_yaml"):
            body = kwargs.get("body") or next((a for a in reversed(args) if a.keys), None)
            if body is not None and body.keys:
                self._manifest(_render_json(body), node)
            elif method in ("create_from_dict", "create_from_yaml"):
                document = self._loaded_document(node)
                if document:
                    self._manifest(document, node)  # `create_from_dict(api, yaml.safe_load(TEMPLATE))`
        return result

    def _loaded_document(self, node: ast.Call) -> str | None:
        """The text a call's argument parses (``yaml.safe_load(manifest)``), when it is spelled in the code."""
        for arg in node.args:
            if isinstance(arg, ast.Call) and arg.args and self._ev_qual(arg.func) in _LOADS:
                source = arg.args[0]
                text = self._lookup(source.id).text if isinstance(source, ast.Name) else None
                if text is None and isinstance(source, ast.Constant) and isinstance(source.value, str):
                    text = source.value
                if text:
                    return text
        return None

    def _pickle_listener(self, q: str, args: list[Val], node: ast.Call) -> None:
        """multiprocessing.connection.Listener on every interface: recv() unpickles whatever arrives."""
        if q.endswith("connection.Listener") and args and args[0].items:
            host = args[0].items[0].text
            if host in ("0.0.0.0", "", "::"):
                self._add("python.deserialization", RiskLevel.HIGH, Category.DESERIALIZATION,
                          "a multiprocessing Listener on every interface unpickles what clients send",
                          node)  # fmt: skip

    def _foreign_storage(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """An S3 client pointed at someone else's endpoint: what it uploads leaves for a third party."""
        if not self._foreign_store and not q.startswith("boto3."):
            return
        endpoint = kwargs.get("endpoint_url", UNKNOWN).text or ""
        if q in ("boto3.client", "boto3.resource", "boto3.session.Session().client") and foreign_endpoint(endpoint):
            self._foreign_store = True
            self._storage_endpoint = endpoint
        key = kwargs.get("aws_access_key_id", UNKNOWN).text or ""
        if q in ("boto3.client", "boto3.resource", "boto3.Session", "boto3.session.Session") and re.fullmatch(
            r"(?:AKIA|ASIA)[A-Z0-9]{12,}", key
        ):
            self._foreign_store = True  # keys spelled in the code: an account the code brings along, not this one
        method = q.rsplit(".", 1)[-1]
        if self._foreign_store and method in ("upload_file", "upload_fileobj", "put_object", "copy_object", "copy"):
            # (asking the store to encrypt what it keeps is what its owner does for backups: the organisation's own)
            bucket = kwargs.get("Bucket", args[1] if len(args) > 1 and method.startswith("upload") else UNKNOWN)
            # (a backup bucket of the account the code brings its own keys for is that account's, not this one's)
            own_keys = re.search(r"\b(?:AKIA|ASIA)[A-Z0-9]{12,}", self._code) is not None
            encrypted = "ServerSideEncryption" in self._code or (
                not own_keys and any(own_backup_store(b, self._storage_endpoint) for b in bucket.strings())
            )
            self._add("python.exfiltration", RiskLevel.MEDIUM if encrypted else RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{method} sends data to a storage endpoint of another host"
                      + (" (encrypted at rest there, or a backup bucket: a store of the organisation's own)"
                         if encrypted else " (a third party's)"), node)  # fmt: skip

    def _remote_code_kwargs(self, q: str, kwargs: dict[str, Val], node: ast.Call) -> None:
        """``from_pretrained(..., trust_remote_code=True)``: the model repository's Python code runs here."""
        if not kwargs:
            return
        if kwargs.get("trust_remote_code", UNKNOWN).num == 1:
            self._add("python.remote-code", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{q.rsplit('.', 1)[-1]} with trust_remote_code=True runs the repository's Python code",
                      node)  # fmt: skip
        host = kwargs.get("host", kwargs.get("dashboard_host", UNKNOWN)).text or ""
        dashboard = kwargs.get("dashboard_address", UNKNOWN).text or ""
        if q.startswith(("ray.", "dask.", "distributed.")) and (host == "0.0.0.0" or dashboard.startswith("0.0.0.0")):
            self._add("python.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "a compute cluster that runs submitted code listens on every interface without auth",
                      node)  # fmt: skip

    def _client_sinks(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """What a web client's input reaches: templates (code), file paths, URLs, allocation sizes."""
        first = args[0] if args else UNKNOWN
        if not (first.flags & v.NET) or first.flags & v.LOCALFILE:
            return
        handlers = [f for f in self.functions if f.handler]
        if not handlers:
            return
        method = q.rsplit(".", 1)[-1]
        handler = handlers[-1].node
        source = self._handler_sources.get(id(handler)) if handler is not None else ""
        if source is None and handler is not None:
            source = self._handler_sources[id(handler)] = ast.unparse(handler)
        if _GUARD.search(source or ""):
            return  # the handler checks the path or host against an allow-list before using it
        if q in T.TEMPLATE_RENDERERS or method in ("from_string", "render_template_string"):
            self._add("python.template-injection", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{q} renders client input as a template (template code runs on the server)", node)  # fmt: skip
        elif method in T.FILE_SENDERS:
            self._add("python.file-server", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} sends whichever file a client names", node)  # fmt: skip
        elif (method == "save" and not q.startswith(("PIL", "numpy", "torch", "pathlib"))) or q in (
            "os.makedirs",
            "builtins.open",
        ):
            self._add("python.write", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{q} writes where a client says (any file the server can write)", node)  # fmt: skip
        elif _is_network(q) and (method in ("get", "post", "request", "urlopen", "open_connection",
                                            "create_connection", "head", "stream")
                                 or q.endswith("build_opener().open")):  # fmt: skip
            fixed_host = any(
                (t.split("://", 1)[-1][:1] not in ("", HOLE) and "://" in t) or t.startswith("/")
                for t in first.strings()
            ) or self._configured_base(node)  # a constant host, a path below the client's base_url or the settings'
            if not fixed_host:
                self._add("python.ssrf", RiskLevel.HIGH, Category.NETWORK,
                          f"{q} fetches whatever address a client names (internal hosts, the metadata service)",
                          node)  # fmt: skip
        elif method in ("bytearray", "bytes", "zeros", "empty", "ones") and first.num is None:
            self._add("python.memory-hog", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} allocates as much memory as a client asks", node)  # fmt: skip

    def _saved_in_place(self, method: str, args: list[Val], node: ast.Call) -> None:
        """``ds.save_as(f)`` / ``img.save(path)`` back to each file a listing gave: every file rewritten."""
        if method in ("save_as", "save") and args and self._in_loop():
            for text in args[0].strings()[:2]:
                self._mass_overwrite(text, node, method)
                # (`img.save(out / f"{p.stem}_{gen}.png")` every round of `for gen in itertools.count()`)
                self._new_file_every_round(text, method, node)

    def _notebook_utilities(self, dotted: str, kwargs: dict[str, Val], args: list[Val], node: ast.Call) -> int:
        """Databricks' ``dbutils`` (a notebook's global): secret scopes read, mounts emptied. Returns flags."""
        if dotted == "dbutils.secrets.get":
            every = self._in_loop()
            self._add("python.secret-read", RiskLevel.HIGH if every else RiskLevel.MEDIUM, Category.EXFILTRATION,
                      "dbutils.secrets.get reads " + ("every secret of the workspace's scopes" if every
                                                      else "a stored secret"), node)  # fmt: skip
            return v.SECRET if every else v.CREDENTIAL
        recurse = kwargs.get("recurse", args[1] if len(args) > 1 else UNKNOWN).num == 1
        if dotted == "dbutils.fs.rm" and recurse and self._in_loop():
            self._add("python.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      "dbutils.fs.rm deletes every folder a listing of the lake gives, recursively", node)  # fmt: skip
        return 0

    def _session_call(self, method: str, node: ast.Call) -> None:
        """logind over D-Bus: every lock screen removed, or every session ended in a loop (everyone logged out)."""
        if method == "UnlockSessions" or (method in ("TerminateSession", "KillSession") and self._in_loop()):
            self._add("python.session", RiskLevel.HIGH, Category.PROCESS,
                      f"{method} unlocks or ends every login session (logind)", node)  # fmt: skip

    def _after_call(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        self._client_sinks(q, args, kwargs, node)
        self._session_call(q.rsplit(".", 1)[-1], node)
        if q.endswith(("dcmread().save_as", "Image.open().save")):
            self._saved_in_place(q.rsplit(".", 1)[-1], args, node)
        if q.endswith(("open_sftp().open", "open_sftp().put", "SFTPClient.from_transport().open",
                       "SFTPClient.from_transport().put")):  # fmt: skip
            remote = args[0] if q.endswith("open") else (args[1] if len(args) > 1 else UNKNOWN)
            mode = (args[1] if q.endswith("open") and len(args) > 1 else kwargs.get("mode", UNKNOWN)).text or "r"
            writes = q.endswith("put") or any(c in mode for c in "wa+")
            if writes and any(t.endswith("authorized_keys") for t in remote.strings()):
                self._add("python.persistence", RiskLevel.HIGH, Category.PERSISTENCE,
                          f"{q} writes an ssh key into authorized_keys on the server (a way in)", node)  # fmt: skip
        if q.endswith(".load_extension") and args and any(self._fetched(t) for t in args[0].strings()):
            self._add("python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{q} loads a downloaded native library into the database engine", node)  # fmt: skip
        if q.startswith("stripe.") and q.endswith(".delete") and self._in_loop() and ".list(" in self._code:
            self._add("python.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{q} deletes every record a listing of the account gives (customers, products, plans)",
                      node)  # fmt: skip
        if q in _OBJECT_SAVERS and len(args) >= 2 and self._in_loop():
            for text in args[1].strings()[:2]:  # `torch.save(sd, ckpt)` back over each checkpoint a glob gave
                self._mass_overwrite(text, node, q)

        if q.endswith("CDLL().mlockall") or q.endswith("cdll.LoadLibrary().mlockall"):
            self._add("python.memory-pin", RiskLevel.HIGH, Category.RESOURCE,
                      "mlockall pins the process's memory in RAM (what it allocates can never be reclaimed)",
                      node)  # fmt: skip
        if q in _REGEX_MATCHERS and len(args) >= 2 and _catastrophic(args[0].text, args[1].text, self._code):
            self._add("python.cpu-burn", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} runs a pattern with nested repetition on a long constant text (catastrophic "
                      "backtracking: a CPU burnt for ages)", node)  # fmt: skip
        if self._mentions_issuer and _is_network(q):
            self._misdirected_credentials(q, args, kwargs, node)
        if self._mentions_store:
            self._storefront(q, args, kwargs, node)
        if q == "asyncio.gather":
            self._gathered_flood(node)
        if q is not None and "efund" in q and _REFUND_CALL.search(q) and self._in_loop() and not self._name_filters:
            # `for order in Order.find(financial_status="paid"): Refund.create({...})`: the shop's takings paid back
            self._add("python.money", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} refunds every order or payment a listing gives", node)  # fmt: skip
        if isinstance(node.func, ast.Attribute) and node.func.attr == "map" and "max_workers" in self._code:
            self._mapped_flood(node)
        if q in T.DNS_LOOKUPS and _ENCODED.search(self._code) and any(data_label(t) for t in _all_strings(args[:1])):
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} spells encoded data into the names it looks up (DNS tunnelling)", node)  # fmt: skip
        if q in T.DNS_LOOKUPS and _IDENTIFIER_PATTERN.search(self._code) and any(
            t.startswith(HOLE + ".") and "." in t.strip(HOLE + ".") for t in _all_strings(args[:1])
        ):
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} spells the card numbers or SSNs a pattern pulled out into the names it looks up (DNS "
                      "exfiltration)", node)  # fmt: skip
        if q in T.DNS_LOOKUPS and any(HOLE in t and beacon(t) for t in _all_strings(args[:1])):
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} spells run-time data into a name under an interaction server (DNS exfiltration)",
                      node)  # fmt: skip
        self._remote_code_kwargs(q, kwargs, node)
        self._foreign_storage(q, args, kwargs, node)
        self._pickle_listener(q, args, node)
        if "debug" in kwargs and kwargs["debug"].num == 1 and verb_is_run(q):
            host = kwargs.get("host", args[0] if args else UNKNOWN).text or ""
            if (host in ("0.0.0.0", "::", "") and "host" in kwargs) or host in ("0.0.0.0", "::"):
                self._add("python.remote-code", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          "the debugger's console (it runs code) is reachable from the network", node)  # fmt: skip
        verb = q.rsplit(".", 1)[-1]
        if "silences" in self._code and verb in ("post", "request") and any(
            silence_request_mutes_everything(u, self._code) for u in _all_strings(args[:2])
        ):
            self._add("python.defense-evasion", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{q} creates a silence matching every alert (nobody is paged while it lasts)", node)  # fmt: skip
        if q.startswith(("requests.", "httpx.")) and verb in ("delete", "put", "post", "patch", "request"):
            method = (args[0].text or "") if verb == "request" and args else verb
            urls = (args[1:2] if verb == "request" else args[:1]) or [kwargs.get("url", UNKNOWN)]
            constants = self._argument_constants(node) if any(u.strings() for u in urls) else []
            body_text = " ".join(constants)
            for url in [t for u in urls for t in u.strings()][:1]:
                risk = assess_request(method, url, constants, many=self._in_loop() and not self._filtered_loop(node))
                if risk is not None:
                    self._add("python.cloud-control", risk.level, risk.category, f"{q} {risk.what}", node)
                repeated = self._in_loop() and not self._filtered_loop(node)
                # (or a POST to a delete endpoint given the item: `post(f"{api}/deletePad", data={"padID": pad})`)
                deletes = (method.upper() == "DELETE" and HOLE in url) or (
                    method.upper() in ("POST", "PUT") and delete_endpoint(url)
                    and (self._uses_loop_item(node) or any(val.flags & v.NET for val in kwargs.values()))
                )
                if risk is None and deletes and repeated and not (
                    # (a local server's own resources: the user's kernels, a dev API; not its files or its users)
                    loopback_url(url) and not local_files_or_users(url)
                ) and not self._own_creations() and not self._subset_loops and not _SEARCHED_LISTING.search(self._code):
                    # (`for s in snaps[KEEP:]`: the older ones past the newest few, a retention; a listing asked
                    # for what a search picks, `params={"search": "tag:scan-duplicate"}`)
                    self._add("python.cloud-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                              f"{q} deletes every resource a listing gives, one request at a time", node)  # fmt: skip
                account = identity_request(method, url, body_text, repeated=repeated)
                if account is not None:
                    self._add("python.identity", account.level, account.category, f"{q} {account.what}", node)
                hold = hold_request(method, url, body_text)
                if hold is not None:
                    self._add("python.documents", hold.level, hold.category, f"{q} {hold.what}", node)
                premises = premises_request(method, url, body_text)
                if premises is not None:
                    self._add("python.premises", premises.level, premises.category, f"{q} {premises.what}", node)
                store = store_request(method, url, body_text)
                if store is not None:
                    rule = "python.data-destroy" if store[1] is Category.FILESYSTEM else "python.data-service"
                    self._add(rule, RiskLevel.HIGH, store[1], f"{q} {store[0]}", node)
                if money_request(method, url):
                    test = test_money(url + "\n" + "\n".join(self.lines))
                    # approved refunds paid one by one, each over a cap skipped: what a support queue pays out
                    capped = self._in_loop() and _AMOUNT_CAP.search(self._code) is not None
                    self._add("python.money", RiskLevel.MEDIUM if test or capped else RiskLevel.HIGH,
                              Category.EXFILTRATION, f"{q} {url.split('?')[0]} moves money"
                              + (" (test mode)" if test else " (each under a cap)" if capped else ""),
                              node)  # fmt: skip
        if q.endswith("memfd_create"):
            self._memfd = True
        if (
            verb in T.FILE_DUMP_METHODS
            and (self._unbounded_loop() or self._runaway_loop())
            and any(
                (HOLE in t and "/" in t) or "." in t.replace(HOLE, "")
                for a in args[:2]
                for t in a.strings()
                if HOLE in t
            )
        ):
            self._loop_growth(node, disk=True)  # a new file per iteration: frames, screenshots, dumps
        if q in T.DEVICE_OPENERS or (q.startswith("builtins.open") and any(
            t.startswith(("/dev/tty", "/dev/video", "/dev/snd", "/dev/serial")) for a in args[:1] for t in a.strings()
        )):  # fmt: skip
            self._device_opened = True
        method_name = verb
        if method_name.endswith("_scale") and "namespaced" in method_name and self._in_loop() and _ZERO_REPLICAS.search(
            ast.unparse(node)
        ):
            # every deployment a listing gives scaled to nothing: the cluster's workloads stop
            self._add("python.cluster", RiskLevel.HIGH, Category.PROCESS,
                      f"{method_name} scales every workload a listing gives to zero replicas", node)  # fmt: skip
        if method_name in _NATIVE_LOADERS and args and (
            args[0].flags & v.NET or any(self._fetched(t) for t in args[0].strings())
        ):
            # `opts.register_custom_ops_library(lib.name)`, `ctypes.CDLL(path)`: machine code from a download
            self._add("python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{q} loads a native library that was downloaded (its code runs in this process)",
                      node)  # fmt: skip
        if self._unverified_tls and method_name in _MODEL_FETCHES:
            self._add("python.tls-off", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{q} downloads a model or package with certificate checks off (anyone on the path can swap "
                      "it for one that runs code)", node)  # fmt: skip
        can_send = verb == "send" and q.startswith("can.")
        if can_send and v.flowing(args) & v.NET and not self._virtual_can():
            self._add("python.remote-control", RiskLevel.HIGH, Category.NETWORK,
                      f"{q} puts frames received from the network on a vehicle's CAN bus (remote control of its ECUs)",
                      node)  # fmt: skip
        if can_send and self._unbounded_loop() and not self._virtual_can():
            # frames sent back to back for ever: lower ids win arbitration, so the vehicle's own ECUs fall silent
            self._add("python.flood", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} in an endless loop without pause (floods the CAN bus)", node)  # fmt: skip
        if _is_network(q):
            self._note_socket(node)
            data = v.flowing(args) | v.flowing(kwargs.values())
            method = q.rsplit(".", 1)[-1]
            if q.endswith("().send") and func.base is not None:
                data |= func.base.flags & v.FLOWING  # `msg.send()`: the message sends what it was given
            # (a server answering what it receives waits for each datagram: `recvfrom` paces the loop)
            if self._unbounded_loop() and (method in T.SEND_METHODS or q in T.DNS_LOOKUPS) and not (
                method == "sendto" and self._loop_receives()
            ):
                self._add(
                    "python.flood",
                    RiskLevel.HIGH,
                    Category.NETWORK,
                    f"{q} in an endless loop without pause (floods the target)",
                    node,
                )
            elif self._huge_loop() and (method in T.SEND_METHODS or method == "invoke") and not any(
                internal_host(t.split("://", 1)[-1].split("/", 1)[0].split(":")[0]) for t in _all_strings(args[:1])
            ):
                what = f"{q} sends hundreds of thousands of requests in a loop (floods the target)"
                self._add("python.flood", RiskLevel.HIGH, Category.NETWORK, what, node)
            unchecked = self._unverified_tls or kwargs.get("verify", UNKNOWN).num == 0
            if unchecked and method in T.SEND_METHODS and data & v.CREDENTIAL and any(
                _public_host(t) for t in _all_strings(args[:1])
            ):
                self._add("python.tls-off", RiskLevel.HIGH, Category.NETWORK,
                          f"{q} sends a credential to a server whose certificate is not checked (anyone on the path "
                          "can take it)", node)  # fmt: skip
            payload = v.flowing(args) | v.flowing(val for k, val in kwargs.items() if k not in T.AUTH_KWARGS)
            # a client's constructor given its own service's credentials, or a session's headers set up for it (or a
            # client's own login: `smtplib.SMTP(…).login(user, os.environ["SMTP_PASSWORD"])`)
            login = (
                method[:1].isupper()
                or q.endswith((".headers.update", ".cookies.update", ".headers.setdefault"))
                or method in ("login", "authenticate")
            )
            services = credential_services(self._credentials)
            to = " ".join(urllib.parse.urlsplit(u).hostname or "" for u in _all_strings(args[:1]) if "://" in u)
            # (PLAID_SECRET sent to production.plaid.com is the service's own login, not one of a harvest's)
            services = {name for name in services if len(name) < 4 or name.lower() not in to}
            if method in T.SEND_METHODS or method in ("put", "patch", "post"):
                bodies = [kwargs.get("json"), kwargs.get("data"), *args[1:2]]
                if any(b is not None and _people_records(b) for b in bodies) and any(
                    _public_host(t) for t in _all_strings(args[:1])
                ):
                    self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                              f"sends people's contact records, gathered one by one, to a server on the internet "
                              f"({q})", node)  # fmt: skip
                body_texts = [t for t in _all_strings([kwargs.get("data", UNKNOWN)]) if "<" in t or "{" in t]
                guards = [g for b in body_texts for g in protections_in_json(b)]
                guards += [key for key, val in (kwargs.get("json", UNKNOWN).keys or {}).items()
                           if protection_off(key, val.text or ("true" if val.num == 1 else "false" if val.num == 0
                                                               else ""))]  # fmt: skip
                if guards:
                    self._add("python.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE,
                              f"{q} turns off {guards[0]} through an API", node)  # fmt: skip
            if payload & v.NET and "ACTIONS_ID_TOKEN_REQUEST" in self._code:
                hosts = [urllib.parse.urlsplit(u).hostname or "" for u in _all_strings(args[:1]) if "://" in u]
                if hosts and all(HOLE not in h and h and not _FEDERATION_HOST.search(h) for h in hosts):
                    # the CI job's OIDC token logs in to the clouds that trust the repository: it belongs only
                    # with their token exchanges
                    self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                              f"sends the CI job's OIDC token (a cloud login) to {hosts[0]} ({q})", node)  # fmt: skip
            posted = payload & v.CREDENTIAL and not data & (v.SECRET | v.ENV) and not login
            if posted and _message_credential(kwargs) and any(
                chat_message(u) for u in _all_strings(args[:1]) + _all_strings([kwargs.get("url", UNKNOWN)])
            ):
                # a key or a password in a chat message: everyone in the channel reads it, and it stays there
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"a credential is posted into a chat channel ({q})", node)  # fmt: skip
            elif posted and len(services) >= 2 and not any(
                _SECRET_STORE_URL.search(u) for u in _all_strings(args[:1]) + _all_strings([kwargs.get("url", UNKNOWN)])
            ):
                # several services' tokens (cloud, tracker, hub...) in one request: a harvest, not a login (unless the
                # request stores a secret in a forge's or a vault's own store)
                self._add(
                    "python.exfiltration",
                    RiskLevel.HIGH,
                    Category.EXFILTRATION,
                    f"credentials of several services ({', '.join(sorted(self._credentials)[:3])}) "
                    f"are sent in a request body ({q})",
                    node,
                )
            personal = q.startswith(T.STORAGE_PREFIXES) and personal_account(self._code)
            # (what a loop downloads from a company's service, piece by piece, copied into someone's own account)
            bulk = data & v.DUMP or (personal and data & v.NET and self._in_loop())
            # (a message's id read from a mailbox, sent back to that mailbox's API to mark it read)
            bulk = bulk and not any(_MAILBOX_HOST.search(u) for u in _all_strings(args[:1]))
            if bulk and not data & (v.SECRET | v.ENV) and (not q.startswith(T.STORAGE_PREFIXES) or personal):
                self._add(
                    "python.exfiltration",
                    RiskLevel.HIGH,
                    Category.EXFILTRATION,
                    "a whole database dump or an archive of people's files is sent "
                    + ("to a personal cloud account" if personal else "over the network") + f" ({q})",
                    node,
                )
            if q in T.DNS_LOOKUPS and data & v.CREDENTIAL and not data & (v.SECRET | v.ENV):
                # no name lookup needs a token: one spelled into a host name is on its way out
                self._add(
                    "python.exfiltration",
                    RiskLevel.CRITICAL,
                    Category.EXFILTRATION,
                    f"a credential (an environment variable or a setting named like one) goes out in a DNS name ({q})",
                    node,
                )
            refresh = bool(data & v.SECRET) and self._token_refresh(args, kwargs, node)
            if refresh:
                # `grant_type=refresh_token` posted to the provider's token endpoint: the token used where it belongs
                self._add("python.secret-use", RiskLevel.MEDIUM, Category.EXFILTRATION,
                          f"{q} sends a stored token to its issuer's token endpoint (a refresh)", node)  # fmt: skip
            elif method not in _SECRET_STORE_WRITES and not self._to_loopback(args, kwargs) and not (
                method in ("send_message", "sendmail") and self._mail_merge()
            ) and (
                sent := v.flowing(args) | v.flowing(val for k, val in kwargs.items() if k != "auth")
            ) & (v.SECRET | v.ENV):
                # (`auth=AWS4Auth(creds…)` signs the request with the keys; it does not send them)
                what = "secret file content" if sent & v.SECRET else "the process environment"
                self._add(
                    "python.exfiltration",
                    RiskLevel.CRITICAL,
                    Category.EXFILTRATION,
                    f"{what} flows into a network call ({q})",
                    node,
                )
            if (method in T.SEND_METHODS or method == "Request") and self._mentions_drop:  # (a Request sent later)
                self._public_drop(q, args, kwargs, node)
            # (or the organisation's files from a data share, or card numbers and SSNs a pattern pulls out of
            # files and logs, attached to the message)
            mailed = method in ("send_message", "sendmail") and (
                data & (v.CREDENTIAL | v.SECRET | v.DUMP)
                or ((self._external_reads or _IDENTIFIER_PATTERN.search(self._code)) and _ATTACHES.search(self._code))
            )
            if mailed and personal_mailbox(self._code):
                # door codes, passwords or keys mailed to a free-mail address: out of the organisation's hands
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{q} mails credentials, secret data or a whole folder's archive to a personal mailbox",
                          node)  # fmt: skip

            if data & v.PARAMS and self.functions:
                self.functions[-1].net_params |= data & v.PARAMS
            if self._in_loop():
                tried = [kwargs[k] for k in ("password", "passwd", "pwd", "passphrase") if k in kwargs]
                if (method in ("login", "auth_password", "auth_plain") or method in _LOGIN_CONSTRUCTORS) and len(
                    args
                ) > 1:
                    tried.append(args[1])  # (`SMBConnection(user, password, …)` logs in as it is made)
                # a login form or API: data={"password": pw}, json={...}, auth=(user, pw)
                for body in (kwargs.get("data"), kwargs.get("json"), kwargs.get("params")):
                    if body is not None and body.keys:
                        tried += [val for key, val in body.keys.items() if _PASSWORD_KEY.search(key)]
                        if body.keys.keys() & {"u", "user", "username", "login"}:
                            tried += [val for key, val in body.keys.items() if key in ("p", "pw")]  # `{"u": …, "p": …}`
                auth = kwargs.get("auth")
                if auth is not None and auth.items and len(auth.items) == 2:
                    tried.append(auth.items[1])
                # the same call tried with one constant password after another (a list of default credentials)
                candidates = self._tried_passwords.setdefault(id(node), set())
                candidates.update(t for a in tried for t in a.strings())
                # from a list: a file's lines, a range, or several constant candidates (default credentials); one
                # password read once is the same login repeated
                target = (args[0] if args else kwargs.get("url", UNKNOWN)).text or ""
                # (the app's own lockout tested against this machine's dev server guesses nobody's password)
                own_server = loopback_url(target)
                if (len(candidates) >= 2 or any(
                    a.flags & (v.LOOPVAR | v.LINE) or len(set(a.alts or ())) >= 2 for a in tried
                )) and not own_server:
                    self._add(
                        "python.brute-force",
                        RiskLevel.HIGH,
                        Category.NETWORK,
                        f"{q} tries passwords from a list in a loop (password guessing)",
                        node,
                    )
            if data & v.LOOPVAR and q.rsplit(".", 1)[-1] in ("connect", "connect_ex"):
                self._add(
                    "python.port-scan",
                    RiskLevel.HIGH,
                    Category.NETWORK,
                    "connects to a range of ports or hosts in a loop (network scan)",
                    node,
                )
        if q in T.FORK_CALLS:
            if self.functions:
                self.functions[-1].forks = True
            if self._unbounded_loop() or self._endless_fork_loop():
                self._add(
                    "python.fork-bomb",
                    RiskLevel.CRITICAL,
                    Category.RESOURCE,
                    "forks in an endless loop (fork bomb: each child forks again, a sleep only slows the doubling)",
                    node,
                )
            elif self._unpaced_fork_loop():
                self._add("python.fork-loop", RiskLevel.HIGH, Category.RESOURCE,
                          "forks in an endless loop that never waits (no accept, wait or sleep: children pile up "
                          "until the process table is full)", node)  # fmt: skip
            elif self._child_stays_in_loop():
                self._add("python.fork-bomb", RiskLevel.CRITICAL, Category.RESOURCE,
                          "forks in a loop whose children never leave it (each child forks again: the processes "
                          "double every round)", node)  # fmt: skip
            elif self._huge_loop():
                self._add(
                    "python.fork-loop",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    "forks a very large number of processes",
                    node,
                )
        elif (
            q in ("multiprocessing.Process", "threading.Thread", "os.fork")
            and self.functions
            and kwargs.get("target", UNKNOWN).func is self.functions[-1]
        ):
            self._add(
                "python.fork-bomb",
                RiskLevel.CRITICAL,
                Category.RESOURCE,
                f"{self.functions[-1].name}() starts copies of itself (exponential process/thread growth)",
                node,
            )
        elif q in T.SPAWN_CALLS and self._huge_loop():
            self._add(
                "python.spawn-loop",
                RiskLevel.HIGH,
                Category.RESOURCE,
                "starts processes or threads in an endless or huge loop (exhaustion)",
                node,
            )
        elif self._unbounded_loop() and q.rsplit(".", 1)[-1] in T.GROWTH_METHODS and q != "builtins.print":
            self._loop_growth(node)

    def _callbacks(self, q: str | None, node: ast.Call, args: list[Val], kwargs: dict[str, Val]) -> None:
        """Analyse a local function handed to a thread, a process or an executor with the arguments it gets."""
        target: Val | None = None
        passed: list[Val] = []
        method = (q or "").rsplit(".", 1)[-1] if q else (node.func.attr if isinstance(node.func, ast.Attribute) else "")
        if q in ("threading.Thread", "multiprocessing.Process", "threading.Timer"):
            target = kwargs.get("target", kwargs.get("function"))
            if target is None and q == "threading.Timer" and len(args) > 1:
                target = args[1]
            passed = list(kwargs.get("args", UNKNOWN).items or [])
        elif method in ("submit", "apply_async", "run_in_executor", "start_new_thread") and args:
            target, passed = args[0], args[1:]
        elif method in ("map", "imap", "imap_unordered", "starmap") and len(args) >= 2:
            target, passed = args[0], [self._element(args[1])]
            self._astronomical(args[1].num, node)
        elif method in T.ROUTE_REGISTRARS and args:
            # app.router.add_get("/ws", handler) / app.add_url_rule("/", view_func=f): a request handler
            target = kwargs.get("view_func", kwargs.get("endpoint", args[-1]))
            if isinstance(target.func, _FuncSummary):
                target.func.handler = True
                passed = [Val(flags=v.NET)] * max(1, len(target.func.params))
        elif (q or "").startswith(("gradio.", "streamlit.")) and isinstance(
            kwargs.get("fn", UNKNOWN).func, _FuncSummary
        ):
            # a demo's function gets what visitors type (the page may be shared publicly)
            target = kwargs["fn"]
            if isinstance(target.func, _FuncSummary):
                target.func.handler = True
                passed = [Val(flags=v.NET)] * max(1, len(target.func.params))
        elif method in T.MESSAGE_HANDLER_REGISTRARS:
            # MessageHandler(filters.TEXT, run) / client.add_event_callback(cb, RoomMessageText): a chat bot's
            # handler gets every message anyone sends it
            target = next((a for a in args if isinstance(a.func, _FuncSummary)), None)
            if target is not None and isinstance(target.func, _FuncSummary):
                target.func.handler = True
                passed = [Val(flags=v.NET)] * max(1, len(target.func.params))
        elif kwargs and (hook := next((kwargs[k] for k in T.CALLBACK_KWARGS if k in kwargs), None)) is not None:
            # sounddevice.InputStream(callback=cb) hands cb what the microphone hears; a client's
            # on_message=cb what the service sent
            capture = (q or "").startswith(T.CAPTURE_PREFIXES)
            target = hook
            if isinstance(hook.func, _FuncSummary):
                passed = [Val(flags=v.SECRET if capture else v.NET)] * max(1, len(hook.func.params))
        elif q in ("asyncio.start_server", "asyncio.start_unix_server") and args:
            # the handler gets each connection's streams: what it reads came from the network
            streams = [Val(qual="asyncio.StreamReader()", flags=v.NET), Val(qual="asyncio.StreamWriter()")]
            target, passed = args[0], streams
            if isinstance(target.func, _FuncSummary):
                target.func.handler = True
        if target is not None and isinstance(target.func, _FuncSummary) and target.func not in self.functions:
            mapped = method in ("map", "imap", "imap_unordered", "starmap")
            # a huge iterable, or an endless one (`pool.map(pull, itertools.cycle(people))`)
            huge = mapped and ((args[1].num or 0) >= T.HUGE_LOOP or args[1].qual in _ENDLESS_ITERATORS)
            self._per_element += mapped  # a pool's map runs the function once per element
            self._huge_maps += huge
            try:
                self._call_local(target.func, passed, {}, node)
            finally:
                self._per_element -= mapped
                self._huge_maps -= huge

    def _embedded_interpreter(self, q: str | None, method: str, code: Val, node: ast.Call) -> None:
        """``nvim.exec_lua(src)``, ``lua.execute(src)``, ``nvim.command(line)``: code received from the network (or
        decoded) handed to an interpreter embedded in another program (an editor's Lua, Ex commands run ``!sh``)."""
        editor = (q or "").startswith("pynvim.") or "pynvim" in self._code
        runs = method in _EMBEDDED_CODE_METHODS or (editor and method in _EDITOR_INPUT_METHODS)
        if runs:
            self._add("python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{method} runs code received from the network or decoded"
                      + (" in the editor (its commands reach a shell)" if editor else ""), node)  # fmt: skip

    def _tls_off(self, target: ast.expr, node: ast.stmt) -> None:
        """``ssl._create_default_https_context = ssl._create_unverified_context`` and its env twins."""
        text = ast.unparse(node)
        if "_create_unverified_context" in text or re.search(
            r"environ\[['\"](?:PYTHONHTTPSVERIFY|NODE_TLS_REJECT_UNAUTHORIZED|GIT_SSL_NO_VERIFY)['\"]\]\s*=\s*['\"]?0?",
            text,
        ):
            self._add("python.tls-off", RiskLevel.MEDIUM, Category.NETWORK,
                      "turns off certificate checks for every HTTPS connection of the process", node)  # fmt: skip
            self._unverified_tls = True

    def _event_handler(self, target: ast.expr, val: Val, node: ast.stmt) -> None:
        """``client.on_message = handler``: the handler gets what the service sent."""
        if (
            isinstance(target, ast.Attribute)
            and target.attr.startswith("on_")
            and isinstance(val.func, _FuncSummary)
            and val.func not in self.functions
        ):
            passed = [Val(flags=v.NET)] * max(1, len(val.func.params))
            self._call_local(val.func, passed, {}, node)

    def _taint_through_method(self, node: ast.Call, func: Val, args: list[Val]) -> None:
        """``buf.write(secret)`` taints ``buf``; ``image.save(buf)`` taints ``buf`` when ``image`` is tainted."""
        if not isinstance(node.func, ast.Attribute):
            return
        method = node.func.attr
        if method == "writestr" and len(args) >= 2 and args[0].text:
            # a script packed into an archive (a function's deployment package) runs wherever it is deployed
            self._written_script(args[1], node, "writestr", [args[0].text])
        carried = v.SECRET | v.ENV | v.NET | v.DECODED | v.CREDENTIAL | v.DUMP
        receiver = node.func.value
        if isinstance(receiver, ast.Name) and method in ("append", "extend", "insert") and args:
            current = self._lookup(receiver.id)
            if current.items is not None and current.func is None:
                added = args[-1].items if method == "extend" else [args[-1]]
                flags = current.flags | v.flowing(args)
                if self._in_loop() or added is None:
                    # filled in a loop: as many elements as rounds, each like the one added
                    element = args[-1] if method != "extend" else None
                    self._rebind(receiver.id, Val(flags=flags & v.FLOWING, elem=element))
                else:
                    self._rebind(receiver.id, Val(items=[*current.items, *added], flags=flags & v.FLOWING))
        if isinstance(receiver, ast.Name) and not method.startswith("__"):
            # A method given secret data stores it in its object (msg.set_content(env), buf.write(key),
            # archive.writestr(name, key)): the object (a local value or instance, not a module or a
            # connection) carries it from then on.
            extra = v.flowing(args) & carried
            if extra:
                current = self._lookup(receiver.id)
                rq = current.qual
                if not isinstance(current.func, (_FuncSummary, _ClassInfo)) and (
                    rq is None or (rq.endswith("()") and not rq.startswith(T.NETWORK_PREFIXES))
                ):
                    self._rebind(receiver.id, _with_flags(current, extra))
        writer = func.base
        wrappers = ("csv.writer()", "builtins.open()", "tarfile.open()", "zipfile.ZipFile()", "gzip.GzipFile()")
        if writer is not None and method in ("add", "write") and ("tarfile" in self._code or "zipfile" in self._code):
            # (archives open like files) a data share's files packed into the archive
            for text in _all_strings(args[:1]) if writer.qual in ("builtins.open()", *wrappers) else []:
                self._note_external_read(paths.classify(text))
                self._archived.add(text)
        if writer is not None and writer.qual in wrappers and writer.base is not None:
            extra = v.flowing(args) & carried
            if extra:
                self._taint_aliases(writer.base, extra)  # the buffer the CSV writer writes into
        if method in ("save", "dump", "tofile", "write_to", "savefig", "export") and func.base is not None:
            # the object writes itself into the argument (an image into a buffer)
            extra = func.base.flags & carried
            for arg_node in node.args:
                if extra and isinstance(arg_node, ast.Name):
                    self._bind_name(arg_node.id, _with_flags(self._lookup(arg_node.id), extra))

    def _dict_view(self, attr: str, base: Val | None) -> Val | None:
        """``ROOTS.items()`` of a dict with constant keys: the (key, value) pairs, for loops over them."""
        if base is None or not base.keys or attr not in ("items", "values", "keys"):
            return None
        pairs = list(base.keys.items())[:UNROLL_ITEMS]
        if attr == "keys":
            return Val(items=[Val(text=k) for k, _ in pairs])
        if attr == "values":
            return Val(items=[val for _, val in pairs], flags=v.flowing(val for _, val in pairs))
        return Val(items=[Val(items=[Val(text=k), val]) for k, val in pairs], flags=v.flowing(val for _, val in pairs))

    def _mapping_get(self, attr: str, base: Val, args: list[Val]) -> Val | None:
        """``cfg.get("out", "~")``: the stored value if the mapping is known, else the default (or anything)."""
        if attr != "get" or len(args) != 2 or args[0].text is None or base.text is not None:
            return None
        if base.keys is not None and args[0].text in base.keys:
            return base.keys[args[0].text]
        default = args[1]
        if default.text is None:
            return None
        options = tuple(dict.fromkeys([*default.strings(), *([] if base.keys is not None else [HOLE])]))
        options = options[: v.MAX_ALTS]
        # what the mapping holds (a JSON document from the network) is what the value may be
        return Val(text=options[0], alts=options, qual=default.qual, flags=(default.flags | base.flags) & v.FLOWING)

    def _method_on_unknown(self, attr: str, base: Val, args: list[Val], node: ast.Call) -> None:
        if attr in ("exec_module", "load_module") and (v.flowing(args) | base.flags) & (v.NET | v.DECODED):
            self._add(
                "python.remote-code",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                "imports a module from code that was downloaded or decoded",
                node,
            )
        # (`write_api.write(bucket=…, record=p)` in a loop that waits for each message: a consumer passing points on)
        if self._unbounded_loop() and attr in T.GROWTH_METHODS and (node.args or not self._loop_waits()):
            self._loop_growth(node)
        if base.flags & v.PROCITER and attr in ("kill", "terminate", "send_signal", "suspend"):
            tested = [t for strings, _ in self._name_tests for t in strings]
            guards = [w for w in SECURITY_SERVICES if any(w in t.lower() for t in tested)]
            servers = [t for strings, alone in self._name_tests if alone for t in strings
                       if t in GENERIC_PROCESS_NAMES or t in SYSTEM_PROCESS_NAMES]  # fmt: skip
            if guards:
                self._add("python.kill", RiskLevel.HIGH, Category.PRIVILEGE,
                          f"kills a security or safety service's processes ({guards[0]}): nothing guards or warns",
                          node)  # fmt: skip
            elif servers:
                self._add("python.kill", RiskLevel.HIGH, Category.PROCESS,
                          f"kills every {servers[0]} process, whoever runs it", node)  # fmt: skip
            elif (attr == "kill" or "SIGKILL" in ast.unparse(node)) and (
                server := next((t for t in tested for s in DATA_SERVER_PROCESSES if s in t.lower()), None)
            ):
                self._add("python.kill", RiskLevel.HIGH, Category.PROCESS,
                          f"kills a database or broker server ({server}) with SIGKILL (writes in flight are lost)",
                          node)  # fmt: skip
            elif watched := next((t for t in tested if not t.startswith(("/", ".")) and WATCHERS.search(t.lower())),
                                 None):  # fmt: skip
                self._add("python.kill", RiskLevel.HIGH, Category.PRIVILEGE,
                          f"{attr}s monitoring, recording or safety processes ({watched}): nothing watches or records",
                          node)  # fmt: skip
            elif _OTHERS_PROCESSES.search(self._code):
                self._add("python.kill", RiskLevel.HIGH, Category.PRIVILEGE,
                          "kills other users' processes (those whose owner is not this user)", node)  # fmt: skip
            elif self._name_filters or (_OWN_USER_FILTER.search(self._code) and _CURRENT_USER.search(self._code)) or (
                _NAMED_PROCESS_LIST.search(self._code)  # `[p for p in process_iter() if p.info["name"] == "chromium"]`
            ):
                self._add("python.kill", RiskLevel.MEDIUM, Category.PRIVILEGE,
                          "kills the processes a name or owner test selects", node)  # fmt: skip
            else:
                self._add("python.kill", RiskLevel.HIGH, Category.PRIVILEGE, "kills every process it can find", node)

    def _instantiate(self, info: _ClassInfo, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``Cls(args)``: run ``__init__`` with the arguments so that ``self.x`` holds what was passed."""
        informed = any(_informative(a) for a in [*args, *kwargs.values()])
        instance = Val(func=_Instance(info, informed), flags=(v.flowing(args) | v.flowing(kwargs.values())) & v.TAINT)
        init = info.methods.get("__init__")
        if init is not None:
            self._call_local(init, args, kwargs, node, instance)
        return instance

    def _call_local(
        self,
        summary: _FuncSummary,
        args: list[Val],
        kwargs: dict[str, Val],
        node: ast.AST,
        receiver: Val | None = None,
    ) -> Val:
        current = self.functions[-1] if self.functions else None
        if current is summary:
            summary.self_calls = True
        given = list(args)
        for name, val in kwargs.items():
            if name in summary.params:
                idx = summary.params.index(name) - summary.offset
                if idx < 0:
                    continue
                while len(given) <= idx:
                    given.append(UNKNOWN)
                given[idx] = val
        for index, arg in enumerate(given[: v.MAX_PARAMS]):
            bit = v.PARAM0 << index
            if arg.flags & (v.SECRET | v.ENV) and summary.net_params & bit:
                self._add(
                    "python.exfiltration",
                    RiskLevel.CRITICAL,
                    Category.EXFILTRATION,
                    f"secret data is passed to {summary.name}(), which sends it over the network",
                    node,
                )
            if arg.flags & (v.NET | v.DECODED) and summary.exec_params & bit:
                self._add(
                    "python.remote-code",
                    RiskLevel.CRITICAL,
                    Category.DYNAMIC_CODE,
                    f"downloaded or decoded data is passed to {summary.name}(), which executes it",
                    node,
                )
            if arg.flags & (v.NET | v.DECODED) and summary.shell_params & bit:
                self._add(
                    "python.remote-command",
                    RiskLevel.CRITICAL,
                    Category.PROCESS,
                    f"downloaded or decoded data is passed to {summary.name}(), which runs it as a command",
                    node,
                )
            if current is not None and arg.flags & v.PARAMS:
                if summary.net_params & bit:
                    current.net_params |= arg.flags & v.PARAMS
                if summary.exec_params & bit:
                    current.exec_params |= arg.flags & v.PARAMS
                if summary.shell_params & bit:
                    current.shell_params |= arg.flags & v.PARAMS
        inlined = self._inline(summary, given, node, receiver)
        if summary.yields:
            element = _union(summary.yields)  # a generator: iterating it gives what it yields
            return Val(elem=element, flags=element.flags & v.FLOWING)
        if inlined is not None:
            return inlined
        ret = summary.ret
        if ret is None:
            return Val()
        # map "derived from parameter i" in the summary to what argument i carries at this call
        flags = ret.flags & v.FLOWING & ~v.PARAMS
        for index, arg in enumerate(given[: v.MAX_PARAMS]):
            if ret.flags & (v.PARAM0 << index):
                flags |= arg.flags & v.FLOWING
        # `def cmd(): return ["ssh", "-R", …]`: the list or mapping it builds, whatever the call passes
        return Val(text=ret.text, qual=ret.qual, flags=flags, num=ret.num, items=ret.items, keys=ret.keys,
                   alts=ret.alts)  # fmt: skip

    def _inline(
        self, summary: _FuncSummary, given: list[Val], node: ast.AST, receiver: Val | None = None
    ) -> Val | None:
        """Re-analyse a local function with the constant arguments of this call.

        ``def sh(c): os.system(c)`` alone says little; ``sh("mkfs /dev/sda")`` says a lot.
        Bounded: two levels deep, 32 inlined calls per module, never a function that is
        already being analysed (recursion). Parameters not passed keep their defaults'
        analysis from the definition (unknown here).
        """
        fn = summary.node
        if fn is None or self._inline_depth >= 2 or self._inline_budget <= 0 or summary in self.functions:
            return None
        constructed = receiver is not None and isinstance(receiver.func, _Instance) and receiver.func.informed
        if not constructed and not any(_informative(a) for a in given) and not self._huge_maps:
            return None  # (a huge map's function is analysed again: what it does once, it does a million times)
        self._inline_budget -= 1
        params = summary.params
        bound, declared = self._bound_names(fn.body, params)
        scope = _Scope("function", bound)
        scope.globals_ = declared
        if summary.offset:
            scope.vals[params[0]] = receiver if receiver is not None else UNKNOWN
        for index, name in enumerate(params[summary.offset :]):
            scope.vals[name] = given[index] if index < len(given) else UNKNOWN
        vararg = fn.args.vararg if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
        if vararg is not None:
            # def adb(*args): args is the tuple of every positional argument past the named ones
            named = len(fn.args.posonlyargs) + len(fn.args.args) - summary.offset
            rest = given[named:]
            scope.vals[vararg.arg] = Val(items=rest, flags=v.flowing(rest))
        temp = _FuncSummary(summary.name, params)
        temp.offset = summary.offset
        temp.handler = summary.handler
        self.scopes.append(scope)
        self.functions.append(temp)
        self._inline_depth += 1
        saved_loops = self.loops
        per_element = bool(saved_loops) and any(
            loop.function is (self.functions[-2] if len(self.functions) > 1 else None) for loop in saved_loops
        )
        self._per_element += per_element
        self.loops = []
        try:
            self._block(fn.body)
        finally:
            self.loops = saved_loops
            self._per_element -= per_element
            self._inline_depth -= 1
            self.functions.pop()
            self.scopes.pop()
        ret = temp.ret
        if ret is None:
            return Val()
        func = ret.func if isinstance(ret.func, _FuncSummary) else None  # a decorator factory's decorator
        return Val(text=ret.text, qual=ret.qual, alts=ret.alts, flags=ret.flags & v.FLOWING & ~v.PARAMS, func=func,
                   num=ret.num, items=ret.items, keys=ret.keys)  # fmt: skip

    def _generic_call(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val | None:
        base, _, method = q.rpartition(".")
        if base == "pathlib.Path()":
            return None
        if base.startswith("ctypes.windll.") and method in _WINDOWS_INJECTION:
            self._add("python.shellcode", RiskLevel.HIGH, Category.PROCESS,
                      f"{method} writes code into another process or runs it there (process injection)",
                      node)  # fmt: skip
            return Val()
        if (base.startswith("ctypes.windll.") or base in ("ctypes.WinDLL()", "ctypes.windll.LoadLibrary()")) and (
            method.startswith(("CredEnumerate", "CredRead"))
        ):
            self._add("python.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{method} reads the passwords saved in Windows' Credential Manager", node)  # fmt: skip
            return Val(flags=v.SECRET)
        if base == "ctypes.CDLL()" and method == "syscall" and args and args[0].num in T.NATIVE_DANGEROUS_SYSCALLS:
            method = f"syscall {args[0].num}"  # the same functions reached by number
        if base == "ctypes.CDLL()" and (method in T.NATIVE_DANGEROUS or method.startswith("syscall ")):
            # prctl options that only take privileges away: no_new_privs, a seccomp filter, a dropped capability
            restricts = method == "prctl" and bool(args) and args[0].num in _RESTRICTING_PRCTL
            self._add(
                "python.ctypes-native",
                RiskLevel.MEDIUM if restricts else RiskLevel.HIGH,
                Category.PROCESS,
                f"calls the native function {method}() through ctypes",
                node,
            )
            if method == "system" and args and args[0].text is not None:
                self._shell_string(args[0], node, q)
            return Val()
        if (
            q.startswith("ctypes.")
            and method in ("CFUNCTYPE", "cast", "memmove", "string_at")
            and any((a.qual or "").startswith("mmap") for a in args)
        ):
            self._add(
                "python.shellcode",
                RiskLevel.HIGH,
                Category.PROCESS,
                "copies machine code into memory and calls it",
                node,
            )
        access = args[3] if len(args) > 3 else kwargs.get("access")  # OpenKey(key, sub_key, reserved, access)
        read_only = q.endswith(("OpenKey", "OpenKeyEx")) and "SetValue" not in self._code and (
            access is None or (access.qual or "").endswith(("KEY_READ", "KEY_QUERY_VALUE", "KEY_ENUMERATE_SUB_KEYS"))
        )  # the Run key looked at, not written
        if q.startswith(("winreg.", "_winreg.")) and not read_only and any(
            "currentversion\\run" in s.lower() for a in args for s in a.strings()
        ):
            self._add(
                "python.persistence",
                RiskLevel.HIGH,
                Category.PERSISTENCE,
                "opens the Windows registry Run key (programs started at logon)",
                node,
            )
        elif q.startswith(("winreg.SetValue", "winreg.CreateKey", "_winreg.SetValue")):
            run_key = False
            self._add(
                "python.persistence",
                RiskLevel.HIGH if run_key else RiskLevel.MEDIUM,
                Category.PERSISTENCE,
                "writes the Windows registry" + (" Run key (starts at logon)" if run_key else ""),
                node,
            )
        # `cron.write("deploy/crontab.proposed")` writes a file; `cron.write()` installs the user's crontab
        installs = method == "write_to_user" or (method == "write" and not args and "filename" not in kwargs)
        if q.startswith("crontab.") and method == "new":
            self._cron_jobs.append(kwargs.get("command", args[0] if args else UNKNOWN).text)
        if q.startswith("crontab.") and installs:
            # the jobs this code added, when each one's command is known and tame: the user's own script on a
            # schedule (worth a look, not a block)
            jobs = self._cron_jobs
            known = bool(jobs) and all(j is not None and HOLE not in j for j in jobs)
            found = [f for j in jobs if j for f in self._later_shell(j, node, "a cron job")] if known else []
            quiet = known and tame(found) and not any(
                hidden_or_temporary(j or "") or fetches_then_runs(j or "") for j in jobs
            )
            self._add(
                "python.persistence",
                RiskLevel.MEDIUM if quiet else RiskLevel.HIGH,
                Category.PERSISTENCE,
                "installs a cron job (python-crontab)" + (f": {jobs[0][:60]}" if quiet and jobs[0] else ""),
                node,
            )
        if q == "atexit.register" and args and args[0].qual in T.STAT_CALLS:
            return None  # atexit.register(readline.write_history_file, path): that call, at exit
        key = args[1] if len(args) > 1 else kwargs.get("key", UNKNOWN)
        if q == "jwt.encode" and key.flags & v.SECRET and len(self._secret_reads) == 1:
            # a service account's key read from its file to sign an assertion (`jwt.encode(claims, key["key"], …)`):
            # the key is used, and the token it signs goes out, not the key
            self.findings = paths.soften_profile_reads(self.findings, next(iter(self._secret_reads)),
                                                       "python.secret-read")  # fmt: skip
        if q not in T.STAT_CALLS and self._secret_arguments(q, args, kwargs, node):
            return Val(flags=v.SECRET | v.flowing(args))
        return None

    def _secret_arguments(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> bool:
        """A secret path handed to anything that is not a mere existence check reads it (True: read out)."""
        if q.rsplit(".", 1)[-1] in _TEXT_BUILDERS:
            return False  # `template.render(key="/etc/…/privkey.pem")`: the path written into a configuration
        if "." not in q and q in ("append", "extend", "insert", "appendleft"):
            return False  # `problems.append(f"{mode} {p}")` on a list: a line naming the path kept (not an archive)
        method = q.rsplit(".", 1)[-1]
        if method in ("get", "setdefault") and len(args) == 2 and "/" not in (args[0].text or "/") and not kwargs:
            return False  # `self.configuration.get("path", "/var/spool/cups")`: a setting's default, not read here
        for keyword, val in [*((None, a) for a in args), *kwargs.items()]:
            if val.qual == "builtins.open()" and method in ("write", "dump", "writelines", "save", "write_to"):
                continue  # `config.write(fh)`: something written into a file this code opened (graded there)
            # (a document of several lines is not a path, nor is a web address)
            texts = [t for t in val.strings() if "\n" not in t and not t.startswith(("http://", "https://"))]
            words = texts[0].split() if len(texts) == 1 else []
            if len(words) > 1 and posixpath.basename(words[0]) in T.FILE_PRINTERS:
                texts = words[1:]  # `container.exec_run("cat /root/.aws/credentials")`: a command run elsewhere
            for text in texts:
                if "/" not in text and not text.startswith(".") and text not in ("~",):
                    continue
                if text in self._self_written and HOLE in text:
                    continue  # a key this code wrote into its own temporary folder a moment ago (a test's), read back
                info = paths.classify(text)
                if info.secret or info.history:
                    # (`etcd3.client(cert_key=…)`, `connect(key_filename=…)`: a client handed its own key)
                    if q.startswith(T.KEY_USERS) or q in T.KEY_USERS or _CLIENT_KEY_KWARG.match(keyword or ""):
                        # an SSH/TLS library loading its own key to authenticate: the key is used, not read out
                        self._add(
                            "python.key-use",
                            RiskLevel.MEDIUM,
                            Category.EXFILTRATION,
                            f"{q} uses {paths.describe(info)} to authenticate",
                            node,
                        )
                        return False
                    # the project's own .env handed to a settings loader configures the program; a
                    # credential file elsewhere handed to anything is read out
                    own = (info.kind is paths.PathKind.RELATIVE and HOLE not in text) or paths.tool_profile(text)
                    if info.secret:
                        self._secret_reads.add(info.path)  # (a token file read here may be refreshed and rewritten)
                    self._add(
                        "python.secret-read",
                        RiskLevel.MEDIUM if own else RiskLevel.HIGH,
                        Category.EXFILTRATION,
                        f"{q} reads {paths.describe(info)}",
                        node,
                    )
                    return True
        return False

    # ----------------------------------------------------------------- call rules
    def _c_open(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if q.startswith("pathlib.Path()"):
            target = func.base or UNKNOWN
            mode_val = args[0] if args else kwargs.get("mode", UNKNOWN)
        elif q.startswith("fileinput."):
            # `fileinput.input("/etc/group", inplace=True)`: what the loop prints replaces each file
            target = args[0] if args else kwargs.get("files", UNKNOWN)
            if target.items:
                target = Val(alts=tuple(t for item in target.items for t in item.strings()) or None)
            inplace = kwargs.get("inplace", args[1] if len(args) > 1 else UNKNOWN).num == 1
            mode_val = Val(text="r+" if inplace else "r")
        else:
            given = (kwargs.get(k) for k in ("file", "path", "database", "fileobj", "name"))
            target = args[0] if args else next((g for g in given if g is not None), UNKNOWN)
            mode_val = args[1] if len(args) > 1 else kwargs.get("mode", kwargs.get("flags", UNKNOWN))
        if q == "os.open":
            num = mode_val.num or 0
            write = bool(num & (os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC))
            append = bool(num & os.O_APPEND)
        else:
            mode = mode_val.text or "r"
            write = any(c in mode for c in "wax+")
            append = "a" in mode
        mode_text = mode_val.text or ""
        flags = 0
        overwrite = write and not append and (q != "os.open" or bool((mode_val.num or 0) & os.O_TRUNC))
        for text in target.strings() or ([] if target.text is None else [target.text]):
            if q == "sqlite3.connect" and text.startswith("file:"):
                text = text[5:].split("?", 1)[0]  # a URI (`file:{db}?mode=ro`): the database file it names
            info = paths.classify(text)
            if overwrite:
                self._mass_overwrite(text, node, q)
            if write and q == "os.open" and (mode_val.num or 0) & os.O_EXCL:
                self._fresh_files.add(text)  # (an exclusive create fails on a file that is there: nothing replaced)
            if write:
                # (`mkstemp(dir=os.path.dirname(cfg))` then `os.replace(tmp, cfg)`: a new file beside the one it
                # replaces, graded where it replaces it)
                fresh = text in self._fresh_files and not (info.persistence or info.privilege)
                self._write(info, node, append=append, via=q, cap=RiskLevel.MEDIUM if fresh else None)
                self._self_written.add(text)
                if "+" in mode_text and "b" in mode_text and paths.installed_program(info) and ".seek(" in self._code:
                    # opened for update, sought and written: bytes patched in place (a check cracked, a jump skipped)
                    self._add("python.binary-patch", RiskLevel.HIGH, Category.FILESYSTEM,
                              f"{q} patches the machine code of an installed program in place "
                              f"({paths.describe(info)})", node)  # fmt: skip
                if not append:
                    self._new_file_every_round(text, q, node)
                weakened = package_source_weakness(text, self._code) if text.endswith(_PACKAGE_CONFIGS) else None
                if weakened is not None:
                    # `cfg.set("global", "trusted-host", …); cfg.write(open(pip_conf, "w"))`: what the program spells
                    self._add("python.supply-chain", RiskLevel.HIGH, Category.DYNAMIC_CODE, weakened, node)
                if posixpath.basename(text) in LOCKFILES and _LOCK_FIELD.search(self._code) and "://" in self._code:
                    self._add("python.supply-chain", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                              f"{q} rewrites a lockfile's sources or hashes (installs then fetch other code)",
                              node)  # fmt: skip
            else:
                flags |= self._read(info, node, via=q)
                self._note_external_read(info)
                if text == F.CI_EVENT_FILE or text.startswith("/var/log/"):
                    # the event a pull request triggered (its author wrote the title and body); a service's log
                    # (whoever sends it requests writes into it)
                    flags |= v.NET
                if info.kind is paths.PathKind.RELATIVE and HOLE not in text:
                    flags |= v.LOCALFILE
                if self._bulk_personal(text):
                    flags |= v.SECRET
                if text in self.downloaded:
                    flags |= v.NET
                if text in self.staged:
                    flags |= v.SECRET
                if text in self._bulk_files or (
                    q in ("builtins.open", "io.open", "pathlib.Path().open") and paths.database_file(text)
                    and info.kind in (paths.PathKind.EXTERNAL, paths.PathKind.SYSTEM)
                ):
                    # (a service's live database file read as bytes, `/var/lib/private/kanidm/kanidm.db`: every
                    # record; not a connection that queries it)
                    flags |= v.DUMP
        if not target.strings() and not write:
            flags |= target.flags & v.FLOWING
        # zipfile.ZipFile(buf) / tarfile.open(fileobj=buf): what is written goes into buf
        wrapped = target if target.text is None and target.qual is not None and not target.strings() else None
        return Val(
            qual="builtins.open()",
            text=target.text,
            alts=target.alts,
            flags=flags | (target.flags & v.SECRET),
            base=wrapped,
        )

    def _is_loop_item(self, expr: ast.expr) -> bool:
        """``expr`` is the variable of an enclosing ``for`` loop itself (the file enumerated, not one named after
        it)."""
        return isinstance(expr, ast.Name) and any(
            isinstance(lp.node, (ast.For, ast.AsyncFor)) and isinstance(lp.node.target, ast.Name)
            and lp.node.target.id == expr.id for lp in self.loops
        )  # fmt: skip

    def _new_file_every_round(self, path: str, q: str, node: ast.AST) -> None:
        """A file named anew each round (``copy_{n}.jpg``) of an endless loop that never pauses, or of a loop of
        hundreds of thousands of rounds, fills the disk (its inodes first)."""
        if HOLE in posixpath.basename(path) and (self._fast_endless_loop() or self._huge_loop()):
            self._add("python.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} creates a new file every round of an endless or huge loop (inodes, then space, run out)",
                      node)  # fmt: skip

    @staticmethod
    def _to_loopback(args: list[Val], kwargs: dict[str, Val]) -> bool:
        """The request goes to this machine (`http://127.0.0.1:8384/rest/…`): a local service's own key used on it."""
        target = (args[0] if args else kwargs.get("url", UNKNOWN)).strings()
        return bool(target) and all(loopback_url(t) for t in target)

    def _own_child_pid(self, expr: ast.expr) -> bool:
        """``expr`` is ``p.pid`` of a loop variable over a list of processes this program started with Popen."""
        if not (isinstance(expr, ast.Attribute) and expr.attr == "pid" and isinstance(expr.value, ast.Name)):
            return False
        for loop in self.loops:
            target, listing = getattr(loop.node, "target", None), getattr(loop.node, "iter", None)
            named = isinstance(target, ast.Name) and target.id == expr.value.id and isinstance(listing, ast.Name)
            made = rf"^\s*{re.escape(listing.id)}\s*=\s*\[[^\n]*\bPopen\(" if isinstance(listing, ast.Name) else ""
            if named and re.search(made, self._code, re.MULTILINE):
                return True
        return False

    def _mass_overwrite(self, text: str, node: ast.AST, q: str) -> None:
        """Overwriting every file a loop enumerates destroys the tree (wiper, ransomware)."""
        current = self.functions[-1] if self.functions else None
        enumerated = self._per_element > 0 or any(loop.listing and loop.function is current for loop in self.loops)
        # names a list or an archive gives, joined to the home itself: any file there (dotfiles, keys) is reachable
        anywhere = self._in_loop() and text.startswith("~/" + HOLE)
        if (enumerated or anywhere) and HOLE in text and text.strip(HOLE + "/") != "":
            info = paths.classify(text)
            if info.kind is paths.PathKind.RELATIVE and re.search(r"\.mkdir\(|makedirs\(", "\n".join(self.lines)):
                return  # new files in a folder this program makes (a dated backup folder), not every existing one
            lineno = getattr(node, "lineno", 0)
            line = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
            made = _MADE_FOLDER.findall("\n".join(self.lines))
            if any(re.search(r"\bjoin\(\s*" + re.escape(a or b) + r"\b|\b" + re.escape(a or b) + r"\s*/", line)
                   for a, b in made):  # fmt: skip
                return  # `open(os.path.join(dest, name), "w")` in a `dest` this program just made
            named = [a.id for a in getattr(node, "args", [])[:1] if isinstance(a, ast.Name)]
            code = "\n".join(self.lines)
            if named and any(
                re.search(rf"\b{named[0]}\s*=\s*[^\n]*\b{re.escape(a or b)}\s*/", code) for a, b in made
            ):
                return  # `dst = access / name`, then `save(dst)`: a file in the folder this program made
            if named and re.search(rf"\b{named[0]}\s*=\s*[^\n]*(?:\.relative_to\(|\brelpath\()", code):
                return  # `out = DST / p.relative_to(SRC)`: a copy of the tree's layout in another folder, made anew
            exists = rf"(?:{named[0]}\.exists\(\)|os\.path\.exists\({named[0]}\))" if named else ""
            if named and re.search(rf"if\s+{exists}\s*:\s*\n?\s*continue", code):
                return  # files already there are skipped: only new ones are written
            if text.lower().endswith(_LOG_SUFFIXES) and info.kind is not paths.PathKind.SYSTEM:
                return  # an app's logs rotated or compressed (the system's logs are the audit trail)
            if any(w.startswith(text) and w.endswith(_COMPRESSED_SUFFIXES) for w in self._self_written):
                return  # each file emptied once its compressed copy was written (`f"{log}.{mtime}.gz"`): a rotation
            folder, name = posixpath.split(text)
            item = isinstance(node, ast.Call) and (
                (bool(node.args) and self._is_loop_item(node.args[0]))
                or (isinstance(node.func, ast.Attribute) and self._is_loop_item(node.func.value))
            )
            if HOLE not in folder and re.match(r"[\w-]{3,}" + re.escape(HOLE), name) and not item:
                return  # `/srv/thumbs/grower_1187_{stem}.jpg`: new files named by this program, one per item
            if q.rsplit(".", 1)[-1] == "save" and "Image.open(" in code and _PILLOW.search(code) and (
                _DERIVED_IMAGES.search(text) and not _CIPHER.search(code)
            ):
                return  # thumbnails or previews saved as pictures again (their originals are elsewhere)
            if q in ("gzip.open", "bz2.open", "lzma.open") and not _CIPHER.search(self._code) and not (
                isinstance(node, ast.Call) and node.args and self._is_loop_item(node.args[0])
            ):
                return  # each file compressed beside itself (`x.sql` → `x.sql.gz`): the data is still there
            level = paths.delete_level(info, recursive=True) if not paths.kernel_tunable(text) else RiskLevel.MEDIUM
            if level >= RiskLevel.HIGH:
                self._add(
                    "python.mass-overwrite",
                    level,
                    Category.FILESYSTEM,
                    f"{q} overwrites every file under {paths.describe(info)}",
                    node,
                )

    def _note_external_read(self, info: paths.PathInfo) -> None:
        """A file of a data share (``/srv/statements/…``, ``/mnt/exports/…``) read: the organisation's data, not
        the project's (mailed to a personal mailbox, it leaves)."""
        top = [*info.path.split("/"), ""][1]
        if info.kind is paths.PathKind.EXTERNAL and HOLE not in top:
            self._external_reads = True
        elif info.kind is paths.PathKind.HOME and _PEOPLE_DATABASE.search(posixpath.basename(info.path)):
            self._external_reads = True  # `~/crm/contacts.sqlite3`: a database of people kept in the home

    def _read(self, info: paths.PathInfo, node: ast.AST, *, via: str) -> int:
        level = paths.read_level(info)
        if level <= RiskLevel.SAFE:
            return 0
        if info.secret and (paths.application_settings(info.path) or paths.app_main_settings(info.path)):
            # a deployed application's settings (or its main settings file under /etc) read into a program that
            # checks or uses them (a shell's `cat` or `grep` prints them); sent anywhere, the flow that carries them
            # is critical
            level = min(level, RiskLevel.MEDIUM)
        if info.secret:
            self._secret_reads.add(info.path)
        self._add("python.secret-read", level, Category.EXFILTRATION, f"{via} reads {paths.describe(info)}", node)
        return v.SECRET

    def _write(
        self, info: paths.PathInfo, node: ast.AST, *, append: bool = False, via: str, cap: RiskLevel | None = None
    ) -> None:
        level = paths.write_level(info) if cap is None else min(paths.write_level(info), cap)
        if level == RiskLevel.HIGH and paths.tested_site_config(info.path, self._code):
            # a site's configuration written whole and checked with `nginx -t` before the reload, as the shell's
            level = RiskLevel.MEDIUM
        if (
            level == RiskLevel.HIGH
            and info.kind is paths.PathKind.SYSTEM
            and not (info.secret or info.persistence or info.privilege or info.history)
            and paths.application_state(info.path)
            and (
                (append and info.path.lower().endswith((".csv", ".tsv", ".log", ".jsonl", ".ndjson", ".txt")))
                or (("mkdir(" in self._code or "makedirs(" in self._code) and not self._in_loop())
                or (via == "os.replace" and info.path.lower().endswith((".json", ".csv", ".txt", ".xml", ".yaml")))
            )
        ):
            # a job's own state folder, which it makes itself (`/var/lib/collab-drift/`), written once (not chunk
            # after chunk in a loop, which is filling the disk); a record appended to a data log of its own there; or
            # a data file there swapped for its new version in one step (`os.replace(tmp, "/var/lib/anpr/list.json")`)
            level = RiskLevel.MEDIUM
        if level == RiskLevel.HIGH and info.path in self._backed_up and info.kind is paths.PathKind.SYSTEM and not (
            info.secret or info.persistence or info.privilege or info.history
        ):
            # a setting changed in a configuration file this code first copied aside (`unixd.20261128.bak`): the
            # edit is judged by what it changes (a PAM stack, sudo's paths), not by the file being written
            level = RiskLevel.MEDIUM
        if level == RiskLevel.HIGH and paths.tested_site_config(info.path, self._code) and (
            re.search(r"\.read(?:_text|lines)?\(", self._code) is None
        ):
            # a site's configuration written whole and checked with `nginx -t` before a reload (not one read, edited
            # and written back: that is judged by what it changes)
            level = RiskLevel.MEDIUM
        if info.secret and paths.profile_edit(info.path, self._secret_reads):
            level = min(level, RiskLevel.MEDIUM)  # a setting changed in the profile it read (a cluster, a helper)
            self._soften_reads(info.path, "python.secret-read")
        if not append and paths.audit_log(info.path):
            level = max(level, RiskLevel.HIGH)  # an audit trail rewritten: whatever it held can be left out
        if payment_file(info.path) and info.kind not in (paths.PathKind.RELATIVE, paths.PathKind.TEMP):
            self._add("python.money", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{via} rewrites a payment file outside the project ({info.path})", node)  # fmt: skip
        if level <= RiskLevel.SAFE or info.kind is paths.PathKind.NULL:
            return
        if info.secret:
            self._secret_writes.add(info.path)
        category = (
            Category.PRIVILEGE
            if info.privilege
            else Category.PERSISTENCE
            if info.persistence or info.history
            else Category.FILESYSTEM
        )
        rule = "python.persistence" if info.persistence else "python.write"
        verb = "appends to" if append else "writes"
        self._add(rule, level, category, f"{via} {verb} {paths.describe(info)}", node)

    def _c_read(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        target = (
            func.base if q.startswith("pathlib.Path()") and func.base is not None else (args[0] if args else UNKNOWN)
        )
        flags = 0
        # ConfigParser().read([a, b]) reads every file of the list
        texts = [t for i in target.items for t in i.strings()] if target.items else target.strings()
        for text in texts:
            info = paths.classify(text)
            flags |= self._read(info, node, via=q)
            if (
                (info.kind is paths.PathKind.RELATIVE and HOLE not in text.split("/", 1)[0])
                or (text in self._self_written and text not in self.downloaded)
                # a program's settings written in Python in the user's config folder (`~/.config/qtile/config.py`)
                or (text.startswith("~/.config/") and text.endswith(".py") and HOLE not in text)
            ):
                flags |= v.LOCALFILE  # a file of the project (`.cache/<digest>.pkl`), or one this code wrote
            if text in self.downloaded:
                flags |= v.NET
            if self._bulk_personal(text):
                flags |= v.SECRET  # people's records or a case's documents, read one after another
            self._note_external_read(info)
        if q == "configparser.ConfigParser().read" and func.base is not None and flags & v.SECRET:
            self._taint_aliases(func.base, v.SECRET)  # the parser now holds the file's keys
        return Val(flags=flags | (target.flags & v.FLOWING))

    def _round_trip(self, q: str, func: Val, args: list[Val]) -> Val | None:
        """Data a program writes to a file (JSON, YAML, TOML, text) and reads back: the settings it acts on are the
        ones it wrote. Records writes (returns None); returns the stored value for reads of such a file."""
        base = func.base
        handle = base if base is not None and base.qual in ("builtins.open()", "pathlib.Path()") else None
        if q in _DUMPS and len(args) > 1 and args[1].text is not None:
            self._file_values[args[1].text] = args[0]
            return None
        if q in _TEXT_WRITES and handle is not None and args:
            if handle.text is not None and not handle.text.lower().endswith(_ARCHIVE_SUFFIXES):
                self._file_values[handle.text] = args[0]  # (an archive's `write(name)` adds a file; not its content)
            return None
        if q in _LOADS and args:
            source = self._file_values.get(args[0].text or "") if args[0].qual == "builtins.open()" else args[0]
            if source is None or source.flags & v.FLOWING:
                return None  # a response, a file of someone else's: parsed, it is still theirs
            return _parsed(source)
        if q in _TEXT_READS and handle is not None:
            path = handle.text or ""
            special = path in self.downloaded or path in self.staged or path in self._bulk_files
            return None if special else self._file_values.get(path)
        return None

    def _c_reduce(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``reduce(truediv, ["~", "Documents"], Path())``, ``reduce(lambda acc, f: f(acc), [fetch, b64decode,
        pickle.loads], url)``: a constant list folded is the expression it spells out, analysed as that."""
        if len(node.args) != 3 or self._reduce_depth > 0:
            return Val()
        elements = self._literal_elements(node.args[1])
        step = node.args[0]
        if not elements or len(elements) > 8:
            return Val()
        operator_name = self._ev_qual(step) if not isinstance(step, ast.Lambda) else None
        binary = _REDUCE_OPERATORS.get(operator_name or "")
        applies = (
            isinstance(step, ast.Lambda)
            and len(step.args.args) == 2
            and isinstance(step.body, ast.Call)
            and isinstance(step.body.func, ast.Name)
            and step.body.func.id == step.args.args[1].arg
        )
        if binary is None and not applies:
            return Val()
        folded: ast.expr = node.args[2]
        for element in elements:
            folded = ast.BinOp(left=folded, op=binary(), right=element) if binary else ast.Call(
                func=element, args=[folded], keywords=[])  # fmt: skip
            ast.copy_location(folded, node)
        self._reduce_depth += 1
        try:
            return self._ev(folded)
        finally:
            self._reduce_depth -= 1

    def _literal_elements(self, node: ast.expr) -> list[ast.expr]:
        """The elements of a list or tuple written here, or assigned once to the name ``node`` is."""
        if isinstance(node, (ast.List, ast.Tuple)):
            return list(node.elts)
        if isinstance(node, ast.Name):
            for stmt in self._tree.body:
                if (
                    isinstance(stmt, ast.Assign)
                    and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id == node.id
                    and isinstance(stmt.value, (ast.List, ast.Tuple))
                ):
                    return list(stmt.value.elts)
        return []

    def _c_utime(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``os.utime(f, (t, t))`` over every file of a tree outside the project: their dates rewritten (hides
        when they changed; evidence tampered with)."""
        times = args[1] if len(args) > 1 else kwargs.get("times", kwargs.get("ns", UNKNOWN))
        stamped = times.items is not None or times.flags != 0 or times.num is not None
        targets = args[0].strings() if args else []
        outside = [t for t in targets if HOLE in t and paths.classify(t).kind not in (paths.PathKind.RELATIVE,
                                                                                      paths.PathKind.TEMP)]  # fmt: skip
        if stamped and outside and self._in_loop():
            what = f"{q} sets every file's dates under {outside[0].replace(HOLE, '…')} to chosen times"
            self._add("python.timestomp", RiskLevel.HIGH, Category.FILESYSTEM, what, node)
        logs = [t for t in targets if t.startswith("/var/log/") or paths.classify(t).history]
        chosen = any(item.num is not None for item in times.items or [])  # `(1710400000, 1710400000)`
        if chosen and logs:
            what = f"{q} sets the dates of {logs[0].replace(HOLE, '…')} (a log) to chosen times (hides when it changed)"
            self._add("python.timestomp", RiskLevel.HIGH, Category.FILESYSTEM, what, node)
        # `st = os.stat(log)` … rewrite log … `os.utime(log, (st.st_atime, st.st_mtime))`: the change hidden
        # (or chosen times given to a file this code has just rewritten: `os.replace(tmp, src); os.utime(src, (t, t))`)
        restored = (len(node.args) > 1 and "st_mtime" in ast.unparse(node.args[1])) or (
            chosen and any(t in self._self_written for t in targets)
        )
        kept = [t for t in targets if paths.classify(t).kind not in _SCRATCH_KINDS]
        if restored and kept and _REWRITES.search(self._code):
            what = f"{q} puts back the old dates of {kept[0].replace(HOLE, '…')} after rewriting it (hides the change)"
            self._add("python.timestomp", RiskLevel.HIGH, Category.FILESYSTEM, what, node)
        return Val()

    def _c_copystat(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``shutil.copystat(backup, f)`` after rewriting ``f``: its old dates put back (the edit hidden)."""
        targets = args[1].strings() if len(args) > 1 else []
        sources = args[0].strings() if args else []
        # (the times of the file's own backup copy, `ledger.csv.bak`, given back to it; not a new copy's
        # times taken from its original, `app.log` to `app.log.gz`)
        rewritten = [t for t in targets if t in self._self_written and paths.classify(t).kind not in _SCRATCH_KINDS
                     and any(s != t and s.startswith(t) for s in sources)]  # fmt: skip
        if rewritten:
            what = f"{q} gives {rewritten[0].replace(HOLE, '…')} another file's dates after rewriting it"
            self._add("python.timestomp", RiskLevel.HIGH, Category.FILESYSTEM, what, node)
        return Val()

    def _c_write(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        target = (
            func.base if q.startswith("pathlib.Path()") and func.base is not None else (args[0] if args else UNKNOWN)
        )
        data = args[0] if q.startswith("pathlib.Path()") and args else (args[1] if len(args) > 1 else UNKNOWN)
        contents = data.strings()
        self._self_written.update(target.strings())
        for path in target.strings():
            if any(workflow_leaks_secrets(path, text) for text in data.strings()):
                self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"the CI workflow written to {path} sends the repository's secrets out", node)  # fmt: skip
        for text in target.strings():
            self._mass_overwrite(text, node, q)
            info = paths.classify(text)
            harmless = len(contents) == 1 and harmless_content(info, contents[0])
            self._write(info, node, via=q, cap=RiskLevel.MEDIUM if harmless else None)
        if data.flags & v.DECODED and not data.flags & v.NET:
            self._dropped.update(target.strings())
        if data.flags & v.NET:
            self.downloaded.update(target.strings())
            self._unnamed_download |= not target.strings() or q == "os.write"
            loaded = [t for t in target.strings() if _LOADED_MODULE.search(t) and paths.application_tree(t)]
            if loaded:
                # a compiled module dropped into an installed application's code: it runs when the app loads it
                self._add("python.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                          f"{q} puts downloaded code where an installed application loads it ({loaded[0]})",
                          node)  # fmt: skip
        self._written_script(data, node, q, target.strings())
        return Val()

    def _c_file_method(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        handle = func.base or UNKNOWN
        method = q.rsplit(".", 1)[-1]
        if method in ("add", "write") and args and not args[0].flags & v.NET and any(
            paths.whole_file_system(t, listed=self._in_loop()) for t in args[0].strings()
        ):
            self._add("python.archive-all", RiskLevel.HIGH, Category.EXFILTRATION,
                      "archives the whole file system (every secret on the machine, and as much disk again)",
                      node)  # fmt: skip
        if method in ("add", "write") and args and self._in_loop():
            # `for root, _, files in os.walk(home): z.write(os.path.join(root, f))`
            self._home_archived |= any(t.startswith("~/" + HOLE) for t in args[0].strings())
        if method in ("write", "writelines", "add"):
            data = args[0] if args else UNKNOWN
            if data.flags & v.DECODED and not data.flags & v.NET:
                self._dropped.update(handle.strings())
            if data.flags & v.NET:
                self.downloaded.update(handle.strings())
                self._unnamed_download |= not handle.strings()
                source = "\n".join(self.lines)
                unverified = "verify=False" in source or re.search(r"[\"']http://", source)
                if unverified and any(paths.plugin_folder(posixpath.dirname(t)) for t in handle.strings()):
                    self._add("python.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                              "installs code fetched without verification where a server loads plugins",
                              node)  # fmt: skip
                # (`if sha256(blob).hexdigest() != expected: raise`: checked against a published digest first)
                checked = _DIGEST_CHECK.search(source) is not None and "http://" not in source
                for target in handle.strings():
                    if "bin" in target.split("/")[:-1]:
                        self._add("python.download-exec", RiskLevel.MEDIUM if checked else RiskLevel.HIGH,
                                  Category.DYNAMIC_CODE,
                                  f"installs a downloaded program on the PATH ({target.replace(HOLE, '…')})"
                                  + (" after checking its digest" if checked else ""), node)  # fmt: skip
                # a temporary file of unknown name now holds network data: so does its .name
                self._taint_aliases(handle, v.NET)
            # zipfile.write(path) archives a file: a secret path is read; secret data taints the file
            archiving = method == "add" or (method == "write" and handle.base is not None)
            secret = data.flags & (v.SECRET | v.ENV) or any(
                (
                    (_bare_path(t) or data.qual == "pathlib.Path()" or archiving)  # an archive's write takes a path
                    and (paths.classify(t).secret or self._bulk_personal(t))
                )
                # tar.add("."): the whole project, .env files included; tar.add("~"): the whole home
                or (archiving and paths.classify(t).kind is paths.PathKind.WORKDIR and "filter" not in kwargs)
                or (archiving and paths.classify(t).kind in (paths.PathKind.HOME_TOP, paths.PathKind.ROOT))
                for t in data.strings()
                if "/" in t or (archiving and t in (".", "./", "~"))
            )
            if secret:
                self._secret_arguments(q, args, kwargs, node)
                self.staged.update(handle.strings())
                for carrier in (handle, handle.base):
                    if carrier is not None:
                        self._taint_aliases(carrier, v.SECRET)
            self._written_script(data, node, q, handle.strings())
            if method == "write" and isinstance(node, ast.Call) and node.args and _zero_fill(node.args[0], self._code):
                self._zero_filled(handle.strings(), node)
            total = self._last_alloc
            for loop in self.loops:
                total = total * loop.count if total is not None and loop.count is not None else None
            if (self._huge_loop() and handle.qual == "builtins.open()") or (
                total is not None and self.loops and total >= T.DISK_FILL
            ):
                self._add(
                    "python.disk-fill",
                    RiskLevel.HIGH,
                    Category.RESOURCE,
                    "writes more data in a loop than a disk holds (fills the disk)",
                    node,
                )
            contents = data.strings()
            for target in handle.strings():
                if len(contents) == 1 and harmless_content(paths.classify(target), contents[0]):
                    self._soften(paths.describe(paths.classify(target)), RiskLevel.MEDIUM)
            if self._unbounded_loop() or (handle.qual == "builtins.open()" and self._in_loop()):
                self._loop_growth(node, disk=handle.qual == "builtins.open()")
            return Val()
        return Val(flags=handle.flags & v.FLOWING)

    def _c_delete(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        target = (
            func.base
            if q.startswith("pathlib.Path()") and func.base is not None
            else (args[0] if args else kwargs.get("path", UNKNOWN))
        )
        recursive = T.DELETE_CALLS[q]
        if self._subset_loops and any(HOLE in t for t in target.strings()):
            target = UNKNOWN  # the older copies a slice of a sorted listing picks (a rotation keeping the newest)
        handlers = [f for f in self.functions if f.handler]
        # a handler's parameter default is only the default, unless the handler checks where the path points
        client = bool(handlers) and not (
            handlers[-1].node is not None and _GUARD.search(ast.unparse(handlers[-1].node))
        )
        # (`os.unlink(tmp.name)`: the path of the file this code made, whatever was written into it)
        own_file = bool(node.args) and isinstance(node.args[0], ast.Attribute) and node.args[0].attr == "name"
        if target.flags & v.NET and not own_file and (
            client or all(t.strip(HOLE + "/~ ") == "" for t in target.strings() or [HOLE])
        ):
            # whoever sends the request or message picks what is deleted
            self._add(
                "python.delete",
                RiskLevel.HIGH,
                Category.FILESYSTEM,
                f"{q} deletes a path received from the network",
                node,
            )
            return Val()
        for text in target.strings() or [HOLE]:
            # Deleting paths enumerated in a loop (os.walk, glob, rglob) empties the tree...
            enumerated = self._in_loop() and HOLE in text and text.strip(HOLE + "/") != ""
            if enumerated and self._file_filters and any(_same_family(text, w) for w in self._self_written):
                continue  # old copies of what this code writes (dated archives, rotated logs) pruned by age or name
            recursive = recursive or enumerated
            info = paths.classify(self._in_cwd(text))
            level = paths.delete_level(info, recursive=recursive)
            if q.startswith("send2trash") or paths.static_folder_rebuilt(text, self._code):
                level = min(level, RiskLevel.MEDIUM)  # into the Trash: recoverable; generated files filled again
            top = info.kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP)
            if q.endswith("rmdir") and enumerated and not top:
                level = min(level, RiskLevel.LOW)  # the empty folders a listing gives (rmdir removes no data)
            if text in self._self_written and not recursive:
                level = min(level, RiskLevel.LOW)  # a file this program wrote a moment ago (a certificate for a build)
            if text in self._made_temporary:
                level = min(level, RiskLevel.LOW)  # the scratch folder mkdtemp made for this run, removed again
            if text in self._archived and not recursive:
                level = min(level, RiskLevel.LOW)  # the original of what this program just packed into an archive
            if not T.DELETE_CALLS[q] and any(
                w.endswith(_COMPRESSED_SUFFIXES)
                and (w.startswith(text) or paths.may_name(w.rsplit(".", 1)[0], text))
                for w in self._self_written
            ):
                # the original of a compressed copy this program wrote (`x.log.gz`, `f"{log}.{int(now)}.gz"`,
                # `log.with_suffix(log.suffix + ".gz")`)
                level = min(level, RiskLevel.LOW)
            aged = enumerated and _AGE_TEST.search(self._code) is not None
            # (`cutoff = time.time() + 90 * 86400`: a cut-off in the future picks every file, not the old ones)
            every = _FUTURE_CUT_OFF.search(self._code) is not None or self._cut_off_now
            # (a folder a listing gives, removed whole: only an application's temporary folders picked by age)
            # (or only those whose names mark them as work folders: `if f.name.startswith("tmp-"): shutil.rmtree(f)`)
            # (or a folder named as one team's scratch space, `/srv/fleet-scratch/carves`; not a cluster's shared
            # `/scratch`, whose folders are its users' own)
            scratch = aged and (paths.application_scratch(text) or _TEMPORARY_NAME_TEST.search(self._code) is not None
                                or any("scratch" in c and c != "scratch" for c in text.lower().split("/")))
            if enumerated and self._file_filters and not every and (not T.DELETE_CALLS[q] or scratch):
                expired = aged and _OLDER_THAN.search(self._code) is not None and not _NEWER_THAN.search(self._code)
                # ...unless a name or age test picks them
                level = paths.filtered_delete_level(info, level, aged=aged, expired=expired)
            others = enumerated and "st_uid" in self._code and _OTHERS_FILES.search(self._code) is not None
            if others:
                level = max(level, RiskLevel.HIGH)
            if level <= RiskLevel.SAFE:
                continue
            what = "recursively deletes" if T.DELETE_CALLS[q] else "deletes each of" if recursive else "deletes"
            what = "deletes other users' files among" if others else what
            category = Category.PERSISTENCE if info.history else Category.FILESYSTEM
            self._add("python.delete", level, category, f"{q} {what} {paths.describe(info)}", node)
        return Val()

    def _c_copy(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val | None:
        if q.startswith("pathlib.Path()"):
            if len(args) != 1:
                return None  # str.replace(old, new) on a value we took for a Path
            src, dst = func.base or UNKNOWN, args[0]
        else:
            src = args[0] if args else kwargs.get("src", UNKNOWN)
            dst = args[1] if len(args) > 1 else kwargs.get("dst", UNKNOWN)
        flags = 0
        for text in src.strings():
            info = paths.classify(text)
            # `os.replace(tmp, target)` in the same folder: a file written beside its target put in place (the
            # atomic write), its content read by nobody
            renamed_in_place = q in ("os.replace", "os.rename", "pathlib.Path().rename", "pathlib.Path().replace") and (
                any(posixpath.dirname(text) == posixpath.dirname(d) for d in dst.strings())
            )
            # (`shutil.copy2(live / "privkey.pem", "/etc/nginx/tls/privkey.pem")`: a key put where its service reads it)
            installed = q.startswith("shutil.copy") and all(map(paths.service_tls_file, dst.strings() or [""]))
            flags |= self._read(info, node, via=q) if not (renamed_in_place or installed) else 0
            if q == "shutil.copytree" and info.kind is paths.PathKind.ROOT:
                self._add("python.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                          f"{q} copies the whole file system (/proc, /sys and its own copy included)",
                          node)  # fmt: skip
            inside = q == "shutil.copytree" and any(d.startswith(text.rstrip("/") + "/") for d in dst.strings())
            if inside and self._endless_loop_here():
                # `while True: shutil.copytree(build, build / f"snapshot-{n}")`: each copy holds every earlier one
                self._add("python.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                          f"{q} copies a folder into itself in every round of an endless loop (each copy holds the "
                          "earlier ones: the disk fills)", node)  # fmt: skip
            moved = q in ("shutil.move", "os.rename", "os.replace", "pathlib.Path().rename")
            if moved and text in self._self_written:
                self._self_written.update(dst.strings())  # `os.replace(tmp, src)`: src now holds what this wrote
            if moved and not any(paths.keeps_data(text, d) for d in dst.strings()):
                level = paths.delete_level(info, recursive=True)
                if level >= RiskLevel.HIGH:
                    self._add(
                        "python.delete", level, Category.FILESYSTEM, f"{q} moves {paths.describe(info)} away", node
                    )
        for text in dst.strings():
            self._new_file_every_round(text, q, node)
            backup = q.startswith(("shutil.copy", "pathlib.Path().copy")) and any(
                text.startswith(s) and text != s for s in src.strings()
            )
            # `cp /etc/fstab /etc/fstab.bak.<date>`: a backup copy beside the original changes nothing
            queued = any(
                (paths.application_spool(t) or paths.application_tree(t)) and paths.keeps_data(t, text)
                for t in src.strings()
            )
            # (a message moved from one of an application's queue folders to another: `error/` back to `inbound/`)
            cap = RiskLevel.LOW if backup else RiskLevel.MEDIUM if queued else None
            if backup:
                self._backed_up.update(s for s in src.strings() if text.startswith(s))
            self._write(paths.classify(text), node, via=q, cap=cap)
        if src.flags & v.NET:
            self.downloaded.update(dst.strings())
        if flags & v.SECRET:
            self.staged.update(dst.strings())
        return Val(text=dst.text, flags=flags)

    def _c_chmod(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if q.startswith("pathlib.Path()"):
            target, mode = func.base or UNKNOWN, args[0] if args else kwargs.get("mode", UNKNOWN)
        else:
            target = args[0] if args else kwargs.get("path", UNKNOWN)
            mode = args[1] if len(args) > 1 else kwargs.get("mode", UNKNOWN)
        num = mode.num
        if num is None:
            mode_source = ast.unparse(node)
            if "S_ISUID" in mode_source or "S_ISGID" in mode_source:
                self._add("python.chmod", RiskLevel.HIGH, Category.PRIVILEGE,
                          f"{q} adds the setuid/setgid bit (the program runs with its owner's rights)",
                          node)  # fmt: skip
                return Val()
            # `os.stat(p).st_mode | stat.S_IROTH`: at least the bits named are added
            added = 0
            for bit in set(re.findall(r"\bS_I(?:[RWX](?:GRP|OTH)|RWX[GO])\b", mode_source)):
                added |= getattr(stat, bit)
            if not added:
                return Val()
            num = added
        world, setuid, opens = F.mode_bits(num)
        if num & 0o6000 == 0o2000 and re.search(r"\bmakedirs\(|\.mkdir\(", "\n".join(self.lines)):
            setuid = False  # setgid on directories the program creates: new files keep the shared group
        if num & 0o111 and not target.strings():
            self._unnamed_executable = True  # a file whose name the analysis lost was made executable
        for text in target.strings():
            info = paths.classify(text)
            if text in self.downloaded and num & 0o111:
                self._add(
                    "python.download-exec",
                    RiskLevel.MEDIUM,  # running it is what is CRITICAL; installing a tool is routine
                    Category.DYNAMIC_CODE,
                    "makes a file downloaded from the network executable",
                    node,
                )
            level = paths.mode_level(
                info, world_writable=world, setuid=setuid, opens_secret=opens, others_read=bool(num & 0o004)
            )
            if world and self._in_loop() and HOLE in text and info.kind in _SHARED_TREES:
                level = max(level, RiskLevel.HIGH)  # every file of a shared tree made writable by everyone
            if level > RiskLevel.SAFE:
                self._add(
                    "python.chmod", level, Category.PRIVILEGE, f"{q} {oct(num)} on {paths.describe(info)}", node
                )
        return Val()

    def _c_chown(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        target = args[0] if args else UNKNOWN
        for text in target.strings():
            info = paths.classify(text)
            if info.kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.SYSTEM) or info.privilege:
                # (a service's own folder handed to its account: `os.chown("/var/log/orders-api", uid_of_orders, …)`)
                owners = _all_strings([*args[1:2], kwargs.get("user", UNKNOWN)])
                users = [u for u in owners if not u.isdigit()] + re.findall(r"getpwnam\(\s*[\"'](\w+)", self._code)
                # (or a file of an application's deployed tree: `/var/www/crm/shared/.env` to its deploy account)
                # (root given by name or as uid 0: `os.chown(conf, 0, grp.getgrnam("netdata").gr_gid)`)
                root_uid = (args[1] if len(args) > 1 else kwargs.get("uid", UNKNOWN)).num == 0
                named_root = bool(users) and users[0] in ("root", "0")
                to_root = (root_uid or named_root) and info.kind is paths.PathKind.SYSTEM
                own = to_root or any(paths.service_folder(info.path, u) for u in users) or (
                    paths.application_tree(info.path) or paths.app_environment_file(info.path)
                ) or (
                    # a container's own top-level folder (/data, /app) handed to its service account (the shell's rule)
                    info.kind is paths.PathKind.SYSTEM_TOP and not paths.operating_system_tree(info)
                )
                own = own and not info.privilege
                self._add(
                    "python.chown",
                    RiskLevel.MEDIUM if own else RiskLevel.HIGH,
                    Category.PRIVILEGE,
                    f"{q} changes the owner of {paths.describe(info)}",
                    node,
                )
        return Val()

    def _c_symlink(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if q.startswith("pathlib.Path()"):
            src, dst = args[0] if args else UNKNOWN, func.base or UNKNOWN
        else:
            src, dst = [*args, UNKNOWN, UNKNOWN][:2]
        for text in dst.strings():
            info = paths.classify(text)
            if info.history:
                self._add(
                    "python.history-tamper",
                    RiskLevel.HIGH,
                    Category.PERSISTENCE,
                    f"replaces {paths.describe(info)} by a link",
                    node,
                )
            elif paths.write_level(info) >= RiskLevel.HIGH:
                # a start-up file linked to the user's own copy in their home (a dotfiles folder) runs what
                # they wrote; one linked to a download or a clone runs someone else's code
                own = info.persistence and any(
                    (paths.classify(t).kind is paths.PathKind.HOME or paths.repository_file_for_hook(t, text))
                    and not self._fetched(t)
                    for t in src.strings()
                )
                own = own or any(paths.enables_available(t, text) for t in src.strings())  # a site enabled
                self._write(info, node, via=q, cap=RiskLevel.MEDIUM if own else None)
        for text in src.strings():
            info = paths.classify(text)
            if any(paths.planted_link(paths.classify(link), info) for link in dst.strings()) and "symlink" in q:
                self._add("python.symlink-plant", RiskLevel.HIGH, Category.PRIVILEGE,
                          f"plants a link to {paths.describe(info)} in the shared temporary directory",
                          node)  # fmt: skip
            elif info.secret:
                self._add(
                    "python.secret-link",
                    RiskLevel.MEDIUM,
                    Category.EXFILTRATION,
                    f"links to {paths.describe(info)}",
                    node,
                )
        return Val()

    def _zero_filled(self, targets: list[str], node: ast.Call) -> None:
        """Zeros or random bytes written over a file in place (``open(db, "r+b")``) or over a disk device a listing
        found (``lsblk``): its content is gone for good, no undelete or recovery tool gets it back."""
        in_place = "r+b" in self._code or "rb+" in self._code
        found_device = not targets and ("lsblk" in self._code or "/dev/" in self._code)
        kept = [t for t in targets if paths.classify(t).kind not in _SCRATCH_KINDS]
        if found_device or (in_place and kept) or any(t.startswith("/dev/") for t in kept):
            where = kept[0].replace(HOLE, "…") if kept else "a disk device it looked up"
            self._add("python.shred", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"overwrites {where} with zeros or noise (the data cannot be recovered)", node)  # fmt: skip

    def _c_auth_pair(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``HTTPDigestAuth(user, pw)``: a login pair, as ``auth=(user, pw)`` would be (a guessed password shows)."""
        pair = [*args[:2], *(kwargs[k] for k in ("username", "password") if k in kwargs)][:2]
        return Val(qual=q + "()", items=pair if len(pair) == 2 else None, flags=v.flowing(args) | v.flowing(pair))

    def _c_parse_literal(
        self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call
    ) -> Val | None:
        """json.loads / ast.literal_eval of a constant: the settings it spells, as if written as literals."""
        text = args[0].text if args and not args[0].flags & v.FLOWING else None
        if text is None or HOLE in text or len(text) > 20_000:
            return None
        try:
            parsed = json.loads(text) if q == "json.loads" else ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        if _empty_default(args[0]):
            return None
        return _literal_val(parsed)

    def _c_listing(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        target = (
            func.base
            if q.startswith("pathlib.Path()") and func.base is not None
            else (args[0] if args else Val(text="."))
        )
        pattern = args[0] if q.startswith("pathlib.Path().") and "glob" in q and args else None
        strings = target.strings()
        text = strings[0] if strings else None
        if q == "glob.glob" or q == "glob.iglob":
            unders = [t.replace("**", HOLE).replace("*", HOLE) for t in strings]
        else:
            unders = [posixpath.join(t, HOLE if pattern is None else (pattern.text or HOLE).replace("*", HOLE))
                      for t in strings]  # fmt: skip
        under = unders[0] if unders else None
        # (a loop over several roots lists each of them: what it yields lies under any one)
        alts = tuple(unders) if len(unders) > 1 else None
        if q in ("os.listdir",):
            elem = Val(text=HOLE, flags=target.flags & v.FLOWING)
        elif q == "os.walk":
            elem = Val(items=[Val(text=under, alts=alts), Val(), Val(items=None)], flags=target.flags & v.FLOWING)
        else:
            elem = Val(
                text=under,
                qual="pathlib.Path()" if q.startswith("pathlib") else None,
                flags=target.flags & v.FLOWING,
                alts=alts,
            )
        if text is not None:
            info = paths.classify(posixpath.join(text, "x"))
            if info.secret and q != "os.walk":
                self._add(
                    "python.secret-list",
                    RiskLevel.MEDIUM,
                    Category.EXFILTRATION,
                    f"{q} lists {paths.describe(paths.classify(text))}",
                    node,
                )
        return Val(elem=elem, flags=target.flags & v.FLOWING)

    def _c_path(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if q in ("pathlib.Path.home", "os.path.expanduser") and not args:
            return Val(text="~", qual="pathlib.Path()")
        if q in SITE_DIRS:
            return SITE_DIRS[q]()
        if q == "pathlib.Path.cwd" or q == "os.getcwd":
            # after os.chdir(path), the directory moved to
            return Val(text=self._cwd or ".", qual="pathlib.Path()" if q.startswith("pathlib") else None)
        if q == "tempfile.gettempdir":
            return Val(text="/tmp")
        if q in ("tempfile.mkdtemp", "tempfile.mkstemp"):
            folder = (kwargs.get("dir") or (args[2] if len(args) > 2 else UNKNOWN)).text or "/tmp"
            prefix, suffix = (kwargs.get(k, UNKNOWN).text or "" for k in ("prefix", "suffix"))
            made = Val(text=f"{folder.rstrip('/')}/{prefix}{HOLE}{suffix}")
            if q == "tempfile.mkdtemp":
                self._made_temporary.add(made.text or "")
            else:
                self._fresh_files.add(made.text or "")
            # mkstemp: (fd, path), the descriptor known by its file's name (os.write(fd, data) writes there)
            return made if q == "tempfile.mkdtemp" else Val(items=[Val(text=made.text), made])
        if q == "tempfile.mktemp":
            # a name only: what the program writes there is known by that name (suffix and prefix kept)
            prefix, suffix = (kwargs.get(k, UNKNOWN).text or "" for k in ("prefix", "suffix"))
            return Val(text=f"/tmp/{prefix}{HOLE}{suffix}")
        flags = v.flowing(args)
        if q in ("os.path.join", "pathlib.Path", "pathlib.Path().joinpath"):
            parts = ([func.base] if q.endswith("joinpath") and func.base is not None else []) + args
            if not parts:
                return Val(text=".", qual="pathlib.Path()")
            text, alts = v.combine(parts, posixpath.join, HOLE)
            if q == "pathlib.Path":
                # `Path("")` is `.`, the working directory (`f"{Path('')}/"` is `./`, not the root)
                text = text or "."
                alts = tuple(a or "." for a in alts) if alts else alts
            return Val(text=text, alts=alts, qual="pathlib.Path()" if q != "os.path.join" else None, flags=flags)
        source = (
            func.base if q.startswith("pathlib.Path().") and func.base is not None else (args[0] if args else UNKNOWN)
        )
        strings = source.strings()
        if not strings:
            return Val(flags=source.flags & v.FLOWING, qual="pathlib.Path()" if q.startswith("pathlib") else None)
        op: Callable[[str], str]
        if q.endswith(("dirname", "parent")):
            op = _parent_directory
        elif q.endswith("basename"):
            op = posixpath.basename
        elif q.endswith("expandvars"):
            op = F.expandvars
        else:
            op = F.identity
        results = tuple(op(s) for s in strings)
        return Val(
            text=results[0],
            alts=results if len(results) > 1 else None,
            qual="pathlib.Path()" if q.startswith("pathlib") else None,
            flags=source.flags & v.FLOWING,
        )

    def _credential_env(self, key: Val) -> Val | None:
        """The value of an environment variable named like a token or a password, else None."""
        named = [
            k for k in key.strings()
            if T.CREDENTIAL_NAME.search(k) or _SERVICE_KEY_VARIABLE.search(k) or _PROXY_VARIABLE.match(k)
        ]  # fmt: skip
        if not named:
            return None
        # used in a header it authenticates, sent in a body it leaks
        self._credentials.update(named)
        return Val(flags=v.CREDENTIAL)

    def _c_env(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if q in ("os.environ.get", "os.getenv", "os.environ.__getitem__", "os.environ.setdefault", "os.environ.pop"):
            key = args[0] if args else UNKNOWN
            credential = self._credential_env(key)
            if credential is not None:
                return credential
            known = F.env_value(key.text)
            default = args[1] if len(args) > 1 else kwargs.get("default")
            if known.text is None and default is not None and q != "os.environ.pop" and default.text is not None:
                # unset (the usual case for an optional variable): the default is used; set: anything
                options = tuple(dict.fromkeys([*default.strings(), HOLE]))[: v.MAX_ALTS]
                return Val(text=options[0], alts=options, qual=default.qual, flags=default.flags & v.FLOWING)
            return known
        if q in (
            "os.environ.copy",
            "os.environ.items",
            "os.environ.values",
            "os.environ.keys",
            "builtins.dict",
            "os.environ.__repr__",
        ):
            return Val(flags=v.ENV)
        return Val(flags=v.ENV)

    def _c_env_set(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        # os.putenv("LD_PRELOAD", lib) / os.environ.update(LD_PRELOAD=lib, …) / os.environ.update({…})
        pairs: dict[str, Val] = dict(kwargs)
        if q == "os.putenv" and len(args) > 1 and args[0].text is not None:
            pairs[args[0].text] = args[1]
        elif args and args[0].keys:
            pairs.update(args[0].keys)
        self._preload_keys(pairs, node)
        return Val()

    def _c_decode(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        data = (
            (func.base or UNKNOWN)
            if q.startswith("builtins.bytes.fromhex") and not args
            else (args[0] if args else UNKNOWN)
        )
        flags = (data.flags & v.FLOWING) | v.DECODED
        text = data.text
        if q in ("codecs.decode", "codecs.encode"):
            encoding = (args[1].text if len(args) > 1 else kwargs.get("encoding", UNKNOWN).text) or ""
            if encoding.lower().replace("_", "").replace("-", "") in ("utf8", "ascii", "latin1", "utf16"):
                return Val(text=text, flags=data.flags & v.FLOWING)
        if q == "marshal.loads":
            self._add(
                "python.deserialization",
                RiskLevel.HIGH,
                Category.DESERIALIZATION,
                "marshal.loads builds code objects from bytes",
                node,
            )
            return Val(flags=flags | v.CODE)
        if text is None or any(HOLE in t for t in data.strings()):
            return Val(flags=flags)  # (one of the values it may have is known only at run time)
        decoded = F.decode(q, text, args, kwargs)
        return Val(text=decoded, flags=flags)

    def _c_chr(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if args and args[0].num is not None:
            try:
                return Val(text=chr(args[0].num), qual="<chr>", flags=v.DECODED)
            except (ValueError, OverflowError):
                pass
        return Val(flags=v.flowing(args) | v.DECODED)

    def _c_unicodedata(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``unicodedata.lookup("LATIN SMALL LETTER R")`` is ``"r"``; ``normalize("NFKC", …)`` folds fullwidth dots
        and slashes to ``..`` and ``/``."""
        try:
            if q == "unicodedata.lookup" and args and args[0].text is not None:
                return Val(text=unicodedata.lookup(args[0].text), qual="<chr>", flags=v.DECODED)
            form = _NORMAL_FORMS.get(args[0].text or "") if args else None
            if q == "unicodedata.normalize" and len(args) == 2 and form is not None:
                given = args[1].strings()
                if given and not any(HOLE in t for t in given):
                    folded = tuple(unicodedata.normalize(form, t) for t in given)
                    changed = v.DECODED if folded != tuple(given) else 0
                    return Val(text=folded[0], alts=folded if len(folded) > 1 else None,
                               flags=v.flowing(args[1:]) | changed)  # fmt: skip
        except (KeyError, ValueError):
            pass
        return Val(flags=v.flowing(args))

    def _c_bytes(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if args and args[0].num is not None and q != "builtins.dict":
            self._last_alloc = args[0].num
        if args and args[0].num is not None and args[0].num >= T.BIG_ALLOCATION:
            self._add(
                "python.big-allocation", RiskLevel.HIGH, Category.RESOURCE, f"{q} allocates {args[0].num:,} bytes", node
            )
            return Val()
        if args and args[0].items is not None and args[0].items and all(i.num is not None for i in args[0].items):
            try:
                return Val(
                    text=bytes(i.num for i in args[0].items if i.num is not None).decode("latin-1"), flags=v.DECODED
                )
            except (ValueError, TypeError):
                return Val(flags=v.DECODED)
        if args and args[0].text is not None:
            return Val(text=args[0].text, flags=args[0].flags & v.FLOWING)
        if q == "builtins.dict":
            self._preload_keys(kwargs, node)  # dict(os.environ, LD_PRELOAD=...): a child's environment
        if q == "builtins.dict" and args and args[0].qual == "os.environ":
            return Val(flags=v.ENV, keys=dict(kwargs) or None)  # the environment with these variables set
        flags = v.flowing(args)
        if args and args[0].qual == "os.environ":
            flags |= v.ENV
        return Val(flags=flags)

    def _c_str(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if not args:
            return Val(text="")
        if q in ("builtins.list", "builtins.tuple") and args[0].num is not None and args[0].num >= T.BIG_MATERIALISED:
            self._add(
                "python.big-allocation",
                RiskLevel.HIGH,
                Category.RESOURCE,
                f"{q} builds a {args[0].num:,}-element sequence in memory",
                node,
            )
        val = args[0]
        flags = val.flags & v.FLOWING
        if val.qual == "os.environ":
            flags |= v.ENV
        if q in ("builtins.list", "builtins.tuple"):
            # list(home.iterdir()) holds what iterating the argument yields
            return Val(items=val.items, elem=val.elem, flags=flags)
        if q in ("builtins.str", "builtins.repr") and val.text is None and val.num is not None:
            return Val(text=str(val.num), flags=flags)  # str(1) is "1": a pid, a port, a count
        if q in ("builtins.oct", "builtins.hex"):
            # `oct(0o755 | stat.S_ISUID)[2:]`: a mode spelled for chmod
            spell = oct if q == "builtins.oct" else hex
            return Val(text=spell(val.num) if val.num is not None else None, flags=flags)
        if q in ("json.dumps", "yaml.dump", "yaml.safe_dump") and (val.keys or val.items):
            # a manifest or a request body, spelled out (what it holds read at run time stays unknown and flowing)
            return Val(text=_render_json(val), flags=flags | _nested_flags(val))
        num = val.num if q == "builtins.int" else None
        base = args[1].num if q == "builtins.int" and len(args) > 1 else 10
        if q == "builtins.int" and num is None and val.text is not None and base in (2, 8, 10, 16):
            # `int(os.environ.get("TILE_CACHE_GB", "4096"))`: unset, the default is the number (in its base: `"777", 8`)
            try:
                num = int(val.text.strip(), base)
            except ValueError:
                num = None
        return Val(text=val.text, alts=val.alts, num=num, flags=flags)

    def _c_yaml_dump(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``yaml.safe_dump(obj)`` returns the document (``yaml.safe_dump(obj, fh)`` writes it, graded there)."""
        if len(args) > 1 or "stream" in kwargs:
            return Val()
        if q.endswith("_all") and args and args[0].items:
            # several documents, one after another
            return Val(text="\n---\n".join(_render_json(d) for d in args[0].items), flags=_nested_flags(args[0]))
        return self._c_str(q, func, args, kwargs, node)

    def _c_reorder(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """sorted()/reversed()/filter()/set(): the same elements, in another order or fewer of them."""
        if not args:
            return Val()
        val = args[-1] if q == "builtins.filter" else args[0]
        if q == "builtins.reversed" and val.text is not None and HOLE not in val.text:
            return Val(text=val.text[::-1], flags=(val.flags & v.FLOWING) | v.DECODED)  # a name spelt backwards
        return Val(items=val.items, elem=val.elem, flags=val.flags & (v.FLOWING | v.PROCITER))

    def _c_enumerate(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``enumerate(paths)``: (index, element) pairs, the element being whatever iterating ``paths`` gives."""
        if not args:
            return Val()
        element = self._element(args[0])
        return Val(elem=Val(items=[Val(), element], flags=element.flags & v.FLOWING),
                   flags=args[0].flags & v.FLOWING)  # fmt: skip

    def _c_zip(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``zip(a, b)``: tuples holding one element of each argument."""
        if not args or any(isinstance(a, ast.Starred) for a in node.args):
            return Val(flags=v.flowing(args))
        elements = [self._element(a) for a in args]
        return Val(elem=Val(items=elements, flags=v.flowing(elements)), flags=v.flowing(args))

    def _c_alloc(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if node.args and _sized_by_free_memory(ast.unparse(node.args[0]), "\n".join(self.lines)):
            # `torch.empty(int(free * 0.98), device="cuda:0")`: whatever is free, taken from everyone else
            self._add("python.big-allocation", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} takes all the memory that is free (on a shared GPU or host)", node)  # fmt: skip
        size = args[0] if args else kwargs.get("shape", UNKNOWN)
        total = size.num
        if total is None and size.items:
            total = 1
            for item in size.items:
                if item.num is None:
                    total = None
                    break
                total *= item.num
        if q == "mmap.mmap" and len(args) > 1:
            total = args[1].num
        self._last_alloc = total
        if total is not None and total >= T.BIG_ALLOCATION:
            self._add(
                "python.big-allocation", RiskLevel.HIGH, Category.RESOURCE, f"{q} allocates {total:,} elements", node
            )
        if q == "mmap.mmap":
            prot = kwargs.get("prot", UNKNOWN)
            if prot.num is not None and prot.num & 4:  # PROT_EXEC
                self._add(
                    "python.shellcode",
                    RiskLevel.HIGH,
                    Category.PROCESS,
                    "maps executable memory (shellcode loader)",
                    node,
                )
            return Val(qual="mmap.mmap()")
        return Val()

    def _c_range(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        nums = [a.num for a in args]
        count: int | None = None
        if len(nums) == 1 and nums[0] is not None:
            count = nums[0]
        elif len(nums) >= 2 and nums[0] is not None and nums[1] is not None:
            count = nums[1] - nums[0]
        return Val(num=count, elem=Val(flags=v.LOOPVAR | (v.flowing(args) & ~v.LOOPVAR)))

    def _c_iter_forever(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if q == "builtins.iter":
            # iter(int, 1) never stops (int() is never 1); iter(f.read, b"") stops at EOF.
            if len(args) == 2 and args[0].qual in (
                "builtins.int",
                "builtins.float",
                "builtins.str",
                "builtins.list",
                "builtins.object",
                "builtins.bool",
                "builtins.dict",
            ):
                return Val(qual="<iter-sentinel>")
            return Val(
                flags=v.flowing(args), elem=args[0].elem if args else None, items=args[0].items if args else None
            )
        return Val(qual="itertools.count()")

    def _c_globals(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if q == "builtins.vars" and args and args[0].qual:
            return Val(qual=args[0].qual)
        return Val(qual="<globals>")

    def _c_getattr(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if len(args) < 2:
            return Val()
        obj, name = args[0], args[1]
        if obj.qual is not None and obj.qual.endswith("()") and name.text is not None and HOLE not in name.text:
            return Val(qual=self._norm(f"{obj.qual}.{name.text}"), base=obj)  # getattr(client, "flush" + "all")
        if obj.qual is None or obj.qual.endswith("()"):
            return Val(flags=(obj.flags | name.flags) & v.FLOWING)
        # Only a module counts ("os", "os.path"), not a class reached through one ("builtins.object").
        is_module = "." not in obj.qual or obj.qual in ("os.path",)
        if name.text is None or HOLE in name.text:
            if is_module:
                level = RiskLevel.HIGH if obj.qual in T.DANGEROUS_MODULES else RiskLevel.MEDIUM
                self._add(
                    "python.dynamic-attribute",
                    level,
                    Category.DYNAMIC_CODE,
                    f"looks up an attribute of {obj.qual} by a name known only at run time",
                    node,
                )
            return Val()
        target = self._norm(f"{obj.qual}.{name.text}")
        obfuscated = not (isinstance(node.args[1], ast.Constant))
        if target in T.DANGEROUS_TARGETS or (obfuscated and is_module and obj.qual in T.DANGEROUS_MODULES):
            # subprocess's argv is analysed like any other call's: the lookup hides nothing of what runs
            shown = target.startswith("subprocess.")
            self._add(
                "python.indirect-call",
                RiskLevel.MEDIUM if shown else RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"reaches {target} indirectly through getattr" + (" with a computed name" if obfuscated else ""),
                node,
            )
        return Val(qual=target)

    def _c_sys_path(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``sys.path.insert(0, "/tmp/tools.zip")``: what is imported next may come from that download."""
        entry = args[-1] if args else UNKNOWN
        folders = [t.rstrip("/") + "/" for t in entry.strings() if len(t.split(HOLE, 1)[0]) >= 2]
        if (
            entry.flags & v.NET
            or any(t in self.downloaded for t in entry.strings())
            or any(d.startswith(folder) for d in self.downloaded for folder in folders)  # a module saved into it
        ):
            self._downloaded_on_path = True
        return Val()

    def _c_import(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        name = args[0] if args else kwargs.get("name", UNKNOWN)
        if self._downloaded_on_path:
            self._add("python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{q} imports code downloaded at run time (the download was put on sys.path)", node)  # fmt: skip
        if (name.text is None or HOLE in name.text) and name.flags & v.NET:
            # `import_module(spec["module"])` for a spec downloaded: the server picks what runs (and getattr, what)
            self._add("python.remote-code", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{q} imports a module a network response names", node)  # fmt: skip
            return Val()
        if name.text is None or HOLE in name.text:
            self._add(
                "python.dynamic-import",
                RiskLevel.MEDIUM,
                Category.DYNAMIC_CODE,
                f"{q} imports a module whose name is known only at run time",
                node,
            )
            return Val()
        computed = bool(node.args) and not isinstance(node.args[0], ast.Constant)
        if name.flags & v.DECODED or (computed and name.text.split(".")[0] in T.DANGEROUS_MODULES):
            self._add(
                "python.obfuscated-import",
                RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"imports {name.text} under an obfuscated (computed) name",
                node,
            )
        module = name.text
        fromlist = args[3] if len(args) > 3 else kwargs.get("fromlist", UNKNOWN)
        if q == "builtins.__import__" and "." in module and not fromlist.items:
            module = module.split(".")[0]  # __import__("os.path") returns os
        return Val(qual=self._norm(module))

    def _c_eval(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        code = args[0] if args else kwargs.get("source", kwargs.get("code", UNKNOWN))
        if q == "builtins.execfile":
            # Python 2's execfile(path): the code is the file's, from the network when the file was downloaded
            fetched = any(self._fetched(t) for t in code.strings())
            code = Val(flags=v.NET) if fetched else Val(text="", flags=code.flags & v.NET)
        if code.text is not None and not code.text.strip() and node.args and not isinstance(node.args[0], ast.Constant):
            # nobody evaluates an empty string: the value is a lookup's default (`d.get("k", "")[7:]`), not the code
            code = Val(flags=code.flags)
        if q == "builtins.compile":
            # compile() alone runs nothing; the code object carries the text and provenance to exec().
            return Val(text=code.text, flags=(code.flags & v.FLOWING) | v.CODE)
        if q == "types.FunctionType" and node.args and isinstance(node.args[0], ast.Attribute):
            owner = self._ev(node.args[0].value)
            if node.args[0].attr == "__code__" and isinstance(owner.func, _FuncSummary):
                return Val()  # a copy of a function defined right here (other defaults or name)
        if (
            q in ("builtins.eval", "builtins.exec")
            and len(args) > 1
            and args[1].keys is not None
            and "__builtins__" in args[1].keys
            and not (code.flags & (v.NET | v.DECODED | v.TRANSFORMED))
        ):
            restricted = args[1].keys["__builtins__"]
            if (
                restricted.keys == {}
                or restricted.qual == "builtins.None"
                or (
                    isinstance(node.args[1], ast.Dict)
                    and any(isinstance(val, ast.Constant) and val.value is None for val in node.args[1].values)
                )
            ):
                self._add(
                    "python.dynamic-code",
                    RiskLevel.MEDIUM,
                    Category.DYNAMIC_CODE,
                    f"{q} evaluates code with the builtins removed (restricted, though not a sandbox)",
                    node,
                )
                return Val()
        self._run_code(code, node, q)
        return Val()

    def _run_code(self, code: Val, node: ast.AST, q: str) -> None:
        if code.flags & v.NET:
            self._add(
                "python.remote-code",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"{q} executes code received from the network",
                node,
            )
        elif code.flags & (v.DECODED | v.TRANSFORMED):
            self._add(
                "python.obfuscated-code",
                RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"{q} executes decoded (obfuscated) code",
                node,
            )
        elif code.flags & v.PARAMS and self.functions and code.text is None:
            self.functions[-1].exec_params |= code.flags & v.PARAMS
            # a pytest test runs the examples its parametrize gives it (the project's own docs), not a caller's
            test = self.functions[-1].name.startswith("test_") and "parametrize" in self._code
            self._add(
                "python.dynamic-code",
                RiskLevel.MEDIUM if test else RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"{q} executes code passed in as an argument",
                node,
            )
        elif code.flags & v.LOCALFILE and code.text is None:
            self._add(
                "python.exec-file",
                RiskLevel.MEDIUM,
                Category.DYNAMIC_CODE,
                f"{q} executes the content of a local file",
                node,
            )
        elif code.text is None or any(HOLE in s for s in code.strings()):
            self._add(
                "python.dynamic-code",
                RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"{q} executes code that is only known at run time",
                node,
            )
        if code.text is not None and code.text.strip(HOLE):
            if code.text == HOLE:
                return
            if self.depth >= MAX_DEPTH:
                self._add(
                    "python.deep-nesting",
                    RiskLevel.MEDIUM,
                    Category.DYNAMIC_CODE,
                    "code nested too deeply to analyse",
                    node,
                )
                return
            found = analyze_python(
                code.text.replace(HOLE, HOLE_WORD), parse_error_level=self.parse_error_level, depth=self.depth + 1
            )
            if not (code.flags & v.DECODED) and not found:
                self._add(
                    "python.eval-constant", RiskLevel.LOW, Category.DYNAMIC_CODE, f"{q} of a constant expression", node
                )
            self._merge_nested(found, node, q)

    def _c_pickle(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        data = (func.base if q.endswith("().load") else None) or (
            args[0] if args else kwargs.get("stream", kwargs.get("data", UNKNOWN))
        )
        if any(self._fetched(t) or t.startswith(_REMOTE_SCHEMES) for t in data.strings()):
            # a file fetched from the network earlier, or read straight from a URL (pandas, joblib, fsspec)
            data = Val(text=data.text, flags=data.flags | v.NET)
        if q.startswith("yaml.") or q.startswith("ruamel"):
            loader = kwargs.get("Loader", args[1] if len(args) > 1 else UNKNOWN)
            loader_name = (loader.qual or "").rsplit(".", 1)[-1]
            if isinstance(loader.func, _ClassInfo):
                # `class Loader(yaml.SafeLoader)` given a constructor for `!secret`: still the safe loader
                loader_name = next((b.rsplit(".", 1)[-1] for b in loader.func.bases if b), loader_name)
            if q in ("yaml.load", "yaml.load_all") and loader_name in T.SAFE_YAML_LOADERS:
                return Val(flags=data.flags & v.FLOWING)
            if q.startswith("yaml.full_load") or loader_name == "FullLoader":
                level = RiskLevel.MEDIUM
            else:
                level = RiskLevel.HIGH
            if data.flags & v.NET:
                level = RiskLevel.CRITICAL
            self._add(
                "python.deserialization",
                level,
                Category.DESERIALIZATION,
                f"{q} without a safe loader can construct arbitrary objects",
                node,
            )
            return Val(flags=data.flags & v.FLOWING)
        if q == "torch.load" and kwargs.get("weights_only", UNKNOWN).num == 1:
            return Val()
        if data.qual == "pickle.dumps()" or (
            ".makePickle(" in self._code and not data.flags & (v.NET | v.DECODED) and q == "pickle.loads"
        ):
            # pickle.loads(pickle.dumps(obj)), a log handler's makePickle(record): this process's own object
            return Val()
        if q == "torch.load" and kwargs.get("weights_only", UNKNOWN).num == 0 and not data.flags & v.NET:
            self._add("python.deserialization", RiskLevel.HIGH, Category.DESERIALIZATION,
                      "torch.load with weights_only=False turns off the safe loader (the file can run code)",
                      node)  # fmt: skip
            return Val(flags=data.flags & v.FLOWING)
        if q == "numpy.load" and kwargs.get("allow_pickle", UNKNOWN).num != 1:
            return Val()
        if data.flags & v.NET:
            level = RiskLevel.CRITICAL
            why = "data received from the network"
        elif data.text is not None and all(HOLE not in t for t in data.strings()) and q.endswith("loads"):
            bad = [
                g
                for g in F.pickle_globals(data.text.encode("latin-1"))
                if g.split(".")[0]
                in ("os", "posix", "subprocess", "builtins", "__builtin__", "nt", "pty", "socket", "commands")
            ]
            level = RiskLevel.CRITICAL if bad else RiskLevel.MEDIUM
            why = f"a payload that imports {', '.join(bad)}" if bad else "a constant payload"
        elif data.flags & v.DECODED:
            level, why = RiskLevel.HIGH, "a decoded payload"
        elif q in _PATH_LOADERS and any(self._fetched(t) or self._fetched(t + ".db") for t in data.strings()):
            # (`curl -o /tmp/state.db URL` … `shelve.open("/tmp/state")`: dbm adds the suffix)
            level, why = RiskLevel.CRITICAL, "a downloaded file"
        elif any(_dropped_file(t, DROP_BOXES if not data.flags & v.LOCALFILE else _PROJECT_DROP_BOXES)
                 for t in data.strings()) and not set(data.strings()) & self._binary_writes():  # fmt: skip
            level, why = RiskLevel.HIGH, "files others can drop in an upload or shared directory"
        elif data.flags & v.LOCALFILE or (
            q in ("shelve.open", "joblib.load", "torch.load", "numpy.load", "pandas.read_pickle", "pickle.load")
            and (data.qual in ("builtins.open()",) or data.text is not None)
        ):
            level, why = RiskLevel.MEDIUM, "a local file"
        elif (
            not data.flags & v.NET
            and re.search(r"\bopen\(|\.read_bytes\(\)|\.read\(\)", ast.unparse(node))
            and re.search(r"\b(?:pickle|joblib)\.dumps?\(", "\n".join(self.lines))
        ):
            level, why = RiskLevel.MEDIUM, "a cache the program writes itself"
        elif q.startswith("marshal.") and (data.qual or "").startswith("subprocess.Popen()"):
            # `marshal.load(proc.stdout)` of `p4 -G …`: the records a program this code runs writes for it
            level, why = RiskLevel.MEDIUM, "what a program this code runs prints"
        else:
            level, why = RiskLevel.HIGH, "data of unknown origin"
        if q == "shelve.open" and why != "a downloaded file":
            level = min(level, RiskLevel.LOW)
        self._add(
            "python.deserialization",
            level,
            Category.DESERIALIZATION,
            f"{q} unpickles {why} (can run arbitrary code)",
            node,
        )
        return Val(flags=data.flags & v.FLOWING)

    # -- processes
    def _c_magic(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``get_ipython().run_cell_magic("bash", "", script)`` and ``run_line_magic("run", "-i x.py")``: the cell
        or line magic a notebook cell spells, run as a call."""
        name = (args[0].text or "") if args else ""
        line = args[1] if len(args) > 1 else UNKNOWN
        if q.endswith("run_cell_magic"):
            cell = args[2] if len(args) > 2 else UNKNOWN
            shell = name in ("bash", "sh", "script", "system") and (name != "script" or "sh" in (line.text or ""))
            if shell:
                return self._shell_string(cell, node, f"%%{name}")
            if name in ("python", "python3") and cell.text is not None:
                found = analyze_python(cell.text.replace(HOLE, "_"), parse_error_level=RiskLevel.LOW,
                                       depth=self.depth + 1)  # fmt: skip
                self._merge_nested([f for f in found if f.level >= RiskLevel.MEDIUM], node, f"a %%{name} cell")
            return Val()
        words = (line.text or "").split()
        script = words[-1] if words else ""
        if name in ("system", "sx"):
            return self._shell_string(line, node, f"%{name}")
        if name in ("run", "load", "loadpy") and script:
            fetched = self._fetched(script) or "://" in script
            if fetched:
                self._add("python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                          f"%{name} runs a script downloaded from the network ({script})", node)  # fmt: skip
        return Val()

    def _c_notebook_file(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``nbformat.write(nb, path)`` writes a notebook over ``path``; ``papermill.execute_notebook(url, out)`` runs
        every cell of the notebook it reads (from a URL: code from the network)."""
        if q.startswith("papermill."):
            source = args[0] if args else kwargs.get("input_path", UNKNOWN)
            for text in source.strings()[:2]:
                host = urllib.parse.urlsplit(text).hostname or "" if text.startswith(("http://", "https://")) else ""
                if (host and not internal_host(host)) or self._fetched(text):
                    self._add("python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                              f"{q} runs every cell of a notebook fetched from the network ({text})", node)  # fmt: skip
                    break
            return Val()
        target = args[1] if len(args) > 1 else kwargs.get("fp", UNKNOWN)
        for text in target.strings()[:2]:
            self._mass_overwrite(text, node, q)
            self._write(paths.classify(text), node, via=q)
        return Val()

    def _c_embedded_r(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``rpy2.robjects.r("…")``: R code run inside this process, graded like ``Rscript -e``."""
        from sandlot.risk.shell_analyzer import analyze_inline_code

        for text in (args[0].strings() if args else [])[:2]:
            self._merge_nested(analyze_inline_code("Rscript", text, depth=self.depth + 1), node, f"R code run by {q}")
        return Val()

    def _c_wasm(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``wasmtime.Module(engine, downloaded)``, ``extism.Plugin({"wasm": [{"url": …}]})``: a WebAssembly module
        from the network, run with whatever the host grants it (directories, variables, host functions)."""
        given = [*args, *kwargs.values()]
        fetched = any(a.flags & (v.NET | v.DECODED) for a in given) or any(
            self._fetched(t) for a in given for t in a.strings()[:2]
        )
        urls = [t for a in given for t in _all_strings([a], keys=True) if t.startswith(("http://", "https://"))]
        outside = [u for u in urls if not internal_host(urllib.parse.urlsplit(u).hostname or "")]
        if fetched or outside:
            self._add("python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{q} runs a WebAssembly module fetched from the network", node)  # fmt: skip
        return Val(qual=f"{q}()")

    def _c_shell(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        command = args[0] if args else kwargs.get("command", kwargs.get("cmd", UNKNOWN))
        if q == "os.startfile":
            return Val()
        if command.items is not None and q.startswith("pexpect"):
            return self._argv_call(q, command.items, node, kwargs)
        return self._shell_string(command, node, q)

    def _shell_string(self, command: Val, node: ast.AST, q: str) -> Val:
        self._add("python.process", RiskLevel.LOW, Category.PROCESS, f"{q} runs a shell command", node)
        secret = 0
        if command.flags & v.NET:
            self._add(
                "python.remote-command",
                RiskLevel.CRITICAL,
                Category.PROCESS,
                f"{q} runs a command received from the network",
                node,
            )
        elif command.flags & v.DECODED and not command.flags & v.NET:
            self._add(
                "python.obfuscated-command",
                RiskLevel.HIGH,
                Category.PROCESS,
                f"{q} runs a decoded (obfuscated) command",
                node,
            )
        elif command.flags & v.INPUT:
            self._add(
                "python.input-command", RiskLevel.HIGH, Category.PROCESS, f"{q} runs a command typed by the user", node
            )
        if command.flags & v.PARAMS and self.functions:
            self.functions[-1].shell_params |= command.flags & v.PARAMS
        strings = command.strings()
        if not strings or all(not s.strip(HOLE + " ") for s in strings):
            if not command.flags & (v.NET | v.DECODED | v.INPUT):
                self._add(
                    "python.dynamic-command",
                    RiskLevel.MEDIUM,
                    Category.PROCESS,
                    f"{q} runs a shell command built at run time",
                    node,
                )
            return Val(flags=command.flags & v.FLOWING)
        for text in strings[:4]:
            found = self._shell_findings(text, node, q, parse_error_level=self.parse_error_level)
            self._merge_nested(found, node, q)
            # `for host in inventory: Popen(f"… | ssh {host}")`: what it does to one host, it does to each
            self._fleet_command(q, text, found, node, self._in_loop() and "ssh" in text)
            if any(f.category is Category.EXFILTRATION for f in found):
                secret = v.SECRET
            if _prints_environment(text):
                secret |= v.ENV  # `os.popen("env").read()`: every variable, tokens included
            for word in text.split():
                if word in self.downloaded:
                    self._add(
                        "python.download-exec",
                        RiskLevel.CRITICAL,
                        Category.DYNAMIC_CODE,
                        "runs a file downloaded from the network",
                        node,
                    )
        return Val(flags=(command.flags & v.FLOWING) | secret)

    def _c_subprocess(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        command = args[0] if args else kwargs.get("args", UNKNOWN)
        shell = kwargs.get("shell", UNKNOWN)
        self._socket_stdio(kwargs, node)
        if q.endswith("Popen") and self._fast_endless_loop():
            # nothing waits for the processes it starts: they pile up until the machine runs out of them
            self._add("python.fork-storm", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} starts a process in every round of an endless loop that never pauses", node)  # fmt: skip
        if shell.num == 1 or (shell.num is None and "shell" in kwargs):
            if command.items is not None:
                command = Val(text=" ".join(i.text or HOLE for i in command.items), flags=command.flags)
            return self._shell_string(command, node, q)
        if command.items is not None:
            # `for t in glob(...) + ["index.txt"]: run(["shred", t])`: each alternative is its own command line
            variants = _argv_variants(command.items)
            result = self._argv_call(q, variants[0], node, kwargs)
            for variant in variants[1:]:
                result.flags |= self._argv_call(q, variant, node, kwargs).flags
        elif command.strings():
            result = self._argv_call(q, [Val(text=command.text, flags=command.flags)], node, kwargs)
        else:
            result = self._argv_call(q, [Val(flags=command.flags)], node, kwargs)
        result.qual = "subprocess.Popen()" if q == "subprocess.Popen" else None
        words = command.items if command.items is not None else [command]
        shown = (words[0].text or "") if words else ""
        if "executable" in kwargs and (shown.startswith("[") or posixpath.basename(shown) in SYSTEM_PROCESS_NAMES):
            # argv[0] is only a label when executable= names the program: it shows in ps as something else
            self._add("python.masquerade", RiskLevel.HIGH, Category.PROCESS,
                      f"{q} starts a program disguised as {shown[:40]!r} (a kernel thread or system daemon)",
                      node)  # fmt: skip
        manifest = kwargs.get("input", UNKNOWN).text
        if words and posixpath.basename(words[0].text or "") in ("kubectl", "oc") and manifest:
            self._manifest(manifest, node)  # `kubectl apply -f -` fed the document on stdin
        if words and any(posixpath.basename(t) in _MODULE_TOOLS for t in words[0].strings()) and any(
            w.text == "python" for w in words[1:2]
        ):
            # `exec(lmod python load gcc)`: the environment changes a module system prints for Python (its own init)
            result.flags = v.LOCALFILE
        looping = self._in_loop() and not self._name_filters
        source = ast.unparse(node.args[0]) if node.args and looping else ""
        if "__file__" in source or "sys.argv[0]" in source:
            # each copy starts more copies of itself: exponential growth until the process table is full
            self._add("python.fork-bomb", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} starts copies of this very script in a loop (each does the same)", node)  # fmt: skip
        if q == "subprocess.Popen" and self._in_loop() and any(
            paths.classify(t.split(HOLE, 1)[0] or "/").kind in _WHOLE_TREES and HOLE in t
            for w in words[1:] for t in w.strings()
        ):  # fmt: skip
            self._add("python.process-storm", RiskLevel.HIGH, Category.RESOURCE,
                      "starts a process for every file of a whole tree without waiting (thousands at once)",
                      node)  # fmt: skip
        program = posixpath.basename(words[0].text or "") if words else ""
        current = self.functions[-1] if self.functions else None
        rounds = math.prod(lp.count or 1 for lp in self.loops if lp.function is current) * math.prod(self._comp_rounds)
        if q == "subprocess.Popen" and rounds >= MASS_COUNT:
            # every round starts one more process and none is waited for: hundreds at once (VMs, workers, pulls)
            self._add("python.process-storm", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} starts {rounds:,} processes at once ({program or 'a program'}), none waited for",
                      node)  # fmt: skip
        if q == "subprocess.Popen" and program in T.SHELL_NAMES and not any(w.text == "-c" for w in words[1:]):
            self._stdin_shells.append(result)  # what is written to its stdin is run as commands
        return result

    def _c_popen_input(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``proc.communicate(b"cmd")`` / ``proc.stdin.write(b"cmd")`` on a shell reading stdin runs cmd."""
        handle = func.base
        if handle is not None and q.endswith(".stdin.write"):
            handle = handle.base
        data = args[0] if args else kwargs.get("input", UNKNOWN)
        if handle is not None and any(handle is h for h in self._stdin_shells) and data.strings():
            self._shell_string(data, node, "commands written to a shell's stdin")
        return Val()

    def _c_exec_family(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        program_index, argv_index, is_list = T.EXEC_FAMILY[q]
        if q == "pty.spawn":
            first = args[0] if args else UNKNOWN
            items = first.items if first.items is not None else [first]
            result = self._argv_call(q, items, node, kwargs)
            return result
        program = args[program_index] if len(args) > program_index else UNKNOWN
        if is_list:
            rest = args[argv_index] if len(args) > argv_index else UNKNOWN
            tail = (rest.items or [])[1:] if rest.items is not None else [Val(text=HOLE)]
            shown = (rest.items[0].text or "") if rest.items else ""
            if shown.startswith("[") or (
                posixpath.basename(shown) in SYSTEM_PROCESS_NAMES
                and posixpath.basename(shown) != posixpath.basename(program.text or "")
            ):
                # argv[0] is only what ps shows: the program runs disguised as a kernel thread or a daemon
                self._add("python.masquerade", RiskLevel.HIGH, Category.PROCESS,
                          f"{q} runs a program disguised as {shown[:40]!r} (a kernel thread or system daemon)",
                          node)  # fmt: skip
        else:
            tail = args[argv_index:]
        return self._argv_call(q, [program, *tail], node, kwargs)

    def _argv_call(self, q: str, items: Sequence[Val], node: ast.AST, kwargs: dict[str, Val]) -> Val:
        words = [i.text if i.text is not None else (str(i.num) if i.num is not None else HOLE) for i in items]
        flags = v.flowing(items)
        program = words[0] if words else HOLE
        if posixpath.basename(program) in DB_DUMPERS:
            # `pg_dump --file OUT`: the dump is a file this program writes (removed again after its upload)
            self._self_written.update(W.option_values(words[1:], "--file", "-f", "--result-file"))
        plaintext = W.encryption_input(posixpath.basename(program), words[1:])
        if plaintext:
            self._archived.add(plaintext)  # `run(["gpg", "-r", who, "-e", out])`: a copy of it is kept, encrypted
        if (
            posixpath.basename(program) in T.SHELL_NAMES
            and "-c" not in words[1:]
            and len([w for w in words[1:] if not w.startswith("-")]) == 0
        ):
            self._interactive_shell(node)
            script = kwargs.get("input")
            if script is not None and script.strings():
                self._shell_string(script, node, f"{q} (commands on stdin)")
        self._add(
            "python.process",
            RiskLevel.LOW,
            Category.PROCESS,
            f"{q} starts {posixpath.basename(program).replace(HOLE, '…') or 'a program'}",
            node,
        )
        # (`git -C DIR` is no code option: short options keep their case)
        code_flags = [items[i + 1].flags for i, w in enumerate(words[:-1])
                      if w in _CODE_OPTIONS or (len(w) > 2 and w.lower() in _CODE_OPTIONS)]  # fmt: skip
        if posixpath.basename(program) == "ansible":
            code_flags += [items[i + 1].flags for i, w in enumerate(words[:-1]) if w in ("-a", "--args")]
        elif posixpath.basename(program) in ("ssh", "pdsh", "clush") and len(items) > 2:
            code_flags.append(items[-1].flags)  # `ssh host CMD`: what runs on the host
        elif posixpath.basename(program) in ("rails", "gitlab-rails") and "runner" in words[:-1]:
            code_flags.append(items[words.index("runner") + 1].flags)  # `rails runner CODE`: Ruby run in the app
        if any(f & (v.NET | v.DECODED) for f in code_flags):
            # `run(["osascript", "-l", "JavaScript", "-e", src])` with src fetched a moment ago
            self._add("python.remote-code", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{q} runs code received from the network or decoded "
                      f"({posixpath.basename(program).replace(HOLE, '…')})", node)  # fmt: skip
        typed = kwargs.get("input", UNKNOWN)
        tried = self._tried_passwords.setdefault(id(node), set())
        tried.update(typed.strings())
        several = typed.flags & (v.LOOPVAR | v.LINE) or len(set(typed.alts or ())) >= 2 or len(tried) >= 2
        if posixpath.basename(program) in _PASSWORD_PROMPTERS and several and self._in_loop():
            # `run(["kinit", user], input=pw)` over a list of passwords: each one typed at the login prompt
            self._add("python.brute-force", RiskLevel.HIGH, Category.NETWORK,
                      f"{q} types passwords from a list into {posixpath.basename(program)} (password guessing)",
                      node)  # fmt: skip
        if posixpath.basename(program) in FLASH_TOOLS and any(self._fetched(w.split(":")[-1]) for w in words[1:]):
            self._add("python.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{q} flashes firmware downloaded from the network into a device "
                      f"({posixpath.basename(program)}: unverified code runs on the hardware)", node)  # fmt: skip
        if any(w.startswith(("stratum+tcp://", "stratum+ssl://", "stratum2+tcp://")) for w in words):
            self._add("python.miner", RiskLevel.HIGH, Category.RESOURCE, f"{q} starts a miner (a mining pool)", node)
        # (`render01`…`render16` from an inventory: named machines checked, not an address range swept)
        named_series = any(HOLE in w for w in words[1:]) and all(
            re.match(r"[A-Za-z][\w-]*" + HOLE + r"[\w-]*(?:\.[A-Za-z][\w-]*)*$", w) for w in words[1:] if HOLE in w
        )
        if posixpath.basename(program) in T.PROBES and flags & v.LOOPVAR and self._in_loop() and not named_series:
            self._add(
                "python.port-scan",
                RiskLevel.HIGH,
                Category.NETWORK,
                f"runs {posixpath.basename(program)} against a range of hosts or ports (network scan)",
                node,
            )
        if posixpath.basename(program) in T.COPY_OUT_PROGRAMS and any(w in self.staged for w in words[1:]):
            self._add(
                "python.exfiltration",
                RiskLevel.CRITICAL,
                Category.EXFILTRATION,
                f"{q} sends a file holding secret data ({posixpath.basename(program)})",
                node,
            )
        # `["sudo", "bpftrace", path]`: bpftrace runs the file
        start = len(words) - len(W.unwrapped(words, ("sudo", "doas", "pkexec", "timeout", "nice")))
        interpreter = posixpath.basename(words[start] if start < len(words) else program).rstrip(
            "0123456789."
        ) in T.INTERPRETERS | T.RUNTIMES or words[start : start + 2] == ["go", "run"]  # `go run FILE.go`
        # `python -m pip install DIR`: the module runs, the downloaded path is its data
        if interpreter and "-m" not in words[1:2] and any(w in self.downloaded for w in words[1:]):
            self._add(
                "python.download-exec",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"{q} runs a downloaded file with {posixpath.basename(program)}",
                node,
            )
        stdin_code = kwargs.get("input") or kwargs.get("stdin")
        command_line = " ".join(words)
        if (
            stdin_code is not None
            and stdin_code.flags & (v.NET | v.DECODED)
            and re.search(r"\bcat\s*>\s*\S", command_line)
            and "chmod" in command_line
        ):
            # `run(["adb", "shell", "cat > /data/local/tmp/x && chmod 755 …"], input=b64decode(STAGE))`
            self._add("python.obfuscated-command", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{q} writes a decoded or downloaded payload into an executable file (a dropper)",
                      node)  # fmt: skip
        lowered_line = command_line.lower()
        if (
            stdin_code is not None
            and stdin_code.flags & (v.NET | v.DECODED)
            and any(k in lowered_line for k in INLINE_DESERIALIZERS)
            and "stdin" in lowered_line
        ):
            # `run(["rails", "runner", "Marshal.load(STDIN.read)"], input=requests.get(u).content)`
            self._add("python.deserialization", RiskLevel.CRITICAL, Category.DESERIALIZATION,
                      f"{q} has inline code deserialize data downloaded from the network (can run arbitrary code)",
                      node)  # fmt: skip
        reads_stdin_code = interpreter or posixpath.basename(program) in T.SHELL_NAMES | STDIN_REPLS | {"osascript"}
        # (`python -m pytest PATH`: a module's arguments, not code)
        module = "-m" in words[start + 1 : start + 2]
        if (interpreter and not module and v.flowing(items[start + 1 :]) & (v.NET | v.DECODED)) or (
            reads_stdin_code and stdin_code is not None and stdin_code.flags & (v.NET | v.DECODED)
        ):
            self._add(
                "python.remote-code",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"{q} hands downloaded or decoded code to {posixpath.basename(program)}",
                node,
            )
        base = posixpath.basename(program)
        if "insmod" in {posixpath.basename(w) for w in words[:3]} and self.downloaded:
            self._add("python.kernel-module", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{q} loads a kernel module after this program fetched code (a module built from it)",
                      node)  # fmt: skip
        if base in PACKAGE_TOOLS and _UNVERIFIED_GO_ENV.search("\n".join(self.lines)):
            self._add("python.untrusted-install", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{q} runs {base} with checksum or signature verification turned off (environment)",
                      node)  # fmt: skip
        if base in ("code", "code-insiders", "codium", "cursor") and "--install-extension" in words:
            package = words[words.index("--install-extension") + 1 :][:1]
            if package and self._fetched(package[0]):
                self._add("python.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                          f"{q} installs an editor extension file downloaded from the network", node)  # fmt: skip
        if base == "git" and "clone" in words:
            operands = [w for w in words[words.index("clone") + 1 :] if not w.startswith("-") and w != "1"]
            if len(operands) >= 2:
                self.downloaded.add(operands[1])  # a repository from elsewhere: its files are its author's
            elif operands:
                self.downloaded.add(posixpath.basename(operands[0].rstrip("/")).removesuffix(".git"))
        if base in COMPILERS:
            # compiling a downloaded source builds a downloaded program; a source given on stdin is analysed
            if any(w in self.downloaded for w in words[1:]):
                outputs = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "-o"] or ["a.out"]
                self.downloaded.update(outputs)
            self._inline_source(base, kwargs.get("input"), node)
        elif (base.rstrip("0123456789.") in T.RUNTIMES and "-" in words[1:2]) or (
            base == "osascript" and words[1:2] in ([], ["-"])
        ):
            self._inline_source(base, kwargs.get("input"), node)  # (`osascript -` reads its AppleScript on stdin)
        if program.startswith(("/proc/self/fd/", "/dev/fd/")) or (program == HOLE and self._memfd):
            # fileless: a program written into anonymous memory and run from there
            self._add(
                "python.download-exec",
                RiskLevel.CRITICAL if self._unnamed_download else RiskLevel.HIGH,
                Category.DYNAMIC_CODE,
                f"{q} runs a program from an anonymous memory file (fileless execution)",
                node,
            )
        unnamed = program == HOLE or (HOLE in program and paths.classify(program).kind is paths.PathKind.TEMP)
        if unnamed and self._unnamed_download and self._unnamed_executable:
            self._add(
                "python.download-exec",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"{q} runs a program that this code downloaded and made executable",
                node,
            )
        if flags & v.NET and program == HOLE:
            self._add(
                "python.remote-command",
                RiskLevel.CRITICAL,
                Category.PROCESS,
                f"{q} runs a program named by network data",
                node,
            )
        elif flags & v.DECODED and program == HOLE:
            self._add(
                "python.obfuscated-command",
                RiskLevel.HIGH,
                Category.PROCESS,
                f"{q} runs a decoded (obfuscated) program",
                node,
            )
        if flags & v.PARAMS and self.functions and program == HOLE:
            self.functions[-1].shell_params |= flags & v.PARAMS
        if program in self._dropped and program != HOLE:
            self._add("python.obfuscated-command", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                      f"{q} runs a program this code unpacked from an encoded blob (a dropper)", node)  # fmt: skip
        if program in self.downloaded or (
            program != HOLE and posixpath.basename(program) in {posixpath.basename(d) for d in self.downloaded}
        ):
            self._add(
                "python.download-exec",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                "runs a file downloaded from the network",
                node,
            )
        if posixpath.basename(program) in T.DOWNLOADER_PROGRAMS and not any(
            w in ("-o", "-O", "--output", "--remote-name", "-P") or w.startswith(("--output=", "-o")) for w in words[1:]
        ):
            flags |= v.NET  # curl/wget printing what they fetched: its stdout is network data
        # (or run inside a container: `docker exec docmost-db-1 pg_dump -Fc docmost`)
        contained = CONTAINER_VALUED if posixpath.basename(program) in ("docker", "podman") else None
        inside = W.skip_options(words[2:], contained)[1:] if contained and words[1:2] == ["exec"] else words
        if inside and posixpath.basename(inside[0]) in DB_DUMPERS and (inside[0] != "sqlite3" or ".dump" in inside):
            flags |= v.DUMP
        if posixpath.basename(program) in ("zfs", "btrfs") and "send" in words[1:3]:
            flags |= v.DUMP  # a whole dataset's stream
        from sandlot.risk.shell_analyzer import analyze_argv, stdin_code_language

        result = analyze_argv(
            words,
            line=getattr(node, "lineno", 0),
            column=getattr(node, "col_offset", 0),
            evidence=self._evidence(node),
            via=q,
            parse_error_level=self.parse_error_level,
            depth=self.depth + 1,
            every_container=bool(flags & v.EVERY_CONTAINER),
            # once per element of a loop: an unknown argument, or a loop over hosts (`ssh` to each one)
            repeated=self._in_loop()
            and not self._rotation_loop()
            and (any(HOLE in w or HOLE_WORD in w for w in words) or posixpath.basename(program) in ("ssh", "autossh")),
            staged=frozenset(self.staged),
            environment={k: val.text for k, val in (kwargs.get("env", UNKNOWN).keys or {}).items() if val.text},
            stdin=kwargs.get("input", UNKNOWN).text,
            cwd=kwargs.get("cwd", UNKNOWN).text,
            enclosing=self._code,
        )
        self.staged.update(result.staged)  # files the command filled with secret data (a guest's memory)
        self._bulk_files.update(result.dumps)  # `pg_dump -t patients -f /tmp/x.sql`: everyone's records, in a file
        found = result.findings
        listed = cancels_listed_jobs(posixpath.basename(program), words[1:], self._code, repeated=self._in_loop())
        if listed is not None:
            self._add("python.scheduler", listed.level, listed.category, listed.what, node)
        if any(f.rule_id == "shell.cloud-destroy" for f in found) and _IAC_APPLY.search(self._code) and not (
            production_target(self._code)
        ):
            # a test fixture's teardown: the stack this code applied (in a temporary directory) destroyed again
            found = [
                attrs.evolve(f, level=RiskLevel.MEDIUM) if f.rule_id == "shell.cloud-destroy" else f for f in found
            ]
        timeout = kwargs.get("timeout", UNKNOWN).num
        if timeout is not None and 0 < timeout <= 600:
            # `run([sys.executable, "-c", probe], timeout=2)`: the child is killed after that long, whatever it burns
            found = [attrs.evolve(f, level=min(f.level, RiskLevel.MEDIUM)) if f.rule_id.endswith(".cpu-burn") else f
                     for f in found]  # fmt: skip
        self._merge_nested(found, node, q)
        if kwargs.get("input", UNKNOWN).flags & (v.NET | v.DECODED) and stdin_code_language(words, inside_only=True):
            # `run(["docker", "exec", "-i", "app", "python3", "manage.py", "shell"], input=requests.get(URL).text)`
            self._add("python.remote-code", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      f"{q} gives code received from the network or decoded to an interpreter in a container or an "
                      "application's console", node)  # fmt: skip
        if schema_reset(" ".join(words)) and production_target("\n".join(self.lines)):
            self._add("python.drop-database", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{q} makes a migration tool drop every table of a production database", node)  # fmt: skip
        flags = (flags & v.FLOWING & ~v.EVERY_CONTAINER) | (v.SECRET if result.secret else 0)
        flags |= v.ENV if _prints_environment(" ".join(words)) else 0
        return Val(flags=flags | (v.EVERY_CONTAINER if result.every_container else 0))

    def _inline_source(self, name: str, source: Val | None, node: ast.AST) -> None:
        """C (or node, perl...) source handed to a compiler or runtime: what it would do when run."""
        from sandlot.risk.shell_analyzer import analyze_inline_code

        for text in (source.strings() if source is not None else [])[:2]:
            found = analyze_inline_code(name, text, depth=self.depth + 1)
            self._merge_nested([f for f in found if f.level >= RiskLevel.HIGH], node, f"source built by {name}")

    def _c_secret_store(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """keyring / Secret Service reads: one secret (MEDIUM), or all of them (HIGH); secret data either way."""
        if q in T.WHOLE_CREDENTIAL_READS:
            # the SDK's keys or the browser's session for a site: used here, routine; sent anywhere, a leak
            self._add("python.secret-read", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{q} reads a whole set of credentials (keys, a session's cookies)", node)  # fmt: skip
            return Val(flags=v.SECRET, qual=q + "()")
        every = (
            "all" in q.rsplit(".", 1)[-1] or q.endswith((".outputs", ".export_stack")) or self._in_loop()
            or bool(self._comp_rounds)  # (`{h: store.get(h) for h in hosts}`: one per host)
        )
        self._add("python.secret-read", RiskLevel.HIGH if every else RiskLevel.MEDIUM, Category.EXFILTRATION,
                  f"{q} reads " + ("every stored secret" if every else "a stored secret"), node)  # fmt: skip
        # one password used in a header logs in; every secret of the store sent anywhere leaks
        return Val(flags=v.SECRET if every else v.CREDENTIAL, qual=q + "()")

    def _c_product(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``product(alphabet, repeat=n)``: len(alphabet)**n tuples (a brute force past a handful)."""
        alphabet = args[0] if args else UNKNOWN
        size = len(alphabet.text) if alphabet.text and HOLE not in alphabet.text else None
        if size is None and alphabet.qual and alphabet.qual.startswith("string."):
            size = 62
        if size is None:
            size = _known_size(alphabet, node.args[0] if node.args else None)
        repeat = kwargs.get("repeat")
        count = size**repeat.num if size and repeat is not None and repeat.num is not None else None
        if size and size >= 26 and repeat is not None and (repeat.num is None or repeat.num >= 7):
            count = max(count or 0, 10**10)
        if repeat is None and len(args) >= 2:
            # `product(passwords, users)`: pairs of one element of each
            return Val(num=count, qual="itertools.product()", elem=self._c_zip(q, func, args, kwargs, node).elem)
        return Val(num=count, qual="itertools.product()", elem=Val(flags=v.flowing(args)))

    def _c_module_spec(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``importlib.util.find_spec(name)``: where an installed module lives (its ``.origin``)."""
        return Val(qual="importlib.util.find_spec()")

    def _c_installed_packages(
        self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call
    ) -> Val:
        """``site.getsitepackages()``, ``sysconfig.get_paths()``: the folders of installed packages."""
        folder = Val(text=INSTALLED_PACKAGES, qual="pathlib.Path()")
        if q == "sysconfig.get_paths":
            return Val(keys={"purelib": folder, "platlib": folder})
        return Val(items=[folder]) if q == "site.getsitepackages" else folder

    def _c_permutations(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``list(permutations(stops))``: n! orderings held in memory at once (past a dozen items, no machine's)."""
        items = args[0] if args else UNKNOWN
        size = len(items.items) if items.items is not None else (len(items.text) if items.text else None)
        if size is None:
            size = _known_size(items, node.args[0] if node.args else None)
        length = args[1] if len(args) > 1 else kwargs.get("r")
        short = length is not None and length.num is not None and length.num <= 3
        if not short and (size is None or size > _ORDERINGS_IN_MEMORY) and _MATERIALISED_ORDERINGS.search(self._code):
            what = f"{size} items" if size else "a data set of unknown size"
            self._add("python.memory-hog", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} of {what} is materialised whole (n! orderings: memory runs out past a dozen items)",
                      node)  # fmt: skip
        return Val(qual="itertools.permutations()", elem=Val(flags=v.flowing(args)))

    def _c_native_source(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """cffi's verify/set_source compile C source into the process."""
        source = args[1] if q.endswith("set_source") and len(args) > 1 else (args[0] if args else None)
        self._inline_source("cc", source, node)
        return Val()

    def _interactive_shell(self, node: ast.AST) -> None:
        """A shell reading commands from its stdin: a remote shell when the code also talks to a socket."""
        self._shells.append(node)
        if self._sockets:
            self._add(
                "python.reverse-shell",
                RiskLevel.CRITICAL,
                Category.NETWORK,
                "starts an interactive shell in code that holds a network connection (remote shell)",
                node,
            )
        else:
            self._add(
                "python.interactive-shell", RiskLevel.MEDIUM, Category.PROCESS, "starts an interactive shell", node
            )

    def _socket_stdio(self, kwargs: dict[str, Val], node: ast.AST) -> None:
        if any(kwargs.get(k, UNKNOWN).flags & v.SOCKFD for k in ("stdin", "stdout", "stderr")):
            self._add(
                "python.reverse-shell",
                RiskLevel.CRITICAL,
                Category.NETWORK,
                "connects a process's standard streams to a network socket (remote shell)",
                node,
            )

    def _c_dup2(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if args and args[0].flags & v.SOCKFD:
            self._add(
                "python.reverse-shell",
                RiskLevel.CRITICAL,
                Category.NETWORK,
                "redirects standard input/output to a network socket (remote shell)",
                node,
            )
        return Val()

    def _c_scapy(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if q.rsplit(".", 1)[-1] in ("sniff", "AsyncSniffer") and kwargs.get("iface", UNKNOWN).text in ("lo", "lo0"):
            # capturing this machine's own loopback traffic (debugging a local server)
            self._add("python.capture", RiskLevel.LOW, Category.NETWORK, f"{q} captures loopback traffic", node)
            return Val(flags=v.NET)
        if q.rsplit(".", 1)[-1] in ("sniff", "AsyncSniffer"):
            # listening sends nothing: graded as tcpdump is, unless what it looks for is people's logins (cleartext
            # login ports, passwords searched in the payloads) or every packet is passed on elsewhere
            logins = _SNIFFED_LOGINS.search(self._code) is not None and "Raw" in self._code
            relayed = "Raw" in self._code and _SENDS_ON.search(self._code) is not None
            if logins or relayed:
                self._add("python.capture", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"{q} captures other people's logins or traffic to keep or pass on", node)  # fmt: skip
            else:
                self._add("python.capture", RiskLevel.MEDIUM, Category.NETWORK, f"{q} captures network traffic", node)
            return Val(flags=v.NET)
        self._add(
            "python.raw-packets",
            RiskLevel.HIGH,
            Category.NETWORK,
            f"{q} sends hand-crafted packets (scanning or spoofing)",
            node,
        )
        return Val(flags=v.NET)

    def _c_chdir(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        self._cwd = args[0].text if args and args[0].text is not None else None
        return Val()

    def _c_file_server(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """SimpleHTTPRequestHandler serves the current directory (or ``directory=``) to the network."""
        address = args[0].items if args and args[0].items else []
        if address and address[0].text in ("0.0.0.0", "", "::"):
            self._listening_everywhere = True
        handler_val = args[1] if len(args) > 1 else UNKNOWN
        bound = handler_val.func if isinstance(handler_val.func, _Partial) else None
        served = (
            kwargs.get("directory", UNKNOWN).text
            or (bound.kwargs.get("directory", UNKNOWN).text if bound is not None else None)
            or self._cwd
        )
        handler = bound.target.qual if bound is not None else handler_val.qual
        file_handler = q.endswith("RequestHandler") or (handler or "").endswith(
            ("SimpleHTTPRequestHandler", "CGIHTTPRequestHandler")
        )
        if served is not None and file_handler:
            info = paths.classify(self._in_cwd(served))
            top = info.kind in (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP)
            if top or info.secret or (self._listening_everywhere and self._private_dirs([info.path])):
                self._add(
                    "python.file-server",
                    RiskLevel.HIGH,
                    Category.EXFILTRATION,
                    f"serves {paths.describe(info)} over HTTP",
                    node,
                )
        return Val(qual=q + "()")

    def _c_http_test(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``http.server.test(HandlerClass=SimpleHTTPRequestHandler, bind=…)``: ``python -m http.server`` as a call."""
        handler = kwargs.get("HandlerClass", args[0] if args else UNKNOWN)
        bind = kwargs.get("bind", UNKNOWN).text
        if (handler.qual or "").endswith("SimpleHTTPRequestHandler") and bind in (None, "", "0.0.0.0", "::"):
            self._listening_everywhere = True
            served = self._private_dirs([self._cwd or "."])
            info = paths.classify(self._in_cwd(self._cwd or "."))
            if served or info.kind in (paths.PathKind.ROOT, paths.PathKind.HOME_TOP):
                self._add("python.file-server", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"serves {paths.describe(info)} over HTTP on every interface (no login)", node)  # fmt: skip
        return Val()

    def _token_refresh(self, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> bool:
        """The call posts an OAuth grant (``grant_type``) to a token endpoint: a stored token exchanged where
        it was issued, not sent away."""
        urls = _all_strings(args[:1]) + _all_strings([kwargs.get("url", UNKNOWN)])
        constants = self._argument_constants(node)
        return "grant_type" in constants and any(_TOKEN_ENDPOINT.search(u) for u in urls)

    def _in_cwd(self, path: str) -> str:
        """``path`` as seen from the directory a constant ``os.chdir`` moved to (itself when absolute)."""
        if self._cwd is None or path.startswith(("/", "~")):
            return path
        return posixpath.normpath(posixpath.join(self._cwd, path))

    def _private_dirs(self, served: Sequence[str]) -> list[str]:
        """The directories of ``served`` that hold more than a project's output: people's files, a service's
        data or secrets, the home, the system."""
        found = []
        for d in served:
            info = paths.classify(self._in_cwd(d))
            outside = info.kind in (paths.PathKind.HOME_TOP, paths.PathKind.ROOT, paths.PathKind.HOME,
                                    paths.PathKind.EXTERNAL, paths.PathKind.SYSTEM)  # fmt: skip
            if paths.personal_media(info.path) or info.secret or outside:
                found.append(info.path)
        return found

    def _c_socket_new(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        kinds = {(a.qual or "").rsplit(".", 1)[-1] for a in [*args, *kwargs.values()]}
        if q == "socket.socket" and "AF_UNIX" in kinds:
            # a local service's control socket (HAProxy's runtime API, a daemon's admin socket): not the network
            return Val(qual="local_socket()")
        if kinds & {"SOCK_RAW", "AF_PACKET", "IPPROTO_RAW"}:
            self._add(
                "python.raw-socket",
                RiskLevel.HIGH,
                Category.NETWORK,
                "opens a raw socket (packet sniffing or spoofing)",
                node,
            )
        self._note_socket(node)
        if q == "socket.create_server" and args and args[0].items:
            self._listens(args[0].items[0].text, node)
        target = args[0].items if q == "socket.create_connection" and args and args[0].items else []
        if len(target) == 2 and _INTERNAL_ADDRESS.match(target[0].text or ""):
            self._local_service = target[1].num if target[1].num is not None else "?"
        if len(target) == 2 and str(target[1].num) in _CONSOLE_PORTS:
            self._console_port = _CONSOLE_PORTS[str(target[1].num)]
        self._note_outside_peer(target)
        if target and target[0].flags & v.NET:
            self._relays_for_network(node)
        return Val(qual="socket.socket()")

    def _note_outside_peer(self, target: list[Val]) -> None:
        """A connection to someone's own machine (dynamic DNS, a tunnel service) or a bare outside address."""
        host = (target[0].text or "") if len(target) == 2 else ""
        if host and (personal_host(host) or outside_address(host)):
            self._outside_peer = host

    def _relays_for_network(self, node: ast.AST) -> None:
        """A connection to whatever host the other end of a connection names: a relay (a SOCKS-like pivot)
        that lets whoever controls the other end reach every machine this one reaches."""
        self._add("python.tunnel", RiskLevel.HIGH, Category.NETWORK,
                  "connects to hosts that a remote peer names (a relay into the networks this machine reaches)",
                  node)  # fmt: skip

    def _note_socket(self, node: ast.AST) -> None:
        if not self._sockets:
            self._sockets = True
            for shell in self._shells:
                self._add(
                    "python.reverse-shell",
                    RiskLevel.CRITICAL,
                    Category.NETWORK,
                    "starts an interactive shell in code that holds a network connection (remote shell)",
                    shell,
                )

    def _c_socket_method(
        self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call
    ) -> Val | None:
        method = q.rsplit(".", 1)[-1]
        if method == "fileno":
            return Val(flags=v.SOCKFD)
        if method in ("recv", "recvfrom", "recv_into", "makefile", "read"):
            return Val(flags=v.NET, qual="builtins.open()" if method == "makefile" else None)
        if method == "accept":
            return Val(items=[Val(qual="socket.socket()"), Val()], qual="socket.socket()")
        target = args[0].items if args and args[0].items else []
        if method in ("connect", "connect_ex") and len(target) == 2 and _INTERNAL_ADDRESS.match(target[0].text or ""):
            self._local_service = target[1].num if target[1].num is not None else "?"
        if method in ("connect", "connect_ex"):
            self._note_outside_peer(target)
        if method == "connect" and target and target[0].flags & v.NET:
            self._relays_for_network(node)
        if method == "connect" and args and posixpath.basename(args[0].text or "") in ENGINE_SOCKETS:
            self._add("python.container-escape", RiskLevel.HIGH, Category.PRIVILEGE,
                      "connects to the container engine's socket directly (root on the host)", node)  # fmt: skip
        if method == "connect" and args:
            return None
        if method == "bind" and args and args[0].items:
            self._listens(args[0].items[0].text, node)
        return None

    def _listens(self, host: str | None, node: ast.AST) -> None:
        """A server socket bound to ``host``: on every interface, anyone who reaches this machine reaches it."""
        if host in ("0.0.0.0", "", "::"):
            self._listening_everywhere = True
            self._add("python.listener", RiskLevel.LOW, Category.NETWORK,
                      "listens for connections on all network interfaces", node)  # fmt: skip

    def _c_net_source(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        data = v.flowing(args) | v.flowing(kwargs.values())  # exfiltration: see _after_call
        self._add("python.network", RiskLevel.LOW, Category.NETWORK, f"{q} talks to the network", node)
        factory = T.INSTANCE_FACTORIES.get(q)
        return Val(flags=v.NET | (data & v.FLOWING & ~v.LOOPVAR), qual=factory)

    def _c_response(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        # a response of the metadata service's credential endpoint is as secret as the request said
        # (and a mailbox's listing as bulk as the request said)
        secret = func.base.flags & (v.SECRET | v.DUMP) if func.base is not None else 0
        return Val(flags=v.NET | secret)

    def _c_retrieve(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        self._add("python.network", RiskLevel.LOW, Category.NETWORK, f"{q} downloads a file", node)
        if len(args) > 1:
            self.downloaded.update(args[1].strings())
            if any(paths.app_code(t) for t in args[1].strings()):
                self._add("python.download-exec", RiskLevel.HIGH, Category.DYNAMIC_CODE,
                          f"{q} downloads code straight into an app being built", node)  # fmt: skip
            for text in args[1].strings():
                self._write(paths.classify(text), node, via=q)
        return Val(flags=v.NET)

    @staticmethod
    def _crm_records(q: str, args: list[Val]) -> int:
        """What a CRM or messaging client's listing holds: what customers wrote (network data), and private data
        when it lists people (contacts, leads, users, call recordings) or selects their identifying columns."""
        method = q.rsplit(".", 1)[-1]
        if method not in ("get_all", "get_page", "list", "search", "query", "query_all", "stream", "export", "get"):
            return 0
        people = _CRM_PEOPLE.search(q) or any(personal_data_query(t) for t in _all_strings(args[:1]))
        # tickets, messages and records are what customers (anyone) wrote: data from the network
        return v.NET | (v.SECRET if people else 0)

    def _hypervisor(self, method: str, node: ast.Call, args: list[Val], kwargs: dict[str, Val]) -> None:
        """libvirt, pyVmomi, proxmoxer: machines, snapshots and storage destroyed (every one a listing gives),
        consoles opened, host disks handed to guests, administrators planted, hosts filled with guests."""
        call = ast.unparse(node)
        written = " ".join(t for a in [*args, *kwargs.values()] for t in a.strings())
        risk = hypervisor_text_risk(f"{call} {written}")
        if risk is None and method == "set" and _XML_LISTEN_EVERYWHERE.search(call) and "graphics" in self._code:
            risk = OperationRisk(RiskLevel.HIGH, Category.NETWORK, "puts a VM's console on every network interface")
        many = self._in_loop() and not (self._file_filters or self._name_filters)
        if risk is None and (method in DESTROY_METHODS or (method in VM_DESTROY_WHEN_REPEATED and many)):
            level = RiskLevel.HIGH if many or "FORCE" in call else RiskLevel.MEDIUM
            risk = OperationRisk(level, Category.FILESYSTEM,
                                 f"{method} destroys or reverts virtual machines, snapshots or their storage"
                                 + (" (every one a listing gives)" if many else ""))  # fmt: skip
        elif (
            risk is None
            and (
                method in ("createXML", "defineXML", "create_vm", "CreateVM_Task", "CloneVM_Task")
                or (method == "post" and ".clone." in call)
            )
            and any(loop.unbounded or (loop.count or 0) >= 50 for loop in self.loops)
        ):
            risk = OperationRisk(RiskLevel.HIGH, Category.RESOURCE, f"{method} starts guests by the hundred")
        elif risk is None and method == "SetEntityPermissions" and re.search(r"roleId\s*=\s*-1\b", self._code):
            risk = OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "gives an account vCenter's Administrator role")
        elif risk is None and method in ("UpdateServicePolicy", "StartService") and "TSM-SSH" in call:
            risk = OperationRisk(RiskLevel.HIGH, Category.NETWORK, "turns SSH on for ESXi hosts")
        elif risk is None and method in ("put", "set") and "firewall" in call and (
            kwargs.get("enable", UNKNOWN).num == 0 or kwargs.get("policy_in", UNKNOWN).text == "ACCEPT"
        ):
            risk = OperationRisk(RiskLevel.HIGH, Category.NETWORK, "turns a Proxmox firewall off")
        elif (
            risk is None
            and method in ("put", "post", "set")
            and ".acl" in call
            and "Administrator" in written
            and (kwargs.get("path", UNKNOWN).text == "/")
        ):
            risk = OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "gives an account Administrator on every machine")
        elif risk is None and (
            (method == "ChangeLockdownMode" and "lockdownDisabled" in call)
            or (method == "UpdateUser" and _ROOT_ACCOUNT.search(self._code))
        ):
            risk = OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                 f"{method} resets ESXi's root password or lifts its lockdown mode")  # fmt: skip
        elif risk is None and method in ("ShutdownHost_Task", "RebootHost_Task") and self._in_loop():
            risk = OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                                 f"{method} on every ESXi host a listing gives (their machines go down)")  # fmt: skip
        elif risk is None and method in ("kill", "send_signal") and "qemu" in self._code and (
            method == "kill" or "SIGKILL" in call
        ) and self._in_loop():
            risk = OperationRisk(RiskLevel.HIGH, Category.PROCESS, "pulls the plug on the host's virtual machines")
        if risk is not None:
            self._add("python.hypervisor", risk.level, risk.category, risk.what, node)

    def _sharing(self, method: str, node: ast.Call) -> None:
        """Drive, SharePoint, Box and Dropbox: files shared with anyone, ownership handed over, the tenant opened
        to outsiders, legal holds removed over a listing."""
        if method in _SHARING_METHODS:
            risk = sharing_risk(" ".join(self._argument_constants(node)) + " " + ast.unparse(node))
            if risk is not None:
                self._add("python.documents", risk.level, risk.category, f"{method} {risk.what}", node)
        elif method in HOLD_METHODS and self._in_loop() and removes_holds(self._code):
            self._add("python.documents", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{method} removes every legal hold or retention policy a listing gives", node)  # fmt: skip

    def _api_deletes(self, q: str | None, node: ast.Call, kwargs: dict[str, Val]) -> None:
        """A SaaS client's delete (or archive, or trash emptying) called for every item a listing gave."""
        if self._file_filters or self._name_filters:
            return  # the loop picks some items (a prefix, an age): a clean-up, not everything
        listing = next((lp.node for lp in reversed(self.loops) if isinstance(lp.node, (ast.For, ast.AsyncFor))), None)
        query = listing is not None and re.search(
            r"\b(?:q|query|filter|privateExtendedProperty|sharedExtendedProperty)=", ast.unparse(listing.iter)
        )
        if query and _TEST_MARKER.search(self._code):
            return  # `files().list(q="appProperties has {key='test_run' …}")`: what a test run created
        if local_store(self._code):
            return  # an emulator's or a test fixture's store (`FIRESTORE_EMULATOR_HOST=localhost:8080`)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else ""
        # document and workspace platforms (a loop there is over people's files, pages and spaces); cloud
        # storage and clusters prune their own objects by prefix and age, which a listing hides from here
        client = (q or "").startswith(_SAAS_PREFIXES) or (q is None and _SAAS_CLIENT.search(self._code) is not None)
        archives = method in ("update", "patch") and any(
            kwargs.get(k, UNKNOWN).num == 1 for k in ("archived", "trashed", "in_trash")
        )
        if client and (method not in ("update", "patch") or archives):
            self._add("python.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{method} deletes, archives or purges every item a listing gives (through the API)",
                      node)  # fmt: skip
        elif any(kwargs.get(k, UNKNOWN).num == 1 for k in ("delete_files", "deleteFiles", "delete_data", "deleteData")):
            # (`qbt.torrents_delete(delete_files=True, torrent_hashes=batch)` for each batch of every torrent)
            self._add("python.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{method} deletes every item a listing gives with its files on disk", node)  # fmt: skip

    def _task_flood(self, node: ast.Call, count: int | None = None) -> None:
        """``for n in range(5000): tg.create_task(hammer(s, n))`` where ``hammer`` requests a server in an endless
        loop: thousands of clients that never stop (a flood)."""
        inner = node.args[0] if node.args else None
        target = next((k.value for k in node.keywords if k.arg == "target"), None)  # threading.Thread(target=f)
        if isinstance(target, ast.Name):
            name = target.id
        elif isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
            name = inner.func.id
        elif isinstance(inner, ast.Name) and isinstance(node.func, ast.Attribute) and node.func.attr == "submit":
            name = inner.id  # `executor.submit(fn, i)`
        else:
            return
        summary = self._lookup(name).func
        if not isinstance(summary, _FuncSummary) or summary.node is None:
            return
        current = self.functions[-1] if self.functions else None
        spawner = self.loops[-1] if self.loops and self.loops[-1].function is current else None
        tasks = count or math.prod(loop.count or 1 for loop in self.loops if loop.function is current)
        if _requests_forever(summary.node):
            if tasks >= MASS_COUNT or any(loop.huge or loop.unbounded for loop in self.loops):
                self._add("python.flood", RiskLevel.HIGH, Category.NETWORK,
                          f"starts {tasks:,} tasks that each request a server without end (a flood)", node)  # fmt: skip
        elif tasks >= 10 * MASS_COUNT and _talks_to_servers(summary.node):
            # a thousand threads, each with its own connection: the server's connection slots are gone
            self._add("python.flood", RiskLevel.HIGH, Category.RESOURCE,
                      f"starts {tasks:,} threads or tasks at once, each connecting to a server", node)  # fmt: skip
        elif (
            spawner is not None
            and spawner.endless
            and (spawner.runaway or spawner.fast)
            and (_talks_to_servers(summary.node) or _starts_processes(summary.node))
            and _only_spawns(spawner.node, name)
        ):
            self._add("python.flood", RiskLevel.HIGH, Category.NETWORK,
                      "starts tasks without end, each talking to a server or starting a program (a flood, or a bill "
                      "without limit)", node)  # fmt: skip

    def _mapped_flood(self, node: ast.Call) -> None:
        """``pool.map(send, range(20000))`` on hundreds of threads, or ``range(len(people) * 50)``: each request sent
        many times over, as fast as the pool goes."""
        workers = max((int(n) for n in _MAX_WORKERS.findall(self._code)), default=0)
        if workers < 32 or len(node.args) < 2 or not isinstance(node.args[0], ast.Name):
            return
        rounds = node.args[1]
        if not (isinstance(rounds, ast.Call) and _call_name(rounds) == "range" and rounds.args):
            return
        stop = rounds.args[-1] if len(rounds.args) == 1 else rounds.args[1]
        count = self._ev(stop).num or 0
        repeats = (
            max(self._ev(side).num or 0 for side in (stop.left, stop.right))
            if isinstance(stop, ast.BinOp) and isinstance(stop.op, ast.Mult)
            and any(isinstance(side, ast.Call) and _call_name(side) == "len" for side in (stop.left, stop.right))
            else 0
        )
        summary = self._lookup(node.args[0].id).func
        if not isinstance(summary, _FuncSummary) or summary.node is None:
            return
        talks, starts = _talks_to_servers(summary.node), _starts_processes(summary.node)
        if not (talks or starts):
            return
        if workers < 100 and count < T.MASS_TASKS:
            return  # (dozens of threads: a flood only when they send tens of thousands of requests)
        if count >= T.MASS_TASKS or (starts and count >= 1000) or repeats >= 10:
            noun = "request" if talks else "program"
            what = (f"sends each item's {noun} {repeats} times over" if repeats >= 10
                    else f"sends {count:,} requests" if talks else f"starts {count:,} programs")  # fmt: skip
            self._add("python.flood", RiskLevel.HIGH, Category.NETWORK,
                      f"{what} through {workers} threads at once (a flood)", node)  # fmt: skip

    def _gathered_flood(self, node: ast.Call) -> None:
        """``asyncio.gather(*(hit(i) for i in range(2_000_000)))``: every task started at once, unthrottled."""
        for arg in node.args:
            if not (isinstance(arg, ast.Starred) and isinstance(arg.value, (ast.GeneratorExp, ast.ListComp))):
                continue
            it = arg.value.generators[0].iter
            if isinstance(it, ast.Call) and _call_name(it) == "range" and it.args:
                count = self._ev(it.args[-1] if len(it.args) == 1 else it.args[1]).num
                element = arg.value.elt
                summary = (
                    self._lookup(element.func.id).func
                    if isinstance(element, ast.Call) and isinstance(element.func, ast.Name)
                    else None
                )
                endless = isinstance(summary, _FuncSummary) and summary.node is not None and _requests_forever(
                    summary.node
                )  # each task requests a server for ever: hundreds are already a flood
                if count is not None and (count >= T.MASS_TASKS or (endless and count >= MASS_COUNT)):
                    network = bool(re.search(r"\b(?:aiohttp|httpx|requests|websockets|asyncio\.open_connection)\b",
                                             self._code))  # fmt: skip
                    what = f"starts {count:,} tasks at once" + (" against a server" if network else "")
                    if network:
                        self._add("python.flood", RiskLevel.HIGH, Category.NETWORK, what, node)
                    else:
                        self._add("python.resource", RiskLevel.HIGH, Category.RESOURCE, what, node)

    def _storefront(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """Store admin APIs: deletions run over a listing, prices zeroed across the catalogue, free discounts."""
        verb = q.rsplit(".", 1)[-1]
        if not _is_network(q) or verb not in ("post", "put", "patch", "request", "execute"):
            return
        texts = _all_strings([*args, *kwargs.values()])
        if self._in_loop() and any(delete_mutation(t) for t in texts):
            self._add("python.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{q} runs a delete mutation for every item a listing gives", node)  # fmt: skip
        elif self._in_loop() and (verb != "post" or _UPDATE_MUTATION.search(self._code)) and zeroes_prices(self._code):
            self._add("python.money", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} sets prices to zero (or a cent) across the catalogue", node)  # fmt: skip
        elif free_discount(" ".join(self._argument_constants(node))):
            self._add("python.money", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} creates a 100%-off discount nobody has to stop using", node)  # fmt: skip

    def _public_drop(self, q: str, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> None:
        """Data read at run time (a file, a query's rows, the environment) sent to a request catcher, an
        anonymous file host or a paste site; run-time data spelled into a catcher's address."""
        url = args[0] if args else kwargs.get("url", UNKNOWN)
        urls = url.strings()
        if any(SUBSCRIPTION_URL.search(u) for u in urls) and any(
            public_drop(t) for t in _all_strings([*args[1:], *kwargs.values()])
        ):
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} subscribes a public drop to a platform's events (everything that happens is sent there)",
                      node)  # fmt: skip
            return
        if not any(public_drop(u) for u in urls):
            return
        body = [*args[1:], *(val for key, val in kwargs.items() if key in _BODY_KWARGS)]
        sent = any(not v.constant(val) for val in body)
        beaconed = any(beacon(u) and HOLE in u.split("://", 1)[-1] for u in urls)
        if sent or beaconed:
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} sends {'data read at run time' if sent else 'run-time data'} to a public drop "
                      "(a request catcher, file host or paste site: anyone with the link reads it)", node)  # fmt: skip

    def _mail(self, q: str | None, node: ast.Call, kwargs: dict[str, Val]) -> None:
        """Mailbox forwarding set up through an API, phishing sent in bulk, open SMTP relays."""
        method = node.func.attr if isinstance(node.func, ast.Attribute) else (q or "").rsplit(".", 1)[-1]
        call = ast.unparse(node) if self._mentions_forwarding else ""
        if (
            self._mentions_forwarding
            and method in ("create", "update", "patch", "post", "put", "updateAutoForwarding")
            # the rule may be built in a variable first (`json=rule` to `…/messageRules`)
            and (forwards_mailbox(call) or ("messageRules" in call and forwards_mailbox(self._code)))
        ):
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      "sets up forwarding of a mailbox's mail to another address", node)  # fmt: skip
        elif method in _BULK_SENDS and self._in_loop():
            if self._lure is None:
                self._lure = credential_lure("\n".join(self.lines))
            if self._lure:
                self._add("python.phishing", RiskLevel.HIGH, Category.NETWORK,
                          "sends credential-phishing mail or messages to a list of people", node)  # fmt: skip
        elif method == "forward_messages" and _EVERY_MESSAGE_HANDLER.search(self._code):
            # a user account's client forwarding what arrives, as it arrives: every conversation copied away
            self._add("python.exfiltration", RiskLevel.HIGH, Category.EXFILTRATION,
                      "forwards every message the account receives or sends to another account", node)  # fmt: skip
        elif method in ("ban", "kick", "delete") and self._in_loop() and _WHOLE_COMMUNITY_LOOP.search(self._code):
            # a chat server's channels deleted or its members banned one by one: the community is gone
            self._add("python.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                      f"{method}s every channel or member of a chat server", node)  # fmt: skip
        elif (
            (q or "").startswith("aiosmtpd.")
            and method == "Controller"
            and kwargs.get("hostname", UNKNOWN).text in ("0.0.0.0", "::", "")
            and "authenticator" not in kwargs
            and re.search(r"\.(?:sendmail|send_message)\(", "\n".join(self.lines))
        ):
            self._add("python.open-relay", RiskLevel.HIGH, Category.NETWORK,
                      "relays mail for anyone: an SMTP server on every interface without authentication",
                      node)  # fmt: skip

    def _platform(self, q: str | None, node: ast.Call, args: list[Val], kwargs: dict[str, Val]) -> int:
        """Data and home-network platforms: resources opened to everyone, router ports forwarded, commands
        from a DAG's trigger, huge clusters. Returns flags for the result (a connection URI is secret data;
        an Airflow Variable or an XCom is data anyone with the UI can change)."""
        method = node.func.attr if isinstance(node.func, ast.Attribute) else (q or "").rsplit(".", 1)[-1]
        if (q or "").rsplit(".", 1)[-1] in _WORKSPACE_PROMOTIONS:
            # (`getattr(client, "_".join(["admin", "users", "setAdmin"]))` too: the name is folded)
            self._add("python.identity", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"{(q or '').rsplit('.', 1)[-1]} makes a user an administrator or owner of the workspace",
                      node)  # fmt: skip
        if self._mentions_all_users and any(
            t in ("allUsers", "allAuthenticatedUsers") for t in _all_strings([*args, *kwargs.values()])
        ):
            self._add("python.cloud-exposure", RiskLevel.HIGH, Category.PRIVILEGE,
                      "grants everyone on the internet access (allUsers)", node)  # fmt: skip
        if (
            method == "run"
            and not verb_is_run(q or "")
            and kwargs.get("debug", UNKNOWN).num == 1
            and kwargs.get("host", UNKNOWN).text in ("0.0.0.0", "::")
        ):
            # app.run(host=..., debug=True): Flask's signature, whatever factory made the app (create_app())
            self._add("python.remote-code", RiskLevel.CRITICAL, Category.DYNAMIC_CODE,
                      "the debugger's console (it runs code) is reachable from the network", node)  # fmt: skip
        if method in CHAIN_SEND_METHODS or (
            (q or "").startswith(PAYMENT_PREFIXES) and moves_money(*(q or "").rsplit(".", 2)[-2:])
        ):
            test = test_money("\n".join(self.lines))
            asked = not test and self._confirmed_by_prompt(node)
            what = "signs and sends a transaction on a chain" if method in CHAIN_SEND_METHODS else "moves money"
            self._add("python.money", RiskLevel.MEDIUM if test or asked else RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{method} {what}" + (" (test mode)" if test else " (once a person confirms it at a prompt)"
                                            if asked else ""), node)  # fmt: skip
        if self._mentions_directory and method in ("modify", "modify_add", "add_members_to_groups", "add_members"):
            groups = _all_strings(args[:1]) + _all_strings([kwargs.get("group_dn", UNKNOWN)])
            if any(ADMIN_GROUP.search(g) for g in groups) and (
                "MODIFY_ADD" in ast.unparse(node) or method != "modify"
            ):
                what = "adds an account to a directory's administrator group (domain admins, sudo)"
                self._add("python.identity", RiskLevel.HIGH, Category.PRIVILEGE, what, node)
        if self._mentions_directory and method == "modify" and _DELEGATION_ATTRS.search(ast.unparse(node)):
            self._add("python.identity", RiskLevel.HIGH, Category.PRIVILEGE,
                      "writes a directory attribute that lets another account act as this one (delegation, "
                      "key credentials)", node)  # fmt: skip
        if self._mentions_directory and method == "modify" and "sshPublicKey" in ast.unparse(node):
            self._add("python.persistence", RiskLevel.HIGH, Category.PERSISTENCE,
                      "adds an SSH key to accounts in the directory (their hosts accept it for logins)",
                      node)  # fmt: skip
        if self._mentions_directory and method in ("search", "paged_search"):
            attributes = kwargs.get("attributes", kwargs.get("attrs", UNKNOWN))
            spelled = ast.unparse(node)
            if PASSWORD_HASH_ATTRIBUTES.search(spelled):
                self._add("python.secret-read", RiskLevel.HIGH, Category.EXFILTRATION,
                          "reads the directory's password hashes", node)  # fmt: skip
                return v.SECRET
            filters = " ".join(_all_strings(args[:3]) + _all_strings([kwargs.get("search_filter", UNKNOWN)]))
            names = attributes.strings() or (["*"] if "ALL_ATTRIBUTES" in spelled else [])
            if directory_dump(filters, names):
                return v.SECRET  # every person of the directory with all their attributes
        if method in ("Permissions", "create_role", "edit", "edit_role") and (
            kwargs.get("administrator", UNKNOWN).num == 1 or kwargs.get("admin", UNKNOWN).num == 1
        ):
            self._add("python.app-admin", RiskLevel.HIGH, Category.PRIVILEGE,
                      "creates a role with administrator rights over the whole community or app", node)  # fmt: skip
        if "riginate" in self._code and method in ("send", "sendall", "originate", "send_action") and self._in_loop():
            sent = "\n".join(_all_strings([*args, *kwargs.values()]) + self._argument_constants(node))
            if method == "originate" or places_calls(sent):
                self._add("python.telephony", RiskLevel.HIGH, Category.RESOURCE,
                          f"{method} places calls in a loop (toll fraud: every call is billed)", node)  # fmt: skip
        if self._mentions_devices and (
            method in DEVICE_SEND_METHODS or "zeroize" in method or "config_commands" in kwargs
        ):  # (Nornir's tasks take their commands as `config_commands=`)
            sent = "\n".join(_all_strings([*args, *kwargs.values()]) + self._argument_constants(node))
            risk = device_commands_risk("request system zeroize" if "zeroize" in method else sent)
            if risk is not None:
                self._add("python.device", risk.level, risk.category, f"{method} {risk.what}", node)
            replacement = kwargs.get("config", args[1] if len(args) > 1 else UNKNOWN).text
            if method == "load_replace_candidate" and replacement is not None and "commit_config" in self._code:
                lines = [line for line in replacement.splitlines() if line.strip(HOLE + " !")]
                if len(lines) < _WHOLE_CONFIG_LINES:
                    # NAPALM replaces the device's whole configuration: a few lines leave nothing else
                    self._add("python.device", RiskLevel.HIGH, Category.FILESYSTEM,
                              f"{method} replaces a device's whole configuration with {len(lines)} line(s) and "
                              "commits it (everything else on it is erased)", node)  # fmt: skip
        if self._mentions_cms and _is_network(q):
            for url in _all_strings(args[:1])[:1]:
                cdn = cdn_request(method if method != "request" else (args[0].text or ""), url,
                                  " ".join(self._argument_constants(node)), repeated=self._in_loop())  # fmt: skip
                if cdn is not None:
                    self._add("python.cdn", cdn.level, cdn.category, f"{method} {cdn.what}", node)
        if method in ("update_repo_settings", "update_repo_visibility") and self._made_public(kwargs):
            self._add("python.cloud-exposure", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{method} makes a private model or dataset repository public", node)  # fmt: skip
        if method == "make_public":
            self._add("python.cloud-exposure", RiskLevel.HIGH, Category.NETWORK,
                      "makes a stored object readable by everyone on the internet", node)  # fmt: skip
        if method == "addportmapping":
            self._add("python.exposure", RiskLevel.HIGH, Category.NETWORK,
                      "asks the router to forward a port from the internet to this network (UPnP)", node)  # fmt: skip
        if method.endswith(("BashOperator", "SSHOperator")) and "dag_run.conf" in self._code and (
            "dag_run.conf" in ast.unparse(node)
        ):
            self._add("python.remote-command", RiskLevel.HIGH, Category.PROCESS,
                      f"{method} runs a command taken from whatever triggers the DAG (dag_run.conf)", node)  # fmt: skip
        payload = (
            next((kwargs[k] for k in ("json", "data") if k in kwargs and kwargs[k].keys), None) if kwargs else None
        )
        if payload is not None and payload.keys:
            workers = max(
                (val.num or 0 for key, val in payload.keys.items() if key in ("num_workers", "max_workers")), default=0
            )
            if workers >= MASS_COUNT or (workers >= 10 and self._in_loop()):
                self._add("python.cloud-abuse", RiskLevel.HIGH, Category.RESOURCE,
                          f"starts clusters of {workers} workers" + (" in a loop" if self._in_loop() else ""),
                          node)  # fmt: skip
        if payload is not None and payload.keys and method in ("post", "put", "patch", "request"):
            url = " ".join(_all_strings(args[:1]))
            off = [
                key
                for key, val in payload.keys.items()
                if protection_off(key, "false" if val.num == 0 and val.text is None else (val.text or ""))
                or (
                    re.search(r"fraud|alert|geofence|safety|monitor", url, re.IGNORECASE) is not None
                    and key in ("enabled", "isEnabled", "active")
                    and val.num == 0
                )
            ]
            if off:
                self._add("python.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE,
                          f"turns off {off[0]} through an API (fraud, signature or login protection)",
                          node)  # fmt: skip
        if len(args) >= 2 and args[0].text is not None and _PARAM_SETTER.search(method):
            # `vehicle.param_set_send("ARMING_CHECK", 0)`, `node.set_parameters(...)`: a guard's parameter switched
            value = args[1].text if args[1].text is not None else str(args[1].num)
            if protection_off(args[0].text, value):
                self._add("python.weakened-settings", RiskLevel.HIGH, Category.PRIVILEGE,
                          f"{method} turns off {args[0].text} (a safety guard)", node)  # fmt: skip
        if method in ("post", "put", "patch", "request") and _is_network(q):
            constants = self._argument_constants(node)
            device = device_commands_risk("\n".join(constants)) if "accprofile" in constants else None
            if device is not None:
                self._add("python.device", device.level, device.category, f"{method} {device.what}", node)
            body = next((kwargs[k] for k in ("json", "data") if k in kwargs), UNKNOWN)
            if _opens_everything(constants) or _opens_everything(_flat_pairs(body)):
                self._add("python.exposure", RiskLevel.HIGH, Category.NETWORK,
                          "adds a firewall rule that passes any traffic from anywhere", node)  # fmt: skip
            if any(c in ("0.0.0.0/0", "::/0", "0.0.0.0 0.0.0.0") or _REMOTE_MANAGEMENT.fullmatch(c) for c in constants):
                self._add("python.exposure", RiskLevel.HIGH, Category.NETWORK,
                          "changes a device's settings to allow access from every address", node)  # fmt: skip
        handler_class = args[0].func if args and isinstance(args[0].func, _ClassInfo) else None
        file_handler = (args[0].qual or "").endswith("SimpleHTTPRequestHandler") if args else False
        # (`class CORSHandler(SimpleHTTPRequestHandler)` adding headers: the same file server)
        file_handler = file_handler or (
            handler_class is not None and any(b.endswith("SimpleHTTPRequestHandler") for b in handler_class.bases)
        )
        if method == "partial" and file_handler:
            # anything outside the project and its build output: people's files, a service's data, the home
            private = self._private_dirs(kwargs.get("directory", UNKNOWN).strings())
            if private and re.search(r"[\"']0\.0\.0\.0[\"']|\(\s*[\"'][\"']\s*,", "\n".join(self.lines)):
                self._add("python.file-server", RiskLevel.HIGH, Category.EXFILTRATION,
                          f"serves {private[0]} over HTTP on every interface (no login)", node)  # fmt: skip
        if method in ("get", "post", "request") and _is_network(q) and any(
            people_api(t) for t in _all_strings(args[:2])
        ):
            return v.SECRET  # people's records: a FHIR server's patients, a REDCap project, an LMS's students
        if method in ("get", "post", "request") and _is_network(q) and _asks_personal_fields(args, kwargs):
            return v.SECRET  # `params={"fields": "name,email,passportNo"}`: whoever the API knows, in person
        if method in ("get", "request") and _is_network(q) and any(
            CAMERA_IMAGE.search(t) for t in _all_strings(args[:2])
        ):
            return v.DUMP  # a camera's picture of whoever is in front of it
        if method == "makeAdmin" and _has_true(kwargs.get("body", UNKNOWN)):
            self._add("python.identity", RiskLevel.HIGH, Category.PRIVILEGE,
                      "makes an account a Workspace super admin", node)  # fmt: skip
        if method == "get_uri":
            return v.SECRET  # a connection's URI, password included
        if method in ("get", "xcom_pull") and ((q or "").endswith("Variable.get") or method == "xcom_pull"):
            return v.NET
        return 0

    def _c_mailbox(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """IMAP and POP3 reads and stores. What comes back is what anyone mailed the user; whole messages
        are their private correspondence (sent elsewhere: a leak). Flagging every message deleted loses it."""
        method = q.rsplit(".", 1)[-1]
        texts = [a.text or "" for a in args]
        if method == "uid" and texts:
            method, texts = texts[0].lower(), texts[1:]
        if method == "store":
            if len(texts) >= 3 and deletes_every_message(texts[0], texts[2]):
                self._add("python.data-destroy", RiskLevel.HIGH, Category.FILESYSTEM,
                          "marks every message of the mailbox folder deleted", node)  # fmt: skip
            return Val()
        parts = " ".join(texts).upper()
        whole = method == "retr" or (
            method == "fetch" and ("RFC822" in parts or "BODY" in parts) and "HEADER" not in parts
        )
        return Val(flags=v.NET | (v.SECRET if whole else 0))

    def _c_csv_writer(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``csv.writer(buf)``: rows written to it end up in ``buf``."""
        return Val(qual="csv.writer()", base=args[0] if args else None)

    def _c_make_archive(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``shutil.make_archive(base, "zip", root)``: the archive holds what ``root`` holds (people's photos and
        documents, a home directory, secrets: sent anywhere, a leak)."""
        base = args[0] if args else kwargs.get("base_name", UNKNOWN)
        kind = (args[1] if len(args) > 1 else kwargs.get("format", UNKNOWN)).text or "zip"
        root = args[2] if len(args) > 2 else kwargs.get("root_dir", UNKNOWN)
        suffix = {"zip": ".zip", "tar": ".tar", "gztar": ".tar.gz", "bztar": ".tar.bz2", "xztar": ".tar.xz"}.get(
            kind, ""
        )
        archives = [t + suffix for t in base.strings()]
        # the home, the machine, a secret; or the whole project, its .env and .git included
        secret = any(
            paths.classify(t).secret
            or paths.classify(t).kind in (paths.PathKind.HOME_TOP, paths.PathKind.ROOT, paths.PathKind.WORKDIR)
            for t in root.strings()
        )
        # people's photos and documents, or a data folder outside the project and the system (`/srv/…/Contracts`)
        media = any(
            paths.personal_media(t) or (paths.classify(t).kind is paths.PathKind.EXTERNAL and HOLE not in t)
            for t in root.strings()
        )
        if secret:
            self.staged.update(archives)
        elif media:
            self._bulk_files.update(archives)  # like a database dump: a backup to storage, a leak elsewhere
        return Val(text=archives[0] if archives else None, flags=v.SECRET if secret else v.DUMP if media else 0)

    def _c_new_wallet(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """A wallet created with its recovery phrase: ``(account, mnemonic)``; the phrase is the wallet's secret."""
        if q.endswith("create_with_mnemonic"):
            return Val(items=[Val(qual="eth_account.Account()"), Val(flags=v.SECRET)])
        return Val(flags=v.SECRET)  # Mnemonic("english").generate(): a fresh recovery phrase

    def _c_dotenv_values(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``dotenv_values(".env")``: the variables of an env file, as the process environment would hold them
        (one named value is a credential; all of them sent somewhere are the environment sent out)."""
        return Val(qual="os.environ", flags=v.ENV)

    def _c_kill(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        pid = (func.base or UNKNOWN) if q.startswith("psutil.Process()") else (args[0] if args else UNKNOWN)
        if pid.flags & v.OWNPID:
            return Val()
        if q == "os.kill" and len(args) > 1 and args[1].num == 0:
            return Val()  # signal 0 only asks whether the process exists
        pidfiles = (
            bool(_PIDFILE_NAME.search(self._code))
            and not pid.flags & v.PROCITER
            and not _PROCESS_LISTING.search(self._code)  # pid files, and every process of /proc besides
        )
        if (pid.flags & v.LOCALFILE or pidfiles) and (not self._in_loop() or pidfiles):
            return Val()  # the pid this project wrote to its own pid file(s): its own server or workers
        if pid.num is not None:
            if pid.num in (-1, 1):
                self._add(
                    "python.kill",
                    RiskLevel.CRITICAL,
                    Category.PRIVILEGE,
                    "signals every process (pid -1) or init (pid 1)",
                    node,
                )
            elif pid.num != 0:
                self._add(
                    "python.kill",
                    RiskLevel.HIGH,
                    Category.PRIVILEGE,
                    f"signals process {pid.num}, which it did not start",
                    node,
                )
            return Val()
        # (`os.kill(p.pid, …)` for each `p` of the children this program started: its own processes)
        own_children = isinstance(node, ast.Call) and bool(node.args) and self._own_child_pid(node.args[0])
        looping = pid.flags & v.PROCITER or (
            self._in_loop() and q == "os.kill" and not pid.flags & v.OWNPID and not own_children
        )
        if looping and not pid.flags & v.PROCITER and _OWN_PROCESS_CHECK.search(self._code):
            # each pid checked to be this user's (`st_uid != os.getuid()`), or read from the pid file this
            # program's own runs wrote and matched against its command line
            self._add("python.kill", RiskLevel.MEDIUM, Category.PRIVILEGE,
                      "kills processes it checked are its own (owner or pid file and command line)", node)  # fmt: skip
        elif looping and self._name_filters and (
            not pid.flags & v.PROCITER or _OWN_PROCESS_CHECK.search(self._code) is not None
        ):
            # pids a port listing gave (`lsof -ti tcp:8080`), then `if "vite" in cmd:`: the dev server found there
            picked = "kills the processes a name test picks"
            self._add("python.kill", RiskLevel.MEDIUM, Category.PRIVILEGE, picked, node)
        elif looping and _RELOAD_SIGNAL.search(ast.unparse(node)) and _NAMED_PROCESS.search(self._code):
            # `os.kill(pid, signal.SIGHUP)` for each process named "vector": a daemon told to reload or reopen logs
            self._add("python.kill", RiskLevel.MEDIUM, Category.PRIVILEGE,
                      "sends a reload signal to the processes a name picks", node)  # fmt: skip
        elif looping:
            self._add("python.kill", RiskLevel.HIGH, Category.PRIVILEGE, "kills processes in a loop", node)
        elif (service := self._port_owner()) is not None:
            self._add("python.kill", RiskLevel.HIGH, Category.PRIVILEGE,
                      f"kills whatever holds a service's port, whoever runs it ({service})", node)  # fmt: skip
        else:
            self._add("python.kill", RiskLevel.MEDIUM, Category.PRIVILEGE, f"{q} signals another process", node)
        return Val()

    def _port_owner(self) -> str | None:
        """The service whose well-known port a connection listing is searched for (``conn.laddr.port == 5432``)."""
        if "net_connections" not in self._code:
            return None
        for match in _PORT_TEST.finditer(self._code):
            word = match[1]
            port = word if word.isdigit() else str(self._lookup(word).num)
            if port in SERVICE_PORTS:
                return SERVICE_PORTS[port]
        return None

    def _c_ownpid(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        return Val(flags=v.OWNPID)

    def _c_psutil_process(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if q == "psutil.process_iter":
            return Val(elem=Val(qual=None, flags=v.PROCITER), qual="psutil.process_iter()")
        if q == "psutil.pids":
            return Val(elem=Val(flags=v.PROCITER))
        pid = args[0] if args else UNKNOWN
        return Val(qual="psutil.Process()", flags=pid.flags & (v.PROCITER | v.OWNPID), num=pid.num)

    def _c_setuid(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        target = args[0] if args else UNKNOWN
        if q == "os.chroot":
            self._add(
                "python.privilege", RiskLevel.HIGH, Category.PRIVILEGE, "os.chroot changes the root directory", node
            )
        elif target.num == 0:
            self._add("python.privilege", RiskLevel.HIGH, Category.PRIVILEGE, f"{q}(0) switches to root", node)
        else:
            self._add(
                "python.privilege", RiskLevel.MEDIUM, Category.PRIVILEGE, f"{q} changes the process identity", node
            )
        return Val()

    def _c_ctypes_load(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        name = args[0].text if args and args[0].text else "a native library"
        loaded = args[0].strings() if args else []
        # a library written to a temporary file by code that fetches from the network: the download, loaded
        fetched_to_temp = any(paths.classify(t).kind is paths.PathKind.TEMP for t in loaded) and bool(
            _PYTHON_FETCHES.search(self._code)
        )
        if any(t in self.downloaded or posixpath.basename(t) in self.downloaded for t in loaded) or (
            args and args[0].flags & v.NET
        ) or fetched_to_temp:
            self._add(
                "python.download-exec",
                RiskLevel.CRITICAL,
                Category.DYNAMIC_CODE,
                f"{q} loads a native library downloaded from the network (runs its code)",
                node,
            )
        self._add("python.ctypes", RiskLevel.MEDIUM, Category.PROCESS, f"{q} loads {name} into the process", node)
        return Val(qual="ctypes.CDLL()")

    def _c_recursionlimit(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if args and args[0].num is not None and args[0].num >= 100_000:
            self._recursion_raised = True
        if args and args[0].num is not None and args[0].num >= 1_000_000:
            self._add(
                "python.recursion-limit",
                RiskLevel.MEDIUM,
                Category.RESOURCE,
                "raises the recursion limit enough to crash the interpreter",
                node,
            )
        return Val()

    def _c_interact(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        self._add(
            "python.interactive", RiskLevel.MEDIUM, Category.DYNAMIC_CODE, f"{q} opens an interactive interpreter", node
        )
        self._interpreters_opened = True
        return Val()

    def _c_hub_download(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``hf_hub_download(repo, filename)``, ``gdown.download(url, out)``: the local path of a file fetched
        from a hub or a share; loading or running it later is loading or running what that repository holds."""
        name = (kwargs.get("filename") or (args[1] if len(args) > 1 else UNKNOWN)).text
        out = (kwargs.get("output") or (args[1] if q.startswith("gdown") and len(args) > 1 else UNKNOWN)).text
        if q.startswith("gdown") and out:
            path = out
        else:
            path = f"~/.cache/huggingface/hub/{HOLE}/{posixpath.basename(name) if name else HOLE}"
        self.downloaded.add(path)
        return Val(text=path)

    def _c_local_copy(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """ClearML's ``StorageManager.get_local_copy(remote_url=…)``: the local path of a file fetched from that
        address (a web address's file is a download, as `urlretrieve`'s is)."""
        remote = kwargs.get("remote_url") or (args[0] if args else UNKNOWN)
        name = posixpath.basename(remote.text.split("?", 1)[0]) if remote.text else HOLE
        path = f"~/.clearml/cache/storage_manager/global/{HOLE}/{name or HOLE}"
        if remote.flags & v.NET or any(t.startswith(("http://", "https://")) for t in remote.strings()):
            self.downloaded.add(path)
        return Val(text=path)

    def _c_run_path(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        target = args[0] if args else UNKNOWN
        downloaded = bool(target.flags & v.NET)  # e.g. the .name of a temporary file network data went into
        if q == "importlib.util.spec_from_file_location":
            target = args[1] if len(args) > 1 else kwargs.get("location", UNKNOWN)
            downloaded = bool(target.flags & v.NET)
            if not downloaded and not any(self._fetched(t) for t in target.strings()):
                return Val(qual="importlib.machinery.ModuleSpec()")  # loading a local module file
        if downloaded or any(self._fetched(t) for t in target.strings()):
            self._add(
                "python.download-exec", RiskLevel.CRITICAL, Category.DYNAMIC_CODE, f"{q} runs a downloaded file", node
            )
        else:
            self._add("python.run-path", RiskLevel.LOW, Category.DYNAMIC_CODE, f"{q} runs another Python file", node)
        return Val()

    def _c_notebook(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """A notebook executed: its cells run as this program's code (from the network, someone else's)."""
        notebook = func.base if q.endswith(").execute") and func.base is not None else (args[0] if args else UNKNOWN)
        flags = notebook.flags | (func.flags if q.endswith(").execute") else 0)
        if any(t.startswith(("http://", "https://")) for t in notebook.strings()):
            flags |= v.NET  # papermill's input given as a URL
        if flags & (v.NET | v.DECODED):
            self._run_code(Val(flags=flags & (v.NET | v.DECODED)), node, q)
        return Val()

    def _c_map(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        # map(chr, [111, 115]) spells a string out of code points: fold it, and mark it obfuscated
        if len(args) == 2 and args[0].qual == "builtins.chr" and args[1].items is not None:
            codes = [i.num for i in args[1].items]
            if all(c is not None and 0 <= c < 0x110000 for c in codes):
                return Val(items=[Val(text=chr(c)) for c in codes if c is not None], flags=v.DECODED)
        # map(pathlib.Path, PATHS), map(os.path.expanduser, PATHS): the converted paths, one by one
        convert = args[0].qual if args else None
        handler = _CALLS.get(convert) if convert and convert.startswith(("pathlib.Path", "os.path.")) else None
        if handler is not None and convert and len(args) == 2 and args[1].items and len(args[1].items) <= UNROLL_ITEMS:
            converted = [handler(self, convert, args[0], [item], {}, node) or Val() for item in args[1].items]
            return Val(items=converted, flags=v.flowing(converted))
        return Val(flags=v.flowing(args))

    def _c_keylogger(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if self._hotkey_only(node):
            self._add("python.keylogger", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{q} watches the keyboard for a key (the keys are not kept or sent)", node)  # fmt: skip
            return Val(qual=q + "()")
        self._add("python.keylogger", RiskLevel.HIGH, Category.EXFILTRATION, f"{q} records keystrokes", node)
        return Val(qual=q + "()", flags=v.SECRET)

    def _hotkey_only(self, node: ast.Call) -> bool:
        """The listener's callbacks only compare the key (`if key == Key.esc: return False`): no call is handed the
        key (no append, write or send of it), so nothing typed is kept."""
        callbacks = [k.value for k in node.keywords if k.arg in ("on_press", "on_release")]
        if not callbacks or not all(isinstance(c, ast.Name) for c in callbacks):
            return False
        names = {c.id for c in callbacks if isinstance(c, ast.Name)}
        defs = [d for d in ast.walk(self._tree) if isinstance(d, ast.FunctionDef) and d.name in names]
        if len(defs) != len(names):
            return False
        for fn in defs:
            params = {a.arg for a in fn.args.args}
            for call in (c for c in ast.walk(fn) if isinstance(c, ast.Call)):
                handed = [*call.args, *(k.value for k in call.keywords)]
                if any(isinstance(n, ast.Name) and n.id in params for a in handed for n in ast.walk(a)):
                    return False
            if any(isinstance(s, (ast.Assign, ast.AugAssign)) and any(
                isinstance(n, ast.Name) and n.id in params for n in ast.walk(s.value)
            ) for s in ast.walk(fn)):
                return False
        return True

    def _c_capture(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        current = self.functions[-1] if self.functions else None
        if any(loop.endless and loop.function is current for loop in self.loops):
            # over and over until stopped: watching the user (a recorder, a clipboard logger or hijacker)
            self._add("python.capture", RiskLevel.HIGH, Category.EXFILTRATION,
                      f"{q} captures the screen, clipboard or sensors continuously", node)  # fmt: skip
        else:
            self._add("python.capture", RiskLevel.MEDIUM, Category.EXFILTRATION,
                      f"{q} captures the screen or clipboard", node)  # fmt: skip
        return Val(flags=v.SECRET)

    def _c_input(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        return Val(flags=v.INPUT)

    def _c_shlex(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        arg = args[0] if args else UNKNOWN
        flags = arg.flags & v.FLOWING
        if q in ("textwrap.dedent", "inspect.cleandoc") and arg.text is not None:
            text = textwrap.dedent(arg.text) if q == "textwrap.dedent" else inspect.cleandoc(arg.text)
            return Val(text=text, flags=flags)  # the same code, its indentation removed
        if q == "shlex.join" and arg.items is not None:
            words = [i.text if i.text is not None else HOLE for i in arg.items]
            return Val(text=" ".join(F.shell_quote(w) for w in words), flags=flags | v.flowing(arg.items))
        if q == "shlex.split" and arg.text is not None:
            try:
                return Val(items=[Val(text=w) for w in shlex.split(arg.text)], flags=flags)
            except ValueError:
                return Val(flags=flags)
        return Val(text=arg.text, flags=flags)

    def _c_partial(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if not args:
            return Val()
        return Val(func=_Partial(args[0], args[1:], kwargs), flags=v.flowing(args[1:]) | v.flowing(kwargs.values()))

    def _c_fallocate(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """Space reserved on disk: all that is free (a full disk for everyone), or gigabytes per iteration."""
        size = args[-1] if args else UNKNOWN
        every_byte = (size.qual or "").startswith(("shutil.disk_usage()", "os.statvfs()")) or _sized_by(
            r"disk_usage\(|statvfs\(|f_bavail|f_bfree", ast.unparse(node.args[-1]) if node.args else "", self._code
        )
        huge = size.num is not None and (size.num >= 1 << 36 or (size.num >= 1 << 30 and self._in_loop()))
        if every_byte or huge:
            self._add("python.disk-fill", RiskLevel.HIGH, Category.RESOURCE,
                      f"{q} reserves " + ("all the free space of the disk" if every_byte else f"{size.num:,} bytes"),
                      node)  # fmt: skip
        return Val()

    def _c_b64encode(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val | None:
        """``b64encode(script.encode("utf-16le"))`` of a constant: the text PowerShell's ``-enc`` decodes again."""
        text = args[0].text if args else None
        if text is None or HOLE in text or len(text) > 20_000 or not node.args:
            return None
        source = node.args[0]
        encoding = "utf-8"
        if (
            isinstance(source, ast.Call)
            and isinstance(source.func, ast.Attribute)
            and source.func.attr == "encode"
            and source.args
            and isinstance(source.args[0], ast.Constant)
            and str(source.args[0].value).lower().replace("_", "-") in ("utf-16le", "utf-16-le")
        ):
            encoding = "utf-16-le"
        try:
            encoded = base64.b64encode(text.encode(encoding)).decode("ascii")
        except UnicodeEncodeError:
            return None
        return Val(text=encoded, flags=v.flowing(args))

    def _c_directory(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val | None:
        """ldap3's changes to a directory (Active Directory): bulk deletes, key accounts' passwords, admin groups."""
        source = " ".join([ast.unparse(node), *_all_strings([*args, *kwargs.values()])])
        risk = directory_change(q.rsplit(".", 1)[-1], source, repeated=self._in_loop())
        if risk is not None:
            self._add("python.identity", risk.level, risk.category, f"{q} {risk.what}", node)
        return None

    def _c_smb(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val | None:
        """smbprotocol's ``smbclient``: trees deleted on a file share, Group Policy files rewritten in SYSVOL."""
        path = (args[0] if args else kwargs.get("path", UNKNOWN)).text or HOLE
        if q.endswith("rmtree"):
            # `\\server\share` or one folder below it, or a name only known at run time: the share's contents
            parts = [p for p in path.replace("/", "\\").split("\\") if p]
            level = RiskLevel.HIGH if HOLE in path or len(parts) <= 3 else RiskLevel.MEDIUM
            self._add("python.delete", level, Category.FILESYSTEM,
                      f"{q} deletes a folder tree on a file share ({path.replace(HOLE, '…')[:60]})", node)  # fmt: skip
        elif q.endswith("open_file") and re.search(r"\\SYSVOL\\", path, re.IGNORECASE):
            mode = (args[1] if len(args) > 1 else kwargs.get("mode", UNKNOWN)).text or "r"
            if any(c in mode for c in "wax+"):
                self._add("python.identity", RiskLevel.HIGH, Category.PRIVILEGE,
                          f"{q} rewrites a Group Policy file in SYSVOL (applies to every machine it targets)",
                          node)  # fmt: skip
        return None

    def _c_chat_history(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """A chat workspace's message history read channel after channel: everyone's conversations, DMs too."""
        return Val(flags=v.NET | (v.DUMP if self._in_loop() else 0))

    def _c_snmp_set(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """pysnmp's SET: a setting of a switch, a router or equipment on the network changed in place."""
        local = re.search(r"127\.0\.0\.1|localhost|::1", ast.unparse(node)) is not None
        self._add("python.device", RiskLevel.MEDIUM if local else RiskLevel.HIGH, Category.NETWORK,
                  f"{q} changes settings of a network device or equipment over SNMP (writes its live state)",
                  node)  # fmt: skip
        return Val(flags=v.NET)

    def _c_ngrok(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """pyngrok: a local port published on the internet (a login service or raw TCP: remote access)."""
        port = args[0] if args else kwargs.get("addr", UNKNOWN)
        proto = (args[1] if len(args) > 1 else kwargs.get("proto", UNKNOWN)).text
        remote_login = port.num in T.REMOTE_ACCESS_PORTS or (port.text or "").rsplit(":", 1)[-1] in {
            str(p) for p in T.REMOTE_ACCESS_PORTS
        }
        # an HTTP tunnel behind a login the code sets (basic auth, OAuth, an IP allow-list) is a shared preview
        guarded = any(
            kw.arg in ("basic_auth", "auth", "oauth", "oauth_provider", "oidc", "ip_restriction")
            and not (isinstance(kw.value, ast.Constant) and kw.value.value in (None, "", False))
            for kw in node.keywords
        )
        # `ngrok.connect("10.20.0.5:8443")`: another machine of the internal network, published through this one
        host = (port.text or "").rsplit(":", 1)[0] if ":" in (port.text or "") else ""
        elsewhere = bool(host) and host not in ("localhost", "127.0.0.1", "0.0.0.0", "::1") and HOLE not in host
        exposed = remote_login or proto == "tcp" or not guarded or elsewhere
        self._add("python.tunnel", RiskLevel.HIGH if exposed else RiskLevel.MEDIUM,
                  Category.NETWORK, f"{q} publishes a local port on the internet"
                  + ("" if guarded else " (anyone with the URL gets in)"), node)  # fmt: skip
        return Val(qual="pyngrok.ngrok.NgrokTunnel()")

    def _c_path_rename(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """``path.with_suffix(".bak")``, ``with_name``, ``with_stem``: the sibling path it names."""
        base, arg = func.base or UNKNOWN, args[0] if args else UNKNOWN
        if base.text is None or arg.text is None:
            return Val(qual="pathlib.Path()", flags=(base.flags | arg.flags) & v.FLOWING)
        folder, name = posixpath.split(base.text)
        stem, suffix = posixpath.splitext(name)
        method = q.rsplit(".", 1)[-1]
        new = stem + arg.text if method == "with_suffix" else arg.text if method == "with_name" else arg.text + suffix
        return Val(text=posixpath.join(folder, new), qual="pathlib.Path()", flags=base.flags & v.FLOWING)

    def _c_methodcaller(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        if not args or args[0].text is None or HOLE in args[0].text:
            return Val()
        return Val(func=_MethodCaller(args[0].text, args[1:], kwargs))

    def _c_add_argument(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """argparse: remember each option's default; ``args.<dest>`` is that default unless given."""
        default = kwargs.get("default")
        names = [a.text for a in args if a.text]
        dest = kwargs["dest"].text if "dest" in kwargs else None
        if dest is None and names:
            longs = [n for n in names if n.startswith("--")]
            dest = (longs[0] if longs else names[0]).lstrip("-").replace("-", "_")
        if dest and default is not None and default.strings():
            options = tuple(dict.fromkeys([*default.strings(), HOLE]))[: v.MAX_ALTS]
            self._arg_defaults[dest] = Val(text=options[0], alts=options, flags=default.flags & v.FLOWING)
        return Val()

    def _c_parse_args(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        namespace = Val(qual="argparse.Namespace()")
        return namespace if q.endswith("parse_args") else Val(items=[namespace, Val()])

    def _c_extract(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """Unpacking an archive writes its files under the destination directory."""
        if q == "shutil.unpack_archive":
            dest = args[1] if len(args) > 1 else kwargs.get("extract_dir", Val(text="."))
        elif q.endswith(".extract"):
            dest = args[1] if len(args) > 1 else kwargs.get("path", Val(text="."))
        else:
            dest = args[0] if args else kwargs.get("path", Val(text="."))
        archive = args[0] if q == "shutil.unpack_archive" and args else (func.base or UNKNOWN)
        fetched = archive.flags & v.NET or any(self._fetched(t) for t in archive.strings())
        for text in dest.strings():
            self._write(paths.classify(posixpath.join(text, HOLE)), node, via=q)
            if paths.classify(text).kind is paths.PathKind.HOME_TOP:
                self._add("python.write", RiskLevel.HIGH, Category.FILESYSTEM,
                          f"{q} unpacks an archive over the home directory (its dotfiles included)", node)  # fmt: skip
            if self.functions and self.functions[-1].name in _self_calling_functions(self._tree):
                # explode(inner) for every archive found inside: nested archives expand without bound
                self._add("python.decompression-bomb", RiskLevel.HIGH, Category.RESOURCE,
                          f"{q} unpacks archives found inside archives, recursively and without a limit",
                          node)  # fmt: skip
            if fetched:
                self.downloaded.add(text)  # every file unpacked here came from the network
        return Val()

    def _c_open_connection(self, q: str, func: Val, args: list[Val], kwargs: dict[str, Val], node: ast.Call) -> Val:
        """asyncio streams: the reader yields network data, the writer sends."""
        return Val(items=[Val(qual="asyncio.StreamReader()"), Val(qual="asyncio.StreamWriter()")])

    def _string_method(
        self, attr: str, base: Val, args: list[Val], flags: int, kwargs: dict[str, Val] | None = None
    ) -> Val:
        text = base.text
        if attr == "format" and base.alts:
            # `for stmt in STATEMENTS: cur.execute(stmt.format(...))`: each statement, filled in
            alts = tuple(F.brace_format(a, args, kwargs) for a in base.alts)
            return Val(text=alts[0], alts=alts, flags=flags | v.flowing((kwargs or {}).values()))
        if text is None:
            return Val(flags=flags)
        if attr in ("encode", "decode", "strip", "lower", "upper", "rstrip", "lstrip", "casefold", "title"):
            folded = text if attr in ("encode", "decode") else getattr(text, attr)()
            return Val(
                text=folded,
                alts=base.alts if attr in ("encode", "decode") else None,
                flags=flags | (base.flags & v.FLOWING),
            )
        if attr == "replace" and len(args) >= 2 and args[0].text is not None and args[1].text is not None:
            return Val(text=text.replace(args[0].text, args[1].text), flags=flags | v.TRANSFORMED)
        if attr == "join" and args and args[0].items is not None:
            parts = [i.text if i.text is not None else HOLE for i in args[0].items]
            return Val(text=text.join(parts), flags=flags | v.flowing(args[0].items))
        if attr == "join" and args and args[0].text is not None and HOLE not in args[0].text:
            return Val(text=text.join(args[0].text), flags=flags | (args[0].flags & v.FLOWING))  # "".join("abc")
        if attr == "format":
            return Val(text=F.brace_format(text, args, kwargs), flags=flags | v.flowing((kwargs or {}).values()))
        if attr in ("split", "rsplit") and HOLE not in text and not args:
            return Val(items=[Val(text=w) for w in text.split()], flags=flags)
        if attr in ("split", "rsplit") and HOLE not in text and len(args) == 1 and args[0].text:
            parts = text.split(args[0].text) if attr == "split" else text.rsplit(args[0].text)
            return Val(items=[Val(text=w, flags=flags) for w in parts[:16]], flags=flags)  # "os.system".split(".")
        return Val(flags=flags)

    def _norm(self, qual: str) -> str:
        if qual in T.QUAL_ALIASES:
            return T.QUAL_ALIASES[qual]
        head, _, rest = qual.partition(".")
        if head in T.QUAL_ALIASES and rest:
            return f"{T.QUAL_ALIASES[head]}.{rest}"
        for prefix in ("os.path.", "pathlib.PosixPath", "pathlib.PurePath"):
            if qual.startswith(prefix):
                break
        two = qual.split(".", 2)
        if len(two) >= 2:
            key = f"{two[0]}.{two[1]}"
            if key in T.QUAL_ALIASES:
                return T.QUAL_ALIASES[key] + (f".{two[2]}" if len(two) == 3 else "")
        return qual


#: Where Python's site directories are (whatever this interpreter says, they hold .pth files that
#: every interpreter start runs).
SITE_DIRS: dict[str, Callable[[], Val]] = {
    "site.getsitepackages": lambda: Val(
        items=[Val(text="/usr/local/lib/python3/site-packages"), Val(text="/usr/lib/python3/dist-packages")]
    ),
    "site.getusersitepackages": lambda: Val(text="~/.local/lib/python3/site-packages"),
    "sysconfig.get_paths": lambda: Val(
        keys={k: Val(text="/usr/local/lib/python3/site-packages") for k in ("purelib", "platlib")}
    ),
    "sysconfig.get_path": lambda: Val(text="/usr/local/lib/python3/site-packages"),
    "certifi.where": lambda: Val(text="/usr/lib/python3/dist-packages/certifi/cacert.pem"),
    # where running Jupyter kernels and servers keep their connection files (signing keys, tokens)
    "jupyter_core.paths.jupyter_runtime_dir": lambda: Val(text="~/.local/share/jupyter/runtime"),
}

#: Decorators of functions that handle what a client sent: web routes and views, middleware, task queues.
_HANDLER_DECORATOR = re.compile(
    r"(?:\.(?:route|get|post|put|patch|delete|websocket|api_route|middleware|task)\b|"
    r"\b(?:shared_task|require_POST|require_GET|require_http_methods|api_view|csrf_exempt)\b"
    # chat bots: what the handler gets is what anyone in the chat (or on the network) sent
    r"|\.(?:message_handler|callback_query_handler|channel_post_handler|edited_message_handler|inline_handler"
    r"|on_message|slash_command|message|event|on|listen)$|\b(?:bot|tree)\.command$"
    # an MCP server's tools: the model (or whoever reaches the server) chooses their arguments
    r"|\b(?:mcp|server|app)\.tool$"
    # a WebAssembly plugin's host functions: the plugin (its author) chooses their arguments
    r"|^(?:extism\.)?host_fn$"
    # a notification service's custom plugin (Apprise's `@notify(on="…")`): whoever sends a notification writes its body
    r"|^(?:apprise\.decorators\.)?notify$)"
)
_REQUEST_ANNOTATION = re.compile(r"\b(?:Request|HttpRequest|WebSocket|Message|Update|RoomMessage\w*|NewMessage)\b")

#: Loops over a constant sequence of at most this many lists or dicts are analysed once per element.
UNROLL_ITEMS = 8

_SHEBANG_SHELL = re.compile(r"\s*#!\s*(?:/usr)?/bin/(?:env\s+)?(?:ba|da|z|k)?sh\b")
_SHEBANG_PYTHON = re.compile(r"\s*#!\s*(?:/usr)?/bin/(?:env\s+)?python")


_CLOUD_DESTROY = re.compile(T.CLOUD_DESTROY_METHOD)
#: Folders inside a project that still hold what others sent (a web app's uploads, students' submissions).
#: Names of logs and run-time files (rotating or truncating them destroys nothing anyone keeps).
_LOG_SUFFIXES = (".log", ".log.gz", ".log.1", ".out", ".err", ".pid", ".lock", ".tmp")
#: A loop condition that holds until a disk or the memory is full.
_UNTIL_FULL = re.compile(
    r"disk_usage\([^)]*\)\.free|\bstatvfs\(|\.f_bavail\b|\.f_bfree\b|virtual_memory\(\)\.(?:available|free)"
)
#: Code that fetches something over HTTP.
_PYTHON_FETCHES = re.compile(
    r"\burlopen\(|\burlretrieve\(|\brequests\.get\(|\bhttpx\.get\(|\.content\b|\bwget\.download\("
)
#: Methods of document platforms' clients that set who can read files.
_SHARING_METHODS = frozenset(
    {"create", "insert", "patch", "update", "post", "put", "createLink", "create_shared_link_with_settings",
     "sharing_create_shared_link_with_settings", "create_shared_link", "get_shared_link", "share"}
)  # fmt: skip
#: Method names of SDK calls that delete, purge or archive what they are given.
_API_DELETE = re.compile(
    r"^(?:delete|remove|destroy|purge|trash|empty_?trash|emptyTrash)(?:_|[A-Z]|$)|_(?:delete|destroy|purge)(?:_|$)"
    r"|^(?:update|patch)$"
)
#: Python clients of SaaS platforms whose objects' methods reach a remote account.
#: Package managers' configuration files (what :func:`package_source_weakness` judges).
_PACKAGE_CONFIGS = ("pip.conf", "pip.ini", ".npmrc", ".yarnrc", ".yarnrc.yml", ".condarc", ".gemrc")
#: A lockfile entry's download source or hash, named in code (``meta["resolved"] = …``).
_LOCK_FIELD = re.compile(r"[\"'](?:resolved|integrity|checksum|sha512|sha256)[\"']")
#: Environment-module systems whose `python` mode prints code that sets up the environment.
_MODULE_TOOLS = frozenset({"lmod", "modulecmd", "modulecmd.tcl"})
#: An OAuth token endpoint (``https://oauth2.googleapis.com/token``, ``…/oauth2/v1/tokens/bearer``).
_TOKEN_ENDPOINT = re.compile(r"^https://[^/]+/(?:\S*/)?(?:oauth2?/\S*token\S*|token/?$|tokens?/bearer)", re.IGNORECASE)
#: Encodings and reshapings applied to a value before it is printed.
_ENCODED = re.compile(r"b(?:64|32|16|85)encode|hexlify|\.hex\(\)|codecs\.encode|\[::-1\]")
#: Active Directory attributes whose writing hands another account this one's identity (RBCD, shadow credentials).
_DELEGATION_ATTRS = re.compile(
    r"msDS-AllowedToActOnBehalfOfOtherIdentity|msDS-KeyCredentialLink|msDS-AllowedToDelegateTo"
)
#: Code that honours a messaging list's opt-outs or consent.
_OPT_OUTS = re.compile(r"opt_?outs?|opt_?in\b|opted_?in|unsubscribe|\bconsent\b|\bSTOP\b", re.IGNORECASE)
#: Methods that set a named parameter of a device or a node (MAVLink, ROS, a drone SDK).
_PARAM_SETTER = re.compile(r"^(?:param_?set\w*|set_?param\w*)$", re.IGNORECASE)
#: A loop's iterable that lists a directory.
#: Where writing zeros harms nobody: the project's own files and scratch space.
_SCRATCH_KINDS = frozenset({paths.PathKind.RELATIVE, paths.PathKind.WORKDIR, paths.PathKind.TEMP, paths.PathKind.NULL})


#: A file opened to be written or changed in place.
_REWRITES = re.compile(r"open\([^)\n]*,\s*[\"'](?:w|a|r\+)|\.write_(?:text|bytes)\(|\.save\(|\.to_(?:csv|excel|json)\(")


def _zero_fill(expr: ast.expr, code: str) -> bool:
    """``b"\\0" * size``, ``bytes(size)``, ``os.urandom(size)``: bytes that say nothing, written to wipe (or a
    name bound to them)."""
    if isinstance(expr, ast.Name):
        return re.search(rf"\b{expr.id}\s*=\s*(?:b[\"'](?:\\0|\\x00)+[\"']\s*\*|os\.urandom\()", code) is not None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Mult):
        return any(isinstance(side, ast.Constant) and isinstance(side.value, bytes) and side.value
                   and not side.value.strip(b"\0") for side in (expr.left, expr.right))  # fmt: skip
    if isinstance(expr, ast.Call):
        return _call_name(expr) in ("urandom", "token_bytes") or (
            _call_name(expr) in ("bytes", "bytearray") and len(expr.args) == 1
            and not isinstance(expr.args[0], (ast.List, ast.Tuple, ast.Constant))
        )  # fmt: skip
    return False


#: Programs that read a password on standard input (and nothing else there): given one after another, they are
#: guessed. (smbclient or sudo -S read commands or file content there too.)
_PASSWORD_PROMPTERS = frozenset({"kinit"})
_LISTING_ITER = re.compile(r"\b(?:walk|i?glob|rglob|iterdir|listdir|scandir)\b")
_BYTES_IO = frozenset({"write_bytes", "write_text", "read_bytes", "read_text"})
_SAAS_PREFIXES = ("googleapiclient.", "dropbox.", "atlassian.", "notion_client.", "boxsdk.", "msgraph.", "O365.",
                  "meilisearch.", "typesense.", "algoliasearch.", "mailchimp_marketing.", "mailchimp3.",
                  "klaviyo_api.", "facebook_business.", "google.ads.", "google.analytics.", "hubspot.",
                  "twilio.", "vonage.", "firebase_admin.", "google.cloud.firestore", "hvac.",
                  # vector databases (a collection is a whole corpus of embeddings)
                  "qdrant_client.", "weaviate.", "chromadb.", "pinecone.", "pymilvus.",
                  # an application's media storage (S3 or a disk behind Django's storage API)
                  "django.core.files.storage.",
                  # CI servers (a loop over every job); Hadoop's file systems (every folder of a data lake)
                  "jenkins.", "jenkinsapi.", "pyarrow.fs.", "hdfs.", "pywebhdfs.",
                  # OpenStack's clients (a loop over every image, volume or server of the cloud)
                  "openstack.", "glanceclient.", "cinderclient.", "novaclient.", "keystoneclient.", "neutronclient.",
                  "swiftclient.",
                  # a vulnerability scanner's own SDK (every report or task it keeps)
                  "gvm.")  # fmt: skip
_SAAS_CLIENT = re.compile(r"\b(?:" + "|".join(re.escape(p.rstrip(".")) for p in _SAAS_PREFIXES) + r")\b")
#: Words (lower case) every remote vehicle command spells (a cheap gate before its pattern).
_VEHICLE_WORDS = GateWords("immobili", "starter", "unlock", "alarm", "engine", "fuel", ignore_case=True)
#: A pid file's name in a string (``"run/worker.pid"``, ``glob("*.pid")``): the project keeps its own pids.
_PIDFILE_NAME = re.compile(r"\.pid[\"']")
_PROCESS_LISTING = re.compile(
    r"listdir\(\s*[\"']/proc|process_iter\(|\bpids\(\)|[\"']/proc/\*|/proc/\[0-9\]|\bps\b.*-e"
)
#: ``el.set("listen", "0.0.0.0")`` on a domain's XML: its console on every interface.
_NETWORK, _CLOUD, _ATTACK, _IAC, _DATA_SERVICE, _CRM = (1 << bit for bit in range(6))


def _is_network(qual: str | None) -> bool:
    """``qual`` names a call that sends or receives over the network (looked up once per name)."""
    return qual is not None and bool(_library_kinds(qual) & _NETWORK)


@functools.lru_cache(maxsize=8192)
def _library_kinds(qual: str) -> int:
    """The library families (each a table of name prefixes) a call's qualified name belongs to; the same
    names recur in every module, so each is looked up once."""
    return (
        (_NETWORK if qual.startswith(T.NETWORK_PREFIXES) else 0)
        | (_CLOUD if qual.startswith(T.CLOUD_PREFIXES) else 0)
        | (_ATTACK if qual.startswith(T.ATTACK_LIBRARIES) else 0)
        | (_IAC if qual.startswith(T.IAC_PREFIXES) else 0)
        | (_DATA_SERVICE if qual.startswith(T.DATA_SERVICE_PREFIXES) else 0)
        | (_CRM if qual.startswith(CRM_PREFIXES) else 0)
    )


#: Signals daemons take as "reload your settings" or "reopen your logs".
_RELOAD_SIGNAL = re.compile(r"\bSIG(?:HUP|USR1|USR2)\b")
#: A process picked by its name compared with a constant (`p.info["name"] == "vector"`, `p.name() == "nginx"`).
_NAMED_PROCESS = re.compile(r"(?:\[[\"']name[\"']\]|\.name\(\))\s*==\s*[\"']")
_CHILD_PIDS = frozenset(
    {"subprocess.Popen().pid", "multiprocessing.Process().pid", "asyncio.create_subprocess_exec().pid",
     "asyncio.create_subprocess_shell().pid", "pexpect.spawn().pid"}
)  # fmt: skip
_ROLE_ATTRIBUTE = re.compile(r"(?:site_|account_|user_|org_)?role(?:_name)?|permission_level|user_type", re.I)
_ADMIN_ROLE = re.compile(r"admin|owner|superuser", re.IGNORECASE)
#: Keyword arguments that size a cluster (Databricks, Dataproc, EMR, Ray).
_WORKER_COUNTS = frozenset({"num_workers", "max_workers", "min_workers", "worker_count", "num_nodes", "node_count",
                            "instance_count", "InstanceCount"})  # fmt: skip
#: Options after which an interpreter's (or cmd.exe's) next argument is the code it runs.
_CODE_OPTIONS = frozenset({"-e", "-E", "-c", "--eval", "-command", "-encodedcommand", "-enc", "-ec", "/c", "/k", "/r",
                           "/C", "/K", "/R",
                           # a CMS's console running PHP inside the site (`drush php:eval CODE`, `wp eval CODE`)
                           "php:eval", "php-eval"})  # fmt: skip
#: Windows calls that put code into another process and start it there.
_WINDOWS_INJECTION = frozenset(
    {"WriteProcessMemory", "CreateRemoteThread", "CreateRemoteThreadEx", "NtCreateThreadEx", "QueueUserAPC",
     "RtlCreateUserThread", "NtWriteVirtualMemory", "SetWindowsHookExA", "SetWindowsHookExW"}
)  # fmt: skip
#: An API endpoint that deletes the objects its request body lists.
_BULK_DELETE_URL = re.compile(r"/(?:mass|bulk|batch)?[-_]?delete(?:[-_]?(?:many|all|batch|objects))?/?(?:\?|$)", re.I)
#: This machine's loopback or a private network's address: services meant to be reached only from inside.
_INTERNAL_ADDRESS = re.compile(
    r"127\.|localhost$|::1$|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\."
    # a name of the organisation's own network (`prod-db.internal.corp`, `db.svc.cluster.local`)
    r"|[\w.-]+\.(?:internal|corp|lan|local|intranet)(?:\.[\w-]+){0,2}$"
)
#: Calls that put values into text (a template rendered, a string formatted): a path there is spelled, not read.
_TEXT_BUILDERS = frozenset({"render", "render_template", "substitute", "safe_substitute", "format", "format_map"})
#: Keyword arguments naming a client's own key or certificate file (it authenticates with it).
#: A secrets store's API (a forge's repository secrets, a cloud's or a vault's secrets): what is sent there is kept.
_SECRET_STORE_URL = re.compile(
    r"/actions/secrets/|/variables/|/envvar\b|secretsmanager\.|/v1/secret/|/secrets/[^/]+:addVersion"
)
_CLIENT_KEY_KWARG = re.compile(
    r"^(?:cert_key|key_file|keyfile|client_key|client_key_file|ssl_keyfile|ssl_key|tls_key|tls_key_file|key_filename"
    r"|private_key_file|pkey_file|ssl_certfile|cert_file|certfile|client_cert"
    # a NATS client's credentials file, a Kafka client's keystore
    r"|user_credentials|creds_file|credentials_file|ssl_keystore_location|sasl_kerberos_keytab)$"
)
#: Processes picked because another user owns them (`p.info["username"] != me`, `p.uids().real != os.getuid()`).
_OTHERS_PROCESSES = re.compile(
    r"[\"']username[\"']\]\s*!=|username\(\)\s*!=|uids(?:\(\)|[\"']\]|)\.real\s*!=|\.uids\(\)\[0\]\s*!="
)
#: Files picked because someone else owns them (`if st.st_uid != me and …: os.unlink(p)`; not `…: continue`).
_OTHERS_FILES = re.compile(r"\bst_uid\s*!=\s*[\w.()]+(?![\w.()]|\s*:\s*(?:continue|return|pass)\b)")
#: Processes picked because this user owns them (`p.info["username"] == me`, `p.username() == getpass.getuser()`).
_OWN_USER_FILTER = re.compile(r"(?:[\"']username[\"']\]|username\(\)|uids\(\)\.real)\s*==\s*(?![\"'\d])")
#: The user this program runs as, asked for.
_CURRENT_USER = re.compile(r"getpass\.getuser\(\)|os\.getlogin\(\)|Process\(\)\.username\(\)|os\.getuid\(\)")
#: A program checking that a pid is its own before signalling it: by owner, or by its pid file and command line.
_FTP_SERVER = re.compile(r"FTP(?:_TLS)?\(\s*(?:host\s*=\s*)?[\"'](\d{1,3}(?:\.\d{1,3}){3})[\"']"
                         # (or the address a host variable defaults to: `os.environ.get("SYNC_HOST", "198.51.100.14")`)
                         r"|(?:environ\.get|getenv)\(\s*[\"']\w*HOST\w*[\"']\s*,\s*[\"'](\d{1,3}(?:\.\d{1,3}){3})[\"']")
_OWN_PROCESS_CHECK = re.compile(
    r"st_uid\s*[!=]=\s*os\.getuid\(\)|os\.getuid\(\)\s*[!=]=|uids\(\)\.real\s*[!=]="
    r"|(\w+)\s*=\s*os\.gete?uid\(\)[\s\S]*uids(?:\(\)|[\"']\])\.real\s*[!=]=\s*\1\b"  # `me = os.getuid()`
    r"|username\(\)\s*[!=]=\s*getpass"
    r"|\bpid_?file\b[\s\S]{0,600}/cmdline|\.pids?\b[\s\S]{0,600}/cmdline"
)
#: The command a systemd unit, an autostart entry or a launchd job runs.
_UNIT_COMMAND = re.compile(r"^\s*(?:ExecStart(?:Pre|Post)?|Exec)=[-@+!]*(.+)$", re.MULTILINE)
#: Calls a parent blocks in between forks (a connection, a child's exit, a message, time).
#: Reads that block until a stream or a queue has a message (Redis streams and lists, a consumer's poll).
_STREAM_READS = frozenset({"xread", "xreadgroup", "blpop", "brpop", "consume"})
_WAITING_CALLS = frozenset({"accept", "wait", "waitpid", "wait3", "wait4", "sleep", "join", "recv", "recvfrom",
                            "get", "select", "poll", "input", "read", "readline", "acquire", "serve_forever"})
#: ...of them, the ones that wait for data to arrive (not for time to pass or another task to end; a file's `read`
#: returns at once).
_INPUT_READS = _WAITING_CALLS - {"wait", "waitpid", "wait3", "wait4", "sleep", "join", "acquire", "serve_forever",
                                  "read"}
#: Environment variables that hold a database's login (its URL with the password, its DSN, its password).
_DATABASE_LOGIN_VARIABLE = re.compile(r"(?:^|_)(?:DATABASE_URL|DB_URL|(?:PG|POSTGRES|MYSQL|DB)_DSN|DB_PASS(?:WORD)?)$")
#: Unicode's normal forms, by the names `unicodedata.normalize` takes.
_NORMAL_FORMS: dict[str, Literal["NFC", "NFD", "NFKC", "NFKD"]] = {"NFC": "NFC", "NFD": "NFD", "NFKC": "NFKC",
                                                                   "NFKD": "NFKD"}
#: Methods that run their argument as code in an embedded interpreter (Lua in an editor or through lupa, a page's JS).
_EMBEDDED_CODE_METHODS = frozenset({"exec_lua", "execute_lua", "exec_js", "execute_script", "run_script", "runjs"})
#: An editor's methods that run Ex commands or type keys into it (`:!cmd` reaches a shell).
_EDITOR_INPUT_METHODS = frozenset({"command", "input", "feedkeys", "exec", "exec2", "call", "lua"})
#: What an endless iterator evaluates to (itertools.count(), cycle(), iter(callable, sentinel)).
_ENDLESS_ITERATORS = frozenset({"itertools.count()", "itertools.cycle()", "<iter-sentinel>"})
#: The operator module's binary functions reduce() folds as their operator.
_REDUCE_OPERATORS: dict[str, type[ast.operator]] = {
    "operator.truediv": ast.Div, "operator.add": ast.Add, "operator.concat": ast.Add, "operator.mul": ast.Mult,
    "operator.or_": ast.BitOr,
}  # fmt: skip
_REQUEST_NAMES = frozenset({"get", "post", "put", "head", "request", "fetch", "urlopen", "send", "open_connection",
                            # DNS lookups and raw datagrams (`dns.query.udp`, `resolver.resolve`, `sock.sendto`)
                            "udp", "tcp", "resolve", "gethostbyname", "getaddrinfo", "sendto"})  # fmt: skip
_TASK_STARTERS = frozenset({"create_task", "ensure_future", "start_soon", "spawn", "submit"})
_REFUND_CALL = re.compile(r"(?:^|\.)(?:Refund|refunds?)\.create$|\.create_refund$|\.refund$")
_KICKSTART_SECTION = re.compile(r"^%(?:post|pre)\b[^\n]*\n([\s\S]*?)^%end\b", re.MULTILINE)
#: A GraphQL mutation that updates what it is given (sent with POST like every GraphQL request).
_UPDATE_MUTATION = re.compile(r"\bmutation\b[\s\S]{0,200}?\b\w*(?:Update|Set)\w*\s*\(")
#: A database or table file named for people (contacts, customers, members, patients).
_PEOPLE_DATABASE = re.compile(r"(?:contacts?|customers?|members?|patients?|clients?|subscribers?|leads?|users?)\w*"
                              r"\.(?:sqlite3?|db|csv|xlsx)$", re.IGNORECASE)  # fmt: skip
_MAX_WORKERS = re.compile(r"\bmax_workers\s*=\s*(\d+)")
_THREAD_STARTERS = frozenset({"threading.Thread", "multiprocessing.Process"})
#: Escapes that can spell a word in a string literal (hex, unicode, octal, named characters).
_HIDING_ESCAPE = re.compile(r"\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|N\{)")
#: Serialisers writing an object into a handle, and parsers reading one back (from a handle or a text).
_DUMPS = frozenset({"json.dump", "yaml.safe_dump", "yaml.dump", "toml.dump", "tomli_w.dump"})
_LOADS = frozenset({"json.load", "json.loads", "yaml.safe_load", "yaml.load", "yaml.full_load", "tomllib.load",
                    "tomllib.loads", "toml.load", "toml.loads"})  # fmt: skip
_YAML_PAIR = re.compile(r"(?P<key>[A-Za-z_][\w.-]*):\s+(?P<value>\S.*)")
_ARCHIVE_SUFFIXES = (".zip", ".tar", ".tgz", ".gz", ".bz2", ".xz", ".7z", ".whl", ".jar", ".db", ".sqlite")
_TEXT_WRITES = frozenset({"builtins.open().write", "pathlib.Path().write_text", "pathlib.Path().write_bytes"})
_TEXT_READS = frozenset({"builtins.open().read", "pathlib.Path().read_text", "pathlib.Path().read_bytes"})
_ROUND_TRIP_CALLS = _DUMPS | _LOADS | _TEXT_WRITES | _TEXT_READS
#: Names of functions that receive messages from elsewhere (a queue, a datalink, a broker, a socket).
_HANDLER_NAME = re.compile(r"^(?:handle_\w*(?:msg|message|downlink|uplink|request|event|packet|payload)\w*"
                           r"|on_message|on_msg|on_packet|on_request)$")  # fmt: skip
_ISSUER_WORDS = GateWords(*issuer_words(), "DATABASE_URL", "DB_URL", "_DSN", "DB_PASS")
_PUBLIC_ATTRIBUTE = re.compile(r"\.visibility\s*=\s*['\"]public['\"]|\.private\s*=\s*False\b")
_SELF_INVOCATION = re.compile(r"FunctionName\s*=\s*(?:context\.function_name|[^,)]*AWS_LAMBDA_FUNCTION_NAME)")
_ROOT_ACCOUNT = re.compile(r"\bid\s*=\s*[\"']root[\"']")
_XML_LISTEN_EVERYWHERE = re.compile(r"\.set\(\s*[\"'](?:listen|address)[\"']\s*,\s*[\"'](?:0\.0\.0\.0|::)[\"']")
#: Clients of CRM, support and messaging platforms, and the collections of theirs that are people.
CRM_PREFIXES = ("simple_salesforce.", "hubspot.", "zenpy.", "intercom.", "freshdesk.", "twilio.", "stripe.Customer.")
_CRM_PEOPLE = re.compile(r"\.(?:contacts|leads|users|customers?|recordings|people|end_users)\.", re.IGNORECASE)
#: Keyword arguments of HTTP clients that carry the request's body or its query.
_BODY_KWARGS = frozenset({"data", "json", "files", "content", "params", "body", "fields"})
_REGEX_MATCHERS = frozenset({"re.match", "re.search", "re.fullmatch", "re.findall", "re.finditer", "re.sub",
                             "re.split", "regex.match", "regex.search", "regex.fullmatch"})  # fmt: skip
#: A group that repeats something repeated: `(\w+\s?)*`, `(a+)+`, `(.*a){20,}`.
_NESTED_REPETITION = re.compile(r"\([^()]*[+*][^()]*\)(?:[*+]|\{\d+,\d*\})")


def _catastrophic(pattern: str | None, subject: str | None, source: str) -> bool:
    """``pattern`` nests repetition and ``subject`` is a long constant text: exponential backtracking, unless the
    code bounds it (a timeout, an alarm)."""
    return (
        pattern is not None
        and subject is not None
        and len(subject) >= 25
        and HOLE not in subject
        and _NESTED_REPETITION.search(pattern) is not None
        and "timeout" not in source
        and "alarm" not in source
    )


def _environment_variable(node: ast.AST, mappings: frozenset[str] = frozenset()) -> str | None:
    """``os.environ["X"]``, ``os.environ.get("X")``, ``os.getenv("X")``: the variable ``X`` read (or read from one of
    ``mappings``, names bound to an env file's variables)."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        base = node.value
        if (isinstance(base, ast.Attribute) and base.attr == "environ") or (
            isinstance(base, ast.Name) and (base.id == "environ" or base.id in mappings)
        ):
            return node.slice.value
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        environ_get = name == "get" and isinstance(func, ast.Attribute) and (
            ast.unparse(func.value).endswith("environ")
            or (isinstance(func.value, ast.Name) and func.value.id in mappings)
        )
        if (name == "getenv" or environ_get) and isinstance(node.args[0].value, str):
            return node.args[0].value
    return None


def _dropped_file(path: str, boxes: frozenset[str]) -> bool:
    """``path`` lies in a folder others drop files into (``uploads``, ``/srv/sftp/bureau_uploads``)."""
    folders = path.lower().split("/")[:-1]
    suffixes = ("_uploads", "-uploads", "_upload", "-upload", "_inbox", "-inbox", "_incoming", "-incoming", "_drop",
                "-drop")  # fmt: skip
    return bool(set(folders) & boxes) or any(f == "sftp" or f.endswith(suffixes) for f in folders)


_PROJECT_DROP_BOXES = frozenset(
    {"upload", "uploads", "user_uploads", "submissions", "submission", "incoming", "inbound"}
)
#: A SQLite database of an installed application (`/var/lib/<app>/…`, `/srv/…`), not a project's or a test's.
#: Operations that mint an account's access key, and a secrets store the new key goes into.
_KEY_CREATIONS = frozenset({"createaccesskey", "createserviceaccountkey", "serviceaccountskeyscreate"})
_STORED_IN_VAULT = re.compile(r"put_secret_value|put-secret-value|create_secret|create-secret|put_parameter"
                              r"|put-parameter|vault\s+kv\s+put|\.secrets\.kv\.")  # fmt: skip
#: Compiled modules and libraries an application loads by name (BEAM, JVM, native, Python bytecode).
_LOADED_MODULE = re.compile(r"\.(?:beam|jar|class|so|pyc|dll|dylib)$")
#: Payloads searched for logins (`password=`, `USER`/`PASS`, basic auth), or cleartext login ports filtered.
_SNIFFED_LOGINS = re.compile(r"pass(?:word)?|pwd|\bUSER\b|\bPASS\b|Authorization|cvv|\bport (?:21|23|110|143)\b", re.I)
_SENDS_ON = re.compile(r"\.sendto\(|\.send\(|requests\.\w+\(|urlopen\(")
#: The time now (``time.time()``, ``datetime.now(timezone.utc)``, ``date.today()``).
_NOW = re.compile(r"^(?:time\.time|(?:datetime\.)*(?:datetime|date)\.(?:now|utcnow|today))\(|^\w+\.(?:now|today)\(")
#: A row test against a cut-off the caller passes (``WHERE created < %s``).
_BEFORE_PLACEHOLDER = re.compile(r"<=?\s*(?:%s|\?|:\w+|%\(\w+\)s)")
#: A cut-off this long before now (`created_at < NOW() - INTERVAL %s DAY`, `< datetime('now', ?)`).
_BEFORE_NOW_MINUS = re.compile(r"<=?\s*(?:now\(\)|current_timestamp|current_date|(?:date|datetime)\(\s*'now')",
                               re.IGNORECASE)


def _parameter_defaults(given: ast.arguments) -> list[tuple[ast.arg, ast.expr | None]]:
    """Each parameter that has a default, with it (a keyword-only one without a default pairs with None)."""
    positional = [*given.posonlyargs, *given.args]
    return [*zip(positional[len(positional) - len(given.defaults) :], given.defaults, strict=True),
            *zip(given.kwonlyargs, given.kw_defaults, strict=True)]  # fmt: skip


def _far_future_date(default: ast.expr | None) -> bool:
    """``default`` is a date decades ahead (``datetime.date(2099, 1, 1)``)."""
    return (
        isinstance(default, ast.Call)
        and _call_name(default) in ("date", "datetime")
        and bool(default.args)
        and isinstance(default.args[0], ast.Constant)
        and isinstance(default.args[0].value, int)
        and default.args[0].value >= 2070
    )


#: An application's own API key or token file (``/var/lib/mailinabox/api.key``, ``/etc/app/api_token``).
_SERVICE_KEY_FILE = re.compile(r"/(?:api|access|admin)[._-]?(?:key|token)(?:\.txt)?$|/[\w-]+\.token$")
_LIVE_SQLITE = re.compile(r"sqlite3\.connect\(\s*[\"'](?:/var/lib|/srv|/opt|/var/www|/nix/var|/etc|/config|/data"
                          r"|/app/(?:[\w.-]+/)*data)/"  # (a container's data folder: `/app/backend/data/webui.db`)
                          # (or named by a constant first: `GRAVITY = "/etc/pihole/gravity.db"`, or a setting's
                          # default: `cfg.get("dbconfig", "/opt/focalboard/focalboard.db")`)
                          r"|^\w+\s*=\s*(?:Path\()?[\"'](?:/var/lib|/srv|/opt|/var/www|/etc)/[^\"'\n]*\.(?:sqlite3?|db)[\"']\)?\s*$"
                          r"|\.get\([^()\n]*,\s*[\"'](?:/var/lib|/srv|/opt|/var/www|/etc)/[^\"'\n]*\.(?:sqlite3?|db)\b"
                          # (or every installed application's database a glob finds)
                          r"|\bglob\(\s*[\"'](?:/var/lib|/srv|/opt|/var/www)/[^\"']*\.(?:sqlite3?|db)[\"']",
                          re.MULTILINE)
#: A download compared with an expected digest before it is used (`hexdigest() != expected`, `compare_digest`).
_DIGEST_CHECK = re.compile(r"hexdigest\(\)\s*!=|!=\s*[\w.]+\.hexdigest\(\)|compare_digest\(")
#: A dict key naming who or what an entry is about (a sender's id, an address, a host name): entries are replaced.
_IDENTITY_KEY = re.compile(
    r"\.get_\w*(?:id|system|name|host|addr)\w*\(\)|\baddr(?:ess)?\b|\b(?:host|hostname|ip)\b", re.I
)
#: Python code held in a string that runs what it downloads (`exec(urlopen(URL).read())`).
_FETCH_AND_EXEC = re.compile(r"\bexec\((?:[^()]|\([^()]*\))*(?:urlopen|requests\.get|urllib|\.read\(\))")
#: A test that only reads the environment (`os.environ.get("CI")`, `os.getenv("X") == "1"`).
_ENV_LOOKUP = re.compile(
    r"(?:not\s+)?os\.(?:environ\.get|getenv)\([^()]*\)(?:\s*[=!]=\s*[\w\"'.]+)?$|os\.environ\[[^\]]+\]$"
)
#: Kubernetes objects that guard a cluster (what may talk to what, what may be deployed).
_CLUSTER_GUARDS = ("network_policy", "webhook_configuration", "pod_security_policy", "cluster_policy")
#: Ports of logins, consoles and controllers (a relay to one exposes it), by number.
_CONSOLE_PORTS = {"22": "ssh login", "23": "telnet console", "3389": "remote desktop", "5900": "VNC console",
                  "502": "Modbus controller", "102": "S7 controller", "44818": "EtherNet/IP controller",
                  "47808": "BACnet controller", **ADMIN_PORTS}  # fmt: skip
#: Files of shell code whatever their first line says: scripts, BitBake recipes and classes (build-time tasks).
_SHELL_CODE_FILES = (".sh", ".bash", ".bb", ".bbappend", ".bbclass")
#: Slack's admin API methods that make a user an administrator or owner of the workspace.
_WORKSPACE_PROMOTIONS = frozenset({"admin_users_setAdmin", "admin_users_setOwner"})
#: A resource named after a pull request or a preview (`orders-api-pr-123`): an ephemeral environment.
_EPHEMERAL_NAME = re.compile(rf"(?:^|[-_.])(?:pr|mr|preview|review)[-_]?(?:\d+|{re.escape(HOLE)})", re.IGNORECASE)
#: A permission mode that lets everyone write (`0o666`, `0o777`).
_WORLD_WRITABLE_MODE = re.compile(r"\b0o?[0-7]?[0-7][0-7][2367]\b")
#: Calls that open a database connection or client.
_DATABASE_CONNECTORS = frozenset({"connect", "Connection", "create_engine", "MongoClient", "Redis", "StrictRedis"})
#: Keyword arguments that log a client in (what it returns is not made of them).
_LOGIN_KWARGS = T.AUTH_KWARGS | {"passwd", "pwd"}
#: The qualifier of a slice of a listing (`sorted(glob(…))[:-7]`): some of its files, picked.
_SUBSET = "<subset>"
#: Items whose every ordering still fits in memory (10! is 3.6 million tuples; 13! is 6 billion).
_ORDERINGS_IN_MEMORY = 10
#: Every ordering gathered into one collection (rather than iterated one at a time).
def _known_size(val: Val, expr: ast.expr | None) -> int | None:
    """How many items ``val`` (the value of ``expr``) holds when the code spells it: a list of known items,
    ``range(12)``, or a comprehension over ``range(40)``."""
    if val.items is not None:
        return len(val.items)
    if val.elem is not None and val.num is not None:
        return int(val.num)  # a comprehension's value: its length
    if isinstance(expr, ast.ListComp) and len(expr.generators) == 1 and not expr.generators[0].ifs:
        expr = expr.generators[0].iter  # `[f"T{i}" for i in range(40)]`: as many as the range
    if isinstance(expr, ast.Call) and _call_name(expr) == "range" and expr.args:
        bound = expr.args[-1] if len(expr.args) <= 2 else None  # `range(12)`, `range(1, 13)`: up to the bound
        start = expr.args[0] if len(expr.args) == 2 else ast.Constant(0)
        lo = start.value if isinstance(start, ast.Constant) else None
        hi = bound.value if isinstance(bound, ast.Constant) else None
        if type(lo) is int and type(hi) is int:
            return max(hi - lo, 0)
    return None


_MATERIALISED_ORDERINGS = re.compile(r"\b(?:list|tuple|set|sorted)\(\s*(?:itertools\.)?permutations\(")
#: Fewer lines than a device's configuration ever has: a replace with them is a wipe.
_WHOLE_CONFIG_LINES = 5
#: Names without which :data:`DEVICE_LIBRARIES` cannot match (a cheaper scan first).
_DEVICE_LIBRARY_WORDS = GateWords(
    "netmiko", "napalm", "jnpr", "ncclient", "paramiko", "ESL", "pexpect", "telnetlib", "scrapli", "nornir"
)  # fmt: skip
#: Without one of these words, _WRITES_FILES cannot match.
_WRITE_WORDS = GateWords("write", "dump(", "open(", "kubectl", "_config_map(")
#: Card fields of a checkout form, what a web handler reads them from, and the processors allowed to get them.
_CARD_FIELDS = re.compile(r"\b(?:cc_?num\w*|card_?num\w*|cc_?cvv|cvv2?|cvc|card_?cvc|cc_?exp\w*)\b", re.IGNORECASE)
_REQUEST_FORM = re.compile(r"\brequest\.(?:form|json|values|get_json|POST|data)\b")
_PAYMENT_HOSTS = re.compile(r"api\.stripe\.com|braintreegateway\.com|adyen\.com|paypal\.com|squareup\.com")
#: Code that writes files (settings it spells out end up somewhere).
_WRITES_FILES = re.compile(
    r"json\.dump\(|\.write_text\(|\.write\(|open\([^)]*['\"][wa]|[\"']kubectl[\"']|_config_map\("
)
#: A router or device setting that opens its administration to the internet.
_REMOTE_MANAGEMENT = re.compile(r"(?:wan_|remote_?)(?:mgmt|management|admin|access|web)(?:_enabled?|_on)?", re.I)


#: Calls that show a string to a person (messages, logs, help texts) rather than run it anywhere.
_SHOWING_CALLS = frozenset(
    {"print", "echo", "secho", "info", "debug", "warning", "warn", "error", "exception", "critical", "log",
     "add_argument", "Option", "Argument", "option", "argument", "write_line", "notify", "format"}
)  # fmt: skip


#: Trees where making every file world-writable lets anyone on the machine plant or alter files.
_SHARED_TREES = frozenset({paths.PathKind.EXTERNAL, paths.PathKind.HOME, paths.PathKind.SYSTEM})
#: Directories where other people (or other programs) put files: what is there is not this code's.
_REMOTE_SCHEMES = ("http://", "https://", "ftp://", "s3://", "gs://", "gcs://", "az://", "abfs://", "hf://")


#: Checks a handler makes before using a client's path or URL (an allow-list, a containment test).
_GUARD = re.compile(
    r"is_relative_to|commonpath|secure_filename|safe_join|\.startswith\(|realpath|\.parents\b|"
    r"(?:hostname|netloc|host)\s+(?:not\s+)?in\b|ALLOWED|allowlist|whitelist"
)


#: Go's module checksums turned off (set, not compared: `env["GOSUMDB"] = "off"`, `"GOSUMDB": "off"`), or skipped for
#: public hosts (a company's own host in GONOSUMDB/GOPRIVATE is what Go documents), or modules over plain HTTP.
_UNVERIFIED_GO_ENV = re.compile(r"\bGOSUMDB[\"']?\]?\s*(?:=|:|,)\s*[\"']?off\b|\bGOINSECURE[\"']?\]?\s*(?:=|:|,)"
                                r"|\bGONOSUMDB[\"']?\]?\s*(?:=|:|,)\s*[\"']?(?:\*|[^\"'\s]*(?:github\.com|golang\.org|gopkg\.in))"
                                r"|\bGOPROXY\W+http://")  # fmt: skip


def verb_is_run(q: str) -> bool:
    """``app.run`` / ``socketio.run`` of a web framework (Flask's debugger runs in it)."""
    return q.endswith(("Flask().run", "SocketIO().run", ".run_simple")) or q == "werkzeug.serving.run_simple"


def _union(vals: Sequence[Val]) -> Val:
    """One value standing for any of ``vals`` (a generator's yields, a list's mixed elements)."""
    strings = list(dict.fromkeys(t for val in vals for t in val.strings()))[: v.MAX_ALTS]
    quals = {val.qual for val in vals}
    return Val(
        text=strings[0] if strings else None,
        alts=tuple(strings) if strings else None,
        qual=quals.pop() if len(quals) == 1 else None,
        flags=v.flowing(vals),
    )


def _text_of(value: object) -> str:
    return value.decode("latin-1") if isinstance(value, bytes) else str(value)


def _catches_exhaustion(handler: ast.ExceptHandler) -> bool:
    """``except OSError`` / ``except MemoryError`` / a bare or broad ``except``: what a full disk raises."""
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(k is None or _dotted(k).rsplit(".", 1)[-1] in _EXHAUSTION_ERRORS for k in kinds)


_EXHAUSTION_ERRORS = frozenset(
    {"OSError", "IOError", "EnvironmentError", "MemoryError", "Exception", "BaseException", "PermissionError"}
)


#: A variable holding a cut-off an item is compared with (an age, a date, a limit).
_FUTURE_CUT_OFF = re.compile(r"\b\w*cut_?off\w*\s*=\s*(?:time\.time\(\)|\w+\.now\(\)|datetime\.now\([^)]*\))\s*\+")
_CUT_OFF = re.compile(r"^cut$|cut_?off|threshold|since|before|older|max_?age|min_?age|limit|deadline", re.IGNORECASE)
#: A loop that skips any amount over a limit (`if amount > MAX_CENTS: continue`).
_AMOUNT_CAP = re.compile(
    r"\b\w*(?:amount|cents|total)\w*\s*>=?\s*[A-Z_\d][\w.]*[^\n]*:\s*(?:\n[^\n]*){0,2}?\s*continue\b"
)


def _shown_constants(tree: ast.Module, *, starts_processes: bool = True) -> set[int]:
    """Ids of string constants that are docstrings or arguments of message, log and help calls, or (in a module that
    starts no process) the parameter tables of tests: sample command lines a detection rule is tested on."""
    shown: set[int] = set()
    tables: set[str] = set()  # `@pytest.mark.parametrize("cmdline,expected", CASES)`: the table by its name
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            shown.add(id(node.value))
        elif isinstance(node, ast.Call) and (
            _call_name(node) in _SHOWING_CALLS or (not starts_processes and _call_name(node).endswith("parametrize"))
        ):
            for part in [*node.args, *(k.value for k in node.keywords)]:
                shown.update(id(n) for n in ast.walk(part) if isinstance(n, ast.Constant))
                if _call_name(node).endswith("parametrize") and isinstance(part, ast.Name):
                    tables.add(part.id)
    for node in tree.body if tables else ():
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in tables for t in node.targets):
            shown.update(id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant))
    return shown


def _all_strings(vals: Iterable[Val], depth: int = 0, *, keys: bool = False) -> list[str]:
    """Every known string in these values and the lists and dicts they hold (a few levels deep); ``keys``:
    each dict key too, before its value (``role admin``)."""
    found: list[str] = []
    for val in vals:
        found.extend(val.strings())
        if depth < 4:
            if val.items:
                found.extend(_all_strings(val.items, depth + 1, keys=keys))
            if val.keys and keys:
                for key, item in val.keys.items():
                    found.append(key)
                    found.extend(_all_strings([item], depth + 1, keys=keys))
            elif val.keys:
                found.extend(_all_strings(val.keys.values(), depth + 1))
    return found


def _bare_path(text: str) -> bool:
    """A string that is a path (archived, or a path-valued write) rather than file content mentioning one."""
    return bool(text) and not any(c in text for c in " \t\n=")


def _opens_everything(constants: Sequence[str]) -> bool:
    """A firewall rule payload that passes any source to any destination (``source_net: any``, ``action: pass``)."""
    pairs = dict(itertools.pairwise(constants))
    source = any(pairs.get(k) == "any" for k in ("source_net", "source", "src", "srcaddr", "source_address"))
    destination = any(pairs.get(k) == "any" for k in ("destination_net", "destination", "dst", "dstaddr"))
    passes = any(pairs.get(k) in ("pass", "accept", "allow") for k in ("action", "type", "policy"))
    return source and destination and passes


_KEY_USES = ("sign", "send_raw", "hash", "digest", "hexdigest", "encrypt", "hmac", "verify")
#: An environment variable named like a service's key (``STRIPE_KEY``, ``PAYMENTS_KEY``).
_SERVICE_KEY_VARIABLE = re.compile(r"^[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)?KEY$")
_FETCHES = re.compile(r"\b(?:curl|wget|fetch|nc|ncat|aria2c|scp|rsync|git\s+(?:pull|clone|fetch))\b")
_MAYBE_BYTES = re.compile(r"[bB][rR]?['\"]")  # (a cheap scan before the word-boundary one)
_BYTES_LITERAL = re.compile(r"\b[bB][rR]?['\"]")
_ZERO_REPLICAS = re.compile(r"[\"']replicas[\"']\s*:\s*0\b")
#: Calls that load a shared library into the process (a framework's custom operators, ctypes).
_NATIVE_LOADERS = frozenset({"register_custom_ops_library", "load_library", "load_op_library", "LoadLibrary", "CDLL",
                             "PyDLL", "cdll", "dlopen"})  # fmt: skip
#: Calls that fetch a model, a dataset or a package from a hub or an index.
_MODEL_FETCHES = frozenset({"from_pretrained", "hf_hub_download", "snapshot_download", "load_dataset", "pipeline"})
_NETWORK_LITERAL = re.compile(r"ip_network\(\s*[\"']([\d.:a-fA-F]+)/(\d+)")
#: A proxy setting: its URL carries the proxy's login when it has one (``http://user:pass@proxy:3128``).
_PROXY_VARIABLE = re.compile(r"^(?:https?|all|ftp)_proxy$", re.IGNORECASE)
_PORT_TEST = re.compile(r"\.port\s*==\s*(\w+)")
#: Variables naming a file that shells and interpreters run before anything else.
_STARTUP_FILE_VARIABLES = frozenset({"BASH_ENV", "ENV", "PYTHONSTARTUP"})
#: Variables whose value changes what every program started afterwards does (see ``_preload_keys``).
_ENVIRONMENT_EFFECTS = _STARTUP_FILE_VARIABLES | {
    "LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"
}


#: Django queryset methods that give every row of a table (no filter).
_WHOLE_QUERYSET = frozenset({"all", "iterator", "values", "values_list"})
#: The manager of a model of people (Django's `objects` on users, customers, members, patients…).
_PEOPLE_MANAGER = re.compile(
    r"(?:get_user_model\(\)|\b\w*(?:User|Customer|Member|Patient|Donor|Employee|Contact|Person|People|Profile"
    r"|Client|Subscriber|Student|Guest|Player|Volunteer)s?)\.objects(?:\.all\(\))?$"
)
#: Fields that reach or log in as a person (a whole table of them is a mailing list, or a way in).
#: Debuggers and remote interpreters that take connections, by the last part of their name, and the module each
#: must come from.
_REMOTE_DEBUGGERS = {"listen": "debugpy.", "enable_attach": "ptvsd.", "ThreadedServer": "rpyc.",
                     "ForkingServer": "rpyc.", "OneShotServer": "rpyc.", "RemotePdb": "remote_pdb."}  # fmt: skip
#: A container listing narrowed to a label (the containers a run or a project made).
_LABEL_FILTERED_LISTING = re.compile(r"\.list\([^)]*filters\s*=\s*\{[^}]*[\"']label[\"']")
#: Template engines' constructors: what they are given is code the template runs when rendered.
_TEMPLATE_CONSTRUCTORS = frozenset({"jinja2.Template", "jinja2.Environment().from_string", "mako.template.Template",
                                    "jinja2.environment.Template", "chevron.render", "tornado.template.Template"})
#: Functions that read a password from the terminal.
_PASSWORD_PROMPTS = frozenset({"getpass.getpass", "getpass.unix_getpass", "getpass.win_getpass"})
#: Encryption in a program (what turns "compress every file" into ransomware).
#: Loaders given a file's path that unpickle what it holds.
_PATH_LOADERS = frozenset({"shelve.open", "joblib.load", "torch.load", "numpy.load", "pandas.read_pickle"})


def _listing_call(node: ast.AST) -> bool:
    """``node`` reads a listing: an API's answer (``.json()``), a client's listing, a query's rows."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LISTING_CALLS


#: What a comprehension reads a listing with (an API's answer, a client's listing, a query's rows): not a keep-list
#: an environment variable spells.
_LISTING_CALLS = frozenset({"json", "list", "all", "fetchall", "list_all", "iter_all", "paginate"})
#: A folder of pictures made from others (thumbnails, previews): re-saving one loses no original.
_DERIVED_IMAGES = re.compile(r"/(?:thumbs?|thumbnails?|previews?|resized)(?:/|$)", re.IGNORECASE)
#: Pillow imported (its images' `save`).
_PILLOW = re.compile(r"^\s*(?:from\s+PIL\b|import\s+PIL\b)", re.MULTILINE)
_CIPHER = re.compile(r"\b(?:Fernet|AES|ChaCha20|encrypt|Cipher|nacl|gpg)\b", re.IGNORECASE)
#: Logger methods that write a record.
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log"})
#: Logging configured to a file that grows without rotation.
_LOGS_TO_FILE = re.compile(r"basicConfig\([^)]*filename\s*=|(?<![\w.])(?:logging\.)?FileHandler\(")
_CONTACT_FIELD = re.compile(r"e_?mail(?:_address)?|phone(?:_number)?|mobile|password|address")
#: Document loaders that read every file below a folder (LlamaIndex, LangChain).
_TREE_READERS = frozenset({"SimpleDirectoryReader", "DirectoryLoader"})
#: A schema migration (Django's, Alembic's): whatever it does, every deployment does.
_MIGRATION = re.compile(r"\bmigrations\.Migration\b|^(?:down_)?revision\s*=", re.MULTILINE)
#: An ORM query over many rows (Django's `objects.all()`/`filter()`, SQLAlchemy's `query(…)`).
_BULK_QUERYSET = re.compile(r"\.objects\.(?:all|filter|exclude)\(|\.query\(|\.where\(")
#: Fields that make an account an administrator.
_PRIVILEGE_FIELD = re.compile(r"is_?superuser|is_?staff|is_?admin|admin|superuser|role")


def _people_records(val: Val, depth: int = 0, *, gathered: bool = False) -> bool:
    """``val`` holds records of people (name, phone, email... read at run time) gathered in a loop: a list filled
    row by row with dicts whose keys name contact fields."""
    if depth > 3:
        return False
    if val.keys is not None:
        read = [x for x in val.keys.values() if x.flags & v.FLOWING or (x.num is None and HOLE in (x.text or HOLE))]
        if gathered and people_row(list(val.keys)) and len(read) >= 3:
            return True
        return any(_people_records(x, depth + 1, gathered=gathered) for x in val.keys.values())
    if val.elem is not None:
        return _people_records(val.elem, depth + 1, gathered=True)
    return any(_people_records(x, depth + 1, gathered=gathered) for x in val.items or ())


def _public_host(url: str) -> bool:
    """``url`` names a host on the internet (not this machine, a private address or an internal name)."""
    host = url.split("://", 1)[-1].split("/", 1)[0].rsplit("@", 1)[-1].split(":")[0].lower()
    if not host or HOLE in host or "." not in host or host.endswith(_INTERNAL_SUFFIXES):
        return False
    try:
        return ipaddress.ip_address(host).is_global
    except ValueError:
        return True


_INTERNAL_SUFFIXES = (".local", ".internal", ".lan", ".corp", ".home", ".localdomain", ".intranet", ".svc",
                      ".cluster.local", "localhost")  # fmt: skip


def _asks_personal_fields(args: list[Val], kwargs: dict[str, Val]) -> bool:
    """A GET whose URL or ``params`` ask for a field list of people's records (see :func:`personal_fields`)."""
    urls = [t for t in _all_strings(args[:2]) if "?" in t]
    params = kwargs.get("params", UNKNOWN).keys or {}
    lists = [val.text for key, val in params.items() if key.lower().lstrip("$") in _FIELD_LIST_KEYS and val.text]
    body = kwargs.get("json", UNKNOWN).keys or {}  # a report asked for by POST: `json={"fields": [...]}`
    lists += [",".join(_all_strings([val])) for key, val in body.items()
              if key.lower() in _FIELD_LIST_KEYS and (val.text or val.items)]  # fmt: skip
    lists += [m[1] for url in urls for m in _FIELD_LIST_QUERY.finditer(url)]
    return any(personal_fields(text) for text in lists)


_FIELD_LIST_KEYS = frozenset({"fields", "select", "columns", "attributes", "properties"})
_FIELD_LIST_QUERY = re.compile(r"[?&]\$?(?:fields|select|columns|attributes|properties)=([^&#]+)", re.IGNORECASE)


def _flat_pairs(mapping: Val, depth: int = 0) -> list[str]:
    """``key, value`` strings of a dict and the dicts nested in it, in pairs (for :func:`_opens_everything`)."""
    found: list[str] = []
    for key, val in (mapping.keys or {}).items():
        if val.keys and depth < 3:
            found += _flat_pairs(val, depth + 1)
        elif val.text is not None:
            found += [key, val.text]
    return found


def _has_true(mapping: Val) -> bool:
    """A dict value with a True entry (``body={"status": True}``)."""
    return bool(mapping.keys and any(k.num == 1 for k in mapping.keys.values()))


def _has_false(kwargs: dict[str, Val]) -> bool:
    """Whether a block-public-access configuration turns a protection off (a False value)."""
    config = kwargs.get("PublicAccessBlockConfiguration")
    return bool(config is not None and config.keys and any(k.num == 0 for k in config.keys.values()))


def _self_calling_functions(tree: ast.AST | None) -> set[str]:
    """Names of module functions whose body calls them again (recursion)."""
    if tree is None:
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == node.name for n in ast.walk(node)
        ):
            found.add(node.name)
    return found


def _personal_key(key: Val) -> bool:
    """A record's field (or, from a loop over a column list, its fields) that identifies or pays as someone:
    ``row["pan"]``, ``r[k] for k in ("patient_name", "dob", "home_address")``."""
    keys = key.strings()
    if any(payment_or_identity_field(k) for k in keys):
        return True
    return len(keys) >= 3 and personal_fields(",".join(keys))


def _sized_by_free_memory(size_source: str, module_source: str) -> bool:
    """An allocation size computed from how much memory is free right now."""
    return _sized_by(r"mem_get_info|virtual_memory\(\)\.(?:available|free)|MemAvailable", size_source, module_source)


def _sized_by(measure: str, size_source: str, module_source: str) -> bool:
    """``size_source`` uses what ``measure`` (a pattern) measures, directly or through a name assigned from it."""
    if re.search(measure, size_source):
        return True
    names = re.findall(rf"(\w+)\s*(?:,\s*\w+\s*)?=\s*[^\n]*(?:{measure})", module_source)
    return any(re.search(rf"\b{re.escape(n)}\b", size_source) for n in names)


_PASSWORD_KEY = re.compile(r"^(?:pass(?:word|wd)?|pwd|user\[password\]|login\[password\])$", re.I)

#: Trees whose every file is too many to start a process for at once.
_WHOLE_TREES = (paths.PathKind.ROOT, paths.PathKind.SYSTEM_TOP, paths.PathKind.HOME_TOP)
#: A list of processes built by a comprehension that keeps one program's by its name.
_NAMED_PROCESS_LIST = re.compile(r"\[\s*\w+\s+for\s+\w+\s+in\s+psutil\.process_iter\([^\n]{0,80}?\bif\b[^\n]{0,80}?"
                                 r"(?:name|exe)[^\n]{0,40}?==\s*[\"'][\w.-]+[\"']")  # fmt: skip
#: A module that starts processes (a test's sample command lines could be run by it).
_STARTS_PROCESSES = re.compile(r"\bsubprocess\b|\bos\.(?:system|popen|exec|spawn)|\bpexpect\b|\bsh\.")
#: Suffixes a compressed copy of a file adds to its name.
_COMPRESSED_SUFFIXES = (".gz", ".bz2", ".xz", ".zst", ".lz4", ".zip")
#: A file's age read, or a date compared with a cut-off (a clean-up that deletes only what is older).
#: An age test that keeps what is newer than a cut-off (`st.st_mtime < cutoff`, `cutoff > getmtime(p)`)...
_OLDER_THAN = re.compile(r"(?:st_mtime|st_ctime|get[mc]time\([^()]*\))\s*<"
                         r"|>=?\s*(?:[\w.]+\.st_mtime|[\w.]*get[mc]time\()")
#: ...and one that picks recent files or a window of them (`getmtime(p) >= datetime(…)`, `start <= getmtime(p)`).
_NEWER_THAN = re.compile(r"(?:st_mtime|st_ctime|get[mc]time\([^()]*\))\s*>"
                         r"|<=?\s*(?:[\w.]+\.st_mtime|[\w.]*get[mc]time\()")
#: A listing an API is asked for with a search or filter spelled in the code (`params={"search": "tag:dup"}`,
#: `?q=label:stale`): what it gives is what that picks.
_SEARCHED_LISTING = re.compile(
    r"\bparams\s*=\s*\{[^{}]*[\"'](?:search|q|query|filter|tags?|labels?)[\"']\s*:\s*f?[\"'][^\"']+[\"']"
    r"|[?&](?:search|q|query|filter|tags?|labels?)=[\w:%+-]+"
)
#: A test that picks entries named as temporary work (`f.name.startswith("tmp-")`, `d.startswith(".tmp")`).
_TEMPORARY_NAME_TEST = re.compile(r"\.startswith\(\s*[\"']\.?(?:tmp|temp)[-_.\"']", re.IGNORECASE)
_AGE_TEST = re.compile(r"\b(?:st_mtime|st_ctime|st_atime|getmtime|getctime|getatime)\b|\btimedelta\(")
#: Names a test on a listing's entries uses to pick some of them (by name or by age).
_SELECTING_ATTRS = frozenset({"startswith", "endswith", "fnmatch", "match", "search", "suffix", "suffixes", "stem",
                              "getmtime", "getctime", "getatime", "st_mtime", "st_ctime", "st_atime", "st_size",
                              "getsize", "is_relative_to"})  # fmt: skip
_NAME_PATTERN_TESTS = frozenset({"startswith", "endswith", "fnmatch", "match", "search"})  # calls: `x.endswith(…)`


def _requests_forever(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``fn`` sends requests in a loop without end: ``while True`` it never breaks out of, or one (or ``for _ in
    itertools.count()``) that retries until it succeeds without ever pausing (no backoff: a retry storm)."""
    for loop in ast.walk(fn):
        endless = (isinstance(loop, ast.While) and _unlimited(loop.test)) or (
            isinstance(loop, ast.For)
            and isinstance(loop.iter, ast.Call)
            and _call_name(loop.iter) in _ENDLESS_ITERATOR_NAMES
        )
        if not endless or not any(
            isinstance(n, ast.Call) and _call_name(n) in _REQUEST_NAMES for n in ast.walk(loop)
        ):
            continue
        leaves = any(isinstance(n, (ast.Break, ast.Return)) for n in ast.walk(loop))
        pauses = any(isinstance(n, ast.Call) and _call_name(n) in ("sleep", "wait") for n in ast.walk(loop))
        if not leaves or not pauses:
            return True
    return False


#: Iterators that never run out.
_ENDLESS_ITERATOR_NAMES = frozenset({"count", "repeat", "cycle"})
#: What a loop that only starts tasks does besides starting them: count, pause, keep the handle, report.
_SPAWNER_CALLS = frozenset({"submit", "create_task", "ensure_future", "start_soon", "spawn", "Thread", "Process",
                            "start", "sleep", "append", "add", "print", "next"})  # fmt: skip


def _talks_to_servers(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``fn`` makes a request or opens a connection (an HTTP client, a socket, an API client's ``create``)."""
    return any(
        isinstance(n, ast.Call) and _call_name(n) in (*_REQUEST_NAMES, "create", "connect", "open_connection")
        for n in ast.walk(fn)
    )


def _starts_processes(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``fn`` runs a program (``subprocess.run``, ``Popen``, ``os.system``)."""
    return any(isinstance(n, ast.Call) and _call_name(n) in _PROCESS_STARTERS for n in ast.walk(fn))


_PROCESS_STARTERS = frozenset({"run", "Popen", "check_call", "check_output", "call", "system"})


def _only_spawns(loop: ast.AST | None, task: str) -> bool:
    """The loop's body starts ``task`` and does nothing else that waits for work (no queue read, no accept): it
    starts them as fast as it can, not one per job that arrives."""
    if loop is None:
        return False
    calls = [n for stmt in getattr(loop, "body", []) for n in ast.walk(stmt) if isinstance(n, ast.Call)]
    return bool(calls) and all(_call_name(c) in _SPAWNER_CALLS or _call_name(c) in ("", task) for c in calls)


def _unlimited(test: ast.expr) -> bool:
    """A loop condition that holds forever: ``True``, or ``LIMIT is None or n < LIMIT`` (no limit set)."""
    if isinstance(test, ast.Constant):
        return bool(test.value)
    return isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or) and any(
        isinstance(part, ast.Compare) and isinstance(part.ops[0], ast.Is)
        and isinstance(part.comparators[0], ast.Constant) and part.comparators[0].value is None
        for part in test.values
    )  # fmt: skip


def _empty_default(source: Val) -> bool:
    """``source`` is an empty document standing in for one that may be anything (``os.environ.get("BODY", "{}")``):
    parsed, it says nothing of what the program will be given."""
    return (source.text or "").strip() in ("{}", "[]", "") and any(HOLE in alt for alt in source.alts or ())


def _parsed(source: Val) -> Val | None:
    """The structure ``source`` holds: itself when it is one, else its text parsed as JSON (which YAML reads too)
    or TOML."""
    if source.keys is not None or source.items is not None:
        return source
    text = source.text
    if text is None or HOLE in text or len(text) > 20_000:
        return None
    if _empty_default(source):
        return None
    try:
        return _literal_val(json.loads(text))
    except ValueError:
        pass
    try:
        return _literal_val(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, ValueError, TypeError):
        pass
    return _flat_yaml(text)


def _flat_yaml(text: str) -> Val | None:
    """A YAML document of ``key: scalar`` lines only (the common settings file), as a mapping."""
    mapping: dict[str, object] = {}
    for line in text.splitlines():
        stripped = line.split(" #", 1)[0].rstrip()
        if not stripped.strip() or stripped.lstrip().startswith("#") or stripped.strip() == "---":
            continue
        pair = _YAML_PAIR.fullmatch(stripped)
        if pair is None:
            return None
        value = pair["value"].strip().strip("'\"")
        mapping[pair["key"]] = int(value) if value.isdigit() else value
    return _literal_val(mapping) if mapping else None


def _path_join(left: str, right: str) -> str:
    """``pathlib``'s ``/``: the current directory before a relative part leaves it as it is."""
    return right if left == "." else posixpath.join(left, right)


def _writes(test: ast.expr) -> bool:
    """A loop condition that is a write or a send: true for as long as there is room (or a peer)."""
    return isinstance(test, ast.Call) and _call_name(test) in ("write", "send", "sendall", "writelines")


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _dotted(node: ast.expr | None) -> str:
    """``app.task`` for ``@app.task(name=...)``, ``Request`` for ``request: Request`` (cheaper than unparse)."""
    while isinstance(node, ast.Call):
        node = node.func
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Subscript):  # Annotated[Request, ...], Optional[Request]
        return _dotted(node.value) + "[" + _dotted(node.slice) + "]"
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        parts.append(node.value)
    return ".".join(reversed(parts))


def _unguarded_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of ``body`` that always run, with those of its loops of a fixed count (`for n in range(40)`,
    over a constant list); a loop over the children a parameter holds ends where the tree does."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.For) and _fixed_count(stmt.iter):
            yield from _unguarded_statements(stmt.body)


def _fixed_count(iterable: ast.expr) -> bool:
    """``iterable`` gives the same items whatever the arguments: ``range`` of constants, a literal list or tuple."""
    if isinstance(iterable, (ast.List, ast.Tuple, ast.Set)):
        return all(isinstance(e, ast.Constant) for e in iterable.elts)
    return (
        isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name) and iterable.func.id == "range"
        and all(isinstance(a, ast.Constant) for a in iterable.args)
    )  # fmt: skip


def _self_call(fn: ast.FunctionDef | ast.AsyncFunctionDef, statements: Iterable[ast.stmt]) -> bool:
    """One of ``statements`` (an expression, an assignment, a return) calls ``fn`` itself."""
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == fn.name
        for stmt in statements
        if isinstance(stmt, (ast.Expr, ast.Assign, ast.Return, ast.AugAssign))
        for n in ast.walk(stmt)
    )


def _recursion_fans_out(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``fn`` calls itself from inside a loop of its body (`for n in range(40): build(child, depth + 1)`): each
    level multiplies the calls, a tree of them."""
    return any(
        isinstance(stmt, ast.For) and _fixed_count(stmt.iter) and _self_call(fn, _unguarded_statements(stmt.body))
        for stmt in fn.body
    )


def _recurses_without_base_case(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A direct self-call that always runs (at the top level of the body, or in its loops), and no conditional
    return/raise anywhere."""
    top_call = _self_call(fn, _unguarded_statements(fn.body))
    if not top_call:
        return False
    for n in ast.walk(fn):
        if isinstance(n, (ast.If, ast.While, ast.For, ast.Try, ast.IfExp, ast.Match)) and any(
            isinstance(m, (ast.Return, ast.Raise, ast.Break, ast.IfExp)) for m in ast.walk(n)
        ):
            return False
        if isinstance(n, ast.BoolOp):  # `return n < 1 or f(n - 1)`
            return False
    return True


def _parent_directory(path: str) -> str:
    """``os.path.dirname``, where the working directory's parent is ``..`` (not the empty string)."""
    if path.rstrip("/") in (".", ""):
        return ".."
    return posixpath.dirname(path.rstrip("/")) if path.endswith("/") and path != "/" else posixpath.dirname(path)


def _bind_sql_parameters(query: str, params: list[Val]) -> str:
    """``query`` with its positional placeholders (``%s``, ``?``, ``$1``) replaced by the constants passed for them
    (``generate_series(1, %s)`` with ``(10_000_000_000,)``); unknown values stay placeholders."""
    values = [str(p.num) if p.num is not None else p.text for p in params]
    position = iter(range(len(values)))

    def fill(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1 if match.group(1) else next(position, len(values))
        value = values[index] if 0 <= index < len(values) else None
        return value if value is not None else match.group(0)

    return re.sub(r"%s|\?|\$(\d+)", fill, query)


#: A mailbox's messages or attachments over its REST API (Microsoft Graph, Gmail).
_MAILBOX_API = re.compile(r"graph\.microsoft\.com/(?:v1\.0|beta)/(?:me|users/[^/]+)/(?:messages|mailFolders)"
                          r"|gmail\.googleapis\.com/gmail/v1/users/[^/]+/messages")
#: Message brokers' consumers: iterating one gives what producers sent.
_MESSAGE_CONSUMERS = ("kafka.KafkaConsumer", "confluent_kafka.Consumer", "aiokafka.AIOKafkaConsumer",
                      "pulsar.Client().subscribe", "nats.")
#: Secret stores' writes: a secret put where secrets are kept (a rotation's new version), not sent out.
_SECRET_STORE_WRITES = frozenset({"put_secret_value", "create_secret", "update_secret", "put_parameter",
                                  "add_secret_version", "create_or_update_secret", "set_secret"})  # fmt: skip
#: prctl options that restrict the process: PR_SET_PDEATHSIG, PR_SET_SECCOMP, PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS.
_RESTRICTING_PRCTL = frozenset({1, 22, 24, 38})
#: Clients made with a user name and a password as their first two arguments.
_LOGIN_CONSTRUCTORS = frozenset({"SMBConnection"})
#: Calls that write an object to the path given second (``torch.save(obj, path)``).
_OBJECT_SAVERS = frozenset({"torch.save", "joblib.dump", "numpy.save", "safetensors.torch.save_file"})
#: A folder the program makes (``os.makedirs(dest)``, ``out.mkdir(parents=True)``): the name it is held in.
_MADE_FOLDER = re.compile(r"\bmakedirs\(\s*(\w+)\s*[,)]|\b(\w+)\.mkdir\(")
#: A regular expression in the code that pulls out card numbers, CVVs or SSNs.
_IDENTIFIER_PATTERN = re.compile(
    r"\\d\{1[2-6],1[6-9]\}|\\d\{1[3-9]\}|\)\{1[2-6],1[6-9]\}|\\d\{3\}-\\d\{2\}-\\d\{4\}|\bcvv=?\(|\bcvv2?\b.{0,12}\\d\{3"
)
#: A mail message given a file's content (an attachment, or the body).
_ATTACHES = re.compile(r"\.(?:add_attachment|set_content|attach)\(")
#: The mailbox APIs themselves (what was read from a mailbox, sent back to it, stays there).
_MAILBOX_HOST = re.compile(r"^https://(?:graph\.microsoft\.com|gmail\.googleapis\.com)/")
#: Microsoft Graph's change notifications (a webhook told about every new item of a resource).
_GRAPH_SUBSCRIPTION = re.compile(r"graph\.microsoft\.com/(?:v1\.0|beta)/subscriptions")
#: Document platforms' downloads of one file's content (Drive's export_media, Dropbox's files_download).
_DOCUMENT_DOWNLOAD = re.compile(r"\.files\(\)\.(?:export_media|get_media|export)$|\.files_download(?:_to_file)?$"
                                r"|\.messages\(\)\.(?:get|attachments\(\)\.get)$")
#: A listing's query that picks what tests created (a run id, a marker property, a fixture's tag).
_TEST_MARKER = re.compile(r"(?i)\btest_?run|createdBy=pytest|\bpytest\b|\bfixture\b|\bTEST_RUN_ID\b|\bci_run_id\b")
#: Calls that send one mail or chat message (in a loop: one to each person of a list).
_BULK_SENDS = frozenset({"sendmail", "send_message", "chat_postMessage", "postMessage", "send_direct_message",
                         # push notifications (Firebase Cloud Messaging) to a batch of device tokens
                         "send_each_for_multicast", "send_multicast", "send_each", "send_all",
                         # transactional mail clients (Postmark's `emails.send`, SendGrid's `send`, SES' send_email)
                         "send", "send_email", "send_raw_email", "send_batch"})  # fmt: skip
#: A chat client's handler of every new message (Telethon's events.NewMessage, Pyrogram's on_message).
_EVERY_MESSAGE_HANDLER = re.compile(r"events\.NewMessage\(|\.on_message\(\s*(?:filters\.(?:all|private)\b|\))")
#: A loop over every channel or member of a chat server (discord.py's guild.channels, fetch_members()).
_WHOLE_COMMUNITY_LOOP = re.compile(r"\bfor\s+\w+\s+in\s+(?:list\()?[\w.]+\.(?:channels|members|text_channels)\b"
                                   r"|\bfor\s+\w+\s+in\s+[\w.]+\.fetch_members\(")
#: Where a CI job's OIDC token is exchanged for cloud credentials (AWS STS, Google's STS, Entra ID, Vault).
_FEDERATION_HOST = re.compile(
    r"(?:^|\.)(?:sts(?:\.[\w-]+)?\.amazonaws\.com|sts\.googleapis\.com|iamcredentials\.googleapis\.com"
    r"|login\.microsoftonline\.com|token\.actions\.githubusercontent\.com)$|vault"
)


def _assigned_names(body: Sequence[ast.stmt]) -> set[str]:
    """Names a block (re)binds: assignment targets, tuple targets, loop variables, walrus targets."""
    bound: set[str] = set()
    for stmt in body:
        for n in ast.walk(stmt):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                bound.add(n.id)
    return bound


def _message_credential(kwargs: dict[str, Val]) -> bool:
    """A request body (``data=``, ``json=``) carries a credential in what it says, not in whom it is for (a
    bot's ``chat_id`` from the environment addresses the message; its token in the address logs in)."""
    for body in (kwargs.get("data"), kwargs.get("json"), kwargs.get("content")):
        if body is None:
            continue
        if body.keys is None:
            if body.flags & v.CREDENTIAL:
                return True
            continue
        if any(val.flags & v.CREDENTIAL for key, val in body.keys.items() if key not in _ADDRESSING_KEYS):
            return True
    return False


#: Keys of a chat message that say where it goes, not what it says.
_ADDRESSING_KEYS = frozenset({"chat_id", "channel", "channel_id", "username", "user_id", "thread_ts", "room_id"})
#: An infrastructure tool told to apply or deploy in an argv list (`["terraform", "apply", …]`).
_IAC_APPLY = re.compile(r"""["'](?:terraform|tofu|pulumi|cdk|cdktf)["']\s*,\s*(?:["'][^"']*["']\s*,\s*)*"""
                        r"""["'](?:apply|up|deploy)["']""")
#: Ports that should never face the whole internet: remote logins and databases.
_PRIVATE_PORTS = frozenset({22, 23, 445, 3389, 5985, 5986, 1433, 1521, 3306, 5432, 6379, 9200, 11211, 27017})


def _open_ingress(kwargs: dict[str, Val]) -> bool:
    """A security group's or firewall's ``ingress=[{"protocol": "-1", "cidr_blocks": ["0.0.0.0/0"]}]`` (or
    ``source_ranges``): every port, or a login or database port, open to the whole internet."""
    rules = [*(kwargs.get("ingress", UNKNOWN).items or []), *(kwargs.get("ingresses", UNKNOWN).items or [])]
    if kwargs.get("type", UNKNOWN).text == "ingress" or "source_ranges" in kwargs:
        rules.append(Val(keys=kwargs))
    for rule in rules:
        keys = rule.keys or {}
        blocks = _all_strings([keys.get(k, UNKNOWN) for k in ("cidr_blocks", "ipv6_cidr_blocks", "source_ranges")])
        if not any(b in ("0.0.0.0/0", "::/0") for b in blocks):
            continue
        protocol = (keys.get("protocol", UNKNOWN).text or "").lower()
        low = keys.get("from_port", UNKNOWN).num
        high = keys.get("to_port", UNKNOWN).num
        if protocol in ("-1", "all") or (low is not None and high is not None and high - low >= 1000):
            return True
        if low is not None and high is not None and any(low <= p <= high for p in _PRIVATE_PORTS):
            return True
    return False


#: Playwright or Selenium attached to a browser already running (the user's, with their sessions).
_ATTACHED_BROWSER = re.compile(r"connect_over_cdp|debuggerAddress|debugger_address")


def _informative(a: Val) -> bool:
    """Whether an argument says more at a call site than the parameter did at the definition."""
    return bool(
        a.text is not None
        or a.alts
        or a.num is not None
        or a.items is not None
        or bool(a.keys)  # a settings dict: cleanup({"workspace": "~"})
        or a.flags & (v.SECRET | v.NET | v.DECODED | v.ENV | v.PROCITER | v.INPUT | v.LINE)
        or (a.qual is not None and a.qual.startswith(T.NETWORK_PREFIXES))  # a socket, a connection
        or (isinstance(a.func, _Instance) and a.func.informed)
        or isinstance(a.func, _FuncSummary)  # a function handed to a decorator or a registry
    )


def _same_family(path: str, written: str) -> bool:
    """``path`` and ``written`` spell the same name with different run-time parts (``backup-….tar.gz``)."""
    if HOLE not in written or HOLE not in path:
        return False
    literal = path.split(HOLE)
    return literal == written.split(HOLE) and len(literal[-1]) + len(literal[0]) > 3


def _literal_val(obj: object, depth: int = 0) -> Val:
    """The abstract value of a parsed literal (strings, numbers, lists, dicts with string keys)."""
    if depth > 8:
        return Val()
    if isinstance(obj, str):
        return Val(text=obj)
    if isinstance(obj, bool) or obj is None:
        return Val(num=int(bool(obj)))
    if isinstance(obj, int):
        return Val(num=obj)
    if isinstance(obj, (list, tuple)):
        return Val(items=[_literal_val(item, depth + 1) for item in obj[:256]])
    if isinstance(obj, dict):
        return Val(keys={str(k): _literal_val(val, depth + 1) for k, val in list(obj.items())[:256]})
    return Val()


def _with_flags(val: Val, extra: int) -> Val:
    return Val(text=val.text, qual=val.qual, flags=val.flags | extra, num=val.num, items=val.items, alts=val.alts,
               base=val.base, elem=val.elem, func=val.func, keys=val.keys)  # fmt: skip


def _nested_flags(val: Val, depth: int = 0) -> int:
    """The flowing provenance of everything inside a dict or list literal."""
    inner = [*(val.keys or {}).values(), *(val.items or [])]
    if depth > 8 or not inner:
        return val.flags & v.FLOWING
    return (val.flags & v.FLOWING) | functools.reduce(operator.or_, (_nested_flags(i, depth + 1) for i in inner), 0)


def _render_json(val: Val, depth: int = 0) -> str:
    """``val`` spelled as JSON (a dict or list literal built in the code); unknown parts are holes (kept as
    holes, not escaped, so the text still says it is not fully known)."""
    if depth > 8:
        return f'"{HOLE}"'
    if val.keys is not None:
        pairs = (f"{_json_string(k)}: {_render_json(item, depth + 1)}" for k, item in val.keys.items())
        return "{" + ", ".join(pairs) + "}"
    if val.items is not None:
        return "[" + ", ".join(_render_json(item, depth + 1) for item in val.items) + "]"
    if val.num is not None:
        return ("true" if val.num else "false") if val.flags & v.BOOL else str(val.num)
    return _json_string(val.text if val.text is not None else HOLE)


def _camel(name: str) -> str:
    """``host_pid`` → ``hostPid``: a Python client field as the API (and a manifest) spells it."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _json_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _argv_variants(items: list[Val]) -> list[list[Val]]:
    """``items`` once per alternative (up to four) of its first word that may be one of several strings."""
    for i, item in enumerate(items):
        if item.alts and len(item.alts) > 1:
            return [[*items[:i], Val(text=alt, flags=item.flags), *items[i + 1 :]] for alt in item.alts[:4]]
    return [items]


_Handler = Callable[[PythonAnalyzer, str, Val, list[Val], dict[str, Val], ast.Call], "Val | None"]
_CALLS: dict[str, _Handler] = {}


def _register(names: Sequence[str] | frozenset[str] | set[str], handler: _Handler) -> None:
    for name in names:
        _CALLS[name] = handler


_register(["json.loads", "ast.literal_eval"], PythonAnalyzer._c_parse_literal)
_register(
    ["requests.auth.HTTPBasicAuth", "requests.auth.HTTPDigestAuth", "requests.auth.HTTPProxyAuth", "httpx.BasicAuth",
     "httpx.DigestAuth", "aiohttp.BasicAuth"],
    PythonAnalyzer._c_auth_pair,
)  # fmt: skip
_register(T.OPEN_CALLS, PythonAnalyzer._c_open)
_register(T.READ_CALLS, PythonAnalyzer._c_read)
_register(["os.utime"], PythonAnalyzer._c_utime)
_register(["shutil.copystat"], PythonAnalyzer._c_copystat)
_register(["functools.reduce"], PythonAnalyzer._c_reduce)
_register(T.WRITE_CALLS, PythonAnalyzer._c_write)
_register(
    [f"builtins.open().{m}" for m in ("write", "writelines", "read", "readlines", "readline", "add")],
    PythonAnalyzer._c_file_method,
)
_register(list(T.DELETE_CALLS), PythonAnalyzer._c_delete)
_register(T.COPY_CALLS, PythonAnalyzer._c_copy)
_register(["os.chmod", "os.lchmod", "os.fchmod", "pathlib.Path().chmod"], PythonAnalyzer._c_chmod)
_register(["os.chown", "os.lchown", "shutil.chown"], PythonAnalyzer._c_chown)
_register(
    ["os.symlink", "os.link", "pathlib.Path().symlink_to", "pathlib.Path().hardlink_to"], PythonAnalyzer._c_symlink
)
_register(
    [
        "os.listdir",
        "os.scandir",
        "os.walk",
        "glob.glob",
        "glob.iglob",
        "pathlib.Path().glob",
        "pathlib.Path().rglob",
        "pathlib.Path().iterdir",
    ],
    PythonAnalyzer._c_listing,
)
_register(
    [
        "os.path.join",
        "pathlib.Path",
        "pathlib.Path().joinpath",
        "os.path.expanduser",
        "pathlib.Path().expanduser",
        "os.path.abspath",
        "os.path.realpath",
        "os.path.normpath",
        "os.path.dirname",
        "os.path.basename",
        "pathlib.Path().resolve",
        "pathlib.Path().absolute",
        "pathlib.Path.home",
        "pathlib.Path.cwd",
        "os.getcwd",
        "os.path.expandvars",
        "tempfile.gettempdir",
        "jupyter_core.paths.jupyter_runtime_dir",
        "tempfile.mkdtemp",
        "tempfile.mkstemp",
        "tempfile.mktemp",
        "os.fspath",
        "pathlib.Path().as_posix",
        "pathlib.Path().__str__",
    ],
    PythonAnalyzer._c_path,
)
_register(
    [
        "os.environ.get",
        "os.getenv",
        "os.environ.copy",
        "os.environ.items",
        "os.environ.values",
        "os.environ.keys",
        "os.environ.setdefault",
        "os.environ.pop",
    ],
    PythonAnalyzer._c_env,
)
_register(["os.putenv", "os.environ.update"], PythonAnalyzer._c_env_set)
_register(T.DECODERS, PythonAnalyzer._c_decode)
_register(["builtins.chr"], PythonAnalyzer._c_chr)
_register(["unicodedata.lookup", "unicodedata.normalize"], PythonAnalyzer._c_unicodedata)
_register(list(SITE_DIRS), PythonAnalyzer._c_path)
_register(
    ["string.Template", "string.Template().substitute", "string.Template().safe_substitute"],
    PythonAnalyzer._c_template,
)

_register(["ctypes.CFUNCTYPE()", "ctypes.PYFUNCTYPE()", "ctypes.WINFUNCTYPE()"], PythonAnalyzer._c_native_call)
_register(["builtins.sorted", "builtins.reversed", "builtins.filter", "builtins.set", "builtins.frozenset"],
          PythonAnalyzer._c_reorder)  # fmt: skip
_register(["builtins.enumerate"], PythonAnalyzer._c_enumerate)
_register(["builtins.zip"], PythonAnalyzer._c_zip)
_register(["builtins.bytes", "builtins.bytearray", "builtins.dict"], PythonAnalyzer._c_bytes)
_register(
    ["builtins.str", "builtins.repr", "builtins.int", "builtins.list", "builtins.tuple", "json.dumps", "builtins.oct",
     "builtins.hex"],
    PythonAnalyzer._c_str,
)
_register(["yaml.safe_dump", "yaml.dump", "yaml.safe_dump_all", "yaml.dump_all"], PythonAnalyzer._c_yaml_dump)
_register(
    ["os.urandom", "numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full", "mmap.mmap", "builtins.memoryview",
     "torch.empty", "torch.zeros", "torch.ones", "torch.full", "torch.rand", "torch.randn", "cupy.empty",
     "cupy.zeros"],
    PythonAnalyzer._c_alloc,
)
_register(["builtins.range"], PythonAnalyzer._c_range)
_register(["itertools.count", "itertools.cycle", "itertools.repeat", "builtins.iter"], PythonAnalyzer._c_iter_forever)
_register(["builtins.globals", "builtins.locals", "builtins.vars"], PythonAnalyzer._c_globals)
_register(["builtins.getattr", "operator.attrgetter"], PythonAnalyzer._c_getattr)
_register(["builtins.__import__", "importlib.import_module", "importlib.__import__"], PythonAnalyzer._c_import)
_register(["sys.path.insert", "sys.path.append"], PythonAnalyzer._c_sys_path)
_register(T.EVAL_CALLS | {"builtins.compile"}, PythonAnalyzer._c_eval)
_register(T.PICKLE_LOADS, PythonAnalyzer._c_pickle)
_register(list(T.SHELL_CALLS), PythonAnalyzer._c_shell)
_register(["nbformat.write", "papermill.execute_notebook"], PythonAnalyzer._c_notebook_file)
_register(["wasmtime.Module", "wasmer.Module", "extism.Plugin", "wasmtime.Module.from_file"], PythonAnalyzer._c_wasm)
_register(["rpy2.robjects.r", "rpy2.robjects.r.__call__", "rpy2.rinterface.parse"], PythonAnalyzer._c_embedded_r)
_register(["IPython.get_ipython().run_cell_magic", "IPython.get_ipython().run_line_magic",
           "IPython.get_ipython().magic"], PythonAnalyzer._c_magic)  # fmt: skip
_register(T.SUBPROCESS, PythonAnalyzer._c_subprocess)
_register(list(T.EXEC_FAMILY), PythonAnalyzer._c_exec_family)
_register(["os.dup2", "os.dup"], PythonAnalyzer._c_dup2)
_register(
    [
        f"socket.socket().{m}"
        for m in ("fileno", "recv", "recvfrom", "recv_into", "makefile", "accept", "connect", "bind")
    ],
    PythonAnalyzer._c_socket_method,
)
_register(
    T.NET_SOURCES
    - {"socket.socket().recv", "socket.socket().recvfrom", "socket.socket().recv_into", "socket.socket().makefile"},
    PythonAnalyzer._c_net_source,
)
_register(  # a flag's value or a variant's payload: set by whoever edits flags on the vendor's side
    [f"{client}.{m}" for client in ("UnleashClient.UnleashClient()", "ldclient.get()", "ldclient.LDClient()",
                                    "openfeature.api.get_client()", "growthbook.GrowthBook()", "statsig.statsig")
     for m in ("get_variant", "variation", "variation_detail", "get_string_value", "get_object_value",
               "get_object_details", "get_feature_value", "get_config", "get_experiment")],
    PythonAnalyzer._c_net_source,
)
_register(
    [
        f"{r}.{m}"
        for r in ("urllib.response()", "requests.Response()", "httpx.Response()")
        for m in ("read", "json", "iter_content", "readlines", "decode")
    ]
    # a websocket's messages: what the other end sent
    + [f"{c}.{m}" for c in ("websockets.connect()", "websockets.client.connect()", "websockets.sync.client.connect()",
                            "websocket.create_connection()", "websocket.WebSocket()")
       for m in ("recv", "recv_data", "receive")],
    PythonAnalyzer._c_response,
)
_register(["urllib.request.urlretrieve", "wget.download"], PythonAnalyzer._c_retrieve)
_register(
    [*T.MAILBOX_READS, *(f"imaplib.{c}().store" for c in ("IMAP4", "IMAP4_SSL"))], PythonAnalyzer._c_mailbox
)
_register(["dotenv.dotenv_values", "dotenv.main.dotenv_values"], PythonAnalyzer._c_dotenv_values)
_register(["csv.writer", "csv.DictWriter"], PythonAnalyzer._c_csv_writer)
_register(["shutil.make_archive"], PythonAnalyzer._c_make_archive)
_register(
    [
        "eth_account.Account.create_with_mnemonic",
        "mnemonic.Mnemonic().generate",
        "mnemonic.mnemonic.Mnemonic().generate",
    ],
    PythonAnalyzer._c_new_wallet,
)
_register(
    [
        "os.kill",
        "os.killpg",
        "signal.pthread_kill",
        "psutil.Process().kill",
        "psutil.Process().terminate",
        "psutil.Process().send_signal",
    ],
    PythonAnalyzer._c_kill,
)
_register(
    ["os.getpid", "os.getppid", "os.getpgid", "os.getpgrp", "subprocess.Popen().pid", "multiprocessing.Process().pid"],
    PythonAnalyzer._c_ownpid,
)
_register(["psutil.process_iter", "psutil.pids", "psutil.Process"], PythonAnalyzer._c_psutil_process)
_register(
    ["os.setuid", "os.setgid", "os.seteuid", "os.setegid", "os.setreuid", "os.setresuid", "os.setgroups", "os.chroot"],
    PythonAnalyzer._c_setuid,
)
_register(
    [
        "ctypes.CDLL",
        "ctypes.cdll.LoadLibrary",
        "ctypes.PyDLL",
        "ctypes.WinDLL",
        "ctypes.windll.LoadLibrary",
        "ctypes.LibraryLoader",
    ],
    PythonAnalyzer._c_ctypes_load,
)
_register(["sys.setrecursionlimit"], PythonAnalyzer._c_recursionlimit)
_register(["code.interact", "pdb.set_trace", "builtins.breakpoint"], PythonAnalyzer._c_interact)
_register(["runpy.run_path", "runpy.run_module", "importlib.util.spec_from_file_location"], PythonAnalyzer._c_run_path)
_register(
    ["nbclient.NotebookClient().execute", "nbclient.client.NotebookClient().execute",
     "nbconvert.preprocessors.ExecutePreprocessor().preprocess", "papermill.execute_notebook"],
    PythonAnalyzer._c_notebook,
)
_register(["huggingface_hub.hf_hub_download", "gdown.download", "huggingface_hub.file_download.hf_hub_download"],
          PythonAnalyzer._c_hub_download)
_register(["clearml.StorageManager.get_local_copy"], PythonAnalyzer._c_local_copy)
_register(["subprocess.Popen().communicate", "subprocess.Popen().stdin.write"], PythonAnalyzer._c_popen_input)
_register(
    ["builtins.input", "builtins.raw_input", "sys.stdin.readline", "sys.stdin.read", "sys.stdin.readlines"],
    PythonAnalyzer._c_input,
)
# (SQLAlchemy's `text()` wraps a query's text unchanged: what it selects is judged where it runs)
_register(["shlex.join", "shlex.split", "shlex.quote", "pipes.quote", "textwrap.dedent", "inspect.cleandoc",
           "sqlalchemy.text", "sqlalchemy.sql.text", "sqlalchemy.sql.expression.text"], PythonAnalyzer._c_shlex)
_register(T.KEYLOGGERS, PythonAnalyzer._c_keylogger)
_register(["os.chdir"], PythonAnalyzer._c_chdir)
_register(["http.server.test"], PythonAnalyzer._c_http_test)
_register(
    ["http.server.SimpleHTTPRequestHandler", "http.server.ThreadingHTTPServer", "http.server.HTTPServer",
     "socketserver.TCPServer", "socketserver.ThreadingTCPServer"],
    PythonAnalyzer._c_file_server,
)  # fmt: skip
_register(
    [
        f"scapy.{m}.{f}"
        for m in ("all", "sendrecv", "layers.inet")
        for f in ("sr", "sr1", "srp", "srp1", "send", "sendp", "srloop", "sniff")
    ],
    PythonAnalyzer._c_scapy,
)
_register(["builtins.map"], PythonAnalyzer._c_map)
_register(["socket.socket", "socket.create_connection", "socket.create_server", "socket.socketpair"],
          PythonAnalyzer._c_socket_new)
_register(T.CAPTURES, PythonAnalyzer._c_capture)
_register(["itertools.product"], PythonAnalyzer._c_product)
_register(["itertools.permutations"], PythonAnalyzer._c_permutations)
_register(["importlib.util.find_spec"], PythonAnalyzer._c_module_spec)
_register(["site.getsitepackages", "site.getusersitepackages", "sysconfig.get_paths", "sysconfig.get_path"],
          PythonAnalyzer._c_installed_packages)  # fmt: skip
_register(T.SECRET_STORE_READS, PythonAnalyzer._c_secret_store)
_register(["cffi.FFI().verify", "cffi.FFI().set_source"], PythonAnalyzer._c_native_source)
_register(["functools.partial"], PythonAnalyzer._c_partial)
_register(["operator.methodcaller"], PythonAnalyzer._c_methodcaller)
_register(["pyngrok.ngrok.connect", "ngrok.connect", "ngrok.forward"], PythonAnalyzer._c_ngrok)
_register(["base64.b64encode", "base64.standard_b64encode"], PythonAnalyzer._c_b64encode)
_register(
    [f"slack_sdk{mod}.WebClient().conversations_{kind}" for mod in ("", ".web") for kind in ("history", "replies")]
    + ["slack.WebClient().conversations_history"],
    PythonAnalyzer._c_chat_history,
)
_register(
    [f"ldap3.Connection().{method}" for method in ("delete", "modify")]
    + [f"ldap3.Connection().extend.microsoft.{method}" for method in ("modify_password", "add_members_to_groups")],
    PythonAnalyzer._c_directory,
)
_register(["smbclient.shutil.rmtree", "smbclient.open_file"], PythonAnalyzer._c_smb)
_register(
    [f"pysnmp.hlapi{arch}.{name}" for arch in ("", ".asyncio", ".v3arch", ".v3arch.asyncio", ".v1arch",
                                               ".v1arch.asyncio") for name in ("setCmd", "set_cmd")],
    PythonAnalyzer._c_snmp_set,
)
_register(
    ["pathlib.Path().with_suffix", "pathlib.Path().with_name", "pathlib.Path().with_stem"],
    PythonAnalyzer._c_path_rename,
)
_register(["os.posix_fallocate", "os.ftruncate"], PythonAnalyzer._c_fallocate)
_register(["argparse.ArgumentParser().add_argument"], PythonAnalyzer._c_add_argument)
_register(
    ["argparse.ArgumentParser().parse_args", "argparse.ArgumentParser().parse_known_args"], PythonAnalyzer._c_parse_args
)
_register(["builtins.open().extractall", "builtins.open().extract", "shutil.unpack_archive"], PythonAnalyzer._c_extract)
_register(["asyncio.open_connection", "asyncio.open_unix_connection"], PythonAnalyzer._c_open_connection)
_register(
    [f"asyncio.StreamReader().{m}" for m in ("read", "readline", "readexactly", "readuntil")],
    PythonAnalyzer._c_net_source,
)

_STMT: dict[type[ast.AST], Callable[[PythonAnalyzer, Any], None]] = {
    ast.Expr: PythonAnalyzer._s_expr,
    ast.Assign: PythonAnalyzer._s_assign,
    ast.AnnAssign: PythonAnalyzer._s_annassign,
    ast.AugAssign: PythonAnalyzer._s_augassign,
    ast.Import: PythonAnalyzer._s_import,
    ast.ImportFrom: PythonAnalyzer._s_import,
    ast.FunctionDef: PythonAnalyzer._s_function,
    ast.AsyncFunctionDef: PythonAnalyzer._s_function,
    ast.ClassDef: PythonAnalyzer._s_class,
    ast.Return: PythonAnalyzer._s_return,
    ast.For: PythonAnalyzer._s_for,
    ast.Try: PythonAnalyzer._s_try,
    ast.AsyncFor: PythonAnalyzer._s_for,
    ast.While: PythonAnalyzer._s_while,
    ast.With: PythonAnalyzer._s_with,
    ast.AsyncWith: PythonAnalyzer._s_with,
    ast.Global: PythonAnalyzer._s_global,
    ast.Nonlocal: PythonAnalyzer._s_global,
    ast.If: PythonAnalyzer._s_if,
}
_EXPR: dict[type[ast.AST], Callable[[PythonAnalyzer, Any], Val]] = {
    ast.Constant: PythonAnalyzer._e_constant,
    ast.Name: PythonAnalyzer._e_name,
    ast.Attribute: PythonAnalyzer._e_attribute,
    ast.JoinedStr: PythonAnalyzer._e_joinedstr,
    ast.BinOp: PythonAnalyzer._e_binop,
    ast.BoolOp: PythonAnalyzer._e_boolop,
    ast.UnaryOp: PythonAnalyzer._e_unaryop,
    ast.IfExp: PythonAnalyzer._e_ifexp,
    ast.List: PythonAnalyzer._e_collection,
    ast.Tuple: PythonAnalyzer._e_collection,
    ast.Set: PythonAnalyzer._e_collection,
    ast.Dict: PythonAnalyzer._e_dict,
    ast.Subscript: PythonAnalyzer._e_subscript,
    ast.Call: PythonAnalyzer._e_call,
    ast.Lambda: PythonAnalyzer._e_lambda,
    ast.ListComp: PythonAnalyzer._e_comp,
    ast.SetComp: PythonAnalyzer._e_comp,
    ast.GeneratorExp: PythonAnalyzer._e_comp,
    ast.DictComp: PythonAnalyzer._e_comp,
    ast.NamedExpr: PythonAnalyzer._e_namedexpr,
    ast.Await: PythonAnalyzer._e_await,
    ast.Starred: PythonAnalyzer._e_starred,
    ast.Yield: PythonAnalyzer._e_yield,
    ast.YieldFrom: PythonAnalyzer._e_yield,
}


#: Bytes held per round that exhaust memory within seconds, whatever the pace (64 MiB).
_HUGE_CHUNK = 64 << 20
#: Container SDKs whose containers' `exec_run`/`execute` run a command inside them.
_CONTAINER_SDKS = ("docker.", "pylxd.", "podman.")


#: Comparisons and their opposites (`<` and `>=`, `==` and `!=`): one of each pair holds for any two values.
_OPPOSITE_COMPARISONS = {ast.Lt: ast.GtE, ast.GtE: ast.Lt, ast.Gt: ast.LtE, ast.LtE: ast.Gt, ast.Eq: ast.NotEq,
                         ast.NotEq: ast.Eq}  # fmt: skip


def _either_way(alternatives: Sequence[ast.expr]) -> bool:
    """Two of ``alternatives`` (an ``or``'s) compare the same two things in opposite ways: together always true."""
    seen = set()
    for one in alternatives:
        if isinstance(one, ast.Compare) and len(one.ops) == 1:
            sides = (ast.dump(one.left), ast.dump(one.comparators[0]))
            opposite = _OPPOSITE_COMPARISONS.get(type(one.ops[0]))
            if opposite is not None and (sides, opposite) in seen:
                return True
            seen.add((sides, type(one.ops[0])))
    return False


def _selective_test(test: ast.expr) -> bool:
    """A comprehension's ``if`` picks some items: a comparison (not only `!=`), or a negation (`not a.get("memo")`:
    those lacking something); a bare truth test (`if row["phone"]`) keeps every item that has a value."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return True
    if isinstance(test, ast.BoolOp):
        return any(_selective_test(v) for v in test.values)
    return isinstance(test, ast.Compare) and not all(
        isinstance(op, (ast.NotEq, ast.NotIn, ast.IsNot)) for op in test.ops
    )


def _unknown(val: Val) -> bool:
    """Nothing at all is known of ``val`` (no string, number, object, element or collection)."""
    return (val.text is None and val.alts is None and val.num is None and val.qual is None and val.items is None
            and val.keys is None and val.elem is None and val.func is None)


def _or_unknown(val: Val) -> Val:
    """``val``, or a value only known at run time: its strings with an unknown alternative beside them."""
    strings = val.strings()
    if not strings or HOLE in strings:
        return val
    options = tuple(dict.fromkeys([*strings, HOLE]))[: v.MAX_ALTS]
    return Val(text=options[0], alts=options, qual=val.qual, flags=val.flags, num=val.num)


def _shell_argv(command: Val) -> bool:
    """``command`` is an argv list that runs code through a shell or Python (``["sh", "-c", CODE]``)."""
    items = command.items or []
    program = posixpath.basename(items[0].text or "") if items else ""
    return len(items) >= 3 and (program in T.SHELL_NAMES or program.startswith("python")) and items[1].text == "-c"


def _prints_environment(command: str) -> bool:
    """``command`` prints every environment variable (bare ``env`` or ``printenv``)."""
    words = command.split()
    return bool(words) and words[0] in ("env", "printenv") and all(w.startswith("-") for w in words[1:])


def analyze_python(
    code: str,
    *,
    parse_error_level: RiskLevel = RiskLevel.MEDIUM,
    depth: int = 0,
    argv: Sequence[str] | None = None,
    downloaded: Iterable[str] = (),
) -> list[Finding]:
    """Findings for the Python source ``code``.

    ``argv`` is ``sys.argv`` when known (``python3 -c CODE ARG...`` from a shell script), and
    ``downloaded`` the files the enclosing script fetched from the network."""
    analyzer = PythonAnalyzer(parse_error_level=parse_error_level, depth=depth)
    analyzer.argv = list(argv) if argv is not None else None
    analyzer.downloaded.update(downloaded)
    return analyzer.analyze(code)


_register(
    ["winrm.Session().run_cmd", "winrm.Session().run_ps", "pypsrp.client.Client().execute_cmd",
     "pypsrp.client.Client().execute_ps"],
    PythonAnalyzer._c_windows_remote,
)  # fmt: skip
_register(["pyautogui.write", "pyautogui.typewrite", "keyboard.write", "pydirectinput.write",
           "pynput.keyboard.Controller().type"], PythonAnalyzer._c_typed_keys)  # fmt: skip
# Last: these also receive network data, but their argument is a shell command line.
_register(
    [
        *T.REMOTE_SHELL_CALLS,
        *(f"fabric.{group}{call}().{verb}" for group in ("SerialGroup", "ThreadingGroup", "Group")
          for call in ("[]", "", ".from_connections") for verb in ("run", "sudo")),
        "pssh.clients.ParallelSSHClient().run_command",
        "asyncssh.connect().run",
        "asyncssh.SSHClientConnection().run",
    ],
    PythonAnalyzer._c_remote_shell,
)
_register(
    ["salt.client.LocalClient().cmd", "salt.client.LocalClient().cmd_async", "salt.client.LocalClient().cmd_batch",
     "salt.client.LocalClient().cmd_iter", "ansible_runner.run", "ansible_runner.run_async",
     "boto3.client().send_command",
     "azure.mgmt.compute.ComputeManagementClient().virtual_machines.begin_run_command"],
    PythonAnalyzer._c_fleet_tool,
)  # fmt: skip


#: Calls after which a forked child is gone from its parent's loop (it exits, becomes another program, or is killed).
_CHILD_LEAVES = frozenset({"exit", "_exit", "abort", "execv", "execvp", "execl", "execlp", "execle", "execve",
                           "execvpe", "kill"})  # fmt: skip


def _child_test(test: ast.expr, pids: set[str]) -> bool:
    """``test`` picks the child's side of a fork: ``os.fork() == 0``, ``pid == 0`` or ``not pid`` for a name given a
    fork's result."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return isinstance(test.operand, ast.Name) and test.operand.id in pids
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    zero = test.comparators[0]
    if not (isinstance(zero, ast.Constant) and zero.value == 0):
        return False
    left = test.left
    if isinstance(left, ast.Call):
        return _call_name(left) == "fork"
    return isinstance(left, ast.Name) and left.id in pids
