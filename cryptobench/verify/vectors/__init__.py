"""Known-answer cases from the shared vectors, normalised for the driver protocol.

`cases_for(alg, vectors_dir)` returns every case that exercises `alg` under the
measurement contract (e.g. 12-byte nonces and 16-byte tags for AEADs); the
orchestrator sends them to a driver without the expected answers and judges
the results with `judge`.
"""

from cryptobench.verify.vectors.case import Case, judge, strip_expected
from cryptobench.verify.vectors.cases import cases_for, source_of
from cryptobench.verify.vectors.files import default_vectors_dir

__all__ = ["Case", "cases_for", "default_vectors_dir", "judge", "source_of", "strip_expected"]
