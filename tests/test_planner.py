"""What a user names is measured or refused in one line: the suite is a default, not a cage."""

import pytest

from cryptobench.core.errors import UserError
from cryptobench.plan.planner import Filters, check_suite_providers, make_plan, plan
from cryptobench.plan.suites import load_suite

CORE = ["c:openssl", "go:stdlib", "python:cryptography", "python:hashlib"]


def keys(cells):
    return {(c.alg, c.op, c.size) for c in cells}


def test_a_cell_no_suite_lists_is_measured_on_the_providers_named():
    cells = plan(load_suite("default"), CORE + ["rust:ring"], Filters.parse("aes-256-ctr", "c:openssl", "8KiB"))
    assert keys(cells) == {("aes-256-ctr", "encrypt", 8192), ("aes-256-ctr", "decrypt", 8192)}
    assert all(c.providers == ("c:openssl",) for c in cells)


def test_an_algorithm_beyond_the_suite_reaches_every_built_provider_when_none_is_named():
    cells = plan(load_suite("default"), CORE + ["rust:ring"], Filters.parse("aes-256-ctr", None, None), reach=["x:y"])
    assert {c.size for c in cells} == {64, 1024, 16384, 1 << 20}
    assert all(c.providers == ("x:y",) for c in cells)


def test_an_explicit_size_is_measured_even_when_the_suite_lists_other_sizes():
    cells = plan(load_suite("default"), CORE, Filters.parse("sha256", None, "8KiB"))
    assert keys(cells) == {("sha256", "hash", 8192)}
    # globs still pick among the suite's sizes, and exact sizes add to them
    cells = plan(load_suite("default"), CORE, Filters.parse("sha256", None, "*MiB,3"))
    assert {c.size for c in cells} == {1 << 20, 3}


def test_repeated_flags_add_up():
    f = Filters.parse(["sha256", "sha512,sha256"], ["c:openssl", "go:stdlib"], ["1KiB", "16KiB"])
    assert f.algs == ["sha256", "sha512"] and f.providers == ["c:openssl", "go:stdlib"]
    cells = plan(load_suite("default"), CORE, f)
    assert keys(cells) == {(a, "hash", s) for a in ("sha256", "sha512") for s in (1024, 16384)}
    assert all(c.providers == ("c:openssl", "go:stdlib") for c in cells)


@pytest.mark.parametrize("value", ["", ",", [" ", ""]])
def test_an_empty_list_flag_is_refused_not_read_as_everything(value):
    with pytest.raises(UserError, match="--size .* names nothing"):
        Filters.parse(None, None, value)


def test_a_provider_the_suite_does_not_list_joins_every_group():
    # the default suite lists its four providers in every group: a providers-file provider named
    # with --provider used to be dropped from all of them, silently
    cells = plan(load_suite("default"), [*CORE, "test:mine"], Filters.parse(None, "test:mine,c:openssl", None))
    assert cells and all(c.providers == ("c:openssl", "test:mine") for c in cells)
    # a glob that matches none of the suite's providers reaches beyond the suite too
    cells = plan(
        load_suite("default"), [*CORE, "rust:ring", "rust:rustcrypto"], Filters.parse("sha256", "rust:*", None)
    )
    assert all(c.providers == ("rust:ring", "rust:rustcrypto") for c in cells)


def test_operations_that_take_no_message_keep_their_size():
    cells = plan(load_suite("pubkey"), ["c:openssl"], Filters.parse("ed25519", None, "1KiB"))
    assert keys(cells) == {("ed25519", "keygen", 0), ("ed25519", "sign", 1024), ("ed25519", "verify", 1024)}


def test_a_size_a_block_cipher_cannot_take_is_said_not_dropped():
    p = make_plan(load_suite("default"), CORE, Filters.parse("aes-128-cbc,sha256", None, "100"))
    assert keys(p.cells) == {("sha256", "hash", 100)}
    assert p.skipped == ["aes-128-cbc at 100 B: not a multiple of its 16-byte block"]


def test_a_suite_naming_an_unknown_provider_is_refused_with_its_line(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(
        'name = "s"\nsizes = ["1KiB"]\n[[group]]\nalgs = ["sha256"]\nproviders = ["c:openssl", "nosuch:x"]\n'
    )
    with pytest.raises(UserError, match=r"s\.toml:5: provider 'nosuch:x' is unknown"):
        check_suite_providers(load_suite(str(path)), CORE)
    check_suite_providers(load_suite("default"), CORE)  # a suite of known providers passes


def test_a_group_naming_no_provider_means_every_built_one(tmp_path):
    """A provider not built here would only fill such a group with failed cells (the pq suite's HQC
    group on a fresh clone: rust:boring, the wasm engines, OpenSSL 1.1.1 as FAILED columns); a group
    that names providers keeps them, built or not, and the run says which are not built."""
    p = tmp_path / "s.toml"
    p.write_text('name = "s"\nsizes = ["64B"]\n[[group]]\nalgs = ["sha256"]\n'
                 '[[group]]\nalgs = ["sha512"]\nproviders = ["go:stdlib", "rust:ring"]\n')  # fmt: skip
    cells = {c.alg: c.providers for c in plan(load_suite(str(p)), CORE + ["rust:ring"], Filters.parse(None, None, None),
                                              reach=CORE)}  # fmt: skip
    assert cells == {"sha256": tuple(CORE), "sha512": ("go:stdlib", "rust:ring")}
    # a provider the user names is measured or refused, built or not
    named = plan(load_suite(str(p)), CORE + ["rust:ring"], Filters.parse("sha256", "rust:ring", None), reach=CORE)
    assert {c.providers for c in named} == {("rust:ring",)}
