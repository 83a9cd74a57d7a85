"""A provider-agnostic pool of sandboxes keyed by agent thread or conversation id.

``acquire(key)`` returns the key's sandbox, looking in order at:

1. the in-process cache (the key's sandbox, in use or released and kept warm);
2. the provider (another process may have created it: the id is a hash of the key, and
   ``attach`` finds it — for providers that support attaching from another process);
3. a prewarmed fresh sandbox (``prewarm``), adopted for the key;
4. a new sandbox, created with the key's id.

Steps 2-4 run under a cross-process file lock per key, so two processes never create two
sandboxes for one key. ``release`` (or closing the handle) keeps the sandbox running for
the key's next turn. A background thread destroys sandboxes idle longer than
``idle_timeout`` (released or still held: a held one is rebuilt on its next command, which
says its state was lost) and older than ``max_lifetime``; at ``max_sandboxes`` the least
recently used idle one is evicted. ``shutdown()`` destroys everything, also at exit and on
SIGTERM/SIGINT.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import hashlib
import logging
import os
import secrets
import threading
import time
from collections.abc import Generator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import platformdirs

from sandlot import lifecycle
from sandlot.audit import AuditKind, Auditor, Redactor, exec_data
from sandlot.errors import SandboxClosed, SandboxError, SandboxNotFound
from sandlot.filelock import file_lock
from sandlot.files.backend import FileBackend
from sandlot.files.guard import FileGuard
from sandlot.files.locks import PathLocks
from sandlot.files.paths import PathMap
from sandlot.grants import apply_grants
from sandlot.manager import command_kwargs, destroy, run_attempt
from sandlot.policy import Policy
from sandlot.results import ExecResult, OutputChunk
from sandlot.sandbox import RunGenerator, Sandbox

if TYPE_CHECKING:
    from sandlot.api import Sandlot
    from sandlot.config import Config

log = logging.getLogger(__name__)

#: Label every pool sandbox carries (value: the pool namespace), for ``list`` and clean-up.
POOL_LABEL = "sandlot.pool"
#: Label naming the key's deterministic sandbox id (also on adopted prewarmed sandboxes' alias).
KEY_LABEL = "sandlot.pool-key"


def _positive_or_none(_: object, attribute: attrs.Attribute[Any], value: float | None) -> None:
    if value is not None and value <= 0:
        raise ValueError(f"{attribute.name} must be > 0 (or left unset), got {value}")


@attrs.frozen
class PoolConfig:
    """The ``[pool]`` table."""

    #: Separates pools sharing a provider: the same key in two namespaces gets two sandboxes.
    namespace: str = "default"
    #: Most sandboxes this pool keeps at once (in use + warm + prewarmed).
    max_sandboxes: int = attrs.field(default=16, validator=attrs.validators.ge(1))
    #: Seconds without a command after which a sandbox is destroyed (None: never).
    idle_timeout: float | None = attrs.field(default=600.0, validator=_positive_or_none)
    #: Seconds after which a sandbox is destroyed even if used (None: never); never mid-command.
    max_lifetime: float | None = attrs.field(default=None, validator=_positive_or_none)
    #: Fresh sandboxes kept ready for keys not seen before.
    prewarm: int = attrs.field(default=0, validator=attrs.validators.ge(0))
    #: Seconds ``acquire`` waits for a free slot when every sandbox is in use.
    acquire_timeout: float = attrs.field(default=120.0, validator=attrs.validators.gt(0))
    #: Directory of the cross-process lock files; empty: ``$XDG_RUNTIME_DIR/sandlot/pool``, else
    #: ``<user state dir>/sandlot/pool``.
    lock_dir: str = ""

    def resolved_lock_dir(self) -> Path:
        if self.lock_dir:
            return Path(os.path.expanduser(self.lock_dir))
        if os.environ.get("XDG_RUNTIME_DIR"):
            return Path(platformdirs.user_runtime_dir("sandlot")) / "pool"
        return Path(platformdirs.user_state_dir("sandlot")) / "pool"


class PoolExhausted(SandboxError):
    """Every sandbox of the pool stayed in use for ``acquire_timeout`` seconds."""


def sandbox_id_for(key: str, namespace: str = "default") -> str:
    """The deterministic sandbox id of ``key``: any process computes the same one."""
    digest = hashlib.sha256(f"{namespace}\0{key}".encode()).hexdigest()
    return f"pool-{digest[:24]}"


@attrs.define(eq=False)
class _Entry:
    sandbox: Sandbox
    key: str | None  # None: prewarmed, not yet adopted
    created: float
    last_used: float
    leases: int = 0
    busy: int = 0
    alias: Path | None = None  # alias file naming this sandbox for its key (an adopted prewarmed one)


class PooledSandbox(Sandbox):
    """The handle ``acquire`` returns. Commands go to the key's current sandbox; ``close()``
    (or leaving the ``with`` block) releases it to the pool instead of destroying it."""

    def __init__(self, pool: Pool, key: str, entry: _Entry) -> None:
        inner = entry.sandbox
        super().__init__(inner.id, provider=inner.provider, policy=inner.policy, pm=pool.client.pm)
        self.key = key
        self._pool = pool
        self._entry = entry

    @property
    def sandbox(self) -> Sandbox:
        """The provider's sandbox behind this handle right now (it changes after a rebuild)."""
        return self._entry.sandbox

    def _run(
        self,
        command: str,
        *,
        timeout: float | None,
        cwd: str | None,
        env: Mapping[str, str] | None,
        stdin: bytes | None,
    ) -> RunGenerator:
        return self._pool._stream(self, command, command_kwargs(timeout, cwd, env, stdin))

    def _with_violation(self, command: str, result: ExecResult) -> ExecResult:
        return result  # the provider's sandbox behind the handle already ran the detectors

    # File operations are the current sandbox's: its backend (host fast paths), files root,
    # mounts, policy guard and per-path locks.

    @property
    def files_root(self) -> str:
        return self.sandbox.files_root

    @property
    def path_map(self) -> PathMap:
        return self.sandbox.path_map

    @property
    def _files(self) -> FileBackend:
        if self.closed:
            raise SandboxClosed(f"sandbox {self.id} is closed")
        return self.sandbox._files

    @property
    def _locks(self) -> PathLocks:
        return self.sandbox._locks

    def _guard(self) -> FileGuard:
        return self.sandbox._guard()

    @property
    def policy_home(self) -> str:
        return self.sandbox.policy_home

    def _close(self) -> None:
        self._pool._release(self)

    def __enter__(self) -> PooledSandbox:
        return self


class Pool(lifecycle.ShutdownContext):
    """Sandboxes by key; thread-safe, and asyncio-safe through the ``a*`` methods."""

    def __init__(
        self,
        client: Sandlot | None = None,
        *,
        config: Config | None = None,
        pool_config: PoolConfig | None = None,
        policy: Policy | None = None,
        handle_signals: bool = True,
    ) -> None:
        if client is None:
            from sandlot.api import Sandlot

            client = Sandlot(config)
        self.client = client
        self.settings = pool_config if pool_config is not None else client.config.pool
        base = policy if policy is not None else client.config.policy
        self.policy = apply_grants(base, client.config.approval.grants)
        self._expected_policy = client.spec(policy=self.policy).policy  # checked now: fail before any turn
        self._lock_dir = self.settings.resolved_lock_dir()
        # Reentrant: a SIGTERM handler runs shutdown() in whatever thread was interrupted,
        # possibly one holding this lock.
        self._cond = threading.Condition(threading.RLock())
        self._counter_lock = threading.Lock()
        self._by_key: dict[str, _Entry] = {}
        self._prewarmed: list[_Entry] = []
        self._creating: set[str] = set()
        self._warming = 0
        self._dying: set[str] = set()
        self._closed = False
        self.counters: collections.Counter[str] = collections.Counter()
        self.auditor = Auditor(
            client.pm, provider=client.provider_name, config=client.config.audit, redactor=Redactor.for_policy(base)
        )
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        if self.settings.idle_timeout or self.settings.max_lifetime or self.settings.prewarm:
            self._thread = threading.Thread(target=self._background, name="sandlot-pool", daemon=True)
            self._thread.start()
        lifecycle.register(self, handle_signals=handle_signals)

    # -- public API ----------------------------------------------------------------------

    def sandbox_id(self, key: str) -> str:
        return sandbox_id_for(key, self.settings.namespace)

    def acquire(self, key: str) -> PooledSandbox:
        """The sandbox of ``key`` (the same one on every call, unless it was reaped or died)."""
        if not isinstance(key, str) or not key:
            raise ValueError("a pool key must be a non-empty string")
        return PooledSandbox(self, key, self._obtain(key))

    def release(self, sandbox: Sandbox) -> None:
        """Give ``sandbox`` back: it stays running, warm, for its key's next acquire."""
        if not isinstance(sandbox, PooledSandbox) or sandbox._pool is not self:
            raise TypeError("release() takes a sandbox this pool's acquire() returned")
        sandbox.close()

    async def aacquire(self, key: str) -> PooledSandbox:
        return await asyncio.to_thread(self.acquire, key)

    async def arelease(self, sandbox: Sandbox) -> None:
        await asyncio.to_thread(self.release, sandbox)

    def prewarm(self, count: int | None = None) -> int:
        """Create up to ``count`` (default: ``pool.prewarm``) fresh sandboxes now; returns how many."""
        made = 0
        target = self.settings.prewarm if count is None else count
        while made < target and self._warm_one(limit=None if count is not None else self.settings.prewarm):
            made += 1
        return made

    def _bump(self, name: str, count: int = 1) -> None:
        with self._counter_lock:
            self.counters[name] += count

    def stats(self) -> dict[str, int]:
        with self._cond:
            in_use = sum(1 for e in self._by_key.values() if e.leases > 0)
            return {
                "in_use": in_use,
                "warm": len(self._by_key) - in_use,
                "prewarmed": len(self._prewarmed),
                **self._counters_copy(),
            }

    def _counters_copy(self) -> dict[str, int]:
        with self._counter_lock:
            return dict(self.counters)

    def shutdown(self) -> None:
        """Destroy every sandbox of the pool (waiting for creations in flight). Idempotent."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        self._stop.set()
        self._wake.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=60)
        with self._cond:
            # Creations in flight finish and hand their sandbox to us, or destroy it themselves.
            self._cond.wait_for(lambda: not self._creating and self._warming == 0, timeout=300)
            doomed = [*self._by_key.values(), *self._prewarmed]
            self._by_key.clear()
            self._prewarmed.clear()
        self._destroy_many([(e, "shutdown") for e in doomed])
        self.auditor.close()
        lifecycle.unregister(self)


    # -- acquiring -----------------------------------------------------------------------

    def _count(self) -> int:
        return len(self._by_key) + len(self._prewarmed) + len(self._creating) + self._warming

    def _lru_idle(self) -> _Entry | None:
        idle = [e for e in self._by_key.values() if e.leases == 0 and e.busy == 0]
        idle += self._prewarmed
        return min(idle, key=lambda e: e.last_used, default=None)

    def _unlink(self, entry: _Entry) -> None:
        """Take ``entry`` out of the pool (lock held); the caller destroys it outside the lock."""
        if entry.key is not None and self._by_key.get(entry.key) is entry:
            del self._by_key[entry.key]
        if entry in self._prewarmed:
            self._prewarmed.remove(entry)
        self._dying.add(entry.sandbox.id)

    def _obtain(self, key: str) -> _Entry:
        deadline = time.monotonic() + self.settings.acquire_timeout
        victims: list[tuple[_Entry, str]] = []
        try:
            with self._cond:
                while True:
                    if self._closed:
                        raise SandboxClosed("the pool has been shut down")
                    entry = self._by_key.get(key)
                    if entry is not None:
                        if not entry.sandbox.closed:
                            entry.leases += 1
                            entry.last_used = time.monotonic()
                            self._bump("reused")
                            return entry
                        self._unlink(entry)
                        victims.append((entry, "closed"))
                        continue
                    if key in self._creating:
                        self._cond.wait(max(deadline - time.monotonic(), 0.001))
                        continue
                    if self._count() >= self.settings.max_sandboxes:
                        victim = self._lru_idle()
                        if victim is not None:
                            self._unlink(victim)
                            victims.append((victim, "evicted"))
                            self._bump("evicted")
                            continue
                        left = deadline - time.monotonic()
                        if left <= 0:
                            raise PoolExhausted(
                                f"all {self.settings.max_sandboxes} sandboxes of the pool stayed in use for "
                                f"{self.settings.acquire_timeout:.0f}s (pool.max_sandboxes, pool.acquire_timeout)"
                            )
                        self._cond.wait(left)
                        continue
                    self._creating.add(key)
                    break
        finally:
            self._destroy_many(victims)
        try:
            entry = self._discover_or_create(key, deadline)
        except BaseException:
            with self._cond:
                self._creating.discard(key)
                self._cond.notify_all()
            raise
        with self._cond:
            self._creating.discard(key)
            self._cond.notify_all()
            closed = self._closed
            if not closed:
                entry.key = key
                entry.leases = 1
                entry.last_used = time.monotonic()
                self._by_key[key] = entry
        if closed:
            self._destroy_many([(entry, "shutdown")])
            raise SandboxClosed("the pool has been shut down")
        return entry

    def _discover_or_create(self, key: str, deadline: float) -> _Entry:
        sandbox_id = self.sandbox_id(key)
        alias_path = self._lock_dir / f"{sandbox_id}.alias"
        with self._cond:
            # An in-process sandbox of this id still being destroyed must be gone before we look.
            self._cond.wait_for(lambda: sandbox_id not in self._dying, timeout=max(deadline - time.monotonic(), 0))
        with file_lock(self._lock_dir / f"{sandbox_id}.lock", timeout=max(deadline - time.monotonic(), 0.001)):
            found = self._discover(sandbox_id, alias_path)
            if found is not None:
                return found
            warm = self._take_prewarmed()
            if warm is not None:
                # Another process finds the adopted sandbox through the alias file.
                _write_atomic(alias_path, warm.sandbox.id)
                warm.alias = alias_path
                self._bump("adopted")
                self.auditor.emit(AuditKind.ATTACH, warm.sandbox.id, {"key_id": sandbox_id, "prewarmed": True})
                self._wake.set()  # replenish in the background
                return warm
            sandbox = self.client.create(
                policy=self.policy,
                sandbox_id=sandbox_id,
                labels={POOL_LABEL: self.settings.namespace, KEY_LABEL: sandbox_id},
            )
        self._bump("created")
        self.auditor.emit(AuditKind.CREATE, sandbox.id, {"key_id": sandbox_id})
        now = time.monotonic()
        return _Entry(sandbox, key, now, now)

    def _discover(self, sandbox_id: str, alias_path: Path) -> _Entry | None:
        candidates: list[tuple[str, bool]] = []
        try:
            alias = alias_path.read_text().strip()
        except OSError:
            alias = ""
        if alias:
            candidates.append((alias, True))
        candidates.append((sandbox_id, False))
        for candidate, is_alias in candidates:
            try:
                sandbox = self.client.attach(candidate)
            except SandboxNotFound:
                if is_alias:
                    alias_path.unlink(missing_ok=True)
                continue
            if sandbox.closed:
                continue
            if sandbox.policy != self._expected_policy:
                # Fail closed: never run a key's commands under another configuration's policy.
                raise SandboxError(
                    f"sandbox {candidate} for this key exists with a different policy; use another "
                    f"pool.namespace for this configuration, or delete it (sandlot.Sandlot().delete)"
                )
            self._bump("attached")
            self.auditor.emit(AuditKind.ATTACH, sandbox.id, {"key_id": sandbox_id})
            now = time.monotonic()
            return _Entry(sandbox, None, now, now, alias=alias_path if is_alias else None)
        return None

    def _take_prewarmed(self) -> _Entry | None:
        with self._cond:
            while self._prewarmed:
                entry = self._prewarmed.pop(0)
                if not entry.sandbox.closed:
                    return entry
                self._dying.add(entry.sandbox.id)
                self._destroy_later(entry)
        return None

    # -- using and releasing -------------------------------------------------------------

    def _checkout(self, lease: PooledSandbox) -> tuple[_Entry, bool]:
        """The live entry behind ``lease``, marked busy; True when it had to be replaced."""
        with self._cond:
            if self._closed:
                raise SandboxClosed("the pool has been shut down")
            entry = lease._entry
            if self._by_key.get(lease.key) is entry and not entry.sandbox.closed:
                entry.busy += 1
                entry.last_used = time.monotonic()
                return entry, False
        # Reaped, evicted or dead since the lease was taken: the key gets a sandbox again.
        entry = self._obtain(lease.key)
        with self._cond:
            entry.busy += 1
            lease._entry = entry
            lease.id = entry.sandbox.id
        self._bump("rebuilt")
        return entry, True

    def _checkin(self, entry: _Entry) -> None:
        with self._cond:
            entry.busy -= 1
            entry.last_used = time.monotonic()

    def _release(self, lease: PooledSandbox) -> None:
        with self._cond:
            entry = lease._entry
            if self._by_key.get(lease.key) is entry and entry.leases > 0:
                entry.leases -= 1
                entry.last_used = time.monotonic()
            self._cond.notify_all()

    def _stream(
        self, lease: PooledSandbox, command: str, kwargs: dict[str, Any]
    ) -> Generator[OutputChunk, None, ExecResult]:
        entry, lost = self._checkout(lease)
        seen = [False]
        try:
            result = yield from run_attempt(entry.sandbox, command, kwargs, seen)
        except (SandboxError, OSError) as exc:
            self._checkin(entry)
            self._drop(entry, "died")
            if self._closed or seen[0]:
                raise  # it may have run: not repeated; the next command gets a new sandbox
            log.warning("sandlot: pool sandbox %s is unusable (%s); rebuilding it", entry.sandbox.id, exc)
            self.auditor.emit(AuditKind.RECOVER, entry.sandbox.id, {"error": str(exc), "command": command})
            entry, _ = self._checkout(lease)
            try:
                result = yield from run_attempt(entry.sandbox, command, kwargs, seen)
            finally:
                self._checkin(entry)
            lost = True
        else:
            self._checkin(entry)
        if lost and not result.state_lost_before:
            result = attrs.evolve(result, state_lost_before=True)
        env = kwargs.get("env")
        self.auditor.emit(
            AuditKind.EXEC, entry.sandbox.id, exec_data(command, result, cwd=kwargs.get("cwd"), env=env), env=env
        )
        return result

    def _drop(self, entry: _Entry, reason: str) -> None:
        with self._cond:
            if self._by_key.get(entry.key or "") is not entry and entry not in self._prewarmed:
                return
            self._unlink(entry)
        self._destroy_many([(entry, reason)])

    # -- background: reaping and prewarming ----------------------------------------------

    def _interval(self) -> float:
        periods = [p for p in (self.settings.idle_timeout, self.settings.max_lifetime) if p]
        return min(max(min(periods) / 4, 0.05), 30.0) if periods else 30.0

    def _background(self) -> None:
        while not self._stop.is_set():
            try:
                self.reap()
                if self.settings.prewarm:
                    self.prewarm()
            except Exception:
                log.exception("sandlot: the pool's background thread hit an error; it keeps going")
            self._wake.wait(self._interval())
            self._wake.clear()

    def reap(self) -> int:
        """Destroy sandboxes idle or alive longer than configured; returns how many (the background
        thread calls this; tests and programs without the thread may call it themselves)."""
        idle, lifetime = self.settings.idle_timeout, self.settings.max_lifetime
        now = time.monotonic()
        doomed: list[tuple[_Entry, str]] = []
        with self._cond:
            for entry in list(self._by_key.values()):
                if entry.busy:
                    continue  # never mid-command
                if idle is not None and now - entry.last_used > idle:
                    doomed.append((entry, "idle" if entry.leases == 0 else "idle while held"))
                elif lifetime is not None and now - entry.created > lifetime:
                    doomed.append((entry, "max lifetime"))
            for entry in list(self._prewarmed):
                # Prewarmed sandboxes wait for keys by design: only their lifetime ends them.
                if lifetime is not None and now - entry.created > lifetime:
                    doomed.append((entry, "max lifetime"))
            for entry, _ in doomed:
                self._unlink(entry)
            self._bump("reaped", len(doomed))
            if doomed:
                self._cond.notify_all()
        self._destroy_many(doomed)
        return len(doomed)

    def _warm_one(self, limit: int | None) -> bool:
        with self._cond:
            if self._closed or self._count() >= self.settings.max_sandboxes:
                return False
            if limit is not None and len(self._prewarmed) + self._warming >= limit:
                return False
            self._warming += 1
        sandbox: Sandbox | None = None
        try:
            sandbox = self.client.create(
                policy=self.policy,
                sandbox_id=f"pool-warm-{secrets.token_hex(8)}",
                labels={POOL_LABEL: self.settings.namespace},
            )
        finally:
            with self._cond:
                self._warming -= 1
                closed = self._closed
                if sandbox is not None and not closed:
                    now = time.monotonic()
                    self._prewarmed.append(_Entry(sandbox, None, now, now))
                self._cond.notify_all()
        if sandbox is None:
            return False
        self._bump("prewarmed")
        self.auditor.emit(AuditKind.CREATE, sandbox.id, {"prewarmed": True})
        if closed:
            self._destroy_many([(_Entry(sandbox, None, 0, 0), "shutdown")])
            return False
        return True

    # -- destroying ----------------------------------------------------------------------

    def _destroy_later(self, entry: _Entry) -> None:
        threading.Thread(target=self._destroy_many, args=([(entry, "closed")],), daemon=True).start()

    def _destroy_many(self, doomed: list[tuple[_Entry, str]]) -> None:
        if not doomed:
            return
        if len(doomed) == 1:
            self._destroy(*doomed[0])
            return
        # Container removal takes a while each: do them side by side.
        with concurrent.futures.ThreadPoolExecutor(max_workers=min(8, len(doomed))) as workers:
            list(workers.map(lambda item: self._destroy(*item), doomed))

    def _destroy(self, entry: _Entry, reason: str) -> None:
        sandbox_id = entry.sandbox.id
        try:
            destroy(self.client, entry.sandbox)
        except Exception as exc:
            log.warning("sandlot: destroying pool sandbox %s failed: %s", sandbox_id, exc)
        finally:
            if entry.alias is not None:
                entry.alias.unlink(missing_ok=True)
            with self._cond:
                self._dying.discard(sandbox_id)
                self._cond.notify_all()
        self._bump("destroyed")
        self.auditor.emit(AuditKind.DESTROY, sandbox_id, {"reason": reason, "key_id": _key_id(entry, self)})


def _key_id(entry: _Entry, pool: Pool) -> str | None:
    return pool.sandbox_id(entry.key) if entry.key is not None else None


def _write_atomic(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)
