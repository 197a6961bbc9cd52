import textwrap

import pytest

from cryptobench.core.errors import UserError
from cryptobench.plan.planner import Filters, plan
from cryptobench.plan.suites import list_suites, load_suite


def write(tmp_path, text):
    p = tmp_path / "s.toml"
    p.write_text(textwrap.dedent(text))
    return str(p)


def test_default_suite_matches_the_issue():
    s = load_suite("default")
    algs = [a for g in s.groups for a in g.algs]
    assert algs == ["sha256", "sha512", "sha3-256", "blake2b-512", "aes-128-cbc", "aes-256-cbc",
                    "aes-128-gcm", "aes-256-gcm", "chacha20-poly1305"]  # fmt: skip
    assert all(g.sizes == [64, 1024, 16384, 1 << 20] for g in s.groups)
    assert s.baseline == "c:openssl"
    cells = plan(s, ["c:openssl", "go:stdlib"], Filters())
    assert len(cells) == (4 + 2 * 2 + 3 * 2) * 4


def test_every_shipped_suite_loads():
    assert {s.name for s in list_suites()} >= {"default"}


@pytest.mark.parametrize(
    "text, said",
    [
        pytest.param('name = "x"\nsizes = ["1KiB"\n[[group]]\nalgs = ["sha256"]\n', r"malformed suite.*line 3",
                     id="malformed-toml-names-the-line"),
        pytest.param('sizes = ["1KiB"]\n\n[[group]]\nalgs = ["sha256", "sha257"]\n',
                     r"s.toml:4: unknown algorithm 'sha257'", id="unknown-algorithm-names-its-line"),
        pytest.param('sizes = ["1KiB", "12XB"]\n[[group]]\nalgs = ["sha256"]\n', r"s.toml:1: bad size '12XB'",
                     id="bad-size-names-its-line"),
        pytest.param('sizes = ["100"]\n[[group]]\nalgs = ["aes-128-cbc"]\n', "not a multiple of 16",
                     id="block-cipher-sizes-must-be-whole-blocks"),
        pytest.param('sizes = ["1KiB"]\n[[group]]\nalgs = ["sha256", "zz-*"]\n',
                     r"s.toml:3: algorithm pattern 'zz-\*' matches nothing", id="an-algorithm-glob-matching-nothing"),
    ],
)  # fmt: skip
def test_a_bad_suite_is_refused_saying_where(tmp_path, text, said):
    with pytest.raises(UserError, match=said):
        load_suite(write(tmp_path, text))


def test_unknown_keys_and_missing_groups(tmp_path):
    with pytest.raises(UserError, match=r":2: unknown key 'sizez'"):
        load_suite(write(tmp_path, 'name = "x"\nsizez = []\n[[group]]\nalgs = ["sha256"]\n'))
    with pytest.raises(UserError, match="at least one"):
        load_suite(write(tmp_path, 'name = "x"\nsizes = ["1KiB"]\n'))
    with pytest.raises(UserError, match="operation 'seal' is not offered"):
        load_suite(write(tmp_path, 'sizes = ["1KiB"]\n[[group]]\nalgs = ["sha256"]\nops = ["seal"]\n'))


def test_unknown_suite_name():
    with pytest.raises(UserError, match="unknown suite 'nope'.*known: .*default"):
        load_suite("nope")


def test_filters_narrow_with_globs():
    s = load_suite("default")
    cells = plan(s, ["c:openssl", "go:stdlib", "python:hashlib"], Filters.parse("aes-*-gcm", "c:*", "16KiB,1MiB"))
    assert {c.alg for c in cells} == {"aes-128-gcm", "aes-256-gcm"}
    assert {c.size for c in cells} == {16384, 1 << 20}
    assert all(c.providers == ("c:openssl",) for c in cells)
    cells = plan(s, ["c:openssl"], Filters.parse("sha256", None, "*MiB"))
    assert [c.size for c in cells] == [1 << 20]


def test_filters_that_match_nothing_are_errors():
    s = load_suite("default")
    with pytest.raises(UserError, match="unknown algorithm 'md5'"):
        plan(s, ["c:openssl"], Filters.parse("md5", None, None))
    with pytest.raises(UserError, match="unknown provider 'rust:\\*'"):
        plan(s, ["c:openssl"], Filters.parse(None, "rust:*", None))
    with pytest.raises(UserError, match="bad size"):
        Filters.parse(None, None, "12XB")
    with pytest.raises(UserError, match="nothing to measure.*aes-128-cbc at 100 B: not a multiple of its 16-byte"):
        plan(s, ["c:openssl"], Filters.parse("aes-128-cbc", None, "100"))


def test_a_groups_algorithms_may_be_globs_over_the_catalogue(tmp_path):
    """suites/conformance.toml names every algorithm as "*": it must not go stale as the catalogue grows."""
    from cryptobench.core import algorithms

    g = load_suite(
        write(tmp_path, 'sizes = ["1KiB"]\n[[group]]\nalgs = ["aes-128-*", "sha256", "aes-128-gcm"]\n')
    ).groups[0]
    assert set(g.algs) == {a for a in algorithms.ALGORITHMS if a.startswith("aes-128-")} | {"sha256"}
    assert len(g.algs) == len(set(g.algs))  # named twice, listed once
    everything = load_suite("conformance").groups[0].algs
    assert set(everything) == set(algorithms.ALGORITHMS) - {"noop"}
