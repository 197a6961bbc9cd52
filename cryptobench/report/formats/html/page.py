"""HTML report: one self-contained page with charts, for a person to read in a browser.

Everything the page needs is inside the file: the charting library (Apache
ECharts, pinned in assets/package.json and inlined with its licence), the
page's own script and style, and the run's figures as JSON. Opening it fetches
nothing. Every string that came from a driver or the database is escaped:
`html.escape` in the markup, and JSON with `<`, `>` and `&` written as
`\\u003c`… inside a non-executable `<script type="application/json">`, so a
library version such as `</script><!--` cannot leave its element.

The charts only lay out the report model (report/model.py); the tables are the
Markdown report's, built by the same helpers (cells.py, matrix.py).

The page is assembled here; its charts are charts.py, its tables tables.py, the inlined
library library.py.
"""

from __future__ import annotations

import html

from cryptobench.icount import report as icount_report
from cryptobench.report import leak_table, scaling_table
from cryptobench.report.cells import cycles_note, estimator_note, verdict_legend
from cryptobench.report.formats import leak as leak_format
from cryptobench.report.formats.html.charts import (
    Charts,
    bar_charts,
    chart_data,
    granularity_charts,
    heatmap,
    pubkey_charts,
    throughput_charts,
    version_charts,
)
from cryptobench.report.formats.html.library import ASSETS, charting_library, json_for_script
from cryptobench.report.formats.html.tables import (
    access_path,
    bullet_list,
    environment,
    references,
    result_tables,
    summary_counts,
    table,
)
from cryptobench.report.matrix import crosscheck_matrix
from cryptobench.report.model import Report

NAV = {"overview": "Overview", "throughput": "Throughput vs size", "bars": "By provider",
       "granularity": "Granularity", "pubkey": "Public key", "versions": "Releases"}  # fmt: skip


def render(rep: Report, library_src: str | None = None) -> str:
    """The page, its charting library inlined, or loaded from `library_src` (a file beside it: the
    published site writes the library once for all its pages)."""
    version, licence, library = charting_library()
    script = (ASSETS / "report.js").read_text(encoding="utf-8")
    style = (ASSETS / "report.css").read_text(encoding="utf-8")
    for name, text, bad in (("report.js", script, "</script"), ("report.css", style, "</style")):
        if bad in text.lower() or "<!--" in text:
            raise ValueError(f"{name} must not contain {bad!r} or '<!--': it is inlined into the page")
    esc = html.escape
    run = rep.run
    ch = Charts(rep)

    # (anchor, heading, the charts it draws, grid, caption): a section only where its charts exist
    kinds = (
        ("overview", "Overview: speed against the baseline", heatmap, "grid1", ""),
        ("throughput", "Throughput against message size", throughput_charts, "grid2",
         "One line per provider; MB/s = 10^6 bytes per second; error bars: the 95% confidence interval of "
         "the median."),
        ("bars", "Throughput by provider", bar_charts, "grid2",
         "Median MB/s at each message size, providers down; the baseline is drawn in black, whiskers are the "
         "95% CI."),
        ("granularity", "Granularity: streaming in chunks", granularity_charts, "grid2",
         "The same message fed in pieces of the chunk size; a provider flagged ⚠ (red) has an access-path "
         "pathology."),
        ("versions", "Speed against release", version_charts, "grid2",
         "One line per operation and size, releases oldest first; error bars: the 95% confidence interval of "
         "the median. The tables give each change with its interval and verdict."),
        ("pubkey", "Public-key operations", pubkey_charts, "grid2",
         "Median operations per second; the baseline is drawn in black, whiskers are the 95% CI."),
    )  # fmt: skip
    sections = []
    for anchor, heading, draw, grid, caption in kinds:
        drawn = draw(ch)
        if drawn:
            sections.append((anchor, heading, drawn, grid, caption))

    status_cls = {"complete": "ok", "interrupted": "warn"}.get(run.status, "bad")
    title = f"cryptobench report — run {run.id} ({run.suite})"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>{esc(title)}</title>",
        f"<style>{style}</style></head><body>",
        "<header>",
        f"<h1>cryptobench report <span class=runid>run {esc(str(run.id))}</span></h1>",
        '<p class="meta">',
        f"suite <strong>{esc(str(run.suite))}</strong>"
        + (f" · label <strong>{esc(run.label)}</strong>" if run.label else "")
        + f" · <span class='status {status_cls}'>{esc(str(run.status))}</span>"
        + f" · started {esc(str(run.started))} · finished {esc(str(run.finished or 'unfinished'))}",
        "</p>",
        f'<p class="meta noise-level">noise level {esc(rep.noise_level.text())}</p>' if rep.noise_level else "",
        summary_counts(rep),
        "</header>",
        "<nav>"
        + " ".join(f'<a href="#{sid}">{NAV[sid]}</a>' for sid, *_ in sections)
        + ' <a href="#tables">Tables</a>'
        + (' <a href="#access-path">Access path</a>' if rep.pathologies or getattr(rep, "overheads", None) else "")
        + ' <a href="#warnings">Warnings</a> <a href="#environment">Environment</a></nav>',
        "<main>",
    ]
    for sid, name, figs, grid, note in sections:
        parts.append(f'<section id="{sid}"><h2>{esc(name)}</h2>')
        if note:
            parts.append(f"<p class=note>{esc(note)}</p>")
        parts.append(f'<div class="{grid}">' + "".join(figs) + "</div></section>")
    parts += [
        '<section id="tables"><h2>Results</h2>',
        "<p class=note>Times are the median per operation; MB/s uses 10^6 bytes; the 95% CI is that of the median; "
        "speed is baseline time / provider time (above 1 = faster than the baseline).</p>",
        f"<p class=note>{esc(verdict_legend(rep.noise))}</p>",
        f"<p class=note>{esc(estimator_note(rep.rows))}</p>" if estimator_note(rep.rows) else "",
        f"<p class=note>{esc(cycles_note(rep.units, rep.cycles_hz))}</p>"
        if rep.cycles_hz and "cpb" in rep.units
        else "",
        result_tables(rep),
        "</section>",
    ]
    if rep.leak:
        parts.append('<section id="leak"><h2>Leak checks</h2>'
                     f"<p class=note>{esc(leak_table.note(rep.leak))}</p>"
                     + leak_format.html_table(rep.leak) + "</section>")  # fmt: skip
    if rep.run.env.get("instructions"):
        icount = rep.run.env["instructions"]
        parts.append(f'<section id="instructions"><h2>{esc(icount_report.TITLE)}</h2>'
                     + "".join(f"<p class=note>{esc(line)}</p>" for line in icount_report.notes(icount))
                     + table(icount_report.HEADERS, icount_report.rows(icount)) + "</section>")  # fmt: skip
    if rep.scaling:
        parts.append('<section id="scaling"><h2>Multi-core scaling</h2>'
                     f"<p class=note>{esc(scaling_table.NOTE)}</p>"
                     + table(scaling_table.HEADERS, scaling_table.rows(rep.scaling)) + "</section>")  # fmt: skip
    crosschecks = getattr(rep, "crosschecks", None) or []
    if crosschecks:
        parts.append('<section id="crosscheck"><h2>Cross-verification</h2><p class=note>Each provider\'s keys, '
                     "signatures and ciphertexts checked by every other provider (✓: every check passed).</p>")  # fmt: skip
        for alg in dict.fromkeys(c.alg for c in crosschecks):
            parts.append(f"<h3>{esc(alg)}</h3>" + table(*crosscheck_matrix(crosschecks, alg)))
        parts.append("</section>")
    parts.append(access_path(rep))
    parts.append(references(rep))
    parts.append('<section id="verification"><h2>Verification</h2>')
    if rep.verifications:
        parts.append(table(["provider", "algorithm", "status", "vectors passed", "failed", "detail"],
                            [[v.provider, v.alg, v.status, str(v.passed), str(v.failed), v.detail]
                             for v in rep.verifications],
                            ["v-failed" if v.status == "failed" else "" for v in rep.verifications]))  # fmt: skip
    else:
        parts.append("<p class=none>No verification recorded.</p>")
    parts.append("</section>")
    parts.append('<section id="warnings">')
    for name, items, cls in (("Warnings", rep.warnings, "warnings"), ("Failures", rep.failures, "failures"),
                             ("Not offered", rep.not_offered, "notoffered")):  # fmt: skip
        parts.append(f"<h2>{name} <span class=count>{len(items)}</span></h2>" + bullet_list(items, cls))
    parts.append("</section>")
    parts.append(f'<section id="environment"><h2>Environment</h2>{environment(rep)}</section>')
    parts += [
        "</main>",
        f"<footer>Charts drawn by Apache ECharts {esc(version)} (Apache License 2.0; with ZRender, BSD-3-Clause, "
        + (
            f"and tslib, 0BSD), from {esc(library_src)} beside this page, with its licence notices. "
            if library_src
            else "and tslib, 0BSD), inlined in this file with its licence notices. "
        )
        + "This page loads nothing from the network.",
        "</footer>",
        f'<script type="application/json" id="cryptobench-data">{json_for_script(chart_data(rep, ch))}</script>',
        f'<script id="charting-library" src="{html.escape(library_src)}"></script>'
        if library_src
        else f'<script id="charting-library">{licence}{library}</script>',
        f"<script>{script}</script>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
