"""A comparison as JSON (schema `cryptobench-compare`, docs/results-schema.md)."""

from __future__ import annotations

from cryptobench import RESULT_SCHEMA_VERSION
from cryptobench.report import jsontext
from cryptobench.report.compare import Comparison


def to_dict(comp: Comparison) -> dict:
    same, total = comp.same_fraction()
    return {
        "schema": "cryptobench-compare",
        "schema_version": RESULT_SCHEMA_VERSION,
        "mode": comp.mode,
        "reference": comp.reference_label,
        "subjects": comp.subject_labels,
        "runs": [r.id for r in comp.runs],
        "noise_threshold": comp.noise,
        "clock_hz": comp.clock_hz,  # machines: each one's highest reported clock (nominal)
        "summary": {"compared": total, "same": same, "median_change_percent": comp.shift()},
        "host_probe": _host(comp),
        "noise_levels": [
            {"run": r.id, **comp.noise_levels[r.id].record()} for r in comp.runs if r.id in comp.noise_levels
        ],
        "pairs": [
            {
                "subject": label,
                "provider": p.key[0] or None,
                "reference_provider": p.reference.provider,
                "subject_provider": p.subject.provider,
                "alg": p.key[1],
                "op": p.key[2],
                "size": p.key[3],
                "chunk": p.key[4],
                "reference_median_ns": p.ref_summary.median,
                "subject_median_ns": p.sub_summary.median,
                "time_ratio": p.ratio.value,
                "time_ratio_ci95": [p.ratio.low, p.ratio.high],
                "delta_percent": p.ratio.percent,
                "verdict": p.verdict,
                "estimator": "paired" if p.pairs else "independent",
                "pairs": p.pairs,
                "time_ratio_per_cycle": (comp.per_cycle(label, p) or [None])[0],
            }
            for label, pairs in comp.pairs.items()
            for p in pairs
        ],
        "only_reference": comp.only_reference,
        "only_subject": comp.only_subject,
    }


def _host(comp: Comparison) -> dict | None:
    """runs: the probe's time ratio between the runs, its verdict, and why they cannot be compared."""
    if comp.mode != "runs":
        return None
    if comp.host is None:
        return {"unknown": comp.host_unknown}
    r = comp.host.ratio
    return {"time_ratio": r.value, "time_ratio_ci95": [r.low, r.high], "verdict": comp.host.verdict,
            "cannot_compare": comp.host.problem or None}  # fmt: skip


def render(comp: Comparison) -> str:
    return jsontext.dumps(to_dict(comp), indent=2) + "\n"
