"""Scaling (`--workers`) and leak checks get tables of their own: they are phases of a run, not its
environment. The records runs stored before sat in runs.env ("scaling", "leak") move into them, in
their order, and leave env; each record is kept whole as JSON (`data`), read back as written.

Revision ID: 0004
Revises: 0003
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _key(*extra: sa.Column) -> list[sa.Column]:
    return [
        sa.Column("run_id", sa.Integer, sa.ForeignKey("runs.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("provider", sa.Text, nullable=False),
        sa.Column("alg", sa.Text, nullable=False),
        sa.Column("op", sa.Text, nullable=False),
        sa.Column("size", sa.BigInteger, nullable=False),
        *extra,
        sa.Column("data", sa.Text, nullable=False),
    ]


def _whole(x) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) and -(1 << 63) <= x < 1 << 63 else 0


def _row(table: sa.Table, run_id: int, seq: int, r: dict) -> dict:
    text = {k: str(r.get(k) or "") for k in ("provider", "alg", "op", "leak_class", "status")}
    row = {"run_id": run_id, "seq": seq, **text, "size": _whole(r.get("size")), "workers": _whole(r.get("workers")),
           "data": json.dumps(r)}  # fmt: skip
    return {k: v for k, v in row.items() if k in table.c}


def upgrade() -> None:
    scaling = op.create_table("scaling", *_key(sa.Column("workers", sa.Integer, nullable=False)))
    leak = op.create_table(
        "leak_checks",
        *_key(sa.Column("leak_class", sa.Text, nullable=False), sa.Column("status", sa.Text, nullable=False)),
    )
    op.create_index("scaling_run", "scaling", ["run_id"])
    op.create_index("leak_checks_run", "leak_checks", ["run_id"])
    conn = op.get_bind()
    found = conn.execute(
        sa.text("SELECT id, env FROM runs WHERE env LIKE '%\"scaling\"%' OR env LIKE '%\"leak\"%' ORDER BY id")
    )
    for run_id, text in found.fetchall():
        try:
            env = json.loads(text)
        except ValueError:
            continue
        if not isinstance(env, dict):
            continue
        moved = False
        for key, table in (("scaling", scaling), ("leak", leak)):
            records = env.get(key)
            if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
                continue  # not such records (as store/model.py's phases_out_of_env): left where they are
            if records:
                conn.execute(table.insert(), [_row(table, run_id, i, r) for i, r in enumerate(records)])
            del env[key]
            moved = True
        if moved:
            conn.execute(sa.text("UPDATE runs SET env = :e WHERE id = :r"), {"e": json.dumps(env), "r": run_id})
    op.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
