"""The run page's tables and lists: results (the Markdown report's rows, cells.py and matrix.py),
environment, references, access path, the header's counts; every string escaped."""

from __future__ import annotations

import html

from cryptobench.report import sizes, tls_tables, web_layout
from cryptobench.report.cells import headers, row_cells
from cryptobench.report.markup import machine_line, reference_table
from cryptobench.report.matrix import OPS_LAYOUTS, byte_tables, matrix, ops_algs, ops_matrix, providers_of
from cryptobench.report.model import Report, Row
from cryptobench.report.versions_layout import NO_RELEASES, version_tables, versions_title


def table(headers: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = []
    for i, row in enumerate(rows):
        cls = f' class="{classes[i]}"' if classes and classes[i] else ""
        body.append(f"<tr{cls}>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    return f'<div class="tablewrap"><table><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


def _row_class(r: Row) -> str:
    if not r.ok:
        return "v-failed" if r.cell.status != "not-offered" else "v-na"
    if r.checksum_mismatch:
        return "v-differs"
    return {"faster": "v-faster", "slower": "v-slower", "baseline": "v-baseline"}.get(r.verdict, "")


def result_tables(rep: Report) -> str:
    out = []
    providers = providers_of(rep)
    releases = version_tables(rep) if rep.layout == "versions" else []
    for vt in releases:
        out.append(f"<h3>{html.escape(versions_title(vt))}</h3>")
        out.append(table(vt.headers, vt.rows))
    if releases:
        return "\n".join(out)
    if rep.layout == "versions":
        out.append(f"<p class=note>{html.escape(NO_RELEASES)}</p>")
    if rep.layout == "web":
        for title, notes, web_headers, web_rows in web_layout.sections(rep):
            out.append(f"<h3>{html.escape(title)}</h3>")
            out += [f"<p class=note>{html.escape(n)}</p>" for n in notes]
            out.append(table(web_headers, web_rows))
    if rep.layout in ("matrix", "web"):
        out.append(f"<p class=note>Cells: MB/s ±95% CI of the median · speed vs {html.escape(rep.baseline)} [95% CI] "
                   "(no speed: the baseline).</p>")  # fmt: skip
    if tls_tables.present(rep):
        for title, tls_headers, tls_rows in tls_tables.sections(rep):
            out.append(f"<h3>{html.escape(title)}</h3>")
            out.append(table(tls_headers, tls_rows))
    if rep.layout == "sizes":
        out.append(f"<h3>{html.escape(sizes.TITLE)}</h3>")
        out.append(table(*sizes.table(rep)))
        out += [f"<p class=note>{html.escape(n)}</p>" for n in sizes.notes(rep)]
    if rep.layout in OPS_LAYOUTS:
        out.append(f"<p class=note>Cells: ops/s ±95% CI of the median · speed vs {html.escape(rep.baseline)} "
                   "[95% CI] and verdict.</p>")  # fmt: skip
        for alg in ops_algs(rep):
            out.append(f"<h3>{html.escape(alg)}</h3>")
            if sizes.title_suffix(alg):
                out.append(f"<p class=note>{html.escape(sizes.title_suffix(alg))}</p>")
            out.append(table(*ops_matrix([t for t in rep.tables if t.alg == alg], providers)))
    for t in byte_tables(rep):
        out.append(f"<h3>{html.escape(t.alg)} — {html.escape(t.op)}</h3>")
        if rep.layout in ("matrix", "web") or rep.layout in OPS_LAYOUTS:
            out.append(table(*matrix(t, providers)))
        else:
            cells = [row_cells(r, rep.units, rep.cycles_hz) for r in t.rows]
            out.append(table(headers(rep.units), cells, [_row_class(r) for r in t.rows]))
    return "\n".join(out)


def environment(rep: Report) -> str:
    e, run = rep.run.env, rep.run
    esc = html.escape

    def v(x) -> str:
        if isinstance(x, (list, tuple)):
            x = " ".join(str(i) for i in x)
        return esc(str(x)) if x not in (None, "") else "?"

    items = [
        ("Machine", esc(machine_line(e))),
        ("CPU", f"{v(e.get('cpu_model'))} · {v(e.get('cores'))} cores"),
        ("CPU crypto flags", v(e.get("cpu_flags") or "none")),
        ("System", f"{v(e.get('kernel'))} · governor {v(e.get('governor'))}"),
        ("Load average", f"{v(e.get('load_start'))} at start → {v(e.get('load_end'))} at end"),
        ("cryptobench", f"{v(e.get('cryptobench'))} (commit {v(e.get('git_commit'))})"),
        ("Baseline", f"{esc(rep.baseline)} · noise threshold {rep.noise * 100:g}%"),
    ]
    if run.settings.get("cpu_features"):
        affected = sorted(p for p, h in run.providers.items() if h.get("cpu_features_off"))
        cap = next((h["openssl_ia32cap"] for h in run.providers.values() if h.get("openssl_ia32cap")), "?")
        off = ", ".join("no-" + n for n in str(run.settings["cpu_features"]).split(","))
        items.append(
            (
                "CPU features switched off",
                f"<strong>{esc(off)}</strong> (OPENSSL_ia32cap={esc(str(cap))}) for "
                f"{esc(', '.join(affected) or 'no provider')}; other providers run with every feature",
            )  # fmt: skip
        )
    dl = "".join(f"<dt>{k}</dt><dd>{val}</dd>" for k, val in items)
    providers = table(
        ["provider", "library", "version", "runtime", "clock resolution"],
        [[pid + (" (baseline)" if pid == rep.baseline else ""), h.get("library", ""), h.get("library_version", ""),
          h.get("runtime", ""), f"{(h.get('clock') or {}).get('resolution_ns', '?')} ns"]
         for pid, h in sorted(rep.run.providers.items())],
    )  # fmt: skip
    return f'<dl class="env">{dl}</dl>\n<h3>Providers</h3>\n{providers}'


def bullet_list(items: list[str], cls: str) -> str:
    if not items:
        return "<p class=none>None.</p>"
    return f'<ul class="{cls}">' + "".join(f"<li>{html.escape(str(i))}</li>" for i in items) + "</ul>"


def references(rep: Report) -> str:
    """Published figures from other machines, beside this run's (as in the Markdown report)."""
    if not getattr(rep, "references", None):
        return ""
    normalise = getattr(rep, "normalise", None)
    if normalise:
        note = f"Ratios drawn at the reader's request, normalised by x{normalise[0]:g}: {normalise[1]}."
    else:
        note = "Published figures from other machines, for orientation only: no ratio is drawn between machines."
    return (
        f'<section id="references"><h2>References (measured elsewhere)</h2><p class=note>{html.escape(note)}</p>'
        f"{table(*reference_table(rep))}</section>"
    )


def access_path(rep: Report) -> str:
    """The overhead model, what bindings add per call and the flagged pathologies (as in the Markdown report)."""
    overheads = getattr(rep, "overheads", None) or []
    costs = getattr(rep, "binding_costs", None) or []
    if not (rep.pathologies or overheads):
        return ""
    out = ['<section id="access-path">']
    if overheads:
        out.append("<h2>Overhead model</h2><p class=note>time = a per call + b per byte, fitted to the chunk sweep "
                   "(calls = total / chunk) or, without one, to the one-shot size sweep; 95% intervals.</p>")  # fmt: skip
        out.append(table(
            ["provider", "algorithm", "op", "a: ns per call [95% CI]", "b: ns per byte [95% CI]", "= MB/s", "from"],
            [[f.provider, f.alg, f.op, f"{f.a_ns:,.1f} [{f.a_ci[0]:,.1f}, {f.a_ci[1]:,.1f}]",
              f"{f.b_ns:.4f} [{f.b_ci[0]:.4f}, {f.b_ci[1]:.4f}]", f"{f.mb_per_s:,.0f}", f"{f.source} ({f.points} points)"]
             for f in overheads],
        ))  # fmt: skip
    if costs:
        out.append("<h3>What a binding adds per call</h3>")
        out.append(table(
            ["binding", "over", "algorithm", "op", "extra ns per call [95% CI]"],
            [[b["binding"], f"{b['native']} ({b['over']})", b["alg"], b["op"],
              f"{b['extra_ns_per_call']:,.1f} [{b['ci95'][0]:,.1f}, {b['ci95'][1]:,.1f}]"] for b in costs],
        ))  # fmt: skip
    out.append("<h2>Access-path pathologies</h2>")
    if rep.pathologies:
        out.append('<ul class="flags">' + "".join(
            f"<li><strong>{html.escape(str(p.get('provider')))}</strong> {html.escape(str(p.get('alg')))} "
            f"{html.escape(str(p.get('op')))}: {html.escape(str(p.get('why')))}</li>" for p in rep.pathologies) + "</ul>")  # fmt: skip
    else:
        out.append("<p class=none>None flagged.</p>")
    out.append("</section>")
    return "\n".join(out)


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def summary_counts(rep: Report) -> str:
    ok = sum(r.ok for r in rep.rows)
    items = [
        f"<span>{_n(ok, 'cell', 'cells')} measured</span>",
        f"<span>{_n(len(rep.run.providers), 'provider', 'providers')}</span>",
        f"<span class={'warn' if rep.warnings else 'ok'}>{_n(len(rep.warnings), 'warning', 'warnings')}</span>",
        f"<span class={'bad' if rep.failures else 'ok'}>{_n(len(rep.failures), 'failure', 'failures')}</span>",
        f"<span>{len(rep.not_offered)} not offered</span>",
    ]
    if rep.pathologies:
        items.append(f"<span class=bad>{_n(len(rep.pathologies), 'pathology', 'pathologies')}</span>")
    return '<p class="counts">' + "".join(items) + "</p>"
