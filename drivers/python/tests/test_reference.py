"""python:ref, the reference provider (PyPI slh-dsa, pure Python): what it offers and says it is, keygen
from a seed checked against FIPS 205's structure, deterministic and hedged signing with a context, one
bench per operation on the cheapest set and malformed inputs coming back `rejected`. Known answers (ACVP)
are in test_vectors.py."""

from __future__ import annotations

import json
from functools import partial

from cbdriver import inputs, load_provider

from . import ask
from .test_bench import SEED, driver

PROVIDER = load_provider("python:ref")
ALG = "slh-dsa-sha2-128f"  # the cheapest set: a signature in about half a second
MESSAGE = inputs.message(SEED, 32).hex()


request = partial(ask.request, PROVIDER)
case = partial(ask.case, PROVIDER, ALG)


def test_offers_the_f_sets_and_says_it_is_a_reference():
    hello = request({"cmd": "hello", "protocol": 5})
    slh = {alg for alg in hello["offers"] if alg.startswith("slh-dsa-")}
    assert slh == {f"slh-dsa-{h}-{n}f" for h in ("sha2", "shake") for n in (128, 192, 256)}
    assert all(hello["offers"][a] == ["keygen", "sign", "verify"] for a in slh)
    assert not any(a.startswith("ascon") for a in hello["offers"]), "ascon 0.0.9 is not SP 800-232"
    assert "correctness, not speed" in hello["library"]
    assert hello["library_version"].startswith("slh-dsa 0.2.5")


def test_keygen_from_a_seed_and_the_keypair_encodings():
    seed = bytes(range(48))
    out = bytes.fromhex(case("keygen", seed=seed.hex())["out"])
    assert len(out) == 32 and out[:16] == seed[32:], "public key = PK.seed ‖ PK.root"
    resp = request({"cmd": "keypair", "alg": ALG})
    pub, priv = bytes.fromhex(resp["public"]), bytes.fromhex(resp["private"])
    assert len(pub) == 32 and len(priv) == 64
    assert priv[32:] == pub, "private key = SK.seed ‖ SK.prf ‖ public key"
    assert case("keygen", seed="00" * 47) == {"id": "x#1", "rejected": True}


def test_deterministic_and_hedged_signing_with_a_context():
    kp = request({"cmd": "keypair", "alg": ALG})
    det = {"private": kp["private"], "msg": MESSAGE, "ctx": "0102", "deterministic": True}
    a, b = case("sign", **det)["out"], case("sign", **det)["out"]
    assert a == b and len(a) == 2 * 17088
    assert case("sign", **{**det, "deterministic": False})["out"] != a
    assert case("verify", public=kp["public"], msg=MESSAGE, sig=a, ctx="0102")["out"] == "01"
    assert case("verify", public=kp["public"], msg=MESSAGE, sig=a)["rejected"] is True
    flipped = bytearray.fromhex(a)
    flipped[len(flipped) // 2] ^= 1
    assert case("verify", public=kp["public"], msg=MESSAGE, sig=flipped.hex(), ctx="0102")["rejected"] is True


def test_malformed_keys_are_rejected():
    assert case("verify", public="00" * 31, msg=MESSAGE, sig="00")["rejected"] is True
    # PK.root does not match the seeds
    assert case("sign", private="00" * 64, msg=MESSAGE)["rejected"] is True
    assert case("sign", private="00" * 63, msg=MESSAGE)["rejected"] is True


def test_one_bench_per_operation():
    for op, size, length in (("keygen", 0, 32), ("sign", 32, 17088), ("verify", 32, 1)):
        req = {"cmd": "bench", "alg": ALG, "op": op, "size": size, "chunk": 0, "seed": SEED, "batch": 1}
        resp = request({**req, "target_ns": 0, "warmup_ns": 0, "samples": 2})
        assert resp["ok"], resp
        assert len(resp["samples_ns"]) == 2 and resp["batch"] == 1
        assert int(resp["checksum"].split(":")[0], 16) == length
        if op == "verify":
            assert resp["checksum"] == resp["checksum_after"] == inputs.checksum(b"\x01")


def test_not_offered_sets_and_the_subprocess():
    r = request({"cmd": "keypair", "alg": "slh-dsa-sha2-128s"})
    assert r["ok"] is False and r["error"].startswith("not offered")
    lines = [json.dumps({"cmd": "hello", "protocol": 5}), json.dumps({"cmd": "bye"})]
    proc = driver("python:ref", "\n".join(lines) + "\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["provider"] == "python:ref"
