"""Verification before timing, as one pipeline: known answers (with crash replay), cross-verification
of public keys, NIST's Monte Carlo chains, differential inputs (with a witness from outside the run
when a provider is short of agreement) and the floor (conformance.py). A `Verdict` per (provider,
algorithm) holds everything found about it; its `record` is what is stored."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from contextlib import nullcontext
from dataclasses import dataclass, field

from cryptobench.core import tls
from cryptobench.core.algorithms import Algorithm
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.core.settings import Settings
from cryptobench.drivers.interface import Drivers
from cryptobench.run import known_answers
from cryptobench.store.model import VerifyRecord
from cryptobench.verify import conformance, differential, op_state, schedule, tls_interop, witness
from cryptobench.verify import cross_checks as crosscheck
from cryptobench.verify.vectors import monte
from cryptobench.verify.witness_search import WitnessSearch
from cryptobench.versions import cache

# algorithms verified at once, each through its stages on its own (verify/schedule.py): a slow
# provider's SLH-DSA no longer holds every other algorithm's next stage; the drivers are separate
# processes, and most of a slow driver's time is its own latency, not the machine's cores
ALGS_AT_ONCE = 8  # how many drivers work at once is schedule.DRIVERS_AT_ONCE's
INTEROP = "TLS interop"  # the stage, and the one job of every TLS cell
# seconds per provider an algorithm of each kind is guessed to take, before a run here has timed it
GUESS = {"sig": 8.0, "kem": 4.0, "tls": 1.0, "kex": 3.0}


@dataclass
class Verdict:
    """What verification found of one provider's algorithm."""

    record: VerifyRecord  # status, detail, counts and the `conformance` section, as stored
    algorithm: Algorithm
    offered: list[str]  # the operations its driver offers
    known: dict[str, list[int]] = field(default_factory=dict)  # per op: message lengths of passed answers
    agreed: dict[str, list[int]] = field(default_factory=dict)  # ...of agreed differential inputs
    unwitnessed: str = ""  # why no witness from outside the run helped, when one was needed

    @property
    def passed(self) -> bool:
        return self.record.status == "passed"

    @property
    def timed(self) -> bool:
        """Passed, or unverified (too few cases): timed; unverified is never compared."""
        return self.record.status in ("passed", "unverified")

    def fail(self, detail: str) -> None:
        self.record.status, self.record.detail = "failed", detail

    def floor_ops(self) -> list[str]:
        """The operations the floor asks of (not the OpenSSL driver's bench/accuracy-only update and rekey)."""
        return [o for o in self.offered if o in self.algorithm.ops]

    def floor_of(self, agreed: dict[str, list[int]]) -> tuple[int, str]:
        """(cases counted, what the floor misses) with `agreed` as the agreed differential lengths."""
        checks = self.record.conformance.get("crosschecks_passed", 0)
        return conformance.judge_floor(self.algorithm, self.floor_ops(), self.known, agreed, checks)

    def lacking(self, agreed: dict[str, list[int]]) -> list[int]:
        return conformance.lacking_lengths(self.algorithm, self.floor_ops(), self.known, agreed)


def _agreed_lengths(r: differential.DiffResult) -> dict[str, list[int]]:
    """Per operation, the lengths of the inputs on which a provider gave what another provider gave
    (none when it is alone: nothing then shows its output right at lengths no vector has)."""
    out: dict[str, list[int]] = {}
    for x in r.agreed:
        out.setdefault(x.op, []).append(x.size)
    return out


class Interop:
    """TLS interop of every TLS cell (tls_interop.py): its servers are a second process of each provider
    (its client is the run's process), started once and closed at the end of verification."""

    def __init__(self, verifier: Verifier):
        self.v, self.drivers, self.s = verifier, verifier.drivers, verifier.s
        self._servers: dict[str, tuple | str] = {}  # a second process per provider, or why not

    def server(self, pid: str) -> tls_interop.Request:
        if pid not in self._servers:
            self._servers[pid] = self.drivers.start_witness(pid)
        got = self._servers[pid]
        if isinstance(got, str):
            why = got

            def refused(_msg: dict) -> dict:
                return {"ok": False, "error": f"no second process to serve from: {why}"}

            return refused
        return lambda msg: got[0].request(msg, self.s.timeout)

    def close(self) -> None:
        for got in self._servers.values():
            if not isinstance(got, str):
                got[0].close(timeout=1)
        self._servers.clear()

    def run(self, cells: list[Algorithm], askers: dict[str, list[str]]) -> None:
        """Every client of the providers offering each TLS cell against every server, all cells at once
        (tls_interop.matrices); a cell whose PKI could not be made is left unverified here and refused
        by the runner."""
        ready = {}
        for a in cells:
            pids = [p for p in askers[a.name] if "handshake" in self.drivers.offered(p, a.name)]
            pki = self.s.tls_pki.get(tls.parse(a.name).auth.name)
            if pids and pki is not None:
                ready[a.name] = (pids, pki)
        self.v.steps.totals[INTEROP] = sum(len(pids) ** 2 for pids, _ in ready.values())

        def client_of(c: str) -> tls_interop.Request:  # asked holding its lock (`hold`)
            return lambda msg: self.drivers.request(c, msg, self.s.timeout)

        with self.v.providers.stage(INTEROP, f"{len(ready)} cells"):
            got = tls_interop.matrices(ready, self.server, client_of, lambda c: self.v.providers.using(c, INTEROP),
                                       lambda what: self.v.steps(INTEROP, what), self.v.stop)  # fmt: skip
        for a in cells:
            if a.name in ready:
                self._judge(a, ready[a.name][0], got[a.name])

    def _judge(self, a: Algorithm, pids: list[str], pairs: list[tls_interop.Pair]) -> None:
        bad = tls_interop.blame(pairs, tls_interop.reference_of(pids, self.s.baseline))
        for pid in pids:
            mine = [p for p in pairs if pid in (p.server, p.client)]
            ok = sum(p.passed for p in mine)
            weaker = "" if pid in bad else tls_interop.unverified(mine, pid)
            status = "failed" if pid in bad else "unverified" if weaker else "passed"  # unverified: timed, not compared
            rec = VerifyRecord(pid, a.name, status, passed=ok, failed=len(mine) - ok,
                               detail=f"failed: {bad[pid]}" if pid in bad else weaker,
                               conformance={"interop": [p.to_dict() for p in mine]})  # fmt: skip
            self.v.verdicts[(pid, a.name)] = Verdict(rec, a, self.drivers.offered(pid, a.name))


class Verifier:
    """Every (provider, algorithm) of a plan, verified in stages; `step` tells where it is (it takes
    minutes on a large plan), `keep_crosschecks` stores the cross-verification records as they come."""

    def __init__(self, drivers: Drivers, s: Settings, known_providers: Collection[str],
                 step: Callable[[str, int, int, str], None] = lambda *_: None,
                 keep_crosschecks: Callable[[list], None] = lambda _: None):  # fmt: skip
        self.drivers, self.s, self.step, self.keep_crosschecks = drivers, s, step, keep_crosschecks
        self.verdicts: dict[tuple[str, str], Verdict] = {}
        self.interop = Interop(self)
        self.witnesses = WitnessSearch(drivers, known_providers, s.vectors_dir, s.timeout)
        self.providers, self.stop = schedule.Providers(), threading.Event()  # a lock per driver; Ctrl-C
        self.steps = schedule.Steps(step)  # stage by stage, as the stages run at once

    def verdict(self, pid: str, alg: str) -> Verdict | None:
        return self.verdicts.get((pid, alg))

    def records(self) -> list[VerifyRecord]:  # in one order whatever order the threads found them in
        return [self.verdicts[k].record for k in sorted(self.verdicts)]

    def verify_all(self, cells: list[CellSpec]) -> None:
        """Every algorithm through its stages (known answers, TLS interop, cross-verification, Monte
        Carlo, differential), ALGS_AT_ONCE algorithms at once, the slowest first; then the floor."""
        self.providers.t0 = time.monotonic()
        algs = {c.alg: c.algorithm for c in cells}
        needed = sorted({(pid, c.alg) for c in cells for pid in c.providers if self.drivers.running(pid)})
        offered = [(pid, a) for pid, a in needed if a != "noop" and a in self.drivers.hello(pid).get("offers", {})]
        handshakes = {a for _, a in offered if algs[a].kind == "tls"}  # verified by interop instead
        askers: dict[str, list[str]] = {}  # per algorithm, the providers its stages ask
        for pid, a in [(p, a) for p, a in offered if a not in handshakes] + [x for x in needed if x[1] in handshakes]:
            askers.setdefault(a, []).append(pid)
        self.steps.totals = _stage_totals(askers, algs, handshakes)
        costs = schedule.Costs(str(cache.base() / "verify" / "seconds.json"))
        sizes = {a: (algs[a].kind, len(askers[a])) for a in askers if a not in handshakes}  # per job, for its cost
        if handshakes:  # every TLS cell in one job: the servers are one process per provider
            sizes[INTEROP] = ("tls", sum(len(askers[a]) for a in handshakes))
        key = {job: f"{job}/{n}" for job, (_, n) in sizes.items()}  # a small run's time must not order a large one

        def one(job: str) -> None:
            with costs.measure(key[job]):
                if job == INTEROP:
                    self.interop.run([algs[a] for a in sorted(handshakes)], askers)
                else:
                    self._verify_alg(algs[job], askers[job])

        try:  # before a run here has timed a job, a guess: more providers, slower kinds
            schedule.at_once(sorted(sizes), one, ALGS_AT_ONCE, stop=self.stop,
                             cost=lambda j: costs.of(key[j], GUESS.get(sizes[j][0], 1.0) * sizes[j][1]))  # fmt: skip
        finally:
            self.interop.close()
            self.providers.write_profile()
        costs.save()
        for v in self.verdicts.values():
            if v.passed and conformance.under_floor(v.algorithm):
                _floor(v)

    def _verify_alg(self, a: Algorithm, pids: list[str]) -> None:
        """One algorithm's stages, in order; each stage asks its providers at once, each through its lock."""
        with self.providers.stage("known answers", a.name):
            schedule.at_once(pids, lambda pid: self._answers(pid, a), len(pids), stop=self.stop)
        if a.public_key and self._going():
            with self.providers.stage("cross-verification", a.name):
                self.steps("cross-verification", a.name)
                self._crossverify(a.name)
        chains = [
            p
            for p in pids
            if a.name in monte.ALGORITHMS and self._going() and (v := self.verdict(p, a.name)) and v.passed
        ]
        with self.providers.stage("Monte Carlo", a.name) if chains else nullcontext():
            schedule.at_once(chains, lambda p: self._monte(p, self.verdicts[(p, a.name)]), len(chains), stop=self.stop)
        if differential.applies_to(a) and self._going():
            with self.providers.stage("differential", a.name):
                self.steps("differential", a.name)
                self._differential(a)

    def _going(self) -> bool:  # True, or between stages Stopped once the run is ending (Ctrl-C, SIGTERM)
        if self.stop.is_set():
            raise schedule.Stopped()
        return True

    def _answers(self, pid: str, a: Algorithm) -> None:
        self.steps("known answers", f"{pid} {a.name}")
        with self.providers.using(pid, "known answers"):
            rec, known = known_answers.check(self.drivers, pid, a, self.s.vectors_dir, self.s.timeout)
        self.verdicts[(pid, a.name)] = Verdict(rec, a, self.drivers.offered(pid, a.name), known)

    def _requester(self, pid: str, stage: str):
        """One request to `pid`'s driver, as cross-checks and differential tests send them (restarted
        first when an earlier request left it dead: a crash fails only the algorithm it happened in),
        holding the provider's lock: another algorithm's job may be asking it too."""
        using = self.providers.using

        def one(msg: dict) -> dict:
            with using(pid, stage):
                return self.drivers.request(pid, msg, self.s.timeout)

        many = getattr(self.drivers, "request_many", None)  # a Drivers without it is asked one at a time
        if many is None:
            return one

        def several(msgs: list[dict]) -> list:
            with using(pid, stage):
                return many(pid, msgs, self.s.timeout)

        return differential.Pipelined(one, several)

    def _of(self, alg: str) -> dict[str, Verdict]:
        return {pid: v for (pid, a), v in self.verdicts.items() if a == alg}

    def _crossverify(self, alg: str) -> None:
        """Providers check each other's keys, signatures and ciphertexts (cross_checks.py)."""
        mine = self._of(alg)
        peers = sorted(pid for pid, v in mine.items() if v.record.status in ("passed", "no-vectors"))
        if len(peers) < 2:
            for pid in peers:
                rec = mine[pid].record
                if rec.status == "no-vectors":  # nothing shows it wrong, nothing shows it right: timed, never compared
                    rec.status = "unverified"
                    why = rec.detail if rec.skipped else "no test vectors"
                    rec.detail = f"unverified (0 cases): {why}, and no second provider to cross-verify with"
            self._crossverify_elsewhere(alg, mine, peers)
            return
        records = crosscheck.crosscheck(alg, {pid: self._requester(pid, "cross-verification") for pid in peers})
        self.keep_crosschecks(records)
        reference = crosscheck.reference(records, peers, _trusted(self.s.baseline, mine))
        bad = crosscheck.failed_providers(records, reference)
        torn = crosscheck.disputed(records) if reference is None else {}
        for pid in peers:
            _cross_verdict(mine[pid], pid, records, peers, bad, torn)
        self._crossverify_elsewhere(alg, mine, peers)

    def _crossverify_elsewhere(self, alg: str, mine: dict[str, Verdict], peers: list[str]) -> None:
        """A provider whose failures all have their operation (op_state.localized: e.g. a verify that
        accepts a malformed signature) is cross-verified too, with one passed provider, so its record
        says which of its other operations are right; it stays failed, and no other provider's verdict
        depends on it. `leak` checks such an operation (leak/gate.py); `run` times none of it."""
        passed = {pid for pid, v in mine.items() if v.passed}
        ref = next((p for p in _trusted(self.s.baseline, mine) if p in passed), None)
        failed = [p for p, v in sorted(mine.items()) if p not in peers and op_state.localized(v.record)]
        for pid in failed if ref else []:
            if self.drivers.why_broken(pid):
                continue
            asked = {p: self._requester(p, "cross-verification") for p in (ref, pid)}
            records = crosscheck.crosscheck(alg, asked)
            self.keep_crosschecks(records)
            op_state.count_crosschecks(mine[pid].record, mine[pid].algorithm.kind, records, pid)

    def _monte(self, pid: str, v: Verdict) -> None:
        """NIST's Monte Carlo chains (vectors/monte.py), a verify case a call: SHA-2/SHA-3's (ACVP's, else
        CAVP's), a hash each; AES-ECB/CBC's (ACVP's), a block each, both directions."""
        alg = v.algorithm.name
        if not self.s.monte_checkpoints or not monte.applies(alg, v.offered):
            return

        def one(case: dict) -> str:  # on a fresh driver if another algorithm's request killed it
            self._going()  # a chain is thousands of requests: Ctrl-C ends it at the next one
            resp = self.drivers.request(pid, {"cmd": "verify", "alg": alg, "cases": [{"id": "monte", **case}]})
            result = (resp.get("results") or [{}])[0]
            out = result.get("out") if isinstance(result, dict) else None
            if not isinstance(out, str):
                raise DriverError(f"no output: {result!r}"[:200])
            return out.lower()

        self.steps("Monte Carlo", f"{pid} {alg}")
        try:
            with self.providers.using(pid, "Monte Carlo"):  # a chain of requests, in a row
                result = monte.run_chains(alg, one, self.s.monte_checkpoints, self.s.vectors_dir)
        except DriverError as e:
            v.fail(f"failed: Monte Carlo test: {e}")
            return
        if result is None:
            return
        v.record.conformance["monte"] = {"source": result.source, "checkpoints": result.checked,
                                         "passed": result.passed, "detail": result.detail}  # fmt: skip
        if not result.passed:
            v.fail(f"failed: {result.source}: {result.detail}")

    def _differential(self, a: Algorithm) -> None:
        """The same seeded inputs on every provider that passed its vectors (differential.py), and on
        those that failed them as witnesses: a failed provider's answers that agree with another's are
        still evidence for it, so a plugin's failure never takes away c:openssl's agreed lengths. A
        provider still short of the floor for want of agreement gets a witness from outside the run."""
        alg = a.name
        mine = self._of(alg)
        peers = [pid for pid, v in mine.items() if v.passed]
        if not peers or not self.s.differential_inputs:
            return
        witnesses = [pid for pid in mine if pid not in peers and not self.drivers.why_broken(pid)]
        streaming = {pid for pid in peers if alg in self.drivers.hello(pid).get("stream", [])}
        results = differential.differential(
            a, {pid: self._requester(pid, "differential") for pid in peers}, streaming, self.s.differential_inputs, self.s.seed,
            witnesses={pid: self._requester(pid, "differential") for pid in witnesses},
            reference=next((p for p in (self.s.baseline, "c:openssl") if p in peers), None), stop=self.stop,
        )  # fmt: skip
        brought, helped = self._bring_witness(alg, results)
        for r in results:
            v = mine[r.provider]
            v.agreed = _agreed_lengths(r)
            section = v.record.conformance["differential"] = {
                "inputs": r.inputs, "streamed": r.streamed, "disagreements": len(r.disagreements),
                "peers": [p for p in peers if p != r.provider], "agreed": sum(len(x) for x in v.agreed.values()),
            }  # fmt: skip
            named = witnesses + ([witness.MARK + brought] if r.provider in helped else [])
            if named:
                section["witnesses"] = named
            worst = r.smallest
            if worst is not None:
                section["smallest"] = {"input": worst.input.spec(), "why": worst.describe(),
                                       "replay": worst.replay()}  # fmt: skip
                v.fail(f"failed: differential: {worst.describe()} (replay: {worst.replay()})")

    def _bring_witness(self, alg: str, results: list[differential.DiffResult]) -> tuple[str, set[str]]:
        """When a passed provider misses the floor only for want of agreement (alone, or beside providers
        that failed or disagree), one independent built-in provider answers its inputs as a witness,
        stopped afterwards: (its id, the providers it was asked for), or ("", set()) when none was needed
        or none could be had; then the verdict's `unwitnessed` says why, for the record's detail."""
        lone = [r for r in results if r.passed and _witness_would_help(self.verdicts[(r.provider, alg)], r)]
        if not lone:
            return "", set()
        ops = {x.op for r in lone for x in r.outputs}
        taken = set(self._of(alg))
        found = self.witnesses.start(alg, [r.provider for r in lone], ops, taken)
        if isinstance(found, str):
            for r in lone:
                v = self.verdicts[(r.provider, alg)]
                lengths = ", ".join(map(str, v.lacking(_agreed_lengths(r))))
                v.unwitnessed = f"no second implementation of {alg} corroborates lengths {lengths}: {found}"
            return "", set()
        pid, driver = found
        try:  # verification's time, never measured: the witness has no track, no cell and no record
            differential.corroborate(alg, lone, lambda msg: driver.request(msg, self.s.timeout))
        finally:
            driver.close(timeout=2)
        for r in lone:
            v = self.verdicts[(r.provider, alg)]
            lengths = v.lacking(_agreed_lengths(r))
            if lengths:
                v.unwitnessed = (
                    f"the witness {pid} (not measured) gave other outputs at {', '.join(map(str, lengths))} bytes"
                )
        return pid, {r.provider for r in lone}


def _witness_would_help(v: Verdict, r: differential.DiffResult) -> bool:
    """The provider is short of the floor now, and would not be if every input it answered were agreed."""
    if not v.passed or not conformance.under_floor(v.algorithm):
        return False
    if not v.floor_of(_agreed_lengths(r))[1]:
        return False
    everything: dict[str, list[int]] = {}
    for x in r.outputs:
        everything.setdefault(x.op, []).append(x.size)
    return not v.floor_of(everything)[1]


def _floor(v: Verdict) -> None:
    total, missing = v.floor_of(v.agreed)
    v.record.conformance["cases"] = total
    if missing:
        disputed = v.record.detail if v.record.detail.startswith("disputed:") else ""
        v.record.status, v.record.detail = "unverified", f"unverified ({total} cases): {missing}"
        v.record.detail += "".join(f"; {x}" for x in (v.unwitnessed, disputed) if x)


def _stage_totals(askers: dict[str, list[str]], algs: dict, handshakes: set[str]) -> dict[str, int]:
    """Per stage, the steps it will take: what `step` counts."""
    kinds = {"known answers": sum(len(p) for a, p in askers.items() if a not in handshakes),
             "TLS interop": len(handshakes), "cross-verification": sum(algs[a].public_key for a in askers),
             "Monte Carlo": sum(len(p) for a, p in askers.items() if a in monte.ALGORITHMS),
             "differential": sum(differential.applies_to(algs[a]) for a in askers)}  # fmt: skip
    return kinds


def _cross_verdict(v: Verdict, pid: str, records: list, peers: list[str], bad: dict, torn: dict) -> None:
    """A peer's record after cross-verification: failed against the reference, disputed (timed, never
    compared: nobody here knows who is wrong), or passed where it had no vectors."""
    rec = v.record
    rec.conformance["crosschecks_passed"] = sum(r.passed and pid in (r.producer, r.consumer) for r in records)
    if pid in bad:
        rec.status, rec.detail = "failed", f"failed: cross-verification: {bad[pid]}"
    elif pid in torn and rec.status != "failed":
        rec.status, rec.detail = "unverified", f"disputed: {torn[pid]}; no known answer or third provider decides"
    elif rec.status == "no-vectors":
        rec.status = "passed"
        why = rec.detail if rec.skipped else "no vectors"
        rec.detail = f"{why}; cross-verified with {', '.join(p for p in peers if p != pid)}"
    op_state.count_crosschecks(rec, v.algorithm.kind, records, pid)


def _trusted(baseline: str | None, mine: dict[str, Verdict]) -> list[str]:
    """Who a cross-verification dispute trusts first: the baseline, c:openssl, then a provider that
    passed known answers over one that had none (cross_checks.reference); those that had none are
    equals, and two of them disagreeing alone are a dispute nobody here decides."""
    vectors = sorted(pid for pid, v in mine.items() if v.record.status == "passed")
    return [p for p in (baseline, "c:openssl") if p] + vectors
