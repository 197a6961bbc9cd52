"""The store over SQLAlchemy Core: one class for an SQLite file and a PostgreSQL database.

Every write is committed the moment it is made (a cell measured is a cell kept), except inside
transaction(). Every database error comes out as a one-line StoreError naming the store (its URL
with any password masked) and the cause; the runner then keeps the run's cells in a spool file
(store/spool.py). An SQLite file that is not ours is refused before anything is written to it.
CRYPTOBENCH_DB_LOCK_TIMEOUT (seconds, default 30) is how long a write waits for another process's
lock (SQLite) or a connection (PostgreSQL) before it gives up.

The tables are read and written by parts, one per job: runs.py (a run's row and providers), cells.py,
checks.py (verifications, cross-checks), phases.py (scaling, leak checks), refs.py (reference figures).
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
import urllib.parse
import weakref
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import exc

from cryptobench.core.errors import StoreError
from cryptobench.store import migrate
from cryptobench.store.cells import CellTables
from cryptobench.store.checks import CheckTables
from cryptobench.store.phases import PhaseTables
from cryptobench.store.refs import RefTables
from cryptobench.store.runs import RunTables
from cryptobench.store.schema import meta
from cryptobench.store.sqlbase import StoreBehind, lock_timeout, one_line, redact, reported
from cryptobench.store.sqlite_file import SQLITE_MAGIC, check_sqlite_path, not_a_file

# what other modules import from here, from before the parts were split out
__all__ = ["SQLITE_MAGIC", "SqlStore", "StoreBehind", "close_all", "lock_timeout", "not_a_file", "one_line", "redact"]

_OPEN: weakref.WeakSet = weakref.WeakSet()  # every open store, for close_all()


def close_all() -> None:
    """Close every store's connections (before a server they talk to goes away: tests, agents)."""
    for store in list(_OPEN):
        store.close()


class SqlStore(RunTables, CellTables, CheckTables, PhaseTables, RefTables):
    """A store (store/sink.py's RunSink and RunSource, and everything the commands read)."""

    def __init__(self, url: str, path: Path | None = None, read_only: bool = False):
        """`url`: an SQLAlchemy URL (sqlite:///..., postgresql+psycopg://...); `path` for SQLite.
        `read_only`: a store only read from, never migrated (an SQLite file is opened read-only);
        StoreBehind when it would need migrating to be read."""
        self.path = path
        self.url = redact(url) if path is None else (f"sqlite:///{path.resolve()}" if path.is_absolute() else str(path))
        self.dialect = "sqlite" if path is not None else "postgresql"
        self._batch = False  # inside transaction(): one commit at the end, not one per call
        self.lock = threading.RLock()  # one caller at a time on self.conn (store/sqlbase.py's reported)
        if path is not None and read_only:
            check_sqlite_path(path)
            ro = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
            engine = sa.create_engine(
                "sqlite://", creator=lambda: sqlite3.connect(ro, uri=True, timeout=lock_timeout())
            )
        elif path is not None:
            check_sqlite_path(path)
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

    @reported("write to")
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

    @reported("read")
    def get_meta(self, key: str) -> str | None:
        return self.conn.execute(sa.select(meta.c.value).where(meta.c.key == key)).scalar()

    @reported("write to")
    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute(meta.delete().where(meta.c.key == key))
        self.conn.execute(meta.insert().values(key=key, value=value))
        self._commit()
