"""python:pqcrypto (PyPI pqcrypto, Backbone's Rust crates): what it offers, the variants it cannot take
answered `unsupported` (no seed or randomness input), a round trip through its own keys, malformed
inputs `rejected`, one bench per operation. Its known answers (HQC v5.0.0 KAT, ACVP SLH-DSA sigVer)
run in test_vectors.py."""

from __future__ import annotations

from functools import partial

import pytest

from cbdriver import inputs, load_provider

from . import ask
from .test_bench import SEED

PROVIDER = load_provider("python:pqcrypto")
MESSAGE = inputs.message(SEED, 32).hex()


request = partial(ask.request, PROVIDER)
case = partial(ask.case, PROVIDER)


def test_offers_hqc_2025_and_every_slh_dsa_set():
    hello = request({"cmd": "hello", "protocol": 5})
    assert {a for a in hello["offers"] if a.startswith("hqc-")} == {"hqc-1", "hqc-3", "hqc-5"}
    assert len([a for a in hello["offers"] if a.startswith("slh-dsa-")]) == 12
    assert hello["library_version"].startswith("pqcrypto 1.0.0")


def test_hqc_round_trip_and_what_it_cannot_take():
    kp = request({"cmd": "keypair", "alg": "hqc-1"})
    assert (len(kp["public"]), len(kp["private"])) == (2 * 2241, 2 * 2321)
    out = bytes.fromhex(case("hqc-1", "encaps", public=kp["public"])["out"])
    ct, ss = out[:4433], out[4433:]
    assert len(ss) == 32
    assert case("hqc-1", "decaps", private=kp["private"], msg=ct.hex())["out"] == ss.hex()
    assert case("hqc-1", "encaps", public=kp["public"], m="00" * 16).get("unsupported")
    assert case("hqc-1", "decaps", private=kp["private"], msg="00" * 10)["rejected"] is True


def test_slh_dsa_signs_verifies_and_refuses_what_it_has_no_input_for():
    alg = "slh-dsa-sha2-128f"
    kp = request({"cmd": "keypair", "alg": alg})
    sig = case(alg, "sign", private=kp["private"], msg=MESSAGE, ctx="0102")["out"]
    assert case(alg, "verify", public=kp["public"], msg=MESSAGE, sig=sig, ctx="0102")["out"] == "01"
    assert case(alg, "verify", public=kp["public"], msg=MESSAGE, sig=sig)["rejected"] is True
    assert case(alg, "verify", public=kp["public"], msg=MESSAGE, sig=sig[:-2], ctx="0102")["rejected"] is True
    assert case(alg, "sign", private=kp["private"], msg=MESSAGE, deterministic=True).get("unsupported")
    assert case(alg, "keygen", seed="00" * 48).get("unsupported")


@pytest.mark.parametrize("alg, op, size, length", [
    ("hqc-1", "keygen", 0, 2241), ("hqc-1", "encaps", 0, 4433 + 32), ("hqc-1", "decaps", 0, 32),
    ("slh-dsa-sha2-128f", "sign", 32, 17088), ("slh-dsa-sha2-128f", "verify", 32, 1),
])  # fmt: skip
def test_one_bench_per_operation(alg, op, size, length):
    req = {"cmd": "bench", "alg": alg, "op": op, "size": size, "chunk": 0, "seed": SEED, "batch": 1}
    resp = request({**req, "target_ns": 0, "warmup_ns": 0, "samples": 2})
    assert resp["ok"], resp
    assert len(resp["samples_ns"]) == 2
    assert int(resp["checksum"].split(":")[0], 16) == length
