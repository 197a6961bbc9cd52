"""Paired ratios: two providers of a cell measured batch for batch, their ratio estimated from the pairs.

Within a run, the providers of a cell take turns (a *pair round*: every provider one request of a
few short batches, `Settings.pair_batches`, in an order that alternates ABBA-wise so neither always
goes first). The batches of one pair round were taken milliseconds apart, so whatever slowed the
machine then — a co-tenant's burst, a frequency step, drift over the run — slowed both sides, and
cancels in their ratio. A round's pair is each side's fastest batch of the round (on a shared host
most disturbances hit one batch, not both sides, and only ever slow it); runs stored with one batch
a round take three consecutive rounds together instead (`blocks`). The ratio of two providers is
the median of the pairs' ratios; its 95% interval comes from their order statistics
(distribution-free, as for a median), widened by how much grouping the pairs in driver processes
inflates its variance (`design_effect`: each pass measures in fresh processes, which differ in memory
layout, so the process pairs are a sample of their own), and by Student's t for the few processes that
sample it (`few_processes`).

Across runs and machines nothing was measured at the same moment: those comparisons keep the
independent interval (`stats.ratio`, from the two medians' intervals).

A sample's pair round is kept with the cell (`extra.pair_rounds`, one number per sample; -1 for
samples outside any pair: the calibration round), so the pairs are stored and can be re-made.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from cryptobench.analysis import stats

MIN_PAIRS = 6  # fewer pairs than this give no 95% interval of a median: the independent one is used
# batches a side that make one pair, each side by its fastest: one pair round of three batches, or
# (runs with one batch a round) three consecutive rounds of one process (`blocks`), else fewer where
# there are too few pairs for MIN_PAIRS blocks
BLOCK = 3


def order(providers: list[str], round_no: int) -> list[str]:
    """Who goes when in pair round `round_no`: rotated every two rounds and reversed every other one,
    so two providers run A B, B A, B A, A B, ... (ABBA: a linear drift hits both alike)."""
    n = len(providers)
    if n < 2:
        return list(providers)
    k = (round_no // 2) % n
    rotated = providers[k:] + providers[:k]
    return rotated[::-1] if round_no % 2 else rotated


@dataclass(frozen=True)
class Side:
    """One provider's samples of a cell as the pairing needs them: per operation, with each sample's
    pair round and driver process."""

    per_op: list[float]
    rounds: list[int]
    process: list[int]

    @classmethod
    def of(cls, samples: list[float], batch: int, pair_rounds, round_sizes, round_process) -> Side | None:
        """From the stored form (a cell record's or a track's lists); None when the samples were not paired."""
        if not isinstance(pair_rounds, list) or len(pair_rounds) != len(samples) or not batch:
            return None
        process: list[int] = []
        if isinstance(round_sizes, list) and isinstance(round_process, list) and len(round_sizes) == len(round_process):
            for k, proc in zip(round_sizes, round_process, strict=True):
                process += [proc] * k
        if len(process) != len(samples):
            process = [0] * len(samples)
        return cls([s / batch for s in samples], [int(r) for r in pair_rounds], process)


@dataclass(frozen=True)
class Pair:
    round: int
    process: int
    subject_ns: float  # per operation: the side's fastest batch of the round
    reference_ns: float
    batches: int = 1  # the fewer batches of the two sides in the round

    @property
    def ratio(self) -> float:
        return self.subject_ns / self.reference_ns


def _fastest_by_round(side: Side) -> dict[int, tuple[float, int, int]]:
    """Each pair round's fastest batch of one side: round -> (per operation, process, batches in the round)."""
    out: dict[int, tuple[float, int, int]] = {}
    for x, r, p in zip(side.per_op, side.rounds, side.process, strict=True):
        if r < 0:
            continue
        best, _, n = out.get(r, (x, p, 0))
        out[r] = (min(best, x), p, n + 1)
    return out


def pairs(subject: Side, reference: Side) -> list[Pair]:
    """One pair per pair round both sides took part in (each side by its fastest batch of the round), in
    round order."""
    ref = _fastest_by_round(reference)
    out = []
    for r, (x, p, n) in _fastest_by_round(subject).items():
        if r in ref and ref[r][0] > 0:
            out.append(Pair(r, p, x, ref[r][0], min(n, ref[r][2])))
    return sorted(out, key=lambda q: q.round)


@dataclass(frozen=True)
class PairedRatio(stats.Ratio):
    """time(subject) / time(reference) from pairs: a stats.Ratio that knows how many pairs made it, and
    how many pair rounds each block took together."""

    pairs: int = 0
    processes: int = 0
    block: int = 1  # pair rounds a block took together
    batches: int = 1  # batches a side behind each block's pair (its fastest)


def blocks(found: list[Pair], k: int) -> list[Pair]:
    """Consecutive pair rounds of one process in blocks of `k`, each made one pair of its two sides'
    fastest batches (an incomplete last block is left out). A disturbance only ever slows a batch, and
    on a shared host (a scheduler slice, the SMT sibling, an interrupt) it hits one batch of a pair and
    not the other, so it does not cancel in that pair's ratio; the fastest of a few batches taken
    milliseconds apart is the least disturbed of them, on both sides alike."""
    if k <= 1:
        return list(found)
    by: dict[int, list[Pair]] = {}
    for q in found:
        by.setdefault(q.process, []).append(q)
    out = []
    for proc, qs in by.items():
        qs.sort(key=lambda q: q.round)
        for start in range(0, len(qs) - k + 1, k):
            b = qs[start : start + k]
            out.append(Pair(b[0].round, proc, min(q.subject_ns for q in b), min(q.reference_ns for q in b),
                            sum(q.batches for q in b)))  # fmt: skip
    return out


def ratio(subject: Side | None, reference: Side | None, block: int | None = None) -> PairedRatio | None:
    """The paired ratio with its 95% interval, or None when there are too few pairs for one.

    The pairs are taken in blocks of `block` consecutive pair rounds (`blocks`; default: as many rounds
    as make BLOCK batches a side — one where a round has three — where there are pairs enough, else
    fewer); the median of the blocks' ratios, its interval from their order statistics, widened by the
    design effect of their driver processes (`widened`). Fresh processes differ in memory layout; a few
    ratios apart is their real variation, and a run samples it with one process pair per pass and one
    per precision pass."""
    if subject is None or reference is None:
        return None
    found = pairs(subject, reference)
    if len(found) < MIN_PAIRS:
        return None
    per_round = min(q.batches for q in found)
    for k in [block] if block else range(-(-BLOCK // per_round), 0, -1):
        taken = blocks(found, k)
        if len(taken) >= MIN_PAIRS:
            break
    else:
        return None
    s = stats.summarize([q.ratio for q in taken])
    if s.ci_low <= 0:
        return None
    low, high = widened(taken, s.median, s.ci_low, s.ci_high)
    return PairedRatio(s.median, low, high, pairs=len(found), processes=len({q.process for q in found}), block=k,
                       batches=min(q.batches for q in taken))  # fmt: skip


def widened(found: list[Pair], value: float, low: float, high: float) -> tuple[float, float]:
    """A 95% interval (low, high) of `value` made from `found` as if its pairs were independent, widened
    (log scale) by the square root of their design effect: pairs of one driver process share what that
    process differs in (memory layout), so N pairs held by a few processes tell less than N independent
    ones; pairs spread over many processes (each pass's and precision pass's fresh ones) sample that
    difference. And by `few_processes`: that difference is judged from only as many processes as hold
    the pairs."""
    f = math.sqrt(design_effect(found)) * few_processes(len({q.process for q in found}))
    return value * math.exp(-math.log(value / low) * f), value * math.exp(math.log(high / value) * f)


@lru_cache(maxsize=256)
def few_processes(k: int) -> float:
    """Student's t quantile with k - 1 degrees of freedom over the normal one (both 97.5%), for pairs
    held by `k` processes: how far the variation between processes can be from what k of them showed,
    as for cluster-robust standard errors (one degree of freedom fewer than clusters). 2.57 / 1.96 for
    a run's six passes; 1 for a single process, where there is nothing between processes to judge.
    Measured (bench/paired, the default suite under bench/cotenant): without it, one run's ratio lay
    inside the other run's interval for 74-77% of cells, about 83% being what exact 95% intervals give."""
    if k < 2:
        return 1.0
    from scipy.special import stdtrit  # 0.14 s to import: only once a ratio has pairs of two processes

    return float(stdtrit(k - 1, 0.975)) / stats.Z95


def design_effect(found: list[Pair]) -> float:
    """How much grouping the pairs in driver processes inflates the variance of their pooled median over
    independent pairs: 1 + (m - 1) rho, where m is the size-weighted number of pairs a process holds
    (sum n_i^2 / N) and rho the share of the log ratios' variance that lies between processes (one-way
    ANOVA). The logs are winsorised at 3 robust standard deviations first, so one disturbed pair alone
    in a precision pass's process does not pass for that process's effect."""
    logs = [math.log(q.ratio) for q in found]
    mid = stats.median(logs)
    mad = 1.4826 * stats.median([abs(x - mid) for x in logs])
    if mad > 0:
        logs = [min(max(x, mid - 3 * mad), mid + 3 * mad) for x in logs]
    by: dict[int, list[float]] = {}
    for q, x in zip(found, logs, strict=True):
        by.setdefault(q.process, []).append(x)
    k, n = len(by), len(logs)
    if k < 2 or n <= k:
        return 1.0
    grand = math.fsum(logs) / n
    means = {p: math.fsum(v) / len(v) for p, v in by.items()}
    between = math.fsum(len(v) * (means[p] - grand) ** 2 for p, v in by.items()) / (k - 1)
    within = math.fsum((x - means[p]) ** 2 for p, v in by.items() for x in v) / (n - k)
    sizes = math.fsum(len(v) ** 2 for v in by.values()) / n  # m: the pairs a process holds, size-weighted
    n0 = (n - sizes) / (k - 1)
    tau2 = max(0.0, (between - within) / n0)
    rho = tau2 / (tau2 + within) if tau2 + within > 0 else 0.0
    return 1 + (sizes - 1) * rho


def halfwidth(r: PairedRatio | None) -> float:
    """The larger side of the interval relative to the ratio (inf without one): what the stopping rule reads."""
    if r is None or r.value <= 0:
        return float("inf")
    return max(r.value - r.low, r.high - r.value) / r.value
