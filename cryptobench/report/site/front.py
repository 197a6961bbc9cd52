"""The index ("where do we stand, and what changed?") and a page per machine."""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from cryptobench.report.formats import machines as machines_html
from cryptobench.report.model import Report
from cryptobench.report.site import changes
from cryptobench.report.site.algorithm import Found
from cryptobench.report.site.common import (
    MEASURED,
    a,
    alg_file,
    compare_file,
    kind_of,
    link_table,
    machine_file,
    page,
    run_file,
)
from cryptobench.report.site.standing import Standing


@dataclass
class Machine:
    name: str
    runs: list[dict] = field(default_factory=list)  # complete runs, oldest first
    latest: Report | None = None  # its latest run that measured something

    @property
    def measured(self) -> list[dict]:
        return [r for r in self.runs if kind_of(r) == MEASURED]

    @property
    def apart(self) -> list[dict]:
        return [r for r in self.runs if kind_of(r) != MEASURED]

    def pairs(self) -> list[tuple[dict, dict]]:
        """Consecutive measured runs: each gets a comparison page."""
        m = self.measured
        return list(zip(m, m[1:], strict=False))

    def previous(self, run: dict) -> dict | None:
        m = self.measured
        i = next((i for i, r in enumerate(m) if r["id"] == run["id"]), 0)
        return m[i - 1] if i > 0 else None


RUN_HEADERS = ["run", "machine", "suite", "holds", "started", "cells measured", "providers", "against the run before"]


def _run_rows(machines: list[Machine], root: str, newest_first: bool = True) -> list[list[str]]:
    e = html.escape
    rows = []
    for m in machines:
        for r in m.runs:
            prev = m.previous(r) if kind_of(r) == MEASURED else None
            rows.append((str(r["started"]), r["id"], [
                a(root + run_file(r), f"run {r['id']}") + (f" {e(r['label'])}" if r.get("label") else ""),
                a(root + machine_file(m.name), m.name), e(str(r["suite"])), e(kind_of(r)), e(str(r["started"])),
                str(r.get("cells_ok") or 0), e(r.get("providers") or ""),
                a(root + compare_file(prev["uid"], r["uid"]), f"compare with run {prev['id']}") if prev else "",
            ]))  # fmt: skip
    rows.sort(key=lambda x: (x[0], x[1]), reverse=newest_first)
    return [r for _, _, r in rows]


def _apart(machines: list[Machine], root: str) -> str:
    rows = [r for r in _run_rows(machines, root) if r[3] != MEASURED]
    if not rows:
        return "<p class=none>None.</p>"
    return link_table(RUN_HEADERS[:-1], [r[:-1] for r in rows])


def index(machines: list[Machine], found: list[Found], algs: list[tuple[str, int, int, int]], matrix) -> str:
    """`algs`: (algorithm, series, questions, change points); `matrix`: the machines × algorithms matrix."""
    e = html.escape
    runs = sum(len(m.runs) for m in machines)
    measured = sum(len(m.measured) for m in machines)
    std = Standing("")
    blocks = "".join(std.block(m.name, m.latest, len(m.apart)) for m in machines)
    significant = sum(f.change.verdict in ("faster", "slower") for f in found)
    machine_rows = []
    for m in machines:
        env = m.latest.run.env if m.latest else {}
        latest = a(run_file(m.latest.run), f"run {m.latest.run.id} ({m.latest.run.started})") if m.latest else "-"
        machine_rows.append([a(machine_file(m.name), m.name), e(str(env.get("machine_id") or "?")),
                             e(str(env.get("cpu_model") or "?")), e(str(env.get("cores") or "?")), str(len(m.runs)),
                             str(len(m.measured)), latest])  # fmt: skip
    suites: dict[str, int] = {}
    for m in machines:
        for r in m.runs:
            suites[r["suite"]] = suites.get(r["suite"], 0) + 1
    alg_rows = [[a(alg_file(alg), alg), str(n), str(q), str(c)] for alg, n, q, c in algs]
    side_by_side = ""
    if len([m for m in machines if m.latest]) > 1:
        table = machines_html.html_table(matrix, link=lambda run, _key: run_file(run))
        side_by_side = ("<details><summary>Every machine's latest measured run side by side (median throughput ± half "
                        f"its 95% interval, as measured)</summary><div class=tablewrap>{table}</div></details>")  # fmt: skip
    body = (
        f"<p class=lead>{len(machines)} machine(s) · {runs} complete run(s), {measured} of them measured "
        f"· {len(algs)} algorithm(s) · {significant} change(s) beyond the noise</p>"
        '<section id="standing"><h2>Where each machine stands</h2><p class=note>Each machine\'s latest complete run '
        "that measured something, as its run report draws it: speed against the run's baseline (providers × "
        "algorithms, at each table's largest size), and its results tables. Verification and leak-check runs "
        f"are listed apart below.</p>{blocks}{side_by_side}</section>"
        f'<section id="changes"><h2>What changed</h2>{changes.section(found, "")}</section>'
        '<section id="apart"><h2>Verification and leak-check runs</h2><p class=note>Runs that measured no speed '
        f"(cryptobench verify, leak, plugin check); each opens its report.</p>{_apart(machines, '')}</section>"
        '<section id="machines"><h2>Machines</h2>'
        + link_table(["machine", "id", "CPU", "cores", "runs", "measured", "latest measured run"], machine_rows)
        + '</section><section id="algorithms"><h2>Algorithms</h2>'
        + link_table(["algorithm", "series", "charts (operation × size)", "change points"], alg_rows)
        + '</section><section id="suites"><h2>Suites</h2><ul>'
        + "".join(f"<li>{e(s)}: {n} run(s)</li>" for s, n in sorted(suites.items()))
        + '</ul></section><section id="runs"><h2>Runs</h2><details><summary>Every complete run, newest first'
        "</summary>" + link_table(RUN_HEADERS, _run_rows(machines, "")) + "</details></section>"
    )  # fmt: skip
    return page("cryptobench results", body, "", std.scripts(), charts=bool(std.specs))


def machine_page(m: Machine, found: list[Found]) -> str:
    e = html.escape
    std = Standing("../")
    env = m.latest.run.env if m.latest else {}
    sub = e(f"id {env.get('machine_id') or '?'} · {env.get('cpu_model') or '?'} · {env.get('cores') or '?'} cores · "
            f"{len(m.runs)} complete run(s), {len(m.measured)} measured")  # fmt: skip
    body = (
        f'<section id="standing"><h2>Latest measured run</h2>{std.block(m.name, m.latest, len(m.apart), heading=False)}'
        f'</section><section id="changes"><h2>What changed on {e(m.name)}</h2>{changes.section(found, "../", m.name)}'
        f'</section><section id="runs"><h2>Runs</h2>{link_table(RUN_HEADERS, _run_rows([m], "../"))}</section>'
    )
    return page(f"machine {m.name}", body, "../", std.scripts(), charts=bool(std.specs), sub=sub)
