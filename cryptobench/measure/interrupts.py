"""Ctrl-C and SIGTERM while measured cells are being saved: they wait, they do not cut the save short."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator

SAVING = "cryptobench: saving what was measured, the run ends in a moment"


@contextlib.contextmanager
def _handled_by(handler) -> Iterator[None]:
    """SIGINT and SIGTERM go to `handler` within the block, the previous handlers come back after.
    Signal handlers can only be set from the main thread, and nothing else receives them: elsewhere
    nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, h in old.items():
            signal.signal(sig, h)


@contextlib.contextmanager
def shielded(say: Callable[[str], None]) -> Iterator[None]:
    """Within this block SIGINT and SIGTERM only print a line; the previous handlers come back after.

    A person pressing Ctrl-C three times, or a CI runner sending SIGTERM after SIGINT, would otherwise
    interrupt the code that stores the cells the first Ctrl-C was meant to keep.
    """
    with _handled_by(lambda signum, frame: say(SAVING)):
        yield


@contextlib.contextmanager
def first_only(say: Callable[[str], None]) -> Iterator[None]:
    """Within this block the first SIGINT or SIGTERM raises KeyboardInterrupt, and every later one only
    prints a line, from the moment the first arrives.

    `shielded` guards the saving once it has begun, but a second Ctrl-C 5 ms after the first can land
    before it does — while the first is still unwinding through the measuring loop's threads on a busy
    machine — and cut the save short: the run stayed `running` in the store (seen once in CI).
    """
    fired = False

    def handler(signum, frame) -> None:
        nonlocal fired
        if fired:
            say(SAVING)
            return
        fired = True
        raise KeyboardInterrupt

    with _handled_by(handler):
        yield
