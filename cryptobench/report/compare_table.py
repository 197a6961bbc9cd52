"""Rows and columns of a comparison, shared by its terminal and Markdown renderings."""

from __future__ import annotations

from collections import defaultdict

from cryptobench.analysis import between_runs, stats
from cryptobench.core.units import format_ns, format_size
from cryptobench.report.cells import verdict_legend
from cryptobench.report.compare import Comparison, Pair


def faster_side(p: Pair, ref_label: str, sub_label: str) -> str:
    if p.verdict == stats.FASTER:
        return sub_label
    if p.verdict == stats.SLOWER:
        return ref_label
    return "—"


def delta_text(p: Pair) -> str:
    return f"{p.ratio.percent:+.1f}% [{(p.ratio.low - 1) * 100:+.1f}, {(p.ratio.high - 1) * 100:+.1f}]"


def _by_provider(comp: Comparison) -> bool:
    return comp.mode in ("runs", "machines")


def _cycles(comp: Comparison, label: str) -> bool:
    return comp.mode == "machines" and label in comp.clock_hz and comp.reference_label in comp.clock_hz


def headers(comp: Comparison) -> list[str]:
    first = ["provider", "size"] if _by_provider(comp) else ["size"]
    cols = first + [f"{comp.reference_label} /op"]
    for s in comp.subject_labels:
        cols += [f"{s} /op", "Δ time [95% CI]", "verdict", "faster"]
        cols += ["Δ per cycle (nominal clock)"] if _cycles(comp, s) else []
    return cols


def cycle_text(comp: Comparison, label: str, p: Pair) -> str:
    r = comp.per_cycle(label, p)
    return "-" if r is None else f"{(r[0] - 1) * 100:+.1f}% [{(r[1] - 1) * 100:+.1f}, {(r[2] - 1) * 100:+.1f}]"


def tables(comp: Comparison) -> list[tuple[str, list[list[str]]]]:
    """One (title, rows) per algorithm and operation, rows ordered by provider and size."""
    grouped: dict[tuple, dict[str, dict[tuple, Pair]]] = defaultdict(lambda: defaultdict(dict))
    for label, pairs in comp.pairs.items():
        for p in pairs:
            provider, alg, op, size, chunk = p.key
            grouped[(alg, op)][label][(provider, size, chunk)] = p
    out = []
    for (alg, op), per_subject in grouped.items():
        row_keys = sorted({k for d in per_subject.values() for k in d})
        rows = []
        for provider, size, chunk in row_keys:
            size_s = format_size(size) + (f" ({format_size(chunk)} chunks)" if chunk else "")
            any_pair = next(d[(provider, size, chunk)] for d in per_subject.values() if (provider, size, chunk) in d)
            row = ([provider] if _by_provider(comp) else []) + [size_s, format_ns(any_pair.ref_summary.median)]
            for s in comp.subject_labels:
                p = per_subject.get(s, {}).get((provider, size, chunk))
                if p is None:
                    row += ["-", "-", "-", "-"] + (["-"] if _cycles(comp, s) else [])
                else:
                    row += [format_ns(p.sub_summary.median), delta_text(p), p.verdict,
                            faster_side(p, comp.reference_label, s)]  # fmt: skip
                    row += [cycle_text(comp, s, p)] if _cycles(comp, s) else []
            rows.append(row)
        out.append((f"{alg} — {op}", rows))
    return out


def host_lines(comp: Comparison) -> list[str]:
    """What the host probe says about the host between the runs (compare.host_shift)."""
    h = comp.host
    if h is None:
        return [f"Host probe: {comp.host_unknown}; a change common to every cell cannot be told from the host's."]
    r = h.ratio
    line = (
        f"Host probe (a fixed SHA-256 workload timed between cells): {comp.subject_labels[0]} / "
        f"{comp.reference_label} time {r.value:.3f} [{r.low:.3f}-{r.high:.3f}]"
    )
    if h.moved:
        line += (
            f": the host moved by {r.percent:+.1f}%; a cell that moved by about as much may have moved "
            "with the host, not the code."
        )
    elif h.verdict == stats.UNCLEAR:
        line += f": the host moved by {r.percent:+.1f}%, its interval crossing the noise threshold: it may have moved."
    else:
        line += ": the host did not move beyond the noise."
    out = [line]
    if h.problem:
        out.append(f"Caution: these runs cannot be compared honestly: {h.problem}.")
    return out


def estimator_line(comp: Comparison) -> str:
    """How the intervals were made: paired within one run, independent across runs and machines."""
    if comp.mode != "providers":
        line = (
            "Intervals combine the two medians' independent intervals: cells of different runs were never measured "
            "at the same moment, so nothing pairs them (within one run, compare --providers pairs batch for batch)."
        )
        if comp.history_widened is not None:
            line += (
                f" {comp.history_widened} of {len(comp.all_pairs())} cells have at least "
                f"{between_runs.MIN_RUNS} other runs on this machine: each side is at least as wide as the cell's "
                "run-to-run spread there (docs/measurement.md); the others' intervals cover one run's variation only."
            )
        return line
    pairs = [p for p in comp.all_pairs() if p.pairs]
    if not pairs:
        return "Intervals combine the two medians' independent intervals (the run measured no pair rounds)."
    return (
        f"Intervals are paired for {len(pairs)} of {len(comp.all_pairs())} cells: the providers took turns batch for "
        "batch within the run, and the ratio is the median of the per-pair ratios (docs/measurement.md)."
    )


def noise_lines(comp: Comparison) -> list[str]:
    """Each run's noise level (noise_level.py), so the conditions the runs were measured in sit side by side."""
    named = comp.mode == "machines"
    labels = [comp.reference_label, *comp.subject_labels] if named else [f"run {r.id}" for r in comp.runs]
    levels = [(label, comp.noise_levels.get(r.id)) for label, r in zip(labels, comp.runs, strict=False)]
    out = [f"Noise level of {label}{f' (run {r.id})' if named else ''}: {n.text()}"
           for (label, n), r in zip(levels, comp.runs, strict=False) if n is not None]  # fmt: skip
    known = {n.level for _, n in levels if n is not None and n.level != "unknown"}
    if len(known) > 1:
        out.append(
            "Caution: the runs were measured in different conditions ("
            + ", ".join(f"{label} {n.level}" for label, n in levels if n is not None)
            + "): a difference common to many cells may be the machine's, not the code's."
        )
    return out


def summary_lines(comp: Comparison) -> list[str]:
    same, total = comp.same_fraction()
    faster = sum(p.verdict == stats.FASTER for p in comp.all_pairs())
    slower = sum(p.verdict == stats.SLOWER for p in comp.all_pairs())
    unclear = sum(p.verdict == stats.UNCLEAR for p in comp.all_pairs())
    who = " and ".join(comp.subject_labels)
    lines = [
        f"{total} cells compared: {who} against {comp.reference_label}; Δ time = subject / reference - 1 "
        f"(negative = subject faster); noise threshold {comp.noise * 100:g}%.",
        f"{same} same (within noise), {faster} faster, {slower} slower, {unclear} unclear.",
        verdict_legend(comp.noise, "Δ time"),
        estimator_line(comp),
    ]
    lines[2:2] = noise_lines(comp)
    if comp.mode == "machines":
        clocks = ", ".join(f"{m} {comp.clock_hz[m] / 1e9:.2f} GHz" if m in comp.clock_hz else f"{m} unknown"
                           for m in [comp.reference_label, *comp.subject_labels])  # fmt: skip
        lines.append(
            "Throughput is compared as measured. 'Δ per cycle' scales each machine's time by its highest "
            f"reported clock ({clocks}): nominal clock cycles, not counted core cycles; shown only where both "
            "clocks are known."
        )
        return lines
    if comp.mode == "runs":
        lines += host_lines(comp)
    shift = comp.shift()
    if comp.mode == "runs" and shift is not None:
        lines.append(f"Median change over all cells: {shift:+.1f}%.")
        if abs(shift) > comp.noise * 100:
            lines.append(
                "Caution: the run as a whole moved by more than the noise threshold. When every provider and "
                "algorithm moves together, the machine changed between the runs (load, frequency, the host), "
                "not the code; runs compared across time carry that drift, runs of one suite do not."
            )
    return lines
