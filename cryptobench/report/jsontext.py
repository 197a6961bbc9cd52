"""JSON as every report writes it: always valid JSON. JSON has no NaN and no infinity, which a stored
figure may still hold (a run imported before imports were checked): they are written as null."""

from __future__ import annotations

import json
import math


def finite(x):
    """The data with every NaN or infinity made null."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {str(k): finite(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite(v) for v in x]
    return x


def dumps(data, **kw) -> str:
    """json.dumps of `data` made finite; allow_nan=False: anything not JSON is an error, never written."""
    return json.dumps(finite(data), allow_nan=False, **kw)
