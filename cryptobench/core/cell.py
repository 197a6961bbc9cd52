"""The cell: one (algorithm, operation, size, chunk) with the providers timed on it side by side.

It travels the whole way from the plan to the store with its algorithm resolved once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from cryptobench.core import algorithms


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

    @cached_property
    def algorithm(self) -> algorithms.Algorithm:
        """The catalogue entry, resolved once for the cell's whole way from plan to report."""
        return algorithms.get(self.alg)
