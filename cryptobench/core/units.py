"""Sizes as users write them ("64B", "16KiB", "100MB") and as reports print them."""

from __future__ import annotations

import re

from cryptobench.core.errors import UserError

_UNITS = {
    "": 1,
    "b": 1,
    "k": 1024,
    "kib": 1024,
    "m": 1024**2,
    "mib": 1024**2,
    "g": 1024**3,
    "gib": 1024**3,
    "kb": 1000,
    "mb": 1000**2,
    "gb": 1000**3,
}
_SIZE_RE = re.compile(r"^\s*(\d+)\s*([a-zA-Z]*)\s*$")
MAX_SIZE = 4 * 1024**3


def parse_size(text: str | int) -> int:
    """Bytes from `1024`, `"1KiB"`, `"1K"` (binary) or `"1KB"` (decimal)."""
    if isinstance(text, bool):
        raise UserError(f"bad size {text!r}: expected a number of bytes such as 64, 1KiB or 100MB")
    if isinstance(text, int):
        n = text
    else:
        m = _SIZE_RE.match(str(text))
        unit = m.group(2).lower() if m else None
        if not m or unit not in _UNITS:
            raise UserError(f"bad size {text!r}: expected a number of bytes such as 64, 1KiB or 100MB")
        n = int(m.group(1)) * _UNITS[unit]
    if n < 0 or n > MAX_SIZE:
        raise UserError(f"bad size {text!r}: must be between 0 and 4 GiB")
    return n


def parse_sizes(text: str) -> list[int]:
    return [parse_size(part) for part in text.split(",") if part.strip()]


def format_size(n: int) -> str:
    """Exact and short: 64 B, 1 KiB, 16 KiB, 1 MiB, 100 MB, 1500 B."""
    for unit, factor in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if n >= factor and n % factor == 0:
            return f"{n // factor} {unit}"
    for unit, factor in (("GB", 1000**3), ("MB", 1000**2), ("kB", 1000)):
        if n >= factor and n % factor == 0:
            return f"{n // factor} {unit}"
    return f"{n} B"


def format_ns(ns: float) -> str:
    """A duration with three significant digits and a unit a reader expects."""
    if ns != ns:  # NaN
        return "-"
    for unit, factor in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= factor:
            return f"{_sig3(ns / factor)} {unit}"
    return f"{_sig3(ns)} ns"


def _sig3(x: float) -> str:
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def throughput(size: int, ns: float) -> tuple[float, str]:
    """A time per operation as a rate: MB/s (10^6 bytes per second) for a message of `size` bytes,
    op/s for an operation without one (size 0: a signature, a key pair)."""
    return (size / ns * 1e3, "MB/s") if size > 0 else (1e9 / ns, "op/s")


def format_rate(x: float) -> str:
    if x != x:
        return "-"
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k"
    return f"{x:.0f}"
