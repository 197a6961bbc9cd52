"""python:pqcrypto — PyPI `pqcrypto` (Backbone's Rust crates through PyO3): HQC and SLH-DSA.

Why this provider: HQC as NIST selected it (the v5.0.0 specification of 2025-08-22, HQC-1/3/5) had
no provider passing its known answers — BouncyCastle 1.87 fails all 25 decapsulations of the v5.0.0
KAT, liboqs 0.13-0.15 ship the 2023 submission, and crates.io `hqc-kem` 0.1.0-rc.0 follows the
2026-02 sampling update (0 of 25 v5.0.0 decapsulations). pqcrypto's `backbone-hqc` answers all 25
for HQC-1 and HQC-3. It also carries all twelve SLH-DSA sets in compiled Rust.

What it cannot do, and answers `unsupported` for: key generation from a seed and deterministic or
given-randomness signing (the package draws its own randomness and exposes no seed), and `encaps`
with a given m. ML-KEM and ML-DSA are in the package too but not offered here: their private keys are
the expanded forms and no seed case could be checked, so they would stay unverified.
"""

from __future__ import annotations

import importlib

from .ops_base import (
    COMMON_NOTES,
    Cell,
    CellSpec,
    Provider,
    Rejected,
    Unsupported,
    case_bytes,
    make_cell,
    noop_cell,
    package_on_python,
)

SLH_SETS = tuple(f"{h}-{n}{v}" for h in ("sha2", "shake") for n in (128, 192, 256) for v in ("s", "f"))
HQC_LEVELS = {"hqc-1": "hqc_128", "hqc-3": "hqc_192", "hqc-5": "hqc_256"}
KEM_OPS = ("keygen", "encaps", "decaps")
SIG_OPS = ("keygen", "sign", "verify")


def _module(alg: str):
    """The package's submodule for `alg`, imported on first use (a missing package is one clear line)."""
    name = HQC_LEVELS.get(alg) or alg.replace("-", "_")
    kind = "kem" if alg in HQC_LEVELS else "sign"
    try:
        return importlib.import_module(f"pqcrypto.{kind}.{name}")
    except ImportError:
        raise ValueError("PyPI pqcrypto is not installed (the drivers extra: pqcrypto==1.0.0)") from None


def _sized(data: bytes, size: int, what: str) -> bytes:
    """The package checks lengths with a ValueError of its own; say it as the protocol does (rejected)."""
    if len(data) != size:
        raise Rejected(f"{what} must be {size} bytes, got {len(data)}")
    return data


class PqcryptoProvider(Provider):
    id = "python:pqcrypto"
    library = "PyPI pqcrypto (Backbone's Rust HQC and SLH-DSA crates through PyO3)"
    offers = {
        "noop": ("noop",),
        **dict.fromkeys(HQC_LEVELS, KEM_OPS),
        **{f"slh-dsa-{s}": SIG_OPS for s in SLH_SETS},
    }
    stream = ()

    def library_version(self) -> str:
        return package_on_python("pqcrypto")

    def notes(self) -> list[str]:
        return [
            "HQC: pqcrypto.kem.hqc_128/192/256 (backbone-hqc, the v5.0.0 specification of 2025-08-22): "
            "keys and ciphertexts in the submission's encoding (its KAT files); keygen(), encaps(pk), "
            "decaps(sk, ct)",
            "SLH-DSA: pqcrypto.sign.slh_dsa_* (backbone-slh-dsa), pure (no pre-hash), hedged signing with "
            "the package's own randomness, empty context; keys as FIPS 205 encodes them",
            "unsupported: keygen from a seed, deterministic signing, encapsulation with a given m (the "
            "package exposes no seed or randomness input): verified by decapsulation and verification "
            "cases and by cross-verification",
            *COMMON_NOTES,
        ]

    def keypair(self, alg: str) -> tuple[bytes, bytes]:
        return _module(alg).keygen()

    def execute(self, alg: str, case: dict) -> bytes:
        mod, op = _module(alg), case.get("op")
        if alg in HQC_LEVELS:
            if op == "decaps":
                sk = _sized(case_bytes(case, "private"), mod.SECRET_KEY_SIZE, "private key")
                return mod.decaps(sk, _sized(case_bytes(case, "msg"), mod.CIPHERTEXT_SIZE, "ciphertext"))
            if op == "encaps" and "m" not in case:
                ct, ss = mod.encaps(_sized(case_bytes(case, "public"), mod.PUBLIC_KEY_SIZE, "public key"))
                return ct + ss
        elif op == "verify":
            ctx = case_bytes(case, "ctx", required=False)
            if len(ctx) > 255:
                raise Rejected("context longer than 255 bytes")
            pk = _sized(case_bytes(case, "public"), mod.PUBLIC_KEY_SIZE, "public key")
            sig = _sized(case_bytes(case, "sig"), mod.SIGNATURE_SIZE, "signature")
            try:
                mod.verify(pk, case_bytes(case, "msg"), sig, ctx or None)
            except Exception as e:  # InvalidSignatureError, or the package's ValueError for a bad key
                raise Rejected(f"signature does not verify: {e}") from None
            return b"\x01"
        elif op == "sign" and not case.get("deterministic", False) and "rnd" not in case:
            ctx = case_bytes(case, "ctx", required=False)
            sk = _sized(case_bytes(case, "private"), mod.SECRET_KEY_SIZE, "private key")
            return mod.sign(sk, case_bytes(case, "msg"), ctx or None)
        raise Unsupported(f"{alg} {op!r} with these inputs: {self.id} has no seed or randomness input")

    def cell(self, spec: CellSpec) -> Cell:
        if spec.alg == "noop":
            return noop_cell()
        mod = _module(spec.alg)
        keygen = mod.keygen
        if spec.op == "keygen":

            def call() -> int:  # the generate call alone
                return keygen()[0][0]

            return make_cell(call, lambda: keygen()[0], empty=False)
        pk, sk = keygen()  # once per cell, outside the timed region
        if spec.op == "encaps":
            encaps = mod.encaps

            def call() -> int:
                return encaps(pk)[1][0]

            return make_cell(call, lambda: b"".join(encaps(pk)), empty=False)
        if spec.op == "decaps":
            ct, _ = mod.encaps(pk)  # made once, outside the timed region
            decaps = mod.decaps

            def call() -> int:
                return decaps(sk, ct)[0]

            return make_cell(call, lambda: decaps(sk, ct), empty=False)
        msg = spec.msg
        if spec.op == "sign":
            sign = mod.sign

            def call() -> int:
                return sign(sk, msg)[0]

            return make_cell(call, lambda: sign(sk, msg), empty=False)
        if spec.op == "verify":
            sig = mod.sign(sk, msg)  # made once, outside the timed region
            verify = mod.verify

            def check() -> bytes:
                verify(pk, msg, sig)  # raises when the signature does not verify
                return b"\x01"

            def call() -> int:
                verify(pk, msg, sig)
                return 1

            return make_cell(call, check, empty=False)
        raise ValueError(f"{spec.alg} {spec.op!r} not offered by {self.id}")


PROVIDER = PqcryptoProvider()
