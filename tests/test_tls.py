"""The TLS cells' orchestrator side (docs/tls.md): names, the checks of a bench's handshake report,
interop judging and blame, and the test PKI made by a real `openssl`."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from cryptobench.core import algorithms, tls
from cryptobench.core.cell import CellSpec
from cryptobench.core.errors import DriverError
from cryptobench.measure import response_checks
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
