"""Verification before timing, as one pipeline: known answers (with crash replay), cross-verification
of public keys, NIST's Monte Carlo chains, differential inputs (with a witness from outside the run
when a provider is short of agreement) and the floor (conformance.py). A `Verdict` per (provider,
algorithm) holds everything found about it; its `record` is what is stored."""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from cryptobench.core import tls
from cryptobench.core.algorithms import Algorithm
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.core.settings import Settings
from cryptobench.drivers.interface import Drivers
from cryptobench.run import known_answers
from cryptobench.store.model import VerifyRecord
from cryptobench.verify import conformance, differential, tls_interop, witness
from cryptobench.verify import cross_checks as crosscheck
from cryptobench.verify.vectors.monte import FILES as MONTE_FILES
from cryptobench.verify.vectors.monte import run_monte
from cryptobench.verify.witness_search import WitnessSearch

# providers verified at once (known answers, Monte Carlo): their drivers are separate processes, and
# most of a slow driver's time is its own latency, not the machine's cores
PARALLEL_PROVIDERS = 4


def each_provider(work: list[tuple[str, str]], fn: Callable[[str, str], None],
                  step: Callable[[int, int, str], None]) -> None:  # fmt: skip
    """fn(pid, alg) for every pair: each provider's pairs in order on its own thread (its driver is a
    process of its own, asked by nobody else meanwhile), PARALLEL_PROVIDERS at once, so a slow
    driver (a JVM, a browser) no longer holds up every other provider's known answers."""
    by: dict[str, list[str]] = {}
    for pid, alg in work:
        by.setdefault(pid, []).append(alg)
    done, lock = [0], threading.Lock()

    def one_provider(pid: str) -> None:
        for alg in by[pid]:
            with lock:
                step(done[0], len(work), f"{pid} {alg}")
            fn(pid, alg)
            with lock:
                done[0] += 1

    with ThreadPoolExecutor(max_workers=max(1, min(PARALLEL_PROVIDERS, len(by)))) as pool:
        for future in [pool.submit(one_provider, pid) for pid in by]:
            future.result()  # an exception here is a bug: raised as sequential code would


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


class Verifier:
    """Every (provider, algorithm) of a plan, verified in stages; `step` tells where it is (it takes
    minutes on a large plan), `keep_crosschecks` stores the cross-verification records as they come."""

    def __init__(self, drivers: Drivers, s: Settings, known_providers: Collection[str],
                 step: Callable[[str, int, int, str], None] = lambda *_: None,
                 keep_crosschecks: Callable[[list], None] = lambda _: None):  # fmt: skip
        self.drivers, self.s, self.step, self.keep_crosschecks = drivers, s, step, keep_crosschecks
        self.verdicts: dict[tuple[str, str], Verdict] = {}
        self._servers: dict[str, tuple | str] = {}  # TLS interop: a second process per provider, or why not
        self.witnesses = WitnessSearch(drivers, known_providers, s.vectors_dir, s.timeout)

    def verdict(self, pid: str, alg: str) -> Verdict | None:
        return self.verdicts.get((pid, alg))

    def records(self) -> list[VerifyRecord]:
        return [v.record for v in self.verdicts.values()]

    def verify_all(self, cells: list[CellSpec]) -> None:
        algs = {c.alg: c.algorithm for c in cells}
        needed = sorted({(pid, c.alg) for c in cells for pid in c.providers if self.drivers.running(pid)})
        offered = [(pid, a) for pid, a in needed if a != "noop" and a in self.drivers.hello(pid).get("offers", {})]
        handshakes = sorted({a for _, a in offered if algs[a].kind == "tls"})
        offered = [(pid, a) for pid, a in offered if algs[a].kind != "tls"]  # verified by interop instead

        def answers(pid: str, alg: str) -> None:
            rec, known = known_answers.check(self.drivers, pid, algs[alg], self.s.vectors_dir, self.s.timeout)
            self.verdicts[(pid, alg)] = Verdict(rec, algs[alg], self.drivers.offered(pid, alg), known)

        each_provider(offered, answers, lambda *a: self.step("known answers", *a))
        try:
            for i, alg in enumerate(handshakes):
                self.step("TLS interop", i, len(handshakes), alg)
                self._interop(algs[alg], [pid for pid, a in needed if a == alg])
        finally:
            self._close_servers()
        public = sorted({a for _, a in needed if algs[a].public_key})
        for i, alg in enumerate(public):
            self.step("cross-verification", i, len(public), alg)
            self._crossverify(alg)
        chains = [
            (pid, alg) for pid, alg in needed if alg in MONTE_FILES and (v := self.verdict(pid, alg)) and v.passed
        ]
        each_provider(
            chains,
            lambda pid, alg: self._monte(pid, self.verdicts[(pid, alg)]),
            lambda *a: self.step("Monte Carlo", *a),
        )
        compared = sorted({a for _, a in needed if differential.applies_to(algs[a])})
        for i, alg in enumerate(compared):
            self.step("differential", i, len(compared), alg)
            self._differential(algs[alg])
        for v in self.verdicts.values():
            if v.passed and conformance.under_floor(v.algorithm):
                self._floor(v)

    def _requester(self, pid: str):
        """One request to `pid`'s driver, as cross-checks and differential tests send them (restarted
        first when an earlier request left it dead: a crash fails only the algorithm it happened in)."""

        def one(msg: dict) -> dict:
            return self.drivers.request(pid, msg, self.s.timeout)

        many = getattr(self.drivers, "request_many", None)  # a Drivers without it is asked one at a time
        if many is None:
            return one
        return differential.Pipelined(one, lambda msgs: many(pid, msgs, self.s.timeout))

    def _server(self, pid: str) -> tls_interop.Request:
        """A second process of `pid` that serves TLS (its client is the run's process), started once."""
        if pid not in self._servers:
            self._servers[pid] = self.drivers.start_witness(pid)
        got = self._servers[pid]
        if isinstance(got, str):
            why = got

            def refused(_msg: dict) -> dict:
                return {"ok": False, "error": f"no second process to serve from: {why}"}

            return refused
        return lambda msg: got[0].request(msg, self.s.timeout)

    def _close_servers(self) -> None:
        for got in self._servers.values():
            if not isinstance(got, str):
                got[0].close(timeout=1)
        self._servers.clear()

    def _interop(self, a: Algorithm, pids: list[str]) -> None:
        """Every client of the providers offering TLS cell `a` against every server (tls_interop.py); a
        cell whose PKI could not be made is left unverified here and refused by the runner."""
        pids = [p for p in pids if "handshake" in self.drivers.offered(p, a.name)]
        pki = self.s.tls_pki.get(tls.parse(a.name).auth.name)
        if not pids or pki is None:
            return
        clients = {p: self._requester(p) for p in pids}
        pairs = tls_interop.matrix(a.name, {p: self._server(p) for p in pids}, clients, pki,
                                   lambda i, n, what: self.step("TLS interop", i, n, what))  # fmt: skip
        bad = tls_interop.blame(pairs, tls_interop.reference_of(pids, self.s.baseline))
        for pid in pids:
            mine = [p for p in pairs if pid in (p.server, p.client)]
            ok = sum(p.passed for p in mine)
            weaker = "" if pid in bad else tls_interop.unverified(mine, pid)
            status = "failed" if pid in bad else "unverified" if weaker else "passed"  # unverified: timed, not compared
            rec = VerifyRecord(pid, a.name, status, passed=ok, failed=len(mine) - ok,
                               detail=f"failed: {bad[pid]}" if pid in bad else weaker,
                               conformance={"interop": [p.to_dict() for p in mine]})  # fmt: skip
            self.verdicts[(pid, a.name)] = Verdict(rec, a, self.drivers.offered(pid, a.name))

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
            return
        records = crosscheck.crosscheck(alg, {pid: self._requester(pid) for pid in peers})
        self.keep_crosschecks(records)
        reference = next((p for p in (self.s.baseline, "c:openssl") if p in peers), peers[0])
        bad = crosscheck.failed_providers(records, reference)
        for pid in peers:
            rec = mine[pid].record
            rec.conformance["crosschecks_passed"] = sum(r.passed and pid in (r.producer, r.consumer) for r in records)
            if pid in bad:
                rec.status, rec.detail = "failed", f"failed: cross-verification: {bad[pid]}"
            elif rec.status == "no-vectors":
                rec.status = "passed"
                why = rec.detail if rec.skipped else "no vectors"
                rec.detail = f"{why}; cross-verified with {', '.join(p for p in peers if p != pid)}"

    def _monte(self, pid: str, v: Verdict) -> None:
        """NIST's Monte Carlo chain for SHA-2/SHA-3, one verify case per hash (vectors/monte.py)."""
        alg = v.algorithm.name
        if not self.s.monte_checkpoints or "hash" not in v.offered:
            return

        def hash_one(msg_hex: str) -> str:  # on a fresh driver if another algorithm's request killed it
            msg = {"cmd": "verify", "alg": alg, "cases": [{"id": "monte", "op": "hash", "msg": msg_hex}]}
            resp = self.drivers.request(pid, msg)
            result = (resp.get("results") or [{}])[0]
            out = result.get("out") if isinstance(result, dict) else None
            if not isinstance(out, str):
                raise DriverError(f"no output: {result!r}"[:200])
            return out.lower()

        try:
            result = run_monte(alg, hash_one, self.s.monte_checkpoints)
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
            a, {pid: self._requester(pid) for pid in peers}, streaming, self.s.differential_inputs, self.s.seed,
            witnesses={pid: self._requester(pid) for pid in witnesses},
            reference=next((p for p in (self.s.baseline, "c:openssl") if p in peers), None),
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
        lone = [r for r in results if r.passed and self._witness_would_help(self.verdicts[(r.provider, alg)], r)]
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

    @staticmethod
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

    @staticmethod
    def _floor(v: Verdict) -> None:
        total, missing = v.floor_of(v.agreed)
        v.record.conformance["cases"] = total
        if missing:
            v.record.status, v.record.detail = "unverified", f"unverified ({total} cases): {missing}"
            v.record.detail += f"; {v.unwitnessed}" if v.unwitnessed else ""
