"""Instruction counts in `compare` and `history`: their tables (terminal, Markdown, JSON) and exit
status. Kept apart from the time comparisons: a count is never set beside a time."""

from __future__ import annotations

import io
import json
import sys

from rich.console import Console

from cryptobench.core.errors import UserError
from cryptobench.icount import judge
from cryptobench.icount.cpu import summary
from cryptobench.report.markup import rich_table, table


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
        return json.dumps({"title": title, "notes": notes, "cells": records}, indent=2) + "\n"
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


def history(args, store, size: int | None) -> int:
    """`history --metric instructions`: each series' counts run by run, every step judged; exit 1 with
    --fail-on-change when a count changed."""
    from cryptobench.core.outputs import write_atomic
    from cryptobench.icount import history as icount_history

    if getattr(args, "html", None):
        raise UserError("history --metric instructions writes --md and --json files, not --html")
    series = icount_history.load(store, args.alg, args.provider, args.machine, args.op, size)

    def text(fmt: str) -> str:
        if fmt == "json":
            return json.dumps({"metric": "instructions", "tolerance": judge.TOLERANCE,
                               "series": [icount_history.record(s) for s in series]}, indent=2) + "\n"  # fmt: skip
        note = [f"Each run against the run before it: a change beyond the larger of {judge.TOLERANCE:.2%} and the "
                "two runs' own spreads (a count is deterministic: no noise threshold)."]  # fmt: skip
        return "".join(render(f"Instructions per operation: {s.title}", icount_history.HEADERS,
                              icount_history.rows(s), note, fmt, None) for s in series)  # fmt: skip

    print(text(args.format if args.format in ("json", "md") else "terminal"), end="")
    for fmt in ("md", "json"):
        if getattr(args, fmt, None):
            write_atomic(getattr(args, fmt), text(fmt))
            print(f"wrote {getattr(args, fmt)}", file=sys.stderr)
    found = [(s, i, step) for s in series for i, step in s.changes]
    if args.fail_on_change and found:
        s, i, step = found[0]
        print(f"cryptobench: {len(found)} change(s) of the instruction count; first: {s.title} {step.change:+.3%} "
              f"{step.verdict} at run {s.runs[i]['id']}", file=sys.stderr)  # fmt: skip
        return 1
    return 0
