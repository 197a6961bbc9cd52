"""The changes: every change point of every series (analysis/history.py), newest first, each with its
verdict, its size, the runs before and after it, a link to the chart that shows it and one to the
comparison of the two runs. Changes beyond the noise (faster, slower) come first; change points
whose verdict is `same (within noise)` or `unclear` follow, folded."""

from __future__ import annotations

import html

from cryptobench.analysis import stats
from cryptobench.core.units import format_size
from cryptobench.report import history_report
from cryptobench.report.site.algorithm import Found
from cryptobench.report.site.common import a, link_table, machine_file, run_file

HEADERS = ["after run started", "machine", "series", "change in time /op [95% CI]", "verdict", "runs", "see"]


def newest_first(found: list[Found]) -> list[Found]:
    """By when the first run after the change started (newest first), then by its size (largest first)."""
    return sorted(found, key=lambda f: (str(f.after["started"]), f.after["id"], abs(f.change.percent)), reverse=True)


def _row(f: Found, root: str) -> list[str]:
    e, s = html.escape, f.series
    where = f" {format_size(s.size)}" if s.size else ""
    where += f" in {format_size(s.chunk)} chunks" if s.chunk else ""
    return [
        e(str(f.after["started"])),
        a(root + machine_file(s.machine), s.machine),
        e(f"{s.provider} {s.alg} {s.op}{where}"),
        e(history_report.delta(f.change)),
        f'<span class="{e(f.change.verdict)}">{e(f.change.verdict)}</span>',
        f"{a(root + run_file(f.before), 'run ' + str(f.before['id']))} → "
        f"{a(root + run_file(f.after), 'run ' + str(f.after['id']))}",
        f"{a(root + f.chart, 'chart')} · {a(root + f.compare, 'comparison')}",
    ]


def section(found: list[Found], root: str, machine: str | None = None) -> str:
    """The changes (of one machine, if given) as the index and machine pages show them."""
    chosen = newest_first([f for f in found if machine is None or f.series.machine == machine])
    changed = [f for f in chosen if f.change.verdict in stats.CHANGED]
    others = [f for f in chosen if f.change.verdict not in stats.CHANGED]
    out = [
        "<p class=note>A change point is where a series' median moved to another level (ruptures, PELT); its size is "
        "the runs after it against the runs before it, time per operation (negative = faster), with its 95% "
        "interval. Newest first.</p>"
    ]
    if changed:
        out.append(link_table(HEADERS, [_row(f, root) for f in changed]))
    else:
        out.append("<p class=none>No change beyond the noise in any series"
                   + (" (a series needs at least 4 runs to look for one)." if not chosen else ".") + "</p>")  # fmt: skip
    if others:
        out.append(f"<details><summary>{len(others)} change point(s) within the noise or unclear</summary>"
                   + link_table(HEADERS, [_row(f, root) for f in others]) + "</details>")  # fmt: skip
    return "".join(out)
