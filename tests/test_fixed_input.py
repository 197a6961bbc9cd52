from cryptobench.core import fixed_input


def test_a_short_message_is_the_prefix_of_the_pattern_it_is_cut_from():
    """message() makes short inputs without the whole 1 MiB pattern (CLI start-up): same bytes."""
    whole = fixed_input.pattern()
    for n in (0, 1, 32, 4095, 4096, 4097, 65536):
        assert fixed_input.message(n) == whole[:n], n
    assert fixed_input.message(fixed_input.PERIOD + 5) == whole + whole[:5]
    assert fixed_input.message(32, seed=7) == fixed_input.pattern(7)[:32]


def test_the_fake_drivers_pattern_is_the_fixed_inputs_and_its_cached_copy_is_checked(tmp_path, monkeypatch):
    """The fake providers (tests/fake_driver.py) make the pattern on their own and keep a copy in the
    temporary directory: their pattern is the orchestrator's, the digest a copy is checked by is its
    digest, and a damaged copy is made again, not used."""
    import hashlib

    import fake_driver

    whole = fixed_input.pattern(fake_driver.DEFAULT_SEED)
    assert fake_driver.pattern(fake_driver.DEFAULT_SEED) == whole
    assert hashlib.sha256(whole).hexdigest() == fake_driver.DEFAULT_SHA256
    monkeypatch.setattr(fake_driver.tempfile, "gettempdir", lambda: str(tmp_path))
    assert fake_driver.default_pattern() == whole  # made, and kept
    copy = tmp_path / f"cryptobench-fake-pattern-{fake_driver.DEFAULT_SEED}"
    assert copy.read_bytes() == whole
    copy.write_bytes(b"\x00" + whole[1:])
    assert fake_driver.default_pattern() == whole and copy.read_bytes() == whole
