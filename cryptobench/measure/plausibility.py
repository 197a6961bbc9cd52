"""Figures this machine cannot produce, refused with the reason.

A driver that lies (or a timer that is broken) can claim any speed. Two physical limits,
measured on this machine when the run starts, catch what a machine cannot do:

- **memory bandwidth**: an operation on N bytes reads them. glibc's memchr (SIMD, what
  `bytes.find` calls) over a buffer in cache and over one far beyond any cache gives the rate at
  which this core can read at all; no cipher or hash reads faster. A cell is implausible above
  `BANDWIDTH_MARGIN` times that rate for the size it works on (legitimate figures here stay below
  half of it: AES-CTR in the JVM at 46 GB/s against memchr's 100+ GB/s in cache).
- **the clock**: no operation takes less than one cycle. A cell is implausible below one cycle at
  `CLOCK_MARGIN` times the highest frequency the CPU reports (turbo, and a reported base clock).
  `noop` is exempt: it is the loop's own floor, which a JIT may fold below a cycle per call.

The judgement runs when a cell is stored: an implausible cell keeps its samples but is `failed`
with the reason, so it gets no verdict and no ratio, and every report shows why.
"""

from __future__ import annotations

import glob
import time

from cryptobench.core import algorithms
from cryptobench.core.units import format_size

BANDWIDTH_MARGIN = 4.0
CLOCK_MARGIN = 2.0
IN_CACHE, MID, BEYOND_CACHE = 256 * 1024, 8 * 1024 * 1024, 64 * 1024 * 1024
STREAM_WINDOW = 2 * 1024 * 1024  # a streamed cell reads its pieces from the doubled 1 MiB pattern
MIN_PASSES = 8  # memory-read passes per size, whatever the budget (_read_rate)


def _read_rate(size: int, budget_s: float) -> float:
    """Bytes per second that memchr reads from a buffer of `size` (best of a few passes). At least
    MIN_PASSES passes whatever the budget: on a busy host one pass of 8 MiB may be the only one in
    the budget and lose its core half-way (0.17 GB/s was measured so, and real figures were then
    called implausible); the best of several is a pass that kept its core."""
    buf = b"\x02" * size  # written, so its pages are real (zero pages would all be one cached page)
    best = float("inf")
    deadline = time.perf_counter() + budget_s
    passes = 0
    while True:
        t0 = time.perf_counter_ns()
        buf.find(b"\x01")
        best = min(best, time.perf_counter_ns() - t0)
        passes += 1
        if passes >= MIN_PASSES and time.perf_counter() > deadline:
            break
    return size / max(best, 1) * 1e9


def max_frequency_hz() -> float | None:
    """The highest clock the CPU reports: cpufreq's maximum, else the largest `cpu MHz`."""
    rates = []
    for path in glob.glob("/sys/devices/system/cpu/cpu*/cpufreq/cpuinfo_max_freq"):
        try:
            rates.append(int(open(path, encoding="ascii").read()) * 1e3)  # kHz
        except (OSError, ValueError):
            pass
    if not rates:
        try:
            for line in open("/proc/cpuinfo", encoding="ascii", errors="replace"):
                if line.startswith("cpu MHz"):
                    rates.append(float(line.split(":")[1]) * 1e6)
        except (OSError, ValueError, IndexError):
            pass
    return max(rates) if rates else None


def measure() -> dict:
    """This machine's limits, measured in about a tenth of a second; stored in the run's environment."""
    return {
        "read_bytes_per_s": {str(n): round(_read_rate(n, 0.02)) for n in (IN_CACHE, MID, BEYOND_CACHE)},
        "max_hz": max_frequency_hz(),
        "bandwidth_margin": BANDWIDTH_MARGIN,
        "clock_margin": CLOCK_MARGIN,
    }


def _bandwidth_for(limits: dict, touched: int) -> tuple[float, int] | None:
    rates = {int(k): v for k, v in (limits.get("read_bytes_per_s") or {}).items() if v}
    if not rates:
        return None
    fits = [n for n in sorted(rates) if n >= touched]
    n = fits[0] if fits else max(rates)
    return rates[n], n


def judge(alg: str, op: str, size: int, chunk: int, ns_per_op: float, limits: dict | None) -> str | None:
    """None when the figure is possible here, else `implausible: ...` with the bound and the reason."""
    if alg == "noop":
        return None
    if not ns_per_op > 0:
        return "implausible: an operation took no time"
    if not limits:
        return None
    if size and not algorithms.get(alg).per_operation:
        touched = min(size, STREAM_WINDOW) if chunk else size
        found = _bandwidth_for(limits, touched)
        if found:
            rate, at = found
            bound = rate * BANDWIDTH_MARGIN
            claimed = size / ns_per_op * 1e9
            if claimed > bound:
                return (
                    f"implausible: {claimed / 1e9:,.3g} GB/s is above {bound / 1e9:,.0f} GB/s, "
                    f"{BANDWIDTH_MARGIN:g}x the rate this machine reads {format_size(at)} of memory "
                    f"(measured at the start of the run: {rate / 1e9:,.0f} GB/s)"
                )
    hz = limits.get("max_hz")
    if hz:
        cycle_ns = 1e9 / (hz * CLOCK_MARGIN)
        if ns_per_op < cycle_ns:
            return (
                f"implausible: {ns_per_op:.3g} ns per operation is less than one cycle at "
                f"{hz * CLOCK_MARGIN / 1e9:.2f} GHz ({CLOCK_MARGIN:g}x the CPU's highest clock)"
            )
    return None
