"""The fleet's commands: push, import, submit, agent, history, publish, fleet init.

Each is registered on the main parser by add_commands() and run by the handler of the same name."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import UserError
from ..store import db_url, open_store
from ..store.transfer import Outcome, copy_into, from_result_file, from_store, is_sqlite_file

EXAMPLES = {
    "push": """examples:
  cryptobench push --to postgresql://cb_runner@fleet.example/cryptobench          # every local run not there yet
  cryptobench push latest --to postgresql://cb_runner@fleet.example/cryptobench
  CRYPTOBENCH_DB=results.db cryptobench push 3 4 --to sqlite:///shared.db
runs keep their global id: pushing twice adds nothing""",
    "import": """examples:
  cryptobench import pi5-run.json                 # a result file from another machine (`run --json`)
  cryptobench import other-laptop.db --db postgresql://cb_runner@fleet.example/cryptobench
importing the same run twice adds nothing""",
}


def add_commands(cmd, db_help: str) -> None:
    ps = cmd("push", "Copy stored runs, whole, to another store (idempotent).")
    ps.add_argument("runs", nargs="*", metavar="RUN", help="runs to copy (ids, latest, latest~N, uids; default: all)")
    ps.add_argument("--to", required=True, metavar="URL", help="the store to copy to (a path or postgresql://...)")
    ps.add_argument("--db", help=db_help + "; the store to copy from")

    im = cmd("import", "Copy runs from result files or another store into this store (idempotent).")
    im.add_argument("sources", nargs="+", metavar="FILE.json|OTHER.db|URL", help="what to import")
    im.add_argument("--db", help=db_help + "; the store to import into")


def _copy(src, run_ids: list[int], dst, outcome: Outcome) -> None:
    for run_id in run_ids:
        copy_into(dst, from_store(src, run_id), outcome)


def _report(outcome: Outcome, dst) -> None:
    """What landed, also when a later source failed (what landed stays)."""
    if outcome.copied or outcome.present or sys.exc_info()[0] is None:
        print(outcome.line(dst.url))


def cmd_push(args) -> int:
    src = open_store(args.db)
    if db_url(args.db) == args.to:
        raise UserError("push: --to names the store the runs are in already")
    ids = [src.resolve_run(r) for r in args.runs] if args.runs else src.run_ids()
    if not ids:
        print(f"no runs stored in {src.url}: nothing to push")
        return 0
    dst = open_store(args.to)
    outcome = Outcome()
    try:
        _copy(src, list(dict.fromkeys(ids)), dst, outcome)
    finally:
        _report(outcome, dst)
    return 0


def cmd_import(args) -> int:
    dst = open_store(args.db)
    outcome = Outcome()
    try:
        for source in args.sources:
            path = Path(source)
            if "://" not in source and path.suffix.lower() == ".json":
                copy_into(dst, from_result_file(path), outcome)
            elif "://" in source or is_sqlite_file(path):
                src = open_store(source, import_waiting=False)
                _copy(src, src.run_ids(), dst, outcome)
            elif not path.exists():
                raise UserError(f"cannot import {source!r}: no such file")
            else:
                raise UserError(f"cannot import {source!r}: neither a result file (.json) nor an SQLite store")
    finally:
        _report(outcome, dst)
    return 0


HANDLERS = {"push": cmd_push, "import": cmd_import}
