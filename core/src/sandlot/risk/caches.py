"""Caches and in-memory stores: Redis and Valkey, Memcached, Varnish (shared by both analyzers, judged on the
whole text).

A cache holds sessions, tokens and whatever the applications put there, runs Lua inside the server and writes its
snapshot wherever ``CONFIG SET dir`` points; a front cache decides which backend sees the traffic. What needs a
careful reviewer:

* the snapshot pointed at a folder something runs from (cron, ssh keys, a web root) and saved: a file planted;
* a module loaded from a temporary or downloaded file, Lua that leaves the sandbox or never returns;
* the server made a replica of an outside address (its data replaced), logins removed (``nopass``, an empty
  ``requirepass``);
* every key (sessions) or a memcached's whole content dumped and sent out;
* a benchmark that floods a production server with huge values;
* a VCL whose backend is an outside address, with cookies and authorization headers copied along.

Reading keys, warming a cache, purging entries and benchmarks against a local server are routine.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: `CONFIG SET dir /etc/cron.d` (any spelling: redis-cli words, execute_command tuples, config_set calls).
_SNAPSHOT_DIR = re.compile(
    r"(?:CONFIG[\"',\s]+SET[\"',\s]+|config_set\(\s*)[\"']?dir[\"']?[\s,]+[\"']?"
    r"(/etc/cron|/var/spool/cron|/root/\.ssh|/home/[\w.-]+/\.ssh|~/\.ssh|/var/www|/etc/profile\.d|/etc/systemd)",
    re.IGNORECASE,
)
_MODULE_LOAD = re.compile(r"MODULE[\"',\s]+LOAD[\"',\s]+[\"']?(\S+?)[\"')\s]", re.IGNORECASE)
_FETCHES_LIBRARY = re.compile(r"(?:urlretrieve|\bcurl\b|\bwget\b|requests\.get)[^\n]*\.so\b")
_REPLICA_OF = re.compile(
    r"(?:replicaof|slaveof)[\"'(\s,]+[\"']?(\d{1,3}(?:\.\d{1,3}){3})", re.IGNORECASE
)
_NO_LOGIN = re.compile(
    r"ACL[\"',\s]+SETUSER[^\n]*\bnopass\b|acl_setuser\([^)]*nopass\s*=\s*True"
    r"|requirepass[\"',\s]+[\"']{2}|protected-mode[\"',\s]+no\b",
    re.IGNORECASE,
)
#: Lua run inside the server that loads native code or a process (`package.loadlib`, `io.popen`, `os.execute`).
_LUA_ESCAPE = re.compile(r"package\.loadlib\s*\(|\bio\.popen\s*\(|\bos\.execute\s*\(")
_LUA_FOREVER = re.compile(r"\bwhile\s+true\s+do\b(?![^\n]*\bbreak\b)")
_RUNS_LUA = re.compile(r"\bEVAL(?:SHA)?\b|\.eval\(|register_script\(|FUNCTION[\"',\s]+LOAD", re.IGNORECASE)
#: Every key of a pattern scanned (sessions, tokens), or memcached's slabs dumped.
_EVERY_KEY = re.compile(r"scan_iter\(|--scan\b|\bKEYS\s+\*|\.keys\([\"']\*|stats\s+cachedump", re.IGNORECASE)
_SENDS_OUT = re.compile(r"requests\.(?:post|put)\(|\bcurl\b[^\n]*(?:-d\b|--data|-T\b|-F\b|-X\s*(?:POST|PUT))|urlopen\(")
_BENCHMARK_FLOOD = re.compile(r"\bredis-benchmark\b(?=[^\n]*-h\s+(?!localhost|127\.)\S)(?=[^\n]*-d\s+\d{5,})")
_VCL_BACKEND = re.compile(r"\.host\s*=\s*\"(\d{1,3}(?:\.\d{1,3}){3})\"")
_VCL_COPIES_CREDENTIALS = re.compile(r"bereq\.http\.[\w-]+\s*=\s*(?:req|bereq)\.http\.(?:Cookie|Authorization)\b", re.I)

#: Each rule's own words (gates sharing one scan of the text, rather than a substring search per word).
_MODULE_WORDS = GateWords("MODULE", "module")
_REPLICA_WORDS = GateWords("replicaof", "slaveof", "REPLICAOF", "SLAVEOF")
_LOGIN_WORDS = GateWords("nopass", "NOPASS", "requirepass", "REQUIREPASS", "protected-mode")
_LUA_ESCAPE_WORDS = GateWords("loadlib", "popen", "execute", "while true")
_LUA_CALL_WORDS = GateWords("EVAL", "eval", "register_script", "FUNCTION", "function")
_EVERY_KEY_WORDS = GateWords("scan_iter", "--scan", "KEYS", "keys", "cachedump")


def cache_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to caches and in-memory stores."""
    # (each rule looks only when its own words are there: "dir" and "execute" alone are in most scripts)
    config = "dir" in text and ("CONFIG" in text or "config" in text or "Config" in text)
    module = _MODULE_WORDS.any_in(text) and ("LOAD" in text or "load" in text)
    replica = _REPLICA_WORDS.any_in(text)
    login = _LOGIN_WORDS.any_in(text)
    lua = _LUA_ESCAPE_WORDS.any_in(text) and _LUA_CALL_WORDS.any_in(text)
    every_key = _EVERY_KEY_WORDS.any_in(text)
    flood = "redis-benchmark" in text
    vcl = "bereq" in text
    if not (config or module or replica or login or lua or every_key or flood or vcl):
        return []
    found = []
    planted = _SNAPSHOT_DIR.search(text) if config else None
    if planted and re.search(r"\bSAVE\b|\bBGSAVE\b|\.save\(\)|\.bgsave\(\)", text, re.IGNORECASE):
        what = f"points a Redis snapshot at {planted[1]} and saves it there (a cron job, key or page planted)"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.PERSISTENCE, what))
    loaded = _MODULE_LOAD.search(text) if module else None
    fetched = loaded is not None and _FETCHES_LIBRARY.search(text) is not None
    if loaded and (loaded[1].startswith(("/tmp/", "/var/tmp/", "/dev/shm/")) or "/." in loaded[1] or fetched):
        what = "loads a downloaded or hidden Redis module (native code running inside the server)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    source = _REPLICA_OF.search(text) if replica else None
    if source and outside_address(source[1]):
        what = f"makes a Redis server a replica of an outside address ({source[1]}): its data is replaced by theirs"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if login and _NO_LOGIN.search(text):
        what = "removes a Redis server's login (a user with no password, an empty requirepass, protected mode off)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    runs_lua = lua and _RUNS_LUA.search(text) is not None
    if runs_lua and _LUA_ESCAPE.search(text):
        what = "runs Lua in a Redis server that loads native code or starts processes (out of its sandbox)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    elif runs_lua and _LUA_FOREVER.search(text):
        what = "runs Lua in a Redis server that never returns (the server answers nobody until it is killed)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if every_key and _EVERY_KEY.search(text) and _SENDS_OUT.search(text):
        what = "reads every key of a cache (sessions, tokens) and sends them out"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    if flood and _BENCHMARK_FLOOD.search(text):
        what = "floods a remote cache with huge values (redis-benchmark): real entries are pushed out"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    backend = _VCL_BACKEND.search(text) if vcl else None
    if backend and outside_address(backend[1]) and _VCL_COPIES_CREDENTIALS.search(text):
        what = f"sends a site's traffic to an outside backend ({backend[1]}) with its cookies and authorization"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    return found
