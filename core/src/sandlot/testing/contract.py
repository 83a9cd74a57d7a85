"""Contract tests for command execution and lifecycle; see :mod:`sandlot.testing`."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import attrs
import pytest

from sandlot.api import Sandlot
from sandlot.errors import SandboxClosed, SandboxError, SandboxNotFound
from sandlot.policy import Policy
from sandlot.provider import Feature
from sandlot.results import ExecResult, OutputChunk
from sandlot.sandbox import Sandbox
from sandlot.testing.files_contract import FileOperationsContract

# A command that finds live processes whose command line contains "sleep <n>", built so
# the command line of the check itself does not match.
_SURVIVORS = (
    'n=0; for p in /proc/[0-9]*; do c=$(tr "\\0" " " < "$p/cmdline" 2>/dev/null) || continue; '
    'case "$c" in *"slee""p {tag}"*) n=$((n+1));; esac; done; echo "survivors=$n"'
)


class ProviderContract(FileOperationsContract):
    """Subclass and provide the ``sandlot_client`` fixture (a configured :class:`Sandlot`).

    Runs the command and lifecycle tests below and the file-operation tests it inherits.
    """

    def make(self, client: Sandlot, **limits: Any) -> Sandbox:
        policy: Policy = client.config.policy
        if limits:
            policy = attrs.evolve(policy, limits=attrs.evolve(policy.limits, **limits))
        return client.create(policy=policy)

    @staticmethod
    def require(client: Sandlot, feature: Feature) -> None:
        if feature not in client.registered.type.features:
            pytest.skip(f"provider {client.provider_name!r} does not declare the {feature.value!r} feature")

    # -- exec basics -------------------------------------------------------------------

    def test_echo(self, sandbox: Sandbox) -> None:
        result = sandbox.exec("echo hello")
        assert result.exit_code == 0
        assert result.stdout == "hello\n"
        assert result.stderr == ""
        assert not result.timed_out and not result.truncated

    def test_exit_codes(self, sandbox: Sandbox) -> None:
        assert sandbox.exec("true").exit_code == 0
        assert sandbox.exec("false").exit_code == 1
        assert sandbox.exec("sh -c 'exit 42'").exit_code == 42

    def test_stderr_is_separate(self, sandbox: Sandbox) -> None:
        result = sandbox.exec("echo out; echo err >&2; echo out2")
        assert result.stdout == "out\nout2\n"
        assert result.stderr == "err\n"
        assert "out" in result.output and "err" in result.output

    def test_unicode_output(self, sandbox: Sandbox) -> None:
        result = sandbox.exec("printf 'h\\303\\251llo \\342\\234\\223 \\360\\237\\214\\215\\n'")
        assert result.stdout == "héllo ✓ 🌍\n"

    def test_binary_output_is_exact(self, sandbox: Sandbox) -> None:
        result = sandbox.exec("printf '\\000\\001\\377\\376abc'")
        assert result.stdout_bytes == b"\x00\x01\xff\xfeabc"

    def test_output_without_trailing_newline(self, sandbox: Sandbox) -> None:
        assert sandbox.exec("printf 'no newline'").stdout == "no newline"
        assert sandbox.exec("printf 'err' >&2").stderr == "err"

    def test_marker_like_output_is_plain_output(self, sandbox: Sandbox) -> None:
        text = "__sandlot_0123456789abcdef0123456789abcdef 0"
        result = sandbox.exec(f"echo '{text}'; echo after; echo '{text}' >&2")
        assert result.stdout == f"{text}\nafter\n"
        assert result.stderr == f"{text}\n"

    def test_syntax_error_keeps_the_session(self, sandbox: Sandbox) -> None:
        assert sandbox.exec("echo 'unbalanced").exit_code != 0
        assert sandbox.exec("echo fine").stdout == "fine\n"

    def test_stdin_is_dev_null_by_default(self, sandbox: Sandbox) -> None:
        result = sandbox.exec("cat; echo done", timeout=10)
        assert result.stdout == "done\n" and not result.timed_out

    def test_control_stream_is_not_visible_to_commands(self, sandbox: Sandbox) -> None:
        result = sandbox.exec(
            "for fd in 3 4; do if [ -e /proc/self/fd/$fd ]; then echo open; else echo closed; fi; done"
        )
        assert result.stdout == "closed\nclosed\n"
        assert sandbox.exec("cat <&3").exit_code != 0
        assert sandbox.exec("echo still").stdout == "still\n"

    def test_stdin_bytes(self, sandbox: Sandbox) -> None:
        data = b"line1\nline2\x00\xff\n"
        assert sandbox.exec("cat", stdin=data).stdout_bytes == data
        assert sandbox.exec("wc -l", stdin="a\nb\nc\n").stdout.strip() == "3"

    def test_command_with_quotes_and_substitutions(self, sandbox: Sandbox) -> None:
        result = sandbox.exec('x=\'a "b" $c\'; echo "$x"; echo $(echo sub) `echo tick`')
        assert result.stdout == 'a "b" $c\nsub tick\n'

    def test_nul_in_command_is_rejected(self, sandbox: Sandbox) -> None:
        with pytest.raises(ValueError, match="NUL"):
            sandbox.exec("echo a\0b")

    # -- persistence and per-command context ---------------------------------------------

    def test_cd_and_export_persist(self, sandlot_client: Sandlot, sandbox: Sandbox) -> None:
        self.require(sandlot_client, Feature.PERSISTENT_SHELL)
        sandbox.exec("mkdir -p /tmp/sandlot-contract-dir && cd /tmp/sandlot-contract-dir && export SL_FOO=bar")
        result = sandbox.exec("pwd; echo $SL_FOO")
        assert result.stdout == "/tmp/sandlot-contract-dir\nbar\n"

    def test_cwd_and_env_apply_to_one_command(self, sandlot_client: Sandlot, sandbox: Sandbox) -> None:
        self.require(sandlot_client, Feature.PERSISTENT_SHELL)
        before = sandbox.exec("pwd").stdout
        result = sandbox.exec('pwd; echo "$SL_X"; cd /', cwd="/tmp", env={"SL_X": "it's $(id) `x`\nline2"})
        assert result.stdout == "/tmp\nit's $(id) `x`\nline2\n"
        assert sandbox.exec('pwd; echo "[$SL_X]"').stdout == before + "[]\n"

    def test_env_rejects_bad_names(self, sandbox: Sandbox) -> None:
        with pytest.raises(ValueError, match="invalid environment variable name"):
            sandbox.exec("true", env={"A;rm -rf /": "x"})

    def test_environment_is_not_inherited(self, sandlot_client: Sandlot, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("SANDLOT_CONTRACT_SECRET", "must-not-leak")
        with sandlot_client.create() as box:
            result = box.exec("env")
        assert "must-not-leak" not in result.stdout
        assert "PATH=" in result.stdout

    # -- limits --------------------------------------------------------------------------

    def test_large_output_is_truncated_keeping_head_and_tail(self, sandlot_client: Sandlot) -> None:
        with self.make(sandlot_client, output_bytes=10_000) as box:
            result = box.exec("echo BEGIN; head -c 5000000 /dev/zero | tr '\\0' x; echo; echo END")
            assert result.truncated and result.stdout_truncation is not None
            assert result.stdout_truncation.original_bytes == 5_000_000 + len("BEGIN\n") + len("\nEND\n")
            assert len(result.stdout_bytes) == 10_000
            assert result.stdout.startswith("BEGIN\n") and result.stdout.endswith("END\n")
            assert "truncated" in result.output

    def test_timeout(self, sandbox: Sandbox) -> None:
        started = time.monotonic()
        result = sandbox.exec("echo before; sleep 30", timeout=1)
        assert result.timed_out and result.exit_code == 124
        assert result.stdout == "before\n"
        assert time.monotonic() - started < 10

    def test_timeout_kills_the_process_tree(self, sandlot_client: Sandlot, sandbox: Sandbox) -> None:
        self.require(sandlot_client, Feature.KILL_TREE)
        result = sandbox.exec("sleep 9871 & setsid sleep 9871 & (sleep 9871 &) ; sleep 9871", timeout=1)
        assert result.timed_out
        time.sleep(0.2)
        check = sandbox.exec(_SURVIVORS.format(tag="9871"))
        assert check.stdout.strip() == "survivors=0", check.output

    def test_timeout_of_a_busy_shell_rebuilds_it(self, sandlot_client: Sandlot, sandbox: Sandbox) -> None:
        self.require(sandlot_client, Feature.SESSION_RECOVERY)
        result = sandbox.exec("while :; do :; done", timeout=1)
        assert result.timed_out
        after = sandbox.exec("echo alive")
        assert after.stdout == "alive\n"
        # The shell itself was busy, so stopping the command cost the shell state.
        assert result.state_lost_after or after.state_lost_before

    def test_background_job_survives_normal_commands(self, sandbox: Sandbox) -> None:
        sandbox.exec("sleep 2 >/dev/null 2>&1 &")
        assert sandbox.exec("echo next").stdout == "next\n"

    # -- recovery ------------------------------------------------------------------------

    def test_shell_exit_is_reported_and_recovered(self, sandlot_client: Sandlot, sandbox: Sandbox) -> None:
        self.require(sandlot_client, Feature.SESSION_RECOVERY)
        result = sandbox.exec("export SL_KEEP=1; exit 7")
        assert result.exit_code == 7 and result.state_lost_after
        after = sandbox.exec('echo "[$SL_KEEP]"')
        assert after.state_lost_before and after.stdout == "[]\n"
        assert sandbox.exec("echo again").state_lost_before is False

    # -- concurrency, streaming, async ---------------------------------------------------

    def test_threads_get_their_own_results(self, sandbox: Sandbox) -> None:
        results: dict[int, ExecResult] = {}

        def work(i: int) -> None:
            results[i] = sandbox.exec(f"echo start-{i}; echo err-{i} >&2; echo end-{i}")

        threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert sorted(results) == list(range(16))
        for i, result in results.items():
            assert result.stdout == f"start-{i}\nend-{i}\n"
            assert result.stderr == f"err-{i}\n"

    def test_sandboxes_run_in_parallel(self, sandlot_client: Sandlot) -> None:
        boxes = [sandlot_client.create() for _ in range(2)]
        try:
            started = time.monotonic()
            threads = [threading.Thread(target=box.exec, args=("sleep 1",)) for box in boxes]
            for t in threads:
                t.start()
            for t in threads:
                t.join(30)
            assert time.monotonic() - started < 1.9
        finally:
            for box in boxes:
                box.close()

    def test_stream_delivers_output_before_the_end(self, sandbox: Sandbox) -> None:
        arrivals: list[tuple[float, object]] = []
        for item in sandbox.stream("echo first; sleep 1; echo second >&2"):
            arrivals.append((time.monotonic(), item))
        chunks = [item for _, item in arrivals if isinstance(item, OutputChunk)]
        final = arrivals[-1][1]
        assert isinstance(final, ExecResult) and final.exit_code == 0
        assert b"".join(c.data for c in chunks if c.stream == "stdout") == b"first\n"
        assert b"".join(c.data for c in chunks if c.stream == "stderr") == b"second\n"
        first_at = next(t for t, item in arrivals if isinstance(item, OutputChunk) and item.stream == "stdout")
        assert arrivals[-1][0] - first_at > 0.5

    def test_abandoned_stream_leaves_the_sandbox_usable(self, sandbox: Sandbox) -> None:
        stream = sandbox.stream("echo one; sleep 30; echo two")
        first = next(stream)
        assert isinstance(first, OutputChunk)
        stream.close()  # type: ignore[attr-defined]
        assert sandbox.exec("echo usable", timeout=20).stdout == "usable\n"

    def test_nested_exec_inside_an_open_stream_is_refused(self, sandbox: Sandbox) -> None:
        stream = sandbox.stream("echo one; sleep 0.2; echo two")
        next(stream)
        with pytest.raises(SandboxError, match="already running"):
            sandbox.exec("echo nested")
        rest = list(stream)
        assert isinstance(rest[-1], ExecResult) and rest[-1].stdout == "one\ntwo\n"

    def test_close_interrupts_a_running_command(self, sandlot_client: Sandlot) -> None:
        box = sandlot_client.create()
        outcome: list[object] = []

        def run() -> None:
            try:
                outcome.append(box.exec("sleep 60", timeout=120))
            except Exception as exc:  # a closed sandbox may also raise
                outcome.append(exc)

        worker = threading.Thread(target=run)
        worker.start()
        time.sleep(0.5)
        started = time.monotonic()
        box.close()
        worker.join(30)
        assert not worker.is_alive() and time.monotonic() - started < 15
        assert outcome and not (isinstance(outcome[0], ExecResult) and outcome[0].exit_code == 0)

    def test_async_exec_does_not_block_the_loop(self, sandlot_client: Sandlot) -> None:
        async def main() -> tuple[list[ExecResult], int]:
            boxes = [sandlot_client.create() for _ in range(2)]
            ticks = 0
            stop = asyncio.Event()

            async def ticker() -> None:
                nonlocal ticks
                while not stop.is_set():
                    ticks += 1
                    await asyncio.sleep(0.01)

            tick_task = asyncio.create_task(ticker())
            try:
                results = await asyncio.gather(
                    *(box.aexec(f"sleep 0.5; echo {i}") for i, box in enumerate(boxes)),
                    *(boxes[0].aexec(f"echo same-{i}") for i in range(5)),
                )
            finally:
                stop.set()
                await tick_task
                for box in boxes:
                    await box.aclose()
            return list(results), ticks

        results, ticks = asyncio.run(main())
        assert [r.stdout for r in results[:2]] == ["0\n", "1\n"]
        assert [r.stdout for r in results[2:]] == [f"same-{i}\n" for i in range(5)]
        assert ticks >= 20

    def test_async_stream(self, sandbox: Sandbox) -> None:
        async def main() -> list[object]:
            return [item async for item in sandbox.astream("echo a; echo b >&2")]

        items = asyncio.run(main())
        assert isinstance(items[-1], ExecResult) and items[-1].exit_code == 0
        out = b"".join(i.data for i in items if isinstance(i, OutputChunk) and i.stream == "stdout")
        assert out == b"a\n"

    # -- lifecycle -----------------------------------------------------------------------

    def test_create_list_attach_delete(self, sandlot_client: Sandlot) -> None:
        box = sandlot_client.create()
        try:
            ids = _all_ids(sandlot_client)
            assert box.id in ids
            again = sandlot_client.attach(box.id)
            assert again.id == box.id
            assert again.exec("echo attached").stdout == "attached\n"
        finally:
            sandlot_client.delete(box.id)
        assert box.id not in _all_ids(sandlot_client)
        sandlot_client.delete(box.id)  # idempotent
        with pytest.raises(SandboxNotFound):
            sandlot_client.attach(box.id)

    def test_list_paginates(self, sandlot_client: Sandlot) -> None:
        boxes = [sandlot_client.create() for _ in range(3)]
        try:
            mine = {b.id for b in boxes}
            seen: list[str] = []
            cursor = None
            while True:
                page = sandlot_client.list(cursor=cursor, limit=1)
                assert len(page.items) <= 1
                seen.extend(info.id for info in page.items)
                if page.next_cursor is None:
                    break
                cursor = page.next_cursor
            assert mine <= set(seen)
            assert len(seen) == len(set(seen))
        finally:
            for box in boxes:
                box.close()

    def test_list_filters_by_labels(self, sandlot_client: Sandlot) -> None:
        tag = f"contract-{time.monotonic_ns()}"
        tagged = sandlot_client.create(labels={"sandlot-test": tag, "role": "a"})
        other = sandlot_client.create(labels={"sandlot-test": tag, "role": "b"})
        try:
            only_a = sandlot_client.list(labels={"sandlot-test": tag, "role": "a"})
            assert [info.id for info in only_a.items] == [tagged.id]
            assert dict(only_a.items[0].labels)["role"] == "a"
            both = {info.id for info in sandlot_client.list(labels={"sandlot-test": tag}).items}
            assert both == {tagged.id, other.id}
        finally:
            tagged.close()
            other.close()

    def test_close_is_idempotent_and_final(self, sandlot_client: Sandlot) -> None:
        box = sandlot_client.create()
        box.close()
        box.close()
        assert box.closed
        with pytest.raises(SandboxClosed):
            box.exec("true")

    def test_delete_unknown_is_not_an_error(self, sandlot_client: Sandlot) -> None:
        sandlot_client.delete("sandlot-contract-no-such-sandbox")

    def test_attach_unknown_raises(self, sandlot_client: Sandlot) -> None:
        with pytest.raises(SandboxNotFound):
            sandlot_client.attach("sandlot-contract-no-such-sandbox")

    def test_async_lifecycle(self, sandlot_client: Sandlot) -> None:
        async def main() -> str:
            box = await sandlot_client.provider.acreate(sandlot_client.spec())
            try:
                page = await sandlot_client.provider.alist()
                assert box.id in {i.id for i in page.items} or page.next_cursor is not None
                return (await box.aexec("echo async")).stdout
            finally:
                await sandlot_client.provider.adelete(box.id)

        assert asyncio.run(main()) == "async\n"


def _all_ids(client: Sandlot) -> set[str]:
    ids: set[str] = set()
    cursor = None
    while True:
        page = client.list(cursor=cursor, limit=100)
        ids.update(info.id for info in page.items)
        if page.next_cursor is None:
            return ids
        cursor = page.next_cursor
