"""Progress on stderr: the time left it claims, and that a driver's strings cannot drive the terminal."""

import io
import re

from conftest import run_cli

from cryptobench.core.cell import CellSpec
from cryptobench.run.progress import LineProgress, TerminalProgress, left_text, seconds_left

SPEC = CellSpec("sha256", "hash", 1024, 0, ("c:openssl",))


def test_the_time_left_is_never_more_than_the_budget_left(monkeypatch):
    # a run of 3 passes over 3 cells with a 9 s budget: the first pass is slow (each cell's first
    # measurement), the later passes skip cells already tight; the old rate said "about 20 s left"
    now = [0.0]
    monkeypatch.setattr("cryptobench.run.progress.time.monotonic", lambda: now[0])
    out = io.StringIO()
    p = LineProgress(out)
    p.start(9, 9.0, 3)
    steps = [(0.0, 0), (2.5, 1), (5.0, 2), (7.5, 3), (7.6, 5), (7.7, 6), (8.9, 8)]
    for t, index in steps:
        now[0] = t
        p.cell(index, SPEC, "c:openssl")
    lines = out.getvalue().splitlines()
    assert len(lines) == len(steps)
    for (t, _), line in zip(steps, lines, strict=True):
        said = re.search(r"about (\d+) s left|less than 1 s of measuring left", line)
        assert said, line
        left = int(said.group(1)) if said.group(1) else 0
        assert left <= 9.0 - t + 0.5, (t, line)  # never more than the budget still left
    assert "about 0 s" not in out.getvalue() and lines[-1].endswith("less than 1 s of measuring left")


def test_the_measured_rate_is_used_once_there_is_one():
    assert seconds_left(2.0, 4, 8, 100.0) == 2.0  # 0.5 s a cell, 4 cells to go
    assert seconds_left(0.0, 0, 8, 10.0) == 10.0  # nothing measured yet: the budget
    assert seconds_left(12.0, 4, 8, 10.0) == 0.0  # over budget: nothing promised
    assert left_text(0.4) == "less than 1 s of measuring left" and left_text(3.2) == "about 3 s left"


def test_progress_shows_escape_sequences_as_text():
    out = io.StringIO()
    p = LineProgress(out)
    p.start(1, 1.0)
    p.step("known answers", 0, 1, "test:x sha\x1b[2J256")
    p.log("test:x: library says \x1b]0;pwned\x07\nsecond line")
    p.cell(0, CellSpec("sha\x1b[2J256", "hash", 64, 0, ("test:\x9bx",)), "test:\x9bx")
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text and "\x9b" not in text
    assert "sha\\x1b[2J256" in text and "\nsecond line" in text  # a message's own line break stays
    tp = TerminalProgress(io.StringIO())
    tp.log("x \x1b[2J")
    assert "\x1b" not in tp.console.file.getvalue()


def test_a_short_run_says_no_precision_pass_with_nothing_left(tmp_path, providers_file, sha_suite):
    # an interval no cell can reach (±0.01%) in a 0.1 s budget: the precision passes spend the
    # budget's last fractions of a second, and used to say "... 0 s of the run's budget left" each time
    res = run_cli("run", "--suite", sha_suite, "--providers-file", providers_file, "--provider", "test:good",
                  "--size", "1KiB", "--time-per-cell", "0.1", "--precision", "0.01", "--db", tmp_path / "r.db")  # fmt: skip
    assert res.returncode == 0, res.stderr
    passes = [line for line in res.stderr.splitlines() if line.startswith("precision pass")]
    assert not [line for line in passes if " 0 s of the run's budget left" in line], passes
    assert len(passes) == len(set(passes))
    lefts = [int(m) for m in re.findall(r"about (\d+) s left", res.stderr)]
    assert not lefts, lefts  # a 0.1 s budget (x1.3): never "about 1 s left", "about 22 s left" nor "about 0 s left"
    assert "less than 1 s of measuring left" in res.stderr
