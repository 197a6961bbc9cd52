"""Where a machine stands: its latest measured run as the run report draws it, the overview heat map
(speed against the baseline, providers × algorithms) and the results tables, through the run
report's own code (formats/html/charts.heatmap, formats/html/tables.result_tables) and script
(report/assets/report.js). Several machines share one page: their charts are numbered in one list."""

from __future__ import annotations

import html

from cryptobench.report.formats.html.charts import Charts, chart_data, heatmap
from cryptobench.report.formats.html.library import ASSETS, json_for_script
from cryptobench.report.formats.html.tables import result_tables, summary_counts
from cryptobench.report.model import Report
from cryptobench.report.site.common import a, machine_file, run_file


class Standing:
    """The heat maps and tables of several runs on one page, and the scripts that draw them."""

    def __init__(self, root: str):
        self.root = root
        self.specs: list[dict] = []
        self.last: tuple[Report, Charts] | None = None

    def block(self, machine: str, rep: Report | None, runs_apart: int = 0, heading: bool = True) -> str:
        e = html.escape
        out = ['<div class="machine-block">']
        if heading:
            out.append(f"<h3>{a(self.root + machine_file(machine), machine)}</h3>")
        if rep is None:
            out.append("<p class=none>No complete run of this machine measured anything"
                       + (f" ({runs_apart} verification or leak run(s), listed apart)" if runs_apart else "")
                       + ".</p></div>")  # fmt: skip
            return "".join(out)
        run = rep.run
        out.append(
            f"<p class=lead>{a(self.root + run_file(run), f'run {run.id}')} · suite <strong>{e(str(run.suite))}"
            f"</strong> · started {e(str(run.started))}"
            + (f" · label {e(run.label)}" if run.label else "")
            + (f" · CPU features off: {e(str(run.settings['cpu_features']))}" if run.settings.get("cpu_features") else "")
            + f" · baseline {e(rep.baseline)}</p>"
        )  # fmt: skip
        out.append(summary_counts(rep))
        ch = Charts(rep)
        ch.specs = self.specs  # one numbering for every chart of the page
        figures = heatmap(ch)
        self.last = (rep, ch)
        if figures:
            out.append('<div class="grid1">' + "".join(figures) + "</div>")
        else:
            out.append("<p class=none>No overview: no table of this run has a baseline figure.</p>")
        out.append(f"<details><summary>Results tables of run {run.id}</summary>{result_tables(rep)}</details></div>")
        return "".join(out)

    def scripts(self) -> str:
        """The data and the run report's script, when a heat map was drawn ('' otherwise)."""
        if not self.specs or self.last is None:
            return ""
        script = (ASSETS / "report.js").read_text(encoding="utf-8")
        if "</script" in script.lower() or "<!--" in script:
            raise ValueError("report.js must not contain '</script' or '<!--': it is inlined into the page")
        data = chart_data(*self.last)
        return (
            f'<script type="application/json" id="cryptobench-data">{json_for_script(data)}</script>'
            f'<script src="{html.escape(self.root)}assets/echarts.min.js"></script><script>{script}</script>'
        )
