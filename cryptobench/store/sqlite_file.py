"""An SQLite store's file: refused in one line when it is no regular file, not SQLite, or another
application's database (which must not gain our tables)."""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

from cryptobench.core.errors import StoreError, UserError
from cryptobench.store.sqlbase import lock_timeout

SQLITE_MAGIC = b"SQLite format 3\x00"


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


def check_sqlite_path(path: Path) -> None:
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
