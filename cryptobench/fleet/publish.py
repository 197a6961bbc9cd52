"""`cryptobench publish DIR`: a static, offline site from a store, the page a team opens every morning.

    index.html           where each machine stands (its latest run that measured something, as the run
                         report's overview heat map and results tables), what changed (every change
                         point, newest first, linking to its chart and to the comparison of the runs
                         around it), verification and leak-check runs apart, machines, algorithms,
                         suites, runs
    alg/<alg>.html       one chart per operation and size, a line per provider and machine over time,
                         change points marked, a selector; a series measured once is a table row
    machines/<m>.html    a machine: its latest measured run, its changes, its runs
    compare/<a>-<b>.html two consecutive measured runs of a machine (and the two runs around each
                         change point): the `compare` table with verdicts
    runs/<uid>.html      every complete run, as cryptobench's HTML report
    assets/echarts.min.js  the charting library (with its licence notices), once for every page

The site loads nothing from the network: copy it anywhere, open it from disk or serve it with any
static server. The pages are laid out by report/site/.

    .cryptobench-site.json  the files cryptobench wrote: publishing again replaces those, removes
                         those no longer published (the page of a run gone from the store) and
                         touches nothing else; it says how many it replaced, added and removed

Before anything is written: a symbolic link where the site writes (its folders, a page in them,
index.html) is refused, since writing through it would write wherever it points; and a folder that
is not empty and holds no manifest was not published by cryptobench: refused unless `force`.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from cryptobench.analysis import history
from cryptobench.core.errors import UserError
from cryptobench.core.outputs import write_atomic
from cryptobench.report import machine_matrix
from cryptobench.report.site import algorithm, comparison, front
from cryptobench.report.site.common import alg_file, compare_file, machine_file, machine_of, run_file

MANIFEST = ".cryptobench-site.json"
SUBDIRS = ("alg", "runs", "assets", "machines", "compare")
# the only paths a manifest may name: a tampered one can make publish remove nothing else
OURS = re.compile(
    r"(index\.html|assets/echarts\.min\.js|(alg|machines)/[A-Za-z0-9._-]+\.html|runs/[0-9a-f]{32}\.html"
    r"|compare/[0-9a-f]{32}-[0-9a-f]{32}\.html)"
)
UID = re.compile(r"[0-9a-f]{32}")
NOISE = 0.02  # the threshold of the changes' and comparisons' verdicts, as `history` and `compare` default


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
    from cryptobench.report.formats.html import render as render_run
    from cryptobench.report.formats.html.library import charting_library
    from cryptobench.report.model import load_report

    listed = [r for r in store.list_runs() if r["status"] == "complete"]
    odd = [r for r in listed if not UID.fullmatch(str(r["uid"] or ""))]
    if odd:  # a uid names a file: only the form cryptobench writes
        say(f"publish: {len(odd)} run(s) left out, their global id is not 32 hex digits: "
            + ", ".join(str(r["id"]) for r in odd[:10]))  # fmt: skip
        listed = [r for r in listed if r not in odd]
    if not listed:
        raise UserError(f"no complete runs in {store.url}: nothing to publish")
    _version, licence, library = charting_library()  # before anything is written: its absence is one line
    before = _written_before(out, force)
    try:
        for d in SUBDIRS:
            (out / d).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UserError(f"cannot write the site to {str(out)!r}: {e.strerror}") from None
    _manifest(out, before)  # the folder is the site's from now on, also if this publish stops half-way
    written: set[str] = set()
    foreign: list[str] = []  # files no publish wrote, replaced (--force)

    def write(rel: str, text: str) -> None:
        if rel not in before and (out / rel).exists():
            foreign.append(rel)
        write_atomic(out / rel, text)
        written.add(rel)

    write("assets/echarts.min.js", licence + library)

    # the machines, their runs oldest first (as a history orders them), their latest measured run
    machines: dict[str, front.Machine] = {}
    for r in sorted(listed, key=lambda r: (str(r["started"]), r["id"])):
        machines.setdefault(machine_of(r), front.Machine(machine_of(r))).runs.append(r)
    machines = dict(sorted(machines.items()))
    reports: dict[int, object] = {}
    for m in machines.values():
        if m.measured:
            m.latest = reports[m.measured[-1]["id"]] = load_report(store, m.measured[-1]["id"])

    # one page per algorithm, and every change point found in its series
    found: list[algorithm.Found] = []
    alg_pages = []
    for alg in store.measured_algorithms():
        try:
            series = history.history(store, alg, None, None, None, None, NOISE)
        except UserError:
            continue  # measured only in runs that are not complete
        series = [s for s in series if all(UID.fullmatch(str(p.run["uid"])) for p in s.points)]
        if not series:
            continue
        text, changes = algorithm.render(alg, series)
        write(alg_file(alg), text)
        found += changes
        questions = len({(s.op, s.size, s.chunk) for s in series})
        alg_pages.append((alg, len(series), questions, len(changes)))

    # the comparisons: consecutive measured runs of each machine, and the two runs around each change
    loaded: dict[int, tuple] = {}

    def cells_of(run: dict) -> tuple:
        if run["id"] not in loaded:
            record, _verifications, cells = store.load_run(run["id"])
            loaded[run["id"]] = (record, cells)
        return loaded[run["id"]]

    pairs: dict[tuple[str, str], tuple[str, dict, dict]] = {}
    for m in machines.values():
        for x, y in m.pairs():
            pairs[(x["uid"], y["uid"])] = (m.name, x, y)
    by_uid = {r["uid"]: r for r in listed}
    for f in found:
        key = (f.before["uid"], f.after["uid"])
        if key not in pairs and key[0] in by_uid and key[1] in by_uid:
            pairs[key] = (f.series.machine, by_uid[key[0]], by_uid[key[1]])
    for m in machines.values():
        chain = [compare_file(x["uid"], y["uid"]) for x, y in m.pairs()]
        for (ua, ub), (name, x, y) in pairs.items():
            if name != m.name:
                continue
            rel = compare_file(ua, ub)
            i = chain.index(rel) if rel in chain else -1
            prev = chain[i - 1] if i > 0 else None
            nxt = chain[i + 1] if 0 <= i < len(chain) - 1 else None
            write(rel, comparison.render(name, cells_of(x), cells_of(y), NOISE, prev, nxt))
        loaded.clear()  # a machine's runs are not needed for the next one's

    # the machines' pages and the front page
    for m in machines.values():
        write(machine_file(m.name), front.machine_page(m, found))
    latest = [(m.name, m.latest.run, [r.cell for r in m.latest.rows]) for m in machines.values() if m.latest]
    matrix = machine_matrix.build(latest)
    write("index.html", front.index(list(machines.values()), found, alg_pages, matrix))

    # every complete run
    for n, r in enumerate(listed, 1):
        rep = reports.get(r["id"]) or load_report(store, r["id"])
        write(run_file(r), render_run(rep, library_src="../assets/echarts.min.js"))
        if n % 20 == 0:
            say(f"publish: {n}/{len(listed)} run pages")
    stale = sorted(before - written)
    for rel in stale:  # pages of runs and algorithms no longer published, written by an earlier publish
        if (out / rel).is_file() and not (out / rel).is_symlink():
            try:
                (out / rel).unlink(missing_ok=True)
            except OSError as e:
                say(f"publish: cannot remove {str(out / rel)!r}, no longer published: {e.strerror}")
    replaced = len(before & written)
    if before:
        gone = [rel for rel in stale if rel.startswith("runs/")]
        say(f"publish: replaced {replaced} file(s) of the earlier publish, added {len(written - before)}, removed "
            f"{len(stale)} no longer published" + (f" ({len(gone)} of them pages of runs no longer in the store)"
                                                   if gone else ""))  # fmt: skip
    if foreign:
        say(f"publish: replaced {len(foreign)} file(s) no earlier publish wrote (--force): "
            + ", ".join(foreign[:5]) + (" ..." if len(foreign) > 5 else ""))  # fmt: skip
    _manifest(out, written)
    return {"machines": len(machines), "algorithms": len(alg_pages), "runs": len(listed),
            "comparisons": len(pairs), "changes": len(found)}  # fmt: skip
