"""Differential testing: the same seeded random inputs on every provider that offers an algorithm.

Known-answer vectors check a provider against published answers at the lengths someone chose to
publish. Differential testing adds hundreds of inputs nobody published: random lengths from 0 to
1,100 bytes (and every length around a block boundary), random keys and nonces (and keys with
edge bytes: all zero, all 0xff, 0xff first), each run on every provider; their outputs must agree.
Streaming providers also get every input cut into random pieces, which must give the one-shot output.

No protocol change is needed: a `bench` request with `batch: 1` and one sample returns the checksum
of one operation on the input the request describes (size, seed, key, iv, chunk; docs/protocol.md),
which every driver already computes the same way. A decryption's output is the message itself,
whose checksum the orchestrator knows without any cryptography.

A provider that disagrees with the majority is failed for the algorithm, with the smallest input
that shows it and a command that replays it. When only two providers disagree there is no majority:
the run's reference (its baseline, else c:openssl) decides when it is one of them, as it does in
cross-verification, so a wrong newcomer cannot fail the provider it is compared with; otherwise
both are failed, and the report says it cannot tell which one is wrong.

Providers already failed by their known answers answer the same inputs as *witnesses*: where a
witness gives what a provider gave, that is independent evidence for the provider (an input counts
toward the floor, conformance.py, when some other provider gave the same output). A witness never
votes and is judged by nothing here, so one provider's failure never changes another's status.

A provider with nobody to agree with gets a witness from outside the run (witness.py): `corroborate`
asks it the inputs on which the provider's outputs still lack agreement, after the judging.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from cryptobench.core import algorithms, fixed_input
from cryptobench.core.errors import DriverError, UserError
from cryptobench.verify.schedule import Stopped, at_once

MAX_RANDOM_LEN = 1100
SEEDS = (fixed_input.DEFAULT_SEED, 0x0D1FF001)  # few seeds: a driver builds a 1 MiB pattern per seed
MAX_PIECE = 64  # random streaming pieces of 1..64 bytes: small enough to cut every block boundary

# block sizes a length can straddle: the cipher's, the hash's compression block
_HASH_BLOCK = {"sha256": 64, "sha512": 128, "sha3-256": 136, "sha3-512": 72, "blake2b-512": 128,
               "blake2s-256": 64, "sm3": 64, "hmac-sha256": 64}  # fmt: skip

OPS = ("hash", "mac", "encrypt", "decrypt", "seal", "open", "derive")


def applies_to(a: algorithms.Algorithm) -> bool:
    """Deterministic operations on a message: hashes, MACs, ciphers, AEADs, HKDF."""
    return a.kind in ("hash", "mac", "cipher", "aead", "kdf")


@dataclass(frozen=True)
class Input:
    op: str
    size: int
    seed: int
    key: str = ""
    iv: str = ""
    chunk: int = 0

    def request(self, alg: str) -> dict:
        req = {"cmd": "bench", "alg": alg, "op": self.op, "size": self.size, "chunk": self.chunk,
               "seed": self.seed, "batch": 1, "target_ns": 0, "warmup_ns": 0, "samples": 1}  # fmt: skip
        if self.key:
            req["key"] = self.key
        if self.iv:
            req["iv"] = self.iv
        return req

    def spec(self) -> str:
        """What `cryptobench verify --replay` takes back."""
        parts = [f"op={self.op}", f"size={self.size}", f"seed={self.seed}", f"chunk={self.chunk}"]
        parts += [f"key={self.key}"] if self.key else []
        parts += [f"iv={self.iv}"] if self.iv else []
        return ",".join(parts)

    @staticmethod
    def parse(text: str) -> Input:
        fields = dict(part.split("=", 1) for part in text.split(",") if "=" in part)
        try:
            return Input(fields["op"], int(fields["size"]), int(fields.get("seed", fixed_input.DEFAULT_SEED)),
                         fields.get("key", ""), fields.get("iv", ""), int(fields.get("chunk", 0)))  # fmt: skip
        except (KeyError, ValueError):
            raise UserError(f"bad --replay {text!r}: expected op=OP,size=N,seed=S,chunk=C[,key=HEX][,iv=HEX]") from None


def lengths(a: algorithms.Algorithm, count: int, rng: random.Random) -> list[int]:
    """Every length around the block boundaries (0, 1, block-1, block, block+1, 2·block+1; whole blocks
    only for ECB/CBC), then random ones up to MAX_RANDOM_LEN, `count` in all (the edges always)."""
    unit = a.block
    if unit == 1:
        blocks = {16, 64, _HASH_BLOCK.get(a.name, 16)}
        edges = {0, 1} | {n for b in blocks for n in (b - 1, b, b + 1, 2 * b + 1)}
    else:
        edges = {0, unit, 2 * unit, 3 * unit, 5 * unit}
    out = sorted(edges)
    while len(out) < count:
        out.append(_random_len(a, rng))
    return out


def _random_len(a: algorithms.Algorithm, rng: random.Random) -> int:
    unit = a.block
    return rng.randrange(0, MAX_RANDOM_LEN // unit + 1) * unit


def _edge_keys(n: int, rng: random.Random) -> list[str]:
    """Keys whose bytes sit at the edges, where a carry or a sign bug shows."""
    return [b"\x00" * n, b"\xff" * n, b"\xff" + rng.randbytes(n - 1), rng.randbytes(n - 1) + b"\xff"]


def make_inputs(a: algorithms.Algorithm, count: int, seed: int = 1, stop: threading.Event | None = None) -> list[Input]:
    """`count` inputs per operation of `a` (the same for every provider), deterministic in `seed`;
    Stopped when `stop` is set meanwhile (a huge --inputs takes seconds to draw)."""
    rng = random.Random(f"{seed}:{a.name}")
    out = []
    for op in a.ops:
        if op not in OPS:
            continue
        keys = [k.hex() for k in _edge_keys(a.key_len, rng)] if a.key_len else []
        sizes = lengths(a, count, rng)
        distinct: dict[Input, None] = {}
        for i in range(count * 4):  # unkeyed hashes repeat a length now and then: draw until distinct
            if len(distinct) >= max(count, len(sizes)):
                break
            if stop is not None and i % 1024 == 0 and stop.is_set():
                raise Stopped()
            size = sizes[i] if i < len(sizes) else _random_len(a, rng)
            key = (keys[i] if i < len(keys) else rng.randbytes(a.key_len).hex()) if a.key_len else ""
            iv = rng.randbytes(a.iv_len).hex() if a.iv_len else ""
            distinct.setdefault(Input(op, size, SEEDS[i % len(SEEDS)], key, iv))
        out += distinct
    return out


def streamed(inputs: list[Input], a: algorithms.Algorithm, seed: int = 1) -> list[Input]:
    """The same inputs cut into random pieces (whole blocks for ECB/CBC); empty messages have none."""
    rng = random.Random(f"{seed}:{a.name}:pieces")
    unit = a.block
    out = []
    for i, x in enumerate(inp for inp in inputs if inp.size):
        if unit == 1:  # every piece size from 1 to 64 at least once (on messages long enough), then random
            piece = i % MAX_PIECE + 1 if i < 3 * MAX_PIECE else rng.randrange(1, MAX_PIECE + 1)
        else:
            piece = unit * rng.randrange(1, 4)
        out.append(Input(x.op, x.size, x.seed, x.key, x.iv, min(piece, x.size)))
    return out


@dataclass
class Outcome:
    """What one provider answered for one input: a checksum, not offered, or an error."""

    checksum: str = ""
    error: str = ""
    not_offered: bool = False


@dataclass
class Disagreement:
    alg: str
    provider: str
    input: Input
    got: str  # checksum or error
    expected: str  # the majority's checksum (or the message's, for a decryption)
    agreeing: list[str] = field(default_factory=list)  # providers that gave `expected`
    tie: bool = False  # no majority: two providers, two answers
    by_reference: bool = False  # no majority, and the run's reference gave `expected`

    def replay(self) -> str:
        return f"cryptobench verify --provider {self.provider} --alg {self.alg} --replay '{self.input.spec()}'"

    def describe(self) -> str:
        where = f"{self.input.op} of {self.input.size} B" + (
            f" in {self.input.chunk}-byte pieces" if self.input.chunk else ""
        )
        if self.input.key:
            where += f", key {self.input.key[:8]}…"
        against = "no majority: " + ", ".join(self.agreeing) if self.tie else ", ".join(self.agreeing) or "expected"
        if self.by_reference:
            against = f"no majority; the reference, {against},"
        return f"{where}: got {self.got}, {against} gave {self.expected}"


@dataclass
class DiffResult:
    alg: str
    provider: str
    inputs: int = 0
    streamed: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    agreed: list[Input] = field(default_factory=list)  # one-shot inputs some other provider answered alike
    outputs: dict[Input, str] = field(default_factory=dict)  # one-shot input -> the checksum it gave

    @property
    def passed(self) -> bool:
        return not self.disagreements

    @property
    def smallest(self) -> Disagreement | None:
        return min(self.disagreements, key=lambda d: (d.input.size, d.input.chunk), default=None)


Requester = Callable[[dict], dict]


@dataclass(frozen=True)
class Pipelined:
    """A requester that can also send many requests at once (`DriverPool.request_many`): each answer
    is a response or the DriverError one request would have raised. Differential inputs are hundreds
    of one-operation requests; pipelined, a driver's round trips stop dominating their time."""

    one: Requester
    many: Callable[[list[dict]], list]

    def __call__(self, msg: dict) -> dict:
        return self.one(msg)


# a provider whose requests fail this often is asked no further: it is failed (or, a witness, no help)
# already, and each further request to a driver that hangs would cost a timeout and a restart
GIVE_UP_ERRORS = 3
# inputs asked of one provider before its errors are counted again: one pipelined window
ASK_AT_ONCE = 32


def _ask(request: Requester, alg: str, x: Input) -> Outcome:
    try:
        return _outcome(request(x.request(alg)))
    except DriverError as e:
        return _outcome(e)


def _ask_many(request: Requester, alg: str, xs: list[Input]) -> list[Outcome]:
    """Each input's outcome, pipelined when the requester can (`Pipelined`), else one at a time."""
    if isinstance(request, Pipelined):
        return [_outcome(r) for r in request.many([x.request(alg) for x in xs])]
    return [_ask(request, alg, x) for x in xs]


def _outcome(resp: dict | DriverError) -> Outcome:
    if isinstance(resp, DriverError):
        text = str(resp)
        if text.startswith("not offered"):
            return Outcome(not_offered=True)
        return Outcome(error=f"error: {text}")
    checksum = resp.get("checksum")
    if not isinstance(checksum, str):
        return Outcome(error="error: no checksum")
    return Outcome(checksum=checksum)


def _expected_plaintext(x: Input) -> str:
    """A decryption gives back the message: its checksum needs no cryptography."""
    return fixed_input.checksum(fixed_input.message(x.size, x.seed))


def differential(
    a: algorithms.Algorithm,
    peers: dict[str, Requester],
    streaming: set[str],
    count: int = 500,
    seed: int = 1,
    progress: Callable[[str], None] | None = None,
    witnesses: dict[str, Requester] | None = None,
    reference: str | None = None,
    stop: threading.Event | None = None,
) -> list[DiffResult]:
    """Run `count` inputs per operation on every peer (provider id -> request function) and judge them.

    `streaming`: the peers whose driver offers streaming for `alg` (hello's `stream`). `witnesses`:
    providers that failed their known answers, asked the one-shot inputs only to corroborate the
    peers (module docstring); they get no result. `reference`: the peer whose answer decides a tie.
    `stop`: set when the run ends (Ctrl-C), after which each provider stops at its next window.
    """
    alg = a.name
    stop = stop if stop is not None else threading.Event()
    one_shot = make_inputs(a, count, seed, stop)
    pieces = streamed(one_shot, a, seed)
    results = {pid: DiffResult(alg, pid) for pid in peers}
    answers: dict[Input, dict[str, Outcome]] = {x: {} for x in one_shot + pieces}
    asked = {**(witnesses or {}), **peers}

    def run_all(pid: str) -> dict[Input, Outcome]:  # one provider's inputs on its own driver
        # by seed: drivers keep the 1 MiB input pattern of the last seed only (see `corroborate`)
        todo = sorted(one_shot + (pieces if pid in streaming else []), key=lambda x: x.seed)
        out, errors = {}, 0
        for start in range(0, len(todo), ASK_AT_ONCE):
            if stop.is_set() or errors >= GIVE_UP_ERRORS:
                break
            part = todo[start : start + ASK_AT_ONCE]
            for x, o in zip(part, _ask_many(asked[pid], alg, part), strict=True):
                out[x] = o
                errors += bool(o.error)
        return out

    pids = list(asked)  # drivers are separate processes: every one at once
    got_all = at_once(pids, run_all, len(pids), stop=stop)
    if stop.is_set():  # the run is ending: judging what came would only hold it up
        raise Stopped()
    for pid, got in zip(pids, got_all, strict=True):
        for x, o in got.items():
            answers[x][pid] = o
            if not o.not_offered and pid in results:
                results[pid].inputs += not x.chunk
                results[pid].streamed += bool(x.chunk)
                if o.checksum and not x.chunk:
                    results[pid].outputs[x] = o.checksum
    if progress:
        also = f" and {len(asked) - len(peers)} failed ones as witnesses" if len(asked) > len(peers) else ""
        progress(f"differential {alg}: {len(one_shot)} inputs, {len(pieces)} streamed, {len(peers)} providers{also}")
    for x, by_pid in answers.items():
        _judge(alg, x, {pid: o for pid, o in by_pid.items() if pid in results}, results, answers, reference)
    for x in one_shot:
        _corroborate(x, answers[x], results)
    return list(results.values())


def corroborate(alg: str, results: list[DiffResult], witness: Requester) -> int:
    """Ask a witness from outside the run (witness.py) every one-shot input on which one of `results`
    has an output but no agreement yet; where it gives the same output, the input counts for that
    result. The witness votes on nothing: what it gets wrong costs only its help. How many it was asked."""
    wanted: dict[Input, list[DiffResult]] = {}
    for r in results:
        have = set(r.agreed)
        for x in r.outputs:
            if x not in have:
                wanted.setdefault(x, []).append(r)
    errors = 0
    # by seed: the Rust and Go drivers keep the 1 MiB input pattern of the last seed only; alternating
    # seeds made RustCrypto's 500 answers take 1.5 s instead of 0.05 s
    for x, lacking in sorted(wanted.items(), key=lambda item: item[0].seed):
        if errors >= GIVE_UP_ERRORS:  # a witness that crashes or hangs is no help: stop paying its timeouts
            break
        o = _ask(witness, alg, x)
        errors += bool(o.error)
        for r in lacking:
            if o.checksum and o.checksum == r.outputs[x]:
                r.agreed.append(x)
    return len(wanted)


def _corroborate(x: Input, by_pid: dict[str, Outcome], results: dict[str, DiffResult]) -> None:
    """`x` counts for every peer whose output some other provider, peer or witness, gave too."""
    seen = Counter(o.checksum for o in by_pid.values() if o.checksum)
    for pid, o in by_pid.items():
        if pid in results and o.checksum and seen[o.checksum] > 1:
            results[pid].agreed.append(x)


def _judge(alg: str, x: Input, by_pid: dict[str, Outcome], results: dict, answers: dict, reference=None) -> None:
    live = {pid: o for pid, o in by_pid.items() if not o.not_offered}
    if not live:
        return
    if x.op in ("decrypt", "open"):
        want = _expected_plaintext(x)
        for pid, o in live.items():
            if o.checksum != want:
                agree = [p for p, q in live.items() if q.checksum == want]
                results[pid].disagreements.append(Disagreement(alg, pid, x, o.checksum or o.error, want, agree))
        return
    if x.chunk:  # a streamed input must give what the same provider gave for it in one shot
        whole = answers.get(Input(x.op, x.size, x.seed, x.key, x.iv, 0), {})
        for pid, o in live.items():
            ref = whole.get(pid)
            if ref is not None and ref.checksum and o.checksum != ref.checksum:
                results[pid].disagreements.append(
                    Disagreement(alg, pid, x, o.checksum or o.error, ref.checksum, [f"{pid} in one shot"])
                )
    votes = Counter(o.checksum for o in live.values() if o.checksum)
    if not votes:
        for pid, o in live.items():
            results[pid].disagreements.append(Disagreement(alg, pid, x, o.error, "an output"))
        return
    ranked = votes.most_common()
    top, n = ranked[0]
    tie = len(ranked) > 1 and ranked[1][1] == n
    referee = live.get(reference)
    decided = tie and referee is not None and votes.get(referee.checksum) == n  # no majority: the reference's
    if decided:
        top, tie = referee.checksum, False
    for pid, o in live.items():
        if o.checksum == top and not tie:
            continue
        others = [p for p, q in live.items() if q.checksum != o.checksum]
        if tie:
            results[pid].disagreements.append(
                Disagreement(alg, pid, x, o.checksum or o.error, "something else", others, tie=True)
            )
        else:
            agree = [p for p, q in live.items() if q.checksum == top]
            results[pid].disagreements.append(
                Disagreement(alg, pid, x, o.checksum or o.error, top, agree, by_reference=decided)
            )
