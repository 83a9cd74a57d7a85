"""The violation detector on recorded outputs (no engine needed)."""

from __future__ import annotations

import pytest

from sandlot.policy import NetworkMode, NetworkPolicy, Policy
from sandlot.results import ExecResult, Violation, ViolationKind
from sandlot.violations import ViolationContext
from sandlot_docker.detect import FACTS_KEY, ContainerFacts, sandlot_detect_violation


class Facts(ContainerFacts):
    """Counters scripted by the test instead of read from a cgroup."""

    def __init__(self, counters: list[dict[str, int] | None]) -> None:
        super().__init__(
            None, "c0", memory_limit_mb=64, pids_limit=32, writable=("/work", "/tmp"),
            read_only=("/work/.git/hooks",), masked=("/work/.env", "/work/.ssh"), workdir="/work", uid="1000:1000",
        )
        self.counters = counters
        self.reads = 0

    def _read_counters(self) -> dict[str, int] | None:
        self.reads += 1
        return self.counters.pop(0) if self.counters else None

    def container_oom_killed(self) -> bool:
        return False


def detect(
    stderr: str, *, exit_code: int = 1, facts: Facts | None = None, network: str = "none"
) -> Violation | None:
    facts = facts or Facts([])
    policy = Policy(network=NetworkPolicy(mode=NetworkMode(network)))
    context = ViolationContext(provider="docker", command="x", policy=policy, extra={FACTS_KEY: facts})
    return sandlot_detect_violation(ExecResult(exit_code=exit_code, stderr_bytes=stderr.encode()), context)


@pytest.mark.parametrize(
    ("stderr", "path", "reason"),
    [
        ("cat: .env: Permission denied\n", "/work/.env", "deny"),
        ("cat: /work/.ssh/id_rsa: Permission denied\n", "/work/.ssh/id_rsa", "deny"),
        ("sh: 1: cannot create /etc/x: Read-only file system\n", "/etc/x", "read_write"),
        ("touch: cannot touch '/usr/x': Read-only file system\n", "/usr/x", "read_write"),
        ("mkdir: cannot create directory \u2018/opt/y\u2019: Read-only file system\n", "/opt/y", "read_write"),
        ("OSError: [Errno 30] Read-only file system: '/srv/z'\n", "/srv/z", "read_write"),
        ("touch: cannot touch '.git/hooks/pre-commit': Read-only file system\n", "/work/.git/hooks/pre-commit",
         "read_only"),
        ("PermissionError: [Errno 13] Permission denied: '/root/.profile'\n", "/root/.profile", "uid 1000"),
    ],
)
def test_filesystem(stderr: str, path: str, reason: str) -> None:
    violation = detect(stderr)
    assert violation is not None and violation.kind is ViolationKind.FILESYSTEM
    assert violation.resource == path and reason in violation.reason
    assert violation.evidence


def test_permission_denied_inside_writable_paths_is_not_a_violation() -> None:
    assert detect("cat: /work/mine.txt: Permission denied\n") is None


def test_network_only_under_none() -> None:
    stderr = "curl: (6) Could not resolve host: example.com\n"
    violation = detect(stderr)
    assert violation is not None and violation.kind is ViolationKind.NETWORK and violation.resource == "example.com"
    assert detect(stderr, network="all") is None
    py = detect("OSError: [Errno 101] Network is unreachable\n")
    assert py is not None and py.kind is ViolationKind.NETWORK


def test_memory_from_the_oom_counter() -> None:
    facts = Facts([{"oom": 0, "pids": 0}, {"oom": 1, "pids": 0}])
    facts.mark_baseline()
    violation = detect("Killed\n", exit_code=137, facts=facts)
    assert violation is not None and violation.resource == "memory" and "64 MiB" in violation.reason


def test_kill_without_oom_is_not_memory() -> None:
    facts = Facts([{"oom": 2, "pids": 0}, {"oom": 2, "pids": 0}])
    facts.mark_baseline()
    assert detect("Killed\n", exit_code=137, facts=facts) is None


def test_processes_from_the_pids_counter() -> None:
    facts = Facts([{"oom": 0, "pids": 3}, {"oom": 0, "pids": 9}])
    facts.mark_baseline()
    violation = detect("sh: 1: Cannot fork\n", facts=facts)
    assert violation is not None and violation.resource == "processes" and "(32)" in violation.reason


def test_ordinary_failures_cost_no_counter_read() -> None:
    facts = Facts([])
    assert detect("ls: x: No such file or directory\n", exit_code=2, facts=facts) is None
    assert facts.reads == 0


def test_other_providers_are_ignored() -> None:
    context = ViolationContext(provider="bwrap", command="x", policy=Policy())
    assert sandlot_detect_violation(ExecResult(exit_code=1, stderr_bytes=b"Permission denied"), context) is None
