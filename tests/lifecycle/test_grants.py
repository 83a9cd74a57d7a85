"""Grants: which one a violation gets, how it changes a policy, persistence, default entries."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandlot.config import config_from_data, load_config, user_config_path
from sandlot.errors import ConfigError
from sandlot.grants import Grant, GrantKind, Refusal, apply_grants, grant_for, persist_grant
from sandlot.policy import DEFAULT_DENY, DEFAULT_READ_ONLY, FilesystemPolicy, NetworkMode, Policy
from sandlot.results import Violation, ViolationKind


def fs_violation(path: str | Path, reason: str = "write denied") -> Violation:
    return Violation(ViolationKind.FILESYSTEM, str(path), reason)


def test_write_outside_grants_the_existing_path_or_its_directory(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (tmp_path / "data").mkdir()
    policy = Policy()
    assert grant_for(fs_violation(tmp_path / "data"), policy, workdir=work) == Grant(
        GrantKind.WRITE, str(tmp_path / "data")
    )
    assert grant_for(fs_violation(tmp_path / "data" / "new.txt"), policy, workdir=work) == Grant(
        GrantKind.WRITE, str(tmp_path / "data")
    )
    refused = grant_for(fs_violation(tmp_path / "missing" / "new.txt"), policy, workdir=work)
    assert isinstance(refused, Refusal) and "nothing to make writable" in refused.reason


def test_user_entries_are_lifted_one_at_a_time(tmp_path: Path) -> None:
    policy = Policy(filesystem=FilesystemPolicy(read_write=(".",), read_only=("./docs",), deny=("**/*.pem",)))
    assert grant_for(fs_violation(tmp_path / "docs" / "a.md"), policy, workdir=tmp_path) == Grant(
        GrantKind.WRITE, "./docs"
    )
    assert grant_for(fs_violation(tmp_path / "k.pem", "access denied"), policy, workdir=tmp_path) == Grant(
        GrantKind.UNDENY, "**/*.pem"
    )
    granted = apply_grants(policy, [Grant(GrantKind.WRITE, "./docs"), Grant(GrantKind.UNDENY, "**/*.pem")])
    assert granted.filesystem.read_only == () and granted.filesystem.deny == ()
    assert granted.filesystem.read_write == (".", "./docs")
    refused = grant_for(fs_violation(tmp_path / "a.txt"), policy, workdir=tmp_path)
    assert isinstance(refused, Refusal) and "already writable" in refused.reason


@pytest.mark.parametrize("entry", ["~/.ssh", "**/.env", "~/.bashrc", "**/.git/hooks"])
def test_defaults_are_never_granted(entry: str, tmp_path: Path) -> None:
    home = os.path.expanduser("~")
    path = {"~/.ssh": f"{home}/.ssh/id_ed25519", "**/.env": f"{tmp_path}/.env",
            "~/.bashrc": f"{home}/.bashrc", "**/.git/hooks": f"{tmp_path}/.git/hooks/pre-commit"}[entry]
    # Even when the user also lists the entry themselves, only exempt lifts it.
    policy = Policy(filesystem=FilesystemPolicy(deny=(entry,), read_only=(entry,)))
    refused = grant_for(fs_violation(path), policy, workdir=tmp_path)
    assert isinstance(refused, Refusal) and repr(entry) in refused.reason
    opted_out = Policy(filesystem=FilesystemPolicy(deny=(entry,), exempt=(entry,)))
    assert grant_for(fs_violation(path), opted_out, workdir=tmp_path) == Grant(GrantKind.UNDENY, entry)


def test_no_grant_can_remove_a_default_from_the_effective_policy() -> None:
    every = [Grant(GrantKind.UNDENY, e) for e in DEFAULT_DENY] + [Grant(GrantKind.WRITE, e) for e in DEFAULT_READ_ONLY]
    effective = apply_grants(Policy(), every).effective()
    assert set(DEFAULT_DENY) <= set(effective.filesystem.deny)
    assert set(DEFAULT_READ_ONLY) <= set(effective.filesystem.read_only)


def test_exempt_drops_exactly_that_entry() -> None:
    effective = Policy(filesystem=FilesystemPolicy(exempt=("~/.aws", "~/.bashrc"))).effective()
    assert "~/.aws" not in effective.filesystem.deny and "~/.bashrc" not in effective.filesystem.read_only
    assert set(DEFAULT_DENY) - {"~/.aws"} <= set(effective.filesystem.deny)
    assert effective.effective() == effective


def test_exempt_accepts_only_built_in_entries() -> None:
    with pytest.raises(ConfigError, match="'~/private' is not a built-in default entry"):
        config_from_data({"policy": {"filesystem": {"exempt": ["~/private"]}}})
    with pytest.raises(ValueError):
        FilesystemPolicy(exempt=("~/.ssh/",))


def test_system_directories_and_other_kinds_are_refused(tmp_path: Path) -> None:
    for path in ("/usr/lib/x", "/etc/passwd", "/opt"):
        assert isinstance(grant_for(fs_violation(path), Policy(), workdir=tmp_path), Refusal), path
    resource = Violation(ViolationKind.RESOURCE, "memory", "limit")
    assert isinstance(grant_for(resource, Policy(), workdir=tmp_path), Refusal)
    unix = Violation(ViolationKind.NETWORK, "unix:/run/docker.sock", "seccomp")
    assert isinstance(grant_for(unix, Policy(), workdir=tmp_path), Refusal)
    net = Violation(ViolationKind.NETWORK, "example.org:443", "blocked")
    grant = grant_for(net, Policy(), workdir=tmp_path)
    assert grant == Grant(GrantKind.NETWORK)
    assert isinstance(grant, Grant) and grant.apply(Policy()).network.mode is NetworkMode.ALL


def test_persist_keeps_comments_dedups_and_loads(tmp_path: Path) -> None:
    path = user_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    original = (
        "# sandlot user settings\n"
        "[policy.network]\n"
        'mode = "none"   # stay offline\n'
        "\n"
        "[approval]\n"
        "max_rounds = 2\n"
        'grants = [{kind = "network"}]\n'
    )
    path.write_text(original)
    grant = Grant(GrantKind.WRITE, "/srv/data")
    assert persist_grant(grant) == path
    persist_grant(grant)
    text = path.read_text()
    assert "# sandlot user settings" in text and "# stay offline" in text and "max_rounds = 2" in text
    assert text.count("/srv/data") == 1
    config = load_config(cwd=tmp_path).config
    assert config.approval.grants == (Grant(GrantKind.NETWORK), grant)
    assert config.approval.max_rounds == 2


def test_persist_refuses_to_write_an_invalid_file() -> None:
    path = user_config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[approval]\nunknown_key = 1\n")
    with pytest.raises(ConfigError, match="unknown_key"):
        persist_grant(Grant(GrantKind.NETWORK))
    assert path.read_text() == "[approval]\nunknown_key = 1\n"


def test_grants_config_is_strict() -> None:
    with pytest.raises(ConfigError, match=r"approval\.grants"):
        config_from_data({"approval": {"grants": [{"kind": "everything"}]}})
    with pytest.raises(ConfigError):
        config_from_data({"approval": {"max_rounds": 0}})
