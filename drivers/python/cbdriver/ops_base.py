"""The interface every provider module implements, and what the providers share.

A provider is a catalogue (`offers`, `stream`), a case executor for `verify`
(`execute`), a key-pair maker for `keypair` and a cell factory for `bench`
(`cell`). A `Cell` is prepared once and exposes `call()`, exactly one operation
returning the first byte of its output (folded into the sink by the shared loop
in timing.py), and `checksum()`, the same operation once more, untimed, giving
the checksum of its whole output (fed piece by piece for streamed cells).
"""

from __future__ import annotations

import platform
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from importlib import metadata

from . import inputs, timing
from .inputs import unhex


def package_on_python(dist: str) -> str:
    """A provider's library_version: `<dist> <version> on Python <version>`, the package's version
    as pip installed it ("not installed" when it is not)."""
    try:
        v = metadata.version(dist)
    except metadata.PackageNotFoundError:
        v = "not installed"
    return f"{dist} {v} on Python {platform.python_version()}"


# Parameter sizes of the algorithms the Python providers serve (docs/protocol.md, the timed region).
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
    "sm4-ecb": 16,
    "sm4-cbc": 16,
    "sm4-ctr": 16,
    "sm4-gcm": 16,
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
    "sm4-cbc": 16,
    "sm4-ctr": 16,
    "sm4-gcm": 12,
}
BLOCK = dict.fromkeys(("aes-128-ecb", "aes-256-ecb", "aes-128-cbc", "aes-256-cbc", "sm4-ecb", "sm4-cbc"), 16)
TAG_LEN = 16

COMMON_NOTES = [
    "timed with time.perf_counter_ns; each timed operation is one Python-level call written as a user "
    "would write it, so the interpreter's per-call cost is part of every figure (see noop for the floor)",
    "loop: `for _ in range(batch): sink ^= call()`, call() returns the first byte of the output; "
    "cyclic GC left enabled, as in a user's program",
]


class Rejected(Exception):
    """The library refused the input (an AEAD open whose tag does not verify, a bad signature or key)."""


class Unsupported(Exception):
    """The library has no API for this variant of the operation (reported as `unsupported`)."""


@dataclass(frozen=True)
class CellSpec:
    alg: str
    op: str
    size: int
    chunk: int
    key: bytes
    iv: bytes
    seed: int
    msg: bytes = b""  # the fixed input of `size` bytes; never materialised for streamed cells (chunk > 0)

    def input_pieces(self) -> Callable[[], Iterable[memoryview]]:
        """The fixed input in `chunk`-byte pieces read from the doubled pattern (streamed cells)."""
        return inputs.pieces(inputs.doubled_pattern(self.seed), self.size, self.chunk, inputs.PATTERN_LEN)


@dataclass(frozen=True)
class Cell:
    call: Callable[[], int]  # one timed operation -> first byte of its output
    checksum: Callable[[], str]  # the same operation once, untimed -> the checksum of its whole output
    output: Callable[[], bytes] | None = None  # the same operation -> its whole output (not for streams)
    untimed: timing.Untimed = timing.NOTHING_UNTIMED  # work inside `call` the timed batch subtracts


def copied_cell(keyed, finish: Callable[[object], bytes], spec: CellSpec) -> Cell:
    """A cell over a prepared keyed object (HMAC): each operation copies it, absorbs the message (whole,
    or the cell's pieces) and calls `finish` (an unbound method, so no extra frame is timed)."""
    if not spec.chunk:
        msg = spec.msg

        def output() -> bytes:
            h = keyed.copy()
            h.update(msg)
            return finish(h)

        def call() -> int:
            h = keyed.copy()
            h.update(msg)
            return finish(h)[0]

        return make_cell(call, output)
    pieces = spec.input_pieces()

    def output() -> bytes:
        h = keyed.copy()
        for p in pieces():
            h.update(p)
        return finish(h)

    def call() -> int:
        h = keyed.copy()
        for p in pieces():
            h.update(p)
        return finish(h)[0]

    return make_cell(call, output)


def make_cell(call: Callable[[], int], output: Callable[[], bytes], empty: bool | None = None) -> Cell:
    """A cell from `output()` (one operation -> its whole output); when the output is empty (size 0)
    there is no first byte and call() folds its length. `empty=False` skips the probe (costly ops)."""
    if empty is None:
        empty = not output()
    if empty:

        def call() -> int:
            return len(output())

    return Cell(call, lambda: inputs.checksum(output()), output)


def output_cell(output: Callable[[], bytes]) -> Cell:
    """A cell from `output()` alone: the timed call is `output()[0]`, one Python call per operation
    more than a hand-written call() (the built-in providers write both to keep that call out)."""
    return make_cell(lambda: output()[0], output)


def stream_cell(
    call: Callable[[], int], run: Callable[[Callable[[bytes], None]], None],
    untimed: timing.Untimed = timing.NOTHING_UNTIMED,
) -> Cell:  # fmt: skip
    """A streamed cell: `run(emit)` performs one operation, passing each piece of output to `emit`,
    so the checksum covers the whole output stream without holding it."""

    def checksum() -> str:
        c = inputs.Checksum()
        run(c.update)
        return c.text()

    return Cell(call, checksum, untimed=untimed)


# Above this a streamed decrypt/open makes its ciphertext again piece by piece, off the clock,
# instead of holding all of it (docs/protocol.md, "With chunk > 0")
REGENERATE_ABOVE = 64 * 1024 * 1024


def regenerated(plain: Callable[[], Iterable[memoryview]], encryptor: Callable[[], object],
                untimed: timing.Untimed, tag: list) -> Callable[[], Iterable[bytes]]:  # fmt: skip
    """The ciphertext of the streamed message, each piece made just before it is consumed by a fresh
    encryptor of the same key and nonce; the time that takes is added to `untimed` (the timed batch
    subtracts it). After the last piece, `tag[0]` is the encryptor's tag (AEAD), if it has one."""
    clock = timing.clock

    def pieces() -> Iterable[bytes]:
        t0 = clock()
        enc = encryptor()
        untimed.ns += clock() - t0
        for p in plain():
            t0 = clock()
            piece = enc.update(p)
            untimed.ns += clock() - t0
            yield piece
        t0 = clock()
        enc.finalize()  # stream modes and unpadded blocks: nothing more
        tag[:] = [getattr(enc, "tag", None)]
        untimed.ns += clock() - t0

    return pieces


def noop_cell() -> Cell:
    def call() -> int:
        return 0

    def output() -> bytes:
        return b""

    return Cell(call, lambda: inputs.checksum(output()), output)


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
        if spec.chunk > inputs.PATTERN_LEN:
            raise ValueError(f"chunk is at most {inputs.PATTERN_LEN} bytes (1 MiB), got {spec.chunk}")
        if spec.chunk % block:
            raise ValueError(
                f"not offered: {alg} is streamed in whole {block}-byte blocks, chunk {spec.chunk} is not one"
            )


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
        """Run one verify case; the output bytes, Rejected when the library refuses the input,
        Unsupported when it has no API for the variant asked for."""
        raise NotImplementedError

    def prepare(self, alg: str, case: dict) -> Callable[[], bytes]:
        """A case made ready outside any clock: the returned call is its one operation (the `leak`
        request times it). A provider that only has execute() cannot be leak-checked faithfully."""
        raise NotImplementedError(f"not offered: {self.id} prepares no case apart from running it (leak)")

    def keypair(self, alg: str) -> tuple[bytes, bytes]:
        """A fresh key pair (public, private) in the encodings of docs/protocol.md."""
        raise ValueError(f"{alg} has no key pair in {self.id}")

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
