"""Two runs of a machine side by side: what `cryptobench compare RUN_A RUN_B` prints (report/compare.py,
report/compare_table.py), as a page of the site with links to both runs and to the machine's
comparisons before and after."""

from __future__ import annotations

import html

from cryptobench.analysis import stats
from cryptobench.core.errors import UserError
from cryptobench.report.compare import compare_runs
from cryptobench.report.compare_table import headers, summary_lines, tables
from cryptobench.report.formats.html.tables import bullet_list, table
from cryptobench.report.markup import machine_line
from cryptobench.report.site.common import a, machine_file, page, run_file

ROW_CLASS = {stats.FASTER: "v-faster", stats.SLOWER: "v-slower"}


def _run_line(run) -> str:
    e, env = html.escape, run.env
    return (
        f"<li>{a('../' + run_file(run), f'run {run.id}')}: {e(str(run.suite))}, started {e(str(run.started))}, "
        f"commit {e(str(env.get('git_commit') or '?'))}, {e(machine_line(env))}"
        + (f", label {e(run.label)}" if run.label else "")
        + (f", CPU features off: <strong>{e(str(run.settings['cpu_features']))}</strong>"
           if run.settings.get("cpu_features") else "")
        + "</li>"
    )  # fmt: skip


def render(machine: str, a_loaded, b_loaded, noise: float, before: str | None, after: str | None) -> str:
    """The page comparing run A (the earlier) with run B; `before`/`after`: the machine's neighbouring
    comparison pages, if any (paths from the site's root)."""
    e = html.escape
    run_a, run_b = a_loaded[0], b_loaded[0]
    title = f"{machine}: run {run_a.id} → run {run_b.id}"
    out = [f"<ul>{_run_line(run_a)}{_run_line(run_b)}</ul>"]
    steps = [a("../" + machine_file(machine), f"every run of {machine}")]
    if before:
        steps.insert(0, a("../" + before, "← the comparison before"))
    if after:
        steps.append(a("../" + after, "the comparison after →"))
    out.append("<p>" + " · ".join(steps) + "</p>")
    try:
        comp = compare_runs(a_loaded, b_loaded, noise)
    except UserError as err:
        out.append(f"<p class=none>{e(str(err))}.</p>")
        return page(title, "".join(out), "../")
    out += [f"<p class=note>{e(line)}</p>" for line in summary_lines(comp)]
    heads = headers(comp)
    verdict = heads.index("verdict")
    for name, rows in tables(comp):
        out.append(f"<h3>{e(name)}</h3>")
        out.append(table(heads, rows, [ROW_CLASS.get(r[verdict], "") for r in rows]))
    out.append(f"<h3>Only in run {run_a.id}</h3>" + bullet_list(comp.only_reference, "notoffered"))
    out.append(f"<h3>Only in run {run_b.id}</h3>" + bullet_list(comp.only_subject, "notoffered"))
    return page(title, "".join(out), "../", sub=e(f"the compare table: run {run_b.id} against run {run_a.id}"))
