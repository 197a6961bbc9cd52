"""Clock, its measured resolution, warm-up, batch calibration, sampling and the sink.

The loop is shared by every provider: a cell's `call()` performs exactly one
operation and returns the first byte of its output, which is XOR-folded into
the sink. XOR keeps the sink a small cached int, so the fold never allocates
and costs the same for every cell, noop included.
"""

from __future__ import annotations

import time
from collections.abc import Callable

clock = time.perf_counter_ns
CLOCK_SOURCE = f"time.perf_counter_ns ({time.get_clock_info('perf_counter').implementation})"
MAX_BATCH = 1 << 30


def measure_resolution(reads: int = 20000) -> int:
    """The smallest non-zero difference between successive clock reads, in ns."""
    c = clock
    best = 0
    prev = c()
    for _ in range(reads):
        now = c()
        d = now - prev
        if d > 0 and (best == 0 or d < best):
            best = d
        prev = now
    return best or 1


def run_batch(call: Callable[[], int], batch: int) -> tuple[int, int]:
    """Time `batch` consecutive operations: (elapsed ns, XOR of the first output bytes)."""
    r = range(batch)
    sink = 0
    c = clock
    t0 = c()
    for _ in r:
        sink ^= call()
    t1 = c()
    return t1 - t0, sink


def warm_up(call: Callable[[], int], warmup_ns: int) -> dict:
    """Run the operation for at least `warmup_ns`, in growing batches; results discarded."""
    ops = 0
    start = clock()
    batch = 1
    while True:
        elapsed = clock() - start
        if elapsed >= warmup_ns:
            return {"ops": ops, "ns": elapsed}
        ns, _ = run_batch(call, batch)
        ops += batch
        left = warmup_ns - (clock() - start)
        per_op = max(ns, 1) / batch
        batch = max(1, min(batch * 2, int(left / per_op) + 1, MAX_BATCH))


def calibrate(call: Callable[[], int], target_ns: int) -> tuple[int, int]:
    """Double the batch from 1 until one batch takes at least `target_ns` (cap 1<<30): (batch, ops run)."""
    batch, ops = 1, 0
    while True:
        ns, _ = run_batch(call, batch)
        ops += batch
        if ns >= target_ns or batch >= MAX_BATCH:
            return batch, ops
        batch *= 2


def sample(call: Callable[[], int], batch: int, samples: int) -> tuple[list[int], int]:
    """`samples` timings of `batch` operations each, and the sink folded over all of them."""
    out = []
    sink = 0
    for _ in range(samples):
        ns, s = run_batch(call, batch)
        out.append(ns)
        sink ^= s
    return out, sink


def measure(call: Callable[[], int], batch: int, target_ns: int, warmup_ns: int, samples: int) -> dict:
    """Warm-up, calibration when `batch` is 0, then the samples: the timing part of a bench response."""
    warm = warm_up(call, warmup_ns)
    if batch == 0:
        batch, cal_ops = calibrate(call, target_ns)
        warm["calibration_ops"] = cal_ops
    samples_ns, sink = sample(call, batch, samples)
    return {"batch": batch, "samples_ns": samples_ns, "sink": sink, "warmup": warm}
