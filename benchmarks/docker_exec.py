"""Docker provider: command round trip and file transfer, against the usual alternatives.

    python3 benchmarks/docker_exec.py [--image sandlot-test:bookworm] [--rounds 500]
        [--exec-rounds 50] [--file-rounds 50] [--markdown FILE]

All figures come from one run, on one container per approach, on the same engine:

* ``Sandbox.exec("true")`` on the persistent shell (one exec attach socket, reused);
* ``docker exec <container> true`` (the CLI) and the SDK's ``container.exec_run(["true"])``,
  each a new exec per command;
* ``DockerSandbox.upload``/``download`` (archive API) of a 4 KiB file, versus the
  python3-per-operation approach (Deep Agents' BaseSandbox style: one exec running
  ``python3 -c`` with the path and base64 content as arguments per write or read).
"""

from __future__ import annotations

import argparse
import base64
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import docker

from sandlot.api import Sandlot
from sandlot.config import Config
from sandlot_docker.sandbox import DockerSandbox

WRITE = "import base64,sys; open(sys.argv[1],'wb').write(base64.b64decode(sys.argv[2]))"
READ = "import base64,sys; sys.stdout.write(base64.b64encode(open(sys.argv[1],'rb').read()).decode())"


def _time(func: Callable[[], object], runs: int, warmup: int = 3) -> list[float]:
    for _ in range(warmup):
        func()
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        func()
        out.append(time.perf_counter() - start)
    return out


def _ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _p90(samples: list[float]) -> float:
    return sorted(samples)[int(len(samples) * 0.9) - 1] * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--image", default=os.environ.get("SANDLOT_DOCKER_TEST_IMAGE", "sandlot-test:bookworm"))
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--exec-rounds", type=int, default=50)
    parser.add_argument("--file-rounds", type=int, default=50)
    parser.add_argument("--creates", type=int, default=10)
    parser.add_argument("--batch", type=int, default=20, help="files per batch upload")
    parser.add_argument("--markdown", type=Path, help="also write the figures as Markdown to this file")
    args = parser.parse_args()

    client = Sandlot(Config(provider="docker", providers={"docker": {"image": args.image}}))
    sdk = docker.from_env()
    cli = shutil.which("docker")
    creates = []
    for _ in range(args.creates):
        start = time.perf_counter()
        created = client.create()
        creates.append(time.perf_counter() - start)
        created.close()

    box = client.create()
    assert isinstance(box, DockerSandbox)
    try:
        cid = box.container_id
        container = sdk.containers.get(cid)
        persistent = _time(lambda: box.exec("true"), args.rounds, warmup=20)
        sdk_exec = _time(lambda: container.exec_run(["true"]), args.exec_rounds)
        cli_exec: list[float] = []
        if cli is not None:
            cli_exec = _time(lambda: subprocess.run([cli, "exec", cid, "true"], check=True), args.exec_rounds)

        payload = os.urandom(4096)
        encoded = base64.b64encode(payload).decode()
        counter = iter(range(10**9))
        archive_write = _time(lambda: box.upload({f"a{next(counter)}.bin": payload}), args.file_rounds)
        archive_read = _time(lambda: box.download(["a0.bin"]), args.file_rounds)
        py_write = _time(
            lambda: container.exec_run(["python3", "-c", WRITE, f"p{next(counter)}.bin", encoded]), args.file_rounds
        )
        py_read = _time(lambda: container.exec_run(["python3", "-c", READ, "a0.bin"]), args.file_rounds)
        # For comparison: the same through the persistent session (path as an env value, bytes on stdin).
        session_write = _time(
            lambda: box.exec('cat > "$SL_PATH"', env={"SL_PATH": f"s{next(counter)}.bin"}, stdin=payload),
            args.file_rounds,
        )
        session_read = _time(lambda: box.exec('cat -- "$SL_PATH"', env={"SL_PATH": "a0.bin"}), args.file_rounds)
        assert box.exec('cat -- "$SL_PATH"', env={"SL_PATH": "a0.bin"}).stdout_bytes == payload
        batch = {f"batch/f{i}.bin": payload for i in range(args.batch)}
        archive_batch = _time(lambda: box.upload(batch), max(args.file_rounds // 5, 3), warmup=1)

        def py_batch() -> None:
            for name in batch:
                container.exec_run(["python3", "-c", WRITE, name, encoded])

        container.exec_run(["mkdir", "-p", "batch"])
        python_batch = _time(py_batch, max(args.file_rounds // 10, 3), warmup=1)
        assert base64.b64decode(container.exec_run(["python3", "-c", READ, "a0.bin"]).output) == payload
        assert box.download(["a0.bin"])["a0.bin"] == payload
    finally:
        box.close()

    engine = sdk.version()
    rows = [
        ("sandbox creation (`Sandlot.create()` until the shell answers)", creates),
        ('exec round trip, persistent shell (`Sandbox.exec("true")`)', persistent),
        ("SDK `container.exec_run([\"true\"])` (new exec per command)", sdk_exec),
    ]
    if cli_exec:
        rows.append(("CLI `docker exec <id> true` (new exec per command)", cli_exec))
    rows += [
        ("write 4 KiB file: `DockerSandbox.upload` (archive API)", archive_write),
        ("write 4 KiB file: exec `python3 -c` per operation (Deep Agents style)", py_write),
        ("read 4 KiB file: `DockerSandbox.download` (archive API)", archive_read),
        ("read 4 KiB file: exec `python3 -c` per operation (Deep Agents style)", py_read),
        ("write 4 KiB file: persistent session, `cat > \"$P\"` with the bytes on stdin", session_write),
        ("read 4 KiB file: persistent session, `cat -- \"$P\"`", session_read),
        (f"write {args.batch} files of 4 KiB: one `DockerSandbox.upload` call", archive_batch),
        (f"write {args.batch} files of 4 KiB: exec `python3 -c` per file", python_batch),
    ]
    p_med = _ms(persistent)
    baseline = min(_ms(s) for s in (sdk_exec, cli_exec) if s)
    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Linux {platform.release()}, "
        f"Docker engine {engine.get('Version')} (API {engine.get('ApiVersion')}), Python {platform.python_version()}, "
        f"image {args.image}",
        "",
        "| measurement | median | p90 | samples |",
        "|---|---|---|---|",
        *(f"| {name} | {_ms(s):.3f} ms | {_p90(s):.3f} ms | {len(s)} |" for name, s in rows),
        "",
        f"persistent shell round trip: {p_med:.3f} ms, {baseline / p_med:.0f}x faster than the fastest "
        f"new-exec-per-command figure ({baseline:.1f} ms); target <= 2 ms: {'met' if p_med <= 2 else 'NOT met'}",
        f"archive API vs python3 per operation: writes {_ms(py_write) / _ms(archive_write):.1f}x, "
        f"reads {_ms(py_read) / _ms(archive_read):.1f}x faster; target >= 5x: "
        f"{'met' if min(_ms(py_write) / _ms(archive_write), _ms(py_read) / _ms(archive_read)) >= 5 else 'NOT met'} "
        f"for single operations; a batch of {args.batch} writes is "
        f"{_ms(python_batch) / _ms(archive_batch):.0f}x faster",
    ]
    text = "\n".join(lines)
    print(text)
    if args.markdown is not None:
        args.markdown.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
