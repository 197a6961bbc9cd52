"""cryptobench driver for Python providers (protocol version 5, see docs/protocol.md).

Run as ``python -m cbdriver --provider python:cryptography`` (or ``python:hashlib``).
"""

from __future__ import annotations

import importlib

# provider id -> module defining PROVIDER; imported lazily so python:hashlib never loads cryptography
PROVIDERS = {
    "python:cryptography": "cbdriver.ops_cryptography",
    "python:hashlib": "cbdriver.ops_hashlib",
    # reference implementations from PyPI (slh-dsa): correctness, not speed
    "python:ref": "cbdriver.ops_reference",
    # PyPI pqcrypto: Backbone's Rust HQC (v5.0.0) and SLH-DSA through PyO3
    "python:pqcrypto": "cbdriver.ops_pqcrypto",
    # a deliberately broken test path (1-byte updates): see ops_bytewise.py
    "python:cryptography-bytewise": "cbdriver.ops_bytewise",
}


def load_provider(provider_id: str):
    """The provider object for `provider_id`; KeyError when the id is unknown."""
    module = importlib.import_module(PROVIDERS[provider_id])
    return module.PROVIDER
