"""The leak-check table (`cryptobench leak`, `--leak`; cryptobench/leak/), shared by every format:
provider x operation x class with max |t|, measurements, verdict, and both classes' timing
distributions (a sparkline pair in text; the SVG of HTML is drawn in formats/leak.py, which writes
the `cryptobench leak` report in each format)."""

from __future__ import annotations

from dataclasses import dataclass

from cryptobench.core.units import format_size
from cryptobench.leak.result import LeakResult
from cryptobench.store.model import RunRecord

HEADERS = ["provider", "operation", "classes (A vs B)", "max |t|", "measurements", "verdict",
           "median A / B", "distribution A / B"]  # fmt: skip
NOTE = (
    "Welch's t between two classes of input, timed one call at a time in random order (dudect): on all "
    "measurements, 100 percentile crops and second order; a leak is |t| above the threshold. 'No leak "
    "detected' is not 'constant-time': it says how many measurements did not show one on this host, and the "
    "smallest steady shift (% of the median time) they would have shown (docs/leak.md § Detection limit)."
)
BARS = " ▁▂▃▄▅▆▇█"


def results(records: list[dict]) -> list[LeakResult]:
    return [LeakResult.from_record(r) for r in records]


def cell(r: LeakResult) -> str:
    size = f" {format_size(r.size)}" if r.size and r.op not in ("derive", "decaps") else ""
    return f"{r.alg} {r.op}{size}"


def sparkline(values: list[float], top: float) -> str:
    if not values or top <= 0:
        return ""
    return "".join(BARS[min(len(BARS) - 1, round(v / top * (len(BARS) - 1)))] for v in values)


def shares(r: LeakResult) -> tuple[list[float], list[float], float]:
    """Each class's histogram as shares of its own total (a class measured more often must not look
    taller), and the largest share of either: the common scale of both pictures."""
    h = r.histogram or {}
    a, b = h.get("a") or [], h.get("b") or []
    fa = [x / max(1, sum(a)) for x in a]
    fb = [x / max(1, sum(b)) for x in b]
    return fa, fb, max(fa + fb, default=0.0)


def rows(records: list[dict]) -> list[list[str]]:
    out = []
    for r in results(records):
        t = f"{abs(r.max_t):.1f}" if r.max_t is not None else "—"
        med = f"{r.medians[0]:,.0f} / {r.medians[1]:,.0f} {r.unit}" if r.medians else "—"
        fa, fb, top = shares(r)
        pictures = f"{sparkline(fa, top)} / {sparkline(fb, top)}" if fa and fb and top else ""
        out.append([r.provider, cell(r), f"{r.leak_class}: {r.labels[0]} vs {r.labels[1]}", t,
                    f"{r.measurements:,}", r.verdict(), med, pictures])  # fmt: skip
    return out


def note(records: list[dict]) -> str:
    """The method in one paragraph, with the threshold(s) the records were judged by."""
    ts = sorted({r.get("threshold") for r in records if r.get("threshold") is not None})
    return f"{NOTE} Threshold: |t| > {', '.join(f'{t:g}' for t in ts)}." if ts else NOTE


# --- the `cryptobench leak` report (written by formats/leak.py) ------------------------------------


@dataclass(frozen=True)
class LeakReport:
    run: RunRecord
    records: list[dict]

    @property
    def heading(self) -> str:
        off = self.run.settings.get("cpu_features") or ""
        return f"cryptobench leak — run {self.run.id}" + (f" (CPU features off: {off})" if off else "")
