"""Why a cell's interval stayed wider than the precision the run aimed for (`--precision`).

Pure: reads what the runner stored with the cell (its rounds, its share of the host's time) and
names the causes a reader can act on, worst first: a spread-out distribution (CV), rounds that
disagree (the host drifted while the cell was measured), CPU time stolen by the hypervisor, other
work on the host's cores.
"""

from __future__ import annotations

from cryptobench.analysis import stats
from cryptobench.store.model import CellRecord

CV_HIGH = 0.05
STEAL_HIGH = 1.0  # percent of the host's time
OTHER_CORES = 0.5  # cores busy beyond our own driver's one


def target_of(cell: CellRecord) -> float | None:
    p = cell.extra.get("precision")
    t = p.get("target") if isinstance(p, dict) else None
    return float(t) if isinstance(t, (int, float)) and t > 0 else None


def missed(cell: CellRecord, s: stats.Summary) -> float | None:
    """The target the cell did not reach, or None when it reached it (or had none)."""
    target = target_of(cell)
    return target if target is not None and s.ci_rel_halfwidth > target else None


def reasons(cell: CellRecord, s: stats.Summary) -> list[str]:
    out = []
    if s.cv > CV_HIGH:
        out.append(f"CV {s.cv * 100:.1f}%")
    sizes = cell.round_sizes
    if len(sizes) >= 2 and sum(sizes) == len(cell.samples_ns):
        medians = stats.round_medians(cell.per_op_ns, sizes)
        drift = max(medians) / min(medians) - 1
        if drift > 2 * (target_of(cell) or 0.01):
            out.append(f"its rounds' medians differ by {drift * 100:.1f}% (the host drifted)")
    host = cell.extra.get("host") if isinstance(cell.extra.get("host"), dict) else {}
    steal = host.get("steal_pct")
    if isinstance(steal, (int, float)) and steal >= STEAL_HIGH:
        out.append(f"steal time {steal:.1f}%")
    busy = host.get("busy_cores")
    if isinstance(busy, (int, float)) and busy - 1 >= OTHER_CORES:
        out.append(f"{busy - 1:.1f} cores busy with other work")
    if not out:
        out.append(f"the budget ran out at {s.n} samples")
    return out
