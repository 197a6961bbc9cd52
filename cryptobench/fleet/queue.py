"""The job queue, in the shared PostgreSQL store, on procrastinate (PyPI): its tables, locking
(FOR UPDATE SKIP LOCKED), worker heartbeats and stalled-job lookup are the library's; what is ours
is which queue a job goes to and how an agent runs one.

- A job goes to the queue `machine:<label>` of each machine it targets, with the lock
  `machine:<label>`: procrastinate runs no two jobs of one lock at once, so however many agents a
  machine has, benchmarks never share it.
- An agent is a procrastinate worker with concurrency 1 on its machine's queue. It sends a
  heartbeat every lease/3 seconds; a job whose worker has sent none for `lease` seconds (the agent
  was killed, the machine lost) is put back in the queue by the next agent that looks (the lease).
- A job's run is stored with the job's id (runs.job). Before running a job, the agent looks: a
  complete run for it means it ran already (the agent died before it could say so): nothing runs
  again. Runs left unfinished by a killed agent are marked `superseded`, so exactly one complete run
  per job is ever stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import os
import signal
import subprocess
import sys

from ..errors import UserError
from ..store import redact
from ..store.sql import one_line
from . import jobs

TASK = "cryptobench.run"
_PR_SET_PDEATHSIG = 1


def queue_of(machine: str) -> str:
    return f"machine:{machine}"


def libpq_url(url: str) -> str:
    if not url.startswith(("postgresql://", "postgres://")):
        raise UserError(f"the job queue lives in a PostgreSQL store: --db postgresql://... (not {redact(url)!r})")
    return url


def make_app(url: str):
    import procrastinate

    return procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=libpq_url(url)))


def queue_ready(app) -> bool:
    rows = app.connector.get_sync_connector().execute_query_all(
        "SELECT to_regclass('procrastinate_jobs') IS NOT NULL AS ready"
    )
    return bool(rows[0]["ready"])


@contextlib.contextmanager
def opened(url: str):
    """The procrastinate app on `url`, open, with its schema there; errors in one line."""
    import psycopg
    from procrastinate.exceptions import ConnectorException

    app = make_app(url)
    try:
        app.open()
    except (psycopg.Error, OSError, ConnectorException) as e:
        raise UserError(f"cannot open the job queue in {redact(url)!r}: {one_line(e)}") from None
    try:
        if not queue_ready(app):
            raise UserError(f"no job queue in {redact(url)!r} yet: create it with `cryptobench fleet init --db URL`")
        yield app
    except (psycopg.Error, ConnectorException) as e:
        raise UserError(f"job queue in {redact(url)!r}: {one_line(e)}") from None
    finally:
        with contextlib.suppress(Exception):
            app.close()


def submit(url: str, job: dict, machines: list[str]) -> list[int]:
    """Queue `job` once per machine; the job ids."""
    job = jobs.check(job)
    ids = []
    with opened(url) as app:
        for m in machines:
            task = app.configure_task(TASK, queue=queue_of(m), lock=queue_of(m))
            ids.append(task.defer(job={**job, "machine": m}))
    return ids


def list_jobs(url: str) -> list[dict]:
    with opened(url) as app:
        out = []
        for j in app.job_manager.list_jobs(task=TASK):
            kw = j.task_kwargs.get("job") or {}
            out.append({"id": j.id, "status": j.status, "machine": kw.get("machine", "?"), "suite": kw.get("suite"),
                        "attempts": j.attempts, "job": kw})  # fmt: skip
        return sorted(out, key=lambda x: x["id"])


# --- the agent -------------------------------------------------------------------


def _die_with_parent() -> None:
    """In the run's process: when the agent dies (even SIGKILL), the run dies too, so a job retried
    elsewhere never has a twin still measuring here."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Agent:
    def __init__(self, url: str, machine: str, store, lease: float = 30.0, say=None):
        self.url, self.machine, self.store, self.lease = url, machine, store, lease
        self.say = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.ran = 0

    def run_job(self, job_id: int, job: dict) -> str:
        """Run one job (procrastinate's task body); what happened, in one line. A job that fails
        says why here, in one line, and is marked failed in the queue."""
        try:
            return self._run_job(job_id, job)
        except Exception as e:
            self.say(f"agent {self.machine}: job {job_id}: failed: {one_line(e)}")
            raise

    def _run_job(self, job_id: int, job: dict) -> str:
        job = jobs.check(job)
        if job.get("machine") != self.machine:
            raise UserError(f"job refused: it is for machine {job.get('machine')!r}, this agent is {self.machine!r}")
        done = [rid for rid, status in self.store.runs_of_job(str(job_id)) if status == "complete"]
        if done:
            self.say(f"agent {self.machine}: job {job_id} ran already: run {done[0]} (not run again)")
            return f"run {done[0]}"
        for rid, status in self.store.runs_of_job(str(job_id)):
            self.store.set_run_status(rid, "superseded")  # an agent killed mid-job left it: retried now
            self.say(f"agent {self.machine}: job {job_id}: run {rid} ({status}) left by a lost agent is superseded")
        argv = [sys.executable, "-m", "cryptobench", "run", *jobs.run_arguments(job), f"--job={job_id}",
                f"--machine-label={self.machine}", "--quiet"]  # fmt: skip
        self.say(f"agent {self.machine}: job {job_id}: running suite {job['suite']}")
        env = {**os.environ, "CRYPTOBENCH_DB": self.url}  # never on a command line (ps shows those)
        proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              preexec_fn=_die_with_parent)  # fmt: skip
        last = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
        if proc.returncode not in (0, 1):
            raise RuntimeError(f"cryptobench run exited {proc.returncode}: {last}")
        self.ran += 1
        self.say(f"agent {self.machine}: job {job_id}: {last}")
        return last

    async def _recover_stalled(self, app) -> None:
        stalled = await app.job_manager.get_stalled_jobs(
            queue=queue_of(self.machine), task_name=TASK, seconds_since_heartbeat=self.lease
        )
        import psycopg
        from procrastinate.exceptions import ConnectorException

        for j in stalled:
            try:
                await app.job_manager.retry_job(j)
            except (ConnectorException, psycopg.Error):
                continue  # another agent put it back first (it is no longer `doing`)
            self.say(
                f"agent {self.machine}: job {j.id}: no heartbeat from its agent for {self.lease:g} s: queued again"
            )

    async def _loop(self, until_empty: bool, poll: float) -> None:
        app = make_app(self.url)
        agent = self

        @app.task(name=TASK, pass_context=True)
        def run(context, job: dict) -> str:
            return agent.run_job(context.job.id, job)

        async with app.open_async():
            while True:
                await self._recover_stalled(app)
                before = self.ran
                await app.run_worker_async(
                    queues=[queue_of(self.machine)], concurrency=1, wait=False, name=f"agent:{self.machine}",
                    update_heartbeat_interval=max(self.lease / 3, 0.5), stalled_worker_timeout=self.lease,
                    delete_jobs="never", install_signal_handlers=False, listen_notify=False,
                )  # fmt: skip
                if until_empty and self.ran == before and not await self._pending(app):
                    return
                await asyncio.sleep(poll)

    async def _pending(self, app) -> bool:
        """Jobs of this machine that are queued or held by another (maybe lost) agent."""
        for status in ("todo", "doing"):
            if await app.job_manager.list_jobs_async(queue=queue_of(self.machine), task=TASK, status=status):
                return True
        return False

    def serve(self, until_empty: bool = False, poll: float = 2.0) -> int:
        logging.getLogger("procrastinate").setLevel(logging.CRITICAL + 1)  # no tracebacks: each job says its line
        import psycopg
        from procrastinate.exceptions import ConnectorException

        try:
            asyncio.run(self._loop(until_empty, poll))
        except (psycopg.Error, OSError, ConnectorException) as e:
            raise UserError(f"agent {self.machine}: the job queue in {redact(self.url)!r}: {one_line(e)}") from None
        return self.ran
