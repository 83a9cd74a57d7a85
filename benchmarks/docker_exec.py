"""Docker provider: command round trip and file transfer, against the usual alternatives.

    python3 benchmarks/docker_exec.py [--image sandlot-test:bookworm] [--rounds 500]
        [--exec-rounds 50] [--file-rounds 50] [--markdown FILE]

All figures come from one run, on one container per approach, on the same engine:

* ``Sandbox.exec("true")`` on the persistent shell (one exec attach socket, reused);
* ``docker exec <container> true`` (the CLI) and the SDK's ``container.exec_run(["true"])``,
  each a new exec per command;
* ``Sandbox.upload``/``download`` of a 4 KiB file (every Docker file operation runs POSIX sh
  in the persistent shell session; there is no archive-API path any more), versus the
  python3-per-operation approach (Deep Agents' BaseSandbox style: one exec running
  ``python3 -c`` with the path and base64 content as arguments per write or read);
* the same session path for a 1 MiB file and for a batch of 20 files in one ``upload`` call.
  ``benchmarks/file_ops.py`` compares every file operation with Deep Agents' own code.
"""

from __future__ import annotations

import argparse
import base64
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import docker
from _stats import median_ms, p90_ms, report, timings

from sandlot.api import Sandlot
from sandlot.config import Config
from sandlot_docker.sandbox import DockerSandbox

WRITE = "import base64,sys; open(sys.argv[1],'wb').write(base64.b64decode(sys.argv[2]))"
READ = "import base64,sys; sys.stdout.write(base64.b64encode(open(sys.argv[1],'rb').read()).decode())"


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
        persistent = timings(lambda: box.exec("true"), args.rounds, warmup=20)
        sdk_exec = timings(lambda: container.exec_run(["true"]), args.exec_rounds)
        cli_exec: list[float] = []
        if cli is not None:
            cli_exec = timings(lambda: subprocess.run([cli, "exec", cid, "true"], check=True), args.exec_rounds)

        payload = os.urandom(4096)
        encoded = base64.b64encode(payload).decode()
        counter = iter(range(10**9))
        # Every transfer runs in the shell session (sandlot.files.shell): a command per file.
        single_write = timings(lambda: box.upload({f"a{next(counter)}.bin": payload}), args.file_rounds)
        single_read = timings(lambda: box.download(["a0.bin"]), args.file_rounds)
        py_write = timings(
            lambda: container.exec_run(["python3", "-c", WRITE, f"p{next(counter)}.bin", encoded]), args.file_rounds
        )
        py_read = timings(lambda: container.exec_run(["python3", "-c", READ, "a0.bin"]), args.file_rounds)
        # A 1 MiB file: one command in the session as well (its stdin is the content).
        large = os.urandom(1024 * 1024)
        assert all(r.ok for r in box.upload({"large.bin": large}))
        large_write = timings(lambda: box.upload({f"l{next(counter)}.bin": large}), max(args.file_rounds // 5, 3))
        large_read = timings(lambda: box.download(["large.bin"]), max(args.file_rounds // 5, 3))
        assert box.download(["large.bin"])[0].content == large
        batch = {f"batch/f{i}.bin": payload for i in range(args.batch)}
        assert all(r.ok for r in box.upload(batch))
        session_batch = timings(lambda: box.upload(batch), max(args.file_rounds // 5, 3), warmup=1)

        def py_batch() -> None:
            for name in batch:
                container.exec_run(["python3", "-c", WRITE, name, encoded])

        container.exec_run(["mkdir", "-p", "batch"])
        python_batch = timings(py_batch, max(args.file_rounds // 10, 3), warmup=1)
        assert base64.b64decode(container.exec_run(["python3", "-c", READ, "a0.bin"]).output) == payload
        assert box.download(["a0.bin"])[0].content == payload
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
        ("write 4 KiB file: `Sandbox.upload` (shell session)", single_write),
        ("write 4 KiB file: exec `python3 -c` per operation (Deep Agents style)", py_write),
        ("read 4 KiB file: `Sandbox.download` (shell session)", single_read),
        ("read 4 KiB file: exec `python3 -c` per operation (Deep Agents style)", py_read),
        ("write 1 MiB file: `Sandbox.upload` (shell session)", large_write),
        ("read 1 MiB file: `Sandbox.download` (shell session)", large_read),
        (f"write {args.batch} files of 4 KiB: one `Sandbox.upload` call (shell session)", session_batch),
        (f"write {args.batch} files of 4 KiB: exec `python3 -c` per file", python_batch),
    ]
    p_med = median_ms(persistent)
    baseline = min(median_ms(s) for s in (sdk_exec, cli_exec) if s)
    write_ratio = median_ms(py_write) / median_ms(single_write)
    read_ratio = median_ms(py_read) / median_ms(single_read)
    lines = [
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, Linux {platform.release()}, "
        f"Docker engine {engine.get('Version')} (API {engine.get('ApiVersion')}), Python {platform.python_version()}, "
        f"image {args.image}",
        "",
        "| measurement | median | p90 | samples |",
        "|---|---|---|---|",
        *(f"| {name} | {median_ms(s):.3f} ms | {p90_ms(s):.3f} ms | {len(s)} |" for name, s in rows),
        "",
        f"persistent shell round trip: {p_med:.3f} ms, {baseline / p_med:.0f}x faster than the fastest "
        f"new-exec-per-command figure ({baseline:.1f} ms); target <= 2 ms: {'met' if p_med <= 2 else 'NOT met'}",
        f"upload/download of one small file vs python3 per operation: writes {write_ratio:.1f}x, "
        f"reads {read_ratio:.1f}x faster; target >= 5x: "
        f"{'met' if min(write_ratio, read_ratio) >= 5 else 'NOT met'} "
        f"for single operations; a batch of {args.batch} writes is "
        f"{median_ms(python_batch) / median_ms(session_batch):.0f}x faster",
    ]
    report("\n".join(lines), args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
