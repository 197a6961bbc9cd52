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
