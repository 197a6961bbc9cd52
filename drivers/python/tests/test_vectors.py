"""Every case in build/cases/<alg>.jsonl for every algorithm each provider offers, through the
same case executor the `verify` request uses, judged by the rules in docs/protocol.md (appendix)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from cbdriver import PROVIDERS, load_provider, protocol

REPO_ROOT = Path(__file__).resolve().parents[3]
ANSWER_FIELDS = ("expect", "out", "cmp")
# Offered algorithms the shared vectors (Wycheproof, kat/basic.json) have no file for yet: no case
# file is exported for them. test_pk.py checks them with RFC vectors and a self-cross-check instead.
NO_SHARED_VECTORS = {
    "ed448",
    "x448",
    "hqc-5",  # vectors/pqc-kat has HQC-1 and -3 only; test_pqcrypto.py round-trips it
    *(f"rsa-{n}" for n in (2048, 3072, 4096)),
    *(f"rsa-{n}-{p}" for n in (3072, 4096) for p in ("pss", "pkcs1", "oaep")),
}


def cases_dir() -> Path:
    """$CRYPTOBENCH_CASES, default <repo>/build/cases."""
    return Path(os.environ.get("CRYPTOBENCH_CASES") or REPO_ROOT / "build" / "cases")


EXPORT_COMMAND = f"cd {REPO_ROOT} && .venv/bin/python -m cryptobench.verify.vectors.export {cases_dir()}"


def judge(case: dict, result: dict) -> str | None:
    """None when `result` is right for `case`, else why not (protocol.md, appendix)."""
    if result.get("id") != case["id"]:
        return f"result id {result.get('id')!r} does not echo the case id"
    if "error" in result:
        return f"driver error: {result['error']}"
    expect, rejected, out = case["expect"], bool(result.get("rejected")), result.get("out")

    def matches() -> bool:
        got = out.lower()
        return got.startswith(case["out"]) if case.get("cmp") == "prefix" else got == case["out"]

    if expect == "acceptable":
        return None
    if expect == "invalid":
        if rejected or (out is not None and case.get("out") is not None and not matches()):
            return None
        return "accepted an invalid input"
    if rejected:
        return "rejected a valid input"
    if out is None:
        return "no output"
    if not matches():
        return f"output {out[:32]}... differs from expected {case['out'][:32]}..."
    return None


def load_cases(alg: str) -> list[dict]:
    directory = cases_dir()
    if not directory.is_dir():
        pytest.fail(f"no cases directory {directory}; create it with: {EXPORT_COMMAND}")
    path = directory / f"{alg}.jsonl"
    if not path.is_file() and alg in NO_SHARED_VECTORS:
        pytest.skip(f"no shared vectors for {alg} (see test_pk.py)")
    if not path.is_file():
        pytest.fail(f"no cases for offered algorithm {alg} ({path}); regenerate with: {EXPORT_COMMAND}")
    with open(path, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    assert cases, f"{path} is empty"
    return cases


# Case operations a provider's API has no input for, answered `unsupported` (its notes say why):
# pqcrypto takes no seed and no randomness (keygen from a seed, deterministic signing, encaps with m)
CANNOT_TAKE = {"python:pqcrypto": {"keygen", "sign", "encaps"}}

# python:ref's pure-Python SLH-DSA signs in a second or more: its 128-bit sets here, all of them with
# CRYPTOBENCH_SLOW_TESTS=1 (and in `cryptobench verify`)
SLOW = os.environ.get("CRYPTOBENCH_SLOW_TESTS") == "1"


def _quick(pid: str, alg: str) -> bool:
    return SLOW or pid != "python:ref" or alg.endswith("-128f")


PAIRS = [
    (pid, alg)
    for pid in sorted(PROVIDERS)
    for alg in load_provider(pid).offers
    if alg != "noop" and _quick(pid, alg)
]


@pytest.mark.parametrize(("provider_id", "alg"), PAIRS)
def test_vectors(provider_id, alg):
    provider = load_provider(provider_id)
    cases = load_cases(alg)
    # the expected answers are not sent, as in the orchestrator's verify request
    request = {
        "cmd": "verify",
        "alg": alg,
        "cases": [{k: v for k, v in c.items() if k not in ANSWER_FIELDS} for c in cases],
    }
    response = protocol.handle(provider, request)
    assert response["ok"], response
    assert len(response["results"]) == len(cases)
    allowed = CANNOT_TAKE.get(provider_id, set())
    failures = [
        f"{c['id']}: {why}"
        for c, r in zip(cases, response["results"], strict=True)
        if not (r.get("unsupported") and c.get("op") in allowed) and (why := judge(c, r)) is not None
    ]
    assert not failures, f"{len(failures)} of {len(cases)} cases failed:\n" + "\n".join(failures[:20])
    assert any(not r.get("unsupported") for r in response["results"]), "every case unsupported: none checked"


def test_verify_rejects_unoffered_alg():
    response = protocol.handle(
        load_provider("python:hashlib"), {"cmd": "verify", "alg": "aes-128-gcm", "cases": []}
    )
    assert response["ok"] is False and "not offered" in response["error"]


def test_verify_case_errors_stay_per_case():
    provider = load_provider("python:cryptography")
    cases = [
        {"id": "a", "op": "seal", "key": "00" * 16, "iv": "00" * 12, "aad": "", "msg": "zz"},
        {"id": "b", "op": "hash", "msg": ""},
        {"id": "c", "op": "open", "key": "00" * 16, "iv": "00" * 12, "aad": "", "msg": "00" * 16},
        {"id": "d", "op": "seal", "key": "00" * 16, "iv": "00" * 12, "aad": "", "msg": ""},
    ]
    response = protocol.handle(provider, {"cmd": "verify", "alg": "aes-128-gcm", "cases": cases})
    assert response["ok"], response
    a, b, c, d = response["results"]
    assert "error" in a and "\n" not in a["error"]
    assert "error" in b
    assert c == {"id": "c", "rejected": True}
    assert d == {"id": "d", "out": "58e2fccefa7e3061367f1d57a4e7455a"}  # AES-128-GCM, zero key/nonce, empty


def test_judge_itself():
    valid = {"id": "x", "expect": "valid", "cmp": "equal", "out": "abcd"}
    assert judge(valid, {"id": "x", "out": "abcd"}) is None
    assert judge(valid, {"id": "x", "out": "abce"}) is not None
    assert judge(valid, {"id": "x", "rejected": True}) is not None
    assert judge(valid, {"id": "x", "error": "boom"}) is not None
    assert judge(valid, {"id": "y", "out": "abcd"}) is not None
    prefix = {**valid, "cmp": "prefix"}
    assert judge(prefix, {"id": "x", "out": "abcdef"}) is None
    assert judge(prefix, {"id": "x", "out": "abce00"}) is not None
    invalid = {"id": "x", "expect": "invalid", "cmp": "equal", "out": "abcd"}
    assert judge(invalid, {"id": "x", "rejected": True}) is None
    assert judge(invalid, {"id": "x", "out": "0000"}) is None
    assert judge(invalid, {"id": "x", "out": "abcd"}) is not None
    assert judge({**invalid, "out": None}, {"id": "x", "out": "0000"}) is not None
    acceptable = {"id": "x", "expect": "acceptable", "cmp": "equal", "out": "abcd"}
    assert judge(acceptable, {"id": "x", "rejected": True}) is None
    assert judge(acceptable, {"id": "x", "error": "boom"}) is not None
