"""The leak-check table (`cryptobench leak`, `--leak`; cryptobench/leak/), shared by every format:
provider x operation x class with max |t|, measurements, verdict, and both classes' timing
distributions (a sparkline pair in text, an SVG in HTML)."""

from __future__ import annotations

import html
import io
from dataclasses import dataclass

from rich.console import Console
from rich.text import Text

from cryptobench.core.units import format_size
from cryptobench.leak.check import LeakResult
from cryptobench.report import jsontext
from cryptobench.report.markup import rich_table, table
from cryptobench.store.model import RunRecord

HEADERS = ["provider", "operation", "classes (A vs B)", "max |t|", "measurements", "verdict",
           "median A / B", "distribution A / B"]  # fmt: skip
NOTE = (
    "Welch's t between two classes of input, timed one call at a time in random order (dudect): on all "
    "measurements, 100 percentile crops and second order; a leak is |t| above the threshold. 'No leak "
    "detected' is not 'constant-time': it says how many measurements did not show one on this host, and the "
    "smallest steady shift (% of the median time) they would have shown (docs/leak.md § Detection limit)."
)
BARS = " ▁▂▃▄▅▆▇█"


def results(records: list[dict]) -> list[LeakResult]:
    return [LeakResult.from_record(r) for r in records]


def cell(r: LeakResult) -> str:
    size = f" {format_size(r.size)}" if r.size and r.op not in ("derive", "decaps") else ""
    return f"{r.alg} {r.op}{size}"


def sparkline(values: list[float], top: float) -> str:
    if not values or top <= 0:
        return ""
    return "".join(BARS[min(len(BARS) - 1, round(v / top * (len(BARS) - 1)))] for v in values)


def shares(r: LeakResult) -> tuple[list[float], list[float], float]:
    """Each class's histogram as shares of its own total (a class measured more often must not look
    taller), and the largest share of either: the common scale of both pictures."""
    h = r.histogram or {}
    a, b = h.get("a") or [], h.get("b") or []
    fa = [x / max(1, sum(a)) for x in a]
    fb = [x / max(1, sum(b)) for x in b]
    return fa, fb, max(fa + fb, default=0.0)


def rows(records: list[dict]) -> list[list[str]]:
    out = []
    for r in results(records):
        t = f"{abs(r.max_t):.1f}" if r.max_t is not None else "—"
        med = f"{r.medians[0]:,.0f} / {r.medians[1]:,.0f} {r.unit}" if r.medians else "—"
        fa, fb, top = shares(r)
        pictures = f"{sparkline(fa, top)} / {sparkline(fb, top)}" if fa and fb and top else ""
        out.append([r.provider, cell(r), f"{r.leak_class}: {r.labels[0]} vs {r.labels[1]}", t,
                    f"{r.measurements:,}", r.verdict(), med, pictures])  # fmt: skip
    return out


def note(records: list[dict]) -> str:
    """The method in one paragraph, with the threshold(s) the records were judged by."""
    ts = sorted({r.get("threshold") for r in records if r.get("threshold") is not None})
    return f"{NOTE} Threshold: |t| > {', '.join(f'{t:g}' for t in ts)}." if ts else NOTE


def svg(r: LeakResult, width: int = 240, height: int = 60) -> str:
    """Both classes' histograms over the same bins as two step lines (A blue, B orange)."""
    fa, fb, top = shares(r)
    if not fa or not fb or not top:
        return ""
    n = len(fa)

    def path(f: list[float]) -> str:
        pts = []
        for i, v in enumerate(f):
            y = height - 2 - v / top * (height - 4)
            pts += [f"{i * width / n:.1f},{y:.1f}", f"{(i + 1) * width / n:.1f},{y:.1f}"]
        return " ".join(pts)

    edges = (r.histogram or {}).get("edges") or [0, 0]
    title = html.escape(f"{r.labels[0]} (blue) vs {r.labels[1]} (orange), {edges[0]:,.0f}-{edges[-1]:,.0f} {r.unit}")
    return (f'<svg class="leak" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">'
            f"<title>{title}</title>"
            f'<polyline fill="none" stroke="#1f77b4" stroke-width="1.5" points="{path(fa)}"/>'
            f'<polyline fill="none" stroke="#ff7f0e" stroke-width="1.5" points="{path(fb)}"/></svg>')  # fmt: skip


# --- the `cryptobench leak` report, in every format ---------------------------------------------


@dataclass(frozen=True)
class LeakReport:
    run: RunRecord
    records: list[dict]

    @property
    def heading(self) -> str:
        off = self.run.settings.get("cpu_features") or ""
        return f"cryptobench leak — run {self.run.id}" + (f" (CPU features off: {off})" if off else "")


def render_terminal(rep: LeakReport, color: bool = False, width: int = 200) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=color, color_system="standard" if color else None)
    console.print(rich_table(rep.heading, HEADERS, rows(rep.records)))
    console.print(Text(note(rep.records)))
    return buf.getvalue()


def render_markdown(rep: LeakReport) -> str:
    out = [f"# {rep.heading}", "", note(rep.records), ""]
    return "\n".join(out + table(HEADERS, rows(rep.records))) + "\n"


def render_json(rep: LeakReport) -> str:
    doc = {"run": rep.run.id, "uid": rep.run.uid, "started": rep.run.started,
           "cpu_features_off": rep.run.settings.get("cpu_features") or "", "leak": rep.records}  # fmt: skip
    return jsontext.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def html_table(records: list[dict]) -> str:
    esc = html.escape
    head = "".join(f"<th>{esc(h)}</th>" for h in HEADERS)
    body = []
    for r, row in zip(results(records), rows(records), strict=True):
        cls = "bad" if r.status == "leak" else "warn" if r.status == "failed" else ""
        tds = "".join(f"<td>{esc(c)}</td>" for c in row[:-1])
        body.append(f"<tr class='{cls}'>{tds}<td>{svg(r)}</td></tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def render_html(rep: LeakReport) -> str:
    esc = html.escape
    style = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px}.bad{background:#f8d7d7}"
             ".warn{background:#fff3cd}")  # fmt: skip
    return (f"<!doctype html><html><head><meta charset=utf-8><title>{esc(rep.heading)}</title>"
            f"<style>{style}</style></head><body><h1>{esc(rep.heading)}</h1>"
            f"<p>{esc(note(rep.records))} Distributions: class A blue, class B orange.</p>"
            f"{html_table(rep.records)}</body></html>\n")  # fmt: skip
