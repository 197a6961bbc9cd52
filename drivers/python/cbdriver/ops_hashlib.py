"""python:hashlib — the standard library's hashlib and hmac modules."""

from __future__ import annotations

import hashlib
import hmac
import platform
import ssl

from .ops_base import Cell, CellSpec, Provider, case_bytes, copied_cell, make_cell, noop_cell

# algorithm -> name of the hashlib constructor (default digest sizes: blake2b 64, blake2s 32 bytes)
HASHES = {
    "sha256": "sha256",
    "sha512": "sha512",
    "sha3-256": "sha3_256",
    "sha3-512": "sha3_512",
    "blake2b-512": "blake2b",
    "blake2s-256": "blake2s",
}


def _backing(ctor_name: str) -> str:
    """Which code a hashlib constructor runs: OpenSSL (via _hashlib) or CPython's own module."""
    ctor = getattr(hashlib, ctor_name)
    module = getattr(ctor, "__module__", None) or type(ctor()).__module__
    return "OpenSSL" if module == "_hashlib" else f"CPython's own {module} module"


class HashlibProvider(Provider):
    id = "python:hashlib"
    library = "hashlib"
    offers = {"noop": ("noop",), **{alg: ("hash",) for alg in HASHES}, "hmac-sha256": ("mac",)}
    stream = (*HASHES, "hmac-sha256")

    def library_version(self) -> str:
        return f"Python {platform.python_version()} hashlib ({ssl.OPENSSL_VERSION})"

    def notes(self) -> list[str]:
        by_backing: dict[str, list[str]] = {}
        for alg, ctor_name in HASHES.items():
            by_backing.setdefault(_backing(ctor_name), []).append(alg)
        notes = []
        for backing, algs in by_backing.items():
            where = f"OpenSSL through _hashlib ({ssl.OPENSSL_VERSION})" if backing == "OpenSSL" else backing
            notes.append(f"{', '.join(algs)}: {where}")
        inner = getattr(hmac.new(b"k", digestmod="sha256"), "_hmac", None)  # set when OpenSSL does the HMAC
        if type(inner).__module__ == "_hashlib":
            backing = "OpenSSL's HMAC through _hashlib"
        else:
            backing = "CPython's pure-Python hmac over hashlib"
        notes.append(
            "hmac-sha256 with a prepared key: keyed = hmac.new(key, digestmod='sha256') once per cell, then "
            f"h = keyed.copy(); h.update(msg); h.digest() per tag ({backing})"
        )
        notes.append(
            "hash: hashlib.<name>(msg).digest() per message; with chunk: "
            "h = hashlib.<name>(); h.update(piece) per piece; h.digest(); pieces are memoryviews of the "
            "doubled 1 MiB pattern, cut outside the timed region, so the message is never materialised"
        )
        return notes + super().notes()

    def execute(self, alg: str, case: dict) -> bytes:
        op, msg = case.get("op"), case_bytes(case, "msg")
        if alg in HASHES and op == "hash":
            return getattr(hashlib, HASHES[alg])(msg).digest()
        if alg == "hmac-sha256" and op == "mac":
            return hmac.digest(case_bytes(case, "key"), msg, "sha256")
        raise ValueError(f"{alg} {op!r} not offered by {self.id}")

    def cell(self, spec: CellSpec) -> Cell:
        if spec.alg == "noop":
            return noop_cell()
        if spec.alg in HASHES:
            return _hash_cell(getattr(hashlib, HASHES[spec.alg]), spec)
        if spec.alg == "hmac-sha256":
            return _hmac_cell(spec)
        raise ValueError(f"{spec.alg} not offered by {self.id}")


def _hash_cell(ctor, spec: CellSpec) -> Cell:
    if not spec.chunk:
        msg = spec.msg

        def call() -> int:
            return ctor(msg).digest()[0]

        def output() -> bytes:
            return ctor(msg).digest()

        return make_cell(call, output)

    pieces = spec.input_pieces()

    def call() -> int:
        h = ctor()
        for p in pieces():
            h.update(p)
        return h.digest()[0]

    def output() -> bytes:
        h = ctor()
        for p in pieces():
            h.update(p)
        return h.digest()

    return make_cell(call, output)


def _hmac_cell(spec: CellSpec) -> Cell:
    # the prepared key: one keyed HMAC object per cell (inner and outer pads absorbed once), copied per tag
    keyed = hmac.new(spec.key, digestmod="sha256")
    return copied_cell(keyed, type(keyed).digest, spec)


PROVIDER = HashlibProvider()
