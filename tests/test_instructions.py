"""`--metric instructions` (cryptobench/icount): real valgrind on real drivers. A count is exact: two
fresh processes agree to the instruction, and a build made 1% slower on purpose is told apart."""

import json
import shutil
import subprocess

import pytest
from conftest import run_cli

from cryptobench.core.cell import CellSpec
from cryptobench.core.settings import Settings
from cryptobench.drivers.registry import C_HOST, REPO, Registry
from cryptobench.icount import callgrind, counters, judge, metrics, phase

pytestmark = [
    pytest.mark.skipif(not C_HOST.exists(), reason="the generic C driver is not built (make -C drivers/c)"),
    pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed (scripts/setup.sh)"),
]
SLOWER = REPO / "tests" / "fixtures" / "slower_plugin.c"


def count(pid: str, size: int, batches: dict | None = None):
    """One fresh process's per-op count of `pid` sha256 at `size` (and the batch used)."""
    reg = Registry()
    p = reg.get(pid)
    spec = CellSpec("sha256", "hash", size, 0, (pid,))
    got = phase.Counter(counters.Choice("valgrind", "valgrind", ""), 120).counts(
        p, reg.env_for(p), [spec], Settings("t", pid), batches or {}
    )
    return got[spec]


def build_slower(tmp_path, extra: int):
    """tests/fixtures/slower_plugin.c, with EXTRA_PERCENT% of the message hashed once more."""
    out = tmp_path / f"b{extra}" / "libcb_slower.so"
    out.parent.mkdir()
    subprocess.run(["gcc", "-O2", "-std=c11", "-fPIC", "-shared", "-fvisibility=hidden", f"-DEXTRA_PERCENT={extra}",
                    f"-I{REPO / 'include'}", "-o", out, SLOWER, "-lcrypto"], check=True)  # fmt: skip
    return out


@pytest.mark.parametrize("pid", ["c:openssl", "go:stdlib"])
def test_sha256_counts_the_same_in_two_fresh_processes(pid):
    """The second process is given the first one's batch, as a run's repeat is: its requests must
    still be the same (Go grows its stack once, in whichever batch comes first)."""
    reg = Registry()
    if not reg.usable(reg.get(pid))[0]:
        pytest.skip(f"{pid} is not built")
    first, batch = count(pid, 64)
    again, _ = count(pid, 64, {CellSpec("sha256", "hash", 64, 0, (pid,)): batch})
    assert first == again  # to the instruction, not within a tolerance
    assert 1000 < first < 50_000  # SHA-256 of 64 bytes (two blocks): thousands, not millions


def test_the_count_is_of_operations_only_not_of_the_request():
    """N/2N differencing: a 64-byte hash costs far less than a 1 KiB one, in proportion to its blocks."""
    small, _ = count("c:openssl", 64)
    big, _ = count("c:openssl", 1024)
    assert 4 < big / small < 9  # 2 blocks against 17 plus fixed per-call cost; a request's cost would flatten this


def test_a_profile_takes_off_the_untimed_prepare_call(tmp_path):
    """What the region spends preparing single-use inputs is outside the clock: taken off the count."""
    prof = tmp_path / "cg.1"
    prof.write_text("summary: 1000\nfn=time_batch\n10 100\ncfn=ops_cell_prepare\ncalls=1 0\n10 300\n"
                    "cfn=ops_cell_run\ncalls=1 0\n11 600\nfn=ops_cell_prepare\n3 300\n")  # fmt: skip
    assert callgrind.read_profile(prof, callgrind.REGIONS["c"]) == 700


def test_a_go_profile_takes_off_the_runtime_once_however_deep(tmp_path):
    """Allocation and a yield to the scheduler are the Go runtime's, timed by luck: taken off at the
    outermost call, not again for the runtime's calls inside it."""
    prof = tmp_path / "cg.1"
    prof.write_text("summary: 1000\nfn=main.timeBatch\n1 50\ncfn=main.(*cbcCell).Run\ncalls=1 0\n1 950\n"
                    "fn=main.(*cbcCell).Run\n2 500\ncfn=runtime.newobject\ncalls=1 0\n2 300\n"
                    "cfn=runtime.memmove\ncalls=1 0\n2 150\nfn=runtime.newobject\n3 100\n"
                    "cfn=runtime.mallocgc\ncalls=1 0\n3 200\n")  # fmt: skip
    assert callgrind.read_profile(prof, callgrind.REGIONS["go"]) == 700  # memmove is the code's own copy: kept


def test_a_non_native_provider_is_not_offered_with_why():
    reg = Registry()
    p = reg.get("python:hashlib")
    assert phase.kind_of(p) is None
    assert "native driver" in phase.not_offered_why(p)
    assert phase.kind_of(reg.get("c:openssl")) == "c" and phase.kind_of(reg.get("go:stdlib")) == "go"


def test_an_unknown_metric_is_refused_in_one_line():
    assert metrics.parse(["time,instructions"]) == ["time", "instructions"]
    assert metrics.parse(["instructions", "time"]) == ["time", "instructions"]
    res = run_cli("run", "--metric", "speed", "--alg", "sha256")
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == ["cryptobench: error: unknown metric 'speed' (known: time, instructions)"]


def test_judging_a_one_percent_change_and_an_unchanged_build():
    def env(per_op, counts=None):
        r = {"provider": "p:x", "alg": "sha256", "op": "hash", "size": 64, "chunk": 0, "per_op": per_op,
             "counts": counts or [per_op, per_op]}  # fmt: skip
        return {"instructions": {"records": [r]}}

    assert judge.compare(env(5000.0), env(5000.0))[0].verdict == judge.SAME
    assert judge.compare(env(5000.0), env(5050.0))[0].verdict == judge.MORE
    assert judge.regressions(judge.compare(env(5000.0), env(5050.0)), 0.5)
    assert not judge.regressions(judge.compare(env(5000.0), env(5050.0)), 2)
    # a count that was not steady widens its own tolerance: its 2% spread hides a 1% step
    assert judge.compare(env(5000.0, [4950.0, 5050.0]), env(5050.0))[0].verdict == judge.SAME


def test_run_compare_and_history_flag_a_plugin_made_one_percent_slower(tmp_path):
    """Three runs (base, base, slower): compare and history flag the change, exit 1; the unchanged
    pair is 'same'; the counts come back from the store for show, compare and history.
    (bench/icount-acceptance plays five runs with the co-tenant on.)"""
    db = tmp_path / "r.db"
    base, slower = build_slower(tmp_path, 0), build_slower(tmp_path, 1)
    for plugin in (base, base, slower):
        res = run_cli("run", "--metric", "instructions", "--plugin", plugin, "--provider", "plugin:slower",
                      "--alg", "sha256", "--size", "64KiB", "--db", db, "--quiet", timeout=300)  # fmt: skip
        assert res.returncode == 0, res.stderr
        assert "Instructions per operation" in res.stdout
    same = run_cli("compare", "1", "2", "--db", db, "--fail-on-regression", "0.5")
    assert same.returncode == 0 and "same" in same.stdout, same.stdout + same.stderr
    worse = run_cli("compare", "2", "3", "--db", db, "--fail-on-regression", "0.5")
    assert worse.returncode == 1 and "more instructions" in worse.stdout, worse.stdout + worse.stderr
    (cell,) = json.loads(run_cli("compare", "2", "3", "--db", db, "--format", "json").stdout)["cells"]
    assert cell["verdict"] == "more instructions" and cell["tolerance"] == 0.0001  # two counts to the instruction
    hist = run_cli("history", "--alg", "sha256", "--metric", "instructions", "--fail-on-change", "--format", "json",
                   "--db", db)  # fmt: skip
    assert hist.returncode == 1, hist.stderr
    (series,) = json.loads(hist.stdout)["series"]
    assert [c["run"]["id"] if isinstance(c["run"], dict) else c["run"] for c in series["changes"]] == [3]
    assert 0.005 < series["changes"][0]["change"] < 0.015  # about 1% more instructions
    steady = run_cli("history", "--alg", "sha256", "--metric", "instructions", "--fail-on-change", "--db", db)
    assert steady.returncode == 1  # the same series read in terminal form: still the one change
    csv = run_cli("show", "latest", "--db", db, "--format", "csv")
    assert ",instructions," in csv.stdout
