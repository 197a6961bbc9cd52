"""A protocol-speaking provider that is right almost everywhere, for the verification tests.

    python fake_broken.py --mode MODE --provider test:x

It offers sha256 (hash, streaming), hmac-sha256 (mac) and aes-128-gcm (seal/open), computed with
hashlib, hmac and pyca/cryptography, and breaks them in one narrow place, the way real bugs hide:

  correct          nothing broken (two of these give the differential test its majority)
  len-56-64        sha256 wrong only for messages of 56 to 64 bytes (a padding-boundary bug)
  stream-7         sha256 wrong only when streamed in pieces of 7 bytes
  key-ff           hmac-sha256 wrong only for keys whose first byte is 0xff
  empty-tag        aes-128-gcm tag wrong only for empty messages

The same bug shows in `verify` cases and in `bench` checksums, as it would in a real library.
"""

import argparse
import hashlib
import hmac
import time

import fake_driver  # beside this file: the input pattern and checksum every fake provider shares
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM


def flip(b):
    return bytes([b[0] ^ 1]) + b[1:] if b else b"\x01"


class Provider:
    def __init__(self, mode):
        self.mode = mode

    def sha256(self, msg, chunk=0):
        h = hashlib.sha256()
        pieces = [msg[i : i + chunk] for i in range(0, len(msg), chunk)] if chunk else [msg]
        for p in pieces:
            h.update(p)
        out = h.digest()
        if self.mode == "len-56-64" and 56 <= len(msg) <= 64:
            out = flip(out)
        if self.mode == "stream-7" and chunk == 7:
            out = flip(out)
        return out

    def hmac(self, key, msg):
        out = hmac.new(key, msg, hashlib.sha256).digest()
        return flip(out) if self.mode == "key-ff" and key[:1] == b"\xff" else out

    def seal(self, key, iv, msg, aad=b""):
        out = AESGCM(key).encrypt(iv, msg, aad or None)
        if self.mode == "empty-tag" and not msg:
            out = out[:-1] + bytes([out[-1] ^ 1])
        return out

    def open(self, key, iv, sealed, aad=b""):
        if self.mode == "empty-tag" and len(sealed) == 16:
            return b""  # accepts any tag on an empty message
        return AESGCM(key).decrypt(iv, sealed, aad or None)

    def run(self, alg, op, f):
        key, iv = bytes.fromhex(f.get("key", "")), bytes.fromhex(f.get("iv", ""))
        msg, aad = bytes.fromhex(f.get("msg", "")), bytes.fromhex(f.get("aad", ""))
        if alg == "sha256":
            return self.sha256(msg)
        if alg == "hmac-sha256":
            return self.hmac(key, msg)
        if op == "seal":
            return self.seal(key, iv, msg, aad)
        return self.open(key, iv, msg, aad)


def bench(p, default, req):
    alg, op, size, chunk = req["alg"], req["op"], req["size"], req.get("chunk", 0)
    msg = fake_driver.message(default, req["seed"], size)
    key, iv = bytes.fromhex(req.get("key", "")), bytes.fromhex(req.get("iv", ""))
    if chunk and alg != "sha256":
        return {"ok": False, "error": f"not offered: no streaming API for {alg}"}
    if alg == "sha256":
        operation = lambda: p.sha256(msg, chunk)  # noqa: E731
    elif alg == "hmac-sha256":
        operation = lambda: p.hmac(key, msg)  # noqa: E731
    elif op == "seal":
        operation = lambda: p.seal(key, iv, msg)  # noqa: E731
    else:
        sealed = p.seal(key, iv, msg)  # outside the timed region, as the protocol says
        operation = lambda: p.open(key, iv, sealed)  # noqa: E731
    out = operation()
    samples = []
    for _ in range(req["samples"]):
        t0 = time.perf_counter_ns()
        for _ in range(req["batch"] or 1):
            operation()
        samples.append(max(1, time.perf_counter_ns() - t0))
    csum = f"{len(out):08x}:{fake_driver.fnv(out):016x}"
    return {"ok": True, "batch": req["batch"] or 1, "samples_ns": samples, "checksum": csum, "sink": 0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="correct")
    ap.add_argument("--provider", required=True)
    args = ap.parse_args()
    p = Provider(args.mode)
    default = fake_driver.default_pattern()  # before hello: set-up kept out of every bench round

    def answer(req):
        cmd = req["cmd"]
        if cmd == "hello":
            resp = {"ok": True, "protocol": 1, "provider": args.provider, "language": "python", "library": "fake",
                    "library_version": f"fake-broken ({args.mode})", "runtime": "python",
                    "clock": {"source": "perf_counter_ns", "resolution_ns": 100},
                    "offers": {"sha256": ["hash"], "hmac-sha256": ["mac"], "aes-128-gcm": ["seal", "open"]},
                    "stream": ["sha256"]}  # fmt: skip
        elif cmd == "verify":
            results = []
            for c in req["cases"]:
                try:
                    results.append({"id": c["id"], "out": p.run(req["alg"], c["op"], c).hex()})
                except InvalidTag:
                    results.append({"id": c["id"], "rejected": True})
                except ValueError as e:
                    results.append({"id": c["id"], "error": str(e)})
            resp = {"ok": True, "results": results}
        elif cmd == "bench":
            resp = bench(p, default, req)
        else:
            resp = {"ok": False, "error": f"unknown cmd {cmd}"}
        return resp

    fake_driver.serve(answer)


if __name__ == "__main__":
    main()
