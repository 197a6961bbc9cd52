"""Opening a store only to copy runs from it (`import OTHER.db`, `push --db SRC`): it is never written.

A store a command writes to is migrated when it is opened (store/migrate.py); one it only reads
from must not change under the person who lent it (a file of cryptobench 0.1 kept as a record, a
fixture in git, a colleague's store). An SQLite source is opened read-only; one at an older schema
revision is copied (SQLite's backup, a consistent snapshot) to a temporary file, which is migrated
and read instead. A PostgreSQL source at an older revision cannot be copied so: it is refused in
one line saying how to migrate it. Nothing spooled for the source is imported into it.
"""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import weakref
from pathlib import Path
from urllib.parse import quote

from cryptobench.core.errors import StoreError, UserError
from cryptobench.store import redact, where
from cryptobench.store.sql import SqlStore, StoreBehind, lock_timeout


def _migrated_copy(path: Path, url: str) -> SqlStore:
    """A store read from a migrated copy of the SQLite file at `path`, named as that file."""
    folder = Path(tempfile.mkdtemp(prefix="cryptobench-source-"))
    copy = folder / path.name
    try:
        src = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=lock_timeout())
        dst = sqlite3.connect(copy)
        try:
            src.backup(dst)
        finally:
            dst.close()
            src.close()
        store = SqlStore(str(copy), copy)
    except sqlite3.Error as e:
        shutil.rmtree(folder, ignore_errors=True)
        raise StoreError(f"cannot read runs from {url!r}: {e}") from None
    except (StoreError, UserError) as e:
        shutil.rmtree(folder, ignore_errors=True)
        raise type(e)(str(e).replace(str(copy), str(path))) from None
    weakref.finalize(store, shutil.rmtree, folder, True)
    store.url, store.path = url, path  # named as the source in every line (and its spools are its own)
    return store


def open_source(url: str) -> SqlStore:
    """The store at `url`, to read runs from; never migrated, never written. One line when it cannot
    be read: missing, not a store, newer than this cryptobench, or a PostgreSQL store to migrate first."""
    target, path = where(url)
    if path is None:
        try:
            return SqlStore(target, read_only=True)
        except StoreBehind:
            shown = redact(url)
            raise StoreError(
                f"cannot read runs from {shown!r}: its schema is older than this cryptobench's, and a store "
                f"only copied from is not migrated; migrate it first (any command with --db {shown}, e.g. runs)"
            ) from None
    if not path.exists():
        raise UserError(f"cannot read runs from {str(path)!r}: no such file")
    try:
        return SqlStore(target, path, read_only=True)
    except StoreBehind:
        return _migrated_copy(path, f"sqlite:///{path.resolve()}" if path.is_absolute() else str(path))
