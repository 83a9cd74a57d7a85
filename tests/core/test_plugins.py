"""The plugin manager: built-ins, entry points, blocking, tracing, and clear errors."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sandlot.errors import PluginError
from sandlot.hookspecs import hookimpl
from sandlot.plugins import create_plugin_manager
from sandlot.provider import ProviderType
from sandlot.registry import ProviderRegistry

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "tests" / "fixtures" / "sandlot-demo-plugin"


def fake_distribution(root: Path, name: str, module: str, source: str) -> None:
    """A distribution as pip leaves it on disk: a module and a .dist-info with entry points."""
    (root / f"{module}.py").write_text(source)
    info = root / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[sandlot]\n{name} = {module}\n")


def test_throwaway_plugin_registers_a_provider() -> None:
    pm = create_plugin_manager(load_entry_points=False)

    class Throwaway:
        @hookimpl
        def sandlot_register_providers(self) -> list[ProviderType]:
            return [ProviderType(name="throwaway", factory=lambda ctx: None)]  # type: ignore[arg-type,return-value]

    pm.register_plugin(Throwaway(), "throwaway-plugin", distribution="tests")
    entry = ProviderRegistry(pm).get("throwaway")
    assert entry.plugin.name == "throwaway-plugin" and entry.plugin.distribution == "tests"


def test_builtin_risk_plugin_is_loaded() -> None:
    pm = create_plugin_manager(load_entry_points=False)
    assert "risk" in pm.infos


def test_entry_point_plugins_are_discovered() -> None:
    pm = create_plugin_manager()
    assert "local" in pm.infos
    assert pm.infos["local"].distribution == "sandlot-local"
    assert "local" in ProviderRegistry(pm).names()


def test_disable_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDLOT_DISABLE_PLUGINS", "local, risk")
    pm = create_plugin_manager()
    assert "local" not in pm.infos and "risk" not in pm.infos
    assert "local" not in ProviderRegistry(pm).names()


def test_broken_plugin_import_names_plugin_and_distribution(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_distribution(tmp_path, "sandlot-broken", "sandlot_broken_mod", "import no_such_module_anywhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        create_plugin_manager()
    message = str(info.value)
    assert "'sandlot-broken'" in message and "distribution sandlot-broken 1.0" in message
    assert "ModuleNotFoundError" in message and "SANDLOT_DISABLE_PLUGINS=sandlot-broken" in message
    monkeypatch.setenv("SANDLOT_DISABLE_PLUGINS", "sandlot-broken")
    assert "sandlot-broken" not in create_plugin_manager().infos


def test_unknown_hook_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = "from sandlot.hookspecs import hookimpl\n@hookimpl\ndef sandlot_register_providerz():\n    return []\n"
    fake_distribution(tmp_path, "sandlot-typo", "sandlot_typo_mod", source)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError, match=r"'sandlot-typo'.*unknown hook\(s\) sandlot_register_providerz"):
        create_plugin_manager()


def test_wrong_hook_arguments_are_an_error() -> None:
    pm = create_plugin_manager(load_entry_points=False)

    class Wrong:
        @hookimpl
        def sandlot_assess_risk(self, source: str) -> None:
            return None

    with pytest.raises(PluginError, match=r"'wrong'.*could not be registered"):
        pm.register_plugin(Wrong(), "wrong")


def test_duplicate_provider_names_are_an_error() -> None:
    pm = create_plugin_manager(load_entry_points=False)
    for plugin_name in ("first", "second"):

        class Dup:
            @hookimpl
            def sandlot_register_providers(self) -> list[ProviderType]:
                return [ProviderType(name="same", factory=lambda ctx: None)]  # type: ignore[arg-type,return-value]

        pm.register_plugin(Dup(), plugin_name)
    with pytest.raises(PluginError, match=r"'same' is registered twice: by plugin"):
        ProviderRegistry(pm)


def test_registering_something_else_is_an_error() -> None:
    pm = create_plugin_manager(load_entry_points=False)

    class Bad:
        @hookimpl
        def sandlot_register_providers(self) -> list[object]:
            return ["bwrap"]

    pm.register_plugin(Bad(), "bad")
    with pytest.raises(PluginError, match=r"'bad'.*registered 'bwrap', which is not a sandlot.provider.ProviderType"):
        ProviderRegistry(pm)


def test_register_hook_that_raises_is_reported() -> None:
    pm = create_plugin_manager(load_entry_points=False)

    class Raises:
        @hookimpl
        def sandlot_register_providers(self) -> list[ProviderType]:
            raise RuntimeError("boom")

    pm.register_plugin(Raises(), "raises")
    with pytest.raises(PluginError, match=r"'raises'.*RuntimeError: boom"):
        ProviderRegistry(pm)


def test_trace_logs_hook_calls(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv("SANDLOT_TRACE_PLUGINS", "1")
    pm = create_plugin_manager()
    with caplog.at_level(logging.DEBUG, logger="sandlot.plugins"):
        ProviderRegistry(pm).names()
        pm.hook.sandlot_register_providers()
    assert "hook sandlot_register_providers called" in caplog.text
    assert "returned" in caplog.text


@pytest.mark.slow
def test_installed_distribution_is_discovered_through_its_entry_point(tmp_path: Path) -> None:
    """pip-install a real plugin distribution and let a fresh interpreter find it."""
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(DEMO),
        ],
        check=True,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    listed = subprocess.run(
        [sys.executable, "-m", "sandlot.cli", "providers", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    demo = next(row for row in json.loads(listed.stdout) if row["name"] == "demo")
    assert demo["distribution"] == "sandlot-demo-plugin" and demo["version"] == "0.0.1"
    assert demo["available"] is False and demo["reason"] == "demo only"
    hello = subprocess.run(
        [sys.executable, "-m", "sandlot.cli", "demo-hello"], env=env, capture_output=True, text=True, check=True
    )
    assert hello.stdout == "hello from sandlot-demo-plugin\n"
