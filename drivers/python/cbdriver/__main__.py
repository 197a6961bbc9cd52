"""`python -m cbdriver --provider <id>`: the request loop (stdout carries protocol lines only)."""

from __future__ import annotations

import argparse
import os
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
    out = _protocol_stream()  # from here on, whatever a plugin prints goes to stderr
    if args.plugin:
        try:
            provider = load_plugin(args.plugin)
        except PluginError as e:
            print(f"cbdriver: plugin {e}", file=sys.stderr)
            return 1
        if args.print_id:
            out.write(provider.id + "\n")
            out.flush()
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


def _protocol_stream():
    """Standard output for protocol lines only, kept apart from everything else: file descriptor 1
    and sys.stdout become stderr, so what a plugin prints while importing or running (print(), a C
    library's printf) can corrupt neither a response nor the id `--print-id` answers."""
    sys.stdout.flush()
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


if __name__ == "__main__":
    sys.exit(main())
