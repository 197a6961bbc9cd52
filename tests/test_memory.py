"""Per-cell peak memory: reset before a request, read after, so one big cell does not stick to the rest."""

import subprocess
import sys

import pytest

from cryptobench import memory

HOG = """
import sys
x = bytearray(200 << 20)
x[::4096] = b"\\1" * len(x[::4096])  # touch every page: 200 MiB resident
del x
print("ready", flush=True)
sys.stdin.readline()
"""


@pytest.fixture
def hog():
    p = subprocess.Popen([sys.executable, "-c", HOG], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    yield p
    p.stdin.close()
    p.wait(timeout=10)


def test_the_peak_is_reset_between_cells(hog):
    if not memory.reset_peak(hog.pid):
        pytest.skip("this system cannot reset a process's peak resident set (/proc/PID/clear_refs)")
    after = memory.peak_kb(hog.pid)
    assert after is not None and after < 100 * 1024, after  # the 200 MiB of before the reset is gone


def test_the_peak_covers_what_the_process_held(hog):
    assert memory.peak_kb(hog.pid) >= 200 * 1024


def test_a_process_that_is_gone_has_no_figure():
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    assert memory.peak_kb(p.pid) is None and memory.reset_peak(p.pid) is False
