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
"""

from __future__ import annotations

import html
import json
import math
from pathlib import Path

from cryptobench.core import algorithms
from cryptobench.core.errors import UserError
from cryptobench.core.units import format_size
from cryptobench.icount import report as icount_report
from cryptobench.report import jsontext, leak_table, scaling_table
from cryptobench.report.cells import cycles_note, estimator_note, headers, row_cells, verdict_legend
from cryptobench.report.markup import machine_line, reference_table
from cryptobench.report.matrix import crosscheck_matrix, matrix, ops_matrix, providers_of
from cryptobench.report.model import Report, Row
from cryptobench.report.versions_layout import NO_RELEASES, release_lines, version_tables, versions_title

ASSETS = Path(__file__).parent / "assets"
LIBRARY = ASSETS / "node_modules" / "echarts"
LIBRARY_JS = LIBRARY / "dist" / "echarts.min.js"
# Licence texts carried into the page with the library: ECharts (Apache-2.0, with its NOTICE and the
# d3 subcomponent's BSD licence) bundles ZRender (BSD-3-Clause) and tslib (0BSD, header already in the file).
LICENCE_FILES = [
    LIBRARY / "NOTICE",
    LIBRARY / "LICENSE",
    LIBRARY / "licenses" / "LICENSE-d3",
    ASSETS / "node_modules" / "zrender" / "LICENSE",
]
INSTALL = "npm ci --prefix cryptobench/report/assets"

# Provider colours (Tableau 10 without its red, which marks pathologies); the baseline is drawn dark.
PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#17becf",
           "#bcbd22", "#8c6d31", "#393b79"]  # fmt: skip
BASELINE_COLOR = "#222222"
PATHOLOGY_COLOR = "#d62728"


def _library() -> tuple[str, str, str]:
    """(version, licence comment, minified code) of the charting library, or a UserError naming the install."""
    try:
        meta = json.loads((LIBRARY / "package.json").read_text())
        code = LIBRARY_JS.read_text(encoding="utf-8")
        notices = [f.read_text(encoding="utf-8") for f in LICENCE_FILES]
    except (OSError, ValueError) as e:
        raise UserError(
            f"the HTML report needs its charting library, which is not installed ({e.__class__.__name__}: "
            f"{getattr(e, 'filename', None) or e}); install it with: {INSTALL}"
        ) from None
    version = meta.get("version", "?")
    text = "\n\n".join(n.strip() for n in notices)
    text = text.replace("*/", "* /")  # stays one comment whatever the files say
    comment = (
        f"/*! Apache ECharts {version}, inlined unmodified below (dist/echarts.min.js), with ZRender and tslib.\n"
        f"Licence notices:\n\n{text}\n*/\n"
    )
    for bad in ("</script", "<!--"):
        if bad in code.lower() or bad in comment.lower():
            raise UserError(f"the charting library contains {bad!r} and cannot be inlined; reinstall it: {INSTALL}")
    return version, comment, code


def ensure_available() -> None:
    """Raise the UserError naming the install now, before a long run whose report would need it."""
    _library()


def _json_for_script(data) -> str:
    """JSON that is inert inside <script>: no '<', '>' or '&' (so no '</script>' and no '<!--')."""
    text = jsontext.dumps(data, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _num(x: float | None, digits: int = 6) -> float | None:
    if x is None or not isinstance(x, (int, float)) or math.isnan(x) or math.isinf(x):
        return None
    return round(float(x), digits)


def _is_public_key(r: Row) -> bool:
    pk = getattr(r, "public_key", None)
    if pk is not None:
        return bool(pk)
    a = algorithms.ALGORITHMS.get(r.cell.alg)
    return bool(a and a.public_key)


def _speed(r: Row) -> dict | None:
    if r.is_baseline:
        return {"x": 1.0, "lo": 1.0, "hi": 1.0, "verdict": "baseline"}
    sp = r.speedup
    if sp is None or _num(sp[0]) is None:
        return None
    lo, hi = _num(sp[1]), _num(sp[2])
    return {
        "x": _num(sp[0]),
        "lo": sp[0] if lo is None else lo,
        "hi": sp[0] if hi is None else hi,
        "verdict": r.verdict,
    }


def _point(r: Row, x: int, rate: str) -> dict:
    """One measured figure with its 95% interval: rate is 'mbs' (MB/s) or 'ops' (ops/s)."""
    s = r.summary
    f = r.mb_per_s if rate == "mbs" else r.ops_per_s
    return {
        "x": x,
        "v": _num(f()),
        "lo": _num(f(s.ci_high)),
        "hi": _num(f(s.ci_low)),
        "ci": _num(s.ci_rel_halfwidth * 100, 2),
        "speed": _speed(r),
        "differs": r.checksum_mismatch,
        "notes": list(r.notes),
    }


class _Charts:
    """The chart specifications the page's script draws, and the markup of their containers."""

    def __init__(self, rep: Report):
        self.rep = rep
        self.providers = providers_of(rep)
        self.specs: list[dict] = []

    def color(self, provider: str) -> str:
        if provider == self.rep.baseline:
            return BASELINE_COLOR
        others = [p for p in self.providers if p != self.rep.baseline]
        return PALETTE[others.index(provider) % len(PALETTE)] if provider in others else "#888888"

    def add(self, kind: str, title: str, caption: str, height: int, **spec) -> str:
        n = len(self.specs)
        self.specs.append({"kind": kind, **spec})
        return (
            f'<figure class="fig fig-{kind}"><figcaption><span class="fig-title">{html.escape(title)}</span>'
            f"{(' <span class=fig-sub>' + html.escape(caption) + '</span>') if caption else ''}</figcaption>"
            f'<div class="chart" id="chart-{n}" data-chart="{n}" style="height:{height}px"></div></figure>'
        )


def _rate_tables(rep: Report):
    """(table, one-shot rows with a size, chunked rows) of every table measured in MB/s."""
    for t in rep.tables:
        if any(_is_public_key(r) for r in t.rows):
            continue
        oneshot = [r for r in t.rows if r.ok and r.cell.chunk == 0 and r.cell.size > 0]
        chunked = [r for r in t.rows if r.ok and r.cell.chunk > 0 and r.cell.size > 0]
        if oneshot or chunked:
            yield t, oneshot, chunked


def _series(ch: _Charts, rows: list[Row], x_of, rate: str, flagged: dict[str, str] | None = None) -> list[dict]:
    by_p: dict[str, list[Row]] = {}
    for r in rows:
        by_p.setdefault(r.provider, []).append(r)
    out = []
    for p in sorted(by_p, key=lambda p: ch.providers.index(p) if p in ch.providers else 99):
        why = (flagged or {}).get(p)
        out.append(
            {
                "provider": p,
                "color": PATHOLOGY_COLOR if why else ch.color(p),
                "baseline": p == ch.rep.baseline,
                "flagged": why,
                "points": [_point(r, x_of(r), rate) for r in sorted(by_p[p], key=x_of)],
            }
        )
    return out


def _throughput_charts(ch: _Charts) -> list[str]:
    out = []
    for t, oneshot, _ in _rate_tables(ch.rep):
        if len({r.cell.size for r in oneshot}) < 2:
            continue
        series = _series(ch, oneshot, lambda r: r.cell.size, "mbs")
        out.append(ch.add("throughput", f"{t.alg} — {t.op}", "MB/s against message size, log-log; bars: 95% CI",
                          340, series=series))  # fmt: skip
    return out


PANEL = {"top": 4, "title": 24, "row": 22, "axis": 24, "gap": 12, "bottom": 22}  # px; report.js lays out the same


def _panels(ch: _Charts, kind: str, title: str, caption: str, groups: list[tuple[str, list[Row]]], rate: str) -> str:
    """Horizontal bars, one panel per size (or operation), providers down, each panel on its own scale."""
    present = {r.provider for _, rows in groups for r in rows}
    providers = [p for p in ch.providers if p in present]
    panels = [
        {
            "label": label,
            "points": {r.provider: _point(r, 0, rate) if r.ok else {"missing": _short_status(r)} for r in rows},
        }
        for label, rows in groups
    ]
    height = (
        PANEL["top"]
        + PANEL["bottom"]
        + len(panels) * (PANEL["title"] + PANEL["row"] * len(providers) + PANEL["axis"] + PANEL["gap"])
    )
    return ch.add(
        kind,
        title,
        caption,
        height,
        unit="MB/s" if rate == "mbs" else "ops/s",
        providers=[{"provider": p, "color": ch.color(p), "baseline": p == ch.rep.baseline} for p in providers],
        panels=panels,
    )


def _short_status(r: Row) -> str:
    return "not offered" if r.cell.status == "not-offered" else "failed" if r.cell.status != "ok" else "no figure"


def _bar_charts(ch: _Charts) -> list[str]:
    out = []
    for t, oneshot, _ in _rate_tables(ch.rep):
        if not oneshot:
            continue
        sizes = sorted({r.cell.size for r in oneshot})
        groups = [(format_size(s), [r for r in t.rows if r.cell.size == s and r.cell.chunk == 0]) for s in sizes]
        caption = "MB/s at each message size, each on its own scale; bar labels: MB/s and speed vs the baseline"
        out.append(_panels(ch, "bars", f"{t.alg} — {t.op}", caption, groups, "mbs"))
    return out


def _heatmap(ch: _Charts) -> list[str]:
    """Speed against the baseline: provider across, algorithm/operation down, at each table's largest size."""
    rep = ch.rep
    labels, cells, missing = [], [], []
    for t in rep.tables:
        pk = any(_is_public_key(r) for r in t.rows)
        base_sizes = [r.cell.size for r in t.rows if r.is_baseline and r.cell.chunk == 0]
        if not base_sizes:
            continue
        size = max(base_sizes)
        row = [r for r in t.rows if r.cell.size == size and r.cell.chunk == 0]
        y = len(labels)
        labels.append(f"{t.alg} {t.op}" + ("" if pk or not size else f" @ {format_size(size)}"))
        for r in row:
            if r.provider not in ch.providers:
                continue
            x = ch.providers.index(r.provider)
            sp = _speed(r) if r.ok else None
            if sp and sp["x"]:
                cells.append({"x": x, "y": y, "log2": _num(math.log2(sp["x"]), 4), "speed": sp,
                              "differs": r.checksum_mismatch})  # fmt: skip
            else:
                short = _short_status(r) if not r.ok else "no ratio"
                missing.append({"x": x, "y": y, "text": short, "reason": r.cell.reason})
    if not cells:
        return []
    used = sorted({c["x"] for c in cells} | {c["x"] for c in missing})
    remap = {x: i for i, x in enumerate(used)}
    for c in cells + missing:
        c["x"] = remap[c["x"]]
    providers = [ch.providers[x] for x in used]
    height = 110 + 34 * len(labels)
    return [
        ch.add(
            "heatmap",
            f"Speed against the baseline {rep.baseline}",
            "baseline time / provider time at each table's largest size; above 1 (blue) = faster, below 1 (red) = slower",
            height,
            providers=providers,
            baseline=rep.baseline,
            rows=labels,
            cells=cells,
            missing=missing,
        )
    ]


def _granularity_charts(ch: _Charts) -> list[str]:
    rep = ch.rep
    out = []
    for t, oneshot, chunked in _rate_tables(rep):
        if not chunked:
            continue
        flagged = {
            p["provider"]: str(p.get("why", ""))
            for p in rep.pathologies
            if p.get("alg") == t.alg and p.get("op") == t.op and p.get("provider")
        }
        for size in sorted({r.cell.size for r in chunked}):
            rows = [r for r in chunked if r.cell.size == size]
            series = _series(ch, rows, lambda r: r.cell.chunk, "mbs", flagged)
            oneshot_at = {r.provider: _num(r.mb_per_s()) for r in oneshot if r.cell.size == size}
            for s in series:
                s["oneshot"] = oneshot_at.get(s["provider"])
            flagged_here = [(p, w) for p, w in flagged.items() if any(s["provider"] == p for s in series)]
            notes = "".join(
                f'<li><span class="flag">⚠ {html.escape(p)}</span>: {html.escape(w)}</li>' for p, w in flagged_here
            )
            fig = ch.add(
                "granularity",
                f"{t.alg} — {t.op}, {format_size(size)} message",
                "MB/s against the chunk size the message is fed in, log-log; dotted: one-shot",
                360,
                series=series,
            )
            if notes:
                fig = fig.replace("</figure>", f'<ul class="fig-notes">{notes}</ul></figure>')
            out.append(fig)
    return out


def _pubkey_charts(ch: _Charts) -> list[str]:
    by_alg: dict[str, list[Row]] = {}
    for t in ch.rep.tables:
        for r in t.rows:
            if r.ok and (_is_public_key(r) or r.cell.size == 0):
                by_alg.setdefault(t.alg, []).append(r)
    out = []
    for alg, rows in by_alg.items():
        ops = list(dict.fromkeys((r.cell.op, r.cell.size) for r in rows))
        multi = len({op for op, _ in ops}) < len(ops)  # an operation at several sizes: name the size
        groups = [(op + (f" ({format_size(size)})" if multi else ""),
                   [r for r in rows if (r.cell.op, r.cell.size) == (op, size)]) for op, size in ops]  # fmt: skip
        caption = "operations per second, each operation on its own scale; bar labels: ops/s and speed vs the baseline"
        out.append(_panels(ch, "pubkey", alg, caption, groups, "ops"))
    return out


def _table(headers: list[str], rows: list[list[str]], classes: list[str] | None = None) -> str:
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


def _version_charts(ch: _Charts) -> list[str]:
    if ch.rep.layout != "versions":
        return []
    out = []
    for vt in version_tables(ch.rep):
        lines = release_lines(vt)
        if not lines:
            continue
        rate = "ops" if lines[0][1] else "mbs"
        series = [
            {"provider": label, "color": PALETTE[i % len(PALETTE)], "baseline": False, "flagged": None,
             "points": [_point(r, x, rate) for x, r in rows]}
            for i, (label, _per_op, rows) in enumerate(lines)
        ]  # fmt: skip
        unit = "ops/s" if rate == "ops" else "MB/s"
        out.append(ch.add("versions", f"{vt.base} — {vt.alg}", f"{unit} at each release", 340, series=series,
                          versions=[p.partition("@")[2] for p in vt.versions], unit=unit))  # fmt: skip
    return out


def _tables(rep: Report) -> str:
    out = []
    providers = providers_of(rep)
    releases = version_tables(rep) if rep.layout == "versions" else []
    for vt in releases:
        out.append(f"<h3>{html.escape(versions_title(vt))}</h3>")
        out.append(_table(vt.headers, vt.rows))
    if releases:
        return "\n".join(out)
    if rep.layout == "versions":
        out.append(f"<p class=note>{html.escape(NO_RELEASES)}</p>")
    if rep.layout == "matrix":
        out.append(f"<p class=note>Cells: MB/s ±95% CI of the median · speed vs {html.escape(rep.baseline)} [95% CI] "
                   "(no speed: the baseline).</p>")  # fmt: skip
    if rep.layout == "ops":
        out.append(f"<p class=note>Cells: ops/s ±95% CI of the median · speed vs {html.escape(rep.baseline)} "
                   "[95% CI] and verdict.</p>")  # fmt: skip
        for alg in dict.fromkeys(t.alg for t in rep.tables):
            out.append(f"<h3>{html.escape(alg)}</h3>")
            out.append(_table(*ops_matrix([t for t in rep.tables if t.alg == alg], providers)))
        return "\n".join(out)
    for t in rep.tables:
        out.append(f"<h3>{html.escape(t.alg)} — {html.escape(t.op)}</h3>")
        if rep.layout == "matrix":
            out.append(_table(*matrix(t, providers)))
        else:
            cells = [row_cells(r, rep.units, rep.cycles_hz) for r in t.rows]
            out.append(_table(headers(rep.units), cells, [_row_class(r) for r in t.rows]))
    return "\n".join(out)


def _environment(rep: Report) -> str:
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
    providers = _table(
        ["provider", "library", "version", "runtime", "clock resolution"],
        [[pid + (" (baseline)" if pid == rep.baseline else ""), h.get("library", ""), h.get("library_version", ""),
          h.get("runtime", ""), f"{(h.get('clock') or {}).get('resolution_ns', '?')} ns"]
         for pid, h in sorted(rep.run.providers.items())],
    )  # fmt: skip
    return f'<dl class="env">{dl}</dl>\n<h3>Providers</h3>\n{providers}'


def _list(items: list[str], cls: str) -> str:
    if not items:
        return "<p class=none>None.</p>"
    return f'<ul class="{cls}">' + "".join(f"<li>{html.escape(str(i))}</li>" for i in items) + "</ul>"


NAV = {"overview": "Overview", "throughput": "Throughput vs size", "bars": "By provider",
       "granularity": "Granularity", "pubkey": "Public key", "versions": "Releases"}  # fmt: skip


def _references(rep: Report) -> str:
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
        f"{_table(*reference_table(rep))}</section>"
    )


def render(rep: Report, library_src: str | None = None) -> str:
    """The page, its charting library inlined, or loaded from `library_src` (a file beside it: the
    published site writes the library once for all its pages)."""
    version, licence, library = _library()
    script = (ASSETS / "report.js").read_text(encoding="utf-8")
    style = (ASSETS / "report.css").read_text(encoding="utf-8")
    for name, text, bad in (("report.js", script, "</script"), ("report.css", style, "</style")):
        if bad in text.lower() or "<!--" in text:
            raise ValueError(f"{name} must not contain {bad!r} or '<!--': it is inlined into the page")
    esc = html.escape
    run = rep.run
    ch = _Charts(rep)

    sections = []
    heat = _heatmap(ch)
    if heat:
        sections.append(("overview", "Overview: speed against the baseline", heat, "grid1", ""))
    thr = _throughput_charts(ch)
    if thr:
        sections.append(("throughput", "Throughput against message size", thr, "grid2",
                         "One line per provider; MB/s = 10^6 bytes per second; error bars: the 95% "
                         "confidence interval of the median."))  # fmt: skip
    bars = _bar_charts(ch)
    if bars:
        sections.append(("bars", "Throughput by provider", bars, "grid2",
                         "Median MB/s at each message size, providers down; the baseline is drawn in black, whiskers are the 95% CI."))  # fmt: skip
    gran = _granularity_charts(ch)
    if gran:
        sections.append(("granularity", "Granularity: streaming in chunks", gran, "grid2",
                         "The same message fed in pieces of the chunk size; a provider flagged ⚠ (red) has an "
                         "access-path pathology."))  # fmt: skip
    rel = _version_charts(ch)
    if rel:
        sections.append(("versions", "Speed against release", rel, "grid2",
                         "One line per operation and size, releases oldest first; error bars: the 95% confidence "
                         "interval of the median. The tables give each change with its interval and verdict."))  # fmt: skip
    pk = _pubkey_charts(ch)
    if pk:
        sections.append(("pubkey", "Public-key operations", pk, "grid2",
                         "Median operations per second; the baseline is drawn in black, whiskers are the 95% CI."))  # fmt: skip

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
        _summary_counts(rep),
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
        _tables(rep),
        "</section>",
    ]
    if rep.leak:
        parts.append('<section id="leak"><h2>Leak checks</h2>'
                     f"<p class=note>{esc(leak_table.note(rep.leak))}</p>"
                     + leak_table.html_table(rep.leak) + "</section>")  # fmt: skip
    if rep.run.env.get("instructions"):
        icount = rep.run.env["instructions"]
        parts.append(f'<section id="instructions"><h2>{esc(icount_report.TITLE)}</h2>'
                     + "".join(f"<p class=note>{esc(line)}</p>" for line in icount_report.notes(icount))
                     + _table(icount_report.HEADERS, icount_report.rows(icount)) + "</section>")  # fmt: skip
    if rep.scaling:
        parts.append('<section id="scaling"><h2>Multi-core scaling</h2>'
                     f"<p class=note>{esc(scaling_table.NOTE)}</p>"
                     + _table(scaling_table.HEADERS, scaling_table.rows(rep.scaling)) + "</section>")  # fmt: skip
    crosschecks = getattr(rep, "crosschecks", None) or []
    if crosschecks:
        parts.append('<section id="crosscheck"><h2>Cross-verification</h2><p class=note>Each provider\'s keys, '
                     "signatures and ciphertexts checked by every other provider (✓: every check passed).</p>")  # fmt: skip
        for alg in dict.fromkeys(c.alg for c in crosschecks):
            parts.append(f"<h3>{esc(alg)}</h3>" + _table(*crosscheck_matrix(crosschecks, alg)))
        parts.append("</section>")
    parts.append(_access_path(rep))
    parts.append(_references(rep))
    parts.append('<section id="verification"><h2>Verification</h2>')
    if rep.verifications:
        parts.append(_table(["provider", "algorithm", "status", "vectors passed", "failed", "detail"],
                            [[v.provider, v.alg, v.status, str(v.passed), str(v.failed), v.detail]
                             for v in rep.verifications],
                            ["v-failed" if v.status == "failed" else "" for v in rep.verifications]))  # fmt: skip
    else:
        parts.append("<p class=none>No verification recorded.</p>")
    parts.append("</section>")
    parts.append('<section id="warnings">')
    for name, items, cls in (("Warnings", rep.warnings, "warnings"), ("Failures", rep.failures, "failures"),
                             ("Not offered", rep.not_offered, "notoffered")):  # fmt: skip
        parts.append(f"<h2>{name} <span class=count>{len(items)}</span></h2>" + _list(items, cls))
    parts.append("</section>")
    parts.append(f'<section id="environment"><h2>Environment</h2>{_environment(rep)}</section>')
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
        f'<script type="application/json" id="cryptobench-data">{_json_for_script(_data(rep, ch))}</script>',
        f'<script id="charting-library" src="{html.escape(library_src)}"></script>'
        if library_src
        else f'<script id="charting-library">{licence}{library}</script>',
        f"<script>{script}</script>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def _access_path(rep: Report) -> str:
    """The overhead model, what bindings add per call and the flagged pathologies (as in the Markdown report)."""
    overheads = getattr(rep, "overheads", None) or []
    costs = getattr(rep, "binding_costs", None) or []
    if not (rep.pathologies or overheads):
        return ""
    out = ['<section id="access-path">']
    if overheads:
        out.append("<h2>Overhead model</h2><p class=note>time = a per call + b per byte, fitted to the chunk sweep "
                   "(calls = total / chunk) or, without one, to the one-shot size sweep; 95% intervals.</p>")  # fmt: skip
        out.append(_table(
            ["provider", "algorithm", "op", "a: ns per call [95% CI]", "b: ns per byte [95% CI]", "= MB/s", "from"],
            [[f.provider, f.alg, f.op, f"{f.a_ns:,.1f} [{f.a_ci[0]:,.1f}, {f.a_ci[1]:,.1f}]",
              f"{f.b_ns:.4f} [{f.b_ci[0]:.4f}, {f.b_ci[1]:.4f}]", f"{f.mb_per_s:,.0f}", f"{f.source} ({f.points} points)"]
             for f in overheads],
        ))  # fmt: skip
    if costs:
        out.append("<h3>What a binding adds per call</h3>")
        out.append(_table(
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


def _data(rep: Report, ch: _Charts) -> dict:
    return {
        "baseline": rep.baseline,
        "colors": {"baseline": BASELINE_COLOR, "pathology": PATHOLOGY_COLOR},
        "charts": ch.specs,
    }


def _n(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def _summary_counts(rep: Report) -> str:
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
