"""The job queue on a real PostgreSQL: submit, agents, a killed agent's job, refusals, roles."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
import sqlalchemy as sa
from conftest import REPO, run_cli

from cryptobench.store import open_store

FAST = ["--alg", "sha256", "--provider", "c:openssl", "--size", "64B", "--time-per-cell", "0.05", "--passes", "1"]


@pytest.fixture
def fleet(pg_url):
    r = run_cli("fleet", "init", "--db", pg_url)
    assert r.returncode == 0 and "job queue: procrastinate's tables created" in r.stdout, r.stderr
    return pg_url


def _agent(url: str, label: str, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "cryptobench", "agent", "--db", url, "--machine-label", label,
                             *extra], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "CRYPTOBENCH_DEBUG": os.environ.get("CRYPTOBENCH_DEBUG", "")})  # fmt: skip


def _jobs(url: str) -> list[dict]:
    r = run_cli("jobs", "--db", url, "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _runs_by_job(url: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for r in open_store(url).list_runs():
        out.setdefault(r["job"], []).append(r["status"])
    return out


def test_each_job_runs_once_per_machine(fleet):
    r = run_cli("submit", "--db", fleet, "--machines", "m1,m2", "--machines", "m1", *FAST)
    assert r.returncode == 0 and r.stdout.count("job ") == 2, r.stdout + r.stderr  # m1 named twice: one job
    out = subprocess.run([sys.executable, "-m", "cryptobench", "agent", "--db", fleet, "--machine-label", "m1",
                          "--until-empty"], cwd=REPO, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0 and "1 job run" in out.stderr, out.stderr
    assert "s3cret" not in out.stderr + out.stdout  # the connection string's password never shows
    jobs = {j["machine"]: j for j in _jobs(fleet)}
    assert (jobs["m1"]["status"], jobs["m2"]["status"]) == ("succeeded", "todo")  # m2's job waits for m2
    runs = open_store(fleet).list_runs()
    assert [(r["machine_label"], r["status"], r["job"]) for r in runs] == [("m1", "complete", str(jobs["m1"]["id"]))]


def test_a_killed_agent_leaves_its_job_to_be_retried_and_it_is_stored_once(fleet):
    slow = ["--alg", "sha256,sha512", "--provider", "c:openssl", "--size", "64B,1KiB,16KiB", "--time-per-cell", "0.5"]
    assert run_cli("submit", "--db", fleet, "--machines", "m1", *slow).returncode == 0
    assert run_cli("submit", "--db", fleet, "--machines", "m1", *FAST).returncode == 0
    victim = _agent(fleet, "m1", "--lease", "3")
    deadline = time.time() + 120
    while time.time() < deadline and not any(s == ["running"] for s in _runs_by_job(fleet).values()):
        time.sleep(0.3)  # until the first job's run is being measured
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait()
    assert any(j["status"] == "doing" for j in _jobs(fleet))  # held by an agent that is gone
    rescuers = [_agent(fleet, "m1", "--lease", "3", "--until-empty") for _ in range(2)]
    for a in rescuers:
        _, err = a.communicate(timeout=300)
        assert a.returncode == 0 and "Traceback" not in err, err
    assert all(j["status"] == "succeeded" for j in _jobs(fleet)), _jobs(fleet)
    by_job = _runs_by_job(fleet)
    assert sorted(by_job) == sorted(str(j["id"]) for j in _jobs(fleet))
    for job, statuses in by_job.items():
        assert statuses.count("complete") == 1, (job, statuses)  # exactly one complete run per job
        assert set(statuses) <= {"complete", "superseded"}, statuses
    assert "superseded" in sum(by_job.values(), [])  # the killed agent's partial run, kept but marked


def test_the_agent_refuses_a_job_that_names_a_program(fleet, tmp_path):
    marker = tmp_path / "ran"
    plugin = tmp_path / "evil.py"
    plugin.write_text(f"open({str(marker)!r}, 'w').write('ran')\n")
    r = run_cli("submit", "--db", fleet, "--machines", "m1", "--provider", str(plugin))
    assert r.returncode == 2 and "job refused" in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    # written into the queue by hand, around submit's check: the agent checks again
    import procrastinate

    app = procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=fleet))
    with app.open():
        for job in ({"suite": "default", "plugin": str(plugin), "machine": "m1"},
                    {"suite": "default", "providers_file": str(tmp_path / "p.toml"), "machine": "m1"},
                    {"suite": str(tmp_path / "s.toml"), "machine": "m1"},
                    {"suite": "default", "provider": ["--plugin=" + str(plugin)], "machine": "m1"}):  # fmt: skip
            app.configure_task("cryptobench.run", queue="machine:m1", lock="machine:m1").defer(job=job)
    out = subprocess.run([sys.executable, "-m", "cryptobench", "agent", "--db", fleet, "--machine-label", "m1",
                          "--until-empty"], cwd=REPO, capture_output=True, text=True, timeout=120)  # fmt: skip
    assert out.returncode == 0 and out.stderr.count("job refused") == 4, out.stderr
    assert "Traceback" not in out.stderr
    assert [j["status"] for j in _jobs(fleet)] == ["failed"] * 4
    assert not marker.exists() and open_store(fleet).list_runs() == []


def test_roles_reader_cannot_enqueue_or_write_runner_cannot_enqueue(fleet, tmp_path, pg_server):
    env = {**os.environ, "CRYPTOBENCH_NEW_PASSWORD": "reader-pw"}
    for name, role in (("alice", "reader"), ("bob", "submitter"), ("carol", "runner")):
        r = run_cli("fleet", "adduser", name, "--role", role, "--db", fleet, env=env)
        assert r.returncode == 0 and f"member of cryptobench_{role}" in r.stdout, r.stderr
    as_ = {n: fleet.replace("cbtest:s3cret-not-in-logs", f"{n}:reader-pw") for n in ("alice", "bob", "carol")}
    # the reader reads
    assert run_cli("runs", "--db", as_["alice"]).returncode == 0
    # but cannot enqueue, nor write a run
    r = run_cli("submit", "--db", as_["alice"], "--machines", "m1", *FAST)
    assert r.returncode == 2 and "permission denied" in r.stderr and "reader-pw" not in r.stderr, r.stderr
    local = tmp_path / "l.db"
    run_cli("import", REPO / "tests" / "fixtures" / "store-schema1.db", "--db", local)
    r = run_cli("push", "--db", local, "--to", as_["alice"])
    assert r.returncode == 2 and "permission denied" in r.stderr, r.stderr
    # the submitter enqueues; the runner cannot
    assert run_cli("submit", "--db", as_["bob"], "--machines", "m1", *FAST).returncode == 0
    r = run_cli("submit", "--db", as_["carol"], "--machines", "m1", *FAST)
    assert r.returncode == 2 and "permission denied" in r.stderr, r.stderr
    # the runner runs the job and writes its run
    out = subprocess.run([sys.executable, "-m", "cryptobench", "agent", "--db", as_["carol"], "--machine-label", "m1",
                          "--until-empty"], cwd=REPO, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0 and "1 job run" in out.stderr and "not recorded" not in out.stderr, out.stderr
    [job] = _jobs(as_["bob"])  # the submitter reads what became of it, which the runner wrote
    assert job["status"] == "succeeded" and job["outcome"].startswith("run "), job
    with sa.create_engine("postgresql+psycopg://" + fleet.split("://")[1], poolclass=sa.pool.NullPool).connect() as c:
        assert c.execute(sa.text("SELECT COUNT(*) FROM runs WHERE status = 'complete'")).scalar() == 1


def test_queue_commands_on_an_sqlite_store_say_what_they_need(tmp_path):
    r = run_cli("submit", "--db", tmp_path / "x.db", "--machines", "m1")
    assert r.returncode == 2 and "PostgreSQL" in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    r = run_cli("agent", "--db", tmp_path / "x.db")
    assert r.returncode == 2 and "PostgreSQL" in r.stderr, r.stderr


def test_submit_before_fleet_init_says_so(pg_url):
    r = run_cli("submit", "--db", pg_url, "--machines", "m1")
    assert r.returncode == 2 and "cryptobench fleet init" in r.stderr, r.stderr
