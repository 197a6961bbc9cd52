"""dudect's statistics (Reparaz, Balasch, Verbauwhede, "Dude, is my code constant time?", 2017),
over two classes of per-call timings: Welch's t on every measurement, on 100 percentile-cropped
subsets (the long upper tail of interrupts and migrations hides small differences) and, second
order, on the squared distance from the class mean (a difference in spread, not in mean). And
what a check of N measurements could have found: the smallest shift that would pass the
threshold, and the measurements a shift of a given size needs (docs/leak.md § Detection limit)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from cryptobench.leak.result import THRESHOLD  # |t| that means a leak (defined beside the result)

PERCENTILES = 100
# a test counts once each class has this many measurements in it (a cropped subset can be small)
MIN_PER_CLASS = 1000


@dataclass(frozen=True)
class TTest:
    name: str  # "raw", "cropped below p<q>" (q: the quantile kept), "second order"
    t: float
    least: int  # measurements in the smaller class of the test


QUANTILES = 1 - 0.5 ** (10 * (np.arange(PERCENTILES) + 1) / PERCENTILES)
CROP_NAMES = [f"cropped below p{100 * q:.4g}" for q in QUANTILES]


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


class _Sorted:
    """One class sorted, with running sums about a common centre: the count, mean and variance of
    the values below any limit in O(log n). (Masking the data once per crop took a second per
    batch at a million measurements; a --target-effect check runs to millions.)"""

    def __init__(self, x: np.ndarray, centre: float):
        self.x, self.centre = np.sort(x), centre
        d = self.x - centre  # timings are integers: near the centre these sums are exact
        self.s1 = np.concatenate([[0.0], np.cumsum(d)])
        self.s2 = np.concatenate([[0.0], np.cumsum(d * d)])

    def sums(self, limits: np.ndarray, shift: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Count, sum and sum of squares (about the centre) of x + shift over the x + shift < each limit."""
        n = np.searchsorted(self.x, limits - shift, side="left")
        s1, s2 = self.s1[n], self.s2[n]
        return n.astype(float), s1 + shift * n, s2 + 2 * shift * s1 + shift * shift * n

    def below(self, limits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(count, mean, variance with ddof 1) of the values < each limit."""
        return _moments(*self.sums(limits), self.centre)


def _moments(n: np.ndarray, s1: np.ndarray, s2: np.ndarray, centre: float):
    """(count, mean, variance with ddof 1) from count, sum and sum of squares about the centre."""
    dev = s1 / np.maximum(n, 1)
    ss = s2 - s1 * dev
    ss[ss <= 1e-9 * s2] = 0.0  # rounding of a constant subset: its variance is 0, not noise
    return n, dev + centre, ss / np.maximum(n - 1, 1)


def timer_step(x: np.ndarray) -> float:
    """The timer's resolution as the data shows it: the commonest gap between neighbouring distinct
    values (26 TSC ticks on the measured VM), 0 when no gap is common (not a stepped timer)."""
    gaps = np.diff(np.unique(x[:100_000]))
    if len(gaps) < 2:
        return float(gaps[0]) if len(gaps) else 0.0
    values, counts = np.unique(gaps, return_counts=True)
    return float(values[counts.argmax()]) if counts.max() >= 0.25 * len(gaps) else 0.0


def _welch(na, ma, va, nb, mb, vb) -> np.ndarray:
    """welch_t over arrays of moments (0 where a class has under 2 values, as welch_t)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        den = np.sqrt(va / np.maximum(na, 1) + vb / np.maximum(nb, 1))
        t = np.where(den > 0, (ma - mb) / den, np.where(ma == mb, 0.0, np.inf))
    return np.where((na < 2) | (nb < 2), 0.0, t)


class Crops:
    """Both classes of one check, sorted once: every test, and what a shift would do to them."""

    def __init__(self, a: np.ndarray, b: np.ndarray, limits: np.ndarray):
        self.a, self.b, self.limits = a, b, limits
        centre = float(limits[0]) if len(limits) else 0.0  # the first batch's median
        self.sa, self.sb = _Sorted(a, centre), _Sorted(b, centre)
        self.ca, self.cb = self.sa.below(limits), self.sb.below(limits)

    def tests(self) -> list[TTest]:
        """Every test of one check: raw, each crop, second order (on the raw data)."""
        a, b = self.a, self.b
        out = [TTest("raw", welch_t(a, b), min(len(a), len(b)))]
        ts = _welch(*self.ca, *self.cb)
        least = np.minimum(self.ca[0], self.cb[0])
        out += [TTest(name, float(t), int(k)) for name, t, k in zip(CROP_NAMES, ts, least, strict=True)]
        second = welch_t((a - a.mean()) ** 2, (b - b.mean()) ** 2)
        out.append(TTest("second order", second, min(len(a), len(b))))
        return out

    def strongest(self, min_per_class: int = MIN_PER_CLASS) -> TTest | None:
        """The test with the largest |t| among those with enough measurements in both classes."""
        counted = [t for t in self.tests() if t.least >= min_per_class]
        return max(counted, key=lambda t: abs(t.t), default=None)

    def response(self, d: float) -> float:
        """How much |t| a steady shift of d in class B would add, on the raw or cropped test it shows
        most on (the same fixed crop limits; second order sees no shift): the smaller of B slower
        and B faster, so the estimate holds whichever way a leak goes. A stepped timer (TSC in
        steps of q) sees a shift of d < q as a fraction d/q of the calls one step slower, which a
        crop may cut off: B is moved so, not smoothly (smoothly, 0.05 ticks looked visible)."""
        q = timer_step(self.b)
        limits = np.append(self.limits, np.inf)  # the last: no crop, the raw test
        centre = self.sb.centre
        na, ma, va = self.sa.below(limits)
        nb0, mb0, vb0 = self.sb.below(limits)
        base = _welch(na, ma, va, nb0, mb0, vb0)
        worst = math.inf
        for shift in (d, -d):
            low = q * math.floor(shift / q) if q else shift
            p = (shift - low) / q if q else 0.0  # the share of calls moved one step further
            lo, hi = self.sb.sums(limits, low), self.sb.sums(limits, low + q)
            nb, mb, vb = _moments(*((1 - p) * x + p * y for x, y in zip(lo, hi, strict=True)), centre)
            moved = _welch(na, ma, va, nb, mb, vb)
            counted = np.minimum(na, np.minimum(nb0, nb)) >= MIN_PER_CLASS
            worst = min(worst, float(np.max(np.abs(moved - base)[counted], initial=0.0)))
        return worst

    def spread(self, d: float) -> float | None:
        """σ of the scaling |t| ≈ (d/σ)·√(N/4) as this check's best test sees a shift of d: the
        spread of one measurement, cropped as that test crops (and counting what the crop keeps
        and how much of the shift survives the crop). None when no finite figure can be had."""
        r = self.response(d)
        n = len(self.a) + len(self.b)
        if not (math.isfinite(r) and r > 0 and n > 0):
            return None
        return d * math.sqrt(n / 4) / r


def needed(sigma: float, d: float, threshold: float = THRESHOLD) -> int:
    """Measurements (both classes) for a shift d to reach |t| = threshold: N = 4·(T·σ/d)²."""
    return max(2 * MIN_PER_CLASS, math.ceil(4 * (threshold * sigma / d) ** 2))


def smallest_effect(sigma: float, n: int, threshold: float = THRESHOLD) -> float:
    """The smallest shift N measurements show at |t| = threshold: d = 2·T·σ/√N."""
    return 2 * threshold * sigma / math.sqrt(n)


def tests(a: np.ndarray, b: np.ndarray, limits: np.ndarray) -> list[TTest]:
    """Every test of one check: raw, each crop, second order (on the raw data)."""
    return Crops(a, b, limits).tests()


def strongest(a: np.ndarray, b: np.ndarray, limits: np.ndarray, min_per_class: int = MIN_PER_CLASS) -> TTest | None:
    """The test with the largest |t| among those with enough measurements in both classes."""
    return Crops(a, b, limits).strongest(min_per_class)
