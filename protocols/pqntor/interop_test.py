#!/usr/bin/env python3
"""Interoperability of the C and Go ntor / pq-ntor implementations (standard library only).

Drives the two command-line programs, which speak the same JSON on stdin/stdout:

    c/pqntor-cli                    (make -C c)
    go/cmd/pqntor-cli               (built by `make interop` into build/pqntor-cli-go)

For ntor, pq-ntor-mlkem768 and pq-ntor-mlkem1024, every pairing client -> relay
(C -> Go, Go -> C, and C -> C, Go -> Go for reference) runs ROUNDS handshakes with system
randomness and various key lengths; both sides must output the same keys. pq-ntor-mlkem512
runs C -> C only (Go's crypto/mlkem has no ML-KEM-512; the Go program must say
"unsupported").

Failure cases across implementations, on a fresh handshake each: the relay's reply is
altered (a bit of AUTH, CT, Y; bit 255 of Y; truncated) before the other implementation's
client finishes -> rejected, no keys; the onionskin is altered (ID -> unknown-relay;
X -> the relay answers, the client rejects).

    python3 interop_test.py [--rounds N] [--c PATH] [--go PATH]
"""

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CT_LEN = {"ntor": 0, "pq-ntor-mlkem512": 768, "pq-ntor-mlkem768": 1088, "pq-ntor-mlkem1024": 1568}
ID_LEN = {"ntor": 20}
KEY_LENS = [72, 72, 32, 1, 33, 200, 8160]


class Failed(Exception):
    pass


checks = 0


def check(cond, msg):
    global checks
    checks += 1
    if not cond:
        raise Failed(msg)


def run(cli, cmd, req):
    p = subprocess.run([cli, cmd], input=json.dumps(req), capture_output=True, text=True, timeout=60)
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        raise Failed(f"{cli} {cmd}: exit {p.returncode}, not JSON: {p.stdout!r} {p.stderr!r}")
    return p.returncode, out


def ok(cli, cmd, req):
    rc, out = run(cli, cmd, req)
    if rc != 0 or "error" in out:
        raise Failed(f"{cli} {cmd}: exit {rc}: {out}")
    return out


def flip(hexstr, byte, mask):
    b = bytearray.fromhex(hexstr)
    b[byte] ^= mask
    return b.hex()


def handshake(client, relay, suite, key_len):
    """relay keys, client state and onionskin, relay reply and keys."""
    rk = ok(relay, "relay-keygen", {"suite": suite})
    check(rk["suite"] == suite and len(rk["relay_id"]) == 2 * ID_LEN.get(suite, 32), "relay-keygen")
    cc = ok(client, "client-create", {"suite": suite, "key_len": key_len, "relay_id": rk["relay_id"], "relay_B": rk["relay_B"]})
    return rk, cc


def reply(relay, suite, key_len, rk, onionskin):
    return run(
        relay,
        "server-reply",
        {"suite": suite, "key_len": key_len, "relay_id": rk["relay_id"], "relay_b_secret": rk["relay_b_secret"], "onionskin": onionskin},
    )


def rounds(client, relay, suite, n, rng):
    seen = set()
    for i in range(n):
        key_len = KEY_LENS[i % len(KEY_LENS)]
        rk, cc = handshake(client, relay, suite, key_len)
        rc, sr = reply(relay, suite, key_len, rk, cc["onionskin"])
        check(rc == 0 and "keys" in sr, f"server-reply failed: {sr}")
        cf = ok(client, "client-finish", {"state": cc["state"], "reply": sr["reply"]})
        check(len(sr["keys"]) == 2 * key_len, "relay key length")
        check(cf["keys"] == sr["keys"], f"round {i}: keys differ")
        if key_len >= 16:  # fresh randomness each time; a 1- or 8-byte key may repeat by chance (1/256 per pair)
            check(cf["keys"] not in seen, "same keys twice")
            seen.add(cf["keys"])
    return n


def failures(client, relay, suite, rng):
    """Alter the relay's reply or the client's onionskin; the other side must reject."""
    ct = CT_LEN[suite]
    auth = 32 + ct
    cases = [
        ("auth-first-bit", auth, 0x01),
        ("auth-last-bit", auth + 31, 0x80),
        ("auth-random-bit", auth + rng.randrange(32), 1 << rng.randrange(8)),
        ("y-first-bit", 0, 0x01),
        ("y-high-bit", 31, 0x80),
        ("y-random-bit", rng.randrange(32), 1 << rng.randrange(8)),
    ]
    if ct:
        cases += [
            ("ct-first-bit", 32, 0x01),
            ("ct-last-bit", 32 + ct - 1, 0x80),
            ("ct-random-bit", 32 + rng.randrange(ct), 1 << rng.randrange(8)),
        ]
    n = 0
    for name, byte, mask in cases + [("reply-truncated", None, None)]:
        rk, cc = handshake(client, relay, suite, 72)
        rc, sr = reply(relay, suite, 72, rk, cc["onionskin"])
        check(rc == 0, f"{name}: server-reply {sr}")
        bad = sr["reply"][:-2] if byte is None else flip(sr["reply"], byte, mask)
        rc, cf = run(client, "client-finish", {"state": cc["state"], "reply": bad})
        want = "malformed" if byte is None else "handshake-failed"
        check(rc == 1 and cf.get("error") == want and "keys" not in cf, f"{name}: client accepted or wrong class: {cf}")
        # the unaltered reply would have been accepted (same state, unused copy)
        cf = ok(client, "client-finish", {"state": cc["state"], "reply": sr["reply"]})
        check(cf["keys"] == sr["keys"], f"{name}: control handshake")
        n += 1
    # onionskin altered in transit
    idl = ID_LEN.get(suite, 32)
    rk, cc = handshake(client, relay, suite, 72)
    rc, sr = reply(relay, suite, 72, rk, flip(cc["onionskin"], 0, 0x01))
    check(rc == 1 and sr.get("error") == "unknown-relay" and "keys" not in sr, f"id-first-bit: {sr}")
    rc, sr = reply(relay, suite, 72, rk, flip(cc["onionskin"], idl, 0x01))
    check(rc == 1 and sr.get("error") == "unknown-relay", f"b-first-bit: {sr}")
    rc, sr = reply(relay, suite, 72, rk, cc["onionskin"][:-2])
    check(rc == 1 and sr.get("error") == "malformed", f"onionskin-truncated: {sr}")
    x0 = bytearray.fromhex(cc["onionskin"])
    x0[idl + 32 : idl + 64] = bytes(32)
    rc, sr = reply(relay, suite, 72, rk, x0.hex())
    check(rc == 1 and sr.get("error") == "bad-key", f"x-zero: {sr}")
    rc, sr = reply(relay, suite, 72, rk, flip(cc["onionskin"], idl + 32, 0x01))
    check(rc == 0, f"x-tampered: the relay cannot tell: {sr}")
    rc, cf = run(client, "client-finish", {"state": cc["state"], "reply": sr["reply"]})
    check(rc == 1 and cf.get("error") == "handshake-failed" and "keys" not in cf, f"x-tampered: {cf}")
    return n + 6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=int(os.environ.get("ROUNDS", "25")))
    ap.add_argument("--c", default=str(HERE / "c" / "pqntor-cli"))
    ap.add_argument("--go", default=str(HERE / "build" / "pqntor-cli-go"))
    args = ap.parse_args()
    rng = random.Random()
    impl = {"C": args.c, "Go": args.go}
    for name, path in impl.items():
        if not os.access(path, os.X_OK):
            sys.exit(f"interop: {name} program {path} missing (make -C protocols/pqntor interop builds both)")
    bad = 0
    plan = []
    for suite in ["ntor", "pq-ntor-mlkem768", "pq-ntor-mlkem1024"]:
        for c, r in [("C", "Go"), ("Go", "C"), ("C", "C"), ("Go", "Go")]:
            plan.append((suite, c, r))
    plan.append(("pq-ntor-mlkem512", "C", "C"))
    for suite, c, r in plan:
        try:
            n = rounds(impl[c], impl[r], suite, args.rounds, rng)
            f = failures(impl[c], impl[r], suite, rng)
            print(f"ok   {suite:18} client {c:2} -> relay {r:2}: {n} handshakes, same keys; {f} altered messages rejected")
        except Failed as e:
            bad += 1
            print(f"FAIL {suite:18} client {c:2} -> relay {r:2}: {e}")
    # Go has no ML-KEM-512: it must refuse, not misbehave
    rk = ok(impl["C"], "relay-keygen", {"suite": "pq-ntor-mlkem512"})
    rc, out = run(impl["Go"], "client-create", {"suite": "pq-ntor-mlkem512", "relay_id": rk["relay_id"], "relay_B": rk["relay_B"]})
    if rc == 1 and out.get("error") == "unsupported":
        print("ok   pq-ntor-mlkem512   Go client-create: unsupported (as documented)")
    else:
        bad += 1
        print(f"FAIL pq-ntor-mlkem512   Go client-create: {out}")
    print(f"interop: {checks} checks, {bad} failing pairings")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
