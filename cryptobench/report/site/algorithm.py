"""An algorithm's page: one question per operation, size and chunk ("aes-128-gcm seal at 16 KiB"),
answered by one chart over time with a line per provider (and machine, when there are several),
each point opening its run, each change point marked with its verdict; a selector picks the
question, the machine and the provider (report/assets/site.js draws the chart). A series measured
once is a row of a table, not a one-point chart."""

from __future__ import annotations

import html
from dataclasses import dataclass

from cryptobench.analysis.history import Change, Series
from cryptobench.core.units import format_size
from cryptobench.report import history_report
from cryptobench.report.formats.html.library import ASSETS, json_for_script
from cryptobench.report.machine_matrix import Figure
from cryptobench.report.site.common import a, alg_file, compare_file, epoch_ms, link_table, page, run_file


@dataclass
class Found:
    """A change point and where the site shows it."""

    alg: str
    series: Series
    change: Change
    chart: str  # the chart that shows it, from the site's root

    @property
    def before(self) -> dict:
        return self.series.points[self.change.index - 1].run

    @property
    def after(self) -> dict:
        return self.series.points[self.change.index].run

    @property
    def compare(self) -> str:
        return compare_file(self.before["uid"], self.after["uid"])


def question_title(alg: str, op: str, size: int, chunk: int) -> str:
    where = f" at {format_size(size)}" if size else ""
    return f"{alg} {op}{where}" + (f" in {format_size(chunk)} chunks" if chunk else "")


def _questions(series: list[Series]) -> list[tuple[tuple[str, int, int], list[Series]]]:
    grouped: dict[tuple[str, int, int], list[Series]] = {}
    for s in series:
        grouped.setdefault((s.op, s.size, s.chunk), []).append(s)
    return sorted(grouped.items())


def _figure(s: Series, i: int) -> str:
    p = s.points[i]
    return Figure(p.median_ns, p.low_ns, p.high_ns, s.size).text()


def _round(x: float) -> float:
    """Five significant digits: the chart's precision, a third of the page's bytes."""
    return float(f"{x:.5g}")


def change_text(c: Change) -> str:
    return f"{history_report.delta(c)} {c.verdict}"


def render(alg: str, series: list[Series]) -> tuple[str, list[Found]]:
    """The page, and every change point found in its series (with the chart that shows it)."""
    e = html.escape
    machines = sorted({s.machine for s in series})
    providers = sorted({s.provider for s in series})
    m_of, p_of = {m: i for i, m in enumerate(machines)}, {p: i for i, p in enumerate(providers)}
    questions, sections, found = [], [], []
    runs: list[dict] = []  # every run a line passes through, once for the page; a point names its index
    index_of: dict[str, int] = {}

    def run_index(run: dict) -> int:
        if run["uid"] not in index_of:
            index_of[run["uid"]] = len(runs)
            runs.append({"id": run["id"], "started": run["started"], "t": epoch_ms(run["started"]),
                         "commit": run["commit"], "features": run["cpu_features"], "href": "../" + run_file(run)})  # fmt: skip
        return index_of[run["uid"]]

    for q, ((op, size, chunk), group) in enumerate(_questions(series)):
        title = question_title(alg, op, size, chunk)
        charted, rows, attrs, once, once_attrs = [], [], [], [], []
        for s in group:
            where = f'data-m="{m_of[s.machine]}" data-p="{p_of[s.provider]}"'
            last = s.points[-1]
            if len(s.points) == 1:
                once.append([e(s.provider), e(s.machine), a("../" + run_file(last.run), f"run {last.run['id']}"),
                             e(str(last.run["started"])), e(_figure(s, 0)), e(last.run["library_version"] or "?")])  # fmt: skip
                once_attrs.append(where)
                continue
            data = history_report.chart_data([s])["series"][0]
            points = [[run_index(p.run), _round(d["value"]), _round(d["low"]), _round(d["high"]), d["library"] or "?"]
                      for p, d in zip(s.points, data["points"], strict=True)]  # fmt: skip
            changes = []
            for c, cd in zip(s.changes, data["changes"], strict=True):
                f = Found(alg, s, c, f"{alg_file(alg)}#q={q}&m={m_of[s.machine]}&p={p_of[s.provider]}")
                found.append(f)
                cd["href"] = "../" + f.compare
                changes.append(
                    f'<span class="{e(c.verdict)}">{e(change_text(c))}</span> from '
                    f"{a('../' + run_file(f.before), 'run ' + str(f.before['id']))} to "
                    f"{a('../' + run_file(f.after), 'run ' + str(f.after['id']))} "
                    f"({a('../' + f.compare, 'compare the two runs')})"
                )
            charted.append({"m": m_of[s.machine], "p": p_of[s.provider], "unit": data["unit"], "points": points,
                            "changes": data["changes"]})  # fmt: skip
            rows.append([e(s.provider), e(s.machine), str(len(s.points)),
                         a("../" + run_file(last.run), f"run {last.run['id']}") + " " + e(_figure(s, -1)),
                         "<br>".join(changes) or e(s.note or "no change point found")])  # fmt: skip
            attrs.append(where)
        questions.append({"title": title, "series": charted})
        body = [f'<section class="question" id="q-{q}" data-q="{q}"><h2>{e(title)}</h2>']
        if rows:
            body.append(link_table(["provider", "machine", "runs", "latest", "change points"], rows, None, attrs))
        if once:
            body.append("<p class=note>Measured in one run only: a figure, not yet a history.</p>")
            body.append(link_table(["provider", "machine", "run", "started", "figure", "library"], once, None,
                                   once_attrs))  # fmt: skip
        sections.append("".join(body) + "</section>")
    charted = [q for q, d in enumerate(questions) if d["series"]]
    controls = ""
    scripts = ""
    if charted:
        opts = "".join(f'<option value="{q}">{e(d["title"])}</option>' for q, d in enumerate(questions))
        m_opts = "".join(f'<option value="{i}">{e(m)}</option>' for i, m in enumerate(machines))
        p_opts = "".join(f'<option value="{i}">{e(p)}</option>' for i, p in enumerate(providers))
        controls = (
            '<div class="controls">'
            f'<label>question<select id="pick-q">{opts}</select></label>'
            f'<label>machine<select id="pick-m"><option value="">every machine</option>{m_opts}</select></label>'
            f'<label>provider<select id="pick-p"><option value="">every provider</option>{p_opts}</select></label>'
            "</div>"
            '<figure class="fig" id="history-figure"><figcaption><span class="fig-title" id="history-title"></span>'
            ' <span class="fig-sub">median throughput per run over time; bars: 95% interval; dashed lines: change '
            "points (click one for the comparison of the runs around it); click a point to open its run</span>"
            '</figcaption><div class="chart" id="history" style="height:380px"></div>'
            '<p class="none" id="history-empty" hidden>No provider measured this more than once for this choice: '
            "see the table below.</p></figure>"
        )  # fmt: skip
        script = (ASSETS / "site.js").read_text(encoding="utf-8")
        if "</script" in script.lower() or "<!--" in script:
            raise ValueError("site.js must not contain '</script' or '<!--': it is inlined into the page")
        doc = {"machines": machines, "providers": providers, "runs": runs, "questions": questions,
               "initial": charted[0]}  # fmt: skip
        scripts = (f'<script type="application/json" id="cryptobench-site">{json_for_script(doc)}</script>'
                   f'<script src="../assets/echarts.min.js"></script><script>{script}</script>')  # fmt: skip
    intro = (
        f"<p class=note>{len(questions)} question(s): one per operation and size, a line per provider"
        + (" and machine" if len(machines) > 1 else "")
        + f". {e(history_report.INTRO)}</p>"
    )
    sub = f"{len(series)} series over {len(machines)} machine(s) and {len(providers)} provider(s)"
    return page(f"{alg}: history", intro + controls + "".join(sections), "../", scripts, bool(charted), e(sub)), found
