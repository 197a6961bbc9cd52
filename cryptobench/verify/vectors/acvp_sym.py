"""ACVP's classical folders as protocol cases: SHA-2/SHA-3, AES ECB/CBC/CTR/GCM, HMAC-SHA2-256,
ECDSA and EdDSA signature verification (FIPS 180-4, 202, 197, SP 800-38A/D, FIPS 198-1, FIPS 186-5).

| folder | group kept | case |
|---|---|---|
| SHA2-256-1.0, SHA2-512-1.0, SHA3-256-2.0, SHA3-512-2.0 | AFT, whole bytes | `hash`: msg -> md |
| ACVP-AES-ECB/CBC/CTR-1.0 | AFT, 128/256-bit keys, whole bytes | `encrypt` (pt -> ct) or `decrypt` (ct -> pt) |
| ACVP-AES-GCM-1.0 | AFT, 96-bit IV, 128-bit tag, 128/256-bit keys | `seal` (-> ct ‖ tag) and `open`; a failed decrypt: `open` refused |
| HMAC-SHA2-256-1.0 | AFT, 256-bit MAC | `mac`: key, msg -> mac |
| ECDSA-sigVer-FIPS186-5 | P-256 with SHA2-256, P-384 with SHA2-384 | `verify`: DER SPKI of (qx, qy), DER (r, s) |
| EDDSA-sigVer-1.0 | ED-25519, pure (preHash false) | `verify`: q, message, signature |

Left out: Monte Carlo (MCT: no cases; SHA-2/3's chains are acvp.mct_tests, AES-ECB/CBC's
acvp.aes_mct_tests, both run by monte.py), CTR's counter-overflow tests (testType CTR), 192-bit keys, truncated GCM tags and
other IV lengths, bit-oriented lengths, other curves and hashes, pre-hash EdDSA.
"""

from __future__ import annotations

from cryptobench.verify.vectors.acvp import SOURCE, case_id, hexfield
from cryptobench.verify.vectors.case import Case

VERIFY_OK = "01"
_HASHES = {"SHA2-256": "sha256", "SHA2-512": "sha512", "SHA3-256": "sha3-256", "SHA3-512": "sha3-512"}
_ECDSA = {("P-256", "SHA2-256"): "ecdsa-p256", ("P-384", "SHA2-384"): "ecdsa-p384"}
# DER SubjectPublicKeyInfo up to the uncompressed point (id-ecPublicKey, the named curve, BIT STRING)
_SPKI = {
    "ecdsa-p256": "3059301306072a8648ce3d020106082a8648ce3d030107034200",
    "ecdsa-p384": "3076301006072a8648ce3d020106052b81040022036200",
}


def _case(folder: str, g: dict, t: dict, op: str, fields: dict, expect: str, out: str | None, tail: str = "") -> Case:
    return Case(case_id(folder, g, t) + tail, op, fields, expect, out, source=f"{SOURCE} {folder}")


def _whole_bytes(*bits) -> bool:
    return all(b is None or b % 8 == 0 for b in bits)


# --- which catalogue algorithm a group is -------------------------------------------------------


def hash_alg(doc: dict, g: dict) -> str | None:
    return _HASHES.get(doc.get("algorithm", "")) if g.get("testType") == "AFT" else None


def aes_alg(doc: dict, g: dict) -> str | None:
    mode = doc.get("algorithm", "").rsplit("-", 1)[-1].lower()  # ACVP-AES-GCM -> gcm
    if g.get("testType") != "AFT" or g.get("keyLen") not in (128, 256):
        return None
    if mode == "gcm" and (g.get("ivLen") != 96 or g.get("tagLen") != 128):
        return None  # outside the contract: 12-byte nonce, 16-byte tag
    return f"aes-{g['keyLen']}-{mode}"


def hmac_alg(doc: dict, g: dict) -> str | None:
    ok = doc.get("algorithm") == "HMAC-SHA2-256" and g.get("macLen") == 256 and g.get("testType") == "AFT"
    return "hmac-sha256" if ok else None


def ecdsa_alg(doc: dict, g: dict) -> str | None:
    return _ECDSA.get((g.get("curve"), g.get("hashAlg"))) if doc.get("mode") == "sigVer" else None


def eddsa_alg(doc: dict, g: dict) -> str | None:
    pure = g.get("preHash") is False and "context" not in g
    return "ed25519" if doc.get("mode") == "sigVer" and g.get("curve") == "ED-25519" and pure else None


# --- the cases -----------------------------------------------------------------------------------


def _hash(folder: str, g: dict, t: dict) -> list[Case]:
    if not _whole_bytes(t.get("len")) or not isinstance(t.get("md"), str):
        return []
    return [_case(folder, g, t, "hash", {"msg": hexfield(t, "msg")}, "valid", hexfield(t, "md"))]


def _aes(folder: str, g: dict, t: dict) -> list[Case]:
    if not _whole_bytes(t.get("payloadLen"), g.get("payloadLen"), g.get("aadLen")):
        return []
    key = {"key": hexfield(t, "key")}
    if "iv" in t:
        key["iv"] = hexfield(t, "iv")
    if folder.startswith("ACVP-AES-GCM"):
        base = {**key, "aad": hexfield(t, "aad")}
        if "pt" in t and "ct" in t:  # an answered encryption or a decryption that succeeded
            sealed = hexfield(t, "ct") + hexfield(t, "tag")
            return [
                _case(folder, g, t, "seal", {**base, "msg": hexfield(t, "pt")}, "valid", sealed, "/seal"),
                _case(folder, g, t, "open", {**base, "msg": sealed}, "valid", hexfield(t, "pt"), "/open"),
            ]
        if t.get("testPassed") is False:  # a forgery: open must refuse it
            sealed = hexfield(t, "ct") + hexfield(t, "tag")
            return [_case(folder, g, t, "open", {**base, "msg": sealed}, "invalid", None, "/open")]
        return []
    if "pt" not in t or "ct" not in t:
        return []
    if g.get("direction") == "decrypt":
        return [_case(folder, g, t, "decrypt", {**key, "msg": hexfield(t, "ct")}, "valid", hexfield(t, "pt"))]
    return [_case(folder, g, t, "encrypt", {**key, "msg": hexfield(t, "pt")}, "valid", hexfield(t, "ct"))]


def _hmac(folder: str, g: dict, t: dict) -> list[Case]:
    if not _whole_bytes(g.get("keyLen"), g.get("msgLen")) or not isinstance(t.get("mac"), str):
        return []
    return [_case(folder, g, t, "mac", {"key": hexfield(t, "key"), "msg": hexfield(t, "msg")}, "valid",
                  hexfield(t, "mac"))]  # fmt: skip


def _der_int(hexstr: str) -> str:
    n = int(hexstr, 16)
    body = n.to_bytes(n.bit_length() // 8 + 1, "big")  # one more byte than needed: a leading 00 ...
    if len(body) > 1 and body[0] == 0 and body[1] < 0x80:
        body = body[1:]  # ... kept only when the high bit would make the integer negative
    return "02" + _der_len(len(body)) + body.hex()


def _der_len(n: int) -> str:
    return f"{n:02x}" if n < 0x80 else f"81{n:02x}"


def der_signature(r: str, s: str) -> str:
    """ECDSA's (r, s) as the DER SEQUENCE the protocol carries (docs/protocol.md, Signatures)."""
    body = _der_int(r) + _der_int(s)
    return "30" + _der_len(len(body) // 2) + body


def _ecdsa(folder: str, g: dict, t: dict) -> list[Case]:
    alg = _ECDSA.get((g.get("curve"), g.get("hashAlg")))
    if alg is None or not isinstance(t.get("testPassed"), bool):
        return []
    public = _SPKI[alg] + "04" + hexfield(t, "qx") + hexfield(t, "qy")
    fields = {"public": public, "msg": hexfield(t, "message"), "sig": der_signature(t["r"], t["s"])}
    return [_case(folder, g, t, "verify", fields, "valid" if t["testPassed"] else "invalid", VERIFY_OK)]


def _eddsa(folder: str, g: dict, t: dict) -> list[Case]:
    if not isinstance(t.get("testPassed"), bool):
        return []
    fields = {"public": hexfield(t, "q"), "msg": hexfield(t, "message"), "sig": hexfield(t, "signature")}
    return [_case(folder, g, t, "verify", fields, "valid" if t["testPassed"] else "invalid", VERIFY_OK)]


_AES = tuple(f"aes-{k}-{m}" for k in (128, 256) for m in ("ecb", "cbc", "ctr", "gcm"))

# folder -> (the catalogue names it can give, which one a group is, builder)
BUILDERS = {
    "SHA2-256-1.0": (("sha256",), hash_alg, _hash),
    "SHA2-512-1.0": (("sha512",), hash_alg, _hash),
    "SHA3-256-2.0": (("sha3-256",), hash_alg, _hash),
    "SHA3-512-2.0": (("sha3-512",), hash_alg, _hash),
    "ACVP-AES-ECB-1.0": (_AES, aes_alg, _aes),
    "ACVP-AES-CBC-1.0": (_AES, aes_alg, _aes),
    "ACVP-AES-CTR-1.0": (_AES, aes_alg, _aes),
    "ACVP-AES-GCM-1.0": (_AES, aes_alg, _aes),
    "HMAC-SHA2-256-1.0": (("hmac-sha256",), hmac_alg, _hmac),
    "ECDSA-sigVer-FIPS186-5": (("ecdsa-p256", "ecdsa-p384"), ecdsa_alg, _ecdsa),
    "EDDSA-sigVer-1.0": (("ed25519",), eddsa_alg, _eddsa),
}
