"""A leak check's result as it is stored and shown: the record every report reads.

Apart from check.py so that reading a stored result does not import numpy (every CLI start did)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# |t| above this means a leak, as dudect's "probably not constant time" (t_threshold_moderate = 10):
# with 102 tests per check and heavy-tailed timings on a shared host, TVLA's 4.5 alarms on noise.
THRESHOLD = 10.0
COUNTER_UNITS = {"tsc": "TSC ticks", "clock": "ns"}
LEAK_PROTOCOL = 5  # the driver protocol version that has the `leak` request


@dataclass
class LeakResult:
    provider: str
    alg: str
    op: str
    size: int
    leak_class: str
    status: str  # "leak", "no leak detected", "too few measurements", "failed", "not offered"
    labels: tuple[str, str] = ("", "")
    counter: str = ""  # what the driver timed with: "tsc" or "clock"
    measurements: int = 0
    max_t: float | None = None
    test: str = ""  # the test that gave max |t|
    threshold: float = THRESHOLD
    detected_after: int | None = None  # measurements when |t| first passed the threshold
    seconds: float = 0.0
    medians: tuple[float, float] | None = None
    histogram: dict = field(default_factory=dict)  # {"edges": [...], "a": [...], "b": [...]}
    detail: str = ""
    target_effect: float | None = None  # --target-effect, % of the median time
    needed: int | None = None  # measurements that effect needs to pass the threshold (last estimate)
    target_reached: bool | None = None  # False: the budget stopped the check before `needed`
    detection_limit: float | None = None  # smallest shift these measurements could show, % of the median
    # checked though the provider failed verification in other operations: what failed, and what the
    # checked operation was verified on (leak/gate.py); "" when it passed
    verification: str = ""

    def record(self) -> dict:
        return asdict(self)

    @classmethod
    def from_record(cls, d: dict) -> LeakResult:
        d = dict(d)
        d["labels"] = tuple(d.get("labels") or ("", ""))
        if d.get("medians") is not None:
            d["medians"] = tuple(d["medians"])
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})

    @property
    def unit(self) -> str:
        return COUNTER_UNITS.get(self.counter, self.counter)

    def verdict(self) -> str:
        """Never "constant-time": a check can only fail to find a leak in so many measurements. A
        provider failed in another operation says so after the verdict: nothing is hidden."""
        said = self._verdict()
        return f"{said}; checked though {self.verification}" if self.verification else said

    def _verdict(self) -> str:
        if self.status == "leak":
            return f"leak: |t| = {abs(self.max_t or 0):.1f} after {self.detected_after:,} measurements"
        if self.status == "no leak detected":
            n = f"{self.measurements:,} measurements"
            if self.target_effect is not None and self.target_reached:
                return (f"no leak ≥ {self.target_effect:g}% detected in {n} (enough to find one of that size "
                        f"at |t| > {self.threshold:g})")  # fmt: skip
            if self.target_effect is not None and self.needed is not None:
                return (f"no leak detected in {n}: too few to rule out a {self.target_effect:g}% effect "
                        f"(needs ~{self.needed:,}; give --measurements/--seconds)")  # fmt: skip
            if self.detection_limit is not None:
                return f"no leak detected in {n} (smallest it could find: {percent(self.detection_limit)})"
            return f"no leak detected in {n}"
        return f"{self.status}: {self.detail}"


def percent(x: float) -> str:
    """Two significant figures: 0.22%, 1.5%, 12%."""
    return f"{x:.0f}%" if x >= 10 else f"{x:.2g}%"
