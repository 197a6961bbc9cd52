"""The interface every provider module implements, and what the providers share.

A provider is a catalogue (`offers`, `stream`), a case executor for `verify`
(`execute`) and a cell factory for `bench` (`cell`). A `Cell` is prepared once
and exposes `call()`, exactly one operation returning the first byte of its
output (folded into the sink by the shared loop in timing.py), and `output()`,
the same operation returning the whole output (for the checksum, untimed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .inputs import unhex

# Parameter sizes of the algorithms the Python providers serve (docs/protocol.md, DESIGN.md §3).
KEY_LEN = {
    "aes-128-ecb": 16,
    "aes-256-ecb": 32,
    "aes-128-cbc": 16,
    "aes-256-cbc": 32,
    "aes-128-ctr": 16,
    "aes-256-ctr": 32,
    "chacha20": 32,
    "aes-128-gcm": 16,
    "aes-256-gcm": 32,
    "aes-128-ccm": 16,
    "aes-256-ccm": 32,
    "chacha20-poly1305": 32,
}
IV_LEN = {
    "aes-128-cbc": 16,
    "aes-256-cbc": 16,
    "aes-128-ctr": 16,
    "aes-256-ctr": 16,
    "chacha20": 12,
    "aes-128-gcm": 12,
    "aes-256-gcm": 12,
    "aes-128-ccm": 12,
    "aes-256-ccm": 12,
    "chacha20-poly1305": 12,
}
BLOCK = {"aes-128-ecb": 16, "aes-256-ecb": 16, "aes-128-cbc": 16, "aes-256-cbc": 16}
TAG_LEN = 16

COMMON_NOTES = [
    "timed with time.perf_counter_ns; each timed operation is one Python-level call written as a user "
    "would write it, so the interpreter's per-call cost is part of every figure (see noop for the floor)",
    "loop: `for _ in range(batch): sink ^= call()`, call() returns the first byte of the output; "
    "cyclic GC left enabled, as in a user's program",
]


class Rejected(Exception):
    """The library refused the input (an AEAD open whose tag does not verify)."""


@dataclass(frozen=True)
class CellSpec:
    alg: str
    op: str
    size: int
    chunk: int
    key: bytes
    iv: bytes
    msg: bytes  # the fixed input of `size` bytes


@dataclass(frozen=True)
class Cell:
    call: Callable[[], int]  # one timed operation -> first byte of its output
    output: Callable[[], bytes]  # the same operation -> its whole output (checksum, untimed)


def make_cell(call: Callable[[], int], output: Callable[[], bytes]) -> Cell:
    """A cell; when the output is empty (size 0) there is no first byte and call() folds its length."""
    if not output():

        def call() -> int:
            return len(output())

    return Cell(call, output)


def noop_cell() -> Cell:
    def call() -> int:
        return 0

    def output() -> bytes:
        return b""

    return Cell(call, output)


def split(data: bytes, chunk: int) -> list[bytes]:
    """`data` in `chunk`-byte pieces (the last may be shorter), cut outside the timed region."""
    return [data[i : i + chunk] for i in range(0, len(data), chunk)]


def check_cell_params(spec: CellSpec) -> None:
    """Errors for a bench cell's sizes: key and IV lengths, block multiples, chunk shape."""
    alg = spec.alg
    if alg in KEY_LEN and len(spec.key) != KEY_LEN[alg]:
        raise ValueError(f"{alg} key must be {KEY_LEN[alg]} bytes, got {len(spec.key)}")
    if alg in IV_LEN and len(spec.iv) != IV_LEN[alg]:
        raise ValueError(f"{alg} iv must be {IV_LEN[alg]} bytes, got {len(spec.iv)}")
    block = BLOCK.get(alg, 1)
    if spec.size % block:
        raise ValueError(f"{alg} size must be a multiple of {block}, got {spec.size}")
    if spec.chunk:
        if spec.size == 0:
            raise ValueError("chunk > 0 needs size > 0")
        if spec.chunk % block:
            raise ValueError(f"{alg} chunk must be a multiple of {block}, got {spec.chunk}")


class Provider:
    """Base of the provider catalogues; subclasses fill in the class attributes and methods."""

    id: str = ""
    language = "python"
    library: str = ""
    offers: dict[str, tuple[str, ...]] = {}
    stream: tuple[str, ...] = ()

    def library_version(self) -> str:
        raise NotImplementedError

    def notes(self) -> list[str]:
        return list(COMMON_NOTES)

    def execute(self, alg: str, case: dict) -> bytes:
        """Run one verify case; the output bytes, Rejected when the library refuses the input."""
        raise NotImplementedError

    def cell(self, spec: CellSpec) -> Cell:
        """Prepare one bench cell (already checked: alg/op offered, chunk only for stream algs)."""
        raise NotImplementedError


def case_bytes(case: dict, name: str, required: bool = True) -> bytes:
    """A hex field of a verify case as bytes (absent optional fields are empty)."""
    if name not in case:
        if required:
            raise ValueError(f"case has no {name!r}")
        return b""
    return unhex(case[name], name)
