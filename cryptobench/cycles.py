"""TSC reference cycles: times in the unit of the field (eBACS, SUPERCOP: cycles per byte).

The C driver measures the time-stamp counter's rate against its clock at start-up (`clock.tsc_hz`
in its hello, docs/protocol.md). Where the CPU says the counter is invariant (`constant_tsc` and
`nonstop_tsc`: it ticks at one fixed rate whatever the core's frequency or sleep state), a time is
that many reference cycles: ns x rate. They are not core cycles (a core running above or below its
base clock does more or fewer per reference cycle; counting core cycles needs perf counters, which
this kernel may refuse), and every report says "TSC reference cycles". Where the counter is not
invariant, or there is none, no cycles are shown at all.
"""

from __future__ import annotations

from .errors import UserError

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
