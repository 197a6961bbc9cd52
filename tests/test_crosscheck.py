"""Cross-verification between real drivers, and that it catches a liar.

A corrupted signature must be refused by every other provider; a ciphertext
decapsulated under the wrong key must not give the encapsulated secret. A
provider whose signatures do not verify elsewhere, or whose decapsulation
ignores the key, is failed for the algorithm.
"""

import pytest

from cryptobench.drivers.client import DriverProcess
from cryptobench.drivers.registry import Registry
from cryptobench.verify import cross_checks as crosscheck


@pytest.fixture(scope="module")
def drivers():
    registry = Registry()
    running = {}
    for pid in ("c:openssl", "go:stdlib", "python:cryptography", "rust:rustcrypto"):
        p = registry.get(pid)
        ok, why = registry.usable(p)
        assert ok, f"{pid}: {why}"
        d = DriverProcess(pid, p.argv(), env=registry.env_for(p))
        d.hello()
        running[pid] = d
    yield running
    for d in running.values():
        d.close()


def peers(drivers, ids):
    return {pid: (lambda msg, d=drivers[pid]: d.request(msg, 120)) for pid in ids}


def test_signatures_verify_across_providers_and_corruptions_are_caught(drivers):
    records = crosscheck.crosscheck("ecdsa-p256", peers(drivers, ["c:openssl", "go:stdlib", "python:cryptography"]))
    checks = {(r.producer, r.consumer, r.check): r.passed for r in records}
    assert len(checks) == 3 * 2 * 2  # every ordered pair: verifies, corrupted rejected
    assert all(checks.values()), [r for r in records if not r.passed]
    assert checks[("go:stdlib", "c:openssl", "corrupted signature rejected")]


def test_kem_ciphertexts_decapsulate_across_providers_and_wrong_keys_are_caught(drivers):
    records = crosscheck.crosscheck("ml-kem-768", peers(drivers, ["go:stdlib", "rust:rustcrypto"]))
    names = {r.check for r in records}
    assert names == {"decapsulates to the same key", "wrong key gives another key"}
    assert all(r.passed for r in records), [r for r in records if not r.passed]


def test_a_provider_whose_signatures_are_corrupt_is_failed(drivers):
    honest = peers(drivers, ["c:openssl", "go:stdlib"])
    real = honest["go:stdlib"]

    def liar(msg):  # signs, then hands out a signature with one bit flipped
        resp = real(msg)
        if msg.get("cmd") == "verify" and msg["cases"][0]["op"] == "sign":
            resp["results"][0]["out"] = crosscheck._flip(resp["results"][0]["out"])
        return resp

    records = crosscheck.crosscheck("ecdsa-p256", {"c:openssl": honest["c:openssl"], "go:liar": liar})
    bad = crosscheck.failed_providers(records, reference="c:openssl")
    assert set(bad) == {"go:liar"} and "signature verifies under c:openssl failed" in bad["go:liar"]


def test_a_decapsulation_that_ignores_the_key_is_caught(drivers):
    go = peers(drivers, ["go:stdlib"])["go:stdlib"]
    rust = peers(drivers, ["rust:rustcrypto"])["rust:rustcrypto"]
    remembered = {}

    def careless(msg):  # answers every decapsulation with the last secret it saw encapsulated
        if msg.get("cmd") == "verify" and msg["cases"][0]["op"] == "decaps" and "k" in remembered:
            return {"ok": True, "results": [{"id": msg["cases"][0]["id"], "out": remembered["k"]}]}
        return rust(msg)

    def spy(msg):
        resp = go(msg)
        if msg.get("cmd") == "verify" and msg["cases"][0]["op"] == "encaps":
            remembered["k"] = resp["results"][0]["out"][-64:]
        return resp

    records = crosscheck.crosscheck("ml-kem-768", {"go:stdlib": spy, "rust:careless": careless})
    wrong = [r for r in records if r.check == "wrong key gives another key" and r.consumer == "rust:careless"]
    assert wrong and not any(r.passed for r in wrong)
    assert "rust:careless" in crosscheck.failed_providers(records, reference="go:stdlib")


def test_tls_hybrid_shares_cross_verify_with_their_64_byte_secrets():
    """x25519mlkem768 between OpenSSL's pinned build and circl: the key share, the server's share and
    the 64-byte ML-KEM ‖ X25519 secret agree both ways (split at the catalogue's size, not 32 bytes),
    and each refuses or misses under the other's key. Skipped where either is not built."""
    registry, running = Registry(), {}
    for pid in ("c:openssl@3.6.3", "go:circl"):
        p = registry.get(pid)
        ok, why = registry.usable(p)
        if not ok:
            pytest.skip(f"{pid}: {why}")
        running[pid] = DriverProcess(pid, p.argv(), env=registry.env_for(p))
    try:
        records = crosscheck.crosscheck("x25519mlkem768", peers(running, list(running)))
    finally:
        for d in running.values():
            d.close()
    checks = {(r.producer, r.consumer, r.check): r.passed for r in records}
    assert len(checks) == 2 * 2, records  # both ordered pairs: same key, wrong key
    assert all(checks.values()), [r for r in records if not r.passed]


def test_pipelined_peers_give_the_same_records_as_one_request_at_a_time(drivers):
    """Every provider asks its own driver all it has to do toward the others in one pipelined go
    (cross_checks._toward_each): the records are the ones sequential requests give, pair for pair."""
    from cryptobench.verify.differential import Pipelined

    def pipelined(pid):
        d = drivers[pid]
        return Pipelined(lambda msg: d.request(msg, 120), lambda msgs: d.pipeline(msgs, 120))

    three, two = ["c:openssl", "go:stdlib", "rust:rustcrypto"], ["go:stdlib", "rust:rustcrypto"]
    for alg, ids in (("x25519", three), ("ed25519", three), ("ml-kem-768", two)):
        one = crosscheck.crosscheck(alg, peers(drivers, ids))
        many = crosscheck.crosscheck(alg, {pid: pipelined(pid) for pid in ids})
        key = [(r.producer, r.consumer, r.check, r.passed) for r in one]
        assert key == [(r.producer, r.consumer, r.check, r.passed) for r in many]
        assert all(r.passed for r in many), [r for r in many if not r.passed]
        assert len({(r.producer, r.consumer) for r in many}) == len(ids) * (len(ids) - 1)


def test_the_reference_of_a_dispute_is_the_provider_that_agrees_with_the_others():
    """A wrong signer that sorts first (no baseline, no c:openssl) must not become the reference and
    get the right ones failed; with one dispute of two, the trusted order decides."""
    rec = crosscheck.CrossRecord

    def exchanges(wrong: str, others: list[str]) -> list:
        out = []
        for o in others:
            out += [
                rec("ed25519", wrong, o, "verify", False, "rejected"),
                rec("ed25519", o, wrong, "verify", False, "x"),
            ]
        out += [rec("ed25519", a, b, "verify", True) for a in others for b in others if a != b]
        return out

    peers = ["a:wrong", "b:right", "c:right"]
    records = exchanges("a:wrong", ["b:right", "c:right"])
    ref = crosscheck.reference(records, peers, trusted=[])
    assert ref in ("b:right", "c:right")
    assert set(crosscheck.failed_providers(records, ref)) == {"a:wrong"}
    two = exchanges("a:wrong", ["b:right"])
    assert crosscheck.reference(two, ["a:wrong", "b:right"], trusted=["b:right"]) == "b:right"
    # one against one with nothing to decide it: no reference, and neither is blamed (both disputed)
    assert crosscheck.reference(two, ["a:wrong", "b:right"], trusted=[]) is None
    assert crosscheck.reference(two, ["a:wrong", "b:right"], trusted=[("a:wrong", "b:right")]) is None
    assert crosscheck.failed_providers(two, None) == {}
    assert set(crosscheck.disputed(two)) == {"a:wrong", "b:right"}
    # two right ones tied with each other do not make a dispute: either is the reference
    assert crosscheck.reference(records, peers, trusted=[("b:right", "c:right")]) in ("b:right", "c:right")


def test_two_apis_of_one_library_are_one_voice_in_a_dispute():
    """python:pqcrypto's HQC-5 against BouncyCastle's JCA provider and its lightweight API, no known
    answer on either side: two APIs of one library agreeing with each other is one library, not a
    majority of two, so neither side is the reference and nobody is failed (both disputed)."""
    rec = crosscheck.CrossRecord
    peers = ["java:bouncycastle", "java:bouncycastle-lw", "python:pqcrypto"]
    records = [rec("hqc-5", "java:bouncycastle", "java:bouncycastle-lw", "decaps", True),
               rec("hqc-5", "java:bouncycastle-lw", "java:bouncycastle", "decaps", True)]  # fmt: skip
    for bc in peers[:2]:
        records += [rec("hqc-5", bc, "python:pqcrypto", "decaps", False, "other secret"),
                    rec("hqc-5", "python:pqcrypto", bc, "decaps", False, "other secret")]  # fmt: skip
    # counted as three voices, the library's two APIs outvote the third provider
    assert crosscheck.reference(records, peers, trusted=[], family=lambda p: p) == "java:bouncycastle"
    assert crosscheck.reference(records, peers, trusted=[]) is None  # one family (witness.family): one voice
    assert set(crosscheck.disputed(records)) == set(peers)
    # a known answer still decides: the trusted side is the reference
    assert crosscheck.reference(records, peers, trusted=["python:pqcrypto"]) == "python:pqcrypto"
