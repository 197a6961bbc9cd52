"""The SQL store's cells: one row per measured (or failed) cell with its raw samples."""

from __future__ import annotations

import json

import sqlalchemy as sa

from cryptobench.store.figures import fit
from cryptobench.store.model import CellRecord
from cryptobench.store.schema import cells, providers, runs
from cryptobench.store.sqlbase import as_json, reported


class CellTables:
    """Part of SqlStore (store/sql.py): `self.conn`, `self._commit()`."""

    @staticmethod
    def _cell_row(run_id: int, c: CellRecord) -> dict:
        c = fit(c)  # a figure outside the protocol fails its own cell, never the write of the run
        return dict(
            run_id=run_id, provider=c.provider, alg=c.alg, op=c.op, size=c.size, chunk=c.chunk, status=c.status,
            reason=c.reason, batch=c.batch, samples_ns=as_json(c.samples_ns), checksum=c.checksum,
            checksums_seen=as_json(c.checksums_seen), peak_rss_kb=c.peak_rss_kb, rounds=c.rounds, started=c.started,
            finished=c.finished, extra=as_json(c.extra),
        )  # fmt: skip

    @reported("write to")
    def add_cell(self, run_id: int, c: CellRecord) -> None:
        self.conn.execute(cells.insert().values(**self._cell_row(run_id, c)))
        self._commit()

    @reported("write to")
    def add_cells(self, run_id: int, records: list[CellRecord]) -> None:
        """Many cells in one statement (copying a run between stores)."""
        if records:
            self.conn.execute(cells.insert(), [self._cell_row(run_id, c) for c in records])
        self._commit()

    @reported("read")
    def measured_algorithms(self) -> list[str]:
        """Every algorithm with a measured cell in some run, sorted."""
        q = sa.select(cells.c.alg).where(cells.c.status == "ok").distinct().order_by(cells.c.alg)
        return [row[0] for row in self.conn.execute(q)]

    @reported("read")
    def series_cells(self, alg: str, provider: str | None, machine: str | None) -> list[tuple[dict, CellRecord]]:
        """Every measured cell of `alg` (and `provider`) in complete runs, oldest run first, with its
        run's fields and the provider's reported version: the raw material of a history. One query;
        a run's fields are read once however many cells it has."""
        r, c, p = runs.c, cells.c, providers.c
        q = (
            sa.select(r.id, r.uid, r.started, r.suite, r.label, r.machine_label, r.env, r.settings, c.provider, c.op,
                      c.size, c.chunk, c.status, c.batch, c.samples_ns, c.extra, p.hello)
            .join(cells, c.run_id == r.id)
            .outerjoin(providers, (p.run_id == r.id) & (p.provider == c.provider))
            .where((c.alg == alg) & (r.status == "complete") & (c.status == "ok"))
            .order_by(r.started, r.id, c.id)
        )  # fmt: skip
        if provider:
            q = q.where(c.provider == provider)
        if machine:
            q = q.where(r.machine_label == machine)
        runs_seen: dict[int, dict] = {}
        out = []
        for x in self.conn.execute(q):
            if x.id not in runs_seen:
                env = json.loads(x.env)
                runs_seen[x.id] = {
                    "id": x.id, "uid": x.uid, "started": x.started, "suite": x.suite, "label": x.label,
                    "machine": x.machine_label or env.get("hostname") or "?", "commit": env.get("git_commit"),
                    "cpu_features": json.loads(x.settings).get("cpu_features") or "",
                }  # fmt: skip
            hello = json.loads(x.hello) if x.hello else {}
            run = {**runs_seen[x.id], "library_version": hello.get("library_version", "")}
            cell = CellRecord(provider=x.provider, alg=alg, op=x.op, size=x.size, chunk=x.chunk, status=x.status,
                              batch=x.batch, samples_ns=json.loads(x.samples_ns), extra=json.loads(x.extra))  # fmt: skip
            out.append((run, cell))
        return out

    def _load_cells(self, run_id: int) -> list[CellRecord]:
        c = cells.c
        loaded = []
        for x in self.conn.execute(sa.select(cells).where(c.run_id == run_id).order_by(c.id)):
            loaded.append(
                CellRecord(
                    provider=x.provider, alg=x.alg, op=x.op, size=x.size, chunk=x.chunk, status=x.status,
                    reason=x.reason, batch=x.batch, samples_ns=json.loads(x.samples_ns), checksum=x.checksum,
                    checksums_seen=json.loads(x.checksums_seen), peak_rss_kb=x.peak_rss_kb, rounds=x.rounds,
                    started=x.started, finished=x.finished, extra=json.loads(x.extra),
                )
            )  # fmt: skip
        return loaded
