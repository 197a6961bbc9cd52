"""A run's noise level: one figure saying how disturbed the machine was while the run measured.

Three readings the run already stores, so runs stored before this get a level too:

- other work: the cores busy with something else while the cells were timed (each cell's
  `extra.host`, from /proc/stat over its rounds, less the run's own driver), as a share of the
  cores the run left free. The most direct reading of a co-tenant, though other work on a core the
  run does not use need not slow it.
- disturbed batches: the share of timed batches (samples) that ran at least SLOW times their own
  cell's fast level (the cell's 10th percentile). A co-tenant's burst, a frequency step or a
  migration slows the batches it lands on; a quiet machine leaves nearly all of them at the fast
  level. Batches, not rounds: a paired round is one batch, so a share of batches means the same
  thing whether the run paired its providers or not. Cells of one operation per batch (RSA key
  generation's prime search) vary by themselves and are left out.
- the host probe's spread: half the distance between the 10th and 90th percentiles of the probe's
  readings (probe.py: a fixed SHA-256 workload timed every few seconds all through the run),
  relative to their median. It sees slow moments between cells that the cells' own rounds miss.

The level is the worst of the three against fixed bounds (QUIET, NOISY), so two runs' conditions
can be compared at a glance: quiet (what this VM shows alone), noisy (what it shows beside the
issue's bursty co-tenant, or worse), moderate between.
"""

from __future__ import annotations

from dataclasses import dataclass

from cryptobench.analysis import stats
from cryptobench.store.model import CellRecord, RunRecord

SLOW = 1.25  # a batch this much slower than its cell's fast level was disturbed (report.model's BUSY_ROUND_SPREAD)
MIN_SAMPLES = 5  # fewer batches than this give no fast level to measure a cell's others against
MIN_READINGS = 3  # the probe's spread needs this many readings
# Bounds from `run --alg sha256 --size 16KiB` (default budget, and --time-per-cell 2) on the 2-vCPU
# VM, alone at moments nothing else ran, then under `bench/cotenant --`, five times each: alone
# 0.01-0.04 cores of other work, 0-5.1% of the batches disturbed, the probe within ±1.7%; beside
# the co-tenant 0.47-0.81 cores and 6.6-20%; beside other engineers' test suites 0.97-1.00 cores.
QUIET = {"other": 0.10, "disturbed": 0.07, "probe": 0.03}  # at most this: quiet
NOISY = {"other": 0.30, "disturbed": 0.10, "probe": 0.10}  # above this: noisy
LEVELS = ("quiet", "moderate", "noisy")


@dataclass(frozen=True)
class NoiseLevel:
    level: str  # quiet | moderate | noisy | unknown (too little to judge by)
    disturbed: float | None  # share of batches at least SLOW times their cell's fast level
    batches: int  # batches judged
    probe_spread: float | None  # ± half the probe's p10-p90 range over its median
    probe_readings: int
    other_cores: float | None = None  # cores busy with other work while cells were timed
    free_cores: int = 1  # the cores the run left free (all but its timing drivers')

    def text(self) -> str:
        """The line every report header shows: 'noisy · other work on 0.60 of 1 free core · 20% of 92
        batches disturbed (...) · host probe ±23.0% (...)'."""
        parts = [self.level]
        if self.other_cores is not None:
            free = f"{self.free_cores} free core{'' if self.free_cores == 1 else 's'}"
            parts.append(f"other work on {self.other_cores:.2f} of {free}")
        if self.disturbed is None:
            parts.append("no cell with enough batches to judge")
        else:
            parts.append(f"{self.disturbed * 100:.0f}% of {self.batches} batches disturbed "
                         f"(≥{(SLOW - 1) * 100:.0f}% over their cell's fastest tenth)")  # fmt: skip
        n = self.probe_readings
        if self.probe_spread is None:
            parts.append(f"host probe: {n} reading{'' if n == 1 else 's'}, too few for a spread")
        else:
            parts.append(f"host probe ±{self.probe_spread * 100:.1f}% (p10-p90, {n} readings)")
        return " · ".join(parts)

    def record(self) -> dict:
        """As the JSON result stores it (docs/results-schema.md, `noise_level`)."""
        return {
            "level": self.level,
            "other_cores": None if self.other_cores is None else round(self.other_cores, 3),
            "free_cores": self.free_cores,
            "disturbed_share": None if self.disturbed is None else round(self.disturbed, 4),
            "batches": self.batches,
            "slow_factor": SLOW,
            "probe_spread": None if self.probe_spread is None else round(self.probe_spread, 4),
            "probe_readings": self.probe_readings,
        }


def measure(run: RunRecord, cells: list[CellRecord]) -> NoiseLevel | None:
    """The run's noise level; None when it timed nothing (instruction counts alone, or every cell failed)."""
    disturbed, batches = _disturbed(cells)
    readings = [float(ns) for _, ns in (run.env.get("probe") or {}).get("readings") or []
                if isinstance(ns, int | float) and ns > 0]  # fmt: skip
    if not batches and not readings:
        return None
    own = 2 if run.settings.get("duet") else 1  # drivers timing at once: --duet runs two
    cores = run.env.get("cores")
    free = max(1, (cores if isinstance(cores, int) else own + 1) - own)
    other = _other_work(cells, own)
    spread = _spread(readings) if len(readings) >= MIN_READINGS else None
    share = disturbed / batches if batches else None
    grades = [_grade(None if other is None else other / free, "other"), _grade(share, "disturbed"),
              _grade(spread, "probe")]  # fmt: skip
    known = [g for g in grades if g is not None]
    level = LEVELS[max(known)] if known else "unknown"
    return NoiseLevel(level, share, batches, spread, len(readings), other, free)


def _other_work(cells: list[CellRecord], own: int) -> float | None:
    """Cores busy with other work over the timed cells' rounds, weighted by their length."""
    jiffies = busy = 0.0
    for c in cells:
        host = c.extra.get("host") if c.measured else None
        if isinstance(host, dict) and isinstance(host.get("busy_cores"), int | float) and host.get("jiffies"):
            jiffies += host["jiffies"]
            busy += max(0.0, host["busy_cores"] - own) * host["jiffies"]
    return busy / jiffies if jiffies else None


def _disturbed(cells: list[CellRecord]) -> tuple[int, int]:
    slow = total = 0
    for c in cells:
        if not c.measured or (c.batch or 0) <= 1 or len(c.samples_ns) < MIN_SAMPLES:
            continue
        per_op = sorted(c.per_op_ns)
        fast = stats.quantile(per_op, 0.10)
        slow += sum(x >= SLOW * fast for x in per_op)
        total += len(per_op)
    return slow, total


def _spread(readings: list[float]) -> float:
    xs = sorted(readings)
    return (stats.quantile(xs, 0.90) - stats.quantile(xs, 0.10)) / 2 / stats.median(xs)


def _grade(value: float | None, what: str) -> int | None:
    if value is None:
        return None
    return 0 if value <= QUIET[what] else 2 if value > NOISY[what] else 1
