#!/usr/bin/env python3
"""Check the OPENSSL_ia32cap masks of README.md on the builds of build.sh.

For every build in versions.txt (library in the cache, driver in
drivers/c/build/plugins/libcb_openssl-<version>.so) and every mask below:
  1. capdump.c, linked against that libcrypto.a, prints the capability vector
     the library ends up with, so one sees which bits a value really clears;
  2. the driver times one 16 KiB cell with the variable set, next to the same
     cell without it: MB/s from the median sample of a run, best of ROUNDS
     (default 5) runs in shuffled order.

    scripts/openssl/ia32cap_check.py [VERSION...]    # default: every built version

Only meaningful on x86-64; the figures are this machine's, run with nothing
else busy.
"""

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
CACHE = Path(
    os.environ.get("CRYPTOBENCH_CACHE")
    or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cryptobench"
)

# One value per feature, valid for every version: fields after the first ':'
# are LV1..LV4; 1.1.1 reads only LV0:LV1 and ignores the rest. Every field is
# written out (~0 = keep), because a field left out is ZEROED (LV1 in 1.1.1,
# LV1..LV4 in 3.4+): '~0x200000000000000' alone also clears AVX2, SHA-NI,
# AVX-512, VAES, BMI, ADX.
KEEP = ":~0:~0:~0"
MASKS = {
    "none": None,
    "aesni": "~0x200000000000000:~0" + KEEP,
    "aesni+vaes": "~0x200000000000000:~0x60000000000" + KEEP,
    "aesni-bare": "~0x200000000000000",
    "vaes": ":~0x60000000000" + KEEP,
    "shani": ":~0x20000000" + KEEP,
    "avx2": ":~0x20" + KEEP,
    "avx512": ":~0xd0230000" + KEEP,
    "avx2+avx512": ":~0xd0230020" + KEEP,
}
CELLS = [
    ("aes-128-gcm", "seal", ["none", "aesni", "aesni+vaes", "aesni-bare", "vaes", "avx512"]),
    ("sha256", "hash", ["none", "shani", "aesni-bare"]),
    ("chacha20-poly1305", "seal", ["none", "avx512", "avx2", "avx2+avx512"]),
]
SIZE = 16384
ROUNDS = int(os.environ.get("ROUNDS", "5"))


def pins():
    for line in (HERE / "versions.txt").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            yield line.split()


def env_with(mask):
    env = dict(os.environ)
    env.pop("OPENSSL_ia32cap", None)
    if mask is not None:
        env["OPENSSL_ia32cap"] = mask
    return env


def capdump(prefix, tmp):
    exe = Path(tmp) / f"capdump-{prefix.name}"
    subprocess.run(
        [
            "gcc",
            "-std=c11",
            "-O2",
            f"-I{prefix}/include",
            str(HERE / "capdump.c"),
            str(prefix / "lib" / "libcrypto.a"),
            "-ldl",
            "-pthread",
            "-o",
            str(exe),
        ],
        check=True,
    )
    return exe


def bench(driver, provider, alg, op, mask):
    req = {
        "cmd": "bench",
        "alg": alg,
        "op": op,
        "size": SIZE,
        "chunk": 0,
        "key": "000102030405060708090a0b0c0d0e0f"
        + ("" if alg.startswith("aes-128") else "101112131415161718191a1b1c1d1e1f"),
        "iv": "000000000000000000000000",
        "seed": 2654435769,
        "batch": 0,
        "target_ns": 10_000_000,
        "warmup_ns": 100_000_000,
        "samples": 7,
    }
    if op == "hash":
        del req["key"], req["iv"]
    out = subprocess.run(
        [str(driver.parents[1] / "cbdriver"), "--plugin", str(driver), "--provider", provider],
        input=json.dumps(req) + "\n",
        capture_output=True,
        text=True,
        env=env_with(mask),
        check=True,
    ).stdout
    res = json.loads(out.splitlines()[0])
    if not res.get("ok"):
        raise RuntimeError(f"{driver.name} {alg} {op}: {res}")
    ns = statistics.median(res["samples_ns"]) / res["batch"]
    return SIZE / ns * 1e3, res["checksum"]  # MB/s (10^6 bytes)


def main(argv):
    wanted = set(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for _crate, ver, provider in pins():
            if wanted and ver not in wanted:
                continue
            prefix = CACHE / "openssl" / ver
            driver = REPO / "drivers" / "c" / "build" / "plugins" / f"libcb_openssl-{ver}.so"
            if not (prefix / "lib" / "libcrypto.a").exists() or not driver.exists():
                print(f"# {ver}: not built (scripts/openssl/build.sh {ver})")
                continue
            dump = capdump(prefix, tmp)
            print(f"## OpenSSL {ver} ({provider})")
            for name, mask in MASKS.items():
                vec = (
                    subprocess.run([str(dump)], env=env_with(mask), capture_output=True, text=True, check=True)
                    .stdout.split("\t")[1]
                    .strip()
                )
                print(f"  {name:12} {mask or '(unset)':42} {vec}")
            for alg, op, names in CELLS:
                # Rounds in a shuffled order, best of the rounds: another process
                # on the machine can only slow a run down.
                best = {}
                checksums = {}
                for _ in range(ROUNDS):
                    for name in random.sample(names, len(names)):
                        mbs, checksums[name] = bench(driver, provider, alg, op, MASKS[name])
                        best[name] = max(best.get(name, 0.0), mbs)
                for name in names:
                    print(
                        f"  {alg:18} {op:4} {SIZE} B  {name:12} {best[name]:9.1f} MB/s"
                        f"  x{best[name] / best[names[0]]:5.2f}  {checksums[name]}"
                    )
            sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
