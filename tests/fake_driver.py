"""A protocol-speaking driver for the orchestrator's tests, with switchable faults.

    python fake_driver.py --mode MODE --provider test:x

It offers sha256 (computed with hashlib, so verification really passes) and
noop. Modes: good, crash-bench, hang-bench, garbage-bench, wrong-vectors,
wrong-samples, unstable-checksum, crash-start, slow-sha (twice as slow),
error-bench, slow-bench (every measuring bench request takes 0.3 s longer; the one-shot requests of
verification do not, so a run reaches its measuring in seconds), and lies about figures:
infinite-samples (samples of Infinity), tiny-samples (1e-9 ns), ticks-missing (samples_tsc one
short), fast-clock (samples_tsc 30% more than the clock's time at CB_FAKE_TSC_GHZ), implausible-fast (believable 5 ms
samples for a batch so large the cell claims 1e15 bytes/s), huge-line (a 300 MB response without a
newline), ansi-error (an error message carrying ANSI escapes and HTML), ansi-hello (escape sequences in
the hello's algorithm name, library, version and runtime).
"""

import argparse
import hashlib
import json
import os
import sys
import tempfile
import time
from pathlib import Path

PERIOD = 1 << 20
DEFAULT_SEED = 2654435769
# SHA-256 of pattern(DEFAULT_SEED); test_fixed_input checks it against pattern() and the orchestrator's own
DEFAULT_SHA256 = "b13261ceffb27a120f88c3466a3917bfb2875493d5f802422b433a3599407be6"
TSC_GHZ = float(os.environ.get("CB_FAKE_TSC_GHZ", "2.5"))  # the host's TSC rate, for the counter modes


def pattern(seed, n=PERIOD):
    x, out = seed, bytearray(n)
    for i in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out[i] = x & 0xFF
    return bytes(out)


def default_pattern():
    """pattern(DEFAULT_SEED), which every fake provider makes before its hello: 0.3 CPU s in pure Python, and
    a test run starts fake drivers hundreds of times (each pass over a plan starts them afresh). Kept in a
    file of the temporary directory once made, and that copy used only when its SHA-256 is the pattern's."""
    path = Path(tempfile.gettempdir()) / f"cryptobench-fake-pattern-{DEFAULT_SEED}"
    try:
        data = path.read_bytes()
        if hashlib.sha256(data).hexdigest() == DEFAULT_SHA256:
            return data
    except OSError:
        pass
    data = pattern(DEFAULT_SEED)
    try:  # written whole under another name, then renamed: a driver starting meanwhile never reads half of it
        part = path.with_name(f"{path.name}.{os.getpid()}")
        part.write_bytes(data)
        os.replace(part, path)
    except OSError:
        pass
    return data


def message(default, seed, size):
    """The protocol's input: the default pattern (made once), or a differential test's own seed."""
    pat = default if seed == DEFAULT_SEED else pattern(seed, min(size, PERIOD))
    return (pat * (size // max(len(pat), 1) + 1))[:size]


def fnv(b):
    h = 0xCBF29CE484222325
    for c in b:
        h = ((h ^ c) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def serve(answer) -> None:
    """The request loop of every fake provider: one JSON request a line, answered by `answer(req)` (None:
    it wrote its own line), until bye."""
    for line in sys.stdin:
        req = json.loads(line)
        if req["cmd"] == "bye":
            sys.stdout.write('{"ok": true}\n')
            return
        resp = answer(req)
        if resp is not None:
            sys.stdout.write(json.dumps(resp) + "\n")
            sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="good")
    ap.add_argument("--provider", required=True)
    args = ap.parse_args()
    mode = args.mode
    if mode == "crash-start":
        print("cannot load library", file=sys.stderr)
        sys.exit(3)
    benches = 0
    pat = default_pattern()  # before hello: keeps the set-up out of every bench round

    def answer(req):
        nonlocal benches
        cmd = req["cmd"]
        if cmd == "hello":
            resp = {
                "ok": True,
                "protocol": 1,
                "provider": args.provider,
                "language": "python",
                "library": "fake",
                "library_version": f"fake 1.0 ({mode})",
                "runtime": "python",
                "clock": {"source": "perf_counter_ns", "resolution_ns": 100},
                "offers": {"sha256": ["hash"], "noop": ["noop"]},
                "stream": [],
            }
            if mode == "ansi-hello":  # a hello whose strings would drive a terminal: shown, never obeyed
                resp["offers"]["sha\x1b[2J256"] = ["hash"]
                resp.update(library="\x1b]0;pwned\x07", library_version="fake \x1b[31m1.0", runtime="\x9b2Jpy")
        elif cmd == "verify":
            results = []
            for c in req["cases"]:
                out = hashlib.sha256(bytes.fromhex(c["msg"])).hexdigest()
                if mode == "wrong-vectors":
                    out = "00" + out[2:]
                results.append({"id": c["id"], "out": out})
            resp = {"ok": True, "results": results}
        elif cmd == "bench":
            benches += 1
            if mode == "crash-bench":
                os._exit(7)
            if mode == "hang-bench":
                time.sleep(3600)
            # a one-shot request (batch 1, no calibration, one sample) is verification's: 50 differential
            # inputs at 0.3 s each kept the tests of a slow run waiting 15 s before it measured anything
            one_shot = req.get("samples") == 1 and req.get("batch") == 1 and not req.get("target_ns")
            if mode == "slow-bench" and not one_shot:
                time.sleep(0.3)
            if mode == "garbage-bench":
                sys.stdout.write("this is not json\n")
                sys.stdout.flush()
                return None
            if mode == "huge-line":
                piece = "x" * (1 << 20)
                for _ in range(300):
                    sys.stdout.write(piece)
                sys.stdout.flush()
                time.sleep(3600)
            if mode == "ansi-error":
                error = "library says \x1b[31mRED\x1b[0m\x07 <script>alert(1)</script> [bold]x[/bold]"
                sys.stdout.write(json.dumps({"ok": False, "error": error}) + "\n")
                sys.stdout.flush()
                return None
            if mode in ("infinite-samples", "tiny-samples", "implausible-fast"):
                n, size = req["samples"], req["size"]
                lie = {"infinite-samples": "Infinity", "tiny-samples": "1e-9", "implausible-fast": "5000000"}[mode]
                batch = req["batch"] or (int(1e15 * 0.005 / max(size, 1)) if mode == "implausible-fast" else 50)
                out = hashlib.sha256(message(pat, req["seed"], size)).digest()  # honest in differential tests
                csum = f"{len(out):08x}:{fnv(out):016x}"
                sys.stdout.write(
                    f'{{"ok": true, "batch": {batch}, "samples_ns": [{", ".join([lie] * n)}], '
                    f'"checksum": "{csum}", "sink": 0}}\n'
                )
                sys.stdout.flush()
                return None
            if mode == "error-bench":
                resp = {"ok": False, "error": "simulated library failure"}
                sys.stdout.write(json.dumps(resp) + "\n")
                sys.stdout.flush()
                return None
            msg = message(pat, req["seed"], req["size"])
            if req["alg"] == "noop":
                out, op = b"", lambda: 0
            else:
                out = hashlib.sha256(msg).digest()
                op = lambda m=msg: hashlib.sha256(m).digest()[0]  # noqa: E731
            batch = req["batch"] or 50
            samples = []
            for _ in range(req["samples"]):
                t0 = time.perf_counter_ns()
                for _ in range(batch):
                    op()
                    if mode == "slow-sha" and req["alg"] == "sha256":
                        op()
                samples.append(max(1, time.perf_counter_ns() - t0))
            if mode == "wrong-samples":
                samples = samples[:-1]
            csum = f"{len(out):08x}:{fnv(out):016x}"
            if mode == "unstable-checksum" and req["samples"] > 1:  # timed rounds only, past the differential
                csum = f"{len(out):08x}:{benches:016x}"
            resp = {"ok": True, "batch": batch, "samples_ns": samples, "checksum": csum, "sink": 0, "peak_rss_kb": 0}
            if mode == "ticks-missing":  # one counter reading short of the samples
                resp["samples_tsc"] = [3 * x for x in samples[1:]]
            if mode == "fast-clock":  # the counter says each sample took 30% longer than the clock does
                resp["samples_tsc"] = [round(x * 1.3 * TSC_GHZ) for x in samples]
        else:
            resp = {"ok": False, "error": f"unknown cmd {cmd}"}
        return resp

    serve(answer)


if __name__ == "__main__":
    main()
