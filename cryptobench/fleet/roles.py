"""`cryptobench fleet init`: the shared store, its job queue, and three PostgreSQL roles.

- `<prefix>_reader`:    reads runs (reports, compare, history, publish). Cannot write or enqueue.
- `<prefix>_submitter`: reads runs, enqueues jobs (submit), reads what became of them (jobs). Cannot
                        write runs, claim jobs or write a job's outcome.
- `<prefix>_runner`:    an agent: claims jobs, writes runs and jobs' outcomes. Cannot enqueue new jobs.

They are group roles (NOLOGIN); `fleet adduser NAME --role runner` makes a login role in one of
them, its password from CRYPTOBENCH_NEW_PASSWORD or asked at the terminal, never on a command line.
"""

from __future__ import annotations

import getpass
import os
import re

import sqlalchemy as sa

from cryptobench.core.errors import UserError
from cryptobench.fleet import queue
from cryptobench.store import open_store
from cryptobench.store.migrate import current_revision

OUR_TABLES = ["meta", "runs", "providers", "verifications", "cells", "refs", "conformance", "crosschecks", "scaling",
              "leak_checks", "alembic_version"]  # fmt: skip
RUN_WRITES = ["runs", "providers", "verifications", "cells", "conformance", "crosschecks", "scaling", "leak_checks",
              "meta"]  # fmt: skip
ROLES = ("reader", "submitter", "runner")
_IDENT = re.compile(r"^[a-z_][a-z0-9_]{0,40}$")


def _ident(name: str, what: str) -> str:
    if not _IDENT.match(name):
        raise UserError(f"{what} {name!r}: lower-case letters, digits and _ only (a PostgreSQL role name)")
    return name


def grants(prefix: str) -> list[str]:
    r, s, w = (f"{prefix}_{x}" for x in ROLES)
    tables = ", ".join(OUR_TABLES)
    return [
        f"GRANT SELECT ON {tables} TO {r}, {s}, {w}",
        f"GRANT INSERT, UPDATE ON {', '.join(RUN_WRITES)} TO {w}",
        f"GRANT DELETE ON providers, verifications, conformance, meta TO {w}",
        f"GRANT USAGE ON SEQUENCE runs_id_seq, cells_id_seq TO {w}",
        # the queue: submitters add jobs, runners claim and finish them; readers see none of it
        f"GRANT SELECT, INSERT ON procrastinate_jobs TO {s}",
        f"GRANT SELECT, UPDATE ON procrastinate_jobs TO {w}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON procrastinate_workers TO {w}",
        f"GRANT SELECT, INSERT ON procrastinate_events TO {s}, {w}",
        f"GRANT USAGE ON SEQUENCE procrastinate_jobs_id_seq, procrastinate_events_id_seq TO {s}",
        f"GRANT USAGE ON SEQUENCE procrastinate_events_id_seq, procrastinate_workers_id_seq TO {w}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON procrastinate_periodic_defers TO {w}",
        f"GRANT USAGE ON SEQUENCE procrastinate_periodic_defers_id_seq TO {w}",
        # what became of each job: agents write it, submitters read it (`jobs`); a submitter cannot forge it
        f"GRANT SELECT ON {queue.OUTCOMES} TO {s}, {w}",
        f"GRANT INSERT, UPDATE ON {queue.OUTCOMES} TO {w}",
    ]


def init(url: str, prefix: str) -> list[str]:
    """Create (or bring up to date) the store, the queue and the roles; what was done, line by line."""
    prefix = _ident(prefix, "--prefix")
    queue.libpq_url(url)
    store = open_store(url)  # creates or migrates cryptobench's tables
    with store.engine.connect() as conn:
        revision = current_revision(conn)
    done = [f"store: tables at schema revision {revision} in {store.url}"]
    app = queue.make_app(url)
    app.open()
    try:
        if not queue.queue_ready(app):
            app.schema_manager.apply_schema()
            done.append("job queue: procrastinate's tables created")
        else:
            done.append("job queue: present")
    finally:
        app.close()
    with store.engine.begin() as conn:
        had = conn.execute(sa.text(f"SELECT to_regclass('{queue.OUTCOMES}') IS NOT NULL")).scalar()
        conn.execute(sa.text(queue.OUTCOMES_DDL))
        done.append(f"job outcomes: {queue.OUTCOMES} {'present' if had else 'created'}")
        for role in ROLES:
            name = f"{prefix}_{role}"
            exists = conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}).scalar()
            if not exists:
                conn.execute(sa.text(f"CREATE ROLE {name} NOLOGIN"))
            done.append(f"role {name}: {'present' if exists else 'created'}")
        for statement in grants(prefix):
            conn.execute(sa.text(statement))
    store.close()
    return done


def adduser(url: str, prefix: str, name: str, role: str) -> str:
    prefix, name = _ident(prefix, "--prefix"), _ident(name, "user")
    if role not in ROLES:
        raise UserError(f"--role {role!r}: one of {', '.join(ROLES)}")
    password = os.environ.get("CRYPTOBENCH_NEW_PASSWORD") or getpass.getpass(f"password for {name}: ")
    if not password:
        raise UserError("a login role needs a password (CRYPTOBENCH_NEW_PASSWORD, or type it when asked)")
    store = open_store(url)
    with store.engine.begin() as conn:
        exists = conn.execute(sa.text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name}).scalar()
        verb = "ALTER" if exists else "CREATE"
        # PostgreSQL takes no parameter here: the password is a literal, quoted by psycopg's own sql module
        from psycopg import sql

        statement = sql.SQL(verb + " ROLE {} LOGIN PASSWORD {}").format(sql.Identifier(name), sql.Literal(password))
        conn.connection.driver_connection.execute(statement)
        conn.execute(sa.text(f"GRANT {prefix}_{role} TO {name}"))
    store.close()
    return f"login role {name}: {'updated' if exists else 'created'}, member of {prefix}_{role}"
