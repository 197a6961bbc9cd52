"""Puts the driver package on sys.path (tests import nothing from here) and the `provider` fixture."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

DRIVER_DIR = Path(__file__).resolve().parents[1]  # drivers/python
if str(DRIVER_DIR) not in sys.path:
    sys.path.insert(0, str(DRIVER_DIR))

from cbdriver import PROVIDERS, load_provider  # noqa: E402


@pytest.fixture(params=sorted(PROVIDERS))
def provider(request):
    return load_provider(request.param)
