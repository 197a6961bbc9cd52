"""Bring a store's schema to the revision this cryptobench reads, with Alembic, when it is opened.

Three cases: a new store (every migration runs), a store from before Alembic (cryptobench 0.1's
SQLite files: meta.schema_version 1 and no alembic_version; stamped 0001, then upgraded, runs
intact), a store already current (nothing runs: the revision is read and compared, Alembic is not
even loaded). A store at a revision this code does not know was written by a newer cryptobench:
refused in one line, never touched. A store only read from (an import's source) is never migrated:
is_current() says whether it can be read as it is (store/source.py).
"""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from cryptobench.core.errors import StoreError
from cryptobench.store.schema import SCHEMA_REVISION, SCHEMA_VERSION

MIGRATIONS = Path(__file__).with_name("migrations")
_PG_MIGRATION_LOCK = 0x63627374  # an advisory lock: two agents opening a new store migrate it once


def current_revision(conn: sa.Connection) -> str | None:
    if not sa.inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()


def _config(conn: sa.Connection):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


def _known(cfg, revision: str) -> bool:
    from alembic.script import ScriptDirectory
    from alembic.util import CommandError

    try:
        return ScriptDirectory.from_config(cfg).get_revision(revision) is not None
    except CommandError:
        return False


def _refuse_unknown(conn: sa.Connection, cfg, rev: str | None, where: str) -> None:
    """A StoreError when no migration of this cryptobench reads the store: a revision it does not
    know (a newer cryptobench wrote it), or pre-Alembic tables of a schema version other than 1."""
    if rev is not None and not _known(cfg, rev):
        raise StoreError(
            f"database {where} has schema revision {rev!r}, newer than this cryptobench "
            f"(it reads {SCHEMA_REVISION}): use a newer cryptobench, or another --db"
        )
    if rev is None and sa.inspect(conn).has_table("meta"):
        version = conn.execute(sa.text("SELECT value FROM meta WHERE key='schema_version'")).scalar()
        if version is not None and str(version) != "1":
            raise StoreError(f"database {where} has schema version {version}, this cryptobench reads {SCHEMA_VERSION}")


def is_current(engine: sa.Engine, where: str) -> bool:
    """Whether the store at `engine` is at SCHEMA_REVISION, found without writing to it (a store only
    read from); False when a migration would bring it there, a StoreError when none can or it holds
    no cryptobench tables at all."""
    with engine.connect() as conn:
        rev = current_revision(conn)
        if rev == SCHEMA_REVISION:
            return True
        if rev is None and not sa.inspect(conn).has_table("meta"):
            raise StoreError(f"database {where} holds no cryptobench store (none of its tables)")
        _refuse_unknown(conn, _config(conn), rev, where)
        return False


def upgrade(engine: sa.Engine, where: str) -> None:
    """Migrate the store at `engine` to SCHEMA_REVISION; `where` names it in errors."""
    with engine.connect() as conn:
        if current_revision(conn) == SCHEMA_REVISION:
            return
    from alembic import command

    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
        rev = current_revision(conn)
        if rev == SCHEMA_REVISION:
            return  # another process migrated it while we waited for the lock
        cfg = _config(conn)
        _refuse_unknown(conn, cfg, rev, where)
        if rev is None and sa.inspect(conn).has_table("meta"):
            command.stamp(cfg, "0001")  # cryptobench 0.1's tables are revision 0001's
        command.upgrade(cfg, SCHEMA_REVISION)
