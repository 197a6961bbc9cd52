"""What verification found per operation of a provider's algorithm: its record's `conformance["ops"]`,
{op: {"passed", "failed", "cross_passed", "cross_failed", "first_failure"}} — the known answers and the
cross-checks each operation took part in. A record fails as a whole (a failed library is never
timed); `leak` checks one operation, so it asks here whether the failures lie in that operation or one
its inputs come from (`blocking`), and says what it checked despite them (docs/leak.md § Verified
first).

A failure whose operation is not known (a driver fault, a protocol error, Monte Carlo, differential
inputs) is not in `ops`: the record's detail then matches none of them, and `blocking` refuses."""

from __future__ import annotations

from typing import Protocol


class VerifyRecord(Protocol):
    """What this module reads and writes of a verification record (store.model.VerifyRecord, which
    sits in a higher layer: the verifier's record is passed down, never imported here)."""

    status: str
    failed: int
    detail: str
    conformance: dict


KEY = "ops"
# the operation each role of a cross-check runs: (producer's, consumer's) per algorithm kind
# (cross_checks.py: the producer signs / encapsulates / encrypts, the consumer verifies / decapsulates
# / decrypts; both derive; an RSA key pair is made by the producer and signed with by the consumer)
CROSS_ROLES = {"sig": ("sign", "verify"), "kex": ("derive", "derive"), "kem": ("encaps", "decaps"),
               "pke": ("encrypt", "decrypt"), "keygen": ("keygen", "sign")}  # fmt: skip
KEYS = "keygen"  # key pairs: what every public-key check's inputs start from


def _entry(rec: VerifyRecord, op: str) -> dict:
    return rec.conformance.setdefault(KEY, {}).setdefault(op, {"passed": 0, "failed": 0})


def count_answer(rec: VerifyRecord, op: str, why: str | None, case_id: str) -> None:
    """One known-answer case of `op`: passed (why None) or failed."""
    e = _entry(rec, op)
    if why is None:
        e["passed"] += 1
    else:
        e["failed"] += 1
        e.setdefault("first_failure", f"vector {case_id}: {why}")


def cross_op(kind: str, check: str, role: int) -> str:
    """The operation a cross-check exercised of its producer (role 0) or consumer (role 1)."""
    if "key pair" in check:  # "make a key pair", "make a key pair and a signature": keys come first
        return KEYS
    return CROSS_ROLES.get(kind, ("", ""))[role] or check


def count_crosschecks(rec: VerifyRecord, kind: str, records: list, pid: str) -> None:
    """Every cross-check `pid` took part in, counted under the operation it ran in it (a check that
    failed counts against both sides' operations: which side was wrong is the record's detail's
    business, cross_checks.failed_providers)."""
    for r in records:
        for role, who in enumerate((r.producer, r.consumer)):
            if who != pid or (role == 1 and r.producer == r.consumer):
                continue
            e = _entry(rec, cross_op(kind, r.check, role))
            e["cross_passed"] = e.get("cross_passed", 0) + r.passed
            e["cross_failed"] = e.get("cross_failed", 0) + (not r.passed)
            if not r.passed:
                other = r.consumer if role == 0 else r.producer
                with_ = f" with {other}" if other != pid else ""
                e.setdefault("first_failure", f"cross-verification{with_}: {r.check}: {r.detail}")


def localized(rec: VerifyRecord) -> bool:
    """The record failed, and every failure it knows of has its operation: the failed known answers
    are all counted in `ops`, and the failure its detail names is one of theirs or a cross-check's
    (all of which are counted)."""
    ops = rec.conformance.get(KEY) or {}
    if rec.status != "failed" or not ops:
        return False
    if sum(e.get("failed", 0) for e in ops.values()) != rec.failed:
        return False  # a crashing case, a protocol error: failures without an operation
    if any(rec.detail == f"failed: {e.get('first_failure')}" for e in ops.values()):
        return True
    return rec.detail.startswith("failed: cross-verification") and any(e.get("cross_failed") for e in ops.values())


def failing(rec: VerifyRecord) -> dict[str, dict]:
    """The operations that failed something, with their counts."""
    return {op: e for op, e in (rec.conformance.get(KEY) or {}).items()
            if e.get("failed", 0) or e.get("cross_failed", 0)}  # fmt: skip


def blocking(rec: VerifyRecord, needs: set[str]) -> str | None:
    """Why a failed record refuses work on the operations `needs` (one checked operation and those its
    inputs come from), or None when its failures all lie elsewhere."""
    if not localized(rec):
        return f"not verified: {rec.detail or 'failed'}"
    hit = sorted(set(failing(rec)) & needs)
    if hit:
        e = failing(rec)[hit[0]]
        return f"not verified: {hit[0]} fails {e.get('first_failure', '')}".rstrip()
    return None


def verified_on(rec: VerifyRecord, op: str) -> int:
    """Cases `op` passed: known answers and cross-checks."""
    e = (rec.conformance.get(KEY) or {}).get(op) or {}
    return e.get("passed", 0) + e.get("cross_passed", 0)


def summary(rec: VerifyRecord, op: str) -> str:
    """What a check of `op` was done despite, in one line: "verify fails 2 cases (vector ...#6: ...);
    sign verified on 0 known answers and 4 cross-checks"."""
    parts = []
    for other, e in sorted(failing(rec).items()):
        n = e.get("failed", 0) + e.get("cross_failed", 0)
        parts.append(f"{other} fails {n:,} case{'s' * (n != 1)} (first: {e.get('first_failure', '')})")
    e = (rec.conformance.get(KEY) or {}).get(op) or {}
    parts.append(f"{op} verified on {e.get('passed', 0):,} known answers and {e.get('cross_passed', 0):,} "
                 f"cross-checks")  # fmt: skip
    return "; ".join(parts)
