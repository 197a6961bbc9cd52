"""`--metric`: what a run measures. Repeatable and additive (`--metric time --metric instructions`,
or `--metric time,instructions`); time alone by default."""

from __future__ import annotations

from cryptobench.core.errors import UserError

METRICS = ("time", "instructions")


def parse(values: list[str] | None) -> list[str]:
    """The metrics asked for, in the order of METRICS; an unknown one is refused in one line."""
    asked = {m.strip() for v in values or ["time"] for m in v.split(",") if m.strip()}
    unknown = sorted(asked - set(METRICS))
    if unknown:
        raise UserError(f"unknown metric {unknown[0]!r} (known: {', '.join(METRICS)})")
    if not asked:
        raise UserError("--metric needs a metric: time or instructions")
    return [m for m in METRICS if m in asked]
