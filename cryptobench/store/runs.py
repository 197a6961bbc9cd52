"""The SQL store's runs: a run's own row (settings, environment, status), its providers' hello
responses, finding runs (by id, `latest~N`, uid, job) and loading one whole."""

from __future__ import annotations

import json
import uuid

import sqlalchemy as sa

from cryptobench.core.errors import UserError
from cryptobench.store.model import CellRecord, RunRecord, VerifyRecord, phases_out_of_env
from cryptobench.store.schema import cells, providers, runs
from cryptobench.store.sqlbase import as_json, reported


class RunTables:
    """Part of SqlStore (store/sql.py): `self.conn`, `self._commit()`, and the other tables' loaders."""

    @reported("write to")
    def create_run(self, run: RunRecord) -> int:
        run.uid = run.uid or uuid.uuid4().hex
        env = run.env if isinstance(run.env, dict) else {}
        row = self.conn.execute(
            runs.insert().values(
                started=run.started, finished=run.finished, status=run.status, suite=run.suite, label=run.label,
                settings=as_json(run.settings), env=as_json(run.env), uid=run.uid, job=run.job,
                machine_id=str(env.get("machine_id") or ""),
                machine_label=str(env.get("machine_label") or env.get("hostname") or ""),
            )
        )  # fmt: skip
        self._commit()
        run.id = row.inserted_primary_key[0]
        return run.id

    @reported("write to")
    def add_provider(self, run_id: int, provider: str, hello: dict) -> None:
        key = (providers.c.run_id == run_id) & (providers.c.provider == provider)
        self.conn.execute(providers.delete().where(key))
        self.conn.execute(
            providers.insert().values(run_id=run_id, provider=provider, hello=json.dumps(hello, sort_keys=True))
        )
        self._commit()

    @reported("write to")
    def finish_run(self, run_id: int, status: str, finished: str, env_update: dict | None = None) -> None:
        values = {"status": status, "finished": finished}
        env_update, phases = phases_out_of_env(env_update or {})  # an older writer's: to their own tables
        for phase, records in phases.items():
            self._add_phase(phase, run_id, records)
        if env_update:
            env = json.loads(self.conn.execute(sa.select(runs.c.env).where(runs.c.id == run_id)).scalar())
            values["env"] = as_json({**env, **env_update})
        self.conn.execute(runs.update().where(runs.c.id == run_id).values(**values))
        self._commit()

    @reported("write to")
    def set_run_status(self, run_id: int, status: str) -> None:
        self.conn.execute(runs.update().where(runs.c.id == run_id).values(status=status))
        self._commit()

    # --- reading ----------------------------------------------------------

    @reported("read")
    def list_runs(self, machine: str | None = None) -> list[dict]:
        r, c = runs.c, cells.c
        ok = sa.select(sa.func.count()).where((c.run_id == r.id) & (c.status == "ok")).scalar_subquery()
        failed = sa.select(sa.func.count()).where((c.run_id == r.id) & (c.status == "failed")).scalar_subquery()
        query = sa.select(r.id, r.started, r.finished, r.status, r.suite, r.label, ok, failed, r.env, r.uid,
                          r.machine_label, r.machine_id, r.job).order_by(r.id)  # fmt: skip
        if machine:
            query = query.where(r.machine_label == machine)
        names: dict[int, list[str]] = {}
        for run_id, provider in self.conn.execute(
            sa.select(providers.c.run_id, providers.c.provider).order_by(providers.c.run_id, providers.c.provider)
        ):
            names.setdefault(run_id, []).append(provider)
        out = []
        for row in self.conn.execute(query):
            try:
                env = json.loads(row.env)
            except ValueError:
                env = {}
            env = env if isinstance(env, dict) else {}
            out.append({
                "id": row.id, "started": row.started, "finished": row.finished, "status": row.status,
                "suite": row.suite, "label": row.label, "cells_ok": row[6], "cells_failed": row[7],
                "providers": ",".join(names.get(row.id, [])) or None, "hostname": env.get("hostname"),
                "pid": env.get("pid"), "machine_label": row.machine_label or None,
                "machine_id": row.machine_id or None, "uid": row.uid, "job": row.job,
            })  # fmt: skip
        return out

    @reported("read")
    def run_ids(self) -> list[int]:
        return [row[0] for row in self.conn.execute(sa.select(runs.c.id).order_by(runs.c.id))]

    @reported("read")
    def run_id_of(self, uid: str) -> int | None:
        return self.conn.execute(sa.select(runs.c.id).where(runs.c.uid == uid)).scalar()

    @reported("read")
    def runs_of_job(self, job: str) -> list[tuple[int, str]]:
        return [tuple(r) for r in self.conn.execute(sa.select(runs.c.id, runs.c.status).where(runs.c.job == job))]

    def resolve_run(self, ref: str | int | None) -> int:
        """A run id, `latest`/`last`, `latest~N` (N runs before the latest), or a global id (uid)."""
        ids = self.run_ids()
        if not ids:
            raise UserError(f"no runs stored in {self.url} (run `cryptobench run` first)")
        text = str(ref if ref is not None else "latest")
        if text in ("latest", "last") or text.startswith(("latest~", "last~")):
            tail = text.partition("~")[2]
            if "~" in text and not tail.isdigit():
                raise UserError(f"run {text!r}: after '~' comes how many runs back, e.g. latest~1")
            back = int(tail) if tail else 0
            if back >= len(ids):
                raise UserError(f"run {text!r} does not exist: only {len(ids)} runs stored")
            return ids[-1 - back]
        if text.isdigit() and int(text) in ids:
            return int(text)
        if len(text) == 32 and (found := self.run_id_of(text.lower())) is not None:
            return found
        raise UserError(f"run {text!r} not found in {self.url} (see `cryptobench runs`)")

    @reported("read")
    def load_run(self, run_id: int) -> tuple[RunRecord, list[VerifyRecord], list[CellRecord]]:
        r = runs.c
        row = self.conn.execute(
            sa.select(r.id, r.started, r.finished, r.status, r.suite, r.label, r.settings, r.env, r.uid, r.job).where(
                r.id == run_id
            )
        ).fetchone()
        if row is None:
            raise UserError(f"run {run_id} not found in {self.url}")
        run = RunRecord(
            id=row[0], started=row[1], finished=row[2], status=row[3], suite=row[4], label=row[5],
            settings=json.loads(row[6]), env=json.loads(row[7]), uid=row[8], job=row[9], **self._load_phases(run_id),
        )  # fmt: skip
        p = providers.c
        for provider, hello in self.conn.execute(sa.select(p.provider, p.hello).where(p.run_id == run_id)):
            run.providers[provider] = json.loads(hello)
        return run, self._load_verifications(run_id), self._load_cells(run_id)
