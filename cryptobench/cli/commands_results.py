"""The commands that read stored runs: show, runs, compare, reference."""

from __future__ import annotations

import fnmatch
import json
import math
import sys
from pathlib import Path

from cryptobench.cli.shared import chosen_units, joined
from cryptobench.core import environment
from cryptobench.core.errors import UserError
from cryptobench.core.textsafe import printable
from cryptobench.report import exporters, load_report
from cryptobench.report import instructions as icount_views
from cryptobench.report.formats import terminal as term_report
from cryptobench.store import DEFAULT_DB, db_url, open_store


def cmd_show(args) -> int:
    if db_url(args.db) == DEFAULT_DB and not Path(DEFAULT_DB).exists():
        raise UserError(f"no database at ./{DEFAULT_DB} (pass --db or run `cryptobench run` first)")
    exporters.check_requested(exporters.RUN, args)
    store = open_store(args.db)
    run_id = store.resolve_run(args.run)
    rep = load_report(store, run_id, args.baseline, args.layout, _normalisation(args.normalise), chosen_units(args))
    if args.warnings:
        print(term_report.render_warnings(rep), end="")
    else:
        exporters.print_stdout(exporters.RUN, args.format, rep, color=sys.stdout.isatty())
    exporters.write_requested(exporters.RUN, rep, args)
    return 0


def cmd_runs(args) -> int:
    import json

    store = open_store(args.db)
    runs = store.list_runs(machine=args.machine)
    if args.json:
        print(json.dumps(runs, indent=2))
        return 0
    if not runs:
        print(f"no runs stored in {store.url}")
        return 0
    print(
        f"{'id':>4}  {'started':<25} {'status':<11} {'suite':<12} {'machine':<16} {'ok':>5} {'failed':>6}  providers / label"
    )
    for r in runs:
        machine = printable(r["machine_label"] or r["hostname"] or "?")  # runs before machine ids: the hostname
        machine = machine if len(machine) <= 16 else machine[:15] + "…"
        label = f"  [{r['label']}]" if r["label"] else ""
        status = r["status"]
        if status == "running" and environment.process_alive(r["hostname"], r["pid"]) is False:
            status = "abandoned"  # its process died without finishing (killed, machine restarted)
        print(
            f"{r['id']!s:>4}  {r['started']!s:<25} {status!s:<11} {r['suite']!s:<12} {machine:<16} {r['cells_ok']!s:>5} "
            f"{r['cells_failed']!s:>6}  {printable(r['providers'] or '')}{printable(label)}"
        )
    return 0


def _normalisation(text: str | None) -> tuple[float, str] | None:
    if not text:
        return None
    factor, _, reason = text.partition(":")
    try:
        value = float(factor)
    except ValueError:
        value = 0.0
    if value <= 0 or not reason.strip():
        raise UserError("--normalise needs FACTOR:REASON, e.g. '0.55:Pi 5 at 2.4 GHz vs 4.4 GHz here'")
    return value, reason.strip()


def cmd_reference(args) -> int:
    from datetime import UTC, datetime

    from cryptobench.analysis.references import load_file

    store = open_store(args.db)
    if args.action == "add":
        if not args.target:
            raise UserError("reference add needs a FILE (see `cryptobench reference --help` for its format)")
        refs = load_file(Path(args.target))
        ids = store.add_references(refs, datetime.now(UTC).isoformat(timespec="seconds"))
        print(
            f"added {len(ids)} reference figures from {refs[0].source!r} ({refs[0].machine}) as ids {ids[0]}-{ids[-1]}"
        )
    elif args.action == "list":
        refs = store.load_references()
        if not refs:
            print("no references stored")
        for r in refs:
            print(f"{r.id:>4}  {r.alg:<12} {r.op:<14} {r.ops_per_s:>12,.0f} ops/s  {r.machine}  — {r.source}")
    else:
        if not (args.target or "").isdigit():
            raise UserError("reference remove needs an ID (see `cryptobench reference list`)")
        if not store.remove_reference(int(args.target)):
            raise UserError(f"no reference with id {args.target}")
        print(f"removed reference {args.target}")
    return 0


def _run_to_run_spread(store, a, b) -> dict | None:
    """Each common cell's run-to-run spread from the other runs of the two runs' machine (None for runs
    of two machines: there is no such history across them)."""
    from cryptobench.analysis import between_runs

    machines = {between_runs.machine_of(run.env) for run, _ in (a, b)}
    if len(machines) != 1:
        return None
    keys = {(c.provider, *c.key) for c in a[1] if c.measured} & {(c.provider, *c.key) for c in b[1] if c.measured}
    return between_runs.of_cells(store, {a[0].id, b[0].id}, keys, machines.pop())


def cmd_compare(args) -> int:
    from cryptobench.report.compare import compare_providers, compare_runs

    if not (math.isfinite(args.noise) and 0 <= args.noise < 100):
        raise UserError(f"--noise must be a percentage in [0, 100), not {args.noise!r}")
    exporters.check_requested(exporters.COMPARE, args)
    store = open_store(args.db)
    text, code, line = "", 0, ""  # two runs' instruction counts (icount/views.py), when both have them

    def load(ref):
        run, _, cells = store.load_run(store.resolve_run(ref))
        if args.alg:
            globs = [g.strip() for g in joined(args.alg).split(",") if g.strip()]
            cells = [c for c in cells if any(fnmatch.fnmatchcase(c.alg, g) for g in globs)]
        return run, cells

    if args.machines:
        return _compare_machines(args, store, load)
    if args.layout == "matrix" or args.csv or args.html or args.format in ("csv", "html"):
        raise UserError("--layout matrix, --csv, --html and --format csv|html go with --machines A,B")
    if args.providers:
        if len(args.runs) > 1:
            raise UserError("with --providers give at most one run")
        run, cells = load(args.runs[0] if args.runs else "latest")
        providers = list(dict.fromkeys(p.strip() for p in joined(args.providers).split(",") if p.strip()))
        comp = compare_providers(run, cells, providers, args.noise / 100)
    else:
        if len(args.runs) != 2:
            raise UserError("give two runs (e.g. `compare latest~1 latest`) or --providers P1,P2 [RUN]")
        a, b = load(args.runs[0]), load(args.runs[1])
        algs = [g.strip() for g in joined(args.alg).split(",") if g.strip()] if args.alg else None
        text, code, line = icount_views.compare_runs(a[0], b[0], algs, args.format, args.fail_on_regression)
        if text and not ({(c.provider, *c.key) for c in a[1] if c.measured} & {(c.provider, *c.key) for c in b[1]}):
            print(text, end="")  # instruction counts alone (`run --metric instructions`): no time to compare
            if line:
                print(line, file=sys.stderr)
            return code
        comp = compare_runs(a, b, args.noise / 100, _run_to_run_spread(store, a, b))

    if text and args.format == "json":  # one document: the time comparison with the counts' beside it
        doc = json.loads(exporters.get(exporters.COMPARE, "json").render(comp, False))
        print(json.dumps({**doc, "instructions": json.loads(text)}, indent=2, ensure_ascii=False))
    else:
        exporters.print_stdout(exporters.COMPARE, args.format, comp, color=sys.stdout.isatty())
        print(text, end="")  # the counts, in their own table after the times
    exporters.write_requested(exporters.COMPARE, comp, args)
    if text:
        if line:
            print(line, file=sys.stderr)
            return code
    if args.fail_on_regression is not None:
        bad = comp.regressions(args.fail_on_regression)
        if bad:
            print(
                f"cryptobench: {len(bad)} cells regressed by more than {args.fail_on_regression:g}%: "
                + "; ".join(f"{' '.join(str(x) for x in p.key if x != '')} {p.ratio.percent:+.1f}%" for p in bad[:5]),
                file=sys.stderr,
            )
            return 1
    return 0


def _compare_machines(args, store, load) -> int:
    from cryptobench.report import machine_matrix
    from cryptobench.report.compare import compare_machines, latest_of_machine

    if args.runs or args.providers:
        raise UserError("--machines compares each machine's latest run: give no RUN and no --providers")
    labels = list(dict.fromkeys(m.strip() for m in joined(args.machines).split(",") if m.strip()))
    runs = []
    for label in labels:
        run, cells = load(latest_of_machine(store, label, args.suite))
        runs.append((label, run, cells))
    if args.layout == "matrix":
        subject, thing = exporters.MATRIX, machine_matrix.build(runs)
    else:
        if args.csv or args.html or args.format in ("csv", "html"):
            raise UserError("--csv, --html and --format csv|html go with --layout matrix")
        subject, thing = exporters.COMPARE, compare_machines(runs, args.noise / 100)
    exporters.check_requested(subject, args)
    exporters.print_stdout(subject, args.format, thing, color=sys.stdout.isatty())
    exporters.write_requested(subject, thing, args)
    return 0
