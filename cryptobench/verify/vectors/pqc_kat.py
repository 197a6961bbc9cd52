"""Falcon and HQC known answers: the NIST KAT `.rsp` files of vectors/pqc-kat/ (the algorithm teams'
PQCgenKAT output as BouncyCastle's test data carries it, trimmed to 25 cases; see its SOURCE.md).

| algorithm | file | cases per `count` |
|---|---|---|
| `falcon-512`, `falcon-1024` | `falcon512-KAT.rsp`, `falcon1024-KAT.rsp` | `verify` of the KAT's signature (accepted) and of the same signature with one nonce bit flipped (rejected) |
| `hqc-1`, `hqc-3` (2025 revision) | `PQCkemKAT_2321.rsp`, `PQCkemKAT_4602.rsp` | `decaps`: private = the KAT's sk, msg = ct -> ss |

`HQC-128.rsp` and `HQC-192.rsp` (the 2023 sizes) are not read: they are not the revision liboqs
0.13/0.15 ship (both refuse every one of their ciphertexts under the file's own secret key: the
re-encryption check fails), and their count-0 seed is not the NIST DRBG's, so they come from
another generator. Failing liboqs on them would blame the library for the file's revision.

Falcon's `sm` is the submission's signed message: a 2-byte signature length, the 40-byte nonce, the
message, then the signature proper (header 0x20+logn, compressed s2). The detached signature the
contract carries (docs/protocol.md; liboqs and BouncyCastle write it) is header 0x30+logn, the nonce,
the same compressed s2. Signing and keygen answers are left out: they come from the KAT's
AES-CTR DRBG, which no provider's API takes. HQC's `sk` is the reference implementation's encoding
(ek ‖ seed_PKE ‖ sigma ‖ seed_KEM); a driver whose library keeps only the seed takes its last 32
bytes (BouncyCastle).

Ids: `pqc-kat/<file>#<count>/verify`, `…/verify-flipped`, `…/decaps`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from cryptobench.verify.vectors.case import Case, counts_by_source
from cryptobench.verify.vectors.files import bundled

SOURCE = "NIST KAT (submission)"
PREFIX = "pqc-kat/"
VERIFY_OK = "01"
_DIR = Path("pqc-kat") / "pqc" / "crypto"
FILES = {
    "falcon-512": _DIR / "falcon" / "falcon512-KAT.rsp",
    "falcon-1024": _DIR / "falcon" / "falcon1024-KAT.rsp",
    "hqc-1": _DIR / "hqc" / "PQCkemKAT_2321.rsp",
    "hqc-3": _DIR / "hqc" / "PQCkemKAT_4602.rsp",
}
NONCE_LEN = 40


class KatFormatError(ValueError):
    """A .rsp file that is not the PQCgenKAT layout (a missing field, a bad length)."""


@lru_cache(maxsize=16)
def read_rsp(path: Path) -> tuple[dict, ...]:
    """The `count = N` blocks of a PQCgenKAT .rsp file, each as {field: value} (hex upper-cased as
    written; `count`, `mlen`, `smlen` as written)."""
    blocks: list[dict] = []
    for line in path.read_text(encoding="ascii").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(" = ")
        if not sep:
            raise KatFormatError(f"{path.name}: not 'name = value': {line[:40]!r}")
        if key == "count":
            blocks.append({})
        elif not blocks:
            raise KatFormatError(f"{path.name}: {key!r} before the first 'count'")
        blocks[-1][key] = value
    return tuple(blocks)


def _field(path: Path, b: dict, key: str) -> str:
    v = b.get(key)
    if v is None:
        raise KatFormatError(f"{path.name} count {b.get('count', '?')}: no {key!r}")
    return v.lower()


def falcon_detached(sm: bytes, mlen: int, logn: int) -> tuple[bytes, bytes]:
    """(message, detached signature) of a Falcon round-3 signed message `sm`."""
    siglen = int.from_bytes(sm[:2], "big")
    nonce, msg, esig = sm[2 : 2 + NONCE_LEN], sm[2 + NONCE_LEN : 2 + NONCE_LEN + mlen], sm[2 + NONCE_LEN + mlen :]
    if len(esig) != siglen or not esig or esig[0] != 0x20 + logn:
        raise KatFormatError(f"sm: signature of {len(esig)} bytes, header {esig[:1].hex() or 'none'}")
    return msg, bytes([0x30 + logn]) + nonce + esig[1:]


def _falcon(alg: str, path: Path) -> list[Case]:
    logn = 9 if alg == "falcon-512" else 10
    cases = []
    for b in read_rsp(path):
        cid = f"{PREFIX}{path.name}#{b.get('count')}"
        sm = bytes.fromhex(_field(path, b, "sm"))
        msg, sig = falcon_detached(sm, int(_field(path, b, "mlen")), logn)
        if msg.hex() != _field(path, b, "msg"):
            raise KatFormatError(f"{path.name} count {b.get('count')}: sm does not carry msg")
        pk = _field(path, b, "pk")
        flipped = bytearray(sig)
        flipped[1] ^= 0x01  # the nonce's first bit: another hash-to-point, so another (wrong) c
        fields = {"public": pk, "msg": msg.hex()}
        cases.append(Case(f"{cid}/verify", "verify", {**fields, "sig": sig.hex()}, "valid", VERIFY_OK, source=SOURCE))
        cases.append(
            Case(f"{cid}/verify-flipped", "verify", {**fields, "sig": bytes(flipped).hex()}, "invalid", source=SOURCE)
        )
    return cases


def _hqc(path: Path) -> list[Case]:
    return [
        Case(
            f"{PREFIX}{path.name}#{b.get('count')}/decaps",
            "decaps",
            {"private": _field(path, b, "sk"), "msg": _field(path, b, "ct")},
            "valid",
            _field(path, b, "ss"),
            source=SOURCE,
        )
        for b in read_rsp(path)
    ]


def pqc_kat_cases(alg: str, vectors_dir: Path | str | None = None) -> list[Case]:
    """The KAT cases of `alg`; none for an algorithm without a file, or when the file is absent."""
    rel = FILES.get(alg)
    if rel is None:
        return []
    path = bundled(rel, vectors_dir)
    if not path.is_file():
        return []
    return _falcon(alg, path) if alg.startswith("falcon-") else _hqc(path)


def kat_file_counts(cases: list[Case]) -> dict[str, int]:
    """How many of `cases` each KAT file gave (for `list algorithms`)."""
    return counts_by_source(cases, PREFIX)
