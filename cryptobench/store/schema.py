"""The store's tables, once, for every backend (SQLAlchemy Core): SQLite and PostgreSQL hold the
same columns. Structured values (settings, env, samples, extra) are JSON text, so a run reads back
byte for byte the same from either. Changing a table means a new migration in migrations/versions/
and SCHEMA_REVISION below (docs/store.md)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, Float, ForeignKey, Index, Integer, MetaData, Table, Text

# The Alembic revision this code reads and writes (the head of migrations/versions/).
SCHEMA_REVISION = "0004"
# meta.schema_version: the number an older cryptobench checks before Alembic existed here.
SCHEMA_VERSION = 4

metadata = MetaData()


def required(type_, *names: str, **kw) -> list[Column]:
    """NOT NULL columns of one type, in order."""
    return [Column(name, type_, nullable=False, **kw) for name in names]


def run_ref(**kw) -> Column:
    """The run a row belongs to."""
    return Column("run_id", Integer, ForeignKey("runs.id"), **kw)


def serial() -> Column:
    return Column("id", Integer, primary_key=True, autoincrement=True)


def keyed(name: str, keys: tuple[str, ...], *columns) -> Table:
    """A table whose key is the run and the text columns `keys` (provider, alg)."""
    return Table(
        name, metadata, run_ref(primary_key=True), *(Column(k, Text, primary_key=True) for k in keys), *columns
    )


meta = Table("meta", metadata, Column("key", Text, primary_key=True), *required(Text, "value"))

runs = Table(
    "runs",
    metadata,
    serial(),
    *required(Text, "started"),
    Column("finished", Text),
    *required(Text, "status", "suite"),
    *required(Text, "label", server_default=""),
    *required(Text, "settings", "env"),
    # 0002: a run's global id (the same in every store it is copied to), its machine, its job
    *required(Text, "uid"),
    *required(Text, "machine_id", "machine_label", server_default=""),
    Column("job", Text),
    Index("runs_uid", "uid", unique=True),
    Index("runs_machine", "machine_label"),
    sqlite_autoincrement=True,
)

providers = keyed("providers", ("provider",), *required(Text, "hello"))

verifications = keyed(
    "verifications",
    ("provider", "alg"),
    *required(Text, "status"),
    *required(Integer, "passed", "failed", "skipped"),
    *required(Text, "detail"),
)

cells = Table(
    "cells",
    metadata,
    serial(),
    run_ref(nullable=False),
    *required(Text, "provider", "alg", "op"),
    # 0003: 64-bit, as every figure a driver or a result file puts in a cell (a batch may be 2^40)
    *required(BigInteger, "size", "chunk"),
    *required(Text, "status", "reason"),
    *required(BigInteger, "batch"),
    *required(Text, "samples_ns", "checksum", "checksums_seen"),
    *required(BigInteger, "peak_rss_kb"),
    *required(Integer, "rounds"),
    *required(Text, "started", "finished", "extra"),
    Index("cells_run", "run_id"),
    Index("cells_series", "alg", "provider"),  # 0002: history reads one algorithm's cells over runs
    sqlite_autoincrement=True,
)

refs = Table(
    "refs",
    metadata,
    serial(),
    *required(Text, "added", "source", "machine", "url", "alg", "op"),
    *required(BigInteger, "size"),  # 0003
    *required(Float, "ns_per_op"),
    sqlite_autoincrement=True,
)

conformance = keyed("conformance", ("provider", "alg"), *required(Text, "data"))

crosschecks = Table(
    "crosschecks",
    metadata,
    run_ref(nullable=False),
    *required(Text, "alg", "producer", "consumer", "check_name"),
    *required(Integer, "passed"),
    *required(Text, "detail"),
    *required(Integer, "seq", server_default="0"),  # 0002: their order (SQLite had rowid)
)

# 0004: the phases after the timing, each record as written (`data`, JSON) beside the columns that find it;
# before, they were inside runs.env ("scaling", "leak")
scaling = Table(
    "scaling",
    metadata,
    run_ref(nullable=False),
    *required(Integer, "seq"),  # the order they were measured in
    *required(Text, "provider", "alg", "op"),
    *required(BigInteger, "size"),
    *required(Integer, "workers"),
    *required(Text, "data"),
    Index("scaling_run", "run_id"),
)

leak_checks = Table(
    "leak_checks",
    metadata,
    run_ref(nullable=False),
    *required(Integer, "seq"),
    *required(Text, "provider", "alg", "op"),
    *required(BigInteger, "size"),
    *required(Text, "leak_class", "status", "data"),
    Index("leak_checks_run", "run_id"),
)

OUR_TABLES = {"meta", "runs", "providers", "verifications", "cells", "refs", "crosschecks", "conformance", "scaling",
              "leak_checks"}  # fmt: skip
