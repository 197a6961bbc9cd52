"""compare RUN_A RUN_B: each run's side at least as wide as the cell's run-to-run spread on that
machine, read from the store's other runs (analysis/between_runs.py)."""

import json
import math

from cryptobench.analysis import between_runs, stats
from cryptobench.report.compare import compare_runs
from cryptobench.store import open_store
from cryptobench.store.model import CellRecord, RunRecord


def test_spread_needs_three_runs_and_is_the_typical_step():
    assert between_runs.spread([100.0, 102.0]) is None  # one step tells nothing
    sd = between_runs.spread([100.0, 102.0, 100.0, 102.0])
    assert math.isclose(sd, 1.4826 * math.log(1.02) / math.sqrt(2), rel_tol=1e-9)
    # one real change among quiet runs does not make the spread
    assert between_runs.spread([100.0, 100.5, 100.0, 150.0, 150.5, 150.0]) < 0.01


def summary(median: float, half: float) -> stats.Summary:
    return stats.Summary(
        30, median, median, 0.0, median, median, median * (1 - half), median * (1 + half), median, median
    )


def test_a_floor_widens_both_sides_of_an_independent_ratio():
    a, b = summary(100.0, 0.002), summary(103.0, 0.002)  # two tight runs, 3% apart
    assert stats.verdict(stats.ratio(b, a)) == stats.SLOWER
    widened = stats.ratio(b, a, floor=0.02)  # the cell moves ±2% from run to run here
    assert stats.verdict(widened) == stats.UNCLEAR and widened.value == stats.ratio(b, a).value
    assert math.isclose(math.log(widened.high / widened.value), stats.Z95 * math.hypot(0.02, 0.02), rel_tol=1e-6)
    wide = summary(100.0, 0.2)  # a side wider than the floor keeps its own width
    assert stats.ratio(wide, wide, floor=0.02).high == stats.ratio(wide, wide).high


def _run(store, machine: str, ns: float, alg: str = "sha256") -> int:
    run = RunRecord(None, "2026-11-27T20:00:00", "t", {}, {"machine_label": machine}, status="complete")
    rid = store.create_run(run)
    samples = [int(ns * 1000 * (1 + 0.001 * (i % 3))) for i in range(12)]
    store.add_cell(rid, CellRecord("c:openssl", alg, "hash", 64, 0, "ok", batch=1000, samples_ns=samples))
    return rid


def test_compare_runs_takes_the_spread_from_the_other_runs_of_the_same_machine(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'h.db'}")
    history = [_run(store, "box", ns) for ns in (100.0, 104.0, 100.0, 104.0)]  # ±2% from run to run
    _run(store, "other", 100.0), _run(store, "other", 130.0), _run(store, "other", 100.0)  # another machine
    a, b = _run(store, "box", 100.0), _run(store, "box", 103.0)
    key = ("c:openssl", "sha256", "hash", 64, 0)
    spread = between_runs.of_cells(store, {a, b}, {key}, "box")
    assert set(spread) == {key} and math.isclose(
        spread[key], between_runs.spread([100.0, 104.0, 100.0, 104.0]), rel_tol=0.01
    )
    assert between_runs.of_cells(store, set(history), {key}, "box") == {}  # two runs left: too few
    ra, rb = (store.load_run(i) for i in (a, b))
    plain = compare_runs((ra[0], ra[2]), (rb[0], rb[2]), 0.02)
    widened = compare_runs((ra[0], ra[2]), (rb[0], rb[2]), 0.02, spread)
    assert plain.all_pairs()[0].verdict == stats.SLOWER  # each run alone is sure of itself
    assert widened.all_pairs()[0].verdict == stats.UNCLEAR and widened.history_widened == 1


def test_a_cells_spread_is_pulled_toward_its_providers_typical_one():
    raw = {("p", "a", "hash", 64, 0): (0.01, 3), ("p", "b", "hash", 64, 0): (0.01, 3), ("p", "c", "hash", 64, 0): (0.10, 3),
           ("q", "a", "hash", 64, 0): (0.05, 3)}  # fmt: skip
    out = between_runs.shrunk(raw)
    assert math.isclose(out[("p", "a", "hash", 64, 0)], 0.01)  # at its provider's median already
    assert math.isclose(out[("p", "c", "hash", 64, 0)], math.sqrt((3 * 0.10**2 + 6 * 0.01**2) / 9))  # pulled in
    assert math.isclose(out[("q", "a", "hash", 64, 0)], 0.05)  # another provider: its own pool


def test_the_report_says_whether_history_was_looked_for(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'h.db'}")
    a, b = _run(store, "box", 100.0), _run(store, "box", 101.0)
    ra, rb = (store.load_run(i) for i in (a, b))
    assert compare_runs((ra[0], ra[2]), (rb[0], rb[2]), 0.02).history_widened is None  # the site: not looked for
    assert compare_runs((ra[0], ra[2]), (rb[0], rb[2]), 0.02, {}).history_widened == 0  # looked, none found


def test_compare_on_the_command_line_widens_and_says_so(tmp_path):
    from conftest import run_cli

    db = tmp_path / "h.db"
    store = open_store(f"sqlite:///{db}")
    for ns in (100.0, 104.0, 100.0, 104.0, 100.0, 103.0):
        _run(store, "box", ns)
    res = run_cli("compare", "5", "6", "--db", db)
    assert res.returncode == 0, res.stderr
    text = " ".join(res.stdout.split())
    assert "1 of 1 cells have at least 3 other runs on this machine" in text and "unclear" in text
    res = run_cli("compare", "5", "6", "--db", db, "--format", "json")
    assert [p["verdict"] for p in json.loads(res.stdout)["pairs"]] == ["unclear"]  # 3% apart, ±2% a run here
