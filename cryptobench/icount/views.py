"""Instruction counts in `compare` and `history`: their tables (terminal, Markdown, JSON) and exit
status. Kept apart from the time comparisons: a count is never set beside a time."""

from __future__ import annotations

import io
import json
import sys

from rich.console import Console

from ..report.markup import rich_table, table
from . import judge
from .cpu import summary


def _hidden_note(runs: list) -> list[str]:
    """A change of counter or of the features it saw changes the count without any change of the library."""
    seen = {summary((r.env.get("instructions") or {}).get("cpu") or {}) for r in runs}
    tools = {(r.env.get("instructions") or {}).get("tool", "") for r in runs}
    out = [f"Counted with {' / '.join(sorted(t for t in tools if t)) or 'unknown'}; 'same' within the larger of "
           f"{judge.TOLERANCE:.2%} and each side's spread of its two counts."]  # fmt: skip
    if len(seen) > 1:
        out.append("The runs' counters saw different CPU features: a change may be the CPU's, not the library's.")
    out += sorted(s for s in seen if s)
    return out


def render(title: str, headers: list[str], rows: list[list[str]], notes: list[str], fmt: str, records) -> str:
    if fmt == "json":
        return json.dumps({"title": title, "notes": notes, "instructions": records}, indent=2) + "\n"
    if fmt == "md":
        return "\n".join([f"## {title}", "", *[x for n in notes for x in (n, "")], *table(headers, rows)]) + "\n"
    buf = io.StringIO()
    console = Console(file=buf, force_terminal=sys.stdout.isatty(), width=160)
    console.print(rich_table(title, headers, rows))
    for line in notes:
        console.print(line, highlight=False)
    return buf.getvalue()


def compare_runs(run_a, run_b, algs: list[str] | None, fmt: str, fail_pct: float | None) -> tuple[str, int, str]:
    """(the table, exit status, the last line) of two runs' counts; ('', 0, '') when either has none."""
    steps = judge.compare(run_a.env, run_b.env, algs)
    if not steps:
        return "", 0, ""
    title = f"Instructions per operation: run {run_a.id} -> run {run_b.id}"
    text = render(title, judge.HEADERS, [s.row() for s in steps], _hidden_note([run_a, run_b]), fmt,
                  [s.record() for s in steps])  # fmt: skip
    bad = judge.regressions(steps, fail_pct) if fail_pct is not None else []
    if not bad:
        return text, 0, ""
    line = (f"cryptobench: {len(bad)} cells need more than {fail_pct:g}% more instructions: "
            + "; ".join(f"{judge.describe(s.key)} {s.change:+.3%}" for s in bad[:5]))  # fmt: skip
    return text, 1, line
