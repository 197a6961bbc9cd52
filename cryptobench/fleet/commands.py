"""The fleet's commands: push, import, submit, agent, history, publish, fleet init.

Each is registered on the main parser by add_commands() and run by the handler of the same name."""

from __future__ import annotations

import sys
from pathlib import Path

from cryptobench.core.errors import UserError
from cryptobench.report import exporters
from cryptobench.store import db_url, open_store

EXAMPLES = {
    "push": """examples:
  cryptobench push --to postgresql://cb_runner@fleet.example/cryptobench          # every local run not there yet
  cryptobench push latest --to postgresql://cb_runner@fleet.example/cryptobench
  CRYPTOBENCH_DB=results.db cryptobench push 3 4 --to sqlite:///shared.db
runs keep their global id: pushing twice adds nothing
exit status: 0 when every run is in the target store, 1 when the target can never take one (named, with
  why; the others are copied), 2 when it cannot be written (those copied stay; the line says why) or on
  bad input, 130 when interrupted""",
    "import": """examples:
  cryptobench import pi5-run.json                 # a result file from another machine (`run --json`)
  cryptobench import other-laptop.db --db postgresql://cb_runner@fleet.example/cryptobench
importing the same run twice adds nothing
exit status: 0 when every run was imported (or was there already), 1 when this store can never take one
  (named, with why; the others are imported), 2 when a source could not be read (those imported stay; the
  line says why) or on bad input, 130 when interrupted""",
    "submit": """examples:
  cryptobench submit --suite default --machines laptop,pi5 --db postgresql://cb_submit@fleet/cryptobench
  cryptobench submit --suite versions --alg 'aes-*' --cpu-features no-aesni --machines laptop
a job carries a suite's name, filters and settings, never a command: agents refuse anything else
exit status: 0 when every job was queued, 2 when none could be (bad input, no PostgreSQL queue)""",
    "agent": """examples:
  cryptobench agent --db postgresql://cb_run@fleet/cryptobench                 # this machine's jobs, forever
  cryptobench agent --db postgresql://cb_run@fleet/cryptobench --until-empty   # drain, then exit
  cryptobench agent --machine-label pi5 --lease 60
one job at a time; a job whose agent died is queued again after --lease seconds without a heartbeat
exit status: 0 when it stops (--until-empty: no job left; a job's own failure is its status in `jobs`),
  2 when it cannot serve (no PostgreSQL queue, bad input), 130 when interrupted""",
    "jobs": """example:
  cryptobench jobs --db postgresql://cb_submit@fleet/cryptobench      # every job: machine, status, attempts
exit status: 0 when listed (failed jobs too: their status says so), 2 when the queue cannot be read""",
    "history": """examples:
  cryptobench history --alg aes-128-gcm --provider c:openssl                 # every machine, op and size
  cryptobench history --alg sha256 --provider go:stdlib --machine ci --size 16KiB --html sha256.html
  cryptobench history --alg aes-128-gcm --provider c:openssl --fail-on-change   # for CI: exit 1 on a change
  cryptobench history --alg sha256 --provider plugin:mine --metric instructions --fail-on-change   # counts: exact
a change point is found by ruptures (PELT) and given a verdict with its 95% interval
exit status: 0 when shown, 1 with --fail-on-change when a change is significant, 2 on bad input""",
    "publish": """examples:
  cryptobench publish site/                          # index, a page per algorithm, machine, run, comparison
  cryptobench publish /var/www/crypto --db postgresql://cb_read@fleet/cryptobench
the site is static and offline: open site/index.html from disk or serve the folder
exit status: 0 when written, 2 when it cannot be (bad input, the database cannot be read), 130 when
  interrupted""",
    "fleet": """examples:
  cryptobench fleet init --db postgresql://postgres@fleet/cryptobench   # tables, job queue, three roles
  CRYPTOBENCH_NEW_PASSWORD=... cryptobench fleet adduser lab_pi5 --role runner --db postgresql://postgres@fleet/cryptobench
roles: <prefix>_reader (reads), <prefix>_submitter (reads, enqueues), <prefix>_runner (claims jobs, writes runs)
exit status: 0 when done, 2 when it cannot be (no PostgreSQL, a role without the right to create roles)""",
}


def add_commands(cmd, db_help: str) -> None:
    ps = cmd("push", "Copy stored runs, whole, to another store (idempotent).")
    ps.add_argument("runs", nargs="*", metavar="RUN", help="runs to copy (ids, latest, latest~N, uids; default: all)")
    ps.add_argument("--to", required=True, metavar="URL", help="the store to copy to (a path or postgresql://...)")
    ps.add_argument("--db", help=db_help + "; the store to copy from")

    im = cmd("import", "Copy runs from result files or another store into this store (idempotent).")
    im.add_argument("sources", nargs="+", metavar="FILE.json|OTHER.db|URL", help="what to import")
    im.add_argument("--db", help=db_help + "; the store to import into")

    sb = cmd("submit", "Queue a suite for machines to run (their agents pick it up).")
    sb.add_argument("--suite", default="default", help="a suite name the agents have (default: default)")
    sb.add_argument("--machines", action="append", required=True, metavar="LABEL,...",
                    help="the machines to run it, by label (comma-separated; repeat to add): one job each")  # fmt: skip
    for flag in ("alg", "provider", "size", "chunk"):
        sb.add_argument(f"--{flag}", action="append", help=f"as for run: these {flag}s (repeat to add)")
    sb.add_argument("--baseline")
    sb.add_argument("--time-per-cell", type=float, metavar="S")
    sb.add_argument("--noise", type=float, metavar="PCT")
    sb.add_argument("--passes", type=int, metavar="N")
    sb.add_argument("--label", help="a note stored with every run of the job")
    sb.add_argument("--cpu-features", metavar="LIST", help="as for run, e.g. no-aesni")
    sb.add_argument("--db", help=db_help + " (PostgreSQL: the queue lives there)")

    ag = cmd("agent", "Run this machine's queued jobs, one at a time, into the shared store.")
    ag.add_argument("--db", help=db_help + " (PostgreSQL)")
    ag.add_argument("--machine-label", default="", metavar="NAME", help="this machine's label (default: hostname)")
    ag.add_argument("--until-empty", action="store_true", help="exit when no job is left for this machine")
    ag.add_argument("--lease", type=float, default=30.0, metavar="S",
                    help="a job whose agent sent no heartbeat for S seconds is queued again (default 30)")  # fmt: skip

    jb = cmd("jobs", "List the queued jobs and what became of them.")
    jb.add_argument("--db", help=db_help + " (PostgreSQL)")
    jb.add_argument("--json", action="store_true", help="as JSON")

    hi = cmd("history", "One cell's figures over runs, with the change points found in them.")
    hi.add_argument("--alg", required=True, help="the algorithm")
    hi.add_argument("--provider", help="the provider (default: every one that measured it)")
    hi.add_argument("--machine", help="only this machine's runs (by label)")
    hi.add_argument("--op", help="only this operation (e.g. seal)")
    hi.add_argument("--size", help="only this size (e.g. 16KiB)")
    hi.add_argument("--noise", type=float, default=2.0, metavar="PCT", help="noise threshold for verdicts (default 2)")
    hi.add_argument("--fail-on-change", action="store_true",
                    help="exit 1 when a change point is significant (faster or slower beyond the noise)")  # fmt: skip
    hi.add_argument("--metric", choices=["time", "instructions"], default="time",
                    help="time (default), or the instruction counts of `run --metric instructions`: every step "
                    "between runs beyond 0.01%% is a change")  # fmt: skip
    hi.add_argument("--format", choices=exporters.stdout_formats(exporters.HISTORY), default="terminal")
    exporters.add_file_flags(hi, exporters.HISTORY)
    hi.add_argument("--db", help=db_help)

    pb = cmd("publish", "Write a static, offline site from a store: where machines stand, what changed, charts, runs.")
    pb.add_argument("dir", metavar="DIR", help="where to write the site (created if missing)")
    pb.add_argument("--force", action="store_true",
                    help="write into DIR although it is not empty and no earlier publish wrote it")  # fmt: skip
    pb.add_argument("--db", help=db_help)

    fl = cmd("fleet", "Set up a shared PostgreSQL store: tables, job queue, roles (`init`); login roles (`adduser`).")
    fl.add_argument("action", choices=["init", "adduser"])
    fl.add_argument("name", nargs="?", help="adduser: the login role to create")
    fl.add_argument("--role", choices=["reader", "submitter", "runner"], help="adduser: which group it joins")
    fl.add_argument("--prefix", default="cryptobench", help="the roles' prefix (default: cryptobench)")
    fl.add_argument("--db", help=db_help + " (PostgreSQL, as a role that may create roles)")


def _copy(src, run_ids: list[int], dst, outcome, checked: bool = False) -> None:
    """Each run of `src` into `dst`; `checked`: through the runner's checks first (an import)."""
    from cryptobench.store.transfer import admitted, copy_into, from_store

    for run_id in run_ids:
        copy = from_store(src, run_id)
        copy_into(dst, admitted(copy) if checked else copy, outcome, source=f" of {src.url}")


def _report(outcome, dst) -> int:
    """What landed, also when a later source failed (what landed stays); the runs kept as stored or
    not copied, one line each. 1 when a run could not be copied."""
    for line in outcome.warnings():
        print(f"cryptobench: {line}", file=sys.stderr)
    if outcome.copied or outcome.present or outcome.refused or sys.exc_info()[0] is None:
        print(outcome.line(dst.url))
    return 1 if outcome.refused else 0


def cmd_push(args) -> int:
    from cryptobench.store.source import open_source

    src = open_source(db_url(args.db))  # read, never migrated nor written (store/source.py)
    if db_url(args.db) == args.to:
        raise UserError("push: --to names the store the runs are in already")
    ids = [src.resolve_run(r) for r in args.runs] if args.runs else src.run_ids()
    if not ids:
        print(f"no runs stored in {src.url}: nothing to push")
        return 0
    from cryptobench.store.transfer import Outcome

    dst = open_store(args.to)
    outcome = Outcome()
    try:
        _copy(src, list(dict.fromkeys(ids)), dst, outcome)
    finally:
        status = _report(outcome, dst)
    return status


def cmd_import(args) -> int:
    from cryptobench.store.source import open_source
    from cryptobench.store.transfer import Outcome, admitted, copy_into, from_result_file, is_sqlite_file

    dst = open_store(args.db)
    outcome = Outcome()
    try:
        for source in args.sources:
            path = Path(source)
            if "://" not in source and path.suffix.lower() == ".json":
                copy_into(dst, admitted(from_result_file(path)), outcome, source=f" of {source}")
            elif "://" in source or is_sqlite_file(path):
                src = open_source(source)  # a source is read, never migrated nor written
                _copy(src, src.run_ids(), dst, outcome, checked=True)
            elif not path.exists():
                raise UserError(f"cannot import {source!r}: no such file")
            else:
                raise UserError(f"cannot import {source!r}: neither a result file (.json) nor an SQLite store")
    finally:
        status = _report(outcome, dst)
    return status


def _submitted_job(args) -> dict:
    job: dict = {"suite": args.suite}
    for key in ("alg", "provider", "size", "chunk"):
        if getattr(args, key):
            job[key] = getattr(args, key)
    for key in ("baseline", "time_per_cell", "noise", "passes", "label", "cpu_features"):
        if getattr(args, key) is not None:
            job[key] = getattr(args, key)
    return job


def _machines(args) -> list[str]:
    names = [m.strip() for text in args.machines for m in text.split(",") if m.strip()]
    if not names:
        raise UserError("--machines: name at least one machine label, e.g. --machines laptop,pi5")
    return list(dict.fromkeys(names))


def cmd_submit(args) -> int:
    from cryptobench.fleet import queue

    url = db_url(args.db)
    machines = _machines(args)
    ids = queue.submit(url, _submitted_job(args), machines)
    for m, i in zip(machines, ids, strict=True):
        print(f"job {i}: suite {args.suite} on {m}")
    return 0


def cmd_agent(args) -> int:
    import platform

    from cryptobench.core.environment import checked_machine_label
    from cryptobench.fleet import queue

    url = db_url(args.db)
    queue.libpq_url(url)
    if args.lease < 1:
        raise UserError("--lease: at least 1 second")
    store = open_store(url)
    label = checked_machine_label(args.machine_label) or platform.node()
    agent = queue.Agent(url, label, store, lease=args.lease)
    print(f"agent {label}: waiting for jobs in {store.url}", file=sys.stderr, flush=True)
    ran = agent.serve(until_empty=args.until_empty)
    print(f"agent {label}: {ran} job{'s' if ran != 1 else ''} run", file=sys.stderr)
    return 0


def cmd_jobs(args) -> int:
    import json

    from cryptobench.core.textsafe import printable
    from cryptobench.fleet import queue

    rows = queue.list_jobs(db_url(args.db))
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    print(f"{'job':>5}  {'machine':<16} {'suite':<12} {'status':<10} {'attempts':>8}  outcome")
    for r in rows:
        # a submitter wrote these fields: escaped before they are cut, so no sequence reaches the terminal whole or half
        machine, suite, status = (printable(r[k] if r[k] is not None else "?") for k in ("machine", "suite", "status"))
        outcome = printable(r["outcome"] or "")
        print(
            f"{r['id']:>5}  {machine[:16]:<16} {suite[:12]:<12} {status[:10]:<10} {r['attempts']:>8}  {outcome[:160]}"
        )
    return 0


def cmd_fleet(args) -> int:
    from cryptobench.fleet import roles

    url = db_url(args.db)
    if args.action == "init":
        for line in roles.init(url, args.prefix):
            print(line)
        return 0
    if not args.name or not args.role:
        raise UserError("fleet adduser needs NAME and --role reader|submitter|runner")
    print(roles.adduser(url, args.prefix, args.name, args.role))
    return 0


def cmd_history(args) -> int:
    import math

    from cryptobench.analysis import history
    from cryptobench.core.units import parse_size

    if not (math.isfinite(args.noise) and 0 <= args.noise < 100):
        raise UserError(f"--noise must be a percentage in [0, 100), not {args.noise!r}")
    try:
        size = parse_size(args.size) if args.size else None
    except ValueError as e:
        raise UserError(f"--size {args.size!r}: {e}") from None
    if args.metric == "instructions":  # deterministic counts: no change-point search against noise
        from cryptobench.report.instructions import history as instruction_history

        return instruction_history(args, open_store(args.db), size)
    exporters.check_requested(exporters.HISTORY, args)
    store = open_store(args.db)
    series = history.history(store, args.alg, args.provider, args.machine, args.op, size, args.noise / 100)
    exporters.print_stdout(exporters.HISTORY, args.format, series, color=sys.stdout.isatty())
    exporters.write_requested(exporters.HISTORY, series, args)
    found = history.significant(series)
    if args.fail_on_change and found:
        s, c = found[0]
        print(f"cryptobench: {len(found)} significant change(s); first: {s.title} {c.percent:+.1f}% {c.verdict} "
              f"at run {s.points[c.index].run['id']}", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def cmd_publish(args) -> int:
    from cryptobench.fleet import publish
    from cryptobench.report.formats.html import ensure_available

    ensure_available()
    store = open_store(args.db)
    out = Path(args.dir)
    if out.exists() and not out.is_dir():
        raise UserError(f"publish: {args.dir!r} is a file, not a directory")
    got = publish.publish(store, out, say=lambda line: print(line, file=sys.stderr), force=args.force)
    print(f"published {got['machines']} machines, {got['algorithms']} algorithm pages, {got['runs']} runs, "
          f"{got['comparisons']} comparisons and {got['changes']} change points to {out / 'index.html'}")  # fmt: skip
    return 0


HANDLERS = {
    "publish": cmd_publish,
    "history": cmd_history,
    "push": cmd_push,
    "import": cmd_import,
    "submit": cmd_submit,
    "agent": cmd_agent,
    "jobs": cmd_jobs,
    "fleet": cmd_fleet,
}
