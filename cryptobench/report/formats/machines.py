"""Machines × algorithms (report/machine_matrix.py) in every format: terminal, Markdown, JSON, CSV
and HTML (also the published site's front page table)."""

from __future__ import annotations

import csv
import html
import io

from rich.console import Console

from cryptobench.report import jsontext
from cryptobench.report.machine_matrix import MachineMatrix, to_dict
from cryptobench.report.markup import machine_line, rich_table, safe_lines, table


def _intro(m: MachineMatrix) -> list[str]:
    lines = ["Latest complete run of each machine; median throughput ± half its 95% interval, as measured."]
    for label, run in m.machines:
        lines.append(f"{label}: run {run.id} ({run.suite}, {run.started}) — {machine_line(run.env)}, "
                     f"{run.env.get('cpu_model', '?')}, {run.env.get('cores', '?')} cores")  # fmt: skip
    return lines


def render_terminal(m: MachineMatrix, color: bool = False) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=250, force_terminal=color, color_system="standard" if color else None)
    for line in _intro(m):
        console.print(line, markup=False)
    console.print(rich_table("machines × algorithms", m.headers(), m.text_rows()))
    return buf.getvalue()


def render_markdown(m: MachineMatrix) -> str:
    out = ["# Machines × algorithms", ""] + [f"- {x}" for x in _intro(m)] + [""]
    return safe_lines(out + table(m.headers(), m.text_rows()))


def render_json(m: MachineMatrix) -> str:
    return jsontext.dumps(to_dict(m), indent=2) + "\n"


def render_csv(m: MachineMatrix) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["machine", "provider", "alg", "op", "size", "chunk", "median_ns", "ci95_low_ns", "ci95_high_ns",
                "rate", "unit"])  # fmt: skip
    for c in to_dict(m)["cells"]:
        w.writerow([c["machine"], c["provider"], c["alg"], c["op"], c["size"], c["chunk"], f"{c['median_ns']:.3f}",
                    f"{c['ci95_ns'][0]:.3f}", f"{c['ci95_ns'][1]:.3f}", f"{c['rate']:.3f}", c["unit"]])  # fmt: skip
    return buf.getvalue()


def html_table(m: MachineMatrix, link=None) -> str:
    """The matrix as an HTML table; `link(machine)` gives a cell's run page, if any."""
    e = html.escape
    head = "".join(f"<th>{e(h)}</th>" for h in m.headers())
    body = []
    runs = dict(m.machines)
    for (machine, provider), figs in m.rows.items():
        cells = []
        for k in m.columns:
            text = e(figs[k].text()) if k in figs else "-"
            href = link(runs[machine], k) if (link and k in figs) else None
            cells.append(f'<td><a href="{e(href)}">{text}</a></td>' if href else f"<td>{text}</td>")
        body.append(f"<tr><th class='name'>{e(machine)}</th><td class='name'>{e(provider)}</td>{''.join(cells)}</tr>")
    return f"<table class='matrix'><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def render_html(m: MachineMatrix) -> str:
    intro = "".join(f"<li>{html.escape(x)}</li>" for x in _intro(m))
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Machines × algorithms</title>"
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:.3em .6em;text-align:right}.name{text-align:left}</style></head><body>"
        f"<h1>Machines × algorithms</h1><ul>{intro}</ul>{html_table(m)}</body></html>\n"
    )
