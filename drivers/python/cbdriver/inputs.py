"""The fixed input (xorshift32 pattern with a 1 MiB period), streamed pieces of it, FNV-1a 64,
checksums and hex helpers.

The pattern and FNV-1a come from a native helper when it is built (native/fixed_input.c, loaded
with ctypes): interpreted, they cost 0.2 s per new driver process and 0.06 s per MiB of every
checksum, which spent a paired cell's budget (its providers' mean time) in few pair rounds. The
Python loops here are the fallback, and the driver's tests hold the helper to them."""

from __future__ import annotations

import ctypes
import functools
import math
import re
from collections.abc import Callable, Iterable
from itertools import chain, cycle, islice
from pathlib import Path

PATTERN_LEN = 1 << 20  # 1 MiB period of the message pattern
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3
_MASK32 = 0xFFFFFFFF
_MASK64 = 0xFFFFFFFFFFFFFFFF
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*")
HELPER = Path(__file__).resolve().parent.parent / "build" / "libcbfixed.so"


def _load_helper() -> ctypes.CDLL | None:
    if not HELPER.exists():
        return None
    try:
        lib = ctypes.CDLL(str(HELPER))
        lib.cb_pattern.restype = None
        lib.cb_pattern.argtypes = [ctypes.c_uint32, ctypes.c_char_p, ctypes.c_size_t]
        lib.cb_fnv1a64.restype = ctypes.c_uint64
        lib.cb_fnv1a64.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_uint64]
    except (OSError, AttributeError):
        return None
    return lib


native = _load_helper()  # None: the Python loops below


@functools.lru_cache(maxsize=4)
def pattern(seed: int) -> bytes:
    """The first 1 MiB of the xorshift32 byte stream for `seed` (computed once per seed)."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 < seed <= _MASK32:
        raise ValueError(f"seed must be a uint32 other than 0, got {seed!r}")
    if native is not None:
        out = ctypes.create_string_buffer(PATTERN_LEN)
        native.cb_pattern(seed, out, PATTERN_LEN)
        return out.raw
    return pattern_py(seed)


def pattern_py(seed: int) -> bytes:
    """`pattern` in Python: the fallback, and what the tests check the helper against."""
    x = seed
    out = bytearray(PATTERN_LEN)
    for i in range(PATTERN_LEN):
        x ^= (x << 13) & _MASK32
        x ^= x >> 17
        x ^= (x << 5) & _MASK32
        out[i] = x & 0xFF
    return bytes(out)


@functools.lru_cache(maxsize=2)
def doubled_pattern(seed: int) -> bytes:
    """The pattern twice (2 MiB): any piece of up to 1 MiB starting anywhere in the period is contiguous."""
    p = pattern(seed)
    return p + p


def message(seed: int, n: int) -> bytes:
    """The `n`-byte message M[i] = P[i mod 1 MiB]."""
    if n < 0:
        raise ValueError(f"size must be >= 0, got {n}")
    p = pattern(seed)
    if n <= PATTERN_LEN:
        return p[:n]
    q, r = divmod(n, PATTERN_LEN)
    return p * q + p[:r]


# At most this many piece objects (memoryviews, ~200 bytes each) are kept for one streamed cell.
MAX_PIECE_OBJECTS = 1 << 16


def pieces(buf, size: int, chunk: int, period: int = 0) -> Callable[[], Iterable[memoryview]]:
    """A function giving, on each call, the `chunk`-byte pieces of a `size`-byte stream (the last may be
    shorter) as zero-copy memoryviews of `buf`.

    With `period` (the fixed input: `buf` is the doubled pattern, period 1 MiB) piece i starts at
    (i * chunk) mod period, so the message is never materialised; without it (a ciphertext kept whole)
    piece i starts at i * chunk. The pieces are cut once, outside the timed region: all of them when there
    are at most MAX_PIECE_OBJECTS, else the distinct ones of one period, cycled; only when neither fits
    are they sliced as they are consumed (one memoryview slice per piece inside the timed operation).
    """
    if chunk <= 0:
        raise ValueError("chunk must be > 0")
    if period and chunk > period:
        raise ValueError(f"chunk is at most {period} bytes, got {chunk}")
    view = memoryview(buf)
    reach = size if not period or size <= period else period - 1 + chunk  # the furthest byte a piece reads
    if len(view) < reach:
        raise ValueError(f"buffer of {len(view)} bytes is shorter than the {reach} the stream reads")

    def piece(start: int) -> memoryview:
        off = start % period if period else start
        return view[off : off + min(chunk, size - start)]

    n = -(-size // chunk)
    if n <= MAX_PIECE_OBJECTS:
        cut = [piece(i * chunk) for i in range(n)]
        return lambda: cut
    if period:
        # piece i and piece i + distinct start at the same offset
        distinct = period // math.gcd(chunk, period)
        full_count = size // chunk
        if distinct <= MAX_PIECE_OBJECTS:
            full = [piece(i * chunk) for i in range(distinct)]
            tail = [piece(full_count * chunk)] if size % chunk else []
            return lambda: chain(islice(cycle(full), full_count), tail)

    def lazy():
        for start in range(0, size, chunk):
            yield piece(start)

    return lazy


def fnv1a64(data, h: int = FNV_OFFSET) -> int:
    """FNV-1a 64 of `data`, continuing from `h` (so a stream can be hashed piece by piece)."""
    if native is not None and len(data) >= 64:  # below that a ctypes call costs more than the loop
        buf = data if isinstance(data, bytes) else bytes(data)
        return native.cb_fnv1a64(buf, len(buf), h)
    return fnv1a64_py(data, h)


def fnv1a64_py(data, h: int = FNV_OFFSET) -> int:
    """`fnv1a64` in Python: the fallback, and what the tests check the helper against."""
    prime, mask = FNV_PRIME, _MASK64
    for b in data:
        h = ((h ^ b) * prime) & mask
    return h


class Checksum:
    """The checksum of an output stream, fed piece by piece (no whole-output buffer)."""

    __slots__ = ("length", "h")

    def __init__(self) -> None:
        self.length, self.h = 0, FNV_OFFSET

    def update(self, data) -> None:
        self.length += len(data)
        self.h = fnv1a64(data, self.h)

    def text(self) -> str:
        return f"{self.length:08x}:{self.h:016x}"


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
