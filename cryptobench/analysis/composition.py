"""A protocol step beside the sum of the primitives it is built from (docs/pq-ntor.md §10, and the
TLS 1.3 handshakes of docs/tls.md § The decomposition).

Papers often quote a handshake as ML-KEM keygen + encaps + decaps. This puts
each measured step next to the sum of its primitives measured by the same
provider in the same run, so what the protocol costs above them (glue,
allocation, encoding, the HKDF and HMAC calls such sums forget) is visible,
with a 95% interval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cryptobench.core import tls

# secret_input and auth_input sizes per suite (HMAC and HKDF message lengths)
HASH_INPUTS = {"ntor": (204, 178), "pq-ntor-512": (1823, 1765), "pq-ntor-768": (2527, 2469),
               "pq-ntor-1024": (3392, 3334)}  # fmt: skip


# the ECDH inside each TLS group (hybrids: their classical half), as the catalogue names its cells
_TLS_ECDH = {"x25519": ("x25519", "x25519"), "p256": ("ecdsa-p256", "ecdh-p256"), "p384": ("ecdsa-p384", "ecdh-p384")}
_TLS_ECDH_OF = {"x25519": "x25519", "p256": "p256", "x25519mlkem768": "x25519", "secp256r1mlkem768": "p256",
                "secp384r1mlkem1024": "p384"}  # fmt: skip
# a TLS provider whose cryptography is another provider of the run: its primitives are that one's
PRIMITIVES_FROM = {"rust:rustls": "rust:aws-lc-rs", "rust:rustls-ring": "rust:ring", "java:jsse": "java:jca"}
SIG_SIZE = 32  # the sign/verify cells' message: a CertificateVerify signs a 130-byte context and a hash


def _merge(*parts: list[tuple[str, str, int, int]]) -> list[tuple[str, str, int, int]]:
    merged: dict[tuple, int] = {}
    for part in parts:
        for alg, op, size, n in part:
            merged[(alg, op, size)] = merged.get((alg, op, size), 0) + n
    return [(a, o, s, n) for (a, o, s), n in merged.items()]


def tls_primitives(alg: str, side: str) -> list[tuple[str, str, int, int]]:
    """What one TLS 1.3 handshake of cell `alg` does in public-key cryptography, per side: the key
    share (ECDH key pair and derivation, and ML-KEM keygen + decaps on the client, encaps on the
    server), and in a full handshake the server's CertificateVerify signature and the client's three
    verifications (CertificateVerify, the leaf's and the intermediate's certificate signatures). Not
    counted: the key schedule's HKDF, transcript hashes, record encryption (docs/tls.md)."""
    cell = tls.parse(alg)
    keypair, derive = _TLS_ECDH[_TLS_ECDH_OF[cell.group.name]]
    ecdh = [(keypair, "keygen", 0, 1), (derive, "derive", 0, 1)]
    kem, key = cell.group.kem, cell.auth.key
    client = ecdh + ([(kem, "keygen", 0, 1), (kem, "decaps", 0, 1)] if kem else [])
    server = ecdh + ([(kem, "encaps", 0, 1)] if kem else [])
    if not cell.resume:
        client, server = client + [(key, "verify", SIG_SIZE, 3)], server + [(key, "sign", SIG_SIZE, 1)]
    return {"client": client, "server": server, "handshake": _merge(client, server)}[side]


def primitives(suite: str, step: str) -> list[tuple[str, str, int, int]]:
    """(alg, op, size, count) that one `step` of `suite` performs."""
    if tls.is_tls(suite):
        return tls_primitives(suite, step)
    si, ai = HASH_INPUTS[suite]
    kem = None if suite == "ntor" else "ml-kem-" + suite.rsplit("-", 1)[1]
    keys = [("hkdf-sha256", "derive", si, 1), ("hmac-sha256", "mac", si, 1), ("hmac-sha256", "mac", ai, 1)]
    steps = {
        "client-create": [("x25519", "keygen", 0, 1)] + ([(kem, "keygen", 0, 1)] if kem else []),
        "server-reply": [("x25519", "keygen", 0, 1), ("x25519", "derive", 0, 2), *keys]
        + ([(kem, "encaps", 0, 1)] if kem else []),
        "client-finish": [("x25519", "derive", 0, 2), *keys] + ([(kem, "decaps", 0, 1)] if kem else []),
    }
    if step == "full":
        return _merge(*(steps[s] for s in ("client-create", "server-reply", "client-finish")))
    return steps[step]


@dataclass
class StepVsPrimitives:
    provider: str
    suite: str
    step: str
    measured_ns: float
    measured_half: float  # half-width of the 95% interval
    sum_ns: float | None
    sum_half: float | None
    missing: list[str]

    @property
    def overhead_ns(self) -> float | None:
        return None if self.sum_ns is None else self.measured_ns - self.sum_ns

    @property
    def overhead_half(self) -> float | None:
        return None if self.sum_half is None else math.hypot(self.measured_half, self.sum_half)


def _half(r) -> float:
    s = r.summary
    return max(s.median - s.ci_low, s.ci_high - s.median)


def compare_steps(rows) -> list[StepVsPrimitives]:
    """One entry per provider, suite and step measured in this run."""
    ok = {(r.provider, r.cell.alg, r.cell.op, r.cell.size): r for r in rows if r.ok}
    out = []
    for (pid, alg, op, _size), r in sorted(ok.items()):
        if alg not in HASH_INPUTS and not tls.is_tls(alg):
            continue
        source = PRIMITIVES_FROM.get(pid, pid)
        total, var, missing = 0.0, 0.0, []
        for p_alg, p_op, p_size, n in primitives(alg, op):
            prim = ok.get((pid, p_alg, p_op, p_size)) or ok.get((source, p_alg, p_op, p_size))
            if prim is None:
                missing.append(f"{p_alg} {p_op}" + (f" {p_size} B" if p_size else ""))
                continue
            total += n * prim.summary.median
            var += (n * _half(prim)) ** 2  # independent cells: half-widths add in quadrature
        complete = not missing
        out.append(StepVsPrimitives(pid, alg, op, r.summary.median, _half(r), total if complete else None,
                                    math.sqrt(var) if complete else None, missing))  # fmt: skip
    steps = ("client-create", "server-reply", "client-finish", "full", "client", "server", "handshake")
    suites = list(HASH_INPUTS) + list(tls.CELLS)
    out.sort(key=lambda s: (s.provider, suites.index(s.suite), steps.index(s.step) if s.step in steps else 9))
    return out
