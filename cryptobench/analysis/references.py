"""Published figures imported as references: labelled, kept apart, never silently mixed in.

A reference file (TOML) names its source and the machine it was measured on:

    source = "Example et al., PQ handshakes on small devices, Table 4"
    machine = "Raspberry Pi 5 (Cortex-A76, 2.4 GHz)"
    url = "https://example.org/paper.pdf"        # optional

    [[figure]]
    alg = "ml-kem-512"
    op = "keygen"
    ops_per_s = 23168                             # or ns_per_op = ...; size = bytes (optional)

Reports show such rows as "reference, measured elsewhere on <machine>" and
draw no ratio between machines unless the reader states a normalisation.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cryptobench.core import algorithms
from cryptobench.core.errors import UserError
from cryptobench.core.tomlfile import read_toml


@dataclass
class Reference:
    id: int | None
    source: str
    machine: str
    url: str
    alg: str
    op: str
    size: int
    ns_per_op: float

    @property
    def ops_per_s(self) -> float:
        return 1e9 / self.ns_per_op

    @property
    def label(self) -> str:
        return f"reference, measured elsewhere on {self.machine}"


def load_file(path: Path) -> list[Reference]:
    data = read_toml(path, "reference file", f"{path}: malformed reference file")
    source, machine = data.get("source"), data.get("machine")
    if not isinstance(source, str) or not source.strip():
        raise UserError(f'{path}: a reference file needs source = "where the figures were published"')
    if not isinstance(machine, str) or not machine.strip():
        raise UserError(f'{path}: a reference file needs machine = "what they were measured on"')
    figures = data.get("figure")
    if not isinstance(figures, list) or not figures:
        raise UserError(f"{path}: a reference file needs at least one [[figure]] with alg, op and ops_per_s")
    out = []
    for i, f in enumerate(figures, 1):
        alg, op = f.get("alg"), f.get("op")
        if alg not in algorithms.ALGORITHMS and not (isinstance(alg, str) and alg.startswith(("ntor", "pq-ntor"))):
            raise UserError(f"{path}: figure {i}: unknown algorithm {alg!r} (see `cryptobench list algorithms`)")
        if not isinstance(op, str):
            raise UserError(f'{path}: figure {i}: needs op = "keygen" (or another operation)')
        if "ops_per_s" in f:
            rate = f["ops_per_s"]
            if not isinstance(rate, (int, float)) or rate <= 0:
                raise UserError(f"{path}: figure {i}: ops_per_s must be a positive number")
            ns = 1e9 / rate
        elif "ns_per_op" in f and isinstance(f["ns_per_op"], (int, float)) and f["ns_per_op"] > 0:
            ns = float(f["ns_per_op"])
        else:
            raise UserError(f"{path}: figure {i}: give ops_per_s or ns_per_op (a positive number)")
        out.append(Reference(None, source.strip(), machine.strip(), str(data.get("url", "")), alg, op,
                             int(f.get("size", 0)), ns))  # fmt: skip
    return out
