"""The `cryptobench leak` report (report/leak_table.py) written four ways: terminal, Markdown, JSON and
a self-contained HTML page with both classes' distributions drawn per check; `html_table` is also
the run page's leak section (html/page.py)."""

from __future__ import annotations

import html
import io

from rich.console import Console
from rich.text import Text

from cryptobench.leak.result import LeakResult
from cryptobench.report import jsontext
from cryptobench.report.leak_table import HEADERS, LeakReport, note, results, rows, shares
from cryptobench.report.markup import rich_table, table


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
