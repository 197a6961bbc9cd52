"""The cell sampler is pure: the same cell, track, settings and pass give the same request and decision."""

import pytest

from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.core.settings import Settings
from cryptobench.measure import response_checks as bench_response
from cryptobench.measure import sampler

S = Settings(suite="t", baseline="x", time_per_cell=1.0, passes=3, min_samples=10, max_rel_ci=0.01)
GCM = CellSpec("aes-128-gcm", "seal", 1024, 0, ("p",))


def test_the_first_round_calibrates_after_a_long_warm_up_and_later_rounds_reuse_the_batch():
    t = sampler.Track()
    first = sampler.request_for(GCM, t, S)
    assert (first["batch"], first["samples"], first["warmup_ns"]) == (0, 2, S.warmup_first_ns)
    assert len(first["key"]) == 32 and len(first["iv"]) == 24  # 16- and 12-byte hex
    sampler.absorb(t, {"batch": 64, "samples_ns": [5_000_000, 5_100_000], "checksum": "c"}, None)
    later = sampler.request_for(GCM, t, S)
    assert (later["batch"], later["samples"], later["warmup_ns"]) == (64, S.samples_per_round, S.warmup_ns)
    # a slow sample fits fewer per round: a quarter of the budget at most
    slow = sampler.Track(rounds=1, batch=1, samples=[200_000_000])
    assert sampler.request_for(GCM, slow, S)["samples"] == 1


def test_rsa_key_generation_is_one_operation_per_sample():
    track = sampler.Track(rounds=2, batch=1, samples=[50_000_000, 90_000_000])
    req = sampler.request_for(CellSpec("rsa-2048", "keygen", 0, 0, ("p",)), track, S)
    assert (req["batch"], req["samples"]) == (1, 1)


def test_a_tight_cell_pauses_in_early_passes_and_is_done_in_the_last():
    tight = [1_000_000] * 12
    for pass_no, paused, done in ((0, True, False), (1, True, False), (2, False, True)):
        t = sampler.Track(batch=1, samples=list(tight), rounds=3, spent=0.1)
        sampler.decide(GCM, t, S, pass_no)
        assert (t.paused, t.done) == (paused, done), pass_no


def test_a_noisy_cell_goes_on_until_its_share_of_the_budget_is_spent():
    noisy = [1_000_000, 3_000_000] * 6
    t = sampler.Track(batch=1, samples=list(noisy), rounds=3, spent=0.2)
    sampler.decide(GCM, t, S, 0)
    assert not t.paused and not t.done
    t.spent = 0.34  # past a third of the budget in the first of three passes
    sampler.decide(GCM, t, S, 0)
    assert t.paused and not t.done
    t = sampler.Track(batch=1, samples=list(noisy), rounds=30, spent=5.0)  # five budgets: a hard stop
    sampler.decide(GCM, t, S, 0)
    assert t.done


@pytest.mark.parametrize(
    "cell,after,fails",
    [
        (CellSpec("sha256", "hash", 64, 0, ("p",)), "00000020:0000000000000002", True),
        (CellSpec("sha256", "hash", 64, 0, ("p",)), "00000020:0000000000000001", False),
    ],
)
def test_an_output_that_changes_after_the_samples_fails_a_repeatable_cell(cell, after, fails):
    req = {"batch": 0, "samples": 1}
    resp = {"batch": 1, "samples_ns": [1000], "checksum": "00000020:0000000000000001", "checksum_after": after}
    if fails:
        with pytest.raises(DriverError, match="state carried from one operation into the next"):
            bench_response.check(cell, req, resp)
    else:
        bench_response.check(cell, req, resp)


def test_fresh_outputs_by_design_are_not_held_to_the_rule():
    from cryptobench.core import algorithms

    assert not algorithms.get("ml-kem-768").repeatable("encaps")
    assert not algorithms.get("ecdsa-p256").repeatable("sign")
    assert algorithms.get("ml-kem-768").repeatable("decaps") and algorithms.get("x25519").repeatable("derive")
    assert not algorithms.get("pq-ntor-768").repeatable("full")


def test_the_stopping_rule_reads_the_interval_the_reports_show():
    """Rounds that disagree widen the reported interval (stats.summarize with the rounds): a cell
    whose samples are tight within each round but whose rounds moved 5% is not tight."""
    from cryptobench.analysis import stats

    drifting = [1_000_000] * 24 + [1_050_000] * 6  # one round of five 5% slower
    t = sampler.Track(batch=1, samples=list(drifting), rounds=5, round_sizes=[6] * 5, spent=0.1)
    assert stats.summarize(drifting).ci_rel_halfwidth <= S.max_rel_ci  # the within-sample interval alone
    assert sampler.halfwidth(t) > S.max_rel_ci
    sampler.decide(GCM, t, S, 2)
    assert not t.done and not t.paused  # budget left: go on
    t.spent = 1.0  # budget spent, still wide: paused for the precision passes, not done
    sampler.decide(GCM, t, S, 2)
    assert t.paused and not t.done


def test_a_cell_that_misses_its_precision_says_why():
    from cryptobench.analysis import stats
    from cryptobench.report import precision
    from cryptobench.store.model import CellRecord

    samples = [1_000_000] * 5 + [1_100_000] * 5 + [1_000_000, 1_500_000] * 3
    c = CellRecord("p", "sha256", "hash", 1024, 0, "ok", batch=1, samples_ns=samples,
                   extra={"round_sizes": [5, 5, 6], "precision": {"target": 0.01},
                          "host": {"steal_pct": 3.5, "busy_cores": 1.9}})  # fmt: skip
    s = stats.summarize(c.per_op_ns, c.round_sizes)
    assert precision.missed(c, s) == 0.01
    why = precision.reasons(c, s)
    assert any(w.startswith("CV ") for w in why) and "steal time 3.5%" in why
    assert any("rounds' medians differ by 25.0%" in w for w in why) and "0.9 cores busy with other work" in why
    tight = CellRecord("p", "sha256", "hash", 1024, 0, "ok", batch=1, samples_ns=[1000] * 20,
                       extra={"precision": {"target": 0.01}})  # fmt: skip
    assert precision.missed(tight, stats.summarize(tight.per_op_ns)) is None


def test_host_time_is_read_from_proc_stat(tmp_path):
    from cryptobench.measure import host_state as hoststate

    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("cpu  100 0 50 800 10 0 0 40 0 0\ncpu0 1 2 3\n")
    b.write_text("cpu  200 0 100 850 10 0 0 80 0 0\n")
    tally = hoststate.HostTally()
    tally.add(hoststate.cpu_times(str(a)), hoststate.cpu_times(str(b)))
    got = tally.summary(cpus=2)
    assert got["steal_pct"] == 16.67 and got["busy_cores"] == 1.25 and got["jiffies"] == 240
    assert hoststate.cpu_times(str(tmp_path / "missing")) is None
    assert hoststate.HostTally().summary() is None
