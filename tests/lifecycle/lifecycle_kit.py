"""Helpers for the lifecycle tests (imported as a plain module, like tests/docker/docker_kit.py):
a scripted approver, an audit collector, a policy-enforcing stand-in detector for the local
provider, and provider availability.

The local provider isolates nothing, so on it violations come from :class:`PolicyDetector`:
``needs-write PATH`` / ``needs-read PATH`` commands report a Violation when the policy
*of the sandbox that ran them* does not allow the access — exactly what an enforcing
provider does, which makes grants, rebuilds and defaults observable. bwrap and Docker
tests use their real enforcement.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from sandlot.approval import ApprovalRequest, Decision
from sandlot.audit import AuditEvent
from sandlot.config import Config
from sandlot.hookspecs import hookimpl
from sandlot.plugins import create_plugin_manager
from sandlot.policy import expand_user_vars, glob_matches, is_glob
from sandlot.results import ExecResult, Violation, ViolationKind
from sandlot.violations import ViolationContext

DOCKER_IMAGE = os.environ.get("SANDLOT_DOCKER_TEST_IMAGE", "sandlot-test:bookworm")
SANDBOX_UID = 1000


def _covers(entries: tuple[str, ...], path: Path, workdir: Path) -> bool:
    for entry in entries:
        text = expand_user_vars(entry, home=os.path.expanduser("~"), env=os.environ)
        if is_glob(text):
            if glob_matches(path, text):
                return True
            continue
        root = Path(text) if Path(text).is_absolute() else workdir / text
        root = Path(os.path.normpath(root))
        if path == root or root in path.parents:
            return True
    return False


class PolicyDetector:
    """Reports what an enforcing provider would block, from the sandbox's own policy."""

    def __init__(self) -> None:
        self.workdir = Path("/")

    @hookimpl
    def sandlot_detect_violation(self, result: ExecResult, context: ViolationContext) -> Violation | None:
        if context.provider != "local":
            return None
        words = context.command.split()
        if len(words) != 2 or words[0] not in ("needs-write", "needs-read", "needs-network"):
            return None
        fs = context.policy.filesystem
        if words[0] == "needs-network":
            if context.policy.network.mode.value == "none":
                return Violation(ViolationKind.NETWORK, words[1], "network access blocked")
            return None
        path = Path(words[1])
        if _covers(fs.deny, path, self.workdir):
            return Violation(ViolationKind.FILESYSTEM, str(path), "access denied by the policy")
        if words[0] == "needs-write" and (
            not _covers(fs.read_write, path, self.workdir) or _covers(fs.read_only, path, self.workdir)
        ):
            return Violation(ViolationKind.FILESYSTEM, str(path), "write denied: outside the writable paths")
        return None


class Approver:
    """Answers approval requests from a script of decisions (then ``default``)."""

    def __init__(self, *decisions: Decision | None, default: Decision | None = None) -> None:
        self.decisions = list(decisions)
        self.default = default
        self.requests: list[ApprovalRequest] = []

    @hookimpl
    def sandlot_approve(self, request: ApprovalRequest) -> Decision | None:
        self.requests.append(request)
        return self.decisions.pop(0) if self.decisions else self.default


class AuditCollector:
    def __init__(self) -> None:
        self.events: list[AuditEvent] = []

    @hookimpl
    def sandlot_audit_event(self, event: AuditEvent) -> None:
        self.events.append(event)

    def kinds(self, session: str | None = None) -> list[str]:
        return [e.kind.value for e in self.events if session is None or e.session == session]


# --------------------------------------------------------------------------- providers

def bwrap_reason() -> str:
    try:
        from sandlot_bwrap import availability
    except ImportError:
        return "sandlot-bwrap is not installed (pip install -e ./plugins/bwrap)"
    status = availability.check("bwrap")
    return "" if status.ok else f"bwrap cannot run here: {status.reason}"


def docker_reason() -> str:
    """Why Docker tests skip; empty when an engine answers (a missing image then fails them)."""
    try:
        from sandlot_docker.provider import availability
    except ImportError:
        return "sandlot-docker is not installed (pip install -e ./plugins/docker)"
    status = availability()
    return "" if status.ok else f"no Docker engine reachable: {status.reason}"


PROVIDERS = ("local", "bwrap", "docker")


def provider_config(name: str, **extra: Any) -> Config:
    providers = {"docker": {"image": DOCKER_IMAGE}} if name == "docker" else {}
    return Config(provider=name, providers=providers, **extra)


def docker_containers(label: str) -> list[str]:
    """Names of containers carrying ``label`` (key=value), straight from the engine."""
    if shutil.which("docker") is None:
        from sandlot_docker.engine import connect

        return [c["Names"][0] for c in connect().containers(all=True, filters={"label": [label]})]
    out = subprocess.run(
        ["docker", "ps", "-a", "--filter", f"label={label}", "--format", "{{.Names}}"],
        capture_output=True, text=True, check=True,
    )
    return [line for line in out.stdout.splitlines() if line]




def make_pm(*plugins: object) -> Any:
    pm = create_plugin_manager()
    for index, plugin in enumerate(plugins):
        pm.register_plugin(plugin, f"test-{index}-{type(plugin).__name__}")
    return pm
