"""`cryptobench publish DIR`: a static, offline site from a store.

    index.html           machines, suites, the latest cross-machine matrix (each figure links to its
                         run), and one link per algorithm
    alg/<alg>.html       the algorithm's history: a chart per series with its change points; each
                         point opens its run
    runs/<uid>.html      every run shown on the site, as cryptobench's HTML report
    assets/echarts.min.js  the charting library (with its licence notices), once for every page

The site loads nothing from the network: copy it anywhere, open it from disk or serve it with any
static server.

    .cryptobench-site.json  the files cryptobench wrote: publishing again removes those no longer
                         published (a run page of a run gone) and nothing else

Before anything is written: a symbolic link where the site writes (`alg/`, `runs/`, `assets/`, a
page) is refused, since writing through it would write wherever it points; and a folder that is not
empty and holds no manifest was not published by cryptobench: refused unless `force`.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from cryptobench.analysis import history
from cryptobench.core.errors import UserError
from cryptobench.core.outputs import write_atomic
from cryptobench.report import history_report, machine_matrix
from cryptobench.report.formats import history as history_html
from cryptobench.report.formats import machines as machines_html

MANIFEST = ".cryptobench-site.json"
SUBDIRS = ("alg", "runs", "assets")
# the only paths a manifest may name: a tampered one can make publish remove nothing else
OURS = re.compile(r"(index\.html|assets/echarts\.min\.js|alg/[A-Za-z0-9._-]+\.html|runs/[0-9a-f]{32}\.html)")
STYLE = history_html.STYLE + "a{color:#1f5fa8}.matrix td,.matrix th{text-align:right}.matrix .name{text-align:left}"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]", "_", text)


def _page(title: str, body: str, root: str, scripts: str = "", charts: bool = False) -> str:
    ready = "" if charts else ' data-ready="1" data-expected-charts="0"'
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{STYLE}</style></head><body{ready}><nav><a href='{root}index.html'>cryptobench</a></nav>"
            f"<h1>{html.escape(title)}</h1>{body}{scripts}</body></html>\n")  # fmt: skip


def _refuse_links(out: Path) -> None:
    """No symbolic link where the site is written: the three folders, and any entry in them or beside
    index.html that publish would replace or remove."""
    where = [out / d for d in SUBDIRS] + [out / "index.html", out / MANIFEST]
    for d in SUBDIRS:
        if (out / d).is_dir() and not (out / d).is_symlink():
            where += sorted((out / d).iterdir())
    for path in where:
        if path.is_symlink():
            raise UserError(f"publish: {str(path)!r} is a symbolic link (to {str(path.readlink())!r}): "
                            "refusing to write through it; remove it, or publish into another folder")  # fmt: skip


def _written_before(out: Path, force: bool) -> set[str]:
    """The files an earlier publish wrote into `out` (its manifest); refuses a folder that is not
    empty and was not published by cryptobench, unless `force`."""
    if not out.is_dir():
        return set()
    _refuse_links(out)
    try:
        doc = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
        files = doc["files"] if isinstance(doc, dict) and doc.get("cryptobench-site") == 1 else None
    except (OSError, ValueError, KeyError):
        files = None
    if isinstance(files, list):
        return {f for f in files if isinstance(f, str) and OURS.fullmatch(f)}
    if any(out.iterdir()) and not force:
        raise UserError(f"publish: {str(out)!r} is not empty and was not published by cryptobench (no {MANIFEST}): "
                        "give an empty or new folder, or --force to write the site into it")  # fmt: skip
    return set()


def _manifest(out: Path, files: set[str]) -> None:
    write_atomic(out / MANIFEST, json.dumps({"cryptobench-site": 1, "files": sorted(files)}, indent=1) + "\n")


def publish(store, out: Path, say=print, force: bool = False) -> dict:
    """Write the site; what it holds (counts), for the command's last line."""
    from cryptobench.report.compare import latest_of_machine
    from cryptobench.report.formats.html import render as render_run
    from cryptobench.report.model import load_report

    listed = [r for r in store.list_runs() if r["status"] == "complete"]
    if not listed:
        raise UserError(f"no complete runs in {store.url}: nothing to publish")
    before = _written_before(out, force)
    try:
        for d in SUBDIRS:
            (out / d).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot write the site to {str(out)!r}: {e.strerror}") from None
    _manifest(out, before)  # the folder is the site's from now on, also if this publish stops half-way
    written: set[str] = set()

    def write(rel: str, text: str) -> None:
        write_atomic(out / rel, text)
        written.add(rel)

    from cryptobench.report.formats.html.library import charting_library

    _version, licence, library = charting_library()
    write("assets/echarts.min.js", licence + library)
    machines = sorted({r["machine_label"] or r["hostname"] or "?" for r in listed})
    latest = []
    for m in machines:
        run_id = latest_of_machine(store, m, None)
        run, _, cells = store.load_run(run_id)
        latest.append((m, run, cells))
    published: dict[str, int] = {}  # uid -> run id: every run a page links to

    def run_href(run: dict, prefix: str = "../") -> str:
        published[run["uid"]] = run["id"]
        return f"{prefix}runs/{run['uid']}.html"

    # one page per algorithm: its history over every machine and provider
    algs = store.measured_algorithms()
    alg_pages = []
    for alg in algs:
        try:
            series = history.history(store, alg, None, None, None, None, 0.02)
        except UserError:
            continue
        figures, scripts = history_html.charts_html(series, href=run_href, library_src="../assets/echarts.min.js")
        tables = "".join(f"<h2>{html.escape(s.title)}</h2><p>{html.escape(history_report.summary(s))}</p>"
                         + history_html.table_html(s, run_href) for s in series)  # fmt: skip
        body = f"<p>{html.escape(history_report.INTRO)}</p>{figures}{tables}"
        write(f"alg/{_slug(alg)}.html", _page(f"{alg}: history", body, "../", scripts, charts=True))
        changes = sum(len(s.changes) for s in series)
        alg_pages.append((alg, len(series), changes))

    # the front page
    matrix = machine_matrix.build(latest)
    for _m, run, _ in latest:
        published[run.uid] = run.id
    table = machines_html.html_table(matrix, link=lambda run, _key: f"runs/{run.uid}.html")
    rows = "".join(
        f"<tr><td>{html.escape(m)}</td><td>{html.escape(str(run.env.get('machine_id') or '?'))}</td>"
        f"<td>{html.escape(str(run.env.get('cpu_model') or '?'))}</td><td>{run.env.get('cores', '?')}</td>"
        f"<td>{sum(1 for r in listed if (r['machine_label'] or r['hostname']) == m)}</td>"
        f"<td><a href='runs/{run.uid}.html'>run {run.id} ({html.escape(run.started)})</a></td></tr>"
        for m, run, _ in latest
    )
    suites = sorted({r["suite"] for r in listed})
    body = (
        "<h2>Machines</h2><table><thead><tr><th>machine</th><th>id</th><th>CPU</th><th>cores</th><th>runs</th>"
        f"<th>latest run</th></tr></thead><tbody>{rows}</tbody></table>"
        f"<h2>Suites</h2><ul>{''.join(f'<li>{html.escape(s)}</li>' for s in suites)}</ul>"
        "<h2>Latest run of each machine</h2><p>Median throughput ± half its 95% interval, as measured; "
        f"each figure opens its run.</p>{table}"
        "<h2>Algorithms</h2><ul>"
        + "".join(f"<li><a href='alg/{_slug(a)}.html'>{html.escape(a)}</a> — {n} series, {c} change point(s)</li>"
                  for a, n, c in alg_pages)
        + "</ul>"
    )  # fmt: skip
    write("index.html", _page("cryptobench results", body, ""))

    # every run a page links to
    for n, (uid, run_id) in enumerate(sorted(published.items(), key=lambda x: x[1]), 1):
        page = render_run(load_report(store, run_id), library_src="../assets/echarts.min.js")
        write(f"runs/{uid}.html", page)
        if n % 20 == 0:
            say(f"publish: {n}/{len(published)} run pages")
    stale = sorted(before - written)
    for rel in stale:  # pages of runs and algorithms no longer published, written by an earlier publish
        if (out / rel).is_file() and not (out / rel).is_symlink():
            try:
                (out / rel).unlink(missing_ok=True)
            except OSError as e:
                say(f"publish: cannot remove {str(out / rel)!r}, no longer published: {e.strerror}")
    if stale:
        say(f"publish: removed {len(stale)} page(s) no longer published")
    _manifest(out, written)
    return {"machines": len(machines), "algorithms": len(alg_pages), "runs": len(published)}
