"""Scaling and leak checks are phases of a run with tables of their own (store revision 0004) and
sections of their own in a result file (schema 13), not environment. Written and read back through
SQLite and a real PostgreSQL, the spool, a result file and a push; runs written before (a store at
revision 0003, a schema-12 result file, both made by the code of then) load with the same tables.

The records are real ones: those of `run --workers 1,all --leak` of c:openssl aes-128-gcm 64 B,
kept with the fixtures by the code before the change (result-schema12-phases.{json,md},
store-rev0003-phases.db)."""

import json
import shutil
import sqlite3
from pathlib import Path

import sqlalchemy as sa
from conftest import run_cli

from cryptobench.store import CellRecord, RunRecord, SpoolingStore, open_store
from cryptobench.store.sink import RunSink, RunSource
from cryptobench.store.spool import find_spools

FIXTURES = Path(__file__).parent / "fixtures"
OLD_JSON = FIXTURES / "result-schema12-phases.json"  # `run --json` of result schema 12
OLD_MD = FIXTURES / "result-schema12-phases.md"  # `show --format md` of that run, by the code of then
OLD_DB = FIXTURES / "store-rev0003-phases.db"  # the store that run was written to (revision 0003)
OLD = json.loads(OLD_JSON.read_text())
SCALING, LEAK = OLD["environment"]["scaling"], OLD["environment"]["leak"]


def _engine(url: str) -> sa.Engine:
    if url.startswith("postgresql://"):
        return sa.create_engine("postgresql+psycopg://" + url.split("://", 1)[1], poolclass=sa.pool.NullPool)
    return sa.create_engine(f"sqlite:///{url}")


def _run(env: dict | None = None) -> RunRecord:
    return RunRecord(None, "2026-01-01T00:00:00+00:00", "s", {}, {"cores": 2, **(env or {})})


def _sections(md: str) -> dict[str, str]:
    """The markdown report's scaling and leak sections, as text."""
    parts = {p.split("\n", 1)[0]: p for p in md.split("\n## ")}
    return {k: parts.get(k) for k in ("Multi-core scaling", "Leak checks")}


def test_both_stores_are_sinks_and_sources():
    from cryptobench.store.sql import SqlStore

    for cls in (SqlStore, SpoolingStore):
        for method in ("create_run", "add_provider", "add_cell", "add_verification", "add_crosschecks", "add_scaling",
                       "add_leak", "finish_run", "load_run", "load_crosschecks", "load_references"):  # fmt: skip
            assert callable(getattr(cls, method, None)), (cls, method)
    assert not hasattr(SpoolingStore, "__getattr__")  # it forwards what it names, nothing else


def test_scaling_and_leak_round_trip_in_their_own_tables(store_url):
    store = open_store(store_url)
    assert isinstance(store, RunSink) and isinstance(store, RunSource)
    rid = store.create_run(_run())
    store.add_scaling(rid, SCALING[:1])
    store.add_leak(rid, LEAK[:2])
    store.add_scaling(rid, SCALING[1:])  # appended, in order
    store.add_leak(rid, LEAK[2:])
    store.add_leak(rid, [])
    store.finish_run(rid, "complete", "2026-01-01T00:01:00+00:00", {"load_end": [0.1]})
    store.close()
    run, _, _ = open_store(store_url).load_run(rid)
    assert run.scaling == SCALING and run.leak == LEAK  # every field as written, floats and nulls too
    assert run.env == {"cores": 2, "load_end": [0.1]}
    with _engine(store_url).connect() as conn:
        assert conn.execute(
            sa.text("SELECT provider, alg, op, size, workers FROM scaling ORDER BY seq")
        ).fetchall() == [(s["provider"], s["alg"], s["op"], s["size"], s["workers"]) for s in SCALING]
        assert conn.execute(sa.text("SELECT leak_class, status FROM leak_checks ORDER BY seq")).fetchall() == [
            (r["leak_class"], r["status"]) for r in LEAK
        ]


def test_an_older_writer_passing_them_as_environment_lands_them_in_their_tables(store_url):
    store = open_store(store_url)
    rid = store.create_run(_run())
    store.finish_run(rid, "complete", "2026-01-01T00:01:00+00:00", {"scaling": SCALING, "leak": LEAK, "x": 1})
    run, _, _ = store.load_run(rid)
    assert (run.scaling, run.leak, run.env) == (SCALING, LEAK, {"cores": 2, "x": 1})


def test_a_spooled_run_keeps_its_phases_and_lands_them(locked_spooling):
    store, db, holder, said = locked_spooling  # every write of the run goes to the spool
    rid = store.create_run(_run())
    store.add_cell(rid, CellRecord("p", "aes-128-gcm", "seal", 64, 0, "ok", batch=1, samples_ns=[5, 6]))
    store.add_scaling(rid, SCALING)
    store.add_leak(rid, LEAK)
    store.finish_run(rid, "complete", "2026-01-01T00:00:01+00:00", {"load_end": [0.2]})
    run, _, _ = store.load_run(rid)  # the report, from what the run wrote
    assert (run.scaling, run.leak, run.env["load_end"]) == (SCALING, LEAK, [0.2])
    assert any("keeping this run's cells" in s for s in said)
    holder.execute("COMMIT")
    fresh = open_store(str(db))  # opening imports the spool
    assert not find_spools(db)
    run, _, cells = fresh.load_run(fresh.resolve_run("latest"))
    assert (run.scaling, run.leak, len(cells)) == (SCALING, LEAK, 1) and "scaling" not in run.env


def test_a_spool_of_an_older_cryptobench_with_phases_in_its_end(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    db = tmp_path / "s.db"
    store = open_store(str(db))
    spool = tmp_path / f".{db.name}.spool-{'a' * 32}.jsonl"
    lines = [{"spool": 1, "id": "a" * 32, "db": str(db.resolve())},
             {"op": "create_run", "run": {"id": None, "started": "t", "suite": "s", "settings": {}, "env": {},
                                          "status": "running", "uid": "b" * 32}},
             {"op": "finish_run", "run_id": 0, "status": "complete", "finished": "t2",
              "env": {"scaling": SCALING, "leak": LEAK}}]  # fmt: skip
    spool.write_text("".join(json.dumps(x) + "\n" for x in lines))
    from cryptobench.store.spool import import_spools, replay_run

    assert replay_run(lines[1:])[0].leak == LEAK
    assert import_spools(store, lambda _m: None) == [1]
    run, _, _ = store.load_run(1)
    assert (run.scaling, run.leak, run.env) == (SCALING, LEAK, {})


def test_a_result_file_has_its_own_sections_and_imports_back(tmp_path, store_url):
    src = tmp_path / "src.db"
    store = open_store(str(src))
    rid = store.create_run(_run())
    store.add_scaling(rid, SCALING)
    store.add_leak(rid, LEAK)
    store.finish_run(rid, "complete", "t")
    out = tmp_path / "r.json"
    assert run_cli("show", str(rid), "--db", src, "--json", out).returncode == 0
    doc = json.loads(out.read_text())
    assert doc["schema_version"] == 16 and (doc["scaling"], doc["leak"]) == (SCALING, LEAK)
    assert "scaling" not in doc["environment"] and "leak" not in doc["environment"]
    r = run_cli("import", out, "--db", store_url)
    assert r.returncode == 0, r.stderr
    dst = open_store(store_url)
    run, _, _ = dst.load_run(dst.resolve_run("latest"))
    assert (run.scaling, run.leak) == (SCALING, LEAK)
    r = run_cli("push", "--db", src, "--to", store_url)  # the same run: found there, with the same content
    assert r.returncode == 0 and "1 already there" in r.stdout + r.stderr and "other content" not in r.stderr, r


def test_push_carries_the_phases(tmp_path, store_url):
    src = tmp_path / "src.db"
    store = open_store(str(src))
    rid = store.create_run(_run())
    store.add_leak(rid, LEAK)
    store.finish_run(rid, "complete", "t")
    r = run_cli("push", "--db", src, "--to", store_url)
    assert r.returncode == 0, r.stderr
    dst = open_store(store_url)
    run, _, _ = dst.load_run(dst.resolve_run("latest"))
    assert (run.scaling, run.leak) == ([], LEAK)


def test_a_schema_12_result_file_imports_with_the_same_tables(tmp_path):
    db = tmp_path / "i.db"
    r = run_cli("import", OLD_JSON, "--db", db)
    assert r.returncode == 0, r.stderr
    store = open_store(str(db))
    run, _, _ = store.load_run(1)
    assert (run.scaling, run.leak) == (SCALING, LEAK) and "scaling" not in run.env and "leak" not in run.env
    md = run_cli("show", "1", "--db", db, "--format", "md")
    assert _sections(md.stdout) == _sections(OLD_MD.read_text()) and all(_sections(md.stdout).values())
    assert run_cli("import", OLD_JSON, "--db", db).returncode == 0  # twice: nothing added, nothing differs
    assert len(store.list_runs()) == 1


def test_a_store_written_before_the_phase_tables_is_migrated_with_the_same_tables(tmp_path):
    db = tmp_path / "old.db"
    shutil.copy(OLD_DB, db)
    md = run_cli("show", "1", "--db", db, "--format", "md")
    assert md.returncode == 0, md.stderr
    assert _sections(md.stdout) == _sections(OLD_MD.read_text()) and all(_sections(md.stdout).values())
    run, _, _ = open_store(str(db)).load_run(1)
    assert (run.scaling, run.leak) == (SCALING, LEAK) and not {"scaling", "leak"} & set(run.env)
    # read only (an import's source): the file stays at 0003, its copy carries the phases
    other = tmp_path / "new.db"
    r = run_cli("import", OLD_DB, "--db", other)
    assert r.returncode == 0, r.stderr
    assert open_store(str(other)).load_run(1)[0].leak == LEAK
    assert sqlite3.connect(OLD_DB).execute("SELECT version_num FROM alembic_version").fetchone() == ("0003",)


def test_migration_0004_moves_the_environment_records_on_both_backends(store_url):
    from alembic import command

    from cryptobench.store import migrate

    with _engine(store_url).begin() as conn:
        command.upgrade(migrate._config(conn), "0003")  # a store as the code before 0004 made it
        env = {"cores": 2, "scaling": SCALING, "leak": LEAK}
        for i, e in enumerate([env, {"cores": 1}, {"leak": "not records"}]):
            conn.execute(
                sa.text("INSERT INTO runs (started, status, suite, label, settings, env, uid) "
                        "VALUES ('t', 'complete', 's', '', '{}', :env, :uid)"),
                {"env": json.dumps(e), "uid": str(i) * 32},
            )  # fmt: skip
    store = open_store(store_url)
    first, second, third = (store.load_run(i)[0] for i in (1, 2, 3))
    assert (first.scaling, first.leak, first.env) == (SCALING, LEAK, {"cores": 2})
    assert (second.scaling, second.leak) == ([], [])
    assert third.env == {"leak": "not records"} and third.leak == []  # no such records: left where they were
