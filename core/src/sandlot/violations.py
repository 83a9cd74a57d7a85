"""Running the violation-detection hook over a finished command."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from sandlot.policy import Policy, ResolvedFilesystem
from sandlot.results import ExecResult

if TYPE_CHECKING:
    import pluggy


@attrs.frozen
class ViolationContext:
    """What a detector knows besides the result."""

    provider: str
    command: str
    policy: Policy
    filesystem: ResolvedFilesystem | None = None
    #: Host paths the provider created to mask denied files, for detectors that check them.
    extra: dict[str, object] = attrs.field(factory=dict)


def detect(pm: pluggy.PluginManager, result: ExecResult, context: ViolationContext) -> ExecResult:
    """``result`` with its ``violation`` filled in by the first detector that reports one."""
    if result.violation is not None:
        return result
    for violation in pm.hook.sandlot_detect_violation(result=result, context=context):
        if violation is not None:
            return attrs.evolve(result, violation=violation)
    return result
