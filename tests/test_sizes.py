"""Bytes beside time (report/sizes.py): sizes from the outputs' checksums, the standard's otherwise,
a provider whose outputs are not the standard's sizes named, and the sizes layout in every format."""

import csv
import io
import json

from cryptobench.report import build_report, sizes
from cryptobench.report.formats import csv as csv_format
from cryptobench.report.formats import json_, markdown, terminal
from cryptobench.store.model import CellRecord, RunRecord


def _cell(provider, alg, op, out_len, ns=50_000, status="ok", size=0):
    return CellRecord(provider, alg, op, size, 0, status, batch=1, samples_ns=[ns + i for i in range(12)],
                      checksum=f"{out_len:08x}:0123456789abcdef" if out_len is not None else "", rounds=3)  # fmt: skip


def _report(cells, layout="sizes"):
    run = RunRecord(1, "2026-11-26T00:00:00+00:00", "pq", {"baseline": "a:one"}, {}, status="complete")
    return build_report(run, [], cells, layout=layout)


def test_sizes_come_from_the_outputs_and_a_revision_that_differs_is_named():
    cells = [
        _cell("a:one", "ml-kem-768", "keygen", 1184),
        _cell("a:one", "ml-kem-768", "encaps", 1088 + 32),
        _cell("a:one", "ml-kem-768", "decaps", 32),
        # the 2023 HQC's outputs under the 2025 name: its sizes are not the standard's
        _cell("b:two", "hqc-1", "keygen", 2249),
        _cell("b:two", "hqc-1", "encaps", 4433 + 64),
        _cell("b:two", "hqc-1", "decaps", 64),
        # a provider whose ML-KEM public key is one byte long is not the standard's
        _cell("b:two", "ml-kem-768", "keygen", 1185),
        _cell("b:two", "ml-kem-768", "encaps", None, status="not-offered"),
        _cell("c:three", "x25519", "keygen", None, status="not-offered"),
    ]
    rep = _report(cells)
    got = {(p.alg, p.provider): p for p in sizes.collect(rep)}
    assert ("x25519", "c:three") not in got  # offers nothing of it: no row
    assert got[("ml-kem-768", "a:one")].measured == {"public key": 1184, "ciphertext": 1088, "shared secret": 32}
    assert got[("hqc-1", "b:two")].measured == {"public key": 2249, "ciphertext": 4433, "shared secret": 64}
    assert got[("ml-kem-768", "a:one")].differs() == []
    assert sorted(sizes.notes(rep)) == [
        "b:two hqc-1: public key 2,249 B, the standard says 2,241 B",
        "b:two hqc-1: shared secret 64 B, the standard says 32 B",
        "b:two ml-kem-768: public key 1,185 B, the standard says 1,184 B",
    ]
    headers, rows = sizes.table(rep)
    row = next(r for r in rows if r[:2] == ["ml-kem-768", "a:one"])
    assert row[2:5] == ["1,184 B", "2,400 B", "1,088 B"]  # secret key: the standard's (no output shows it)
    assert row[5] == "19,998/s ±0.0%"  # a median of 50,005.5 ns


def test_a_variable_signature_is_at_most_its_maximum():
    cells = [_cell("a:one", "falcon-512", "sign", 655, size=32), _cell("a:one", "falcon-512", "keygen", 897)]
    cells[0].checksums_seen = ["00000290:00", "0000028a:00"]  # 656, 650 bytes in other rounds
    (ps,) = sizes.collect(_report(cells))
    assert ps.measured == {"public key": 897, "signature": 656} and ps.differs() == []
    cells[0].checksums_seen = ["00000300:00"]  # 768 > 752
    (ps,) = sizes.collect(_report(cells))
    assert ps.differs() == ["signature 768 B, over the standard's maximum 752 B"]


def test_every_format_carries_the_sizes():
    cells = [_cell("a:one", "slh-dsa-sha2-128s", "sign", 7856, ns=9_000_000, size=32)]
    rep = _report(cells)
    doc = json.loads(json_.render(rep))
    assert doc["cells"][0]["output_bytes"] == 7856
    assert doc["sizes"] == [{"alg": "slh-dsa-sha2-128s", "provider": "a:one", "standard": "FIPS 205",
                             "standard_bytes": {"public key": 32, "secret key": 64, "signature": 7856},
                             "measured_bytes": {"signature": 7856}, "differs": []}]  # fmt: skip
    (row,) = list(csv.DictReader(io.StringIO(csv_format.render(rep))))
    assert row["output_bytes"] == "7856"
    md = markdown.render(rep)
    assert sizes.TITLE in md and "| slh-dsa-sha2-128s | a:one | 32 B | 64 B | 7,856 B |" in md
    assert "FIPS 205; public key 32 B, secret key 64 B, signature 7,856 B" in md
    assert sizes.TITLE in terminal.render(rep, width=200)
    # the table layout shows no sizes table (the JSON still has them)
    assert sizes.TITLE not in markdown.render(_report(cells, layout="table"))


def test_a_symmetric_algorithm_in_an_ops_layout_keeps_its_mb_per_s_table():
    cells = [_cell("a:one", "ml-kem-768", "keygen", 1184), _cell("a:one", "ascon-aead128", "seal", 1040, size=1024)]
    md = markdown.render(_report(cells, layout="ops"))
    assert "## ml-kem-768\n" in md and "## ascon-aead128 — seal" in md
    assert "| 1 KiB | 20 ±" in md, md  # 1,024 bytes in 50 µs: 20 MB/s, in the MB/s matrix
