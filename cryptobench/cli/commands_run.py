"""The commands that start drivers and store a run: run, verify, leak (and verify --replay)."""

from __future__ import annotations

import math
import sys
from pathlib import Path

from cryptobench.cli.shared import check_finite, chosen_units, joined, plan_for, unbuilt_notice
from cryptobench.core import environment
from cryptobench.core.errors import DriverError, UserError
from cryptobench.core.textsafe import printable
from cryptobench.drivers import cpu_features as cpufeatures
from cryptobench.drivers.client import DriverProcess
from cryptobench.drivers.registry import Registry
from cryptobench.icount import metrics as icount_metrics
from cryptobench.measure import duet, scaling
from cryptobench.report import exporters, load_report
from cryptobench.report.outcome import outcome
from cryptobench.run import phases
from cryptobench.run.runner import Interrupted, Runner, Settings
from cryptobench.store import SpoolingStore, open_store


def _check_run_args(args) -> None:
    icount_metrics.parse(args.metric)  # an unknown metric is refused before anything runs
    scaling.parse_workers(args.workers)  # refused before anything runs
    chosen_units(args)  # an unknown unit is refused before anything runs
    check_finite(args.time_per_cell, "--time-per-cell", 0, 3600, "seconds")
    check_finite(args.timeout, "--timeout", 0, 86400, "seconds")
    if not (math.isfinite(args.noise) and 0 <= args.noise < 100):
        raise UserError(f"--noise must be a percentage in [0, 100), not {args.noise!r}")
    if args.passes < 1:
        raise UserError(f"--passes must be at least 1, not {args.passes}")
    if not 1 <= args.pair_batches <= 20:
        raise UserError(f"--pair-batches must be 1 to 20, not {args.pair_batches}")
    if args.duet and args.no_pairing:
        raise UserError("--duet pairs batches at the same moment; it cannot go with --no-pairing")
    if args.duet:
        duet.two_cores()  # refused now, in one line, not after verification
    if args.precision is not None:
        check_finite(args.precision, "--precision", 0, 100, "percent")
    if args.vectors and not Path(args.vectors).is_dir():
        raise UserError(f"vector directory {args.vectors!r} does not exist")
    exporters.check_requested(exporters.RUN, args)  # before a long run, not after it


def cmd_run(args) -> int:
    from cryptobench.run.progress import make_progress

    _check_run_args(args)
    suite, registry, the_plan = plan_for(args, args.size, joined(args.chunk) if args.chunk else None)
    baseline = registry.canonical(args.baseline or suite.baseline)
    if args.baseline:
        registry.get(args.baseline)
    cpu_off = ",".join(cpufeatures.parse(joined(args.cpu_features))) if args.cpu_features else ""
    cells = the_plan.cells
    for line in the_plan.skipped:
        print(f"cryptobench: not measured: {line}", file=sys.stderr)
    unbuilt = unbuilt_notice(registry, cells)
    for line in unbuilt:
        print(f"cryptobench: {line}", file=sys.stderr)
    providers = sorted({p for c in cells for p in c.providers})
    store = SpoolingStore(open_store(args.db))  # a database that stops taking writes loses no cell
    store.check_writable()
    settings = Settings(
        suite=suite.name,
        baseline=baseline,
        time_per_cell=args.time_per_cell or suite.time_per_cell,
        timeout=args.timeout,
        vectors_dir=args.vectors,
        noise=args.noise / 100,
        label=args.label,
        machine_label=environment.checked_machine_label(args.machine_label),
        layout=args.layout or suite.layout,
        cpu_features=cpu_off,
        passes=args.passes,
        paired=not args.no_pairing,
        pair_batches=args.pair_batches,
        duet=args.duet,
        max_rel_ci=(args.precision if args.precision is not None else suite.precision) / 100,
        workers=scaling.parse_workers(args.workers or suite.workers),
        leak=args.leak or suite.leak,
        leak_classes=suite.leak_classes,
        job=args.job,
        metrics=icount_metrics.parse(args.metric),
    )
    runner = Runner(store, registry, settings, make_progress(args.quiet))
    code = 0
    try:
        run_id = runner.run(cells, providers, phases.for_run(settings))
    except Interrupted as e:
        run_id, code = e.run_id, 130
        print(f"interrupted: run {run_id} keeps every cell measured so far", file=sys.stderr)
    try:
        rep = load_report(store, run_id, baseline=baseline, units=chosen_units(args))
    except UserError as e:  # `--unit cpb` on a host without an invariant TSC: the run is stored all the same
        print(f"cryptobench: {e}; showing the default units", file=sys.stderr)
        rep = load_report(store, run_id, baseline=baseline)
    exporters.print_stdout(exporters.RUN, "terminal", rep, color=sys.stdout.isatty())
    exporters.write_requested(exporters.RUN, rep, args)
    for line in unbuilt:  # again at the end: the first time scrolled away with the progress lines
        print(f"cryptobench: {line}", file=sys.stderr)
    print(store.stored_line(run_id), file=sys.stderr)
    if code:
        print(f"cryptobench: interrupted: exit {code}", file=sys.stderr)
        return code
    code, line = outcome(rep, _excused(args, registry, providers))
    if line:
        print(line, file=sys.stderr)  # the verdict, last: a CI log's last line says why it failed
    return code


def _excused(args, registry: Registry, providers: list[str]) -> frozenset[str]:
    """Providers whose cells failed only for not being built, and which the user did not name: the
    run said at its start it measures the others, so they do not fail it (named ones do)."""
    named = {registry.canonical(n.strip()) for v in args.provider or [] for n in v.split(",")}
    return frozenset(p for p in providers if p not in named and not registry.usable(registry.get(p))[0])


def cmd_verify(args) -> int:
    from cryptobench.report import conformance as conf_report
    from cryptobench.run.progress import make_progress
    from cryptobench.verify.differential import Input

    check_finite(args.timeout, "--timeout", 0, 86400, "seconds")
    if not 0 <= args.inputs <= 100_000 or not 0 <= args.monte <= 100:
        raise UserError("--inputs must be in [0, 100000] and --monte in [0, 100]")
    exporters.check_requested(exporters.VERIFY, args)
    suite, registry, the_plan = plan_for(args, None)
    cells = the_plan.cells
    if args.replay:
        return _replay(registry, cells, Input.parse(args.replay), args.timeout)
    for line in unbuilt_notice(registry, cells):
        print(f"cryptobench: {line}", file=sys.stderr)
    store = SpoolingStore(open_store(args.db))
    store.check_writable()
    settings = Settings(suite=f"verify:{suite.name}", baseline=suite.baseline, timeout=args.timeout,
                        vectors_dir=args.vectors, differential_inputs=args.inputs, monte_checkpoints=args.monte,
                        seed=args.seed if args.seed > 0 else 1,
                        machine_label=environment.checked_machine_label(args.machine_label))  # fmt: skip
    providers = sorted({p for c in cells for p in c.providers})
    try:
        run_id = Runner(store, registry, settings, make_progress(args.quiet)).run(cells, providers, phases.VERIFY_ONLY)
    except Interrupted as e:
        print(f"interrupted: run {e.run_id} keeps what was verified so far",
              file=sys.stderr)  # fmt: skip
        return 130
    run, verifs, _ = store.load_run(run_id)
    verification = conf_report.Verification(run, verifs)
    exporters.print_stdout(exporters.VERIFY, "terminal", verification, color=sys.stdout.isatty())
    exporters.write_requested(exporters.VERIFY, verification, args)
    print(store.stored_line(run_id), file=sys.stderr)
    unstarted = [p for p in providers if p not in run.providers]  # a driver that never said hello
    if unstarted:  # named by the user or the suite: refused in the last line, never an empty pass
        print(f"cryptobench: verify: {len(unstarted)} provider(s) could not start ({', '.join(unstarted)}): exit 1",
              file=sys.stderr)  # fmt: skip
        return 1
    return 1 if conf_report.failed(verifs) else 0


def _target_effect(text: str | None) -> float | None:
    """--target-effect: a percentage of the median time, '0.2' or '0.2%', in (0, 100)."""
    if text is None:
        return None
    try:
        value = float(text.strip().removesuffix("%"))
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value < 100):
        raise UserError(f"--target-effect must be a percentage of the median time in (0, 100), e.g. 0.2%, not {text!r}")
    return value


def cmd_leak(args) -> int:
    from cryptobench.leak import check as leak_check
    from cryptobench.plan import leak_classes as leak_classes
    from cryptobench.report.leak_table import LeakReport
    from cryptobench.run.progress import make_progress

    check_finite(args.timeout, "--timeout", 0, 86400, "seconds")
    check_finite(args.seconds, "--seconds", 0, 86400, "seconds")
    check_finite(args.threshold, "--threshold", 0, 1e9, "")
    target = _target_effect(args.target_effect)
    # with a target, the budget is what the target needs: --seconds and --measurements are only caps
    usual = leak_check.Budget()  # the defaults without a target
    seconds = args.seconds if args.seconds is not None else leak_check.TARGET_SECONDS if target else usual.seconds
    measurements = args.measurements
    if measurements is None:
        measurements = leak_check.TARGET_MEASUREMENTS if target else usual.measurements
    if not 1000 <= measurements <= 100_000_000:
        raise UserError("--measurements must be in [1000, 100000000]")
    only = leak_classes.parse(args.leak_class)
    exporters.check_requested(exporters.LEAK, args)
    suite, registry, the_plan = plan_for(args, args.size)
    cpu_off = ",".join(cpufeatures.parse(joined(args.cpu_features))) if args.cpu_features else ""
    cells = the_plan.cells
    if not args.size:  # an algorithm the suite does not list comes with every default size: its smallest is enough
        smallest = {}
        for c in cells:
            smallest[(c.alg, c.op)] = min(smallest.get((c.alg, c.op), c.size), c.size)
        cells = [c for c in cells if c.size == smallest[(c.alg, c.op)]]
    if not leak_check.leak_plan(cells, only):
        named = f" of class {', '.join(only)}" if only else ""
        raise UserError(f"no leak check{named} applies to the selected cells (docs/leak.md lists the classes)")
    for line in unbuilt_notice(registry, cells):
        print(f"cryptobench: {line}", file=sys.stderr)
    store = SpoolingStore(open_store(args.db))
    store.check_writable()
    settings = Settings(suite=f"leak:{suite.name}", baseline=suite.baseline, timeout=args.timeout,
                        vectors_dir=args.vectors, leak_classes=only,
                        leak_seconds=seconds, leak_measurements=measurements, leak_target_effect=target,
                        leak_threshold=args.threshold, cpu_features=cpu_off, label=args.label,
                        seed=args.seed if args.seed > 0 else 1,
                        machine_label=environment.checked_machine_label(args.machine_label))  # fmt: skip
    providers = sorted({p for c in cells for p in c.providers})
    code = 0
    try:
        run_id = Runner(store, registry, settings, make_progress(args.quiet)).run(cells, providers, phases.LEAK_ONLY)
    except Interrupted as e:
        run_id, code = e.run_id, 130
        print(f"interrupted: run {run_id} keeps every check made so far", file=sys.stderr)
    run, _, _ = store.load_run(run_id)
    rep = LeakReport(run, run.leak)
    exporters.print_stdout(exporters.LEAK, args.format, rep, color=sys.stdout.isatty())
    exporters.write_requested(exporters.LEAK, rep, args)
    print(store.stored_line(run_id), file=sys.stderr)
    if code:
        return code
    # a provider checked though it failed another operation's verification (leak/gate.py) fails too
    return 1 if any(r.get("status") in ("leak", "failed") or r.get("verification") for r in rep.records) else 0


def _replay(registry: Registry, cells, x, timeout: float) -> int:
    """One differential input on every provider of the plan that offers it: each one's output."""
    from cryptobench.verify.differential import _ask

    algs = list(dict.fromkeys(c.alg for c in cells))
    if len(algs) != 1:
        raise UserError("--replay needs exactly one --alg")
    alg = algs[0]
    answers = {}
    for pid in sorted({p for c in cells for p in c.providers}):
        p = registry.get(pid)
        if not registry.usable(p)[0]:
            continue
        try:  # one driver per provider: its hello says whether it offers the operation
            d = DriverProcess(pid, p.argv(), env=registry.env_for(p))
        except DriverError:
            continue
        try:
            offers = d.hello(timeout=timeout).get("offers", {})
            if x.op in offers.get(alg, []):
                o = _ask(lambda m, d=d: d.request(m, timeout), alg, x)  # driver errors come back in o.error
                answers[pid] = "not offered" if o.not_offered else (o.checksum or o.error)
        except DriverError:
            pass  # a driver that cannot say hello offers nothing to compare
        finally:
            d.close(timeout=2)
    if not answers:
        raise UserError(f"no provider of the plan offers {alg} {x.op}")
    for pid, out in answers.items():
        print(f"{pid:<24} {printable(out)}")
    return 1 if len({a for a in answers.values() if a != "not offered"}) > 1 else 0
