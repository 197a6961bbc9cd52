"""The real entry points in processes of their own (`python -m cryptobench`, the console script), and
conftest.run_cli's in-process path (tests/inprocess.py) held to them, also under
CRYPTOBENCH_TEST_SUBPROCESS=1: the same exit status, stdout and stderr, and nothing of a command left
behind in the test's process."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import inprocess
import pytest
from conftest import REPO

CONSOLE_SCRIPT = Path(sys.executable).parent / "cryptobench"


def in_a_process(*args, cmd=(sys.executable, "-m", "cryptobench"), cwd=REPO) -> subprocess.CompletedProcess:
    return subprocess.run([*cmd, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "args",
    [
        ["run", "--alg", "sha257"],  # a user's error: one line, 2
        ["run", "--no-such-flag"],  # argparse's SystemExit(2) and its usage
        [],  # no command: the help on stdout, 2
        ["list", "suites"],  # output on stdout, 0
    ],
    ids=["user-error", "bad-flag", "no-command", "list"],
)
def test_in_process_gives_what_a_process_gives(args, tmp_path):
    real = in_a_process(*args, cwd=tmp_path)
    assert inprocess.wanted([str(a) for a in args], {}) != bool(os.environ.get("CRYPTOBENCH_TEST_SUBPROCESS"))
    here = inprocess.run([str(a) for a in args], tmp_path, 120)  # as run_cli calls it
    assert (here.returncode, here.stdout, here.stderr) == (real.returncode, real.stdout, real.stderr)
    assert real.returncode in (0, 2) and "Traceback" not in real.stderr


def test_the_console_script_is_the_command():
    if not CONSOLE_SCRIPT.exists():
        pytest.skip(f"no console script beside {sys.executable} (pip install -e . makes it)")
    res = in_a_process("--help", cmd=(str(CONSOLE_SCRIPT),))
    assert res.returncode == 0 and res.stdout.startswith("usage: cryptobench "), res.stderr
    res = in_a_process("run", "--timeout", "nan", cmd=(str(CONSOLE_SCRIPT),))
    assert res.returncode == 2 and res.stderr.startswith("cryptobench: error: --timeout must be a number"), res.stderr


def test_a_command_in_process_leaves_nothing_behind(tmp_path):
    from cryptobench.core import algorithms, declared
    from cryptobench.store import sql

    before = signal.signal(signal.SIGTERM, signal.SIG_DFL)  # main() sets its own: it must not stay
    try:
        handlers = {s: signal.getsignal(s) for s in inprocess.SIGNALS}
        env, cwd, catalogue, stores = dict(os.environ), os.getcwd(), dict(algorithms.ALGORITHMS), set(sql._OPEN)
        res = inprocess.run(
            ["runs", "--db", str(tmp_path / "r.db")], tmp_path, 120, {**os.environ, "CRYPTOBENCH_X": "1"}
        )
        assert res.returncode == 0 and "no runs stored" in res.stdout, res.stderr
        assert {s: signal.getsignal(s) for s in inprocess.SIGNALS} == handlers
        assert (dict(os.environ), os.getcwd(), dict(algorithms.ALGORITHMS)) == (env, cwd, catalogue)
        assert declared.names() == [] and set(sql._OPEN) <= stores  # its store closed, as its exit would
    finally:
        signal.signal(signal.SIGTERM, before)


def test_a_command_in_process_that_hangs_times_out_and_its_driver_is_killed(tmp_path):
    pf = tmp_path / "p.toml"
    pf.write_text(
        f'[[provider]]\nid = "test:hang"\ncommand = ["/bin/sh", "-c", "echo $$ > {tmp_path}/pid; exec sleep 300"]\n'
    )
    alarm = signal.getsignal(signal.SIGALRM)
    with pytest.raises(subprocess.TimeoutExpired):
        inprocess.run(["list", "providers", "--providers-file", str(pf), "--provider", "test:hang"], REPO, 1)
    assert signal.getsignal(signal.SIGALRM) == alarm
    stat = Path(f"/proc/{(tmp_path / 'pid').read_text().strip()}/stat")
    assert not stat.exists() or stat.read_text().split(") ")[1][0] == "Z"  # killed, as its exit would have
