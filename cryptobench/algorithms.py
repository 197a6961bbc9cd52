"""The algorithm catalogue: names, kinds, operations and parameter sizes.

One table that every other module (suites, vectors, planner, reports) reads,
so an algorithm's key length or operations are written down exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Algorithm:
    name: str
    kind: str  # hash | mac | cipher | aead | stream-cipher | noop
    ops: tuple[str, ...]
    key_len: int = 0
    iv_len: int = 0
    block: int = 1  # messages must be a multiple of this (ECB/CBC: 16)

    @property
    def deterministic(self) -> bool:
        return True


def _hash(name: str) -> Algorithm:
    return Algorithm(name, "hash", ("hash",))


def _cipher(name: str, key_len: int, iv_len: int, block: int = 1) -> Algorithm:
    return Algorithm(name, "cipher", ("encrypt", "decrypt"), key_len, iv_len, block)


def _aead(name: str, key_len: int, iv_len: int) -> Algorithm:
    return Algorithm(name, "aead", ("seal", "open"), key_len, iv_len)


ALGORITHMS: dict[str, Algorithm] = {
    a.name: a
    for a in [
        _hash("sha256"),
        _hash("sha512"),
        _hash("sha3-256"),
        _hash("sha3-512"),
        _hash("blake2b-512"),
        _hash("blake2s-256"),
        _hash("sm3"),
        Algorithm("hmac-sha256", "mac", ("mac",), key_len=32),
        _cipher("aes-128-ecb", 16, 0, 16),
        _cipher("aes-256-ecb", 32, 0, 16),
        _cipher("aes-128-cbc", 16, 16, 16),
        _cipher("aes-256-cbc", 32, 16, 16),
        _cipher("aes-128-ctr", 16, 16),
        _cipher("aes-256-ctr", 32, 16),
        _cipher("chacha20", 32, 12),
        _aead("aes-128-gcm", 16, 12),
        _aead("aes-256-gcm", 32, 12),
        _aead("aes-128-ccm", 16, 12),
        _aead("aes-256-ccm", 32, 12),
        _aead("chacha20-poly1305", 32, 12),
        _aead("xchacha20-poly1305", 32, 24),
        Algorithm("noop", "noop", ("noop",)),
    ]
}

TAG_LEN = 16


def get(name: str) -> Algorithm:
    try:
        return ALGORITHMS[name]
    except KeyError:
        raise KeyError(f"unknown algorithm: {name!r} (see `cryptobench list algorithms`)") from None


DIGEST_LEN = {
    "sha256": 32,
    "sha512": 64,
    "sha3-256": 32,
    "sha3-512": 64,
    "blake2b-512": 64,
    "blake2s-256": 32,
    "sm3": 32,
    "hmac-sha256": 32,
}


def output_len(alg: str, op: str, size: int) -> int | None:
    """Length of one operation's output, so a driver's checksum can be sanity-checked."""
    if op in ("hash", "mac"):
        return DIGEST_LEN.get(alg)
    if op in ("encrypt", "decrypt", "open"):
        return size
    if op == "seal":
        return size + TAG_LEN
    if op == "noop":
        return 0
    return None
