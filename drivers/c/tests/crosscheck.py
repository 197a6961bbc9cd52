#!/usr/bin/env python3
"""Cross-check of the C driver family: the same bench request must give the same checksum.

usage: crosscheck.py BINARY=PROVIDER [BINARY=PROVIDER ...]

Starts every binary with its provider, asks each for its catalogue (hello), and for every
algorithm/operation that at least two of them offer sends the same small bench requests (one-shot,
and streamed where the provider streams that algorithm) to each. Every answer must be ok (a
streamed cell may be declined with an error starting "not offered") and every checksum for one
(algorithm, operation, size) must be identical: across binaries, and between one-shot and streamed
cells (protocol.md: providers computing the same deterministic function must agree). Exits 1 on
any disagreement or failure. Standard library only.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict

SEED = 2654435769
SIZES = (1040, 4096)  # 1040: a whole number of AES blocks, not of 64 or 256 (a short last piece)
CHUNKS = (256, 1024)  # whole multiples of every update granularity seen (Botan CBC: 256)


def key_len(alg: str) -> int:
    if alg.startswith("aes-128"):
        return 16
    if alg.startswith(("aes-256", "chacha20", "xchacha20")) or alg == "hmac-sha256":
        return 32
    return 0


def iv_len(alg: str) -> int:
    if alg.startswith("xchacha20"):
        return 24
    if not alg.startswith(("aes", "chacha20")) or alg.endswith("-ecb"):
        return 0
    if alg.endswith(("-cbc", "-ctr")):
        return 16
    return 12


class Driver:
    def __init__(self, binary: str, provider: str):
        self.name = provider
        self.proc = subprocess.Popen(
            [binary, "--provider", provider],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.hello = self.request({"cmd": "hello", "protocol": 1})
        if not self.hello.get("ok"):
            raise SystemExit(f"{provider}: hello failed: {self.hello}")
        self.offers: dict[str, list[str]] = self.hello["offers"]
        self.stream: set[str] = set(self.hello["stream"])

    def request(self, req: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"{self.name}: no answer to {req}")
        return json.loads(line)

    def close(self) -> None:
        try:
            self.request({"cmd": "bye"})
        finally:
            self.proc.wait(timeout=10)


def bench(d: Driver, alg: str, op: str, size: int, chunk: int) -> dict:
    req = {
        "cmd": "bench",
        "alg": alg,
        "op": op,
        "size": size,
        "chunk": chunk,
        "seed": SEED,
        "batch": 1,
        "target_ns": 0,
        "warmup_ns": 0,
        "samples": 1,
    }
    if key_len(alg):
        req["key"] = bytes((i * 7 + 1) & 0xFF for i in range(key_len(alg))).hex()
    if iv_len(alg):
        req["iv"] = bytes(0xA0 + i for i in range(iv_len(alg))).hex()
    return d.request(req)


def main(argv: list[str]) -> int:
    if not argv or any("=" not in a for a in argv):
        print(__doc__, file=sys.stderr)
        return 2
    drivers = [Driver(*a.split("=", 1)) for a in argv]
    offered: dict[tuple[str, str], list[Driver]] = defaultdict(list)
    for d in drivers:
        for alg, ops in d.offers.items():
            for op in ops:
                offered[(alg, op)].append(d)

    failures = 0
    checked = 0
    for (alg, op), ds in sorted(offered.items()):
        if len(ds) < 2 or alg == "noop":
            continue
        for size in SIZES:
            seen: dict[str, list[str]] = defaultdict(list)  # checksum -> who said it
            for d in ds:
                for chunk in (0, *CHUNKS) if alg in d.stream else (0,):
                    r = bench(d, alg, op, size, chunk)
                    who = f"{d.name}" + (f"/chunk {chunk}" if chunk else "")
                    if r.get("ok"):
                        seen[r["checksum"]].append(who)
                    elif not (chunk and str(r.get("error", "")).startswith("not offered")):
                        failures += 1
                        print(f"FAIL {alg} {op} size {size}: {who}: {r.get('error')}")
            checked += 1
            if len(seen) > 1:
                failures += 1
                print(f"FAIL {alg} {op} size {size}: checksums differ:")
                for cs, who in seen.items():
                    print(f"     {cs}  {', '.join(who)}")
            elif seen:
                (cs, who), *_ = seen.items()
                names = sorted({w.split("/")[0] for w in who})
                print(f"ok   {alg:<18} {op:<7} {size:>5}  {cs}  {len(who)} cells: {', '.join(names)}")
    for d in drivers:
        d.close()
    print(f"cross-check: {checked} (algorithm, operation, size) groups, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
