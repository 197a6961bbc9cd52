"""The SQL store's phases after the timing: multi-core scaling (`--workers`) and leak checks, each
record kept whole as JSON beside the columns that find it (schema.py, migration 0004)."""

from __future__ import annotations

import json

import sqlalchemy as sa

from cryptobench.store.schema import leak_checks, scaling
from cryptobench.store.sqlbase import reported

TABLES = {"scaling": scaling, "leak": leak_checks}  # RunRecord's field -> its table


def _whole(x) -> int:
    """An integer column's value from a record's field: 0 when the record holds no whole number there."""
    return x if isinstance(x, int) and not isinstance(x, bool) else 0


def _row(table: sa.Table, run_id: int, seq: int, r: dict) -> dict:
    text = {k: str(r.get(k) or "") for k in ("provider", "alg", "op", "leak_class", "status")}
    row = {"run_id": run_id, "seq": seq, **text, "size": _whole(r.get("size")), "workers": _whole(r.get("workers")),
           "data": json.dumps(r)}  # fmt: skip
    return {k: v for k, v in row.items() if k in table.c}


class PhaseTables:
    """Part of SqlStore (store/sql.py): `self.conn`, `self._commit()`."""

    @reported("write to")
    def add_scaling(self, run_id: int, records: list[dict]) -> None:
        self._add_phase("scaling", run_id, records)
        self._commit()

    @reported("write to")
    def add_leak(self, run_id: int, records: list[dict]) -> None:
        self._add_phase("leak", run_id, records)
        self._commit()

    def _add_phase(self, phase: str, run_id: int, records: list[dict]) -> None:
        """Appended after what the run has (its order is kept: `seq`); no commit."""
        if not records:
            return
        table = TABLES[phase]
        start = self.conn.execute(
            sa.select(sa.func.count()).select_from(table).where(table.c.run_id == run_id)
        ).scalar()
        self.conn.execute(table.insert(), [_row(table, run_id, start + i, r) for i, r in enumerate(records)])

    def _load_phases(self, run_id: int) -> dict[str, list[dict]]:
        out = {}
        for phase, table in TABLES.items():
            q = sa.select(table.c.data).where(table.c.run_id == run_id).order_by(table.c.seq)
            out[phase] = [json.loads(d) for (d,) in self.conn.execute(q)]
        return out
