"""bench/cotenant: it runs a command beside its load and returns the command's status, and no load
outlives it (its workers die with it even when it is killed with SIGKILL)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

COTENANT = Path(__file__).resolve().parents[1] / "bench/cotenant"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ")[1].startswith("Z"))  # a zombie is gone


def test_a_command_runs_beside_the_load_and_its_status_is_returned():
    done = subprocess.run([sys.executable, str(COTENANT), "--cores", "1", "--mem-mib", "2", "--", "sh", "-c",
                           "sleep 1; exit 3"], capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 3, done.stderr
    share = done.stderr.strip().splitlines()[-1]
    assert "busy share per worker:" in share and share.rstrip("%").split()[-1] != "0", share  # it did load the core
    missing = subprocess.run([sys.executable, str(COTENANT), "--cores", "1", "--mem-mib", "2", "--", "no-such-cmd-x"],
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert missing.returncode == 127 and "cannot start no-such-cmd-x" in missing.stderr


def test_its_workers_die_when_it_is_killed():
    proc = subprocess.Popen([sys.executable, str(COTENANT), "--cores", "2", "--mem-mib", "2"], stderr=subprocess.PIPE)
    deadline = time.monotonic() + 20
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
        workers = [int(p) for p in children.read_text().split()] if children.exists() else []
    assert len(workers) == 2, "the workers did not start"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 10
    while any(map(alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(alive, workers)), "a worker outlived its killed parent"
