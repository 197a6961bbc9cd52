"""Terminal report: one rich table per algorithm and operation."""

from __future__ import annotations

import io

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from cryptobench.core.textsafe import printable
from cryptobench.icount import report as icount_report
from cryptobench.report import leak_table, scaling_table, sizes, tls_tables, web_layout
from cryptobench.report.cells import cycles_note, estimator_note, row_cells, verdict_legend
from cryptobench.report.cells import headers as table_headers
from cryptobench.report.markup import environment_lines, plain, reference_table, rich_table
from cryptobench.report.matrix import OPS_LAYOUTS, byte_tables, matrix, ops_algs, ops_matrix, providers_of
from cryptobench.report.model import Report, failures_by_reason, notes_by_kind
from cryptobench.report.versions_layout import NO_RELEASES, version_tables, versions_title

_VERDICT_STYLE = {"faster": "green", "slower": "red", "baseline": "bold", "unclear": "yellow"}


def render(rep: Report, width: int = 140, color: bool = False) -> str:
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=color, color_system="standard" if color else None)
    for line in environment_lines(rep):
        console.print(Text(printable(line.replace("**", "").replace("`", ""))))
    providers = providers_of(rep)
    releases = version_tables(rep) if rep.layout == "versions" else []
    for vt in releases:
        console.print(rich_table(versions_title(vt), vt.headers, vt.rows))
    if rep.layout == "versions" and not releases:
        console.print(Text(NO_RELEASES))
    if rep.layout == "web":
        for title, notes, web_headers, web_rows in web_layout.sections(rep):
            console.print(rich_table(title, web_headers, web_rows))
            for line in notes:
                console.print(Text(f"  {printable(line)}"))
    if rep.layout == "sizes":
        console.print(rich_table(sizes.TITLE, *sizes.table(rep)))
        for line in sizes.notes(rep):
            console.print(Text(f"  {printable(line)}"))
    if tls_tables.present(rep):
        for title, tls_headers, tls_rows in tls_tables.sections(rep):
            console.print(rich_table(title, tls_headers, tls_rows))
    if rep.layout in OPS_LAYOUTS:
        for alg in ops_algs(rep):
            headers, rows = ops_matrix([t for t in rep.tables if t.alg == alg], providers)
            console.print(rich_table(f"{alg}  (ops/s ±CI · speed vs {rep.baseline})", headers, rows))
            if sizes.title_suffix(alg):
                console.print(Text(f"  {sizes.title_suffix(alg)}"))
    for t in byte_tables(rep) if not releases else []:
        if rep.layout in ("matrix", "web") or rep.layout in OPS_LAYOUTS:
            headers, rows = matrix(t, providers)
            console.print(rich_table(f"{t.alg} — {t.op}  (MB/s ±CI · speed vs {rep.baseline})", headers, rows))
            continue
        table = RichTable(title=f"{t.alg} — {t.op}", title_justify="left", show_lines=False)
        titles = table_headers(rep.units)
        last = len(titles) - 1  # the verdict
        for i, h in enumerate(titles):
            table.add_column(h, justify="left" if i in (0, 1, last) else "right", no_wrap=i < last)
        last_size = None
        for r in t.rows:
            if last_size is not None and r.cell.size != last_size:
                table.add_section()
            last_size = r.cell.size
            cells = row_cells(r, rep.units, rep.cycles_hz)
            style = _VERDICT_STYLE.get(r.verdict, "") if r.ok else "yellow"
            table.add_row(*map(plain, cells[:last]), Text(printable(cells[last]), style=style))
        console.print(table)
    if rep.scaling:
        console.print(rich_table("Multi-core scaling", scaling_table.HEADERS, scaling_table.rows(rep.scaling)))
        console.print(Text(scaling_table.NOTE))
    if rep.run.env.get("instructions"):
        icount = rep.run.env["instructions"]
        console.print(rich_table(icount_report.TITLE, icount_report.HEADERS, icount_report.rows(icount)))
        console.print(Text("\n".join(icount_report.notes(icount))))
    if rep.leak:
        console.print(rich_table("Leak checks", leak_table.HEADERS, leak_table.rows(rep.leak)))
        console.print(Text(leak_table.note(rep.leak)))
    if rep.references:
        title = "References, measured elsewhere (no ratio unless --normalise)"
        console.print(rich_table(title, *reference_table(rep)))
    _summary(console, rep)
    return buf.getvalue()


def _summary(console: Console, rep: Report, worst: int = 2) -> None:
    """Warnings counted by kind with the worst cases, failures by provider and reason: a run's end that
    fits on a screen. Every line in full: `show RUN --warnings`, --md, --json."""
    if any(r.ratio and not r.is_baseline for r in rep.rows):  # a verdict was given: what it means
        console.print(Text(verdict_legend(rep.noise)))
        console.print(Text(estimator_note(rep.rows)))
    if cycles_note(rep.units, rep.cycles_hz):
        console.print(Text(cycles_note(rep.units, rep.cycles_hz)))
    if rep.warnings:
        console.print(
            Text(
                f"{_count(len(rep.warnings), 'warning')} (each in full: cryptobench show {rep.run.id} --warnings)",
                style="bold",
            )
        )
        for title, notes in notes_by_kind(rep.warnings):
            if len(notes) == 1:
                console.print(Text(f"  - {printable(notes[0])}"))
                continue
            console.print(Text(f"  - {len(notes)} × {title}, worst:"))
            for n in notes[:worst]:
                console.print(Text(f"      {printable(n)}"))
    groups = failures_by_reason(rep)
    if groups:
        console.print(Text(f"{_count(len(rep.failures), 'failure')}:", style="bold"))
        for pid, reason, cells in groups:
            where = cells[0].alg + (f" and {len(cells) - 1} more cells" if len(cells) > 1 else f" {cells[0].op}")
            console.print(Text(f"  - {printable(pid)} {where}: {printable(reason)}"))


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def render_warnings(rep: Report) -> str:
    """`show RUN --warnings`: every warning by kind, then every failure, in full."""
    out = [f"run {rep.run.id}: {_count(len(rep.warnings), 'warning')}, {_count(len(rep.failures), 'failure')}"]
    for title, notes in notes_by_kind(rep.warnings):
        out += ["", f"{title} ({len(notes)}):"] + [f"  - {printable(n)}" for n in notes]
    if rep.failures:
        out += ["", f"failures ({len(rep.failures)}):"] + [f"  - {printable(f)}" for f in rep.failures]
    return "\n".join(out) + "\n"
