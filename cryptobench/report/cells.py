"""The text of one table row, shared by the terminal and Markdown reports."""

from __future__ import annotations

from cryptobench.core.units import format_ns, format_rate, format_size
from cryptobench.measure import cycles
from cryptobench.report.model import Row
from cryptobench.report.row_figures import ONE_SAMPLE, single

# the figures a table can show (`--unit`, repeatable): their column titles
UNIT_TITLES = {"ns": "median/op", "mbs": "MB/s", "ops": "ops/s", "cpb": "TSC cycles"}
DEFAULT_UNITS = ("ns", "mbs", "ops")


def verdict_legend(noise: float, shown: str = "speed") -> str:
    """What a verdict means and which way the figure beside it points: every report's legend."""
    pct = f"±{noise * 100:g}%"
    way = (
        "speed = baseline time / this provider's time, so above 1x is faster than the baseline"
        if shown == "speed"
        else "Δ time = subject / reference - 1, so negative is faster"
    )
    return (
        f"Verdict: the whole 95% interval against the {pct} noise threshold (--noise; differences that small come "
        f"and go between runs of one machine): faster or slower when all of it lies beyond {pct}, "
        f"same (within noise) when all of it lies inside {pct}, unclear when it crosses {pct}. {way[0].upper()}{way[1:]}."
    )


def estimator_note(rows: list[Row]) -> str:
    """How this report's speed intervals were made: paired within the run, or from two medians."""
    compared = [r for r in rows if r.ratio is not None and not r.is_baseline]
    paired = [r for r in compared if r.pairs]
    if not compared:
        return ""
    if not paired:
        return (
            "Speed intervals combine the two medians' independent intervals (the cells were not measured in pair "
            "rounds: one provider alone, or run with --no-pairing)."
        )
    rest = len(compared) - len(paired)
    tail = f"; the other {rest} combine the two medians' independent intervals (too few pairs)" if rest else ""
    batches = sorted({getattr(r.ratio, "batches", 1) for r in paired})  # --pair-batches, or blocks of rounds
    fastest = f"{batches[0]}" if len(batches) == 1 else f"{batches[0]}-{batches[-1]}"
    return (
        f"Speed intervals are paired: {len(paired)} of {len(compared)} from batch-for-batch pair rounds within this "
        f"run (median of the pairs' ratios, each side by its fastest of {fastest} batches taken together; "
        f"{min(r.pairs for r in paired)}-{max(r.pairs for r in paired)} pairs each; interference that hits both "
        f"providers of a pair cancels, a batch slowed alone is left out; docs/measurement.md){tail}."
    )


def rate_text(r: Row | None) -> str:
    """One operation's rate and its interval in a summary table (sizes, TLS): "—" when the provider has
    no such row, FAILED when it failed."""
    if r is None:
        return "—"
    return f"{r.ops_per_s():,.0f}/s ±{r.summary.ci_rel_halfwidth * 100:.1f}%" if r.ok else "FAILED"


def headers(units: tuple[str, ...] = DEFAULT_UNITS) -> list[str]:
    return ["provider", "size", *(UNIT_TITLES[u] for u in units), "95% CI", "speed vs baseline [95% CI]", "verdict"]


def size_label(r: Row) -> str:
    s = format_size(r.cell.size)
    return f"{s} ({format_size(r.cell.chunk)} chunks)" if r.cell.chunk else s


def speed_text(r: Row) -> str:
    if r.is_baseline:
        return "1.00x (baseline)"
    sp = r.speedup
    if sp is None:
        return "-"
    if r.verdict == ONE_SAMPLE:
        return f"{sp[0]:.2f}x (no interval)"
    return f"{sp[0]:.2f}x [{sp[1]:.2f}-{sp[2]:.2f}]"


def cycles_note(units: tuple[str, ...], hz: float | None) -> str:
    """The one line every format prints under its tables when they show cycles."""
    if "cpb" not in units or not hz:
        return ""
    return (
        f"TSC cycles are {cycles.LABEL} (the invariant time-stamp counter, {hz / 1e9:.3f} GHz), not core cycles: "
        "counted by the driver beside its clock where it reads the counter (C, Rust, Go, Python), time x that rate for "
        "the others; per byte for messages, per operation for the rest."
    )


def cycles_text(r: Row, hz: float | None) -> str:
    """Reference cycles per byte for messages, per operation for the rest; "-" without a rate."""
    if not hz:
        return "-"
    per_op, _ = cycles.cell_per_op(r.cell, r.summary.median, hz)
    if r.cell.size and r.mb_per_s() == r.mb_per_s():  # a message length that means bytes per second
        return f"{per_op / r.cell.size:,.2f} /B"
    return f"{format_rate(per_op)} /op"


def _figure(r: Row, unit: str, hz: float | None) -> str:
    if unit == "ns":
        return format_ns(r.summary.median)
    if unit == "mbs":
        mbs = r.mb_per_s()
        return f"{mbs:,.1f}" if mbs == mbs else "-"
    if unit == "ops":
        return format_rate(r.ops_per_s())
    return cycles_text(r, hz)


def row_cells(r: Row, units: tuple[str, ...] = DEFAULT_UNITS, hz: float | None = None) -> list[str]:
    if not r.ok:
        short = "not offered" if r.cell.status == "not-offered" else r.cell.status
        return [r.provider, size_label(r), short, *[""] * len(units), "", "", r.cell.reason or r.cell.status]
    s = r.summary
    flags = []
    if r.checksum_mismatch:
        flags.append("OUTPUT DIFFERS")
    flags += r.notes
    verdict = r.verdict + (f" ({'; '.join(flags)})" if flags else "")
    return [
        r.provider,
        size_label(r),
        *(_figure(r, u, hz) for u in units),
        "n=1: none" if single(r) else f"±{s.ci_rel_halfwidth * 100:.1f}%",
        speed_text(r),
        verdict.strip(),
    ]
