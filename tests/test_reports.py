"""Every report format rendered from one stored run with known contents."""

import csv
import io
import json

import pytest

from cryptobench.report import build_report
from cryptobench.report.formats import csv as csv_report
from cryptobench.report.formats import json_ as json_report
from cryptobench.report.formats import markdown as md_report
from cryptobench.report.formats import terminal as term_report
from cryptobench.store import CellRecord, RunRecord, VerifyRecord, open_store

GOOD_SUM = "00000020:fb4898be6151a393"


def cell(provider, ns, size=1024, alg="sha256", op="hash", checksum=GOOD_SUM, **kw):
    samples = [ns * 100 + d for d in (-30, -10, 0, 0, 5, 10, 20, -20, 15, -5, 0, 3)]
    return CellRecord(provider, alg, op, size, 0, "ok", batch=100, samples_ns=samples, checksum=checksum,
                      checksums_seen=[checksum], rounds=2, **kw)  # fmt: skip


@pytest.fixture
def stored(tmp_path):
    store = open_store(str(tmp_path / "r.db"))
    run = RunRecord(None, "2026-11-22T10:00:00+00:00", "default", {"baseline": "c:openssl", "noise": 0.02},
                    {"cpu_model": "Test CPU", "cores": 2, "cpu_flags": ["aes", "sha_ni"], "kernel": "Linux 6",
                     "governor": "performance", "load_start": [0.1], "git_commit": "abc", "cryptobench": "0.1.0"})  # fmt: skip
    rid = store.create_run(run)
    for pid in ("c:openssl", "go:stdlib", "python:hashlib", "python:cryptography"):
        store.add_provider(rid, pid, {"library_version": f"{pid} 1.0", "clock": {"resolution_ns": 20}, "runtime": "x"})
    store.add_verification(rid, VerifyRecord("c:openssl", "sha256", "passed", passed=3))
    store.add_verification(rid, VerifyRecord("python:cryptography", "sha256", "failed", passed=2, failed=1,
                                             detail="failed: vector kat/basic.json#2: output differs"))  # fmt: skip
    store.add_cell(rid, cell("c:openssl", 1000))
    store.add_cell(rid, cell("go:stdlib", 2000))  # twice as slow
    store.add_cell(rid, cell("python:hashlib", 1002, checksum="00000020:0000000000000bad"))  # same speed, other output
    store.add_cell(rid, CellRecord("python:cryptography", "sha256", "hash", 1024, 0, "failed",
                                   reason="failed: vector kat/basic.json#2: output differs"))  # fmt: skip
    store.add_cell(rid, CellRecord("go:stdlib", "aes-128-ccm", "seal", 1024, 0, "not-offered", reason="not offered"))
    store.finish_run(rid, "complete", "2026-11-22T10:02:00+00:00", {"load_end": [0.2]})
    return build_report(*store.load_run(rid))


def test_model_ratios_verdicts_and_flags(stored):
    rows = {r.provider: r for r in stored.rows if r.cell.alg == "sha256"}
    assert rows["c:openssl"].verdict == "baseline"
    assert rows["go:stdlib"].verdict == "slower"
    assert rows["go:stdlib"].speedup[0] == pytest.approx(0.5, rel=0.01)
    assert rows["python:hashlib"].verdict == "same (within noise)"
    assert rows["python:hashlib"].checksum_mismatch and rows["c:openssl"].checksum_mismatch
    assert rows["c:openssl"].mb_per_s() == pytest.approx(1024 / 1000 * 1e3)
    assert any("outputs disagree for sha256 hash 1 KiB" in w for w in stored.warnings)
    assert any("python:cryptography sha256 hash 1 KiB: failed: vector kat/basic.json#2" in f for f in stored.failures)
    assert any("aes-128-ccm" in n for n in stored.not_offered)


def test_terminal(stored):
    out = term_report.render(stored)
    assert "sha256 — hash" in out
    assert "0.50x" in out and "slower" in out and "1.00x (baseline)" in out
    assert "OUTPUT DIFFERS" in out
    assert "failed: vector kat/basic.json#2" in out
    assert "Test CPU" in out


def test_markdown(stored):
    out = md_report.render(stored)
    assert out.startswith("# cryptobench report — run 1 (default)")
    for section in ("## Environment", "## Providers", "## sha256 — hash", "## Verification", "## Warnings",
                    "## Failures", "## Not offered"):  # fmt: skip
        assert section in out, section
    assert "| go:stdlib | 1 KiB | 2.00 µs | 512.0 |" in out
    assert "aes sha_ni" in out


def test_json_follows_the_documented_schema(stored):
    doc = json.loads(json_report.render(stored))
    assert doc["schema"] == "cryptobench-result" and doc["schema_version"] == 16
    assert len(doc["run"]["uid"]) == 32 and "job" in doc["run"]
    assert set(doc) >= {"run", "environment", "providers", "baseline", "verification", "cells", "warnings", "failures"}
    go = next(c for c in doc["cells"] if c["provider"] == "go:stdlib" and c["alg"] == "sha256")
    assert go["stats"]["median_ns"] == pytest.approx(2000, rel=0.001)
    assert go["vs_baseline"]["verdict"] == "slower"
    assert go["samples_ns"][:2] == [199970, 199990]  # raw samples kept
    lo, hi = go["vs_baseline"]["speedup_ci95"]
    assert lo < go["vs_baseline"]["speedup"] < hi
    # stored without pair rounds: the two medians' independent interval, and no pairs to export
    assert (go["vs_baseline"]["estimator"], go["vs_baseline"]["pairs"], go["vs_baseline"]["pairs_ns"]) == (
        "independent",
        0,
        [],
    )
    kinds = {k["kind"]: k for k in doc["warnings_by_kind"]}
    assert kinds["outputs-disagree"]["count"] == 1 and "sha256 hash 1 KiB" in kinds["outputs-disagree"]["worst"][0]


def test_csv_has_one_row_per_cell(stored):
    rows = list(csv.DictReader(io.StringIO(csv_report.render(stored))))
    assert len(rows) == 5
    go = next(r for r in rows if r["provider"] == "go:stdlib" and r["alg"] == "sha256")
    assert float(go["speedup"]) == pytest.approx(0.5, rel=0.01) and go["verdict"] == "slower"
    failed = next(r for r in rows if r["provider"] == "python:cryptography")
    assert failed["status"] == "failed" and failed["median_ns"] == ""


def test_identical_figures_are_flagged(tmp_path):
    store = open_store(str(tmp_path / "p.db"))
    rid = store.create_run(RunRecord(None, "t", "pubkey", {"baseline": "c:openssl"}, {}))
    store.add_provider(rid, "c:openssl", {})
    samples = [1_000_000] * 12  # the placeholder: exactly 1,000 op/s everywhere
    for alg in ("sha256", "sha512"):
        store.add_cell(rid, CellRecord("c:openssl", alg, "hash", 64, 0, "ok", batch=1, samples_ns=samples,
                                       checksum=GOOD_SUM, checksums_seen=[GOOD_SUM]))  # fmt: skip
    rep = build_report(*store.load_run(rid))
    assert any(w.startswith("identical figures") for w in rep.warnings)


@pytest.mark.parametrize("disturbed,flagged", [(0, False), (2, False), (5, True)])
def test_a_busy_machine_is_named_once_for_the_whole_run(tmp_path, disturbed, flagged):
    """Cells whose rounds ran 25% apart, in half the run or more: one run-level warning, first."""
    store = open_store(str(tmp_path / "b.db"))
    rid = store.create_run(RunRecord(None, "t", "default", {"baseline": "c:openssl"}, {}))
    store.add_provider(rid, "c:openssl", {})
    for i, size in enumerate((64, 128, 256, 512, 1024, 2048, 4096, 8192)):
        slow = 1.4 if i < disturbed else 1.01  # one round of three ran this much slower
        samples = [1000.0] * 5 + [1000.0 * slow] * 5 + [1000.0] * 5
        store.add_cell(rid, CellRecord("c:openssl", "sha256", "hash", size, 0, "ok", batch=1, samples_ns=samples,
                                       checksum=GOOD_SUM, checksums_seen=[GOOD_SUM],
                                       extra={"round_sizes": [5, 5, 5]}))  # fmt: skip
    rep = build_report(*store.load_run(rid))
    busy = [w for w in rep.warnings if w.startswith("the machine was busy")]
    assert len(busy) == (1 if flagged else 0)
    if flagged:
        assert rep.warnings[0] == busy[0] and "in 5 of 8 cells" in busy[0]


HOSTILE = "<script>alert(1)</script> \x1b[31mred\x1b[0m [bold]markup[/bold]"


@pytest.fixture
def hostile(tmp_path):
    """A run whose driver strings are hostile: HTML, ANSI sequences and rich markup."""
    store = open_store(str(tmp_path / "h.db"))
    run = RunRecord(None, "2026-11-22T10:00:00+00:00", "default", {"baseline": "c:openssl"}, {"cpu_model": HOSTILE})
    rid = store.create_run(run)
    store.add_provider(rid, "c:openssl", {"library": HOSTILE, "library_version": HOSTILE, "runtime": HOSTILE})
    store.add_cell(rid, cell("c:openssl", 1000))
    store.add_cell(rid, CellRecord("c:openssl", "sha512", "hash", 1024, 0, "failed", reason=f"failed: {HOSTILE}"))
    store.finish_run(rid, "complete", "2026-11-22T10:02:00+00:00")
    return build_report(*store.load_run(rid))


def test_markdown_passes_no_driver_string_through_as_markup(hostile):
    md = md_report.render(hostile)
    assert "<script>" not in md and "&lt;script>alert(1)&lt;/script>" in md
    assert "\x1b" not in md and "\\x1b[31mred" in md


def test_terminal_prints_no_control_sequence_and_no_markup_from_a_driver(hostile):
    out = term_report.render(hostile, color=False)
    assert "\x1b" not in out and "\\x1b[31mred" in out
    assert "[bold]markup[/bold]" in out  # shown as written, not interpreted
    assert "[bold]markup[/bold]" in term_report.render_warnings(hostile)


def test_the_terminal_counts_warnings_by_kind_and_names_the_worst(tmp_path):
    store = open_store(str(tmp_path / "w.db"))
    rid = store.create_run(RunRecord(None, "2026-11-22T10:00:00+00:00", "default", {"baseline": "c:openssl"}, {}))
    store.add_provider(rid, "c:openssl", {"clock": {"resolution_ns": 1}})

    def noisy(size, spread):  # a cell whose coefficient of variation grows with `spread`
        samples = [100_000 + d * spread for d in (-3, -2, -1, 0, 0, 1, 2, 3, 4, 5, 6, 7)]
        return CellRecord("c:openssl", "sha256", "hash", size, 0, "ok", batch=100, samples_ns=samples,
                          checksum=GOOD_SUM, checksums_seen=[GOOD_SUM], rounds=1)  # fmt: skip

    for i, size in enumerate((64, 128, 256, 512, 1024)):
        store.add_cell(rid, noisy(size, 3_000 * (i + 1)))
    store.finish_run(rid, "complete", "2026-11-22T10:02:00+00:00")
    rep = build_report(*store.load_run(rid))
    cv = [w for w in rep.warnings if "coefficient of variation" in w]
    assert len(cv) == 5
    out = term_report.render(rep)
    summary = out[out.index("5 warnings") :]
    assert "5 × coefficient of variation over 5%, worst:" in summary
    # the two worst (largest spread: 1 KiB, then 512 B) are named; the other three only counted
    assert "sha256 hash 1 KiB" in summary and "sha256 hash 512 B" in summary and "hash 64 B" not in summary
    assert f"cryptobench show {rid} --warnings" in summary
    full = term_report.render_warnings(rep)
    assert all(w in full for w in cv)


def test_every_run_exporter_renders_the_same_run(stored):
    """One registry: each format it lists lays out the same figures (go:stdlib is twice as slow)."""
    from cryptobench.report import exporters

    names = [e.name for e in exporters.EXPORTERS if e.subject == exporters.RUN]
    assert names == ["terminal", "json", "csv", "md", "html"]
    for name in names:
        e = exporters.get(exporters.RUN, name)
        if name == "html":
            try:
                e.available()
            except Exception:  # the chart library is installed by `make setup`, not by pip alone
                continue
        text = e.render(stored, False)
        assert "go:stdlib" in text and "\x1b[" not in text, name
        assert ("2.00 µs" in text) or ("2000" in text) or ("1999" in text), name
    assert "\x1b[" in exporters.get(exporters.RUN, "terminal").render(stored, True)


def test_each_command_offers_the_registrys_formats_and_nothing_else():
    from cryptobench.cli import build_parser as _parser
    from cryptobench.report import exporters

    sub = next(a for a in _parser()._actions if a.dest == "command").choices
    for command, subjects in (("run", [exporters.RUN]), ("show", [exporters.RUN]),
                              ("compare", [exporters.COMPARE, exporters.MATRIX]), ("verify", [exporters.VERIFY]),
                              ("history", [exporters.HISTORY])):  # fmt: skip
        flags = {o for a in sub[command]._actions for o in a.option_strings}
        wanted = {f"--{n}" for n in exporters.file_formats(*subjects)}
        others = {f"--{e.name}" for e in exporters.EXPORTERS if e.to_file} - wanted
        assert wanted <= flags and not (others & flags), command
        fmt = next((a for a in sub[command]._actions if a.dest == "format"), None)
        if fmt is not None:
            assert list(fmt.choices) == exporters.stdout_formats(*subjects), command
    with pytest.raises(Exception, match="no html format for compare reports"):
        exporters.get(exporters.COMPARE, "html")


def test_load_report_builds_the_whole_report_in_one_step(tmp_path):
    """The references stored beside runs reach the report without a second step by the caller."""
    from cryptobench.analysis.references import Reference
    from cryptobench.report import load_report

    store = open_store(str(tmp_path / "r.db"))
    rid = store.create_run(RunRecord(None, "2026-11-22T10:00:00+00:00", "default", {}, {}))
    store.add_cell(rid, cell("c:openssl", 1000))
    store.add_cell(rid, cell("c:openssl", 500, alg="sha512"))
    store.finish_run(rid, "complete", "2026-11-22T10:01:00+00:00", {})
    store.add_references([Reference(None, "a paper", "Raspberry Pi 4", "doi:x", "sha256", "hash", 1024, 1e4),
                          Reference(None, "a paper", "Raspberry Pi 4", "doi:x", "aes-128-gcm", "seal", 1024, 1e4)],
                         "2026-11-22")  # fmt: skip
    rep = load_report(store, rid)
    assert [(r.alg, r.machine) for r in rep.references] == [("sha256", "Raspberry Pi 4")]  # only what was measured
    assert [t.alg for t in rep.tables] == ["sha256", "sha512"]


def test_the_conformance_matrix_fits_the_terminal_however_many_providers():
    """Algorithms down, providers across, in as many tables as the width needs; no column squeezed empty."""
    from cryptobench.report.conformance import Verification
    from cryptobench.report.formats.verification import render_terminal

    providers = [f"lang{i}:library{i}" for i in range(24)]
    verifs = [VerifyRecord(p, a, "passed", passed=20) for p in providers for a in ("sha256", "aes-128-gcm")]
    run = RunRecord(1, "2026-11-22T10:00:00+00:00", "verify:default", {}, {})
    out = render_terminal(Verification(run, verifs), width=160)
    assert max(len(line) for line in out.splitlines()) <= 160
    tables = out.count("conformance (")
    assert tables >= 2 and f"(1 of {tables})" in out and f"({tables} of {tables})" in out
    for p in providers:
        assert p in out, p  # whole names: none folded over two lines
    assert out.count("│ sha256 ") == tables and out.count("✓ 20") == 48


def test_cycles_per_byte_only_from_an_invariant_tsc(tmp_path):
    """`--unit cpb`: ns x the measured TSC rate, labelled reference cycles; refused in one line where
    the counter is not invariant (cycles.py)."""
    from cryptobench.core.errors import UserError
    from cryptobench.measure import cycles
    from cryptobench.report import load_report

    clock = {"tsc_hz": 2.0e9}
    assert cycles.counter(clock, ["constant_tsc", "nonstop_tsc"])["hz"] == 2.0e9
    assert "not invariant" in cycles.counter(clock, ["constant_tsc"])["unavailable"]
    assert "no time-stamp counter" in cycles.counter({}, ["constant_tsc", "nonstop_tsc"])["unavailable"]
    store = open_store(str(tmp_path / "r.db"))
    runs = {}
    for flags in (["constant_tsc", "nonstop_tsc"], []):
        rid = store.create_run(RunRecord(None, "2026-11-25T10:00:00+00:00", "default", {}, {}))
        store.add_cell(rid, cell("c:openssl", 1000))  # 1000 ns per 1 KiB: 2000 cycles, 1.95 per byte
        store.add_cell(rid, cell("c:openssl", 50_000, alg="ed25519", op="sign", size=32))
        store.finish_run(rid, "complete", "2026-11-25T10:01:00+00:00", {"cycles": cycles.counter(clock, flags)})
        runs[bool(flags)] = rid
    rep = load_report(store, runs[True], units=["cpb", "ns"])
    md = md_report.render(rep)
    assert "| provider | size | TSC cycles | median/op | 95% CI |" in md
    assert "| 1.95 /B | 1.00 µs |" in md and "100.0 k /op" in md  # a signature: cycles per operation
    with pytest.raises(UserError, match="--unit cpb: run 2 has no cycle counter: the TSC is not invariant"):
        load_report(store, runs[False], units=["cpb"])


@pytest.mark.parametrize(
    "low, high, noise, said",
    [
        (0.9267, 0.9800, 0.02, "unclear"),  # 1.05x [1.02-1.08]: its words used to be "same (within noise)"
        (0.9267, 0.9799, 0.02, "faster"),  # the whole interval beyond -2%
        (1.0201, 1.08, 0.02, "slower"),
        (0.98, 1.02, 0.02, "same (within noise)"),  # the whole interval inside ±2%, edges included
        (0.99, 1.03, 0.02, "unclear"),  # crosses +2%: not "same"
        (1.005, 1.015, 0.02, "same (within noise)"),  # excludes 1, but by less than the noise
        (0.999, 1.001, 0.0, "unclear"),  # --noise 0: nothing is "same"
    ],
)
def test_the_verdict_says_what_the_whole_interval_says(low, high, noise, said):
    from cryptobench.analysis import stats

    assert stats.verdict(stats.Ratio((low + high) / 2, low, high), noise) == said


def test_an_unclear_verdict_is_worded_as_its_speed_and_every_legend_explains_it(tmp_path):
    from cryptobench.report.formats import html as html_report

    store = open_store(str(tmp_path / "u.db"))
    rid = store.create_run(RunRecord(None, "t", "default", {"baseline": "c:openssl", "noise": 0.02}, {}))
    offsets = (-30, -10, 0, 0, 5, 10, 20, -20, 15, -5, 0, 3)
    for pid, samples in (("c:openssl", [100_000 + d for d in offsets]),
                         ("go:stdlib", [95_300 + d * 8000 // 30 for d in offsets])):  # fmt: skip
        store.add_provider(rid, pid, {})
        store.add_cell(rid, CellRecord(pid, "sha256", "hash", 1024, 0, "ok", batch=100, samples_ns=samples,
                                       checksum=GOOD_SUM, checksums_seen=[GOOD_SUM], rounds=2))  # fmt: skip
    store.finish_run(rid, "complete", "t2", {})
    rep = build_report(*store.load_run(rid))
    go = next(r for r in rep.rows if r.provider == "go:stdlib")
    assert go.verdict == "unclear" and f"{go.speedup[0]:.2f}x [{go.speedup[1]:.2f}-{go.speedup[2]:.2f}]" == (
        "1.05x [1.02-1.08]"
    )
    note = next(w for w in rep.warnings if w.kind == "within-noise")
    # the speed as the table shows it, and the time change with the sign that goes with it
    assert "1.05x the baseline's speed (faster: -4.7% time)" in note and "[1.02x-1.08x]" in note, note
    assert "±2% noise threshold: unclear" in note
    legend = "same (within noise) when all of it lies inside ±2%, unclear when it crosses ±2%"
    assert "above 1x is faster than the baseline" in term_report.render(rep, width=400)
    for out in (term_report.render(rep, width=400), md_report.render(rep), html_report.render(rep, "")):
        assert legend in out.replace("\n", " ")
