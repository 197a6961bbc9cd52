import gc
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import inprocess
import pytest

REPO = Path(__file__).resolve().parents[1]
FAKE = Path(__file__).resolve().parent / "fake_driver.py"
MODES = [
    "good", "crash-bench", "hang-bench", "garbage-bench", "wrong-vectors", "wrong-samples",
    "unstable-checksum", "crash-start", "slow-sha", "error-bench", "slow-bench",
    "infinite-samples", "tiny-samples", "implausible-fast", "huge-line", "ansi-error", "ticks-missing",
    "fast-clock",
]  # fmt: skip


def write_providers_file(folder: Path) -> Path:
    """A providers file with one fake provider per fault mode: test:<mode>."""
    lines = []
    for m in MODES:
        lines += ["[[provider]]", f'id = "test:{m}"', f'command = ["{sys.executable}", "{FAKE}", "--mode", "{m}"]', ""]
    p = folder / "providers.toml"
    p.write_text("\n".join(lines))
    return p


def write_sha_suite(folder: Path) -> Path:
    p = folder / "sha.toml"
    p.write_text(
        textwrap.dedent(
            """
            name = "sha"
            baseline = "test:good"
            sizes = ["1KiB", "16KiB"]
            time_per_cell = 0.2

            [[group]]
            algs = ["sha256"]
            """
        )
    )
    return p


@pytest.fixture
def providers_file(tmp_path):
    return write_providers_file(tmp_path)


@pytest.fixture
def sha_suite(tmp_path):
    return write_sha_suite(tmp_path)


def run_cli(*args, timeout=120, **kw):
    """`cryptobench ARGS` as a user would run it; returns CompletedProcess. In this process when given
    nothing but `cwd` and an `env` that keeps the test's variables (tests/inprocess.py: the interpreter and
    imports a new process paid at every call, a few hundred times a `make test`); in a new
    `python -m cryptobench` when the call wants a process of its own (a clean env, input, ...) or names a
    command inprocess.NEVER lists."""
    argv = [str(a) for a in args]
    cwd = kw.pop("cwd", REPO)
    if inprocess.wanted(argv, kw):
        return inprocess.run(argv, cwd, timeout, kw.get("env"))
    return subprocess.run(
        [sys.executable, "-m", "cryptobench", *argv], cwd=cwd, capture_output=True, text=True, timeout=timeout, **kw
    )


def like_a_foreground_job() -> None:
    """Popen's preexec_fn for tests that press Ctrl-C: SIGINT as a terminal's foreground job has it.

    A test run started in the background by a non-interactive shell (`make test &`, some CI
    runners) inherits SIGINT ignored, and Python then keeps it ignored; a person's run does not."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def locked_spooling(tmp_path, monkeypatch):
    """A SpoolingStore on an SQLite file another connection holds in an exclusive transaction: every write
    of a run goes to the spool (HOME is the test's folder). Returns (store, db, holder, said): COMMIT on
    `holder` lets the next opening of `db` import the spool; `said` collects what the store told the user."""
    from cryptobench.store import SpoolingStore, open_store

    monkeypatch.setenv("CRYPTOBENCH_DB_LOCK_TIMEOUT", "0.2")
    monkeypatch.setenv("HOME", str(tmp_path))
    db = tmp_path / "s.db"
    said: list[str] = []
    store = SpoolingStore(open_store(str(db)), said.append)
    holder = sqlite3.connect(str(db), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    yield store, db, holder, said
    holder.close()


@pytest.fixture(scope="session")
def slow_sha_run(tmp_path_factory):
    """One `cryptobench run` of test:good against test:slow-sha (twice the hashing) on the sha suite, with
    every output format: read, never written, by the timing tests that judge a run's CLI outputs and its
    within-run comparison (one measured run, not one each). Returns the folder: x.db, r.json, r.csv, r.md
    and `res`, the finished process."""
    tmp = tmp_path_factory.mktemp("slow_sha_run")
    res = run_cli(
        "run", "--suite", write_sha_suite(tmp), "--providers-file", write_providers_file(tmp),
        "--provider", "test:good,test:slow-sha", "--db", tmp / "x.db", "--json", tmp / "r.json",
        "--csv", tmp / "r.csv", "--md", tmp / "r.md", "--time-per-cell", "0.2",
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    return tmp, res


@pytest.fixture(scope="session")
def pg_server():
    """One real PostgreSQL server for the whole test run (tests/pgserver.py)."""
    from pgserver import PgServer

    from cryptobench.store.sql import close_all

    server = PgServer().start()
    yield server
    gc.collect()  # stores no test refers to any more let go of their connections now, not at exit
    close_all()  # and no connection is left open to a server that is going away
    server.stop()


@pytest.fixture
def pg_url(pg_server):
    """An empty PostgreSQL database of its own for one test."""
    return pg_server.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """Every store test runs on both backends: an SQLite file, and a database on a real PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "store.db")
    return request.getfixturevalue("pg_server").new_database()


# Wall seconds each test took in a recent run (CRYPTOBENCH_TEST_CPU's lines: cpu, wall, id), for the order
# in which the workers are handed their tests: longest first, so no long test starts last and runs alone
# while the other workers have nothing left. A test it does not list counts as DEFAULT_SECONDS.
DURATIONS = Path(__file__).resolve().parent / "durations.tsv"
DEFAULT_SECONDS = 2.0


def _bare_id(nodeid: str) -> str:
    """A test's id without the `@group` xdist appends to a grouped test's (an '@' inside a parameter stays)."""
    return nodeid[: nodeid.rfind("@")] if nodeid.rfind("@") > nodeid.rfind("]") else nodeid


def expected_seconds(path: Path = DURATIONS) -> dict[str, float]:
    """Each test's wall seconds as `path` recorded them (a missing file, or a line of another shape: none)."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return {}
    out: dict[str, float] = {}
    for line in lines:
        fields = line.split("\t")
        try:
            out[_bare_id(fields[2])] = float(fields[1])
        except (IndexError, ValueError):
            continue
    return out


def longest_first(items: list, scope_of, seconds: dict[str, float]) -> list:
    """`items` reordered so the work units xdist hands out (a group's tests together, any other test alone)
    come longest first by `seconds`; a unit's tests keep their order, and units of equal length theirs."""
    cost: dict[str, float] = {}
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        scope = scope_of(item)
        cost[scope] = cost.get(scope, 0.0) + seconds.get(_bare_id(item.nodeid), DEFAULT_SECONDS)
        first.setdefault(scope, i)
    order = {id(item): i for i, item in enumerate(items)}
    return sorted(items, key=lambda it: (-cost[scope_of(it)], first[scope_of(it)], order[id(it)]))


def _xdist_scope(item) -> str:
    group = item.get_closest_marker("xdist_group")
    return f"@{group.args[0] if group.args else group.kwargs.get('name', 'default')}" if group else item.nodeid


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Under `pytest -n N --dist loadgroup` (make pytest), the tests that share a module-scoped fixture
    (one real run read by several tests, a built plugin, a browser) go to one worker, so it is made once;
    every other test is handed to whichever worker is free, the longest first (tests/durations.tsv; the
    Makefile keeps that order with --no-loadscope-reorder). Run without workers, the order is the files'."""
    for item in items:
        defs = getattr(item, "_fixtureinfo", None)
        shared = defs and any(
            d[-1].scope == "module" for name in item.fixturenames for d in [defs.name2fixturedefs.get(name)] if d
        )
        if shared and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))
    if os.environ.get("PYTEST_XDIST_WORKER"):  # every worker sorts alike: xdist checks their collections agree
        items[:] = longest_first(items, _xdist_scope, expected_seconds())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """CRYPTOBENCH_TEST_CPU=FILE: one line per test, CPU seconds (the test's process and the children it
    waited for: drivers, CLI runs) and wall seconds, set-up included. On a shared machine CPU time is
    the steadier figure; `sort -rn FILE | head` shows where `make test`'s time goes (docs/testing.md)."""
    log = os.environ.get("CRYPTOBENCH_TEST_CPU")
    if not log:
        yield
        return
    c0, t0 = _cpu_seconds(), time.monotonic()
    yield
    with open(log, "a") as f:  # one short line per write: the workers' lines do not interleave
        f.write(f"{_cpu_seconds() - c0:.2f}\t{time.monotonic() - t0:.2f}\t{item.nodeid}\n")


def _cpu_seconds() -> float:
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    return sum(u.ru_utime + u.ru_stime for u in usage)
