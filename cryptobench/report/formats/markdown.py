"""Markdown report: what a person pastes into a document or an issue."""

from __future__ import annotations

from cryptobench.analysis.composition import compare_steps
from cryptobench.icount import report as icount_report
from cryptobench.report import leak_table, scaling_table, sizes, tls_tables, web_layout
from cryptobench.report.cells import cycles_note, estimator_note, headers, row_cells, verdict_legend
from cryptobench.report.markup import environment_lines, reference_table, safe_lines, step_table, table
from cryptobench.report.matrix import (
    OPS_LAYOUTS,
    byte_tables,
    crosscheck_matrix,
    matrix,
    ops_algs,
    ops_matrix,
    providers_of,
)
from cryptobench.report.model import Report
from cryptobench.report.versions_layout import NO_RELEASES, version_tables, versions_title


def render(rep: Report) -> str:
    out = [f"# cryptobench report — run {rep.run.id} ({rep.run.suite})", "", "## Environment", ""]
    out += environment_lines(rep)
    out += ["", "## Providers", ""]
    out += table(
        ["provider", "library", "version", "runtime", "clock resolution"],
        [
            [pid, h.get("library", ""), h.get("library_version", ""), h.get("runtime", ""),
             f"{(h.get('clock') or {}).get('resolution_ns', '?')} ns"]
            for pid, h in sorted(rep.run.providers.items())
        ],
    )  # fmt: skip
    out += [
        "",
        "Times are the median per operation; MB/s uses 10^6 bytes; the 95% CI is that of the median; "
        "speed is baseline time / provider time (above 1 = faster than the baseline).",
        "",
        verdict_legend(rep.noise),
    ]
    if estimator_note(rep.rows):
        out += ["", estimator_note(rep.rows)]
    if cycles_note(rep.units, rep.cycles_hz):
        out += ["", cycles_note(rep.units, rep.cycles_hz)]
    if rep.layout == "web":
        for title, notes, web_headers, web_rows in web_layout.sections(rep):
            out += ["", f"## {title}", "", *notes, ""]
            out += table(web_headers, web_rows)
    if rep.layout in ("matrix", "web"):
        out += ["", f"Cells: MB/s ±95% CI of the median · speed vs `{rep.baseline}` [95% CI] (no speed: the baseline)."]
    providers = providers_of(rep)
    releases = version_tables(rep) if rep.layout == "versions" else []
    for vt in releases:
        out += ["", f"## {versions_title(vt)}", ""]
        out += table(vt.headers, vt.rows)
    if rep.layout == "versions" and not releases:
        out += ["", NO_RELEASES]
    if tls_tables.present(rep):
        for title, tls_headers, tls_rows in tls_tables.sections(rep):
            out += ["", f"## {title}", ""]
            out += table(tls_headers, tls_rows)
    if rep.layout == "sizes":
        out += ["", f"## {sizes.TITLE}", ""]
        out += table(*sizes.table(rep))
        out += [f"- {n}" for n in sizes.notes(rep)]
    if rep.layout in OPS_LAYOUTS:
        out += ["", f"Cells: ops/s ±95% CI of the median · speed vs `{rep.baseline}` [95% CI] and verdict."]
        for alg in ops_algs(rep):
            out += ["", f"## {alg}", ""]
            if sizes.title_suffix(alg):
                out += [sizes.title_suffix(alg), ""]
            out += table(*ops_matrix([t for t in rep.tables if t.alg == alg], providers))
    for t in byte_tables(rep) if not releases else []:
        out += ["", f"## {t.alg} — {t.op}", ""]
        if rep.layout in ("matrix", "web") or rep.layout in OPS_LAYOUTS:
            out += table(*matrix(t, providers))
        else:
            out += table(headers(rep.units), [row_cells(r, rep.units, rep.cycles_hz) for r in t.rows])
    if rep.scaling:
        out += ["", "## Multi-core scaling", "", scaling_table.NOTE, ""]
        out += table(scaling_table.HEADERS, scaling_table.rows(rep.scaling))
    if rep.run.env.get("instructions"):
        icount = rep.run.env["instructions"]
        out += ["", f"## {icount_report.TITLE}", "", *icount_report.notes(icount), ""]
        out += table(icount_report.HEADERS, icount_report.rows(icount))
    if rep.leak:
        records = rep.leak
        out += ["", "## Leak checks", "", leak_table.note(records), ""]
        out += table(leak_table.HEADERS, leak_table.rows(records))
    if rep.crosschecks:
        out += ["", "## Cross-verification", "",
                "Each provider's keys, signatures and ciphertexts checked by every other provider "
                "(✓: every check passed, including that a corrupted signature or a wrong key is refused)."]  # fmt: skip
        for alg in dict.fromkeys(c.alg for c in rep.crosschecks):
            out += ["", f"### {alg}", ""]
            out += table(*crosscheck_matrix(rep.crosschecks, alg))
    if rep.overheads:
        out += ["", "## Overhead model", "",
                "time = a per call + b per byte, fitted to the chunk sweep (calls = total / chunk) or, without one, "
                "to the one-shot size sweep, by least squares weighted for a constant relative spread; 95% "
                "intervals. Misfit: the largest relative distance of a point from the line — a large one means "
                "the path's cost is not a fixed cost per call plus a cost per byte."]  # fmt: skip
        out += table(
            ["provider", "algorithm", "op", "a: ns per call [95% CI]", "b: ns per byte [95% CI]", "= MB/s", "misfit",
             "from"],
            [[f.provider, f.alg, f.op, f"{f.a_ns:,.1f} [{f.a_ci[0]:,.1f}, {f.a_ci[1]:,.1f}]",
              f"{f.b_ns:.4f} [{f.b_ci[0]:.4f}, {f.b_ci[1]:.4f}]", f"{f.mb_per_s:,.0f}", f"{f.misfit:.0%}",
              f"{f.source} ({f.points} points)"]
             for f in rep.overheads],
        )  # fmt: skip
    if rep.binding_costs:
        out += ["", "### What a binding adds per call", ""]
        out += table(
            ["binding", "over", "algorithm", "op", "extra ns per call [95% CI]"],
            [[b["binding"], f"{b['native']} ({b['over']})", b["alg"], b["op"],
              f"{b['extra_ns_per_call']:,.1f} [{b['ci95'][0]:,.1f}, {b['ci95'][1]:,.1f}]"] for b in rep.binding_costs],
        )  # fmt: skip
    if rep.pathologies or rep.overheads:
        out += ["", "## Access-path pathologies", ""]
        out += [f"- **{p['provider']}** {p['alg']} {p['op']}: {p['why']}" for p in rep.pathologies] or ["None flagged."]
    steps = compare_steps(rep.rows)
    if steps:
        out += ["", "## Protocol steps beside the sum of their primitives", "",
                "Each step measured as a whole, next to the sum of the primitives it is built from (docs/pq-ntor.md "
                "§10; a TLS handshake's public-key operations, docs/tls.md), measured by the same provider in the "
                "same run; the difference is what the protocol costs above them. Medians, 95% intervals.", ""]  # fmt: skip
        out += table(*step_table(steps))
    if rep.references:
        out += ["", "## References (measured elsewhere)", ""]
        if rep.normalise:
            out.append(
                f"Ratios drawn at the reader's request, normalised by x{rep.normalise[0]:g}: {rep.normalise[1]}."
            )
        else:
            out.append(
                "Published figures from other machines, for orientation only: no ratio is drawn between machines."
            )
        out.append("")
        out += table(*reference_table(rep))
    out += ["", "## Verification", ""]
    if rep.verifications:
        out += table(
            ["provider", "algorithm", "status", "vectors passed", "failed", "detail"],
            [[v.provider, v.alg, v.status, str(v.passed), str(v.failed), v.detail] for v in rep.verifications],
        )
    else:
        out.append("No verification recorded.")
    for title, items in (("Warnings", rep.warnings), ("Failures", rep.failures), ("Not offered", rep.not_offered)):
        out += ["", f"## {title}", ""]
        out += [f"- {w}" for w in items] or ["None."]
    return safe_lines(out)
