"""What bench/accuracy and bench/agreement share: one driver's figure for a cell, and interleaved
rounds of a peer harness against it, summarised as a ratio with its range."""

from __future__ import annotations

import re
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from cryptobench.core import algorithms, fixed_input  # noqa: E402
from cryptobench.drivers.client import DriverProcess  # noqa: E402
from cryptobench.drivers.registry import Registry  # noqa: E402


def start(provider: str) -> DriverProcess:
    r = Registry()
    p = r.get(provider)
    d = DriverProcess(p.id, p.argv(), env=r.env_for(p))
    d.hello()
    return d


def driver_ns(d: DriverProcess, alg: str, op: str, size: int, seconds: float) -> float:
    """Median ns per operation of one cell timed for about `seconds` by the driver's own loop."""
    a = algorithms.get(alg)
    req = {"cmd": "bench", "alg": alg, "op": op, "size": size, "chunk": 0, "seed": fixed_input.DEFAULT_SEED,
           "batch": 0, "target_ns": 10_000_000, "warmup_ns": 200_000_000, "samples": max(10, int(seconds * 100))}  # fmt: skip
    if a.key_len:
        req["key"] = fixed_input.cell_key(a.key_len)
    if a.iv_len:
        req["iv"] = fixed_input.cell_iv(a.iv_len)
    resp = d.request(req, timeout=seconds * 10 + 60)
    return statistics.median(s / resp["batch"] for s in resp["samples_ns"])


def openssl_speed_bps(openssl: str, alg: str, size: int, seconds: int) -> float:
    """Bytes per second `openssl speed -mr -elapsed -evp ALG -bytes SIZE` reports."""
    out = subprocess.run([openssl, "speed", "-mr", "-elapsed", "-evp", alg, "-bytes", str(size), "-seconds",
                          str(seconds)], capture_output=True, text=True, check=True).stdout  # fmt: skip
    m = re.search(r"^\+F:\d+:[^:]+:([0-9.]+)", out, re.M)
    if not m:
        raise SystemExit(f"cannot parse openssl speed output for {alg}: {out[-200:]!r}")
    return float(m.group(1))


def interleave(rounds: int, theirs: Callable[[], float], ours: Callable[[], float]) -> tuple[float, float, float]:
    """Rounds of the peer's ns/op then ours, alternating: (median, lowest, highest) of ours-over-theirs
    throughput, i.e. their time / our time (above 1: our loop reports the faster figure)."""
    ratios = []
    for _ in range(rounds):
        t = theirs()
        o = ours()
        ratios.append(t / o)
    return statistics.median(ratios), min(ratios), max(ratios)


def line(name: str, theirs_what: str, r: tuple[float, float, float], why: str = "") -> str:
    flag = "" if 0.97 <= r[0] <= 1.03 else "  OUTSIDE 0.97-1.03" + (f": {why}" if why else "")
    return f"{name:<42} {theirs_what:<22} {r[0]:6.3f} [{r[1]:.3f}-{r[2]:.3f}]{flag}"
