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

meta = Table("meta", metadata, Column("key", Text, primary_key=True), Column("value", Text, nullable=False))

runs = Table(
    "runs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("started", Text, nullable=False),
    Column("finished", Text),
    Column("status", Text, nullable=False),
    Column("suite", Text, nullable=False),
    Column("label", Text, nullable=False, server_default=""),
    Column("settings", Text, nullable=False),
    Column("env", Text, nullable=False),
    # 0002: a run's global id (the same in every store it is copied to), its machine, its job
    Column("uid", Text, nullable=False),
    Column("machine_id", Text, nullable=False, server_default=""),
    Column("machine_label", Text, nullable=False, server_default=""),
    Column("job", Text),
    Index("runs_uid", "uid", unique=True),
    Index("runs_machine", "machine_label"),
    sqlite_autoincrement=True,
)

providers = Table(
    "providers",
    metadata,
    Column("run_id", Integer, ForeignKey("runs.id"), primary_key=True),
    Column("provider", Text, primary_key=True),
    Column("hello", Text, nullable=False),
)

verifications = Table(
    "verifications",
    metadata,
    Column("run_id", Integer, ForeignKey("runs.id"), primary_key=True),
    Column("provider", Text, primary_key=True),
    Column("alg", Text, primary_key=True),
    Column("status", Text, nullable=False),
    Column("passed", Integer, nullable=False),
    Column("failed", Integer, nullable=False),
    Column("skipped", Integer, nullable=False),
    Column("detail", Text, nullable=False),
)

cells = Table(
    "cells",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("run_id", Integer, ForeignKey("runs.id"), nullable=False),
    Column("provider", Text, nullable=False),
    Column("alg", Text, nullable=False),
    Column("op", Text, nullable=False),
    # 0003: 64-bit, as every figure a driver or a result file puts in a cell (a batch may be 2^40)
    Column("size", BigInteger, nullable=False),
    Column("chunk", BigInteger, nullable=False),
    Column("status", Text, nullable=False),
    Column("reason", Text, nullable=False),
    Column("batch", BigInteger, nullable=False),
    Column("samples_ns", Text, nullable=False),
    Column("checksum", Text, nullable=False),
    Column("checksums_seen", Text, nullable=False),
    Column("peak_rss_kb", BigInteger, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("started", Text, nullable=False),
    Column("finished", Text, nullable=False),
    Column("extra", Text, nullable=False),
    Index("cells_run", "run_id"),
    Index("cells_series", "alg", "provider"),  # 0002: history reads one algorithm's cells over runs
    sqlite_autoincrement=True,
)

refs = Table(
    "refs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("added", Text, nullable=False),
    Column("source", Text, nullable=False),
    Column("machine", Text, nullable=False),
    Column("url", Text, nullable=False),
    Column("alg", Text, nullable=False),
    Column("op", Text, nullable=False),
    Column("size", BigInteger, nullable=False),  # 0003
    Column("ns_per_op", Float, nullable=False),
    sqlite_autoincrement=True,
)

conformance = Table(
    "conformance",
    metadata,
    Column("run_id", Integer, ForeignKey("runs.id"), primary_key=True),
    Column("provider", Text, primary_key=True),
    Column("alg", Text, primary_key=True),
    Column("data", Text, nullable=False),
)

crosschecks = Table(
    "crosschecks",
    metadata,
    Column("run_id", Integer, ForeignKey("runs.id"), nullable=False),
    Column("alg", Text, nullable=False),
    Column("producer", Text, nullable=False),
    Column("consumer", Text, nullable=False),
    Column("check_name", Text, nullable=False),
    Column("passed", Integer, nullable=False),
    Column("detail", Text, nullable=False),
    Column("seq", Integer, nullable=False, server_default="0"),  # 0002: their order (SQLite had rowid)
)

# 0004: the phases after the timing, each record as written (`data`, JSON) beside the columns that find it;
# before, they were inside runs.env ("scaling", "leak")
scaling = Table(
    "scaling",
    metadata,
    Column("run_id", Integer, ForeignKey("runs.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # the order they were measured in
    Column("provider", Text, nullable=False),
    Column("alg", Text, nullable=False),
    Column("op", Text, nullable=False),
    Column("size", BigInteger, nullable=False),
    Column("workers", Integer, nullable=False),
    Column("data", Text, nullable=False),
    Index("scaling_run", "run_id"),
)

leak_checks = Table(
    "leak_checks",
    metadata,
    Column("run_id", Integer, ForeignKey("runs.id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("provider", Text, nullable=False),
    Column("alg", Text, nullable=False),
    Column("op", Text, nullable=False),
    Column("size", BigInteger, nullable=False),
    Column("leak_class", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("data", Text, nullable=False),
    Index("leak_checks_run", "run_id"),
)

OUR_TABLES = {"meta", "runs", "providers", "verifications", "cells", "refs", "crosschecks", "conformance", "scaling",
              "leak_checks"}  # fmt: skip
