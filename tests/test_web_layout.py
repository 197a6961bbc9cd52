"""The web layout (report/web_layout.py) and the long-message rules it reports (sampler.long_message):
a known run built in memory, the ratio per engine with its interval, peak memory per engine, n=1."""

import pytest

from cryptobench.core.cell import CellSpec
from cryptobench.core.settings import Settings
from cryptobench.measure import sampler
from cryptobench.report import build_report, web_layout
from cryptobench.report.formats import markdown
from cryptobench.report.row_figures import ONE_SAMPLE
from cryptobench.store import CellRecord, RunRecord

BIG = 500_000_000
MiB = 1024 * 1024
NATIVE, FAIR, NODE, CHROMIUM = "c:openssl@3.6.3", web_layout.FAIR, "wasm:openssl-node", "browser:openssl-wasm"


def cell(pid, ns, size=1024, chunk=0, rss_mb=10, n=12, **extra):
    spread = (-30, -10, 0, 0, 5, 10, 20, -20, 15, -5, 0, 3)[:n]
    return CellRecord(pid, "aes-128-gcm", "seal", size, chunk, "ok", batch=1, samples_ns=[ns + d for d in spread],
                      checksum="00000010:0000000000000001", rounds=2, peak_rss_kb=rss_mb * 1024, extra=extra)  # fmt: skip


@pytest.fixture(scope="module")
def rep():
    run = RunRecord(1, "2026-11-27T08:00:00+00:00", "web", {"baseline": NATIVE, "noise": 0.02, "layout": "web"}, {})
    cells = [
        cell(NATIVE, 1_000), cell(FAIR, 5_000), cell(NODE, 50_000), cell(CHROMIUM, 60_000, rss_mb=160),
        cell(NATIVE, 50_000_000, BIG, MiB, rss_mb=12),
        cell(FAIR, 500_000_000, BIG, MiB, rss_mb=12),
        cell(NODE, 25_000_000_000, BIG, MiB, rss_mb=70, n=1, driver_peak_kb=20 * 1024, spent_s=100.0),
        # the renderer (the bridge's figure) held the message; the tree's largest process is the browser's
        cell(CHROMIUM, 26_000_000_000, BIG, MiB, rss_mb=210, n=1, driver_peak_kb=700 * 1024),
    ]  # fmt: skip
    return build_report(run, [], cells)


def test_ratio_per_engine_over_native_and_over_no_aesni_with_intervals(rep):
    headers, rows = web_layout.ratio_table(rep)
    assert headers[:3] == ["cell", f"native {NATIVE} MB/s", "no AES-NI vs native"]
    assert "Node vs native" in headers and "Chromium vs no AES-NI" in headers
    small = next(r for r in rows if r[0] == "aes-128-gcm seal 1 KiB")
    node_vs_native = small[headers.index("Node vs native")]
    node_vs_fair = small[headers.index("Node vs no AES-NI")]
    assert node_vs_native.startswith("0.02x [") and node_vs_fair.startswith("0.1x [")  # 1/50, 5/50
    lo, hi = (float(x) for x in node_vs_native.split("[")[1].rstrip("]").split("-"))
    assert lo <= 0.02 <= hi  # an interval around the ratio
    big = next(r for r in rows if r[0].startswith("aes-128-gcm seal 500 MB"))
    assert big[headers.index("Node vs native")] == f"0.002x ({ONE_SAMPLE})"  # measured once: no interval


def test_one_operation_cells_have_no_verdict_and_say_so(rep):
    node = next(r for r in rep.rows if r.provider == NODE and r.cell.size == BIG)
    assert node.verdict == ONE_SAMPLE and "n=1" in node.notes
    assert any("measured once (n=1), no interval" in w and "100 s" in w for w in rep.warnings)
    assert not any("interval wider than" in w and NODE in w and "500 MB" in w for w in rep.warnings)
    assert "(n=1, no interval)" in markdown.render(rep)


def test_peak_memory_per_engine_bounded_or_not(rep):
    headers, rows = web_layout.memory_table(rep)
    by = {r[0]: dict(zip(headers, r, strict=True)) for r in rows}
    assert set(by) == {NATIVE, FAIR, NODE, CHROMIUM}
    assert by[NODE]["peak RSS"] == "70 MiB" and by[NODE]["linear memory (wasm)"] == "20 MiB"
    assert by[NODE]["bounded?"] == "bounded" and by[NODE]["grew by"].startswith("+60 MiB")
    assert by[CHROMIUM]["bounded?"] == "holds the message" and by[CHROMIUM]["peak RSS"] == "700 MiB"
    assert "renderer" in by[CHROMIUM]["what is measured"] and "210 MiB" in by[CHROMIUM]["what is measured"]
    assert by[NATIVE]["linear memory (wasm)"] == "-"
    md = markdown.render(rep)
    assert f"## {web_layout.RATIO_TITLE}" in md and f"## {web_layout.MEMORY_TITLE}" in md
    assert "portable C" in md


def test_a_long_message_is_asked_once_without_calibration_and_a_slow_provider_stops_alone():
    s = Settings(suite="t", baseline=NATIVE, time_per_cell=1.0)
    spec = CellSpec("aes-128-gcm", "seal", BIG, MiB, (NATIVE, NODE), budget=1.0)
    first = sampler.request_for(spec, sampler.Track(), s, in_pair=True)
    assert (first["batch"], first["samples"], first["warmup_ns"]) == (1, 1, 0)
    small = sampler.request_for(CellSpec("aes-128-gcm", "seal", MiB, 0, (NATIVE,)), sampler.Track(), s)
    assert (small["batch"], small["samples"]) == (0, 2)  # calibrated as before
    fast, slow = sampler.CellSampler(spec, s), sampler.CellSampler(spec, s)
    fast.track = sampler.Track(batch=1, samples=[50_000_000], rounds=1, spent=0.3, pair_rounds=[-1])
    slow.track = sampler.Track(batch=1, samples=[25_000_000_000], rounds=1, spent=100.0, pair_rounds=[-1])
    sampler.decide_together({NATIVE: fast, NODE: slow}, 0, s)
    assert slow.track.done and not fast.track.done  # five budgets spent alone: done, the other goes on
