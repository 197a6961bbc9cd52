"""The real drivers, end to end: verified, measured, outputs agreeing across languages."""

import pytest

from cryptobench.drivers.registry import Registry
from cryptobench.planner import Filters, plan
from cryptobench.report import build_report
from cryptobench.runner import Runner, Settings
from cryptobench.store import open_store
from cryptobench.suites import load_suite

CORE = ["c:openssl", "go:stdlib", "python:cryptography", "python:hashlib"]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    registry = Registry()
    for pid in CORE:
        ok, why = registry.usable(registry.get(pid))
        assert ok, f"{pid}: {why} (the README's `make test` builds every driver first)"
    store = open_store(str(tmp_path_factory.mktemp("e2e") / "e2e.db"))
    suite = load_suite("default")
    cells = plan(suite, CORE, Filters.parse("sha256,aes-128-cbc,aes-256-gcm,chacha20-poly1305", None, "1KiB"))
    settings = Settings(suite="default", baseline="c:openssl", time_per_cell=0.05, target_ns=500_000,
                        warmup_first_ns=2_000_000, warmup_ns=0, min_samples=5)  # fmt: skip
    run_id = Runner(store, registry, settings).run(cells, CORE)
    return build_report(*store.load_run(run_id))


def test_every_provider_verified_every_algorithm_it_offers(report):
    assert report.verifications
    assert all(v.status == "passed" and v.passed > 0 for v in report.verifications), report.verifications
    hashlib_algs = {v.alg for v in report.verifications if v.provider == "python:hashlib"}
    assert hashlib_algs == {"sha256"}  # hashlib offers no ciphers: not offered, not failed


def test_every_offered_cell_measured_and_nothing_failed(report):
    assert report.failures == []
    ok = [r for r in report.rows if r.ok]
    assert len(ok) == 4 + 3 * 2 * 3  # sha256 on 4 providers; cbc, gcm, chacha on 3, two ops each
    assert {r.cell.status for r in report.rows} == {"ok", "not-offered"}


def test_outputs_agree_across_languages(report):
    assert not any(r.checksum_mismatch for r in report.rows)
    assert not any(w.startswith("outputs disagree") for w in report.warnings)
    sha = {r.provider: r.cell.checksum for r in report.rows if r.cell.alg == "sha256"}
    assert set(sha.values()) == {"00000020:fb4898be6151a393"}  # the value in docs/protocol.md


def test_hello_reports_real_library_versions(report):
    hellos = report.run.providers
    assert hellos["c:openssl"]["library_version"].startswith("OpenSSL 3.")
    assert hellos["go:stdlib"]["library_version"].startswith("go1.")
    assert "cryptography 46.0.7" in hellos["python:cryptography"]["library_version"]
    assert all(h["clock"]["resolution_ns"] > 0 for h in hellos.values())
