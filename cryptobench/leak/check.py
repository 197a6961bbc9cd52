"""One leak check: a provider's operation timed call by call on two classes of input, in batches,
until Welch's t says the classes differ or the budget is spent (docs/leak.md § The check)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from cryptobench.core.algorithms import get as get_algorithm
from cryptobench.core.errors import DriverError
from cryptobench.leak import ttest
from cryptobench.leak.result import LeakResult
from cryptobench.plan.leak_classes import CLASSES, Inputs, LeakInputError, Source, applicable

FIRST_BATCH = 500  # measurements of the first request (an RSA key takes ms to prepare); each later one
# doubles, up to BATCH_SECONDS of wall time
BATCH_SECONDS = 0.5
MAX_BATCH = 50_000
DISCARD = 10  # first measurements of each batch, made right after the cells: cold caches for either class
HISTOGRAM_BINS = 40
PROGRESS_SECONDS = 10  # a check running longer says how far it is this often
TARGET_SECONDS = 600  # --target-effect's wall-clock cap when --seconds is not given
TARGET_MEASUREMENTS = 10_000_000  # ...and its cap on measurements when --measurements is not given
# a target is never judged reached on fewer: the spread is not settled yet (aes-128-gcm open on the
# 2-vCPU VM: 24 TSC ticks from 5,000 measurements, 32 from 50,000 on, as the tail fills in)
TARGET_LEAST = 10_000


@dataclass
class Budget:
    seconds: float = 5.0  # per check
    measurements: int = 1_000_000  # per check
    threshold: float = ttest.THRESHOLD
    target_effect: float | None = None  # % of the median: measure until a shift this size would show


def _limit(crops: ttest.Crops, n: int, median: float, threshold: float) -> float | None:
    """The smallest shift (% of the median) n measurements show, from the spread a shift of about
    that size meets (the crops see a large shift differently from a small one: probe twice)."""
    probe = 0.01 * median
    for _ in range(2):
        sigma = crops.spread(probe)
        if sigma is None:
            return None
        found = ttest.smallest_effect(sigma, n, threshold)
        if 0.5 <= found / probe <= 2:
            break
        probe = found
    return 100 * found / median


def leak_plan(cells, only: list[str]) -> list[tuple[str, object, str]]:
    """(provider, cell, class) for every class that applies to a cell's operation (or those in
    `only`), each once: a suite's sizes of one cell are one check per size."""
    seen, plan = set(), []
    for spec in cells:
        for c in applicable(spec.algorithm, spec.op):
            if only and c.name not in only:
                continue
            for pid in spec.providers:
                key = (pid, spec.alg, spec.op, spec.size, c.name)
                if key not in seen:
                    seen.add(key)
                    plan.append((pid, spec, c.name))
    return plan


def _order(inputs: Inputs, n: int, rng: np.random.Generator) -> tuple[np.ndarray, list[int]]:
    """A pre-shuffled sequence: each measurement's class at random, then one input of that class."""
    cls = rng.integers(0, 2, n)
    a, b = np.array(inputs.members[0]), np.array(inputs.members[1])
    order = np.where(cls == 0, a[rng.integers(0, len(a), n)], b[rng.integers(0, len(b), n)])
    return cls, order.tolist()


def _check_outcomes(inputs: Inputs, order: list[int], outcomes: list[str]) -> str | None:
    """An input whose outcome is not its class's (a forged tag accepted): the check is void."""
    for c in (0, 1):
        want = inputs.expect[c]
        if want is None:
            continue
        for i in set(order) & set(inputs.members[c]):
            if outcomes[i] != want:
                return f"an input of class '{c and 'B' or 'A'}' came back {outcomes[i]!r}, expected {want!r}"
    return None


def _histogram(a: np.ndarray, b: np.ndarray) -> dict:
    """Both classes over one set of bins, from the pooled 0.5th to 99th percentile (the tail is
    interrupts, and would squash the picture)."""
    pooled = np.concatenate([a, b])
    lo, hi = np.quantile(pooled, [0.005, 0.99])
    if hi <= lo:
        hi = lo + 1
    edges = np.linspace(lo, hi, HISTOGRAM_BINS + 1)
    return {"edges": [float(e) for e in edges], "a": np.histogram(a, edges)[0].tolist(),
            "b": np.histogram(b, edges)[0].tolist()}  # fmt: skip


def run_check(ask: Callable[[dict], dict], provider: str, alg: str, op: str, size: int, name: str,
              budget: Budget, seed: int, log: Callable[[str], None] = lambda _: None) -> LeakResult:  # fmt: skip
    leak_class = CLASSES[name]
    op = leak_class.leak_op(op)  # a MAC cell's verify and compare checks are of those operations
    res = LeakResult(provider, alg, op, size, name, "failed", leak_class.labels, threshold=budget.threshold,
                     target_effect=budget.target_effect)  # fmt: skip
    rng = random.Random(f"{seed}:{provider}:{alg}:{op}:{size}:{name}")
    order_rng = np.random.default_rng(rng.getrandbits(64))
    try:
        inputs = leak_class.build(Source(ask, alg), get_algorithm(alg), op, size, rng)
    except (LeakInputError, DriverError) as e:
        res.detail = f"inputs: {e}"
        if "not offered" in str(e):
            res.status = "not offered"
        return res
    t0 = time.monotonic()
    times: list[np.ndarray] = [[], []]
    limits = crops = None
    batch = FIRST_BATCH
    told = t0
    while res.measurements < budget.measurements and time.monotonic() - t0 < budget.seconds:
        if res.needed is not None and res.measurements >= res.needed:
            break  # --target-effect: enough for a shift of that size to have shown
        n = min(batch, budget.measurements - res.measurements + DISCARD)
        cls, order = _order(inputs, n, order_rng)
        started = time.monotonic()
        try:
            resp = ask({"cmd": "leak", "alg": alg, "op": op, "inputs": inputs.inputs, "order": order})
        except DriverError as e:
            res.detail = str(e)
            if res.detail.startswith("not offered"):
                res.status = "not offered"
                return res
            break
        if not resp.get("ok"):
            err = str(resp.get("error", ""))
            res.status = "not offered" if err.startswith("not offered") else "failed"
            res.detail = err
            return res
        got = resp.get("times")
        if not isinstance(got, list) or len(got) != n:
            res.detail = f"protocol: leak returned {len(got) if isinstance(got, list) else 'no'} times for {n}"
            return res
        wrong = _check_outcomes(inputs, order, resp.get("outcomes") or [])
        if wrong:
            res.detail = wrong
            return res
        res.counter = str(resp.get("counter", ""))
        t = np.asarray(got, dtype=float)[DISCARD:]
        c = cls[DISCARD:]
        times[0] = np.concatenate([times[0], t[c == 0]])
        times[1] = np.concatenate([times[1], t[c == 1]])
        res.measurements += len(t)
        if limits is None:
            limits = ttest.crop_limits(t)
        crops = ttest.Crops(times[0], times[1], limits)
        best = crops.strongest()
        if best is not None:
            res.max_t, res.test = best.t, best.name
            if abs(best.t) > budget.threshold:
                res.detected_after = res.measurements
                break
            if budget.target_effect is not None:  # re-estimated each batch: the tail fills in slowly
                d = budget.target_effect / 100 * float(np.median(np.concatenate(times)))
                sigma = crops.spread(d)
                res.needed = max(TARGET_LEAST, ttest.needed(sigma, d, budget.threshold)) if sigma else None
        if time.monotonic() - told >= PROGRESS_SECONDS:
            told = time.monotonic()
            of = f" of ~{res.needed:,} needed" if res.needed is not None else ""
            log(f"leak {provider} {alg} {op} {name}: {res.measurements:,}{of} measurements in {told - t0:.0f} s, "
                f"max |t| {abs(res.max_t or 0):.1f}")  # fmt: skip
        took = max(time.monotonic() - started, 1e-3)
        batch = int(min(MAX_BATCH, 2 * n, max(200, n * BATCH_SECONDS / took)))
    res.seconds = round(time.monotonic() - t0, 3)
    if res.measurements == 0:
        res.detail = res.detail or "no measurement made"
        return res
    res.status = "leak" if res.detected_after is not None else "no leak detected"
    if res.status != "leak" and res.detail:  # a driver fault after some batches: what was measured stands
        res.status = "failed"
    elif res.max_t is None:  # no test had enough measurements in both classes: nothing was tested
        res.status = "too few measurements"  # (was said "failed" before: the fault test saw this detail)
        res.detail = f"{res.measurements:,} in {budget.seconds:g} s; a test needs {ttest.MIN_PER_CLASS:,} per class"
    res.medians = (float(np.median(times[0])), float(np.median(times[1])))
    if res.status == "no leak detected":  # what these measurements could have shown: docs/leak.md § Detection limit
        median = float(np.median(np.concatenate(times)))
        res.detection_limit = _limit(crops, res.measurements, median, budget.threshold) if median > 0 else None
        if budget.target_effect is not None:
            res.target_reached = res.needed is not None and res.measurements >= res.needed
    res.histogram = _histogram(times[0], times[1])
    log(f"leak {provider} {alg} {op} {name}: {res.verdict()}")
    return res
