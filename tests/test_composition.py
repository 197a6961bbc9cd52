"""A protocol step beside the sum of its primitives, from stored cells with known medians."""

import pytest

from cryptobench.analysis import composition
from cryptobench.report import build_report
from cryptobench.report.formats import markdown as md_report
from cryptobench.store import CellRecord, RunRecord, open_store


def cell(alg, op, size, ns):
    samples = [ns - 2, ns - 1, ns, ns, ns + 1, ns + 2, ns, ns - 1, ns + 1, ns, ns]
    return CellRecord(
        "go:stdlib", alg, op, size, 0, "ok", batch=1, samples_ns=samples, checksum="x", checksums_seen=["x"]
    )


def test_primitives_follow_the_specification():
    assert composition.primitives("ntor", "client-create") == [("x25519", "keygen", 0, 1)]
    full = {(a, o, s): n for a, o, s, n in composition.primitives("pq-ntor-768", "full")}
    assert full[("x25519", "keygen", 0)] == 2 and full[("x25519", "derive", 0)] == 4
    assert (
        full[("ml-kem-768", "keygen", 0)] == full[("ml-kem-768", "encaps", 0)] == full[("ml-kem-768", "decaps", 0)] == 1
    )
    assert full[("hkdf-sha256", "derive", 2527)] == 2 and full[("hmac-sha256", "mac", 2469)] == 2


def test_step_beside_its_primitive_sum(tmp_path):
    store = open_store(str(tmp_path / "p.db"))
    rid = store.create_run(RunRecord(None, "t", "pq-ntor", {"baseline": "go:stdlib"}, {}))
    store.add_provider(rid, "go:stdlib", {})
    for alg, op, size, ns in [("ntor", "client-create", 0, 50_000), ("x25519", "keygen", 0, 40_000),
                              ("pq-ntor-768", "client-create", 0, 200_000), ("ml-kem-768", "keygen", 0, 120_000)]:  # fmt: skip
        store.add_cell(rid, cell(alg, op, size, ns))
    rep = build_report(*store.load_run(rid))
    steps = {(s.suite, s.step): s for s in composition.compare_steps(rep.rows)}
    ntor = steps[("ntor", "client-create")]
    assert ntor.sum_ns == pytest.approx(40_000) and ntor.overhead_ns == pytest.approx(10_000)
    pq = steps[("pq-ntor-768", "client-create")]
    assert pq.sum_ns == pytest.approx(160_000) and pq.overhead_ns == pytest.approx(40_000)
    assert pq.overhead_half > 0
    md = md_report.render(rep)
    assert "## Protocol steps beside the sum of their primitives" in md
    assert "| go:stdlib | pq-ntor-768 | client-create | 200.0 ±" in md and "(+25%)" in md


def test_missing_primitives_are_named(tmp_path):
    store = open_store(str(tmp_path / "p.db"))
    rid = store.create_run(RunRecord(None, "t", "pq-ntor", {"baseline": "go:stdlib"}, {}))
    store.add_cell(rid, cell("ntor", "server-reply", 0, 90_000))
    rep = build_report(*store.load_run(rid))
    (s,) = composition.compare_steps(rep.rows)
    assert s.sum_ns is None and "x25519 derive" in s.missing and "hmac-sha256 mac 178 B" in s.missing
