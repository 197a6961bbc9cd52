"""The fixed input's check values from docs/protocol.md."""

from __future__ import annotations

import hashlib

import pytest

from cbdriver import inputs

SEED = 2654435769


def test_pattern_first_bytes():
    assert inputs.pattern(SEED)[:16].hex() == "193e3ab51f37d0bf39b8eeb4d33cb85f"
    assert len(inputs.pattern(SEED)) == 1 << 20


def test_fnv_of_first_kib():
    assert f"{inputs.fnv1a64(inputs.pattern(SEED)[:1024]):016x}" == "7ef541935f3b9cc9"


def test_fnv_of_whole_pattern():
    assert f"{inputs.fnv1a64(inputs.pattern(SEED)):016x}" == "1846d3257d44728c"


def test_sha256_of_first_kib_and_its_checksum():
    digest = hashlib.sha256(inputs.message(SEED, 1024)).digest()
    assert digest.hex() == "8ab783947bae918d01b74448625dfd0fef119e16e97d6fc9fdf15e310c87cb01"
    assert inputs.checksum(digest) == "00000020:fb4898be6151a393"


def test_empty_checksum():
    assert inputs.checksum(b"") == "00000000:cbf29ce484222325"


def test_message_repeats_with_the_period():
    p = inputs.pattern(SEED)
    m = inputs.message(SEED, 3 * len(p) + 5)
    assert len(m) == 3 * len(p) + 5
    assert m[: len(p)] == p and m[2 * len(p) : 3 * len(p)] == p and m[-5:] == p[:5]
    assert inputs.message(SEED, 0) == b""


@pytest.mark.parametrize("seed", [0, -1, 1 << 32])
def test_bad_seed(seed):
    with pytest.raises(ValueError):
        inputs.pattern(seed)


def test_unhex():
    assert inputs.unhex("00Ff", "key") == b"\x00\xff"
    for bad in ("0", "zz", " 00", 5):
        with pytest.raises(ValueError, match="key"):
            inputs.unhex(bad, "key")


@pytest.mark.parametrize(
    ("size", "chunk"),
    [
        (100, 33),  # all pieces cut up front
        ((1 << 20) + 100, 1 << 20),  # a piece crossing the period boundary
        ((3 << 20) + 5, 16),  # 196,609 pieces: one period's 65,536 cycled
        ((2 << 20) + 3, 17),  # odd chunk, 123k pieces and a 1 Mi-piece period: sliced lazily
    ],
)
def test_pieces_of_the_fixed_input_are_the_message(size, chunk):
    get = inputs.pieces(inputs.doubled_pattern(SEED), size, chunk, inputs.PATTERN_LEN)
    for _ in range(2):  # every call gives the whole stream again
        got = list(get())
        assert all(isinstance(p, memoryview) for p in got)  # views of the pattern, never copies
        assert [len(p) for p in got[:-1]] == [chunk] * (len(got) - 1) and 0 < len(got[-1]) <= chunk
        assert b"".join(got) == inputs.message(SEED, size)


def test_pieces_of_a_buffer_and_bad_shapes():
    data = bytes(range(256)) * 1000
    assert b"".join(inputs.pieces(data, len(data), 100)()) == data
    assert b"".join(inputs.pieces(data, len(data), 1)()) == data  # 256k pieces, no period: lazy
    with pytest.raises(ValueError):
        inputs.pieces(data, len(data) + 1, 100)
    with pytest.raises(ValueError):
        inputs.pieces(inputs.doubled_pattern(SEED), 10 << 20, (1 << 20) + 1, inputs.PATTERN_LEN)
    with pytest.raises(ValueError):
        inputs.pieces(data, 10, 0)


def test_incremental_checksum():
    c = inputs.Checksum()
    msg = inputs.message(SEED, 5000)
    for i in range(0, 5000, 77):
        c.update(memoryview(msg)[i : i + 77])
    assert c.text() == inputs.checksum(msg)
    assert inputs.Checksum().text() == "00000000:cbf29ce484222325"


def test_the_native_helper_is_built_and_agrees_with_the_python_loops():
    # a driver built by `make` has it; without it every checksum of a MiB costs 0.06 s more
    assert inputs.native is not None, f"{inputs.HELPER} not built (make -C drivers/python)"
    assert inputs.pattern(SEED) == inputs.pattern_py(SEED)
    assert inputs.pattern(1) == inputs.pattern_py(1)
    data = inputs.pattern(SEED)
    for piece in (data[:64], data[:1000], memoryview(data)[7:70_007], bytearray(data[:4096])):
        assert inputs.fnv1a64(piece) == inputs.fnv1a64_py(piece)
        assert inputs.fnv1a64(piece, 12345) == inputs.fnv1a64_py(piece, 12345)
