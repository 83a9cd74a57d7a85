"""Erlang and Elixir code handed to a running node (a release's ``rpc``/``eval``, ``erl -eval``, ``elixir -e``)
(shared by both analyzers).

A release's ``bin/app rpc CODE`` runs CODE inside the live node, with everything the node can reach: the other
nodes of its cluster, its database, the operating system. What needs a careful reviewer:

* code fetched over HTTP and evaluated, terms decoded from a download, modules loaded from one;
* every node of the cluster halted or stopped through one call;
* millions of atoms created (the atom table is never collected: the node dies when it is full);
* a process spawned per scheduler (or more) that never ends or grows without bound;
* shell commands run through ``:os.cmd``, ``System.cmd`` or ``os:cmd`` (judged as the shell commands they are).

Reading state, running a migration or a one-off data fix through a release are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel

_EVALUATED = re.compile(r"Code\.(?:eval_string|eval_file|compile_string)\(|:erl_eval\.|erl_eval:")
_FETCHED = re.compile(r":httpc\.request|httpc:request|HTTPoison\.|Req\.get|Finch\.|Tesla\.|:ssl\.start")
_HALTED = re.compile(r":erlang[.,]\s*:?halt|:init[.,]\s*:?stop|System\.(?:halt|stop)|erlang:halt|init:stop"
                     r"|\berlang,\s*halt|\binit,\s*stop")
_EVERY_NODE = re.compile(r"Node\.list\(|:rpc\.multicall|:erpc\.multi(?:call|cast)|rpc:multicall|nodes\(\)")
_ATOMS = re.compile(r"String\.to_atom|binary_to_atom|list_to_atom")
_RANGE = re.compile(r"\b1\s*\.\.\s*([\d_]+)|lists:seq\(\s*1\s*,\s*([\d_]+)\)")
_DECODED_TERM = re.compile(r"binary_to_term\((?![^)]*\[:safe\])")
_READ_OR_FETCHED = re.compile(r"File\.read|file:read_file|:httpc|httpc:|HTTPoison|Req\.get")
_SPAWN_LOOP = re.compile(r"for\s+_\s*<-\s*1\s*\.\.[\s\S]{0,200}?spawn\(|lists:foreach\([\s\S]{0,80}?spawn\(")
_NEVER_ENDS = re.compile(r"Stream\.(?:iterate|cycle|repeatedly)|:priority,\s*:high|receive\s+after\s+:infinity"
                         r"|\bloop\(\)|Enum\.to_list")  # fmt: skip
_LOADED = re.compile(r":code\.(?:load_file|load_binary|purge)|code:(?:load_file|load_binary)")
#: Shell command lines the code hands to the operating system.
_OS_COMMAND = re.compile(
    r"(?::os\.cmd|os:cmd)\(\s*(?:~c)?[\"']((?:[^\"'\\]|\\.)+)[\"']"
    # through rpc and erpc: `:erpc.call(n, :os, :cmd, [~c"…"])`, `rpc:call(N, os, cmd, ["…"])`
    r"|:?os,\s*:?cmd,\s*\[\s*(?:~c)?[\"']((?:[^\"'\\]|\\.)+)[\"']"
    r"|System\.(?:cmd|shell)\(\s*\"(?:bash|sh)\"\s*,\s*\[\s*\"-c\"\s*,\s*\"((?:[^\"\\]|\\.)+)\""
    r"|System\.shell\(\s*\"((?:[^\"\\]|\\.)+)\""
)


def beam_code_risks(code: str) -> list[OperationRisk]:
    """What Erlang or Elixir ``code`` run inside a live node does."""
    found = []

    def add(level: RiskLevel, category: Category, what: str) -> None:
        found.append(OperationRisk(level, category, what))

    if _EVALUATED.search(code) and _FETCHED.search(code):
        add(RiskLevel.CRITICAL, Category.DYNAMIC_CODE, "evaluates code fetched over the network inside the node")
    if _HALTED.search(code) and _EVERY_NODE.search(code):
        add(RiskLevel.HIGH, Category.PROCESS, "halts or stops every node of the cluster")
    if _ATOMS.search(code):
        counts = [int((a or b).replace("_", "")) for a, b in _RANGE.findall(code)]
        if counts and max(counts) >= 100_000:
            add(RiskLevel.HIGH, Category.RESOURCE,
                f"creates {max(counts):,} atoms (the atom table fills and the node crashes)")  # fmt: skip
    if _DECODED_TERM.search(code) and _READ_OR_FETCHED.search(code):
        add(RiskLevel.HIGH, Category.DESERIALIZATION,
            "decodes an Erlang term from a file or a download (funs in it run as code)")  # fmt: skip
    if _SPAWN_LOOP.search(code) and _NEVER_ENDS.search(code):
        add(RiskLevel.HIGH, Category.RESOURCE, "spawns processes per scheduler that never end (the node starves)")
    if _LOADED.search(code) and _FETCHED.search(code):
        add(RiskLevel.HIGH, Category.DYNAMIC_CODE, "loads a module fetched over the network into the node")
    return found


def beam_os_commands(code: str) -> list[str]:
    """The shell command lines ``code`` runs through ``:os.cmd``, ``os:cmd`` or ``System.cmd("bash", ["-c", …])``."""
    return [next(g for g in m.groups() if g).replace('\\"', '"') for m in _OS_COMMAND.finditer(code)][:4]
