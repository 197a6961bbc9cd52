"""NIST Monte Carlo tests for SHA-2 and SHA-3, run through a provider one hash at a time.

Each checkpoint of a Monte Carlo test is a chain of 1,000 hashes, each hashing what the previous
ones produced, so one wrong output anywhere in the chain changes every checkpoint after it. The
chain needs no protocol of its own: the caller passes `hash_one(msg_hex) -> out_hex`, which sends
one `verify` case to the driver, and this module only strings the calls together as SHAVS
(SHA-2: Mi = MDi-3 ‖ MDi-2 ‖ MDi-1) and SHA3VS (SHA-3: MDi = SHA3(MDi-1)) specify, and compares
each checkpoint with the file from cryptography-vectors. The hashing is the provider's.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from cryptobench.verify.vectors.cavp import read_records

FILES = {
    "sha256": ("hashes/SHA2/SHA256Monte.rsp", "sha2"),
    "sha512": ("hashes/SHA2/SHA512Monte.rsp", "sha2"),
    "sha3-256": ("hashes/SHA3/SHA3_256Monte.rsp", "sha3"),
    "sha3-512": ("hashes/SHA3/SHA3_512Monte.rsp", "sha3"),
}
ITERATIONS = 1000
CHAIN_SECONDS = 20.0  # a chain stops at the checkpoint past which it would take longer (run_monte)


@dataclass
class MonteResult:
    alg: str
    source: str
    checked: int = 0  # checkpoints compared
    first_failed: int | None = None  # the first checkpoint (COUNT) that differed
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.checked > 0 and self.first_failed is None


def _seed_and_checkpoints(relpath: str) -> tuple[str, list[str]]:
    seed, mds = "", []
    for _sec, r in read_records(relpath):
        seed = r.get("seed", seed).lower()
        if "count" in r and "md" in r:
            mds.append(r["md"].lower())
    return seed, mds


def _sha2_checkpoint(seed: str, hash_one: Callable[[str], str]) -> str:
    md = [seed, seed, seed]
    for _ in range(ITERATIONS):
        md = [md[1], md[2], hash_one(md[0] + md[1] + md[2])]
    return md[2]


def _sha3_checkpoint(seed: str, hash_one: Callable[[str], str]) -> str:
    md = seed
    for _ in range(ITERATIONS):
        md = hash_one(md)
    return md


def run_monte(
    alg: str, hash_one: Callable[[str], str], checkpoints: int = 3, seconds: float = CHAIN_SECONDS
) -> MonteResult | None:
    """The first `checkpoints` checkpoints of `alg`'s Monte Carlo test (None: no such test). A chain
    is 1,000 round trips a checkpoint: where one checkpoint shows the next would end past `seconds`
    (a browser's round trip is tens of ms), it stops there and `detail` says how many were checked."""
    if alg not in FILES:
        return None
    relpath, kind = FILES[alg]
    seed, expected = _seed_and_checkpoints(relpath)
    result = MonteResult(alg, f"NIST CAVP {'SHA-2' if kind == 'sha2' else 'SHA-3'} Monte Carlo ({relpath})")
    if not seed or not expected:
        return None
    step = _sha2_checkpoint if kind == "sha2" else _sha3_checkpoint
    asked = expected[:checkpoints]
    t0 = time.monotonic()
    for count, want in enumerate(asked):
        got = step(seed, hash_one)
        result.checked += 1
        if got != want:
            result.first_failed = count
            result.detail = f"checkpoint {count}: got {got[:16]}…, expected {want[:16]}…"
            return result
        seed = got
        spent = time.monotonic() - t0
        if result.checked < len(asked) and spent / result.checked * (result.checked + 1) > seconds:
            result.detail = (f"{result.checked} of {len(asked)} checkpoints: {spent / result.checked:.0f} s a "
                             f"checkpoint through this driver, and a chain may take {seconds:.0f} s")  # fmt: skip
            return result
    return result
