"""A run's noise level (cryptobench/report/noise_level.py): its figures, and every report header showing it."""

import json

import pytest

from cryptobench.report import build_report, noise_level
from cryptobench.report.compare import compare_runs
from cryptobench.report.formats import compare_json, compare_markdown, compare_terminal, html, markdown, terminal
from cryptobench.report.formats import json_ as json_report
from cryptobench.store import CellRecord, RunRecord, open_store

SUM = "00000020:fb4898be6151a393"


def cell(provider, size, slow_share=0.0, batch=100, n=40, busy=None):
    """n batches of `batch` operations at 1000 ns each, the first slow_share of them 1.6x slower;
    `busy`: the cores /proc/stat found busy over its rounds (the run's driver's among them)."""
    slow = round(n * slow_share)
    samples = [1600 * batch + i for i in range(slow)] + [1000 * batch + i % 7 for i in range(n - slow)]
    extra = {"round_sizes": [1] * n} | ({"host": {"steal_pct": 0.0, "busy_cores": busy, "jiffies": 100 + size // 1024}}
                                        if busy is not None else {})  # fmt: skip
    return CellRecord(provider, "sha256", "hash", size, 0, "ok", batch=batch, samples_ns=samples, checksum=SUM,
                      checksums_seen=[SUM], rounds=n, extra=extra)  # fmt: skip


def probe(spread):
    """Twelve readings whose p10-p90 range is about ±spread around 10 µs."""
    return {"readings": [[2.0 * i, 10_000 * (1 + spread * (i - 5.5) / 4.4)] for i in range(12)]}


def stored_run(store, slow_share, probe_spread=None, keygen=False, busy=None, cores=2, duet=False):
    env = {"cores": cores} | ({"probe": probe(probe_spread)} if probe_spread is not None else {})
    settings = {"baseline": "c:openssl"} | ({"duet": True} if duet else {})
    rid = store.create_run(RunRecord(None, "2026-11-26T10:00:00+00:00", "default", settings, env))
    for pid in ("c:openssl", "go:stdlib"):
        store.add_provider(rid, pid, {"library_version": "1"})
        for size in (1024, 16384):
            store.add_cell(rid, cell(pid, size, slow_share, busy=busy))
    if keygen:  # one operation per batch: varies by itself, so never counted
        store.add_cell(rid, cell("c:openssl", 0, slow_share=0.9, batch=1))
    store.finish_run(rid, "complete", "2026-11-26T10:01:00+00:00", {})
    return rid


@pytest.fixture
def store(tmp_path):
    return open_store(str(tmp_path / "n.db"))


def level_of(store, rid):
    run, _verifs, cells = store.load_run(rid)
    return noise_level.measure(run, cells)


@pytest.mark.parametrize(
    "slow_share,probe_spread,level",
    [(0.0, 0.005, "quiet"), (0.05, 0.02, "quiet"), (0.075, 0.005, "moderate"), (0.0, 0.05, "moderate"),
     (0.125, 0.005, "noisy"), (0.4, 0.005, "noisy"), (0.0, 0.3, "noisy"), (0.0, None, "quiet"), (0.3, None, "noisy")],
)  # fmt: skip
def test_the_level_is_the_worse_of_disturbed_batches_and_the_probe(store, slow_share, probe_spread, level):
    n = level_of(store, stored_run(store, slow_share, probe_spread))
    assert n.level == level
    assert n.batches == 4 * 40 and n.disturbed == pytest.approx(slow_share, abs=0.01)
    if probe_spread is None:
        assert n.probe_spread is None and "too few for a spread" in n.text()
    else:
        assert n.probe_spread == pytest.approx(probe_spread, rel=0.05) and n.probe_readings == 12


@pytest.mark.parametrize(
    "busy,cores,duet,other,free,level",
    [(1.02, 2, False, 0.02, 1, "quiet"), (1.2, 2, False, 0.2, 1, "moderate"), (1.6, 2, False, 0.6, 1, "noisy"),
     (1.6, 4, False, 0.6, 3, "moderate"), (2.05, 4, True, 0.05, 2, "quiet"), (0.9, 2, False, 0.0, 1, "quiet")],
)  # fmt: skip
def test_other_work_is_the_cores_busy_beside_the_runs_own_drivers(store, busy, cores, duet, other, free, level):
    """A co-tenant shows as cores busy with other work, out of those the run's timing drivers left free
    (--duet times two at once); the batches and the probe are quiet here, so it alone sets the level."""
    n = level_of(store, stored_run(store, 0.0, 0.005, busy=busy, cores=cores, duet=duet))
    assert (n.other_cores, n.free_cores, n.level) == (pytest.approx(other), free, level)
    assert f"other work on {other:.2f} of {free} free core" in n.text()
    assert n.record()["other_cores"] == pytest.approx(other) and n.record()["free_cores"] == free


def test_batches_of_one_operation_are_not_judged(store):
    """RSA key generation's prime search makes its batches differ by themselves: not the machine."""
    n = level_of(store, stored_run(store, 0.0, 0.005, keygen=True))
    assert n.level == "quiet" and n.batches == 4 * 40


def test_a_run_that_timed_nothing_has_no_level_and_no_header_line(store):
    """Instruction counts alone, or every cell failed: no level to show; too little to judge by: unknown."""
    rid = store.create_run(RunRecord(None, "t", "default", {}, {}))
    store.add_cell(rid, CellRecord("c:openssl", "sha256", "hash", 64, 0, "not-offered", reason="not offered"))
    assert level_of(store, rid) is None
    rep = build_report(*store.load_run(rid))
    assert "Noise level" not in markdown.render(rep) and json.loads(json_report.render(rep))["noise_level"] is None
    rid = store.create_run(RunRecord(None, "t", "default", {}, {"probe": {"readings": [[0, 9000], [2, 9100]]}}))
    store.add_cell(rid, cell("c:openssl", 1024, n=3))  # too few batches, and too few readings: unknown
    n = level_of(store, rid)
    assert n.level == "unknown" and n.disturbed is None and "no cell with enough batches" in n.text()
    rid = store.create_run(RunRecord(None, "t", "default", {}, {"probe": probe(0.005)}))
    assert level_of(store, rid).level == "quiet"  # the probe alone still judges


def test_every_report_header_shows_the_runs_noise_level(store):
    rep = build_report(*store.load_run(stored_run(store, 0.4, 0.3)))
    line = "noisy · 40% of 160 batches disturbed (≥25% over their cell's fastest tenth) · host probe ±30.0%"
    head = terminal.render(rep, width=300).splitlines()[:3]
    assert any(line in h for h in head), head
    assert any(line in h for h in markdown.render(rep).splitlines()[:8])
    page = html.render(rep)
    assert page.index("noise level noisy · 40% of 160 batches") < page.index("</header>")
    doc = json.loads(json_report.render(rep))
    assert doc["noise_level"] == {"level": "noisy", "other_cores": None, "free_cores": 1, "disturbed_share": 0.4,
                                  "batches": 160, "slow_factor": 1.25, "probe_spread": pytest.approx(0.3, rel=0.05),
                                  "probe_readings": 12}  # fmt: skip


def test_compare_shows_both_runs_levels_and_cautions_when_they_differ(store):
    quiet, noisy = stored_run(store, 0.0, 0.005), stored_run(store, 0.4, 0.3)
    comp = compare_runs(store.load_run(quiet)[::2], store.load_run(noisy)[::2], 0.02)
    for text in (compare_terminal.render(comp, width=400), compare_markdown.render(comp)):
        assert f"Noise level of run {quiet}: quiet · 0% of 160 batches" in text
        assert f"Noise level of run {noisy}: noisy · 40% of 160 batches" in text
        assert f"measured in different conditions (run {quiet} quiet, run {noisy} noisy)" in text
    doc = compare_json.to_dict(comp)
    assert [(n["run"], n["level"]) for n in doc["noise_levels"]] == [(quiet, "quiet"), (noisy, "noisy")]
    same = compare_runs(store.load_run(quiet)[::2], store.load_run(quiet)[::2], 0.02)
    assert "different conditions" not in compare_markdown.render(same)
