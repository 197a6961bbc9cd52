"""asmcrypto.js and jsrsasign (issue 36) through `cryptobench verify`, as a user runs it: one verify
of js:asmcrypto and js:jsrsasign beside js:node (the differential peer) on a few algorithms, shared by
the tests below. asmcrypto.js passes every known answer and agrees with node:crypto; jsrsasign passes
RSA-PSS and is failed on RSA PKCS#1 v1.5 with the Wycheproof case it accepts (ShortPadding), which
the command names and exits 1 for. The drivers' native tests pin the rest (drivers/js/test).
"""

import json

import pytest

from tests.conftest import run_cli

ALGS = "aes-128-gcm,aes-128-cbc,aes-128-ctr,rsa-2048-pss,rsa-2048-pkcs1"


@pytest.fixture(scope="module")
def verified(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("jslibs")
    out = tmp / "verify.json"
    r = run_cli("verify", "--provider", "js:asmcrypto,js:jsrsasign,js:node", "--alg", ALGS, "--inputs", "20",
                "--db", tmp / "db.sqlite", "--json", out, timeout=300)  # fmt: skip
    return r, json.loads(out.read_text())


def _result(doc, provider, alg):
    (r,) = [x for x in doc["results"] if x["provider"] == provider and x["alg"] == alg]
    return r


def test_asmcrypto_passes_and_agrees_with_node(verified):
    _, doc = verified
    for alg in ("aes-128-gcm", "aes-128-cbc", "aes-128-ctr"):
        r = _result(doc, "js:asmcrypto", alg)
        assert r["status"] == "passed", r
        assert r["failed"] == 0 and r["passed"] >= 20, r
        assert r["differential"]["disagreements"] == 0 and r["differential"]["agreed"] > 0, r
        assert "js:node" in r["differential"]["peers"], r


def test_jsrsasign_pss_passes_and_pkcs1_is_failed_with_the_case(verified):
    proc, doc = verified
    assert _result(doc, "js:jsrsasign", "rsa-2048-pss")["status"] == "passed"
    pkcs1 = _result(doc, "js:jsrsasign", "rsa-2048-pkcs1")
    assert pkcs1["status"] == "failed"
    assert "rsa_signature_2048_sha256_test.json#243" in pkcs1["detail"]
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "js:jsrsasign rsa-2048-pkcs1: failed: vector wycheproof/rsa_signature_2048_sha256_test.json#243" in (
        proc.stdout + proc.stderr
    )
    assert "Traceback" not in proc.stderr
