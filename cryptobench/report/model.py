"""What every report shows, computed once from a stored run.

Formats (terminal, markdown, json, csv) only lay this out; none of them
computes a statistic of its own, so they can never disagree.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from cryptobench.analysis import access_path, paired, stats
from cryptobench.core import algorithms, declared
from cryptobench.core.units import format_ns, format_size
from cryptobench.measure import cycles
from cryptobench.measure.sampler import CLOCK_FACTOR  # a sample should last this many clock ticks at least
from cryptobench.report import noise_level, precision
from cryptobench.report.row_figures import ONE_SAMPLE, single
from cryptobench.store.model import CellRecord, RunRecord, VerifyRecord

CV_LIMIT = 0.05
BUSY_ROUND_SPREAD = 1.25  # a round this much slower than another in the same cell: something else ran
PAIRED_ROUND = 5  # one-batch requests of a paired cell read as a round (the unpaired rounds' size)
BUSY_CELL_SHARE = 0.5  # ...in half the cells: the whole run was disturbed (single slow rounds are common here)


class Note(str):
    """A warning: its text, what kind it is (the terminal counts them by kind) and how bad (the worst
    of a kind are named first). A str, so every format can print it as it is."""

    kind: str
    weight: float

    def __new__(cls, text: str, kind: str, weight: float = 0.0) -> Note:
        note = super().__new__(cls, text)
        note.kind, note.weight = kind, weight
        return note


# what each kind of warning says, as the terminal's summary line names it
NOTE_KINDS = {
    "busy": "the machine was busy",
    "cv": f"coefficient of variation over {CV_LIMIT * 100:.0f}%",
    "clock": f"samples within {CLOCK_FACTOR}x the clock resolution",
    "clock-tsc": "a driver's clock and cycle counter disagree",
    "checksum-unstable": "output changed between rounds",
    "interrupted": "interrupted before the interval was tight",
    "precision": "interval wider than the precision aimed for",
    "within-noise": "beyond the noise by the median, not by the whole interval (unclear)",
    "outputs-disagree": "outputs disagree between providers",
    "identical-figures": "identical figures in different cells",
    "identical-table": "a whole table with one figure",
    "pathology": "access-path pathology",
    "cross-verification": "cross-verification failed",
    "library-memory": "a library held a streamed message in memory",
    "one-op": "one operation over five budgets: measured once, no interval",
}


@dataclass
class Row:
    cell: CellRecord
    summary: stats.Summary | None = None
    ratio: stats.Ratio | None = None  # time(provider) / time(baseline)
    verdict: str = ""
    is_baseline: bool = False
    checksum_mismatch: bool = False
    notes: list[str] = field(default_factory=list)
    base: Row | None = None  # the baseline's row of the same cell, when it has one

    @property
    def provider(self) -> str:
        return self.cell.provider

    @property
    def ok(self) -> bool:
        return self.cell.status == "ok" and self.summary is not None

    @property
    def public_key(self) -> bool:
        """Rated per operation (public keys, handshakes, key derivation), not per byte."""
        return algorithms.get(self.cell.alg).per_operation if self.cell.alg in algorithms.ALGORITHMS else False

    def mb_per_s(self, ns: float | None = None) -> float:
        if self.public_key:
            return float("nan")  # bytes per second mean nothing for a signature or a key pair
        ns = self.summary.median if ns is None else ns
        return self.cell.size / ns * 1e3 if ns and self.cell.size else float("nan")

    def ops_per_s(self, ns: float | None = None) -> float:
        ns = self.summary.median if ns is None else ns
        return 1e9 / ns if ns else float("nan")

    @property
    def speedup(self) -> tuple[float, float, float] | None:
        return self.ratio.speedup if self.ratio else None

    @property
    def pairs(self) -> int:
        """How many pairs its ratio was estimated from (0: the independent interval of two medians)."""
        return getattr(self.ratio, "pairs", 0)

    @property
    def pair_list(self) -> list[paired.Pair]:
        """The pairs behind a paired ratio (empty otherwise)."""
        if not self.pairs or self.base is None:
            return []
        return paired.pairs(self.cell.pair_side, self.base.cell.pair_side)


@dataclass
class Table:
    alg: str
    op: str
    rows: list[Row]


@dataclass
class Report:
    run: RunRecord
    verifications: list[VerifyRecord]
    tables: list[Table]
    baseline: str
    noise: float
    warnings: list[str]
    failures: list[str]
    not_offered: list[str]
    layout: str = "table"  # table | matrix
    # flagged access-path pathologies: {"provider", "alg", "op", "why"} (filled by the granularity analysis)
    pathologies: list[dict] = field(default_factory=list)
    crosschecks: list = field(default_factory=list)  # crosscheck.CrossRecord
    overheads: list = field(default_factory=list)  # access_path.Fit
    references: list = field(default_factory=list)  # references.Reference for algorithms in this run
    normalise: tuple[float, str] | None = None  # (factor, reason): the reader's opt-in to cross-machine ratios
    binding_costs: list[dict] = field(default_factory=list)
    units: tuple[str, ...] = ("ns", "mbs", "ops")  # the figures tables show (`--unit`, report/cells.py)
    cycles_hz: float | None = None  # the invariant TSC's rate (cycles.py), None: no cycles shown
    noise_level: noise_level.NoiseLevel | None = None  # how disturbed the machine was (noise_level.py)

    @property
    def rows(self) -> list[Row]:
        return [r for t in self.tables for r in t.rows]

    @property
    def scaling(self) -> list[dict]:
        """The run's multi-core scaling records (`--workers`; store/model.py's RunRecord.scaling)."""
        return self.run.scaling

    @property
    def leak(self) -> list[dict]:
        """The run's leak checks (RunRecord.leak)."""
        return self.run.leak


def _where(c: CellRecord) -> str:
    return algorithms.message_label(c.alg, c.size, c.chunk)


def _label(c: CellRecord) -> str:
    where = _where(c)
    return f"{c.provider} {c.alg} {c.op}" + (f" {where}" if where else "")


def build_report(
    run: RunRecord,
    verifs: list[VerifyRecord],
    cells: list[CellRecord],
    baseline: str | None = None,
    layout: str | None = None,
    crosschecks: list | None = None,
    references: list | None = None,
    normalise: tuple[float, str] | None = None,
) -> Report:
    declared.from_hellos(run.providers)  # the run's algorithms of its providers' own, "declared by" in every format
    baseline = baseline or run.settings.get("baseline", "c:openssl")
    noise = float(run.settings.get("noise", 0.02))
    warnings: list[str] = []
    failures: list[str] = []
    not_offered: list[str] = []
    rows = []
    for c in cells:
        row = Row(c)
        if declared.mark(c.alg):  # beside its figures in every table (the verdict column's notes)
            row.notes.append(declared.mark(c.alg))
        if c.measured:
            row.summary = c.summary()
        elif c.status == "ok":  # stored before samples were checked: not a measurement
            failures.append(f"{_label(c)}: failed: the stored samples are not durations (0 ns or not a number)")
        elif c.status == "not-offered":
            not_offered.append((c, c.reason))
        else:
            failures.append(f"{_label(c)}: {c.reason}")
        rows.append(row)

    # an algorithm verified on too few cases is timed but never compared (cryptobench/verify/conformance.py)
    unverified = {(v.provider, v.alg): v.detail.split(":")[0] for v in verifs if v.status == "unverified"}
    by_key: dict[tuple, list[Row]] = defaultdict(list)
    for r in rows:
        by_key[r.cell.key].append(r)
    for key, group in by_key.items():
        for r in group:
            if r.ok and (r.provider, r.cell.alg) in unverified:
                r.verdict = unverified[(r.provider, r.cell.alg)]
        comparable_rows = [r for r in group if (r.provider, r.cell.alg) not in unverified]
        base = next((r for r in comparable_rows if r.provider == baseline and r.ok), None)
        comparable = key[0] in algorithms.ALGORITHMS and algorithms.get(key[0]).deterministic(key[1])
        sums = {r.cell.checksum for r in group if r.ok} if comparable else set()
        for r in comparable_rows:
            if base is not None and r.ok:
                r.is_baseline = r is base
                r.base = base
                r.ratio = within_run_ratio(r, base)
                alone = single(r) or single(base)
                r.verdict = "baseline" if r.is_baseline else ONE_SAMPLE if alone else stats.verdict(r.ratio, noise)
        for r in group:
            if r.ok and len(sums) > 1:
                r.checksum_mismatch = True
        if len(sums) > 1:
            detail = ", ".join(f"{r.provider}={r.cell.checksum}" for r in group if r.ok)
            warnings.append(
                Note(f"outputs disagree for {key[0]} {key[1]} {format_size(key[2])}: {detail}", "outputs-disagree")
            )

    resolution = {pid: (h.get("clock") or {}).get("resolution_ns") or 0 for pid, h in run.providers.items()}
    for r in rows:
        if not r.ok:
            continue
        _cell_warnings(r, resolution.get(r.provider, 0), noise, warnings)
        _clock_warning(r, cycles.rate_of(run.env), warnings)
    warnings += _identical_figures(rows)
    busy = _busy_machine(rows)
    if busy:
        warnings.insert(0, busy)

    tables: dict[tuple[str, str], Table] = {}
    for r in rows:
        tables.setdefault((r.cell.alg, r.cell.op), Table(r.cell.alg, r.cell.op, [])).rows.append(r)
    provider_order = {p: i for i, p in enumerate([baseline, *sorted(run.providers)])}
    for t in tables.values():
        t.rows.sort(key=lambda r: (r.cell.size, r.cell.chunk, provider_order.get(r.provider, 99), r.provider))
    # the catalogue's order (the suites'), not the order cells were stored in: not-offered cells are
    # stored first, and passes finish cells out of order
    names = list(algorithms.ALGORITHMS)

    def order(key: tuple[str, str]) -> tuple:
        alg, op = key
        known = alg in algorithms.ALGORITHMS
        ops = algorithms.get(alg).ops if known else ()
        return (names.index(alg) if known else len(names), alg, ops.index(op) if op in ops else len(ops), op)

    tables = {k: tables[k] for k in sorted(tables, key=order)}
    warnings += _identical_tables(list(tables.values()))
    present = {(r.cell.alg, r.cell.op) for r in rows}
    crosschecks = crosschecks or []
    overheads = access_path.overhead_models(rows)
    pathologies = access_path.pathologies(rows)
    seen = {(p["provider"], p["alg"], p["op"]) for p in pathologies}
    pathologies += [
        p for p in access_path.binding_pathologies(overheads) if (p["provider"], p["alg"], p["op"]) not in seen
    ]
    for p in pathologies:
        warnings.append(Note(f"access-path pathology: {p['provider']} {p['alg']} {p['op']}: {p['why']}", "pathology"))
    for c in [c for c in crosschecks if not c.passed][:20]:
        text = f"cross-verification {c.alg}: {c.check} ({c.producer} -> {c.consumer}) failed: {c.detail}"
        warnings.append(Note(text, "cross-verification"))
    return Report(
        run,
        verifs,
        list(tables.values()),
        baseline,
        noise,
        warnings,
        failures,
        _group_not_offered(not_offered),
        layout or run.settings.get("layout", "table"),
        pathologies=pathologies,
        crosschecks=crosschecks,
        overheads=overheads,
        references=[ref for ref in references or [] if (ref.alg, ref.op) in present],
        normalise=normalise,
        binding_costs=access_path.binding_costs(overheads),
        cycles_hz=cycles.rate_of(run.env),
        noise_level=noise_level.measure(run, cells),
    )


def load_report(store, run_id: int, baseline: str | None = None, layout: str | None = None,
                normalise: tuple[float, str] | None = None, units: list[str] | None = None) -> Report:  # fmt: skip
    """The report of a stored run, in one step: its cells, verifications, cross-checks and the
    references for what it measured, as every command that shows a run needs them. `units`: the
    figures its tables show (`--unit`; `cpb` refused in one line when the run has no cycle rate)."""
    rep = build_report(
        *store.load_run(run_id),
        baseline=baseline,
        layout=layout,
        crosschecks=store.load_crosschecks(run_id),
        references=store.load_references(),
        normalise=normalise,
    )
    if units:
        if "cpb" in units:
            cycles.require(rep.run.env, run_id)
        rep.units = tuple(units)
    return rep


def within_run_ratio(row: Row, base: Row) -> stats.Ratio:
    """Two rows of one run: the paired ratio when their samples were taken in pair rounds (paired.py),
    else the ratio of the two medians with the independent interval. Never for rows of two runs: their
    pair rounds' numbers are alike but were not measured together. One side measured once: the ratio
    of the figures alone, its interval that point (the reports say n=1 and show no interval)."""
    if single(row) or single(base):
        v = row.summary.median / base.summary.median
        return stats.Ratio(v, v, v)
    if row is not base:
        found = paired.ratio(row.cell.pair_side, base.cell.pair_side)
        if found is not None:
            return found
    return stats.ratio(row.summary, base.summary)


def _rounds_of(c: CellRecord) -> list[int] | None:
    """Its rounds as the busy-machine check reads them: a paired cell's short requests (one batch, or
    `--pair-batches` of them) are taken five batches at a time, so a single slow batch is not called a
    slow round."""
    sizes = c.round_sizes
    if sizes and c.pair_side is not None:
        n = len(c.samples_ns)
        return [min(PAIRED_ROUND, n - i) for i in range(0, n, PAIRED_ROUND)]
    return sizes


def _busy_machine(rows: list[Row]) -> Note | None:
    """One run-level line when many cells had a round far slower than another: other work on the
    machine (or a noisy neighbour on a shared host) then shaped the figures more than the code."""
    spread = []
    for r in rows:
        c = r.cell
        sizes = _rounds_of(c)
        if r.ok and sizes and len(sizes) >= 2 and sum(sizes) == len(c.samples_ns):
            medians = stats.round_medians(c.per_op_ns, sizes)
            spread.append(max(medians) / min(medians) >= BUSY_ROUND_SPREAD)
    if len(spread) < 4 or sum(spread) < BUSY_CELL_SHARE * len(spread):
        return None
    return Note(
        f"the machine was busy during this run: in {sum(spread)} of {len(spread)} cells one round ran at least "
        f"{(BUSY_ROUND_SPREAD - 1) * 100:.0f}% slower than another; intervals are wide, and a comparison with "
        "another run may show the machine rather than the code (re-run on a quiet machine)",
        "busy",
    )


def _clock_warning(r: Row, hz: float | None, out: list[str]) -> None:
    """A driver whose clock and cycle counter disagree over a cell: one of them is not what it claims."""
    off = cycles.clock_disagreement(r.cell, hz) if hz else None
    if off is None or abs(off) <= cycles.CLOCK_TOLERANCE:
        return
    r.notes.append("clock and TSC disagree")
    out.append(
        Note(
            f"{_label(r.cell)}: the driver's clock and its cycle counter disagree by {off * 100:+.1f}% "
            f"(ticks per ns against the run's {hz / 1e9:.3f} GHz): its times or its cycles are wrong",
            "clock-tsc",
            abs(off),
        )
    )


def _cell_warnings(r: Row, resolution_ns: float, noise: float, out: list[str]) -> None:
    s, c = r.summary, r.cell
    if s.cv > CV_LIMIT:
        r.notes.append(f"CV {s.cv * 100:.1f}%")
        out.append(
            Note(f"{_label(c)}: coefficient of variation {s.cv * 100:.1f}% is over {CV_LIMIT * 100:.0f}%", "cv", s.cv)
        )
    sample_ns = stats.median(c.samples_ns)
    if resolution_ns and sample_ns < CLOCK_FACTOR * resolution_ns:
        r.notes.append("near clock resolution")
        out.append(
            Note(
                f"{_label(c)}: a sample lasts {format_ns(sample_ns)}, within {CLOCK_FACTOR}x the clock resolution "
                f"({format_ns(resolution_ns)})",
                "clock",
                resolution_ns / max(sample_ns, 1),
            )
        )
    if c.extra.get("checksum_unstable"):
        r.notes.append("output changed between rounds")
        text = f"{_label(c)}: the driver reported different checksums in different rounds: {c.checksums_seen}"
        out.append(Note(text, "checksum-unstable"))
    mem = c.extra.get("memory")
    if isinstance(mem, dict) and isinstance(mem.get("library_held_bytes"), int):
        held = mem["library_held_bytes"] / 1048576
        r.notes.append(f"library held {held:,.0f} MiB")
        peak = f"peak RSS {c.peak_rss_kb / 1024:,.0f} MiB; " if c.peak_rss_kb else ""
        text = f"{_label(c)}: {peak}the library held {held:,.1f} MiB of its input (measured): {mem.get('why', '')}"
        out.append(Note(text, "library-memory", held))
    if s.n < 2 and not c.extra.get("interrupted"):
        r.notes.append("n=1")
        spent = c.extra.get("spent_s")
        why = (
            f" (its request took {spent:,.0f} s: over five times the cell's budget)"
            if isinstance(spent, (int, float))
            else ""
        )
        text = f"{_label(c)}: one operation lasts {format_ns(s.median)}{why}: measured once (n=1), no interval"
        out.append(Note(text, "one-op", s.median / 1e9))
    if c.extra.get("interrupted"):
        r.notes.append("interrupted")
        out.append(Note(f"{_label(c)}: interrupted before its interval was tight ({s.n} samples)", "interrupted"))
    target = precision.target_of(c)
    if c.pair_side is not None:  # measured in pair rounds: the target was the speed ratio's, not the median's
        width = paired.halfwidth(r.ratio) if r.pairs else 0.0
        if target is not None and width > target and not c.extra.get("interrupted"):
            text = (f"{_label(c)}: speed vs the baseline ±{width * 100:.1f}% from {r.pairs} pairs, aimed for "
                    f"±{target * 100:g}%: the budget ran out")  # fmt: skip
            out.append(Note(text, "precision", width / target))
    elif precision.missed(c, s) is not None and not c.extra.get("interrupted") and s.n >= 2:
        why = ", ".join(precision.reasons(c, s))
        text = f"{_label(c)}: interval ±{s.ci_rel_halfwidth * 100:.1f}%, aimed for ±{target * 100:g}%: {why}"
        out.append(Note(text, "precision", s.ci_rel_halfwidth / target))
    if r.ratio and not r.is_baseline and r.verdict == stats.UNCLEAR and abs(r.ratio.value - 1) > noise:
        # said as the table says it (speed, above 1x = faster), with the time change beside it
        x, lo, hi = r.ratio.speedup
        way = "faster" if x > 1 else "slower"
        text = (
            f"{_label(c)}: {x:.2f}x the baseline's speed ({way}: {r.ratio.percent:+.1f}% time), but its 95% "
            f"interval [{lo:.2f}x-{hi:.2f}x] reaches inside the ±{noise * 100:g}% noise threshold: unclear"
        )
        out.append(Note(text, "within-noise", abs(r.ratio.percent)))


def notes_by_kind_keyed(notes: list[str]) -> list[tuple[str, str, list[str]]]:
    """(kind, the kind's title, its notes worst first) per kind, kinds in order of first appearance."""
    kinds: dict[str, list[str]] = defaultdict(list)
    for n in notes:
        kinds[getattr(n, "kind", "other")].append(n)
    return [
        (kind, NOTE_KINDS.get(kind, "other"), sorted(items, key=lambda n: -getattr(n, "weight", 0.0)))
        for kind, items in kinds.items()
    ]


def notes_by_kind(notes: list[str]) -> list[tuple[str, list[str]]]:
    """(the kind's title, its notes worst first) per kind."""
    return [(title, items) for _kind, title, items in notes_by_kind_keyed(notes)]


def failures_by_reason(rep: Report) -> list[tuple[str, str, list[CellRecord]]]:
    """(provider, reason, its failed cells): a driver that is not built fails every cell the same way."""
    groups: dict[tuple[str, str], list[CellRecord]] = defaultdict(list)
    for r in rep.rows:
        if r.cell.status == "failed" or (r.cell.status == "ok" and r.summary is None):
            reason = r.cell.reason or "failed: the stored samples are not durations (0 ns or not a number)"
            groups[(r.provider, reason)].append(r.cell)
    return [(pid, reason, cells) for (pid, reason), cells in groups.items()]


def _group_not_offered(items: list[tuple[CellRecord, str]]) -> list[str]:
    """One line per provider, algorithm, operation and reason, however many sizes it spans."""
    groups: dict[tuple, list[CellRecord]] = defaultdict(list)
    for c, reason in items:
        groups[(c.provider, c.alg, c.op, reason)].append(c)
    out = []
    for (pid, alg, op, reason), cs in groups.items():
        sizes = ", ".join(dict.fromkeys(w for w in map(_where, cs) if w))
        out.append(f"{pid} {alg} {op}" + (f" ({sizes})" if sizes else "") + f": {reason}")
    return out


def _identical_tables(tables: list[Table]) -> list[str]:
    """A table whose every cell reports the same figure (the "every ECC figure 1,000 op/s" report)."""
    out = []
    for t in tables:
        figs = {f"{r.summary.median:.6g}" for r in t.rows if r.ok}
        n = sum(r.ok for r in t.rows)
        if n >= 2 and len(figs) == 1 and t.alg != "noop":
            text = f"all {n} cells of the {t.alg} {t.op} table report the same figure ({figs.pop()} ns/op)"
            out.append(Note(text, "identical-table"))
    return out


def _identical_figures(rows: list[Row]) -> list[str]:
    """The placeholder signature: different cells reporting the very same figure."""
    seen: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rows:
        if r.ok and r.cell.alg != "noop":
            seen[(r.provider, f"{r.summary.median:.6g}")].append(r)
    out = []
    for (_pid, fig), group in seen.items():
        if len({g.cell.key for g in group}) > 1:
            names = ", ".join(_label(g.cell) for g in group)
            text = f"identical figures ({fig} ns/op) in different cells: {names} — placeholder or broken timer?"
            out.append(Note(text, "identical-figures"))
    return out
