"""The run page's charts: what report.js draws (one spec per figure) from the report model, and the
markup of their containers."""

from __future__ import annotations

import html
import math

from cryptobench.core import algorithms
from cryptobench.core.units import format_size
from cryptobench.report.matrix import providers_of
from cryptobench.report.model import Report, Row
from cryptobench.report.versions_layout import release_lines, version_tables

# Provider colours (Tableau 10 without its red, which marks pathologies); the baseline is drawn dark.
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#17becf",
           "#bcbd22", "#8c6d31", "#393b79"]  # fmt: skip


BASELINE_COLOR = "#222222"


PATHOLOGY_COLOR = "#d62728"


def _num(x: float | None, digits: int = 6) -> float | None:
    if x is None or not isinstance(x, (int, float)) or math.isnan(x) or math.isinf(x):
        return None
    return round(float(x), digits)


def _is_public_key(r: Row) -> bool:
    pk = getattr(r, "public_key", None)
    if pk is not None:
        return bool(pk)
    a = algorithms.ALGORITHMS.get(r.cell.alg)
    return bool(a and a.public_key)


def _speed(r: Row) -> dict | None:
    if r.is_baseline:
        return {"x": 1.0, "lo": 1.0, "hi": 1.0, "verdict": "baseline"}
    sp = r.speedup
    if sp is None or _num(sp[0]) is None:
        return None
    lo, hi = _num(sp[1]), _num(sp[2])
    return {
        "x": _num(sp[0]),
        "lo": sp[0] if lo is None else lo,
        "hi": sp[0] if hi is None else hi,
        "verdict": r.verdict,
    }


def _point(r: Row, x: int, rate: str) -> dict:
    """One measured figure with its 95% interval: rate is 'mbs' (MB/s) or 'ops' (ops/s)."""
    s = r.summary
    f = r.mb_per_s if rate == "mbs" else r.ops_per_s
    return {
        "x": x,
        "v": _num(f()),
        "lo": _num(f(s.ci_high)),
        "hi": _num(f(s.ci_low)),
        "ci": _num(s.ci_rel_halfwidth * 100, 2),
        "speed": _speed(r),
        "differs": r.checksum_mismatch,
        "notes": list(r.notes),
    }


class Charts:
    """The chart specifications the page's script draws, and the markup of their containers."""

    def __init__(self, rep: Report):
        self.rep = rep
        self.providers = providers_of(rep)
        self.specs: list[dict] = []

    def color(self, provider: str) -> str:
        if provider == self.rep.baseline:
            return BASELINE_COLOR
        others = [p for p in self.providers if p != self.rep.baseline]
        return PALETTE[others.index(provider) % len(PALETTE)] if provider in others else "#888888"

    def add(self, kind: str, title: str, caption: str, height: int, **spec) -> str:
        n = len(self.specs)
        self.specs.append({"kind": kind, **spec})
        return (
            f'<figure class="fig fig-{kind}"><figcaption><span class="fig-title">{html.escape(title)}</span>'
            f"{(' <span class=fig-sub>' + html.escape(caption) + '</span>') if caption else ''}</figcaption>"
            f'<div class="chart" id="chart-{n}" data-chart="{n}" style="height:{height}px"></div></figure>'
        )


def _rate_tables(rep: Report):
    """(table, one-shot rows with a size, chunked rows) of every table measured in MB/s."""
    for t in rep.tables:
        if any(_is_public_key(r) for r in t.rows):
            continue
        oneshot = [r for r in t.rows if r.ok and r.cell.chunk == 0 and r.cell.size > 0]
        chunked = [r for r in t.rows if r.ok and r.cell.chunk > 0 and r.cell.size > 0]
        if oneshot or chunked:
            yield t, oneshot, chunked


def _series(ch: Charts, rows: list[Row], x_of, rate: str, flagged: dict[str, str] | None = None) -> list[dict]:
    by_p: dict[str, list[Row]] = {}
    for r in rows:
        by_p.setdefault(r.provider, []).append(r)
    out = []
    for p in sorted(by_p, key=lambda p: ch.providers.index(p) if p in ch.providers else 99):
        why = (flagged or {}).get(p)
        out.append(
            {
                "provider": p,
                "color": PATHOLOGY_COLOR if why else ch.color(p),
                "baseline": p == ch.rep.baseline,
                "flagged": why,
                "points": [_point(r, x_of(r), rate) for r in sorted(by_p[p], key=x_of)],
            }
        )
    return out


def throughput_charts(ch: Charts) -> list[str]:
    out = []
    for t, oneshot, _ in _rate_tables(ch.rep):
        if len({r.cell.size for r in oneshot}) < 2:
            continue
        series = _series(ch, oneshot, lambda r: r.cell.size, "mbs")
        out.append(ch.add("throughput", f"{t.alg} — {t.op}", "MB/s against message size, log-log; bars: 95% CI",
                          340, series=series))  # fmt: skip
    return out


PANEL = {"top": 4, "title": 24, "row": 22, "axis": 24, "gap": 12, "bottom": 22}  # px; report.js lays out the same


def _panels(ch: Charts, kind: str, title: str, caption: str, groups: list[tuple[str, list[Row]]], rate: str) -> str:
    """Horizontal bars, one panel per size (or operation), providers down, each panel on its own scale."""
    present = {r.provider for _, rows in groups for r in rows}
    providers = [p for p in ch.providers if p in present]
    panels = [
        {
            "label": label,
            "points": {r.provider: _point(r, 0, rate) if r.ok else {"missing": _short_status(r)} for r in rows},
        }
        for label, rows in groups
    ]
    height = (
        PANEL["top"]
        + PANEL["bottom"]
        + len(panels) * (PANEL["title"] + PANEL["row"] * len(providers) + PANEL["axis"] + PANEL["gap"])
    )
    return ch.add(
        kind,
        title,
        caption,
        height,
        unit="MB/s" if rate == "mbs" else "ops/s",
        providers=[{"provider": p, "color": ch.color(p), "baseline": p == ch.rep.baseline} for p in providers],
        panels=panels,
    )


def _short_status(r: Row) -> str:
    return "not offered" if r.cell.status == "not-offered" else "failed" if r.cell.status != "ok" else "no figure"


def bar_charts(ch: Charts) -> list[str]:
    out = []
    for t, oneshot, _ in _rate_tables(ch.rep):
        if not oneshot:
            continue
        sizes = sorted({r.cell.size for r in oneshot})
        groups = [(format_size(s), [r for r in t.rows if r.cell.size == s and r.cell.chunk == 0]) for s in sizes]
        caption = "MB/s at each message size, each on its own scale; bar labels: MB/s and speed vs the baseline"
        out.append(_panels(ch, "bars", f"{t.alg} — {t.op}", caption, groups, "mbs"))
    return out


def heatmap(ch: Charts) -> list[str]:
    """Speed against the baseline: provider across, algorithm/operation down, at each table's largest size."""
    rep = ch.rep
    labels, cells, missing = [], [], []
    for t in rep.tables:
        pk = any(_is_public_key(r) for r in t.rows)
        base_sizes = [r.cell.size for r in t.rows if r.is_baseline and r.cell.chunk == 0]
        if not base_sizes:
            continue
        size = max(base_sizes)
        row = [r for r in t.rows if r.cell.size == size and r.cell.chunk == 0]
        y = len(labels)
        labels.append(f"{t.alg} {t.op}" + ("" if pk or not size else f" @ {format_size(size)}"))
        for r in row:
            if r.provider not in ch.providers:
                continue
            x = ch.providers.index(r.provider)
            sp = _speed(r) if r.ok else None
            if sp and sp["x"]:
                cells.append({"x": x, "y": y, "log2": _num(math.log2(sp["x"]), 4), "speed": sp,
                              "differs": r.checksum_mismatch})  # fmt: skip
            else:
                short = _short_status(r) if not r.ok else "no ratio"
                missing.append({"x": x, "y": y, "text": short, "reason": r.cell.reason})
    if not cells:
        return []
    used = sorted({c["x"] for c in cells} | {c["x"] for c in missing})
    remap = {x: i for i, x in enumerate(used)}
    for c in cells + missing:
        c["x"] = remap[c["x"]]
    providers = [ch.providers[x] for x in used]
    height = 110 + 34 * len(labels)
    return [
        ch.add(
            "heatmap",
            f"Speed against the baseline {rep.baseline}",
            "baseline time / provider time at each table's largest size; above 1 (blue) = faster, below 1 (red) = slower",
            height,
            providers=providers,
            baseline=rep.baseline,
            rows=labels,
            cells=cells,
            missing=missing,
        )
    ]


def granularity_charts(ch: Charts) -> list[str]:
    rep = ch.rep
    out = []
    for t, oneshot, chunked in _rate_tables(rep):
        if not chunked:
            continue
        flagged = {
            p["provider"]: str(p.get("why", ""))
            for p in rep.pathologies
            if p.get("alg") == t.alg and p.get("op") == t.op and p.get("provider")
        }
        for size in sorted({r.cell.size for r in chunked}):
            rows = [r for r in chunked if r.cell.size == size]
            series = _series(ch, rows, lambda r: r.cell.chunk, "mbs", flagged)
            oneshot_at = {r.provider: _num(r.mb_per_s()) for r in oneshot if r.cell.size == size}
            for s in series:
                s["oneshot"] = oneshot_at.get(s["provider"])
            flagged_here = [(p, w) for p, w in flagged.items() if any(s["provider"] == p for s in series)]
            notes = "".join(
                f'<li><span class="flag">⚠ {html.escape(p)}</span>: {html.escape(w)}</li>' for p, w in flagged_here
            )
            fig = ch.add(
                "granularity",
                f"{t.alg} — {t.op}, {format_size(size)} message",
                "MB/s against the chunk size the message is fed in, log-log; dotted: one-shot",
                360,
                series=series,
            )
            if notes:
                fig = fig.replace("</figure>", f'<ul class="fig-notes">{notes}</ul></figure>')
            out.append(fig)
    return out


def pubkey_charts(ch: Charts) -> list[str]:
    by_alg: dict[str, list[Row]] = {}
    for t in ch.rep.tables:
        for r in t.rows:
            if r.ok and (_is_public_key(r) or r.cell.size == 0):
                by_alg.setdefault(t.alg, []).append(r)
    out = []
    for alg, rows in by_alg.items():
        ops = list(dict.fromkeys((r.cell.op, r.cell.size) for r in rows))
        multi = len({op for op, _ in ops}) < len(ops)  # an operation at several sizes: name the size
        groups = [(op + (f" ({format_size(size)})" if multi else ""),
                   [r for r in rows if (r.cell.op, r.cell.size) == (op, size)]) for op, size in ops]  # fmt: skip
        caption = "operations per second, each operation on its own scale; bar labels: ops/s and speed vs the baseline"
        out.append(_panels(ch, "pubkey", alg, caption, groups, "ops"))
    return out


def version_charts(ch: Charts) -> list[str]:
    if ch.rep.layout != "versions":
        return []
    out = []
    for vt in version_tables(ch.rep):
        lines = release_lines(vt)
        if not lines:
            continue
        rate = "ops" if lines[0][1] else "mbs"
        series = [
            {"provider": label, "color": PALETTE[i % len(PALETTE)], "baseline": False, "flagged": None,
             "points": [_point(r, x, rate) for x, r in rows]}
            for i, (label, _per_op, rows) in enumerate(lines)
        ]  # fmt: skip
        unit = "ops/s" if rate == "ops" else "MB/s"
        out.append(ch.add("versions", f"{vt.base} — {vt.alg}", f"{unit} at each release", 340, series=series,
                          versions=[p.partition("@")[2] for p in vt.versions], unit=unit))  # fmt: skip
    return out


def chart_data(rep: Report, ch: Charts) -> dict:
    return {
        "baseline": rep.baseline,
        "colors": {"baseline": BASELINE_COLOR, "pathology": PATHOLOGY_COLOR},
        "charts": ch.specs,
    }
