"""The CAVP/RFC cases from cryptography-vectors are right, and catch a provider that is wrong."""

import hashlib
import hmac

import pytest
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

from cryptobench.verify.vectors import cavp, judge
from cryptobench.verify.vectors.monte import (
    AES_FOLDERS,
    ALGORITHMS,
    aes_chains,
    chain_for,
    describe,
    run_aes_monte,
    run_monte,
)

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


MONTE_IDS = {  # what a failed checkpoint 1 is named by, per source
    ("sha256", "acvp"): "acvp/SHA2-256-1.0#tg2/tc513/resultsArray[1]",
    ("sha512", "acvp"): "acvp/SHA2-512-1.0#tg2/tc1025/resultsArray[1]",
    ("sha3-256", "acvp"): "acvp/SHA3-256-2.0#tg2/tc239/resultsArray[1]",
    ("sha3-512", "acvp"): "acvp/SHA3-512-2.0#tg2/tc175/resultsArray[1]",
    ("sha256", "cavp"): "cryptography-vectors/hashes/SHA2/SHA256Monte.rsp#COUNT=1",
    ("sha512", "cavp"): "cryptography-vectors/hashes/SHA2/SHA512Monte.rsp#COUNT=1",
    ("sha3-256", "cavp"): "cryptography-vectors/hashes/SHA3/SHA3_256Monte.rsp#COUNT=1",
    ("sha3-512", "cavp"): "cryptography-vectors/hashes/SHA3/SHA3_512Monte.rsp#COUNT=1",
}


@pytest.mark.parametrize(("alg", "source"), sorted(MONTE_IDS))
def test_monte_carlo_chains_pass_on_a_right_hash_and_fail_on_a_wrong_one(alg, source):
    """One chain runner, both sources (ACVP's MCT group, CAVP's Monte file): `checkpoints` limits the
    work to 1,000 hashes a checkpoint, and a hash wrong once fails the checkpoint it is in, by name."""
    calls = []

    def right(msg_hex):
        calls.append(1)
        return HASHES[alg](bytes.fromhex(msg_hex)).hexdigest()

    result = run_monte(alg, right, checkpoints=2, sources=(source,))
    assert result.passed and result.checked == 2 and len(calls) == 2000
    assert result.source.startswith(f"NIST {source.upper()} SHA-") and " Monte Carlo (" in result.source

    count = []

    def wrong_once(msg_hex):  # wrong at the 1,500th call: inside the second checkpoint
        count.append(1)
        out = HASHES[alg](bytes.fromhex(msg_hex)).digest()
        return (bytes([out[0] ^ 1]) + out[1:] if len(count) == 1500 else out).hex()

    result = run_monte(alg, wrong_once, checkpoints=3, sources=(source,))
    assert not result.passed and result.first_failed == 1 and result.checked == 2 and len(count) == 2000
    assert result.detail.startswith(f"checkpoint 1 ({MONTE_IDS[(alg, source)]}, after 2,000 hashes): got ")


def test_a_run_takes_acvps_monte_carlo_test_and_cavps_where_acvp_has_none(tmp_path):
    """Both sources hold the same kind of chain; a run takes ACVP's (NIST's current format), and
    CAVP's where the vectors' acvp/ folder has no MCT group (a --vectors DIR with an older copy)."""
    assert chain_for("sha256").name == "NIST ACVP acvp/SHA2-256-1.0#tg2/tc513"
    (tmp_path / "acvp").mkdir()  # <vectors_dir>/acvp without the SHA folders
    assert chain_for("sha256", tmp_path).name == "NIST CAVP hashes/SHA2/SHA256Monte.rsp"
    assert chain_for("sha256", sources=("cavp",)) == chain_for("sha256", tmp_path)
    acvp, cavp_ = chain_for("sha512"), chain_for("sha512", sources=("cavp",))
    assert len(acvp.checkpoints) == len(cavp_.checkpoints) == 100 and acvp.seed != cavp_.seed  # two tests
    assert chain_for("blake2b-512") is None and run_monte("blake2b-512", lambda m: m) is None
    assert describe("sha3-256") == ("1 chain of 100 checkpoints, NIST ACVP acvp/SHA3-256-2.0#tg2/tc239 "
                                    "(NIST CAVP hashes/SHA3/SHA3_256Monte.rsp: not used)")  # fmt: skip


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


def _aes_block(op: str, key: str, iv: str, block: str) -> str:
    """One AES block through `cryptography` (ECB without an IV, CBC with one): the right answers."""
    c = Cipher(algorithms.AES(bytes.fromhex(key)), modes.CBC(bytes.fromhex(iv)) if iv else modes.ECB())
    ctx = c.encryptor() if op == "encrypt" else c.decryptor()
    return (ctx.update(bytes.fromhex(block)) + ctx.finalize()).hex()


@pytest.mark.parametrize("alg", sorted(AES_FOLDERS))
def test_aes_monte_carlo_chains_pass_on_right_blocks_and_fail_on_one_wrong_block(alg):
    """AESAVS's chains from ACVP's MCT groups, both directions: a round is 1,000 blocks whose key, IV,
    input and output must be ACVP's, so the chaining itself (ours) is held to NIST's answers; one
    wrong block fails its round and names the direction, the round and the field."""
    calls: list[tuple] = []

    def right(op, key, iv, block):
        calls.append((op, bool(iv)))
        return _aes_block(op, key, iv, block)

    result = run_aes_monte(alg, right, checkpoints=2)
    assert result.passed and result.checked == 4 and len(calls) == 4000, result.detail
    assert {op for op, _ in calls} == {"encrypt", "decrypt"} and {cbc for _, cbc in calls} == {alg.endswith("cbc")}
    assert result.source.startswith("NIST ACVP AES Monte Carlo (acvp/ACVP-AES-")

    def wrong_once(op, key, iv, block):  # the 1,500th decryption is off by one bit: its second round
        calls.append(op)
        out = _aes_block(op, key, iv, block)
        if op == "decrypt" and calls.count("decrypt") == 1500:
            return f"{int(out[:2], 16) ^ 1:02x}{out[2:]}"
        return out

    calls.clear()
    result = run_aes_monte(alg, wrong_once, checkpoints=3)
    assert not result.passed and result.first_failed == 1 and result.checked == 5  # 3 encrypt, 2 decrypt
    chain = aes_chains(alg)[1]
    assert chain.direction == "decrypt"
    assert result.detail.startswith(f"decrypt round 1 ({chain.id}/resultsArray[1], after 2,000 blocks): pt ")


def test_aes_monte_carlo_covers_exactly_the_algorithms_with_acvp_chains():
    """AES-ECB/CBC at 128 and 256 bits have both directions' chains; other ciphers have none."""
    for alg in AES_FOLDERS:
        chains = aes_chains(alg)
        assert [t.direction for t in chains] == ["encrypt", "decrypt"], alg
        assert {len(t.key) * 4 for t in chains} == {int(alg.split("-")[1])}
        assert describe(alg).startswith("2 chains of checkpoints (encrypt 100, decrypt 100), NIST ACVP acvp/")
    assert aes_chains("aes-128-ctr") == [] and run_aes_monte("aes-128-gcm", _aes_block) is None
    assert set(AES_FOLDERS) <= ALGORITHMS and "sha256" in ALGORITHMS
