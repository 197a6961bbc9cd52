"""A run's instruction counts: every verified cell of every native provider, counted by N/2N
differencing, twice in fresh processes to show the count is deterministic.

For one cell: a request with batch N and one with 2N (samples 1, no timed warm-up: a warm-up by
time would run a different number of operations each time), and the count per operation is
(count(2N) - count(N)) / N, so whatever a request costs besides its operations cancels. N is chosen
from a first pair (1 and 2 operations) so a request counts about TARGET instructions. The whole
provider is counted again in a new process; both figures are kept, and a cell whose two differ by
more than TOLERANCE is `unsteady` (its spread is then its interval in compare and history).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.core.units import format_size
from cryptobench.drivers.programs import C_HOST, Provider
from cryptobench.icount import callgrind, counters, cpu, perf
from cryptobench.measure import sampler
from cryptobench.measure.sampler import Track

TARGET = 4_000_000  # instructions per counted request under valgrind (~0.1 s): counts are exact anyway
MAX_BATCH = 1_000_000
TOLERANCE = 1e-4  # 0.01%: two counts of one build further apart than this are not deterministic
NOT_NATIVE = ("instruction counts need a native driver: an interpreter's or JIT's count measures the VM, "
              "and varies with its warm-up")  # fmt: skip
UNKNOWN_DRIVER = "instruction counts need a driver whose timed region cryptobench knows (the C, Go or Rust driver)"


def kind_of(p: Provider) -> str | None:
    """The native driver family a provider runs in ("c", "go", "rust"), None for the others."""
    if p.command[:1] == (str(C_HOST),):
        return "c"  # C and C++ libraries, and every C or Rust plugin (.so) under the generic C driver
    return p.driver if p.driver in ("go", "rust") else None


def not_offered_why(p: Provider) -> str:
    return (
        UNKNOWN_DRIVER
        if p.driver is None and p.language not in ("python", "javascript", "java", "wasm")
        else NOT_NATIVE
    )


def request(spec: CellSpec, settings, batch: int) -> dict:
    """The run's own bench request for this cell, with a fixed batch, one sample, no warm-up by time."""
    req = sampler.request_for(spec, Track(), settings)
    return {**req, "batch": batch, "samples": 1, "warmup_ns": 0, "target_ns": 0}


def _record(spec: CellSpec, pid: str, status: str, detail: str = "", **figures) -> dict:
    return {"provider": pid, "alg": spec.alg, "op": spec.op, "size": spec.size, "chunk": spec.chunk,
            "status": status, "detail": detail, **figures}  # fmt: skip


def per_op(count: Callable[[int], int], batch: int | None, target: int, pair: bool = True) -> tuple[float, int]:
    """(instructions per operation, the batch N used): a first pair of 1 and 2 operations sizes N
    when none is given. The pair runs either way, so both processes of a cell make the same requests:
    what a driver does once (a Go stack grown on the first batch: 884 instructions) falls in it."""
    if pair or batch is None:
        one, two = count(1), count(2)
    if batch is None:
        # the pair's difference is one operation; a runtime's first-call work can hide it, so the
        # pair's mean stands in when the difference is implausibly small (an N far too large)
        batch = max(1, min(MAX_BATCH, math.ceil(target / max(two - one, two / 4, 1))))
    small, big = count(batch), count(2 * batch)
    return (big - small) / batch, batch


def spread(a: float, b: float) -> float:
    """Relative difference of two counts of one cell."""
    low = min(abs(a), abs(b))
    return abs(a - b) / low if low else (0.0 if a == b else math.inf)


class Counter:
    """Counts one provider's cells with the chosen method (valgrind or perf)."""

    def __init__(self, choice: counters.Choice, timeout: float):
        self.choice, self.timeout = choice, timeout

    def counts(self, p: Provider, env: dict, specs: list[CellSpec], settings, batches: dict,
               say: Callable[[CellSpec], None] = lambda spec: None) -> dict:  # fmt: skip
        """{spec: (per-op count, batch) or DriverError} from one fresh process (valgrind), or fresh
        processes (perf); `say` is told of each cell as it starts."""
        out: dict = {}
        if self.choice.method == "perf":
            for spec in specs:
                say(spec)

                def one(n: int, spec: CellSpec = spec) -> int:
                    return perf.count_process(p.id, p.argv(), env, request(spec, settings, n), self.timeout)

                try:
                    out[spec] = per_op(one, batches.get(spec) or _perf_batch(one), perf.TARGET, pair=False)
                except DriverError as e:
                    out[spec] = e
            return out
        region = callgrind.REGIONS[kind_of(p)]
        drv = None
        try:
            for spec in specs:
                say(spec)
                try:
                    if drv is None:  # the first cell's, or a fresh one after a crash ended the last
                        drv = callgrind.Counted(p.id, p.argv(), env, region, self.timeout)

                    def one(n: int, spec: CellSpec = spec, d: callgrind.Counted = drv) -> int:
                        return d.count(request(spec, settings, n))

                    out[spec] = per_op(one, batches.get(spec), TARGET)
                except DriverError as e:
                    out[spec] = e
                    if drv is not None and not drv.proc.alive():
                        drv.close()
                        drv = None
        finally:
            if drv is not None:
                drv.close()
        return out


def _perf_batch(count: Callable[[int], int]) -> int:
    """A batch of about perf.TARGET instructions, from two rough process counts (start-up noise is
    large against one operation, so 1,000 and 2,000 of them)."""
    rough = max((count(2000) - count(1000)) / 1000, 1.0)
    return max(1, min(MAX_BATCH * 100, math.ceil(perf.TARGET / rough)))


def count_cells(cells: list[CellSpec], registry, pool, refuse: Callable[[str, CellSpec], str | None], settings,
                progress) -> dict:  # fmt: skip
    """Every cell's instruction count (the run's `env["instructions"]`): what counted, the CPU
    features it saw, and a record per (provider, cell)."""
    started = time.monotonic()
    choice = counters.choose()
    prefix = ["valgrind", "-q", "--tool=none"] if choice.method == "valgrind" else []
    out = {"method": choice.method, "tool": choice.tool, "why_not_perf": choice.why_not_perf,
           "tolerance": TOLERANCE, "cpu": cpu.features(prefix) if choice.method else {}, "records": []}  # fmt: skip
    records = out["records"]
    for pid in sorted({p for c in cells for p in c.providers}):
        mine = [c for c in cells if pid in c.providers]
        p = registry.get(pid)
        todo = []
        for spec in mine:
            why = refuse(pid, spec)  # verification first, as for time: a failed or unverified-away cell is not counted
            if why is None and kind_of(p) is None:
                why = f"not offered: {not_offered_why(p)}"
            elif why is None and not choice.method:
                why = f"not offered: no counter: {choice.why_not_perf}"
            if why is None:
                todo.append(spec)
            else:
                status = "not offered" if why.startswith("not offered") else "failed"
                records.append(_record(spec, pid, status, why.removeprefix("not offered: ")))
        if not todo:
            continue
        counter, env = Counter(choice, settings.timeout * 4), pool.env(p)  # valgrind is ~50x slower than native
        steps = iter(range(2 * len(todo)))

        def say(spec: CellSpec, pid: str = pid, steps=steps, total: int = 2 * len(todo)) -> None:
            size = f" {format_size(spec.size)}" if spec.size else ""
            progress.step("instructions", next(steps, 0), total, f"{pid} {spec.alg} {spec.op}{size}")

        first = counter.counts(p, env, todo, settings, {}, say)
        batches = {s: r[1] for s, r in first.items() if isinstance(r, tuple)}
        second = counter.counts(p, env, [s for s in todo if s in batches], settings, batches, say)  # a fresh process
        for spec in todo:
            a, b = first[spec], second.get(spec)
            if isinstance(a, DriverError) or isinstance(b, DriverError):
                records.append(_record(spec, pid, "failed", str(a if isinstance(a, DriverError) else b)))
                continue
            counts = [a[0], b[0]]
            gap = spread(*counts)
            status = "ok" if gap <= TOLERANCE else "unsteady"
            detail = "" if status == "ok" else f"two counts differ by {gap:.4%} (more than {TOLERANCE:.2%})"
            records.append(_record(spec, pid, status, detail, per_op=sum(counts) / 2, counts=counts, batch=a[1]))
    out["seconds"] = round(time.monotonic() - started, 1)
    return out
