"""A provider's known answers for one algorithm: the published vectors sent in one `verify` request,
and when that request kills the driver, the one case that kills it alone (crash replay)."""

from __future__ import annotations

import time

from cryptobench.core.algorithms import Algorithm
from cryptobench.core.errors import DriverError
from cryptobench.drivers.interface import Driver, Drivers
from cryptobench.store.model import VerifyRecord
from cryptobench.verify import conformance, op_state
from cryptobench.verify.answers import UNSUPPORTED, case_verdicts
from cryptobench.verify.vectors import cases_for, source_of, strip_expected

REPLAY_SECONDS = 120.0  # naming the case that crashes a driver is worth this much of a run, not more


def crashed(e: DriverError) -> bool:
    """The driver died by itself (a signal, an exit), rather than being killed after a timeout."""
    return str(e).startswith("driver ")


def check(drivers: Drivers, pid: str, a: Algorithm, vectors_dir: str | None,
          timeout: float) -> tuple[VerifyRecord, dict[str, list[int]]]:  # fmt: skip
    """The record of `pid`'s known answers of `a`, and per operation the message lengths it passed
    (what the floor counts, conformance.py)."""
    known: dict[str, list[int]] = {}
    cases = cases_for(a.name, vectors_dir)
    offered_ops = set(drivers.offered(pid, a.name))
    # handshake cases check a protocol as a whole: they belong to no single step in `offers`
    whole = {"handshake"} if a.kind == "protocol" else set()
    cases = [c for c in cases if c.op in offered_ops or c.op in whole]
    if not cases:
        if a.public_key:  # cross-verification decides (verifier.Verifier._crossverify)
            return VerifyRecord(pid, a.name, "no-vectors", detail="no test vectors for this algorithm"), known
        detail = "failed: no test vectors for this algorithm and operation"
        return VerifyRecord(pid, a.name, "failed", detail=detail), known
    try:  # through the pool: a driver an earlier algorithm killed is restarted, or said broken
        driver = drivers.live(pid)
    except DriverError as e:
        return VerifyRecord(pid, a.name, "failed", detail=f"failed: {e}"), known
    try:
        resp = driver.request({"cmd": "verify", "alg": a.name, "cases": strip_expected(cases)}, timeout)
    except DriverError as e:
        return _after_fault(drivers, driver, pid, a.name, cases, e, timeout), known
    results = resp.get("results")
    if not isinstance(results, list) or len(results) != len(cases):
        detail = "failed: protocol: verify returned the wrong number of results"
        return VerifyRecord(pid, a.name, "failed", detail=detail), known
    rec = VerifyRecord(pid, a.name, "passed")
    sources: dict[str, list[int]] = {}  # source -> [passed, failed, skipped]
    for case, why in case_verdicts(cases, results):
        tally = sources.setdefault(source_of(case), [0, 0, 0])
        if why is UNSUPPORTED:
            rec.skipped += 1  # e.g. deterministic ML-DSA signing the library does not expose
            tally[2] += 1
            continue
        op_state.count_answer(rec, case.op, why, case.id)  # per operation: `leak` checks one (op_state.py)
        if why is None:
            rec.passed += 1
            tally[0] += 1
            if conformance.lengthless(a):  # public keys, HKDF: every passed answer counts, whatever its length
                known.setdefault(case.op, []).append(0)
            elif "msg" in case.fields and case.expect == "valid":
                known.setdefault(case.op, []).append(conformance.message_length(case.op, case.fields["msg"]))
        else:
            rec.failed += 1
            tally[1] += 1
            if not rec.detail:
                rec.detail = f"failed: vector {case.id}: {why}"
                rec.conformance["first_failure"] = {"id": case.id, "source": source_of(case), "why": why,
                                                    "comment": case.extra.get("comment", "")}  # fmt: skip
    rec.conformance["sources"] = sources
    if rec.failed:
        rec.status = "failed"
    elif rec.passed == 0 and rec.skipped:
        # every case needs an input the library's API does not take (a seed, a context, deterministic
        # signing): nothing is known of its answers, which is not a wrong answer; as with no vectors,
        # cross-verification with other providers is what can show it right (run/verifier.py)
        rec.status = "no-vectors" if a.public_key else "unverified"
        rec.detail = f"no known answer it could take ({rec.skipped} unsupported)"
    elif rec.passed == 0:
        rec.status, rec.detail = "failed", "failed: no case passed"
    return rec, known


def _after_fault(drivers: Drivers, driver: Driver, pid: str, alg: str, cases: list, e: DriverError,
                 timeout: float) -> VerifyRecord:  # fmt: skip
    """The verify request failed: when it killed the driver, the record names the case that kills it alone."""
    if driver.alive():
        return VerifyRecord(pid, alg, "failed", detail=f"failed: verify: {e}")
    culprit = _crashing_case(drivers, pid, alg, cases, str(e), timeout) if crashed(e) else None
    if culprit is None:
        return VerifyRecord(pid, alg, "failed", detail=f"failed: verify: {e}")
    case, crash = culprit
    why = f"{crash.split(': ', 1)[0]} on this case alone"  # "driver crashed (SIGABRT)"; the rest in "crash"
    first = {"id": case.id, "source": source_of(case), "why": why, "crash": crash,
             "comment": case.extra.get("comment", "")}  # fmt: skip
    return VerifyRecord(pid, alg, "failed", failed=1, detail=f"failed: vector {case.id}: {why}",
                        conformance={"first_failure": first})  # fmt: skip


def _crashing_case(drivers: Drivers, pid: str, alg: str, cases: list, why: str, timeout: float) -> tuple | None:
    """After a verify request killed the driver: the one case that kills it alone, and how, found by
    halving the cases on a fresh driver after each crash (issue 14's crash needed this by hand).
    None when no half crashes alone (cases that crash only together), or after REPLAY_SECONDS."""
    deadline = time.monotonic() + REPLAY_SECONDS
    while len(cases) > 1:
        half = len(cases) // 2
        for part in (cases[:half], cases[half:]):
            if time.monotonic() > deadline or drivers.why_broken(pid):
                return None
            crash = _crash_of(drivers, pid, alg, part, timeout)
            if crash is not None:
                cases, why = part, crash
                break
        else:
            return None
    return cases[0], why


def _crash_of(drivers: Drivers, pid: str, alg: str, cases: list, timeout: float) -> str | None:
    """How a verify request of `cases` ended the driver (a fresh one, the last having crashed); None
    when it answered, or when no driver can be had (the provider is then broken)."""
    try:
        driver = drivers.live(pid)
    except DriverError:
        return None
    try:
        driver.request({"cmd": "verify", "alg": alg, "cases": strip_expected(cases)}, timeout)
    except DriverError as e:
        if not driver.alive():
            return str(e) if crashed(e) else None  # a hang is not followed: each would cost a timeout
    return None
