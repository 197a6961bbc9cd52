"""python:pynacl — PyNaCl (PyPI `pynacl`, libsodium bindings) as a cryptobench plugin.

Served by the Python driver: `cryptobench run --plugin plugins/python/pynacl_provider.py`.
Only the operations are written here (docs/plugins.md).
"""

from __future__ import annotations

import nacl
from cbdriver.plugin import Cell, CellSpec, Provider, Rejected, case_bytes, output_cell
from nacl import bindings
from nacl.encoding import RawEncoder
from nacl.exceptions import CryptoError
from nacl.hash import blake2b, sha256, sha512

HASHES = {  # algorithm -> message -> digest (PyNaCl hashes hex-encode unless told otherwise)
    "sha256": lambda m: sha256(m, encoder=RawEncoder),
    "sha512": lambda m: sha512(m, encoder=RawEncoder),
    "blake2b-512": lambda m: blake2b(m, digest_size=64, encoder=RawEncoder),
}
AEADS = {  # algorithm -> (seal, open) of libsodium's combined mode: ciphertext || 16-byte tag
    "chacha20-poly1305": (
        bindings.crypto_aead_chacha20poly1305_ietf_encrypt,
        bindings.crypto_aead_chacha20poly1305_ietf_decrypt,
    ),
    "xchacha20-poly1305": (
        bindings.crypto_aead_xchacha20poly1305_ietf_encrypt,
        bindings.crypto_aead_xchacha20poly1305_ietf_decrypt,
    ),
}


def _open(open_, sealed: bytes, aad: bytes, nonce: bytes, key: bytes) -> bytes:
    try:
        return open_(sealed, aad or None, nonce, key)
    except CryptoError:
        raise Rejected("tag does not verify") from None


class PynaclProvider(Provider):
    id = "python:pynacl"
    library = "PyNaCl (libsodium)"
    offers = {**{alg: ("hash",) for alg in HASHES}, **{alg: ("seal", "open") for alg in AEADS}}

    def library_version(self) -> str:
        return f"pynacl {nacl.__version__} (the libsodium its wheel bundles)"

    def notes(self) -> list[str]:
        return [
            "hashes through nacl.hash with RawEncoder; AEADs through nacl.bindings' IETF combined mode",
        ] + super().notes()

    def execute(self, alg: str, case: dict) -> bytes:
        msg = case_bytes(case, "msg")
        if alg in HASHES:
            return HASHES[alg](msg)
        key, iv, aad = case_bytes(case, "key"), case_bytes(case, "iv"), case_bytes(case, "aad", required=False)
        seal, open_ = AEADS[alg]
        return seal(msg, aad or None, iv, key) if case.get("op") == "seal" else _open(open_, msg, aad, iv, key)

    def cell(self, spec: CellSpec) -> Cell:
        alg, key, iv, msg = spec.alg, spec.key, spec.iv, spec.msg
        if alg in HASHES:
            digest = HASHES[alg]

            def output() -> bytes:
                return digest(msg)

        elif alg in AEADS and spec.op == "seal":
            seal = AEADS[alg][0]

            def output() -> bytes:
                return seal(msg, None, iv, key)

        elif alg in AEADS:
            open_ = AEADS[alg][1]
            sealed = AEADS[alg][0](msg, None, iv, key)  # made untimed

            def output() -> bytes:
                return _open(open_, sealed, b"", iv, key)

        else:
            raise ValueError(f"{alg} not offered by {self.id}")

        return output_cell(output)


PROVIDER = PynaclProvider()
