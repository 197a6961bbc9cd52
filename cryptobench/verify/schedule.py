"""How verification shares the machine: one thread-pool helper for every stage, one lock per provider
(its driver is one process answering one request at a time), and the time each provider was busy.

Verification is many small jobs on a few dozen driver processes. With a barrier per stage (every
provider's known answers, then every cross-verification, ...) each stage waited on its slowest
provider while the others idled. Here each algorithm goes through its stages on its own, several
algorithms at once, the slowest first (longest-processing-time first: the one that would end last
starts first); a job holds only the lock of the provider it is asking, one at a time, so two
threads never talk to one driver and no two jobs can wait on each other.

`Profile` is what `bench/matrix-profile` prints: each stage's span, each provider's busy time per
stage, and how much of the run each provider was idle (`CRYPTOBENCH_VERIFY_PROFILE=FILE` writes it)."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")

PROFILE_ENV = "CRYPTOBENCH_VERIFY_PROFILE"


class Stopped(Exception):
    """A job not started because the run is ending (Ctrl-C, SIGTERM, or another job's exception)."""


def at_once(items: Sequence[T], fn: Callable[[T], R], workers: int, cost: Callable[[T], float] | None = None,
            stop: threading.Event | None = None) -> list[R]:  # fmt: skip
    """fn(item) for every item on up to `workers` threads, the costliest first when `cost` is given; the
    results in the items' order. The calling thread waits in short steps, so Ctrl-C and SIGTERM reach
    it at once; then (or when a job raises) `stop` is set, jobs not yet started are dropped and the
    ones running end after the request they are in. A job's exception is raised here, as sequential
    code would raise it."""
    stop = stop if stop is not None else threading.Event()
    if not items:
        return []
    order = sorted(range(len(items)), key=lambda i: -cost(items[i])) if cost else range(len(items))

    def job(item: T) -> R:
        if stop.is_set():
            raise Stopped()
        return fn(item)

    pool = ThreadPoolExecutor(max_workers=max(1, min(workers, len(items))))
    futures: dict[int, Future] = {}
    try:
        for i in order:
            futures[i] = pool.submit(job, items[i])
        while True:
            done, left = wait(futures.values(), timeout=0.2, return_when=FIRST_EXCEPTION)
            if not left or any(f.exception() is not None for f in done if not f.cancelled()):
                break
        real = [e for f in futures.values() if f.done() and not f.cancelled() and (e := f.exception()) is not None]
        for e in real:
            if not isinstance(e, Stopped):  # the cause, not a job that stopped because of it
                raise e
        if real:
            raise real[0]
        return [futures[i].result() for i in range(len(items))]
    except BaseException:
        stop.set()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# drivers working at once, whatever the number of jobs waiting: a request's timeout runs on the wall
# clock, and thirty CPU-bound requests on two cores (SLH-DSA's 's' signing in wasm or pure JS: tens
# of seconds alone) made each take thirty times as long, past the timeout; the verification stages
# one after another asked four at once
DRIVERS_AT_ONCE = 6


class Providers:
    """One lock per provider, and what each held it for, per stage: `busy` is the time a provider's
    driver was asked something (or a job held it to ask several things in a row). A request takes
    its provider's lock, then one of `at_once` slots: never the other way round, so a thread holding
    a slot waits on nothing, and the slots bound how many drivers compete for the machine's cores."""

    def __init__(self, at_once: int = DRIVERS_AT_ONCE) -> None:
        self._slots = threading.BoundedSemaphore(at_once)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self.t0 = time.monotonic()
        self.busy: dict[str, dict[str, float]] = {}  # provider -> stage -> seconds
        self.spans: dict[str, list[float]] = {}  # stage -> [first start, last end], from t0
        self.jobs: list[tuple[str, str, float]] = []  # (stage, what, seconds): every algorithm's stages

    def _lock(self, pid: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(pid, threading.Lock())

    @contextmanager
    def using(self, pid: str, stage: str):
        """Hold `pid`'s driver for one request or job; counts toward its busy time in `stage`."""
        with self._lock(pid), self._slots:
            t = time.monotonic()
            try:
                yield
            finally:
                held = time.monotonic() - t
                with self._guard:
                    mine = self.busy.setdefault(pid, {})
                    mine[stage] = mine.get(stage, 0.0) + held

    @contextmanager
    def stage(self, stage: str, what: str):
        """One algorithm's stage (or one job): its wall time, and the stage's span over the run."""
        t = time.monotonic()
        try:
            yield
        finally:
            end = time.monotonic()
            with self._guard:
                self.jobs.append((stage, what, end - t))
                span = self.spans.setdefault(stage, [t - self.t0, end - self.t0])
                span[0], span[1] = min(span[0], t - self.t0), max(span[1], end - self.t0)

    def profile(self) -> dict:
        wall = time.monotonic() - self.t0
        return {
            "wall": wall,
            "orchestrator_cpu": time.process_time(),
            "spans": self.spans,
            "busy": self.busy,
            "jobs": sorted(self.jobs, key=lambda j: -j[2]),
        }

    def write_profile(self, path: str | None = None) -> None:
        """The profile as JSON to `path` (default: $CRYPTOBENCH_VERIFY_PROFILE; nothing when unset)."""
        path = path or os.environ.get(PROFILE_ENV)
        if path:
            with open(path, "w") as f:
                json.dump(self.profile(), f, indent=1)


class Steps:
    """Progress of stages that run at once: `step(stage, i, n, what)` with i counted per stage, as
    the stages one after another said it (n from `totals`, when known)."""

    def __init__(self, step: Callable[[str, int, int, str], None]) -> None:
        self.step, self.totals = step, {}
        self._done: dict[str, int] = {}
        self._lock = threading.Lock()

    def __call__(self, stage: str, what: str) -> None:
        with self._lock:
            i = self._done.get(stage, 0)
            self._done[stage] = i + 1
            self.step(stage, i, max(self.totals.get(stage, 0), i + 1), what)


class Costs:
    """The seconds each algorithm's verification took on the last run here (~/.cache/cryptobench/verify),
    so the slowest starts first. A guess when there is none: a wrong order costs time, never a check.
    Only how long things took is kept, never a result."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            with open(path) as f:
                got = json.load(f)
            self.seconds = {k: float(v) for k, v in got.items()} if isinstance(got, dict) else {}
        except (OSError, ValueError, TypeError):
            self.seconds = {}
        self.measured: dict[str, float] = {}

    def of(self, alg: str, guess: float) -> float:
        return self.seconds.get(alg, guess)

    @contextmanager
    def measure(self, alg: str):
        t = time.monotonic()
        try:
            yield
        finally:
            self.measured[alg] = time.monotonic() - t

    def save(self) -> None:
        merged = {**self.seconds, **self.measured}
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            tmp = f"{self.path}.{os.getpid()}"
            with open(tmp, "w") as f:
                json.dump(merged, f, indent=0, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError:
            pass  # an order for the next run, not worth failing this one
