"""`python -m cbdriver --provider <id>`: the request loop (stdout carries protocol lines only)."""

from __future__ import annotations

import argparse
import sys

from . import PROVIDERS, load_provider
from .protocol import clock_resolution_ns, respond


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cbdriver", description="cryptobench driver for Python providers")
    parser.add_argument("--provider", required=True, help=f"one of: {', '.join(PROVIDERS)}")
    args = parser.parse_args(argv)
    if args.provider not in PROVIDERS:
        print(
            f"cbdriver: unknown provider {args.provider!r} (known: {', '.join(PROVIDERS)})", file=sys.stderr
        )
        return 2
    try:
        provider = load_provider(args.provider)
    except ImportError as e:  # e.g. the `cryptography` package is not installed in this interpreter
        print(f"cbdriver: cannot load {args.provider}: {' '.join(str(e).split())}", file=sys.stderr)
        return 1
    clock_resolution_ns()  # measured once at start-up, reported by hello

    out = sys.stdout
    sys.stdout = sys.stderr  # a stray print() from anywhere must not corrupt the protocol stream
    try:
        while True:
            line = sys.stdin.readline()
            if not line:  # end of input means bye
                return 0
            response, stop = respond(provider, line)
            out.write(response + "\n")
            out.flush()
            if stop:
                return 0
    except BrokenPipeError:
        return 0
    finally:
        sys.stdout = out


if __name__ == "__main__":
    sys.exit(main())
