"""Where runs live: an embedded SQLite file by default, or a PostgreSQL database, chosen by `--db URL`
or CRYPTOBENCH_DB."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from cryptobench.core.errors import UserError
from cryptobench.store.model import CellRecord, RunRecord, VerifyRecord
from cryptobench.store.sink import RunSink, RunSource
from cryptobench.store.spool import SpoolingStore, import_spools

if TYPE_CHECKING:
    from cryptobench.store.sql import SqlStore

DEFAULT_DB = "cryptobench.db"

__all__ = ["CellRecord", "RunRecord", "VerifyRecord", "RunSink", "RunSource", "SpoolingStore", "open_store",
           "DEFAULT_DB", "db_url", "redact"]  # fmt: skip


def redact(url: str) -> str:
    """A URL fit for reports and logs: its password masked."""
    from cryptobench.store.sql import redact as redact_url  # SQLAlchemy is loaded when a store is used, not at start-up

    return redact_url(url)


def db_url(given: str | None) -> str:
    """The store a command uses: --db, else CRYPTOBENCH_DB, else ./cryptobench.db."""
    return given or os.environ.get("CRYPTOBENCH_DB") or DEFAULT_DB


def where(url: str) -> tuple[str, Path | None]:
    """What a --db names: (an SQLAlchemy URL, None) for PostgreSQL, (the path, Path) for SQLite."""
    if url.startswith(("postgres://", "postgresql://", "postgresql+psycopg://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1], None
    if "://" in url and not url.startswith("sqlite://"):
        raise UserError(
            f"cannot open database {redact(url)!r}: unknown scheme (use a path, sqlite:///path or postgresql://...)"
        )
    path = url
    if url.startswith("sqlite:///"):
        path = url[len("sqlite://") :]
    elif url.startswith("sqlite:"):
        path = url[len("sqlite:") :]
    return path, Path(path)


def open_store(url: str | None, import_waiting: bool = True) -> SqlStore:
    """`./cryptobench.db`, `sqlite:///abs/path.db`, `sqlite:rel.db`, a plain path, or
    `postgresql://user@host/db` (libpq's settings apply: PGPASSWORD, PGSSLMODE, ~/.pgpass...).
    Migrated to this cryptobench's schema: the store a command writes to (a store only copied from:
    store/source.py)."""
    from cryptobench.store.sql import SqlStore

    store = SqlStore(*where(db_url(url)))
    if import_waiting:
        import_spools(store)  # runs kept aside while this database could not be written
    return store
