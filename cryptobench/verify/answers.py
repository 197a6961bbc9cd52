"""A driver's `verify` results judged case by case, as the run's providers and would-be witnesses are."""

from __future__ import annotations

from cryptobench.verify.vectors import judge

UNSUPPORTED = object()  # a case the library has no API for (e.g. deterministic ML-DSA signing)


def case_verdicts(cases: list, results: list):
    """Each known-answer case beside what its driver's result says of it: None when it passed,
    UNSUPPORTED, or why it failed (run's providers and would-be witnesses are judged alike)."""
    for case, result in zip(cases, results, strict=True):
        if not isinstance(result, dict) or result.get("id") != case.id:
            yield case, "protocol: results out of order"
        elif "unsupported" in result:
            yield case, UNSUPPORTED
        else:
            yield case, judge(case, result)
