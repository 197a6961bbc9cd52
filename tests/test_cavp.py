"""The CAVP/RFC cases from cryptography-vectors are right, and catch a provider that is wrong."""

import hashlib
import hmac

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

from cryptobench.verify.vectors import cavp, judge
from cryptobench.verify.vectors.monte import run_monte

pytestmark = pytest.mark.skipif(cavp.package_dir() is None, reason="cryptography-vectors is not installed")

HASHES = {"sha256": hashlib.sha256, "sha512": hashlib.sha512, "sha3-256": hashlib.sha3_256,
          "sha3-512": hashlib.sha3_512, "blake2b-512": hashlib.blake2b, "blake2s-256": hashlib.blake2s}  # fmt: skip


def reference(alg, case, broken=None):
    """An independent implementation (hashlib, hmac, pyca/cryptography) running one case's fields."""
    f = {k: bytes.fromhex(v) if isinstance(v, str) else v for k, v in case.fields.items()}
    msg = f.get("msg", b"")
    if broken and broken(alg, case, msg):
        return {"out": "00" * 16}
    if alg in HASHES:
        return {"out": HASHES[alg](msg).hexdigest()}
    if alg == "hmac-sha256":
        return {"out": hmac.new(f["key"], msg, hashlib.sha256).hexdigest()}
    aead = {"gcm": AESGCM, "chacha20-poly1305": ChaCha20Poly1305}
    kind = "chacha20-poly1305" if alg == "chacha20-poly1305" else alg.rsplit("-", 1)[-1]
    if kind in aead:
        a = aead[kind](f["key"])
        try:
            if case.op == "seal":
                return {"out": a.encrypt(f["iv"], msg, f.get("aad") or None).hex()}
            return {"out": a.decrypt(f["iv"], msg, f.get("aad") or None).hex()}
        except InvalidTag:
            return {"rejected": True}
    if alg == "chacha20":
        nonce = f["counter"].to_bytes(4, "little") + f["iv"]
        c = Cipher(algorithms.ChaCha20(f["key"], nonce), None)
    else:
        mode = {"ecb": modes.ECB(), "cbc": modes.CBC(f.get("iv", b"")), "ctr": modes.CTR(f.get("iv", b""))}[kind]
        c = Cipher(algorithms.AES(f["key"]), mode)
    ctx = c.encryptor() if case.op == "encrypt" else c.decryptor()
    return {"out": (ctx.update(msg) + ctx.finalize()).hex()}


COUNTS = {  # what the files hold within our contract, per algorithm
    "sha256": 129, "sha512": 257, "sha3-256": 237, "sha3-512": 173, "blake2b-512": 7, "blake2s-256": 7,
    "hmac-sha256": 6, "aes-128-ecb": 588, "aes-256-ecb": 830, "aes-128-cbc": 588, "aes-256-cbc": 830,
    "aes-128-ctr": 6, "aes-256-ctr": 6, "aes-128-gcm": 1304, "aes-256-gcm": 1309, "chacha20": 6,
    "chacha20-poly1305": 141,
}  # fmt: skip


@pytest.mark.parametrize("alg", sorted(COUNTS))
def test_every_case_is_right_by_an_independent_implementation(alg):
    cases = cavp.cavp_cases(alg)
    assert len(cases) == COUNTS[alg]
    assert len({c.id for c in cases}) == len(cases)
    wrong = [(c.id, why) for c in cases if (why := judge(c, reference(alg, c))) is not None]
    assert not wrong, wrong[:3]


def test_a_provider_wrong_only_at_the_padding_boundary_is_caught():
    def boundary(alg, case, msg):
        return 56 <= len(msg) <= 64

    cases = cavp.cavp_cases("sha256")
    caught = [c.id for c in cases if judge(c, reference("sha256", c, boundary)) is not None]
    assert len(caught) == 9  # lengths 56 to 64 are all in SHA256ShortMsg


def test_sm_cases_exist_and_the_counts_name_their_sources():
    assert cavp.source_counts("sm3") == {"OSCCA SM3": 6}
    assert cavp.source_counts("sm4-gcm") == {"RFC 8998": 2}
    assert set(cavp.source_counts("aes-128-cbc")) == {f"NIST CAVP AES CBC {k}" for k in
                                                      ("GFSbox", "KeySbox", "VarKey", "VarTxt", "MMT")}  # fmt: skip


@pytest.mark.parametrize("alg", ["sha256", "sha512", "sha3-256", "sha3-512"])
def test_monte_carlo_chains_pass_on_a_right_hash_and_fail_on_a_wrong_one(alg):
    calls = []

    def right(msg_hex):
        calls.append(1)
        return HASHES[alg](bytes.fromhex(msg_hex)).hexdigest()

    result = run_monte(alg, right, checkpoints=2)
    assert result.passed and result.checked == 2 and len(calls) == 2000

    count = []

    def wrong_once(msg_hex):  # wrong at the 1,500th call: inside the second checkpoint
        count.append(1)
        out = HASHES[alg](bytes.fromhex(msg_hex)).digest()
        return (bytes([out[0] ^ 1]) + out[1:] if len(count) == 1500 else out).hex()

    result = run_monte(alg, wrong_once, checkpoints=2)
    assert not result.passed and result.first_failed == 1


def test_a_monte_carlo_chain_stops_at_the_checkpoint_past_which_it_would_take_too_long():
    """A browser's round trip is tens of ms: 3,000 of them per chain cost the conformance matrix half
    an hour. The chain stops where the next checkpoint would end past its time, and says so."""
    calls = []

    def slow(msg_hex):  # every call "takes" long: the budget of 0 s is spent by the first checkpoint
        calls.append(1)
        return HASHES["sha256"](bytes.fromhex(msg_hex)).hexdigest()

    result = run_monte("sha256", slow, checkpoints=3, seconds=0)
    assert result.passed and result.checked == 1 and len(calls) == 1000
    assert result.detail.startswith("1 of 3 checkpoints:"), result.detail
    assert run_monte("sha256", slow, checkpoints=3).checked == 3  # a quick hash: the whole chain
