"""Audit events: what the manager and the pool did, delivered through ``sandlot_audit_event``.

Every create, attach, exec (command, exit code, duration, violation), file operation,
approval decision and destroy becomes one :class:`AuditEvent`. Plugins receive them
through the hook and may ship them anywhere; the built-in JSON-lines sink
(:mod:`sandlot.audit_sink`) writes them to a file when ``[audit] enabled = true``.

Secrets never reach an event: environment *values* are never part of one (only variable
names are), and every string field is scrubbed of the values of the sandbox's configured
and inherited variables, of per-command ``env`` values, and of host variables whose
names look secret (``*TOKEN*``, ``*KEY*``...), in case a command line repeats them.
"""

from __future__ import annotations

import enum
import logging
import os
import re
import secrets
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs
import platformdirs

from sandlot.policy import BASE_ENVIRONMENT, Policy

if TYPE_CHECKING:
    import pluggy

log = logging.getLogger(__name__)

#: What replaces a secret value in an event.
REDACTED = "[redacted]"
#: Values shorter than this are not searched for: they would garble every event
#: ("1", "on") and are no secrets worth the name. They are still never written as values.
MIN_SECRET_LENGTH = 4
#: Host variables whose values are scrubbed even when the sandbox does not inherit them.
SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|KEY|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE", re.IGNORECASE)


class AuditKind(enum.StrEnum):
    CREATE = "create"  # a sandbox was created
    ATTACH = "attach"  # an existing sandbox was found and attached (pool discovery)
    EXEC = "exec"  # a command finished
    FILE = "file"  # a file was read or written through the manager
    APPROVAL = "approval"  # a blocked command was decided on (or could not be granted)
    RECOVER = "recover"  # a dead sandbox is being rebuilt; shell state was lost
    DESTROY = "destroy"  # a sandbox was destroyed (shutdown, idle, lifetime, eviction, rebuild)


@attrs.frozen
class AuditEvent:
    """One thing that happened to a sandbox. ``data`` is JSON-ready and already redacted.

    ``session`` names the manager or pool that emitted the event (one per agent
    session or application), so events of concurrent sessions can be told apart.
    """

    kind: AuditKind
    provider: str
    session: str
    sandbox_id: str | None = None
    data: Mapping[str, Any] = attrs.field(factory=dict)
    time: float = attrs.field(factory=time.time)

    def to_data(self) -> dict[str, Any]:
        return {
            "time": round(self.time, 6),
            "kind": self.kind.value,
            "provider": self.provider,
            "session": self.session,
            "sandbox_id": self.sandbox_id,
            **dict(self.data),
        }


@attrs.frozen
class AuditConfig:
    """The ``[audit]`` table: the built-in JSON-lines sink. Plugins get events either way."""

    #: Write every event as one JSON line to ``path``.
    enabled: bool = False
    #: The log file; empty: ``<user state dir>/sandlot/audit.jsonl``. Created with mode 0600.
    path: str = ""

    def resolved_path(self) -> Path:
        if self.path:
            return Path(os.path.expanduser(self.path))
        return Path(platformdirs.user_state_dir("sandlot")) / "audit.jsonl"


class Redactor:
    """Replaces known secret values in event text with :data:`REDACTED`."""

    def __init__(self, values: Iterable[str]) -> None:
        # Longest first, so a secret containing another secret is replaced whole.
        found = {v for v in values if isinstance(v, str) and len(v) >= MIN_SECRET_LENGTH}
        self._values = tuple(sorted(found, key=len, reverse=True))

    @classmethod
    def for_policy(cls, policy: Policy, host_env: Mapping[str, str] | None = None) -> Redactor:
        """Values the sandbox environment gets from the policy or the host, and secret-looking host values."""
        host = os.environ if host_env is None else host_env
        built = policy.environment.build(host)
        values = [v for k, v in built.items() if BASE_ENVIRONMENT.get(k) != v]
        values += [v for k, v in host.items() if SECRET_NAME.search(k)]
        return cls(values)

    def plus(self, env: Mapping[str, str] | None) -> Redactor:
        """This redactor also scrubbing the values of a per-command ``env``."""
        if not env:
            return self
        return Redactor((*self._values, *env.values()))

    def text(self, value: str) -> str:
        for secret in self._values:
            if secret in value:
                value = value.replace(secret, REDACTED)
        return value

    def data(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, Mapping):
            return {self.text(str(k)): self.data(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(v) for v in value]
        return value


def emit(pm: pluggy.PluginManager, event: AuditEvent) -> None:
    """Deliver ``event`` to every ``sandlot_audit_event`` implementation.

    Each sink is called on its own so that one failing sink is logged and the others still
    get the event (a plain collected hook call would stop at the first exception).
    """
    caller = pm.hook.sandlot_audit_event
    impls = caller.get_hookimpls()
    if any(impl.hookwrapper or impl.wrapper for impl in impls):
        try:
            caller(event=event)
        except Exception:
            log.exception("sandlot: an audit sink failed on a %s event", event.kind.value)
        return
    for impl in reversed(impls):  # pluggy's own order: last registered first
        try:
            impl.function(event=event)
        except Exception:
            log.exception("sandlot: audit sink %r failed on a %s event", impl.plugin_name, event.kind.value)


class Auditor:
    """Emits the events of one manager or pool, redacted, and routes them to the JSON-lines sink."""

    def __init__(
        self,
        pm: pluggy.PluginManager,
        *,
        provider: str,
        config: AuditConfig,
        redactor: Redactor,
        session: str | None = None,
    ) -> None:
        self.pm = pm
        self.provider = provider
        self.session = session or "s-" + secrets.token_hex(6)
        self.redactor = redactor
        self._routed = False
        if config.enabled:
            from sandlot import audit_sink
            from sandlot.errors import ConfigError

            if not any(getattr(p, "__name__", "") == audit_sink.__name__ for p in pm.get_plugins()):
                # Fail closed: an audit log that was asked for must not silently stay empty.
                raise ConfigError(
                    "audit.enabled is true but the built-in audit sink plugin is not registered "
                    "(is 'audit' in SANDLOT_DISABLE_PLUGINS?)"
                )
            audit_sink.route(self.session, config.resolved_path())
            self._routed = True

    def emit(
        self,
        kind: AuditKind,
        sandbox_id: str | None,
        data: Mapping[str, Any] | None = None,
        *,
        env: Mapping[str, str] | None = None,
    ) -> None:
        redactor = self.redactor.plus(env)
        event = AuditEvent(
            kind=kind,
            provider=self.provider,
            session=self.session,
            sandbox_id=sandbox_id,
            data=redactor.data(dict(data or {})),
        )
        emit(self.pm, event)

    def close(self) -> None:
        if self._routed:
            from sandlot import audit_sink

            audit_sink.unroute(self.session)
            self._routed = False


def violation_data(violation: Any) -> dict[str, Any] | None:
    if violation is None:
        return None
    return {"kind": violation.kind.value, "resource": violation.resource, "reason": violation.reason}


def exec_data(
    command: str,
    result: Any,
    *,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The ``exec`` event body: never output, never environment values (names only)."""
    return {
        "command": command,
        "exit_code": result.exit_code,
        "duration": round(result.duration, 6),
        "timed_out": result.timed_out,
        "violation": violation_data(result.violation),
        "state_lost_before": result.state_lost_before,
        "cwd": cwd,
        "env_names": sorted(env) if env else [],
    }
