"""The run loop: start drivers, verify, then measure every cell with providers interleaved.

The jobs around it live apart: `driverpool` starts and restarts the drivers, `sampler` says what to
ask a driver next and when a cell is done (pure), `bench_response` refuses what cannot be true.

Each cell is measured in rounds: every provider still short of a tight
interval gets one `bench` request per round, in rotating order, so slow drift
of the machine hits all providers alike. A provider stops when the 95%
interval of its median is within `max_rel_ci` of the median (after
`min_samples`) or when it has spent its time budget. Every finished cell is
written to the store at once; nothing measured is lost to a later fault.
"""

from __future__ import annotations

import re
import threading
import time

from cryptobench.analysis import paired, stats
from cryptobench.core import algorithms, environment
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.core.settings import Settings
from cryptobench.core.units import format_size
from cryptobench.drivers.client import DriverProcess
from cryptobench.drivers.registry import Registry
from cryptobench.icount.phase import run_phase as count_instructions
from cryptobench.leak import check as leak_check
from cryptobench.leak.check import leak_plan
from cryptobench.measure import cycles, duet, memory, plausibility, sampler, scaling
from cryptobench.measure import host_state as hoststate
from cryptobench.measure import response_checks as bench_response
from cryptobench.measure.interrupts import shielded
from cryptobench.measure.probe import HostProbe
from cryptobench.measure.sampler import Track, now
from cryptobench.run.driver_pool import DriverPool
from cryptobench.store.model import CellRecord, RunRecord, VerifyRecord
from cryptobench.verify import conformance, differential, witness
from cryptobench.verify import cross_checks as crosscheck
from cryptobench.verify.vectors import cases_for, judge, source_of, strip_expected
from cryptobench.verify.vectors.monte import FILES as MONTE_FILES
from cryptobench.verify.vectors.monte import run_monte

BIG_MESSAGE = 64 * 1024 * 1024  # above this a one-shot-only API is "not offered at this size"
REPLAY_SECONDS = 120.0  # naming the case that crashes a driver is worth this much of a run, not more


UNSUPPORTED = object()  # a case the library has no API for (e.g. deterministic ML-DSA signing)


def _case_verdicts(cases: list, results: list):
    """Each known-answer case beside what its driver's result says of it: None when it passed,
    UNSUPPORTED, or why it failed (run's providers and would-be witnesses are judged alike)."""
    for case, result in zip(cases, results, strict=True):
        if not isinstance(result, dict) or result.get("id") != case.id:
            yield case, "protocol: results out of order"
        elif "unsupported" in result:
            yield case, UNSUPPORTED
        else:
            yield case, judge(case, result)


def _crashed(e: DriverError) -> bool:
    """The driver died by itself (a signal, an exit), rather than being killed after a timeout."""
    return str(e).startswith("driver ")


class Interrupted(Exception):
    """Ctrl-C during a run: everything measured so far is stored, the run is marked interrupted."""

    def __init__(self, run_id: int):
        super().__init__(f"run {run_id} interrupted")
        self.run_id = run_id


class _Silent:
    def start(self, total: int, seconds: float, passes: int = 1) -> None: ...
    def cell(self, index: int, spec: CellSpec, provider: str) -> None: ...
    def finish(self) -> None: ...
    def log(self, message: str) -> None: ...
    def step(self, stage: str, index: int, total: int, what: str) -> None: ...


class Runner:
    def __init__(self, store, registry: Registry, settings: Settings, progress=None):
        self.store = store
        self.registry = registry
        self.s = settings
        self.progress = progress or _Silent()
        self.pool = DriverPool(registry, settings.timeout, settings.cpu_features, self.progress.log)
        self.verified: dict[tuple[str, str], VerifyRecord] = {}
        self._verifications_stored = False
        self._known: dict[tuple[str, str], dict[str, list[int]]] = {}  # message lengths of passed answers
        self._agreed: dict[tuple[str, str], dict[str, list[int]]] = {}  # ...of agreed differential inputs
        self._unwitnessed: dict[tuple[str, str], str] = {}  # why no witness from outside the run helped
        self._witness_offers: dict[str, dict] = {}  # would-be witnesses' hello offers, once started
        self.limits: dict | None = None  # this machine's bandwidth and clock (plausibility.py)
        self.probe = HostProbe(registry, settings.timeout)  # the host's speed all through the run (probe.py)
        self._spent = 0.0  # seconds of measuring so far, every cell and provider
        self._spent_lock = threading.Lock()
        self._budget = float("inf")  # the run's: cells x providers x time per cell (set by run)
        self._scaled: list[dict] = []  # --workers: scaling.Scaled records
        self._leaks: list[dict] = []  # --leak: leak.check.LeakResult records
        self._icount: dict | None = None  # --metric instructions: icount/phase.py's record
        self._pair_round: dict[CellSpec, int] = {}  # each cell's next pair round number (paired.py)
        self._lockstep: duet.Lockstep | None = None  # --duet: runs a pair's two batches at once (duet.py)

    # --- the run -----------------------------------------------------------

    def run(self, cells: list[CellSpec], providers: list[str]) -> int:
        self.limits = plausibility.measure()
        env = {**environment.capture(self.s.machine_label), "machine_limits": self.limits}
        run = RunRecord(None, now(), self.s.suite, self.s.to_dict(), env, label=self.s.label, job=self.s.job or None)
        run_id = self.store.create_run(run)
        tracks: dict[tuple[CellSpec, str], Track] = {}
        try:
            for pid in providers:
                self._start(run_id, pid)
            self._verify_all(run_id, cells)
            if not self.s.measure or "time" not in self.s.metrics:  # verify, leak, instruction counts alone
                self._icount = count_instructions(self, cells)
                self._leak(cells)
                self.progress.finish()
                self.store.finish_run(run_id, "complete", now(), self._end_env(measured=False))
                return run_id
            budget = self._budget = sum(len(c.providers) * (c.budget or self.s.time_per_cell) for c in cells)
            passes = max(1, self.s.passes)
            self.progress.start(len(cells) * passes, budget * 1.3, passes)
            self.probe.start()
            for pass_no in range(passes):
                if pass_no:
                    self.pool.renew()
                for i, spec in enumerate(cells):
                    if pass_no == 0:
                        self._classify(run_id, spec, tracks)
                    self._measure(run_id, pass_no * len(cells) + i, spec, tracks, pass_no)
            self._sharpen(run_id, cells, tracks, budget)
            self._scale(cells)
            self._leak(cells)
            self._icount = count_instructions(self, cells)
            self.progress.finish()
            self.store.finish_run(run_id, "complete", now(), self._end_env())
        except KeyboardInterrupt:
            with shielded(self.progress.log):  # a second and third Ctrl-C must not lose what the first saves
                self.progress.finish()
                for (spec, pid), track in tracks.items():
                    if track.samples:  # keep everything measured so far
                        self._store_cell(run_id, spec, pid, track, interrupted=True)
                self._store_verifications(run_id, interrupted=True)
                self.store.finish_run(run_id, "interrupted", now(), self._end_env(self.s.measure))
                self.pool.stop_all()
            raise Interrupted(run_id) from None
        finally:
            with shielded(self.progress.log):
                self.pool.stop_all()
                self.probe.stop()
                if self._lockstep is not None:
                    self._lockstep.close()
        return run_id

    def _scale(self, cells: list[CellSpec]) -> None:
        """`--workers`: every measured cell again with N pinned processes at once (scaling.py)."""
        if max(self.s.workers, default=1) < 2:
            return
        top = max(self.s.workers)
        for pid in sorted({p for c in cells for p in c.providers}):
            mine = [c for c in cells if pid in c.providers and self._unmeasurable(pid, c) is None]
            if not mine or pid not in self.pool.drivers:
                continue
            p = self.registry.get(pid)
            try:
                pinned = scaling.Pinned(p.argv(), self.pool.env(p), p.driver_id, top, self.s.timeout)
            except DriverError as e:
                self.progress.log(f"scaling: {pid}: {e}")
                continue
            try:
                for i, spec in enumerate(mine):
                    self.progress.step("scaling", i, len(mine), f"{pid} {spec.alg} {spec.op} {format_size(spec.size)}")
                    req = sampler.request_for(spec, Track(), self.s)  # the same request a first round sends
                    budget = spec.budget or self.s.time_per_cell
                    try:
                        found = scaling.measure(pinned, pid, spec, req, self.s.workers, budget)
                    except DriverError as e:
                        self.progress.log(f"scaling: {pid} {spec.alg} {spec.op}: {e}")
                        continue
                    self._scaled += [s.record() for s in found]
            finally:
                pinned.close()

    def _leak(self, cells: list[CellSpec]) -> None:
        """`--leak` / `cryptobench leak`: each verified cell's leak classes (leak/check.py), in order."""
        if not self.s.leak:
            return
        todo = leak_plan(cells, self.s.leak_classes)
        budget = leak_check.Budget(self.s.leak_seconds, self.s.leak_measurements, self.s.leak_threshold,
                                   self.s.leak_target_effect)  # fmt: skip
        for i, (pid, spec, name) in enumerate(todo):
            self.progress.step("leak", i, len(todo), f"{pid} {spec.alg} {spec.op} {name}")
            if not self.pool.offers(pid, spec.alg, spec.op, 0) and pid in self.pool.drivers:
                continue  # the plan's cell, not this provider's: nothing to check, nothing to say
            refused = self._unleakable(pid, spec)
            if refused is not None:
                status, why = refused
                res = leak_check.LeakResult(pid, spec.alg, spec.op, spec.size, name, status,
                                            leak_check.CLASSES[name].labels, detail=why)  # fmt: skip
            else:
                # pool.request restarts a driver a crash or hang left dead: it fails that check only
                res = leak_check.run_check(lambda m, pid=pid: self.pool.request(pid, m), pid, spec.alg, spec.op,
                                           spec.size, name, budget, self.s.seed, self.progress.log)  # fmt: skip
            self._leaks.append(res.record())

    def _unleakable(self, pid: str, spec: CellSpec) -> tuple[str, str] | None:
        """(status, why) when a provider's cell cannot be leak-checked, None when it can."""
        if pid not in self.pool.drivers:
            return "failed", self.pool.broken.get(pid, "driver not running")
        rec = self.verified.get((pid, spec.alg))
        if rec is None or rec.status == "failed":  # unverified (too few cases) is timed, so it is checked too
            return "failed", f"not verified: {rec.detail if rec else 'no verification'}"
        version = self.pool.hellos[pid].get("protocol", 0)
        if version < leak_check.PROTOCOL:
            return (
                "not offered",
                f"the driver speaks protocol {version}; the leak request is version {leak_check.PROTOCOL}",
            )
        return None

    def _end_env(self, measured: bool = True) -> dict:
        env: dict = {"load_end": environment.load_average()}
        if measured:
            flags = environment.cpu_info()["all_flags"]
            env |= {"probe": self.probe.record(), "cycles": cycles.counter(self.probe.clock, flags)}
        if self._scaled:
            env["scaling"] = self._scaled
        if self._leaks:
            env["leak"] = self._leaks
        if self._icount:
            env["instructions"] = self._icount
        return env

    # --- drivers -------------------------------------------------------------

    def _start(self, run_id: int, pid: str) -> None:
        hello = self.pool.start(pid)
        if hello is not None:
            self.store.add_provider(run_id, pid, hello)

    # --- verification ----------------------------------------------------------

    def _verify_all(self, run_id: int, cells: list[CellSpec]) -> None:
        needed = sorted({(pid, c.alg) for c in cells for pid in c.providers if pid in self.pool.drivers})
        offered = [(pid, alg) for pid, alg in needed if alg != "noop" and alg in self.pool.hellos[pid]["offers"]]
        step = self.progress.step  # verification of a large plan takes minutes: say where it is
        for i, (pid, alg) in enumerate(offered):
            step("known answers", i, len(offered), f"{pid} {alg}")
            self.verified[(pid, alg)] = self._verify(pid, alg)
        public = sorted({a for _, a in needed if algorithms.get(a).public_key})
        for i, alg in enumerate(public):
            step("cross-verification", i, len(public), alg)
            self._crossverify(run_id, alg)
        for pid, alg in needed:
            if self._passed(pid, alg) and alg in MONTE_FILES:
                step("Monte Carlo", 0, 1, f"{pid} {alg}")
                self._monte(pid, alg)
        compared = sorted({a for _, a in needed if differential.applies_to(a)})
        for i, alg in enumerate(compared):
            step("differential", i, len(compared), alg)
            self._differential(alg)
        for (pid, alg), rec in self.verified.items():
            if rec.status == "passed" and conformance.under_floor(alg):
                self._floor(pid, alg, rec)
        self._store_verifications(run_id)

    def _store_verifications(self, run_id: int, interrupted: bool = False) -> None:
        """Once per run: at the end of verification, or what it had found when it was interrupted."""
        if self._verifications_stored:
            return
        self._verifications_stored = True
        for rec in self.verified.values():
            if interrupted:
                rec.conformance["interrupted"] = True  # later checks (Monte Carlo, differential) may be missing
            self.store.add_verification(run_id, rec)
            if rec.status not in ("passed", "unverified") and not interrupted:
                self.progress.log(f"{rec.provider} {rec.alg}: {rec.detail}")

    def _passed(self, pid: str, alg: str) -> bool:
        rec = self.verified.get((pid, alg))
        return rec is not None and rec.status == "passed"

    def _monte(self, pid: str, alg: str) -> None:
        """NIST's Monte Carlo chain for SHA-2/SHA-3, one verify case per hash (vectors/monte.py)."""
        if not self.s.monte_checkpoints or "hash" not in self.pool.hellos[pid]["offers"].get(alg, []):
            return

        def hash_one(msg_hex: str) -> str:  # on a fresh driver if another algorithm's request killed it
            resp = self.pool.request(
                pid, {"cmd": "verify", "alg": alg, "cases": [{"id": "monte", "op": "hash", "msg": msg_hex}]}
            )
            result = (resp.get("results") or [{}])[0]
            out = result.get("out") if isinstance(result, dict) else None
            if not isinstance(out, str):
                raise DriverError(f"no output: {result!r}"[:200])
            return out.lower()

        try:
            result = run_monte(alg, hash_one, self.s.monte_checkpoints)
        except DriverError as e:
            result = None
            self._fail(pid, alg, f"failed: Monte Carlo test: {e}")
        if result is None:
            return
        rec = self.verified[(pid, alg)]
        rec.conformance["monte"] = {"source": result.source, "checkpoints": result.checked,
                                    "passed": result.passed, "detail": result.detail}  # fmt: skip
        if not result.passed:
            self._fail(pid, alg, f"failed: {result.source}: {result.detail}")

    def _requester(self, pid: str):
        """One request to `pid`'s driver, as cross-checks and differential tests send them (restarted
        first when an earlier request left it dead: a crash fails only the algorithm it happened in)."""
        return lambda msg: self.pool.request(pid, msg, self.s.timeout)

    def _fail(self, pid: str, alg: str, detail: str) -> None:
        rec = self.verified[(pid, alg)]
        rec.status, rec.detail = "failed", detail

    def _differential(self, alg: str) -> None:
        """The same seeded inputs on every provider that passed its vectors (differential.py), and on
        those that failed them as witnesses: a failed provider's answers that agree with another's are
        still evidence for it, so a plugin's failure never takes away c:openssl's agreed lengths. A
        provider still short of the floor for want of agreement gets a witness from outside the run."""
        mine = [pid for (pid, a) in self.verified if a == alg]
        peers = [pid for pid in mine if self._passed(pid, alg)]
        if not peers or not self.s.differential_inputs:
            return
        witnesses = [pid for pid in mine if pid not in peers and pid not in self.pool.broken]
        streaming = {pid for pid in peers if alg in self.pool.hellos[pid].get("stream", [])}
        results = differential.differential(
            alg, {pid: self._requester(pid) for pid in peers}, streaming, self.s.differential_inputs, self.s.seed,
            witnesses={pid: self._requester(pid) for pid in witnesses},
            reference=next((p for p in (self.s.baseline, "c:openssl") if p in peers), None),
        )  # fmt: skip
        brought, helped = self._bring_witness(alg, results)
        for r in results:
            rec = self.verified[(r.provider, alg)]
            agreed = self._agreed_lengths(r)
            rec.conformance["differential"] = {
                "inputs": r.inputs, "streamed": r.streamed, "disagreements": len(r.disagreements),
                "peers": [p for p in peers if p != r.provider], "agreed": sum(len(v) for v in agreed.values()),
            }  # fmt: skip
            named = witnesses + ([witness.MARK + brought] if r.provider in helped else [])
            if named:
                rec.conformance["differential"]["witnesses"] = named
            self._agreed[(r.provider, alg)] = agreed
            worst = r.smallest
            if worst is not None:
                rec.conformance["differential"]["smallest"] = {"input": worst.input.spec(), "why": worst.describe(),
                                                               "replay": worst.replay()}  # fmt: skip
                self._fail(r.provider, alg, f"failed: differential: {worst.describe()} (replay: {worst.replay()})")

    @staticmethod
    def _agreed_lengths(r: differential.DiffResult) -> dict[str, list[int]]:
        """Per operation, the lengths of the inputs on which a provider gave what another provider gave
        (none when it is alone: nothing then shows its output right at lengths no vector has)."""
        out: dict[str, list[int]] = {}
        for x in r.agreed:
            out.setdefault(x.op, []).append(x.size)
        return out

    # --- witnesses from outside the run (witness.py) ---------------------------

    def _bring_witness(self, alg: str, results: list[differential.DiffResult]) -> tuple[str, set[str]]:
        """When a passed provider misses the floor only for want of agreement (alone, or beside providers
        that failed or disagree), one independent built-in provider answers its inputs as a witness,
        stopped afterwards: (its id, the providers it was asked for), or ("", set()) when none was needed
        or none could be had; then `_unwitnessed` says why, for the record's detail."""
        lone = [r for r in results if r.passed and self._witness_would_help(alg, r)]
        if not lone:
            return "", set()
        ops = {x.op for r in lone for x in r.outputs}
        found = self._start_witness(alg, [r.provider for r in lone], ops)
        if isinstance(found, str):
            for r in lone:
                lengths = ", ".join(map(str, self._lacking(alg, r.provider, self._agreed_lengths(r))))
                self._unwitnessed[(r.provider, alg)] = (
                    f"no second implementation of {alg} corroborates lengths {lengths}: {found}"
                )
            return "", set()
        pid, driver = found
        try:  # verification's time, never measured: the witness has no track, no cell and no record
            differential.corroborate(alg, lone, lambda msg: driver.request(msg, self.s.timeout))
        finally:
            driver.close(timeout=2)
        for r in lone:
            lengths = self._lacking(alg, r.provider, self._agreed_lengths(r))
            if lengths:
                self._unwitnessed[(r.provider, alg)] = (
                    f"the witness {pid} (not measured) gave other outputs at {', '.join(map(str, lengths))} bytes"
                )
        return pid, {r.provider for r in lone}

    def _witness_would_help(self, alg: str, r: differential.DiffResult) -> bool:
        """The provider is short of the floor now, and would not be if every input it answered were agreed."""
        if not self._passed(r.provider, alg) or not conformance.under_floor(alg):
            return False
        if not self._floor_of(r.provider, alg, self._agreed_lengths(r))[1]:
            return False
        everything: dict[str, list[int]] = {}
        for x in r.outputs:
            everything.setdefault(x.op, []).append(x.size)
        return not self._floor_of(r.provider, alg, everything)[1]

    def _start_witness(self, alg: str, lone: list[str], ops: set[str]) -> tuple[str, DriverProcess] | str:
        """The first provider of witness.order() that is built, not in this run's `alg`, of another family
        than every provider in `lone`, offers `ops` and passes `alg`'s known answers: (id, its driver),
        or, when there is none, what kept each candidate out (one line)."""
        candidates = witness.order()
        if not candidates:
            return "CRYPTOBENCH_WITNESSES names none"
        taken = {pid for (pid, a) in self.verified if a == alg}
        families = {witness.family(p) for p in lone}
        unbuilt, offerless, wrong = [], [], []
        for pid in candidates:
            if pid in taken or witness.family(pid) in families or pid not in self.registry.providers:
                continue
            offers = self._witness_offers.get(pid)
            if offers is not None and not ops <= set(offers.get(alg, [])):  # known from an earlier start
                offerless.append(pid)
                continue
            got = self.pool.start_witness(pid)
            if isinstance(got, str):
                fix = re.search(r"`(cryptobench build [^`]+)`", got)
                if fix:
                    unbuilt.append(f"{pid} ({fix.group(1)})")
                else:
                    wrong.append(f"{pid} cannot run: {got}")
                continue
            driver, hello = got
            self._witness_offers[pid] = hello["offers"]
            offered = set(hello["offers"].get(alg, []))
            why = "offerless"
            try:
                why = self._witness_known_answers(driver, alg, offered) if ops <= offered else why
            finally:
                if why:  # not used (or interrupted): stopped now
                    driver.close(timeout=2)
            if not why:
                return pid, driver
            if why == "offerless":
                offerless.append(pid)
            else:
                wrong.append(f"{pid} {why}")
        parts = [f"build {' or '.join(unbuilt)}"] if unbuilt else []
        if offerless:
            verb = "does" if len(offerless) == 1 else "do"
            parts.append(f"{', '.join(offerless)} {verb} not offer {', '.join(sorted(ops))}")
        parts += wrong
        known = ", ".join(candidates)
        return "; ".join(parts) or f"every independent one of {known} is in this run or of {', '.join(lone)}'s library"

    def _witness_known_answers(self, driver: DriverProcess, alg: str, offered: set[str]) -> str:
        """Empty when a would-be witness passes every known answer of `alg` it can run, else how it failed:
        a witness wrong where answers are published is not trusted where they are not."""
        cases = [c for c in cases_for(alg, self.s.vectors_dir) if c.op in offered]
        if not cases:
            return "has no known answer to check it by"
        try:
            resp = driver.request({"cmd": "verify", "alg": alg, "cases": strip_expected(cases)}, self.s.timeout)
        except DriverError as e:
            return f"failed its known answers ({e})"
        results = resp.get("results")
        if not isinstance(results, list) or len(results) != len(cases):
            return "failed its known answers (the wrong number of results)"
        passed = 0
        for case, why in _case_verdicts(cases, results):
            if why is UNSUPPORTED:
                continue
            if why is not None:
                return f"failed its known answers (vector {case.id}: {why})"[:200]
            passed += 1
        return "" if passed else "passed no known answer"

    def _lacking(self, alg: str, pid: str, agreed: dict[str, list[int]]) -> list[int]:
        return conformance.lacking_lengths(alg, self._floor_ops(pid, alg), self._known.get((pid, alg), {}), agreed)

    def _floor_ops(self, pid: str, alg: str) -> list[str]:
        catalogue = algorithms.get(alg).ops  # not the OpenSSL driver's bench/accuracy-only update and rekey
        return [o for o in self.pool.hellos[pid]["offers"].get(alg, []) if o in catalogue]

    def _floor_of(self, pid: str, alg: str, agreed: dict[str, list[int]]) -> tuple[int, str]:
        """(cases counted, what the floor misses) with `agreed` as the agreed differential lengths."""
        checks = self.verified[(pid, alg)].conformance.get("crosschecks_passed", 0)
        return conformance.judge_floor(alg, self._floor_ops(pid, alg), self._known.get((pid, alg), {}), agreed, checks)

    def _floor(self, pid: str, alg: str, rec: VerifyRecord) -> None:
        total, missing = self._floor_of(pid, alg, self._agreed.get((pid, alg), {}))
        rec.conformance["cases"] = total
        if missing:
            why = self._unwitnessed.get((pid, alg))  # what kept a witness from helping, when one was needed
            rec.status, rec.detail = "unverified", f"unverified ({total} cases): {missing}"
            rec.detail += f"; {why}" if why else ""

    def _crossverify(self, run_id: int, alg: str) -> None:
        """Providers check each other's keys, signatures and ciphertexts (cryptobench/verify/cross_checks.py)."""
        peers = sorted(
            pid for (pid, a), rec in self.verified.items() if a == alg and rec.status in ("passed", "no-vectors")
        )
        if len(peers) < 2:
            for pid in peers:
                rec = self.verified[(pid, alg)]
                if rec.status == "no-vectors":  # nothing shows it wrong, nothing shows it right: timed, never compared
                    rec.status = "unverified"
                    rec.detail = "unverified (0 cases): no test vectors, and no second provider to cross-verify with"
            return

        records = crosscheck.crosscheck(alg, {pid: self._requester(pid) for pid in peers})
        self.store.add_crosschecks(run_id, records)
        reference = next((p for p in (self.s.baseline, "c:openssl") if p in peers), peers[0])
        bad = crosscheck.failed_providers(records, reference)
        for pid in peers:
            rec = self.verified[(pid, alg)]
            rec.conformance["crosschecks_passed"] = sum(r.passed and pid in (r.producer, r.consumer) for r in records)
            if pid in bad:
                rec.status, rec.detail = "failed", f"failed: cross-verification: {bad[pid]}"
            elif rec.status == "no-vectors":
                rec.status = "passed"
                rec.detail = f"no vectors; cross-verified with {', '.join(p for p in peers if p != pid)}"

    def _verify(self, pid: str, alg: str) -> VerifyRecord:
        cases = cases_for(alg, self.s.vectors_dir)
        offered_ops = set(self.pool.hellos[pid]["offers"].get(alg, []))
        # handshake cases check a protocol as a whole: they belong to no single step in `offers`
        whole = {"handshake"} if algorithms.get(alg).kind == "protocol" else set()
        cases = [c for c in cases if c.op in offered_ops or c.op in whole]
        if not cases:
            if algorithms.get(alg).public_key:  # cross-verification decides (see _crossverify)
                return VerifyRecord(pid, alg, "no-vectors", detail="no test vectors for this algorithm")
            return VerifyRecord(pid, alg, "failed", detail="failed: no test vectors for this algorithm and operation")
        try:  # through the pool: a driver an earlier algorithm killed is restarted, or said broken
            driver = self.pool.live(pid)
        except DriverError as e:
            return VerifyRecord(pid, alg, "failed", detail=f"failed: {e}")
        try:
            resp = driver.request({"cmd": "verify", "alg": alg, "cases": strip_expected(cases)}, self.s.timeout)
        except DriverError as e:
            if driver.alive():
                return VerifyRecord(pid, alg, "failed", detail=f"failed: verify: {e}")
            culprit = self._crashing_case(pid, alg, cases, str(e)) if _crashed(e) else None
            if culprit is None:
                return VerifyRecord(pid, alg, "failed", detail=f"failed: verify: {e}")
            case, crash = culprit
            why = f"{crash.split(': ', 1)[0]} on this case alone"  # "driver crashed (SIGABRT)"; the rest in "crash"
            first = {"id": case.id, "source": source_of(case), "why": why, "crash": crash,
                     "comment": case.extra.get("comment", "")}  # fmt: skip
            return VerifyRecord(pid, alg, "failed", failed=1, detail=f"failed: vector {case.id}: {why}",
                                conformance={"first_failure": first})  # fmt: skip
        results = resp.get("results")
        if not isinstance(results, list) or len(results) != len(cases):
            return VerifyRecord(
                pid, alg, "failed", detail="failed: protocol: verify returned the wrong number of results"
            )
        rec = VerifyRecord(pid, alg, "passed")
        sources: dict[str, list[int]] = {}  # source -> [passed, failed, skipped]
        known = self._known.setdefault((pid, alg), {})
        for case, why in _case_verdicts(cases, results):
            tally = sources.setdefault(source_of(case), [0, 0, 0])
            if why is UNSUPPORTED:
                rec.skipped += 1  # e.g. deterministic ML-DSA signing the library does not expose
                tally[2] += 1
                continue
            if why is None:
                rec.passed += 1
                tally[0] += 1
                if conformance.lengthless(alg):  # public keys, HKDF: every passed answer counts, whatever its length
                    known.setdefault(case.op, []).append(0)
                elif "msg" in case.fields and case.expect == "valid":
                    known.setdefault(case.op, []).append(conformance.message_length(case.op, case.fields["msg"]))
            else:
                rec.failed += 1
                tally[1] += 1
                if not rec.detail:
                    rec.detail = f"failed: vector {case.id}: {why}"
                    rec.conformance["first_failure"] = {"id": case.id, "source": source_of(case), "why": why,
                                                        "comment": case.extra.get("comment", "")}  # fmt: skip
        rec.conformance["sources"] = sources
        if rec.failed:
            rec.status = "failed"
        elif rec.passed == 0:
            rec.status, rec.detail = "failed", f"failed: no case passed ({rec.skipped} unsupported)"
        return rec

    def _crashing_case(self, pid: str, alg: str, cases: list, why: str) -> tuple | None:
        """After a verify request killed the driver: the one case that kills it alone, and how, found by
        halving the cases on a fresh driver after each crash (issue 14's crash needed this by hand).
        None when no half crashes alone (cases that crash only together), or after REPLAY_SECONDS."""
        deadline = time.monotonic() + REPLAY_SECONDS
        while len(cases) > 1:
            half = len(cases) // 2
            for part in (cases[:half], cases[half:]):
                if time.monotonic() > deadline or pid in self.pool.broken:
                    return None
                crash = self._crash_of(pid, alg, part)
                if crash is not None:
                    cases, why = part, crash
                    break
            else:
                return None
        return cases[0], why

    def _crash_of(self, pid: str, alg: str, cases: list) -> str | None:
        """How a verify request of `cases` ended the driver (a fresh one, the last having crashed); None
        when it answered, or when no driver can be had (the provider is then in pool.broken)."""
        try:
            driver = self.pool.live(pid)
        except DriverError:
            return None
        try:
            driver.request({"cmd": "verify", "alg": alg, "cases": strip_expected(cases)}, self.s.timeout)
        except DriverError as e:
            if not driver.alive():
                return str(e) if _crashed(e) else None  # a hang is not followed: each would cost a timeout
        return None

    # --- measurement -----------------------------------------------------------

    def _classify(self, run_id: int, spec: CellSpec, tracks: dict) -> None:
        """Store at once what cannot be measured; open a track for every provider that can."""
        for pid in spec.providers:
            reason = self._unmeasurable(pid, spec)
            if reason is not None:
                status = "not-offered" if reason.startswith("not offered") else "failed"
                self._store_simple(run_id, spec, pid, status, reason)
            else:
                tracks[(spec, pid)] = Track()

    def _measure(self, run_id: int, index: int, spec: CellSpec, tracks: dict, pass_no: int) -> None:
        """One pass over a cell: rounds, rotating over its providers, until each has had this pass's share.

        A run makes `passes` passes over the whole plan, so a cell's samples are spread over the run:
        a few seconds in which the machine is slow hit many cells a little, not a few cells entirely.
        """
        active = [pid for pid in spec.providers if (spec, pid) in tracks]
        if active:
            self._probe_for([tracks[(spec, pid)] for pid in active])
        for pid in active:
            tracks[(spec, pid)].paused = False
        if self.s.paired and len(active) >= 2:
            self._measure_paired(index, spec, active, tracks, pass_no)
        rotation = 0
        while True:  # alone (or left alone when the others failed): rounds of several samples
            pending = [pid for pid in active if not tracks[(spec, pid)].done and not tracks[(spec, pid)].paused]
            if not pending:
                break
            order = pending[rotation % len(pending) :] + pending[: rotation % len(pending)]
            rotation += 1
            for pid in order:
                self.progress.cell(index, spec, pid)
                self._round(spec, pid, tracks[(spec, pid)], pass_no)
        # a cell is stored the moment it is finished (and forgotten only once stored); one still wider
        # than the target waits for the precision passes only while the run has budget left for them
        last = pass_no >= self.s.passes - 1 and self._spent >= self._budget
        for pid in active:
            if tracks[(spec, pid)].done or (last and tracks[(spec, pid)].paused):
                self._store_cell(run_id, spec, pid, tracks[(spec, pid)])
                del tracks[(spec, pid)]

    def _measure_paired(self, index: int, spec: CellSpec, active: list[str], tracks: dict, pass_no: int) -> None:
        """Pair rounds (paired.py): every provider still going gets one batch per round, in ABBA order,
        until the cell's paired ratios meet the target or its budget for this pass is spent. With
        --duet, the reference and each other provider in turn run their batches at once (duet.py)."""
        while True:
            pending = [pid for pid in active if not tracks[(spec, pid)].done and not tracks[(spec, pid)].paused]
            if len(pending) < 2:
                return
            if self.s.duet:  # one pair round per other provider, their order rotated like a round's
                ref = self._reference(pending)
                for pid in paired.order([p for p in pending if p != ref], self._pair_round.get(spec, 0)):
                    self._duet_round(index, spec, [ref, pid], tracks, pass_no, self._next_pair_round(spec))
            else:
                k = self._next_pair_round(spec)
                for pid in paired.order(pending, k):
                    self.progress.cell(index, spec, pid)
                    self._round(spec, pid, tracks[(spec, pid)], pass_no, pair_round=k)
            self._decide_paired(spec, pending, tracks, pass_no)

    def _next_pair_round(self, spec: CellSpec) -> int:
        k = self._pair_round.get(spec, 0)
        self._pair_round[spec] = k + 1
        return k

    def _duet_round(self, index: int, spec: CellSpec, pids: list[str], tracks: dict, pass_no: int, k: int) -> None:
        """One pair round of --duet: both sides' batches at the same moment, each on its own pinned core."""
        if self._lockstep is None:
            self._lockstep = duet.Lockstep()
        sides = []
        for pid in pids:
            self.progress.cell(index, spec, pid)
            try:
                os_pid = self.pool.live(pid).pid
            except DriverError:
                os_pid = 0  # _round says why, on this cell's account
            sides.append((os_pid, lambda pid=pid: self._round(spec, pid, tracks[(spec, pid)], pass_no, pair_round=k)))
        self._lockstep.run(sides)

    def _reference(self, providers: list[str]) -> str:
        """Whom a paired cell's ratios are taken against: the baseline when it is measured, else the first."""
        return self.s.baseline if self.s.baseline in providers else providers[0]

    def _paired_halfwidth(self, spec: CellSpec, providers: list[str], tracks: dict) -> float:
        """The widest paired ratio's relative half-width among `providers` against their reference
        (inf while any has too few pairs)."""
        ref = self._reference(providers)
        base = sampler.side(tracks[(spec, ref)])
        return max(
            (paired.halfwidth(paired.ratio(sampler.side(tracks[(spec, p)]), base)) for p in providers if p != ref),
            default=float("inf"),
        )

    def _decide_paired(self, spec: CellSpec, pending: list[str], tracks: dict, pass_no: int) -> None:
        """The cell's providers go on, pause or stop together: on the paired ratios' interval, and on
        their mean spent time (one provider's slower requests must not end the pairing for all)."""
        live = [pid for pid in pending if not tracks[(spec, pid)].done]  # a failure ended its track
        if len(live) < 2:
            for pid in live:
                sampler.decide(spec, tracks[(spec, pid)], self.s, pass_no)
            return
        enough = min(len(tracks[(spec, p)].pair_rounds) for p in live) >= self.s.min_samples
        tight = enough and self._paired_halfwidth(spec, live, tracks) <= self.s.max_rel_ci
        spent = sum(tracks[(spec, p)].spent for p in live) / len(live)
        for pid in live:
            sampler.decide(spec, tracks[(spec, pid)], self.s, pass_no, tight=tight, spent=spent)

    def _cell_halfwidth(self, spec: CellSpec, tracks: dict) -> float:
        """What the precision passes rank a cell by: the paired ratios' half-width when it was paired,
        else its widest provider's median interval."""
        going = [pid for (c, pid), t in tracks.items() if c == spec and not t.done and t.samples]
        if not going:
            return 0.0
        everyone = [pid for (c, pid), t in tracks.items() if c == spec and not t.failed and t.samples]
        if self.s.paired and len(everyone) >= 2:
            return self._paired_halfwidth(spec, everyone, tracks)
        return max(sampler.halfwidth(tracks[(spec, pid)]) for pid in going)

    def _probe_for(self, active: list[Track]) -> None:
        """A host probe reading (at most one a second), remembered by the tracks about to be measured."""
        self.probe.maybe_take()
        if self.probe.readings:
            for t in active:
                t.probe_ns.append(self.probe.readings[-1][1])

    def _sharpen(self, run_id: int, cells: list[CellSpec], tracks: dict, budget: float) -> None:
        """Precision passes: what the run has not spent of its budget (cells that met the target early
        leave some) goes to the cells whose interval is still wider than the target, widest first, one
        round per provider per visit, until every interval meets it or the budget is spent. Whatever
        is left then is stored as it is, its interval's shortfall said in the report."""
        pass_no = max(1, self.s.passes)
        last_said = ""
        while self._spent < budget:
            wide = {spec: self._cell_halfwidth(spec, tracks) for (spec, _pid), t in tracks.items()
                    if not t.done and t.samples}  # fmt: skip
            if not wide:
                break
            t0 = time.monotonic()  # fresh processes are part of what precision costs: counted in the budget
            self.pool.renew({pid for (spec, pid), t in tracks.items() if not t.done and spec in wide})
            self._spent += time.monotonic() - t0
            if self._spent >= budget:
                break
            said = f"{len(wide)} cells wider than ±{self.s.max_rel_ci * 100:g}%, {budget - self._spent:.0f} s"
            if budget - self._spent >= 1 and said != last_said:  # never "0 s left", never the same line again
                self.progress.log(f"precision pass {pass_no - self.s.passes + 1}: {said} of the run's budget left")
                last_said = said
            last = (self.s.passes - 1) * len(cells)  # shown as the last pass's cells
            for spec in sorted(wide, key=lambda c: -wide[c]):
                if self._spent >= budget:
                    break
                self._measure(run_id, last + cells.index(spec), spec, tracks, pass_no)
            pass_no += 1
        for (spec, pid), t in list(tracks.items()):
            if t.samples or t.failed or t.not_offered:
                self._store_cell(run_id, spec, pid, t)
            del tracks[(spec, pid)]

    def _unmeasurable(self, pid: str, spec: CellSpec) -> str | None:
        if pid in self.pool.broken:
            return f"failed: {self.pool.broken[pid]}"
        if not self.pool.offers(pid, spec.alg, spec.op, spec.chunk):
            if spec.chunk and self.pool.offers(pid, spec.alg, spec.op, 0):
                if spec.size > BIG_MESSAGE:
                    return (
                        "not offered at this size: one-shot API only, the whole message "
                        f"({format_size(spec.size)}) would have to be in memory"
                    )
                return "not offered: no streaming API for this algorithm"
            return "not offered"
        if spec.alg != "noop":
            v = self.verified.get((pid, spec.alg))
            if v is None or v.status not in ("passed", "unverified"):  # unverified: timed, never compared
                return v.detail if v else "failed: not verified"
        return None

    def _round(self, spec: CellSpec, pid: str, track: Track, pass_no: int, pair_round: int = -1) -> None:
        """One request to one provider's driver: ask what the sampler says, check, absorb, decide (a
        paired round's decision is the cell's, after every provider's turn: _decide_paired)."""
        clock = (self.pool.hellos.get(pid) or {}).get("clock") or {}
        resolution = clock.get("resolution_ns") if isinstance(clock.get("resolution_ns"), (int, float)) else 0
        req = sampler.request_for(spec, track, self.s, in_pair=pair_round >= 0, clock_ns=resolution)
        t0 = time.monotonic()
        host_before = hoststate.cpu_times()
        try:
            driver = self.pool.live(pid)
            # the peak memory of this request alone (the driver's own maxrss never goes down)
            measured_rss = memory.reset_peak(driver.pid)
            # big messages: an interpreted driver's checksum of 500 MB alone takes tens of seconds
            resp = driver.request(req, self.s.timeout + spec.size / 1e6 * 0.5)
            bench_response.check(spec, req, resp)
            rss = memory.peak_kb(driver.pid) if measured_rss else None
        except DriverError as e:
            track.done = True
            if str(e).startswith("not offered"):  # e.g. a one-shot-only API asked for a huge streamed cell
                track.not_offered = str(e)
                return
            track.failed = str(e)
            self.pool.recover(pid)  # now, on the account of the cell that killed it, not the next one's
            return
        finally:
            elapsed = time.monotonic() - t0
            track.spent += elapsed
            with self._spent_lock:  # --duet's two sides finish at once, in two threads
                self._spent += elapsed
            track.host.add(host_before, hoststate.cpu_times())
        sampler.absorb(track, resp, rss, self.pool.process.get(pid, 0), pair_round,
                       equalise_ns=req["target_ns"] if pair_round >= 0 and not sampler.one_per_sample(spec) else 0)  # fmt: skip
        if pair_round < 0:
            sampler.decide(spec, track, self.s, pass_no)

    # --- storing ---------------------------------------------------------------

    def _store_simple(self, run_id: int, spec: CellSpec, pid: str, status: str, reason: str) -> None:
        self.store.add_cell(
            run_id,
            CellRecord(pid, spec.alg, spec.op, spec.size, spec.chunk, status, reason, started=now(), finished=now()),
        )

    def _store_cell(self, run_id: int, spec: CellSpec, pid: str, track: Track, interrupted: bool = False) -> None:
        if track.not_offered and not track.samples:
            self._store_simple(run_id, spec, pid, "not-offered", track.not_offered)
            return
        extra: dict = {"spent_s": round(track.spent, 3), "round_sizes": track.round_sizes,
                       "round_process": track.round_process}  # fmt: skip
        host = track.host.summary()
        if host:
            extra["host"] = host
        if track.probe_ns:
            extra["probe_ns"] = round(stats.median(track.probe_ns), 2)
        if any(r >= 0 for r in track.pair_rounds):
            extra["pair_rounds"] = track.pair_rounds  # each sample's pair round: the pairs (paired.py)
        if track.ticks and len(track.ticks) == len(track.samples):
            extra["tsc_ticks"] = track.ticks  # the driver's counter beside each sample (cycles.py)
        if track.samples and track.batch:
            extra["precision"] = {"target": self.s.max_rel_ci, "halfwidth": round(sampler.halfwidth(track), 5)}
        if interrupted:
            extra["interrupted"] = True
        if len(set(track.checksums)) > 1 and spec.algorithm.deterministic(spec.op):
            extra["checksum_unstable"] = True  # fresh keys per request make public-key outputs differ: expected
        ok = bool(track.samples) and not track.failed  # samples taken before a fault are kept, but the cell is failed
        implausible = None
        if ok:  # a figure this machine cannot produce is kept, but refused
            per_op = stats.median(track.samples) / max(track.batch, 1)
            implausible = plausibility.judge(spec.alg, spec.op, spec.size, spec.chunk, per_op, self.limits)
            if implausible:
                ok, track.failed = False, implausible
        rec = CellRecord(
            provider=pid,
            alg=spec.alg,
            op=spec.op,
            size=spec.size,
            chunk=spec.chunk,
            status="ok" if ok else "failed",
            reason="" if ok else f"failed: {track.failed or 'no samples'}",
            batch=track.batch,
            samples_ns=track.samples,
            checksum=track.checksums[0] if track.checksums else "",
            checksums_seen=sorted(set(track.checksums)),
            peak_rss_kb=track.peak_rss_kb,
            rounds=track.rounds,
            started=track.started,
            finished=now(),
            extra=extra,
        )
        self.store.add_cell(run_id, rec)
