"""Baseline: the schema of cryptobench 0.1 (meta.schema_version 1), as its SQLite files hold it.

A file made before Alembic managed the store has these tables and no alembic_version: it is
stamped with this revision, not re-created (cryptobench.store.migrate).

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

T, Int = sa.Text, sa.Integer


def upgrade() -> None:
    op.create_table("meta", sa.Column("key", T, primary_key=True), sa.Column("value", T, nullable=False))
    op.create_table(
        "runs",
        sa.Column("id", Int, primary_key=True, autoincrement=True),
        sa.Column("started", T, nullable=False),
        sa.Column("finished", T),
        sa.Column("status", T, nullable=False),
        sa.Column("suite", T, nullable=False),
        sa.Column("label", T, nullable=False, server_default=""),
        sa.Column("settings", T, nullable=False),
        sa.Column("env", T, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "providers",
        sa.Column("run_id", Int, sa.ForeignKey("runs.id"), primary_key=True),
        sa.Column("provider", T, primary_key=True),
        sa.Column("hello", T, nullable=False),
    )
    op.create_table(
        "verifications",
        sa.Column("run_id", Int, sa.ForeignKey("runs.id"), primary_key=True),
        sa.Column("provider", T, primary_key=True),
        sa.Column("alg", T, primary_key=True),
        *(sa.Column(n, T, nullable=False) for n in ("status",)),
        *(sa.Column(n, Int, nullable=False) for n in ("passed", "failed", "skipped")),
        sa.Column("detail", T, nullable=False),
    )
    op.create_table(
        "cells",
        sa.Column("id", Int, primary_key=True, autoincrement=True),
        sa.Column("run_id", Int, sa.ForeignKey("runs.id"), nullable=False),
        *(sa.Column(n, T, nullable=False) for n in ("provider", "alg", "op")),
        *(sa.Column(n, Int, nullable=False) for n in ("size", "chunk")),
        *(sa.Column(n, T, nullable=False) for n in ("status", "reason")),
        sa.Column("batch", Int, nullable=False),
        *(sa.Column(n, T, nullable=False) for n in ("samples_ns", "checksum", "checksums_seen")),
        *(sa.Column(n, Int, nullable=False) for n in ("peak_rss_kb", "rounds")),
        *(sa.Column(n, T, nullable=False) for n in ("started", "finished", "extra")),
        sqlite_autoincrement=True,
    )
    op.create_index("cells_run", "cells", ["run_id"])
    op.create_table(
        "refs",
        sa.Column("id", Int, primary_key=True, autoincrement=True),
        *(sa.Column(n, T, nullable=False) for n in ("added", "source", "machine", "url", "alg", "op")),
        sa.Column("size", Int, nullable=False),
        sa.Column("ns_per_op", sa.Float, nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "conformance",
        sa.Column("run_id", Int, sa.ForeignKey("runs.id"), primary_key=True),
        sa.Column("provider", T, primary_key=True),
        sa.Column("alg", T, primary_key=True),
        sa.Column("data", T, nullable=False),
    )
    op.create_table(
        "crosschecks",
        sa.Column("run_id", Int, sa.ForeignKey("runs.id"), nullable=False),
        *(sa.Column(n, T, nullable=False) for n in ("alg", "producer", "consumer", "check_name")),
        sa.Column("passed", Int, nullable=False),
        sa.Column("detail", T, nullable=False),
    )
    op.execute("INSERT INTO meta (key, value) VALUES ('schema_version', '1')")
