"""A run's outcome as an exit status and the one line that says it: what a CI reads last.

0: every cell measured or not offered; 1: a cell failed (a failed provider, a refused figure), a
cross-verification failed or `--leak` found a leak. Providers that were never built and not named
on the command line are excused: the run said at its start that it measures the others."""

from __future__ import annotations

from cryptobench.core.textsafe import printable
from cryptobench.report.model import Report, _label

NAMED = 3  # failures named in the line; the report above has them all


def failed_cells(rep: Report, excused: frozenset[str] = frozenset()) -> list[str]:
    """Each failed cell's label ("c:foo aes-128-gcm seal 1 KiB"); "not offered" is not a failure."""
    return [
        _label(r.cell) for r in rep.rows if not r.ok and r.cell.status != "not-offered" and r.provider not in excused
    ]


def outcome(rep: Report, excused: frozenset[str] = frozenset()) -> tuple[int, str]:
    """(exit status, the line that ends the run; "" when nothing failed)."""
    parts = []
    cells = failed_cells(rep, excused)
    if cells:
        parts.append(_counted(len(cells), "cell", "failed", cells))
    crossed = [f"{c.alg} {c.producer} -> {c.consumer}" for c in rep.crosschecks if not c.passed]
    if crossed:
        parts.append(_counted(len(crossed), "cross-verification", "failed", crossed))
    records = rep.leak
    leaks = [f"{r.get('provider')} {r.get('alg')} {r.get('op')} {r.get('leak_class')}" for r in records
             if r.get("status") == "leak"]  # fmt: skip
    if leaks:
        parts.append(_counted(len(leaks), "leak", "found", leaks))
    broken = [f"{r.get('provider')} {r.get('alg')} {r.get('op')} {r.get('leak_class')}" for r in records
              if r.get("status") == "failed"]  # fmt: skip
    if broken:
        parts.append(_counted(len(broken), "leak check", "failed", broken))
    if not parts:
        return 0, ""
    return 1, printable(f"cryptobench: {'; '.join(parts)}: exit 1")


def _counted(n: int, noun: str, verb: str, names: list[str]) -> str:
    shown = ", ".join(names[:NAMED]) + (", …" if len(names) > NAMED else "")
    return f"{n} {noun}{'' if n == 1 else 's'} {verb} ({shown})"
