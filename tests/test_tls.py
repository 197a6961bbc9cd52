"""The TLS cells' orchestrator side (docs/tls.md): names, the checks of a bench's handshake report,
interop judging and blame, and the test PKI made by a real `openssl`."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cryptobench.core import algorithms, tls
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.drivers.registry import Registry
from cryptobench.measure import response_checks
from cryptobench.report import build_report
from cryptobench.report.tls_tables import hybrid_costs as tls_table_costs
from cryptobench.report.tls_tables import interop_pairs as tls_interop_pairs
from cryptobench.run.runner import Runner, Settings
from cryptobench.store import open_store
from cryptobench.verify import tls_interop, tls_pki

HYBRID = "tls13-x25519mlkem768-ecdsa-p256"
CLASSIC = "tls13-x25519-ecdsa-p256"
EXP = "ab" * 32


def test_every_cell_name_parses_to_its_parts_and_is_in_the_catalogue():
    cell = tls.parse("tls13-secp256r1mlkem768-mldsa-65-resume")
    assert (cell.group.code, cell.auth.sigalgs, cell.resume, cell.connections) == (0x11EB, (0x0905,), True, 2)
    assert tls.parse(HYBRID).classical_twin == CLASSIC
    assert tls.parse("tls13-secp384r1mlkem1024-ed25519").classical_twin is None  # no classical P-384 cell
    assert all(algorithms.get(n).kind == "tls" and algorithms.get(n).per_operation for n in tls.CELLS)
    with pytest.raises(KeyError, match="not a TLS cell"):
        tls.parse("tls13-x448-ecdsa-p256")


def _report(group=0x11EC, resumed=False, tickets=0, ch=1400, sf=2300):
    return {"group": group, "cipher": 0x1301, "sigalg": 0x0403, "resumed": resumed, "round_trips": 1,
            "flights": {"client_hello": ch, "server_flight": sf, "client_finished": 80, "tickets": tickets}}  # fmt: skip


def _check(alg: str, report) -> None:
    response_checks.check_tls(CellSpec(alg, "handshake", 0, 0, ["x"]), report)


def test_a_bench_report_of_the_cell_passes_and_a_downgrade_or_a_lie_fails():
    _check(HYBRID, _report())
    _check(HYBRID + "-resume", _report(resumed=True, tickets=200))
    with pytest.raises(DriverError, match="downgrade: negotiated x25519, the cell is X25519MLKEM768"):
        _check(HYBRID, _report(group=0x001D, ch=250))
    with pytest.raises(DriverError, match="smaller than the X25519MLKEM768 key shares"):
        _check(HYBRID, _report(ch=300))  # claims the hybrid group, sent no ML-KEM share
    with pytest.raises(DriverError, match="session tickets in a full cell"):
        _check(HYBRID, _report(tickets=200))
    with pytest.raises(DriverError, match="did not resume"):
        _check(HYBRID + "-resume", _report(tickets=200))
    with pytest.raises(DriverError, match="no `tls` report"):
        _check(HYBRID, None)


def _view(group=0x11EC, exporter=EXP, resumed=False, sigalg=0x0403):
    return {"group": group, "cipher": 0x1301, "sigalg": sigalg, "resumed": resumed, "exporter": exporter}


def test_interop_judging_wants_the_cells_group_equal_exporters_and_the_resumption():
    cell = tls.parse(HYBRID)
    assert tls_interop.judge(cell, [_view()], [_view(sigalg=None)]) == ""
    assert tls_interop.judge(cell, [_view(group=29)], [_view(group=29)]).startswith(
        "downgrade: server negotiated x25519, the cell is X25519MLKEM768"
    )
    assert "exporters differ" in tls_interop.judge(cell, [_view()], [_view(exporter="cd" * 32)])
    assert "signature scheme" in tls_interop.judge(cell, [_view(sigalg=0x0807)], [_view()])
    resume = tls.parse(HYBRID + "-resume")
    good = [_view(), _view(resumed=True, sigalg=None)]
    assert tls_interop.judge(resume, good, good) == ""
    assert "connection 2 did not resume" in tls_interop.judge(resume, good, [_view(), _view()])
    assert "reported 1 handshakes, expected 2" in tls_interop.judge(resume, good, good[:1])
    # a library with no exporter (JDK 17): the handshake counts, the keys cannot be compared
    assert tls_interop.judge(cell, [_view()], [_view(exporter=None)]) == ""
    assert "not 32 bytes of hex" in tls_interop.judge(cell, [_view()], [_view(exporter="ab")])
    silent = tls_interop.Pair(HYBRID, "go:stdlib", "java:jsse", True, no_exporter=["java:jsse"])
    assert "java:jsse's library has no TLS exporter" in tls_interop.unverified([silent], "java:jsse")
    assert tls_interop.unverified([silent], "go:stdlib") == ""


def _pair(server, client, passed, detail="x"):
    return tls_interop.Pair(HYBRID, server, client, passed, "" if passed else detail)


def test_blame_falls_on_the_provider_failing_itself_or_the_reference_and_on_nobody_else():
    ref, a, b = "c:openssl@3.6.3", "go:stdlib", "rust:rustls"
    pairs = [_pair(ref, ref, True), _pair(a, a, True), _pair(b, b, True), _pair(ref, a, False, "downgrade"),
             _pair(a, b, False, "exporters differ"), _pair(b, ref, True)]  # fmt: skip
    assert tls_interop.blame(pairs, ref) == {a: f"interop as client of {ref}: downgrade"}
    pairs.append(_pair(ref, ref, False, "broken"))  # a reference that fails itself blames nobody else
    assert tls_interop.blame(pairs, ref) == {ref: "interop with itself: broken"}
    assert tls_interop.reference_of([a, b], "") == a


def test_a_pair_whose_server_refuses_fails_with_the_servers_words():
    def server(msg):
        return {"ok": False, "error": "tls: no such group"}

    why, _, _ = tls_interop.run_pair(HYBRID, server, server, {"ca": "x", "server_name": tls.SERVER_NAME})
    assert why == "handshake failed: server: tls: no such group"


@pytest.mark.skipif(shutil.which("openssl") is None and tls_pki.openssl_command() is None, reason="no openssl")
def test_the_test_pki_is_a_verifiable_chain_for_the_server_name(tmp_path):
    made, missing = tls_pki.make(tmp_path, ["ecdsa-p256", "ed25519"])
    assert not missing and set(made) == {"ecdsa-p256", "ed25519"}
    pki = made["ecdsa-p256"]
    exe = tls_pki.openssl_command()[0]
    leaf, inter = (tmp_path / "ecdsa-p256" / "leaf.pem"), (tmp_path / "ecdsa-p256" / "inter.pem")
    ok = subprocess.run([exe, "verify", "-CAfile", str(pki.root), "-untrusted", str(inter), "-verify_hostname",
                         tls.SERVER_NAME, str(leaf)], capture_output=True, text=True)  # fmt: skip
    assert ok.returncode == 0, ok.stderr
    assert pki.chain.read_text().count("BEGIN CERTIFICATE") == 2 and "PRIVATE KEY" in pki.key.read_text()
    assert not (tmp_path / "ecdsa-p256" / "root.key").exists()  # nothing more can be issued under the root
    assert pki.fingerprint() != made["ed25519"].fingerprint()
    _, missing = tls_pki.make(tmp_path, ["rsa-1024"])
    assert "no test PKI for 'rsa-1024'" in missing["rsa-1024"]


# --- end to end: real drivers, and providers that lie (the held-back checks of docs/tls.md) ---

REAL = ["go:stdlib"]
LIARS = {"test:liar-downgrade": "downgrade", "test:liar-exporter": "exporter"}


@pytest.fixture(scope="module")
def tls_run(tmp_path_factory):
    """One run of a hybrid cell and its classical twin: the real providers and two liars wrapping the Go
    driver (tests/tls_liar.py), one negotiating X25519 under the hybrid's name, one altering its exporter."""
    tmp = tmp_path_factory.mktemp("tls")
    registry = Registry()
    go = registry.get("go:stdlib")
    for pid in REAL:
        ok, why = registry.usable(registry.get(pid))
        assert ok, f"{pid}: {why} (the README's `make test` builds every driver first)"
    lines = []
    for pid, mode in LIARS.items():
        cmd = [sys.executable, str(Path(__file__).with_name("tls_liar.py")), "--mode", mode, "--real", "go:stdlib",
               "--driver", go.argv()[0]]  # fmt: skip
        lines += ["[[provider]]", f'id = "{pid}"', f"command = {json.dumps(cmd)}", ""]
    (tmp / "liars.toml").write_text("\n".join(lines))
    registry = Registry(str(tmp / "liars.toml"))
    providers = REAL + list(LIARS)
    store = open_store(str(tmp / "tls.db"))
    cells = [CellSpec(alg, "handshake", 0, 0, tuple(providers)) for alg in (HYBRID, CLASSIC)]
    s = Settings(suite="tls", baseline="go:stdlib", time_per_cell=0.05, target_ns=500_000, warmup_first_ns=1_000_000,
                 warmup_ns=0, min_samples=5)  # fmt: skip
    run_id = Runner(store, registry, s).run(cells, providers)
    return build_report(*store.load_run(run_id))


def _verdict(rep, pid, alg=HYBRID):
    return next(v for v in rep.verifications if v.provider == pid and v.alg == alg)


def test_real_providers_interoperate_and_are_timed_with_the_hybrids_bytes(tls_run):
    for pid in REAL:
        for alg in (HYBRID, CLASSIC):
            assert _verdict(tls_run, pid, alg).status == "passed", _verdict(tls_run, pid, alg)
    ok = {(r.provider, r.cell.alg) for r in tls_run.rows if r.ok}
    assert {(p, a) for p in REAL for a in (HYBRID, CLASSIC)} <= ok
    costs = {(h.provider, h.hybrid): h for h in tls_table_costs(tls_run)}
    for pid in REAL:  # the ClientHello grows by exactly the ML-KEM-768 encapsulation key
        assert costs[(pid, HYBRID)].deltas["client_hello"] == 1184
        # the server flight by the ciphertext, ± 2 bytes: each handshake's ECDSA signature is DER, 70 to 72 bytes
        assert abs(costs[(pid, HYBRID)].deltas["server_flight"] - 1088) <= 2


def test_a_provider_claiming_a_hybrid_but_negotiating_x25519_is_failed_and_never_timed(tls_run):
    v = _verdict(tls_run, "test:liar-downgrade")
    assert v.status == "failed" and "downgrade: server negotiated x25519, the cell is X25519MLKEM768" in v.detail
    mine = [r for r in tls_run.rows if r.provider == "test:liar-downgrade" and r.cell.alg == HYBRID]
    assert mine and all(not r.ok and not r.cell.samples_ns for r in mine)
    assert _verdict(tls_run, "test:liar-downgrade", CLASSIC).status == "passed"  # honest where it claims nothing


def test_a_provider_whose_exporter_differs_is_failed_and_the_others_are_not_blamed(tls_run):
    v = _verdict(tls_run, "test:liar-exporter")
    assert v.status == "failed" and "exporters differ from byte 31" in v.detail
    assert not any(r.ok for r in tls_run.rows if r.provider == "test:liar-exporter")
    assert all(_verdict(tls_run, pid).status == "passed" for pid in REAL)
    matrix = tls_interop_pairs(tls_run)[HYBRID]
    assert len(matrix) == len(REAL + list(LIARS)) ** 2  # every client against every server
