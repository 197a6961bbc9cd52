"""The leak check (docs/leak.md): dudect's statistics, the classes, the C driver's `leak` request,
and the controls — a deliberately leaky plugin caught every time, a constant-time one never."""

import dataclasses
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from line_driver import LineDriver

from cryptobench.core.errors import UserError
from cryptobench.drivers.registry import C_HOST, C_PLUGINS, REPO
from cryptobench.leak import ttest
from cryptobench.leak.check import Budget, LeakResult, run_check
from cryptobench.plan import leak_classes as classes

FIXTURE = REPO / "tests" / "fixtures" / "leaky_plugin.c"
OPENSSL_PLUGIN = C_PLUGINS / "libcb_openssl.so"
needs_c = pytest.mark.skipif(not C_HOST.exists(), reason="the generic C driver is not built (make -C drivers/c)")

# The controls' budget: each leak must show within this many measurements, every time. The leaks
# show after 3,000-16,000 (median 3,470); a burst of other work on the host once held one back past
# 60,000 (a fresh clone's CI run; that check's smallest detectable shift was 7.6%, ten times the
# usual), so the positives get headroom: a found leak stops its check, so it costs nothing otherwise.
DETECT_WITHIN = 400_000
# The constant-time control: never flagged in more measurements than any leak needed but that burst.
CONTROL_MEASUREMENTS = 60_000
REPEATS = 10


# --- statistics -----------------------------------------------------------------------------------


def test_welch_t_tells_a_shift_from_noise():
    rng = np.random.default_rng(7)
    a, b = rng.normal(1000, 50, 20_000), rng.normal(1000, 50, 20_000)
    limits = ttest.crop_limits(np.concatenate([a, b])[:4000])
    assert len(limits) == ttest.PERCENTILES and np.all(np.diff(limits) >= 0)
    assert abs(ttest.strongest(a, b, limits).t) < 5
    shifted = ttest.strongest(a, b + 8, limits)  # 8 units on a spread of 50: t about 16 with 20,000 each
    assert abs(shifted.t) > ttest.THRESHOLD


def test_second_order_sees_a_difference_in_spread_only():
    rng = np.random.default_rng(8)
    a, b = rng.normal(1000, 20, 20_000), rng.normal(1000, 40, 20_000)
    found = {t.name: t.t for t in ttest.tests(a, b, ttest.crop_limits(np.concatenate([a, b])))}
    assert abs(found["raw"]) < 5 and abs(found["second order"]) > ttest.THRESHOLD


def test_a_crop_with_too_few_measurements_does_not_count():
    a, b = np.arange(100.0), np.arange(100.0) + 50
    assert ttest.strongest(a, b, ttest.crop_limits(np.concatenate([a, b]))) is None  # under MIN_PER_CLASS
    assert ttest.strongest(a, b, ttest.crop_limits(np.concatenate([a, b])), min_per_class=10) is not None


# --- classes ---------------------------------------------------------------------------------------


def test_classes_per_operation():
    from cryptobench.core.algorithms import get

    names = lambda alg, op: [c.name for c in classes.applicable(get(alg), op)]  # noqa: E731
    assert names("aes-128-gcm", "open") == ["tag"]
    assert names("aes-128-ecb", "encrypt") == ["plaintext", "key"]
    assert names("x25519", "derive") == ["secret", "low-weight"]
    assert names("ed25519", "sign") == ["secret", "input"]
    assert names("rsa-2048-oaep", "decrypt") == ["input", "padding"]
    assert names("ml-kem-768", "decaps") == ["validity"]
    assert names("sha256", "hash") == []
    assert names("hmac-sha256", "mac") == ["key", "mac-tag", "mac-valid", "compare"]
    assert [classes.CLASSES[n].leak_op("mac") for n in ("key", "mac-tag", "compare")] == ["mac", "verify", "compare"]
    assert classes.parse(["tag,key", "tag"]) == ["tag", "key"]
    with pytest.raises(UserError, match="unknown leak class 'nope'"):
        classes.parse(["nope"])


# --- the driver's leak request -------------------------------------------------------------------


def _build_leaky(tmp_path_factory, leak_work: int) -> Path:
    out = tmp_path_factory.mktemp("leaky") / "libcb_leaky.so"
    subprocess.run(["gcc", "-O2", "-std=c11", "-fPIC", "-shared", "-fvisibility=hidden", f"-I{REPO / 'include'}",
                    f"-DLEAK_WORK={leak_work}", "-o", out, FIXTURE, "-lcrypto"], check=True)  # fmt: skip
    return out


@pytest.fixture(scope="session")  # once per pytest worker: these tests spread (tests/conftest.py)
def leaky(tmp_path_factory):
    """The controls as shipped: a leak of a few percent of the call, what the check must find."""
    return _build_leaky(tmp_path_factory, 8)


@pytest.fixture(scope="session")
def loud_leaky(tmp_path_factory):
    """Eight times the leak, for the tests of the commands (what they report, store and exit with):
    the few-percent leak is not found in 5 s on a CI machine at load 7 (|t| 8.7 after 155,807)."""
    return _build_leaky(tmp_path_factory, 64)


class Driver(LineDriver):
    def __init__(self, *argv):
        super().__init__([str(C_HOST), *map(str, argv)])
        # the leak request is version 5; a driver answers the highest version it speaks (7 with TLS cells)
        assert self.ask({"cmd": "hello", "protocol": 5})["protocol"] >= 5


@pytest.fixture(scope="session")  # once per pytest worker: these tests spread (tests/conftest.py)
def leaky_driver(leaky):
    d = Driver("--plugin", leaky)
    yield d
    d.close()


@needs_c
def test_leak_request_times_each_call_and_says_how_each_input_ended(leaky_driver):
    key, iv = "00" * 16, "11" * 12
    sealed = leaky_driver.ask({"cmd": "verify", "alg": "aes-128-gcm",
                               "cases": [{"id": 0, "op": "seal", "key": key, "iv": iv, "msg": "22" * 32}]})  # fmt: skip
    ct = sealed["results"][0]["out"]
    forged = ct[:-2] + ("00" if ct[-2:] != "00" else "01")
    resp = leaky_driver.ask({"cmd": "leak", "alg": "aes-128-gcm", "op": "open", "order": [0, 1, 1, 0, 1],
                             "inputs": [{"key": key, "iv": iv, "msg": ct}, {"key": key, "iv": iv, "msg": forged}]})  # fmt: skip
    assert resp["ok"] and resp["counter"] in ("tsc", "clock")
    assert len(resp["times"]) == 5 and all(isinstance(t, int) and t > 0 for t in resp["times"])
    assert resp["outcomes"] == ["ok", "rejected"]


@needs_c
@pytest.mark.parametrize("req, said", [
    ({"alg": "aes-128-gcm", "op": "open", "inputs": [], "order": []}, "non-empty"),
    ({"alg": "aes-128-gcm", "op": "open", "inputs": [{"key": "00" * 16, "iv": "00" * 12, "msg": "00" * 20}],
      "order": [1]}, "order[0] is not an index"),
    ({"alg": "sha256", "op": "hash", "inputs": [{"msg": ""}], "order": [0]}, "not offered"),
    ({"alg": "aes-128-gcm", "op": "open", "inputs": [{"key": "0", "iv": "", "msg": ""}], "order": [0]}, "input 0"),
    ({"alg": "hmac-sha256", "op": "compare", "inputs": [{"msg": "00", "sig": "0000"}], "order": [0]},
     "input 0: msg and sig differ in length"),
    ({"alg": "aes-128-gcm", "op": "compare", "inputs": [{"msg": "00", "sig": "00"}], "order": [0]}, "not offered"),
])  # fmt: skip
def test_leak_request_errors_are_one_line_and_the_driver_stays_usable(leaky_driver, req, said):
    resp = leaky_driver.ask({"cmd": "leak", **req})
    assert not resp["ok"] and said in resp["error"] and "\n" not in resp["error"]
    assert leaky_driver.ask({"cmd": "hello", "protocol": 5})["ok"]


# --- controls ----------------------------------------------------------------------------------------


@needs_c
@pytest.mark.timing  # its power is measured timing: a repeat timed beside CI's compilers (load 7) saw only noise
@pytest.mark.parametrize("alg, op, size, name", [("aes-128-gcm", "open", 64, "tag"),
                                                ("aes-128-ecb", "encrypt", 16, "plaintext"),
                                                ("hmac-sha256", "mac", 64, "mac-tag"),  # HMAC + its early exit
                                                ("hmac-sha256", "mac", 64, "compare")])  # fmt: skip
def test_a_leaky_provider_is_caught_every_time(leaky_driver, alg, op, size, name):
    found = [run_check(leaky_driver.ask, "plugin:leaky", alg, op, size, name,
                       Budget(seconds=30, measurements=DETECT_WITHIN), seed=i) for i in range(REPEATS)]  # fmt: skip
    assert [r.status for r in found] == ["leak"] * REPEATS, [r.verdict() for r in found]
    assert all(r.detected_after <= DETECT_WITHIN for r in found)


@needs_c
def test_the_constant_time_control_is_not_flagged(leaky_driver):
    found = [run_check(leaky_driver.ask, "plugin:leaky", "aes-256-gcm", "open", 64, "tag",
                       Budget(seconds=30, measurements=CONTROL_MEASUREMENTS), seed=i) for i in range(REPEATS)]  # fmt: skip
    assert [r.status for r in found] == ["no leak detected"] * REPEATS, [r.verdict() for r in found]
    assert all(r.measurements >= CONTROL_MEASUREMENTS - 1000 for r in found)  # as many as a leak needed to show


@needs_c
@pytest.mark.parametrize("name", ["mac-tag", "compare"])
def test_openssl_crypto_memcmp_is_not_flagged(openssl_driver, name):
    """The negative control of MAC verify and compare: OpenSSL's CRYPTO_memcmp, which the driver
    finds as the fixture's early-exit one is found (the positives above)."""
    found = [run_check(openssl_driver.ask, "c:openssl", "hmac-sha256", "mac", 64, name,
                       Budget(seconds=30, measurements=CONTROL_MEASUREMENTS), seed=i) for i in range(3)]  # fmt: skip
    assert [r.status for r in found] == ["no leak detected"] * 3, [r.verdict() for r in found]
    assert {r.op for r in found} == {"verify" if name == "mac-tag" else "compare"}


@needs_c
def test_a_forged_tag_that_is_accepted_voids_the_check(leaky_driver, monkeypatch):
    """Inputs that do not do what their class says (here: a 'forged' tag that is the real one) fail the check."""
    real = classes._tag

    def unforged(src, a, op, size, rng):
        built = real(src, a, op, size, rng)
        sealed = src.outputs([{"op": "seal", "key": built.inputs[0]["key"], "iv": built.inputs[0]["iv"],
                               "msg": "33" * size}])  # fmt: skip
        good = {**built.inputs[0], "msg": sealed[0].hex()}
        return classes.Inputs([good, *built.inputs[1:]], built.members, built.expect)

    monkeypatch.setitem(classes.CLASSES, "tag", dataclasses.replace(classes.CLASSES["tag"], build=unforged))
    res = run_check(leaky_driver.ask, "plugin:leaky", "aes-128-gcm", "open", 64, "tag", Budget(seconds=5), seed=1)
    assert res.status == "failed" and "expected 'rejected'" in res.detail


# --- the command -------------------------------------------------------------------------------------


@needs_c
def test_leak_command_reports_stores_and_exits_1_on_a_leak(tmp_path, loud_leaky):
    out, md = tmp_path / "leak.json", tmp_path / "leak.md"
    res = run_cli("leak", "--plugin", loud_leaky, "--provider", "plugin:leaky", "--alg", "aes-128-gcm,aes-256-gcm",
                  "--class", "tag", "--seconds", "5", "--measurements", "400000", "--db", tmp_path / "l.db",
                  "--json", out, "--md", md, "--quiet")  # fmt: skip
    assert res.returncode == 1, res.stderr
    got = {r["alg"]: r for r in json.loads(out.read_text())["leak"]}
    said = {a: (r["status"], r.get("detail")) for a, r in got.items()}
    assert got["aes-128-gcm"]["status"] == "leak" and got["aes-256-gcm"]["status"] == "no leak detected", said
    assert len(got["aes-128-gcm"]["histogram"]["a"]) == 40
    assert "leak: \\|t\\|" in md.read_text() and "no leak detected in" in md.read_text()
    shown = run_cli("show", "latest", "--db", tmp_path / "l.db", "--format", "md")
    assert shown.returncode == 0 and "## Leak checks" in shown.stdout


@needs_c
def test_an_algorithm_the_named_provider_lacks_is_said_in_its_row(tmp_path, leaky):
    """Named by the user and absent from the provider: a `not offered` row, not an empty table."""
    out = tmp_path / "l.json"
    res = run_cli("leak", "--plugin", leaky, "--provider", "plugin:leaky", "--alg", "aes-128-ccm", "--class", "tag",
                  "--seconds", "1", "--db", tmp_path / "l.db", "--json", out, "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    [row] = json.loads(out.read_text())["leak"]
    assert (row["status"], row["detail"]) == ("not offered", "plugin:leaky does not offer aes-128-ccm")


@pytest.mark.parametrize("args, said", [
    (["--class", "nope"], "unknown leak class 'nope'"),
    (["--alg", "sha256"], "no leak check applies"),
    (["--seconds", "-1"], "--seconds"),
    (["--target-effect", "0"], "--target-effect must be a percentage"),
    (["--target-effect", "nan%"], "--target-effect must be a percentage"),
    (["--target-effect", "100"], "--target-effect must be a percentage"),
])  # fmt: skip
def test_leak_command_refuses_bad_input_in_one_line(tmp_path, args, said):
    res = run_cli("leak", "--db", tmp_path / "l.db", "--quiet", *args)
    assert res.returncode == 2 and said in res.stderr and len(res.stderr.strip().splitlines()) == 1, res.stderr


def test_which_cells_the_runner_refuses_to_check_and_why():
    """A driver speaking protocol 4 has no leak request; a provider failing its vectors is not checked;
    an unverified one (too few cases) is, as it is timed."""
    from cryptobench.core.cell import CellSpec
    from cryptobench.drivers.registry import Registry
    from cryptobench.run.driver_pool import DriverPool
    from cryptobench.run.phases import unleakable
    from cryptobench.run.verifier import Verdict
    from cryptobench.store.model import VerifyRecord

    spec = CellSpec("aes-128-gcm", "open", 64, 0, ("old", "new"))
    pool = DriverPool(Registry(), 1.0)
    pool.drivers = {"old": object(), "new": object()}
    pool.hellos = {"old": {"protocol": 4}, "new": {"protocol": 5}}

    def verdict(pid: str, status: str, detail: str = "") -> Verdict:
        return Verdict(VerifyRecord(pid, spec.alg, status, detail=detail), spec.algorithm, ["open"])

    assert unleakable(pool, verdict("old", "passed"), "old") == (
        "not offered", "the driver speaks protocol 4; the leak request is version 5")  # fmt: skip
    assert unleakable(pool, verdict("new", "unverified"), "new") is None
    assert unleakable(pool, verdict("new", "failed", "vector x#1: wrong"), "new") == (
        "failed", "not verified: vector x#1: wrong")  # fmt: skip
    assert unleakable(pool, None, "new") == ("failed", "not verified: no verification")
    pool.broken["gone"] = "driver failed to start: boom"
    assert unleakable(pool, None, "gone") == ("failed", "driver failed to start: boom")


@needs_c
def test_run_with_leak_measures_then_checks_the_same_cells(tmp_path, leaky):
    out = tmp_path / "run.json"
    res = run_cli("run", "--plugin", leaky, "--provider", "plugin:leaky", "--alg", "aes-128-ecb", "--size", "16B",
                  "--leak", "--time-per-cell", "0.1", "--db", tmp_path / "r.db", "--json", out, "--quiet")  # fmt: skip
    assert res.returncode == 1, res.stderr  # the fixture leaks: a leak found fails the run, as `leak` does
    assert res.stderr.rstrip().endswith("exit 1") and "2 leaks found" in res.stderr
    doc = json.loads(out.read_text())
    assert {c["op"] for c in doc["cells"] if c["status"] == "ok"} == {"encrypt"}  # the fixture has no decrypt
    found = {(r["op"], r["leak_class"]): r["status"] for r in doc["leak"]}
    assert found == {("encrypt", "plaintext"): "leak", ("encrypt", "key"): "leak"}
    assert "Leak checks" in res.stdout


@pytest.mark.parametrize("value, said", [('["tag", "secret"]', None), ("true", None), ('["nope"]', "unknown leak class"),
                                         ("3", "leak must be true or a list")])  # fmt: skip
def test_suite_key_leak(tmp_path, value, said):
    from cryptobench.plan.suites import load_suite

    p = tmp_path / "s.toml"
    p.write_text(f'name = "s"\nsizes = ["64B"]\nleak = {value}\n[[group]]\nalgs = ["aes-128-gcm"]\n')
    if said is None:
        s = load_suite(str(p))
        assert s.leak and s.leak_classes == ([] if value == "true" else ["tag", "secret"])
    else:
        with pytest.raises(UserError, match=said):
            load_suite(str(p))


# --- detection limit and --target-effect (issue 29) ---------------------------------------------------


def test_needed_and_smallest_effect_are_the_t_scaling():
    """|t| ≈ (d/σ)·√(N/4): N = 4·(T·σ/d)² measurements for a shift d, d = 2·T·σ/√N for N."""
    assert ttest.needed(50.0, 1.0, 10.0) == 1_000_000
    assert ttest.needed(50.0, 100.0, 10.0) == 2 * ttest.MIN_PER_CLASS  # no test counts with fewer
    assert ttest.smallest_effect(50.0, 1_000_000, 10.0) == pytest.approx(1.0)
    assert ttest.smallest_effect(32.0, ttest.needed(32.0, 7.8, 10.0), 10.0) == pytest.approx(7.8, rel=1e-3)


def test_the_spread_a_shift_meets_predicts_the_t_it_gets():
    """On normal timings the spread is σ, and a real shift of d gets the t the formula says."""
    rng = np.random.default_rng(9)
    a, b = rng.normal(1000, 50, 40_000), rng.normal(1000, 50, 40_000)
    limits = ttest.crop_limits(np.concatenate([a, b])[:490])
    sigma = ttest.Crops(a, b, limits).spread(2.0)
    assert sigma == pytest.approx(50, rel=0.1)
    predicted = 2.0 / sigma * np.sqrt(80_000 / 4)  # about 5.7
    assert abs(ttest.strongest(a, b + 2.0, limits).t) == pytest.approx(predicted, abs=2.5)


def test_a_stepped_timer_sees_a_shift_smaller_than_its_step_as_a_few_slower_calls():
    """TSC in 26-tick steps: a 0.05-tick shift moves 0.2% of calls one step, past the tight crops
    that a smooth shift would seem to move whole (0.0069% of 780 ticks was claimed visible)."""
    rng = np.random.default_rng(10)
    x = 754 + 26 * rng.choice(4, 200_000, p=[0.3, 0.45, 0.15, 0.1]).astype(float)
    limits = ttest.crop_limits(x[:490])
    crops = ttest.Crops(x[:100_000], x[100_000:], limits)
    assert ttest.timer_step(x) == 26
    sigma = crops.spread(0.05)
    assert sigma is not None and sigma > 10  # the calls' real spread (about 23 ticks), not a rounding's


def test_crops_from_running_sums_equal_the_masked_tests():
    rng = np.random.default_rng(11)
    x = 754 + 26 * np.floor(rng.gamma(1.5, 2, 30_000))
    x[rng.random(30_000) < 0.01] += 1e6
    a, b = x[:15_000], x[15_000:] + 26 * (rng.random(15_000) < 0.3)
    limits = ttest.crop_limits(x[:490])
    for got, lim in zip(ttest.tests(a, b, limits)[1:-1], limits, strict=True):
        ca, cb = a[a < lim], b[b < lim]
        assert got.least == min(len(ca), len(cb)) and got.t == pytest.approx(ttest.welch_t(ca, cb), abs=1e-9)


@pytest.fixture(scope="session")  # once per pytest worker: these tests spread (tests/conftest.py)
def openssl_driver():
    d = Driver("--plugin", OPENSSL_PLUGIN)
    yield d
    d.close()


@needs_c
def test_the_padding_class_pairs_valid_ciphertexts_with_refused_ones(openssl_driver):
    """RSA-OAEP: class A the provider's own ciphertexts (decrypted), class B the same with one bit
    flipped (every one refused by the library, or the check would be void)."""
    import random

    from cryptobench.core.algorithms import get
    from cryptobench.leak.check import _check_outcomes
    from cryptobench.plan.leak_classes import Source

    inputs = classes.CLASSES["padding"].build(Source(openssl_driver.ask, "rsa-2048-oaep"), get("rsa-2048-oaep"),
                                              "decrypt", 32, random.Random(3))  # fmt: skip
    a, b = inputs.members
    assert len(a) == len(b) == classes.POOL and inputs.expect == ("ok", "rejected")
    for i, j in zip(a, b, strict=True):  # the same ciphertext, one bit apart, in its lower half
        x, y = bytes.fromhex(inputs.inputs[i]["msg"]), bytes.fromhex(inputs.inputs[j]["msg"])
        diff = [k for k in range(len(x)) if x[k] != y[k]]
        assert len(diff) == 1 and diff[0] >= len(x) // 2 and bin(x[diff[0]] ^ y[diff[0]]).count("1") == 1
    order = a[:8] + b[:8]
    resp = openssl_driver.ask({"cmd": "leak", "alg": "rsa-2048-oaep", "op": "decrypt", "inputs": inputs.inputs,
                               "order": order})  # fmt: skip
    assert resp["ok"] and len(resp["times"]) == 16, resp
    assert _check_outcomes(inputs, order, resp["outcomes"]) is None


@needs_c
def test_a_check_says_the_smallest_effect_it_could_have_found(openssl_driver):
    res = run_check(openssl_driver.ask, "c:openssl", "aes-128-gcm", "open", 64, "tag", Budget(seconds=1), seed=1)
    assert res.status == "no leak detected" and 0 < res.detection_limit < 100
    assert res.verdict().endswith(f"(smallest it could find: {res.detection_limit:.2g}%)")


@needs_c
def test_a_target_effect_the_cap_stops_short_of_is_not_ruled_out(openssl_driver):
    res = run_check(openssl_driver.ask, "c:openssl", "aes-128-gcm", "open", 64, "tag",
                    Budget(seconds=20, measurements=3000, target_effect=0.01), seed=1)  # fmt: skip
    assert res.status == "no leak detected" and res.target_reached is False
    assert res.measurements <= 3000 < res.needed
    assert f"in {res.measurements:,} measurements: too few to rule out a 0.01% effect (needs ~{res.needed:,}" in (
        res.verdict()
    )
    old = {k: v for k, v in res.record().items() if k not in ("target_effect", "needed", "target_reached",
                                                               "detection_limit")}  # fmt: skip
    assert LeakResult.from_record(old).verdict() == f"no leak detected in {res.measurements:,} measurements"
    assert LeakResult.from_record(res.record()).verdict() == res.verdict()


@needs_c
def test_leak_command_with_a_target_effect_measures_until_it_would_show(tmp_path):
    out = tmp_path / "leak.json"
    res = run_cli("leak", "--provider", "c:openssl", "--alg", "aes-128-gcm", "--class", "tag", "--size", "64B",
                  "--target-effect", "1%", "--db", tmp_path / "l.db", "--json", out, "--format", "md", "--quiet")  # fmt: skip
    assert res.returncode == 0, res.stderr
    (got,) = json.loads(out.read_text())["leak"]
    assert got["status"] == "no leak detected" and got["target_effect"] == 1.0 and got["target_reached"] is True
    assert got["needed"] <= got["measurements"] < 4 * got["needed"] + 50_000  # stopped there, not at a budget
    assert got["seconds"] < 60 and got["detection_limit"] <= 1.05
    assert "no leak ≥ 1% detected in" in res.stdout and "enough to find one of that size at \\|t\\| > 10" in res.stdout
