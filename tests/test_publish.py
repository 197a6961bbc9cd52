"""publish: a static offline site from a store (issue 35), checked page by page in one headless Chromium.

The site test's store is written straight through the store API with synthetic figures: publish only
reads a store, so what it is given can be chosen exactly (two machines, twelve measured runs, a
deliberate step, a verification and a leak-check run, hostile names). The real path (`run`, then
`verify`, then `publish`) is tested once, with one tiny cell.

The browser pass needs Debian's chromium and tools/html-check's playwright-core; it fails (never
skips) when they are missing. Its screenshots (the index, the algorithm pages, one page of each other
kind; every page with CRYPTOBENCH_ALL_SHOTS=1) go to $CRYPTOBENCH_TEST_ARTEFACTS/publish (or the test's
temporary folder), for a reviewer; they are never committed.
"""

import html
import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, run_cli

from cryptobench.core.errors import UserError
from cryptobench.fleet.publish import publish
from cryptobench.store import CellRecord, RunRecord, VerifyRecord, open_store

SITE_CHECK = REPO / "tools" / "html-check" / "site.mjs"
SETUP = "apt-get install -y chromium && npm ci --prefix tools/html-check (both in scripts/setup.sh)"

LAB = 'lab "<script>alert(1)</script>" é✓'  # a machine label a page must escape
PI = "pi5 ünïcode ✓"
EVIL = "plugin:<img src=x onerror=alert(2)>'\""  # a provider id
RAW = ("<script>alert(1)", "<img src=x onerror")


def _cell(provider: str, alg: str, op: str, size: int, ns: float, rng: random.Random) -> CellRecord:
    samples = [round(ns * 100 * (1 + rng.gauss(0, 0.01))) for _ in range(24)]
    return CellRecord(provider, alg, op, size, 0, "ok", batch=100, samples_ns=samples, rounds=2)


def _run(store, day: int, machine: str, cells: list[CellRecord], suite: str = "default", settings=None) -> dict:
    env = {"machine_label": machine, "machine_id": f"id-{machine[:3]}", "git_commit": f"c{day:03d}",
           "cpu_model": f"CPU of {machine}", "cores": 4}  # fmt: skip
    settings = {"noise": 0.02, "baseline": "c:openssl", **(settings or {})}
    rid = store.create_run(RunRecord(None, f"2026-03-{day:02d}T06:00:00+00:00", suite, settings, env))
    for p in sorted({c.provider for c in cells} | {"c:openssl"}):
        version = ("OpenSSL 3.0.19" if day < 10 else "OpenSSL 3.6.3") if p == "c:openssl" else "1.0 <b>"
        store.add_provider(rid, p, {"library": p, "library_version": version})
    for c in cells:
        store.add_cell(rid, c)
    if suite.startswith("verify:"):
        store.add_verification(rid, VerifyRecord("c:openssl", "aes-128-gcm", "passed", passed=12))
    store.finish_run(rid, "complete", f"2026-03-{day:02d}T06:05:00+00:00")
    run, _, _ = store.load_run(rid)
    return {"id": rid, "uid": run.uid}


def _store(path: Path) -> dict:
    """Twelve measured runs of two machines; the lab's c:openssl AES-128-GCM takes twice as long from its
    fifth run on (CPU features: no-aesni); then a verification run and a leak-check run of the lab."""
    store, rng, runs = open_store(str(path)), random.Random(35), {LAB: [], PI: []}
    day = 0
    for i in range(8):
        for machine in (LAB, PI) if i < 4 else (LAB,):
            day += 1
            slow = 2.0 if machine == LAB and i >= 4 else 1.0
            cells = [
                _cell("c:openssl", "aes-128-gcm", "seal", size, size / 2000 * 1e3 * slow, rng) for size in (1024, 16384)
            ]
            cells += [_cell(EVIL, "aes-128-gcm", "seal", size, size / 1500 * 1e3, rng) for size in (1024, 16384)]
            cells += [_cell("c:openssl", "sha256", "hash", 1024, 1024 / 1800 * 1e3, rng)]
            if machine == PI and i == 3:
                cells.append(_cell(EVIL, "sha256", "hash", 64, 64 / 400 * 1e3, rng))  # measured once: a table row
            settings = {"cpu_features": "aesni"} if slow > 1 else {}
            runs[machine].append(_run(store, day, machine, cells, settings=settings))
    runs["verify"] = _run(store, day + 1, LAB, [], suite="verify:default")
    runs["leak"] = _run(store, day + 2, LAB, [], suite="leak:default")
    return runs


def _check_site(site: Path, shots: Path) -> dict:
    node = shutil.which("node")
    if not node or not Path(os.environ.get("CHROMIUM", "/usr/bin/chromium")).exists():
        pytest.fail(f"the browser check needs node and Debian's chromium: {SETUP}")
    if not (SITE_CHECK.parent / "node_modules").is_dir():
        pytest.fail(f"the browser check needs tools/html-check's playwright-core: {SETUP}")
    proc = subprocess.run([node, str(SITE_CHECK), str(site), str(shots)], capture_output=True, text=True, timeout=600)
    assert proc.stdout.strip(), proc.stderr
    return {"status": proc.returncode, **json.loads(proc.stdout.strip().splitlines()[-1])}


def test_the_site_answers_where_we_stand_and_what_changed_on_every_page_in_chromium(tmp_path):
    runs = _store(tmp_path / "s.db")
    site = tmp_path / "site"
    got = publish(open_store(str(tmp_path / "s.db")), site, say=pytest.fail)
    assert got == {"machines": 2, "algorithms": 2, "runs": 14, "comparisons": 10, "changes": 2}, got
    index = (site / "index.html").read_text()
    for page in site.rglob("*.html"):  # hostile names are escaped everywhere
        text = page.read_text()
        assert not any(raw in text for raw in RAW), page
    assert html.escape(LAB) in index and html.escape(PI) in index
    # where each machine stands: the lab's latest *measured* run, drawn as the run report's heat map,
    # although its latest run is a leak check; one heat map per machine, with the results tables
    standing = index.split('id="standing"')[1].split('id="changes"')[0]
    assert standing.count('class="fig fig-heatmap"') == 2 and standing.count("Results tables of run") == 2
    lab_last, pi_last = runs[LAB][-1], runs[PI][-1]
    assert f"runs/{lab_last['uid']}.html" in standing and f"runs/{pi_last['uid']}.html" in standing
    # verification and leak-check runs are listed apart
    apart = index.split('id="apart"')[1].split('id="machines"')[0]
    assert f"runs/{runs['verify']['uid']}.html" in apart and f"runs/{runs['leak']['uid']}.html" in apart
    assert f"runs/{lab_last['uid']}.html" not in apart
    # the changes: the step, first, with the chart that shows it and the comparison of the runs around it
    changes = index.split('id="changes"')[1].split('id="apart"')[0]
    first = changes.split("<tbody>")[1].split("</tr>")[0]
    assert "c:openssl aes-128-gcm seal" in first and ">slower<" in first and html.escape(LAB) in first, first
    before, after = runs[LAB][3], runs[LAB][4]
    compare = f"compare/{before['uid']}-{after['uid']}.html"
    assert f'href="{compare}"' in first and f"runs/{before['uid']}.html" in first, first
    chart = html.unescape(re.search(r'href="(alg/aes-128-gcm\.html#[^"]+)">chart<', first).group(1))
    # the chart it links to: the question and the machine it names, the change among its lines' data
    q, m = (int(x) for x in re.fullmatch(r"alg/aes-128-gcm\.html#q=(\d+)&m=(\d+)&p=\d+", chart).groups())
    alg_page = (site / "alg" / "aes-128-gcm.html").read_text()
    doc = json.loads(alg_page.split('id="cryptobench-site">')[1].split("</script>")[0])
    assert doc["machines"][m] == LAB and len(doc["questions"]) == 2
    lines = [s for s in doc["questions"][q]["series"] if s["m"] == m and doc["providers"][s["p"]] == "c:openssl"]
    assert [c["verdict"] for c in lines[0]["changes"]] == ["slower"] and len(lines[0]["points"]) == 8
    assert lines[0]["changes"][0]["href"] == "../" + compare
    # the comparison page: the compare table, with its verdicts, and both runs
    page = (site / compare).read_text()
    assert "slower" in page and f"run {before['id']}" in page and f"run {after['id']}" in page
    assert page.count("<h3>aes-128-gcm — seal</h3>") == 1 and "same (within noise)" in page
    # a series measured once is a row of a table, not a one-point chart
    sha = (site / "alg" / "sha256.html").read_text()
    assert "Measured in one run only" in sha and html.escape(EVIL) in sha
    assert sum(f.stat().st_size for f in site.rglob("*") if f.is_file()) < 5_000_000  # a 12-run site: under 5 MB
    # every page in one browser: drawn, no console error, no request leaving the site, every link resolving
    shots = Path(os.environ.get("CRYPTOBENCH_TEST_ARTEFACTS") or tmp_path) / "publish"
    result = _check_site(site, shots)
    pages = {p["page"] for p in result["pages"]}
    assert result["status"] == 0 and result["problems"] == 0, json.dumps(result, indent=1)[:4000]
    assert {"index.html", "alg/aes-128-gcm.html", chart, compare} <= pages, sorted(pages)
    assert (
        len([p for p in pages if "#" not in p]) == 1 + 2 + 14 + 10 + 2
    )  # index, algorithms, runs, comparisons, machines
    index_seen = next(p for p in result["pages"] if p["page"] == "index.html")
    assert index_seen["charts"] == 2 and next(p for p in result["pages"] if p["page"] == chart)["charts"] == 1
    # screenshots: the index, every view of an algorithm page, one page of each other kind
    taken = {p.name for p in shots.glob("*.png")}
    assert {"index.html.png", "alg_aes-128-gcm.html.png", "alg_sha256.html.png"} <= taken and len(taken) >= 7, taken


def test_after_run_and_verify_the_index_shows_the_run_and_lists_the_verification_apart(tmp_path):
    """The acceptance's real path: `run` (one tiny cell), `verify` into the same store, `publish`."""
    db, site = tmp_path / "r.db", tmp_path / "site"
    r = run_cli("run", "--alg", "sha256", "--provider", "c:openssl", "--size", "64B", "--time-per-cell", "0.05",
                "--passes", "1", "--quiet", "--db", db)  # fmt: skip
    assert r.returncode in (0, 1), r.stderr  # 1: a warning-level cell on a loaded machine is still measured
    assert run_cli("verify", "--alg", "sha256", "--provider", "c:openssl", "--db", db).returncode == 0
    r = run_cli("publish", site, "--db", db)
    assert r.returncode == 0 and "published 1 machines, 1 algorithm pages, 2 runs, 0 comparisons" in r.stdout, r.stderr
    index = (site / "index.html").read_text()
    standing = index.split('id="standing"')[1].split('id="changes"')[0]
    apart = index.split('id="apart"')[1].split('id="machines"')[0]
    assert 'class="fig fig-heatmap"' in standing and "sha256" in standing and "run 1</a>" in standing
    assert "run 2</a>" in apart and "verify:default" in apart and "verification" in apart


def test_publish_errors_are_one_line(tmp_path):
    r = run_cli("publish", tmp_path / "site", "--db", tmp_path / "empty.db")
    assert r.returncode == 2 and "nothing to publish" in r.stderr, r.stderr
    (tmp_path / "afile").write_text("x")
    _small(tmp_path)
    r = run_cli("publish", tmp_path / "afile", "--db", tmp_path / "one.db")
    assert r.returncode == 2 and "is a file" in r.stderr, r.stderr


def _small(tmp_path, runs: int = 3, seed: int = 7, name: str = "one.db") -> Path:
    db = tmp_path / name
    store, rng = open_store(str(db)), random.Random(seed)
    for i in range(runs):
        _run(store, i + 1, "m1", [_cell("c:openssl", "aes-128-gcm", "seal", 16384, 8000, rng)])
    return db


def _publish(db: Path, site: Path, force: bool = False) -> list[str]:
    said: list[str] = []
    publish(open_store(str(db)), site, say=said.append, force=force)
    return said


def test_publish_never_writes_through_a_symbolic_link_in_the_site(tmp_path):
    db, site, elsewhere = _small(tmp_path), tmp_path / "site", tmp_path / "elsewhere"
    _publish(db, site)
    elsewhere.mkdir()
    for sub in ("runs", "compare", "machines"):
        shutil.rmtree(site / sub)
        (site / sub).symlink_to(elsewhere, target_is_directory=True)
        with pytest.raises(UserError, match=f"{sub}.* is a symbolic link"):
            _publish(db, site)
        assert list(elsewhere.iterdir()) == []  # nothing written where the link points
        (site / sub).unlink()
    (site / "index.html").unlink()  # a page linked out of the site: refused in one line by the command too
    (site / "index.html").symlink_to(elsewhere / "index.html")
    r = run_cli("publish", site, "--db", db)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "index.html' is a symbolic link" in lines[0], r.stderr
    assert list(elsewhere.iterdir()) == []


def test_publish_again_replaces_its_pages_removes_those_of_runs_gone_and_nothing_else(tmp_path):
    site = tmp_path / "site"
    assert _publish(_small(tmp_path), site) == []
    old_pages = set((site / "runs").glob("*.html"))
    assert len(old_pages) == 3 and len(list((site / "compare").glob("*.html"))) == 2
    (site / "runs" / "notes.html").write_text("mine")  # files of the site's owner stay
    (site / "README").write_text("mine")
    said = _publish(_small(tmp_path, runs=2, seed=9, name="two.db"), site)
    # kept: index, the library, the algorithm's and the machine's pages; new: 2 runs, 1 comparison;
    # gone: 3 runs (no longer in this store) and 2 comparisons
    assert said == ["publish: replaced 4 file(s) of the earlier publish, added 3, removed 5 no longer published "
                    "(3 of them pages of runs no longer in the store)"], said  # fmt: skip
    pages = set((site / "runs").glob("*.html"))
    assert len(pages) == 3 and not pages & old_pages and site / "runs" / "notes.html" in pages
    assert (site / "README").read_text() == "mine"
    manifest = json.loads((site / ".cryptobench-site.json").read_text())
    assert len(manifest["files"]) == 4 + 3 and "runs/notes.html" not in manifest["files"]


def test_publish_refuses_a_folder_it_did_not_publish_unless_forced(tmp_path):
    db, home = _small(tmp_path), tmp_path / "www"
    home.mkdir()
    (home / "index.html").write_text("<h1>my homepage</h1>")
    with pytest.raises(UserError, match="not empty and was not published by cryptobench"):
        _publish(db, home)
    assert (home / "index.html").read_text() == "<h1>my homepage</h1>" and sorted(home.iterdir()) == [
        home / "index.html"
    ]
    assert _publish(db, home, force=True) == [
        "publish: replaced 1 file(s) no earlier publish wrote (--force): index.html"
    ]
    assert "cryptobench results" in (home / "index.html").read_text()
    (tmp_path / "empty").mkdir()  # an empty folder is fine without force
    _publish(db, tmp_path / "empty")
