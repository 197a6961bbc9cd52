"""Where runs live: an embedded SQLite file by default, chosen by `--db URL`."""

from __future__ import annotations

from pathlib import Path

from ..errors import UserError
from .model import CellRecord, RunRecord, VerifyRecord
from .spool import SpoolingStore, import_spools
from .sqlite import SqliteStore

DEFAULT_DB = "cryptobench.db"

__all__ = ["CellRecord", "RunRecord", "VerifyRecord", "SpoolingStore", "open_store", "DEFAULT_DB"]


def open_store(url: str | None):
    """`./cryptobench.db`, `sqlite:///abs/path.db`, `sqlite:rel.db` or a plain path."""
    url = url or DEFAULT_DB
    if url.startswith(("postgres://", "postgresql://")):
        raise UserError(f"cannot open database {url!r}: PostgreSQL stores are not supported yet")
    if "://" in url and not url.startswith("sqlite://"):
        raise UserError(f"cannot open database {url!r}: unknown scheme (use a path or sqlite:///path)")
    path = url
    if url.startswith("sqlite:///"):
        path = url[len("sqlite://") :]
    elif url.startswith("sqlite:"):
        path = url[len("sqlite:") :]
    store = SqliteStore(Path(path))
    import_spools(store)  # runs kept aside while this database could not be written
    return store
