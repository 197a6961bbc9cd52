"""Independent cross-check of the ntor / pq-ntor test vectors (optional tool).

A second implementation of docs/pq-ntor.md in Python, sharing no code with the Go
one: X25519 from pyca/cryptography, ML-KEM from kyber-py (pure-Python FIPS 203),
HMAC/HKDF/SHAKE-256 from the standard library. It replays every vector in
../vectors (draws, intermediates, outputs) and every failure vector (must be
rejected with the same error class). It is the only check of the ML-KEM-512
vectors against an implementation other than the C one that generated them.

    python3 -m venv /tmp/xcheck && /tmp/xcheck/bin/pip install kyber-py==1.2.0 cryptography
    /tmp/xcheck/bin/python protocols/pqntor/xcheck/xcheck.py

Not part of any test run: it needs packages the project does not install.
"""

import hashlib
import hmac
import json
import struct
import sys
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from kyber_py.ml_kem import ML_KEM_512, ML_KEM_768, ML_KEM_1024

KEM = {"pq-ntor-mlkem512": ML_KEM_512, "pq-ntor-mlkem768": ML_KEM_768, "pq-ntor-mlkem1024": ML_KEM_1024}
raw = serialization.Encoding.Raw, serialization.PublicFormat.Raw


def pub(sk):
    return X25519PrivateKey.from_private_bytes(sk).public_key().public_bytes(*raw)


def exp(sk, pk):
    try:
        return X25519PrivateKey.from_private_bytes(sk).exchange(X25519PublicKey.from_public_bytes(pk))
    except Exception:
        return b"\0" * 32  # pyca refuses all-zero output


def H(msg, key):
    return hmac.new(key, msg, hashlib.sha256).digest()


def hkdf(ikm, salt, info, n):
    prk = H(ikm, salt)
    out = b""
    t = b""
    i = 1
    while len(out) < n:
        t = H(t + info + bytes([i]), prk)
        out += t
        i += 1
    return prk, out[:n]


def encap(s):
    return struct.pack(">Q", len(s)) + s


def draw(seed, label, n):
    return hashlib.shake_256(
        encap(b"cryptobench/pq-ntor/test-vectors/v1") + encap(seed.encode()) + encap(label.encode())
    ).digest(n)


def sizes(suite):
    if suite == "ntor":
        return 20, 0, 0
    return {
        "pq-ntor-mlkem512": (32, 800, 768),
        "pq-ntor-mlkem768": (32, 1184, 1088),
        "pq-ntor-mlkem1024": (32, 1568, 1568),
    }[suite]


def client_create(suite, ID, B, x, seed):
    X = pub(x)
    ek = dk = b""
    if suite != "ntor":
        ek, dk = KEM[suite]._keygen_internal(seed[:32], seed[32:])
    return dict(ID=ID, B=B, x=x, X=X, ek=ek, dk=dk), ID + B + X + ek


def schedule(suite, pid, xy, xb, K, ID, B, X, ek, Y, ct, L):
    si = xy + xb + K + ID + B + X + ek + Y + ct + pid
    prk, keys = hkdf(si, pid + b":key_extract", pid + b":key_expand", L)
    verify = H(si, pid + b":verify")
    ai = verify + ID + B + Y + ct + X + ek + pid + b"Server"
    return dict(secret_input=si, key_seed=prk, keys=keys, verify=verify, auth_input=ai, auth=H(ai, pid + b":mac"))


def server_reply(suite, pid, ID, b, onion, y, m, L):
    idl, ekl, ctl = sizes(suite)
    if len(onion) != idl + 64 + ekl:
        return "malformed"
    oID, oB, X, ek = onion[:idl], onion[idl : idl + 32], onion[idl + 32 : idl + 64], onion[idl + 64 :]
    if oID != ID or oB != pub(b):
        return "unknown-relay"
    K = ct = b""
    if suite != "ntor":
        # FIPS 203 7.2 modulus check
        t = ek[:-32]
        for i in range(0, len(t), 3):
            a, c = t[i] | ((t[i + 1] & 15) << 8), (t[i + 1] >> 4) | (t[i + 2] << 4)
            if a >= 3329 or c >= 3329:
                return "bad-key"
    Y = pub(y)
    xy = exp(y, X)
    xb = exp(b, X)
    if xy == b"\0" * 32 or xb == b"\0" * 32:
        return "bad-key"
    if suite != "ntor":
        K, ct = KEM[suite]._encaps_internal(ek, m)
    s = schedule(suite, pid, xy, xb, K, ID, oB, X, ek, Y, ct, L)
    return Y + ct + s["auth"], s["keys"]


def client_finish(suite, pid, st, reply, L):
    idl, ekl, ctl = sizes(suite)
    if len(reply) != 64 + ctl:
        return "malformed"
    Y, ct, auth = reply[:32], reply[32 : 32 + ctl], reply[32 + ctl :]
    yx = exp(st["x"], Y)
    bx = exp(st["x"], st["B"])
    if yx == b"\0" * 32 or bx == b"\0" * 32:
        return "handshake-failed"
    K = KEM[suite].decaps(st["dk"], ct) if suite != "ntor" else b""
    s = schedule(suite, pid, yx, bx, K, st["ID"], st["B"], st["X"], st["ek"], Y, ct, L)
    if not hmac.compare_digest(s["auth"], auth):
        return "handshake-failed"
    return s["keys"]


labels = dict(
    relay_id="relay-id",
    relay_b_secret="relay-onion-key-b",
    client_x_secret="client-ephemeral-x25519-x",
    client_mlkem_seed="client-mlkem-seed-d-z",
    relay_y_secret="relay-ephemeral-x25519-y",
    mlkem_encaps_m="relay-mlkem-encaps-m",
)
ok = bad = 0
for suite in ["ntor", "pq-ntor-mlkem512", "pq-ntor-mlkem768", "pq-ntor-mlkem1024"]:
    # pq-ntor-mlkem512.json comes from the C implementation (Go has no ML-KEM-512)
    f = json.load(open(Path(__file__).resolve().parent.parent / "vectors" / f"{suite}.json"))
    n0 = ok + bad
    pid = f["protoid"].encode()
    for v in f["vectors"]:
        inp = {k: bytes.fromhex(x) for k, x in v["inputs"].items()}
        if v.get("seed"):
            for k, x in inp.items():
                assert draw(v["seed"], labels[k], len(x)) == x, (v["id"], k)
        L = v["key_len"]
        st, onion = client_create(
            suite,
            inp["relay_id"],
            pub(inp["relay_b_secret"]),
            inp["client_x_secret"],
            inp.get("client_mlkem_seed", b""),
        )
        reply, skeys = server_reply(
            suite,
            pid,
            inp["relay_id"],
            inp["relay_b_secret"],
            onion,
            inp["relay_y_secret"],
            inp.get("mlkem_encaps_m", b""),
            L,
        )
        ckeys = client_finish(suite, pid, st, reply, L)
        # intermediates
        idl, ekl, ctl = sizes(suite)
        ct = reply[32 : 32 + ctl]
        K = KEM[suite].decaps(st["dk"], ct) if suite != "ntor" else b""
        Y = reply[:32]
        s = schedule(
            suite,
            pid,
            exp(inp["relay_y_secret"], st["X"]),
            exp(inp["relay_b_secret"], st["X"]),
            K,
            inp["relay_id"],
            st["B"],
            st["X"],
            st["ek"],
            Y,
            ct,
            L,
        )
        im = {k: bytes.fromhex(x) for k, x in v["intermediates"].items()}
        checks = [
            onion == bytes.fromhex(v["outputs"]["onionskin"]),
            reply == bytes.fromhex(v["outputs"]["reply"]),
            skeys == ckeys == bytes.fromhex(v["outputs"]["keys"]),
            s["secret_input"] == im["secret_input"],
            s["auth_input"] == im["auth_input"],
            s["verify"] == im["verify"],
            s["key_seed"] == im["key_seed"],
            s["auth"] == im["auth"],
            K == im.get("mlkem_shared_secret", b""),
            st["ek"] == im.get("client_mlkem_ek", b""),
        ]
        if all(checks):
            ok += 1
        else:
            bad += 1
            print("MISMATCH", v["id"], checks)
    for fv in f["failures"]:
        L = fv["key_len"]
        if fv["step"] == "client-finish":
            c = {k: bytes.fromhex(x) for k, x in fv["client"].items()}
            st, _ = client_create(
                suite, c["relay_id"], c["relay_B"], c["client_x_secret"], c.get("client_mlkem_seed", b"")
            )
            r = client_finish(suite, pid, st, bytes.fromhex(fv["reply"]), L)
        else:
            rl = {k: bytes.fromhex(x) for k, x in fv["relay"].items()}
            r = server_reply(
                suite,
                pid,
                rl["relay_id"],
                rl["relay_b_secret"],
                bytes.fromhex(fv["onionskin"]),
                rl["relay_y_secret"],
                rl.get("mlkem_encaps_m", b""),
                L,
            )
        if r == fv["error_class"]:
            ok += 1
        else:
            bad += 1
            print("FAILURE MISMATCH", fv["id"], r if isinstance(r, str) else "accepted", fv["error_class"])
    print(f"{suite}: {ok + bad - n0} checked")
print(f"{ok} passed, {bad} failed")
sys.exit(1 if bad else 0)
