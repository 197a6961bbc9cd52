"""Tables and lines that several formats lay out the same way, owned by none of them.

Markdown, the terminal, HTML and the conformance report take their shared tables from here, so no
format imports another (hyperfine's `export/markup.rs` plays this part).
"""

from __future__ import annotations

from rich.table import Table as RichTable
from rich.text import Text

from cryptobench.core.textsafe import printable
from cryptobench.report.model import Report


def safe_lines(lines: list[str]) -> str:
    """The document, with nothing a driver, suite or providers file wrote able to act as markup:
    `<` cannot open an HTML tag (`<script>` shows as text where Markdown is rendered) and control
    characters (ANSI sequences) are shown as escapes. Our own markup never uses either."""
    return "\n".join(printable(line).replace("<", "&lt;") for line in lines) + "\n"


def table(headers: list[str], rows: list[list[str]]) -> list[str]:
    esc = lambda s: str(s).replace("|", "\\|").replace("\n", " ")  # noqa: E731
    out = ["| " + " | ".join(esc(h) for h in headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    out += ["| " + " | ".join(esc(c) for c in row) + " |" for row in rows]
    return out


def machine_line(e: dict) -> str:
    """The machine a run was measured on: its label, id and memory (runs older than machine ids: the hostname)."""
    label = e.get("machine_label") or e.get("hostname") or "?"
    ident = f" · id {e['machine_id']}" if e.get("machine_id") else ""
    memory = f" · {e['memory_kb'] / 1048576:.1f} GiB memory" if e.get("memory_kb") else ""
    return f"{label}{ident}{memory}"


def environment_lines(rep: Report) -> list[str]:
    e, run = rep.run.env, rep.run
    lines = [
        f"- **Run** {run.id} · suite `{run.suite}` · {run.started} → {run.finished or 'unfinished'} · status **{run.status}**",
        f"- **Machine** {machine_line(e)}",
        f"- **CPU** {e.get('cpu_model')} · {e.get('cores')} cores · crypto flags: {' '.join(e.get('cpu_flags', [])) or 'none'}",
        f"- **System** {e.get('kernel')} · governor {e.get('governor')} · load {e.get('load_start')} → {e.get('load_end', '?')}",
        f"- **cryptobench** {e.get('cryptobench')} (commit {e.get('git_commit')}) · baseline `{rep.baseline}` · noise threshold {rep.noise * 100:g}%",
    ]
    if rep.noise_level is not None:  # the machine's conditions, to compare two runs' at a glance
        lines.insert(1, f"- **Noise level** {rep.noise_level.text()}")
    if run.settings.get("cpu_features"):
        affected = sorted(p for p, h in run.providers.items() if h.get("cpu_features_off"))
        cap = next((h["openssl_ia32cap"] for h in run.providers.values() if h.get("openssl_ia32cap")), "?")
        lines.append(
            f"- **CPU features switched off**: {', '.join('no-' + n for n in run.settings['cpu_features'].split(','))} (OPENSSL_ia32cap={cap}) "
            f"for {', '.join(affected) or 'no provider'}; other providers run with every feature"
        )
    return lines


def step_table(steps) -> tuple[list[str], list[list[str]]]:
    headers = ["provider", "suite", "step", "measured µs [95% CI]", "sum of primitives µs", "protocol above them"]
    rows = []
    for s in steps:
        measured = f"{s.measured_ns / 1e3:,.1f} ±{s.measured_half / 1e3:,.1f}"
        if s.sum_ns is None:
            rows.append([s.provider, s.suite, s.step, measured, "not measured: " + ", ".join(s.missing), ""])
            continue
        pct = s.overhead_ns / s.sum_ns * 100 if s.sum_ns else float("nan")
        rows.append([s.provider, s.suite, s.step, measured, f"{s.sum_ns / 1e3:,.1f} ±{s.sum_half / 1e3:,.1f}",
                     f"{s.overhead_ns / 1e3:+,.1f} ±{s.overhead_half / 1e3:,.1f} µs ({pct:+.0f}%)"])  # fmt: skip
    return headers, rows


def reference_table(rep: Report) -> tuple[list[str], list[list[str]]]:
    """Each reference beside what this run measured for the same operation, labelled as such."""
    here: dict[tuple[str, str], list] = {}
    for r in rep.rows:
        if r.ok:
            here.setdefault((r.cell.alg, r.cell.op), []).append(r)
    headers = ["algorithm", "op", "reference ops/s", "label", "source", "measured here (this machine)"]
    if rep.normalise:
        headers.append(f"here / there x {rep.normalise[0]:g}")
    rows = []
    for ref in rep.references:
        mine = here.get((ref.alg, ref.op), [])
        row = [ref.alg, ref.op, f"{ref.ops_per_s:,.0f}", ref.label, ref.source,
               "; ".join(f"{m.provider} {m.ops_per_s():,.0f} ops/s" for m in mine) or "not measured"]  # fmt: skip
        if rep.normalise:
            row.append("; ".join(f"{m.provider} {m.ops_per_s() / ref.ops_per_s * rep.normalise[0]:.2f}" for m in mine))
        rows.append(row)
    return headers, rows


def plain(text: str) -> Text:
    """A terminal cell as it is: no rich markup (`[red]`) and no control sequences from a driver's strings."""
    return Text(printable(text))


def rich_table(title: str, headers: list[str], rows: list[list[str]]) -> RichTable:
    """One terminal table of plain cells, columns folded rather than cut."""
    table = RichTable(title=title, title_justify="left")
    for h in headers:
        table.add_column(h, overflow="fold")
    for row in rows:
        table.add_row(*map(plain, row))
    return table
