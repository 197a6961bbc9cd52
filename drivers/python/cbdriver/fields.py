"""A request's fields, read strictly (docs/protocol.md), and the one-line error text of a failure.

Shared by the dispatch and its handlers (protocol.py) and the leak request (leak.py).
"""

from __future__ import annotations

from . import inputs
from .ops_base import Provider


class RequestError(ValueError):
    """A request that cannot be served as written."""


def one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    name = type(exc).__name__
    if not text:
        return name
    # "not offered..." is the protocol's own word (the orchestrator records it, not a failure)
    return text if isinstance(exc, RequestError) or text.startswith("not offered") else f"{name}: {text}"


def field_str(req: dict, name: str) -> str:
    if name not in req:
        raise RequestError(f"missing field {name!r}")
    value = req[name]
    if not isinstance(value, str):
        raise RequestError(f"field {name!r} must be a string")
    return value


def field_int(req: dict, name: str, default: int | None = None) -> int:
    if name not in req:
        if default is None:
            raise RequestError(f"missing field {name!r}")
        return default
    value = req[name]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RequestError(f"field {name!r} must be a non-negative integer, got {value!r}")
    return value


def field_hex(req: dict, name: str) -> bytes:
    try:
        return inputs.unhex(req.get(name, ""), name)
    except ValueError as e:
        raise RequestError(str(e)) from None


def check_offered(provider: Provider, alg: str, op: str | None = None) -> None:
    if alg not in provider.offers:
        raise RequestError(f"not offered: {alg} by {provider.id}")
    if op is not None and op not in provider.offers[alg]:
        raise RequestError(
            f"not offered: {alg} {op!r} by {provider.id} (offers {list(provider.offers[alg])})"
        )
