import pytest

from cryptobench.core.errors import UserError
from cryptobench.core.units import format_ns, format_size, parse_size, parse_sizes


@pytest.mark.parametrize(
    "text,n",
    [
        ("64", 64),
        ("64B", 64),
        ("1KiB", 1024),
        ("1K", 1024),
        ("16kib", 16384),
        ("1MiB", 1 << 20),
        ("100MB", 10**8),
        (7, 7),
    ],
)
def test_parse_size(text, n):
    assert parse_size(text) == n


@pytest.mark.parametrize("bad", ["", "abc", "12XB", "-1", "1.5KiB", "5GiB", True])
def test_bad_sizes_are_user_errors(bad):
    with pytest.raises(UserError, match="bad size"):
        parse_size(bad)


def test_format_roundtrip():
    for n in (64, 1024, 16384, 1 << 20, 10**8, 1500):
        assert parse_size(format_size(n).replace(" ", "")) == n
    assert parse_sizes("1KiB, 16KiB") == [1024, 16384]


def test_format_ns_units():
    assert format_ns(850) == "850 ns"
    assert format_ns(1500) == "1.50 µs"
    assert format_ns(2_500_000) == "2.50 ms"
    assert format_ns(float("nan")) == "-"
