"""The database must never break a run or lose a measured cell; bad files give one line.

Real conditions, no mock of SQLite: a lock held by another process, a read-only bind mount and
a full tmpfs (both inside a private mount namespace, which needs root: CI runs as root), a
corrupted file, a non-SQLite file and another application's SQLite database.
"""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import pytest
from conftest import REPO, run_cli

from cryptobench.store import RunRecord, open_store
from cryptobench.store.model import CellRecord
from cryptobench.store.spool import find_spools, import_spools

SIZES = '["64", "128", "256", "512", "1KiB", "2KiB"]'


@pytest.fixture
def slow_suite(tmp_path):
    p = tmp_path / "slow.toml"
    p.write_text(f'name = "slow"\nbaseline = "test:slow-bench"\nsizes = {SIZES}\ntime_per_cell = 0.3\n'
                 '[[group]]\nalgs = ["sha256"]\n')  # fmt: skip
    return p


def run_args(suite, providers_file, db):
    return ["run", "--suite", suite, "--providers-file", providers_file, "--provider", "test:slow-bench",
            "--db", db, "--passes", "1", "--quiet"]  # fmt: skip


def wait_for_cell(db, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.1)
        try:
            if sqlite3.connect(str(db), timeout=0.1).execute("SELECT COUNT(*) FROM cells").fetchone()[0]:
                return
        except sqlite3.Error:
            pass
    raise AssertionError("no cell was stored")


def stored(db):
    con = sqlite3.connect(str(db))
    runs = con.execute("SELECT id, status FROM runs").fetchall()
    cells = con.execute("SELECT COUNT(*) FROM cells WHERE status='ok'").fetchone()[0]
    return runs, cells


def test_a_lock_held_too_long_spools_the_cells_and_the_run_lands_when_it_is_released(
    tmp_path, providers_file, slow_suite
):
    db = tmp_path / "l.db"
    env = {**os.environ, "CRYPTOBENCH_DB_LOCK_TIMEOUT": "0.5", "HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "cryptobench", *map(str, run_args(slow_suite, providers_file, db))],
                            cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    wait_for_cell(db)
    holder = sqlite3.connect(str(db), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process's long transaction
    time.sleep(2)
    holder.execute("COMMIT")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert "database is locked; keeping this run's cells in" in err
    assert "the database took the run after all" in err
    runs, cells = stored(db)
    assert runs == [(1, "complete")] and cells == 6  # every cell, none twice
    assert not find_spools(db)


NAMESPACE_SCRIPT = textwrap.dedent(
    """
    # runs inside `unshare -m`: mounts here are private to this process and its children
    import json, os, sqlite3, subprocess, sys, time
    fault, where, args = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    db = os.path.join(where, "f.db")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", where], check=True)
    run = subprocess.Popen([sys.executable, "-m", "cryptobench", *args, "--db", db],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    while True:
        time.sleep(0.1)
        try:
            if sqlite3.connect(db, timeout=0.1).execute("SELECT COUNT(*) FROM cells").fetchone()[0]:
                break
        except sqlite3.Error:
            pass
    with open(os.path.join(where, "filler"), "wb") as f:  # fill what is left of the disk
        try:
            while True:
                f.write(b"x" * 65536)
                f.flush()
        except OSError:
            pass
    out, err = run.communicate(timeout=120)
    before = sqlite3.connect(db).execute("SELECT COUNT(*) FROM cells").fetchone()[0]
    os.unlink(os.path.join(where, "filler"))
    later = subprocess.run([sys.executable, "-m", "cryptobench", "runs", "--db", db], capture_output=True, text=True)
    con = sqlite3.connect(db)
    print(json.dumps({"code": run.returncode, "err": err, "before": before, "runs_err": later.stderr,
                      "runs_out": later.stdout, "runs": con.execute("SELECT id, status FROM runs").fetchall(),
                      "cells": con.execute("SELECT COUNT(*) FROM cells WHERE status='ok'").fetchone()[0]}))
    """
)


def can(*probe: str) -> str:
    """'' when the probe command works here, else why not (a container may forbid namespaces)."""
    if os.geteuid() != 0 or not shutil.which(probe[0]):
        return f"needs root and {probe[0]} (CI runs as root)"
    res = subprocess.run(list(probe), capture_output=True, text=True)
    return "" if res.returncode == 0 else f"{' '.join(probe)} is not allowed here: {res.stderr.strip()[:200]}"


def in_namespace(tmp_path, fault, args):
    why = can("unshare", "-m", "--propagation", "private", "mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", "/mnt")
    if why:
        pytest.skip(why)
    where = tmp_path / "dbdir"
    where.mkdir()
    script = tmp_path / "ns.py"
    script.write_text(NAMESPACE_SCRIPT)
    env = {**os.environ, "HOME": str(tmp_path / "home"), "PYTHONPATH": str(REPO)}
    res = subprocess.run(["unshare", "-m", "--propagation", "private", sys.executable, str(script), fault,
                          str(where), json.dumps(list(map(str, args)))],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=180)  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout)


def check_spooled_and_imported(r, cause):
    assert r["code"] == 0 and "Traceback" not in r["err"], r["err"]
    said = [line for line in r["err"].splitlines() if "keeping this run's cells in" in line]
    assert len(said) == 1 and cause in said[0], r["err"]
    assert r["before"] < 6  # the database missed some cells while it refused writes...
    assert "imported run 1 (" in r["runs_err"], r["runs_err"]  # ...the next command brought them in
    assert r["runs"] == [[1, "complete"]] and r["cells"] == 6, r
    assert "Traceback" not in r["runs_err"]


def test_a_full_disk_loses_no_cell(tmp_path, providers_file, slow_suite):
    r = in_namespace(tmp_path, "full", run_args(slow_suite, providers_file, "")[:-1])
    check_spooled_and_imported(r, "disk is full")


def test_a_database_made_read_only_mid_run_loses_no_cell(tmp_path, providers_file, slow_suite):
    why = can("setpriv", "--bounding-set=-dac_override,-dac_read_search", "true")
    if why:
        pytest.skip(why)
    where = tmp_path / "dbdir"
    where.mkdir()
    db = where / "r.db"
    # root without CAP_DAC_OVERRIDE obeys file modes, as any user would
    drop = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--inh-caps=-dac_override,-dac_read_search"]
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    run = subprocess.Popen([*drop, sys.executable, "-m", "cryptobench", *map(str, run_args(slow_suite, providers_file, db))],
                           cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    wait_for_cell(db)
    db.chmod(0o444)
    where.chmod(0o555)  # no journal can be created beside it: no transaction can start
    out, err = run.communicate(timeout=120)
    before = stored(db)[1]
    where.chmod(0o755)
    db.chmod(0o644)
    later = subprocess.run([*drop, sys.executable, "-m", "cryptobench", "runs", "--db", str(db)], cwd=REPO, env=env,
                           capture_output=True, text=True)  # fmt: skip
    runs, cells = stored(db)
    r = {"code": run.returncode, "err": err, "before": before, "runs_err": later.stderr, "runs": [list(x) for x in runs],
         "cells": cells}  # fmt: skip
    check_spooled_and_imported(r, "attempt to write a readonly database")


def test_a_spool_imported_twice_adds_nothing(locked_spooling):
    store, db, holder, said = locked_spooling
    run_id = store.create_run(RunRecord(None, "2026-01-01T00:00:00+00:00", "s", {}, {}))
    store.add_cell(run_id, CellRecord("p", "sha256", "hash", 64, 0, "ok", batch=1, samples_ns=[5, 6]))
    store.finish_run(run_id, "complete", "2026-01-01T00:00:01+00:00")  # still locked: stays in the spool
    rep = store.load_run(run_id)  # the report is built from what the run wrote
    assert rep[0].status == "complete" and len(rep[2]) == 1
    holder.execute("COMMIT")
    [spool] = find_spools(db)
    copy = spool.read_bytes()
    fresh = open_store(str(db))  # opening imports it
    assert stored(db) == ([(1, "complete")], 1) and not find_spools(db)
    spool.write_bytes(copy)  # as if the file had outlived its import
    assert import_spools(fresh, said.append) == []
    assert stored(db) == ([(1, "complete")], 1) and not find_spools(db)


def assert_one_line(res, needle):
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("cryptobench: error: ") and needle in lines[0], res.stderr


@pytest.mark.parametrize("command", [["runs"], ["show", "latest"], ["run", "--alg", "sha256", "--size", "64"]])
def test_files_that_are_not_a_cryptobench_database_give_one_line(tmp_path, providers_file, sha_suite, command):
    other = tmp_path / "shop.db"
    con = sqlite3.connect(str(other))
    con.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    con.commit()
    con.close()
    res = run_cli(*command, "--db", other)
    assert_one_line(res, "is not a cryptobench database (it holds tables: customers)")
    tables = [r[0] for r in sqlite3.connect(str(other)).execute("SELECT name FROM sqlite_master")]
    assert tables == ["customers"]  # nothing of ours was added to it
    text = tmp_path / "notes.db"
    text.write_text("hello, not a database\n" * 100)
    assert_one_line(run_cli(*command, "--db", text), "not an SQLite database")


def test_a_corrupted_database_gives_one_line(tmp_path, providers_file, sha_suite):
    db = tmp_path / "c.db"
    res = run_cli("run", "--suite", sha_suite, "--providers-file", providers_file, "--provider", "test:good",
                  "--db", db, "--time-per-cell", "0.05", "--passes", "1", "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    data = bytearray(db.read_bytes())
    page = 4096
    for start in range(page, len(data), page):  # every page but the first: the tables' contents
        data[start : start + 200] = b"\xff" * 200  # no valid b-tree page starts like this
    db.write_bytes(bytes(data))
    for command in (["runs"], ["show", "latest"], ["compare", "latest", "latest"]):
        res = run_cli(*command, "--db", db)
        assert_one_line(res, "database")


def test_show_names_a_bad_relative_run(tmp_path, providers_file, sha_suite):
    db = tmp_path / "r.db"
    store = open_store(str(db))
    store.create_run(RunRecord(None, "2026-01-01T00:00:00+00:00", "s", {}, {}))
    store.close()
    assert_one_line(run_cli("show", "latest~x", "--db", db), "after '~' comes how many runs back")


def test_threads_do_not_matter_to_the_shield():
    # the Ctrl-C shield only sets signal handlers in the main thread; elsewhere it is a no-op
    from cryptobench.measure.interrupts import shielded

    errors = []

    def work():
        try:
            with shielded(lambda _m: None):
                pass
        except Exception as e:  # noqa: BLE001
            errors.append(e)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert not errors


def test_after_the_first_interrupt_later_ones_only_say_so():
    """The first SIGINT raises at once; a second and a SIGTERM that land while it is still unwinding
    (before any `shielded` block) print a line and raise nothing; the old handlers come back after."""
    import signal

    from cryptobench.measure.interrupts import first_only

    said, before = [], signal.getsignal(signal.SIGINT)
    with first_only(said.append):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(1)  # the handler runs at the next bytecode: never reached
            raise AssertionError("the first SIGINT did not raise")
        except KeyboardInterrupt:
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # both delivered here, in the except clause: neither raises
    assert len(said) == 2 and "saving what was measured" in said[0]
    assert signal.getsignal(signal.SIGINT) is before


# --- PostgreSQL: the server goes away -----------------------------------------------------------


def test_postgresql_lost_mid_run_keeps_every_cell_and_lands_when_it_is_back(slow_suite, providers_file, tmp_path):
    """A real server stopped (immediate shutdown) while a run measures, then started again."""
    from pgserver import PgServer

    from cryptobench.store.sql import close_all

    server = PgServer().start()
    try:
        url = server.new_database()
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
        run = subprocess.Popen([sys.executable, "-m", "cryptobench", *run_args(slow_suite, providers_file, url)],
                               cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not open_store(url, import_waiting=False).list_runs()[:1]:
            time.sleep(0.2)
        time.sleep(1.0)  # a cell or two stored, the rest to come
        close_all()
        server.halt()
        out, err = run.communicate(timeout=180)
        assert run.returncode == 0, err
        assert "Traceback" not in err and "s3cret" not in err + out
        assert "keeping this run's cells in" in err and "run not yet in" in err, err
        server.resume()
        r = run_cli("runs", "--db", url, env=env)  # the next command that opens the store imports the run
        assert r.returncode == 0 and "imported run" in r.stderr, r.stderr
        store = open_store(url)
        runs = [x for x in store.list_runs() if x["status"] == "complete"]
        assert len(runs) == 1 and runs[0]["cells_ok"] == 6, store.list_runs()  # every size, each once
        close_all()
    finally:
        close_all()
        server.stop()


def test_postgresql_unreachable_at_start_is_one_line_before_anything_is_measured(slow_suite, providers_file):
    r = run_cli(*run_args(slow_suite, providers_file, "postgresql://me:pw-hidden@127.0.0.1:9/cb"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "cannot open database 'postgresql://me:***@127.0.0.1:9/cb'" in r.stderr and "pw-hidden" not in r.stderr
