"""Cross-verification of public-key algorithms between providers.

Vectors check a provider against published answers; cross-verification checks
that what one provider produces, another accepts: a signature made by A
verifies under B (and a corrupted one does not), a ciphertext encapsulated by
A to B's key decapsulates in B to the same secret (and under a wrong key to a
different one), ECDH shares agree, OAEP ciphertexts decrypt. Every ordered
pair of providers offering the algorithm is tried, so the report can show
the whole matrix; a provider is failed for the algorithm when its products
are refused by the reference provider or it refuses the reference's.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from cryptobench.core import fixed_input
from cryptobench.core.algorithms import get, size_of
from cryptobench.core.errors import DriverError

MESSAGE = fixed_input.message(32).hex()


@dataclass
class CrossRecord:
    alg: str
    producer: str
    consumer: str
    check: str
    passed: bool
    detail: str = ""


# providers asked at once (their key pairs, their signatures, their checks of the others'): separate
# processes, most of whose time is their own library's
AT_ONCE = 4


class _Peer:
    """One provider's driver, seen through the few calls cross-verification needs."""

    def __init__(self, pid: str, request: Callable[[dict], dict]):
        self.pid, self._request = pid, request

    def keypair(self, alg: str) -> dict:
        return self._request({"cmd": "keypair", "alg": alg})

    def case(self, alg: str, op: str, **fields) -> dict:
        resp = self._request({"cmd": "verify", "alg": alg, "cases": [{"id": "x#1", "op": op, **fields}]})
        results = resp.get("results") or [{}]
        return results[0] if isinstance(results[0], dict) else {}


def _flip(hexstr: str) -> str:
    """Flip one bit in the middle: enough to break any signature or ciphertext."""
    b = bytearray.fromhex(hexstr)
    b[len(b) // 2] ^= 0x01
    return b.hex()


def crosscheck(alg: str, peers: dict[str, Callable[[dict], dict]]) -> list[CrossRecord]:
    """Every ordered pair of `peers` (provider id -> request function) offering `alg`."""
    ps = [_Peer(pid, req) for pid, req in peers.items()]
    kind = get(alg).kind
    run = {"sig": _signatures, "kex": _agreement, "kem": _kem, "pke": _oaep, "keygen": _rsa_keys}[kind]
    return run(alg, ps)


def _guard(records: list, alg: str, producer: str, consumer: str, check: str, fn) -> None:
    try:
        ok, detail = fn()
    except (DriverError, KeyError, ValueError, TypeError) as e:
        ok, detail = False, f"{type(e).__name__}: {e}"
    records.append(CrossRecord(alg, producer, consumer, check, ok, detail))


def _each(ps: list[_Peer], fn: Callable[[_Peer], object]) -> dict[str, object]:
    """fn(p) for every peer at once: each asks only its own driver, a process of its own, so a slow
    signer (SLH-DSA's 's' sets take seconds in some libraries) no longer waits for every other."""
    with ThreadPoolExecutor(max_workers=max(1, min(len(ps), AT_ONCE))) as pool:
        return dict(zip([p.pid for p in ps], pool.map(fn, ps), strict=True))


def _keypairs(alg: str, ps: list[_Peer], out: list[CrossRecord]) -> dict[str, dict]:
    """One fresh key pair per provider; a provider that cannot make one is recorded failed."""

    def make(p: _Peer) -> dict | DriverError:
        try:
            return p.keypair(alg)
        except DriverError as e:
            return e

    keys = {}
    for pid, got in _each(ps, make).items():
        if isinstance(got, DriverError):
            out.append(CrossRecord(alg, pid, pid, "make a key pair", False, str(got)))
        else:
            keys[pid] = got
    return keys


def _signatures(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    out: list[CrossRecord] = []

    def sign(p: _Peer) -> tuple | str:
        try:
            kp = p.keypair(alg)
            return kp, p.case(alg, "sign", private=kp["private"], msg=MESSAGE).get("out")
        except (DriverError, KeyError) as e:
            return str(e)

    made = {}
    for pid, got in _each(ps, sign).items():
        if isinstance(got, str):
            out.append(CrossRecord(alg, pid, pid, "make a key pair and a signature", False, got))
        elif got[1]:
            made[pid] = got

    def check(q: _Peer) -> list[CrossRecord]:  # one verifier checks every other provider's signature
        mine: list[CrossRecord] = []
        for pid, (kp, sig) in made.items():
            if pid == q.pid:
                continue

            def verifies(kp=kp, sig=sig):
                r = q.case(alg, "verify", public=kp["public"], msg=MESSAGE, sig=sig)
                return r.get("out") == "01", r.get("error") or ("" if r.get("out") == "01" else "rejected")

            def corrupted_rejected(kp=kp, sig=sig):
                r = q.case(alg, "verify", public=kp["public"], msg=MESSAGE, sig=_flip(sig))
                return bool(r.get("rejected")), "" if r.get("rejected") else "a corrupted signature was accepted"

            _guard(mine, alg, pid, q.pid, "signature verifies", verifies)
            _guard(mine, alg, pid, q.pid, "corrupted signature rejected", corrupted_rejected)
        return mine

    order = {p.pid: i for i, p in enumerate(ps)}
    checked = [r for records in _each(ps, check).values() for r in records]
    return out + sorted(checked, key=lambda r: (order[r.producer], order[r.consumer]))  # producer by producer


def _pairs(ps: list[_Peer], keys: dict) -> list[tuple[_Peer, _Peer]]:
    """Every ordered pair of two peers that both made a key pair: p acts, q answers."""
    return [(p, q) for p in ps for q in ps if q is not p and p.pid in keys and q.pid in keys]


def _agreement(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    out: list[CrossRecord] = []
    keys = _keypairs(alg, ps, out)
    for p, q in _pairs(ps, keys):

        def agree(p=p, q=q):
            a = p.case(alg, "derive", private=keys[p.pid]["private"], public=keys[q.pid]["public"]).get("out")
            b = q.case(alg, "derive", private=keys[q.pid]["private"], public=keys[p.pid]["public"]).get("out")
            return bool(a) and a == b, "" if a and a == b else f"{a} != {b}"

        _guard(out, alg, p.pid, q.pid, "shared secrets agree", agree)
    return out


def _kem(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    out: list[CrossRecord] = []
    keys = _keypairs(alg, ps, out)
    # hex digits of the key encaps ends with: the catalogue's size, or where it fixes none (a declared
    # KEM without sizes) each of the usual 32 and 64 bytes
    fixed = size_of(alg, "shared secret")
    sss = [2 * fixed] if fixed else [64, 128]
    for p, q in _pairs(ps, keys):  # p encapsulates to q's key, q decapsulates

        def same_key(p=p, q=q):
            ct_k = p.case(alg, "encaps", public=keys[q.pid]["public"]).get("out", "")
            for ss in sss:
                ct, k = ct_k[:-ss], ct_k[-ss:]
                got = q.case(alg, "decaps", private=keys[q.pid]["private"], msg=ct).get("out")
                if k and got == k:
                    return True, ""
            return False, f"decapsulated {got} != encapsulated {k}"

        def wrong_key_differs(p=p, q=q):
            # the wrong key is another of q's own: private keys need not be readable across providers
            other = q.keypair(alg)
            ct_k = p.case(alg, "encaps", public=keys[q.pid]["public"]).get("out", "")
            for ss in sss:
                ct, k = ct_k[:-ss], ct_k[-ss:]
                got = q.case(alg, "decaps", private=other["private"], msg=ct)
                if not (got.get("rejected") or got.get("out") not in (None, k)):
                    return False, "a wrong key decapsulated to the same secret"
            return True, ""

        _guard(out, alg, p.pid, q.pid, "decapsulates to the same key", same_key)
        _guard(out, alg, p.pid, q.pid, "wrong key gives another key", wrong_key_differs)
    return out


def _oaep(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    out: list[CrossRecord] = []
    keys = _keypairs(alg, ps, out)
    for p, q in _pairs(ps, keys):

        def decrypts(p=p, q=q):
            ct = p.case(alg, "encrypt", public=keys[q.pid]["public"], msg=MESSAGE).get("out", "")
            got = q.case(alg, "decrypt", private=keys[q.pid]["private"], msg=ct).get("out")
            return got == MESSAGE, "" if got == MESSAGE else f"decrypted to {got}"

        def corrupted_rejected(p=p, q=q):
            ct = p.case(alg, "encrypt", public=keys[q.pid]["public"], msg=MESSAGE).get("out", "")
            r = q.case(alg, "decrypt", private=keys[q.pid]["private"], msg=_flip(ct))
            return bool(r.get("rejected")), "" if r.get("rejected") else "a corrupted ciphertext decrypted"

        _guard(out, alg, p.pid, q.pid, "ciphertext decrypts", decrypts)
        _guard(out, alg, p.pid, q.pid, "corrupted ciphertext rejected", corrupted_rejected)
    return out


def _rsa_keys(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    """A generated RSA key pair is sound when another provider signs with it and it verifies."""
    out: list[CrossRecord] = []
    sig_alg = f"{alg}-pkcs1"
    for p in ps:
        try:
            kp = p.keypair(alg)
        except DriverError as e:
            out.append(CrossRecord(alg, p.pid, p.pid, "make a key pair", False, str(e)))
            continue
        for q in ps:
            if q is p:
                continue

            def usable(q=q, kp=kp):
                sig = q.case(sig_alg, "sign", private=kp["private"], msg=MESSAGE).get("out", "")
                r = q.case(sig_alg, "verify", public=kp["public"], msg=MESSAGE, sig=sig)
                return r.get("out") == "01", r.get("error", "")

            _guard(out, alg, p.pid, q.pid, "key pair signs and verifies", usable)
    return out


def failed_providers(records: list[CrossRecord], reference: str) -> dict[str, str]:
    """Providers whose exchanges with the reference failed: provider -> first failure."""
    bad: dict[str, str] = {}
    for r in records:
        if r.passed:
            continue
        if r.producer == r.consumer:
            bad.setdefault(r.producer, f"{r.check}: {r.detail}")
        elif r.consumer == reference and r.producer != reference:
            bad.setdefault(r.producer, f"{r.check} under {reference} failed: {r.detail}")
        elif r.producer == reference and r.consumer != reference:
            bad.setdefault(r.consumer, f"{r.check} of {reference}'s output failed: {r.detail}")
    return bad
