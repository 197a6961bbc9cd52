"""Statistics of one cell's samples and of the ratio between two cells.

Samples are per-operation times (ns). The median is the figure we quote; its
95% confidence interval is distribution-free (binomial order statistics), so
skewed timing distributions with a long right tail are handled honestly. The
ratio of two medians gets an interval from the two intervals in log space.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Summary:
    n: int
    median: float
    mean: float
    stddev: float
    min: float
    max: float
    ci_low: float
    ci_high: float
    p10: float
    p90: float

    @property
    def cv(self) -> float:
        return self.stddev / self.mean if self.mean > 0 else float("nan")

    @property
    def ci_rel_halfwidth(self) -> float:
        """The larger side of the median's interval, relative to the median."""
        if self.median <= 0:
            return float("inf")
        return max(self.median - self.ci_low, self.ci_high - self.median) / self.median


def _binom_cdf(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    if n > 1000:  # normal approximation with continuity correction
        return 0.5 * (1 + math.erf((k + 0.5 - n / 2) / math.sqrt(n / 4) / math.sqrt(2)))
    total = 0.0
    log_half_n = n * math.log(0.5)
    for i in range(k + 1):
        total += math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + log_half_n)
    return min(total, 1.0)


@lru_cache(maxsize=4096)  # pure, and asked again after every paired round: O(n^2) each time otherwise
def median_ci_ranks(n: int, confidence: float = 0.95) -> tuple[int, int] | None:
    """0-based ranks (lo, hi) of the sorted sample bounding the median with `confidence`.

    The interval [x_(j), x_(k)] covers the median with probability
    P(j <= X < k) for X ~ Bin(n, 1/2) (1-based j, k). We take the
    narrowest symmetric pair that reaches the confidence; None when n is too
    small for any pair to reach it.
    """
    if n < 1:
        return None
    alpha = 1 - confidence
    best = None
    for j in range(1, n // 2 + 1):  # 1-based lower rank
        k = n + 1 - j
        coverage = _binom_cdf(k - 1, n) - _binom_cdf(j - 1, n)
        if coverage >= confidence - 1e-12:
            best = (j - 1, k - 1)
        else:
            break
    if best is None and alpha > 0:
        return None
    return best


def quantile(sorted_xs: list[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not sorted_xs:
        return float("nan")
    pos = (len(sorted_xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def median(xs: list[float]) -> float:
    """The median (the mean of the middle two for an even count); the only median in the code base."""
    return quantile(sorted(xs), 0.5)


def summarize(xs: list[float], round_sizes: list[int] | None = None, round_process: list[int] | None = None) -> Summary:
    """Median, spread and the median's 95% interval.

    Samples taken in one round (one request, back to back) are not independent of each other: a slow
    spell of the machine lasts longer than a round. With `round_sizes` the interval is widened to cover
    the spread of the rounds' medians too, so it reflects the variation over the run, not only within
    a few milliseconds.

    Nor are rounds of one process independent: each driver process has its own memory layout, and
    the same code is a little faster in one process than in the next, so two runs differ by more
    than either run's rounds do. The runner measures each pass in a fresh process; with
    `round_process` (the process of each round) the interval is widened, in quadrature, by the
    standard error of the processes' medians, so it covers the variation between runs too.
    """
    if not xs:
        raise ValueError("no samples")
    s = sorted(xs)
    n = len(s)
    mean = math.fsum(s) / n
    var = math.fsum((x - mean) ** 2 for x in s) / (n - 1) if n > 1 else 0.0
    med = quantile(s, 0.5)
    ranks = median_ci_ranks(n)
    lo, hi = (s[ranks[0]], s[ranks[1]]) if ranks else (s[0], s[-1])
    if round_sizes and len(round_sizes) >= 2 and sum(round_sizes) == n:
        r_lo, r_hi = _between_rounds(xs, round_sizes)
        lo, hi = min(lo, r_lo), max(hi, r_hi)
        if round_process and len(round_process) == len(round_sizes) and len(set(round_process)) >= 2 and med > 0:
            se = _between_processes(xs, round_sizes, round_process)
            lo = med * math.exp(-math.hypot(math.log(med / lo) if lo > 0 else math.inf, Z95 * se))
            hi = med * math.exp(math.hypot(math.log(hi / med), Z95 * se))
    return Summary(n, med, mean, math.sqrt(var), s[0], s[-1], lo, hi, quantile(s, 0.1), quantile(s, 0.9))


def round_medians(xs: list[float], round_sizes: list[int]) -> list[float]:
    """The median of each round (rounds are consecutive runs of `round_sizes` samples)."""
    medians, start = [], 0
    for k in round_sizes:
        medians.append(quantile(sorted(xs[start : start + k]), 0.5))
        start += k
    return medians


def _between_processes(xs: list[float], round_sizes: list[int], round_process: list[int]) -> float:
    """Standard error of log(median) from the spread of the processes' medians."""
    by_process: dict[int, list[float]] = {}
    start = 0
    for k, proc in zip(round_sizes, round_process, strict=True):
        by_process.setdefault(proc, []).extend(xs[start : start + k])
        start += k
    medians = [median(v) for v in by_process.values() if v]
    logs = [math.log(m) for m in medians if m > 0]
    if len(logs) < 2:
        return 0.0
    mean = math.fsum(logs) / len(logs)
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in logs) / (len(logs) - 1))
    return sd / math.sqrt(len(logs))


def _between_rounds(xs: list[float], round_sizes: list[int]) -> tuple[float, float]:
    """A 95% interval for the median from the rounds' medians (their order statistics; with fewer
    than six rounds no pair reaches 95%, and their whole range is used)."""
    medians = sorted(round_medians(xs, round_sizes))
    ranks = median_ci_ranks(len(medians))
    return (medians[ranks[0]], medians[ranks[1]]) if ranks else (medians[0], medians[-1])


@dataclass(frozen=True)
class Ratio:
    """time(subject) / time(reference) with its 95% interval; < 1 means the subject is faster."""

    value: float
    low: float
    high: float

    @property
    def speedup(self) -> tuple[float, float, float]:
        """reference time / subject time: > 1 means the subject is faster."""
        return 1 / self.value, 1 / self.high, 1 / self.low

    @property
    def percent(self) -> float:
        """Change in time, in percent (positive = slower)."""
        return (self.value - 1) * 100


def _log_se(s: Summary) -> float:
    """Standard error of log(median), from the width of its interval."""
    if s.ci_low <= 0 or s.ci_high <= 0:
        return float("inf")
    return (math.log(s.ci_high) - math.log(s.ci_low)) / (2 * Z95)


def ratio(subject: Summary, reference: Summary, floor: float = 0.0) -> Ratio:
    """subject / reference with an independent interval; `floor`: the least standard error of either
    log(median), e.g. the cell's run-to-run spread on that machine (between_runs.py)."""
    r = subject.median / reference.median
    se = math.hypot(max(_log_se(subject), floor), max(_log_se(reference), floor))
    if math.isinf(se):
        return Ratio(r, 0.0, float("inf"))
    return Ratio(r, r * math.exp(-Z95 * se), r * math.exp(Z95 * se))


FASTER, SLOWER, SAME, UNCLEAR = "faster", "slower", "same (within noise)", "unclear"
CHANGED = (FASTER, SLOWER)  # the verdicts that say a difference beyond the noise was found


def verdict(r: Ratio, threshold: float = 0.02) -> str:
    """What the whole 95% interval says against the noise threshold, so words and interval agree:
    `faster`/`slower` when all of it lies beyond the threshold, `same (within noise)` when all of it
    lies inside it, `unclear` when it crosses the threshold (a 1.05x [1.02-1.08] speed with a 2%
    threshold: faster perhaps, by more than the noise perhaps not)."""
    if r.high < 1 - threshold:
        return FASTER
    if r.low > 1 + threshold:
        return SLOWER
    if 1 - threshold <= r.low and r.high <= 1 + threshold:
        return SAME
    return UNCLEAR
