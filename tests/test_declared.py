"""Algorithms of a provider's own (issue 32, part 4; cryptobench/core/declared.py, docs/plugins.md
"Declaring an algorithm of your own"): a C plugin declaring a TOY, "toy-adler32" (zlib's Adler-32, a
checksum, not cryptography), with a 25-case known-answer file is verified, measured and marked
"declared by" in every format; the same plugin with one wrong answer is failed with the case id and
never timed; a Python plugin declaring the same algorithm serves it beside it and is compared with
it; a declaration conflicting with the catalogue or another provider is refused in one line."""

import csv
import io
import json
import shutil
import subprocess
import sys

import pytest
from conftest import run_cli

from cryptobench.core import algorithms, declared
from cryptobench.core.errors import UserError
from cryptobench.drivers.registry import C_HOST, REPO, Registry
from cryptobench.verify.vectors import cases_for

FIXTURES = REPO / "tests" / "fixtures"
SOURCE = FIXTURES / "declare_plugin.c"
PY_PLUGIN = FIXTURES / "declare" / "toy_adler32_provider.py"
needs_c = pytest.mark.skipif(not C_HOST.exists(), reason="the generic C driver is not built (make -C drivers/c)")


@pytest.fixture(autouse=True)
def fresh_catalogue():
    declared.reset()
    yield
    declared.reset()


def build(tmp_path, mode: str = "PLAIN"):
    """The fixture plugin in tmp_path, its known-answer files beside it (the declaration's `kat` is
    relative to the plugin's folder)."""
    if not (tmp_path / "declare").exists():
        shutil.copytree(FIXTURES / "declare", tmp_path / "declare")
    out = tmp_path / f"libcb_toy_{mode.lower()}.so"
    subprocess.run(["gcc", "-O1", "-std=c11", "-fPIC", "-shared", "-fvisibility=hidden", "-Wall", "-Wextra", "-Werror",
                    f"-D{mode}", f"-I{REPO / 'include'}", "-o", out, SOURCE, "-lz"], check=True)  # fmt: skip
    return out


def decl(by="plugin:a", **kw):
    return declared.parse({"name": "toy-sum", "kind": "hash", "out_len": 4, **kw}, by)


# --- the rules, without a driver ---------------------------------------------------------------


def test_a_declaration_joins_the_catalogue_with_who_declared_it_and_leaves_with_reset():
    declared.register([decl(kat="/k.json", standard="a toy")])
    a = algorithms.get("toy-sum")
    assert (a.kind, a.ops, algorithms.output_len("toy-sum", "hash", 100)) == ("hash", ("hash",), 4)
    assert declared.declared_by("toy-sum") == ["plugin:a"] and declared.mark("sha256") == ""
    assert declared.mark("toy-sum") == "declared by plugin:a" and a.standard == "a toy; declared by plugin:a"
    declared.register([decl("python:b")])  # the same parameters: both serve it
    assert declared.declared_by("toy-sum") == ["plugin:a", "python:b"]
    declared.reset()
    assert "toy-sum" not in algorithms.ALGORITHMS and "toy-sum" not in algorithms.DIGEST_LEN


def test_a_conflict_with_the_catalogue_or_another_provider_is_refused_in_one_line():
    with pytest.raises(UserError) as e:
        declared.register([declared.parse({"name": "sha256", "kind": "hash", "out_len": 20}, "plugin:a")])
    assert str(e.value) == ("plugin:a declares sha256 as a hash with a 20-byte output, but the catalogue's sha256 is "
                            "a hash with a 32-byte output: declare it under another name")  # fmt: skip
    # the catalogue's very parameters: that algorithm, nothing declared
    declared.register([declared.parse({"name": "aes-128-gcm", "kind": "aead", "key_len": 16, "iv_len": 12}, "p:a")])
    assert declared.names() == [] and algorithms.get("aes-128-gcm").standard == ""
    declared.register([decl()])
    with pytest.raises(UserError) as e:
        declared.register([decl("python:b", out_len=8)])
    assert str(e.value) == ("toy-sum is declared with different parameters: by plugin:a as a hash with a 4-byte "
                            "output, by python:b as a hash with an 8-byte output")  # fmt: skip
    for bad, said in [({"kind": "hash"}, "a hash needs out_len"), ({"kind": "blob", "out_len": 4}, "kind 'blob'"),
                      ({"kind": "hash", "out_len": 4, "key_len": 16}, "a hash has no key_len"),
                      ({"kind": "aead", "key_len": 16, "tag_len": 8}, "tag_len must be 16"),
                      ({"kind": "hash", "out_len": 4, "ops": ["sign"]}, "ops must be some of hash")]:  # fmt: skip
        with pytest.raises(UserError, match=said):
            declared.parse({"name": "toy-x", **bad}, "plugin:a")


def test_the_kat_file_format_and_a_malformed_one_in_one_line(tmp_path):
    kat = tmp_path / "k.json"
    kat.write_text(json.dumps({"vectors": [
        {"op": "seal", "key_hex": "00" * 16, "nonce_hex": "11" * 12, "aad_hex": "", "msg_hex": "2233", "out_hex": "ab" * 18},
        {"op": "open", "key_hex": "00" * 16, "iv_hex": "11" * 12, "msg_hex": "cd" * 18, "result": "invalid", "id": "forged"},
        {"alg": "another", "op": "hash", "msg_hex": "", "out_hex": "00"},
    ]}))  # fmt: skip
    declared.register([declared.parse({"name": "toy-aead", "kind": "aead", "key_len": 16, "iv_len": 12,
                                       "kat": "k.json"}, "plugin:a", tmp_path)])  # fmt: skip
    got = [(c.id, c.op, c.expect, c.fields.get("iv"), c.out) for c in cases_for("toy-aead")]
    assert got == [("k.json#0", "seal", "valid", "11" * 12, "ab" * 18), ("k.json#0/open", "open", "valid", "11" * 12, "2233"),
                   ("k.json#forged", "open", "invalid", "11" * 12, None)]  # fmt: skip
    kat.write_text(json.dumps({"vectors": [{"op": "hash", "msg_hex": "zz", "out_hex": "00"}]}))
    declared.reset()
    declared.register([declared.parse({"name": "toy-sum", "kind": "hash", "out_len": 1, "kat": str(kat)}, "p:a")])
    with pytest.raises(UserError, match=r"^known-answer file .*k\.json' of toy-sum: vector #0: op 'hash'|non-hex"):
        cases_for("toy-sum")


def test_an_acvp_file_is_read_for_a_declared_algorithm_too(tmp_path):
    """ACVP's shape (acvp.py reads it): AFT tests by ACVP's field names, MCT groups and bit-oriented
    messages left out; a kind whose ACVP fields are not mapped is refused in one line."""
    groups = [
        {"tgId": 1, "testType": "AFT", "tests": [{"tcId": 1, "msg": "616263", "len": 24, "md": "024d0127"},
                                                 {"tcId": 2, "msg": "6100", "len": 9, "md": "00000000"}]},
        {"tgId": 2, "testType": "MCT", "tests": [{"tcId": 3, "msg": "00", "len": 8, "md": "00000000"}]},
    ]  # fmt: skip
    (tmp_path / "a.json").write_text(json.dumps([{"acvVersion": "1.0"}, {"vsId": 1, "testGroups": groups}]))
    declared.register([decl(kat=str(tmp_path / "a.json"))])
    assert [(c.id, c.op, c.fields, c.out) for c in cases_for("toy-sum")] == [
        ("a.json#tg1/tc1", "hash", {"msg": "616263"}, "024d0127")
    ]
    declared.reset()
    declared.register([declared.parse({"name": "toy-kem", "kind": "kem", "kat": str(tmp_path / "a.json")}, "p:a")])
    with pytest.raises(UserError, match="ACVP files are read for hash, xof, mac, cipher, aead and sig declarations"):
        cases_for("toy-kem")


def test_a_providers_file_declares_for_a_driver_that_cannot(tmp_path):
    (tmp_path / "p.toml").write_text(
        '[[provider]]\nid = "mine:toy"\ncommand = ["./driver"]\n'
        '[[provider.declare]]\nname = "toy-sum"\nkind = "hash"\nout_len = 4\nkat = "toy.kat.json"\n'
    )
    reg = Registry(tmp_path / "p.toml")
    (d,) = reg.get("mine:toy").declares
    assert (d.by, d.kat, declared.declared_by("toy-sum")) == ("mine:toy", str(tmp_path / "toy.kat.json"), ["mine:toy"])
    # a driver whose hello declares: the Python driver serving the Python plugin, named by command
    cmd = ["env", f"PYTHONPATH={REPO / 'drivers/python'}", sys.executable, "-m", "cbdriver", "--plugin", str(PY_PLUGIN)]
    (tmp_path / "h.toml").write_text(f'[[provider]]\nid = "python:toy"\ncommand = {json.dumps(cmd)}\n'
                                     "declares_in_hello = true\n")  # fmt: skip
    declared.reset()
    reg = Registry(tmp_path / "h.toml")
    assert [d.name for d in reg.get("python:toy").declares] == ["toy-adler32"]
    (tmp_path / "p.toml").write_text(
        '[[provider]]\nid = "mine:toy"\ncommand = ["./d"]\n[[provider.declare]]\nname = "x"\n'
    )
    with pytest.raises(UserError, match=r"^providers file .*: provider mine:toy: declared algorithm x: kind None"):
        Registry(tmp_path / "p.toml")


# --- plugins that declare, end to end ---------------------------------------------------------------


@needs_c
def test_a_declared_algorithm_is_verified_measured_and_marked_beside_a_python_plugin_declaring_it(tmp_path):
    so = build(tmp_path)
    out = {f: tmp_path / f"r.{f}" for f in ("json", "md", "csv")}
    res = run_cli("run", "--plugin", so, "--plugin", PY_PLUGIN, "--provider", "plugin:toy", "--alg", "toy-adler32", "--size", "64",
                  "--time-per-cell", "0.1", "--db", tmp_path / "r.db", "--quiet", "--json", out["json"],
                  "--md", out["md"], "--csv", out["csv"], cwd=tmp_path)  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    doc = json.loads(out["json"].read_text())
    verdicts = {v["provider"]: v for v in doc["verification"] if v["alg"] == "toy-adler32"}
    for pid in ("plugin:toy", "python:toy"):  # its 25 known answers, and each agreed with the other
        assert verdicts[pid]["status"] == "passed" and verdicts[pid]["passed"] >= 25, verdicts[pid]
        diff = verdicts[pid]["conformance"]["differential"]  # each checked against the other declarer
        assert diff["agreed"] > 0 and not diff["disagreements"] and len(diff["peers"]) == 1, diff
        assert doc["providers"][pid]["declares"][0]["name"] == "toy-adler32"
    cells = [c for c in doc["cells"] if c["alg"] == "toy-adler32"]
    assert {c["provider"] for c in cells} == {"plugin:toy", "python:toy"}
    assert all(
        c["status"] == "ok" and c["samples_ns"] and c["declared_by"] == ["plugin:toy", "python:toy"] for c in cells
    )
    assert (
        "declared by plugin:toy, python:toy" in res.stdout
        and "declared by plugin:toy, python:toy" in out["md"].read_text()
    )
    rows = [r for r in csv.DictReader(io.StringIO(out["csv"].read_text())) if r["alg"] == "toy-adler32"]
    assert rows and all(r["declared_by"] == "plugin:toy python:toy" for r in rows)
    listed = run_cli("list", "algorithms", "--plugin", so, cwd=tmp_path).stdout
    assert "toy-adler32          hash     ops: hash\n                     declared by plugin:toy\n" in listed, listed


def test_under_20_known_answers_and_no_second_provider_it_is_unverified(tmp_path):
    """The floor of docs/verification.md: 5 known answers, nobody to agree with, no witness looked for
    (no built-in provider can offer a declared algorithm): unverified, saying why; marked in verify's
    conformance report too."""
    kat = json.loads((FIXTURES / "declare" / "toy-adler32.kat.json").read_text())
    (tmp_path / "toy-adler32.kat.json").write_text(json.dumps({"vectors": kat["vectors"][:5]}))
    shutil.copy(PY_PLUGIN, tmp_path / "toy.py")
    res = run_cli("verify", "--plugin", tmp_path / "toy.py", "--provider", "python:toy", "--alg", "toy-adler32",
                  "--db", tmp_path / "v.db", "--md", tmp_path / "v.md", "--inputs", "50")  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    md = (tmp_path / "v.md").read_text()
    assert "| toy-adler32 (declared by python:toy) | unverified (5 cases) |" in md, md
    assert "hash: 5 cases, 20 needed" in md and "no built-in provider offers it" in md, md


@needs_c
def test_one_wrong_known_answer_fails_it_with_the_case_id_and_it_is_never_timed(tmp_path):
    so = build(tmp_path, "DECLARE_BAD_KAT")
    res = run_cli("run", "--plugin", so, "--provider", "plugin:toy", "--alg", "toy-adler32", "--size", "64",
                  "--time-per-cell", "0.1", "--db", tmp_path / "r.db", "--quiet", "--json", tmp_path / "r.json")  # fmt: skip
    assert res.returncode == 1, res.stdout + res.stderr
    doc = json.loads((tmp_path / "r.json").read_text())
    (v,) = [v for v in doc["verification"] if v["alg"] == "toy-adler32"]
    assert v["status"] == "failed" and "vector toy-adler32-bad.kat.json#7: output" in v["detail"], v
    assert all(c["status"] == "failed" and not c["samples_ns"] for c in doc["cells"] if c["alg"] == "toy-adler32")


@needs_c
def test_a_plugin_declaring_a_catalogue_name_with_other_sizes_is_refused_in_one_line(tmp_path):
    so = build(tmp_path, "DECLARE_SHA256")
    res = run_cli("verify", "--plugin", so, "--alg", "sha256", "--db", tmp_path / "r.db", cwd=tmp_path)
    assert res.returncode == 2 and res.stderr.strip().splitlines() == [
        "cryptobench: error: plugin:toy declares sha256 as a hash with a 4-byte output, but the catalogue's sha256 "
        "is a hash with a 32-byte output: declare it under another name"
    ], res.stderr
