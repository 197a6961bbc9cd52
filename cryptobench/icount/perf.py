"""Hardware instruction counts (perf stat -e instructions:u) of whole driver processes.

A hardware counter cannot be switched on around one function as valgrind's can, so each count is a
fresh process (hello, one bench request, end of input) counted whole, user space only; start-up
(random keys, the clock probe) varies by some 10^4 instructions from one process to the next, so
phase.py makes the batch large enough (PERF_TARGET instructions) that this is below 10^-5 of it.
Not available on this project's own machine (a KVM guest without a virtual PMU): used where the
kernel exposes the counter (counters.hardware_counter).
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from cryptobench.core.errors import DriverError
from cryptobench.drivers.client import DriverProcess

TARGET = 2_000_000_000  # instructions per counted request: process-to-process noise well under 0.01%


def count_process(provider: str, argv: list[str], env: dict, request: dict, timeout: float) -> int:
    """User-space instructions of one fresh driver process that answers hello and `request`."""
    with tempfile.TemporaryDirectory(prefix="cryptobench-perf-") as tmp:
        out = Path(tmp) / "stat.csv"
        perf = [shutil.which("perf") or "perf", "stat", "-x,", "-e", "instructions:u", "-o", str(out), "--"]
        d = DriverProcess(provider, [*perf, *argv], env=env)
        try:
            d.hello(timeout=timeout)
            d.request(request, timeout)
        finally:
            d.close(timeout=timeout)
        return parse(out.read_text(encoding="utf-8") if out.exists() else "")


def parse(text: str) -> int:
    """The count from perf stat's CSV output (`12345,,instructions:u,...`)."""
    for line in text.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[2].startswith("instructions"):
            if not fields[0].strip().isdigit():  # "<not counted>" / "<not supported>"
                raise DriverError(f"perf stat counted no instructions: {fields[0].strip()}")
            return int(fields[0])
    raise DriverError("perf stat wrote no instruction count")
