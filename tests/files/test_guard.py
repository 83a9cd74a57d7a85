"""The file-operation guard: the policy's deny/read-only entries and globs, checked before any backend."""

from __future__ import annotations

from pathlib import PurePosixPath

from hypothesis import given, settings
from hypothesis import strategies as st

from sandlot.files.guard import FileGuard, globs_regex
from sandlot.policy import DEFAULT_DENY, DEFAULT_READ_ONLY, FilesystemPolicy, Policy, glob_matches

GLOBS = (
    *(g for g in DEFAULT_DENY + DEFAULT_READ_ONLY if "*" in g),
    "**/*.pem",
    "*.json",
    "/srv/*/secret",
    "/srv/data",
    "sub/[ab]*",
    "**/id_[!x]sa",
    "?.key",
)
COMPONENTS = [".env", ".env.local", ".envrc", "a", "b", "ab", ".git", "hooks", "config", "srv", "data", "secret",
              "credentials.json", "x.pem", "sub", "id_rsa", "id_xsa", "k.key", "kk.key", "sub"]


def reference(path: str, globs: tuple[str, ...]) -> bool:
    """What the guard must agree with: glob_matches on the path or any ancestor but /."""
    candidate = PurePosixPath(path)
    return any(glob_matches(c, g) for c in (candidate, *candidate.parents) if str(c) != "/" for g in globs)


@settings(max_examples=600, deadline=None)
@given(parts=st.lists(st.sampled_from(COMPONENTS), min_size=1, max_size=6))
def test_compiled_globs_agree_with_glob_matches(parts: list[str]) -> None:
    path = "/" + "/".join(parts)
    guard = FileGuard(deny_globs=GLOBS)
    assert (guard.denied_by(path) is not None) == reference(path, GLOBS), path


def test_the_matching_entry_is_named() -> None:
    guard = FileGuard(deny=("/home/u/.ssh",), deny_globs=("**/.env", "**/*.pem"), read_only_globs=("**/.git/hooks",))
    assert guard.denied_by("/home/u/.ssh/id_rsa") == "/home/u/.ssh"
    assert guard.denied_by("/w/app/.env") == "**/.env"
    assert guard.denied_by("/w/.env/inner") == "**/.env"  # below a denied directory
    assert guard.denied_by("/w/certs/server.pem") == "**/*.pem"
    assert guard.denied_by("/w/.envs/x") is None and guard.denied_by("/") is None
    assert guard.read_only_by("/w/.git/hooks/pre-commit") == "**/.git/hooks"
    assert globs_regex(()) is None


def test_of_policy_expands_home_and_relative_entries(tmp_path) -> None:  # type: ignore[no-untyped-def]
    policy = Policy(filesystem=FilesystemPolicy(deny=("~/keys", "private", "*.secret"), read_only=("docs",)))
    guard = FileGuard.of(policy.effective().filesystem, workdir=str(tmp_path), home="/home/agent")
    assert guard.denied_by("/home/agent/keys/a") == "/home/agent/keys"
    assert guard.denied_by(f"{tmp_path}/private/x") == f"{tmp_path}/private"
    assert guard.denied_by(f"{tmp_path}/a.secret") == f"{tmp_path}/*.secret"
    assert guard.denied_by("/home/agent/.ssh/id_rsa") == "/home/agent/.ssh"  # built-in entries too
    assert guard.read_only_by(f"{tmp_path}/docs/x") == f"{tmp_path}/docs"
