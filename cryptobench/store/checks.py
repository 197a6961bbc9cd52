"""The SQL store's verification records: each provider and algorithm's verdict with its conformance
detail, and the cross-checks between providers."""

from __future__ import annotations

import json

import sqlalchemy as sa

from cryptobench.store.model import VerifyRecord
from cryptobench.store.schema import conformance, crosschecks, verifications
from cryptobench.store.sqlbase import reported


class CheckTables:
    """Part of SqlStore (store/sql.py): `self.conn`, `self._commit()`."""

    @reported("write to")
    def add_verification(self, run_id: int, v: VerifyRecord) -> None:
        for table in (verifications, conformance):
            self.conn.execute(
                table.delete().where(
                    (table.c.run_id == run_id) & (table.c.provider == v.provider) & (table.c.alg == v.alg)
                )
            )
        self.conn.execute(
            verifications.insert().values(
                run_id=run_id, provider=v.provider, alg=v.alg, status=v.status, passed=v.passed, failed=v.failed,
                skipped=v.skipped, detail=v.detail,
            )
        )  # fmt: skip
        if v.conformance:
            data = json.dumps(v.conformance, sort_keys=True)
            self.conn.execute(conformance.insert().values(run_id=run_id, provider=v.provider, alg=v.alg, data=data))
        self._commit()

    @reported("write to")
    def add_crosschecks(self, run_id: int, records: list) -> None:
        if not records:
            return
        start = self.conn.execute(
            sa.select(sa.func.count()).select_from(crosschecks).where(crosschecks.c.run_id == run_id)
        ).scalar()
        self.conn.execute(
            crosschecks.insert(),
            [
                dict(run_id=run_id, alg=r.alg, producer=r.producer, consumer=r.consumer, check_name=r.check,
                     passed=int(r.passed), detail=r.detail, seq=start + i)
                for i, r in enumerate(records)
            ],
        )  # fmt: skip
        self._commit()

    @reported("read")
    def load_crosschecks(self, run_id: int) -> list:
        from cryptobench.verify.cross_checks import CrossRecord

        c = crosschecks.c
        rows = self.conn.execute(
            sa.select(c.alg, c.producer, c.consumer, c.check_name, c.passed, c.detail)
            .where(c.run_id == run_id)
            .order_by(c.seq)
        ).fetchall()
        return [CrossRecord(a, p, co, ch, bool(ok), d) for a, p, co, ch, ok, d in rows]

    def _load_verifications(self, run_id: int) -> list[VerifyRecord]:
        k = conformance.c
        extra = {
            (pr, a): json.loads(d)
            for pr, a, d in self.conn.execute(sa.select(k.provider, k.alg, k.data).where(k.run_id == run_id))
        }
        v = verifications.c
        return [
            VerifyRecord(*row, conformance=extra.get((row[0], row[1]), {}))
            for row in self.conn.execute(
                sa.select(v.provider, v.alg, v.status, v.passed, v.failed, v.skipped, v.detail)
                .where(v.run_id == run_id)
                .order_by(v.provider, v.alg)
            )
        ]
