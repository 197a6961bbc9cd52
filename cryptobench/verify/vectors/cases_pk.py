"""Public-key and post-quantum cases from Wycheproof (docs/protocol.md, version 2).

Each builder returns protocol cases for one algorithm: `verify` for
signatures, `derive` for key agreement, `decrypt` for RSA-OAEP, `keygen`/
`encaps`/`decaps` for ML-KEM, `keygen`/`sign`/`verify` for ML-DSA. Cases that
need an input our contract does not carry (a non-empty OAEP label, ML-DSA's
external mu or explicit randomness) are left out.
"""

from __future__ import annotations

from pathlib import Path

from cryptobench.verify.vectors.case import Case
from cryptobench.verify.vectors.files import wycheproof_groups

VERIFY_OK = "01"


def _case(file: str, t: dict, op: str, fields: dict, expected: str, part: str = "") -> Case:
    """Wycheproof test t of file as a protocol case, named by the file and tcId (and part, for a test
    that gives several cases)."""
    return Case(f"wycheproof/{file}#{t['tcId']}{part}", op, fields, t["result"], expected)


def _sig_verify(file: str, public_of):
    def build(alg: str, vdir: Path) -> list[Case]:
        cases = []
        for g, t in wycheproof_groups(vdir, file):
            fields = {"public": public_of(g), "msg": t["msg"], "sig": t["sig"]}
            if "ctx" in t:
                fields["ctx"] = t["ctx"]
            cases.append(_case(file, t, "verify", fields, VERIFY_OK))
        return cases

    return build


def _scalar(hexstr: str, field_bytes: int) -> str:
    """Wycheproof writes private scalars as ASN.1 integers (maybe a leading 00); we pass fixed width."""
    n = int(hexstr, 16) if hexstr else 0
    return n.to_bytes(max(field_bytes, (n.bit_length() + 7) // 8), "big").hex()


def _ecdh(file: str, field_bytes: int):
    def build(alg: str, vdir: Path) -> list[Case]:
        cases = []
        for _, t in wycheproof_groups(vdir, file):
            fields = {"private": _scalar(t["private"], field_bytes), "public": t["public"]}
            cases.append(_case(file, t, "derive", fields, t["shared"]))
        return cases

    return build


def _xdh(file: str):
    def build(alg: str, vdir: Path) -> list[Case]:
        return [
            _case(file, t, "derive", {"private": t["private"], "public": t["public"]}, t["shared"])
            for _, t in wycheproof_groups(vdir, file)
        ]

    return build


def _oaep(file: str):
    def build(alg: str, vdir: Path) -> list[Case]:
        cases = []
        for g, t in wycheproof_groups(vdir, file):
            if t.get("label"):
                continue  # our contract uses the empty label
            fields = {"private": g["privateKeyPkcs8"], "msg": t["ct"]}
            cases.append(_case(file, t, "decrypt", fields, t["msg"]))
        return cases

    return build


def _mlkem(n: int):
    def build(alg: str, vdir: Path) -> list[Case]:
        cases = []
        f = f"mlkem_{n}_keygen_seed_test.json"
        for _, t in wycheproof_groups(vdir, f):
            cases.append(_case(f, t, "keygen", {"seed": t["seed"]}, t["ek"]))
        f = f"mlkem_{n}_encaps_test.json"
        for _, t in wycheproof_groups(vdir, f):
            fields = {"public": t["ek"], "m": t["m"]}
            cases.append(_case(f, t, "encaps", fields, t["c"] + t["K"]))
        f = f"mlkem_{n}_test.json"
        for _, t in wycheproof_groups(vdir, f):
            fields = {"private": t["seed"], "msg": t["c"]}
            cases.append(_case(f, t, "decaps", fields, t["K"], "/decaps"))
        return cases

    return build


def _mldsa(n: int):
    def build(alg: str, vdir: Path) -> list[Case]:
        cases = _sig_verify(f"mldsa_{n}_verify_test.json", lambda g: g["publicKey"])(alg, vdir)
        f = f"mldsa_{n}_sign_seed_test.json"
        for g, t in wycheproof_groups(vdir, f):
            if "msg" not in t or "rnd" in t:
                continue  # external mu / explicit randomness: not part of the contract
            fields = {"private": g["privateSeed"], "msg": t["msg"], "deterministic": True}
            if "ctx" in t:
                fields["ctx"] = t["ctx"]
            cases.append(_case(f, t, "sign", fields, t["sig"], "/sign"))
        return cases

    return build


def _der(g: dict) -> str:
    return g["publicKeyDer"]


def _ed_pk(g: dict) -> str:
    return g["publicKey"]["pk"]


PUBLIC_KEY_BUILDERS = {
    "ecdsa-p256": [_sig_verify("ecdsa_secp256r1_sha256_test.json", _der)],
    "ecdsa-p384": [_sig_verify("ecdsa_secp384r1_sha384_test.json", _der)],
    "ecdsa-secp256k1": [_sig_verify("ecdsa_secp256k1_sha256_test.json", _der)],
    "ecdh-p256": [_ecdh("ecdh_secp256r1_test.json", 32)],
    "ecdh-p384": [_ecdh("ecdh_secp384r1_test.json", 48)],
    "ecdh-secp256k1": [_ecdh("ecdh_secp256k1_test.json", 32)],
    "x25519": [_xdh("x25519_test.json")],
    "ed25519": [_sig_verify("ed25519_test.json", _ed_pk)],
    "rsa-2048-pkcs1": [_sig_verify("rsa_signature_2048_sha256_test.json", _der)],
    "rsa-2048-pss": [_sig_verify("rsa_pss_2048_sha256_mgf1_32_test.json", _der)],
    "rsa-2048-oaep": [_oaep("rsa_oaep_2048_sha256_mgf1sha256_test.json")],
    **{f"ml-kem-{n}": [_mlkem(n)] for n in (512, 768, 1024)},
    **{f"ml-dsa-{n}": [_mldsa(n)] for n in (44, 65, 87)},
}


def _hkdf(file: str):
    def build(alg: str, vdir: Path) -> list[Case]:
        cases = []
        for _, t in wycheproof_groups(vdir, file):
            fields = {"ikm": t["ikm"], "salt": t["salt"], "info": t["info"], "size": int(t["size"])}
            cases.append(_case(file, t, "derive", fields, t["okm"]))
        return cases

    return build


PUBLIC_KEY_BUILDERS["hkdf-sha256"] = [_hkdf("hkdf_sha256_test.json")]
