"""The command line as a user meets it: one-line errors, exit codes, Ctrl-C."""

import json
import re
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from conftest import REPO, like_a_foreground_job, run_cli


def assert_one_line_error(res, needle):
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("cryptobench: error: ") and needle in lines[0], lines[0]


@pytest.mark.parametrize(
    "args,needle",
    [
        (["run", "--alg", "sha257"], "unknown algorithm 'sha257'"),
        (["run", "--provider", "cobol:*"], "unknown provider 'cobol:*'"),
        (["run", "--size", "12XB"], "bad size '12XB'"),
        (["run", "--suite", "nosuch"], "unknown suite 'nosuch'"),
        (["run", "--baseline", "nope:x"], "unknown provider 'nope:x'"),
        (["run", "--vectors", "/no/such/dir"], "vector directory"),
        (["run", "--alg", "sha256", "--size", "1KiB", "--db", "/no/such/dir/x.db"], "cannot open database"),
        (["show", "latest", "--db", "postgresql://nobody@127.0.0.1:1/x"], "cannot open database"),
        (["build", "cobol"], "unknown driver 'cobol'"),
        (["list", "providers", "--provider", "cobol:*"], "--provider 'cobol:*' matches no provider"),
        (["run", "--timeout", "nan"], "--timeout must be a number in (0, 86400] seconds, not nan"),
        (["run", "--timeout", "0"], "--timeout must be a number"),
        (["run", "--timeout", "-1"], "--timeout must be a number"),
        (["run", "--time-per-cell", "inf"], "--time-per-cell must be a number"),
        (["run", "--noise", "nan"], "--noise must be a percentage"),
        (["run", "--passes", "0"], "--passes must be at least 1"),
        (["run", "--size", ""], "--size '' names nothing"),
        (["run", "--alg", ","], "--alg ',' names nothing"),
        (["run", "--suite", "/tmp"], "is a directory"),
        (["run", "--alg", "sha256", "--json", "/no/such/dir/r.json"], "--json /no/such/dir/r.json: directory"),
        (["run", "--alg", "sha256", "--md", "/tmp"], "--md /tmp: is a directory"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(args, needle, tmp_path):
    assert_one_line_error(run_cli(*args, cwd=tmp_path), needle)


def test_malformed_suite_file_names_its_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\nsizes = ["1KiB"]\n[[group]]\nalgs = ["sha256",\n')
    res = run_cli("run", "--suite", bad, cwd=tmp_path)
    assert_one_line_error(res, "malformed suite")
    assert "line" in res.stderr


def test_every_command_help_has_an_example():
    for cmd in ["run", "list", "doctor", "show", "runs", "build"]:
        res = run_cli(cmd, "--help")
        assert res.returncode == 0
        assert "example" in res.stdout and "cryptobench " + cmd in res.stdout, cmd


@pytest.mark.timing  # "slower": test:slow-sha against test:good
def test_run_with_fake_providers_writes_every_format(slow_sha_run):
    tmp_path, res = slow_sha_run  # conftest: one run, also read by test_compare
    db = tmp_path / "x.db"
    assert "sha256 — hash" in res.stdout and "slower" in res.stdout
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["schema"] == "cryptobench-result" and len(doc["cells"]) == 4
    assert (tmp_path / "r.csv").read_text().count("\n") == 5
    assert "## sha256 — hash" in (tmp_path / "r.md").read_text()
    runs = run_cli("runs", "--db", db)
    assert runs.returncode == 0 and "complete" in runs.stdout
    shown = run_cli("show", "latest", "--db", db, "--format", "md")
    assert shown.returncode == 0 and "## sha256 — hash" in shown.stdout


def start_long_run(tmp_path, providers_file, db, providers, sizes):
    """A run of slow cells, returned once it is measuring (verification done, a few rounds in)."""
    suite = tmp_path / "long.toml"
    suite.write_text(f'name = "long"\nbaseline = "test:slow-bench"\nsizes = {json.dumps(sizes)}\n'
                     'time_per_cell = 0.5\n[[group]]\nalgs = ["sha256"]\n')  # fmt: skip
    proc = subprocess.Popen(
        [sys.executable, "-m", "cryptobench", "run", "--suite", str(suite), "--providers-file", str(providers_file),
         "--provider", providers, "--db", str(db), "--quiet"],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=like_a_foreground_job,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        time.sleep(0.2)
        try:
            if sqlite3.connect(str(db)).execute("SELECT COUNT(*) FROM verifications").fetchone()[0] >= len(
                providers.split(",")
            ):
                break
        except sqlite3.Error:
            pass
    time.sleep(1.5)  # a few rounds of 0.3 s each
    return proc


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_keeps_measured_cells_and_exits_130(tmp_path, providers_file, sig):
    db = tmp_path / "i.db"
    proc = start_long_run(
        tmp_path, providers_file, db, "test:slow-bench", ["64", "128", "256", "512", "1KiB", "2KiB", "4KiB"]
    )
    proc.send_signal(sig)  # Ctrl-C, or `kill` / `timeout` / a cancelled CI job
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in err and "interrupted" in err
    con = sqlite3.connect(str(db))
    assert con.execute("SELECT status FROM runs").fetchone()[0] == "interrupted"
    rows = con.execute("SELECT samples_ns, extra FROM cells WHERE status='ok'").fetchall()
    # every cell that had samples when Ctrl-C came was kept, marked interrupted, not all cells were reached
    assert 1 <= len(rows) < 7
    assert all(json.loads(samples) and json.loads(extra).get("interrupted") for samples, extra in rows)


def test_runs_tells_a_run_still_going_from_one_whose_process_died(tmp_path):
    import platform

    from cryptobench.store import RunRecord, open_store

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    store = open_store(str(tmp_path / "r.db"))
    for label, pid in (("gone", dead.pid), ("alive", 1)):
        env = {"hostname": platform.node(), "pid": pid}
        store.create_run(RunRecord(None, "2026-01-01T00:00:00+00:00", "default", {}, env, label=label))
    store.close()
    lines = run_cli("runs", "--db", tmp_path / "r.db").stdout.splitlines()
    assert " abandoned " in next(line for line in lines if "[gone]" in line)
    assert " running " in next(line for line in lines if "[alive]" in line)


def test_a_non_utf8_suite_is_one_line(tmp_path):
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(b'name = "x"\n# caf\xe9\n[[group]]\nalgs = ["sha256"]\n')
    assert_one_line_error(run_cli("run", "--suite", bad, cwd=tmp_path), "latin1.toml:2: malformed suite: not UTF-8")


def test_an_unwritable_report_path_is_refused_before_anything_is_measured(tmp_path, providers_file, sha_suite):
    res = run_cli("run", "--suite", sha_suite, "--providers-file", providers_file, "--provider", "test:good",
                  "--db", tmp_path / "x.db", "--html", tmp_path / "nodir" / "r.html")  # fmt: skip
    assert_one_line_error(res, "--html")
    assert not (tmp_path / "x.db").exists()  # refused before the run, not after it


def test_a_providers_file_provider_named_on_the_default_suite_is_measured(tmp_path, providers_file):
    # the default suite lists its providers in every group; a provider of one's own was dropped from all
    res = run_cli("run", "--providers-file", providers_file, "--provider", "test:good", "--alg", "sha256",
                  "--size", "1KiB", "--size", "64", "--db", tmp_path / "d.db", "--json", tmp_path / "d.json",
                  "--time-per-cell", "0.1", "--passes", "1", "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    cells = json.loads((tmp_path / "d.json").read_text())["cells"]
    assert sorted((c["provider"], c["size"], c["status"]) for c in cells) == [
        ("test:good", 64, "ok"),
        ("test:good", 1024, "ok"),
    ]


def test_repeated_flags_add_up_and_a_cell_beyond_the_suite_is_measured(tmp_path, providers_file, sha_suite):
    res = run_cli("run", "--suite", sha_suite, "--providers-file", providers_file, "--provider", "test:good",
                  "--provider", "test:slow-sha", "--alg", "sha256", "--alg", "noop", "--size", "4KiB",
                  "--db", tmp_path / "r.db", "--json", tmp_path / "r.json", "--time-per-cell", "0.1",
                  "--passes", "1", "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    cells = json.loads((tmp_path / "r.json").read_text())["cells"]
    got = {(c["provider"], c["alg"], c["size"]) for c in cells}
    # sha256 at 4 KiB (a size the suite does not list) and noop (an algorithm it does not list), both providers
    assert got == {(p, "sha256", 4096) for p in ("test:good", "test:slow-sha")} | {
        (p, "noop", 0) for p in ("test:good", "test:slow-sha")
    }


def test_a_provider_that_cannot_start_is_named_in_one_line_and_the_others_are_measured(tmp_path, sha_suite):
    pf = tmp_path / "p.toml"
    pf.write_text(
        f'[[provider]]\nid = "test:good"\ncommand = ["{sys.executable}", "{REPO}/tests/fake_driver.py"]\n'
        '[[provider]]\nid = "test:missing"\ncommand = ["/no/such/driver"]\n'
    )
    res = run_cli("run", "--suite", sha_suite, "--providers-file", pf, "--provider", "test:good,test:missing",
                  "--db", tmp_path / "m.db", "--time-per-cell", "0.1", "--passes", "1", "--quiet")  # fmt: skip
    assert res.returncode == 1, res.stderr  # named, and it could not run: the run failed on it
    notice = "cryptobench: test:missing: command '/no/such/driver' not found; measuring the others"
    assert notice in res.stderr.splitlines()
    assert "test:good" in res.stdout and "Traceback" not in res.stderr
    assert res.stderr.splitlines()[-1].startswith("cryptobench: 2 cells failed (test:missing sha256 hash 1 KiB, ")
    # matched by a pattern only, a provider that cannot start is what the notice says: the others are measured
    res = run_cli("run", "--suite", sha_suite, "--providers-file", pf, "--provider", "test:good,test:miss*",
                  "--db", tmp_path / "m.db", "--time-per-cell", "0.1", "--passes", "1", "--quiet")  # fmt: skip
    assert res.returncode == 0 and notice in res.stderr.splitlines(), res.stderr


def test_a_run_with_a_failed_provider_exits_1_and_its_last_line_names_the_cells(tmp_path, providers_file, sha_suite):
    res = run_cli("run", "--suite", sha_suite, "--providers-file", providers_file, "--provider",
                  "test:good,test:wrong-vectors", "--db", tmp_path / "f.db", "--time-per-cell", "0.1",
                  "--passes", "1", "--quiet")  # fmt: skip
    assert res.returncode == 1, res.stderr
    lines = res.stderr.splitlines()
    assert lines[-2] == f"run 1 stored in sqlite:///{tmp_path / 'f.db'}"  # what was measured is kept
    assert lines[-1] == ("cryptobench: 2 cells failed (test:wrong-vectors sha256 hash 1 KiB, "
                         "test:wrong-vectors sha256 hash 16 KiB): exit 1")  # fmt: skip
    assert "test:good" in res.stdout and "Traceback" not in res.stderr


def test_every_command_documents_its_exit_status_beside_an_example():
    import argparse

    from cryptobench.cli import build_parser as _parser

    commands = next(a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert len(commands) >= 20
    for name, parser in commands.items():
        text = parser.format_help()
        assert re.search(r"^exit status: 0 ", text, re.M), name
        assert re.search(rf"^  cryptobench {name}\b", text, re.M), name
        status = text[text.index("exit status:") :]
        assert "2 " in status and ("130" in status or name in NEVER_INTERRUPTED), (name, status)
    assert "exit status" in run_cli("run", "--help").stdout  # as a user sees it


NEVER_INTERRUPTED = {"list", "doctor", "show", "runs", "reference", "submit", "jobs", "history", "fleet"}


def test_escape_sequences_from_a_drivers_hello_reach_no_terminal(tmp_path, sha_suite):
    pf = tmp_path / "p.toml"
    pf.write_text(f'[[provider]]\nid = "test:ansi"\ncommand = ["{sys.executable}", "{REPO}/tests/fake_driver.py", '
                  '"--mode", "ansi-hello"]\n')  # fmt: skip
    # one provider listed: `list` starts the driver of each provider it lists (every built one without --provider)
    listed = run_cli("list", "providers", "--providers-file", pf, "--provider", "test:*")
    ran = run_cli("run", "--suite", sha_suite, "--providers-file", pf, "--provider", "test:ansi", "--size", "1KiB",
                  "--db", tmp_path / "e.db", "--time-per-cell", "0.1", "--passes", "1")  # fmt: skip
    for res in (listed, ran):
        assert res.returncode == 0, res.stderr
        out = res.stdout + res.stderr
        assert not [c for c in ("\x1b", "\x07", "\x9b") if c in out], out
    assert listed.stdout.startswith("test:ansi\n") and "c:openssl" not in listed.stdout, listed.stdout[:200]
    mine = listed.stdout[listed.stdout.index("test:ansi\n") :]
    assert "offers:   sha256 (hash), sha\\x1b[2J256 (hash)" in mine
    assert "library: \\x1b]0;pwned\\x07" in mine and "runtime:  \\x9b2Jpy" in mine


def test_three_quick_ctrl_c_keep_the_cells_and_end_the_run(tmp_path, providers_file):
    db = tmp_path / "q.db"
    proc = start_long_run(
        tmp_path, providers_file, db, "test:slow-bench,test:good", ["64", "128", "256", "512", "1KiB"]
    )
    for _ in range(3):  # an impatient person: the second and third must not cut the saving short
        proc.send_signal(signal.SIGINT)
        time.sleep(0.005)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err[-3000:]
    assert "Traceback" not in err
    con = sqlite3.connect(str(db))
    assert con.execute("SELECT status FROM runs").fetchone()[0] == "interrupted"
    assert con.execute("SELECT COUNT(*) FROM cells WHERE status='ok'").fetchone()[0] >= 1
