"""A driver that keeps every rule of docs/protocol.md § The measurement loop but the one it is told to break.

    fake_rules.py --provider test:x [--break RULE]

It serves `noop` and `sha256` with the Python driver's own measurement loop (drivers/python/cbdriver/
timing.py), so with no --break it must pass `cryptobench check-driver`; each RULE of
cryptobench/verify/driver_rules.py broken once must fail it, naming that rule.
"""

import argparse
import hashlib
import json
import sys
from pathlib import Path

import fake_driver  # beside this file: the input pattern and checksum every fake provider shares

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "drivers/python"))
from cbdriver import timing  # noqa: E402 - the path above makes it importable

RULES = ("hello-fields", "resolution-probe", "warm-up", "calibration", "sample-count", "last-output",
         "not-offered", "error-shape", "leak", "cycle-counter", "bye")  # fmt: skip


def checksum(out: bytes) -> str:
    return f"{len(out):08x}:{fake_driver.fnv(out):016x}"


class Cell:
    def __init__(self, alg: str, msg: bytes, leaky: bool):
        self.alg, self.msg, self.leaky, self.runs = alg, msg, leaky, 0

    def output(self) -> bytes:
        self.runs += 1
        if self.alg == "noop":
            return b""
        # a leaky cell carries state from one operation into the next (a counter in the message)
        return hashlib.sha256(self.msg + (bytes([self.runs & 0xFF]) if self.leaky else b"")).digest()

    def call(self) -> int:
        out = self.output()
        return out[0] if out else 0


def bench(req: dict, broken: str, default: bytes) -> dict:
    alg, op, size = req["alg"], req["op"], req["size"]
    offers = {"noop": "noop", "sha256": "hash"}
    if offers.get(alg) != op:
        why = f"{alg} {op} is not offered"
        return {"ok": False, "error": why if broken == "not-offered" else f"not offered: {why}"}
    if req.get("chunk"):
        return {"ok": False, "error": f"not offered: {alg} has no streaming API here"}
    cell = Cell(alg, fake_driver.message(default, req["seed"], size), broken == "last-output")
    first = checksum(cell.output())
    batch, target_ns = req.get("batch", 0), req.get("target_ns", 5_000_000)
    m = timing.measure(cell.call, batch, target_ns, req.get("warmup_ns", 0), req["samples"])
    if broken == "warm-up" and req.get("warmup_ns", 0) == 0:
        m["warmup"]["ops"] = 0  # as a driver that checks the clock before the first round would
    if broken == "calibration" and batch == 0:
        m["warmup"]["calibration_ops"] = m["batch"]  # counts only the last round
    if broken == "sample-count":  # one sample short (and its counter reading with it)
        m["samples_ns"] = m["samples_ns"][:-1]
        if "samples_tsc" in m:
            m["samples_tsc"] = m["samples_tsc"][:-1]
    if broken == "cycle-counter":  # a counter that does not follow the clock (the driver has none to read)
        m["samples_tsc"] = [2_600_000 * (i + 1) for i in range(len(m["samples_ns"]))]
    return {"ok": True, **m, "checksum": first, "checksum_after": checksum(cell.output()), "peak_rss_kb": 0}


def leak(req: dict, broken: str) -> dict:
    """Each measurement one sha256 of its input, timed alone (docs/protocol.md § leak)."""
    inputs, order = req["inputs"], req["order"]
    if not all(isinstance(k, int) and 0 <= k < len(inputs) for k in order):
        return {"ok": False, "error": "order has an index past the inputs"}
    msgs = [bytes.fromhex(inputs[k]["msg"]) for k in order]
    times = []
    for m in msgs:
        t0 = timing.clock()
        hashlib.sha256(m).digest()
        times.append(timing.clock() - t0)
    if broken == "leak":
        times = times[:-1]  # loses the last measurement
    return {"ok": True, "counter": "clock", "times": times, "outcomes": ["ok"] * len(inputs)}


def hello(provider: str, broken: str) -> dict:
    resp = {
        "ok": True, "protocol": 5, "provider": provider, "language": "python", "library": "hashlib",
        "library_version": "fake 1", "runtime": sys.version.split()[0],
        "clock": {"source": "perf_counter_ns", "resolution_ns": 1,
                  "probe_reads": 1000 if broken == "resolution-probe" else timing.PROBE_READS},
        "offers": {"noop": ["noop"], "sha256": ["hash"]}, "stream": [],
    }  # fmt: skip
    if broken == "hello-fields":
        del resp["library_version"]
    return resp


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--provider", required=True)
    ap.add_argument("--break", dest="broken", choices=RULES)
    args = ap.parse_args()
    default = fake_driver.default_pattern()
    for line in sys.stdin:
        try:
            req = json.loads(line)
            cmd = req["cmd"]
        except (ValueError, KeyError, TypeError):
            if args.broken == "error-shape":
                return 3  # dies on a bad line instead of answering it
            resp = {"ok": False, "error": "not a request object with a cmd"}
        else:
            if cmd == "hello":
                resp = hello(args.provider, args.broken)
            elif cmd == "bench":
                try:
                    resp = bench(req, args.broken, default)
                except KeyError as e:
                    resp = {"ok": False, "error": f"missing field {e}"}
            elif cmd == "leak":
                resp = leak(req, args.broken)
            elif cmd == "bye":
                print('{"ok": true}', flush=True)
                return 1 if args.broken == "bye" else 0
            else:
                resp = {"ok": False, "error": f"unknown cmd {cmd!r}"}
        print(json.dumps(resp), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
