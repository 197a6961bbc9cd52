"""Lockstep (duet) measurement: the two sides of a pair round run at the same moment, each driver
pinned to a core of its own (Bulej et al., "Duet benchmarking", ICPE 2020).

Sequential pair rounds (paired.py) cancel what lasts longer than a round: drift, a co-tenant's
bursts of hundreds of milliseconds. What changes within milliseconds hits one batch of a pair and
not the other. In duet mode both batches run at once, so a co-tenant's burst that slows the machine
slows both; what it does to one core only still differs. `bench/paired --designs paired,duet` measures which gives
the tighter interval on a host; duet stays opt-in (`run --duet`).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

from cryptobench.core.errors import UserError
from cryptobench.measure import scaling


def two_cores() -> tuple[int, int]:
    """The two cores the sides are pinned to, or a one-line refusal when there are fewer."""
    cs = scaling.cores()
    if len(cs) < 2:
        raise UserError(f"--duet needs two cores to run both sides at once; this process may use {len(cs)}")
    return cs[0], cs[1]


def pin(pid: int, core: int) -> None:
    """Every thread of a running process onto one core (threads it starts later inherit it). A process
    that is gone or threads that end meanwhile are no error: the next request says what happened."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        tasks = [str(pid)]
    for tid in tasks:
        try:
            os.sched_setaffinity(int(tid), {core})
        except OSError:
            pass


class Lockstep:
    """Runs the two sides' requests at once and waits for both; pins each driver process once."""

    def __init__(self):
        self.cores = two_cores()
        self._pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cryptobench-duet")
        self._pinned: dict[int, int] = {}  # os pid -> core

    def run(self, sides: list[tuple[int, callable]]) -> None:
        """`sides`: (driver os pid, the request to make) for each side; an exception of either is raised."""
        for (pid, _), core in zip(sides, self.cores, strict=False):
            if self._pinned.get(pid) != core:
                pin(pid, core)
                self._pinned[pid] = core
        futures = [self._pool.submit(call) for _, call in sides]
        for f in futures:
            f.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True)
