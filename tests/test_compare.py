"""compare: run against run, provider against provider, and --fail-on-regression both ways."""

import json
import sys

import pytest
from conftest import FAKE, run_cli, write_sha_suite

pytestmark = pytest.mark.timing  # speeds of runs measured at different times


def providers_file(tmp_path, name, mode):
    p = tmp_path / f"{name}.toml"
    p.write_text(f'[[provider]]\nid = "test:lib"\ncommand = ["{sys.executable}", "{FAKE}", "--mode", "{mode}"]\n')
    return p


@pytest.fixture(scope="module")
def three_runs(tmp_path_factory):
    """Runs 1 and 2 of a healthy library, run 3 of a release that got twice as slow (measured once for
    the module: the tests only read them)."""
    tmp_path = tmp_path_factory.mktemp("three_runs")
    sha_suite, db = write_sha_suite(tmp_path), tmp_path / "c.db"
    for mode in ("good", "good", "slow-sha"):
        res = run_cli(
            "run", "--suite", sha_suite, "--providers-file", providers_file(tmp_path, mode, mode),
            "--provider", "test:lib", "--baseline", "test:lib", "--db", db, "--time-per-cell", "0.3", "--quiet",
        )  # fmt: skip
        assert res.returncode == 0, res.stderr
    return db


def test_fail_on_regression_fires_on_a_real_regression(three_runs):
    res = run_cli("compare", "1", "3", "--db", three_runs, "--fail-on-regression", "25", "--format", "json")
    assert res.returncode == 1, res.stderr
    assert "regressed by more than 25%" in res.stderr
    doc = json.loads(res.stdout)
    assert doc["schema"] == "cryptobench-compare" and doc["summary"]["compared"] == 2
    assert all(p["verdict"] == "slower" and 30 < p["delta_percent"] < 250 for p in doc["pairs"]), doc["pairs"]


def test_fail_on_regression_stays_quiet_without_one(three_runs):
    res = run_cli("compare", "1", "2", "--db", three_runs, "--fail-on-regression", "50")
    assert res.returncode == 0, res.stderr
    # and a faster new release is not a regression either
    res = run_cli("compare", "3", "1", "--db", three_runs, "--fail-on-regression", "50", "--format", "json")
    assert res.returncode == 0, res.stderr
    assert all(p["verdict"] == "faster" for p in json.loads(res.stdout)["pairs"])


def test_markdown_version_report(three_runs, tmp_path):
    res = run_cli("compare", "1", "3", "--db", three_runs, "--md", tmp_path / "v.md")
    assert res.returncode == 0, res.stderr
    md = (tmp_path / "v.md").read_text()
    assert md.startswith("# run 1 vs run 3")
    assert (
        "## sha256 — hash" in md
        and "| provider | size | run 1 /op | run 3 /op | Δ time [95% CI] | verdict | faster |" in md
    )
    assert "| run 1 |" in md  # the faster side is named
    assert "## Only in run 1" in md


def test_providers_within_one_run(slow_sha_run):
    db = slow_sha_run[0] / "x.db"  # conftest: test:good and test:slow-sha measured once, also read by test_cli
    res = run_cli("compare", "--providers", "test:good,test:slow-sha", "--db", db, "--format", "md")
    assert res.returncode == 0, res.stderr
    assert "# test:good vs test:slow-sha" in res.stdout and "slower" in res.stdout
    bad = run_cli("compare", "--providers", "test:good,c:nothing", "--db", db)
    assert bad.returncode == 2 and "has no measured cell" in bad.stderr
    bad = run_cli("compare", "1", "--db", db)
    assert bad.returncode == 2 and "give two runs" in bad.stderr


def test_the_host_probe_tells_the_host_from_the_cells():
    from cryptobench.report import compare
    from cryptobench.store.model import RunRecord

    def run(i, readings, cpu="EPYC"):
        env = {"cpu_model": cpu, "probe": {"readings": [[t, ns] for t, ns in enumerate(readings)]}}
        return RunRecord(i, "2026-11-25T00:00:00+00:00", "default", {}, env)

    steady = [10_000 + (i % 3) for i in range(30)]
    same, why = compare.host_shift(run(1, steady), run(2, steady), 0.02)
    assert why == "" and not same.moved and same.problem == ""
    slower = [x * 1.05 for x in steady]
    moved, _ = compare.host_shift(run(1, steady), run(2, slower), 0.02)
    assert moved.moved and moved.verdict == "slower" and abs(moved.ratio.value - 1.05) < 1e-3 and not moved.problem
    far, _ = compare.host_shift(run(1, steady), run(2, [x * 1.3 for x in steady], cpu="Xeon"), 0.02)
    assert "the host itself was 30% slower" in far.problem and "different CPUs" in far.problem
    unsteady, _ = compare.host_shift(run(1, steady), run(2, [10_000, 20_000] * 15), 0.02)
    assert "unsteady during run 2" in unsteady.problem
    none, why = compare.host_shift(RunRecord(3, "", "default", {}, {}), run(2, steady), 0.02)
    assert none is None and "no host probe in run 3" in why
