"""ACVP's post-quantum folders as protocol cases: ML-KEM (FIPS 203), ML-DSA (FIPS 204), SLH-DSA (FIPS 205).

Field mapping (docs/protocol.md, Cases; docs/verification.md, NIST ACVP):

| folder | group kept | case |
|---|---|---|
| ML-KEM-keyGen-FIPS203 | AFT | `keygen`, seed = d ‖ z -> out ek |
| ML-KEM-encapDecap-FIPS203 | AFT `encapsulation` | `encaps`, public = ek, m -> out c ‖ k |
| | VAL `encapsulationKeyCheck`, testPassed false | `encaps`, public = ek: must be refused |
| ML-DSA-keyGen-FIPS204 | AFT | `keygen`, seed = ξ -> out pk |
| ML-DSA-sigVer-FIPS204 | AFT, external interface, pure | `verify`, public, msg, sig, ctx -> 01 or rejected |
| SLH-DSA-keyGen-FIPS205 | AFT | `keygen`, seed = SK.seed ‖ SK.prf ‖ PK.seed -> out pk |
| SLH-DSA-sigGen-FIPS205 | AFT, deterministic, external, pure | `sign`, private = sk (4n bytes), msg, ctx -> sig |
| SLH-DSA-sigVer-FIPS205 | AFT, external, pure | `verify`, public, msg, sig, ctx -> 01 or rejected |

Left out, because the contract cannot carry them: ML-DSA sigGen (its private key is the expanded sk,
ours the seed ξ) and external-mu; ML-KEM decapsulation and decapsulationKeyCheck (expanded dk, ours
the 64-byte seed); a passing encapsulationKeyCheck (no m, so no answer to compare); the internal
interface and pre-hash (HashSLH-DSA / HashML-DSA) groups; randomised SLH-DSA signing.
"""

from __future__ import annotations

from cryptobench.verify.vectors.acvp import SOURCE, case_id, hexfield, parameter_set_alg
from cryptobench.verify.vectors.case import Case

VERIFY_OK = "01"


def _case(folder: str, g: dict, t: dict, op: str, fields: dict, expect: str, out: str | None) -> Case:
    return Case(case_id(folder, g, t), op, fields, expect, out, source=f"{SOURCE} {folder}")


def _pure_external(g: dict) -> bool:
    return g.get("signatureInterface", "external") == "external" and g.get("preHash", "pure") == "pure"


def _with_ctx(fields: dict, t: dict) -> dict:
    ctx = t.get("context", "")
    return {**fields, "ctx": ctx.lower()} if ctx else fields


def _mlkem_keygen(folder: str, g: dict, t: dict) -> list[Case]:
    seed = hexfield(t, "d") + hexfield(t, "z")
    return [_case(folder, g, t, "keygen", {"seed": seed}, "valid", hexfield(t, "ek"))]


def _mlkem_encap(folder: str, g: dict, t: dict) -> list[Case]:
    fn = g.get("function")
    if fn == "encapsulation" and g.get("testType") == "AFT":
        fields = {"public": hexfield(t, "ek"), "m": hexfield(t, "m")}
        return [_case(folder, g, t, "encaps", fields, "valid", hexfield(t, "c") + hexfield(t, "k"))]
    if fn == "encapsulationKeyCheck" and t.get("testPassed") is False:
        return [_case(folder, g, t, "encaps", {"public": hexfield(t, "ek")}, "invalid", None)]
    return []


def _seed_keygen(folder: str, g: dict, t: dict) -> list[Case]:
    return [_case(folder, g, t, "keygen", {"seed": hexfield(t, "seed")}, "valid", hexfield(t, "pk"))]


def _slh_keygen(folder: str, g: dict, t: dict) -> list[Case]:
    seed = hexfield(t, "skSeed") + hexfield(t, "skPrf") + hexfield(t, "pkSeed")
    return [_case(folder, g, t, "keygen", {"seed": seed}, "valid", hexfield(t, "pk"))]


def _sig_verify(folder: str, g: dict, t: dict) -> list[Case]:
    if not _pure_external(g) or g.get("externalMu"):
        return []
    if not isinstance(t.get("testPassed"), bool):
        return []  # a prompt without its answer: nothing to judge
    fields = _with_ctx({"public": hexfield(t, "pk"), "msg": hexfield(t, "message"), "sig": hexfield(t, "signature")}, t)
    return [_case(folder, g, t, "verify", fields, "valid" if t["testPassed"] else "invalid", VERIFY_OK)]


def _slh_sign(folder: str, g: dict, t: dict) -> list[Case]:
    if not _pure_external(g) or g.get("deterministic") is not True or "additionalRandomness" in t:
        return []
    fields = _with_ctx({"private": hexfield(t, "sk"), "msg": hexfield(t, "message"), "deterministic": True}, t)
    return [_case(folder, g, t, "sign", fields, "valid", hexfield(t, "signature"))]


_KEM = tuple(f"ml-kem-{n}" for n in (512, 768, 1024))
_DSA = tuple(f"ml-dsa-{n}" for n in (44, 65, 87))
_SLH = tuple(f"slh-dsa-{h}-{b}{v}" for h in ("sha2", "shake") for b in (128, 192, 256) for v in "sf")

# folder -> (the catalogue names it can give, which one a group is, builder)
BUILDERS = {
    "ML-KEM-keyGen-FIPS203": (_KEM, parameter_set_alg, _mlkem_keygen),
    "ML-KEM-encapDecap-FIPS203": (_KEM, parameter_set_alg, _mlkem_encap),
    "ML-DSA-keyGen-FIPS204": (_DSA, parameter_set_alg, _seed_keygen),
    "ML-DSA-sigVer-FIPS204": (_DSA, parameter_set_alg, _sig_verify),
    "SLH-DSA-keyGen-FIPS205": (_SLH, parameter_set_alg, _slh_keygen),
    "SLH-DSA-sigGen-FIPS205": (_SLH, parameter_set_alg, _slh_sign),
    "SLH-DSA-sigVer-FIPS205": (_SLH, parameter_set_alg, _sig_verify),
}
