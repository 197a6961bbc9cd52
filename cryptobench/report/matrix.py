"""The horizontal layout: per algorithm and direction, rows = sizes, columns = providers.

The shape of the cross-language AES reports people circulate, with each
cell verified, an interval on its throughput and the speed against the baseline.
"""

from __future__ import annotations

from .cells import size_label
from .model import Report, Row, Table


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
    s = r.summary
    text = f"{r.mb_per_s():,.0f} ±{s.ci_rel_halfwidth * 100:.1f}%" if r.cell.size else f"{s.median:,.1f} ns"
    if r.speedup and not r.is_baseline:
        sp = r.speedup
        text += f" · {sp[0]:.2f}x [{sp[1]:.2f}-{sp[2]:.2f}]"
    if r.checksum_mismatch:
        text += " · OUTPUT DIFFERS"
    return text


def matrix(t: Table, providers: list[str]) -> tuple[list[str], list[list[str]]]:
    """Headers and rows of one algorithm/direction table."""
    by_size: dict[tuple[int, int], dict[str, Row]] = {}
    for r in t.rows:
        by_size.setdefault((r.cell.size, r.cell.chunk), {})[r.provider] = r
    used = [p for p in providers if any(p in d for d in by_size.values())]
    rows = []
    for key in sorted(by_size):
        d = by_size[key]
        any_row = next(iter(d.values()))
        rows.append([size_label(any_row)] + [cell_text(d.get(p)) for p in used])
    return ["size"] + used, rows
