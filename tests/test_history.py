"""history: a cell's series over runs, change points by ruptures, verdicts, every format (both stores)."""

import json
import random

from conftest import run_cli

from cryptobench.store import CellRecord, RunRecord, open_store


def _series(store, medians: list[float], machine: str = "m1", provider: str = "c:openssl", seed: int = 7) -> None:
    rng = random.Random(seed)
    for i, m in enumerate(medians):
        env = {"machine_label": machine, "git_commit": f"c{i:03d}"}
        rid = store.create_run(RunRecord(None, f"2026-01-{i + 1:02d}T00:00:00+00:00", "default", {"noise": 0.02}, env))
        store.add_provider(rid, provider, {"library_version": "OpenSSL 3.0.19" if i < 6 else "OpenSSL 3.6.3"})
        samples = [round(m * 100 * (1 + rng.gauss(0, 0.01))) for _ in range(40)]
        store.add_cell(rid, CellRecord(provider, "aes-128-gcm", "seal", 16384, 0, "ok", batch=100,
                                       samples_ns=samples, rounds=4, extra={"round_sizes": [10] * 4}))  # fmt: skip
        store.finish_run(rid, "complete", "x")


def test_a_step_is_found_with_its_verdict_and_a_flat_series_is_not(store_url, tmp_path):
    store = open_store(store_url)
    _series(store, [3000 * (1 + 0.005 * ((i % 3) - 1)) for i in range(6)] + [6000, 6030, 5980, 6010, 5990])
    _series(store, [3000 * (1 + 0.005 * ((i % 3) - 1)) for i in range(11)], machine="flat", seed=3)
    r = run_cli("history", "--db", store_url, "--alg", "aes-128-gcm", "--provider", "c:openssl", "--format", "json",
                "--html", tmp_path / "h.html", "--md", tmp_path / "h.md")  # fmt: skip
    assert r.returncode == 0, r.stderr
    doc = {s["machine"]: s for s in json.loads(r.stdout)["series"]}
    [change] = doc["m1"]["changes"]
    assert change["index"] == 6 and change["verdict"] == "slower" and 1.9 < change["time_ratio"] < 2.1
    assert doc["m1"]["points"][6]["library_version"] == "OpenSSL 3.6.3" and doc["m1"]["points"][0]["commit"] == "c000"
    assert doc["flat"]["changes"] == []
    assert "slower" in (tmp_path / "h.md").read_text() and 'id="history-1"' in (tmp_path / "h.html").read_text()
    # --fail-on-change: exit 1 with the change in one line; --machine narrows to the flat series: exit 0
    r = run_cli("history", "--db", store_url, "--alg", "aes-128-gcm", "--fail-on-change")
    assert r.returncode == 1 and "+100" in r.stderr.replace("+99", "+100") and "slower" in r.stderr, r.stderr
    r = run_cli("history", "--db", store_url, "--alg", "aes-128-gcm", "--machine", "flat", "--fail-on-change")
    assert r.returncode == 0 and "no change point found" in r.stdout, r.stdout


def test_too_few_runs_and_nothing_found_are_said(tmp_path):
    db = str(tmp_path / "h.db")
    _series(open_store(db), [3000, 3100])
    r = run_cli("history", "--db", db, "--alg", "aes-128-gcm")
    assert r.returncode == 0 and "at least 4 are needed" in r.stdout, r.stdout
    r = run_cli("history", "--db", db, "--alg", "sha256")
    assert r.returncode == 2 and "no measured sha256 cell" in r.stderr, r.stderr
    r = run_cli("history", "--db", db, "--alg", "aes-128-gcm", "--size", "12 apples")
    assert r.returncode == 2 and "bad size" in r.stderr, r.stderr
