"""Multi-core scaling: N processes of one provider, each pinned to its own core, timing the same
cell at the same moment (`--workers 1,N`), as `openssl speed -multi N` does for capacity.

After the run's ordinary (one-process) measurement, for every measured cell and each worker count:
rounds alternate one pinned worker alone with N pinned workers at once (each round: the same
`bench` request to every worker, sent together), so single and aggregate are measured minutes,
not hours, apart. Per N: aggregate throughput (the sum of the workers' rates), per-worker
throughput, and efficiency = aggregate / (N x one worker alone), each a median over rounds with
its 95% interval. No provider here runs threads of its own, so one worker is one core.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass

from cryptobench.analysis import stats
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError, UserError
from cryptobench.core.lists import split_list
from cryptobench.drivers.client import DriverProcess

SAMPLES = 3
TARGET_NS = 5_000_000
MIN_ROUNDS = 5


def cores() -> list[int]:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return sorted(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return list(range(os.cpu_count() or 1))


def parse_workers(text: str | list[str] | None) -> list[int]:
    """`1,2`, `1,all`: worker counts, each at most the cores available; [] when not asked for."""
    if not text:
        return []
    available = len(cores())
    out = []
    for item in split_list(text, "--workers"):
        n = available if item == "all" else int(item) if item.isdigit() else 0
        if n < 1:
            raise UserError(f"--workers {item!r}: a number of worker processes (1, 2, ...) or 'all'")
        if n > available:
            raise UserError(f"--workers {n}: only {available} cores are available to this process; one worker per core")
        out.append(n)
    return sorted(set(out) | {1})


@dataclass
class Scaled:
    provider: str
    spec: CellSpec
    workers: int
    single: stats.Summary  # one worker alone, operations per second
    aggregate: stats.Summary  # N workers together, operations per second summed
    per_worker: stats.Summary
    efficiency: stats.Summary  # aggregate / (N x single), round by round

    def record(self) -> dict:
        def s(x: stats.Summary) -> dict:
            return {"median": x.median, "ci95": [x.ci_low, x.ci_high]}

        return {"provider": self.provider, "alg": self.spec.alg, "op": self.spec.op, "size": self.spec.size,
                "chunk": self.spec.chunk, "workers": self.workers, "single_ops_per_s": s(self.single),
                "aggregate_ops_per_s": s(self.aggregate), "per_worker_ops_per_s": s(self.per_worker),
                "efficiency": s(self.efficiency)}  # fmt: skip


class Pinned:
    """N driver processes of one provider, worker i pinned to core i (`taskset`, so every thread of
    a runtime is pinned too)."""

    def __init__(self, argv: list[str], env: dict, pid: str, n: int, timeout: float):
        cs = cores()
        self.timeout = timeout
        self.procs = [DriverProcess(pid, ["taskset", "-c", str(cs[i]), *argv], env=env) for i in range(n)]
        for d in self.procs:
            d.hello(timeout=timeout)

    def bench(self, req: dict, n: int) -> list[dict]:
        """The same request to the first `n` workers at once; their answers in order."""
        answers: list = [None] * n

        def one(i: int) -> None:
            try:
                answers[i] = self.procs[i].request(req, self.timeout)
            except DriverError as e:
                answers[i] = e

        threads = [threading.Thread(target=one, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for a in answers:
            if isinstance(a, DriverError):
                raise a
        return answers

    def close(self) -> None:
        for d in self.procs:
            d.close(timeout=2)


def _rate(resp: dict) -> float:
    """Operations per second of one worker's answer (median sample)."""
    return resp["batch"] / stats.median(resp["samples_ns"]) * 1e9


def measure(pool: Pinned, provider: str, spec: CellSpec, base_req: dict, counts: list[int],
            budget_s: float) -> list[Scaled]:  # fmt: skip
    """Rounds of one worker alone then each N together, until the budget is spent (at least MIN_ROUNDS)."""
    first = pool.bench({**base_req, "batch": 0, "target_ns": TARGET_NS, "samples": 1}, 1)[0]
    req = {**base_req, "batch": first["batch"], "samples": SAMPLES, "warmup_ns": 1_000_000}
    single: list[float] = []
    together: dict[int, list[list[float]]] = {n: [] for n in counts if n > 1}
    start, rounds = time.monotonic(), 0
    while rounds < MIN_ROUNDS or time.monotonic() - start < budget_s:
        single.append(_rate(pool.bench(req, 1)[0]))
        for n in together:
            together[n].append([_rate(a) for a in pool.bench(req, n)])
        rounds += 1
    out = []
    for n, rates in together.items():
        agg = [sum(r) for r in rates]
        eff = [a / (n * s) for a, s in zip(agg, single, strict=True)]
        out.append(Scaled(provider, spec, n, stats.summarize(single), stats.summarize(agg),
                          stats.summarize([x for r in rates for x in r]), stats.summarize(eff)))  # fmt: skip
    return out
