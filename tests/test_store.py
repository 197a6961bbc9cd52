import sqlite3

import pytest

from cryptobench.errors import UserError
from cryptobench.store import CellRecord, RunRecord, VerifyRecord, open_store


def test_round_trip(tmp_path):
    store = open_store(str(tmp_path / "r.db"))
    run = RunRecord(None, "2026-01-01T00:00:00+00:00", "default", {"baseline": "c:openssl"}, {"cores": 2})
    rid = store.create_run(run)
    store.add_provider(rid, "c:openssl", {"library_version": "OpenSSL 3.0.19"})
    store.add_verification(rid, VerifyRecord("c:openssl", "sha256", "passed", passed=3))
    cell = CellRecord("c:openssl", "sha256", "hash", 1024, 0, "ok", batch=100, samples_ns=[1000, 1100, 990],
                      checksum="00000020:fb4898be6151a393", checksums_seen=["00000020:fb4898be6151a393"],
                      peak_rss_kb=5000, rounds=1, extra={"spent_s": 0.1})  # fmt: skip
    store.add_cell(rid, cell)
    store.finish_run(rid, "complete", "2026-01-01T00:01:00+00:00", {"load_end": [0.1]})
    store.close()

    again = open_store(f"sqlite:///{tmp_path / 'r.db'}")
    loaded, verifs, cells = again.load_run(again.resolve_run("latest"))
    assert loaded.status == "complete" and loaded.env == {"cores": 2, "load_end": [0.1]}
    assert loaded.providers == {"c:openssl": {"library_version": "OpenSSL 3.0.19"}}
    assert verifs == [VerifyRecord("c:openssl", "sha256", "passed", passed=3)]
    assert cells == [cell]
    assert cells[0].per_op_ns == [10.0, 11.0, 9.9]
    assert again.list_runs()[0]["cells_ok"] == 1


def test_cells_are_committed_immediately(tmp_path):
    store = open_store(str(tmp_path / "r.db"))
    rid = store.create_run(RunRecord(None, "t", "s", {}, {}))
    store.add_cell(rid, CellRecord("p:x", "sha256", "hash", 64, 0, "failed", reason="failed: crash"))
    # another connection (another process) sees it without any close or finish
    other = sqlite3.connect(str(tmp_path / "r.db"))
    assert other.execute("SELECT status, reason FROM cells").fetchall() == [("failed", "failed: crash")]


def test_run_references(tmp_path):
    store = open_store(str(tmp_path / "r.db"))
    with pytest.raises(UserError, match="no runs stored"):
        store.resolve_run("latest")
    ids = [store.create_run(RunRecord(None, "t", "s", {}, {})) for _ in range(3)]
    assert store.resolve_run("latest") == ids[-1]
    assert store.resolve_run("latest~2") == ids[0]
    assert store.resolve_run(str(ids[1])) == ids[1]
    for bad in ("latest~3", "99", "abc"):
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
