"""Bytes beside time: the sizes of a public-key scheme (keys, signature or ciphertext, shared secret)
for each provider of a run, as its outputs measured them and as the standard fixes them.

For post-quantum schemes bytes matter as much as time (a 17 KB signature, a 1 KB key share), and a
provider whose outputs are not the standard's sizes (another HQC revision, a padded Falcon signature)
is worth a line. The measured sizes come from the checksums (`<length in hex>:<digest>`, docs/protocol.md):
keygen's output is the public key, sign's the signature, encaps' the ciphertext then the shared secret,
decaps' the shared secret.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cryptobench.core import algorithms, fixed_input
from cryptobench.report.cells import rate_text
from cryptobench.report.model import Report, Row

PUBLIC, SECRET, SIG, CT, SS = "public key", "secret key", "signature", "ciphertext", "shared secret"
HEADERS = ["algorithm", "provider", "public key", "secret key", "signature / ciphertext", "keygen",
           "sign · encaps", "verify · decaps · derive"]  # fmt: skip
TITLE = "Sizes and speed (bytes as the outputs measured them, else the standard's)"
_MIDDLE = ("sign", "encaps")
_LAST = ("verify", "decaps", "derive")


output_bytes = fixed_input.checksum_length  # the output length a checksum records, None when it has none


def _longest(r: Row) -> int | None:
    """The longest output the cell saw: a variable-length signature (Falcon, DER) at its largest."""
    seen = [n for n in map(output_bytes, [r.cell.checksum, *r.cell.checksums_seen]) if n is not None]
    return max(seen) if seen else None


@dataclass
class ProviderSizes:
    alg: str
    provider: str
    measured: dict[str, int] = field(default_factory=dict)
    rows: dict[str, Row] = field(default_factory=dict)  # op -> its row (ok or failed)

    def standard(self) -> dict[str, int]:
        return dict(algorithms.get(self.alg).sizes) if self.alg in algorithms.ALGORITHMS else {}

    def size(self, label: str) -> int | None:
        """Measured where the outputs show it, else the standard's."""
        std = self.standard()
        return self.measured.get(label, std.get(label, std.get(f"{label} (at most)")))

    def differs(self) -> list[str]:
        """Measured sizes that are not the standard's (a variable one may be shorter than its maximum)."""
        out, std = [], self.standard()
        for label, n in self.measured.items():
            if label in std and std[label] != n:
                out.append(f"{label} {n:,} B, the standard says {std[label]:,} B")
            elif f"{label} (at most)" in std and n > std[f"{label} (at most)"]:
                out.append(f"{label} {n:,} B, over the standard's maximum {std[f'{label} (at most)']:,} B")
        return out


def _measure(rows: list[Row]) -> dict[str, int]:
    by_op = {r.cell.op: r for r in rows if r.cell.checksum}
    out: dict[str, int] = {}
    if "keygen" in by_op and (n := output_bytes(by_op["keygen"].cell.checksum)) is not None:
        out[PUBLIC] = n
    if "sign" in by_op and (n := _longest(by_op["sign"])) is not None:
        out[SIG] = n
    ss = output_bytes(by_op["decaps"].cell.checksum) if "decaps" in by_op else None
    if ss is not None:
        out[SS] = ss
    enc = output_bytes(by_op["encaps"].cell.checksum) if "encaps" in by_op else None
    if enc is not None:
        ss = ss if ss is not None else dict(algorithms.get(rows[0].cell.alg).sizes).get(SS)
        if ss is not None:
            out[CT] = enc - ss
    return out


def collect(rep: Report) -> list[ProviderSizes]:
    """One entry per (algorithm, provider) of the run's public-key algorithms that have sizes to show."""
    groups: dict[tuple[str, str], list[Row]] = {}
    for r in rep.rows:
        a = algorithms.ALGORITHMS.get(r.cell.alg)
        if a is None or a.kind not in ("sig", "kem", "kex"):
            continue
        groups.setdefault((r.cell.alg, r.provider), []).append(r)
    out = []
    for (alg, provider), rows in groups.items():
        tried = [r for r in rows if r.cell.status != "not-offered"]
        ps = ProviderSizes(alg, provider, _measure([r for r in tried if r.ok]), {r.cell.op: r for r in tried})
        if tried and (ps.measured or ps.standard()):
            out.append(ps)
    return out


def _bytes(n: int | None) -> str:
    return f"{n:,} B" if n is not None else "—"


def _ops(ps: ProviderSizes, ops: tuple[str, ...]) -> str:
    return rate_text(next((ps.rows[o] for o in ops if o in ps.rows), None))


def table(rep: Report) -> tuple[list[str], list[list[str]]]:
    """The sizes view: bytes and operations per second side by side, one row per algorithm and provider."""
    rows = []
    for ps in collect(rep):
        sig_ct = ps.size(SIG) if ps.size(SIG) is not None else ps.size(CT)
        rows.append([ps.alg, ps.provider, _bytes(ps.size(PUBLIC)), _bytes(ps.size(SECRET)), _bytes(sig_ct),
                     _ops(ps, ("keygen",)), _ops(ps, _MIDDLE), _ops(ps, _LAST)])  # fmt: skip
    return HEADERS, rows


def title_suffix(alg: str) -> str:
    """The standard and its sizes, for an algorithm's table title: "FIPS 205; public key 32 B, ..."."""
    a = algorithms.ALGORITHMS.get(alg)
    if a is None or not (a.sizes or a.standard):
        return ""
    sizes = ", ".join(f"{label} {n:,} B" for label, n in a.sizes)
    return "; ".join(x for x in (a.standard, sizes) if x)


def notes(rep: Report) -> list[str]:
    """Providers whose outputs are not the standard's sizes, a line each."""
    return [f"{ps.provider} {ps.alg}: {d}" for ps in collect(rep) for d in ps.differs()]


def records(rep: Report) -> list[dict]:
    """The JSON form (docs/results-schema.md, `sizes`)."""
    return [
        {
            "alg": ps.alg,
            "provider": ps.provider,
            "standard": algorithms.get(ps.alg).standard,
            "standard_bytes": ps.standard(),
            "measured_bytes": ps.measured,
            "differs": ps.differs(),
        }
        for ps in collect(rep)
    ]
