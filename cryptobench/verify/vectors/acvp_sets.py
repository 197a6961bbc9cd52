"""Every ACVP case of a catalogue algorithm: the folders of `vectors/acvp/` read by acvp.py, each
group handed to its family's builder (acvp_pq.py, acvp_sym.py, one module per family)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from cryptobench.verify.vectors.acvp import acvp_dir, cases_from, read_folder
from cryptobench.verify.vectors.acvp_pq import BUILDERS as PQ
from cryptobench.verify.vectors.acvp_sym import BUILDERS as SYM
from cryptobench.verify.vectors.case import Case

BUILDERS = {**PQ, **SYM}  # folder -> (its algorithms, which group is which, the case builder)


@lru_cache(maxsize=256)
def _cached(alg: str, base: Path) -> tuple[Case, ...]:
    out: list[Case] = []
    for folder, (algs, group_alg, build) in BUILDERS.items():
        if alg not in algs or not (base / folder).is_dir():
            continue
        out += cases_from(read_folder(base / folder), folder, group_alg, build, alg)
    return tuple(out)


def acvp_cases(alg: str, vectors_dir: Path | str | None = None) -> list[Case]:
    """Every ACVP case of catalogue algorithm `alg` (none when no folder covers it)."""
    return list(_cached(alg, acvp_dir(vectors_dir)))
