"""The TLS tables (docs/tls.md § Reading the tables): per cell and provider the handshake rate, the
client's and the server's CPU time and the bytes of each flight side by side; "hybrid over classical"
per library (the time ratio with its 95% interval, the byte deltas exact); and the interop matrix
that verification stored with the run."""

from __future__ import annotations

from dataclasses import dataclass

from cryptobench.analysis import stats
from cryptobench.core import tls
from cryptobench.report.cells import rate_text
from cryptobench.report.model import Report, Row

HANDSHAKE_TITLE = "TLS 1.3 handshakes (in memory, one process; CPU per side, bytes per flight)"
HANDSHAKE_HEADERS = ["cell", "provider", "handshakes/s", "client", "server", "RTT", "ClientHello",
                     "server flight", "client Finished", "tickets"]  # fmt: skip
HYBRID_TITLE = "Hybrid over classical (same library, same run: time ratio with 95% interval, exact byte deltas)"
HYBRID_HEADERS = ["hybrid cell", "classical cell", "provider", "handshake", "client", "server", "ClientHello",
                  "server flight"]  # fmt: skip
FLIGHTS = ("client_hello", "server_flight", "client_finished", "tickets")


@dataclass
class Handshake:
    """One provider's three rows of one TLS cell, and what its untimed handshake reported."""

    alg: str
    provider: str
    rows: dict[str, Row]  # op -> row

    @property
    def report(self) -> dict:
        for op in ("handshake", "server", "client"):
            r = self.rows.get(op)
            if r is not None and r.ok and isinstance(r.cell.extra.get("tls"), dict):
                return r.cell.extra["tls"]
        return {}

    def flight(self, name: str) -> int | None:
        n = (self.report.get("flights") or {}).get(name)
        return n if isinstance(n, int) else None


def collect(rep: Report) -> dict[tuple[str, str], Handshake]:
    out: dict[tuple[str, str], Handshake] = {}
    for r in rep.rows:
        if tls.is_tls(r.cell.alg) and r.cell.status != "not-offered":
            hs = out.setdefault((r.cell.alg, r.provider), Handshake(r.cell.alg, r.provider, {}))
            hs.rows[r.cell.op] = r
    return dict(sorted(out.items(), key=lambda kv: (list(tls.CELLS).index(kv[0][0]), kv[0][1])))


def _time(r: Row | None) -> str:
    if r is None:
        return "—"
    return f"{r.summary.median / 1e3:,.1f} µs ±{r.summary.ci_rel_halfwidth * 100:.1f}%" if r.ok else "FAILED"


def _bytes(n: int | None) -> str:
    return "—" if n is None else f"{n:,} B"


def handshake_table(rep: Report) -> tuple[list[str], list[list[str]]]:
    rows = []
    for hs in collect(rep).values():
        rtt = hs.report.get("round_trips")
        rows.append([hs.alg, hs.provider, rate_text(hs.rows.get("handshake")), _time(hs.rows.get("client")),
                     _time(hs.rows.get("server")), "—" if rtt is None else str(rtt),
                     *[_bytes(hs.flight(f)) for f in FLIGHTS]])  # fmt: skip
    return HANDSHAKE_HEADERS, rows


@dataclass
class HybridCost:
    hybrid: str
    classical: str
    provider: str
    ratios: dict[str, stats.Ratio]  # op -> time(hybrid) / time(classical)
    deltas: dict[str, int]  # flight -> bytes(hybrid) - bytes(classical)

    def to_dict(self) -> dict:
        return {"hybrid": self.hybrid, "classical": self.classical, "provider": self.provider,
                "ratios": {op: {"value": r.value, "low": r.low, "high": r.high} for op, r in self.ratios.items()},
                "byte_deltas": self.deltas}  # fmt: skip


def hybrid_costs(rep: Report) -> list[HybridCost]:
    """Each hybrid cell beside its classical twin (same authentication, resumption, provider)."""
    found = collect(rep)
    out = []
    for (alg, pid), hs in found.items():
        twin = tls.parse(alg).classical_twin
        base = found.get((twin, pid)) if twin else None
        if base is None:
            continue
        ratios = {op: stats.ratio(hs.rows[op].summary, base.rows[op].summary) for op in tls.OPS
                  if op in hs.rows and op in base.rows and hs.rows[op].ok and base.rows[op].ok}  # fmt: skip
        deltas = {f: a - b for f in FLIGHTS if (a := hs.flight(f)) is not None and (b := base.flight(f)) is not None}
        if ratios or deltas:
            out.append(HybridCost(alg, twin, pid, ratios, deltas))
    return out


def _ratio(r: stats.Ratio | None) -> str:
    return "—" if r is None else f"{r.value:.2f}x [{r.low:.2f}–{r.high:.2f}]"


def _delta(n: int | None) -> str:
    return "—" if n is None else f"{n:+,} B"


def hybrid_table(rep: Report) -> tuple[list[str], list[list[str]]]:
    rows = [[h.hybrid, h.classical, h.provider, *[_ratio(h.ratios.get(op)) for op in tls.OPS],
             _delta(h.deltas.get("client_hello")), _delta(h.deltas.get("server_flight"))]
            for h in hybrid_costs(rep)]  # fmt: skip
    return HYBRID_HEADERS, rows


def interop_pairs(rep: Report) -> dict[str, list[dict]]:
    """alg -> its pairs, as verification stored them (each under both providers' records: once here)."""
    return pairs_of(rep.verifications)


def pairs_of(verifications: list) -> dict[str, list[dict]]:
    """The interop pairs of a run's verification records (`cryptobench verify` has no Report)."""
    out: dict[str, dict[tuple, dict]] = {}
    for v in verifications:
        for p in v.conformance.get("interop", []) if isinstance(v.conformance, dict) else []:
            out.setdefault(p["alg"], {})[(p["server"], p["client"])] = p
    return {alg: [pairs[k] for k in sorted(pairs)] for alg, pairs in sorted(out.items())}


def _pair_cell(p: dict | None) -> str:
    if p is None:
        return "—"
    if not p["passed"]:
        return f"✗ {p['detail']}"
    silent = p.get("no_exporter") or []
    return "✓ no exporter" if silent else "✓"  # a side's library exports nothing: keys not compared


def interop_tables(rep: Report) -> list[tuple[str, list[str], list[list[str]]]]:
    """Per TLS cell: (title, headers, rows) with a row per client and a column per server."""
    return interop_tables_of(rep.verifications)


def interop_tables_of(verifications: list) -> list[tuple[str, list[str], list[list[str]]]]:
    out = []
    for alg, pairs in pairs_of(verifications).items():
        servers = sorted({p["server"] for p in pairs})
        clients = sorted({p["client"] for p in pairs})
        at = {(p["client"], p["server"]): p for p in pairs}
        rows = []
        for c in clients:
            row = [c]
            for s in servers:
                p = at.get((c, s))
                row.append(_pair_cell(p))
            rows.append(row)
        out.append((f"{alg}: interop", ["client \\ server", *servers], rows))
    return out


def records(rep: Report) -> dict:
    """The JSON form (docs/results-schema.md, `tls`)."""
    return {
        "handshakes": [
            {
                "alg": hs.alg,
                "provider": hs.provider,
                **{k: hs.report.get(k) for k in ("group", "cipher", "sigalg", "resumed", "round_trips", "flights")},
            }
            for hs in collect(rep).values()
        ],  # fmt: skip
        "hybrid_over_classical": [h.to_dict() for h in hybrid_costs(rep)],
        "interop": interop_pairs(rep),
    }


def sections(rep: Report) -> list[tuple[str, list[str], list[list[str]]]]:
    """Every TLS table of the run in reading order: (title, headers, rows)."""
    out = []
    headers, rows = handshake_table(rep)
    if rows:
        out.append((HANDSHAKE_TITLE, headers, rows))
    headers, rows = hybrid_table(rep)
    if rows:
        out.append((HYBRID_TITLE, headers, rows))
    return out + interop_tables(rep)


def present(rep: Report) -> bool:
    return any(tls.is_tls(r.cell.alg) for r in rep.rows) or bool(interop_pairs(rep))
