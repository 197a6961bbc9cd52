"""A run from start to finish: start the drivers, verify, then the phases the command chose — timing
(the measuring loop and its precision passes), scaling, leak checks, instruction counts — each
result written to the sink the moment it is known.

The jobs live apart, behind declared interfaces (run/interfaces.py): `Drivers` (run/driver_pool.py
starts and restarts the processes), `RunSink` (the store), `Progress`; verification is
run/verifier.py, the rounds run/measuring.py, a provider's sampling of a cell measure/sampler.py.
"""

from __future__ import annotations

import os
import time

from cryptobench.core import environment, tls
from cryptobench.core.cell import CellSpec
from cryptobench.core.settings import Settings
from cryptobench.core.units import format_size
from cryptobench.drivers.registry import Registry
from cryptobench.measure import cycles, plausibility
from cryptobench.measure.interrupts import first_only, shielded
from cryptobench.measure.probe import HostProbe
from cryptobench.measure.sampler import now
from cryptobench.run import emulation
from cryptobench.run import phases as ph
from cryptobench.run.driver_pool import DriverPool
from cryptobench.run.interfaces import Drivers, Progress, RunSink, Silent
from cryptobench.run.measuring import MeasuringLoop
from cryptobench.run.precision_passes import sharpen
from cryptobench.run.verifier import Verifier
from cryptobench.store.model import RunRecord
from cryptobench.verify import tls_pki
from cryptobench.verify.schedule import at_once
from cryptobench.versions import cache

__all__ = ["BIG_MESSAGE", "Interrupted", "Runner", "Settings"]

BIG_MESSAGE = 64 * 1024 * 1024  # above this a one-shot-only API is "not offered at this size"
STARTS_AT_ONCE = 6  # driver processes started at once


class Interrupted(Exception):
    """Ctrl-C during a run: everything measured so far is stored, the run is marked interrupted."""

    def __init__(self, run_id: int):
        super().__init__(f"run {run_id} interrupted")
        self.run_id = run_id


class Runner:
    """One run against `store`. `drivers` and `probe` default to real processes (DriverPool, HostProbe);
    the round-logic tests pass fakes."""

    def __init__(self, store: RunSink, registry: Registry, settings: Settings, progress: Progress | None = None,
                 drivers: Drivers | None = None, probe=None):  # fmt: skip
        self.store, self.registry, self.s = store, registry, settings
        self.progress = progress or Silent()
        self.drivers = drivers or DriverPool(registry, settings.timeout, settings.cpu_features, self.progress.log)
        self.probe = probe or HostProbe(registry, settings.timeout)  # the host's speed all through the run
        self.verifier = Verifier(self.drivers, settings, registry.providers, self.progress.step)
        self.loop: MeasuringLoop | None = None
        self.limits: dict | None = None  # this machine's bandwidth and clock (plausibility.py)
        self._verifications_stored = False
        self._scaled: list[dict] = []  # measure.scaling.Scaled records
        self._leaks: list[dict] = []  # leak.check.LeakResult records
        self._icount: dict | None = None  # icount/phase.py's record
        self._pki_missing: dict[str, str] = {}  # TLS: authentications without a test PKI, and why

    def run(self, cells: list[CellSpec], providers: list[str], phases: frozenset[str] | None = None) -> int:
        """Verify `providers` on `cells`, then the `phases` (phases.py; default: those `cryptobench run`
        takes from the settings). The run's id; Interrupted on Ctrl-C, everything so far stored."""
        chosen = ph.for_run(self.s) if phases is None else phases
        if chosen:  # a run that measures: no provider under an emulator (qemu-user), in one line
            emulation.refuse_measuring(self.registry, providers)
        self.limits = plausibility.measure()
        env = {**environment.capture(self.s.machine_label), "machine_limits": self.limits}
        if any(c.algorithm.kind == "tls" for c in cells):
            env["tls_pki"] = self._make_pki(cells)
        # stored as before: `measure` says a timing run (`run`), not `verify` or `leak`
        settings = {**self.s.to_dict(), "measure": bool(chosen - ph.LEAK_ONLY), "leak": ph.LEAK in chosen}
        run = RunRecord(None, now(), self.s.suite, settings, env, label=self.s.label, job=self.s.job or None)
        run_id = self.store.create_run(run)
        self.verifier.keep_crosschecks = lambda records: self.store.add_crosschecks(run_id, records)
        self.loop = MeasuringLoop(self.drivers, self.store, run_id, self.s, self.progress, self.probe, self.limits)
        with first_only(self.progress.log):  # a second Ctrl-C, however soon, only waits for the save
            try:
                # started STARTS_AT_ONCE at a time: a start is mostly waiting (a JVM, a browser), and one
                # after another the conformance matrix's 47 drivers took 64-115 s under load
                for pid, hello in zip(providers, at_once(providers, self.drivers.start, STARTS_AT_ONCE), strict=True):
                    if hello is not None:
                        self.store.add_provider(run_id, pid, hello)
                self.verifier.verify_all(cells)
                self._store_verifications(run_id)
                if ph.TIME in chosen:
                    self._time(cells)
                if ph.SCALING in chosen:
                    ph.scale(cells, self.drivers, self.registry, self.s, self.refuse, self.progress, self._scaled)
                if ph.LEAK in chosen:
                    ph.leak(cells, self.drivers, self.verifier, self.s, self.progress, self._leaks)
                if ph.INSTRUCTIONS in chosen:
                    self._icount = ph.instructions(
                        cells, self.drivers, self.registry, self.s, self.refuse, self.progress
                    )
                self.progress.finish()
                self._finish(run_id, "complete", measured=ph.TIME in chosen)
            except KeyboardInterrupt:  # the first signal; first_only turns the later ones into a line
                self.progress.finish()
                self.loop.store_rest(interrupted=True)  # keep everything measured so far
                self._store_verifications(run_id, interrupted=True)
                self._finish(run_id, "interrupted", measured=settings["measure"])
                self.drivers.stop()
                raise Interrupted(run_id) from None
            finally:
                with shielded(self.progress.log):
                    self.drivers.stop()
                    self.probe.stop()
                    self.loop.close()
            return run_id

    def _time(self, cells: list[CellSpec]) -> None:
        """Every cell in `passes` passes over the plan (each in fresh driver processes), then the
        precision passes with what is left of the run's budget."""
        loop = self.loop
        budget = loop.budget = sum(len(c.providers) * (c.budget or self.s.time_per_cell) for c in cells)
        passes = max(1, self.s.passes)
        self.progress.start(len(cells) * passes, budget * 1.3, passes)
        self.probe.start()
        for pass_no in range(passes):
            if pass_no:
                self.drivers.renew()
            for i, spec in enumerate(cells):
                if pass_no == 0:
                    loop.open_cell(spec, self.refuse)
                loop.measure(pass_no * len(cells) + i, spec, pass_no)
        sharpen(loop, self.drivers, cells)

    def _make_pki(self, cells: list[CellSpec]) -> dict:
        """The TLS cells' throw-away PKI, one per authentication, kept whole with the run so that a figure
        can be reproduced with the same certificates (verify/tls_pki.py)."""
        auths = sorted({tls.parse(c.alg).auth.name for c in cells if c.algorithm.kind == "tls"})
        folder = cache.base() / "tls-pki" / f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        made, self._pki_missing = tls_pki.make(folder, auths)
        self.s.tls_pki = {a: p.request() for a, p in made.items()}
        for auth, why in self._pki_missing.items():
            self.progress.log(f"TLS: no test PKI for {auth}: {why}")
        found = tls_pki.openssl_command()
        return {
            "dir": str(folder),
            "openssl": found[1] if found else None,
            "made": {
                a: {
                    "fingerprint": p.fingerprint(),
                    "chain": p.chain.read_text(),
                    "root": p.root.read_text(),
                    "key": p.key.read_text(),
                }
                for a, p in made.items()
            },  # fmt: skip
            "missing": self._pki_missing,
        }

    def refuse(self, pid: str, spec: CellSpec) -> str | None:
        """Why `pid` cannot be timed (or counted, or scaled) on `spec`; None when it can."""
        broken = self.drivers.why_broken(pid)
        if broken:
            return f"failed: {broken}"
        if not self.drivers.offers(pid, spec.alg, spec.op, spec.chunk):
            if spec.chunk and self.drivers.offers(pid, spec.alg, spec.op, 0):
                if spec.size > BIG_MESSAGE:
                    return (
                        "not offered at this size: one-shot API only, the whole message "
                        f"({format_size(spec.size)}) would have to be in memory"
                    )
                return "not offered: no streaming API for this algorithm"
            return "not offered"
        if spec.algorithm.kind == "tls" and (auth := tls.parse(spec.alg).auth.name) not in self.s.tls_pki:
            return f"not offered: no test PKI for {auth}: {self._pki_missing.get(auth, 'not made')}"
        if spec.alg != "noop":
            v = self.verifier.verdict(pid, spec.alg)
            if v is None or not v.timed:  # unverified: timed, never compared
                return v.record.detail if v else "failed: not verified"
        return None

    def _store_verifications(self, run_id: int, interrupted: bool = False) -> None:
        """Once per run: at the end of verification, or what it had found when it was interrupted."""
        if self._verifications_stored:
            return
        self._verifications_stored = True
        for rec in self.verifier.records():
            if interrupted:
                rec.conformance["interrupted"] = True  # later checks (Monte Carlo, differential) may be missing
            self.store.add_verification(run_id, rec)
            if rec.status not in ("passed", "unverified") and not interrupted:
                self.progress.log(f"{rec.provider} {rec.alg}: {rec.detail}")

    def _finish(self, run_id: int, status: str, measured: bool) -> None:
        """The scaling and leak records to their own tables, then the run's end: its load, its probe."""
        env: dict = {"load_end": environment.load_average()}
        if measured:
            flags = environment.cpu_info()["all_flags"]
            env |= {"probe": self.probe.record(), "cycles": cycles.counter(self.probe.clock, flags)}
        if self._scaled:
            self.store.add_scaling(run_id, self._scaled)
        if self._leaks:
            self.store.add_leak(run_id, self._leaks)
        if self._icount:
            env["instructions"] = self._icount
        self.store.finish_run(run_id, status, now(), env)
