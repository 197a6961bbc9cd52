"""Independent witnesses: which built-in provider corroborates a lone provider's differential inputs.

A provider alone in a run (or beside providers of its own library only) has nobody to agree with at
the lengths no published vector has (docs/verification.md, the floor). The runner then starts one
provider from `ORDER` that is not in the run, first checks it against the algorithm's known answers,
and asks it the differential inputs: where it gives the same output, that counts as agreement. It is
never measured and never votes.

A witness must be an independent implementation: one that runs the same library's code would repeat
its bugs. `family` says which providers share code: the OpenSSL wrappers (pyca/cryptography,
hashlib, node:crypto, WebCrypto in Node, every `c:openssl@version`) and OpenSSL's forks (BoringSSL
in ring and Chromium, AWS-LC) are one family, as are a library and its bindings (libsodium and
PyNaCl, Botan's two APIs, BouncyCastle's two APIs, noble, asmcrypto, jsrsasign and hash-wasm in Node and
the browser, Backbone's HQC natively and through PyO3, OpenSSL compiled to wasm).
Every other provider, a user's plugin included, is a family of its own. A family is also one voice in a
cross-verification dispute (cross_checks.reference): two APIs of one library agreeing with each other
are not a majority against a third provider.
"""

from __future__ import annotations

import os

# tried in this order, each skipped when it is not built, does not offer the algorithm's operations,
# fails its known answers, is in the run already or shares the provider's family. Cheapest first, as
# measured answering 500 one-shot sha256 inputs (verify's count): RustCrypto 0.05 s, Go 2 s (a
# garbage collection per request), the C plugins 0.9 s, noble 5.6 s, BouncyCastle 11 s and a second
# to start; libgcrypt and Botan add the SM algorithms
ORDER: tuple[str, ...] = ("rust:rustcrypto", "go:stdlib", "c:libsodium", "c:nettle", "c:libgcrypt", "cpp:botan",
                          "js:noble", "java:bouncycastle-lw")  # fmt: skip

MARK = "witness (not measured): "  # how a record names a witness brought in from outside the run


def order() -> tuple[str, ...]:
    """ORDER, or the providers CRYPTOBENCH_WITNESSES names (comma-separated; set and empty: none)."""
    named = os.environ.get("CRYPTOBENCH_WITNESSES")
    return ORDER if named is None else tuple(p.strip() for p in named.split(",") if p.strip())


_OPENSSL = {"c:openssl", "python:cryptography", "python:cryptography-bytewise", "python:hashlib", "js:node",
            "js:webcrypto", "rust:ring", "rust:aws-lc-rs", "browser:webcrypto", "wasm:openssl-wasmtime",
            "wasm:openssl-node", "browser:openssl-wasm"}  # fmt: skip
# PyPI pqcrypto 1.0.0 bundles backbone-hqc 0.2.0 (its wheel's SBOM), the crate rust:backbone links
_SHARED = {"python:pynacl": "c:libsodium", "c:botan-ffi": "cpp:botan", "java:bouncycastle": "java:bouncycastle-lw",
           "browser:noble": "js:noble", "browser:wasm": "wasm:hash-wasm", "browser:asmcrypto": "js:asmcrypto",
           "browser:jsrsasign": "js:jsrsasign", "rust:backbone": "python:pqcrypto"}  # fmt: skip


def family(pid: str) -> str:
    """The library whose code a provider runs: providers of one family are not each other's witnesses."""
    base = pid.split("@", 1)[0]
    if base in _OPENSSL or base.startswith("c:openssl"):  # c:openssl-3.6.3, the old id of c:openssl@3.6.3
        return "openssl"
    return _SHARED.get(base, base)
