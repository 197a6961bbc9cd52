"""A comparison as terminal tables."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

from cryptobench.report.compare import Comparison
from cryptobench.report.compare_table import headers, summary_lines, tables

_STYLE = {"faster": "green", "slower": "red"}


def render(comp: Comparison, width: int = 200, color: bool = False) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=color, color_system="standard" if color else None)
    for line in summary_lines(comp):
        console.print(Text(line))
    hdr = headers(comp)
    for title, rows in tables(comp):
        t = Table(title=title, title_justify="left")
        for h in hdr:
            t.add_column(h, overflow="fold")
        for row in rows:
            t.add_row(*[Text(c, style=_STYLE.get(c, "")) for c in row])
        console.print(t)
    if comp.only_reference or comp.only_subject:
        console.print(Text(f"{len(comp.only_reference)} cells only in {comp.reference_label}, "
                           f"{len(comp.only_subject)} only in {' / '.join(comp.subject_labels)} (see --md)"))  # fmt: skip
    return buf.getvalue()
