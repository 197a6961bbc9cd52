"""A fixed piece of work timed all through a run: how fast was the host, and when.

The probe is SHA-256 of 16 KiB through the C driver on the system OpenSSL, with every CPU feature
on (never the run's `--cpu-features`: it measures the host, not the code under test). It runs
between cells, in its own process, so it never overlaps a timed region. Two runs' probes tell
`compare` whether the host moved ("the host was 4% slower") apart from the cells.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from cryptobench.analysis import stats
from cryptobench.core import fixed_input
from cryptobench.core.errors import DriverError
from cryptobench.drivers.client import DriverProcess
from cryptobench.drivers.registry import Registry

PROVIDER = "c:openssl"
ALG, OP, SIZE = "sha256", "hash", 16384
TARGET_NS = 2_000_000  # one sample: about 2 ms
SAMPLES = 3
EVERY_S = 2.0  # at most one probe per this many seconds: a few hundred per default run


@dataclass
class HostProbe:
    registry: Registry
    timeout: float = 30.0
    readings: list[tuple[float, float]] = field(default_factory=list)  # (seconds since start, ns per op)
    unavailable: str = ""
    clock: dict | None = None  # the C driver's hello clock: resolution, and the TSC rate (cycles.py)
    _driver: DriverProcess | None = None
    _batch: int = 0
    _t0: float = field(default_factory=time.monotonic)
    _last: float = -1e9

    def start(self) -> None:
        p = self.registry.get(PROVIDER)
        ok, why = self.registry.usable(p)
        if not ok:
            self.unavailable = f"{PROVIDER}: {why}"
            return
        try:
            self._driver = DriverProcess(p.id, p.argv(), env=self.registry.env_for(p))
            self.clock = self._driver.hello(timeout=self.timeout).get("clock")
        except DriverError as e:
            self.unavailable = f"{PROVIDER} did not start: {e}"
            self._driver = None

    def maybe_take(self) -> float | None:
        """A reading if the last one is older than EVERY_S, else None."""
        if time.monotonic() - self._last < EVERY_S:
            return None
        return self.take()

    def take(self) -> float | None:
        if self._driver is None:
            return None
        req = {"cmd": "bench", "alg": ALG, "op": OP, "size": SIZE, "chunk": 0, "seed": fixed_input.DEFAULT_SEED,
               "batch": self._batch, "target_ns": TARGET_NS, "warmup_ns": 1_000_000, "samples": SAMPLES}  # fmt: skip
        try:
            resp = self._driver.request(req, self.timeout)
        except DriverError as e:  # the run goes on without a probe; the report says so
            self.unavailable = f"the probe failed: {e}"
            self.stop()
            return None
        self._batch = int(resp["batch"])
        ns = stats.median([s / self._batch for s in resp["samples_ns"]])
        self._last = time.monotonic()
        self.readings.append((round(self._last - self._t0, 3), round(ns, 2)))
        return ns

    def stop(self) -> None:
        if self._driver is not None:
            self._driver.close(timeout=2)
            self._driver = None

    def record(self) -> dict:
        """What the run stores: the work, every reading, and their median with its 95% interval."""
        out: dict = {"work": f"{PROVIDER} {ALG} {SIZE} B", "readings": self.readings}
        if self.unavailable:
            out["unavailable"] = self.unavailable
        if self.readings:
            s = stats.summarize([ns for _, ns in self.readings])
            out.update(median_ns=round(s.median, 2), ci_low=round(s.ci_low, 2), ci_high=round(s.ci_high, 2),
                       cv=round(s.cv, 4))  # fmt: skip
        return out


def summary_of(record: dict | None) -> stats.Summary | None:
    """The stored probe of a run as a Summary (None when the run had none)."""
    readings = (record or {}).get("readings") or []
    values = [float(ns) for _, ns in readings if isinstance(ns, (int, float)) and ns > 0]
    return stats.summarize(values) if len(values) >= 3 else None
