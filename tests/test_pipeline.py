"""Pipelined requests (`DriverProcess.pipeline`, `DriverPool.request_many`): the differential stage
writes 32 requests before reading their answers. Each message must get what one `request` would
have given it, in order, through errors and crashes (a crash uses up the message it happened in)."""

from __future__ import annotations

from cryptobench.core import algorithms
from cryptobench.core.errors import DriverError
from cryptobench.drivers.registry import Registry
from cryptobench.run.driver_pool import DriverPool
from cryptobench.verify import differential


def _pool(providers_file) -> DriverPool:
    return DriverPool(Registry(providers_file), timeout=20, log=lambda _: None)


def _messages() -> list[dict]:
    xs = differential.make_inputs(algorithms.get("sha256"), 40)
    msgs = [x.request("sha256") for x in xs]
    msgs.insert(7, {"cmd": "no-such-command"})  # refused by the driver, which goes on answering
    return msgs


def _shape(answers: list) -> list[str]:
    return [f"error: {a}" if isinstance(a, DriverError) else a["checksum"] for a in answers]


def test_pipelined_answers_are_the_sequential_ones_in_order(providers_file):
    pool = _pool(providers_file)
    try:
        assert pool.start("test:good") is not None
        msgs = _messages()
        one_by_one = []
        for m in msgs:
            try:
                one_by_one.append(pool.request("test:good", m))
            except DriverError as e:
                one_by_one.append(e)
        pipelined = pool.request_many("test:good", msgs)
        assert len(pipelined) == len(msgs)
        assert _shape(pipelined) == _shape(one_by_one)
        assert isinstance(pipelined[7], DriverError) and "no-such-command" in str(pipelined[7])
        assert len(set(_shape(pipelined))) > 30  # distinct inputs, distinct answers: nothing shifted
        assert pool.generation("test:good") == 0  # a refused request is not a fault
    finally:
        pool.stop_all()


def test_a_crash_uses_up_its_message_and_the_rest_go_on_in_a_fresh_process(providers_file):
    pool = _pool(providers_file)
    try:
        assert pool.start("test:crash-bench") is not None  # crashes on every bench request
        got = pool.request_many("test:crash-bench", _messages()[:3])
        assert len(got) == 3 and all(isinstance(a, DriverError) and "exited with code" in str(a) for a in got), got
        assert pool.generation("test:crash-bench") >= 2  # restarted for the second and the third
    finally:
        pool.stop_all()


def test_a_driver_dying_at_every_message_is_restarted_three_times_not_once_a_message(providers_file):
    """A window of 32 to a driver that crashes at every request: after FAULTS_IN_A_CALL faults the rest get
    the last one, not a restart each (a hanging driver: a timeout each, 32 x --timeout)."""
    pool = _pool(providers_file)
    try:
        assert pool.start("test:crash-bench") is not None
        got = pool.request_many("test:crash-bench", _messages()[:32])
        assert len(got) == 32 and all(isinstance(a, DriverError) and "exited with code" in str(a) for a in got)
        assert pool.generation("test:crash-bench") == 2  # three processes: the first and two restarts (not 32)
    finally:
        pool.stop_all()


def test_differential_through_the_pipeline_agrees_with_one_at_a_time(providers_file):
    pool = _pool(providers_file)
    try:
        for pid in ("test:good", "test:slow-sha"):
            assert pool.start(pid) is not None
        a = algorithms.get("sha256")

        def one(pid):
            return lambda m: pool.request(pid, m)

        def piped(pid):
            return differential.Pipelined(one(pid), lambda ms: pool.request_many(pid, ms))

        plain = differential.differential(a, {p: one(p) for p in ("test:good", "test:slow-sha")}, set(), 40)
        fast = differential.differential(a, {p: piped(p) for p in ("test:good", "test:slow-sha")}, set(), 40)
        assert [(r.provider, r.inputs, r.outputs, r.passed) for r in plain] == [
            (r.provider, r.inputs, r.outputs, r.passed) for r in fast
        ]
        assert all(r.inputs >= 40 and r.passed for r in fast)
    finally:
        pool.stop_all()
