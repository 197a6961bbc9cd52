"""Comparisons: two stored runs cell by cell, or providers against a reference within one run.

A row pairs a reference cell with a subject cell measuring the same thing
(algorithm, operation, size, chunk — and for run-vs-run, provider). The ratio
is subject time / reference time with its 95% interval; the verdict is `faster`/`slower` when the
whole interval lies beyond the noise threshold, `same (within noise)` when it lies inside it, and
`unclear` when it crosses it (stats.verdict, as `run`'s reports give it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cryptobench.analysis import paired, stats
from cryptobench.core.errors import UserError
from cryptobench.measure import probe
from cryptobench.report import noise_level
from cryptobench.store.model import CellRecord, RunRecord


@dataclass
class Pair:
    key: tuple  # (provider or "", alg, op, size, chunk)
    reference: CellRecord
    subject: CellRecord
    ref_summary: stats.Summary
    sub_summary: stats.Summary
    ratio: stats.Ratio
    verdict: str

    @property
    def alg(self) -> str:
        return self.reference.alg

    @property
    def pairs(self) -> int:
        """How many batch-for-batch pairs made the interval (0: the two medians' independent intervals)."""
        return getattr(self.ratio, "pairs", 0)


HOST_LIMIT = 0.10  # the host probe moved more than this: cells cannot be told from the host
HOST_UNSTEADY = 0.05  # a run whose probe varied more than this (CV): the host was not steady


@dataclass(frozen=True)
class HostShift:
    """How the host itself moved between two runs, by the probe both took (probe.py): the subject
    run's probe time over the reference's, and whether the runs can be compared honestly."""

    ratio: stats.Ratio
    verdict: str  # of the probe: same (within noise), faster, slower, unclear
    problem: str = ""  # why the runs cannot be compared honestly ("" when they can)

    @property
    def moved(self) -> bool:
        return self.verdict in stats.CHANGED


def host_shift(ref: RunRecord, sub: RunRecord, noise: float) -> tuple[HostShift | None, str]:
    """The host's move between two runs, or None and why it cannot be told."""
    pr, ps = (r.env.get("probe") for r in (ref, sub))
    a, b = probe.summary_of(pr), probe.summary_of(ps)
    missing = [f"run {r.id}" for r, x in ((ref, a), (sub, b)) if x is None]
    if missing:
        return (
            None,
            f"no host probe in {' and '.join(missing)} (stored before probes were taken, or c:openssl was missing)",
        )
    r = stats.ratio(b, a)
    problems = []
    if abs(r.value - 1) > HOST_LIMIT:
        problems.append(f"the host itself was {abs(r.percent):.0f}% {'slower' if r.value > 1 else 'faster'}")
    for run, x in ((ref, a), (sub, b)):
        if x.cv > HOST_UNSTEADY:
            problems.append(f"the host was unsteady during run {run.id} (probe CV {x.cv * 100:.0f}%)")
    cpus = {r_.env.get("cpu_model") for r_ in (ref, sub)}
    if len(cpus) > 1:
        problems.append("the runs come from different CPUs")
    return HostShift(r, stats.verdict(r, noise / 2), "; ".join(problems)), ""


@dataclass
class Comparison:
    mode: str  # runs | providers | machines
    reference_label: str
    subject_labels: list[str]
    noise: float
    runs: list[RunRecord]
    pairs: dict[str, list[Pair]] = field(default_factory=dict)  # subject label -> pairs
    only_reference: list[str] = field(default_factory=list)
    only_subject: list[str] = field(default_factory=list)
    clock_hz: dict[str, float] = field(default_factory=dict)  # machines: each one's highest reported clock
    host: HostShift | None = None  # runs: how the host moved between them (the probe)
    host_unknown: str = ""  # runs: why the host's move cannot be told
    noise_levels: dict = field(default_factory=dict)  # run id -> noise_level.NoiseLevel: each run's conditions
    history_widened: int | None = None  # runs: cells widened to their run-to-run spread (None: not looked for)

    def per_cycle(self, label: str, p: Pair) -> tuple[float, float, float] | None:
        """The time ratio per cycle (machines with known clocks): times scaled by each one's clock."""
        ref_hz, sub_hz = self.clock_hz.get(self.reference_label), self.clock_hz.get(label)
        if not ref_hz or not sub_hz:
            return None
        f = sub_hz / ref_hz
        return p.ratio.value * f, p.ratio.low * f, p.ratio.high * f

    def all_pairs(self) -> list[Pair]:
        return [p for ps in self.pairs.values() for p in ps]

    def regressions(self, pct: float) -> list[Pair]:
        """Pairs significantly slower by more than `pct` percent: the whole interval above 1 + pct."""
        return [p for p in self.all_pairs() if p.ratio.low > 1 + pct / 100]

    def shift(self) -> float | None:
        """Median change in percent over every compared cell: how the run as a whole moved."""
        deltas = [p.ratio.percent for p in self.all_pairs()]
        return stats.median(deltas) if deltas else None

    def same_fraction(self, predicate=lambda p: True) -> tuple[int, int]:
        chosen = [p for p in self.all_pairs() if predicate(p)]
        return sum(p.verdict == stats.SAME for p in chosen), len(chosen)


def _ok(cells: list[CellRecord]) -> list[CellRecord]:
    return [c for c in cells if c.measured]


def _describe(key: tuple) -> str:
    from cryptobench.core.units import format_size

    provider, alg, op, size, chunk = key
    chunk_s = f" in {format_size(chunk)} chunks" if chunk else ""
    return f"{provider + ' ' if provider else ''}{alg} {op} {format_size(size)}{chunk_s}"


def _pair(key, ref: CellRecord, sub: CellRecord, noise: float, same_run: bool = False, floor: float = 0.0) -> Pair:
    """One compared cell. Two providers of one run measured in pair rounds get the paired ratio
    (paired.py); cells of two runs or machines were never measured together: independent interval,
    each side at least `floor` wide (the cell's run-to-run spread, where history tells it)."""
    rs = ref.summary()
    ss = sub.summary()
    r = (paired.ratio(sub.pair_side, ref.pair_side) if same_run else None) or stats.ratio(ss, rs, floor)
    return Pair(key, ref, sub, rs, ss, r, stats.verdict(r, noise))


def compare_runs(
    a: tuple[RunRecord, list[CellRecord]],
    b: tuple[RunRecord, list[CellRecord]],
    noise: float,
    between: dict[tuple, float] | None = None,
) -> Comparison:
    """Run B against run A cell by cell. `between`: per (provider, alg, op, size, chunk), the cell's
    run-to-run spread of log(median) on their machine (between_runs.of_cells), each run's least error."""
    (run_a, cells_a), (run_b, cells_b) = a, b
    looked, between = between is not None, between or {}
    ka = {(c.provider, *c.key): c for c in _ok(cells_a)}
    kb = {(c.provider, *c.key): c for c in _ok(cells_b)}
    label_a, label_b = f"run {run_a.id}", f"run {run_b.id}"
    comp = Comparison("runs", label_a, [label_b], noise, [run_a, run_b])
    comp.host, comp.host_unknown = host_shift(run_a, run_b, noise)
    comp.noise_levels = {r.id: noise_level.measure(r, cs) for r, cs in (a, b)}
    comp.pairs[label_b] = [_pair(k, ka[k], kb[k], noise, floor=between.get(k, 0.0)) for k in ka if k in kb]
    comp.history_widened = sum(k in between for k in ka if k in kb) if looked else None
    comp.only_reference = [_describe(k) for k in ka if k not in kb]
    comp.only_subject = [_describe(k) for k in kb if k not in ka]
    if not comp.pairs[label_b]:
        raise UserError(f"runs {run_a.id} and {run_b.id} have no measured cell in common")
    return comp


def compare_providers(run: RunRecord, cells: list[CellRecord], providers: list[str], noise: float) -> Comparison:
    if len(providers) < 2:
        raise UserError("--providers needs at least two provider ids, e.g. c:openssl,go:stdlib")
    by_provider: dict[str, dict[tuple, CellRecord]] = {p: {} for p in providers}
    for c in _ok(cells):
        if c.provider in by_provider:
            by_provider[c.provider][("", *c.key)] = c
    for p in providers:
        if not by_provider[p]:
            known = ", ".join(sorted(run.providers)) or "none"
            raise UserError(f"provider {p!r} has no measured cell in run {run.id} (providers in it: {known})")
    ref_label, subjects = providers[0], providers[1:]
    comp = Comparison("providers", ref_label, subjects, noise, [run])
    comp.noise_levels = {run.id: noise_level.measure(run, cells)}
    ref = by_provider[ref_label]
    for s in subjects:
        sub = by_provider[s]
        comp.pairs[s] = [_pair(k, ref[k], sub[k], noise, same_run=True) for k in ref if k in sub]
        comp.only_subject += [f"{s}: {_describe(k)}" for k in sub if k not in ref]
    every_subject = set().union(*(by_provider[s].keys() for s in subjects))
    comp.only_reference = [f"{ref_label}: {_describe(k)}" for k in ref if k not in every_subject]
    return comp


def latest_of_machine(store, machine: str, suite: str | None) -> int:
    """The newest complete run of a machine (of a suite, if given)."""
    runs = [r for r in store.list_runs(machine=machine) if r["status"] == "complete" and suite in (None, r["suite"])]
    if not runs:
        known = sorted({r["machine_label"] for r in store.list_runs() if r["machine_label"]})
        of = f" of suite {suite!r}" if suite else ""
        raise UserError(f"no complete run{of} from machine {machine!r} (machines: {', '.join(known) or 'none'})")
    return runs[-1]["id"]


def compare_machines(runs: list[tuple[str, RunRecord, list[CellRecord]]], noise: float) -> Comparison:
    """The latest run of each machine against the first machine's, cell by cell (same provider)."""
    if len(runs) < 2:
        raise UserError("--machines needs at least two machine labels, e.g. --machines laptop,pi5")
    (ref_label, _, ref_cells), subjects = runs[0], runs[1:]
    ref = {(c.provider, *c.key): c for c in _ok(ref_cells)}
    comp = Comparison("machines", ref_label, [s[0] for s in subjects], noise, [r for _, r, _ in runs])
    comp.noise_levels = {r.id: noise_level.measure(r, cs) for _, r, cs in runs}
    for label, run, _ in runs:
        hz = (run.env.get("machine_limits") or {}).get("max_hz")
        if isinstance(hz, int | float) and hz > 0:
            comp.clock_hz[label] = float(hz)
    seen: set = set()
    for label, _run, cells in subjects:
        sub = {(c.provider, *c.key): c for c in _ok(cells)}
        comp.pairs[label] = [_pair(k, ref[k], sub[k], noise) for k in ref if k in sub]
        comp.only_subject += [f"{label}: {_describe(k)}" for k in sub if k not in ref]
        seen |= set(sub)
    comp.only_reference = [f"{ref_label}: {_describe(k)}" for k in ref if k not in seen]
    if not comp.all_pairs():
        raise UserError(f"the latest runs of {', '.join(r[0] for r in runs)} have no measured cell in common")
    return comp
