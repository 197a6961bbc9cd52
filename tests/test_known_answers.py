"""Known answers judged per provider (run/known_answers.py), against stub drivers: a library whose API
takes none of an algorithm's cases is not failed as if it answered wrongly; one that answers wrongly is."""

from __future__ import annotations

from cryptobench.core import algorithms
from cryptobench.run import known_answers
from cryptobench.verify.vectors import cases_for


class StubDriver:
    def __init__(self, answer):
        self.answer = answer

    def alive(self) -> bool:
        return True

    def request(self, msg: dict, timeout: float) -> dict:
        return {"ok": True, "results": [{"id": c["id"], **self.answer(c)} for c in msg["cases"]]}


class StubDrivers:
    def __init__(self, answer, ops):
        self.driver, self.ops = StubDriver(answer), ops

    def offered(self, pid: str, alg: str) -> list[str]:
        return self.ops

    def live(self, pid: str) -> StubDriver:
        return self.driver


def check(answer, alg="slh-dsa-sha2-192f"):
    a = algorithms.get(alg)
    rec, _ = known_answers.check(StubDrivers(answer, list(a.ops)), "stub:lib", a, None, 5)
    return rec


def test_every_case_unsupported_leaves_a_public_key_algorithm_to_cross_verification():
    rec = check(lambda c: {"unsupported": "no seeded key generation"})
    assert len(cases_for("slh-dsa-sha2-192f")) == rec.skipped == 20
    assert (rec.status, rec.detail) == ("no-vectors", "no known answer it could take (20 unsupported)")


def test_every_case_unsupported_leaves_a_symmetric_algorithm_unverified():
    rec = check(lambda c: {"unsupported": "no such mode"}, alg="ascon-hash256")
    assert rec.status == "unverified" and rec.passed == 0 and rec.skipped == len(cases_for("ascon-hash256"))


def test_a_wrong_answer_among_unsupported_ones_still_fails_with_its_case():
    def answer(c):
        return {"out": "00" * 32} if c["op"] == "keygen" else {"unsupported": "no context"}

    rec = check(answer)
    keygens = [c for c in cases_for("slh-dsa-sha2-192f") if c.op == "keygen"]
    assert rec.status == "failed" and rec.failed == len(keygens) and rec.skipped == 20 - len(keygens), rec
    assert rec.detail.startswith("failed: vector acvp/SLH-DSA-keyGen-FIPS205#"), rec.detail
