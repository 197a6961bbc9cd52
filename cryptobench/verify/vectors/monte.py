"""NIST Monte Carlo tests for SHA-2, SHA-3 and AES-ECB/CBC, run through a provider one call at a time.

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

AES (AESAVS's chains, ACVP's MCT groups of ACVP-AES-ECB/CBC-1.0, both directions): an outer round is
1,000 single-block calls `crypt_one(op, key, iv, block)`, each block the previous call's output (ECB)
or, for CBC, the chain AESAVS writes with the IV carried block to block; then the key is XORed with
the last outputs and the next round starts from them. Each round is checked against `resultsArray`
(key, IV, input and output), so a wrong block anywhere changes every later round.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from cryptobench.verify.vectors.acvp import AesMctTest, acvp_dir, aes_mct_tests, mct_tests
from cryptobench.verify.vectors.cavp import PACKAGE, read_records

# algorithm -> (CAVP's Monte file, the chain, ACVP's folder)
FILES = {
    "sha256": ("hashes/SHA2/SHA256Monte.rsp", "sha2", "SHA2-256-1.0"),
    "sha512": ("hashes/SHA2/SHA512Monte.rsp", "sha2", "SHA2-512-1.0"),
    "sha3-256": ("hashes/SHA3/SHA3_256Monte.rsp", "sha3", "SHA3-256-2.0"),
    "sha3-512": ("hashes/SHA3/SHA3_512Monte.rsp", "sha3", "SHA3-512-2.0"),
}
# algorithm -> ACVP's folder of its AES Monte Carlo tests (the key length picks the tests)
AES_FOLDERS = {
    "aes-128-ecb": "ACVP-AES-ECB-1.0",
    "aes-256-ecb": "ACVP-AES-ECB-1.0",
    "aes-128-cbc": "ACVP-AES-CBC-1.0",
    "aes-256-cbc": "ACVP-AES-CBC-1.0",
}
ALGORITHMS = frozenset(FILES) | frozenset(AES_FOLDERS)  # those with a Monte Carlo test
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
    if alg in AES_FOLDERS:
        chains = aes_chains(alg, vectors_dir)
        if not chains:
            return None
        rounds = ", ".join(f"{t.direction} {len(t.rounds)}" for t in chains)
        return f"{len(chains)} chains of checkpoints ({rounds}), NIST ACVP {', '.join(t.id for t in chains)}"
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
        if _out_of_time(result, count + 1, len(asked), time.monotonic() - t0, seconds):
            return result
    return result


def _out_of_time(result: MonteResult, done: int, asked: int, spent: float, seconds: float) -> bool:
    """Whether the chain's next checkpoint would end past `seconds` (then `detail` says where it stopped)."""
    if done >= asked or spent / done * (done + 1) <= seconds:
        return False
    result.detail = (f"{done} of {asked} checkpoints: {spent / done:.0f} s a checkpoint through this "
                     f"driver, and a chain may take {seconds:.0f} s")  # fmt: skip
    return True


# ---- AES: AESAVS's chains (ACVP's MCT groups of ACVP-AES-ECB/CBC-1.0) ---------------------------

Crypt = Callable[[str, str, str, str], str]  # (op, key, iv or "", one block) -> the block out, all hex


def aes_chains(alg: str, vectors_dir: Path | str | None = None) -> list[AesMctTest]:
    """`alg`'s AES Monte Carlo tests, encryption first ([] when its folder has none)."""
    folder = AES_FOLDERS.get(alg)
    if folder is None:
        return []
    bits = int(alg.split("-")[1])
    found = [t for t in aes_mct_tests(acvp_dir(vectors_dir) / folder) if len(t.key) * 4 == bits]
    return sorted(found, key=lambda t: t.direction != "encrypt")


def _xor(a: str, b: str) -> str:
    return f"{int(a, 16) ^ int(b, 16):0{len(a)}x}"


def _aes_round(cbc: bool, op: str, key: str, iv: str, text: str, crypt: Crypt) -> tuple[str, str]:
    """One outer round: 1,000 blocks; the last output and the one before it (AESAVS 6.4)."""
    prev, out, block, chain_iv = "", "", text, iv
    for j in range(ITERATIONS):
        prev, out = out, crypt(op, key, chain_iv, block)
        if cbc:  # the chain continues: the IV is the last ciphertext block, whichever way it went
            chain_iv = out if op == "encrypt" else block
            block = iv if j == 0 else prev
        else:
            block = out
    return prev, out


def _next_key(key: str, prev: str, out: str) -> str:
    """AESAVS's key update: the key XOR the last output bits, as many as the key has."""
    return _xor(key, (prev + out)[-len(key) :])


def run_aes_monte(
    alg: str,
    crypt: Crypt,
    checkpoints: int = 3,
    seconds: float = CHAIN_SECONDS,
    vectors_dir: Path | str | None = None,
) -> MonteResult | None:
    """The first `checkpoints` rounds of each of `alg`'s AES Monte Carlo chains (encryption, then
    decryption; None: no such test). Each round is 1,000 round trips; `seconds` bounds each chain as in
    run_monte. A round whose key, IV, input or output differs from ACVP's is named in `detail`."""
    chains = aes_chains(alg, vectors_dir)
    if not chains:
        return None
    result = MonteResult(alg, f"NIST ACVP AES Monte Carlo ({', '.join(t.id for t in chains)})")
    for t in chains:
        cbc, inp, outp = bool(t.iv), *(("pt", "ct") if t.direction == "encrypt" else ("ct", "pt"))
        key, iv, text = t.key, t.iv, t.text
        asked = t.rounds[:checkpoints]
        t0 = time.monotonic()
        for i, want in enumerate(asked):
            got = {"key": key, inp: text, **({"iv": iv} if cbc else {})}
            prev, got[outp] = _aes_round(cbc, t.direction, key, iv, text, crypt)
            result.checked += 1
            wrong = next((f for f in (outp, "key", "iv", inp) if f in want and got.get(f) != want[f]), None)
            if wrong:
                result.first_failed = i
                result.detail = (f"{t.direction} round {i} ({t.id}/resultsArray[{i}], after {(i + 1) * ITERATIONS:,} "
                                 f"blocks): {wrong} {got[wrong][:16]}…, expected {want[wrong][:16]}…")  # fmt: skip
                return result
            key, iv, text = _next_key(key, prev, got[outp]), got[outp] if cbc else iv, prev if cbc else got[outp]
            if _out_of_time(result, i + 1, len(asked), time.monotonic() - t0, seconds):
                return result
    return result


# ---- one entry for the verifier ------------------------------------------------------------------


def applies(alg: str, offered) -> bool:
    """Whether `alg` has a Monte Carlo test this provider's operations can run."""
    if alg in AES_FOLDERS:
        return {"encrypt", "decrypt"} <= set(offered)
    return alg in FILES and "hash" in offered


def run_chains(alg: str, one: Callable[[dict], str], checkpoints: int, vectors_dir=None) -> MonteResult | None:
    """`alg`'s Monte Carlo test through `one(case) -> output hex`, a verify case (without its id) a
    call: a hash, or one AES block with its key and (CBC) IV."""
    if alg in AES_FOLDERS:

        def crypt(op: str, key: str, iv: str, block: str) -> str:
            return one({"op": op, "key": key, **({"iv": iv} if iv else {}), "msg": block})

        return run_aes_monte(alg, crypt, checkpoints, vectors_dir=vectors_dir)
    return run_monte(alg, lambda msg: one({"op": "hash", "msg": msg}), checkpoints, vectors_dir=vectors_dir)
