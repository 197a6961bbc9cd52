"""What the size and chunk sweeps say about an access path: its overhead model and pathologies.

Overhead model: one call through an API costs a fixed `a` ns plus `b` ns per
byte. A chunk sweep over a fixed total N gives time = a * calls + b * N (+ the
per-message set-up), a size sweep of one-shot calls gives time = a + b * n;
both are straight lines fitted by least squares, with 95% intervals. For a
binding over a library measured natively too (python:hashlib over the system
OpenSSL, c:botan-ffi over Botan's C++ API), the difference of the two `a` is
what the binding adds per call.

Pathologies, the signature of a binding that re-chunks the input into tiny
pieces: a streaming path that stays below half of its own one-shot throughput
even at its best piece of 4 KiB or more (a mere per-call cost fades as pieces
grow; re-chunking does not); without a one-shot cell, one whose throughput
stops growing with the piece size while its peers' keeps growing; and a binding
that pays per *byte* at least twice what the library it wraps pays (a binding
should add a cost per call, never per byte).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from cryptobench.analysis import stats

# binding -> the native provider over the same library (and what to say about it)
WRAPS = {
    "python:hashlib": ("c:openssl", "the same system libcrypto"),
    "js:node": ("c:openssl", "the same system libcrypto"),
    "c:botan-ffi": ("cpp:botan", "the same Botan library"),
    "python:cryptography": ("c:openssl", "its bundled OpenSSL, a different version than the system one"),
}
# bindings whose per-byte cost must match the native provider's: the same library, the same code
SAME_CODE = {"python:hashlib", "js:node", "c:botan-ffi"}
PER_BYTE_LIMIT = 2.0
BIG_CHUNK = 4096
HALF = 0.5


@dataclass
class Fit:
    provider: str
    alg: str
    op: str
    source: str  # "chunk sweep over N bytes" | "size sweep"
    a_ns: float  # fixed cost per call
    a_ci: tuple[float, float]
    b_ns: float  # cost per byte
    b_ci: tuple[float, float]
    points: int
    misfit: float = 0.0  # largest |measured - fitted| / measured over the points: how well a line explains them

    @property
    def mb_per_s(self) -> float:
        return 1e3 / self.b_ns if self.b_ns > 0 else float("inf")


def _t95(dof: int) -> float:
    table = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23}
    return table.get(dof, 2.0 if dof < 30 else 1.96)


def linear_fit(xs: list[float], ys: list[float], ws: list[float] | None = None) -> tuple[float, float, float, float]:
    """(Weighted) least squares y = slope * x + intercept; returns slope, intercept and their standard errors.

    Timings have a roughly constant relative spread, so sweeps are fitted with weights 1/y^2: otherwise
    the slow small-chunk points (millions of calls) would swamp the fast ones that pin the per-byte cost.
    """
    n = len(xs)
    ws = ws or [1.0] * n
    sw = sum(ws)
    mx = sum(w * x for w, x in zip(ws, xs, strict=True)) / sw
    my = sum(w * y for w, y in zip(ws, ys, strict=True)) / sw
    sxx = sum(w * (x - mx) ** 2 for w, x in zip(ws, xs, strict=True))
    slope = sum(w * (x - mx) * (y - my) for w, x, y in zip(ws, xs, ys, strict=True)) / sxx
    intercept = my - slope * mx
    if n <= 2:
        return slope, intercept, float("nan"), float("nan")
    resid = sum(w * (y - (slope * x + intercept)) ** 2 for w, x, y in zip(ws, xs, ys, strict=True)) / (n - 2)
    se_slope = math.sqrt(resid / sxx)
    se_intercept = math.sqrt(resid * (1 / sw + mx * mx / sxx))
    return slope, intercept, se_slope, se_intercept


def _ci(value: float, se: float, dof: int) -> tuple[float, float]:
    if math.isnan(se):
        return (float("nan"), float("nan"))
    h = _t95(dof) * se
    return (value - h, value + h)


def overhead_models(rows) -> list[Fit]:
    """One fit per provider/alg/op from its chunk sweep (preferred) or its one-shot size sweep."""
    sweeps: dict[tuple, list] = defaultdict(list)
    sizes: dict[tuple, list] = defaultdict(list)
    for r in rows:
        if not r.ok or r.public_key or r.cell.alg == "noop":
            continue
        key = (r.provider, r.cell.alg, r.cell.op)
        if r.cell.chunk:
            sweeps[key + (r.cell.size,)].append(r)
        else:
            sizes[key].append(r)
    fits = []
    done = set()
    for (pid, alg, op, total), rs in sweeps.items():
        calls = [math.ceil(total / r.cell.chunk) for r in rs]
        if len(set(calls)) < 3:
            continue
        ys = [r.summary.median for r in rs]
        slope, icpt, se_s, se_i = linear_fit([float(c) for c in calls], ys, [1 / (y * y) for y in ys])
        dof = len(rs) - 2
        misfit = max(abs(y - (slope * c + icpt)) / y for c, y in zip(calls, ys, strict=True))
        fits.append(Fit(pid, alg, op, f"chunk sweep over {total} bytes", slope, _ci(slope, se_s, dof),
                        icpt / total, tuple(x / total for x in _ci(icpt, se_i, dof)), len(rs), misfit))  # fmt: skip
        done.add((pid, alg, op))
    for (pid, alg, op), rs in sizes.items():
        if (pid, alg, op) in done or len({r.cell.size for r in rs}) < 3:
            continue
        ys = [r.summary.median for r in rs]
        xs = [float(r.cell.size) for r in rs]
        slope, icpt, se_s, se_i = linear_fit(xs, ys, [1 / (y * y) for y in ys])
        dof = len(rs) - 2
        misfit = max(abs(y - (slope * x + icpt)) / y for x, y in zip(xs, ys, strict=True))
        fits.append(Fit(pid, alg, op, "size sweep", icpt, _ci(icpt, se_i, dof), slope, _ci(slope, se_s, dof),
                        len(rs), misfit))  # fmt: skip
    return fits


def _bindings(fits: list[Fit], only: set[str] | None = None):
    """(binding fit, native fit, native id, what it wraps) for each binding measured beside the
    library it wraps, the same algorithm and the same kind of sweep."""
    by = {(f.provider, f.alg, f.op, f.source): f for f in fits}
    for f in fits:
        if f.provider not in WRAPS or (only is not None and f.provider not in only):
            continue
        native, what = WRAPS[f.provider]
        g = by.get((native, f.alg, f.op, f.source))
        if g is not None:
            yield f, g, native, what


def binding_costs(fits: list[Fit]) -> list[dict]:
    """Per call, what a binding adds over the library it wraps (same algorithm, same kind of sweep)."""
    out = []
    for f, g, native, what in _bindings(fits):
        se = math.hypot(*(((ci[1] - ci[0]) / (2 * 1.96)) for ci in (f.a_ci, g.a_ci)))
        extra = f.a_ns - g.a_ns
        out.append({"binding": f.provider, "native": native, "over": what, "alg": f.alg, "op": f.op,
                    "extra_ns_per_call": extra, "ci95": (extra - 1.96 * se, extra + 1.96 * se)})  # fmt: skip
    return out


def pathologies(rows) -> list[dict]:
    """Flag streaming paths far below their own one-shot speed, or that stop scaling with the piece size."""
    groups: dict[tuple, dict[int, object]] = defaultdict(dict)  # (alg, op, size) -> provider -> {chunk: row}
    for r in rows:
        if r.ok and not r.public_key and r.cell.alg != "noop":
            groups[(r.cell.alg, r.cell.op, r.cell.size)].setdefault(r.provider, {})[r.cell.chunk] = r
    flags = []
    for (alg, op, _size), per_provider in groups.items():
        growth = {}
        for pid, by_chunk in per_provider.items():
            streamed = sorted(c for c in by_chunk if c)
            if not streamed:
                continue
            big = [c for c in streamed if c >= BIG_CHUNK]
            if 0 in by_chunk and big:
                one_shot = by_chunk[0].mb_per_s()
                best = max(big, key=lambda c: by_chunk[c].mb_per_s())
                if by_chunk[best].mb_per_s() < HALF * one_shot:
                    flags.append({"provider": pid, "alg": alg, "op": op,
                                  "why": f"streaming stays at {by_chunk[best].mb_per_s() / one_shot:.0%} of its own "
                                         f"one-shot throughput even in {best}-byte pieces, its best of 4 KiB or more "
                                         f"({by_chunk[best].mb_per_s():,.0f} vs {one_shot:,.0f} MB/s)"})  # fmt: skip
            small = [c for c in streamed if 64 <= c <= 1024]
            # flat growth says nothing when a one-shot cell shows the path is simply slow per byte
            if 0 not in by_chunk and small and streamed[-1] >= 16 * small[0]:
                growth[pid] = (
                    by_chunk[streamed[-1]].mb_per_s() / by_chunk[small[0]].mb_per_s(),
                    small[0],
                    streamed[-1],
                )
        if len(growth) >= 3:
            for pid, (g, lo, hi) in growth.items():
                peer_median = stats.median([v[0] for p, v in growth.items() if p != pid])
                if peer_median >= 3 and g < 1.5 and not any(f["provider"] == pid and f["alg"] == alg and f["op"] == op
                                                            for f in flags):  # fmt: skip
                    flags.append({"provider": pid, "alg": alg, "op": op,
                                  "why": f"throughput stops growing with the piece size (x{g:.1f} from {lo} B to {hi} B "
                                         f"pieces, peers x{peer_median:.1f})"})  # fmt: skip
    return flags


def binding_pathologies(fits: list[Fit]) -> list[dict]:
    """A binding over the same library that pays per byte at least twice what the library pays
    natively (both intervals apart): it feeds the library in small pieces."""
    flags = []
    for f, g, native, what in _bindings(fits, only=SAME_CODE):
        if math.isnan(f.b_ci[0]) or math.isnan(g.b_ci[1]) or g.b_ci[1] <= 0:
            continue
        if f.b_ci[0] > PER_BYTE_LIMIT * g.b_ci[1]:
            flags.append({"provider": f.provider, "alg": f.alg, "op": f.op,
                          "why": f"pays {f.b_ns:.3g} ns per byte where {native} ({what}) pays {g.b_ns:.3g}: "
                                 f"{f.b_ns / g.b_ns:.0f}x, a binding should add a cost per call, not per byte"})  # fmt: skip
    return flags
