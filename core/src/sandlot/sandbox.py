"""The Sandbox contract: run commands, stream their output, close. Sync and async."""

from __future__ import annotations

import abc
import asyncio
import enum
import threading
from collections.abc import AsyncIterator, Generator, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Literal

import attrs

from sandlot.errors import SandboxClosed
from sandlot.files.operations import FileOperations
from sandlot.files.paths import PathMap
from sandlot.policy import Policy, ResolvedFilesystem
from sandlot.results import ExecResult, OutputChunk
from sandlot.violations import ViolationContext, detect

if TYPE_CHECKING:
    import pluggy

#: What ``Sandbox._run`` is: a generator of output chunks that returns the result.
RunGenerator = Generator[OutputChunk, None, ExecResult]

class _PolicyDefault(enum.Enum):
    TIMEOUT = "policy timeout"


#: The default of every ``timeout=`` parameter: use the policy's ``limits.timeout``.
#: (``None`` means no timeout at all.)
POLICY_TIMEOUT = _PolicyDefault.TIMEOUT
Timeout = float | None | Literal[_PolicyDefault.TIMEOUT]


def relay(gen: RunGenerator) -> Iterator[OutputChunk | ExecResult]:
    """Yield a run's output chunks, then its result; closes the run if the caller stops early."""
    try:
        while True:
            yield next(gen)
    except StopIteration as stop:
        yield stop.value
    finally:
        gen.close()


def final_result(items: Iterable[OutputChunk | ExecResult]) -> ExecResult:
    """The result at the end of a stream (the chunks before it are dropped)."""
    result: ExecResult | None = None
    for item in items:
        if isinstance(item, ExecResult):
            result = item
    if result is None:
        raise RuntimeError("the stream ended without a result")
    return result


def check_command(command: str) -> None:
    if not isinstance(command, str):
        raise TypeError(f"command must be a str, got {type(command).__name__}")
    if "\0" in command:
        raise ValueError("command contains a NUL byte, which no shell can run")


class Sandbox(FileOperations, abc.ABC):
    """One isolated place to run commands and work on files.

    Commands on one sandbox run one at a time (in call order); different sandboxes run
    in parallel. Use it as a context manager, or call :meth:`close`.
    """

    def __init__(
        self,
        sandbox_id: str,
        *,
        provider: str,
        policy: Policy,
        pm: pluggy.PluginManager,
        filesystem: ResolvedFilesystem | None = None,
        path_map: PathMap | None = None,
    ) -> None:
        self.id = sandbox_id
        self.provider = provider
        self.policy = policy
        self._pm = pm
        self._filesystem = filesystem
        self._path_map = path_map or PathMap()
        self._closed = False
        self._close_lock = threading.Lock()

    # -- to implement ------------------------------------------------------------------

    @abc.abstractmethod
    def _run(
        self,
        command: str,
        *,
        timeout: float | None,
        cwd: str | None,
        env: Mapping[str, str] | None,
        stdin: bytes | None,
    ) -> RunGenerator:
        """Run one command: yield output chunks as they arrive, return the raw result."""

    @abc.abstractmethod
    def _close(self) -> None:
        """Release everything the sandbox holds (idempotence is handled by :meth:`close`)."""

    # -- public API ----------------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def path_map(self) -> PathMap:
        return self._path_map

    def stream(
        self,
        command: str,
        *,
        timeout: Timeout = POLICY_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | str | None = None,
    ) -> Iterator[OutputChunk | ExecResult]:
        """Yield :class:`OutputChunk` objects as output arrives, then the :class:`ExecResult`.

        ``timeout`` defaults to the policy's ``limits.timeout`` (``None``: no timeout).
        ``cwd``/``env`` apply to this command only (it runs in a subshell, so its own
        ``cd``/``export`` do not persist). ``stdin`` is fed to the command; without it
        the command reads ``/dev/null``.
        """
        items = self._stream_raw(command, timeout=timeout, cwd=cwd, env=env, stdin=stdin)
        if not self._path_map:
            yield from items
            return
        # Host paths of mounts never reach the caller (a path cut between two chunks can
        # slip through a chunk, never the final result).
        for item in items:
            yield self._masked(item)

    def _stream_raw(
        self,
        command: str,
        *,
        timeout: Timeout = POLICY_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | str | None = None,
    ) -> Iterator[OutputChunk | ExecResult]:
        """:meth:`stream` without masking host paths: what file backends read file contents with."""
        check_command(command)
        if self._closed:
            raise SandboxClosed(f"sandbox {self.id} is closed")
        effective_timeout = self.policy.limits.timeout if timeout is POLICY_TIMEOUT else timeout
        if isinstance(stdin, str):
            stdin = stdin.encode()
        gen = self._run(
            command,
            timeout=effective_timeout,
            cwd=cwd,
            env=env,
            stdin=stdin,
        )
        for item in relay(gen):
            yield self._with_violation(command, item) if isinstance(item, ExecResult) else item

    def _masked(self, item: OutputChunk | ExecResult) -> OutputChunk | ExecResult:
        mask = self._path_map.mask
        if isinstance(item, OutputChunk):
            return OutputChunk(item.stream, mask(item.data))
        violation = item.violation
        if violation is not None:
            violation = attrs.evolve(
                violation,
                resource=self._path_map.mask_text(violation.resource),
                reason=self._path_map.mask_text(violation.reason),
                evidence=tuple(self._path_map.mask_text(e) for e in violation.evidence),
            )
        return attrs.evolve(
            item, stdout_bytes=mask(item.stdout_bytes), stderr_bytes=mask(item.stderr_bytes), violation=violation
        )

    def exec(
        self,
        command: str,
        *,
        timeout: Timeout = POLICY_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | str | None = None,
    ) -> ExecResult:
        """Run ``command`` with ``sh``-compatible syntax and return its result."""
        return final_result(self.stream(command, timeout=timeout, cwd=cwd, env=env, stdin=stdin))

    def close(self) -> None:
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        self._close()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- async twins ---------------------------------------------------------------------

    async def aexec(
        self,
        command: str,
        *,
        timeout: Timeout = POLICY_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | str | None = None,
    ) -> ExecResult:
        return await asyncio.to_thread(self.exec, command, timeout=timeout, cwd=cwd, env=env, stdin=stdin)

    async def astream(
        self,
        command: str,
        *,
        timeout: Timeout = POLICY_TIMEOUT,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | str | None = None,
    ) -> AsyncIterator[OutputChunk | ExecResult]:
        """Async :meth:`stream`: the command runs in a worker thread; the loop is never blocked."""
        loop = asyncio.get_running_loop()
        queue: asyncio.Queue[tuple[str, object]] = asyncio.Queue(maxsize=64)
        sync_iter = self.stream(command, timeout=timeout, cwd=cwd, env=env, stdin=stdin)
        cancelled = threading.Event()

        def pump() -> None:
            try:
                for item in sync_iter:
                    if cancelled.is_set():
                        break
                    asyncio.run_coroutine_threadsafe(queue.put(("item", item)), loop).result()
            except BaseException as exc:  # delivered to the awaiting task
                asyncio.run_coroutine_threadsafe(queue.put(("error", exc)), loop).result()
            else:
                asyncio.run_coroutine_threadsafe(queue.put(("end", None)), loop).result()
            finally:
                close = getattr(sync_iter, "close", None)
                if close is not None:
                    close()

        worker = loop.run_in_executor(None, pump)
        try:
            while True:
                kind, payload = await queue.get()
                if kind == "item":
                    yield payload  # type: ignore[misc]
                elif kind == "error":
                    raise payload  # type: ignore[misc]
                else:
                    break
        finally:
            cancelled.set()
            while not worker.done():
                try:
                    queue.get_nowait()
                except asyncio.QueueEmpty:
                    await asyncio.sleep(0.005)
            await worker

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    async def __aenter__(self) -> Sandbox:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- internals -----------------------------------------------------------------------

    def _with_violation(self, command: str, result: ExecResult) -> ExecResult:
        context = ViolationContext(
            provider=self.provider,
            command=command,
            policy=self.policy,
            filesystem=self._filesystem,
            extra=self._violation_extra(),
        )
        return detect(self._pm, result, context)

    def _violation_extra(self) -> dict[str, object]:
        """Provider facts for detectors (e.g. mask paths); override when there are some."""
        return {}
