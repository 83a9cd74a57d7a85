"""Bookkeeping for providers whose sandboxes live and die with this process (local, bwrap, ...)."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Mapping

from sandlot.errors import SandboxError, SandboxNotFound
from sandlot.provider import Page, Provider, ProviderContext, SandboxInfo, SandboxSpec, paginate
from sandlot.sandbox import Sandbox


class InProcessProvider(Provider):
    """A Provider keeping a table of the sandboxes it created in this process.

    ``attach`` and ``list`` see only this process's sandboxes; subclasses implement
    ``create`` with :meth:`_claim_id`, :meth:`_remember` and :meth:`_forget`.
    """

    #: Said when ``attach`` cannot find an id, after "no <name> sandbox <id> in this process".
    attach_hint = "its sandboxes end with the process that created them"

    def __init__(self, context: ProviderContext) -> None:
        super().__init__(context)
        self._table: dict[str, tuple[Sandbox, SandboxInfo]] = {}
        self._claimed: set[str] = set()
        self._lock = threading.Lock()

    def _claim_id(self, spec: SandboxSpec) -> str:
        """The sandbox id: the requested one (unique in this process) or a fresh random one."""
        sandbox_id = spec.sandbox_id or f"{self.name}-{secrets.token_hex(6)}"
        with self._lock:
            if sandbox_id in self._table or sandbox_id in self._claimed:
                raise SandboxError(f"a {self.name} sandbox with id {sandbox_id!r} already exists")
            self._claimed.add(sandbox_id)
        return sandbox_id

    def _remember(self, sandbox: Sandbox, spec: SandboxSpec) -> None:
        info = SandboxInfo(id=sandbox.id, provider=self.name, created_at=time.time(), labels=dict(spec.labels))
        with self._lock:
            self._claimed.discard(sandbox.id)
            self._table[sandbox.id] = (sandbox, info)

    def _forget(self, sandbox_id: str) -> None:
        with self._lock:
            self._claimed.discard(sandbox_id)
            self._table.pop(sandbox_id, None)

    def attach(self, sandbox_id: str) -> Sandbox:
        with self._lock:
            entry = self._table.get(sandbox_id)
        if entry is None:
            raise SandboxNotFound(f"no {self.name} sandbox {sandbox_id!r} in this process ({self.attach_hint})")
        return entry[0]

    def list(self, cursor: str | None = None, limit: int = 100, labels: Mapping[str, str] | None = None) -> Page:
        with self._lock:
            infos = [info for _, info in self._table.values()]
        return paginate(infos, cursor, limit, labels)

    def delete(self, sandbox_id: str) -> None:
        with self._lock:
            entry = self._table.get(sandbox_id)
        if entry is not None:
            entry[0].close()
