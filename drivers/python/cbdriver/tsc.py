"""The time-stamp counter, read beside the clock in every timed batch (docs/protocol.md, bench:
samples_tsc). Python cannot execute rdtsc, so a four-line native helper does (native/tsc.c, built by
`cryptobench build python` on x86-64); a ctypes call costs well under a microsecond, against
samples of milliseconds. `now` is None where the helper is missing: no ticks are sent then."""

from __future__ import annotations

import ctypes
import platform
from collections.abc import Callable
from pathlib import Path

HELPER = Path(__file__).resolve().parent.parent / "build" / "libcbtsc.so"


def _load() -> Callable[[], int] | None:
    if platform.machine() != "x86_64" or not HELPER.exists():
        return None
    try:
        f = ctypes.CDLL(str(HELPER)).cb_rdtsc
    except (OSError, AttributeError):
        return None
    f.restype, f.argtypes = ctypes.c_uint64, []
    return f


now = _load()
