"""TSC reference cycles: times in the unit of the field (eBACS, SUPERCOP: cycles per byte).

The C driver measures the time-stamp counter's rate against its clock at start-up (`clock.tsc_hz`
in its hello, docs/protocol.md). Where the CPU says the counter is invariant (`constant_tsc` and
`nonstop_tsc`: it ticks at one fixed rate whatever the core's frequency or sleep state), cycles
are shown: counted, where the driver read the counter beside its clock in every sample
(`samples_tsc`: the C, Rust, Go and Python drivers; kept as the cell's `tsc_ticks`), else converted, time
x the rate. They are not core cycles (a core running above or below its base clock does more or
fewer per reference cycle; counting core cycles needs perf counters, which this kernel may
refuse), and every report says "TSC reference cycles". Where the counter is not invariant, or
there is none, no cycles are shown at all. Counted ticks also check the driver's clock: over a
cell, ticks per ns must be the run's rate (`clock_disagreement`).
"""

from __future__ import annotations

from cryptobench.analysis import stats
from cryptobench.core.errors import UserError

INVARIANT = ("constant_tsc", "nonstop_tsc")
LABEL = "TSC reference cycles"


def counter(clock: dict | None, cpu_flags: list[str] | set[str]) -> dict:
    """What the run stores: the counter and its rate, or why there are no cycles."""
    hz = (clock or {}).get("tsc_hz")
    if not isinstance(hz, (int, float)) or hz <= 0:
        return {"unavailable": "no time-stamp counter rate (not x86-64, or the C driver did not run)"}
    missing = [f for f in INVARIANT if f not in set(cpu_flags)]
    if missing:
        return {
            "unavailable": f"the TSC is not invariant here (no {', '.join(missing)}): its ticks are not a fixed unit"
        }
    return {"counter": "TSC", "kind": LABEL, "hz": round(float(hz), 1),
            "measured": "rdtsc against CLOCK_MONOTONIC over the clock resolution probe, in the c:openssl driver"}  # fmt: skip


def rate_of(env: dict) -> float | None:
    hz = (env.get("cycles") or {}).get("hz")
    return float(hz) if isinstance(hz, (int, float)) and hz > 0 else None


def require(env: dict, run_id: int | None) -> float:
    """The rate for `--unit cpb`, or one line saying why this run has none."""
    hz = rate_of(env)
    if hz is None:
        why = (env.get("cycles") or {}).get("unavailable", "the run was stored before cycles were recorded")
        raise UserError(f"--unit cpb: run {run_id} has no cycle counter: {why}")
    return hz


def per_byte(ns: float, size: int, hz: float) -> float:
    return ns * hz / 1e9 / size


def per_op(ns: float, hz: float) -> float:
    return ns * hz / 1e9


COUNTED, CONVERTED = "counted", "converted"
CLOCK_TOLERANCE = 0.01  # a driver's ticks per ns this far from the run's rate: its clock is suspect


def ticks_of(cell) -> list[int] | None:
    """The counter's ticks per sample the driver read beside its clock, None where it sent none."""
    t = cell.extra.get("tsc_ticks")
    ok = isinstance(t, list) and len(t) == len(cell.samples_ns) and t and cell.batch > 0
    return t if ok and all(isinstance(x, int) and x > 0 for x in t) else None


def cell_per_op(cell, median_ns: float, hz: float) -> tuple[float, str]:
    """(TSC cycles per operation, COUNTED or CONVERTED): the driver's own ticks where it read them."""
    t = ticks_of(cell)
    if t is not None:
        return stats.median([x / cell.batch for x in t]), COUNTED
    return per_op(median_ns, hz), CONVERTED


def clock_disagreement(cell, hz: float) -> float | None:
    """How far the driver's clock is from the counter over the cell: (ticks per ns) / rate - 1."""
    t = ticks_of(cell)
    if t is None or not hz:
        return None
    return sum(t) / sum(cell.samples_ns) / (hz / 1e9) - 1
