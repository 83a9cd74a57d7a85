"""The local provider's native policy form: how the host shell is started."""

from __future__ import annotations

import resource
from collections.abc import Mapping
from typing import Any

import attrs

from sandlot.policy import Limits, Policy
from sandlot.popen_shell import shell_argv
from sandlot.provider import TranslateContext

_RLIMIT_NAMES = {
    resource.RLIMIT_AS: "RLIMIT_AS",
    resource.RLIMIT_CPU: "RLIMIT_CPU",
    resource.RLIMIT_FSIZE: "RLIMIT_FSIZE",
    resource.RLIMIT_NOFILE: "RLIMIT_NOFILE",
}


def rlimits_for(limits: Limits) -> dict[int, int]:
    """The rlimits that implement ``limits`` on one process tree."""
    mib = 1024 * 1024
    table: dict[int, int] = {}
    if limits.memory_mb is not None:
        table[resource.RLIMIT_AS] = limits.memory_mb * mib
    if limits.cpu_seconds is not None:
        table[resource.RLIMIT_CPU] = limits.cpu_seconds
    if limits.file_size_mb is not None:
        table[resource.RLIMIT_FSIZE] = limits.file_size_mb * mib
    if limits.open_files is not None:
        table[resource.RLIMIT_NOFILE] = limits.open_files
    return table


@attrs.frozen
class LocalLaunch:
    """argv, working directory, environment and rlimits of the host shell."""

    argv: tuple[str, ...]
    cwd: str
    env: Mapping[str, str]
    rlimits: Mapping[int, int]

    def explain(self) -> str:
        limits = ", ".join(f"{_RLIMIT_NAMES.get(k, k)}={v}" for k, v in self.rlimits.items()) or "none"
        env = " ".join(f"{k}={v}" for k, v in sorted(self.env.items()))
        shell = " ".join(self.argv[:-3] if "-c" in self.argv else self.argv)
        return (
            "local provider: NO isolation (host filesystem and network are reachable)\n"
            f"shell: {shell} -c <session driver>\n"
            f"cwd: {self.cwd}\n"
            f"environment: {env}\n"
            f"rlimits: {limits}"
        )

    def to_data(self) -> Mapping[str, Any]:
        return {
            "isolation": False,
            "argv": list(self.argv),
            "cwd": self.cwd,
            "env": dict(self.env),
            "rlimits": {_RLIMIT_NAMES.get(k, str(k)): v for k, v in self.rlimits.items()},
        }


def translate(policy: Policy, shell: str, context: TranslateContext) -> LocalLaunch:
    env = dict(context.environment)
    env.setdefault("HOME", str(context.workdir))
    return LocalLaunch(
        argv=tuple(shell_argv(shell)),
        cwd=str(context.workdir),
        env=env,
        rlimits=rlimits_for(policy.limits),
    )
