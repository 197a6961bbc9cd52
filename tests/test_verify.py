"""`cryptobench verify` fails providers that are wrong in one narrow place, and `run` never times them."""

import json
import os
import sys

import pytest
from conftest import REPO, run_cli

from cryptobench.store import open_store

BROKEN = {  # mode -> (algorithm it breaks, what the report must show of the input)
    "len-56-64": ("sha256", "SHA256ShortMsg.rsp#"),
    "stream-7": ("sha256", "in 7-byte pieces"),
    "key-ff": ("hmac-sha256", "hmac_sha256_test.json#"),  # Wycheproof has a key starting 0xff
    "empty-tag": ("aes-128-gcm", ""),
}


@pytest.fixture
def broken_file(tmp_path):
    lines = []
    for mode in ["correct", "correct", *BROKEN]:
        pid = f"test:{mode}" if mode != "correct" else f"test:correct-{len(lines)}"
        lines += ["[[provider]]", f'id = "{pid}"',
                  f'command = ["{sys.executable}", "{REPO}/tests/fake_broken.py", "--mode", "{mode}"]', ""]  # fmt: skip
    p = tmp_path / "broken.toml"
    p.write_text("\n".join(lines))
    return p


def test_verify_fails_each_narrow_bug_with_the_input_that_shows_it(tmp_path, broken_file):
    out = tmp_path / "v.json"
    res = run_cli("verify", "--providers-file", broken_file, "--provider", "test:*", "--alg",
                  "sha256,hmac-sha256,aes-128-gcm", "--inputs", "120", "--monte", "1", "--db", tmp_path / "v.db",
                  "--json", out, "--md", tmp_path / "v.md", "--html", tmp_path / "v.html", "--quiet",
                  timeout=300)  # fmt: skip
    assert res.returncode == 1, res.stderr  # a provider failed: a library's CI sees it
    assert "Traceback" not in res.stderr
    results = {(r["provider"], r["alg"]): r for r in json.loads(out.read_text())["results"]}
    for mode, (alg, shows) in BROKEN.items():
        r = results[(f"test:{mode}", alg)]
        assert r["status"] == "failed", (mode, r)
        assert shows in r["detail"], (mode, r["detail"])
        others = [v for (p, a), v in results.items() if p == f"test:{mode}" and a != alg]
        assert all(v["status"] == "passed" for v in others), (mode, others)  # wrong in one place only
    for p in ("test:correct-0", "test:correct-4"):
        assert all(results[(p, a)]["status"] == "passed" for a in ("sha256", "hmac-sha256", "aes-128-gcm"))
    stream = results[("test:stream-7", "sha256")]["differential"]["smallest"]
    assert stream["replay"].startswith("cryptobench verify --provider test:stream-7 --alg sha256 --replay 'op=hash,")
    assert "chunk=7" in stream["input"]
    md = (tmp_path / "v.md").read_text()
    assert "## Conformance matrix" in md and "✗" in md and "--replay" in md
    assert "<table>" in (tmp_path / "v.html").read_text()
    # the replay command shows the disagreement again, provider by provider
    replay = run_cli("verify", "--providers-file", broken_file, "--provider", "test:stream-7,test:correct-0",
                     "--alg", "sha256", "--replay", stream["input"])  # fmt: skip
    assert replay.returncode == 1 and "test:stream-7" in replay.stdout, replay.stderr


def test_run_never_times_a_provider_that_failed_verification(tmp_path, broken_file):
    res = run_cli("run", "--providers-file", broken_file, "--provider", "test:*", "--alg", "sha256,hmac-sha256",
                  "--size", "64", "--db", tmp_path / "r.db", "--json", tmp_path / "r.json", "--time-per-cell",
                  "0.05", "--passes", "1", "--quiet", timeout=300)  # fmt: skip
    assert res.returncode == 1, res.stderr  # the failed providers' cells are failed cells
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("cryptobench: 3 cells failed (test:len-56-64 sha256 hash 64 B, "), last
    cells = {(c["provider"], c["alg"]): c for c in json.loads((tmp_path / "r.json").read_text())["cells"]}
    for mode in ("len-56-64", "stream-7", "key-ff"):
        alg = BROKEN[mode][0]
        c = cells[(f"test:{mode}", alg)]
        assert c["status"] == "failed" and not c["samples_ns"], c
    assert cells[("test:correct-0", "sha256")]["status"] == "ok"


def test_a_provider_alone_is_corroborated_by_a_witness_or_unverified_and_gets_no_verdict(tmp_path):
    """Alone, a provider's differential inputs agree with nobody in the run: an independent built-in
    provider answers them as a witness (docs/verification.md). With none allowed, it is unverified,
    timed, never compared, and the record says why."""
    pf = tmp_path / "one.toml"
    pf.write_text(f'[[provider]]\nid = "test:alone"\ncommand = ["{sys.executable}", "{REPO}/tests/fake_broken.py"]\n')

    def run_alone(name, **env):
        res = run_cli("run", "--providers-file", pf, "--provider", "test:alone", "--alg", "hmac-sha256", "--size",
                      "64", "--db", tmp_path / f"{name}.db", "--json", tmp_path / f"{name}.json", "--time-per-cell",
                      "0.05", "--passes", "1", "--quiet", "--baseline", "test:alone",
                      env={**os.environ, **env})  # fmt: skip
        assert res.returncode == 0, res.stderr
        return json.loads((tmp_path / f"{name}.json").read_text())

    [v] = run_alone("witnessed")["verification"]
    assert v["status"] == "passed", v
    [stored] = open_store(str(tmp_path / "witnessed.db")).load_run(1)[1]  # the record names the witness
    assert stored.conformance["differential"]["witnesses"] == ["witness (not measured): rust:rustcrypto"]
    doc = run_alone("alone", CRYPTOBENCH_WITNESSES="")
    [v] = doc["verification"]
    # Wycheproof and RFC 4231 give it many HMAC answers, but nobody corroborates the boundary lengths
    # the published sets lack
    assert v["status"] == "unverified" and v["detail"].startswith("unverified ("), v
    assert v["detail"].endswith("no second implementation of hmac-sha256 corroborates lengths 63, 64, 65, 129: "
                                "CRYPTOBENCH_WITNESSES names none"), v["detail"]  # fmt: skip
    [cell] = doc["cells"]
    assert cell["status"] == "ok" and cell["vs_baseline"] is None  # timed, never compared


def test_sigterm_during_the_differential_ends_verify_at_once_and_keeps_what_it_found(tmp_path, broken_file):
    """The differential runs on worker threads; a signal must not wait for every input to be answered.
    hmac-sha256: a random key makes every one of the 100,000 inputs distinct (an unkeyed hash runs
    out of distinct (length, seed) inputs after ~2,200, done within the second this test waits)."""
    import signal
    import sqlite3
    import subprocess
    import time

    db = tmp_path / "v.db"
    proc = subprocess.Popen([sys.executable, "-m", "cryptobench", "verify", "--providers-file", broken_file,
                             "--provider", "test:correct-0,test:correct-4", "--alg", "hmac-sha256", "--inputs", "100000",
                             "--db", db], cwd=REPO, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 60
    err = ""
    while "[differential" not in err and time.monotonic() < deadline:  # progress lines come unbuffered
        err += proc.stderr.readline()
    assert "[differential" in err, err
    time.sleep(1)
    proc.send_signal(signal.SIGTERM)
    t0 = time.monotonic()
    _out, rest = proc.communicate(timeout=60)
    assert time.monotonic() - t0 < 10 and proc.returncode == 130, rest  # 100,000 inputs would take minutes
    assert "Traceback" not in rest and "keeps what was verified so far" in rest
    con = sqlite3.connect(db)
    assert con.execute("SELECT status FROM runs").fetchall() == [("interrupted",)]
    assert {r[0] for r in con.execute("SELECT status FROM verifications")} == {"passed"}  # the known answers


JAVA_JAR = REPO / "drivers" / "java" / "target" / "cbdriver-java.jar"


@pytest.mark.skipif(not JAVA_JAR.exists(), reason="the Java driver is not built (make setup builds it)")
@pytest.mark.parametrize("provider", ["java:bouncycastle", "java:bouncycastle-lw"])
def test_chacha20_poly1305_sealed_in_small_pieces_equals_one_shot(tmp_path, provider):
    """BouncyCastle holds back a 64-byte block and appends the tag at doFinal: a driver's stream buffer
    of a piece plus 64 bytes overflowed (found by the pq suite's differential inputs)."""
    inputs = "size=63,seed=2654435769,key=12a0cc6667ad31ce886258562c05650824d4318bfcab21203796e024791c2b5c,iv=0a10b876dfd80234f3fe4a44"  # noqa: E501
    outs = []
    for chunk in (0, 6):
        res = run_cli("verify", "--provider", provider, "--alg", "chacha20-poly1305", "--db", tmp_path / "v.db",
                      "--replay", f"op=seal,chunk={chunk},{inputs}", timeout=120)  # fmt: skip
        assert res.returncode == 0, res.stdout + res.stderr
        outs.append(res.stdout.strip().splitlines()[-1].split()[-1])
    assert outs[0] == outs[1] and outs[0].startswith("0000004f:"), outs  # 63 bytes and the 16-byte tag


def test_a_named_provider_that_cannot_run_is_said_once(tmp_path, providers_file, sha_suite):
    """An unbuilt (here: missing) driver named with --provider: one line saying so and how to get it,
    not one from the command and another from the driver pool; the others are verified."""
    pf = tmp_path / "more.toml"
    pf.write_text(
        providers_file.read_text() + '\n[[provider]]\nid = "test:missing"\ncommand = ["/nonexistent/cbdriver"]\n'
    )
    res = run_cli("verify", "--suite", sha_suite, "--providers-file", pf, "--provider", "test:missing,test:good",
                  "--db", tmp_path / "v.db")  # fmt: skip
    said = [line for line in res.stderr.splitlines() if "/nonexistent/cbdriver" in line]
    assert said == ["cryptobench: test:missing: command '/nonexistent/cbdriver' not found; measuring the others"], (
        res.stderr
    )
    assert "test:good" in res.stdout
