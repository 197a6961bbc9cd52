"""Multi-core scaling (`--workers`): worker counts, and one real scaling run of c:openssl."""

import json
import subprocess
import sys

import pytest

from cryptobench.core.errors import UserError
from cryptobench.measure import scaling


def test_worker_counts_add_up_and_never_exceed_the_cores(monkeypatch):
    monkeypatch.setattr(scaling, "cores", lambda: [0, 1, 2])
    assert scaling.parse_workers(["2", "all"]) == [1, 2, 3]  # one worker is always the reference
    assert scaling.parse_workers(None) == []
    with pytest.raises(UserError, match="--workers 4: only 3 cores are available"):
        scaling.parse_workers("1,4")
    with pytest.raises(UserError, match="--workers 'two'"):
        scaling.parse_workers("two")


@pytest.mark.timing  # judges measured speeds (efficiency, two cores beat one): alone on the machine
def test_a_scaling_run_reports_aggregate_per_worker_and_efficiency(tmp_path):
    db = tmp_path / "s.db"
    out = subprocess.run(
        [sys.executable, "-m", "cryptobench", "run", "--db", str(db), "--provider", "c:openssl", "--alg", "sha256",
         "--size", "16KiB", "--time-per-cell", "0.1", "--workers", "1,all", "--quiet", "--json", str(tmp_path / "r.json")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    n = len(scaling.cores())
    if n < 2:
        assert "Multi-core scaling" not in out.stdout  # one core: nothing to scale to
        return
    assert "Multi-core scaling" in out.stdout
    (rec,) = json.loads((tmp_path / "r.json").read_text())["scaling"]  # result schema 13: beside environment
    assert rec["workers"] == n and rec["provider"] == "c:openssl" and rec["alg"] == "sha256"
    eff, agg, one = rec["efficiency"], rec["aggregate_ops_per_s"], rec["single_ops_per_s"]
    assert eff["ci95"][0] <= eff["median"] <= eff["ci95"][1] and 0.2 < eff["median"] < 1.5
    assert agg["median"] > one["median"]  # two cores do more than one, even on a shared host
