"""Judging instruction counts across runs (compare, history): a count is deterministic, so its
interval is the spread of its two counts (zero when they agree), and two builds differ when their
counts differ by more than the larger of TOLERANCE and those spreads. No noise threshold and no
statistics: a 1% change is a change, an unchanged build is the same to the instruction."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

from cryptobench.core.units import format_size
from cryptobench.icount.phase import TOLERANCE, spread

SAME, MORE, FEWER = "same", "more instructions", "fewer instructions"


def key(r: dict) -> tuple:
    return (r["provider"], r["alg"], r["op"], r["size"], r["chunk"])


def describe(k: tuple) -> str:
    provider, alg, op, size, chunk = k
    return (
        f"{provider} {alg} {op}"
        + (f" {format_size(size)}" if size else "")
        + (f" in {format_size(chunk)} chunks" if chunk else "")
    )


def counted(env: dict, algs: list[str] | None = None) -> dict[tuple, dict]:
    """A run's counted cells by key (only those with a count), filtered by algorithm globs."""
    out = {}
    for r in (env.get("instructions") or {}).get("records", []):
        if r.get("per_op") is not None and (not algs or any(fnmatch.fnmatchcase(r["alg"], g) for g in algs)):
            out[key(r)] = r
    return out


@dataclass
class Step:
    key: tuple
    before: dict
    after: dict

    @property
    def change(self) -> float:
        """Relative change of the count, after against before (+0.01 = 1% more instructions)."""
        return self.after["per_op"] / self.before["per_op"] - 1 if self.before["per_op"] else float("inf")

    @property
    def tolerance(self) -> float:
        """The larger of the stated tolerance and either side's own spread (its two counts)."""
        return max(
            TOLERANCE, *(spread(*r["counts"]) for r in (self.before, self.after) if len(r.get("counts", [])) == 2)
        )

    @property
    def verdict(self) -> str:
        if abs(self.change) <= self.tolerance:
            return SAME
        return MORE if self.change > 0 else FEWER

    def row(self) -> list[str]:
        return [describe(self.key), f"{self.before['per_op']:,.1f}", f"{self.after['per_op']:,.1f}",
                f"{self.change:+.3%}", f"±{self.tolerance:.3%}", self.verdict]  # fmt: skip

    def record(self) -> dict:
        provider, alg, op, size, chunk = self.key
        return {"provider": provider, "alg": alg, "op": op, "size": size, "chunk": chunk,
                "before": self.before["per_op"], "after": self.after["per_op"], "change": self.change,
                "tolerance": self.tolerance, "verdict": self.verdict}  # fmt: skip


HEADERS = ["cell", "before (instructions/op)", "after", "change", "tolerance", "verdict"]


def compare(env_a: dict, env_b: dict, algs: list[str] | None = None) -> list[Step]:
    """Every cell counted in both runs, judged; [] when either run has no counts."""
    a, b = counted(env_a, algs), counted(env_b, algs)
    return [Step(k, a[k], b[k]) for k in a if k in b]


def regressions(steps: list[Step], pct: float) -> list[Step]:
    """More instructions by more than `pct` percent (and beyond the tolerance)."""
    return [s for s in steps if s.verdict == MORE and s.change * 100 > pct]
