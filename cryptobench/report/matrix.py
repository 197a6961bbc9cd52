"""The horizontal layout: per algorithm and direction, rows = sizes, columns = providers.

The shape of the cross-language AES reports people circulate, with each
cell verified, an interval on its throughput and the speed against the baseline.
"""

from __future__ import annotations

from cryptobench.core import algorithms, tls
from cryptobench.report.cells import size_label
from cryptobench.report.model import Report, Row, Table
from cryptobench.report.row_figures import ONE_SAMPLE, peak_kb, single

OPS_LAYOUTS = ("ops", "sizes", "tls")  # layouts that show operations down, providers across per algorithm


def _own_tables(rep: Report) -> set[str]:
    """Algorithms shown in tables of their own in every layout: the TLS cells (tls_tables.py)."""
    return {t.alg for t in rep.tables if tls.is_tls(t.alg)}


def ops_algs(rep: Report) -> list[str]:
    """The algorithms an ops layout shows as operations × providers: those rated per operation. A
    symmetric algorithm in the same run (Ascon beside ML-KEM) keeps its MB/s matrix."""
    if rep.layout not in OPS_LAYOUTS:
        return []
    own = _own_tables(rep)
    per_op = [t.alg for t in rep.tables if t.alg not in algorithms.ALGORITHMS or algorithms.get(t.alg).per_operation]
    return [a for a in dict.fromkeys(per_op) if a not in own]


def byte_tables(rep: Report) -> list[Table]:
    """The tables an ops layout leaves to the MB/s matrix (all of them in the other layouts)."""
    shown = set(ops_algs(rep)) | _own_tables(rep)
    return [t for t in rep.tables if t.alg not in shown]


def providers_of(rep: Report) -> list[str]:
    seen = []
    for r in rep.rows:
        if r.provider not in seen:
            seen.append(r.provider)
    rest = sorted(p for p in seen if p != rep.baseline)
    return ([rep.baseline] if rep.baseline in seen else []) + rest


def cell_text(r: Row | None) -> str:
    if r is None:
        return ""
    if not r.ok:
        return "not offered" if r.cell.status == "not-offered" else "FAILED"
    if r.public_key:
        return ops_cell_text(r)
    s = r.summary
    spread = "(n=1, no interval)" if single(r) else f"±{s.ci_rel_halfwidth * 100:.1f}%"
    text = f"{r.mb_per_s():,.0f} {spread}" if r.cell.size else f"{s.median:,.1f} ns"
    if r.speedup and not r.is_baseline:
        sp = r.speedup
        text += f" · {sp[0]:.2f}x" + ("" if r.verdict == ONE_SAMPLE else f" [{sp[1]:.2f}-{sp[2]:.2f}]")
    if r.cell.size >= 64 * 1024 * 1024 and peak_kb(r):
        text += f" · peak RSS {peak_kb(r) / 1024:,.0f} MB"
    if r.checksum_mismatch:
        text += " · OUTPUT DIFFERS"
    return text


def matrix(t: Table, providers: list[str]) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of one algorithm/direction table."""
    by_size: dict[tuple[int, int], dict[str, Row]] = {}
    for r in t.rows:
        by_size.setdefault((r.cell.size, r.cell.chunk), {})[r.provider] = r
    # a provider that offers nothing in this table gets no column (the "Not offered" section says so)
    used = [p for p in providers if any(p in d and d[p].cell.status != "not-offered" for d in by_size.values())]
    rows = []
    for key in sorted(by_size):
        d = by_size[key]
        any_row = next(iter(d.values()))
        rows.append([size_label(any_row)] + [cell_text(d.get(p)) for p in used])
    return ["size"] + used, rows


def ops_cell_text(r: Row | None) -> str:
    """ops/s with its interval and the speed against the baseline, for public-key tables."""
    if r is None:
        return ""
    if not r.ok:
        return "not offered" if r.cell.status == "not-offered" else "FAILED"
    s = r.summary
    text = f"{r.ops_per_s():,.0f} ops/s ±{s.ci_rel_halfwidth * 100:.1f}%"
    if r.cell.batch == 1 and r.cell.op == "keygen":  # one key per sample: show the spread of single keys
        text += f" (p10-p90 {s.p10 / 1e6:,.1f}-{s.p90 / 1e6:,.1f} ms, {s.n} keys)"
    if r.speedup and not r.is_baseline:
        sp = r.speedup
        text += f" · {sp[0]:.2f}x [{sp[1]:.2f}-{sp[2]:.2f}] {r.verdict}"
    return text


def ops_matrix(tables: list[Table], providers: list[str]) -> tuple[list[str], list[list[str]]]:
    """One algorithm (a curve, a key size): operations down, providers across."""
    by_op: dict[str, dict[str, Row]] = {}
    for t in tables:
        for r in t.rows:
            by_op.setdefault(f"{t.op}" + (f" ({r.cell.size} B)" if r.cell.size else ""), {})[r.provider] = r
    used = [p for p in providers if any(p in d and d[p].cell.status != "not-offered" for d in by_op.values())]
    rows = [[op] + [ops_cell_text(d.get(p)) for p in used] for op, d in by_op.items()]
    return ["operation"] + used, rows


def crosscheck_matrix(records: list, alg: str) -> tuple[list[str], list[list[str]]]:
    """Producer down, consumer across: ✓ when every check of the pair passed."""
    recs = [r for r in records if r.alg == alg]
    names = sorted({r.producer for r in recs} | {r.consumer for r in recs})
    rows = []
    for p in names:
        row = [p]
        for c in names:
            pair = [r for r in recs if r.producer == p and r.consumer == c]
            if p == c:
                row.append(
                    "—" if all(r.passed for r in pair) else "✗ " + "; ".join(r.check for r in pair if not r.passed)
                )
            elif not pair:
                row.append("")
            else:
                bad = [r.check for r in pair if not r.passed]
                row.append("✓" if not bad else "✗ " + "; ".join(bad))
        rows.append(row)
    return ["producer \\ consumer"] + names, rows
