"""A deliberately broken access path, for testing cryptobench's pathology detector.

`python:cryptography-bytewise` is python:cryptography with one change: a
streamed cell hands the library its input one byte per update() call,
whatever piece size it was asked for — the mistake of the binding that made
AES-CTR 140 times slower through its FFI. One-shot cells are untouched, so
outputs (and vectors) are identical; only streaming throughput collapses.
Never use its figures for anything but checking that the detector flags it.
"""

from __future__ import annotations

import dataclasses

from .ops_base import Cell, CellSpec
from .ops_cryptography import CryptographyProvider


class BytewiseProvider(CryptographyProvider):
    id = "python:cryptography-bytewise"
    # 1-byte pieces only make sense where update() takes any length: not the block modes
    stream = tuple(a for a in CryptographyProvider.stream if not a.endswith(("-ecb", "-cbc")))

    def notes(self) -> list[str]:
        return [
            "TEST ACCESS PATH, deliberately broken: every streamed cell re-chunks its input into 1-byte "
            "update() calls, whatever chunk it is asked for; one-shot cells are python:cryptography's. It "
            "exists to prove that the pathology detector flags such a binding."
        ] + super().notes()

    def cell(self, spec: CellSpec) -> Cell:
        if spec.chunk:
            spec = dataclasses.replace(spec, chunk=1)
        return super().cell(spec)


PROVIDER = BytewiseProvider()
