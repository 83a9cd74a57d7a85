"""The sandbox manager: one lazily created sandbox per agent session, grants at run time,
crash recovery, audit events, and shutdown on exit and on SIGTERM/SIGINT.

::

    with Manager() as manager:           # no sandbox exists yet
        manager.exec("echo hi")           # created now
        manager.write_file("notes.txt", "data")

When a command is blocked by the policy (its result carries a :class:`Violation`), the
manager works out the smallest grant that would lift it (:func:`sandlot.grants.grant_for`)
and asks the ``sandlot_approve`` hook:

* ``allow_once`` — re-run the command in a temporary sandbox with the grant, in the same
  working directory (and current directory), then drop the grant;
* ``allow_session`` — keep the grant, rebuild the sandbox with it, re-run (the result says
  ``state_lost_before``: the rebuilt shell starts fresh); grants survive later rebuilds;
* ``allow_always`` — as ``allow_session``, and persist the grant to the user's config file;
* ``deny``, or no approver — the result with its violation goes back to the caller.

Built-in default entries are never granted (see :mod:`sandlot.grants`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Generator, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import attrs

from sandlot import lifecycle
from sandlot.approval import ApprovalRequest, Decision
from sandlot.audit import AuditKind, Auditor, Redactor, exec_data, violation_data
from sandlot.errors import FileOperationError, SandboxClosed, SandboxError, SandlotError
from sandlot.files.model import FileInfo, GrepMatch
from sandlot.grants import Grant, Refusal, apply_grants, grant_for, persist_grant
from sandlot.policy import Policy
from sandlot.results import ExecResult, OutputChunk, Violation
from sandlot.sandbox import POLICY_TIMEOUT, Sandbox, Timeout, final_result, relay

if TYPE_CHECKING:
    from sandlot.api import Sandlot
    from sandlot.config import Config

log = logging.getLogger(__name__)

#: Passed as ``timeout`` means "the policy's timeout" (as with ``Sandbox.exec``).


T = TypeVar("T")


@attrs.frozen
class _Step:
    """An approver's yes: how (``allow_once`` or a lasting grant) and what."""

    decision: Decision
    grant: Grant


def destroy(client: Sandlot, sandbox: Sandbox) -> None:
    """Close ``sandbox`` and delete it from the provider.

    Closing a handle that was *attached* (another process created it) may only detach
    (Docker); the delete makes sure the sandbox itself is gone. Both are idempotent.
    """
    try:
        sandbox.close()
    finally:
        client.delete(sandbox.id)


def run_attempt(
    sandbox: Sandbox, command: str, kwargs: Mapping[str, Any], seen: list[bool]
) -> Generator[OutputChunk, None, ExecResult]:
    """Stream one command; ``seen[0]`` becomes True once output arrived (then it surely ran)."""
    result: ExecResult | None = None
    for item in sandbox.stream(command, **kwargs):
        if isinstance(item, OutputChunk):
            seen[0] = True
            yield item
        else:
            result = item
    assert result is not None
    return result


def command_kwargs(
    timeout: Timeout, cwd: str | None, env: Mapping[str, str] | None, stdin: bytes | str | None
) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"cwd": cwd, "env": env, "stdin": stdin}
    if timeout is not POLICY_TIMEOUT:
        kwargs["timeout"] = timeout
    return kwargs


class Manager(lifecycle.ShutdownContext):
    """One agent session's sandbox: created on first use, rebuilt when it dies or a grant changes it.

    Commands run one at a time (in call order); the manager is safe to share between
    threads and event-loop tasks (``aexec``). ``shutdown()`` destroys everything it
    created; it also runs at interpreter exit and on SIGTERM/SIGINT.
    """

    def __init__(
        self,
        client: Sandlot | None = None,
        *,
        config: Config | None = None,
        policy: Policy | None = None,
        workdir: str | os.PathLike[str] | None = None,
        sandbox_id: str | None = None,
        labels: Mapping[str, str] | None = None,
        handle_signals: bool = True,
    ) -> None:
        if client is None:
            from sandlot.api import Sandlot

            client = Sandlot(config)
        self.client = client
        self.config = client.config
        # Permanently allowed grants (from the config) are part of the base policy.
        self._base = apply_grants(policy if policy is not None else self.config.policy, self.config.approval.grants)
        self._grants: list[Grant] = []
        self._workdir = Path(workdir).absolute() if workdir is not None else None
        self._owned_workdir: Path | None = None
        self._sandbox_id = sandbox_id
        self._labels = dict(labels or {})
        self._sandbox: Sandbox | None = None
        self._temporary: set[Sandbox] = set()
        self._lost = False
        self._closed = False
        self._command_lock = threading.Lock()  # one command at a time
        self._state_lock = threading.RLock()  # guards the fields above, never held while a command runs
        self._running_in: int | None = None
        self.auditor = Auditor(
            client.pm,
            provider=client.provider_name,
            config=self.config.audit,
            redactor=Redactor.for_policy(self._base),
        )
        lifecycle.register(self, handle_signals=handle_signals)

    # -- state ---------------------------------------------------------------------------

    @property
    def session(self) -> str:
        """The id audit events of this manager carry."""
        return self.auditor.session

    @property
    def grants(self) -> tuple[Grant, ...]:
        """Grants of this session (``allow_session``/``allow_always``), in the order given."""
        with self._state_lock:
            return tuple(self._grants)

    @property
    def policy(self) -> Policy:
        """The effective policy the next sandbox gets: configured, plus grants, plus built-in lists."""
        with self._state_lock:
            return apply_grants(self._base, self._grants).effective()

    @property
    def sandbox(self) -> Sandbox | None:
        """The current sandbox, or None while none is needed yet (nothing is created here)."""
        return self._sandbox

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def workdir(self) -> Path | None:
        """Where commands start; None until the first sandbox exists when none was given."""
        return self._workdir or self._owned_workdir

    # -- commands ------------------------------------------------------------------------

    def exec(
        self,
        command: str,
        *,
        timeout: Timeout = POLICY_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | str | None = None,
    ) -> ExecResult:
        """Run ``command`` (creating the sandbox if needed); blocked commands go to the approver."""
        return final_result(self.stream(command, timeout=timeout, cwd=cwd, env=env, stdin=stdin))

    def stream(
        self,
        command: str,
        *,
        timeout: Timeout = POLICY_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | str | None = None,
    ) -> Iterator[OutputChunk | ExecResult]:
        """Yield output chunks, then the final result. After a grant the command runs again,
        so its output is streamed again, from the re-run."""
        kwargs = command_kwargs(timeout, cwd, env, stdin)
        yield from relay(self._command(command, kwargs))

    async def aexec(
        self,
        command: str,
        *,
        timeout: Timeout = POLICY_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | str | None = None,
    ) -> ExecResult:
        """:meth:`exec` in a worker thread: the event loop is never blocked (approvers included)."""
        return await asyncio.to_thread(self.exec, command, timeout=timeout, cwd=cwd, env=env, stdin=stdin)

    def run_code(self, code: str, *, language: str = "python", timeout: Timeout = POLICY_TIMEOUT) -> ExecResult:
        """Run ``code`` past the risk gate (``[risk]`` settings, approvers via ``sandlot_approve``).

        Raises :class:`~sandlot.errors.RiskBlocked` when the gate refuses it; the code is
        sent on stdin, never spliced into the command line.
        """
        from sandlot.code import INTERPRETERS
        from sandlot.risk.gate import check
        from sandlot.risk.plugin import normalise_language

        lang = normalise_language(language)
        if lang not in INTERPRETERS:
            raise ValueError(f"cannot run {language!r} code; supported: {', '.join(sorted(INTERPRETERS))}")
        check(code, lang, config=self.config.risk, pm=self.client.pm, command=f"{INTERPRETERS[lang]} <<code>>\n{code}")
        return self.exec(INTERPRETERS[lang], timeout=timeout, stdin=code)

    # -- files ---------------------------------------------------------------------------
    # The sandbox's file operations (see sandlot.files), creating the sandbox if needed; a
    # path the policy blocks goes to the approver as a blocked command does.

    def read_text(self, path: str, *, offset: int = 0, limit: int | None = None) -> str:
        return self._file("read", path, lambda box: box.read_text(path, offset=offset, limit=limit))

    def read_file(self, path: str) -> bytes:
        """The exact bytes of ``path`` (relative: the working directory)."""
        return self._file("read", path, lambda box: box.read_bytes(path))

    def write_file(self, path: str, data: bytes | str) -> None:
        """Write ``data`` to ``path``, creating parent directories."""
        self._file("write", path, lambda box: box.write(path, data), size=len(data))

    def edit(self, path: str, old: str, new: str, *, replace_all: bool = False) -> int:
        return self._file("edit", path, lambda box: box.edit(path, old, new, replace_all=replace_all))

    def ls(self, path: str = ".") -> list[FileInfo]:
        return self._file("ls", path, lambda box: box.ls(path))

    def glob(self, pattern: str, *, path: str = ".", include_hidden: bool = False) -> list[str]:
        return self._file("glob", path, lambda box: box.glob(pattern, path=path, include_hidden=include_hidden))

    def grep(self, pattern: str, *, path: str = ".", **options: Any) -> list[GrepMatch]:
        return self._file("grep", path, lambda box: box.grep(pattern, path=path, **options))

    def delete(self, path: str, *, recursive: bool = False) -> None:
        self._file("delete", path, lambda box: box.delete(path, recursive=recursive))

    def _file(self, operation: str, path: str, action: Callable[[Sandbox], T], *, size: int | None = None) -> T:
        """Run a file operation; a policy refusal (a FileOperationError with a violation) is
        put to the approver, and a granted operation runs again."""
        what = f"{operation} {path}"
        with self._one_at_a_time():
            once: list[Grant] = []
            rounds = 0
            while True:
                target = self._ensure()[0]
                try:
                    if once:
                        with self._temporary_sandbox(once) as temporary:
                            target = temporary
                            value = action(temporary)
                    else:
                        value = action(target)
                except FileOperationError as exc:
                    self._file_event(target, operation, path, ok=False, size=size, violation=exc.violation)
                    if exc.violation is None or rounds >= self.config.approval.max_rounds:
                        raise
                    step = self._decide(what, exc.violation, once)
                    if step is None:
                        raise
                    rounds += 1
                    if step.decision is Decision.ALLOW_ONCE:
                        once.append(step.grant)
                    continue
                self._file_event(target, operation, path, ok=True, size=size, violation=None)
                return value

    def _file_event(
        self, sandbox: Sandbox, operation: str, path: str, *, ok: bool, size: int | None, violation: Violation | None
    ) -> None:
        self.auditor.emit(
            AuditKind.FILE,
            sandbox.id,
            {"operation": operation, "path": path, "bytes": size, "ok": ok, "violation": violation_data(violation)},
        )

    # -- lifecycle -----------------------------------------------------------------------

    def shutdown(self) -> None:
        """Destroy every sandbox this manager created and release its working directory.

        Idempotent. A command running in another thread ends at once (its shell is killed).
        """
        with self._state_lock:
            if self._closed:
                return
            self._closed = True
            doomed = [s for s in (self._sandbox, *self._temporary) if s is not None]
            self._sandbox = None
            self._temporary.clear()
            owned = self._owned_workdir
        for sandbox in doomed:
            self._destroy(sandbox, "shutdown")
        if owned is not None:
            shutil.rmtree(owned, ignore_errors=True)
        self.auditor.close()
        lifecycle.unregister(self)


    # -- internals -----------------------------------------------------------------------

    def _command(self, command: str, kwargs: dict[str, Any]) -> Generator[OutputChunk, None, ExecResult]:
        with self._one_at_a_time():
            return (yield from self._command_locked(command, kwargs))

    @contextlib.contextmanager
    def _one_at_a_time(self) -> Iterator[None]:
        """Commands and file operations run one at a time, in call order."""
        me = threading.get_ident()
        if self._running_in == me:
            # The same thread inside its own unfinished stream would deadlock on the lock.
            raise SandboxError("a command is already running on this manager in this thread")
        with self._command_lock:
            self._running_in = me
            try:
                yield
            finally:
                self._running_in = None

    def _command_locked(self, command: str, kwargs: dict[str, Any]) -> Generator[OutputChunk, None, ExecResult]:
        result = yield from self._run_recovering(command, kwargs)
        once: list[Grant] = []
        rounds = 0
        while result.violation is not None and rounds < self.config.approval.max_rounds:
            step = self._decide(command, result.violation, once)
            if step is None:
                break
            rounds += 1
            if step.decision is Decision.ALLOW_ONCE:
                once.append(step.grant)
                result = yield from self._run_once(command, kwargs, once)
                continue
            rerun = yield from self._run_recovering(command, kwargs)
            result = rerun if rerun.state_lost_before else attrs.evolve(rerun, state_lost_before=True)
        return result

    def _decide(self, what: str, violation: Violation, once: list[Grant]) -> _Step | None:
        """Put one violation to the approver. None: it stays blocked. An ``allow_once`` step is
        for the caller to retry with; a session or permanent grant is applied (sandbox rebuilt)."""
        with self._state_lock:
            current = apply_grants(self._base, [*self._grants, *once])
        proposal = grant_for(violation, current, workdir=self.workdir or Path.cwd())
        if isinstance(proposal, Refusal):
            self._approval_event(what, violation, None, None, refused=proposal.reason)
            return None
        decision = self._ask(what, violation, proposal)
        if decision in (Decision.DENY, Decision.ALLOW_ONCE):
            self._approval_event(what, violation, decision, proposal)
        if decision is Decision.DENY:
            return None
        if decision is Decision.ALLOW_ONCE:
            return _Step(decision, proposal)
        failure = self._rebuild_with(proposal)
        if failure is not None:
            self._approval_event(what, violation, decision, proposal, refused=f"cannot be applied: {failure}")
            return None
        persisted, unsaved = self._persist(proposal) if decision is Decision.ALLOW_ALWAYS else (None, None)
        self._approval_event(what, violation, decision, proposal, persisted=persisted, refused=unsaved)
        return _Step(decision, proposal)

    def _rebuild_with(self, grant: Grant) -> SandlotError | None:
        """Add ``grant`` and rebuild the sandbox with it; on failure take it back and say why."""
        with self._state_lock:
            added = grant not in self._grants
            if added:
                self._grants.append(grant)
        self._retire("grant")
        try:
            self._ensure()
        except SandlotError as exc:
            # The provider cannot run the granted policy (e.g. Docker without an egress
            # network): the grant is withdrawn and the command stays blocked.
            with self._state_lock:
                if added:
                    self._grants.remove(grant)
            log.warning("sandlot: the grant of %s cannot be applied: %s", grant.describe(), exc)
            return exc
        return None

    def _persist(self, grant: Grant) -> tuple[str | None, str | None]:
        """(path written, None), or (None, why not): the grant then holds for this session only."""
        try:
            return str(persist_grant(grant)), None
        except (SandlotError, OSError) as exc:
            log.error("sandlot: the grant of %s holds for this session only; saving it failed: %s",
                      grant.describe(), exc)
            return None, f"not saved to the config file: {exc}"

    def _ask(self, command: str, violation: Violation, grant: Grant) -> Decision:
        request = ApprovalRequest(kind="violation", command=command, violation=violation, grant=grant.describe())
        try:
            answer = self.client.pm.hook.sandlot_approve(request=request)
        except Exception:
            log.exception("sandlot: the approver failed; the command stays blocked")
            return Decision.DENY
        if answer is None:
            return Decision.DENY  # no approver configured
        try:
            return Decision(answer)
        except ValueError:
            log.error("sandlot: the approver answered %r, which is no Decision; denying", answer)
            return Decision.DENY

    def _approval_event(
        self,
        command: str,
        violation: Violation,
        decision: Decision | None,
        grant: Grant | None,
        *,
        refused: str | None = None,
        persisted: str | None = None,
    ) -> None:
        sandbox = self._sandbox
        self.auditor.emit(
            AuditKind.APPROVAL,
            sandbox.id if sandbox is not None else None,
            {
                "command": command,
                "violation": violation_data(violation),
                "decision": decision.value if decision is not None else "deny",
                "grant": {"kind": grant.kind.value, "target": grant.target} if grant is not None else None,
                "problem": refused,
                "persisted_to": persisted,
            },
        )

    def _ensure(self) -> tuple[Sandbox, bool]:
        """The live sandbox, creating it if needed; True when it replaces one whose state was lost."""
        with self._state_lock:
            if self._closed:
                raise SandboxClosed("the manager has been shut down")
            current = self._sandbox
            if current is not None and not current.closed:
                return current, False
            lost = self._lost or current is not None  # closed from outside: its state is gone
            self._sandbox = None
            policy = apply_grants(self._base, self._grants)
            workdir = self._workdir_for_create()
        if current is not None:
            self._destroy(current, "closed")
        sandbox = self.client.create(
            policy=policy, workdir=workdir, sandbox_id=self._sandbox_id, labels=self._labels
        )
        with self._state_lock:
            if self._closed:
                # shutdown() ran while we were creating: do not leak what we just made.
                self._destroy(sandbox, "shutdown")
                raise SandboxClosed("the manager has been shut down")
            self._sandbox = sandbox
            self._lost = False
        self.auditor.emit(
            AuditKind.CREATE,
            sandbox.id,
            {"workdir": str(workdir), "grants": [g.describe() for g in self.grants], "replaces_lost": lost},
        )
        return sandbox, lost

    def _workdir_for_create(self) -> Path:
        # A stable working directory, so files survive rebuilds (a provider's own temporary
        # directory would go with the sandbox it belongs to).
        if self._workdir is not None:
            return self._workdir
        if self._owned_workdir is None:
            self._owned_workdir = Path(tempfile.mkdtemp(prefix="sandlot-session-"))
        return self._owned_workdir

    def _retire(self, reason: str) -> None:
        """Destroy the current sandbox; the next command builds a new one (state lost)."""
        with self._state_lock:
            current, self._sandbox = self._sandbox, None
            self._lost = True
        if current is not None:
            self._destroy(current, reason)

    def _destroy(self, sandbox: Sandbox, reason: str) -> None:
        try:
            destroy(self.client, sandbox)
        except Exception as exc:
            log.warning("sandlot: destroying sandbox %s failed: %s", sandbox.id, exc)
        self.auditor.emit(AuditKind.DESTROY, sandbox.id, {"reason": reason})

    def _run_recovering(self, command: str, kwargs: dict[str, Any]) -> Generator[OutputChunk, None, ExecResult]:
        sandbox, lost = self._ensure()
        seen = [False]
        try:
            result = yield from run_attempt(sandbox, command, kwargs, seen)
        except (SandboxError, OSError) as exc:
            if self._closed:
                raise
            if seen[0]:
                # It died while the command was running: the command may have had effects,
                # so it is not run again. The next command gets a new sandbox and is told.
                self._retire("died")
                raise
            # The sandbox could not even start the command (its process or container is
            # gone): rebuild it and run the command there; the result says state was lost.
            log.warning("sandlot: sandbox %s is unusable (%s); rebuilding it", sandbox.id, exc)
            self.auditor.emit(AuditKind.RECOVER, sandbox.id, {"error": str(exc), "command": command})
            self._retire("died")
            sandbox, _ = self._ensure()
            result = yield from run_attempt(sandbox, command, kwargs, seen)
            lost = True
        if lost and not result.state_lost_before:
            result = attrs.evolve(result, state_lost_before=True)
        self._exec_event(sandbox, command, result, kwargs)
        return result

    def _run_once(
        self, command: str, kwargs: dict[str, Any], once: list[Grant]
    ) -> Generator[OutputChunk, None, ExecResult]:
        """Run ``command`` in a temporary sandbox with the one-time grants, then destroy it."""
        run_kwargs = dict(kwargs)
        main = self._sandbox
        if run_kwargs.get("cwd") is None and main is not None and not main.closed:
            try:
                where = main.exec("pwd", timeout=10)
            except SandboxError:
                where = None  # the session's sandbox died: start in the working directory
            if where is not None and where.ok and where.stdout.strip():
                run_kwargs["cwd"] = where.stdout.strip()
        with self._temporary_sandbox(once) as temporary:
            result = yield from run_attempt(temporary, command, run_kwargs, [False])
            self._exec_event(temporary, command, result, run_kwargs)
            return result

    @contextlib.contextmanager
    def _temporary_sandbox(self, once: list[Grant]) -> Iterator[Sandbox]:
        """A sandbox with the one-time grants, in the same working directory, destroyed after use."""
        with self._state_lock:
            policy = apply_grants(self._base, [*self._grants, *once])
            workdir = self._workdir_for_create()
        temporary = self.client.create(policy=policy, workdir=workdir, labels=self._labels)
        with self._state_lock:
            closed = self._closed
            if not closed:
                self._temporary.add(temporary)
        if closed:
            self._destroy(temporary, "shutdown")
            raise SandboxClosed("the manager has been shut down")
        self.auditor.emit(
            AuditKind.CREATE, temporary.id, {"workdir": str(workdir), "grants": [g.describe() for g in once],
                                             "temporary": True}
        )
        try:
            yield temporary
        finally:
            with self._state_lock:
                self._temporary.discard(temporary)
            self._destroy(temporary, "allow_once done")

    def _exec_event(self, sandbox: Sandbox, command: str, result: ExecResult, kwargs: Mapping[str, Any]) -> None:
        env = kwargs.get("env")
        self.auditor.emit(
            AuditKind.EXEC, sandbox.id, exec_data(command, result, cwd=kwargs.get("cwd"), env=env), env=env
        )

