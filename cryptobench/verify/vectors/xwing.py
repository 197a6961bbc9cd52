"""X-Wing known answers: the draft's three test vectors (vectors/xwing/, as the RustCrypto crate
ships them), three cases each — keygen from the 32-byte seed, encapsulation with the vector's eseed
as `m` (docs/protocol.md, Cases), decapsulation with the seed as the private key.

Ids: `xwing/test-vectors.json#<n>/<op>`.
"""

from __future__ import annotations

from pathlib import Path

from cryptobench.verify.vectors.case import Case
from cryptobench.verify.vectors.files import bundled, load

SOURCE = "X-Wing draft test vectors"
FILE = Path("xwing") / "test-vectors.json"


def xwing_cases(alg: str, vectors_dir: Path | str | None = None) -> list[Case]:
    path = bundled(FILE, vectors_dir)
    if alg != "x-wing" or not path.is_file():
        return []
    cases = []
    for i, v in enumerate(load(path)):
        cid = f"xwing/{FILE.name}#{i}"
        cases += [
            Case(f"{cid}/keygen", "keygen", {"seed": v["seed"]}, "valid", v["pk"], source=SOURCE),
            Case(
                f"{cid}/encaps",
                "encaps",
                {"public": v["pk"], "m": v["eseed"]},
                "valid",
                v["ct"] + v["ss"],
                source=SOURCE,
            ),  # fmt: skip
            Case(f"{cid}/decaps", "decaps", {"private": v["seed"], "msg": v["ct"]}, "valid", v["ss"], source=SOURCE),
        ]
    return cases
