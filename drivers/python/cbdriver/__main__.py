"""`python -m cbdriver --provider <id>`: the request loop (stdout carries protocol lines only)."""

from __future__ import annotations

import argparse
import sys

from . import PROVIDERS, load_provider
from .plugin import PluginError, load_plugin
from .protocol import clock_resolution_ns, respond


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cbdriver", description="cryptobench driver for Python providers")
    parser.add_argument("--provider", help=f"one of: {', '.join(PROVIDERS)} (with --plugin: its id, checked)")
    parser.add_argument(
        "--plugin", metavar="FILE.py[:NAME]|MODULE[:NAME]", help="serve a plugin (docs/plugins.md)"
    )
    parser.add_argument(
        "--print-id", action="store_true", help="with --plugin: print its provider id and exit"
    )
    args = parser.parse_args(argv)
    if args.plugin:
        try:
            provider = load_plugin(args.plugin)
        except PluginError as e:
            print(f"cbdriver: plugin {e}", file=sys.stderr)
            return 1
        if args.print_id:
            print(provider.id)
            return 0
        if args.provider and args.provider != provider.id:
            print(
                f"cbdriver: plugin {args.plugin} is {provider.id!r}, not {args.provider!r}", file=sys.stderr
            )
            return 2
    elif args.provider not in PROVIDERS:
        print(
            f"cbdriver: unknown provider {args.provider!r} (known: {', '.join(PROVIDERS)})", file=sys.stderr
        )
        return 2
    else:
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
