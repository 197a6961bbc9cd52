"""One small bench request per provider/symmetric algorithm/op through the request handler, streamed
cells with bounded memory, errors that leave the driver usable, and the protocol spoken to a real
driver process. Public-key cells are in test_pk.py."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESCCM, AESGCM, ChaCha20Poly1305

from cbdriver import PROVIDERS, inputs, load_provider, protocol
from cbdriver.ops_base import BLOCK, IV_LEN, KEY_LEN
from cbdriver.ops_hashlib import HASHES as HASHLIB  # algorithm -> hashlib constructor name
from cbdriver.pk_cryptography import SCHEMES

DRIVER_DIR = Path(__file__).resolve().parents[1]  # drivers/python, the driver's PYTHONPATH
SEED = 2654435769


def key_for(alg: str) -> bytes:
    return bytes(range(1, 1 + KEY_LEN.get(alg, 32 if alg == "hmac-sha256" else 0)))


def iv_for(alg: str) -> bytes:
    return bytes(range(0xA0, 0xA0 + IV_LEN.get(alg, 0)))


def reference(alg: str, op: str, key: bytes, iv: bytes, msg: bytes) -> bytes:
    """The output of one operation computed with plain one-shot calls, independent of the driver's cells."""
    if op == "noop":
        return b""
    if op == "hash" and alg == "sm3":  # hashlib has no SM3 with every OpenSSL
        h = hashes.Hash(hashes.SM3())
        h.update(msg)
        return h.finalize()
    if op == "hash":
        return hashlib.new(HASHLIB[alg], msg).digest()
    if op == "mac":
        return hmac.digest(key, msg, "sha256")
    if op in ("decrypt", "open"):
        return msg  # the driver decrypts/opens its own encryption of the fixed input
    if op == "seal" and alg == "sm4-gcm":
        ctx = Cipher(algorithms.SM4(key), modes.GCM(iv)).encryptor()
        return ctx.update(msg) + ctx.finalize() + ctx.tag
    if op == "seal":
        aead = {"gcm": AESGCM, "ccm": lambda k: AESCCM(k, 16), "poly1305": ChaCha20Poly1305}[
            alg.split("-")[-1]
        ]
        return aead(key).encrypt(iv, msg, None)
    if alg == "chacha20":
        cipher = Cipher(algorithms.ChaCha20(key, bytes(4) + iv), None)
    else:
        mode = {"ecb": lambda _: modes.ECB(), "cbc": modes.CBC, "ctr": modes.CTR}[alg.split("-")[-1]]
        block_cipher = algorithms.SM4 if alg.startswith("sm4") else algorithms.AES
        cipher = Cipher(block_cipher(key), mode(iv))
    ctx = cipher.encryptor()
    return ctx.update(msg) + ctx.finalize()


def bench_request(alg: str, op: str, size: int, chunk: int = 0, **over) -> dict:
    req = {
        "cmd": "bench",
        "alg": alg,
        "op": op,
        "size": size,
        "chunk": chunk,
        "key": key_for(alg).hex(),
        "iv": iv_for(alg).hex(),
        "seed": SEED,
        "batch": 0,
        "target_ns": 100_000,
        "warmup_ns": 200_000,
        "samples": 3,
    }
    req.update(over)
    return req


CELLS = [
    (pid, alg, op, size, chunk)
    for pid in sorted(PROVIDERS)
    for alg, ops in load_provider(pid).offers.items()
    # public key: test_pk.py, test_reference.py, test_pqcrypto.py
    if alg not in SCHEMES and not alg.startswith(("slh-dsa-", "hqc-"))
    for op in ops
    for size, chunk in (
        [(0 if alg == "noop" else 64, 0), (0, 0)]
        + ([] if alg not in load_provider(pid).stream else [(160, 48)] if alg in BLOCK else [(100, 33)])
    )
]


@pytest.mark.parametrize(("provider_id", "alg", "op", "size", "chunk"), CELLS)
def test_bench_cell(provider_id, alg, op, size, chunk):
    provider = load_provider(provider_id)
    resp = protocol.handle(provider, bench_request(alg, op, size, chunk))
    assert resp["ok"], resp
    assert len(resp["samples_ns"]) == 3 and all(isinstance(s, int) and s >= 0 for s in resp["samples_ns"])
    assert resp["batch"] > 0
    msg = inputs.message(SEED, size)
    expected = reference(alg, op, key_for(alg), iv_for(alg), msg)
    assert resp["checksum"] == inputs.checksum(expected) == resp["checksum_after"]
    assert resp["warmup"]["ns"] >= 200_000 and resp["warmup"]["ops"] > 0
    assert resp["warmup"]["calibration_ops"] == 2 * resp["batch"] - 1  # batch 1, 2, 4, ...
    assert isinstance(resp["sink"], int) and resp["peak_rss_kb"] > 0
    json.dumps(resp, allow_nan=False)  # encodable as a protocol line


@pytest.mark.parametrize(("provider_id", "alg", "op", "size", "chunk"), CELLS)
def test_sink_folds_the_first_output_byte(provider_id, alg, op, size, chunk):
    provider = load_provider(provider_id)
    # a fixed odd batch: the XOR of 3 samples of 3 identical first bytes is that byte
    resp = protocol.handle(provider, bench_request(alg, op, size, chunk, batch=3, warmup_ns=0))
    assert resp["ok"], resp
    assert resp["batch"] == 3
    expected = reference(alg, op, key_for(alg), iv_for(alg), inputs.message(SEED, size))
    assert resp["sink"] == (expected[0] if expected else 0)


# every provider but the reference one (python:ref: SLH-DSA only, test_reference.py) offers sha256
HASHING = [pid for pid in sorted(PROVIDERS) if "sha256" in load_provider(pid).offers]


@pytest.mark.parametrize("provider_id", HASHING)
def test_sha256_check_value(provider_id):
    resp = protocol.handle(load_provider(provider_id), bench_request("sha256", "hash", 1024, batch=1))
    assert resp["checksum"] == "00000020:fb4898be6151a393"


def test_large_message_wraps_the_pattern():
    size = (1 << 20) + 100
    resp = protocol.handle(load_provider("python:hashlib"), bench_request("sha256", "hash", size, batch=1))
    assert resp["ok"], resp
    assert resp["checksum"] == inputs.checksum(hashlib.sha256(inputs.message(SEED, size)).digest())


ERRORS = [
    ("python:cryptography", {"alg": "xchacha20-poly1305", "op": "seal"}, "not offered"),
    ("python:cryptography", {"alg": "ml-kem-768", "op": "encaps"}, "not offered"),
    ("python:cryptography", {"alg": "ed25519", "op": "sign", "chunk": 16}, "streaming"),
    ("python:cryptography", {"alg": "ecdh-p256", "op": "keygen"}, "not offered"),
    (
        "python:cryptography",
        {"alg": "rsa-2048-oaep", "op": "encrypt", "size": 191},
        "not offered at this size",
    ),
    (
        "python:cryptography",
        {"alg": "sha256", "op": "hash", "size": 4 << 20, "chunk": (1 << 20) + 1},
        "1 MiB",
    ),
    ("python:hashlib", {"alg": "aes-128-gcm", "op": "seal"}, "not offered"),
    ("python:cryptography", {"op": "mac"}, "not offered"),
    ("python:cryptography", {"alg": "aes-128-ecb", "op": "encrypt", "size": 17}, "multiple of 16"),
    ("python:cryptography", {"alg": "aes-256-cbc", "op": "decrypt", "size": 40}, "multiple of 16"),
    ("python:cryptography", {"alg": "aes-128-ccm", "op": "seal", "chunk": 16}, "streaming"),
    ("python:cryptography", {"alg": "chacha20-poly1305", "op": "open", "chunk": 16}, "streaming"),
    ("python:cryptography", {"alg": "noop", "op": "noop", "chunk": 16}, "streaming"),
    (
        "python:cryptography",
        {"alg": "aes-128-cbc", "op": "encrypt", "chunk": 20},
        "not offered: aes-128-cbc is streamed in whole 16-byte blocks",
    ),
    ("python:cryptography", {"alg": "aes-128-gcm", "op": "seal", "key": "zz" * 16}, "key"),
    ("python:cryptography", {"alg": "aes-128-gcm", "op": "seal", "key": "abc"}, "key"),
    ("python:cryptography", {"alg": "aes-128-gcm", "op": "seal", "key": "00" * 15}, "16 bytes"),
    ("python:cryptography", {"alg": "aes-256-ctr", "op": "encrypt", "key": "00" * 16}, "32 bytes"),
    ("python:cryptography", {"alg": "aes-128-gcm", "op": "seal", "iv": "00" * 16}, "12 bytes"),
    ("python:cryptography", {"alg": "chacha20", "op": "encrypt", "iv": "00" * 16}, "12 bytes"),
    ("python:hashlib", {"seed": 0}, "seed"),
    ("python:hashlib", {"seed": 1 << 32}, "seed"),
    ("python:hashlib", {"size": -1}, "size"),
    ("python:hashlib", {"samples": "3"}, "samples"),
    ("python:hashlib", {"batch": 0, "target_ns": "5"}, "target_ns"),  # absent: 5 ms (protocol.md)
]


@pytest.mark.parametrize(("provider_id", "over", "needle"), ERRORS)
def test_bench_errors_are_one_line(provider_id, over, needle):
    provider = load_provider(provider_id)
    req = bench_request(over.get("alg", "sha256"), over.get("op", "hash"), 64)
    req.update({k: v for k, v in over.items() if v is not None})
    for k in [k for k, v in over.items() if v is None]:
        del req[k]
    resp = protocol.handle(provider, req)
    assert resp["ok"] is False
    assert needle in resp["error"] and "\n" not in resp["error"]
    # the driver stays usable
    assert protocol.handle(provider, bench_request("sha256", "hash", 64, batch=1))["ok"]


def test_open_with_a_bad_tag_is_a_bench_error(monkeypatch):
    provider = load_provider("python:cryptography")
    real = AESGCM.encrypt

    def corrupt(self, nonce, data, aad):
        out = bytearray(real(self, nonce, data, aad))
        out[-1] ^= 1
        return bytes(out)

    monkeypatch.setattr(AESGCM, "encrypt", corrupt)  # the cell seals its ciphertext with AESGCM.encrypt
    resp = protocol.handle(provider, bench_request("aes-128-gcm", "open", 64, batch=1))
    assert resp == {"ok": False, "error": "InvalidTag"}


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("not json", "cannot parse"),
        ("[1, 2]", "JSON object"),
        ('{"cmd": "dance"}', "unknown cmd"),
        ("", "parse"),
    ],
)
def test_bad_lines(line, needle):
    text, stop = protocol.respond(load_provider("python:hashlib"), line)
    resp = json.loads(text)
    assert resp["ok"] is False and needle in resp["error"] and not stop


def test_hello(provider):
    resp = protocol.handle(provider, {"cmd": "hello", "protocol": 2})
    assert (
        resp["ok"] and resp["protocol"] == protocol.PROTOCOL_VERSION == 5 and resp["provider"] == provider.id
    )
    assert resp["language"] == "python" and resp["clock"]["resolution_ns"] > 0
    assert resp["clock"]["probe_reads"] == 20000
    assert set(resp["stream"]) <= set(resp["offers"]) and resp["offers"]["noop"] == ["noop"]
    # python:ref is pure Python, python:pqcrypto Rust: neither links OpenSSL
    assert "OpenSSL" in resp["library_version"] or provider.id in ("python:ref", "python:pqcrypto")
    # any requested version >= 1 is accepted and answered with the highest this driver implements
    for asked in (1, 3, 99):
        assert protocol.handle(provider, {"cmd": "hello", "protocol": asked})["protocol"] == 5
    for bad in (0, -1, "2", 2.0, True, None):
        assert protocol.handle(provider, {"cmd": "hello", "protocol": bad})["ok"] is False


def test_hmac_uses_a_prepared_key(provider, monkeypatch):
    """The key is set up once per cell: no keyed constructor runs inside the timed operation."""
    if "hmac-sha256" not in provider.offers:
        pytest.skip(f"{provider.id} offers no HMAC")
    import hmac as std_hmac

    from cryptography.hazmat.primitives import hmac as c_hmac

    made = []
    real_std, real_c = std_hmac.new, c_hmac.HMAC
    monkeypatch.setattr(std_hmac, "new", lambda *a, **k: made.append(1) or real_std(*a, **k))
    monkeypatch.setattr(c_hmac, "HMAC", lambda *a, **k: made.append(1) or real_c(*a, **k))
    resp = protocol.handle(provider, bench_request("hmac-sha256", "mac", 64, batch=50, samples=4))
    assert resp["ok"], resp
    assert len(made) == 1  # one keyed object for the cell; 200 timed tags and the checksum copy it
    assert "prepared key" in " ".join(provider.notes())


def test_peak_rss_is_this_process_high_water_mark():
    with open("/proc/self/status") as f:
        hwm = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    assert abs(protocol.peak_rss_kb() - hwm) < 4096  # the same figure, give or take this test's allocations


STREAMS = [
    ("python:hashlib", "sha256", "hash", (3 << 20) + 5, 4096),
    ("python:hashlib", "hmac-sha256", "mac", (1 << 20) * 2 + 1, 65536),
    ("python:cryptography", "sha256", "hash", (1 << 20) + 100, 1 << 20),
    ("python:cryptography", "hmac-sha256", "mac", 5000, 7),
    ("python:cryptography", "aes-128-ctr", "encrypt", (3 << 20) + 5, 16),  # 196k pieces: cycled
    ("python:cryptography", "aes-128-ctr", "decrypt", (2 << 20) + 7, 4096),
    ("python:cryptography", "aes-256-cbc", "encrypt", (1 << 20) + 4096, 48),
    ("python:cryptography", "chacha20", "encrypt", (2 << 20) + 3, 17),  # odd chunk: sliced lazily
    ("python:cryptography", "sm4-ctr", "decrypt", 100_000, 1000),
    ("python:cryptography", "aes-128-gcm", "seal", (2 << 20) + 9, 65536),
    ("python:cryptography", "aes-256-gcm", "open", (1 << 20) + 9, 333),
    ("python:cryptography", "sm4-gcm", "seal", 50_000, 4096),
    ("python:cryptography", "sm4-gcm", "open", 50_000, 4096),
]


@pytest.mark.parametrize(("provider_id", "alg", "op", "size", "chunk"), STREAMS)
def test_streamed_cells_over_the_period(provider_id, alg, op, size, chunk):
    """Messages longer than the 1 MiB period, odd chunks: the checksum covers the whole output."""
    resp = protocol.handle(
        load_provider(provider_id), bench_request(alg, op, size, chunk, batch=1, samples=1)
    )
    assert resp["ok"], resp
    expected = reference(alg, op, key_for(alg), iv_for(alg), inputs.message(SEED, size))
    assert resp["checksum"] == inputs.checksum(expected)


def test_hashlib_notes_name_what_runs_each_hash():
    notes = " ".join(load_provider("python:hashlib").notes())
    assert "_blake2" in notes or "blake2b-512" in notes
    assert "OpenSSL" in notes


def driver(provider_id: str, stdin: str, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(DRIVER_DIR)}
    return subprocess.run(
        [sys.executable, "-m", "cbdriver", "--provider", provider_id],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


@pytest.mark.parametrize("provider_id", HASHING)
def test_subprocess_speaks_the_protocol(provider_id):
    requests = [
        json.dumps({"cmd": "hello", "protocol": 2}),
        json.dumps(bench_request("sha256", "hash", 1024)),
        "{this is not json",
        json.dumps({"cmd": "bye"}),
        json.dumps({"cmd": "hello", "protocol": 1}),  # after bye: never answered
    ]
    proc = driver(provider_id, "\n".join(requests) + "\n")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == 4, proc.stdout
    hello, bench, bad, bye = (json.loads(line) for line in lines)
    assert hello["ok"] and hello["provider"] == provider_id and hello["protocol"] == 5
    assert bench["ok"] and bench["checksum"] == "00000020:fb4898be6151a393" and len(bench["samples_ns"]) == 3
    assert bad["ok"] is False and bad["error"]
    assert bye == {"ok": True}


def test_subprocess_end_of_input_means_bye():
    proc = driver("python:hashlib", json.dumps({"cmd": "hello", "protocol": 1}) + "\n")
    assert proc.returncode == 0 and len(proc.stdout.splitlines()) == 1


def test_subprocess_unknown_provider():
    proc = driver("python:nope", "")
    assert proc.returncode == 2
    assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("provider_id", "alg", "op", "size"),
    [
        # 64 MiB: a message held whole would be over the 60 MiB bound by itself (192 MiB tripled the time)
        ("python:hashlib", "sha256", "hash", 64 << 20),
        ("python:cryptography", "sha512", "hash", 64 << 20),
        ("python:cryptography", "hmac-sha256", "mac", 64 << 20),
        ("python:cryptography", "aes-128-gcm", "seal", 32 << 20),  # the checksum reads every output byte
    ],
)
def test_streamed_cells_never_hold_the_message(provider_id, alg, op, size):
    """A large streamed message in a fresh driver process: the peak RSS stays below the message size."""
    req = bench_request(alg, op, size, 1 << 16, batch=1, samples=1, warmup_ns=0)
    proc = driver(provider_id, json.dumps(req) + "\n", timeout=120)
    resp = json.loads(proc.stdout)
    assert resp["ok"], resp
    if op != "seal":  # a digest: cheap to check
        expected = reference(alg, op, key_for(alg), b"", inputs.message(SEED, size))
        assert resp["checksum"] == inputs.checksum(expected)
    assert resp["peak_rss_kb"] < 60 * 1024, resp[
        "peak_rss_kb"
    ]  # about 35 MB: pattern, interpreter, libraries


def test_a_chunk_the_mode_cannot_take_is_not_offered_not_a_failure():
    """The orchestrator records an error that starts "not offered" as not offered, anything else as failed."""
    req = bench_request("aes-128-cbc", "encrypt", 64)
    req["chunk"] = 1
    resp = protocol.handle(load_provider("python:cryptography"), req)
    assert resp["ok"] is False and resp["error"].startswith("not offered: "), resp["error"]


@pytest.mark.parametrize("alg", ["aes-128-ecb", "aes-128-cbc", "aes-256-ctr", "chacha20"])
def test_one_shot_cipher_cells_do_not_allocate_their_output_per_operation(alg):
    """A fresh 1 MiB output per operation made glibc fault its pages in every time (AES-ECB at
    1 MiB: 750 MB/s instead of 6.9 GB/s); the cell writes into one buffer made when it is built."""
    import tracemalloc

    from cbdriver.ops_base import CellSpec

    size = 1 << 20
    spec = CellSpec(alg, "encrypt", size, 0, key_for(alg), iv_for(alg), SEED, msg=bytes(size))
    cell = load_provider("python:cryptography").cell(spec)
    cell.call()  # anything made on first use
    tracemalloc.start()
    for _ in range(3):
        cell.call()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 64 * 1024, f"{alg}: {peak} bytes allocated during three operations on 1 MiB"


@pytest.mark.parametrize("provider_id", sorted(PROVIDERS))
def test_check_values_of_the_measurement_loop(provider_id):
    """docs/protocol.md § The measurement loop: the check values every driver reproduces."""
    provider = load_provider(provider_id)
    noop = {"alg": "noop", "op": "noop", "size": 0, "chunk": 0, "warmup_ns": 0, "samples": 3}
    resp = protocol.handle(provider, bench_request(**noop, target_ns=0))
    assert (resp["batch"], resp["warmup"]["ops"], resp["warmup"]["calibration_ops"]) == (1, 1, 1)
    assert resp["checksum"] == resp["checksum_after"] == "00000000:cbf29ce484222325"
    resp = protocol.handle(provider, bench_request(**{**noop, "samples": 5}, batch=7))
    assert resp["batch"] == 7 and len(resp["samples_ns"]) == 5 and "calibration_ops" not in resp["warmup"]


@pytest.mark.parametrize("provider_id", sorted(PROVIDERS))
def test_what_is_not_offered_says_so(provider_id):
    provider = load_provider(provider_id)
    for req in (bench_request("no-such-alg", "hash", 64, 0), bench_request("noop", "no-such-op", 0, 0)):
        resp = protocol.handle(provider, req)
        assert resp["ok"] is False and resp["error"].startswith("not offered:"), resp


@pytest.mark.parametrize(
    ("alg", "op"), [("aes-128-gcm", "open"), ("aes-128-ctr", "decrypt"), ("aes-128-cbc", "decrypt")]
)
def test_a_big_streamed_decryption_regenerates_its_ciphertext_off_the_clock(monkeypatch, alg, op):
    """Above REGENERATE_ABOVE (lowered here) the ciphertext is made again per piece: same output
    as the reference, and the time that took is subtracted (docs/protocol.md, "With chunk > 0")."""
    from cbdriver import ops_cryptography, timing

    taken = []
    real_take = timing.Untimed.take

    def take(self):
        ns = real_take(self)
        taken.append(ns)
        return ns

    monkeypatch.setattr(ops_cryptography, "REGENERATE_ABOVE", 100)
    monkeypatch.setattr(timing.Untimed, "take", take)
    provider = load_provider("python:cryptography")
    resp = protocol.handle(provider, bench_request(alg, op, 4096, 1024, batch=2))
    assert resp["ok"], resp
    expected = reference(alg, op, key_for(alg), iv_for(alg), inputs.message(SEED, 4096))
    assert resp["checksum"] == inputs.checksum(expected) == resp["checksum_after"]
    assert any(ns > 0 for ns in taken)  # regeneration time was measured and handed to the loop


def test_leak_times_each_prepared_operation_and_reports_refusals():
    """The `leak` request (protocol 5): one call timed per order entry; a forged tag is 'rejected'."""
    provider = load_provider("python:cryptography")
    key, iv = bytes(16), bytes(12)
    ct = AESGCM(key).encrypt(iv, b"x" * 32, b"")
    forged = ct[:-1] + bytes([ct[-1] ^ 1])
    inputs_ = [{"key": key.hex(), "iv": iv.hex(), "msg": m.hex()} for m in (ct, forged)]
    resp = protocol.handle(provider, {"cmd": "leak", "alg": "aes-128-gcm", "op": "open", "inputs": inputs_,
                                      "order": [1, 0, 1]})  # fmt: skip
    assert resp["ok"] and resp["counter"] == "clock" and len(resp["times"]) == 3
    assert all(t > 0 for t in resp["times"]) and resp["outcomes"] == ["ok", "rejected"]
    bad = protocol.handle(provider, {"cmd": "leak", "alg": "aes-128-gcm", "op": "open", "inputs": inputs_,
                                     "order": [2]})  # fmt: skip
    assert not bad["ok"] and "order[0]" in bad["error"]
    req = {"cmd": "leak", "alg": "sha256", "op": "hash", "inputs": [{"msg": ""}], "order": [0]}
    hashlib_ = protocol.handle(load_provider("python:hashlib"), req)
    assert not hashlib_["ok"] and hashlib_["error"].startswith("not offered")


def test_leak_says_which_measurement_failed():
    """A call that fails other than by refusing its input ends the request, naming the measurement
    (as the C, Go and JavaScript drivers do)."""
    from cbdriver import timing

    class Refused(Exception):
        pass

    def refuse():
        raise Refused

    def broken():
        raise ValueError("library fault")

    times, refused = timing.time_each([lambda: b"", refuse], Refused)
    assert refused == [False, True] and len(times) == 2
    with pytest.raises(RuntimeError, match="^measurement 2: library fault$"):
        timing.time_each([lambda: b"", refuse, broken], Refused)


def test_samples_carry_the_counter_read_beside_the_clock():
    """x86-64: the helper `cryptobench build python` makes is there, and every sample carries the TSC's
    ticks at one steady rate (docs/protocol.md, bench: samples_tsc); elsewhere none are sent."""
    import platform

    from cbdriver import tsc

    provider = load_provider("python:hashlib")
    resp = protocol.handle(provider, {"cmd": "bench", "alg": "noop", "op": "noop", "size": 0, "seed": 1,
                                      "batch": 0, "target_ns": 2_000_000, "samples": 5})  # fmt: skip
    assert resp["ok"], resp
    if platform.machine() != "x86_64":
        assert "samples_tsc" not in resp
        return
    assert tsc.HELPER.exists() and tsc.now is not None, f"{tsc.HELPER} not built (cryptobench build python)"
    rates = [t / ns for t, ns in zip(resp["samples_tsc"], resp["samples_ns"], strict=True)]
    assert len(rates) == 5 and 0.1 < min(rates) and max(rates) < 20 and max(rates) / min(rates) < 1.02, rates
