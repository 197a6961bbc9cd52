"""A provider asked in-process through the protocol's encode/decode, as the orchestrator asks a driver:
what the providers' tests (test_pk, test_pqcrypto, test_reference) send their requests with."""

from __future__ import annotations

import json

from cbdriver import protocol
from cbdriver.ops_base import Provider


def request(provider: Provider, req: dict) -> dict:
    """One request through encode/decode; the parsed response."""
    text, _ = protocol.respond(provider, json.dumps(req))
    return json.loads(text)


def case(provider: Provider, alg: str, op: str, **fields) -> dict:
    """One `verify` case (id x#1) of alg/op with these fields; its result."""
    resp = request(provider, {"cmd": "verify", "alg": alg, "cases": [{"id": "x#1", "op": op, **fields}]})
    assert resp["ok"], resp
    (result,) = resp["results"]
    assert result["id"] == "x#1"
    return result
