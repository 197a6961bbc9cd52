"""The HTML report: one self-contained file, escaped, and drawn for real in headless Chromium.

The browser test needs Debian's chromium and tools/html-check's playwright-core; it fails (never
skips) when they are missing, naming the command that installs them, since CI installs both.
"""

import html
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cryptobench.core.errors import UserError
from cryptobench.report import build_report
from cryptobench.report.formats import html as html_report
from cryptobench.report.formats.html import library as html_library
from cryptobench.store import CellRecord, RunRecord, VerifyRecord, open_store

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "tools" / "html-check" / "check.mjs"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SETUP = "apt-get install -y chromium && npm ci --prefix tools/html-check (both in scripts/setup.sh)"

HOSTILE = "</script><script>alert(1)</script><!-- <img src=x onerror=alert(2)> & \"'"
EVIL = "js:<b>evil</b></script>"
SUM = "00000020:fb4898be6151a393"
SIZES = [64, 1024, 16384, 1048576]
# MB/s at 1 MiB of each provider; smaller sizes are slower by the factor below.
SPEED = {"c:openssl": 2000.0, "go:stdlib": 1500.0, "rust:ring": 2300.0, "python:cryptography": 1900.0}
SIZE_FACTOR = {64: 0.15, 1024: 0.6, 16384: 0.9, 1048576: 1.0}


def cell(provider, alg, op, size, ns, chunk=0, checksum=SUM, spread=0.01):
    """A cell whose median per-op time is `ns`, with a small spread so the CI is visible."""
    samples = [round(ns * 100 * (1 + spread * d)) for d in (-3, -1, 0, 0, 0.5, 1, 2, -2, 1.5, -0.5, 0, 0.3)]
    return CellRecord(provider, alg, op, size, chunk, "ok", batch=100, samples_ns=samples, checksum=checksum,
                      checksums_seen=[checksum], rounds=2)  # fmt: skip


def ns_for(mbs, size):
    return size / mbs * 1e3  # MB/s = size / ns * 1e3


@pytest.fixture
def report(tmp_path):
    store = open_store(str(tmp_path / "r.db"))
    run = RunRecord(None, "2026-11-22T10:00:00+00:00", "default", {"baseline": "c:openssl", "noise": 0.02},
                    {"cpu_model": "Test CPU <i>9000</i>", "cores": 2, "cpu_flags": ["aes", "sha_ni", "avx2"],
                     "kernel": "Linux 6.1", "governor": "performance", "load_start": [0.1, 0.2, 0.3],
                     "git_commit": "abc1234", "cryptobench": "0.1.0"})  # fmt: skip
    rid = store.create_run(run)
    versions = {"c:openssl": "OpenSSL 3.0.17", "go:stdlib": "go1.26.8", "rust:ring": "ring 0.17.14",
                "python:cryptography": HOSTILE, EVIL: "1.0"}  # fmt: skip
    for pid, ver in versions.items():
        store.add_provider(rid, pid, {"library": pid.split(":")[1], "library_version": ver,
                                      "clock": {"resolution_ns": 20}, "runtime": "x"})  # fmt: skip
    store.add_verification(rid, VerifyRecord("c:openssl", "sha256", "passed", passed=3))
    for alg, op, scale in (("sha256", "hash", 1.0), ("aes-128-gcm", "seal", 2.5)):
        for pid, mbs in SPEED.items():
            for size in SIZES:
                if pid == "python:cryptography" and alg == "aes-128-gcm" and size == 64:
                    continue  # a failed cell instead, below
                store.add_cell(rid, cell(pid, alg, op, size, ns_for(mbs * scale * SIZE_FACTOR[size], size)))
    store.add_cell(rid, CellRecord("python:cryptography", "aes-128-gcm", "seal", 64, 0, "failed",
                                   reason=f"driver crashed: {HOSTILE}"))  # fmt: skip
    store.add_cell(rid, CellRecord("go:stdlib", "aes-128-ccm", "seal", 1024, 0, "not-offered", reason="not offered"))
    # The hostile provider id, measured once: a chart series name, a table cell, a heatmap column.
    store.add_cell(rid, cell(EVIL, "sha256", "hash", 1048576, ns_for(900, 1048576)))
    # Granularity: sha256 over 1 MiB fed in chunks; the peers speed up with the chunk, go:stdlib stays slow.
    for pid, mbs in (("c:openssl", 2000.0), ("go:stdlib", 1500.0), ("rust:ring", 2300.0)):
        for chunk, f in ((64, 0.3), (1024, 0.8), (16384, 0.97)):
            eff = mbs * ({64: 0.05, 1024: 0.06, 16384: 0.07}[chunk] if pid == "go:stdlib" else f)
            store.add_cell(rid, cell(pid, "sha256", "hash", 1048576, ns_for(eff, 1048576), chunk=chunk))
    # Public key: ops/s, no MB/s.
    for pid, sign_ns, verify_ns in (("c:openssl", 20_000, 55_000), ("go:stdlib", 25_000, 60_000),
                                    ("rust:ring", 18_000, 50_000)):  # fmt: skip
        store.add_cell(rid, cell(pid, "ed25519", "sign", 32, sign_ns, checksum="00000040:5167"))
        store.add_cell(rid, cell(pid, "ed25519", "verify", 32, verify_ns, checksum="00000001:01"))
    # A noisy cell, for a warning of its own.
    store.add_cell(rid, cell("rust:ring", "sha512", "hash", 1024, 1000, spread=0.2))
    store.add_cell(rid, cell("c:openssl", "sha512", "hash", 1024, 1100))
    store.finish_run(rid, "complete", "2026-11-22T10:02:00+00:00", {"load_end": [0.2, 0.2, 0.3]})
    rep = build_report(*store.load_run(rid))
    # The granularity analysis flags go:stdlib; its explanation also carries a hostile string.
    assert [p["provider"] for p in rep.pathologies] == ["go:stdlib"], rep.pathologies
    rep.pathologies[0]["why"] += " " + HOSTILE
    return rep


# Charts the fixture must produce: 1 heatmap; throughput lines for sha256 and aes-128-gcm (sha512 has one
# size); bars for sha256, aes-128-gcm and sha512; 1 granularity chart (sha256, 1 MiB); 1 ed25519 chart.
EXPECTED_CHARTS = 1 + 2 + 3 + 1 + 1


SAFE_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "span", "strong",
             "nav", "a", "main", "section", "div", "figure", "figcaption", "ul", "li", "table", "thead", "tbody",
             "tr", "th", "td", "dl", "dt", "dd", "footer", "script"}  # fmt: skip


def _tags(page: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """Every start tag the browser's parser would see, with its attributes."""
    from html.parser import HTMLParser

    out = []

    class P(HTMLParser):
        def handle_starttag(self, tag, attrs):
            out.append((tag, [(k, v or "") for k, v in attrs]))

    P(convert_charrefs=True).feed(page)
    return out


def _split(page: str) -> tuple[str, str]:
    """(the inlined charting library, the rest of the page)."""
    m = re.search(r'<script id="charting-library">(.*?)</script>', page, re.S)
    assert m, "the charting library is not inlined"
    return m.group(1), page[: m.start()] + page[m.end() :]


def test_self_contained_and_escaped(report):
    page = html_report.render(report)
    library, rest = _split(page)
    # Nothing outside the library names a URL, and nothing loads from elsewhere.
    assert not re.search(r"https?://", rest, re.I), re.findall(r".{40}https?://.{40}", rest)
    tags = _tags(page)
    assert {t for t, _ in tags} <= SAFE_TAGS, {t for t, _ in tags} - SAFE_TAGS
    links = [(t, k, v) for t, attrs in tags for k, v in attrs if k in ("src", "href", "srcset", "action", "poster")]
    assert all(k == "href" and v.startswith("#") for _, k, v in links), links  # in-page links only
    assert [t for t, _ in tags].count("script") == 3
    assert "@import" not in rest and "url(" not in rest
    # In the library, a URL is either inside one of its licence comments or one of the XML namespace
    # names that SVG code passes to createElementNS (identifiers, never fetched).
    licence_spans = [m.span() for m in re.finditer(r"/\*.*?\*/", library, re.S) if "licen" in m.group(0).lower()]
    namespaces = {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink", "http://www.w3.org/2000/xmlns/",
                  "http://www.w3.org/XML/1998/namespace"}  # fmt: skip
    in_code = [
        m.group(0)
        for m in re.finditer(r"https?://[^\s\"'`)]*", library)
        if not any(a <= m.start() < b for a, b in licence_spans)
    ]
    assert set(in_code) <= namespaces, set(in_code) - namespaces
    assert len(licence_spans) >= 3  # our notice block, ECharts' header, ZRender's
    assert "Licensed to the Apache Software Foundation" in library and "Copyright (c) 2017, Baidu Inc." in library
    assert "Apache ECharts 6.1.0" in rest  # the visible notice
    # The hostile strings never appear raw; they appear escaped in the markup.
    for s in (HOSTILE, EVIL, "<script>alert", "<img src=x", "<b>evil</b>"):
        assert s not in page, s
    assert page.lower().count("</script") == 3  # the data, the library, the page's script: nothing else closes one
    assert page.count("<!--") == 0
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- &lt;img src=x" in page
    assert "js:&lt;b&gt;evil&lt;/b&gt;&lt;/script&gt;" in page
    assert "Test CPU &lt;i&gt;9000&lt;/i&gt;" in page
    # The data block is valid JSON that still carries the exact hostile strings.
    m = re.search(r'<script type="application/json" id="cryptobench-data">(.*?)</script>', page, re.S)
    data = json.loads(m.group(1))
    assert len(data["charts"]) == EXPECTED_CHARTS
    providers = {s["provider"] for c in data["charts"] for s in c.get("series", [])}
    assert EVIL in providers
    gran = next(c for c in data["charts"] if c["kind"] == "granularity")
    flagged = {s["provider"]: s["flagged"] for s in gran["series"] if s["flagged"]}
    assert list(flagged) == ["go:stdlib"] and flagged["go:stdlib"].endswith(HOSTILE)


def test_content(report):
    page = html_report.render(report)
    for text in ("run 1", "default", "complete", "2026-11-22T10:00:00+00:00", "aes sha_ni avx2", "Linux 6.1",
                 "abc1234", "OpenSSL 3.0.17", "ring 0.17.14", "0.1 0.2 0.3", "Speed against the baseline",
                 "Throughput against message size", "Granularity", "Public-key operations", "ed25519",
                 "sha256 — hash", "aes-128-gcm — seal", "1.00x (baseline)", "not offered",
                 "coefficient of variation", "driver crashed"):  # fmt: skip
        assert text in page, text
    assert len(report.failures) == 1 and report.warnings and report.not_offered
    for line in report.warnings + report.failures + report.not_offered:
        assert html.escape(line) in page, line


def test_missing_library_names_the_install(report, monkeypatch, tmp_path):
    monkeypatch.setattr(html_library, "LIBRARY", tmp_path / "nowhere")
    monkeypatch.setattr(html_library, "LIBRARY_JS", tmp_path / "nowhere" / "echarts.min.js")
    with pytest.raises(UserError, match=re.escape("npm ci --prefix cryptobench/report/assets")):
        html_report.render(report)


def test_drawn_in_chromium(report, tmp_path):
    node = shutil.which("node")
    missing = [what for what, ok in (("node", node), (CHROMIUM, Path(CHROMIUM).exists()),
                                     ("playwright-core", (CHECK.parent / "node_modules" / "playwright-core").is_dir()))
               if not ok]  # fmt: skip
    if missing:
        pytest.fail(f"the browser check needs {', '.join(missing)}: run {SETUP}")
    path = tmp_path / "report.html"
    path.write_text(html_report.render(report), encoding="utf-8")
    shot = Path(os.environ.get("CRYPTOBENCH_HTML_SCREENSHOT", tmp_path / "report.png"))
    proc = subprocess.run([node, str(CHECK), str(path), str(shot)], capture_output=True, text=True, timeout=180)
    assert proc.stdout.strip(), f"check.mjs printed nothing (exit {proc.returncode}): {proc.stderr}"
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    assert result["console_errors"] == [], result
    assert result["external_requests"] == [], result
    assert result["charts"] == EXPECTED_CHARTS and result["expected_charts"] == EXPECTED_CHARTS, result
    assert result["title"] == "cryptobench report — run 1 (default)"
    assert proc.returncode == 0, proc.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
