"""Published figures: stored with source and machine, shown labelled, no ratio unless normalised."""

import json

from conftest import run_cli

REF = """
source = "Example et al. 2025, Table 4"
machine = "Raspberry Pi 5 (Cortex-A76, 2.4 GHz)"

[[figure]]
alg = "sha256"
op = "hash"
ops_per_s = 23168

[[figure]]
alg = "ml-kem-512"
op = "keygen"
ops_per_s = 3807
"""


def test_reference_rows_are_labelled_and_never_mixed_into_ratios(tmp_path, providers_file, sha_suite):
    db = tmp_path / "r.db"
    ref = tmp_path / "ref.toml"
    ref.write_text(REF)
    res = run_cli("reference", "add", ref, "--db", db)
    assert res.returncode == 0 and "added 2 reference figures" in res.stdout, res.stderr
    assert "Raspberry Pi 5" in run_cli("reference", "list", "--db", db).stdout
    res = run_cli("run", "--suite", sha_suite, "--providers-file", providers_file, "--provider", "test:good",
                  "--db", db, "--time-per-cell", "0.1", "--quiet", "--md", tmp_path / "r.md")  # fmt: skip
    assert res.returncode == 0, res.stderr
    md = (tmp_path / "r.md").read_text()
    assert "## References (measured elsewhere)" in md
    assert "reference, measured elsewhere on Raspberry Pi 5 (Cortex-A76, 2.4 GHz)" in md
    assert "no ratio is drawn between machines" in md and "here / there" not in md
    assert "ml-kem-512" not in md.split("## References")[1].split("##")[0]  # not measured in this run: not shown
    shown = run_cli("show", "latest", "--db", db, "--format", "md", "--normalise", "0.5:slower clock there")
    assert "here / there x 0.5" in shown.stdout and "slower clock there" in shown.stdout
    doc = json.loads(run_cli("show", "latest", "--db", db, "--format", "json").stdout)
    assert doc["references"][0]["label"].startswith("reference, measured elsewhere on")


def test_bad_reference_files_are_one_line_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('source = "x"\n[[figure]]\nalg = "sha256"\nop = "hash"\nops_per_s = 5\n')
    res = run_cli("reference", "add", bad, "--db", tmp_path / "r.db")
    assert res.returncode == 2 and "needs machine" in res.stderr and "Traceback" not in res.stderr
    bad.write_text('source = "x"\nmachine = "y"\n[[figure]]\nalg = "sha999"\nop = "hash"\nops_per_s = 5\n')
    res = run_cli("reference", "add", bad, "--db", tmp_path / "r.db")
    assert res.returncode == 2 and "unknown algorithm 'sha999'" in res.stderr
    res = run_cli("show", "--normalise", "x", "--db", tmp_path / "r.db")
    assert res.returncode == 2
