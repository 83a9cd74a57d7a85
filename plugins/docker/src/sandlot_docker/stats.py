"""``DockerSandbox.stats()``: resource usage of a sandbox as a typed value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs


@attrs.frozen
class ContainerStats:
    """One sample of a sandbox container's resource usage (Docker stats API).

    ``cpu_percent`` is relative to one core (200.0 = two cores busy), measured over the
    engine's sampling interval (about a second). ``memory_used_bytes`` excludes the page
    cache, like ``docker stats``.
    """

    cpu_percent: float
    memory_used_bytes: int
    memory_limit_bytes: int
    pids: int
    pids_limit: int | None
    network_rx_bytes: int
    network_tx_bytes: int

    @property
    def memory_percent(self) -> float:
        return 100.0 * self.memory_used_bytes / self.memory_limit_bytes if self.memory_limit_bytes else 0.0


def _cpu_percent(sample: Mapping[str, Any]) -> float:
    cpu, pre = sample.get("cpu_stats", {}), sample.get("precpu_stats", {})
    used, used_before = cpu.get("cpu_usage", {}), pre.get("cpu_usage", {})
    cpu_delta = int(used.get("total_usage", 0)) - int(used_before.get("total_usage", 0))
    system_delta = int(cpu.get("system_cpu_usage", 0)) - int(pre.get("system_cpu_usage", 0))
    cores = int(cpu.get("online_cpus") or len(cpu.get("cpu_usage", {}).get("percpu_usage") or []) or 1)
    if cpu_delta <= 0 or system_delta <= 0:
        return 0.0
    return 100.0 * cpu_delta / system_delta * cores


def _memory_used(memory: Mapping[str, Any]) -> int:
    usage = int(memory.get("usage", 0))
    stats = memory.get("stats", {})
    # What `docker stats` shows: cgroup v1 subtracts total_inactive_file, v2 inactive_file.
    for key in ("total_inactive_file", "inactive_file"):
        if key in stats and stats[key] < usage:
            return usage - int(stats[key])
    return usage


def parse_stats(sample: Mapping[str, Any]) -> ContainerStats:
    """A :class:`ContainerStats` from one ``GET /containers/{id}/stats?stream=false`` answer."""
    memory = sample.get("memory_stats", {})
    pids = sample.get("pids_stats", {})
    networks = sample.get("networks") or {}
    return ContainerStats(
        cpu_percent=round(_cpu_percent(sample), 2),
        memory_used_bytes=_memory_used(memory),
        memory_limit_bytes=int(memory.get("limit", 0)),
        pids=int(pids.get("current", 0)),
        pids_limit=pids.get("limit"),
        network_rx_bytes=sum(int(n.get("rx_bytes", 0)) for n in networks.values()),
        network_tx_bytes=sum(int(n.get("tx_bytes", 0)) for n in networks.values()),
    )
