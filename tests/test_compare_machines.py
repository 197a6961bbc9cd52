"""compare --machines: each machine's latest complete run, pairs (with per-cycle ratios) and the
machines × algorithms matrix in every format, on both store backends."""

import csv
import io
import json

from conftest import run_cli

from cryptobench.store import CellRecord, RunRecord, open_store


def _run(store, machine: str, hz: float, ns: int, status: str = "complete", suite: str = "default") -> None:
    env = {"machine_label": machine, "machine_id": machine[:4], "cpu_model": "cpu", "cores": 2,
           "machine_limits": {"max_hz": hz}}  # fmt: skip
    rid = store.create_run(RunRecord(None, "2026-01-01T00:00:00+00:00", suite, {"noise": 0.02}, env))
    for alg, size in (("sha256", 1024), ("ed25519", 0)):
        samples = [ns * 10 + (i % 3) for i in range(30)]
        store.add_cell(rid, CellRecord("c:openssl", alg, "hash" if size else "sign", size, 0, "ok", batch=10,
                                       samples_ns=samples, rounds=1))  # fmt: skip
    store.finish_run(rid, status, "2026-01-01T00:01:00+00:00")


def test_machines_pairs_and_matrix(store_url, tmp_path):
    store = open_store(store_url)
    _run(store, "fast", 4e9, 1000)
    _run(store, "slow", 2e9, 5000)  # an older run of slow ...
    _run(store, "slow", 2e9, 2000)  # ... and its latest: this one counts
    _run(store, "slow", 2e9, 9000, status="interrupted")  # never an unfinished run
    r = run_cli("compare", "--db", store_url, "--machines", "fast,slow", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["mode"] == "machines" and doc["clock_hz"] == {"fast": 4e9, "slow": 2e9}
    pair = next(p for p in doc["pairs"] if p["alg"] == "sha256")
    assert abs(pair["time_ratio"] - 2.0) < 0.01 and pair["verdict"] == "slower"
    assert abs(pair["time_ratio_per_cycle"] - 1.0) < 0.01  # twice the time at half the clock: same per cycle
    md = run_cli("compare", "--db", store_url, "--machines", "fast", "--machines", "slow", "--format", "md").stdout
    assert "Δ per cycle (nominal clock)" in md and "not counted core cycles" in md
    r = run_cli("compare", "--db", store_url, "--machines", "fast,slow", "--layout", "matrix", "--format", "csv",
                "--html", tmp_path / "m.html", "--md", tmp_path / "m.md", "--json", tmp_path / "m.json")  # fmt: skip
    assert r.returncode == 0, r.stderr
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    sha = {row["machine"]: float(row["rate"]) for row in rows if row["alg"] == "sha256"}
    assert abs(sha["fast"] / sha["slow"] - 2.0) < 0.02 and {row["unit"] for row in rows} == {"MB/s", "op/s"}
    assert "<table class='matrix'>" in (tmp_path / "m.html").read_text()
    assert "| slow | c:openssl |" in (tmp_path / "m.md").read_text()
    assert len(json.loads((tmp_path / "m.json").read_text())["cells"]) == 4
    term = run_cli("compare", "--db", store_url, "--machines", "fast,slow", "--layout", "matrix").stdout
    assert "machines × algorithms" in term and "MB/s" in term


def test_machines_errors_are_one_line(tmp_path):
    db = str(tmp_path / "x.db")
    _run(open_store(db), "fast", 4e9, 1000)
    for args, why in ((["--machines", "fast,nope"], "no complete run from machine 'nope' (machines: fast)"),
                      (["--machines", "fast"], "at least two machine labels"),
                      (["--machines", "fast,fast2", "--suite", "other"], "no complete run of suite 'other'"),
                      (["--layout", "matrix"], "go with --machines")):  # fmt: skip
        r = run_cli("compare", "--db", db, *args)
        assert r.returncode == 2 and why in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
