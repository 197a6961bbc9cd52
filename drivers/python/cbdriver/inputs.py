"""The fixed input (xorshift32 pattern with a 1 MiB period), FNV-1a 64, checksums and hex helpers."""

from __future__ import annotations

import functools
import re

PATTERN_LEN = 1 << 20  # 1 MiB period of the message pattern
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
_MASK32 = 0xFFFFFFFF
_MASK64 = 0xFFFFFFFFFFFFFFFF
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")


@functools.lru_cache(maxsize=4)
def pattern(seed: int) -> bytes:
    """The first 1 MiB of the xorshift32 byte stream for `seed` (computed once per seed, ~0.2 s)."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 < seed <= _MASK32:
        raise ValueError(f"seed must be a uint32 other than 0, got {seed!r}")
    x = seed
    out = bytearray(PATTERN_LEN)
    for i in range(PATTERN_LEN):
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        out[i] = x & 0xFF
    return bytes(out)


def message(seed: int, n: int) -> bytes:
    """The `n`-byte message M[i] = P[i mod 1 MiB]."""
    if n < 0:
        raise ValueError(f"size must be >= 0, got {n}")
    p = pattern(seed)
    if n <= PATTERN_LEN:
        return p[:n]
    q, r = divmod(n, PATTERN_LEN)
    return p * q + p[:r]


def fnv1a64(data: bytes) -> int:
    h = FNV_OFFSET
    prime, mask = FNV_PRIME, _MASK64
    for b in data:
        h = ((h ^ b) * prime) & mask
    return h


def checksum(out: bytes) -> str:
    """`<length as 8 hex digits>:<FNV-1a 64 as 16 hex digits>` of one operation's output."""
    return f"{len(out):08x}:{fnv1a64(out):016x}"


def unhex(value, name: str) -> bytes:
    """Bytes of a hex string field; a one-line ValueError naming the field otherwise."""
    if not isinstance(value, str):
        raise ValueError(f"{name} must be a hex string, got {type(value).__name__}")
    if not _HEX.fullmatch(value):
        raise ValueError(f"{name} is not an even-length hex string")
    return bytes.fromhex(value)


def tohex(data: bytes) -> str:
    return data.hex()
