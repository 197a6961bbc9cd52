"""A report as plain records (dicts, lists, numbers): the documented, versioned result schema
(docs/results-schema.md). JSON writes them as they are; CSV flattens their cells."""

from __future__ import annotations

import math

from cryptobench import RESULT_SCHEMA_VERSION
from cryptobench.analysis.composition import compare_steps
from cryptobench.core import declared
from cryptobench.measure import cycles
from cryptobench.report import sizes, tls_tables
from cryptobench.report.model import Report, Row, notes_by_kind_keyed


def _num(x: float | None) -> float | None:
    if x is None or (isinstance(x, float) and (math.isnan(x) or math.isinf(x))):
        return None
    return round(x, 6) if isinstance(x, float) else x


def _stats(r: Row, hz: float | None = None) -> dict | None:
    s = r.summary
    if s is None:
        return None
    return {
        "n": s.n,
        "median_ns": _num(s.median),
        "mean_ns": _num(s.mean),
        "stddev_ns": _num(s.stddev),
        "min_ns": _num(s.min),
        "max_ns": _num(s.max),
        "p10_ns": _num(s.p10),
        "p90_ns": _num(s.p90),
        "cv": _num(s.cv),
        "ci95_low_ns": _num(s.ci_low),
        "ci95_high_ns": _num(s.ci_high),
        "mb_per_s": _num(r.mb_per_s()),
        "mb_per_s_ci95": [_num(r.mb_per_s(s.ci_high)), _num(r.mb_per_s(s.ci_low))],
        "ops_per_s": _num(r.ops_per_s()),
        # TSC reference cycles (environment.cycles), null where the counter is not invariant
        **_cycles(r, hz),
    }


def _cycles(r: Row, hz: float | None) -> dict:
    """Counted from the driver's own ticks where it read them (`tsc_source`), else time x rate."""
    if not hz:
        return {"tsc_cycles_per_op": None, "tsc_cycles_per_byte": None, "tsc_source": None}
    per_op, source = cycles.cell_per_op(r.cell, r.summary.median, hz)
    per_byte = per_op / r.cell.size if r.cell.size else None
    return {"tsc_cycles_per_op": _num(per_op), "tsc_cycles_per_byte": _num(per_byte), "tsc_source": source}


def _vs(r: Row, baseline: str) -> dict | None:
    if r.ratio is None:
        return None
    sp = r.ratio.speedup
    return {
        "baseline": baseline,
        "time_ratio": _num(r.ratio.value),
        "time_ratio_ci95": [_num(r.ratio.low), _num(r.ratio.high)],
        "speedup": _num(sp[0]),
        "speedup_ci95": [_num(sp[1]), _num(sp[2])],
        "verdict": r.verdict,
        "estimator": "baseline" if r.is_baseline else "paired" if r.pairs else "independent",
        "pairs": r.pairs,  # how many pairs made the interval (0: independent)
        # the raw pairs: [pair round, driver process, this provider's ns/op, the baseline's ns/op]
        "pairs_ns": [[q.round, q.process, _num(q.subject_ns), _num(q.reference_ns)] for q in r.pair_list],
    }


def to_dict(rep: Report) -> dict:
    run = rep.run
    return {
        "schema": "cryptobench-result",
        "schema_version": RESULT_SCHEMA_VERSION,
        "run": {
            "id": run.id,
            "uid": run.uid,
            "job": run.job,
            "started": run.started,
            "finished": run.finished,
            "status": run.status,
            "suite": run.suite,
            "label": run.label,
            "settings": run.settings,
        },
        "environment": run.env,
        # schema 13: phases of the run, no longer inside "environment" (docs/results-schema.md)
        "scaling": rep.scaling,
        "leak": rep.leak,
        "providers": run.providers,
        "baseline": rep.baseline,
        "noise_threshold": rep.noise,
        "noise_level": rep.noise_level.record() if rep.noise_level else None,
        "verification": [v.__dict__ for v in rep.verifications],
        "cells": [
            {
                "provider": r.cell.provider,
                "alg": r.cell.alg,
                "declared_by": declared.declared_by(r.cell.alg),  # schema 14: an algorithm of the providers' own
                "op": r.cell.op,
                "size": r.cell.size,
                "chunk": r.cell.chunk,
                "status": r.cell.status,
                "reason": r.cell.reason,
                "batch": r.cell.batch,
                "samples_ns": r.cell.samples_ns,
                "checksum": r.cell.checksum,
                "output_bytes": sizes.output_bytes(r.cell.checksum),  # schema 14
                "checksums_seen": r.cell.checksums_seen,
                "checksum_mismatch": r.checksum_mismatch,
                "stats": _stats(r, rep.cycles_hz),
                "vs_baseline": _vs(r, rep.baseline),
                "peak_rss_kb": r.cell.peak_rss_kb,
                "rounds": r.cell.rounds,
                "started": r.cell.started,
                "finished": r.cell.finished,
                "notes": r.notes,
                "extra": r.cell.extra,
            }
            for r in rep.rows
        ],
        "sizes": sizes.records(rep),  # schema 14: bytes of keys, signatures, ciphertexts per provider
        "tls": tls_tables.records(rep),  # schema 15: handshakes' flights, hybrid over classical, interop
        "references": [
            {
                "id": r.id,
                "alg": r.alg,
                "op": r.op,
                "ops_per_s": r.ops_per_s,
                "machine": r.machine,
                "source": r.source,
                "label": r.label,
            }
            for r in rep.references
        ],
        "normalisation": {"factor": rep.normalise[0], "reason": rep.normalise[1]} if rep.normalise else None,
        "pathologies": rep.pathologies,
        "overhead_model": [
            {
                "provider": f.provider,
                "alg": f.alg,
                "op": f.op,
                "source": f.source,
                "points": f.points,
                "a_ns_per_call": _num(f.a_ns),
                "a_ci95": [_num(x) for x in f.a_ci],
                "b_ns_per_byte": _num(f.b_ns),
                "b_ci95": [_num(x) for x in f.b_ci],
                "misfit": _num(f.misfit),
            }
            for f in rep.overheads
        ],
        "binding_costs": [
            {**b, "extra_ns_per_call": _num(b["extra_ns_per_call"]), "ci95": [_num(x) for x in b["ci95"]]}
            for b in rep.binding_costs
        ],
        "crosschecks": [
            {
                "alg": c.alg,
                "producer": c.producer,
                "consumer": c.consumer,
                "check": c.check,
                "passed": c.passed,
                "detail": c.detail,
            }
            for c in rep.crosschecks
        ],
        "protocol_steps": [
            {
                "provider": s.provider,
                "suite": s.suite,
                "step": s.step,
                "measured_ns": _num(s.measured_ns),
                "measured_ci95_half": _num(s.measured_half),
                "primitive_sum_ns": _num(s.sum_ns),
                "primitive_sum_ci95_half": _num(s.sum_half),
                "above_primitives_ns": _num(s.overhead_ns),
                "missing_primitives": s.missing,
            }
            for s in compare_steps(rep.rows)
        ],
        "warnings": rep.warnings,
        "warnings_by_kind": [
            {"kind": kind, "title": title, "count": len(notes), "worst": notes[:3]}
            for kind, title, notes in notes_by_kind_keyed(rep.warnings)
        ],
        "failures": rep.failures,
        "not_offered": rep.not_offered,
    }
