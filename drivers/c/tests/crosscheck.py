#!/usr/bin/env python3
"""Cross-check of the C driver family: the same bench request must give the same checksum, and
what one binary signs, encapsulates or encrypts, another accepts.

usage: crosscheck.py PLUGIN=PROVIDER [PLUGIN=PROVIDER ...]

Starts the generic driver (build/cbdriver) on every plugin (a .so; any other path is run as a
driver program of its own) with its provider, asks each for its catalogue (hello), and for every
symmetric algorithm/operation (and hkdf-sha256) that at least two of them offer sends the same small bench requests
(one-shot, and streamed where the provider streams that algorithm) to each. Every answer must be ok
(a streamed cell may be declined with an error starting "not offered") and every checksum for one
(algorithm, operation, size) must be identical: across binaries, and between one-shot and streamed
cells (protocol.md: providers computing the same deterministic function must agree). Handshakes
(ntor, pq-ntor-*) draw fresh keys every operation and are left to their vectors.

Public-key algorithms (protocol version 2): every (algorithm, operation) two binaries share is
benched once in each (keys are each binary's own, so only the output length is compared, and the
whole checksum for verify), then the orchestrator's own cross-verification
(cryptobench/verify/cross_checks.py: keypair in one binary, sign / encapsulate / encrypt / derive there,
verify / decapsulate / decrypt / derive in the other, corrupted inputs rejected) runs for every
ordered pair. Exits 1 on any disagreement or failure. Standard library, plus the repository's
cryptobench package for the public-key part.

RSA keys above 2048 bits take seconds each to make (most of this script's time, at 12 key pairs per
binary and size): the cross-verification makes every variant's key pair fresh at 2048 bits, and above
that a binary's first key pair of a size serves its other variants (the same RSA key, PKCS#8 / SPKI),
so every size is still crossed between binaries. The 4096-bit benches (output lengths, verify's
checksum) are left to each binary's native test (test_driver.c benches every RSA size and checks the
same lengths and checksum); 2048 and 3072 are benched here too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))
try:
    from cryptobench.core.algorithms import get as get_algorithm
    from cryptobench.core.algorithms import output_len
    from cryptobench.core.errors import DriverError
    from cryptobench.verify.cross_checks import crosscheck as pk_crosscheck
except ImportError as e:  # the C drivers outside their repository: symmetric checks only
    pk_crosscheck = None
    PK_IMPORT_ERROR = str(e)

SEED = 2654435769
SHARED_KEY_BITS = (3072, 4096)  # one key pair per binary and size serves every RSA variant of that size
PK_BENCH_MAX_RSA_BITS = 3072  # larger: each binary's native test benches them
SIZES = (1040, 4096)  # 1040: a whole number of AES blocks, not of 64 or 256 (a short last piece)
CHUNKS = (256, 1024)  # whole multiples of every update granularity seen (Botan CBC: 256)


def key_len(alg: str) -> int:
    if alg.startswith(("aes-128", "sm4-")):
        return 16
    if alg.startswith(("aes-256", "chacha20", "xchacha20")) or alg in ("hmac-sha256", "hkdf-sha256"):
        return 32  # hkdf-sha256: the salt
    return 0


def iv_len(alg: str) -> int:
    if alg == "hkdf-sha256":
        return 16  # the info
    if alg.startswith("xchacha20"):
        return 24
    if not alg.startswith(("aes", "chacha20", "sm4-")) or alg.endswith("-ecb"):
        return 0
    if alg.endswith(("-cbc", "-ctr")):
        return 16
    return 12


HOST = Path(__file__).resolve().parents[1] / "build" / "cbdriver"


class Driver:
    def __init__(self, binary: str, provider: str):
        self.name = provider
        argv = [str(HOST), "--plugin", binary] if binary.endswith(".so") else [binary]
        self.proc = subprocess.Popen(
            [*argv, "--provider", provider],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.hello = self.request({"cmd": "hello", "protocol": 2})
        if not self.hello.get("ok"):
            raise SystemExit(f"{provider}: hello failed: {self.hello}")
        self.offers: dict[str, list[str]] = self.hello["offers"]
        self.stream: set[str] = set(self.hello["stream"])
        self.rsa_keys: dict[int, dict] = {}  # bits -> this binary's first key pair of that size

    def request(self, req: dict) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"{self.name}: no answer to {req}")
        return json.loads(line)

    def checked(self, req: dict) -> dict:
        """request() for cryptobench.verify.cross_checks: an error answer raises DriverError. A key pair
        of SHARED_KEY_BITS RSA is made once per size: later variants of that size get the same one."""
        bits = rsa_bits(req["alg"]) if req.get("cmd") == "keypair" else None
        if bits in SHARED_KEY_BITS and bits in self.rsa_keys:
            return self.rsa_keys[bits]
        resp = self.request(req)
        if not resp.get("ok"):
            raise DriverError(f"{self.name}: {resp.get('error')}")
        if bits in SHARED_KEY_BITS:
            self.rsa_keys[bits] = resp
        return resp

    def close(self) -> None:
        try:
            self.request({"cmd": "bye"})
        finally:
            self.proc.wait(timeout=10)


def rsa_bits(alg: str) -> int | None:
    """The modulus size of rsa-N and rsa-N-VARIANT; None for any other algorithm."""
    parts = alg.split("-")
    return int(parts[1]) if parts[0] == "rsa" and len(parts) > 1 and parts[1].isdigit() else None


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


PK_OPS = {"keygen", "sign", "verify", "derive", "encrypt", "decrypt", "encaps", "decaps"}
PK_SIZE = 32  # the digest-sized message of sign / verify / encrypt


def is_pk(alg: str, ops: list[str]) -> bool:
    """A public-key algorithm (the catalogue says so; without it: its operations, or RSA)."""
    if pk_crosscheck is not None:
        try:
            return get_algorithm(alg).public_key
        except KeyError:
            pass
    return bool(PK_OPS.difference({"encrypt", "decrypt"}).intersection(ops)) or alg.startswith("rsa-")


def is_handshake(ops: list[str]) -> bool:
    """A handshake of docs/pq-ntor.md (protocol version 3): fresh ephemeral keys every operation, so
    outputs never agree between runs; its vectors are the check (native tests, verify)."""
    return "client-finish" in ops


def pk_bench(d: Driver, alg: str, op: str) -> dict:
    size = PK_SIZE if op in ("sign", "verify", "encrypt", "decrypt") else 0
    req = {"cmd": "bench", "alg": alg, "op": op, "size": size, "chunk": 0, "seed": SEED, "batch": 1,
           "target_ns": 0, "warmup_ns": 0, "samples": 1}  # fmt: skip
    return d.request(req)


def check_pk(drivers: list[Driver], offered: dict) -> tuple[int, int]:
    """Bench lengths and the orchestrator's cross-verification; (groups checked, failures)."""
    if pk_crosscheck is None:
        print(f"public-key cross-check skipped: cannot import cryptobench ({PK_IMPORT_ERROR})")
        return 0, 0
    failures = checked = 0
    left_to_native = set()
    for (alg, op), ds in sorted(offered.items()):
        if len(ds) < 2 or not is_pk(alg, ds[0].offers[alg]):
            continue
        if (rsa_bits(alg) or 0) > PK_BENCH_MAX_RSA_BITS:
            left_to_native.add(alg)
            continue
        want = output_len(alg, op, PK_SIZE if op == "decrypt" else 0)
        seen = {}
        for d in ds:
            r = pk_bench(d, alg, op)
            if not r.get("ok"):
                failures += 1
                print(f"FAIL {alg} {op}: {d.name}: {r.get('error')}")
                continue
            seen[d.name] = r["checksum"]
        lengths = {int(cs.split(":")[0], 16) for cs in seen.values()}
        bad = (op == "verify" and len(set(seen.values())) > 1) or (want is not None and lengths != {want})
        checked += 1
        if bad:
            failures += 1
            print(f"FAIL {alg} {op}: checksums {seen}, expected length {want}")
        elif seen:
            print(f"ok   {alg:<18} {op:<7} length {'/'.join(str(n) for n in sorted(lengths)):<9} {len(seen)} binaries")
    if left_to_native:
        print(f"--   {', '.join(sorted(left_to_native))}: benched by each binary's native test, cross-verified below")
    algs = sorted({alg for (alg, op), ds in offered.items() if len(ds) >= 2 and is_pk(alg, ds[0].offers[alg])})
    for alg in algs:
        ds = {d.name: d.checked for d in drivers if alg in d.offers}
        if get_algorithm(alg).kind == "keygen":  # rsa-N: the key pair is used through rsa-N-pkcs1
            ds = {n: f for n, f in ds.items() if f"{alg}-pkcs1" in next(d for d in drivers if d.name == n).offers}
        records = pk_crosscheck(alg, ds)
        bad = [r for r in records if not r.passed]
        checked += 1
        failures += len(bad)
        print(
            f"{'ok  ' if not bad else 'FAIL'} {alg:<18} cross-verification: {len(records) - len(bad)}/{len(records)} exchanges between {', '.join(sorted(ds))}"
        )
        for r in bad:
            print(f"     {r.producer} -> {r.consumer}: {r.check}: {r.detail}")
    return checked, failures


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
        if len(ds) < 2 or alg == "noop" or is_pk(alg, ds[0].offers[alg]) or is_handshake(ds[0].offers[alg]):
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
    pk_checked, pk_failures = check_pk(drivers, offered)
    for d in drivers:
        d.close()
    print(
        f"cross-check: {checked} (algorithm, operation, size) groups, {pk_checked} public-key groups, "
        f"{failures + pk_failures} failures"
    )
    failures += pk_failures
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
