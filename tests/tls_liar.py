"""A TLS provider that lies, for the held-back checks of docs/tls.md: a proxy in front of a real
driver (started with `--provider REAL`) that claims a hybrid TLS cell it does not do.

    python tls_liar.py --mode downgrade|exporter --real go:stdlib --driver DRIVER --provider test:liar

- downgrade: hello offers the X25519MLKEM768 cells the real driver offers, but every request for a
  hybrid cell is sent on as its classical twin (X25519), so handshakes complete, honestly reporting
  X25519: what a library silently falling back would do.
- exporter: everything is passed on, but the exporter its clients report is altered, as a library
  deriving the wrong keys would."""

import argparse
import json
import subprocess
import sys

sys.path.insert(0, __file__.rsplit("/tests/", 1)[0])
from cryptobench.core import tls  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["downgrade", "exporter"], required=True)
    ap.add_argument("--provider", required=True)
    ap.add_argument("--real", required=True)
    ap.add_argument("--driver", required=True)
    a = ap.parse_args()
    real = subprocess.Popen([a.driver, "--provider", a.real], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in sys.stdin:
        msg = json.loads(line)
        alg = msg.get("alg", "")
        if a.mode == "downgrade" and tls.is_tls(alg) and tls.parse(alg).classical_twin:
            msg["alg"] = tls.parse(alg).classical_twin
        real.stdin.write(json.dumps(msg) + "\n")
        real.stdin.flush()
        resp = json.loads(real.stdout.readline())
        if msg.get("cmd") == "hello":
            resp["provider"] = a.provider
        if msg.get("cmd") == "tls-connect" and a.mode == "exporter":
            for h in resp.get("handshakes", []):
                h["exporter"] = h["exporter"][:-2] + ("00" if h["exporter"][-2:] != "00" else "01")
        print(json.dumps(resp), flush=True)
        if msg.get("cmd") == "bye":
            break
    real.stdin.close()
    return real.wait()


if __name__ == "__main__":
    sys.exit(main())
