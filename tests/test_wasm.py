"""OpenSSL compiled to wasm32-wasi (docs/wasm.md) under one engine, Node's WASI: the build
(scripts/wasm/build.sh, cached: seconds when built), its hello (the engine, its version and what
the code gets from the CPU), a bench checksum equal to the native driver's, and `cryptobench verify`
of two algorithms through the real CLI (known answers, then the differential test against the
other providers). Skipped, in one line, when the build is absent (its first build takes minutes:
`.ci/run` makes it before `make test`, so CI always runs these); a build that fails is a failure."""

import json
import re
import subprocess
import sys

import pytest
from conftest import REPO, run_cli

WASM = REPO / "drivers/c/build/wasm/cbdriver-openssl.wasm"
NATIVE_TESTS = REPO / "drivers/c/build/wasm/test_driver.wasm"  # drivers/c/tests/test_driver.c for wasm32-wasi
BUILD = REPO / "scripts/wasm/build.sh"
NODE = ["node", "--no-warnings", str(REPO / "drivers/js/src/wasi_node.mjs"), str(WASM)]
# sha256 of the 1 KiB input pattern at this seed: the native driver's known answer (scripts/openssl/build.sh)
SEED = 2654435769
SHA256_1K = "00000020:fb4898be6151a393"


@pytest.fixture(scope="module")
def built():
    if not WASM.exists():  # the first build takes minutes: a one-off, not the test loop's (.ci/run makes it)
        pytest.skip("wasm build absent: `cryptobench build wasm-openssl` adds it (minutes, once; CI builds it)")
    # cached: the library's stamp matches and make finds the driver up to date (relinked after a checkout)
    res = subprocess.run([str(BUILD)], capture_output=True, text=True, timeout=3600)
    assert res.returncode == 0, f"scripts/wasm/build.sh failed: {res.stderr[-2000:]}"
    assert WASM.is_file()
    return WASM


def _ask(lines: list[dict], provider: str = "wasm:openssl-node") -> list[dict]:
    text = "".join(json.dumps(x) + "\n" for x in lines)
    res = subprocess.run([*NODE, "--provider", provider], input=text, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return [json.loads(line) for line in res.stdout.splitlines()]


def test_hello_names_engine_and_features_and_checksum_is_native(built):
    bench = {"cmd": "bench", "alg": "sha256", "op": "hash", "size": 1024, "chunk": 0, "seed": SEED, "batch": 0,
             "target_ns": 1000000, "warmup_ns": 1000000, "samples": 3}  # fmt: skip
    hello, resp = _ask([{"cmd": "hello", "protocol": 7}, bench])
    assert hello["ok"] and hello["provider"] == "wasm:openssl-node" and hello["language"] == "wasm"
    assert hello["library_version"].startswith("OpenSSL 3.6.3 ")
    assert "node:wasi" in hello["runtime"] and "wasm32-wasi" in hello["runtime"], hello["runtime"]
    notes = " | ".join(hello["notes"])
    assert "engine: node v" in notes and "no AES-NI" in notes, notes
    assert hello["clock"]["source"] == "clock_gettime(CLOCK_MONOTONIC)" and hello["clock"]["resolution_ns"] > 0
    assert "tsc_hz" not in hello["clock"]  # no time-stamp counter in wasm
    assert not any(a.startswith("tls13-") for a in hello["offers"])  # no TLS cells under WASI
    assert {"aes-128-gcm", "aes-128-cbc", "aes-128-ctr", "sha256"} <= set(hello["offers"])
    assert resp["ok"] and resp["checksum"] == SHA256_1K, resp
    assert len(resp["samples_ns"]) == 3 and "samples_tsc" not in resp


def test_an_unknown_provider_is_one_line(built):
    res = subprocess.run([*NODE, "--provider", "c:openssl"], input="", capture_output=True, text=True, timeout=60)
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [
        "unknown provider: c:openssl (this wasm driver serves wasm:openssl-<engine> and browser:openssl-wasm)"
    ]


def test_verify_under_node(built, tmp_path):
    out = tmp_path / "verify.json"
    res = run_cli("verify", "--provider", "wasm:openssl-node", "--alg", "aes-128-gcm,sha256", "--inputs", "20",
                  "--db", tmp_path / "db.sqlite", "--json", out, "--quiet", timeout=600)  # fmt: skip
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["failed"] == 0
    rows = {r["alg"]: r for r in data["results"] if r["provider"] == "wasm:openssl-node"}
    assert set(rows) == {"aes-128-gcm", "sha256"}, data["results"]
    for alg, r in rows.items():
        # known answers (NIST, Wycheproof) and the differential inputs, all agreeing with a witness
        assert r["status"] == "passed" and r["failed"] == 0 and r["passed"] >= 20, (alg, r)
        assert r["differential"]["disagreements"] == 0 and r["differential"]["agreed"] >= 20, (alg, r)


def test_the_native_tests_pass_under_wasmtime(built, tmp_path):
    """drivers/c/tests/test_driver.c (what `make -C drivers/c test-openssl` runs natively) compiled for
    wasm32-wasi against the driver's own objects, run in wasmtime: the fixed input, the vector cases,
    a bench of every symmetric algorithm and of one public-key algorithm per family (all of them take
    minutes in wasm's portable C bignum), bounded streaming in linear memory, the error answers. No
    TLS part (no sockets under WASI). About 12 CPU seconds."""
    res = subprocess.run(["make", "-s", "-C", str(REPO / "drivers/c"), "-f", "wasm.mk", "wasm-test-bin"],
                         capture_output=True, text=True, timeout=600)  # fmt: skip
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    cases = REPO / "build/cases"  # the vector cases every driver's native tests read (setup exports them)
    if not cases.is_dir():
        cases = tmp_path / "cases"
        export = [sys.executable, "-m", "cryptobench.verify.vectors.export", str(cases)]
        subprocess.run(export, cwd=REPO, check=True, capture_output=True, timeout=300)
    run = [sys.executable, str(REPO / "drivers/c/wasm/run_wasmtime.py"), "--dir", str(cases),
           "--env", f"CRYPTOBENCH_CASES={cases}", str(NATIVE_TESTS)]  # fmt: skip
    res = subprocess.run(run, capture_output=True, text=True, timeout=900)
    out = res.stdout
    assert res.returncode == 0, out[-4000:] + res.stderr[-2000:]
    assert out.startswith("provider wasm:openssl, library: OpenSSL 3.6.3 "), out[:300]
    m = re.search(r"^(\d+) passed, 0 failed$", out, re.M)
    assert m and int(m.group(1)) > 1000, out[-2000:]
    assert re.search(r"^vectors aes-128-gcm\s+\d+/\d+ cases pass", out, re.M), out[:3000]
    assert re.search(r"^bounded aes-128-ctr\s+encrypt", out, re.M), out[:3000]  # streamed in linear memory
