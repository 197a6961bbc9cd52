"""The order in which `make pytest`'s workers are handed their tests (tests/conftest.py): the longest work
unit first by tests/durations.tsv, a group's tests together and in their own order, the rest as found."""

from types import SimpleNamespace

from conftest import DEFAULT_SECONDS, expected_seconds, longest_first


def _items(*ids: str) -> list:
    return [SimpleNamespace(nodeid=i) for i in ids]


def _scope(item) -> str:  # "a.py::t@g" is in group g, as xdist names a grouped test
    return item.nodeid.split("@")[1] if "@" in item.nodeid else item.nodeid


def test_longest_unit_first_a_group_summed_and_kept_together_unknown_tests_in_their_order():
    items = _items("a.py::quick", "b.py::t1@g", "b.py::t2@g", "c.py::slow", "d.py::new1", "d.py::new2")
    seconds = {"a.py::quick": 0.5, "b.py::t1": 3.0, "b.py::t2": 4.0, "c.py::slow": 30.0}
    got = [i.nodeid for i in longest_first(items, _scope, seconds)]
    assert got == ["c.py::slow", "b.py::t1@g", "b.py::t2@g", "d.py::new1", "d.py::new2", "a.py::quick"]
    assert DEFAULT_SECONDS > 0.5  # a test not yet measured goes before one known to be quick


def test_durations_file_read_as_the_cpu_log_writes_it(tmp_path):
    log = tmp_path / "d.tsv"
    log.write_text("1.5\t12.25\ttests/x.py::t@grp\n0.1\t0.30\ttests/y.py::u[a@b]\nnot a line\n2\tx\ttests/z.py::v\n")
    assert expected_seconds(log) == {"tests/x.py::t": 12.25, "tests/y.py::u[a@b]": 0.3}
    assert expected_seconds(tmp_path / "missing.tsv") == {}
