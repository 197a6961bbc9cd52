"""A history's series (analysis/history.py) as rows, summaries and records, for every format
(formats/history.py lays them out)."""

from __future__ import annotations

from cryptobench import RESULT_SCHEMA_VERSION
from cryptobench.analysis.history import Change, Series
from cryptobench.core.units import format_ns, throughput

HEADERS = ["#", "run", "started", "median /op [95% CI]", "commit", "library", "CPU features off", "change"]


def delta(c: Change) -> str:
    """The change in time per operation with its 95% interval: +99.8% [+97.1, +102.6]."""
    return f"{c.percent:+.1f}% [{(c.ratio.low - 1) * 100:+.1f}, {(c.ratio.high - 1) * 100:+.1f}]"


def _change_at(s: Series, i: int) -> str:
    c = next((c for c in s.changes if c.index == i), None)
    return "" if c is None else f"← {delta(c)} {c.verdict}"


def rows(s: Series) -> list[list[str]]:
    return [
        [str(i + 1), str(p.run["id"]), p.run["started"], f"{format_ns(p.median_ns)} [{format_ns(p.low_ns)}, "
         f"{format_ns(p.high_ns)}]", (p.run["commit"] or "?")[:12], p.run["library_version"] or "?",
         p.run["cpu_features"] or "-", _change_at(s, i)]
        for i, p in enumerate(s.points)
    ]  # fmt: skip


def summary(s: Series) -> str:
    if s.note:
        return f"{s.title}: {s.note}"
    if not s.changes:
        return f"{s.title}: {len(s.points)} runs, no change point found"
    parts = [f"before run #{c.index + 1}: {c.percent:+.1f}% {c.verdict}" for c in s.changes]
    return f"{s.title}: {len(s.points)} runs, {len(s.changes)} change point(s): " + "; ".join(parts)


INTRO = ("Change points found by ruptures (PELT, least squares on log median scaled by the series' noise); each "
         "verdict compares the runs after a change with the runs before it (95% interval, noise threshold).")  # fmt: skip


def to_dict(series: list[Series]) -> dict:
    return {
        "schema": "cryptobench-history",
        "schema_version": RESULT_SCHEMA_VERSION,
        "method": "ruptures PELT (l2) on log(median)/sigma, penalty 3 ln n, min segment 2 runs",
        "series": [
            {
                "machine": s.machine, "provider": s.provider, "alg": s.alg, "op": s.op, "size": s.size,
                "chunk": s.chunk, "note": s.note or None,
                "points": [{**p.run, "median_ns": p.median_ns, "ci95_ns": [p.low_ns, p.high_ns]} for p in s.points],
                "changes": [{"index": c.index, "run": s.points[c.index].run["id"], "before_ns": c.before_ns,
                             "after_ns": c.after_ns, "time_ratio": c.ratio.value,
                             "time_ratio_ci95": [c.ratio.low, c.ratio.high], "verdict": c.verdict}
                            for c in s.changes],
            }
            for s in series
        ],
    }  # fmt: skip


def chart_data(series: list[Series], href=None) -> dict:
    """What history.js draws: per series, per run, throughput (MB/s with a message, op/s without)."""
    out = []
    for s in series:
        points, unit = [], ""
        for p in s.points:
            (value, unit), (low, _), (high, _) = (throughput(s.size, ns) for ns in (p.median_ns, p.high_ns, p.low_ns))
            points.append({"run": p.run["id"], "started": p.run["started"], "value": value, "low": low,
                           "high": high, "commit": p.run["commit"], "library": p.run["library_version"],
                           "features": p.run["cpu_features"], "href": href(p.run) if href else None})  # fmt: skip
        out.append({
            "title": s.title, "unit": unit, "points": points,
            "changes": [{"index": c.index, "percent": c.percent, "verdict": c.verdict} for c in s.changes],
        })  # fmt: skip
    return {"series": out}
