"""The real drivers, end to end: verified, measured, outputs agreeing across languages."""

import pytest

from cryptobench.drivers.registry import Registry
from cryptobench.plan.planner import Filters, plan
from cryptobench.plan.suites import load_suite
from cryptobench.report import build_report
from cryptobench.run.runner import Runner, Settings
from cryptobench.store import open_store

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
    # one pass over the plan (each pass starts every driver afresh): passes are test_runner_rounds'
    settings = Settings(suite="default", baseline="c:openssl", time_per_cell=0.05, target_ns=500_000,
                        warmup_first_ns=2_000_000, warmup_ns=0, min_samples=5, passes=1)  # fmt: skip
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


@pytest.fixture(scope="module")
def pubkey_report(tmp_path_factory):
    """Public keys through the Runner: vectors, cross-verification, per-operation reports."""
    registry = Registry()
    providers = ["c:openssl", "go:stdlib", "python:cryptography"]
    store = open_store(str(tmp_path_factory.mktemp("pk") / "pk.db"))
    cells = plan(load_suite("pubkey"), providers, Filters.parse("ecdsa-p256,x25519,rsa-3072-pss", None, None))
    # one pass over the plan (each pass starts every driver afresh): passes are test_runner_rounds'
    settings = Settings(suite="pubkey", baseline="c:openssl", time_per_cell=0.05, target_ns=500_000,
                        warmup_first_ns=2_000_000, warmup_ns=0, min_samples=5, layout="ops", passes=1)  # fmt: skip
    run_id = Runner(store, registry, settings).run(cells, providers)
    return build_report(*store.load_run(run_id), crosschecks=store.load_crosschecks(run_id)), store, run_id


def test_public_keys_are_verified_and_cross_verified(pubkey_report):
    report, store, _ = pubkey_report
    status = {(v.provider, v.alg): v for v in report.verifications}
    rsa3072 = {k: v for k, v in status.items() if k[1] == "rsa-3072-pss"}
    assert all(v.status == "passed" for k, v in status.items() if k not in rsa3072), status
    # rsa-3072 has no vectors: 8 cross-verification checks are under the floor of 20 cases
    assert all(v.status == "unverified" and "8 cases, 20 needed" in v.detail for v in rsa3072.values()), rsa3072
    checked = {(c.alg, c.producer, c.consumer) for c in report.crosschecks}
    assert ("ecdsa-p256", "go:stdlib", "c:openssl") in checked and (
        "x25519",
        "c:openssl",
        "python:cryptography",
    ) in checked
    assert all(c.passed for c in report.crosschecks)


def test_public_key_report_is_per_operation(pubkey_report):
    from cryptobench.report.formats import markdown

    report, _, _ = pubkey_report
    assert report.layout == "ops" and report.failures == []
    md = markdown.render(report)
    assert "## ecdsa-p256" in md and "ops/s" in md and "## Cross-verification" in md
    assert not any(w.startswith("outputs disagree") for w in report.warnings)  # fresh keys differ by design


@pytest.mark.timing  # fitted per-call overheads: a burst of other work bends a healthy path's fit
def test_the_deliberately_broken_binding_is_flagged_and_no_healthy_path_is(tmp_path):
    """A real chunk sweep: python:cryptography-bytewise feeds 1 byte per update() and must be flagged. At
    64 KiB (half the time of 256 KiB, the same verdicts: bench/binding-sweep runs both, repeated)."""
    registry = Registry()
    providers = ["c:openssl", "go:stdlib", "python:cryptography", "python:cryptography-bytewise"]
    suite = tmp_path / "g.toml"
    suite.write_text('name = "g"\nsizes = ["64KiB"]\n[[group]]\nalgs = ["sha256", "aes-128-ctr"]\n'
                     'ops = ["hash", "encrypt"]\nchunks = [0, 16, 256, 4096, 65536]\n')  # fmt: skip
    store = open_store(str(tmp_path / "g.db"))
    settings = Settings(suite="g", baseline="c:openssl", time_per_cell=0.05, target_ns=500_000,
                        warmup_first_ns=2_000_000, warmup_ns=0, min_samples=5)  # fmt: skip
    run_id = Runner(store, registry, settings).run(plan(load_suite(str(suite)), providers, Filters()), providers)
    report = build_report(*store.load_run(run_id))
    assert report.failures == []
    flagged = {(p["provider"], p["alg"]) for p in report.pathologies}
    assert flagged == {("python:cryptography-bytewise", "sha256"), ("python:cryptography-bytewise", "aes-128-ctr")}
    fits = {(f.provider, f.alg): f for f in report.overheads}
    assert fits[("c:openssl", "sha256")].a_ns < fits[("python:cryptography", "sha256")].a_ns  # a binding costs per call
