"""The SQL store's reference figures (`cryptobench reference`): published numbers a run is shown beside."""

from __future__ import annotations

import sqlalchemy as sa

from cryptobench.store.schema import refs
from cryptobench.store.sqlbase import reported


class RefTables:
    """Part of SqlStore (store/sql.py): `self.conn`, `self._commit()`."""

    @reported("write to")
    def add_references(self, refs_: list, added: str) -> list[int]:
        ids = []
        for r in refs_:
            row = self.conn.execute(
                refs.insert().values(added=added, source=r.source, machine=r.machine, url=r.url, alg=r.alg, op=r.op,
                                     size=r.size, ns_per_op=r.ns_per_op)
            )  # fmt: skip
            r.id = row.inserted_primary_key[0]
            ids.append(r.id)
        self._commit()
        return ids

    @reported("read")
    def load_references(self) -> list:
        from cryptobench.analysis.references import Reference

        c = refs.c
        rows = self.conn.execute(
            sa.select(c.id, c.source, c.machine, c.url, c.alg, c.op, c.size, c.ns_per_op).order_by(c.id)
        )
        return [Reference(*row) for row in rows.fetchall()]

    @reported("write to")
    def remove_reference(self, ref_id: int) -> bool:
        gone = self.conn.execute(refs.delete().where(refs.c.id == ref_id)).rowcount
        self._commit()
        return gone > 0
