"""The TLS 1.3 cells of the plugins of plugins/c (c:wolfssl, c:gnutls) served by the generic C driver:
what they offer, a bench of each side with its handshake report, and interop over loopback against
themselves (a second process) and go:stdlib through the orchestrator's judge (docs/protocol.md,
"TLS 1.3 handshakes")."""

from __future__ import annotations

import pytest
from line_driver import LineDriver

from cryptobench.core import tls
from cryptobench.core.cell import CellSpec
from cryptobench.drivers.registry import Registry
from cryptobench.measure import response_checks
from cryptobench.verify import tls_interop, tls_pki

PLUGINS = ["c:wolfssl", "c:gnutls"]
AUTHS = ["ecdsa-p256", "ed25519", "rsa-2048"]
# the classical cells each library has (Debian's builds: no ML-KEM, no ML-DSA)
CELLS = {f"tls13-{g}-{a}{r}" for g in ("x25519", "p256") for a in AUTHS for r in ("", "-resume")}


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    made, missing = tls_pki.make(tmp_path_factory.mktemp("pki"), AUTHS)
    assert not missing, missing
    return {auth: p.request() for auth, p in made.items()}


class Driver(LineDriver):
    """One driver process on the line protocol; a Request of tls_interop."""

    def __init__(self, pid: str):
        provider = Registry().get(pid)
        ok, why = Registry().usable(provider)
        if not ok:
            pytest.skip(f"{pid}: {why}")
        super().__init__(provider.argv())
        self.hello = self({"cmd": "hello", "protocol": 7})

    __call__ = LineDriver.ask


@pytest.fixture(params=PLUGINS)
def plugin(request):
    d = Driver(request.param)
    yield request.param, d
    d.close()


def _bench(drv: Driver, alg: str, op: str, pki: dict) -> dict:
    return drv({"cmd": "bench", "alg": alg, "op": op, "size": 0, "chunk": 0, "seed": 1, "batch": 0,
                "target_ns": 300_000, "warmup_ns": 0, "samples": 3, "tls": pki[tls.parse(alg).auth.name]})  # fmt: skip


def test_a_plugin_offers_the_classical_cells_and_answers_protocol_7(plugin):
    pid, drv = plugin
    assert drv.hello["protocol"] == 7 and drv.hello["provider"] == pid
    offered = {a: ops for a, ops in drv.hello["offers"].items() if a.startswith("tls13-")}
    assert set(offered) == CELLS and all(ops == ["handshake", "client", "server"] for ops in offered.values())
    assert "noop" in drv.hello["offers"]
    assert any(n.startswith("tls13-*:") for n in drv.hello["notes"])


@pytest.mark.parametrize("alg", ["tls13-x25519-ecdsa-p256", "tls13-p256-rsa-2048-resume"])
def test_each_side_is_timed_and_reports_its_untimed_handshake(plugin, pki, alg):
    _, drv = plugin
    cell = tls.parse(alg)
    for op in ("handshake", "client", "server"):
        res = _bench(drv, alg, op, pki)
        assert res["ok"], res
        response_checks.check_tls(CellSpec(alg, op, 0, 0, ("x",)), res["tls"])  # group, suite, resumption, sizes
        assert res["tls"]["group"] == cell.group.code and res["tls"]["round_trips"] == 1
        assert res["checksum"] != res["checksum_after"]  # a fresh exporter each handshake
    # a wrong request is refused in one line
    assert _bench(drv, "tls13-x25519mlkem768-ecdsa-p256", "handshake", pki)["ok"] is False
    res = drv({"cmd": "bench", "alg": alg, "op": "handshake", "size": 0, "chunk": 0, "seed": 1, "batch": 0,
               "target_ns": 300_000, "warmup_ns": 0, "samples": 3})  # fmt: skip
    assert res == {"ok": False, "error": "tls: no PKI in the request"}


def _pair(alg: str, server: Driver, client: Driver, pki: dict) -> tuple[list, list]:
    why, sv, cv = tls_interop.run_pair(alg, server, client, pki[tls.parse(alg).auth.name], timeout_ms=5000)
    assert not why, why
    return sv, cv


@pytest.mark.parametrize("alg", ["tls13-x25519-ed25519-resume", "tls13-p256-ecdsa-p256"])
def test_a_plugin_interoperates_with_itself_and_go(plugin, pki, alg):
    pid, drv = plugin
    other = Driver(pid)
    go = Driver("go:stdlib")
    try:
        for server, client in ((drv, other), (drv, go), (go, drv)):
            sv, cv = _pair(alg, server, client, pki)
            assert [v["exporter"] for v in sv] == [v["exporter"] for v in cv]
            assert [v["resumed"] for v in sv] == ([False, True] if alg.endswith("-resume") else [False])
    finally:
        other.close()
        go.close()


def test_an_interop_server_of_a_cell_the_library_lacks_is_not_offered(plugin, pki):
    _, drv = plugin
    res = drv({"cmd": "tls-serve", "alg": "tls13-x25519mlkem768-ecdsa-p256", "connections": 1, "timeout_ms": 1000,
               "tls": pki["ecdsa-p256"]})  # fmt: skip
    assert res["ok"] is False and "not offered" in res["error"], res
