"""What a cell may hold before it is written, and the runner's checks for cells that come from elsewhere.

`fit` runs on every cell a store writes (a run, a spool, a push, an import): a figure outside the
protocol's bounds (a batch above 2^40, a sample that is not 1 ns to 1e15 ns, a peak resident set
above a petabyte) is not written; the cell is `failed` with the reason instead, so one lying
figure costs its own cell and never the rest of the run. `admit` runs on the cells of an import: an
`ok` cell must pass the very checks a measured one passed (bench_response.check, plausibility).
"""

from __future__ import annotations

import dataclasses
import math

from cryptobench.analysis import stats
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.measure import plausibility
from cryptobench.measure import response_checks as bench_response
from cryptobench.store.model import CellRecord

MAX_RSS_KB = 1 << 40  # a petabyte: no process holds more
MAX_COUNT = (1 << 31) - 1  # rounds: requests made for one cell


def _whole(x, low: int, high: int) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and low <= x <= high


def _bad_sample(samples) -> object | None:
    """The first sample that no driver may send (bench_response's rule), else None."""
    if not isinstance(samples, list):
        return samples
    for x in samples:
        if not (isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)):
            return x
        if not 1 <= x <= bench_response.MAX_SAMPLE_NS:
            return x
    return None


def _failed(c: CellRecord, why: str, **cleared) -> CellRecord:
    reason = f"{c.reason}; {why}" if c.status == "failed" and c.reason else f"failed: {why}"
    status = c.status if c.status == "not-offered" else "failed"
    return dataclasses.replace(c, status=status, reason=reason, **cleared)


def fit(c: CellRecord) -> CellRecord:
    """`c` as it may be stored: itself, or failed with the reason and without the figure refused."""
    if not _whole(c.batch, 0, bench_response.MAX_BATCH):
        c = _failed(c, f"protocol: bad batch {c.batch!r} (1 to 2^40 operations per sample)", batch=0)
    bad = _bad_sample(c.samples_ns)
    if c.samples_ns and bad is not None:
        c = _failed(c, f"protocol: a sample of {bad!r} ns: samples are whole batches, 1 ns to 1e15 ns",
                    samples_ns=[], extra={k: v for k, v in c.extra.items() if k != "tsc_ticks"})  # fmt: skip
    if not _whole(c.peak_rss_kb, 0, MAX_RSS_KB):
        c = _failed(c, f"protocol: a peak resident set of {c.peak_rss_kb!r} KiB (0 to 2^40)", peak_rss_kb=0)
    if not _whole(c.rounds, 0, MAX_COUNT):
        c = _failed(c, f"a count of {c.rounds!r} rounds", rounds=0)
    return c


def admit(c: CellRecord, limits: dict | None) -> CellRecord:
    """An imported cell: an `ok` one passes the runner's checks on its response and its figure
    (`limits`: the machine's, as its run recorded them), else it is imported `failed` with why."""
    c = fit(c)
    if c.status != "ok":
        return c
    if not c.samples_ns:
        return _failed(c, "no samples")
    spec = CellSpec(c.alg, c.op, c.size, c.chunk, (c.provider,))
    resp = {"batch": c.batch, "samples_ns": c.samples_ns, "checksum": c.checksum,
            "samples_tsc": c.extra.get("tsc_ticks")}  # fmt: skip
    try:
        bench_response.check(spec, {"batch": 0, "samples": len(c.samples_ns)}, resp)
    except DriverError as e:
        return _failed(c, str(e))
    except KeyError as e:  # an algorithm this cryptobench does not know: it cannot check the figures
        return _failed(c, str(e.args[0]) if e.args else "unknown algorithm")
    per_op = stats.median(c.samples_ns) / c.batch
    implausible = plausibility.judge(c.alg, c.op, c.size, c.chunk, per_op, limits if isinstance(limits, dict) else None)
    return _failed(c, implausible) if implausible else c
