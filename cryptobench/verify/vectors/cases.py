"""Turn Wycheproof files, kat/basic.json, CAVP files and NIST ACVP JSON into protocol cases."""

from __future__ import annotations

from pathlib import Path

from cryptobench.core.algorithms import TAG_LEN
from cryptobench.verify.vectors.acvp import PREFIX as ACVP_PREFIX
from cryptobench.verify.vectors.acvp import SOURCE as ACVP_SOURCE
from cryptobench.verify.vectors.acvp_sets import acvp_cases  # NIST ACVP JSON, trimmed copy in vectors/acvp
from cryptobench.verify.vectors.ascon_kat import PREFIX as ASCON_PREFIX
from cryptobench.verify.vectors.ascon_kat import SOURCE as ASCON_SOURCE
from cryptobench.verify.vectors.ascon_kat import ascon_kat_cases  # the Ascon designers' KATs
from cryptobench.verify.vectors.case import Case
from cryptobench.verify.vectors.cases_pk import PUBLIC_KEY_BUILDERS
from cryptobench.verify.vectors.cases_protocol import FILES, protocol_cases
from cryptobench.verify.vectors.cavp import cavp_cases  # NIST CAVP and RFC answers from the pinned cryptography-vectors
from cryptobench.verify.vectors.files import default_vectors_dir, load, wycheproof_groups
from cryptobench.verify.vectors.pqc_kat import PREFIX as PQC_KAT_PREFIX
from cryptobench.verify.vectors.pqc_kat import SOURCE as PQC_KAT_SOURCE
from cryptobench.verify.vectors.pqc_kat import pqc_kat_cases  # Falcon and HQC NIST KAT files
from cryptobench.verify.vectors.xwing import xwing_cases


def cases_for(alg: str, vectors_dir: Path | str | None = None) -> list[Case]:
    vdir = Path(vectors_dir) if vectors_dir else default_vectors_dir()
    out: list[Case] = []
    out += _kat_cases(alg, vdir)
    for builder in _WYCHEPROOF.get(alg, []) + PUBLIC_KEY_BUILDERS.get(alg, []):
        out += builder(alg, vdir)
    if alg in FILES:
        out += protocol_cases(alg)
    out += _derived_cases(alg, vdir)
    out += cavp_cases(alg)
    out += acvp_cases(alg, vectors_dir)
    out += ascon_kat_cases(alg, vectors_dir)
    out += xwing_cases(alg, vectors_dir)
    out += pqc_kat_cases(alg, vectors_dir)
    return out


def source_of(case: Case) -> str:
    """The published set a case comes from, as reports name it."""
    if case.source and case.id.startswith(("cryptography-vectors/", "xwing/")):
        return case.source
    if case.id.startswith("wycheproof/"):
        return "Wycheproof"
    if case.id.startswith(ACVP_PREFIX):
        return ACVP_SOURCE
    if case.id.startswith(ASCON_PREFIX):
        return ASCON_SOURCE
    if case.id.startswith(PQC_KAT_PREFIX):
        return PQC_KAT_SOURCE
    if "-from-ecb" in case.id:
        return "derived from FIPS 197 / GB/T 32907"
    if case.id.startswith("kat/"):
        return "kat/basic.json"
    return case.id.split("#", 1)[0].split("/", 1)[0] or "other"


# --- kat/basic.json -------------------------------------------------------


def _kat_message(v: dict) -> str:
    if "msg_hex" in v:
        return v["msg_hex"].lower()
    unit = bytes.fromhex(v["msg_repeat"])
    n = int(v["msg_len"])
    return (unit * (n // len(unit) + 1))[:n].hex()


def _kat_cases(alg: str, vdir: Path) -> list[Case]:
    path = vdir / "kat" / "basic.json"
    if not path.exists():
        return []
    cases = []
    for i, v in enumerate(load(path)["vectors"]):
        if v["alg"] != alg:
            continue
        fields: dict = {}
        if "key_hex" in v:
            fields["key"] = v["key_hex"].lower()
        iv = v.get("iv_hex") or v.get("nonce_hex")
        if iv:
            fields["iv"] = iv.lower()
        if "counter" in v:
            fields["counter"] = int(v["counter"])
        msg, expected = _kat_message(v), v["out_hex"].lower()
        cid = f"kat/basic.json#{i}"
        if v["op"] == "hash":
            cases.append(Case(cid, "hash", {**fields, "msg": msg}, "valid", expected, source=v["source"]))
        elif v["op"] == "encrypt":
            cases.append(
                Case(cid + "/encrypt", "encrypt", {**fields, "msg": msg}, "valid", expected, source=v["source"])
            )
            cases.append(
                Case(cid + "/decrypt", "decrypt", {**fields, "msg": expected}, "valid", msg, source=v["source"])
            )
    return cases


# --- Wycheproof -------------------------------------------------------------


def _aead(file: str, iv_bits: int):
    def build(alg: str, vdir: Path) -> list[Case]:
        key_bits = int(alg.split("-")[1]) if alg.startswith("aes-") else 128 if alg.startswith("sm4") else 256
        cases = []
        for g, t in wycheproof_groups(vdir, file):
            if g.get("keySize") != key_bits or g.get("ivSize") != iv_bits or g.get("tagSize") != TAG_LEN * 8:
                continue  # outside the measured contract (nonce and tag sizes)
            cid = f"wycheproof/{file}#{t['tcId']}"
            base = {"key": t["key"], "iv": t["iv"], "aad": t["aad"]}
            sealed = t["ct"] + t["tag"]
            if t["result"] == "valid":
                cases.append(Case(cid + "/seal", "seal", {**base, "msg": t["msg"]}, "valid", sealed))
            cases.append(Case(cid + "/open", "open", {**base, "msg": sealed}, t["result"], t["msg"]))
        return cases

    return build


def _pkcs7(msg_hex: str) -> str:
    n = 16 - (len(msg_hex) // 2) % 16
    return msg_hex + bytes([n] * n).hex()


def _cbc(alg: str, vdir: Path) -> list[Case]:
    key_bits = int(alg.split("-")[1])
    cases = []
    for g, t in wycheproof_groups(vdir, "aes_cbc_pkcs5_test.json"):
        if g.get("keySize") != key_bits or t["result"] != "valid":
            continue  # invalid cases are bad padding, which an unpadded cipher cannot see
        cid = f"wycheproof/aes_cbc_pkcs5_test.json#{t['tcId']}"
        padded = _pkcs7(t["msg"])
        base = {"key": t["key"], "iv": t["iv"]}
        cases.append(Case(cid + "/encrypt", "encrypt", {**base, "msg": padded}, "valid", t["ct"]))
        cases.append(Case(cid + "/decrypt", "decrypt", {**base, "msg": t["ct"]}, "valid", padded))
    return cases


def _hmac(file: str):
    def build(alg: str, vdir: Path) -> list[Case]:
        cases = []
        for g, t in wycheproof_groups(vdir, file):
            cid = f"wycheproof/{file}#{t['tcId']}"
            truncated = g["tagSize"] < 256
            cases.append(
                Case(
                    cid,
                    "mac",
                    {"key": t["key"], "msg": t["msg"]},
                    t["result"],
                    t["tag"],
                    "prefix" if truncated else "equal",
                )
            )
        return cases

    return build


_WYCHEPROOF = {
    "aes-128-gcm": [_aead("aes_gcm_test.json", 96)],
    "aes-256-gcm": [_aead("aes_gcm_test.json", 96)],
    "aes-128-ccm": [_aead("aes_ccm_test.json", 96)],
    "aes-256-ccm": [_aead("aes_ccm_test.json", 96)],
    "chacha20-poly1305": [_aead("chacha20_poly1305_test.json", 96)],
    "xchacha20-poly1305": [_aead("xchacha20_poly1305_test.json", 192)],
    "aes-128-cbc": [_cbc],
    "aes-256-cbc": [_cbc],
    "hmac-sha256": [_hmac("hmac_sha256_test.json")],
    "sm4-gcm": [_aead("sm4_gcm_test.json", 96)],
}


# --- derived from a published known answer ------------------------------------


def _derived_cases(alg: str, vdir: Path) -> list[Case]:
    """One-block answers of CTR and CBC follow from the block cipher's (FIPS 197, GB/T 32907).

    CTR of a zero block with IV = P is E(P); CBC of the block P with a zero IV is E(P).
    """
    mode = alg.rsplit("-", 1)[-1]
    if mode not in ("ctr", "cbc") or not alg.startswith(("aes-", "sm4-")):
        return []
    ecb = alg[: -len(mode)] + "ecb"
    cases = []
    for c in _kat_cases(ecb, vdir):
        if c.op != "encrypt" or len(c.fields["msg"]) != 32:
            continue
        cid = c.id.replace("/encrypt", "") + f"/{mode}-from-ecb"
        if mode == "ctr":
            fields = {"key": c.fields["key"], "iv": c.fields["msg"], "msg": "00" * 16}
        else:
            fields = {"key": c.fields["key"], "iv": "00" * 16, "msg": c.fields["msg"]}
        cases.append(Case(cid, "encrypt", fields, "valid", c.out, source=f"derived from {c.source}"))
        cases.append(Case(cid + "/decrypt", "decrypt", {**fields, "msg": c.out}, "valid", fields["msg"]))
    return cases
