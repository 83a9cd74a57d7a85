"""The generic policy: defaults that cannot be removed, expansion, resolution, requirements."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandlot.policy import (
    DEFAULT_DENY,
    DEFAULT_READ_ONLY,
    Capability,
    EnvironmentPolicy,
    FilesystemPolicy,
    Limits,
    NetworkMode,
    NetworkPolicy,
    Policy,
    expand_user_vars,
    glob_matches,
    resolve_filesystem,
)


def test_effective_appends_defaults_after_user_entries() -> None:
    policy = Policy(filesystem=FilesystemPolicy(deny=("~/private",), read_only=("./docs",))).effective()
    assert policy.filesystem.deny[0] == "~/private"
    assert set(DEFAULT_DENY) <= set(policy.filesystem.deny)
    assert policy.filesystem.read_only[0] == "./docs"
    assert set(DEFAULT_READ_ONLY) <= set(policy.filesystem.read_only)
    assert policy.effective() == policy  # idempotent


def test_user_config_cannot_remove_defaults() -> None:
    # Even a policy that lists nothing (or repeats a default) ends up with every default.
    policy = Policy(filesystem=FilesystemPolicy(deny=("~/.ssh",))).effective()
    assert policy.filesystem.deny.count("~/.ssh") == 1
    assert set(DEFAULT_DENY) <= set(policy.filesystem.deny)


def test_defaults_cover_the_issue_list() -> None:
    for entry in (
        "~/.ssh",
        "~/.aws",
        "~/.gnupg",
        "~/.config/gcloud",
        "~/.azure",
        "~/.kube",
        "~/.docker",
        "/etc/shadow",
        "**/.env",
        "**/.env.*",
        "**/.envrc",
        "**/credentials.json",
        "**/secrets.json",
    ):
        assert entry in DEFAULT_DENY
    for entry in ("~/.bashrc", "~/.profile", "**/.git/hooks", "**/.git/config"):
        assert entry in DEFAULT_READ_ONLY


def test_expansion_of_home_and_variables() -> None:
    env = {"DATA": "/srv/data", "EMPTY": ""}
    assert expand_user_vars("~/.ssh", home="/home/u", env=env) == "/home/u/.ssh"
    assert expand_user_vars("~", home="/home/u", env=env) == "/home/u"
    assert expand_user_vars("$DATA/x", home="/h", env=env) == "/srv/data/x"
    assert expand_user_vars("${DATA}/y", home="/h", env=env) == "/srv/data/y"
    assert expand_user_vars("$UNKNOWN/z", home="/h", env=env) == "$UNKNOWN/z"
    assert expand_user_vars("/a~b", home="/h", env=env) == "/a~b"


@pytest.mark.parametrize(
    ("path", "pattern", "expected"),
    [
        ("/w/.env", "**/.env", True),
        ("/w/a/b/.env", "**/.env", True),
        ("/w/a/.env.local", "**/.env.*", True),
        ("/w/a/env", "**/.env", False),
        ("/w/a/.envrc", "**/.env", False),
        ("/w/.git/hooks", "**/.git/hooks", True),
        ("/w/sub/.git/hooks", "**/.git/hooks", True),
        ("/w/.git/hooksx", "**/.git/hooks", False),
        ("/home/u/.ssh", "/home/*/.ssh", True),
    ],
)
def test_glob_matches(path: str, pattern: str, expected: bool) -> None:
    assert glob_matches(Path(path), pattern) is expected


def test_resolve_filesystem(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    home = tmp_path / "home"
    work = tmp_path / "work"
    (home / ".ssh").mkdir(parents=True)
    (work / "sub" / ".git" / "hooks").mkdir(parents=True)
    (work / ".env").write_text("SECRET=1")
    (work / "sub" / ".env.prod").write_text("SECRET=2")
    (work / "node_modules" / "x").mkdir(parents=True)
    policy = Policy(
        filesystem=FilesystemPolicy(read_write=(".",), read_only=("$RO",), deny=("~/missing", "/etc/sh*dow"))
    ).effective()
    caplog.set_level("DEBUG", logger="sandlot.policy")
    resolved = resolve_filesystem(policy.filesystem, workdir=work, home=str(home), env={"RO": str(tmp_path / "ro")})
    assert resolved.read_write == (work,)
    assert home / ".ssh" in resolved.deny
    assert work / ".env" in resolved.deny
    assert work / "sub" / ".env.prod" in resolved.deny
    assert work / "sub" / ".git" / "hooks" in resolved.read_only
    assert "**/.env" in resolved.deny_globs
    assert not any("missing" in str(p) for p in resolved.deny)
    assert "does not exist; ignored" in caplog.text
    if os.path.exists("/etc/shadow"):
        assert Path("/etc/shadow") in resolved.deny


def test_read_write_globs_are_rejected(tmp_path: Path) -> None:
    from sandlot.errors import ConfigError

    with pytest.raises(ConfigError, match="globs are not allowed"):
        resolve_filesystem(FilesystemPolicy(read_write=("*.txt",)), workdir=tmp_path)


def test_single_string_instead_of_list_is_rejected() -> None:
    with pytest.raises(TypeError, match="single string"):
        FilesystemPolicy(deny="~/.ssh")  # type: ignore[arg-type]


def test_required_capabilities() -> None:
    default = Policy().effective().required_capabilities()
    assert {
        Capability.FS_CONFINE,
        Capability.FS_DENY,
        Capability.NETWORK_BLOCK,
        Capability.ENVIRONMENT,
        Capability.LIMIT_TIMEOUT,
        Capability.LIMIT_OUTPUT,
    } <= default
    assert Capability.LIMIT_MEMORY not in default
    open_net = Policy(network=NetworkPolicy(mode=NetworkMode.ALL), limits=Limits(memory_mb=512, processes=64))
    need = open_net.required_capabilities()
    assert Capability.NETWORK_BLOCK not in need
    assert {Capability.LIMIT_MEMORY, Capability.LIMIT_PROCESSES} <= need
    allow = Policy(network=NetworkPolicy(mode=NetworkMode.ALLOWLIST, allow_hosts=("pypi.org",)))
    assert Capability.NETWORK_ALLOWLIST in allow.required_capabilities()


def test_environment_inherits_nothing_by_default() -> None:
    host = {"PATH": "/host/bin", "AWS_SECRET_ACCESS_KEY": "x", "HOME": "/root", "LANG": "de_DE"}
    env = EnvironmentPolicy().build(host)
    assert "AWS_SECRET_ACCESS_KEY" not in env
    assert env["PATH"] != "/host/bin"
    env = EnvironmentPolicy(inherit=("LANG", "MISSING"), set={"PATH": "/x", "FOO": "bar"}).build(host)
    assert env["LANG"] == "de_DE" and env["PATH"] == "/x" and env["FOO"] == "bar"
    assert "MISSING" not in env


@pytest.mark.parametrize(
    ("path", "pattern", "expected"),
    [
        ("/w/.envs/settings.py", "**/.env*", False),
        ("/w/.envs", "**/.env*", True),
        ("/w/a/credentials.json", "**/credentials.json", True),
        ("/home/u/x/.ssh", "/home/*/.ssh", False),
    ],
)
def test_glob_wildcards_stay_within_one_component(path: str, pattern: str, expected: bool) -> None:
    assert glob_matches(Path(path), pattern) is expected
