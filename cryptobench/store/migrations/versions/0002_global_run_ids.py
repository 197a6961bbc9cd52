"""Runs get a global id (uid) so they can be copied between stores exactly once, and their machine
and job as columns, for cross-machine tables and the job queue; cells get an index for history.

Revision ID: 0002
Revises: 0001
"""

import hashlib
import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("runs") as b:
        b.add_column(sa.Column("uid", sa.Text, nullable=False, server_default=""))
        b.add_column(sa.Column("machine_id", sa.Text, nullable=False, server_default=""))
        b.add_column(sa.Column("machine_label", sa.Text, nullable=False, server_default=""))
        b.add_column(sa.Column("job", sa.Text))
    with op.batch_alter_table("crosschecks") as b:
        b.add_column(sa.Column("seq", sa.Integer, nullable=False, server_default="0"))
    conn = op.get_bind()
    rows = conn.execute(sa.text("SELECT id, env, started, finished, status, suite, label, settings FROM runs"))
    for run_id, env, *rest in rows.fetchall():
        # a uid from the run's content, not a random one: a file only read from (an import's source)
        # is migrated in a temporary copy each time, and the same run must get the same id every time
        uid = hashlib.sha256(json.dumps([run_id, env, *rest], default=str).encode()).hexdigest()[:32]
        try:
            e = json.loads(env)
        except ValueError:
            e = {}
        e = e if isinstance(e, dict) else {}
        conn.execute(
            sa.text("UPDATE runs SET uid=:u, machine_id=:i, machine_label=:l WHERE id=:r"),
            {"u": uid, "i": str(e.get("machine_id") or ""),
             "l": str(e.get("machine_label") or e.get("hostname") or ""), "r": run_id},
        )  # fmt: skip
    if conn.dialect.name == "sqlite":  # keep the order the rows were written in
        conn.execute(sa.text("UPDATE crosschecks SET seq = rowid"))
    op.create_index("runs_uid", "runs", ["uid"], unique=True)
    op.create_index("runs_machine", "runs", ["machine_label"])
    op.create_index("cells_series", "cells", ["alg", "provider"])
    op.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
