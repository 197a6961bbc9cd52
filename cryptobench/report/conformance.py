"""The conformance report of `cryptobench verify`: provider × algorithm, with what verified each.

One model (`rows`, `matrix`) laid out four ways: terminal, Markdown, JSON and a self-contained HTML
page. A cell of the matrix reads `✓ 132 + 500` (known answers passed + differential inputs agreed),
`✗` with the first failure, or `unverified (N cases)`.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass

from rich.console import Console

from cryptobench import RESULT_SCHEMA_VERSION
from cryptobench.report import jsontext
from cryptobench.report.markup import plain, rich_table, safe_lines, table
from cryptobench.store.model import RunRecord, VerifyRecord
from cryptobench.verify.witness import MARK


@dataclass
class Verification:
    """A stored `verify` run and its provider × algorithm records: what the conformance formats show."""

    run: RunRecord
    verifs: list[VerifyRecord]


def _mark(v: VerifyRecord) -> str:
    diff = v.conformance.get("differential") or {}
    agreed = diff.get("agreed", 0)
    counts = f"{v.passed}" + (f" + {agreed}" if agreed else "")
    if v.status == "passed":
        return f"✓ {counts}"
    if v.status == "unverified":
        return v.detail.split(":")[0]
    return "✗ " + (v.conformance.get("first_failure", {}).get("id") or "failed").split("/")[-1]


def matrix(verifs: list[VerifyRecord], providers: list[str] | None = None) -> tuple[list[str], list[list[str]]]:
    """Algorithm × provider (a catalogue has more algorithms than a machine has providers); blank:
    not offered. `providers` picks the columns, all of them by default."""
    algs = list(dict.fromkeys(v.alg for v in verifs))
    by = {(v.provider, v.alg): v for v in verifs}
    providers = providers or sorted({v.provider for v in verifs})
    rows = [[a] + [_mark(by[(p, a)]) if (p, a) in by else "" for p in providers] for a in algs]
    return ["algorithm", *providers], rows


def _sources(v: VerifyRecord) -> str:
    parts = []
    for src, (passed, failed, skipped) in sorted((v.conformance.get("sources") or {}).items()):
        parts.append(
            f"{src} {passed}" + (f"/{failed} failed" if failed else "") + (f" ({skipped} skipped)" if skipped else "")
        )
    return "; ".join(parts) or "none"


def _differential(v: VerifyRecord) -> str:
    d = v.conformance.get("differential")
    if not d:
        return "-"
    peers = ", ".join(d.get("peers") or []) or "no other provider"
    if d.get("witnesses"):  # failed their known answers, or brought in from outside the run (witness.py):
        # their agreeing outputs count, they never vote
        named = [w.removeprefix(MARK) + " (brought in, not measured)" if w.startswith(MARK) else w
                 for w in d["witnesses"]]  # fmt: skip
        peers += f" (witnesses: {', '.join(named)})"
    text = f"{d['inputs']} inputs, {d['streamed']} streamed, vs {peers}: "
    if d.get("smallest"):
        return text + f"{d['disagreements']} disagree; smallest: {d['smallest']['why']}"
    return text + "all agree"


def details(verifs: list[VerifyRecord]) -> tuple[list[str], list[list[str]]]:
    headers = ["provider", "algorithm", "status", "known answers by source", "Monte Carlo", "differential", "detail"]
    rows = []
    for v in verifs:
        m = v.conformance.get("monte")
        monte = f"{m['checkpoints']} checkpoints {'passed' if m['passed'] else 'FAILED'}" if m else "-"
        rows.append([v.provider, v.alg, v.status, _sources(v), monte, _differential(v), v.detail])
    return headers, rows


def failed(verifs: list[VerifyRecord]) -> list[VerifyRecord]:
    return [v for v in verifs if v.status == "failed"]


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
    for r in v.verifs:
        if r.status != "passed":
            console.print(plain(f"  {r.provider} {r.alg}: {r.detail}"))
    return buf.getvalue()


def _columns_that_fit(verifs: list[VerifyRecord], width: int) -> list[list[str]]:
    """Providers in groups whose columns (each as wide as its name or widest mark) fit beside the
    algorithm column: more providers make more tables, never folded names."""
    wide: dict[str, int] = {}  # provider -> its column's width: the name or the widest mark, and padding
    for v in verifs:
        wide[v.provider] = max(wide.get(v.provider, len(v.provider) + 3), len(_mark(v)) + 3)
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
    out += ["", "## Details", ""]
    out += table(*details(verifs))
    replays = [v.conformance["differential"]["smallest"]["replay"] for v in verifs
               if (v.conformance.get("differential") or {}).get("smallest")]  # fmt: skip
    if replays:
        out += ["", "## Replay the smallest disagreeing inputs", "", "```sh", *replays, "```"]
    return safe_lines(out)


def to_dict(run: RunRecord, verifs: list[VerifyRecord]) -> dict:
    return {
        "schema": "cryptobench-verify",
        "schema_version": RESULT_SCHEMA_VERSION,
        "run": {"id": run.id, "started": run.started, "finished": run.finished, "status": run.status},
        "failed": len(failed(verifs)),
        "results": [
            {
                "provider": v.provider,
                "alg": v.alg,
                "status": v.status,
                "passed": v.passed,
                "failed": v.failed,
                "skipped": v.skipped,
                "detail": v.detail,
                **v.conformance,
            }  # fmt: skip
            for v in verifs
        ],
    }


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

    style = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:4px 8px;font-size:13px}.ok{background:#e6f4e6}"
             ".bad{background:#f8d7d7}.warn{background:#fff3cd}")  # fmt: skip
    return (
        f"<!doctype html><html><head><meta charset=utf-8><title>cryptobench verify run {esc(str(run.id))}</title>"
        f"<style>{style}</style></head><body><h1>cryptobench verify — run {esc(str(run.id))}</h1>"
        f"<p>{len(verifs)} pairs, {len(failed(verifs))} failed.</p><h2>Conformance matrix</h2>"
        f"{tab(*matrix(verifs))}<h2>Details</h2>{tab(*details(verifs))}</body></html>\n"
    )


def _cls(text: str) -> str:
    t = str(text)
    return "ok" if t.startswith("✓") or t == "passed" else "bad" if t.startswith("✗") or t == "failed" else (
        "warn" if t.startswith("unverified") else "")  # fmt: skip
