"""The job queue, in the shared PostgreSQL store, on procrastinate (PyPI): its tables, locking
(FOR UPDATE SKIP LOCKED), worker heartbeats and stalled-job lookup are the library's; what is ours
is which queue a job goes to and how an agent runs one.

- A job goes to the queue `machine:<label>` of each machine it targets, with the lock
  `machine:<label>`: procrastinate runs no two jobs of one lock at once, so however many agents a
  machine has, benchmarks never share it.
- An agent is a procrastinate worker with concurrency 1 on its machine's queue. It sends a
  heartbeat every lease/3 seconds; a job whose worker has sent none for `lease` seconds (the agent
  was killed, the machine lost) is put back in the queue by the next agent that looks (the lease).
- An agent runs nothing but its benchmark task, and only from a row of exactly the shape `submit`
  writes (check_row): procrastinate would run any task its registry knows, its builtin
  `remove_old_jobs` included, for anyone who may insert a row. A row of another shape is claimed,
  failed with one line and never run. For the whole of a job it holds a PostgreSQL advisory lock
  on its machine's label (machine_lock), so two agents of one machine never measure at once, whatever
  a row's `lock` says and also when a lease ran out on an agent that was only slow.
- What became of a job is one line in `cryptobench_job_outcomes` (ours, beside procrastinate's
  tables): the run it stored, or why it failed or was refused; `jobs` shows it.
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
import time

from cryptobench.core.errors import UserError
from cryptobench.core.textsafe import printable
from cryptobench.fleet import jobs
from cryptobench.store import redact
from cryptobench.store.sql import one_line

TASK = "cryptobench.run"
_PR_SET_PDEATHSIG = 1
_MACHINE_LOCKS = 0x6362  # advisory lock class of a machine's benchmarks ('cb'); the key is hashtext(label)
OUTCOMES = "cryptobench_job_outcomes"
OUTCOMES_DDL = f"""CREATE TABLE IF NOT EXISTS {OUTCOMES} (
    job_id bigint PRIMARY KEY REFERENCES procrastinate_jobs (id) ON DELETE CASCADE,
    line text NOT NULL,
    at timestamp with time zone NOT NULL DEFAULT now())"""
_RECORD = f"""INSERT INTO {OUTCOMES} (job_id, line) VALUES (%(job_id)s, %(line)s)
    ON CONFLICT (job_id) DO UPDATE SET line = EXCLUDED.line, at = now()"""


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


_OUTCOMES_READY = f"SELECT to_regclass('{OUTCOMES}') IS NOT NULL AS ready"


def _outcomes_missing(url: str) -> UserError:
    return UserError(f"the job queue in {redact(url)!r} predates job outcomes: run `cryptobench fleet init --db URL` "
                     "again, as the role that made it")  # fmt: skip


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
        if not app.connector.get_sync_connector().execute_query_all(_OUTCOMES_READY)[0]["ready"]:
            raise _outcomes_missing(url)
        yield app
    except (psycopg.Error, ConnectorException) as e:
        raise UserError(f"job queue in {redact(url)!r}: {one_line(e)}") from None
    finally:
        with contextlib.suppress(Exception):
            app.close()


def submit(url: str, job: dict, machines: list[str]) -> list[int]:
    """Queue `job` once per machine; the job ids. Each machine's job is checked whole, its label
    too: what an agent would refuse is refused here, before anything is queued."""
    queued = [jobs.check({**job, "machine": m}) for m in machines]
    ids = []
    with opened(url) as app:
        for m, one in zip(machines, queued, strict=True):
            task = app.configure_task(TASK, queue=queue_of(m), lock=queue_of(m))
            ids.append(task.defer(job=one))
    return ids


_LIST = f"""SELECT j.id, j.status, j.task_name, j.queue_name, j.args, j.attempts, o.line AS outcome
    FROM procrastinate_jobs j LEFT JOIN {OUTCOMES} o ON o.job_id = j.id ORDER BY j.id"""


def list_jobs(url: str) -> list[dict]:
    """Every row of the queue, ours or not (a row an agent refused is shown, with why), as the rows
    say: a printer escapes what it prints (textsafe.printable), for a submitter wrote these values."""
    with opened(url) as app:
        out = []
        for row in app.connector.get_sync_connector().execute_query_all(_LIST):
            args = row["args"] if isinstance(row["args"], dict) else {}
            job = args.get("job") if isinstance(args.get("job"), dict) else {}
            queue = str(row["queue_name"])
            machine = job.get("machine", queue.removeprefix("machine:"))
            out.append({"id": row["id"], "status": row["status"], "machine": machine, "suite": job.get("suite"),
                        "attempts": row["attempts"], "task": row["task_name"], "outcome": row["outcome"],
                        "job": job})  # fmt: skip
        return out


def check_row(job, machine: str) -> dict:
    """The job of a claimed queue row (a procrastinate Job), or a UserError saying in one line why
    the agent of `machine` refuses it: only our task, on this machine's queue under this machine's
    lock, with arguments {"job": ...} exactly as `submit` writes them."""
    if job.task_name != TASK:
        raise UserError(f"job refused: task {printable(repr(job.task_name))[:80]} is not {TASK!r}, the only task an "
                        "agent runs")  # fmt: skip
    if job.queue != queue_of(machine) or job.lock != queue_of(machine):
        raise UserError(f"job refused: its queue and lock are {printable(repr(job.queue))[:60]} and "
                        f"{printable(repr(job.lock))[:60]}, not {queue_of(machine)!r} (one benchmark per "
                        "machine: submit sets both)")  # fmt: skip
    args = job.task_kwargs
    if not isinstance(args, dict) or set(args) != {"job"}:
        keys = sorted(map(str, args)) if isinstance(args, dict) else type(args).__name__
        raise UserError(f"job refused: its arguments are {printable(keys)[:80]}, not the one 'job' submit writes")
    queued = jobs.check_queued(args["job"])
    if queued["machine"] != machine:
        raise UserError(f"job refused: it is for machine {queued['machine']!r}, this agent is {machine!r}")
    return queued


@contextlib.contextmanager
def machine_lock(url: str, machine: str, waiting=None):
    """Hold this machine's advisory lock (one benchmark at a time per machine, across its agents)
    while the block runs, on a connection of its own: the server lets go of it when that
    connection ends, so an agent that dies holds nothing. `waiting()` is called once if another
    holder makes us wait."""
    import psycopg

    with psycopg.connect(libpq_url(url), autocommit=True) as conn:
        take = "SELECT pg_try_advisory_lock(%s, hashtext(%s))"
        said = False
        while not conn.execute(take, (_MACHINE_LOCKS, machine)).fetchone()[0]:
            if waiting and not said:
                waiting()
                said = True
            time.sleep(0.5)
        yield


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
        emit = say or (lambda line: print(line, file=sys.stderr, flush=True))
        self.say = lambda line: emit(printable(line))  # job fields and run output are a submitter's text
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
        job = jobs.check_queued(job)  # check_row passed it already; the task body trusts nothing either
        if job["machine"] != self.machine:
            raise UserError(f"job refused: it is for machine {job['machine']!r}, this agent is {self.machine!r}")
        waiting = lambda: self.say(f"agent {self.machine}: job {job_id}: waiting for this machine's other job")  # noqa: E731
        with machine_lock(self.url, self.machine, waiting):
            return self._run_locked(job_id, job)

    def _run_locked(self, job_id: int, job: dict) -> str:
        done = [rid for rid, status in self.store.runs_of_job(str(job_id)) if status == "complete"]
        if done:
            self.say(f"agent {self.machine}: job {job_id} ran already: run {done[0]} (not run again)")
            return self._verdict(job_id, done[0], f"run {done[0]} (ran already)")
        for rid, status in self.store.runs_of_job(str(job_id)):
            self.store.set_run_status(rid, "superseded")  # an agent killed mid-job left it: retried now
            self.say(f"agent {self.machine}: job {job_id}: run {rid} ({status}) left by a lost agent is superseded")
        argv = [sys.executable, "-m", "cryptobench", "run", *jobs.run_arguments(job), f"--job={job_id}",
                f"--machine-label={self.machine}", "--quiet"]  # fmt: skip
        self.say(f"agent {self.machine}: job {job_id}: running suite {job['suite']}")
        env = {**os.environ, "CRYPTOBENCH_DB": self.url}  # never on a command line (ps shows those)
        proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              errors="replace", preexec_fn=_die_with_parent)  # fmt: skip
        last = printable((proc.stderr.strip().splitlines() or ["(no output)"])[-1])
        self.ran += 1
        # run: 0 all good, 1 a cell failed (the run is stored), 2 could not run, else killed or crashed
        if proc.returncode not in (0, 1):
            raise RuntimeError(f"cryptobench run exited {proc.returncode}: {last}")
        complete = [rid for rid, status in self.store.runs_of_job(str(job_id)) if status == "complete"]
        if not complete:
            raise RuntimeError(f"cryptobench run exited {proc.returncode} and stored no complete run: {last}")
        line = self._verdict(job_id, complete[-1], last, exit_code=proc.returncode)
        self.say(f"agent {self.machine}: job {job_id}: {line}")
        return line

    def _verdict(self, job_id: int, run_id: int, line: str, exit_code: int = 0) -> str:
        """`line` when every cell of the job's run was measured; otherwise the job fails, saying
        how many cells failed and the first one's reason (whatever exit code `run` gave)."""
        cells = self.store.load_run(run_id)[2]
        failed = [c for c in cells if c.status == "failed"]
        if failed:
            c = failed[0]
            raise RuntimeError(f"run {run_id} stored, {len(failed)} of {len(cells)} cells failed; first: "
                               f"{c.provider} {c.alg} {c.op}: {c.reason}")  # fmt: skip
        if exit_code:
            raise RuntimeError(f"run {run_id} stored, but cryptobench run exited {exit_code}: {line}")
        return line

    async def _record(self, app, job_id: int, line: str) -> None:
        """What became of a job, for `jobs`; a queue that cannot take it costs the line, not the job."""
        try:
            await app.connector.execute_query_async(_RECORD, job_id=job_id, line=printable(line)[:500])
        except Exception as e:
            self.say(f"agent {self.machine}: job {job_id}: its outcome is not recorded: {one_line(e)}")

    async def _refuse(self, app, job, why: str) -> None:
        """Fail a claimed row the agent will not run, saying why (and never run it)."""
        from procrastinate.jobs import Status

        self.say(f"agent {self.machine}: job {job.id}: {why}")
        await app.job_manager.finish_job(job=job, status=Status.FAILED, delete_job=False)
        await self._record(app, job.id, why)

    async def _outcome(self, call_next, context, worker):
        """procrastinate worker middleware: the job's line, whatever became of it, into the outcomes."""
        try:
            line = await call_next()
        except Exception as e:
            await self._record(worker.app, context.job.id, f"failed: {one_line(e)}")
            raise
        await self._record(worker.app, context.job.id, str(line))
        return line

    async def _recover_stalled(self, app) -> None:
        # of any task: a row left `doing` under the machine's lock (by a lost agent, or written so by
        # hand) would hold back every job of the machine; queued again, it is claimed and checked
        stalled = await app.job_manager.get_stalled_jobs(
            queue=queue_of(self.machine), seconds_since_heartbeat=self.lease
        )
        import psycopg
        from procrastinate.exceptions import ConnectorException

        for j in stalled:
            try:
                await app.job_manager.retry_job(j)
            except (ConnectorException, psycopg.Error):
                continue  # another agent put it back first (it is no longer `doing`)
            why = "held by no agent" if j.worker_id is None else f"no heartbeat from its agent for {self.lease:g} s"
            self.say(f"agent {self.machine}: job {j.id}: {why}: queued again")

    def _app(self):
        """procrastinate's app as an agent uses it: our task alone in its registry (no builtin task),
        and every row it claims checked by check_row before the worker sees it."""
        app = make_app(self.url)
        agent = self

        @app.task(name=TASK, pass_context=True)
        def run(context, job: dict) -> str:
            return agent.run_job(context.job.id, job)

        app.tasks = {TASK: app.tasks[TASK]}  # procrastinate's builtins (remove_old_jobs) are not ours to run
        app.job_manager = _guarded_manager(app, self)
        return app

    async def _loop(self, until_empty: bool, poll: float) -> None:
        app = self._app()
        async with app.open_async():
            if not (await app.connector.execute_query_all_async(_OUTCOMES_READY))[0]["ready"]:
                raise _outcomes_missing(self.url)
            while True:
                await self._recover_stalled(app)
                before = self.ran
                await app.run_worker_async(
                    queues=[queue_of(self.machine)], concurrency=1, wait=False, name=f"agent:{self.machine}",
                    update_heartbeat_interval=max(self.lease / 3, 0.5), stalled_worker_timeout=self.lease,
                    delete_jobs="never", install_signal_handlers=False, listen_notify=False,
                    worker_middleware=[self._outcome],
                )  # fmt: skip
                if until_empty and self.ran == before and not await self._pending(app):
                    return
                await asyncio.sleep(poll)

    async def _pending(self, app) -> bool:
        """Rows of this machine's queue, of any task, that are queued (due now) or held by another
        (maybe lost) agent: rows scheduled for later do not keep --until-empty waiting."""
        rows = await app.connector.execute_query_all_async(_PENDING, queue=queue_of(self.machine))
        return bool(rows)

    def serve(self, until_empty: bool = False, poll: float = 2.0) -> int:
        logging.getLogger("procrastinate").setLevel(logging.CRITICAL + 1)  # no tracebacks: each job says its line
        import psycopg
        from procrastinate.exceptions import ConnectorException

        try:
            asyncio.run(self._loop(until_empty, poll))
        except (psycopg.Error, OSError, ConnectorException) as e:
            raise UserError(f"agent {self.machine}: the job queue in {redact(self.url)!r}: {one_line(e)}") from None
        return self.ran


_PENDING = """SELECT 1 FROM procrastinate_jobs WHERE queue_name = %(queue)s
    AND (status = 'doing' OR (status = 'todo' AND (scheduled_at IS NULL OR scheduled_at <= now()))) LIMIT 1"""


def _guarded_manager(app, agent: Agent):
    """procrastinate's JobManager whose fetch_job hands the worker only rows check_row accepts: a
    row of any other shape is failed on the spot with its line, so no task of the submitter's
    choosing, and no argument procrastinate would trip on before our code runs, ever reaches it."""
    from procrastinate.manager import JobManager

    class GuardedJobManager(JobManager):
        async def fetch_job(self, queues, worker_id):
            while True:
                job = await super().fetch_job(queues=queues, worker_id=worker_id)
                if job is None:
                    return None
                try:
                    check_row(job, agent.machine)
                    return job
                except UserError as e:
                    await agent._refuse(app, job, str(e))

    return GuardedJobManager(app.connector)
