"""Falcon and HQC known answers (vectors/pqc-kat, issue 32): the .rsp parser on the vendored files,
`list algorithms`' count, and `cryptobench verify` as a user runs it — Falcon-512 on c:liboqs and
BouncyCastle (one verify, shared), HQC-1 on BouncyCastle (1.87 takes the reference's secret key by
its seed_KEM and derives another key from it: failed with the case id, as the gate reports any
library), and a corrupted known answer failing with its case id.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cryptobench.verify.vectors import cases_for, judge, source_of
from cryptobench.verify.vectors.pqc_kat import (
    FILES,
    PREFIX,
    KatFormatError,
    falcon_detached,
    pqc_kat_cases,
    read_rsp,
)
from tests.conftest import REPO, run_cli

FALCON512 = REPO / "vectors" / FILES["falcon-512"]


def test_counts_per_parameter_set():
    for alg, want in (("falcon-512", 25), ("falcon-1024", 25), ("hqc-1", 25), ("hqc-3", 25)):
        cases = pqc_kat_cases(alg)
        valid = [c for c in cases if c.expect == "valid"]
        assert len(valid) == want, alg
        assert all(source_of(c) == "NIST KAT (submission)" and c.id.startswith(PREFIX) for c in cases)
        assert {c.id for c in cases_for(alg)} >= {c.id for c in cases}  # the verifier runs them
    assert len([c for c in pqc_kat_cases("falcon-512") if c.expect == "invalid"]) == 25
    for alg in ("hqc-5", "hqc-128", "hqc-192", "hqc-256", "ml-kem-768"):
        assert pqc_kat_cases(alg) == []


def test_one_falcon_case_is_the_kat_signature_detached():
    ok, flipped = pqc_kat_cases("falcon-512")[:2]
    assert ok.id == "pqc-kat/falcon512-KAT.rsp#0/verify" and ok.op == "verify" and ok.out == "01"
    assert ok.fields["msg"] == "d81c4d8d734fcbfbeade3d3f8a039faa2a2c9957e835ad55b22e75bf57bb556ac8"
    assert len(ok.fields["public"]) == 2 * 897 and ok.fields["public"].startswith("09")
    # header 0x30+9, the 40-byte nonce from sm[2:42], then the compressed s2 of sm's tail
    sm = read_rsp(FALCON512)[0]["sm"].lower()
    assert ok.fields["sig"] == "39" + sm[4 : 4 + 80] + sm[4 + 80 + 66 + 2 :]
    assert flipped.id.endswith("#0/verify-flipped") and flipped.expect == "invalid"
    assert flipped.fields["sig"] != ok.fields["sig"] and len(flipped.fields["sig"]) == len(ok.fields["sig"])


def test_one_hqc_case_is_decaps_with_the_reference_sk():
    c = pqc_kat_cases("hqc-1")[0]
    assert c.id == "pqc-kat/PQCkemKAT_2321.rsp#0/decaps" and c.op == "decaps"
    assert len(c.fields["private"]) == 2 * 2321 and len(c.fields["msg"]) == 2 * 4433
    assert c.out.startswith("31d476b2a4d41b49") and len(c.out) == 64
    assert judge(c, {"id": c.id, "out": c.out}) is None
    assert "differs" in judge(c, {"id": c.id, "out": "00" * 32})


def test_malformed_files_are_one_clear_error(tmp_path: Path):
    bad = tmp_path / "bad.rsp"
    bad.write_text("# x\n\nseed = 00\n")
    with pytest.raises(KatFormatError, match="before the first 'count'"):
        read_rsp(bad)
    with pytest.raises(KatFormatError, match="header"):
        falcon_detached(bytes([0, 3]) + bytes(40) + b"m" + bytes([0x39, 1, 2]), 1, 9)


def test_list_algorithms_shows_the_kat_count(capsys):
    import argparse

    from cryptobench.cli.commands_tools import cmd_list

    assert cmd_list(argparse.Namespace(what="algorithms")) == 0
    out = capsys.readouterr().out.splitlines()
    i = next(n for n, line in enumerate(out) if line.startswith("falcon-512 "))
    assert out[i + 3].strip() == "NIST KAT: 50 (falcon512-KAT.rsp 50)"
    j = next(n for n, line in enumerate(out) if line.startswith("hqc-1 "))
    assert out[j + 3].strip() == "NIST KAT: 25 (PQCkemKAT_2321.rsp 25)"


# --- end to end: one verify run shared by the two tests below ---------------------------------


@pytest.fixture(scope="module")
def verified(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("katfh")
    out = tmp / "verify.json"
    r = run_cli("verify", "--provider", "c:liboqs,java:bouncycastle-lw", "--alg", "falcon-512,hqc-1",
                "--inputs", "20", "--db", tmp / "db.sqlite", "--json", out, timeout=300)  # fmt: skip
    if not out.exists():
        pytest.skip(f"verify wrote no results (drivers not built?): {r.stderr[-500:]}")
    return r, {(x["provider"], x["alg"]): x for x in json.loads(out.read_text())["results"]}


def test_falcon512_passes_its_kat_on_liboqs_and_bouncycastle(verified):
    proc, res = verified
    for pid in ("c:liboqs", "java:bouncycastle-lw"):
        r = res[(pid, "falcon-512")]
        assert r["status"] == "passed", r
        assert r["sources"]["NIST KAT (submission)"] == [50, 0, 0], r  # 25 accepted, 25 flipped rejected
    assert "Traceback" not in proc.stderr


def test_hqc1_kat_fails_bouncycastle_with_the_case_id(verified):
    proc, res = verified
    r = res[("java:bouncycastle-lw", "hqc-1")]
    assert r["status"] == "failed" and r["sources"]["NIST KAT (submission)"][0] == 0, r
    assert "pqc-kat/PQCkemKAT_2321.rsp#0/decaps" in r["detail"], r
    assert "java:bouncycastle-lw hqc-1: failed: vector pqc-kat/PQCkemKAT_2321.rsp#0/decaps" in proc.stdout + proc.stderr


def test_a_corrupted_known_answer_fails_with_its_case_id(tmp_path: Path):
    """The KAT's signature with one byte of its compressed s2 changed: liboqs must reject it, and
    the valid case that expected acceptance names itself."""
    vdir = tmp_path / "vectors"
    rel = FILES["falcon-512"]
    (vdir / rel).parent.mkdir(parents=True)
    shutil.copy(FALCON512, vdir / rel)
    text = (vdir / rel).read_text()
    sm = read_rsp(FALCON512)[3]["sm"]
    i = len(sm) - 200  # inside the compressed s2, past the message
    (vdir / rel).write_text(text.replace(sm, sm[:i] + ("0" if sm[i] != "0" else "1") + sm[i + 1 :], 1))
    r = run_cli("verify", "--provider", "c:liboqs", "--alg", "falcon-512", "--vectors", vdir,
                "--inputs", "5", "--db", tmp_path / "db.sqlite", timeout=180)  # fmt: skip
    if "unavailable" in r.stdout + r.stderr and "c:liboqs" in r.stdout + r.stderr:
        pytest.skip("c:liboqs not built")
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    assert "c:liboqs falcon-512: failed: vector pqc-kat/falcon512-KAT.rsp#3/verify" in r.stdout + r.stderr
    assert "Traceback" not in r.stderr
