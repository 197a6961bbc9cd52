"""Ascon (NIST SP 800-232) known answers: the designers' reference KATs, trimmed, in vectors/ascon-kat/.

NIST's ACVP files for Ascon could not be brought here (vectors/acvp/README.md), so `ascon-aead128`,
`ascon-hash256` and `ascon-xof128` are checked on the KATs of github.com/ascon/ascon-c (CC0 1.0),
as RustCrypto's crates on crates.io ship them; `scripts/acvp/ascon-kat` made the file and says what
was kept. Cases:

- `ascon-hash256`, `ascon-xof128`: `hash` of `msg` -> the 32-byte digest (XOF: its first 32 bytes);
- `ascon-aead128`: `seal` (key, 16-byte nonce as `iv`, `aad`, `msg`) -> ciphertext ‖ 16-byte tag, and
  `open` of that -> the plaintext; for every eighth case also an `open` of the same sealed text with
  the tag's last bit flipped, which must be refused (derived from the KAT, marked `/forged`).

Ids: `ascon-kat/<KAT file>#<Count>[/seal|/open|/forged]`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from cryptobench.verify.vectors.case import Case
from cryptobench.verify.vectors.files import bundled, load

SOURCE = "Ascon reference KAT (ascon-c)"
PREFIX = "ascon-kat/"
FILE = Path("ascon-kat") / "ascon_kat.json"
_KINDS = {"ascon-hash256": "hash256", "ascon-xof128": "xof128", "ascon-aead128": "aead128"}


def _flip_last_bit(hexstr: str) -> str:
    return hexstr[:-2] + f"{int(hexstr[-2:], 16) ^ 1:02x}"


@lru_cache(maxsize=8)
def _cached(alg: str, path: Path) -> tuple[Case, ...]:
    kind = _KINDS.get(alg)
    if kind is None or not path.is_file():
        return ()
    doc = load(path)
    kat = doc["files"][kind]["kat"]
    cases = []
    for i, v in enumerate(doc[kind]):
        cid = f"{PREFIX}{kat}#{v['count']}"
        if kind != "aead128":
            cases.append(Case(cid, "hash", {"msg": v["msg"]}, "valid", v["md"][:64], source=SOURCE))
            continue
        base = {"key": v["key"], "iv": v["nonce"], "aad": v["ad"]}
        cases.append(Case(cid + "/seal", "seal", {**base, "msg": v["pt"]}, "valid", v["ct"], source=SOURCE))
        cases.append(Case(cid + "/open", "open", {**base, "msg": v["ct"]}, "valid", v["pt"], source=SOURCE))
        if i % 8 == 0:  # every eighth KAT: its tag with one bit flipped must be refused
            forged = {**base, "msg": _flip_last_bit(v["ct"])}
            cases.append(Case(cid + "/forged", "open", forged, "invalid", source=SOURCE))
    return tuple(cases)


def ascon_kat_cases(alg: str, vectors_dir: Path | str | None = None) -> list[Case]:
    return list(_cached(alg, bundled(FILE, vectors_dir)))
