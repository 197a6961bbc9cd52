"""dudect's statistics (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?", 2017),
over two classes of per-call timings: Welch's t on every measurement, on 100 percentile-cropped
subsets (the long upper tail of interrupts and migrations hides small differences) and, second
order, on the squared distance from the class mean (a difference in spread, not in mean)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# |t| above this means a leak, as dudect's "probably not constant time" (t_threshold_moderate = 10):
# with 102 tests per check and heavy-tailed timings on a shared host, TVLA's 4.5 alarms on noise.
THRESHOLD = 10.0
PERCENTILES = 100
# a test counts once each class has this many measurements in it (a cropped subset can be small)
MIN_PER_CLASS = 1000


@dataclass(frozen=True)
class TTest:
    name: str  # "raw", "cropped below p<q>" (q: the quantile kept), "second order"
    t: float
    least: int  # measurements in the smaller class of the test


QUANTILES = 1 - 0.5 ** (10 * (np.arange(PERCENTILES) + 1) / PERCENTILES)


def crop_limits(times: np.ndarray) -> np.ndarray:
    """dudect's crops: keep values below the 1 - 0.5^(10(i+1)/100) quantile, i = 0..99 (from 50%
    towards 100%, dense near the top), computed once from the first batch."""
    return np.quantile(times, QUANTILES)


def welch_t(a: np.ndarray, b: np.ndarray) -> float:
    if len(a) < 2 or len(b) < 2:
        return 0.0
    den = np.sqrt(a.var(ddof=1) / len(a) + b.var(ddof=1) / len(b))
    if den == 0:  # every value equal in both classes: a difference of means is then exact
        return 0.0 if a.mean() == b.mean() else float("inf")
    return float((a.mean() - b.mean()) / den)


def tests(a: np.ndarray, b: np.ndarray, limits: np.ndarray) -> list[TTest]:
    """Every test of one check: raw, each crop, second order (on the raw data)."""
    out = [TTest("raw", welch_t(a, b), min(len(a), len(b)))]
    for q, lim in zip(QUANTILES, limits, strict=True):
        ca, cb = a[a < lim], b[b < lim]
        out.append(TTest(f"cropped below p{100 * q:.4g}", welch_t(ca, cb), min(len(ca), len(cb))))
    second = welch_t((a - a.mean()) ** 2, (b - b.mean()) ** 2)
    out.append(TTest("second order", second, min(len(a), len(b))))
    return out


def strongest(a: np.ndarray, b: np.ndarray, limits: np.ndarray, min_per_class: int = MIN_PER_CLASS) -> TTest | None:
    """The test with the largest |t| among those with enough measurements in both classes."""
    counted = [t for t in tests(a, b, limits) if t.least >= min_per_class]
    return max(counted, key=lambda t: abs(t.t), default=None)
