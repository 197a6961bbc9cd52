"""Interop verification of the TLS cells (docs/tls.md § Verified by interop): every provider's
client against every provider's server over loopback TCP (itself included, its server in a second
process), each connection judged on what both sides report: the cell's group (a hybrid cell that
negotiated plain X25519 is a downgrade), TLS_AES_128_GCM_SHA256, the authentication's signature
scheme, equal exporters, and in `-resume` cells a resumption on the second connection.

Blame follows cross_checks.failed_providers: a provider failing against itself is failed; a failure
against the reference (the baseline, else the newest pinned OpenSSL) fails the other side; any other
failed pair is shown in the matrix but blames nobody."""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import asdict, dataclass, field

from cryptobench.core import tls
from cryptobench.core.errors import DriverError
from cryptobench.verify.schedule import Stopped, at_once

Request = Callable[[dict], dict]
REFERENCES = ("c:openssl@3.6.3", "c:openssl@4.0.3", "c:openssl", "go:stdlib")


@dataclass
class Pair:
    alg: str
    server: str
    client: str
    passed: bool
    detail: str = ""  # why not, in one line
    group: int | None = None  # what the server reported on the first connection
    exporter: str = ""  # the first connection's, as both sides derived it (when equal)
    no_exporter: list[str] = field(default_factory=list)  # providers whose library exports nothing (JDK 17)

    def to_dict(self) -> dict:
        return asdict(self)


def _answer(resp: dict, side: str) -> list[dict]:
    if not resp.get("ok"):
        raise DriverError(f"{side}: {resp.get('error', 'no error message')}")
    hs = resp.get("handshakes")
    if not isinstance(hs, list) or not all(isinstance(h, dict) for h in hs):
        raise DriverError(f"{side}: protocol: `handshakes` is not a list of objects")
    return hs


def judge_one(cell: tls.TlsCell, view: dict, side: str, nth: int) -> str:
    """What is wrong with one side's report of its `nth` connection ("" when nothing)."""
    if wrong := tls.negotiated_wrong(cell, view, f"{side} "):
        return wrong
    sigalg = view.get("sigalg")
    resumed = bool(view.get("resumed"))
    if resumed != (cell.resume and nth > 0):
        return f"{side}: connection {nth + 1} {'resumed' if resumed else 'did not resume'}"
    if sigalg is not None and not resumed and sigalg not in cell.auth.sigalgs:
        return f"{side} reported signature scheme {sigalg!r}, {cell.auth.name} signs with {cell.auth.sigalgs}"
    exp = view.get("exporter")  # null: the library has no exporter (judged apart: keys not compared)
    if exp is not None and (not isinstance(exp, str) or len(exp) != 2 * tls.EXPORTER_LEN):
        return f"{side}: the exporter is not {tls.EXPORTER_LEN} bytes of hex: {exp!r:.80}"
    return ""


def judge(cell: tls.TlsCell, server: list[dict], client: list[dict]) -> str:
    """ "" when every connection is what the cell says on both sides, else the first thing wrong."""
    n = cell.connections
    for side, views in (("server", server), ("client", client)):
        if len(views) != n:
            return f"{side} reported {len(views)} handshakes, expected {n}"
    for i, (s, c) in enumerate(zip(server, client, strict=True)):
        why = judge_one(cell, s, "server", i) or judge_one(cell, c, "client", i)
        if why:
            return why
        if s["exporter"] is not None and c["exporter"] is not None and s["exporter"] != c["exporter"]:
            at = next(
                k for k in range(0, len(s["exporter"]), 2) if s["exporter"][k : k + 2] != c["exporter"][k : k + 2]
            )
            return (f"connection {i + 1}: exporters differ from byte {at // 2} (server {s['exporter'][at : at + 8]}…, "
                    f"client {c['exporter'][at : at + 8]}…)")  # fmt: skip
    return ""


def run_pair(alg: str, server: Request, client: Request, pki: dict, timeout_ms: int = 10000) -> tuple[str, list, list]:
    """One handshake pair over loopback: (what failed or "", the server's views, the client's)."""
    cell = tls.parse(alg)
    common = {"alg": alg, "connections": cell.connections, "timeout_ms": timeout_ms}
    try:
        served = server({"cmd": "tls-serve", **common, "tls": pki})
        if not served.get("ok"):
            raise DriverError(f"server: {served.get('error', 'no error message')}")
        port = served.get("port")
        if not isinstance(port, int) or not 0 < port < 65536:
            raise DriverError(f"server: protocol: bad port {port!r}")
        connected = client({"cmd": "tls-connect", **common, "port": port,
                            "tls": {"ca": pki["ca"], "server_name": pki["server_name"]}})  # fmt: skip
        result = server({"cmd": "tls-result"})  # first: a failed client leaves the server to time out
        s_views, c_views = _answer(result, "server"), _answer(connected, "client")
    except DriverError as e:
        return f"handshake failed: {e}", [], []
    return judge(cell, s_views, c_views), s_views, c_views


def _pair(alg: str, s: str, c: str, server: Request, client: Request, pki: dict) -> Pair:
    why, sv, cv = run_pair(alg, server, client, pki)
    silent = [p for p, views in ((s, sv), (c, cv)) if any(v.get("exporter") is None for v in views)]
    return Pair(alg, s, c, not why, why, sv[0].get("group") if sv else None,
                (cv[0].get("exporter") or "") if cv and not why else "", sorted(set(silent)))  # fmt: skip


def matrix(alg: str, servers: dict[str, Request], clients: dict[str, Request], pki: dict,
           step: Callable[[int, int, str], None] = lambda *_: None) -> list[Pair]:  # fmt: skip
    """Every client against every server on `alg`."""
    pairs, todo = [], [(s, c) for s in sorted(servers) for c in sorted(clients)]
    for i, (s, c) in enumerate(todo):
        step(i, len(todo), f"{alg}: {c} → {s}")
        pairs.append(_pair(alg, s, c, servers[s], clients[c], pki))
    return pairs


def matrices(cells: dict[str, tuple[list[str], dict]], server_of: Callable[[str], Request],
             client_of: Callable[[str], Request], hold: Callable[[str], AbstractContextManager],
             step: Callable[[str], None] = lambda _: None, stop: threading.Event | None = None) -> dict[str, list[Pair]]:  # fmt: skip
    """`matrix` of every cell (alg -> (providers, PKI)) at once: each provider's server (a process of
    its own) on a thread of its own, going through every cell and client; a pair holds its client's
    driver (`hold`) from before the server listens until the server has reported, so the server never
    waits on a client another job is asking (its handshake would time out). Per cell, the pairs in
    `matrix`'s order."""
    by_server: dict[str, list[tuple[str, str]]] = {}
    for alg, (pids, _) in sorted(cells.items()):
        for s in sorted(pids):
            by_server.setdefault(s, []).extend((alg, c) for c in sorted(pids))

    def serve(s: str) -> list[Pair]:
        server, out = server_of(s), []
        for alg, c in by_server[s]:
            if stop is not None and stop.is_set():
                raise Stopped()
            step(f"{alg}: {c} → {s}")
            with hold(c):
                out.append(_pair(alg, s, c, server, client_of(c), cells[alg][1]))
        return out

    got: dict[str, list[Pair]] = {alg: [] for alg in cells}
    servers = sorted(by_server)
    for pairs in at_once(servers, serve, len(servers), cost=lambda s: len(by_server[s]), stop=stop):
        for p in pairs:
            got[p.alg].append(p)
    return {alg: sorted(ps, key=lambda p: (p.server, p.client)) for alg, ps in got.items()}


def unverified(pairs: list[Pair], pid: str) -> str:
    """Why `pid`'s passed handshakes prove less than its keys (its library exports nothing), "" otherwise."""
    if any(pid in p.no_exporter for p in pairs if p.passed):
        return (f"unverified: {pid}'s library has no TLS exporter: its handshakes completed with the cell's group "
                "and suite, but its keys were not compared with its peers'")  # fmt: skip
    return ""


def reference_of(providers: list[str], baseline: str) -> str | None:
    for p in (baseline, *REFERENCES):
        if p in providers:
            return p
    return None


def blame(pairs: list[Pair], reference: str | None) -> dict[str, str]:
    """provider -> why it fails the cell (as cross_checks.failed_providers); a reference that fails
    against itself is no reference."""
    failed = [p for p in pairs if not p.passed]
    bad = {p.server: f"interop with itself: {p.detail}" for p in reversed(failed) if p.server == p.client}
    if reference is None or reference in bad:
        return bad
    for p in failed:
        if p.server == reference and p.client != reference:
            bad.setdefault(p.client, f"interop as client of {reference}: {p.detail}")
        elif p.client == reference and p.server != reference:
            bad.setdefault(p.server, f"interop as server to {reference}: {p.detail}")
    return bad
