"""`plugin check` a library author can trust (issue 29): real C plugins with one fault each
(tests/fixtures/broken_plugin.c) are caught by every rule `run` enforces, and the last line says
what failed, by algorithm; exit 1. `--alg` narrows it, `--timeout` bounds the wait for hello too."""

import json
import time

import pytest
from conftest import run_cli
from test_c_plugins import build_fault

from cryptobench.drivers.registry import C_HOST, REPO

SOURCE = REPO / "tests" / "fixtures" / "broken_plugin.c"

pytestmark = pytest.mark.skipif(not C_HOST.exists(), reason="the generic C driver is not built (make -C drivers/c)")


def broken(tmp_path, mode: str):
    return build_fault(tmp_path, mode, SOURCE, "broken")


def check(tmp_path, so, *extra):
    """`plugin check` of a plugin: (the result, its last line of output)."""
    res = run_cli("plugin", "check", so, "--db", tmp_path / "c.db", "--timeout", "30", *extra)
    lines = res.stdout.strip().splitlines()
    return res, lines[-1] if lines else ""


def test_the_fixture_without_a_fault_passes(tmp_path):
    """The control: the same plugin, faultless, passes every check, so what the others catch is their fault."""
    res, last = check(tmp_path, broken(tmp_path, "good"))
    assert res.returncode == 0, res.stdout + res.stderr
    assert last == "plugin:broken  ok: 3 algorithms verified, driver rules kept", res.stdout


@pytest.mark.parametrize(
    "mode, alg, said",
    [
        # state carried between operations: right on a fresh cell (every vector, every differential
        # input), wrong from the second operation on: only the output after the samples shows it
        ("carriediv", "aes-128-cbc", "encrypt of 64 B: output after the samples differs from the first: state carried"),
        # a forged tag answered CB_FAIL, not CB_REJECTED: the expectation is named, not only the case
        ("failtag", "aes-128-gcm", "vector wycheproof/aes_gcm_test.json#41/open: expected: rejected (invalid tag); "
                                   "got: error: tag mismatch"),
        # a 20-byte digest begins like the right one: the lengths say what is wrong
        ("short", "sha256", "(20 bytes) differs from expected ba7816bf8f01cfea414140de5dae2223... (32 bytes)"),
        # a crash on one case: the case is found by replaying, and named
        ("crash33", "sha256", "vector cryptography-vectors/hashes/SHA2/SHA256ShortMsg.rsp#33: driver crashed (SIGABRT) "
                              "on this case alone"),
    ],
)  # fmt: skip
def test_a_broken_plugin_fails_check_and_the_last_line_names_what(tmp_path, mode, alg, said):
    res, last = check(tmp_path, broken(tmp_path, mode))
    assert res.returncode == 1, res.stdout + res.stderr
    assert "Traceback" not in res.stdout + res.stderr
    assert last.startswith(f"plugin:broken  FAILED: {alg} (") and said in last, last
    others = {"sha256", "aes-128-cbc", "aes-128-gcm"} - {alg}
    assert not any(f"{a} (" in last for a in others), last  # the faultless algorithms are not blamed


def test_alg_checks_only_those_and_refuses_a_glob_matching_nothing(tmp_path):
    so = broken(tmp_path, "carriediv")
    t0 = time.monotonic()
    res, last = check(tmp_path, so, "--alg", "aes-*-cbc")
    assert res.returncode == 1 and "checking aes-128-cbc\n" in res.stdout, res.stdout + res.stderr
    assert last.startswith("plugin:broken  FAILED: aes-128-cbc (") and "sha256" not in res.stdout, res.stdout
    assert time.monotonic() - t0 < 60
    res, last = check(tmp_path, so, "--alg", "sha256", "--alg", "aes-128-gcm")  # repeated: they add up
    assert res.returncode == 0 and "checking sha256, aes-128-gcm\n" in res.stdout, res.stdout + res.stderr
    assert last == "plugin:broken  ok: 2 algorithms verified, driver rules kept", last
    res, _ = check(tmp_path, so, "--alg", "sha256,sha512")
    assert res.returncode == 2 and res.stdout == "", res.stdout
    assert res.stderr == (
        "cryptobench: error: --alg 'sha512' matches nothing plugin:broken offers (sha256, aes-128-cbc, aes-128-gcm)\n"
    )


def test_timeout_bounds_the_wait_for_hello(tmp_path):
    """A plugin whose init takes 20 s: `--timeout 2` gives up on loading it and its hello after 2 s, in one line."""
    so = broken(tmp_path, "slowinit")
    t0 = time.monotonic()
    res = run_cli("plugin", "check", so, "--db", tmp_path / "c.db", "--timeout", "2")
    took = time.monotonic() - t0
    assert res.returncode == 2 and took < 12, (took, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "libcb_broken_slowinit.so: loading it took over 2 s" in lines[0], res.stderr


# --- depends on engineers E (one provider's failure never demotes another) and F (run's exit status)


@pytest.mark.parametrize(
    "mode, alg", [("carriediv", "aes-128-cbc"), ("failtag", "aes-128-gcm"), ("short", "sha256"), ("crash33", "sha256")]
)
def test_run_beside_openssl_exits_1_and_openssl_stays_passed(tmp_path, mode, alg):
    out = tmp_path / "r.json"
    res = run_cli("run", "--plugin", broken(tmp_path, mode), "--alg", alg, "--size", "64", "--time-per-cell", "0.2",
                  "--timeout", "30", "--db", tmp_path / "r.db", "--json", out, "--quiet")  # fmt: skip
    assert res.returncode == 1, res.stdout + res.stderr
    doc = json.loads(out.read_text())
    mine = [c for c in doc["cells"] if c["provider"] == "plugin:broken"]
    assert mine and all(c["status"] == "failed" for c in mine), mine
    theirs = [c for c in doc["cells"] if c["provider"] == "c:openssl"]
    assert theirs and all(c["status"] == "ok" for c in theirs), theirs
    verified = {v["alg"]: v["status"] for v in doc["verification"] if v["provider"] == "c:openssl"}
    assert verified == {alg: "passed"}, doc["verification"]
