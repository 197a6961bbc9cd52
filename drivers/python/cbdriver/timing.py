"""Clock, its measured resolution, warm-up, batch calibration, sampling and the sink.

The loop is shared by every provider: a cell's `call()` performs exactly one
operation and returns the first byte of its output, which is XOR-folded into
the sink. XOR keeps the sink a small cached int, so the fold never allocates
and costs the same for every cell, noop included.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from . import tsc

clock = time.perf_counter_ns
CLOCK_SOURCE = f"time.perf_counter_ns ({time.get_clock_info('perf_counter').implementation})"
MAX_BATCH = 1 << 30
PROBE_READS = 20000
DEFAULT_TARGET_NS = 5_000_000


def probe_resolution() -> int:
    """The smallest non-zero difference between PROBE_READS successive clock reads, in ns; 0 if none."""
    c = clock
    best = 0
    prev = c()
    for _ in range(PROBE_READS):
        now = c()
        d = now - prev
        if d > 0 and (best == 0 or d < best):
            best = d
        prev = now
    return best


class Untimed:
    """Work inside an operation that is not part of it: a big streamed decrypt's ciphertext, made
    again piece by piece just before it is consumed (docs/protocol.md, "With chunk > 0"). The cell
    adds the nanoseconds it spent (clock reads included); the timed batch subtracts them."""

    __slots__ = ("ns",)

    def __init__(self) -> None:
        self.ns = 0

    def take(self) -> int:
        ns, self.ns = self.ns, 0
        return ns


NOTHING_UNTIMED = Untimed()  # every other cell's: always 0


def time_batch(call: Callable[[], int], n: int, untimed: Untimed = NOTHING_UNTIMED) -> tuple[int, int, int]:
    """The only timed region: `n` consecutive operations, less their untimed work -> (elapsed ns, XOR of
    their first output bytes, the time-stamp counter's ticks read beside the clock: 0 without a counter,
    or when untimed work was subtracted, which the ticks would include)."""
    r = range(n)
    sink = 0
    c, counter = clock, tsc.now or _no_counter
    untimed.take()  # what the warm-up or the checksum left behind
    t0 = c()
    c0 = counter()
    for _ in r:
        sink ^= call()
    c1 = counter()
    t1 = c()
    left = untimed.take()
    return t1 - t0 - left, sink, (c1 - c0 if left == 0 else 0)


def _no_counter() -> int:
    return 0


def warm_up(call: Callable[[], int], warmup_ns: int) -> dict:
    """Rounds of 1, 2, 4, ... operations (the last cut to the time left) until `warmup_ns` has passed;
    at least one operation."""
    ops, n = 0, 1
    t0 = clock()
    while True:
        for _ in range(n):
            call()
        ops += n
        elapsed = clock() - t0
        if elapsed >= warmup_ns:
            return {"ops": ops, "ns": elapsed}
        per_op = max(1, elapsed // ops)
        n = min(2 * n, (warmup_ns - elapsed) // per_op + 1, MAX_BATCH)


def calibrate(call: Callable[[], int], target_ns: int, untimed: Untimed = NOTHING_UNTIMED) -> tuple[int, int]:
    """Batch 1, 2, 4, ... until one batch lasts `target_ns` (cap 2^30) -> (batch, operations run)."""
    batch, ops = 1, 0
    while True:
        ns, _, _ = time_batch(call, batch, untimed)
        ops += batch
        if ns >= target_ns or batch >= MAX_BATCH:
            return batch, ops
        batch *= 2


def measure(
    call: Callable[[], int], batch: int, target_ns: int, warmup_ns: int, samples: int,
    untimed: Untimed = NOTHING_UNTIMED,
) -> dict:  # fmt: skip
    """docs/protocol.md § The measurement loop: warm-up, calibration when `batch` is 0, the samples."""
    warm = warm_up(call, warmup_ns)
    if batch == 0:
        batch, warm["calibration_ops"] = calibrate(call, target_ns, untimed)
    samples_ns, ticks, sink = [], [], 0
    for _ in range(samples):
        ns, s, t = time_batch(call, batch, untimed)
        samples_ns.append(ns)
        ticks.append(t)
        sink ^= s
    m = {"batch": batch, "samples_ns": samples_ns, "sink": sink, "warmup": warm}
    if all(t > 0 for t in ticks):  # a partial tick list would be worse than none
        m["samples_tsc"] = ticks
    return m


def time_each(calls: list[Callable[[], bytes]], rejected: type[Exception]) -> tuple[list[int], list[bool]]:
    """The `leak` request (docs/protocol.md): each prepared operation timed alone, in order; whether
    the library refused its input (a forged tag) is part of the operation, so it is inside the clock."""
    c = clock
    times, refused = [0] * len(calls), [False] * len(calls)
    for i, call in enumerate(calls):
        t0 = c()
        try:
            call()
        except rejected:
            refused[i] = True
        except Exception as e:  # noqa: BLE001 - any other failure ends the request, saying where
            raise RuntimeError(f"measurement {i}: {e}") from e
        times[i] = c() - t0
    return times, refused
