"""The text of one table row, shared by the terminal and Markdown reports."""

from __future__ import annotations

from ..units import format_ns, format_rate, format_size
from .model import Row

HEADERS = ["provider", "size", "median/op", "MB/s", "ops/s", "95% CI", "speed vs baseline [95% CI]", "verdict"]


def size_label(r: Row) -> str:
    s = format_size(r.cell.size)
    return f"{s} ({format_size(r.cell.chunk)} chunks)" if r.cell.chunk else s


def speed_text(r: Row) -> str:
    if r.is_baseline:
        return "1.00x (baseline)"
    sp = r.speedup
    if sp is None:
        return "-"
    return f"{sp[0]:.2f}x [{sp[1]:.2f}-{sp[2]:.2f}]"


def row_cells(r: Row) -> list[str]:
    if not r.ok:
        short = "not offered" if r.cell.status == "not-offered" else r.cell.status
        return [r.provider, size_label(r), short, "", "", "", "", r.cell.reason or r.cell.status]
    s = r.summary
    mbs = r.mb_per_s()
    flags = []
    if r.checksum_mismatch:
        flags.append("OUTPUT DIFFERS")
    flags += r.notes
    verdict = r.verdict + (f" ({'; '.join(flags)})" if flags else "")
    return [
        r.provider,
        size_label(r),
        format_ns(s.median),
        f"{mbs:,.1f}" if mbs == mbs else "-",
        format_rate(r.ops_per_s()),
        f"±{s.ci_rel_halfwidth * 100:.1f}%",
        speed_text(r),
        verdict.strip(),
    ]
