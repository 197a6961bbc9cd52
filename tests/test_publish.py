"""publish: a static offline site from a store, checked in headless Chromium."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO, run_cli
from test_history import _series

from cryptobench.store import open_store

CHECK = REPO / "tools" / "html-check" / "check.mjs"


def _browser_check(page: Path, shot: Path) -> dict:
    node = shutil.which("node")
    if not node or not Path("/usr/bin/chromium").exists() or not (CHECK.parent / "node_modules").is_dir():
        pytest.fail("the browser check needs node, Debian's chromium and tools/html-check (scripts/setup.sh)")
    proc = subprocess.run([node, str(CHECK), str(page), str(shot)], capture_output=True, text=True, timeout=180)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert proc.returncode == 0, (result, proc.stderr)
    return result


def test_the_site_has_every_page_linked_and_draws_in_chromium(store_url, tmp_path):
    store = open_store(store_url)
    _series(store, [3000] * 5 + [6000] * 5, machine="laptop")
    _series(store, [4000] * 3, machine="pi5", seed=2)
    r = run_cli("publish", tmp_path / "site", "--db", store_url)
    assert r.returncode == 0 and "published 2 machines, 1 algorithm pages and 13 runs" in r.stdout, r.stdout + r.stderr
    site = tmp_path / "site"
    index = (site / "index.html").read_text()
    assert "laptop" in index and "pi5" in index and "alg/aes-128-gcm.html" in index
    # every link on every page resolves to a file of the site; nothing points outside it
    for page in site.rglob("*.html"):
        for href in re.findall(r"(?:href|src)=['\"]([^'\"]+)['\"]", page.read_text()):
            assert not href.startswith(("http:", "https:", "//")), (page, href)
            if href.startswith("#"):
                continue  # within the page
            assert (page.parent / href.split("#")[0]).resolve().is_file(), (page, href)
    alg = site / "alg" / "aes-128-gcm.html"
    assert len(re.findall(r"runs/[0-9a-f]{32}\.html", alg.read_text())) >= 13  # each point's run
    assert _browser_check(site / "index.html", tmp_path / "i.png")["title"] == "cryptobench results"
    result = _browser_check(alg, tmp_path / "a.png")
    assert result["charts"] == 2 and result["external_requests"] == [] and result["console_errors"] == []
    assert "slower" in alg.read_text()
    # the charting library once for the whole site, not inlined in every page
    run_pages = list((site / "runs").glob("*.html"))
    assert len(run_pages) == 13 and max(p.stat().st_size for p in run_pages) < 300_000
    assert (site / "assets" / "echarts.min.js").stat().st_size > 500_000
    result = _browser_check(run_pages[0], tmp_path / "r.png")
    assert result["charts"] >= 1 and result["external_requests"] == [] and result["console_errors"] == []


def test_publish_errors_are_one_line(tmp_path):
    r = run_cli("publish", tmp_path / "site", "--db", tmp_path / "empty.db")
    assert r.returncode == 2 and "nothing to publish" in r.stderr, r.stderr
    (tmp_path / "afile").write_text("x")
    _series(open_store(str(tmp_path / "one.db")), [3000] * 4)
    r = run_cli("publish", tmp_path / "afile", "--db", tmp_path / "one.db")
    assert r.returncode == 2 and "is a file" in r.stderr, r.stderr


def _site(tmp_path, runs: int = 3, seed: int = 7, name: str = "one.db") -> Path:
    db = tmp_path / name
    _series(open_store(str(db)), [3000] * runs, seed=seed)
    return db


def test_publish_never_writes_through_a_symbolic_link_in_the_site(tmp_path):
    db, site, elsewhere = _site(tmp_path), tmp_path / "site", tmp_path / "elsewhere"
    assert run_cli("publish", site, "--db", db).returncode == 0
    elsewhere.mkdir()
    for sub in ("runs", "assets"):
        shutil.rmtree(site / sub)
        (site / sub).symlink_to(elsewhere, target_is_directory=True)
        r = run_cli("publish", site, "--db", db)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and "is a symbolic link" in lines[0] and sub in lines[0], r.stderr
        assert list(elsewhere.iterdir()) == []  # nothing written where the link points
        (site / sub).unlink()


def test_publish_again_removes_the_pages_it_wrote_that_are_no_longer_published_and_nothing_else(tmp_path):
    site = tmp_path / "site"
    assert run_cli("publish", site, "--db", _site(tmp_path)).returncode == 0
    old_pages = set((site / "runs").glob("*.html"))
    assert len(old_pages) == 3
    (site / "runs" / "notes.html").write_text("mine")  # files of the site's owner stay
    (site / "README").write_text("mine")
    r = run_cli("publish", site, "--db", _site(tmp_path, runs=2, seed=9, name="two.db"))
    assert r.returncode == 0 and "removed 3 page(s) no longer published" in r.stderr, r.stderr
    pages = set((site / "runs").glob("*.html"))
    assert len(pages) == 3 and not pages & old_pages and site / "runs" / "notes.html" in pages
    assert (site / "README").read_text() == "mine"
    manifest = json.loads((site / ".cryptobench-site.json").read_text())
    assert len(manifest["files"]) == 2 + 1 + 2 and "runs/notes.html" not in manifest["files"]


def test_publish_refuses_a_folder_it_did_not_publish_unless_forced(tmp_path):
    db, home = _site(tmp_path), tmp_path / "www"
    home.mkdir()
    (home / "index.html").write_text("<h1>my homepage</h1>")
    r = run_cli("publish", home, "--db", db)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "not empty and was not published by cryptobench" in lines[0]
    assert (home / "index.html").read_text() == "<h1>my homepage</h1>" and sorted(home.iterdir()) == [
        home / "index.html"
    ]
    r = run_cli("publish", home, "--db", db, "--force")
    assert r.returncode == 0 and "cryptobench results" in (home / "index.html").read_text(), r.stderr
    (tmp_path / "empty").mkdir()  # an empty folder is fine without --force
    assert run_cli("publish", tmp_path / "empty", "--db", db).returncode == 0
