"""The overhead model recovers known costs; the pathology detector flags a re-chunking path only."""

import math

import pytest

from cryptobench.analysis import access_path
from cryptobench.report import build_report
from cryptobench.store import CellRecord, RunRecord, open_store

TOTAL = 16 * 1024 * 1024
CHUNKS = [0, 16, 64, 256, 4096, 65536]


def cell(provider, chunk, ns, alg="aes-128-ctr", op="encrypt", size=TOTAL):
    jitter = [0.999, 1.0, 1.001, 1.0, 0.9995, 1.0005, 1.0, 1.0, 0.998, 1.002, 1.0]
    samples = [max(1, round(ns * j)) for j in jitter]
    return CellRecord(
        provider, alg, op, size, chunk, "ok", batch=1, samples_ns=samples, checksum="x", checksums_seen=["x"]
    )


def healthy(a_ns, b_ns, chunk):
    calls = 1 if chunk == 0 else math.ceil(TOTAL / chunk)
    return a_ns * calls + b_ns * TOTAL


def rechunker(a_ns, b_ns, chunk):
    """Feeds every byte on its own, whatever piece it was given: the 140x binding."""
    return healthy(a_ns, b_ns, 0) if chunk == 0 else a_ns * TOTAL + b_ns * TOTAL


@pytest.fixture
def report(tmp_path):
    store = open_store(str(tmp_path / "g.db"))
    rid = store.create_run(RunRecord(None, "t", "granularity", {"baseline": "c:openssl"}, {}))
    models = {
        "c:openssl": (healthy, 40.0, 0.2),
        "cpp:botan": (healthy, 60.0, 0.35),
        "python:cryptography": (healthy, 300.0, 0.2),
        "go:stdlib": (healthy, 25.0, 0.3),
        "test:bytewise": (rechunker, 40.0, 0.2),
        # a costly call (Node's ~0.5 µs): 35% of one-shot in 4 KiB pieces, 90% in 64 KiB - not a pathology
        "test:costly-call": (healthy, 1500.0, 0.2),
        # slow per byte, cheap per call: flat over the piece size beside growing peers - not a pathology
        "test:slow-per-byte": (healthy, 5.0, 5.0),
    }
    for pid, (model, a, b) in models.items():
        store.add_provider(rid, pid, {})
        for c in CHUNKS:
            store.add_cell(rid, cell(pid, c, model(a, b, c)))
    return build_report(*store.load_run(rid))


def test_overhead_model_recovers_known_costs(report):
    fits = {f.provider: f for f in report.overheads}
    for pid, a, b in (("c:openssl", 40.0, 0.2), ("python:cryptography", 300.0, 0.2), ("go:stdlib", 25.0, 0.3)):
        f = fits[pid]
        assert f.a_ns == pytest.approx(a, rel=0.02), pid
        assert f.b_ns == pytest.approx(b, rel=0.02), pid
        assert f.a_ci[0] <= a <= f.a_ci[1] or f.a_ci[1] - f.a_ci[0] < 0.1 * a


def test_binding_cost_is_the_difference_of_fixed_costs(report):
    (ffi,) = [b for b in report.binding_costs if b["binding"] == "python:cryptography"]
    assert ffi["native"] == "c:openssl"
    assert ffi["extra_ns_per_call"] == pytest.approx(260.0, rel=0.05)


def test_only_the_rechunking_path_is_flagged(report):
    flagged = {p["provider"] for p in report.pathologies}
    assert flagged == {"test:bytewise"}
    (why,) = [p["why"] for p in report.pathologies]
    assert "of its own one-shot throughput even in" in why and "its best of 4 KiB or more" in why
    assert any(w.startswith("access-path pathology: test:bytewise") for w in report.warnings)


def test_stalled_growth_is_flagged_without_a_one_shot_cell():
    class R:  # the minimum a row needs for the detector
        def __init__(self, pid, chunk, mbs):
            self.provider, self.ok, self.public_key = pid, True, False
            self.cell = CellRecord(pid, "sha256", "hash", TOTAL, chunk, "ok")
            self._mbs = mbs

        def mb_per_s(self):
            return self._mbs

    rows = [
        R(p, c, mbs) for p, f in (("a", 1), ("b", 1.2), ("c", 0.8)) for c, mbs in ((256, 100 * f), (65536, 900 * f))
    ]
    rows += [R("stuck", 256, 50), R("stuck", 65536, 55)]
    flags = access_path.pathologies(rows)
    assert [f["provider"] for f in flags] == ["stuck"] and "stops growing" in flags[0]["why"]


def test_linear_fit_exact_line():
    slope, icpt, se_s, se_i = access_path.linear_fit([1, 2, 3, 4], [5, 7, 9, 11])
    assert (slope, icpt) == (2, 3) and se_s == 0 and se_i == 0


def _fit(pid, b, lo, hi):
    return access_path.Fit(
        pid, "aes-128-ctr", "encrypt", "chunk sweep over 4194304 bytes", 10.0, (5.0, 15.0), b, (lo, hi), 6
    )


def test_a_binding_that_pays_per_byte_is_flagged_one_that_pays_per_call_is_not():
    """Measured here: c:botan-ffi CTR pays 6.7 ns/byte where Botan's C++ API pays 0.16 (the 1-byte
    granularity of botan_cipher_update); js:node pays 0.20 where c:openssl pays 0.09, intervals overlapping."""
    fits = [
        _fit("cpp:botan", 0.16, 0.10, 0.22),
        _fit("c:botan-ffi", 6.74, 6.17, 7.31),
        _fit("c:openssl", 0.091, 0.067, 0.116),
        _fit("js:node", 0.204, 0.088, 0.320),
    ]
    flags = access_path.binding_pathologies(fits)
    assert [f["provider"] for f in flags] == ["c:botan-ffi"]
    assert "42x" in flags[0]["why"] and "cpp:botan" in flags[0]["why"]
