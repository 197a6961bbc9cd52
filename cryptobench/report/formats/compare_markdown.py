"""A comparison as Markdown: the version-report shape, with significance."""

from __future__ import annotations

from cryptobench.report.compare import Comparison
from cryptobench.report.compare_table import headers, summary_lines, tables
from cryptobench.report.markup import machine_line, safe_lines, table


def render(comp: Comparison) -> str:
    title = f"{comp.reference_label} vs {' vs '.join(comp.subject_labels)}"
    out = [f"# {title}", ""]
    for run in comp.runs:
        e = run.env
        out.append(
            f"- run {run.id} on {machine_line(e)} ({run.suite}, {run.started}, {run.status}): {e.get('cpu_model')}, {e.get('cores')} cores, "
            f"commit {e.get('git_commit')}" + (f", label '{run.label}'" if run.label else "")
            + (f", CPU features off: {run.settings['cpu_features']}" if run.settings.get("cpu_features") else "")
        )  # fmt: skip
    out += [""] + summary_lines(comp)
    for title_, rows in tables(comp):
        out += ["", f"## {title_}", ""]
        out += table(headers(comp), rows)
    for heading, items in (
        (f"Only in {comp.reference_label}", comp.only_reference),
        (f"Only in {' / '.join(comp.subject_labels)}", comp.only_subject),
    ):
        out += ["", f"## {heading}", ""]
        out += [f"- {x}" for x in items] or ["None."]
    return safe_lines(out)
