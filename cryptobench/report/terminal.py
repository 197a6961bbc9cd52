"""Terminal report: one rich table per algorithm and operation."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from .cells import HEADERS, row_cells
from .markdown import environment_lines
from .matrix import matrix, ops_matrix, providers_of
from .model import Report

_VERDICT_STYLE = {"faster": "green", "slower": "red", "baseline": "bold"}


def render(rep: Report, width: int = 140, color: bool = False) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=color, color_system="standard" if color else None)
    for line in environment_lines(rep):
        console.print(Text(line.replace("**", "").replace("`", "")))
    providers = providers_of(rep)
    if rep.layout == "ops":
        for alg in dict.fromkeys(t.alg for t in rep.tables):
            headers, rows = ops_matrix([t for t in rep.tables if t.alg == alg], providers)
            table = RichTable(title=f"{alg}  (ops/s ±CI · speed vs {rep.baseline})", title_justify="left")
            for h in headers:
                table.add_column(h, overflow="fold")
            for row in rows:
                table.add_row(*row)
            console.print(table)
    for t in rep.tables if rep.layout != "ops" else []:
        if rep.layout == "matrix":
            headers, rows = matrix(t, providers)
            table = RichTable(title=f"{t.alg} — {t.op}  (MB/s ±CI · speed vs {rep.baseline})", title_justify="left")
            for h in headers:
                table.add_column(h, overflow="fold")
            for row in rows:
                table.add_row(*row)
            console.print(table)
            continue
        table = RichTable(title=f"{t.alg} — {t.op}", title_justify="left", show_lines=False)
        for i, h in enumerate(HEADERS):
            table.add_column(h, justify="left" if i in (0, 1, 7) else "right", no_wrap=i < 7)
        last_size = None
        for r in t.rows:
            if last_size is not None and r.cell.size != last_size:
                table.add_section()
            last_size = r.cell.size
            cells = row_cells(r)
            style = _VERDICT_STYLE.get(r.verdict, "") if r.ok else "yellow"
            table.add_row(*cells[:7], Text(cells[7], style=style))
        console.print(table)
    if rep.references:
        from .markdown import reference_table

        headers, rows = reference_table(rep)
        table = RichTable(title="References, measured elsewhere (no ratio unless --normalise)", title_justify="left")
        for h in headers:
            table.add_column(h, overflow="fold")
        for row in rows:
            table.add_row(*row)
        console.print(table)
    for title, items in (("warnings", rep.warnings), ("failures", rep.failures)):
        if items:
            console.print(Text(f"{len(items)} {title}:", style="bold"))
            for w in items:
                console.print(Text(f"  - {w}"))
    return buf.getvalue()
