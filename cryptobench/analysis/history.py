"""History: one cell's figure over runs, and where it changed.

A series is one (machine, provider, algorithm, operation, size, chunk) over complete runs, oldest
first: each point is a run's median with its 95% interval, the cryptobench commit, the library
version the driver reported and the CPU features switched off. Change points are found by
`ruptures` (PELT, least-squares cost) on log(median) scaled by the series' noise, with a BIC-like
penalty; each change gets a verdict as `compare` gives one: the median of the runs after it
against the median of the runs before it, with a 95% interval: `faster`/`slower` (a change, what
`--fail-on-change` fails on) when the whole interval lies beyond the noise threshold,
`same (within noise)` when it lies inside it, `unclear` when it crosses it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from cryptobench.analysis import between_runs, stats
from cryptobench.core.errors import UserError

MIN_POINTS = 4  # fewer runs than this: no change can be told from noise


@dataclass
class Point:
    run: dict  # id, uid, started, suite, label, machine, commit, cpu_features, library_version
    median_ns: float
    low_ns: float
    high_ns: float


@dataclass
class Change:
    index: int  # the first point after the change
    before_ns: float
    after_ns: float
    ratio: stats.Ratio
    verdict: str

    @property
    def percent(self) -> float:
        return self.ratio.percent


@dataclass
class Series:
    machine: str
    provider: str
    alg: str
    op: str
    size: int
    chunk: int
    points: list[Point] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    note: str = ""  # why no change could be looked for

    @property
    def title(self) -> str:
        from cryptobench.core.units import format_size

        where = f" {format_size(self.size)}" if self.size else ""
        where += f" in {format_size(self.chunk)} chunks" if self.chunk else ""
        return f"{self.provider} {self.alg} {self.op}{where} on {self.machine}"


def load(store, alg: str, provider: str | None, machine: str | None, op: str | None, size: int | None) -> list[Series]:
    found: dict[tuple, Series] = {}
    for run, cell in store.series_cells(alg, provider, machine):
        if op and cell.op != op or size is not None and cell.size != size or not cell.measured:
            continue
        key = (run["machine"], cell.provider, cell.op, cell.size, cell.chunk)
        s = found.setdefault(key, Series(key[0], key[1], alg, key[2], key[3], key[4]))
        summary = cell.summary()
        s.points.append(Point(run, summary.median, summary.ci_low, summary.ci_high))
    if not found:
        what = " ".join(x for x in (provider, alg, op) if x)
        raise UserError(
            f"no measured {what} cell in any complete run" + (f" of machine {machine!r}" if machine else "")
        )
    return sorted(found.values(), key=lambda s: (s.machine, s.provider, s.op, s.size, s.chunk))


def _noise_sigma(points: list[Point]) -> float:
    """The spread of log(median) from one run to the next when nothing changed: the larger of the runs'
    own intervals and the typical step between neighbours (robust to a few real changes)."""
    own = [(math.log(p.high_ns) - math.log(p.low_ns)) / (2 * stats.Z95) for p in points if p.low_ns > 0]
    between = between_runs.step_spread([math.log(p.median_ns) for p in points])
    return max(stats.median(own) if own else 0.0, between, 1e-4)


def _segment_summary(points: list[Point]) -> stats.Summary:
    return stats.summarize([p.median_ns for p in points])


def detect(series: Series, noise: float) -> None:
    """Find the series' change points (ruptures) and give each a verdict."""
    import numpy as np
    import ruptures

    n = len(series.points)
    if n < MIN_POINTS:
        series.note = f"{n} run{'s' if n != 1 else ''}: at least {MIN_POINTS} are needed to look for a change"
        return
    sigma = _noise_sigma(series.points)
    signal = np.array([[math.log(p.median_ns) / sigma] for p in series.points])
    breaks = ruptures.Pelt(model="l2", min_size=2, jump=1).fit(signal).predict(pen=3 * math.log(n))
    edges = [0, *breaks]
    for i in range(1, len(edges) - 1):
        before = series.points[edges[i - 1] : edges[i]]
        after = series.points[edges[i] : edges[i + 1]]
        b, a = _segment_summary(before), _segment_summary(after)
        r = stats.ratio(a, b)
        series.changes.append(Change(edges[i], b.median, a.median, r, stats.verdict(r, noise)))


def history(store, alg: str, provider: str | None, machine: str | None, op: str | None, size: int | None,
            noise: float) -> list[Series]:  # fmt: skip
    out = load(store, alg, provider, machine, op, size)
    for s in out:
        detect(s, noise)
    return out


def significant(series: list[Series]) -> list[tuple[Series, Change]]:
    return [(s, c) for s in series for c in s.changes if c.verdict in stats.CHANGED]
