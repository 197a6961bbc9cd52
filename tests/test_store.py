"""The store, on both backends: every test that takes `store_url` runs on an SQLite file and on a
database of a real PostgreSQL server (tests/pgserver.py)."""

import shutil
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from conftest import run_cli

from cryptobench.core.errors import StoreError, UserError
from cryptobench.store import CellRecord, RunRecord, VerifyRecord, open_store
from cryptobench.store.schema import SCHEMA_REVISION
from cryptobench.verify.cross_checks import CrossRecord

RELEASE_0_1_DB = Path(__file__).parent / "fixtures" / "store-schema1.db"  # made by cryptobench 0.1 (`run`)


def _engine(url: str) -> sa.Engine:
    if url.startswith("postgresql://"):
        return sa.create_engine("postgresql+psycopg://" + url.split("://", 1)[1], poolclass=sa.pool.NullPool)
    return sa.create_engine(f"sqlite:///{url}")


def test_round_trip(store_url):
    store = open_store(store_url)
    run = RunRecord(None, "2026-01-01T00:00:00+00:00", "default", {"baseline": "c:openssl"},
                    {"cores": 2, "machine_label": "box-a", "machine_id": "00aa"})  # fmt: skip
    rid = store.create_run(run)
    assert len(run.uid) == 32
    store.add_provider(rid, "c:openssl", {"library_version": "OpenSSL 3.0.19"})
    store.add_verification(rid, VerifyRecord("c:openssl", "sha256", "passed", passed=3, conformance={"kat": 3}))
    cell = CellRecord("c:openssl", "sha256", "hash", 1024, 0, "ok", batch=100, samples_ns=[1000, 1100, 990],
                      checksum="00000020:fb4898be6151a393", checksums_seen=["00000020:fb4898be6151a393"],
                      peak_rss_kb=5000, rounds=1, extra={"spent_s": 0.1})  # fmt: skip
    store.add_cell(rid, cell)
    checks = [CrossRecord("sha256", "c:openssl", "go:stdlib", f"check{i}", i % 2 == 0, "") for i in range(3)]
    store.add_crosschecks(rid, checks[:2])
    store.add_crosschecks(rid, checks[2:])
    store.finish_run(rid, "complete", "2026-01-01T00:01:00+00:00", {"load_end": [0.1]})
    store.close()

    again = open_store(store_url)
    loaded, verifs, cells = again.load_run(again.resolve_run("latest"))
    assert loaded.status == "complete" and loaded.env["load_end"] == [0.1] and loaded.uid == run.uid
    assert loaded.providers == {"c:openssl": {"library_version": "OpenSSL 3.0.19"}}
    assert verifs == [VerifyRecord("c:openssl", "sha256", "passed", passed=3, conformance={"kat": 3})]
    assert cells == [cell]
    assert cells[0].per_op_ns == [10.0, 11.0, 9.9]
    assert again.load_crosschecks(rid) == checks  # in the order written
    [listed] = again.list_runs()
    assert (listed["cells_ok"], listed["machine_label"], listed["providers"]) == (1, "box-a", "c:openssl")
    assert again.resolve_run(run.uid) == rid  # a run's global id names it too


def test_writes_from_several_threads_all_land(store_url):
    """Verification checks algorithms in threads (verify/schedule.py), each writing its cross-checks
    and verdicts: one connection shared unguarded broke SQLAlchemy's transaction state in CI."""
    import concurrent.futures

    store = open_store(store_url)
    rid = store.create_run(RunRecord(None, "t", "s", {}, {}))

    def write(t: int) -> None:
        for i in range(25):
            store.add_crosschecks(rid, [CrossRecord(f"alg{t}", "c:openssl", "go:stdlib", f"check{i}", True, "")])
            store.add_verification(rid, VerifyRecord(f"p:{t}", f"alg{i}", "passed", passed=1))

    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        list(pool.map(write, range(6)))  # re-raises any thread's error
    assert len(store.load_crosschecks(rid)) == 150
    assert len(store.load_run(rid)[1]) == 150
    store.close()


def test_cells_are_committed_immediately(store_url):
    store = open_store(store_url)
    rid = store.create_run(RunRecord(None, "t", "s", {}, {}))
    store.add_cell(rid, CellRecord("p:x", "sha256", "hash", 64, 0, "failed", reason="failed: crash"))
    # another connection (another process) sees it without any close or finish
    with _engine(store_url).connect() as other:
        assert other.execute(sa.text("SELECT status, reason FROM cells")).fetchall() == [("failed", "failed: crash")]


def test_run_references(store_url):
    store = open_store(store_url)
    with pytest.raises(UserError, match="no runs stored"):
        store.resolve_run("latest")
    ids = [store.create_run(RunRecord(None, "t", "s", {}, {})) for _ in range(3)]
    assert store.resolve_run("latest") == ids[-1]
    assert store.resolve_run("latest~2") == ids[0]
    assert store.resolve_run(str(ids[1])) == ids[1]
    for bad in ("latest~3", "99", "abc", "0" * 32):
        with pytest.raises(UserError):
            store.resolve_run(bad)


def test_unusable_databases_are_user_errors(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        open_store(str(tmp_path / "no" / "such" / "dir.db"))
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(UserError, match="cannot open database"):
        open_store(str(junk))
    with pytest.raises(UserError, match="unknown scheme"):
        open_store("mysql://localhost/x")


def test_a_file_from_release_0_1_is_migrated_in_place_with_its_runs(tmp_path):
    db = tmp_path / "old.db"
    shutil.copy(RELEASE_0_1_DB, db)
    before = sqlite3.connect(db).execute("SELECT COUNT(*), SUM(LENGTH(samples_ns)) FROM cells").fetchone()
    store = open_store(str(db))
    run, verifs, cells = store.load_run(store.resolve_run("latest"))
    assert (len(cells), sum(len(c.samples_ns) for c in cells) > 0, run.status) == (before[0], True, "complete")
    assert len(run.uid) == 32 and store.list_runs()[0]["machine_label"] == "release-0.1"
    con = sqlite3.connect(db)
    assert con.execute("SELECT version_num FROM alembic_version").fetchone() == (SCHEMA_REVISION,)
    assert con.execute("SELECT COUNT(*), SUM(LENGTH(samples_ns)) FROM cells").fetchone() == before
    # and it takes new runs beside the old one
    store.create_run(RunRecord(None, "t", "s", {}, {}))
    assert len(store.list_runs()) == 2


def test_a_store_from_a_newer_cryptobench_is_refused_untouched(store_url):
    open_store(store_url).close()
    with _engine(store_url).begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '0099'"))
    with pytest.raises(StoreError, match="schema revision '0099', newer than this cryptobench") as e:
        open_store(store_url)
    assert "\n" not in str(e.value)
    with _engine(store_url).connect() as conn:
        assert conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar() == "0099"


def test_postgresql_faults_are_one_line_and_never_show_the_password(pg_server, pg_url, tmp_path):
    wrong = pg_url.replace(":s3cret-not-in-logs@", ":wrong-password@")
    with pytest.raises(StoreError, match="password authentication failed") as e:
        open_store(wrong)
    assert "wrong-password" not in str(e.value) and "\n" not in str(e.value)
    unreachable = f"postgresql://u:pw-xyz@127.0.0.1:{pg_server.port + 1}/x"
    for url in (unreachable,):
        r = run_cli("runs", "--db", url)
        assert r.returncode == 2 and "Traceback" not in r.stderr and "pw-xyz" not in r.stderr + r.stdout, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
    # the URL a store shows (reports, `runs`, errors) has its password masked
    store = open_store(pg_url)
    assert "s3cret" not in store.url and "***" in store.url
    r = run_cli("runs", "--db", pg_url, env={"PATH": "/usr/bin:/bin"})
    assert r.returncode == 0 and "s3cret" not in r.stdout + r.stderr, r.stderr


def test_cryptobench_db_names_the_store(pg_url, tmp_path):
    import os

    store = open_store(pg_url)
    store.create_run(RunRecord(None, "t", "envsuite", {}, {"machine_label": "m1"}))
    r = run_cli("runs", env={**os.environ, "CRYPTOBENCH_DB": pg_url}, cwd=tmp_path)
    assert r.returncode == 0 and "envsuite" in r.stdout, r.stderr


def test_libpq_settings_pass_through_tls_asked_of_a_server_without_it(pg_url):
    """TLS is libpq's: sslmode in the URL (or PGSSLMODE) reaches the server; the test server has no
    certificate, so asking for TLS is refused by it, in one line."""
    with pytest.raises(StoreError, match="SSL") as e:
        open_store(pg_url + "?sslmode=require")
    assert "\n" not in str(e.value) and "s3cret" not in str(e.value)
    assert open_store(pg_url + "?sslmode=disable").list_runs() == []
