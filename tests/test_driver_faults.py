"""What a driver sends must never break a run: lies about figures, endless lines, escapes."""

import sqlite3
import time

import pytest
from conftest import run_cli
from test_runner_faults import cells_by_provider, run_suite

from cryptobench.measure import plausibility


@pytest.mark.parametrize(
    "mode,reason",
    [
        ("infinite-samples", "protocol: not JSON"),  # Infinity is not JSON: a lie, not a number
        ("tiny-samples", "protocol: a sample of 1e-09 ns"),
        ("implausible-fast", "implausible: "),
        ("huge-line", "protocol: response line too long"),
        ("ansi-error", "library says \\x1b[31mRED\\x1b[0m\\x07 <script>"),
        ("ticks-missing", "protocol: samples_tsc has"),
    ],
)
def test_a_lying_driver_fails_its_cells_and_the_run_can_be_shown_and_compared(
    tmp_path, providers_file, sha_suite, mode, reason
):
    t0 = time.monotonic()
    store, rid = run_suite(tmp_path, providers_file, sha_suite, ["test:good", f"test:{mode}"], timeout=60)
    run, _, cells = cells_by_provider(store, rid)
    assert run.status == "complete"
    bad = cells[f"test:{mode}"]
    assert [c.status for c in bad] == ["failed", "failed"], [c.reason for c in bad]
    assert all(reason in c.reason for c in bad), [c.reason for c in bad]
    assert all("\x1b" not in c.reason for c in bad)
    assert [c.status for c in cells["test:good"]] == ["ok", "ok"]  # the healthy provider lost nothing
    if mode == "huge-line":  # refused at the limit, long before the 60 s timeout
        assert time.monotonic() - t0 < 45
    db = tmp_path / "t.db"
    res = run_cli("show", str(rid), "--db", db)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    assert "\x1b" not in res.stdout and reason.split(" <")[0] in res.stdout
    # nothing of the liar's to compare: one line saying so, not a traceback
    res = run_cli("compare", "--providers", f"test:good,test:{mode}", str(rid), "--db", db)
    assert res.returncode == 2 and res.stderr.startswith("cryptobench: error: provider"), res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_implausible_cells_keep_their_samples_and_say_why_in_every_format(tmp_path, providers_file, sha_suite):
    store, rid = run_suite(tmp_path, providers_file, sha_suite, ["test:good", "test:implausible-fast"])
    _, _, cells = cells_by_provider(store, rid)
    bad = cells["test:implausible-fast"]
    assert all(c.samples_ns for c in bad)  # nothing measured is thrown away
    assert all("GB/s is above" in c.reason and "rate this machine reads" in c.reason for c in bad)
    db = tmp_path / "t.db"
    for fmt in ("terminal", "md", "json", "csv"):
        out = run_cli("show", str(rid), "--db", db, "--format", fmt).stdout
        assert "implausible" in out, fmt
    assert "implausible" in run_cli("show", str(rid), "--db", db, "--warnings").stdout


def test_an_old_run_with_zero_samples_can_still_be_shown_and_compared(tmp_path, providers_file, sha_suite):
    store, rid = run_suite(tmp_path, providers_file, sha_suite, ["test:good", "test:slow-sha"])
    con = sqlite3.connect(str(tmp_path / "t.db"))
    con.execute("UPDATE cells SET samples_ns='[0, 0, 0]' WHERE provider='test:slow-sha'")  # as an old run stored it
    con.commit()
    db = tmp_path / "t.db"
    res = run_cli("show", str(rid), "--db", db)
    assert res.returncode == 0 and "stored samples are not durations" in res.stdout, res.stderr
    res = run_cli("compare", str(rid), str(rid), "--db", db)  # it used to divide by zero here
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr


def test_real_figures_are_not_flagged():
    limits = plausibility.measure()
    assert limits["read_bytes_per_s"][str(plausibility.IN_CACHE)] > 1e9
    # the fastest figures measured here (AES-CTR in the JVM, 46 GB/s at 1 MiB; AES-GCM 24 GB/s at
    # 500 MB streamed) and a nanosecond-scale operation pass; a 1 PB/s claim and a 0.01 ns op do not
    assert plausibility.judge("aes-128-ctr", "encrypt", 1 << 20, 0, (1 << 20) / 46e9 * 1e9, limits) is None
    assert plausibility.judge("aes-128-gcm", "seal", 500_000_000, 1 << 20, 500e6 / 24e9 * 1e9, limits) is None
    assert plausibility.judge("x25519", "derive", 0, 0, 20_000, limits) is None
    assert plausibility.judge("noop", "noop", 0, 0, 0.1, limits) is None
    assert "GB/s is above" in plausibility.judge("sha256", "hash", 1 << 20, 0, (1 << 20) / 1e15 * 1e9, limits)
    if limits["max_hz"]:
        assert "less than one cycle" in plausibility.judge("sha256", "hash", 0, 0, 0.01, limits)
