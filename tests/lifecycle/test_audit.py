"""Audit events: the hook, failing sinks, redaction, the JSON-lines sink's routing."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from lifecycle_kit import AuditCollector, make_pm

from sandlot.audit import REDACTED, AuditConfig, AuditEvent, AuditKind, Auditor, Redactor, emit
from sandlot.config import config_from_data
from sandlot.errors import ConfigError
from sandlot.hookspecs import hookimpl
from sandlot.policy import EnvironmentPolicy, Policy


class Failing:
    @hookimpl
    def sandlot_audit_event(self, event: AuditEvent) -> None:
        raise RuntimeError("sink down")


def test_a_failing_sink_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    first, second = AuditCollector(), AuditCollector()
    pm = make_pm(first, Failing(), second)
    event = AuditEvent(AuditKind.CREATE, "local", "s-1", "box")
    with caplog.at_level(logging.ERROR):
        emit(pm, event)
    assert first.events == [event] and second.events == [event]
    assert "sink down" in caplog.text


def test_redaction_of_policy_inherited_and_secret_looking_values() -> None:
    policy = Policy(environment=EnvironmentPolicy(inherit=("DB_URL",), set={"PIP_NO_INPUT": "1", "TOKEN": "abcd1234"}))
    host = {"DB_URL": "postgres://u:pw@db/x", "GITHUB_TOKEN": "ghp_secretvalue", "HOME": "/home/me"}
    redactor = Redactor.for_policy(policy, host).plus({"X": "per-command-secret"})
    text = "curl postgres://u:pw@db/x ghp_secretvalue abcd1234 per-command-secret /home/me C.UTF-8 1"
    assert redactor.text(text) == f"curl {REDACTED} {REDACTED} {REDACTED} {REDACTED} /home/me C.UTF-8 1"
    assert redactor.data({"a": [text], "n": 3}) == {"a": [redactor.text(text)], "n": 3}


def test_auditor_fails_closed_when_the_sink_is_disabled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SANDLOT_DISABLE_PLUGINS", "audit")
    from sandlot.plugins import create_plugin_manager

    pm = create_plugin_manager(load_entry_points=False)
    with pytest.raises(ConfigError, match="audit sink"):
        Auditor(pm, provider="local", config=AuditConfig(enabled=True, path=str(tmp_path / "a.jsonl")),
                redactor=Redactor(()))


def test_sink_writes_only_routed_sessions_and_bad_paths_fail_early(tmp_path: Path) -> None:
    pm = make_pm()
    log_path = tmp_path / "log.jsonl"
    routed = Auditor(pm, provider="local", config=AuditConfig(enabled=True, path=str(log_path)),
                     redactor=Redactor(()))
    unrouted = Auditor(pm, provider="local", config=AuditConfig(), redactor=Redactor(()))
    routed.emit(AuditKind.EXEC, "box", {"command": "echo hi"})
    unrouted.emit(AuditKind.EXEC, "box", {"command": "echo other"})
    routed.close()
    routed.emit(AuditKind.EXEC, "box", {"command": "after close"})
    lines = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert [line["command"] for line in lines] == ["echo hi"]
    assert lines[0]["session"] == routed.session and lines[0]["kind"] == "exec"
    (tmp_path / "file").write_text("")
    with pytest.raises(ConfigError, match=r"audit\.path"):
        Auditor(pm, provider="local", config=AuditConfig(enabled=True, path=str(tmp_path / "file" / "x.jsonl")),
                redactor=Redactor(()))


def test_audit_config_keys() -> None:
    config = config_from_data({"audit": {"enabled": True, "path": "~/audit.jsonl"}})
    assert config.audit.resolved_path().name == "audit.jsonl" and "~" not in str(config.audit.resolved_path())
    with pytest.raises(ConfigError, match="audit"):
        config_from_data({"audit": {"enabled": "yes"}})
