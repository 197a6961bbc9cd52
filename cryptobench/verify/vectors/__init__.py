"""Known-answer cases from the shared vectors, normalised for the driver protocol.

`cases_for(alg, vectors_dir)` returns every case that exercises `alg` under the
measurement contract (e.g. 12-byte nonces and 16-byte tags for AEADs); the
orchestrator sends them to a driver without the expected answers and judges
the results with `judge`. A declared algorithm's (cryptobench/core/declared.py) are the cases of
the known-answer files its providers name (declared.py here).
"""

from __future__ import annotations

from pathlib import Path

from cryptobench.core import declared as _declared
from cryptobench.verify.vectors import cases as _cases
from cryptobench.verify.vectors.case import Case, judge, strip_expected
from cryptobench.verify.vectors.cases import source_of
from cryptobench.verify.vectors.declared import declared_cases
from cryptobench.verify.vectors.files import default_vectors_dir


def cases_for(alg: str, vectors_dir: Path | str | None = None) -> list[Case]:
    """The catalogue's published cases of `alg`, or a declared algorithm's own known answers."""
    return declared_cases(alg) if _declared.is_declared(alg) else _cases.cases_for(alg, vectors_dir)


__all__ = ["Case", "cases_for", "default_vectors_dir", "judge", "source_of", "strip_expected"]
