"""The two classes of input each operation is timed with (docs/leak.md § Classes).

A class pair is built once per check: the inputs (verify-case objects the driver prepares cells
from) and which of them belong to class A and class B. A fixed class is one input, a random class
a pool of distinct inputs; the driver still prepares one cell per measurement for both, so the
classes touch the same amount of memory. Inputs that need the library (a valid tag, a key pair, a
ciphertext) come from the provider itself through `verify` cases and `keypair`, so the check needs
no cryptography of our own."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from cryptobench.core.algorithms import DIGEST_LEN, TAG_LEN, Algorithm, size_of
from cryptobench.core.errors import UserError

POOL = 256  # distinct inputs of a random class


class LeakInputError(Exception):
    """The provider could not make an input a class needs (one line)."""


class Source:
    """What a class asks the provider for: verify-case answers and fresh key pairs."""

    def __init__(self, ask: Callable[[dict], dict], alg: str):
        self.ask, self.alg = ask, alg

    def outputs(self, cases: list[dict]) -> list[bytes]:
        resp = self.ask({"cmd": "verify", "alg": self.alg, "cases": [{"id": str(i), **c} for i, c in enumerate(cases)]})
        if not resp.get("ok"):
            raise LeakInputError(f"{self.alg}: {resp.get('error')}")
        outs = []
        for r in resp.get("results", []):
            if "out" not in r:
                raise LeakInputError(f"{self.alg} {cases[0].get('op')}: input not made: {r.get('error', 'rejected')}")
            outs.append(bytes.fromhex(r["out"]))
        if len(outs) != len(cases):
            raise LeakInputError(f"{self.alg}: verify returned {len(outs)} results for {len(cases)} cases")
        return outs

    def keypair(self) -> tuple[str, str]:
        resp = self.ask({"cmd": "keypair", "alg": self.alg})
        if not resp.get("ok"):
            raise LeakInputError(f"{self.alg} keypair: {resp.get('error')}")
        return resp["public"], resp["private"]


@dataclass(frozen=True)
class Inputs:
    inputs: list[dict]
    members: tuple[list[int], list[int]]  # input indices of class A, class B
    expect: tuple[str | None, str | None]  # the outcome every input of a class must have, if any


def _pair(fixed: list[dict], random_: list[dict], expect=(None, None)) -> Inputs:
    return Inputs(fixed + random_, (list(range(len(fixed))), list(range(len(fixed), len(fixed) + len(random_)))),
                  expect)  # fmt: skip


def _hex(rng: random.Random, n: int) -> str:
    return rng.randbytes(n).hex()


# --- symmetric ----------------------------------------------------------------------------------


def _tag(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    key, iv = _hex(rng, a.key_len), _hex(rng, a.iv_len)
    msgs = [_hex(rng, size) for _ in range(POOL)]
    sealed = src.outputs([{"op": "seal", "key": key, "iv": iv, "msg": m} for m in msgs])

    def forged(ct: bytes, at: int) -> dict:
        b = bytearray(ct)
        b[at] ^= rng.randrange(1, 256)
        return {"key": key, "iv": iv, "msg": bytes(b).hex()}

    first = [forged(ct, len(ct) - TAG_LEN) for ct in sealed]
    last = [forged(ct, len(ct) - 1) for ct in sealed]
    return _pair(first, last, ("rejected", "rejected"))


def _plaintext(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    key, iv = _hex(rng, a.key_len), _hex(rng, a.iv_len)
    one = [{"key": key, "iv": iv, "msg": _hex(rng, size)}]
    return _pair(one, [{"key": key, "iv": iv, "msg": _hex(rng, size)} for _ in range(POOL)])


def _key(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    iv, msg = _hex(rng, a.iv_len), _hex(rng, size)
    one = [{"key": _hex(rng, a.key_len), "iv": iv, "msg": msg}]
    return _pair(one, [{"key": _hex(rng, a.key_len), "iv": iv, "msg": msg} for _ in range(POOL)])


# --- MAC verification and secret comparison (leak-only operations of a MAC: docs/protocol.md § leak) -----


def _mac_tags(src: Source, a: Algorithm, size: int, rng: random.Random) -> tuple[str, list[str], list[bytes]]:
    """One key, POOL random messages and their tags, from the provider's own `mac`."""
    key, msgs = _hex(rng, a.key_len), [_hex(rng, size) for _ in range(POOL)]
    return key, msgs, src.outputs([{"op": "mac", "key": key, "msg": m} for m in msgs])


def _wrong_at(tag: bytes, at: int, rng: random.Random) -> str:
    b = bytearray(tag)
    b[at] ^= rng.randrange(1, 256)
    return bytes(b).hex()


def _mac_tag(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    key, msgs, tags = _mac_tags(src, a, size, rng)
    first = [{"key": key, "msg": m, "sig": _wrong_at(t, 0, rng)} for m, t in zip(msgs, tags, strict=True)]
    last = [{"key": key, "msg": m, "sig": _wrong_at(t, len(t) - 1, rng)} for m, t in zip(msgs, tags, strict=True)]
    return _pair(first, last, ("rejected", "rejected"))


def _mac_valid(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    key, msgs, tags = _mac_tags(src, a, size, rng)
    right = [{"key": key, "msg": m, "sig": t.hex()} for m, t in zip(msgs, tags, strict=True)]
    wrong = [{"key": key, "msg": m, "sig": _wrong_at(t, rng.randrange(len(t)), rng)}
             for m, t in zip(msgs, tags, strict=True)]  # fmt: skip
    return _pair(right, wrong, ("ok", "rejected"))


def _compare(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    """Two secrets of the MAC's tag length: equal, or unequal in their first byte (where an
    early-exit comparison stops at once). No cryptography: the library's comparison alone."""
    n = DIGEST_LEN.get(a.name, 32)
    secrets = [rng.randbytes(n) for _ in range(POOL)]
    equal = [{"msg": x.hex(), "sig": x.hex()} for x in secrets]
    unequal = [{"msg": x.hex(), "sig": _wrong_at(x, 0, rng)} for x in secrets]
    return _pair(equal, unequal, ("ok", "rejected"))


# --- public key ---------------------------------------------------------------------------------


def _against_random_keys(src: Source, op: str, size: int, rng: random.Random, first: str) -> Inputs:
    """Class A: one private key (`first`); class B: POOL fresh private keys from the provider's own
    generator. `derive` against one fixed peer, `sign` over one fixed message."""
    peer = src.keypair()[0] if op == "derive" else ""
    msg = _hex(rng, size or 32)

    def case(private: str) -> dict:
        return {"private": private, "public": peer} if op == "derive" else {"private": private, "msg": msg}

    return _pair([case(first)], [case(src.keypair()[1]) for _ in range(POOL)])


def _secret(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    return _against_random_keys(src, op, size, rng, src.keypair()[1])


# Low-weight secrets: X25519/X448 raw scalars that clamp to a single bit; EC scalars with three
# bits set (1 + 2^64 + 2^128), padded to the field size.
_LOW_WEIGHT = {
    "x25519": bytes(31) + b"\x40",
    "x448": bytes(55) + b"\x80",
    **{c: (1 + (1 << 64) + (1 << 128)).to_bytes(n, "big") for c, n in (("p256", 32), ("p384", 48), ("secp256k1", 32))},
}


def _low_weight_secret(alg: str) -> bytes | None:
    return _LOW_WEIGHT.get(alg) or _LOW_WEIGHT.get(alg.split("-", 1)[-1])


def _low_weight(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    return _against_random_keys(src, op, size, rng, _low_weight_secret(a.name).hex())


def _input(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    public, private = src.keypair()
    n = size or 32
    if op == "sign":
        msgs = [_hex(rng, n) for _ in range(POOL + 1)]
        return _pair([{"private": private, "msg": msgs[0]}], [{"private": private, "msg": m} for m in msgs[1:]])
    # decrypt: every ciphertext valid, made by the provider's own encryption
    cts = src.outputs([{"op": "encrypt", "public": public, "msg": _hex(rng, n)} for _ in range(POOL + 1)])
    cases = [{"private": private, "msg": ct.hex()} for ct in cts]
    return _pair(cases[:1], cases[1:], ("ok", "ok"))


def _validity(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    public, private = src.keypair()
    outs = src.outputs([{"op": "encaps", "public": public} for _ in range(POOL)])
    cts = [o[: -(size_of(a.name, "shared secret") or 32)] for o in outs]  # ciphertext || shared key

    def flipped(ct: bytes) -> str:
        b = bytearray(ct)
        b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        return bytes(b).hex()

    valid = [{"private": private, "msg": ct.hex()} for ct in cts]
    invalid = [{"private": private, "msg": flipped(ct)} for ct in cts]
    return _pair(valid, invalid, ("ok", None))  # implicit rejection answers a key; a refusal is the provider's


def _padding(src: Source, a: Algorithm, op: str, size: int, rng: random.Random) -> Inputs:
    """RSA-OAEP decryption of valid ciphertexts (the provider's own encryption) vs the same
    ciphertexts with one bit flipped in their lower half: still an integer below the modulus, of
    the same size (no early "too large" exit), whose decryption is random bytes, so the padding
    check fails. The Bleichenbacher/Manger question: does a refused padding take another time?"""
    public, private = src.keypair()
    cts = src.outputs([{"op": "encrypt", "public": public, "msg": _hex(rng, size or 32)} for _ in range(POOL)])

    def flipped(ct: bytes) -> str:
        b = bytearray(ct)
        b[rng.randrange(len(b) // 2, len(b))] ^= 1 << rng.randrange(8)
        return bytes(b).hex()

    valid = [{"private": private, "msg": ct.hex()} for ct in cts]
    invalid = [{"private": private, "msg": flipped(ct)} for ct in cts]
    return _pair(valid, invalid, ("ok", "rejected"))


@dataclass(frozen=True)
class LeakClass:
    name: str
    labels: tuple[str, str]
    what: str
    applies: Callable[[Algorithm, str], bool]
    build: Callable[[Source, Algorithm, str, int, random.Random], Inputs]
    op: str | None = None  # the leak request's operation when it is not the cell's (a MAC's verify)

    def leak_op(self, op: str) -> str:
        return self.op or op


CLASSES: dict[str, LeakClass] = {
    c.name: c
    for c in [
        LeakClass("tag", ("tag wrong in byte 1", "tag wrong in byte 16"),
                  "AEAD open of a forged tag, wrong in its first vs its last byte (an early-exit compare)",
                  lambda a, op: a.kind == "aead" and op == "open", _tag),
        LeakClass("plaintext", ("fixed plaintext", "random plaintext"),
                  "cipher/AEAD encryption of one fixed vs random plaintexts under one key (table lookups)",
                  lambda a, op: (a.kind == "cipher" and op == "encrypt") or (a.kind == "aead" and op == "seal"),
                  _plaintext),
        LeakClass("key", ("fixed key", "random key"),
                  "cipher/AEAD/MAC with one fixed vs random keys (key-dependent lookups; key schedule untimed)",
                  lambda a, op: a.kind in ("cipher", "mac") or (a.kind == "aead" and op == "seal"), _key),
        LeakClass("secret", ("fixed secret", "random secret"),
                  "ECDH/X25519 derive and signing with one fixed vs random private keys (the library's own)",
                  lambda a, op: (a.kind == "kex" and op == "derive")
                  or (a.kind == "sig" and op == "sign" and not a.name.startswith("rsa")), _secret),
        LeakClass("low-weight", ("low-weight secret", "random secret"),
                  "X25519/X448/ECDH derive and ECDSA signing with a low-weight vs random private keys",
                  lambda a, op: op in ("derive", "sign") and _low_weight_secret(a.name) is not None
                  and not a.name.startswith("ed"), _low_weight),
        LeakClass("input", ("fixed input", "random input"),
                  "signing one fixed vs random messages; RSA decryption of one fixed vs random valid ciphertexts",
                  lambda a, op: (a.kind == "sig" and op == "sign") or (a.kind == "pke" and op == "decrypt"), _input),
        LeakClass("validity", ("valid ciphertext", "invalid ciphertext"),
                  "ML-KEM decapsulation of valid vs invalid ciphertexts (implicit rejection)",
                  lambda a, op: a.kind == "kem" and op == "decaps", _validity),
        LeakClass("mac-tag", ("tag wrong in byte 1", "tag wrong in its last byte"),
                  "MAC verification (the library's own) of a tag wrong in its first vs its last byte",
                  lambda a, op: a.kind == "mac" and op == "mac", _mac_tag, op="verify"),
        LeakClass("mac-valid", ("right tag", "wrong tag"),
                  "MAC verification (the library's own) of the right tag vs a tag wrong in one byte",
                  lambda a, op: a.kind == "mac" and op == "mac", _mac_valid, op="verify"),
        LeakClass("compare", ("equal", "unequal in byte 1"),
                  "the library's constant-time comparison of two tag-sized secrets, equal vs unequal",
                  lambda a, op: a.kind == "mac" and op == "mac", _compare, op="compare"),
        LeakClass("padding", ("valid padding", "invalid padding"),
                  "RSA-OAEP decryption of valid ciphertexts vs the same with one bit flipped (Bleichenbacher/Manger)",
                  lambda a, op: a.kind == "pke" and op == "decrypt", _padding),
    ]
}  # fmt: skip


def applicable(a: Algorithm, op: str) -> list[LeakClass]:
    return [c for c in CLASSES.values() if c.applies(a, op)]


def parse(values: list[str] | None) -> list[str]:
    """--class / suite `leak_classes`: names, comma-separated, repeatable; unknown names refused."""
    from cryptobench.core.lists import split_list

    names = split_list(values, "--class") or []
    unknown = [n for n in names if n not in CLASSES]
    if unknown:
        raise UserError(f"unknown leak class {unknown[0]!r} (one of {', '.join(CLASSES)})")
    return names
