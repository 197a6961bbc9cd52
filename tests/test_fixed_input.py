from cryptobench.core import fixed_input


def test_a_short_message_is_the_prefix_of_the_pattern_it_is_cut_from():
    """message() makes short inputs without the whole 1 MiB pattern (CLI start-up): same bytes."""
    whole = fixed_input.pattern()
    for n in (0, 1, 32, 4095, 4096, 4097, 65536):
        assert fixed_input.message(n) == whole[:n], n
    assert fixed_input.message(fixed_input.PERIOD + 5) == whole + whole[:5]
    assert fixed_input.message(32, seed=7) == fixed_input.pattern(7)[:32]
