"""The multi-core scaling table (`--workers`, cryptobench/measure/scaling.py), shared by every text format."""

from __future__ import annotations

from cryptobench.core.units import format_rate, format_size

HEADERS = ["provider", "cell", "workers", "1 worker ops/s", "aggregate ops/s [95% CI]", "per worker ops/s",
           "efficiency [95% CI]"]  # fmt: skip
NOTE = (
    "N processes of the provider at once, each pinned to its own core, rounds alternating with one worker "
    "alone; efficiency = aggregate / (N x one worker), per round. No provider here runs threads of its own."
)


def _rate(x: dict) -> str:
    return format_rate(x["median"])


def rows(scaling: list[dict]) -> list[list[str]]:
    out = []
    for s in scaling:
        cell = f"{s['alg']} {s['op']}" + (f" {format_size(s['size'])}" if s["size"] else "")
        agg, eff = s["aggregate_ops_per_s"], s["efficiency"]
        out.append([
            s["provider"], cell, str(s["workers"]), _rate(s["single_ops_per_s"]),
            f"{_rate(agg)} [{format_rate(agg['ci95'][0])}-{format_rate(agg['ci95'][1])}]",
            _rate(s["per_worker_ops_per_s"]),
            f"{eff['median'] * 100:.0f}% [{eff['ci95'][0] * 100:.0f}-{eff['ci95'][1] * 100:.0f}%]",
        ])  # fmt: skip
    return out
