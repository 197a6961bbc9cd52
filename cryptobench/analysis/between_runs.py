"""How far a cell's median moves from one run to the next on one machine when nothing changed,
read from the store's history of that cell: what one run's own interval cannot see.

A run's interval covers its rounds and its driver processes; two identical runs still differ by
more than that (docs/measurement.md, "Intervals that cover the variation between runs"): the host's
state, the layout a build shares with every process. `compare RUN_A RUN_B` widens each run's side
of the ratio to at least this spread, where the store holds enough other runs of the cell on the
same machine to tell it.
"""

from __future__ import annotations

import math

MIN_RUNS = 3  # other runs of the cell needed (two steps between them) before their spread is trusted


def step_spread(logs: list[float]) -> float:
    """The standard deviation of one value of a series from the typical step between neighbours
    (1.4826 x the median |step| / sqrt 2: robust to a few real changes); 0 without a step. A history's
    noise (history.py) and the run-to-run spread below."""
    steps = sorted(abs(b - a) for a, b in zip(logs, logs[1:], strict=False))
    return 1.4826 * steps[len(steps) // 2] / math.sqrt(2) if steps else 0.0


def spread(medians: list[float]) -> float | None:
    """The run-to-run standard deviation of log(median) over runs oldest first: None with too few runs."""
    logs = [math.log(m) for m in medians if m > 0]
    return step_spread(logs) if len(logs) >= MIN_RUNS else None


def machine_of(env: dict) -> str:
    """A run's machine as the store's series name it (its label, else its hostname)."""
    return str(env.get("machine_label") or env.get("hostname") or "?")


def of_cells(store, run_ids: set[int], keys: set[tuple], machine: str) -> dict[tuple, float]:
    """For each (provider, alg, op, size, chunk) of `keys`, the spread of its medians over the other
    complete runs of `machine` (not `run_ids`), where there are enough of them."""
    raw: dict[tuple, tuple[float, int]] = {}  # key -> (spread, steps it was read from)
    for alg in sorted({k[1] for k in keys}):
        medians: dict[tuple, list[float]] = {}
        for run, cell in store.series_cells(alg, None, machine):
            key = (cell.provider, alg, cell.op, cell.size, cell.chunk)
            if run["id"] in run_ids or key not in keys or not cell.measured:  # the query keeps `machine`'s
                continue
            medians.setdefault(key, []).append(cell.summary().median)
        for key, ms in medians.items():
            if (sd := spread(ms)) is not None:
                raw[key] = (sd, len(ms) - 1)
    return shrunk(raw)


POOL_WEIGHT = 6  # the provider's typical spread counts as this many steps of a cell's own


def shrunk(raw: dict[tuple, tuple[float, int]]) -> dict[tuple, float]:
    """Each cell's spread pulled toward its provider's median spread: a spread read from three or
    four steps is itself noisy, and one lucky or unlucky step should neither make nor break an
    interval. On six identical default-suite runs (2026-11-27), the other run outside the interval
    for 7% of cells (25% without the spread, 9% from each cell's own), a wrongly `faster`/`slower`
    verdict for 0.4% (2.4%, 0.7%)."""
    by_provider: dict[str, list[float]] = {}
    for (provider, *_), (sd, _) in raw.items():
        by_provider.setdefault(provider, []).append(sd)
    pool = {p: sorted(v)[len(v) // 2] for p, v in by_provider.items()}
    return {k: math.sqrt((n * sd**2 + POOL_WEIGHT * pool[k[0]] ** 2) / (n + POOL_WEIGHT)) for k, (sd, n) in raw.items()}
