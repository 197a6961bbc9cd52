"""The fixed input every driver generates (docs/protocol.md), and cell keys."""

from __future__ import annotations

from functools import lru_cache

PERIOD = 1 << 20
DEFAULT_SEED = 2654435769
KEY_SEED, IV_SEED = 0x5EED0001, 0x5EED0002


def xorshift32(seed: int, n: int) -> bytes:
    x = seed & 0xFFFFFFFF
    if x == 0:
        raise ValueError("xorshift32 seed must not be 0")
    out = bytearray(n)
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    return bytes(out)


@lru_cache(maxsize=4)
def pattern(seed: int = DEFAULT_SEED) -> bytes:
    return xorshift32(seed, PERIOD)


def message(size: int, seed: int = DEFAULT_SEED) -> bytes:
    if size <= 4096:  # a prefix of the pattern: not worth making (and caching) the whole MiB for it
        return xorshift32(seed, size)
    p = pattern(seed)
    reps, rest = divmod(size, PERIOD)
    return p * reps + p[:rest]


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def checksum(output: bytes) -> str:
    return f"{len(output):08x}:{fnv1a64(output):016x}"


def checksum_length(checksum: str) -> int | None:
    """The output length a checksum records (its 8 hex digits before the colon), None when it has none."""
    head = checksum.split(":", 1)[0] if checksum else ""
    try:
        return int(head, 16) if len(head) == 8 else None
    except ValueError:
        return None


def cell_key(length: int) -> str:
    return xorshift32(KEY_SEED, length).hex()


def cell_iv(length: int) -> str:
    return xorshift32(IV_SEED, length).hex()
