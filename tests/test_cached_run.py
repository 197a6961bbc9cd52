"""scripts/cached-run: `make test` skips a native suite or linter only when it passed on exactly these inputs."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "cached-run"


@pytest.fixture
def suite(tmp_path):
    """A suite whose command counts its runs in a file and fails while `fail` exists."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.c").write_text("int a;\n")
    runs = tmp_path / "runs"
    cmd = f"echo run >> {runs}; test ! -e {tmp_path / 'fail'}"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("FORCE", None)
    env.pop("MAKEFLAGS", None)

    def run(*extra, tool="echo toolchain 1", **more_env):
        args = [sys.executable, SCRIPT, "demo", "--in", src, "--tool", tool, *extra, "--", "sh", "-c", cmd]
        return subprocess.run(args, env={**env, **more_env}, capture_output=True, text=True, timeout=60)

    def count():
        return len(runs.read_text().splitlines()) if runs.exists() else 0

    return run, count, src, tmp_path


def test_a_green_suite_is_skipped_until_a_source_or_tool_changes(suite):
    run, count, src, _ = suite
    assert run().returncode == 0 and count() == 1
    again = run()
    assert again.returncode == 0 and count() == 1
    assert "demo: unchanged since its green run" in again.stdout and "FORCE=1" in again.stdout
    (src / "a.c").write_text("int a = 1;\n")  # an edit
    assert run().returncode == 0 and count() == 2
    (src / "new.h").write_text("")  # a new file
    assert run().returncode == 0 and count() == 3
    assert run(tool="echo toolchain 2").returncode == 0 and count() == 4  # a compiler upgrade
    (src / "a.c").write_text("int a;\n")  # back to the first sources: their green run is remembered
    (src / "new.h").unlink()
    assert run().returncode == 0 and count() == 4


def test_a_failing_suite_fails_every_time_and_force_runs_a_green_one(suite):
    run, count, _, tmp = suite
    (tmp / "fail").touch()
    assert run().returncode != 0 and run().returncode != 0 and count() == 2  # never recorded
    (tmp / "fail").unlink()
    assert run().returncode == 0 and count() == 3
    assert run(FORCE="1").returncode == 0 and count() == 4
    assert run(CRYPTOBENCH_FORCE_TESTS="1").returncode == 0 and count() == 5
    assert run(FORCE="0").returncode == 0 and count() == 5


def test_make_dry_run_is_not_a_green_run(suite):
    run, count, _, _ = suite
    assert run(MAKEFLAGS="n --no-print-directory").returncode == 0 and count() == 1
    assert run(MAKEFLAGS=" -j3 --jobserver-auth=fifo:/tmp/x").returncode == 0 and count() == 2  # a real run
    assert run().returncode == 0 and count() == 2


def test_usage_errors_are_one_line(suite):
    r = subprocess.run([sys.executable, SCRIPT, "demo", "--in"], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0 and r.stderr.count("\n") == 1 and "usage" in r.stderr
    r = subprocess.run([sys.executable, SCRIPT, "demo", "--bogus", "x", "--", "true"], capture_output=True, text=True)
    assert r.returncode != 0 and "unknown option --bogus" in r.stderr and "Traceback" not in r.stderr


def test_a_build_is_recorded_with_what_it_made_and_runs_again_when_that_is_gone(tmp_path):
    """--out (scripts/setup.sh's driver builds): the built files are part of the key, taken after the run."""
    out, runs = tmp_path / "cbdriver", tmp_path / "runs"
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE", "MAKEFLAGS")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    args = [sys.executable, SCRIPT, "build", "--out", f"ls {out}", "--", "sh", "-c", f"echo >> {runs}; touch {out}"]

    def build():
        assert subprocess.run(args, env=env, capture_output=True, timeout=60).returncode == 0
        return len(runs.read_text().splitlines())

    assert build() == 1  # the first build made the file: recorded with it
    assert build() == 1
    out.unlink()  # someone removed the built driver
    assert build() == 2 and out.exists()
    assert build() == 2
