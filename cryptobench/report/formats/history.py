"""A history (report/history_report.py) in every format: terminal, Markdown, JSON, HTML (a chart
per series, drawn by report/assets/history.js)."""

from __future__ import annotations

import html
import io

from rich.console import Console

from cryptobench.analysis.history import Series
from cryptobench.report import jsontext
from cryptobench.report.history_report import HEADERS, INTRO, chart_data, rows, summary, to_dict
from cryptobench.report.markup import rich_table, safe_lines, table


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


def render_json(series: list[Series]) -> str:
    return jsontext.dumps(to_dict(series), indent=2) + "\n"


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
