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
