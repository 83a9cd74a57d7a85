"""The persistent session's parts: bounded capture, marker cutting, memory bound, framing."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandlot.capture import BoundedCapture
from sandlot.results import Truncation
from sandlot.session import _marker_prefix_at_end, _StreamCutter, encode_request, frame_field

MARKER = b"__sandlot_0123456789abcdef0123456789abcdef"


def test_capture_under_the_limit_keeps_everything() -> None:
    cap = BoundedCapture(100)
    cap.feed(b"a" * 60)
    cap.feed(b"b" * 40)
    assert cap.result() == (b"a" * 60 + b"b" * 40, None)


def test_capture_keeps_head_and_tail() -> None:
    cap = BoundedCapture(10)
    for i in range(100):
        cap.feed(bytes([65 + i % 26]) * 3)
    data, cut = cap.result()
    assert cut == Truncation(original_bytes=300, kept_head=5, kept_tail=5)
    assert data[:5] == b"AAABB" and len(data) == 10
    assert cut.dropped == 290


def test_capture_unbounded() -> None:
    cap = BoundedCapture(None)
    cap.feed(b"x" * 10_000)
    assert cap.result() == (b"x" * 10_000, None)


@given(
    st.lists(st.binary(max_size=64) | st.sampled_from([MARKER[:5], MARKER[:-1], b"_", b"__sandlot_"]), max_size=20),
    st.lists(st.integers(min_value=1, max_value=50), min_size=1, max_size=50),
)
@settings(max_examples=300, deadline=None)
def test_cutter_finds_the_marker_across_any_chunking(pieces: list[bytes], sizes: list[int]) -> None:
    body = b"".join(pieces).replace(MARKER, b"")
    stream = body + MARKER + b" 3\nlater"
    cutter = _StreamCutter(MARKER, limit=None)
    streamed = b""
    pos = 0
    i = 0
    while pos < len(stream):
        size = sizes[i % len(sizes)]
        streamed += cutter.feed(stream[pos : pos + size])
        pos += size
        i += 1
    assert cutter.found
    assert streamed == body
    assert cutter.capture.result()[0] == body
    assert cutter.after.startswith(b" 3\n")


def test_marker_prefix_at_end() -> None:
    assert _marker_prefix_at_end(b"hello", MARKER) == 0
    assert _marker_prefix_at_end(b"hello__sand", MARKER) == len(b"__sand")
    assert _marker_prefix_at_end(b"x_", MARKER) == 1
    assert _marker_prefix_at_end(b"__sandlot_0123X", MARKER) == 0


def test_framing_round_trips_lines() -> None:
    assert frame_field("a") == b"1\na\n"
    assert frame_field("a\nb\n") == b"3\na\nb\n\n"
    assert frame_field("") == b"1\n\n"


def test_request_rejects_bad_env() -> None:
    with pytest.raises(ValueError, match="invalid environment variable name"):
        encode_request("m", "true", cwd=None, env={"1BAD": "x"}, stdin=None)
    with pytest.raises(ValueError, match="NUL"):
        encode_request("m", "true", cwd=None, env={"OK": "a\0b"}, stdin=None)


@pytest.mark.slow
def test_one_gib_of_output_keeps_host_memory_bounded() -> None:
    """A command printing 1 GiB must not raise the host's peak RSS by more than ~64 MiB."""
    script = textwrap.dedent(
        """
        import resource
        from sandlot import Config, Sandlot
        client = Sandlot(Config(provider="local"))
        with client.create() as box:
            box.exec("true")
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            result = box.exec("head -c 1073741824 /dev/zero", timeout=300)
            after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        assert result.exit_code == 0, result
        assert result.stdout_truncation.original_bytes == 1073741824
        print((after - before) // 1024)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=600)
    growth_mib = int(out.stdout.strip().splitlines()[-1])
    assert growth_mib <= 64, f"peak RSS grew by {growth_mib} MiB"
