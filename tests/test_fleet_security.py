"""The job queue against a hostile submitter, on a real PostgreSQL: rows written by hand with SQL, as
the submitting role may, around `submit`'s checks. An agent runs its benchmark task alone, from rows
of exactly the shape `submit` writes, one job per machine at a time; no escape sequence from a row
reaches a terminal; a job whose run failed cells ends failed, saying why."""

import json
import os
import subprocess
import sys
import threading
import time

import psycopg
import pytest
from conftest import REPO, run_cli
from psycopg.types.json import Jsonb

from cryptobench.fleet import queue
from cryptobench.store import open_store

FAST = {"suite": "default", "alg": ["sha256"], "provider": ["c:openssl"], "size": ["64B"], "time_per_cell": 0.05,
        "passes": 1}  # fmt: skip
SLOW = {**FAST, "size": ["64B", "1KiB", "16KiB", "64KiB"], "time_per_cell": 1.0}


@pytest.fixture(scope="session")
def fleet(pg_server):
    """One queue per pytest worker (each test uses machines of its own), and a submitter's login. Not
    module-scoped: that would keep this module's slow tests on one worker (tests/conftest.py)."""
    url = pg_server.new_database()
    r = run_cli("fleet", "init", "--db", url)
    assert r.returncode == 0 and "cryptobench_job_outcomes created" in r.stdout, r.stdout + r.stderr
    env = {**os.environ, "CRYPTOBENCH_NEW_PASSWORD": "mallory-pw"}
    assert run_cli("fleet", "adduser", "mallory", "--role", "submitter", "--db", url, env=env).returncode == 0
    return {"url": url, "mallory": url.replace("cbtest:s3cret-not-in-logs", "mallory:mallory-pw")}


def _insert(url: str, args, machine: str, task: str = queue.TASK, lock: str | None = "", status: str = "todo") -> int:
    """A queue row written with SQL, as anybody with the submitting role can."""
    lock = f"machine:{machine}" if lock == "" else lock
    with psycopg.connect(url, autocommit=True) as c:
        return c.execute(
            "INSERT INTO procrastinate_jobs (queue_name, task_name, lock, args, status) VALUES (%s, %s, %s, %s, %s) "
            "RETURNING id",
            (f"machine:{machine}", task, lock, Jsonb(args), status),
        ).fetchone()[0]


def _agent(url: str, label: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cryptobench", "agent", "--db", url, "--machine-label", label,
                           "--until-empty"], cwd=REPO, capture_output=True, text=True, timeout=timeout)  # fmt: skip


def _jobs(url: str) -> dict[int, dict]:
    r = run_cli("jobs", "--db", url, "--json")
    assert r.returncode == 0, r.stderr
    return {j["id"]: j for j in json.loads(r.stdout)}


def _runs_of(url: str, job_id: int) -> list:
    return open_store(url).runs_of_job(str(job_id))


def test_an_agent_runs_no_task_but_its_own_and_no_row_of_another_shape(fleet):
    url, mallory = fleet["url"], fleet["mallory"]
    # a finished job elsewhere, two hours old: what procrastinate's remove_old_jobs would delete
    victim = _insert(mallory, {"job": {**FAST, "machine": "elsewhere"}}, "elsewhere", status="succeeded")
    with psycopg.connect(mallory, autocommit=True) as c:
        c.execute("INSERT INTO procrastinate_events (job_id, type, at) VALUES (%s, 'succeeded', now() - "
                  "interval '2 hours')", (victim,))  # fmt: skip
    wipe = {"max_hours": 1, "remove_failed": True}
    job = {**FAST, "machine": "s1"}
    hostile = {
        "builtin task": _insert(mallory, wipe, "s1", task="builtin:procrastinate.builtin_tasks.remove_old_jobs"),
        "builtin alias": _insert(mallory, wipe, "s1", task="procrastinate.builtin_tasks.remove_old_jobs"),
        "unknown task": _insert(mallory, {"job": job}, "s1", task="no.such.task"),
        "no arguments": _insert(mallory, {}, "s1"),
        "arguments not an object": _insert(mallory, [], "s1"),
        "extra argument": _insert(mallory, {"job": job, "max_hours": 1}, "s1"),
        "job not an object": _insert(mallory, {"job": "default"}, "s1"),
        "no machine": _insert(mallory, {"job": FAST}, "s1"),
        "another machine's job": _insert(mallory, {"job": {**FAST, "machine": "s9"}}, "s1"),
        "a number as text": _insert(mallory, {"job": {**job, "passes": "1"}}, "s1"),
        "a list as one name": _insert(mallory, {"job": {**job, "alg": "sha256"}}, "s1"),
        "a fraction of a pass": _insert(mallory, {"job": {**job, "passes": 1.5}}, "s1"),
        "an extra field": _insert(mallory, {"job": {**job, "nice": 1}}, "s1"),
        "a version that is a path": _insert(
            mallory, {"job": {**job, "provider": ["python:cryptography@file:.."]}}, "s1"
        ),
        "held by no agent": _insert(mallory, wipe, "s1", task="x", status="doing"),  # would hold back the machine
        "escapes in the task name": _insert(mallory, {"job": job}, "s1", task="cryptobench.run\x1b]0;owned\x07"),
    }
    out = _agent(url, "s1")
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "\x1b" not in out.stderr and "\x07" not in out.stderr, out.stderr
    jobs = _jobs(url)
    assert victim in jobs, "remove_old_jobs ran: a finished job was deleted"
    for what, job_id in hostile.items():
        j = jobs[job_id]
        assert j["status"] == "failed" and (j["outcome"] or "").startswith("job refused: "), (what, j)
        said = [line for line in out.stderr.splitlines() if f"job {job_id}: job refused: " in line]
        assert len(said) == 1, (what, out.stderr)  # one line each, printed
        assert _runs_of(url, job_id) == [], what  # never run
    assert "is not 'cryptobench.run'" in jobs[hostile["builtin task"]]["outcome"]
    assert "file:.." in jobs[hostile["a version that is a path"]]["outcome"]
    # the same refusals through submit, before anything is queued
    for flags in (["--provider", "python:cryptography@file:.."], ["--baseline", "c:openssl@https://x"]):
        r = run_cli("submit", "--db", url, "--machines", "s1", *flags)
        assert r.returncode == 2 and "error: job refused:" in r.stderr, r.stderr
        assert len(r.stderr.splitlines()) == 1, r.stderr
    r = run_cli("submit", "--db", url, "--machines", "s1", "--provider", "python:cryptography@41.0.7,c:openssl@3")
    assert r.returncode == 0, r.stderr  # the forms docs/versions.md allows are queued
    with psycopg.connect(url, autocommit=True) as c:
        c.execute("DELETE FROM procrastinate_jobs WHERE queue_name = 'machine:s1' AND status = 'todo'")


def test_a_row_without_the_machine_lock_does_not_run_beside_the_machines_job(fleet):
    url, mallory = fleet["url"], fleet["mallory"]
    r = run_cli("submit", "--db", url, "--machines", "s2", "--alg", "sha256,sha512", "--provider", "c:openssl",
                "--size", "64B,1KiB,16KiB", "--time-per-cell", "1")  # fmt: skip
    assert r.returncode == 0, r.stderr
    first = subprocess.Popen([sys.executable, "-m", "cryptobench", "agent", "--db", url, "--machine-label", "s2",
                              "--until-empty"], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)  # fmt: skip
    deadline = time.time() + 120
    while time.time() < deadline and not any(r["status"] == "running" for r in open_store(url).list_runs()):
        time.sleep(0.3)  # until the machine's job is being measured
    unlocked = _insert(mallory, {"job": {**FAST, "machine": "s2"}}, "s2", lock=None)
    other_lock = _insert(mallory, {"job": {**FAST, "machine": "s2"}}, "s2", lock="mine")
    second = _agent(url, "s2")
    _, err = first.communicate(timeout=300)
    assert first.returncode == 0 and second.returncode == 0, err + second.stderr
    jobs = _jobs(url)
    for job_id in (unlocked, other_lock):
        assert jobs[job_id]["status"] == "failed" and "queue and lock" in jobs[job_id]["outcome"], jobs[job_id]
        assert _runs_of(url, job_id) == []  # never measured beside the machine's job
    assert f"job {unlocked}: job refused: its queue and lock" in second.stderr + err


def test_an_agent_holds_its_machines_lock_for_the_whole_job(fleet):
    """Two agents of one machine never measure at once, whatever the rows say: an agent waits while
    another holds the machine (here the test holds it, as an agent measuring would)."""
    url = fleet["url"]
    r = run_cli("submit", "--db", url, "--machines", "s3", "--alg", "sha256", "--provider", "c:openssl",
                "--size", "64B", "--time-per-cell", "0.05", "--passes", "1")  # fmt: skip
    job_id = int(r.stdout.split()[1].rstrip(":"))
    lines: list[str] = []
    waiting = threading.Event()
    with queue.machine_lock(url, "s3"):
        agent = subprocess.Popen([sys.executable, "-m", "cryptobench", "agent", "--db", url, "--machine-label", "s3",
                                  "--until-empty"], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                 text=True)  # fmt: skip

        def read():
            for line in agent.stderr:
                lines.append(line)
                if "waiting for this machine's other job" in line:
                    waiting.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        while not waiting.is_set() and reader.is_alive():  # until it waits, or ends without having waited
            reader.join(0.2)
        assert waiting.is_set(), "".join(lines)
        time.sleep(1)
        assert _runs_of(url, job_id) == []  # nothing measured while the machine is taken
    assert agent.wait(timeout=300) == 0
    reader.join(10)
    assert _jobs(url)[job_id]["status"] == "succeeded", "".join(lines)
    assert [s for _, s in _runs_of(url, job_id)] == ["complete"]


def test_no_escape_sequence_from_a_row_reaches_the_terminal_through_jobs(fleet):
    mallory = fleet["mallory"]
    clear, title = "\x1b[2J\x1b[H", "\x1b]0;you have been owned\x07"
    job_id = _insert(mallory, {"job": {"suite": "d" * 10 + title, "machine": "evil" * 3 + clear}}, "evil")
    r = run_cli("jobs", "--db", mallory)
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.lstrip().startswith(f"{job_id} "))
    assert "\x1b" not in r.stdout and "\x07" not in r.stdout, repr(r.stdout)
    assert "evilevilevil\\x1b" in row and "dddddddddd\\x" in row, row  # shown, escaped, before the cut
    # submit refuses what it cannot show: a machine label with a control character
    r = run_cli("submit", "--db", mallory, "--machines", "pi\x1b[2J5")
    assert r.returncode == 2 and "job refused: machine" in r.stderr and "\x1b" not in r.stderr, r.stderr


def test_a_job_whose_run_failed_cells_or_could_not_run_ends_failed_saying_why(fleet):
    url = fleet["url"]
    failing = {**FAST, "timeout": 0.001}  # the driver cannot answer its hello in time: the cell fails
    [cells_failed] = queue.submit(url, failing, ["s4"])
    [not_run] = queue.submit(url, {**FAST, "suite": "nosuchsuite"}, ["s4"])
    [fine] = queue.submit(url, FAST, ["s4"])
    out = _agent(url, "s4")
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    jobs = _jobs(url)
    assert jobs[cells_failed]["status"] == "failed", jobs[cells_failed]
    assert "1 of 1 cells failed; first: c:openssl sha256 hash: " in jobs[cells_failed]["outcome"], jobs[cells_failed]
    assert [s for _, s in _runs_of(url, cells_failed)] == ["complete"]  # what was measured is kept
    assert jobs[not_run]["status"] == "failed" and "nosuchsuite" in jobs[not_run]["outcome"], jobs[not_run]
    assert jobs[fine]["status"] == "succeeded" and jobs[fine]["outcome"].startswith("run "), jobs[fine]
    for job_id in (cells_failed, not_run):
        said = [line for line in out.stderr.splitlines() if f"job {job_id}: failed: " in line]
        assert len(said) == 1, out.stderr
    table = run_cli("jobs", "--db", url).stdout
    assert "cells failed; first: c:openssl" in table, table
