"""Handshake cases from the committed PQ-ntor vectors (protocols/pqntor/vectors, docs/pq-ntor.md).

A `handshake` case gives every secret the deterministic vectors fix (relay
identity and long-term key, client and relay ephemeral keys, the ML-KEM seed
and encapsulation randomness, the key length); the driver runs
client-create, server-reply and client-finish with them and answers
onionskin ‖ reply ‖ keys, which must match the vector byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

from cryptobench.verify.vectors.case import Case

VECTORS = Path(__file__).resolve().parents[3] / "protocols" / "pqntor" / "vectors"
FILES = {
    "ntor": "ntor.json",
    "pq-ntor-512": "pq-ntor-mlkem512.json",
    "pq-ntor-768": "pq-ntor-mlkem768.json",
    "pq-ntor-1024": "pq-ntor-mlkem1024.json",
}


def protocol_cases(alg: str) -> list[Case]:
    path = VECTORS / FILES[alg]
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    cases = []
    for v in data["vectors"]:
        out = v["outputs"]
        fields = {**v["inputs"], "key_len": int(v["key_len"])}
        expected = out["onionskin"] + out["reply"] + out["keys"]
        cases.append(Case(f"pqntor/{FILES[alg]}#{v['id']}", "handshake", fields, "valid", expected, source=v["source"]))
    return cases
