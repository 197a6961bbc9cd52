"""The driver rules of docs/protocol.md § The measurement loop, checked from outside over the protocol.

Every rule is one small function that talks to a running driver through the orchestrator's own
client and returns what it found wrong; `check` runs them all, starting a fresh process when a
rule left the driver dead. Nothing here knows which language a driver is written in: a new driver,
or a `--providers-file` program, gets the same checks (`cryptobench check-driver`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from cryptobench import PROTOCOL_VERSION
from cryptobench.core import algorithms, fixed_input
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.drivers.client import DriverProcess
from cryptobench.measure import response_checks as bench_response

PROBE_READS = 20000
LOOP_PROTOCOL = 4  # the version that made the loop normative; 5 only added the leak request and samples_tsc
MAX_BATCH = 1 << 30
NOOP_CHECKSUM = "00000000:cbf29ce484222325"
SHA256_1K_CHECKSUM = "00000020:fb4898be6151a393"  # docs/protocol.md § The fixed input
COUNTER_STEADY = 0.02  # ticks per ns of 2 ms samples agree this closely when read beside the clock
COUNTER_TRIES = 3  # a loaded host may preempt a driver between its clock and counter reads, in one try
HELLO_STRINGS = ("language", "library", "library_version", "runtime")
STATE_SIZES = (64, 1024)  # whole blocks, below and above a hash's compression block


@dataclass(frozen=True)
class Violation:
    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


class Session:
    """One provider's driver, restarted when a rule leaves it dead, and its hello."""

    def __init__(self, provider: str, start: Callable[[], DriverProcess], timeout: float, algs=None):
        self.provider, self._start, self.timeout = provider, start, timeout
        self.algs: set[str] | None = algs  # `plugin check --alg`: the algorithms whose cells are checked
        self.proc: DriverProcess | None = None
        self.hello: dict = {}

    def driver(self) -> DriverProcess:
        if self.proc is None or not self.proc.alive():
            self.proc = self._start()
            self.hello = self.proc.hello(self.timeout)
        return self.proc

    def request(self, msg: dict) -> dict:
        return self.driver().request(msg, self.timeout)

    def raw(self, line: bytes) -> dict:
        return self.driver().request_line(line, self.timeout)

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()


def bench(alg: str = "noop", op: str = "noop", size: int = 0, **fields) -> dict:
    """A bench request for the checks: quick by default (no warm-up, calibration to 0 ns, 3 samples)."""
    req = {"cmd": "bench", "alg": alg, "op": op, "size": size, "chunk": 0, "seed": fixed_input.DEFAULT_SEED,
           "batch": 0, "target_ns": 0, "warmup_ns": 0, "samples": 3}  # fmt: skip
    return {**req, **cell_keys(alg), **fields}


def cell_keys(alg: str) -> dict:
    """The fixed input's key and IV for a cell of `alg`, as far as it takes them (docs/protocol.md)."""
    a = algorithms.ALGORITHMS.get(alg)
    keys = {}
    if a is not None and a.key_len:
        keys["key"] = fixed_input.cell_key(a.key_len)
    if a is not None and a.iv_len:
        keys["iv"] = fixed_input.cell_iv(a.iv_len)
    return keys


def _deterministic_cell(hello: dict) -> tuple[str, str, int] | None:
    """sha256 at 1 KiB when offered (its checksum is a check value), else the first repeatable
    symmetric cell the driver offers."""
    offers = hello.get("offers") or {}
    if "hash" in offers.get("sha256", []):
        return "sha256", "hash", 1024
    for alg, ops in offers.items():
        a = algorithms.ALGORITHMS.get(alg)
        if a is None or a.public_key or a.kind in ("noop", "protocol", "kdf"):
            continue
        for op in ops:
            if op in a.ops and a.repeatable(op):
                return alg, op, 64 if a.block <= 64 else a.block
    return None


# --- the rules --------------------------------------------------------------------------------------


def hello_fields(s: Session) -> list[str]:
    h = s.hello
    bad = []
    version = h.get("protocol")
    if not isinstance(version, int) or not LOOP_PROTOCOL <= version <= PROTOCOL_VERSION:
        bad.append(f"answers protocol {version!r}: the measurement loop's rules are version {LOOP_PROTOCOL}, "
                   f"this orchestrator speaks up to {PROTOCOL_VERSION}")  # fmt: skip
    if h.get("provider") != s.provider:
        bad.append(f"provider is {h.get('provider')!r}, started as {s.provider!r}")
    bad += [f"{k} is not a non-empty string" for k in HELLO_STRINGS if not (isinstance(h.get(k), str) and h[k])]
    offers = h.get("offers")
    if not all(isinstance(v, list) and v and all(isinstance(o, str) for o in v) for v in offers.values()):
        bad.append("offers must map each algorithm to a non-empty list of operations")
    if offers.get("noop") != ["noop"]:
        bad.append("offers has no noop: [noop] (the loop's own floor)")
    stream = h.get("stream", [])
    if not isinstance(stream, list) or any(a not in offers for a in stream):
        bad.append("stream must list algorithms that are in offers")
    clock = h.get("clock")
    if not isinstance(clock, dict) or not isinstance(clock.get("source"), str) or not clock.get("source"):
        bad.append("clock.source is missing")
    return bad


def resolution_probe(s: Session) -> list[str]:
    clock = s.hello.get("clock") or {}
    res, reads = clock.get("resolution_ns"), clock.get("probe_reads")
    bad = []
    if reads != PROBE_READS:
        bad.append(f"the probe made {reads!r} reads, the rule is {PROBE_READS} successive reads")
    if not isinstance(res, int) or isinstance(res, bool) or not 0 <= res <= 1_000_000_000:
        bad.append(f"resolution_ns is {res!r}: an integer of ns, 0 when no two reads differed")
    return bad


def warm_up(s: Session) -> list[str]:
    warm = s.request(bench(batch=1, samples=1)).get("warmup")
    ops = warm.get("ops") if isinstance(warm, dict) else None
    if ops != 1:
        return [f"warmup_ns 0 ran {ops!r} warm-up operations; the rule is one round of exactly one"]
    return []


def calibration(s: Session) -> list[str]:
    bad = []
    r = s.request(bench())
    warm = r.get("warmup") or {}
    if r.get("batch") != 1 or warm.get("calibration_ops") != 1:
        bad.append(f"target_ns 0 gave batch {r.get('batch')!r} after {warm.get('calibration_ops')!r} "
                   "calibration operations; the rule is batch 1 after 1")  # fmt: skip
    r = s.request(bench(target_ns=1_000_000))
    batch, cal = r.get("batch"), (r.get("warmup") or {}).get("calibration_ops")
    if not isinstance(batch, int) or batch < 1 or batch > MAX_BATCH or batch & (batch - 1):
        bad.append(f"calibrated batch {batch!r} is not a power of two from 1 to 2^30")
    elif cal != 2 * batch - 1:
        bad.append(f"calibration ran {cal!r} operations for batch {batch}; doubling from 1 runs {2 * batch - 1}")
    return bad


def sample_count(s: Session) -> list[str]:
    r = s.request(bench(batch=7, samples=5))
    bad = []
    if r.get("batch") != 7:
        bad.append(f"asked for batch 7, got {r.get('batch')!r}")
    if "calibration_ops" in (r.get("warmup") or {}):
        bad.append("calibrated although the batch was given")
    samples = r.get("samples_ns")
    if not isinstance(samples, list) or len(samples) != 5:
        bad.append(f"asked for 5 samples, got {len(samples) if isinstance(samples, list) else samples!r}")
    elif not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in samples):
        bad.append("samples_ns must be whole nanoseconds")
    return bad


def _family(alg: str) -> str:
    """Parameter sets of one public-key scheme share a driver's code: rsa-2048-pss and rsa-4096-pss are
    rsa-#-pss, slh-dsa-sha2-128s and -256f are slh-dsa-sha#-# (small and fast sets alike)."""
    return re.sub(r"#[sf]\b", "#", re.sub(r"\d+", "#", alg))


def _cheapest_first(alg: str) -> bool:
    """SLH-DSA's and SPHINCS+'s 'f' sets sign in milliseconds where the 's' sets take up to seconds."""
    return not re.search(r"\d[f]\b", alg)


def _state_cells(s: Session) -> list[tuple[str, str, int]]:
    """Every repeatable cell the driver offers (of `s.algs`), at STATE_SIZES: where state carried from one
    operation into the next (a CBC cell that never resets its IV) shows. Unless algorithms are named, a
    public-key scheme is checked on its first parameter set in the catalogue (a fast one, for hash-based
    signatures): its others run the same
    code, and each costs key pairs and signatures made outside the loop (a 4096-bit RSA key, a SLH-DSA
    signature: seconds in some languages) for no other finding."""
    out = []
    offers = s.hello.get("offers") or {}
    seen: set[str] = set()
    for alg in sorted((a for a in algorithms.ALGORITHMS if a in offers), key=_cheapest_first):  # stable sort
        ops, a = offers[alg], algorithms.ALGORITHMS[alg]
        if alg == "noop" or (s.algs is not None and alg not in s.algs):
            continue
        if s.algs is None and a.per_operation:
            if _family(alg) in seen:
                continue
            seen.add(_family(alg))
        sizes = STATE_SIZES if not a.per_operation else (32,) if a.kind in ("sig", "pke") else (0,)  # as suites do
        out += [(alg, op, size) for op in ops if op in a.ops and a.repeatable(op) for size in sizes]
    return out


def last_output(s: Session) -> list[str]:
    cells = [("noop", "noop", 0, NOOP_CHECKSUM)]
    cell = _deterministic_cell(s.hello)
    if cell is not None and (s.algs is None or cell[0] in s.algs):
        cells.append((*cell, SHA256_1K_CHECKSUM if cell == ("sha256", "hash", 1024) else None))
    bad = []
    for alg, op, size, expected in cells:
        r = s.request(bench(alg, op, size, batch=3, samples=2))
        first, after = r.get("checksum"), r.get("checksum_after")
        if expected is not None and first != expected:
            bad.append(f"{alg} {op} of {size} B: checksum {first!r}, the fixed input gives {expected}")
        if after != first:
            bad.append(f"{alg} {op} of {size} B: checksum_after {after!r} differs from checksum {first!r}")
    done = {c[:3] for c in cells}
    for alg, op, size in _state_cells(s):  # the rest as `run` checks every response: its own check, not a copy
        if (alg, op, size) in done:
            continue
        req = bench(alg, op, size, batch=3, samples=2)
        try:
            bench_response.check_output(CellSpec(alg, op, size, 0, ()), s.request(req))
        except DriverError as e:
            if str(e).startswith("not offered"):
                continue  # e.g. a one-block minimum: `run` records the same cell as not offered
            bad.append(f"{alg} {op} of {size} B: {e}")  # a crash here: Session.driver() restarts it for the next
    return bad


def not_offered(s: Session) -> list[str]:
    bad = []
    asks = [
        ("an unknown algorithm", bench("no-such-alg", "hash", 64)),
        ("an unknown operation", bench(op="no-such-op")),
    ]
    unstreamed = next(
        (a for a in s.hello.get("offers", {}) if a not in s.hello.get("stream", []) and a != "noop"), None
    )
    if unstreamed is not None:
        op = s.hello["offers"][unstreamed][0]
        asks.append((f"chunk for {unstreamed} (not in stream)", bench(unstreamed, op, 64, chunk=16)))
    for what, req in asks:
        try:
            s.request(req)
            bad.append(f"{what}: answered ok instead of `not offered: ...`")
        except DriverError as e:
            if not str(e).startswith("not offered"):
                bad.append(f"{what}: error {str(e)[:80]!r} does not start with `not offered:`")
    return bad


def error_shape(s: Session) -> list[str]:
    bad = []
    for what, line in [
        ("a line that is not JSON", b"this is not json"),
        ("a JSON array", b"[1, 2]"),
        ("an unknown cmd", b'{"cmd": "no-such-cmd"}'),
        ("a bench without alg", b'{"cmd": "bench", "op": "noop", "size": 0, "seed": 1, "samples": 1}'),
    ]:
        try:
            s.raw(line)
            bad.append(f"{what}: answered ok")
        except DriverError as e:
            if s.proc is None or not s.proc.alive():
                bad.append(f"{what}: the driver died or broke the protocol ({str(e)[:80]})")
                s.proc = None
                continue
        try:
            s.request({"cmd": "hello", "protocol": PROTOCOL_VERSION})
        except DriverError as e:
            bad.append(f"after {what}: hello failed ({str(e)[:80]})")
            s.proc = None
    return bad


def leak(s: Session) -> list[str]:
    """Protocol 5's leak request (§ leak): one time per order entry, in order, and each input's outcome;
    a bad index is a one-line error. Drivers speaking 1-4 have no such request: nothing to check."""
    s.driver()
    if s.hello.get("protocol", 0) < 5:
        return []
    cell = _deterministic_cell(s.hello)
    if cell is None:
        return []
    alg, op, _size = cell
    base = cell_keys(alg)
    inputs = [{**base, "msg": "00" * 64}, {**base, "msg": "ff" * 64}]
    order = [0, 1, 1, 0, 1]
    bad = []
    try:
        resp = s.request({"cmd": "leak", "alg": alg, "op": op, "inputs": inputs, "order": order})
    except DriverError as e:
        return [] if str(e).startswith("not offered") else [f"{alg} {op}: leak failed: {str(e)[:80]}"]
    times = resp.get("times")
    if not isinstance(times, list) or len(times) != len(order) or not all(isinstance(t, int) and t >= 0 for t in times):
        bad.append(f"{alg} {op}: times {str(times)[:60]} are not {len(order)} non-negative integers")
    if resp.get("counter") not in ("tsc", "clock"):
        bad.append(f"counter {resp.get('counter')!r} is neither 'tsc' nor 'clock'")
    if resp.get("outcomes") != ["ok", "ok"]:
        bad.append(f"outcomes {resp.get('outcomes')!r}, expected ['ok', 'ok'] (both inputs ran and were accepted)")
    try:
        s.request({"cmd": "leak", "alg": alg, "op": op, "inputs": inputs, "order": [2]})
        bad.append("an order index past the inputs was answered ok")
    except DriverError:
        pass
    return bad


def cycle_counter(s: Session) -> list[str]:
    """samples_tsc is optional; where sent, one positive count per sample, at one steady rate."""
    found: list[str] = []
    for _ in range(COUNTER_TRIES):  # one preemption between the two reads skews a sample; a fault skews every try
        found = _counter_steady(s.request(bench(batch=0, target_ns=2_000_000, samples=5)))
        if not found:
            return []
    return found


def _counter_steady(r: dict) -> list[str]:
    ticks, samples = r.get("samples_tsc"), r.get("samples_ns")
    if ticks is None:
        return []
    if not isinstance(samples, list):
        return [f"samples_ns {samples!r} is not a list"]
    try:  # the runner's own check of every bench response: one positive count per sample, a real rate
        bench_response.check_ticks(ticks, samples)
    except DriverError as e:
        return [str(e)]
    rates = sorted(t / max(ns, 1) for t, ns in zip(ticks, samples, strict=True))
    mid = rates[len(rates) // 2]
    off = max(abs(x / mid - 1) for x in rates)
    if off > COUNTER_STEADY:
        return [f"ticks per ns vary by {off * 100:.1f}% between samples ({rates[0]:.4g}-{rates[-1]:.4g}): "
                "the counter is not read beside the clock"]  # fmt: skip
    return []


def bye(s: Session) -> list[str]:
    proc = s.driver()
    proc.request({"cmd": "bye"}, s.timeout)
    try:
        code = proc.proc.wait(timeout=s.timeout)
    except Exception:  # noqa: BLE001 - a driver that does not exit is the finding
        proc.kill()
        return ["did not exit after bye"]
    s.proc = None
    return [] if code == 0 else [f"exited with code {code} after bye"]


RULES: dict[str, tuple[Callable[[Session], list[str]], str]] = {
    "hello-fields": (hello_fields, "hello names the provider, library, runtime, clock, offers (noop included)"),
    "resolution-probe": (resolution_probe, "clock resolution from 20,000 successive reads"),
    "warm-up": (warm_up, "at least one warm-up operation, even with warmup_ns 0"),
    "calibration": (calibration, "batch 1, 2, 4, ... until one batch lasts target_ns; 2·batch−1 operations"),
    "sample-count": (sample_count, "exactly the batch and number of samples asked for"),
    "last-output": (
        last_output,
        "checksum_after (one more operation) equals checksum in every offered cell (a public-key scheme: "
        "its first parameter set, unless --alg names others; no state carried between operations), of the "
        "right length; the fixed input's values",
    ),
    "not-offered": (not_offered, "what is not offered is refused with `not offered:`"),
    "error-shape": (error_shape, "a bad request gets a one-line error and the driver keeps serving"),
    "leak": (leak, "protocol 5: leak times each measurement and says how each input ended"),
    "cycle-counter": (cycle_counter, "samples_tsc, where sent: one count per sample, read beside the clock"),
    "bye": (bye, "bye is answered and the driver exits 0"),
}


def check(provider: str, start: Callable[[], DriverProcess], timeout: float = 60,
          progress: Callable[[str], None] | None = None, algs: set[str] | None = None) -> list[Violation]:  # fmt: skip
    """Every rule against one provider's driver: the violations found, in rule order. `algs`: only the
    cells of these algorithms (`plugin check --alg`); the rules about the loop itself use noop."""
    s = Session(provider, start, timeout, algs)
    found: list[Violation] = []
    try:
        for name, (rule, _) in RULES.items():
            if progress:
                progress(name)
            try:
                s.driver()
                found += [Violation(name, m) for m in rule(s)]
            except DriverError as e:
                found.append(Violation(name, str(e)))
                if s.proc is not None and not s.proc.alive():
                    s.proc = None
            except (AttributeError, TypeError, KeyError, ValueError) as e:  # a response of the wrong shape
                found.append(Violation(name, f"response of the wrong shape ({type(e).__name__}: {e})"))
    finally:
        s.close()
    return found
