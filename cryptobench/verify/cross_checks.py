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
from dataclasses import dataclass

from cryptobench.core import fixed_input
from cryptobench.core.algorithms import get, size_of
from cryptobench.core.errors import DriverError
from cryptobench.verify import witness
from cryptobench.verify.schedule import at_once

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
# processes, most of whose time is their own library's; in a run, how many of them work at once is
# bounded by schedule.DRIVERS_AT_ONCE, so a slow signer at the head of the queue holds up no other
AT_ONCE = 16


class _Peer:
    """One provider's driver, seen through the few calls cross-verification needs."""

    def __init__(self, pid: str, request: Callable[[dict], dict]):
        self.pid, self._request = pid, request

    def keypair(self, alg: str) -> dict:
        return self._request({"cmd": "keypair", "alg": alg})

    def case(self, alg: str, op: str, **fields) -> dict:
        return _result(self._request(_one_case(alg, op, fields)))

    def cases(self, alg: str, asked: list[tuple[str, dict]]) -> list[dict | DriverError]:
        """Many (op, fields) cases, one request each, pipelined when the requester can (a driver's
        round trips, tens of ms through a browser, no longer add up pair after pair)."""
        msgs = [_one_case(alg, op, fields) for op, fields in asked]
        many = getattr(self._request, "many", None)
        if many is None:
            got = []
            for m in msgs:
                try:
                    got.append(self._request(m))
                except DriverError as e:
                    got.append(e)
        else:
            got = many(msgs)
        return [r if isinstance(r, DriverError) else _result(r) for r in got]


def _one_case(alg: str, op: str, fields: dict) -> dict:
    return {"cmd": "verify", "alg": alg, "cases": [{"id": "x#1", "op": op, **fields}]}


def _result(resp: dict) -> dict:
    results = resp.get("results") or [{}]
    return results[0] if isinstance(results[0], dict) else {}


def _out(got: dict | DriverError | None) -> str:
    """A case's output, or "" (an error, a refusal, nothing asked): what a failed check shows."""
    return (got.get("out") or "") if isinstance(got, dict) else ""


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
    return dict(zip([p.pid for p in ps], at_once(ps, fn, AT_ONCE), strict=True))


def _keypairs(alg: str, ps: list[_Peer], out: list[CrossRecord]) -> dict[str, dict]:
    """One fresh key pair per provider; a provider that cannot make one is recorded failed."""

    def make(p: _Peer) -> dict | str:
        try:
            kp = p.keypair(alg)
        except DriverError as e:
            return str(e)
        if not all(isinstance(kp.get(k), str) for k in ("public", "private")):
            return "the key pair has no public and private key in hex"
        return kp

    keys = {}
    for pid, got in _each(ps, make).items():
        if isinstance(got, str):
            out.append(CrossRecord(alg, pid, pid, "make a key pair", False, got))
        else:
            keys[pid] = got
    return keys


def _answer(r: dict | DriverError) -> dict:
    if isinstance(r, DriverError):
        raise r  # recorded by _guard, as a request raising it would have been
    return r


def _signatures(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    out: list[CrossRecord] = []

    def sign(p: _Peer) -> tuple | str:
        try:
            kp = p.keypair(alg)
            sig = p.case(alg, "sign", private=kp["private"], msg=MESSAGE).get("out")
            return kp, sig, _flip(sig) if isinstance(sig, str) and sig else ""
        except (DriverError, KeyError, ValueError) as e:
            return str(e)

    made = {}
    for pid, got in _each(ps, sign).items():
        if isinstance(got, str):
            out.append(CrossRecord(alg, pid, pid, "make a key pair and a signature", False, got))
        elif got[1]:
            made[pid] = got

    def check(q: _Peer) -> list[CrossRecord]:  # one verifier checks every other provider's signature
        others = [(pid, kp, sig, bad) for pid, (kp, sig, bad) in made.items() if pid != q.pid]
        asked = [("verify", {"public": kp["public"], "msg": MESSAGE, "sig": s}) for _, kp, sig, bad in others
                 for s in (sig, bad)]  # fmt: skip
        got = q.cases(alg, asked)
        mine: list[CrossRecord] = []
        for i, (pid, *_) in enumerate(others):

            def verifies(r=got[2 * i]):
                r = _answer(r)
                return r.get("out") == "01", r.get("error") or ("" if r.get("out") == "01" else "rejected")

            def corrupted_rejected(r=got[2 * i + 1]):
                r = _answer(r)
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


def _toward_each(ps: list[_Peer], keys: dict, alg: str, ask) -> dict[tuple[str, str], list]:
    """(p, q) -> p's answers to ask(p, q) (a list of (op, fields) cases): every provider asks its own
    driver everything it has to do toward every other provider in one pipelined go, all at once."""
    live = [p for p in ps if p.pid in keys]

    def mine(p: _Peer) -> dict[tuple[str, str], list]:
        todo = [(q, ask(p, q)) for q in live if q is not p]
        got = p.cases(alg, [case for _, cases in todo for case in cases])
        out, i = {}, 0
        for q, cases in todo:
            out[(p.pid, q.pid)], i = got[i : i + len(cases)], i + len(cases)
        return out

    return {k: v for part in _each(live, mine).values() for k, v in part.items()}


def _agreement(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    out: list[CrossRecord] = []
    keys = _keypairs(alg, ps, out)
    derived = _toward_each(ps, keys, alg, lambda p, q: [
        ("derive", {"private": keys[p.pid]["private"], "public": keys[q.pid]["public"]})])  # fmt: skip
    for p, q in _pairs(ps, keys):

        def agree(p=p, q=q):
            a = _answer(derived[(p.pid, q.pid)][0]).get("out")
            b = _answer(derived[(q.pid, p.pid)][0]).get("out")
            return bool(a) and a == b, "" if a and a == b else f"{a} != {b}"

        _guard(out, alg, p.pid, q.pid, "shared secrets agree", agree)
    return out


def _kem(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    out: list[CrossRecord] = []
    keys = _keypairs(alg, ps, out)
    # the wrong key is another of q's own: private keys need not be readable across providers
    wrong = _keypairs(alg, [p for p in ps if p.pid in keys], out)
    keys = {pid: kp for pid, kp in keys.items() if pid in wrong}
    # hex digits of the key encaps ends with: the catalogue's size, or where it fixes none (a declared
    # KEM without sizes) each of the usual 32 and 64 bytes
    fixed = size_of(alg, "shared secret")
    sss = [2 * fixed] if fixed else [64, 128]
    # p encapsulates twice to q's key: one for q to decapsulate, one for q's other key
    sent = _toward_each(ps, keys, alg, lambda p, q: [("encaps", {"public": keys[q.pid]["public"]})] * 2)

    def split(ct_k: str) -> list[tuple[str, str]]:
        return [(ct_k[:-ss], ct_k[-ss:]) for ss in sss]

    def decaps(q: _Peer, p: _Peer) -> list:
        right, other = (_out(r) for r in sent[(p.pid, q.pid)])
        return [("decaps", {"private": keys[q.pid]["private"], "msg": ct}) for ct, _ in split(right)] + [
            ("decaps", {"private": wrong[q.pid]["private"], "msg": ct}) for ct, _ in split(other)]  # fmt: skip

    opened = _toward_each(ps, keys, alg, decaps)  # (q, p): q's decapsulations of p's ciphertexts
    for p, q in _pairs(ps, keys):
        encs, decs = sent[(p.pid, q.pid)], opened[(q.pid, p.pid)]

        def same_key(encs=encs, decs=decs):
            got = k = None
            for (_, k), r in zip(split(_out(_answer(encs[0]))), decs[: len(sss)], strict=True):
                got = _answer(r).get("out")
                if k and got == k:
                    return True, ""
            return False, f"decapsulated {got} != encapsulated {k}"

        def wrong_key_differs(encs=encs, decs=decs):
            for (_, k), r in zip(split(_out(_answer(encs[1]))), decs[len(sss) :], strict=True):
                got = _answer(r)
                if not (got.get("rejected") or got.get("out") not in (None, k)):
                    return False, "a wrong key decapsulated to the same secret"
            return True, ""

        _guard(out, alg, p.pid, q.pid, "decapsulates to the same key", same_key)
        _guard(out, alg, p.pid, q.pid, "wrong key gives another key", wrong_key_differs)
    return out


def _oaep(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    out: list[CrossRecord] = []
    keys = _keypairs(alg, ps, out)
    sent = _toward_each(ps, keys, alg, lambda p, q: [("encrypt", {"public": keys[q.pid]["public"], "msg": MESSAGE})])

    def decrypt(q: _Peer, p: _Peer) -> list:
        ct = _out(sent[(p.pid, q.pid)][0])
        try:
            bad = _flip(ct) if ct else ""
        except ValueError:
            bad = ""
        return [("decrypt", {"private": keys[q.pid]["private"], "msg": c}) for c in (ct, bad)]

    opened = _toward_each(ps, keys, alg, decrypt)  # (q, p): q's decryptions of p's ciphertext, and corrupted
    for p, q in _pairs(ps, keys):
        enc, (good, bad) = sent[(p.pid, q.pid)][0], opened[(q.pid, p.pid)]

        def decrypts(enc=enc, good=good):
            _answer(enc)
            got = _answer(good).get("out")
            return got == MESSAGE, "" if got == MESSAGE else f"decrypted to {got}"

        def corrupted_rejected(enc=enc, bad=bad):
            if not _out(_answer(enc)):
                return False, "no ciphertext to corrupt"
            r = _answer(bad)
            return bool(r.get("rejected")), "" if r.get("rejected") else "a corrupted ciphertext decrypted"

        _guard(out, alg, p.pid, q.pid, "ciphertext decrypts", decrypts)
        _guard(out, alg, p.pid, q.pid, "corrupted ciphertext rejected", corrupted_rejected)
    return out


def _rsa_keys(alg: str, ps: list[_Peer]) -> list[CrossRecord]:
    """A generated RSA key pair is sound when another provider signs with it and it verifies."""
    out: list[CrossRecord] = []
    sig_alg = f"{alg}-pkcs1"
    keys = _keypairs(alg, ps, out)

    def usable(q: _Peer) -> list[CrossRecord]:  # q signs with every other provider's key, then verifies
        others = [p for p in ps if p is not q and p.pid in keys]
        signed = q.cases(sig_alg, [("sign", {"private": keys[p.pid]["private"], "msg": MESSAGE}) for p in others])
        checked = q.cases(sig_alg, [("verify", {"public": keys[p.pid]["public"], "msg": MESSAGE, "sig": _out(s)})
                                    for p, s in zip(others, signed, strict=True)])  # fmt: skip
        mine: list[CrossRecord] = []
        for p, s, r in zip(others, signed, checked, strict=True):

            def sound(s=s, r=r):
                _answer(s)
                r = _answer(r)
                return r.get("out") == "01", r.get("error", "")

            _guard(mine, alg, p.pid, q.pid, "key pair signs and verifies", sound)
        return mine

    order = {p.pid: i for i, p in enumerate(ps)}
    checked = [r for records in _each(ps, usable).values() for r in records]
    return out + sorted(checked, key=lambda r: (order[r.producer], order[r.consumer]))


def reference(records: list[CrossRecord], peers: list[str], trusted: list,
              family: Callable[[str], str] = witness.family) -> str | None:  # fmt: skip
    """The provider a dispute is judged by: the one that failed with the fewest others (a wrong provider
    fails with everyone, a right one only with the wrong ones), then the first tier of `trusted` it is in
    (the baseline, c:openssl, then a tuple of equals: those that passed known answers). Providers that
    run the same library's code (one `family`, witness.family: e.g. BouncyCastle's JCA provider and its
    lightweight API) are one voice: failing with both counts once, so one library's two APIs cannot
    outvote a third provider. None when that leaves two providers that disagree with each other on equal
    terms (one against one, no known answer, no baseline): nothing here says which is wrong, and a
    report must not blame one provider for the other's failure (the verifier calls both disputed)."""
    voice = {p: family(p) for p in peers}
    failed: dict[str, set[str]] = {p: set() for p in peers}
    against: set[frozenset] = set()
    for r in records:
        if not r.passed and r.producer != r.consumer and r.producer in failed and r.consumer in failed:
            against.add(frozenset((r.producer, r.consumer)))
            if voice[r.producer] != voice[r.consumer]:
                failed[r.producer].add(voice[r.consumer])
                failed[r.consumer].add(voice[r.producer])
    tier: dict[str, int] = {}
    for i, t in enumerate(trusted):
        for p in t if isinstance(t, tuple) else (t,):
            tier.setdefault(p, i)
    key = {p: (len(failed[p]), tier.get(p, len(trusted))) for p in peers}
    best = min(key.values())
    tied = sorted(p for p in peers if key[p] == best)
    if any(frozenset((a, b)) in against for a in tied for b in tied if a < b):
        return None
    return tied[0]


def disputed(records: list[CrossRecord]) -> dict[str, str]:
    """With no reference: each provider in a failed exchange with another -> the first such failure."""
    out: dict[str, str] = {}
    for r in records:
        if not r.passed and r.producer != r.consumer:
            why = f"{r.producer}'s {r.check} with {r.consumer} failed: {r.detail}"
            out.setdefault(r.producer, why)
            out.setdefault(r.consumer, why)
    return out


def failed_providers(records: list[CrossRecord], reference: str | None) -> dict[str, str]:
    """Providers whose exchanges with the reference failed, or that failed with themselves: provider ->
    first failure (with no reference, only the latter)."""
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
