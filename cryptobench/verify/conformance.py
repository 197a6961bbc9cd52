"""What "verified" means: enough cases, at the lengths where implementations go wrong.

A provider's algorithm is *verified* when, for every operation it offers, it passed at least
`MIN_CASES` cases, among them messages of every boundary length (0, 1, block−1, block, block+1,
2·block+1; whole blocks only for ECB and CBC), and at least one known answer. A case is a
published known answer (Wycheproof, NIST CAVP, RFCs, kat/basic.json) or a differential input on
which the provider agreed with at least one other provider (cryptobench/verify/differential.py); the
report names how many of each. An algorithm that falls short is `unverified (N cases)`: it is
timed, but never given a ratio or a verdict against another provider. Any failed case fails it.

Public-key algorithms count known answers and cross-verification checks (every producer × consumer
pair); their messages have no length that matters. Handshakes are checked by their committed
vectors as a whole, and `noop` computes nothing: both are outside the floor.
"""

from __future__ import annotations

from cryptobench.core import algorithms
from cryptobench.core.algorithms import Algorithm
from cryptobench.verify.differential import _HASH_BLOCK

MIN_CASES = 20


def boundary_lengths(a: Algorithm) -> set[int]:
    """The message lengths every verified symmetric operation must have passed."""
    if a.block > 1:
        return {a.block, 2 * a.block, 3 * a.block}
    block = _HASH_BLOCK.get(a.name, 64 if a.name.startswith(("chacha20", "xchacha20")) else 16)
    return {0, 1, block - 1, block, block + 1, 2 * block + 1}


def under_floor(a: Algorithm) -> bool:
    """Whether the floor applies at all (not to handshakes, TLS cells and noop)."""
    return a.kind not in ("protocol", "noop", "tls")


def lengthless(a: Algorithm) -> bool:
    """Public-key algorithms and KDFs: no message length matters, every passed case counts."""
    return a.public_key or a.kind == "kdf"


def message_length(case_op: str, msg_hex: str) -> int:
    n = len(msg_hex) // 2
    return n - algorithms.TAG_LEN if case_op == "open" else n


def lacking_lengths(
    a: Algorithm, ops: list[str], known: dict[str, list[int]], agreed: dict[str, list[int]]
) -> list[int]:
    """The boundary lengths some operation has no case of: what a witness's agreement could add."""
    if lengthless(a):
        return []
    need = boundary_lengths(a)
    return sorted({n for op in ops for n in need - set(known.get(op, [])) - set(agreed.get(op, []))})


def judge_floor(
    a: Algorithm,
    ops: list[str],
    known: dict[str, list[int]],
    agreed: dict[str, list[int]],
    checks: int = 0,
) -> tuple[int, str]:
    """(cases counted, "" when the floor holds, else what is missing).

    `known`: per operation, the message lengths of the known-answer cases passed; `agreed`: the
    lengths of differential inputs agreed with another provider; `checks`: cross-verification
    checks passed (public keys).
    """
    total = sum(len(v) for v in known.values()) + sum(len(v) for v in agreed.values()) + checks
    if lengthless(a):
        return total, "" if total >= MIN_CASES else f"{total} cases, {MIN_CASES} needed"
    missing = []
    need = boundary_lengths(a)
    for op in ops:
        k, d = known.get(op, []), agreed.get(op, [])
        n = len(k) + len(d)
        lacking = sorted(need - set(k) - set(d))
        if n < MIN_CASES:
            missing.append(f"{op}: {n} cases, {MIN_CASES} needed")
        elif lacking:
            missing.append(f"{op}: no case of {', '.join(map(str, lacking))} bytes")
        elif not k and op not in ("decrypt", "open"):
            missing.append(f"{op}: no known answer")
    return total, "; ".join(missing)
