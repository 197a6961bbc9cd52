"""A driver process spoken to on the line protocol by the tests that talk to one directly (one JSON
request a line on stdin, one JSON response a line on stdout; docs/protocol.md)."""

from __future__ import annotations

import json
import subprocess


class LineDriver:
    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, msg: dict) -> dict:
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
