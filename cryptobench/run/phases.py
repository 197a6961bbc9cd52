"""What a run does after verification, by phase: timing, scaling (`--workers`), leak checks, instruction
counts. `cryptobench run` chooses them from its flags (`for_run`), `verify` chooses none, `leak` only
LEAK. Scaling and leak checks are phases of their own whose records go to the sink (add_scaling,
add_leak), not into the run's environment."""

from __future__ import annotations

from collections.abc import Callable

from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.core.settings import Settings
from cryptobench.core.units import format_size
from cryptobench.drivers.interface import Drivers
from cryptobench.drivers.registry import Registry
from cryptobench.icount.phase import count_cells
from cryptobench.leak import gate as leak_gate
from cryptobench.leak.result import LEAK_PROTOCOL
from cryptobench.measure import sampler, scaling
from cryptobench.measure.sampler import Track
from cryptobench.run.interfaces import Progress
from cryptobench.run.verifier import Verdict, Verifier

TIME, SCALING, LEAK, INSTRUCTIONS = "time", "scaling", "leak", "instructions"
VERIFY_ONLY: frozenset[str] = frozenset()  # `cryptobench verify`: verification is every run's first step
LEAK_ONLY = frozenset({LEAK})  # `cryptobench leak`


def for_run(s: Settings) -> frozenset[str]:
    """`cryptobench run`'s phases from its settings: timing unless `--metric` leaves it out, scaling
    with `--workers` (it measures the timed cells again), leak checks with `--leak`, counts with
    `--metric instructions`."""
    timed = s.measure and "time" in s.metrics
    return frozenset(
        ({TIME} if timed else set())
        | ({SCALING} if timed and max(s.workers, default=1) >= 2 else set())
        | ({LEAK} if s.leak else set())
        | ({INSTRUCTIONS} if INSTRUCTIONS in s.metrics else set())
    )


Refuse = Callable[[str, CellSpec], "str | None"]  # why a provider's cell cannot be measured, None if it can


def scale(cells: list[CellSpec], drivers: Drivers, registry: Registry, s: Settings, refuse: Refuse,
          progress: Progress, found: list[dict]) -> None:  # fmt: skip
    """`--workers`: every measured cell again with N pinned processes at once (scaling.py); each
    Scaled record appended to `found` as it comes (an interrupted run keeps what it has)."""
    top = max(s.workers, default=1)
    if top < 2:  # one worker is what the timing phase measured
        return
    for pid in sorted({p for c in cells for p in c.providers}):
        mine = [c for c in cells if pid in c.providers and refuse(pid, c) is None]
        if not mine or not drivers.running(pid):
            continue
        p = registry.get(pid)
        try:
            pinned = scaling.Pinned(p.argv(), drivers.env(p), p.driver_id, top, s.timeout)
        except DriverError as e:
            progress.log(f"scaling: {pid}: {e}")
            continue
        try:
            for i, spec in enumerate(mine):
                progress.step("scaling", i, len(mine), f"{pid} {spec.alg} {spec.op} {format_size(spec.size)}")
                req = sampler.request_for(spec, Track(), s)  # the same request a first round sends
                try:
                    measured = scaling.measure(pinned, pid, spec, req, s.workers, spec.budget or s.time_per_cell)
                except DriverError as e:
                    progress.log(f"scaling: {pid} {spec.alg} {spec.op}: {e}")
                    continue
                found += [x.record() for x in measured]
        finally:
            pinned.close()


def leak(cells: list[CellSpec], drivers: Drivers, verifier: Verifier, s: Settings, progress: Progress,
         found: list[dict]) -> None:  # fmt: skip
    """Each verified cell's leak classes (leak/check.py), in order; each LeakResult record appended to
    `found` as it comes."""
    from cryptobench.leak import check as leak_check  # numpy: only when a run checks for leaks

    todo = leak_check.leak_plan(cells, s.leak_classes)
    budget = leak_check.Budget(s.leak_seconds, s.leak_measurements, s.leak_threshold, s.leak_target_effect)
    for i, (pid, spec, name) in enumerate(todo):
        progress.step("leak", i, len(todo), f"{pid} {spec.alg} {spec.op} {name}")
        c = leak_check.CLASSES[name]  # a MAC cell's verify/compare checks name their own operation
        if not drivers.offers(pid, spec.alg, spec.op, 0) and drivers.running(pid):
            if not drivers.offered(pid, spec.alg):  # named, and absent: said in its row
                found.append(leak_check.LeakResult(pid, spec.alg, spec.op, spec.size, name, "not offered", c.labels,
                                                   detail=f"{pid} does not offer {spec.alg}").record())  # fmt: skip
            continue  # an operation the provider lacks: the run's own cells say so
        verdict = verifier.verdict(pid, spec.alg)
        refused = unleakable(drivers, verdict, pid, spec.op, c.leak_op(spec.op))
        if refused is not None:
            status, why = refused
            res = leak_check.LeakResult(pid, spec.alg, c.leak_op(spec.op), spec.size, name, status, c.labels,
                                        detail=why)  # fmt: skip
        else:
            # drivers.request restarts a driver a crash or hang left dead: it fails that check only
            res = leak_check.run_check(lambda m, pid=pid: drivers.request(pid, m), pid, spec.alg, spec.op,
                                       spec.size, name, budget, s.seed, progress.log)  # fmt: skip
            if verdict is not None and verdict.record.status == "failed":  # failed elsewhere: said in the row
                res.verification = leak_gate.despite(verdict.record, spec.op, c.leak_op(spec.op))
        found.append(res.record())


def unleakable(drivers: Drivers, verdict: Verdict | None, pid: str, op: str = "",
               leak_op: str = "") -> tuple[str, str] | None:  # fmt: skip
    """(status, why) when a provider's cell cannot be leak-checked, None when it can. With the cell's
    operation (and the check's, a MAC cell's verify), the gate is per operation (leak/gate.py): a
    provider failed only in other operations is checked."""
    if not drivers.running(pid):
        return "failed", drivers.why_broken(pid) or "driver not running"
    rec = verdict.record if verdict is not None else None
    if rec is None:
        return "failed", "not verified: no verification"
    if rec.status == "failed":  # unverified (too few cases) is timed, so it is checked too
        why = leak_gate.refusal(rec, op, leak_op or op) if op else f"not verified: {rec.detail}"
        if why is not None:
            return "failed", why
    version = drivers.hello(pid).get("protocol", 0)
    if version < LEAK_PROTOCOL:
        return (
            "not offered",
            f"the driver speaks protocol {version}; the leak request is version {LEAK_PROTOCOL}",
        )
    return None


def instructions(cells: list[CellSpec], drivers: Drivers, registry: Registry, s: Settings, refuse: Refuse,
                 progress: Progress) -> dict:  # fmt: skip
    """`--metric instructions`: every cell's instruction count (icount/)."""
    return count_cells(cells, registry, drivers, refuse, s, progress)
