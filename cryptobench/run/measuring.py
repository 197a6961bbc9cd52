"""The measuring loop: every cell in rounds with its providers interleaved, each provider's sampling
owned by a `CellSampler` (what to ask next, when to stop), every finished cell stored at once.

Each cell is measured in rounds: every provider still short of a tight interval gets one `bench`
request per round, in rotating order, so slow drift of the machine hits all providers alike. With
pairing (the default) a cell's providers first take turns batch for batch in ABBA order (pair
rounds, paired.py), and stop together on the paired ratios' interval. A provider stops when the 95%
interval meets `max_rel_ci` (after `min_samples`) or when it has spent its time budget; what a pass
leaves wide goes to the precision passes (precision_passes.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from cryptobench.analysis import paired
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.core.settings import Settings
from cryptobench.drivers.interface import Drivers
from cryptobench.measure import duet, memory, sampler
from cryptobench.measure import host_state as hoststate
from cryptobench.measure.sampler import CellSampler
from cryptobench.run import cell_records
from cryptobench.run.interfaces import Progress, RunSink


class MeasuringLoop:
    """The rounds of every cell of one run, against `drivers`, into `sink`. `probe` is the host
    probe (measure/probe.HostProbe, or anything with `maybe_take()` and `readings`)."""

    def __init__(self, drivers: Drivers, sink: RunSink, run_id: int, s: Settings, progress: Progress,
                 probe, limits: dict | None = None):  # fmt: skip
        self.drivers, self.sink, self.run_id, self.s = drivers, sink, run_id, s
        self.progress, self.probe, self.limits = progress, probe, limits
        self.open: dict[CellSpec, dict[str, CellSampler]] = {}  # cells not yet stored, by provider
        self.spent = 0.0  # seconds of measuring so far, every cell and provider
        self.budget = float("inf")  # the run's: cells x providers x time per cell (set by the runner)
        self._spent_lock = threading.Lock()  # --duet's two sides finish at once, in two threads
        self._pair_round: dict[CellSpec, int] = {}  # each cell's next pair round number (paired.py)
        self._lockstep: duet.Lockstep | None = None  # --duet: runs a pair's two batches at once

    def open_cell(self, spec: CellSpec, refuse: Callable[[str, CellSpec], str | None]) -> None:
        """Store at once what cannot be measured (`refuse` says why); a sampler for every provider that can."""
        for pid in spec.providers:
            reason = refuse(pid, spec)
            if reason is not None:
                status = "not-offered" if reason.startswith("not offered") else "failed"
                self.sink.add_cell(self.run_id, cell_records.simple(spec, pid, status, reason))
                continue
            clock = self.drivers.hello(pid).get("clock") or {}
            resolution = clock.get("resolution_ns") if isinstance(clock.get("resolution_ns"), (int, float)) else 0
            self.open.setdefault(spec, {})[pid] = CellSampler(spec, self.s, clock_ns=resolution)

    def measure(self, index: int, spec: CellSpec, pass_no: int) -> None:
        """One pass over a cell: rounds, rotating over its providers, until each has had this pass's share.

        A run makes `passes` passes over the whole plan, so a cell's samples are spread over the run:
        a few seconds in which the machine is slow hit many cells a little, not a few cells entirely.
        """
        mine = self.open.get(spec, {})
        active = list(mine)
        if active:
            self._probe_for([x.track for x in mine.values()])
        for x in mine.values():
            x.track.paused = False
        if self.s.paired and len(active) >= 2:
            self._measure_paired(index, spec, pass_no)
        rotation = 0
        while True:  # alone (or left alone when the others failed): rounds of several samples
            pending = [pid for pid in active if mine[pid].decision == sampler.GO]
            if not pending:
                break
            order = pending[rotation % len(pending) :] + pending[: rotation % len(pending)]
            rotation += 1
            for pid in order:
                self.progress.cell(index, spec, pid)
                self.round(spec, pid, pass_no)
        # a cell is stored the moment it is finished (and forgotten only once stored); one still wider
        # than the target waits for the precision passes only while the run has budget left for them
        last = pass_no >= self.s.passes - 1 and self.spent >= self.budget
        for pid in active:
            t = mine[pid].track
            if t.done or (last and t.paused):
                self.store(spec, pid)

    def _measure_paired(self, index: int, spec: CellSpec, pass_no: int) -> None:
        """Pair rounds (paired.py): every provider still going gets one batch per round, in ABBA order,
        until the cell's paired ratios meet the target or its budget for this pass is spent. With
        --duet, the reference and each other provider in turn run their batches at once (duet.py)."""
        mine = self.open[spec]
        while True:
            pending = [pid for pid, x in mine.items() if x.decision == sampler.GO]
            if len(pending) < 2:
                return
            if self.s.duet:  # one pair round per other provider, their order rotated like a round's
                ref = sampler.reference(pending, self.s.baseline)
                others = [p for p in pending if p != ref]
                for pid in paired.order(others, self._pair_round.get(spec, 0)):
                    self._duet_round(index, spec, [ref, pid], pass_no, self._next_pair_round(spec))
            else:
                k = self._next_pair_round(spec)
                for pid in paired.order(pending, k):
                    self.progress.cell(index, spec, pid)
                    self.round(spec, pid, pass_no, pair_round=k)
            sampler.decide_together({pid: mine[pid] for pid in pending}, pass_no, self.s)

    def _next_pair_round(self, spec: CellSpec) -> int:
        k = self._pair_round.get(spec, 0)
        self._pair_round[spec] = k + 1
        return k

    def _duet_round(self, index: int, spec: CellSpec, pids: list[str], pass_no: int, k: int) -> None:
        """One pair round of --duet: both sides' batches at the same moment, each on its own pinned core."""
        if self._lockstep is None:
            self._lockstep = duet.Lockstep()
        sides = []
        for pid in pids:
            self.progress.cell(index, spec, pid)
            try:
                os_pid = self.drivers.live(pid).pid
            except DriverError:
                os_pid = 0  # round() says why, on this cell's account
            sides.append((os_pid, lambda pid=pid: self.round(spec, pid, pass_no, pair_round=k)))
        self._lockstep.run(sides)

    def round(self, spec: CellSpec, pid: str, pass_no: int, pair_round: int = -1) -> None:
        """One request to one provider's driver: what its sampler asks, then its answer taken (a paired
        round's decision is the cell's, after every provider's turn: sampler.decide_together)."""
        x = self.open[spec][pid]
        req = x.next_request(pair_round)
        t0 = time.monotonic()
        host_before = hoststate.cpu_times()
        try:
            driver = self.drivers.live(pid)
            # the peak memory of this request alone (the driver's own maxrss never goes down)
            measured_rss = memory.reset_peak(driver.pid)
            # big messages: an interpreted driver's checksum of 500 MB alone takes tens of seconds
            resp = driver.request(req, self.s.timeout + spec.size / 1e6 * 0.5)
            rss = memory.peak_kb(driver.pid) if measured_rss else None
        except DriverError as e:
            self._charge(x, t0, host_before)
            self._fail(pid, x, e)
            return
        self._charge(x, t0, host_before)  # before the decision: it reads the time this round took
        try:
            x.take(resp, pass_no, rss, self.drivers.generation(pid))
        except DriverError as e:  # an answer that cannot be true: the driver lied
            self._fail(pid, x, e)

    def _charge(self, x: CellSampler, t0: float, host_before) -> None:
        elapsed = time.monotonic() - t0
        x.track.spent += elapsed
        with self._spent_lock:
            self.spent += elapsed
        x.track.host.add(host_before, hoststate.cpu_times())

    def _fail(self, pid: str, x: CellSampler, e: DriverError) -> None:
        """A fault ends this provider's track on this cell only (its samples are kept, the cell failed)."""
        x.track.done = True
        if str(e).startswith("not offered"):  # e.g. a one-shot-only API asked for a huge streamed cell
            x.track.not_offered = str(e)
            return
        x.track.failed = str(e)
        self.drivers.recover(pid)  # now, on the account of the cell that killed it, not the next one's

    def _probe_for(self, tracks: list[sampler.Track]) -> None:
        """A host probe reading (at most one a second), remembered by the tracks about to be measured."""
        self.probe.maybe_take()
        if self.probe.readings:
            for t in tracks:
                t.probe_ns.append(self.probe.readings[-1][1])

    def halfwidth(self, spec: CellSpec) -> float:
        """What the precision passes rank a cell by: the paired ratios' half-width when it was paired,
        else its widest provider's median interval."""
        mine = self.open.get(spec, {})
        going = [x for x in mine.values() if not x.track.done and x.track.samples]
        if not going:
            return 0.0
        everyone = {pid: x for pid, x in mine.items() if not x.track.failed and x.track.samples}
        if self.s.paired and len(everyone) >= 2:
            return sampler.paired_halfwidth(everyone, self.s.baseline)
        return max(sampler.halfwidth(x.track) for x in going)

    def store(self, spec: CellSpec, pid: str, interrupted: bool = False) -> None:
        """Write one provider's cell, then forget it."""
        x = self.open[spec].pop(pid)
        if not self.open[spec]:
            del self.open[spec]
        rec = cell_records.measured(spec, pid, x.track, self.s, self.limits, interrupted)
        self.sink.add_cell(self.run_id, rec)

    def store_rest(self, interrupted: bool = False) -> None:
        """Every cell still open: after the precision passes, or what Ctrl-C found measured."""
        for spec, mine in list(self.open.items()):
            for pid, x in list(mine.items()):
                t = x.track
                if t.samples or (not interrupted and (t.failed or t.not_offered)):
                    self.store(spec, pid, interrupted)
                else:
                    mine.pop(pid)
            self.open.pop(spec, None)

    def close(self) -> None:
        if self._lockstep is not None:
            self._lockstep.close()
