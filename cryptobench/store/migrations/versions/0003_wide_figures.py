"""A cell's figures are 64-bit: the protocol allows a batch of 2^40, and a 32-bit `cells.batch` on
PostgreSQL refused such a cell (and with it the rest of its run). Also the other integer columns a
driver's figure or a result file's size lands in: `cells.size`, `cells.chunk`, `cells.peak_rss_kb`,
`refs.size`. SQLite's INTEGER is 64-bit already: there only the version number changes.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

WIDENED = {"cells": ("size", "chunk", "batch", "peak_rss_kb"), "refs": ("size",)}


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table, columns in WIDENED.items():
            for column in columns:
                op.alter_column(table, column, type_=sa.BigInteger, existing_type=sa.Integer, existing_nullable=False)
    op.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
