"""The measuring loop's round logic against a fake `Drivers` (no processes): the fake answers every
bench request with samples the test chooses and logs who was asked what, in which order."""

from __future__ import annotations

import random
from hashlib import sha256

import pytest

from cryptobench.analysis import paired
from cryptobench.core import fixed_input
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.core.settings import Settings
from cryptobench.run import measuring, precision_passes
from cryptobench.run.measuring import MeasuringLoop
from cryptobench.run.precision_passes import sharpen

NO_PROCESS = 2**22 + 4321  # no such OS process: memory readings are skipped, as on a system without them


class FakeDriver:
    """Answers `bench` with `ns_per_op` per operation times (1 + noise); dies at its `die_at`th request."""

    pid = NO_PROCESS

    def __init__(self, owner: FakeDrivers, name: str):
        self.owner, self.name, self.dead = owner, name, False

    def alive(self) -> bool:
        return not self.dead

    def close(self, timeout: float = 5) -> None: ...

    def request(self, msg: dict, timeout: float) -> dict:
        o = self.owner
        o.log.append((self.name, msg))
        o.asked[self.name] = o.asked.get(self.name, 0) + 1
        if o.asked[self.name] == o.die_at.get(self.name):
            self.dead = True
            raise DriverError("driver exited with code 7")
        if msg["cmd"] == "verify":  # sha256 known answers, computed: verification really passes
            cases = msg["cases"]
            return {"ok": True, "results": [{"id": c["id"], "out": sha256(bytes.fromhex(c["msg"])).hexdigest()}
                                            for c in cases]}  # fmt: skip
        out = sha256(fixed_input.message(msg["size"], msg["seed"])).digest()  # differential inputs agree
        per_op = o.ns_per_op[self.name]
        batch = msg["batch"] or max(1, round(msg["target_ns"] / per_op))
        noise = o.noise[self.name]
        samples = [max(1, round(batch * per_op * (1 + o.rng.uniform(-noise, noise)))) for _ in range(msg["samples"])]
        return {"ok": True, "batch": batch, "samples_ns": samples, "checksum": fixed_input.checksum(out), "sink": 0}


class FakeDrivers:
    """`drivers.interface.Drivers` without processes; `restarts` counts the fresh drivers `recover` made."""

    def __init__(self, ns_per_op: dict[str, float], noise: dict[str, float] | None = None, die_at=None):
        self.ns_per_op, self.die_at = ns_per_op, die_at or {}
        self.noise = noise or dict.fromkeys(ns_per_op, 0.001)
        self.rng = random.Random(7)
        self.log: list[tuple[str, dict]] = []
        self.asked: dict[str, int] = {}
        self.restarts: dict[str, int] = {}
        self.drivers = {pid: FakeDriver(self, pid) for pid in ns_per_op}

    def start(self, pid):
        return self.hello(pid)

    def hello(self, pid):
        return {"offers": {"sha256": ["hash"]}, "protocol": 5, "clock": {"resolution_ns": 1}}

    def running(self, pid):
        return pid in self.drivers

    def why_broken(self, pid):
        return ""

    def env(self, provider):
        return {}

    def offers(self, pid, alg, op, chunk):
        return alg == "sha256" and op == "hash"

    def offered(self, pid, alg):
        return ["hash"] if alg == "sha256" else []

    def recover(self, pid):
        if self.drivers[pid].dead:
            self.restarts[pid] = self.restarts.get(pid, 0) + 1
            self.drivers[pid] = FakeDriver(self, pid)

    def live(self, pid):
        self.recover(pid)
        return self.drivers[pid]

    def request(self, pid, msg, timeout=None):
        return self.live(pid).request(msg, timeout or 1.0)

    def generation(self, pid):
        return self.restarts.get(pid, 0)

    def renew(self, only=None): ...

    def start_witness(self, pid):
        return "no witnesses here"

    def stop(self): ...


class ListSink:
    """A `RunSink` that keeps what it is given."""

    def __init__(self):
        self.cells, self.verifications, self.providers, self.finished = [], [], [], None

    def create_run(self, run):
        return 1

    def add_provider(self, run_id, pid, hello):
        self.providers.append(pid)

    def add_verification(self, run_id, v):
        self.verifications.append(v)

    def add_cell(self, run_id, rec):
        self.cells.append(rec)

    def add_crosschecks(self, run_id, records): ...

    def add_scaling(self, run_id, records): ...

    def add_leak(self, run_id, records): ...

    def finish_run(self, run_id, status, finished, env_update=None):
        self.finished = status


class NoProbe:
    readings: list = []
    clock: dict = {}

    def maybe_take(self): ...

    def start(self): ...

    def stop(self): ...

    def record(self):
        return {}


def settings(**kw) -> Settings:
    base = dict(suite="t", baseline="A", time_per_cell=30.0, passes=1, target_ns=200_000, target_paired_ns=100_000,
                warmup_first_ns=0, warmup_ns=0, warmup_paired_ns=0, min_samples=10, max_rel_ci=0.01)  # fmt: skip
    return Settings(**(base | kw))


def measure(drivers: FakeDrivers, cells: list[CellSpec], s: Settings) -> ListSink:
    """The runner's timing phase, without its verification: every cell once, then the precision passes."""
    sink = ListSink()
    loop = MeasuringLoop(drivers, sink, 1, s, _Quiet(), NoProbe())
    loop.budget = sum(len(c.providers) * (c.budget or s.time_per_cell) for c in cells)
    for i, spec in enumerate(cells):
        loop.open_cell(spec, lambda pid, spec: None)
        loop.measure(i, spec, 0)
    sharpen(loop, drivers, cells)
    return sink


class _Quiet:
    def cell(self, *a): ...
    def log(self, *a): ...


def cell(size: int = 64, providers=("A", "B")) -> CellSpec:
    return CellSpec("sha256", "hash", size, 0, tuple(providers))


def by_provider(sink: ListSink, size: int = 64) -> dict:
    return {c.provider: c for c in sink.cells if c.size == size}


def test_paired_rounds_go_in_abba_order_a_few_batches_each():
    drivers = FakeDrivers({"A": 100.0, "B": 200.0})
    measure(drivers, [cell()], settings())
    order = "".join(pid for pid, _ in drivers.log)
    # pair round k: rotated every two rounds, reversed every other one (paired.order)
    assert order.startswith("AB" + "BA" + "BA" + "AB" + "AB" + "BA"), order
    first, later = drivers.log[:2], drivers.log[2:]
    assert all(m["samples"] == 2 and m["batch"] == 0 for _, m in first)  # the calibration round
    assert all(m["samples"] == 3 and m["batch"] > 0 for _, m in later)  # then pair_batches a request
    assert all(m["target_ns"] == 100_000 for _, m in later)  # a paired batch's length


def test_pair_round_bookkeeping_pairs_each_round_once_on_both_sides():
    # A alone would meet ±1% after ten samples; B's noise keeps the pair going: they stop together
    drivers = FakeDrivers({"A": 100.0, "B": 200.0}, noise={"A": 0.001, "B": 0.02})
    sink = measure(drivers, [cell()], settings())
    a, b = by_provider(sink)["A"], by_provider(sink)["B"]
    ra, rb = a.extra["pair_rounds"], b.extra["pair_rounds"]
    assert ra[:2] == rb[:2] == [-1, -1]  # the calibration round's samples pair with nothing
    rounds = (len(ra) - 2) // 3
    assert ra[2:] == rb[2:] == [k for k in range(1, rounds + 1) for _ in range(3)]  # three batches a pair round
    assert rounds >= paired.MIN_PAIRS  # more rounds than A's ten samples alone needed: the pair stops together
    assert a.extra["round_sizes"] == b.extra["round_sizes"] == [2] + [3] * rounds


def test_a_cell_stops_on_its_half_width_not_its_budget():
    drivers = FakeDrivers({"A": 100.0, "B": 200.0}, noise={"A": 0.001, "B": 0.001})
    sink = measure(drivers, [cell()], settings(time_per_cell=30.0))
    cells = by_provider(sink)
    for c in cells.values():
        assert c.status == "ok"
        assert c.extra["spent_s"] < 5  # a 30 s budget, stopped by the interval long before
    # the first pair round at which the paired ratio met ±1%, given ten samples: far from max_samples
    assert len(cells["A"].samples_ns) < 40
    # unpaired, alone: the provider's own interval stops it the same way
    alone = FakeDrivers({"A": 100.0})
    one = by_provider(measure(alone, [cell(providers=("A",))], settings(paired=False)))["A"]
    assert one.status == "ok" and one.extra["precision"]["halfwidth"] <= 0.01
    assert sum(one.extra["round_sizes"]) == len(one.samples_ns) < 40


class SteppingClock:
    """`time` for the loop's budget: each `monotonic()` call is `step` seconds later, so what a round
    costs is fixed and the stopping rule is tested without the machine's speed (or its load)."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def monotonic(self) -> float:
        self.now += self.step
        return self.now


def test_a_noisy_cell_stops_on_its_budget(monkeypatch):
    clock = SteppingClock(0.001)  # a round is charged 1 ms: two calls around each request
    monkeypatch.setattr(measuring, "time", clock)
    monkeypatch.setattr(precision_passes, "time", clock)
    drivers = FakeDrivers({"A": 100.0, "B": 200.0}, noise={"A": 0.9, "B": 0.9})
    sink = measure(drivers, [cell()], settings(time_per_cell=0.05, max_rel_ci=0.0001))
    cells = by_provider(sink).values()
    for c in cells:
        assert c.status == "ok"
        assert c.extra["precision"]["halfwidth"] > 0.0001  # never met: the budget ended it
    # a paired cell's providers stop together, on their mean spent time, at the pair round that
    # reaches the budget (a pair round is one request a side: 1 ms each here)
    spent = [c.extra["spent_s"] for c in cells]
    assert 0.05 <= sum(spent) / 2 < 0.0515
    assert abs(spent[0] - spent[1]) <= 0.001


@pytest.mark.parametrize("paired", [True, False])
def test_a_driver_dying_mid_cell_fails_only_that_providers_cell_and_is_restarted_once(paired):
    drivers = FakeDrivers({"A": 100.0, "B": 200.0}, die_at={"B": 3})
    sink = measure(drivers, [cell(64), cell(1024)], settings(paired=paired))
    first, second = by_provider(sink, 64), by_provider(sink, 1024)
    assert first["B"].status == "failed" and "driver exited with code 7" in first["B"].reason
    assert first["B"].samples_ns  # what it measured before the fault is kept
    asked = [m["size"] for pid, m in drivers.log if pid == "B"]
    assert asked[:3] == [64, 64, 64] and set(asked[3:]) == {1024}  # nothing more asked of it in that cell
    assert first["A"].status == "ok"  # its partner in the same cell lost nothing
    assert second["A"].status == second["B"].status == "ok"  # the next cell: a fresh driver
    assert drivers.restarts == {"B": 1}
    assert set(second["B"].extra["round_process"]) == {1}  # measured in the restarted process


def test_the_runners_successors_are_each_under_250_lines():
    """Issue 31: the 540-line Runner became classes of one job each; none may grow back past 250 lines."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "cryptobench"
    files = [*(root / "run").glob("*.py"), root / "verify" / "witness_search.py", root / "measure" / "sampler.py"]
    sizes = {}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                sizes[f"{path.name}:{node.name}"] = node.end_lineno - node.lineno + 1
    assert {"runner.py:Runner", "measuring.py:MeasuringLoop", "verifier.py:Verifier"} <= set(sizes)
    assert not {k: n for k, n in sizes.items() if n >= 250}, sizes


def test_a_whole_run_against_fake_drivers_starts_no_process(monkeypatch):
    """The Runner takes its drivers and probe from outside: verification, timing and storing run
    against fakes, and a driver process started anyway would fail the test."""
    from cryptobench.drivers.client import DriverProcess
    from cryptobench.drivers.registry import Registry
    from cryptobench.run.runner import Runner

    def no_process(*a, **kw):
        raise AssertionError("a driver process was started")

    monkeypatch.setattr(DriverProcess, "__init__", no_process)
    monkeypatch.setenv("CRYPTOBENCH_WITNESSES", "")
    drivers, sink = FakeDrivers({"A": 100.0, "B": 200.0}), ListSink()
    s = settings(differential_inputs=20, monte_checkpoints=0)
    Runner(sink, Registry(), s, drivers=drivers, probe=NoProbe()).run([cell(64), cell(1024)], ["A", "B"])
    assert sink.finished == "complete" and sink.providers == ["A", "B"]
    assert [(v.provider, v.status) for v in sink.verifications] == [("A", "passed"), ("B", "passed")]
    assert sorted((c.provider, c.size, c.status) for c in sink.cells) == [
        ("A", 64, "ok"), ("A", 1024, "ok"), ("B", 64, "ok"), ("B", 1024, "ok")]  # fmt: skip
    assert {m["cmd"] for _, m in drivers.log} == {"verify", "bench"}
