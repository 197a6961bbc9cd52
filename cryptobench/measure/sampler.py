"""One provider's sampling of one cell: what to ask its driver next, and when to stop.

The rules are pure: no I/O and no hidden state. Everything they read is passed in — the cell, its
track so far, the run's settings and the number of the pass over the plan — so the same inputs always
give the same request and the same decision. `CellSampler` is how the measuring loop (run/measuring.py)
uses them: it keeps one provider's track of one cell and the request it last made. The stopping rule reads the interval the reports show
(`stats.summarize`, 95% interval of the median).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from cryptobench.analysis import paired, stats
from cryptobench.core import fixed_input, tls
from cryptobench.core.cell import CellSpec
from cryptobench.core.settings import Settings
from cryptobench.measure import response_checks
from cryptobench.measure.host_state import HostTally


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Track:
    """One provider's progress on one cell."""

    batch: int = 0
    samples: list[int] = field(default_factory=list)
    checksums: list[str] = field(default_factory=list)
    spent: float = 0.0
    rounds: int = 0
    peak_rss_kb: int = 0
    done: bool = False
    paused: bool = False  # done for this pass, not for the run
    round_sizes: list[int] = field(default_factory=list)  # samples per request, in order
    round_process: list[int] = field(default_factory=list)  # the driver process of each request (one per pass)
    failed: str = ""
    not_offered: str = ""
    started: str = field(default_factory=now)
    host: HostTally = field(default_factory=HostTally)  # steal and other load over its rounds
    probe_ns: list[float] = field(default_factory=list)  # host probe readings taken while it was measured
    ticks: list[int] | None = field(default_factory=list)  # samples_tsc of every round; None once one had none
    pair_rounds: list[int] = field(default_factory=list)  # each sample's pair round (paired.py); -1: unpaired
    tls: dict | None = None  # a TLS cell's report of its first untimed handshake: group, flights (protocol 7)
    memory: dict | None = None  # a streamed cell whose library held more than a piece: how much, and why
    driver_peak_kb: int = 0  # the driver's own peak_rss_kb (a wasm module's: its linear memory), kept beside ours

    @property
    def median_sample(self) -> float:
        return stats.median(self.samples)


def memory_report(m: dict) -> dict | None:
    """A bench response's optional `memory` object, kept only in its documented shape: the bytes of input
    the library held back (measured by the driver) and a one-line why."""
    held, why = m.get("library_held_bytes"), m.get("why")
    if not isinstance(held, int) or isinstance(held, bool) or held < 0 or not isinstance(why, str):
        return None
    return {"library_held_bytes": held, "why": " ".join(why.split())[:300]}


def one_per_sample(spec: CellSpec) -> bool:
    """Slow and variable (RSA key generation): every sample is one operation, so the distribution of
    single keys is kept and reported (median, p10, p90, how many)."""
    return spec.op == "keygen" and spec.alg.startswith("rsa-")


LONG_MESSAGE = 64 * 1024 * 1024  # bytes: one operation on a message this long outlasts any batch target


def long_message(spec: CellSpec) -> bool:
    """A message so long that one operation is a batch on its own (it lasts over 5 ms below 13 GB/s),
    and may last minutes (asm.js AES-GCM at 2 MB/s: 250 s for 500 MB). Its first request asks one
    operation per sample and one sample, without calibration and with the protocol's least warm-up
    (one operation): four operations in all with the checksums before and after, where a calibrating
    first round costs six. When that request alone spent five budgets, the cell is done with that one
    sample (decide), and the reports say n=1 and give no interval."""
    return spec.size >= LONG_MESSAGE and not spec.algorithm.per_operation


def samples_for(spec: CellSpec, track: Track, s: Settings, in_pair: bool = False) -> int:
    """A round lasts about a quarter of the budget at most, so slow cells (hundreds of MB, 1-byte
    chunks) still interleave and stop near their budget; the first round only calibrates. A paired
    round (paired.py) is `pair_batches` short batches after one short warm-up: the pair is each side's
    fastest of them, and one warm-up and one pair of checksums serve them all (a message long enough to
    be a batch on its own keeps one)."""
    if track.rounds == 0:
        return 1 if long_message(spec) else 2
    if in_pair:
        return 1 if long_message(spec) else max(1, s.pair_batches)
    if not track.samples:  # a paired calibration kept none, and its partner failed since: a short round
        return 2
    fit = int((spec.budget or s.time_per_cell) * 1e9 / 4 / max(track.median_sample, 1))
    return max(1, min(s.samples_per_round, fit))


CLOCK_FACTOR = 1000  # a batch lasts at least this many ticks of the driver's clock (report/model.py warns below)


def target_for(s: Settings, in_pair: bool, clock_ns: float = 0.0) -> int:
    """How long a batch should last. A paired cell's batches are short (`target_paired_ns`): a scheduler
    slice given to another task spoils the one batch it lands in, and a short batch is hit less often
    and spoils less of the budget; never shorter than the driver's clock allows, never longer than
    an unpaired batch."""
    if not in_pair:
        return s.target_ns
    return int(min(s.target_ns, max(s.target_paired_ns, CLOCK_FACTOR * clock_ns)))


def request_for(spec: CellSpec, track: Track, s: Settings, in_pair: bool = False, clock_ns: float = 0.0) -> dict:
    """The next `bench` request: the first round calibrates after a long warm-up, later ones reuse the
    batch. A paired round's warm-up is short: the code ran a batch ago, and a warm-up as long as the
    batch would halve the pairs a budget buys. `clock_ns`: the driver's clock resolution (its hello)."""
    a = spec.algorithm
    warmup = s.warmup_first_ns if track.rounds == 0 else (s.warmup_paired_ns if in_pair else s.warmup_ns)
    req = {
        "cmd": "bench",
        "alg": spec.alg,
        "op": spec.op,
        "size": spec.size,
        "chunk": spec.chunk,
        "seed": s.seed,
        "batch": track.batch,
        "target_ns": target_for(s, in_pair, clock_ns),
        "warmup_ns": warmup,
        "samples": samples_for(spec, track, s, in_pair),
    }
    if a.key_len:
        req["key"] = fixed_input.cell_key(a.key_len)
    if a.iv_len:
        req["iv"] = fixed_input.cell_iv(a.iv_len)
    if a.kind == "tls":
        req["tls"] = s.tls_pki.get(tls.parse(spec.alg).auth.name)
    if one_per_sample(spec):
        req.update(batch=1, samples=1)
    elif track.rounds == 0 and long_message(spec):
        req.update(batch=1, warmup_ns=0)  # no calibration; the protocol's one warm-up operation
    return req


def absorb(track: Track, resp: dict, rss_kb: int | None, process: int = 0, pair_round: int = -1,
           equalise_ns: int = 0) -> None:  # fmt: skip
    """Add a checked `bench` response to the track. A JIT's warm-up (reported by the driver) is not
    part of the cell's measuring budget. `pair_round`: the paired round the response belongs to.

    A paired cell's calibration round only sets the batch (`equalise_ns`, its paired batch length):
    the batch that lasts that long, not the driver's power of two that lasts up to twice as long, so
    the two batches of a pair last alike and a scheduler slice is as likely to land in either. Its
    samples, of another batch, are not kept (they are when the driver's batch already was that one)."""
    calibrating = track.rounds == 0
    warm = resp.get("warmup") if isinstance(resp.get("warmup"), dict) else {}
    jit_ns = warm.get("jit_ns", 0)
    if isinstance(jit_ns, (int, float)) and not isinstance(jit_ns, bool):
        track.spent -= min(max(jit_ns, 0) / 1e9, 5.0)
    track.rounds += 1
    track.checksums.append(resp["checksum"])
    if track.tls is None and isinstance(resp.get("tls"), dict):
        track.tls = resp["tls"]
    if isinstance(resp.get("memory"), dict):  # optional (docs/protocol.md, bench): the largest figure seen
        m = memory_report(resp["memory"])
        if m and (track.memory is None or m["library_held_bytes"] > track.memory["library_held_bytes"]):
            track.memory = m
    own = resp.get("peak_rss_kb")
    own = int(own) if isinstance(own, (int, float)) and not isinstance(own, bool) and own > 0 else 0
    track.driver_peak_kb = max(track.driver_peak_kb, own)
    track.peak_rss_kb = max(track.peak_rss_kb, rss_kb if rss_kb is not None else own)
    if calibrating and pair_round >= 0 and equalise_ns > 0:
        found = int(resp["batch"])
        per_op = min(int(x) for x in resp["samples_ns"]) / max(found, 1)
        equal = min(found, max(1, round(equalise_ns / max(per_op, 1e-3))))  # never more than lasted the target
        if equal != found:
            track.batch = equal
            return
    track.batch = int(resp["batch"])
    track.samples.extend(int(x) for x in resp["samples_ns"])
    track.pair_rounds += [-1 if calibrating else pair_round] * len(resp["samples_ns"])
    ticks = resp.get("samples_tsc")  # checked by bench_response.check
    track.ticks = None if track.ticks is None or ticks is None else track.ticks + [int(x) for x in ticks]
    track.round_sizes.append(len(resp["samples_ns"]))
    track.round_process.append(process)


def side(track: Track) -> paired.Side | None:
    """The track's samples as the pairing reads them (None when none were paired)."""
    if not any(r >= 0 for r in track.pair_rounds):
        return None
    return paired.Side.of(track.samples, track.batch, track.pair_rounds, track.round_sizes, track.round_process)


def halfwidth(track: Track) -> float:
    """The relative half-width of the interval the reports show (`stats.summarize` with the rounds),
    so the runner stops on exactly what the reader will see."""
    per_op = [x / track.batch for x in track.samples]
    return stats.summarize(per_op, track.round_sizes, track.round_process).ci_rel_halfwidth


def decide(spec: CellSpec, track: Track, s: Settings, pass_no: int, tight: bool | None = None,
           spent: float | None = None) -> None:  # fmt: skip
    """After a round: go on, pause until the next pass over the plan (or the precision passes), or stop.

    Each of the `passes` passes may spend its share of the cell's budget. A cell is done when its
    interval meets the target (after `min_samples`) in the last pass or later; one that spent its
    budget without meeting it pauses, and the precision passes give it more of the run's unspent
    budget if any is left (run.precision_passes.sharpen). Very slow cells stop at five budgets or
    `max_samples` whatever the pass.

    A paired cell's providers decide together (decide_together): `tight` is then whether
    every paired ratio met the target, and `spent` the cell's providers' mean time.
    """
    budget = spec.budget or s.time_per_cell
    passes = max(1, s.passes)
    enough = len(track.samples) >= s.min_samples
    if tight is None:
        tight = enough and halfwidth(track) <= s.max_rel_ci
    spent = track.spent if spent is None else spent
    if not track.samples:  # a paired calibration keeps none: one round more, whatever it cost
        return
    if pass_no >= passes - 1:
        if tight:
            track.done = True
        elif enough and spent >= budget:
            track.paused = True
    elif tight or spent >= budget * (pass_no + 1) / passes:
        track.paused = True
    if spent >= 5 * budget or len(track.samples) >= s.max_samples:
        track.done = True


GO, PAUSE, DONE = "go", "pause", "done"  # what `CellSampler.take` decides


class CellSampler:
    """One provider's sampling of one cell as the measuring loop drives it: `next_request()`, send it,
    `take(response)` → GO, PAUSE or DONE. It owns the cell's `Track`, so the loop never passes the
    track between the request, the response checks, the absorbing and the stopping rule itself.

    A paired round's request (`pair_round` ≥ 0) is taken without a decision: the cell's providers
    decide together once every one of them had its turn (`decide_together`)."""

    def __init__(self, spec: CellSpec, s: Settings, clock_ns: float = 0.0):
        self.spec, self.s, self.clock_ns = spec, s, clock_ns
        self.track = Track()
        self._asked: dict | None = None
        self._pair_round = -1

    def next_request(self, pair_round: int = -1) -> dict:
        self._pair_round = pair_round
        self._asked = request_for(self.spec, self.track, self.s, in_pair=pair_round >= 0, clock_ns=self.clock_ns)
        return self._asked

    def take(self, resp: dict, pass_no: int, rss_kb: int | None = None, process: int = 0) -> str:
        """The driver's answer to the last request: refused (DriverError) when it cannot be true, else
        absorbed, then the decision (GO for a paired round's: the cell decides after its round)."""
        req, k = self._asked, self._pair_round
        assert req is not None, "take() before next_request()"
        response_checks.check(self.spec, req, resp)
        equalise = req["target_ns"] if k >= 0 and not one_per_sample(self.spec) else 0
        absorb(self.track, resp, rss_kb, process, k, equalise_ns=equalise)
        if k < 0:
            decide(self.spec, self.track, self.s, pass_no)
        return self.decision

    @property
    def decision(self) -> str:
        return DONE if self.track.done else PAUSE if self.track.paused else GO


def reference(providers: list[str], baseline: str) -> str:
    """Whom a paired cell's ratios are taken against: the baseline when it is measured, else the first."""
    return baseline if baseline in providers else providers[0]


def decide_together(samplers: dict[str, CellSampler], pass_no: int, s: Settings) -> None:
    """After a pair round: the cell's providers go on, pause or stop together, on the paired ratios'
    interval and on their mean spent time (one provider's slower requests must not end the pairing
    for all). One provider left alone decides on its own interval."""
    for x in samplers.values():  # five budgets spent alone (a long message's one slow request): done,
        if x.track.samples and x.track.spent >= 5 * (x.spec.budget or s.time_per_cell):  # not the others
            x.track.done = True
    live = {pid: x for pid, x in samplers.items() if not x.track.done}  # a failure ended its track
    if len(live) < 2:
        for x in live.values():
            decide(x.spec, x.track, s, pass_no)
        return
    enough = min(len(x.track.pair_rounds) for x in live.values()) >= s.min_samples
    tight = enough and paired_halfwidth(live, s.baseline) <= s.max_rel_ci
    spent = sum(x.track.spent for x in live.values()) / len(live)
    for x in live.values():
        decide(x.spec, x.track, s, pass_no, tight=tight, spent=spent)


def paired_halfwidth(samplers: dict[str, CellSampler], baseline: str) -> float:
    """The widest paired ratio's relative half-width among `samplers` against their reference
    (inf while any has too few pairs)."""
    ref = reference(list(samplers), baseline)
    base = side(samplers[ref].track)
    return max(
        (paired.halfwidth(paired.ratio(side(x.track), base)) for pid, x in samplers.items() if pid != ref),
        default=float("inf"),
    )
