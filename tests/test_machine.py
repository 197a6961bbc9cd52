"""Machine identity: every run records a stable machine id and a human label, shown by `runs` and
every report (issue 15, item 2)."""

import json
import re

from conftest import run_cli

from cryptobench.core import environment


def _run(tmp_path, *extra):
    out = tmp_path / "r.json"
    res = run_cli("run", "--provider", "c:openssl", "--alg", "sha256", "--size", "64", "--db", tmp_path / "r.db",
                  "--time-per-cell", "0.05", "--passes", "1", "--json", out, "--quiet", *extra)  # fmt: skip
    assert res.returncode == 0, res.stderr
    return json.loads(out.read_text())["environment"]


def test_runs_record_a_stable_machine_id_and_the_label_given(tmp_path):
    first = _run(tmp_path, "--machine-label", "bench box")
    second = _run(tmp_path)
    assert re.fullmatch(r"[0-9a-f]{16}", first["machine_id"]) and first["machine_id"] == second["machine_id"]
    assert first["machine_id"] == environment.machine_id()
    assert first["machine_label"] == "bench box" and second["machine_label"] == second["hostname"]
    assert first["memory_kb"] > 0
    runs = run_cli("runs", "--db", tmp_path / "r.db").stdout.splitlines()
    assert "machine" in runs[0] and "bench box" in runs[1] and second["hostname"][:15] in runs[2], runs
    md = tmp_path / "r.md"
    assert run_cli("show", "1", "--db", tmp_path / "r.db", "--md", md).returncode == 0
    assert f"- **Machine** bench box · id {first['machine_id']} · " in md.read_text()


def test_a_machine_label_that_is_not_printable_is_refused_in_one_line(tmp_path):
    res = run_cli("run", "--alg", "sha256", "--machine-label", "a\x1b[31mb", "--db", tmp_path / "r.db")
    assert res.returncode == 2 and res.stderr.strip().splitlines() == [
        "cryptobench: error: --machine-label: at most 80 printable characters, e.g. 'pi5, 2.4 GHz'"
    ], res.stderr


def test_a_run_stored_before_machine_ids_shows_its_hostname(tmp_path):
    from cryptobench.report.markup import machine_line

    assert machine_line({"hostname": "old-host"}) == "old-host"
    assert (
        machine_line({"machine_label": "x", "machine_id": "ab", "memory_kb": 1048576}) == "x · id ab · 1.0 GiB memory"
    )
