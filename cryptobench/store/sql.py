"""The store over SQLAlchemy Core: one class for an SQLite file and a PostgreSQL database.

Every write is committed the moment it is made (a cell measured is a cell kept), except inside
transaction(). Every database error comes out as a one-line StoreError naming the store (its URL
with any password masked) and the cause; the runner then keeps the run's cells in a spool file
(store/spool.py). An SQLite file that is not ours is refused before anything is written to it.
CRYPTOBENCH_DB_LOCK_TIMEOUT (seconds, default 30) is how long a write waits for another process's
lock (SQLite) or a connection (PostgreSQL) before it gives up.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import sqlite3
import stat
import urllib.parse
import uuid
import weakref
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import exc

from cryptobench.core.errors import StoreError, UserError
from cryptobench.store import migrate
from cryptobench.store.figures import fit
from cryptobench.store.model import CellRecord, RecordRefused, RunRecord, VerifyRecord
from cryptobench.store.schema import cells, conformance, crosschecks, meta, providers, refs, runs, verifications

SQLITE_MAGIC = b"SQLite format 3\x00"
_OPEN: weakref.WeakSet = weakref.WeakSet()  # every open store, for close_all()


def close_all() -> None:
    """Close every store's connections (before a server they talk to goes away: tests, agents)."""
    for store in list(_OPEN):
        store.close()


def lock_timeout() -> float:
    try:
        value = float(os.environ.get("CRYPTOBENCH_DB_LOCK_TIMEOUT", "30"))
    except ValueError:
        raise UserError("CRYPTOBENCH_DB_LOCK_TIMEOUT must be a number of seconds") from None
    return value if value >= 0 else 30.0


def redact(url: str) -> str:
    """A URL fit for reports and logs: its password masked."""
    try:
        shown = sa.engine.make_url(url).render_as_string(hide_password=True)
    except exc.ArgumentError:
        return url
    return shown.replace("postgresql+psycopg://", "postgresql://", 1)


def one_line(e: BaseException) -> str:
    """The database's own words, first line: without SQLAlchemy's statement dump and help link
    (its `.orig`) and without procrastinate's "Database error." wrapper (its cause)."""
    e = getattr(e, "orig", None) or e
    while any(c.__name__ == "ConnectorException" for c in type(e).__mro__) and (e.__cause__ or e.__context__):
        e = e.__cause__ or e.__context__
    text = str(e).strip().splitlines()
    return (text[0] if text else type(e).__name__).removeprefix("(psycopg.OperationalError) ")


def _reported(action: str):
    """Turn any database error of the decorated method into one line naming the store and the cause;
    RecordRefused when the record itself is what the database refuses (writing it again cannot help)."""

    def wrap(method):
        @functools.wraps(method)
        def run(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except (exc.DataError, exc.IntegrityError, sqlite3.DataError, sqlite3.IntegrityError, OverflowError) as e:
                self._recover()  # OverflowError: sqlite3 refusing an integer beyond 64 bits
                raise RecordRefused(f"cannot {action} database {self.url!r}: {one_line(e)}") from None
            except (exc.SQLAlchemyError, sqlite3.Error) as e:
                self._recover()
                raise StoreError(f"cannot {action} database {self.url!r}: {one_line(e)}") from None

        return run

    return wrap


class StoreBehind(StoreError):
    """A store opened read-only that only a migration would make readable."""


def _j(value) -> str:
    return json.dumps(value)


class SqlStore:
    def __init__(self, url: str, path: Path | None = None, read_only: bool = False):
        """`url`: an SQLAlchemy URL (sqlite:///..., postgresql+psycopg://...); `path` for SQLite.
        `read_only`: a store only read from, never migrated (an SQLite file is opened read-only);
        StoreBehind when it would need migrating to be read."""
        self.path = path
        self.url = redact(url) if path is None else (f"sqlite:///{path.resolve()}" if path.is_absolute() else str(path))
        self.dialect = "sqlite" if path is not None else "postgresql"
        self._batch = False  # inside transaction(): one commit at the end, not one per call
        if path is not None and read_only:
            _check_sqlite_path(path)
            ro = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
            engine = sa.create_engine(
                "sqlite://", creator=lambda: sqlite3.connect(ro, uri=True, timeout=lock_timeout())
            )
        elif path is not None:
            _check_sqlite_path(path)
            engine = sa.create_engine(f"sqlite:///{path}", connect_args={"timeout": lock_timeout()})
        else:
            timeout = max(1, int(lock_timeout()))
            engine = sa.create_engine(url, connect_args={"connect_timeout": timeout}, pool_pre_ping=True)
        self.engine = engine
        try:
            if not read_only:
                migrate.upgrade(engine, repr(self.url))
            elif not migrate.is_current(engine, repr(self.url)):
                raise StoreBehind(f"database {self.url!r} is at an older schema revision")
            self.conn = engine.connect()
            _OPEN.add(self)
        except (exc.SQLAlchemyError, sqlite3.Error) as e:
            engine.dispose()
            raise StoreError(f"cannot open database {self.url!r}: {one_line(e)}") from None
        except StoreError:
            engine.dispose()
            raise

    # --- where a run waits while this store cannot be written (store/spool.py) --------------

    @property
    def spool_key(self) -> str:
        return str(self.path.resolve()) if self.path is not None else self.url

    @property
    def spool_name(self) -> str:
        if self.path is not None:
            return self.path.resolve().name
        return "postgresql-" + hashlib.sha256(self.url.encode()).hexdigest()[:12]

    def _recover(self) -> None:
        """After an error: roll back, and if the connection itself was lost (a server restarted, a
        network cut), take a new one for the next call, so a run whose writes went to a spool can
        still land when the server is back."""
        try:
            self.conn.rollback()
            if not self.conn.invalidated:
                return
        except (exc.SQLAlchemyError, sqlite3.Error):
            pass
        with contextlib.suppress(exc.SQLAlchemyError, sqlite3.Error):
            self.conn.close()
        with contextlib.suppress(exc.SQLAlchemyError, sqlite3.Error):
            self.conn = self.engine.connect()

    def _commit(self) -> None:
        if not self._batch:
            self.conn.commit()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Many writes, one commit: all of them land or none (a spool import must not land twice)."""
        self._batch = True
        try:
            yield
            self.conn.commit()
        except BaseException:
            with contextlib.suppress(exc.SQLAlchemyError, sqlite3.Error):
                self.conn.rollback()
            raise
        finally:
            self._batch = False

    @_reported("write to")
    def check_writable(self) -> None:
        """Before a run measures anything: a write that is rolled back, so a read-only file, a full
        disk, a lock held too long or a role without rights is said in one line before minutes of
        measuring, not after."""
        self.conn.execute(meta.update().where(meta.c.key == "schema_version").values(value=meta.c.value))
        self.conn.rollback()

    def close(self) -> None:
        with contextlib.suppress(exc.SQLAlchemyError, sqlite3.Error):
            self.conn.close()
        self.engine.dispose()

    # --- meta ----------------------------------------------------------------

    @_reported("read")
    def get_meta(self, key: str) -> str | None:
        return self.conn.execute(sa.select(meta.c.value).where(meta.c.key == key)).scalar()

    @_reported("write to")
    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(meta.delete().where(meta.c.key == key))
        self.conn.execute(meta.insert().values(key=key, value=value))
        self._commit()

    # --- writing ----------------------------------------------------------

    @_reported("write to")
    def create_run(self, run: RunRecord) -> int:
        run.uid = run.uid or uuid.uuid4().hex
        env = run.env if isinstance(run.env, dict) else {}
        row = self.conn.execute(
            runs.insert().values(
                started=run.started, finished=run.finished, status=run.status, suite=run.suite, label=run.label,
                settings=_j(run.settings), env=_j(run.env), uid=run.uid, job=run.job,
                machine_id=str(env.get("machine_id") or ""),
                machine_label=str(env.get("machine_label") or env.get("hostname") or ""),
            )
        )  # fmt: skip
        self._commit()
        run.id = row.inserted_primary_key[0]
        return run.id

    @_reported("write to")
    def add_provider(self, run_id: int, provider: str, hello: dict) -> None:
        key = (providers.c.run_id == run_id) & (providers.c.provider == provider)
        self.conn.execute(providers.delete().where(key))
        self.conn.execute(
            providers.insert().values(run_id=run_id, provider=provider, hello=json.dumps(hello, sort_keys=True))
        )
        self._commit()

    @_reported("write to")
    def add_verification(self, run_id: int, v: VerifyRecord) -> None:
        for table in (verifications, conformance):
            self.conn.execute(
                table.delete().where(
                    (table.c.run_id == run_id) & (table.c.provider == v.provider) & (table.c.alg == v.alg)
                )
            )
        self.conn.execute(
            verifications.insert().values(
                run_id=run_id, provider=v.provider, alg=v.alg, status=v.status, passed=v.passed, failed=v.failed,
                skipped=v.skipped, detail=v.detail,
            )
        )  # fmt: skip
        if v.conformance:
            data = json.dumps(v.conformance, sort_keys=True)
            self.conn.execute(conformance.insert().values(run_id=run_id, provider=v.provider, alg=v.alg, data=data))
        self._commit()

    @staticmethod
    def _cell_row(run_id: int, c: CellRecord) -> dict:
        c = fit(c)  # a figure outside the protocol fails its own cell, never the write of the run
        return dict(
            run_id=run_id, provider=c.provider, alg=c.alg, op=c.op, size=c.size, chunk=c.chunk, status=c.status,
            reason=c.reason, batch=c.batch, samples_ns=_j(c.samples_ns), checksum=c.checksum,
            checksums_seen=_j(c.checksums_seen), peak_rss_kb=c.peak_rss_kb, rounds=c.rounds, started=c.started,
            finished=c.finished, extra=_j(c.extra),
        )  # fmt: skip

    @_reported("write to")
    def add_cell(self, run_id: int, c: CellRecord) -> None:
        self.conn.execute(cells.insert().values(**self._cell_row(run_id, c)))
        self._commit()

    @_reported("write to")
    def add_cells(self, run_id: int, records: list[CellRecord]) -> None:
        """Many cells in one statement (copying a run between stores)."""
        if records:
            self.conn.execute(cells.insert(), [self._cell_row(run_id, c) for c in records])
        self._commit()

    @_reported("write to")
    def add_crosschecks(self, run_id: int, records: list) -> None:
        if not records:
            return
        start = self.conn.execute(
            sa.select(sa.func.count()).select_from(crosschecks).where(crosschecks.c.run_id == run_id)
        ).scalar()
        self.conn.execute(
            crosschecks.insert(),
            [
                dict(run_id=run_id, alg=r.alg, producer=r.producer, consumer=r.consumer, check_name=r.check,
                     passed=int(r.passed), detail=r.detail, seq=start + i)
                for i, r in enumerate(records)
            ],
        )  # fmt: skip
        self._commit()

    @_reported("read")
    def load_crosschecks(self, run_id: int) -> list:
        from cryptobench.verify.cross_checks import CrossRecord

        c = crosschecks.c
        rows = self.conn.execute(
            sa.select(c.alg, c.producer, c.consumer, c.check_name, c.passed, c.detail)
            .where(c.run_id == run_id)
            .order_by(c.seq)
        ).fetchall()
        return [CrossRecord(a, p, co, ch, bool(ok), d) for a, p, co, ch, ok, d in rows]

    @_reported("write to")
    def add_references(self, refs_: list, added: str) -> list[int]:
        ids = []
        for r in refs_:
            row = self.conn.execute(
                refs.insert().values(added=added, source=r.source, machine=r.machine, url=r.url, alg=r.alg, op=r.op,
                                     size=r.size, ns_per_op=r.ns_per_op)
            )  # fmt: skip
            r.id = row.inserted_primary_key[0]
            ids.append(r.id)
        self._commit()
        return ids

    @_reported("read")
    def load_references(self) -> list:
        from cryptobench.analysis.references import Reference

        c = refs.c
        rows = self.conn.execute(
            sa.select(c.id, c.source, c.machine, c.url, c.alg, c.op, c.size, c.ns_per_op).order_by(c.id)
        )
        return [Reference(*row) for row in rows.fetchall()]

    @_reported("write to")
    def remove_reference(self, ref_id: int) -> bool:
        gone = self.conn.execute(refs.delete().where(refs.c.id == ref_id)).rowcount
        self._commit()
        return gone > 0

    @_reported("write to")
    def finish_run(self, run_id: int, status: str, finished: str, env_update: dict | None = None) -> None:
        values = {"status": status, "finished": finished}
        if env_update:
            env = json.loads(self.conn.execute(sa.select(runs.c.env).where(runs.c.id == run_id)).scalar())
            values["env"] = _j({**env, **env_update})
        self.conn.execute(runs.update().where(runs.c.id == run_id).values(**values))
        self._commit()

    @_reported("write to")
    def set_run_status(self, run_id: int, status: str) -> None:
        self.conn.execute(runs.update().where(runs.c.id == run_id).values(status=status))
        self._commit()

    # --- reading ----------------------------------------------------------

    @_reported("read")
    def list_runs(self, machine: str | None = None) -> list[dict]:
        r, c = runs.c, cells.c
        ok = sa.select(sa.func.count()).where((c.run_id == r.id) & (c.status == "ok")).scalar_subquery()
        failed = sa.select(sa.func.count()).where((c.run_id == r.id) & (c.status == "failed")).scalar_subquery()
        query = sa.select(r.id, r.started, r.finished, r.status, r.suite, r.label, ok, failed, r.env, r.uid,
                          r.machine_label, r.machine_id, r.job).order_by(r.id)  # fmt: skip
        if machine:
            query = query.where(r.machine_label == machine)
        names: dict[int, list[str]] = {}
        for run_id, provider in self.conn.execute(
            sa.select(providers.c.run_id, providers.c.provider).order_by(providers.c.run_id, providers.c.provider)
        ):
            names.setdefault(run_id, []).append(provider)
        out = []
        for row in self.conn.execute(query):
            try:
                env = json.loads(row.env)
            except ValueError:
                env = {}
            env = env if isinstance(env, dict) else {}
            out.append({
                "id": row.id, "started": row.started, "finished": row.finished, "status": row.status,
                "suite": row.suite, "label": row.label, "cells_ok": row[6], "cells_failed": row[7],
                "providers": ",".join(names.get(row.id, [])) or None, "hostname": env.get("hostname"),
                "pid": env.get("pid"), "machine_label": row.machine_label or None,
                "machine_id": row.machine_id or None, "uid": row.uid, "job": row.job,
            })  # fmt: skip
        return out

    @_reported("read")
    def measured_algorithms(self) -> list[str]:
        """Every algorithm with a measured cell in some run, sorted."""
        q = sa.select(cells.c.alg).where(cells.c.status == "ok").distinct().order_by(cells.c.alg)
        return [row[0] for row in self.conn.execute(q)]

    @_reported("read")
    def run_ids(self) -> list[int]:
        return [row[0] for row in self.conn.execute(sa.select(runs.c.id).order_by(runs.c.id))]

    @_reported("read")
    def run_id_of(self, uid: str) -> int | None:
        return self.conn.execute(sa.select(runs.c.id).where(runs.c.uid == uid)).scalar()

    @_reported("read")
    def runs_of_job(self, job: str) -> list[tuple[int, str]]:
        return [tuple(r) for r in self.conn.execute(sa.select(runs.c.id, runs.c.status).where(runs.c.job == job))]

    @_reported("read")
    def series_cells(self, alg: str, provider: str | None, machine: str | None) -> list[tuple[dict, CellRecord]]:
        """Every measured cell of `alg` (and `provider`) in complete runs, oldest run first, with its
        run's fields and the provider's reported version: the raw material of a history. One query;
        a run's fields are read once however many cells it has."""
        r, c, p = runs.c, cells.c, providers.c
        q = (
            sa.select(r.id, r.uid, r.started, r.suite, r.label, r.machine_label, r.env, r.settings, c.provider, c.op,
                      c.size, c.chunk, c.status, c.batch, c.samples_ns, c.extra, p.hello)
            .join(cells, c.run_id == r.id)
            .outerjoin(providers, (p.run_id == r.id) & (p.provider == c.provider))
            .where((c.alg == alg) & (r.status == "complete") & (c.status == "ok"))
            .order_by(r.started, r.id, c.id)
        )  # fmt: skip
        if provider:
            q = q.where(c.provider == provider)
        if machine:
            q = q.where(r.machine_label == machine)
        runs_seen: dict[int, dict] = {}
        out = []
        for x in self.conn.execute(q):
            if x.id not in runs_seen:
                env = json.loads(x.env)
                runs_seen[x.id] = {
                    "id": x.id, "uid": x.uid, "started": x.started, "suite": x.suite, "label": x.label,
                    "machine": x.machine_label or env.get("hostname") or "?", "commit": env.get("git_commit"),
                    "cpu_features": json.loads(x.settings).get("cpu_features") or "",
                }  # fmt: skip
            hello = json.loads(x.hello) if x.hello else {}
            run = {**runs_seen[x.id], "library_version": hello.get("library_version", "")}
            cell = CellRecord(provider=x.provider, alg=alg, op=x.op, size=x.size, chunk=x.chunk, status=x.status,
                              batch=x.batch, samples_ns=json.loads(x.samples_ns), extra=json.loads(x.extra))  # fmt: skip
            out.append((run, cell))
        return out

    def resolve_run(self, ref: str | int | None) -> int:
        """A run id, `latest`/`last`, `latest~N` (N runs before the latest), or a global id (uid)."""
        ids = self.run_ids()
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
        if text.isdigit() and int(text) in ids:
            return int(text)
        if len(text) == 32 and (found := self.run_id_of(text.lower())) is not None:
            return found
        raise UserError(f"run {text!r} not found in {self.url} (see `cryptobench runs`)")

    @_reported("read")
    def load_run(self, run_id: int) -> tuple[RunRecord, list[VerifyRecord], list[CellRecord]]:
        r = runs.c
        row = self.conn.execute(
            sa.select(r.id, r.started, r.finished, r.status, r.suite, r.label, r.settings, r.env, r.uid, r.job).where(
                r.id == run_id
            )
        ).fetchone()
        if row is None:
            raise UserError(f"run {run_id} not found in {self.url}")
        run = RunRecord(
            id=row[0], started=row[1], finished=row[2], status=row[3], suite=row[4], label=row[5],
            settings=json.loads(row[6]), env=json.loads(row[7]), uid=row[8], job=row[9],
        )  # fmt: skip
        p = providers.c
        for provider, hello in self.conn.execute(sa.select(p.provider, p.hello).where(p.run_id == run_id)):
            run.providers[provider] = json.loads(hello)
        k = conformance.c
        extra = {
            (pr, a): json.loads(d)
            for pr, a, d in self.conn.execute(sa.select(k.provider, k.alg, k.data).where(k.run_id == run_id))
        }
        v = verifications.c
        verifs = [
            VerifyRecord(*row, conformance=extra.get((row[0], row[1]), {}))
            for row in self.conn.execute(
                sa.select(v.provider, v.alg, v.status, v.passed, v.failed, v.skipped, v.detail)
                .where(v.run_id == run_id)
                .order_by(v.provider, v.alg)
            )
        ]
        c = cells.c
        loaded = []
        for x in self.conn.execute(sa.select(cells).where(c.run_id == run_id).order_by(c.id)):
            loaded.append(
                CellRecord(
                    provider=x.provider, alg=x.alg, op=x.op, size=x.size, chunk=x.chunk, status=x.status,
                    reason=x.reason, batch=x.batch, samples_ns=json.loads(x.samples_ns), checksum=x.checksum,
                    checksums_seen=json.loads(x.checksums_seen), peak_rss_kb=x.peak_rss_kb, rounds=x.rounds,
                    started=x.started, finished=x.finished, extra=json.loads(x.extra),
                )
            )  # fmt: skip
        return run, verifs, loaded


def not_a_file(path: Path) -> str | None:
    """What `path` is when it exists and is no regular file ("a FIFO", "a directory"...), else None.
    SQLite would answer "disk I/O error" for most, and a FIFO opened to be read blocks forever."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    kinds = [(stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device")]  # fmt: skip
    return next((name for test, name in kinds if test(mode)), None if stat.S_ISREG(mode) else "not a regular file")


def _check_sqlite_path(path: Path) -> None:
    if path.parent and not path.parent.exists():
        raise UserError(f"cannot open database {str(path)!r}: directory {str(path.parent)!r} does not exist")
    if kind := not_a_file(path):
        raise UserError(f"cannot open database {str(path)!r}: it is {kind}, not a database file")
    _refuse_foreign(path)


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
            tables -= {"sqlite_sequence", "alembic_version"}
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
