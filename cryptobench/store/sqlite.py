"""SQLite store: one file, every cell committed the moment it is measured.

Every SQLite error comes out as a one-line StoreError naming the file and the cause. A file that
is not ours (another application's SQLite file, a corrupted or non-SQLite file) is refused before
anything is written to it. CRYPTOBENCH_DB_LOCK_TIMEOUT (seconds, default 30) is how long a write
waits for another process's lock before it gives up (the runner then keeps the run's cells in a
spool file: store/spool.py).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from ..errors import StoreError, UserError
from .model import CellRecord, RunRecord, VerifyRecord

SQLITE_MAGIC = b"SQLite format 3\x00"
OUR_TABLES = {"meta", "runs", "providers", "verifications", "cells", "refs", "crosschecks", "conformance"}


def lock_timeout() -> float:
    try:
        value = float(os.environ.get("CRYPTOBENCH_DB_LOCK_TIMEOUT", "30"))
    except ValueError:
        raise UserError("CRYPTOBENCH_DB_LOCK_TIMEOUT must be a number of seconds") from None
    return value if value >= 0 else 30.0


def _reported(action: str):
    """Turn any SQLite error of the decorated method into one line naming the file and the cause."""

    def wrap(method):
        @functools.wraps(method)
        def run(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except sqlite3.Error as e:
                with contextlib.suppress(sqlite3.Error):
                    self.db.rollback()
                raise StoreError(f"cannot {action} database {str(self.path)!r}: {e}") from None

        return run

    return wrap


SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT NOT NULL, finished TEXT, status TEXT NOT NULL,
    suite TEXT NOT NULL, label TEXT NOT NULL DEFAULT '',
    settings TEXT NOT NULL, env TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS providers (
    run_id INTEGER NOT NULL REFERENCES runs(id), provider TEXT NOT NULL, hello TEXT NOT NULL,
    PRIMARY KEY (run_id, provider));
CREATE TABLE IF NOT EXISTS verifications (
    run_id INTEGER NOT NULL REFERENCES runs(id), provider TEXT NOT NULL, alg TEXT NOT NULL,
    status TEXT NOT NULL, passed INTEGER NOT NULL, failed INTEGER NOT NULL,
    skipped INTEGER NOT NULL, detail TEXT NOT NULL,
    PRIMARY KEY (run_id, provider, alg));
CREATE TABLE IF NOT EXISTS cells (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    provider TEXT NOT NULL, alg TEXT NOT NULL, op TEXT NOT NULL,
    size INTEGER NOT NULL, chunk INTEGER NOT NULL,
    status TEXT NOT NULL, reason TEXT NOT NULL,
    batch INTEGER NOT NULL, samples_ns TEXT NOT NULL,
    checksum TEXT NOT NULL, checksums_seen TEXT NOT NULL,
    peak_rss_kb INTEGER NOT NULL, rounds INTEGER NOT NULL,
    started TEXT NOT NULL, finished TEXT NOT NULL, extra TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS cells_run ON cells (run_id);
CREATE TABLE IF NOT EXISTS refs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, added TEXT NOT NULL, source TEXT NOT NULL, machine TEXT NOT NULL,
    url TEXT NOT NULL, alg TEXT NOT NULL, op TEXT NOT NULL, size INTEGER NOT NULL, ns_per_op REAL NOT NULL);
CREATE TABLE IF NOT EXISTS conformance (
    run_id INTEGER NOT NULL REFERENCES runs(id), provider TEXT NOT NULL, alg TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (run_id, provider, alg));
CREATE TABLE IF NOT EXISTS crosschecks (
    run_id INTEGER NOT NULL REFERENCES runs(id), alg TEXT NOT NULL, producer TEXT NOT NULL,
    consumer TEXT NOT NULL, check_name TEXT NOT NULL, passed INTEGER NOT NULL, detail TEXT NOT NULL);
"""


class SqliteStore:
    def __init__(self, path: Path):
        self.path = path
        self.url = f"sqlite:///{path.resolve()}" if path.is_absolute() else str(path)
        self._batch = False  # inside transaction(): one commit at the end, not one per call
        if path.parent and not path.parent.exists():
            raise UserError(f"cannot open database {str(path)!r}: directory {str(path.parent)!r} does not exist")
        if path.is_dir():
            raise UserError(f"cannot open database {str(path)!r}: it is a directory")
        _refuse_foreign(path)
        try:
            self.db = sqlite3.connect(str(path), timeout=lock_timeout())
            self.db.executescript(_SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                self.db.commit()
            elif int(row[0]) != SCHEMA_VERSION:
                raise UserError(
                    f"database {str(path)!r} has schema version {row[0]}, this cryptobench reads {SCHEMA_VERSION}"
                )
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot open database {str(path)!r}: {e}") from None

    def _commit(self) -> None:
        if not self._batch:
            self.db.commit()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Many writes, one commit: all of them land or none (a spool import must not land twice)."""
        self._batch = True
        try:
            yield
            self.db.commit()
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self.db.rollback()
            raise
        finally:
            self._batch = False

    @_reported("write to")
    def check_writable(self) -> None:
        """Before a run measures anything: a write that is rolled back, so a read-only file, a full
        disk or a lock held too long is said in one line before minutes of measuring, not after."""
        self.db.execute("UPDATE meta SET value = value WHERE key = 'schema_version'")
        self.db.rollback()

    def close(self) -> None:
        self.db.close()

    # --- writing ----------------------------------------------------------

    @_reported("write to")
    def create_run(self, run: RunRecord) -> int:
        cur = self.db.execute(
            "INSERT INTO runs (started, status, suite, label, settings, env) VALUES (?,?,?,?,?,?)",
            (run.started, run.status, run.suite, run.label, json.dumps(run.settings), json.dumps(run.env)),
        )
        self._commit()
        run.id = cur.lastrowid
        return run.id

    @_reported("write to")
    def add_provider(self, run_id: int, provider: str, hello: dict) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO providers VALUES (?,?,?)", (run_id, provider, json.dumps(hello, sort_keys=True))
        )
        self._commit()

    @_reported("write to")
    def add_verification(self, run_id: int, v: VerifyRecord) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO verifications VALUES (?,?,?,?,?,?,?,?)",
            (run_id, v.provider, v.alg, v.status, v.passed, v.failed, v.skipped, v.detail),
        )
        if v.conformance:
            self.db.execute(
                "INSERT OR REPLACE INTO conformance VALUES (?,?,?,?)",
                (run_id, v.provider, v.alg, json.dumps(v.conformance, sort_keys=True)),
            )
        self._commit()

    @_reported("write to")
    def add_cell(self, run_id: int, c: CellRecord) -> None:
        self.db.execute(
            "INSERT INTO cells (run_id, provider, alg, op, size, chunk, status, reason, batch, samples_ns,"
            " checksum, checksums_seen, peak_rss_kb, rounds, started, finished, extra)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                run_id, c.provider, c.alg, c.op, c.size, c.chunk, c.status, c.reason, c.batch,
                json.dumps(c.samples_ns), c.checksum, json.dumps(c.checksums_seen), c.peak_rss_kb,
                c.rounds, c.started, c.finished, json.dumps(c.extra),
            ),
        )  # fmt: skip
        self._commit()

    @_reported("write to")
    def add_crosschecks(self, run_id: int, records: list) -> None:
        self.db.executemany(
            "INSERT INTO crosschecks VALUES (?,?,?,?,?,?,?)",
            [(run_id, r.alg, r.producer, r.consumer, r.check, int(r.passed), r.detail) for r in records],
        )
        self._commit()

    @_reported("read")
    def load_crosschecks(self, run_id: int) -> list:
        from ..crosscheck import CrossRecord

        rows = self.db.execute(
            "SELECT alg, producer, consumer, check_name, passed, detail FROM crosschecks WHERE run_id=? ORDER BY rowid",
            (run_id,),
        ).fetchall()
        return [CrossRecord(a, p, c, ch, bool(ok), d) for a, p, c, ch, ok, d in rows]

    @_reported("write to")
    def add_references(self, refs: list, added: str) -> list[int]:
        ids = []
        for r in refs:
            cur = self.db.execute(
                "INSERT INTO refs (added, source, machine, url, alg, op, size, ns_per_op) VALUES (?,?,?,?,?,?,?,?)",
                (added, r.source, r.machine, r.url, r.alg, r.op, r.size, r.ns_per_op),
            )
            r.id = cur.lastrowid
            ids.append(cur.lastrowid)
        self._commit()
        return ids

    @_reported("read")
    def load_references(self) -> list:
        from ..references import Reference

        rows = self.db.execute("SELECT id, source, machine, url, alg, op, size, ns_per_op FROM refs ORDER BY id")
        return [Reference(*row) for row in rows.fetchall()]

    @_reported("write to")
    def remove_reference(self, ref_id: int) -> bool:
        cur = self.db.execute("DELETE FROM refs WHERE id=?", (ref_id,))
        self._commit()
        return cur.rowcount > 0

    @_reported("write to")
    def finish_run(self, run_id: int, status: str, finished: str, env_update: dict | None = None) -> None:
        if env_update:
            env = json.loads(self.db.execute("SELECT env FROM runs WHERE id=?", (run_id,)).fetchone()[0])
            env.update(env_update)
            self.db.execute("UPDATE runs SET env=? WHERE id=?", (json.dumps(env), run_id))
        self.db.execute("UPDATE runs SET status=?, finished=? WHERE id=?", (status, finished, run_id))
        self._commit()

    # --- reading ----------------------------------------------------------

    @_reported("read")
    def list_runs(self) -> list[dict]:
        rows = self.db.execute(
            "SELECT r.id, r.started, r.finished, r.status, r.suite, r.label,"
            " (SELECT COUNT(*) FROM cells c WHERE c.run_id=r.id AND c.status='ok'),"
            " (SELECT COUNT(*) FROM cells c WHERE c.run_id=r.id AND c.status='failed'),"
            " (SELECT GROUP_CONCAT(provider, ',') FROM providers p WHERE p.run_id=r.id),"
            " json_extract(r.env, '$.hostname'), json_extract(r.env, '$.pid'),"
            " json_extract(r.env, '$.machine_label'), json_extract(r.env, '$.machine_id')"
            " FROM runs r ORDER BY r.id"
        ).fetchall()
        keys = ("id", "started", "finished", "status", "suite", "label", "cells_ok", "cells_failed", "providers")
        keys += ("hostname", "pid", "machine_label", "machine_id")
        return [dict(zip(keys, row, strict=True)) for row in rows]

    @_reported("read")
    def resolve_run(self, ref: str | int | None) -> int:
        """A run id, `latest`/`last`, or `latest~N` (N runs before the latest)."""
        ids = [r[0] for r in self.db.execute("SELECT id FROM runs ORDER BY id").fetchall()]
        if not ids:
            raise UserError(f"no runs stored in {self.url} (run `cryptobench run` first)")
        text = str(ref if ref is not None else "latest")
        if text in ("latest", "last") or text.startswith(("latest~", "last~")):
            tail = text.partition("~")[2]
            if "~" in text and not tail.isdigit():
                raise UserError(f"run {text!r}: after '~' comes how many runs back, e.g. latest~1")
            back = int(tail) if tail else 0
            if back >= len(ids):
                raise UserError(f"run {text!r} does not exist: only {len(ids)} runs stored")
            return ids[-1 - back]
        if not text.isdigit() or int(text) not in ids:
            raise UserError(f"run {text!r} not found in {self.url} (see `cryptobench runs`)")
        return int(text)

    @_reported("read")
    def load_run(self, run_id: int) -> tuple[RunRecord, list[VerifyRecord], list[CellRecord]]:
        row = self.db.execute(
            "SELECT id, started, finished, status, suite, label, settings, env FROM runs WHERE id=?", (run_id,)
        ).fetchone()
        if row is None:
            raise UserError(f"run {run_id} not found in {self.url}")
        run = RunRecord(
            id=row[0], started=row[1], finished=row[2], status=row[3], suite=row[4], label=row[5],
            settings=json.loads(row[6]), env=json.loads(row[7]),
        )  # fmt: skip
        for provider, hello in self.db.execute("SELECT provider, hello FROM providers WHERE run_id=?", (run_id,)):
            run.providers[provider] = json.loads(hello)
        extra = {
            (p, a): json.loads(d)
            for p, a, d in self.db.execute("SELECT provider, alg, data FROM conformance WHERE run_id=?", (run_id,))
        }
        verifs = [
            VerifyRecord(*r, conformance=extra.get((r[0], r[1]), {}))
            for r in self.db.execute(
                "SELECT provider, alg, status, passed, failed, skipped, detail FROM verifications"
                " WHERE run_id=? ORDER BY provider, alg",
                (run_id,),
            )
        ]
        cells = []
        for r in self.db.execute(
            "SELECT provider, alg, op, size, chunk, status, reason, batch, samples_ns, checksum, checksums_seen,"
            " peak_rss_kb, rounds, started, finished, extra FROM cells WHERE run_id=? ORDER BY id",
            (run_id,),
        ):
            cells.append(
                CellRecord(
                    provider=r[0], alg=r[1], op=r[2], size=r[3], chunk=r[4], status=r[5], reason=r[6], batch=r[7],
                    samples_ns=json.loads(r[8]), checksum=r[9], checksums_seen=json.loads(r[10]),
                    peak_rss_kb=r[11], rounds=r[12], started=r[13], finished=r[14], extra=json.loads(r[15]),
                )
            )  # fmt: skip
        return run, verifs, cells


def _refuse_foreign(path: Path) -> None:
    """A file that exists must be an SQLite database with our tables (or none yet): another
    application's database must not gain our tables. (Damaged pages are found when they are read:
    every method reports them in one line; a full integrity check on every open would read it all.)"""
    if not path.exists() or path.stat().st_size == 0:
        return
    try:
        with open(path, "rb") as f:
            magic = f.read(len(SQLITE_MAGIC))
    except OSError as e:
        raise StoreError(f"cannot open database {str(path)!r}: {e.strerror}") from None
    if magic != SQLITE_MAGIC:
        raise StoreError(f"cannot open database {str(path)!r}: not an SQLite database")
    try:
        con = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True, timeout=lock_timeout())
        try:
            tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            tables.discard("sqlite_sequence")
            if "meta" in tables:
                con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        finally:
            con.close()
    except sqlite3.Error as e:
        raise StoreError(f"cannot open database {str(path)!r}: {e}") from None
    if tables and "meta" not in tables:
        raise StoreError(
            f"{str(path)!r} is not a cryptobench database (it holds tables: {', '.join(sorted(tables))}); "
            "give another --db"
        )
