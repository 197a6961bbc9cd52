"""Cycles counted by the drivers (samples_tsc, protocol 5) and the clock check they allow (cycles.py)."""

import json

import pytest
from conftest import run_cli
from test_runner_faults import cells_by_provider, run_suite

from cryptobench.measure import cycles


@pytest.mark.timing  # each sample's ticks and ns: a loaded host (make test's other parts) skews them apart
def test_every_native_driver_counts_cycles_beside_its_clock(tmp_path):
    """The C, Go, Rust, Python, Java (JNI) and Node (Node-API addon) drivers read the TSC beside the
    clock: their cells keep the ticks and report counted cycles, which agree with time x the run's rate."""
    db = tmp_path / "c.db"
    res = run_cli("run", "--alg", "sha256", "--size", "16KiB", "--provider", "c:openssl,go:stdlib,rust:ring,python:hashlib,js:node,java:jca",
                  "--time-per-cell", "0.1", "--passes", "1", "--db", db, "--json", tmp_path / "r.json", timeout=300)  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    doc = json.loads((tmp_path / "r.json").read_text())
    if "hz" not in doc["environment"]["cycles"]:  # no invariant TSC on this machine: no cycles at all
        pytest.skip(doc["environment"]["cycles"]["unavailable"])
    hz = doc["environment"]["cycles"]["hz"]
    by = {c["provider"]: c for c in doc["cells"] if c["op"] == "hash"}
    counting = ("c:openssl", "go:stdlib", "rust:ring", "python:hashlib", "js:node", "java:jca")
    assert {p: c["stats"]["tsc_source"] for p, c in by.items()} == dict.fromkeys(counting, "counted")
    for p in counting:
        s = by[p]["stats"]
        converted = s["median_ns"] * hz / 1e9
        assert abs(s["tsc_cycles_per_op"] / converted - 1) < 0.03, (p, s["tsc_cycles_per_op"], converted)
        assert 0.2 < s["tsc_cycles_per_byte"] < 20, s  # SHA-256: ~1.5 c/B with SHA-NI, ~10 without
        assert len(by[p]["extra"]["tsc_ticks"]) == len(by[p]["samples_ns"])


def test_a_driver_whose_clock_and_counter_disagree_is_named(tmp_path, providers_file, sha_suite, monkeypatch):
    """A counter 30% ahead of the clock: the cycles are still shown, but a `clock-tsc` warning says one
    of the two is wrong; the driver that sends no ticks gets none."""
    monkeypatch.setenv("CB_FAKE_TSC_GHZ", "2.6")
    store, rid = run_suite(tmp_path, providers_file, sha_suite, ["test:good", "test:fast-clock"])
    run, _, cells = cells_by_provider(store, rid)
    hz = cycles.rate_of(run.env)
    if hz is None:  # no invariant TSC on this machine: no cycles, so nothing to disagree with
        pytest.skip(run.env["cycles"]["unavailable"])
    fast = cells["test:fast-clock"]
    assert [c.status for c in fast] == ["ok", "ok"]
    assert all(cycles.clock_disagreement(c, hz) > 0.2 for c in fast)
    assert all(cycles.clock_disagreement(c, hz) is None for c in cells["test:good"])
    out = run_cli("show", str(rid), "--db", tmp_path / "t.db", "--warnings").stdout
    lines = [x for x in out.splitlines() if "clock and its cycle counter disagree" in x]
    assert len(lines) == 2 and all("test:fast-clock" in x for x in lines), out
    assert "a driver's clock and cycle counter disagree (2):" in out, out  # grouped under its own heading
