"""What every part of the SQL store shares: one-line errors naming the store, the lock timeout, a
URL with its password masked, JSON columns."""

from __future__ import annotations

import functools
import json
import os
import sqlite3

import sqlalchemy as sa
from sqlalchemy import exc

from cryptobench.core.errors import StoreError, UserError
from cryptobench.store.model import RecordRefused


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


def reported(action: str):
    """Turn any database error of the decorated method into one line naming the store and the cause;
    RecordRefused when the record itself is what the database refuses (writing it again cannot help)."""

    def wrap(method):
        @functools.wraps(method)
        def run(self, *args, **kwargs):
            with self.lock:  # verification writes from several threads; one connection is not thread-safe
                try:
                    return method(self, *args, **kwargs)
                except (
                    exc.DataError,
                    exc.IntegrityError,
                    sqlite3.DataError,
                    sqlite3.IntegrityError,
                    OverflowError,
                ) as e:
                    self._recover()  # OverflowError: sqlite3 refusing an integer beyond 64 bits
                    raise RecordRefused(f"cannot {action} database {self.url!r}: {one_line(e)}") from None
                except (exc.SQLAlchemyError, sqlite3.Error) as e:
                    self._recover()
                    raise StoreError(f"cannot {action} database {self.url!r}: {one_line(e)}") from None

        return run

    return wrap


class StoreBehind(StoreError):
    """A store opened read-only that only a migration would make readable."""


def as_json(value) -> str:
    return json.dumps(value)
