"""What the host was doing while a cell was timed: CPU time stolen by the hypervisor, the cores
busy with other work, the clock frequency where the kernel shows it.

Read from /proc/stat around every round and summed per cell, so a cell whose interval stayed wide
can say why ("steal 6%") instead of leaving the reader to guess. Linux only; elsewhere nothing is
recorded (never a made-up zero).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class CpuTimes:
    """Aggregate jiffies of every CPU since boot (the `cpu` line of /proc/stat)."""

    total: int
    idle: int  # idle + iowait
    steal: int

    def __sub__(self, other: CpuTimes) -> CpuTimes:
        return CpuTimes(self.total - other.total, self.idle - other.idle, self.steal - other.steal)


def cpu_times(path: str = "/proc/stat") -> CpuTimes | None:
    try:
        with open(path, encoding="ascii") as f:
            fields = f.readline().split()
    except OSError:
        return None
    if len(fields) < 9 or fields[0] != "cpu":
        return None
    # user nice system idle iowait irq softirq steal [guest guest_nice: already inside user/nice]
    values = [int(x) for x in fields[1:9]]
    return CpuTimes(sum(values), values[3] + values[4], values[7])


def frequency_mhz() -> float | None:
    """The current clock of CPU 0 where cpufreq shows it (not on most VMs: then None, not cpuinfo's
    static figure)."""
    try:
        return int(Path("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq").read_text()) / 1000
    except (OSError, ValueError):
        return None


@dataclass
class HostTally:
    """A cell's share of the host's time, summed over its rounds."""

    total: int = 0
    idle: int = 0
    steal: int = 0

    def add(self, before: CpuTimes | None, after: CpuTimes | None) -> None:
        if before is None or after is None:
            return
        d = after - before
        self.total, self.idle, self.steal = self.total + d.total, self.idle + d.idle, self.steal + d.steal

    def summary(self, cpus: int | None = None) -> dict | None:
        """{steal_pct, busy_cores}: busy_cores counts our own driver (one core while it times)."""
        if self.total <= 0:
            return None
        cpus = cpus or os.cpu_count() or 1
        out = {
            "steal_pct": round(100 * self.steal / self.total, 2),
            "busy_cores": round(cpus * (self.total - self.idle - self.steal) / self.total, 2),
            "jiffies": self.total,
        }
        mhz = frequency_mhz()
        if mhz:
            out["mhz"] = mhz
        return out
