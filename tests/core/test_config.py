"""Configuration: sources, precedence, origins and readable errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandlot.config import Config, Enforcement, config_from_data, load_config, user_config_path
from sandlot.errors import ConfigError
from sandlot.policy import NetworkMode
from sandlot.risk.model import RiskLevel


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_defaults_without_any_file(workdir: Path) -> None:
    loaded = load_config(env={})
    assert loaded.config == Config()
    assert loaded.sources == ()
    assert loaded.origin("policy.network.mode") == "default"


def test_precedence_and_origins(workdir: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    write(user_config_path(), 'provider = "user"\n[policy.limits]\ntimeout = 1\nmemory_mb = 1\ncpu_seconds = 1\n')
    write(
        workdir / "pyproject.toml",
        '[tool.sandlot]\nprovider = "pyproject"\n[tool.sandlot.policy.limits]\ntimeout = 2\nmemory_mb = 2\n',
    )
    write(workdir / "sandlot.toml", 'provider = "local-file"\n[policy.limits]\ntimeout = 3\n')
    other = tmp_path_factory.mktemp("cfg")
    env_file = write(other / "env.toml", '[policy.network]\nmode = "all"\n')
    cli_file = write(other / "cli.toml", 'enforcement = "best-effort"\n')

    loaded = load_config(cli_file, env={"SANDLOT_CONFIG": str(env_file), "SANDLOT_PROVIDER": "from-env"})
    config = loaded.config
    assert config.provider == "from-env"
    assert config.policy.limits.timeout == 3
    assert config.policy.limits.memory_mb == 2
    assert config.policy.limits.cpu_seconds == 1
    assert config.policy.network.mode is NetworkMode.ALL
    assert config.enforcement is Enforcement.BEST_EFFORT
    assert loaded.origin("provider") == "SANDLOT_PROVIDER"
    assert loaded.origin("policy.limits.timeout") == str(workdir / "sandlot.toml")
    assert loaded.origin("policy.limits.memory_mb").endswith("pyproject.toml [tool.sandlot]")
    assert loaded.origin("policy.limits.cpu_seconds") == str(user_config_path())
    assert loaded.origin("policy.network.mode").endswith("(SANDLOT_CONFIG)")
    assert loaded.origin("enforcement").endswith("(--config)")
    assert loaded.origin("policy.limits.open_files") == "default"


def test_lists_are_replaced_not_merged(workdir: Path) -> None:
    write(workdir / "pyproject.toml", '[tool.sandlot.policy.filesystem]\ndeny = ["a", "b"]\n')
    write(workdir / "sandlot.toml", '[policy.filesystem]\ndeny = ["c"]\n')
    assert load_config(env={}).config.policy.filesystem.deny == ("c",)


def test_pyproject_without_section_is_ignored(workdir: Path) -> None:
    write(workdir / "pyproject.toml", '[project]\nname = "x"\n')
    assert load_config(env={}).sources == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('provder = "x"\n', "unknown key(s) provder"),
        ('[policy.limits]\ntimeout = "soon"\n', "policy.limits.timeout: expected float, got str 'soon'"),
        ("[policy.limits]\nmemory_mb = 1.5\n", "policy.limits.memory_mb: expected int, got float 1.5"),
        ("[policy.limits]\nprocesses = true\n", "policy.limits.processes: expected int, got bool True"),
        ("enabled = 1\n", "enabled: expected bool, got int 1"),
        ('[policy.network]\nmode = "some"\n', "policy.network.mode: expected one of 'none', 'all', 'allowlist'"),
        ('[policy.filesystem]\ndeny = "~/.ssh"\n', "policy.filesystem.deny"),
        ('[risk]\napproval_threshold = "severe"\n', "risk.approval_threshold: expected one of"),
        ('enforcement = "lenient"\n', "enforcement: expected one of 'strict', 'best-effort'"),
        ("[policy.filesystem]\nextra = 1\n", "policy.filesystem: unknown key(s) extra (allowed: read_write"),
    ],
)
def test_invalid_values_name_file_key_and_expectation(workdir: Path, text: str, expected: str) -> None:
    path = write(workdir / "sandlot.toml", text)
    with pytest.raises(ConfigError) as info:
        load_config(env={})
    message = str(info.value)
    assert message.startswith(str(path))
    assert expected in message
    assert info.value.exit_status == 2


def test_all_problems_are_reported_at_once(workdir: Path) -> None:
    write(workdir / "sandlot.toml", '[policy.limits]\ntimeout = "x"\nmemory_mb = "y"\n')
    with pytest.raises(ConfigError) as info:
        load_config(env={})
    assert "policy.limits.timeout" in str(info.value) and "policy.limits.memory_mb" in str(info.value)


def test_malformed_toml(workdir: Path) -> None:
    write(workdir / "sandlot.toml", 'provider = "bwrap\n')
    with pytest.raises(ConfigError, match=r"sandlot.toml: malformed TOML: .*line 1"):
        load_config(env={})


def test_missing_config_file(workdir: Path) -> None:
    with pytest.raises(ConfigError, match=r"nope.toml \(--config\): file not found"):
        load_config(workdir / "nope.toml", env={})
    with pytest.raises(ConfigError, match=r"\(SANDLOT_CONFIG\): file not found"):
        load_config(env={"SANDLOT_CONFIG": str(workdir / "gone.toml")})


def test_error_names_the_file_it_is_in_even_when_overridden(workdir: Path) -> None:
    bad = write(workdir / "pyproject.toml", '[tool.sandlot.policy.limits]\ntimeout = "x"\n')
    write(workdir / "sandlot.toml", "[policy.limits]\ntimeout = 5\n")
    with pytest.raises(ConfigError, match=str(bad)):
        load_config(env={})


def test_config_from_data() -> None:
    config = config_from_data({"provider": "docker", "risk": {"approval_threshold": "critical"}})
    assert config.provider == "docker"
    assert config.risk.approval_threshold is RiskLevel.CRITICAL
    with pytest.raises(ConfigError, match="<data>: invalid configuration"):
        config_from_data({"provider": 3})


def test_round_trip_through_data() -> None:
    config = config_from_data(
        {"policy": {"filesystem": {"deny": ["x"]}, "environment": {"set": {"A": "1"}}}, "providers": {"d": {"k": 1}}}
    )
    assert config_from_data(config.to_data()) == config
