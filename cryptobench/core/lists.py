"""A command-line flag's list of values: comma-separated, and repeated flags add up."""

from __future__ import annotations

from cryptobench.core.errors import UserError
from cryptobench.core.units import parse_size


def is_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def split_list(value: str | list[str] | None, flag: str) -> list[str] | None:
    """A flag's values: comma-separated, repeated flags adding up, each once, in order; None when the
    flag was not given, a one-line error when it names nothing."""
    if value is None:
        return None
    texts = [value] if isinstance(value, str) else list(value)
    items = [x.strip() for t in texts for x in t.split(",") if x.strip()]
    if not items:
        raise UserError(f"{flag} {','.join(texts)!r} names nothing (leave the flag out for the default)")
    if flag == "--size":
        for s in items:
            if not is_glob(s):
                parse_size(s)  # a clear one-line error for a bad size
    return list(dict.fromkeys(items))
