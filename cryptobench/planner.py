"""From a suite and the user's filters to the list of cells to measure.

A cell is (algorithm, operation, size, chunk) with the providers that will be
timed on it side by side; the runner interleaves those providers.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from . import algorithms
from .errors import UserError
from .suites import Suite
from .units import format_size, parse_size


@dataclass(frozen=True)
class CellSpec:
    alg: str
    op: str
    size: int
    chunk: int
    providers: tuple[str, ...]
    budget: float | None = None  # seconds per provider; None: the run's --time-per-cell

    @property
    def key(self) -> tuple[str, str, int, int]:
        return (self.alg, self.op, self.size, self.chunk)


@dataclass
class Filters:
    algs: list[str] | None = None
    providers: list[str] | None = None
    sizes: list[str] | None = None

    @staticmethod
    def parse(alg: str | None, provider: str | None, size: str | None) -> Filters:
        split = lambda s: [x.strip() for x in s.split(",") if x.strip()] if s else None  # noqa: E731
        f = Filters(split(alg), split(provider), split(size))
        for s in f.sizes or []:
            if not any(ch in s for ch in "*?[") and s:
                parse_size(s)  # raises a clear error for a bad size
        return f


def _match(name: str, globs: list[str] | None) -> bool:
    return globs is None or any(fnmatch.fnmatchcase(name, g) for g in globs)


def _size_match(size: int, filters: list[str] | None) -> bool:
    if filters is None:
        return True
    for f in filters:
        if any(ch in f for ch in "*?["):
            if fnmatch.fnmatchcase(format_size(size).replace(" ", ""), f.replace(" ", "")):
                return True
        elif parse_size(f) == size:
            return True
    return False


def plan(suite: Suite, providers: list[str], filters: Filters) -> list[CellSpec]:
    """Cells in suite order; each names the providers (of `providers`) to time on it."""
    for globs, universe, what in (
        (filters.algs, list(algorithms.ALGORITHMS), "algorithm"),
        (filters.providers, providers, "provider"),
    ):
        for g in globs or []:
            if not any(fnmatch.fnmatchcase(x, g) for x in universe):
                raise UserError(f"unknown {what} {g!r}: it matches nothing (see `cryptobench list {what}s`)")
    chosen = [p for p in providers if _match(p, filters.providers)]
    cells: dict[tuple, CellSpec] = {}
    for g in suite.groups:
        group_providers = [p for p in chosen if _match(p, g.providers)]
        for alg in g.algs:
            if not _match(alg, filters.algs):
                continue
            ops = [o for o in algorithms.get(alg).ops if g.ops is None or o in g.ops]
            for op in ops:
                for size in g.sizes:
                    if not _size_match(size, filters.sizes):
                        continue
                    for chunk in g.chunks:
                        key = (alg, op, size, chunk)
                        if key not in cells and group_providers:
                            cells[key] = CellSpec(alg, op, size, chunk, tuple(group_providers), g.time_per_cell)
    if not cells:
        raise UserError("nothing to measure: the filters leave no cell of the suite (check --alg, --provider, --size)")
    return list(cells.values())
