"""The conformance report of `cryptobench verify` (report/conformance.py) laid out four ways:
terminal, Markdown, JSON and a self-contained HTML page."""

from __future__ import annotations

import html
import io

from rich.console import Console

from cryptobench.report import jsontext, tls_tables
from cryptobench.report.conformance import Verification, details, failed, mark, matrix, to_dict
from cryptobench.report.markup import plain, rich_table, safe_lines, table
from cryptobench.store.model import VerifyRecord


def render_terminal(v: Verification, color: bool = False, width: int = 160) -> str:
    """The matrix, then one line per pair that did not pass (why, in full)."""
    buf = io.StringIO()
    console = Console(file=buf, width=width, force_terminal=color, color_system="standard" if color else None)
    parts = _columns_that_fit(v.verifs, width)
    for i, providers in enumerate(parts):
        part = f" ({i + 1} of {len(parts)})" if len(parts) > 1 else ""
        title = f"conformance{part}: ✓ known answers + agreed differential inputs"
        console.print(plain(title))  # above the table, not folded into its width
        console.print(rich_table("", *matrix(v.verifs, providers)))
    for title, headers, rows in tls_tables.interop_tables_of(v.verifs):
        console.print(rich_table(title, headers, rows))
    for r in v.verifs:
        if r.status != "passed":
            console.print(plain(f"  {r.provider} {r.alg}: {r.detail}"))
    return buf.getvalue()


def _columns_that_fit(verifs: list[VerifyRecord], width: int) -> list[list[str]]:
    """Providers in groups whose columns (each as wide as its name or widest mark) fit beside the
    algorithm column: more providers make more tables, never folded names."""
    wide: dict[str, int] = {}  # provider -> its column's width: the name or the widest mark, and padding
    for v in verifs:
        wide[v.provider] = max(wide.get(v.provider, len(v.provider) + 3), len(mark(v)) + 3)
    providers = sorted(wide)
    room = width - max([len("algorithm")] + [len(v.alg) for v in verifs]) - 4
    parts: list[list[str]] = [[]]
    for p in providers:
        if parts[-1] and sum(wide[q] for q in parts[-1]) + wide[p] > room:
            parts.append([])
        parts[-1].append(p)
    return parts


def render_markdown(v: Verification) -> str:
    run, verifs = v.run, v.verifs
    out = [f"# cryptobench verify — run {run.id}", "",
           f"{len(verifs)} provider × algorithm pairs; {len(failed(verifs))} failed, "
           f"{sum(v.status == 'unverified' for v in verifs)} unverified. ✓ known answers + agreed differential "
           "inputs (docs/verification.md).", "", "## Conformance matrix", ""]  # fmt: skip
    out += table(*matrix(verifs))
    for title, headers, rows in tls_tables.interop_tables_of(verifs):
        out += ["", f"## {title}", ""]
        out += table(headers, rows)
    out += ["", "## Details", ""]
    out += table(*details(verifs))
    replays = [v.conformance["differential"]["smallest"]["replay"] for v in verifs
               if (v.conformance.get("differential") or {}).get("smallest")]  # fmt: skip
    if replays:
        out += ["", "## Replay the smallest disagreeing inputs", "", "```sh", *replays, "```"]
    return safe_lines(out)


def render_json(v: Verification) -> str:
    return jsontext.dumps(to_dict(v.run, v.verifs), indent=2, ensure_ascii=False) + "\n"


def render_html(v: Verification) -> str:
    run, verifs = v.run, v.verifs
    esc = html.escape

    def tab(headers: list[str], rows: list[list[str]]) -> str:
        head = "".join(f"<th>{esc(h)}</th>" for h in headers)
        body = "".join(
            "<tr>" + "".join(f"<td class='{_cls(c)}'>{esc(str(c))}</td>" for c in row) + "</tr>" for row in rows
        )
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    interop = "".join(f"<h2>{esc(t)}</h2>{tab(h, r)}" for t, h, r in tls_tables.interop_tables_of(verifs))
    style = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px}.ok{background:#e6f4e6}"
             ".bad{background:#f8d7d7}.warn{background:#fff3cd}")  # fmt: skip
    return (
        f"<!doctype html><html><head><meta charset=utf-8><title>cryptobench verify run {esc(str(run.id))}</title>"
        f"<style>{style}</style></head><body><h1>cryptobench verify — run {esc(str(run.id))}</h1>"
        f"<p>{len(verifs)} pairs, {len(failed(verifs))} failed.</p><h2>Conformance matrix</h2>"
        f"{tab(*matrix(verifs))}{interop}<h2>Details</h2>{tab(*details(verifs))}</body></html>\n"
    )


def _cls(text: str) -> str:
    t = str(text)
    return "ok" if t.startswith("✓") or t == "passed" else "bad" if t.startswith("✗") or t == "failed" else (
        "warn" if t.startswith("unverified") else "")  # fmt: skip
