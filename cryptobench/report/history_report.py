"""A history (fleet/history.py) in every format: terminal, Markdown, JSON, HTML (a chart per series)."""

from __future__ import annotations

import html
import io

from rich.console import Console

from cryptobench import RESULT_SCHEMA_VERSION
from cryptobench.analysis.history import Series
from cryptobench.core.units import format_ns, throughput
from cryptobench.report import jsontext
from cryptobench.report.markup import rich_table, safe_lines, table

HEADERS = ["#", "run", "started", "median /op [95% CI]", "commit", "library", "CPU features off", "change"]


def _change_at(s: Series, i: int) -> str:
    c = next((c for c in s.changes if c.index == i), None)
    return (
        ""
        if c is None
        else f"← {c.percent:+.1f}% [{(c.ratio.low - 1) * 100:+.1f}, {(c.ratio.high - 1) * 100:+.1f}] {c.verdict}"
    )


def rows(s: Series) -> list[list[str]]:
    return [
        [str(i + 1), str(p.run["id"]), p.run["started"], f"{format_ns(p.median_ns)} [{format_ns(p.low_ns)}, "
         f"{format_ns(p.high_ns)}]", (p.run["commit"] or "?")[:12], p.run["library_version"] or "?",
         p.run["cpu_features"] or "-", _change_at(s, i)]
        for i, p in enumerate(s.points)
    ]  # fmt: skip


def summary(s: Series) -> str:
    if s.note:
        return f"{s.title}: {s.note}"
    if not s.changes:
        return f"{s.title}: {len(s.points)} runs, no change point found"
    parts = [f"before run #{c.index + 1}: {c.percent:+.1f}% {c.verdict}" for c in s.changes]
    return f"{s.title}: {len(s.points)} runs, {len(s.changes)} change point(s): " + "; ".join(parts)


INTRO = ("Change points found by ruptures (PELT, least squares on log median scaled by the series' noise); each "
         "verdict compares the runs after a change with the runs before it (95% interval, noise threshold).")  # fmt: skip


def render_terminal(series: list[Series], color: bool = False) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=200, force_terminal=color, color_system="standard" if color else None)
    console.print(INTRO, markup=False)
    for s in series:
        console.print(summary(s), markup=False)
        console.print(rich_table(s.title, HEADERS, rows(s)))
    return buf.getvalue()


def render_markdown(series: list[Series]) -> str:
    out = ["# History", "", INTRO]
    for s in series:
        out += ["", f"## {s.title}", "", summary(s), ""] + table(HEADERS, rows(s))
    return safe_lines(out)


def to_dict(series: list[Series]) -> dict:
    return {
        "schema": "cryptobench-history",
        "schema_version": RESULT_SCHEMA_VERSION,
        "method": "ruptures PELT (l2) on log(median)/sigma, penalty 3 ln n, min segment 2 runs",
        "series": [
            {
                "machine": s.machine, "provider": s.provider, "alg": s.alg, "op": s.op, "size": s.size,
                "chunk": s.chunk, "note": s.note or None,
                "points": [{**p.run, "median_ns": p.median_ns, "ci95_ns": [p.low_ns, p.high_ns]} for p in s.points],
                "changes": [{"index": c.index, "run": s.points[c.index].run["id"], "before_ns": c.before_ns,
                             "after_ns": c.after_ns, "time_ratio": c.ratio.value,
                             "time_ratio_ci95": [c.ratio.low, c.ratio.high], "verdict": c.verdict}
                            for c in s.changes],
            }
            for s in series
        ],
    }  # fmt: skip


def render_json(series: list[Series]) -> str:
    return jsontext.dumps(to_dict(series), indent=2) + "\n"


def chart_data(series: list[Series], href=None) -> dict:
    """What history.js draws: per series, per run, throughput (MB/s with a message, op/s without)."""
    out = []
    for s in series:
        points, unit = [], ""
        for p in s.points:
            (value, unit), (low, _), (high, _) = (throughput(s.size, ns) for ns in (p.median_ns, p.high_ns, p.low_ns))
            points.append({"run": p.run["id"], "started": p.run["started"], "value": value, "low": low,
                           "high": high, "commit": p.run["commit"], "library": p.run["library_version"],
                           "features": p.run["cpu_features"], "href": href(p.run) if href else None})  # fmt: skip
        out.append({
            "title": s.title, "unit": unit, "points": points,
            "changes": [{"index": c.index, "percent": c.percent, "verdict": c.verdict} for c in s.changes],
        })  # fmt: skip
    return {"series": out}


def charts_html(series: list[Series], href=None, library_src: str | None = None) -> tuple[str, str]:
    """(the figures' markup, the scripts: data, library, drawing) for a page of history charts; the
    library inlined, or from `library_src` (a file of the same site: publish writes it once)."""
    from cryptobench.report.formats.html.library import ASSETS, charting_library, json_for_script

    _version, licence, library = charting_library()
    script = (ASSETS / "history.js").read_text(encoding="utf-8")
    figures = []
    for n, s in enumerate(series):
        figures.append(f"<figure><figcaption>{html.escape(summary(s))}</figcaption>"
                       f'<div class="chart" id="history-{n}" style="height:300px"></div></figure>')  # fmt: skip
    lib = (
        f'<script src="{html.escape(library_src)}"></script>' if library_src else f"<script>{licence}{library}</script>"
    )
    scripts = (f'<script type="application/json" id="cryptobench-history">{json_for_script(chart_data(series, href))}'
               f"</script>{lib}<script>{script}</script>")  # fmt: skip
    return "\n".join(figures), scripts


def table_html(s: Series, href=None) -> str:
    """The series' table; with `href(run)`, each run number links to its run's page."""
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in HEADERS)
    body = []
    for row, p in zip(rows(s), s.points, strict=True):
        cells = [e(c) for c in row]
        if href:
            cells[1] = f"<a href='{e(href(p.run))}'>{cells[1]}</a>"
        body.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


STYLE = ("body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:.5em 0}"
         "td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left}figure{margin:1em 0}"
         "figcaption{font-weight:600}.chart{width:100%;max-width:1000px}")  # fmt: skip


def render_html(series: list[Series]) -> str:
    figures, scripts = charts_html(series)
    tables = "".join(f"<h2>{html.escape(s.title)}</h2>{table_html(s)}" for s in series)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>cryptobench history</title>"
            f"<style>{STYLE}</style></head><body><h1>History</h1><p>{html.escape(INTRO)}</p>{figures}{tables}"
            f"{scripts}</body></html>\n")  # fmt: skip
