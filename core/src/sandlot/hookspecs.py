"""Every hook sandlot calls. pluggy project name: ``sandlot``; every hook starts with ``sandlot_``.

Implement a hook in a plugin module with the :data:`hookimpl` marker and register the
module through the ``sandlot`` entry-point group::

    [project.entry-points.sandlot]
    myprovider = "sandlot_myprovider.plugin"

Each hook's docstring states its calling convention. docs/hooks.md documents each one
with an example; a test checks that both stay in step with this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    import click

    from sandlot.approval import ApprovalRequest, Decision
    from sandlot.audit import AuditEvent
    from sandlot.policy import Policy
    from sandlot.provider import NativePolicy, ProviderType, TranslateContext
    from sandlot.results import ExecResult, Violation
    from sandlot.risk.model import Finding
    from sandlot.violations import ViolationContext

PROJECT = "sandlot"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def sandlot_register_providers() -> list[ProviderType]:  # type: ignore[empty-body]
    """Return the provider types this plugin offers.

    Collected: every plugin's list is concatenated. Two plugins registering the same
    provider name is an error naming both plugins.
    """


@hookspec(firstresult=True)
def sandlot_translate_policy(
    provider: str, policy: Policy, options: Any, context: TranslateContext
) -> NativePolicy | None:
    """Turn the generic ``policy`` into ``provider``'s native form (bwrap argv, container args...).

    firstresult: the first non-``None`` answer wins; implementations return ``None`` for
    providers they do not own. A ``wrapper=True`` hookimpl may amend the native form
    (e.g. add a mount) by post-processing the result it receives from ``yield``.
    """


@hookspec
def sandlot_detect_violation(result: ExecResult, context: ViolationContext) -> Violation | None:
    """Inspect a finished command and report what the sandbox blocked, or ``None``.

    Collected: every detector runs; the core keeps the first non-``None`` report in
    hook-call order (later-registered plugins first). ``context`` carries the provider
    name, the command, the effective policy and the resolved filesystem paths.
    """


@hookspec
def sandlot_assess_risk(code: str, language: str) -> list[Finding] | None:
    """Analyze ``code`` written in ``language`` (``"python"``, ``"shell"``...) before it runs.

    Collected: findings of every analyzer are merged into one Assessment. Return
    ``None`` (or an empty list) for languages an analyzer does not handle.
    """


@hookspec(firstresult=True)
def sandlot_approve(request: ApprovalRequest) -> Decision | None:
    """Decide on something the risk gate or the policy stopped (CLI prompt, web UI, agent).

    firstresult: the first non-``None`` decision wins. When no plugin answers, the
    answer is DENY.
    """


@hookspec
def sandlot_register_commands(cli: click.Group) -> None:
    """Add commands to the ``sandlot`` CLI (e.g. ``sandlot docker build-image``).

    Collected: every plugin is called once with the root click group when the CLI starts.
    """


@hookspec
def sandlot_audit_event(event: AuditEvent) -> None:
    """Receive an audit event (sandbox created/destroyed, command run, file operation, approval).

    Collected: every plugin receives every event; return values are ignored. Events never carry
    secret environment values. An exception in one sink is logged and does not stop the others.
    """
