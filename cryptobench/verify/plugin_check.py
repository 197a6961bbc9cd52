"""`cryptobench plugin check`: which algorithms to check, and the one-line verdict read last.

The checks are the commands' own: `verify` (known answers, Monte Carlo, differential inputs beside
c:openssl) and check-driver's rules (drivercheck: the loop, and every offered cell's output before
and after its samples, as `run` checks each response). This module only picks and sums up.
"""

from __future__ import annotations

import fnmatch
import re

from cryptobench.core.errors import UserError
from cryptobench.core.textsafe import printable
from cryptobench.verify.driver_rules import Violation

LONGEST_REASON = 200  # one reason per algorithm in a verdict that stays one line
_CHECKSUM = re.compile(r" \([0-9a-f]{8}:[0-9a-f]{16}\)")  # the figures behind "differs": in the lines above


def chosen(pid: str, offered: list[str], globs: list[str]) -> list[str]:
    """The offered algorithms the `--alg` globs pick (all of them without); a glob picking none is refused."""
    if not offered:
        raise UserError(f"{pid} offers no algorithm to check (only noop)")
    if not globs:
        return offered
    for g in globs:
        if not any(fnmatch.fnmatchcase(a, g) for a in offered):
            raise UserError(f"--alg {g!r} matches nothing {pid} offers ({', '.join(offered)})")
    return [a for a in offered if any(fnmatch.fnmatchcase(a, g) for g in globs)]


def _short(why: str) -> str:
    why = _CHECKSUM.sub("", printable(why)).removeprefix("failed: ")
    return why if len(why) <= LONGEST_REASON else why[: LONGEST_REASON - 1] + "…"


def verdict(pid: str, algs: list[str], results: list[dict] | None, violations: list[Violation]) -> tuple[bool, str]:
    """(passed, the last line): what failed, by algorithm, or how much was verified.

    `results`: verify's records of `pid` (its --json), None when verify could not run; `violations`:
    check-driver's, those about one cell (`<alg> <op> of <n> B: ...`) counted against its algorithm."""
    reasons: dict[str, list[str]] = {}
    unverified = []
    for r in results or []:
        if r.get("status") == "failed":
            reasons.setdefault(r["alg"], []).append(_short(r.get("detail") or "failed"))
        elif r.get("status") == "unverified":
            unverified.append(r["alg"])
    for v in violations:
        alg, _, rest = v.message.partition(" ")
        if v.rule == "last-output" and alg in algs and " B: " in rest:
            reasons.setdefault(alg, []).append(_short(rest))
        else:
            reasons.setdefault(f"driver rule {v.rule}", []).append(_short(v.message))
    if results is None:
        reasons = {"verify": ["could not run (its error is above)"], **reasons}
    if reasons:
        parts = [f"{what} ({why[0]}" + (f"; {len(why) - 1} more" if len(why) > 1 else "") + ")"
                 for what, why in reasons.items()]  # fmt: skip
        return False, f"{pid}  FAILED: {', '.join(parts)}"
    verified = len(algs) - len(unverified)
    line = f"{pid}  ok: {verified} algorithm{'s' if verified != 1 else ''} verified"
    if unverified:
        line += f", {len(unverified)} unverified (timed, never compared: {', '.join(unverified)})"
    return True, line + ", driver rules kept"
