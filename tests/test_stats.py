"""Statistics against answers known in closed form or from published tables."""

import math
import random

import pytest

from cryptobench.analysis import stats


@pytest.mark.parametrize(
    "n,lo,hi",
    # 1-based ranks of the 95% distribution-free median interval, as tabulated
    # (e.g. Conover, Practical Nonparametric Statistics, table A3 / Hollander & Wolfe)
    [(6, 1, 6), (10, 2, 9), (20, 6, 15), (50, 18, 33), (100, 40, 61)],
)
def test_median_ci_ranks_match_tables(n, lo, hi):
    assert stats.median_ci_ranks(n) == (lo - 1, hi - 1)


def test_too_few_samples_have_no_95_interval():
    assert stats.median_ci_ranks(5) is None
    s = stats.summarize([5.0, 1.0, 3.0, 2.0, 4.0])
    assert (s.ci_low, s.ci_high) == (1.0, 5.0)  # falls back to the full range


def test_summary_of_known_sample():
    s = stats.summarize([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    assert s.median == 3.5
    assert s.mean == 3.5
    assert s.stddev == pytest.approx(math.sqrt(3.5))
    assert (s.min, s.max) == (1.0, 6.0)
    assert s.cv == pytest.approx(math.sqrt(3.5) / 3.5)


def test_median_interval_covers_true_median_95_percent_of_the_time():
    # Exponential(1): skewed like timings; the true median is ln 2.
    rng = random.Random(42)
    trials, hits = 2000, 0
    for _ in range(trials):
        s = stats.summarize([rng.expovariate(1.0) for _ in range(40)])
        hits += s.ci_low <= math.log(2) <= s.ci_high
    coverage = hits / trials
    assert 0.935 <= coverage <= 0.985, coverage


def test_ratio_interval_covers_true_ratio():
    # Two lognormal timing distributions whose medians differ by exactly 1.25x.
    rng = random.Random(7)
    trials, hits = 1000, 0
    for _ in range(trials):
        a = stats.summarize([1.25 * math.exp(rng.gauss(0, 0.05)) for _ in range(40)])
        b = stats.summarize([math.exp(rng.gauss(0, 0.05)) for _ in range(40)])
        r = stats.ratio(a, b)
        hits += r.low <= 1.25 <= r.high
    assert 0.92 <= hits / trials <= 0.995, hits / trials


def test_ratio_agrees_with_bootstrap():
    rng = random.Random(3)
    xa = [2.0 * math.exp(rng.gauss(0, 0.03)) for _ in range(60)]
    xb = [math.exp(rng.gauss(0, 0.03)) for _ in range(60)]
    r = stats.ratio(stats.summarize(xa), stats.summarize(xb))
    boots = sorted(
        stats.quantile(sorted(rng.choices(xa, k=60)), 0.5) / stats.quantile(sorted(rng.choices(xb, k=60)), 0.5)
        for _ in range(2000)
    )
    lo, hi = boots[50], boots[1949]
    assert r.value == pytest.approx(2.0, rel=0.02)
    # Same width within a factor of two: both estimate the same uncertainty.
    assert 0.5 < (r.high - r.low) / (hi - lo) < 2.0


def test_verdicts():
    assert stats.verdict(stats.Ratio(0.5, 0.48, 0.52)) == stats.FASTER
    assert stats.verdict(stats.Ratio(1.5, 1.45, 1.55)) == stats.SLOWER
    assert stats.verdict(stats.Ratio(1.0, 0.98, 1.02)) == stats.SAME
    # wider than the noise on both sides: neither same nor different can be said
    assert stats.verdict(stats.Ratio(1.0, 0.97, 1.03)) == stats.UNCLEAR
    # significantly different, but by less than the noise threshold: same
    assert stats.verdict(stats.Ratio(1.01, 1.005, 1.015)) == stats.SAME
    # straddles the threshold: unclear (the words must not say "same" of an interval reaching +5%)
    assert stats.verdict(stats.Ratio(1.03, 1.01, 1.05)) == stats.UNCLEAR
    assert stats.verdict(stats.Ratio(1.03, 1.01, 1.05), threshold=0.005) == stats.SLOWER


def test_speedup_is_inverse_of_time_ratio():
    r = stats.Ratio(0.5, 0.4, 0.625)
    assert r.speedup == (2.0, 1.6, 2.5)
    assert r.percent == -50.0


def test_rounds_that_disagree_widen_the_interval():
    # two rounds of tight samples, one of them in a slow spell: the pooled iid interval is narrow,
    # the honest one covers both rounds' medians
    fast = [100.0 + 0.1 * i for i in range(20)]
    slow = [130.0 + 0.1 * i for i in range(20)]
    iid = stats.summarize(fast + slow)
    rounds = stats.summarize(fast + slow, [20, 20])
    assert rounds.median == iid.median
    assert rounds.ci_low <= 101.0 and rounds.ci_high >= 130.9
    assert iid.ci_high - iid.ci_low < rounds.ci_high - rounds.ci_low
    # rounds that agree change nothing
    same = stats.summarize(fast + fast, [20, 20])
    assert (same.ci_low, same.ci_high) == (stats.summarize(fast + fast).ci_low, stats.summarize(fast + fast).ci_high)
