"""The leak request (since protocol version 5, docs/protocol.md § leak): single operations timed one by
one, each from its own prepared input (Provider.prepare), for the dudect-style leak check (docs/leak.md).
protocol.py's dispatch calls leak(provider, request).
"""

from __future__ import annotations

from . import timing
from .fields import RequestError, check_offered, field_str, one_line
from .ops_base import Provider, Rejected


def leak(provider: Provider, req: dict) -> dict:
    """Single operations timed one by one, each from its own prepared input (docs/protocol.md § leak)."""
    alg, op = field_str(req, "alg"), field_str(req, "op")
    check_offered(provider, alg, op)
    inputs, order = req.get("inputs"), req.get("order")
    if not isinstance(inputs, list) or not isinstance(order, list) or not inputs or not order:
        raise RequestError("fields inputs and order must be non-empty arrays")
    calls = []
    for i, k in enumerate(order):
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(inputs):
            raise RequestError(f"order[{i}] is not an index into inputs (0 .. {len(inputs) - 1})")
        if not isinstance(inputs[k], dict):
            raise RequestError(f"input {k} is not an object")
        try:
            calls.append(provider.prepare(alg, {**inputs[k], "op": op}))
        except NotImplementedError as e:
            raise RequestError(str(e)) from None
        except Exception as e:  # noqa: BLE001
            raise RequestError(f"input {k}: {one_line(e)}") from None
    times, refused = timing.time_each(calls, Rejected)
    outcomes = ["unused"] * len(inputs)
    for k, r in zip(order, refused, strict=True):
        if outcomes[k] == "unused":
            outcomes[k] = "rejected" if r else "ok"
    return {"ok": True, "counter": "clock", "times": times, "outcomes": outcomes}
