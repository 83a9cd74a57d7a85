"""Value objects returned by sandboxes: command results, violations, output chunks."""

from __future__ import annotations

import enum

import attrs


class ViolationKind(enum.StrEnum):
    """What kind of boundary a blocked operation ran into."""

    FILESYSTEM = "filesystem"
    NETWORK = "network"
    PROCESS = "process"
    RESOURCE = "resource"
    POLICY = "policy"


@attrs.frozen
class Violation:
    """A structured report that the sandbox blocked something.

    ``resource`` names what was touched: a path, a host, or a limit name such as
    ``memory``. ``evidence`` holds the output lines the report was derived from.
    """

    kind: ViolationKind
    resource: str
    reason: str
    evidence: tuple[str, ...] = ()

    def one_line(self) -> str:
        """The report as a single human-readable line (used by the CLI)."""
        return f"sandlot: blocked ({self.kind.value}): {self.resource}: {self.reason}"


@attrs.frozen
class Truncation:
    """How one output stream was cut: head and tail kept, the middle dropped."""

    original_bytes: int
    kept_head: int
    kept_tail: int

    @property
    def dropped(self) -> int:
        return self.original_bytes - self.kept_head - self.kept_tail


def _decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


@attrs.frozen
class ExecResult:
    """The outcome of one command.

    ``stdout_bytes``/``stderr_bytes`` are exact (possibly truncated) bytes; ``stdout`` and
    ``stderr`` are their UTF-8 decoding with invalid sequences replaced.
    ``state_lost_before`` says the shell had died and was rebuilt before this command ran
    (cwd, exported variables were reset); ``state_lost_after`` says this command ended
    the shell (it exited, or a timeout could not be stopped without killing it), so the
    next command starts in a fresh one.
    """

    exit_code: int
    stdout_bytes: bytes = b""
    stderr_bytes: bytes = b""
    duration: float = 0.0
    timed_out: bool = False
    stdout_truncation: Truncation | None = None
    stderr_truncation: Truncation | None = None
    violation: Violation | None = None
    state_lost_before: bool = False
    state_lost_after: bool = False

    @property
    def stdout(self) -> str:
        return _decode(self.stdout_bytes)

    @property
    def stderr(self) -> str:
        return _decode(self.stderr_bytes)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    @property
    def truncated(self) -> bool:
        return self.stdout_truncation is not None or self.stderr_truncation is not None

    @property
    def output(self) -> str:
        """One text for an agent: stdout, then stderr, then notices for what went wrong."""
        parts = [self.stdout]
        if self.stderr:
            if parts[0] and not parts[0].endswith("\n"):
                parts.append("\n")
            parts.append(self.stderr)
        notices = []
        for name, cut in (("stdout", self.stdout_truncation), ("stderr", self.stderr_truncation)):
            if cut is not None:
                notices.append(
                    f"[{name} truncated: {cut.original_bytes} bytes, kept first {cut.kept_head} "
                    f"and last {cut.kept_tail}]"
                )
        if self.timed_out:
            notices.append(f"[timed out after {self.duration:.1f}s; the process tree was killed]")
        if self.state_lost_before:
            notices.append("[the shell had died and was restarted: cwd and variables were reset]")
        if self.violation is not None:
            notices.append(f"[{self.violation.one_line()}]")
        if self.exit_code != 0 and not self.timed_out:
            notices.append(f"[exit code {self.exit_code}]")
        text = "".join(parts)
        if notices:
            if text and not text.endswith("\n"):
                text += "\n"
            text += "\n".join(notices)
        return text


@attrs.frozen
class OutputChunk:
    """A piece of output as it arrived, yielded by ``Sandbox.stream``."""

    stream: str  # "stdout" or "stderr"
    data: bytes

    @property
    def text(self) -> str:
        return _decode(self.data)
