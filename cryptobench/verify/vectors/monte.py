"""NIST Monte Carlo tests for SHA-2 and SHA-3, run through a provider one hash at a time.

Each checkpoint of a Monte Carlo test is a chain of 1,000 hashes, each hashing what the previous
ones produced, so one wrong output anywhere in the chain changes every checkpoint after it. The
chain needs no protocol of its own: the caller passes `hash_one(msg_hex) -> out_hex`, which sends
one `verify` case to the driver, and this module only strings the calls together as SHAVS
(SHA-2: Mi = MDi-3 ‖ MDi-2 ‖ MDi-1) and SHA3VS (SHA-3: MDi = SHA3(MDi-1)) specify, and compares
each checkpoint with the expected one. The hashing is the provider's.

One runner, two sources of a seed and its checkpoints: NIST ACVP's MCT group ("standard" version,
`vectors/acvp/<folder>`, read by acvp.py: the same chains, NIST's current format) and NIST CAVP's
Monte file from cryptography-vectors. A run takes ACVP's when its folder has the test (`SOURCES`, in
order of preference), else CAVP's, and the result's `source` says which.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cryptobench.verify.vectors.acvp import acvp_dir, mct_tests
from cryptobench.verify.vectors.cavp import PACKAGE, read_records

# algorithm -> (CAVP's Monte file, the chain, ACVP's folder)
FILES = {
    "sha256": ("hashes/SHA2/SHA256Monte.rsp", "sha2", "SHA2-256-1.0"),
    "sha512": ("hashes/SHA2/SHA512Monte.rsp", "sha2", "SHA2-512-1.0"),
    "sha3-256": ("hashes/SHA3/SHA3_256Monte.rsp", "sha3", "SHA3-256-2.0"),
    "sha3-512": ("hashes/SHA3/SHA3_512Monte.rsp", "sha3", "SHA3-512-2.0"),
}
SOURCES = ("acvp", "cavp")  # which a run uses when both have the test: the first
ITERATIONS = 1000
CHAIN_SECONDS = 20.0  # a chain stops at the checkpoint past which it would take longer (run_monte)


@dataclass(frozen=True)
class Chain:
    """A Monte Carlo test from one source: its seed, the expected checkpoints, and how each is named."""

    source: str  # as reports name it
    name: str  # the source and the test, shortly: "NIST ACVP acvp/SHA2-256-1.0#tg2/tc513"
    kind: str  # "sha2" or "sha3"
    seed: str
    checkpoints: tuple[str, ...]
    point: str  # str.format of a checkpoint's id, from its index

    def checkpoint_id(self, i: int) -> str:
        return self.point.format(i)


@dataclass
class MonteResult:
    alg: str
    source: str
    checked: int = 0  # checkpoints compared
    first_failed: int | None = None  # the first checkpoint (COUNT, the resultsArray index) that differed
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.checked > 0 and self.first_failed is None


def _family(kind: str) -> str:
    return "SHA-2" if kind == "sha2" else "SHA-3"


def _cavp_chain(alg: str, _vectors_dir) -> Chain | None:
    relpath, kind, _ = FILES[alg]
    seed, mds = "", []
    for _sec, r in read_records(relpath):
        seed = r.get("seed", seed).lower()
        if "count" in r and "md" in r:
            mds.append(r["md"].lower())
    if not seed or not mds:
        return None
    source = f"NIST CAVP {_family(kind)} Monte Carlo ({relpath})"
    return Chain(source, f"NIST CAVP {relpath}", kind, seed, tuple(mds), f"{PACKAGE}/{relpath}#COUNT={{}}")


def _acvp_chain(alg: str, vectors_dir) -> Chain | None:
    _, kind, folder = FILES[alg]
    found = mct_tests(acvp_dir(vectors_dir) / folder)
    if not found:
        return None
    t = found[0]  # one test per group, one MCT group per vector set
    return Chain(f"NIST ACVP {_family(kind)} Monte Carlo ({t.id})", f"NIST ACVP {t.id}", kind, t.seed,
                 t.checkpoints, f"{t.id}/resultsArray[{{}}]")  # fmt: skip


_READERS = {"acvp": _acvp_chain, "cavp": _cavp_chain}


def chain_for(alg: str, vectors_dir: Path | str | None = None, sources: tuple[str, ...] = SOURCES) -> Chain | None:
    """`alg`'s Monte Carlo test from the first of `sources` that has it (None: no source has one)."""
    if alg not in FILES:
        return None
    for name in sources:
        if (chain := _READERS[name](alg, vectors_dir)) is not None:
            return chain
    return None


def describe(alg: str, vectors_dir: Path | str | None = None) -> str | None:
    """One line for `list algorithms`: the chain a run would use (a chain, not its 100,000 hashes)."""
    found = [c for s in SOURCES if (c := chain_for(alg, vectors_dir, (s,))) is not None]  # each source once
    if not found:
        return None
    chain, others = found[0], [c.name for c in found[1:]]
    unused = f" ({', '.join(others)}: not used)" if others else ""
    return f"1 chain of {len(chain.checkpoints)} checkpoints, {chain.name}{unused}"


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
    alg: str,
    hash_one: Callable[[str], str],
    checkpoints: int = 3,
    seconds: float = CHAIN_SECONDS,
    vectors_dir: Path | str | None = None,
    sources: tuple[str, ...] = SOURCES,
) -> MonteResult | None:
    """The first `checkpoints` checkpoints of `alg`'s Monte Carlo test (None: no such test), from the
    first of `sources` that has it. A chain is 1,000 round trips a checkpoint: where one checkpoint
    shows the next would end past `seconds` (a browser's round trip is tens of ms), it stops there
    and `detail` says how many were checked. A wrong checkpoint is named by its id in `detail`."""
    chain = chain_for(alg, vectors_dir, sources)
    if chain is None:
        return None
    result = MonteResult(alg, chain.source)
    step = _sha2_checkpoint if chain.kind == "sha2" else _sha3_checkpoint
    seed, asked = chain.seed, chain.checkpoints[:checkpoints]
    t0 = time.monotonic()
    for count, want in enumerate(asked):
        got = step(seed, hash_one)
        result.checked += 1
        if got != want:
            result.first_failed = count
            result.detail = (f"checkpoint {count} ({chain.checkpoint_id(count)}, after {(count + 1) * ITERATIONS:,} "
                             f"hashes): got {got[:16]}…, expected {want[:16]}…")  # fmt: skip
            return result
        seed = got
        spent = time.monotonic() - t0
        if result.checked < len(asked) and spent / result.checked * (result.checked + 1) > seconds:
            result.detail = (f"{result.checked} of {len(asked)} checkpoints: {spent / result.checked:.0f} s a "
                             f"checkpoint through this driver, and a chain may take {seconds:.0f} s")  # fmt: skip
            return result
    return result
