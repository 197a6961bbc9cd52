"""What a run writes to and tells, declared: `RunSink` (the SQL stores and store.spool.SpoolingStore),
`Progress` (run/progress.py's bar and lines) with `Silent`, the default. `Drivers` is declared lower,
in drivers/interface.py, as verification names it too."""

from __future__ import annotations

from typing import Protocol

from cryptobench.core.cell import CellSpec
from cryptobench.drivers.interface import Driver, Drivers
from cryptobench.store.model import CellRecord, RunRecord, VerifyRecord

__all__ = ["Driver", "Drivers", "Progress", "RunSink", "Silent"]


class RunSink(Protocol):
    """Where a run's results go, each the moment it is known: nothing measured is lost to a later fault."""

    def create_run(self, run: RunRecord) -> int: ...

    def add_provider(self, run_id: int, provider: str, hello: dict) -> None: ...

    def add_cell(self, run_id: int, c: CellRecord) -> None: ...

    def add_verification(self, run_id: int, v: VerifyRecord) -> None: ...

    def add_crosschecks(self, run_id: int, records: list) -> None: ...

    def add_scaling(self, run_id: int, records: list[dict]) -> None: ...  # measure.scaling.Scaled.record()

    def add_leak(self, run_id: int, records: list[dict]) -> None: ...  # leak.check.LeakResult.record()

    def finish_run(self, run_id: int, status: str, finished: str, env_update: dict | None = None) -> None: ...


class Progress(Protocol):
    """What a run says while it goes: verification's steps, the cell being measured, log lines."""

    def start(self, total: int, seconds: float, passes: int = 1) -> None: ...

    def cell(self, index: int, spec: CellSpec, provider: str) -> None: ...

    def step(self, stage: str, index: int, total: int, what: str) -> None: ...

    def log(self, message: str) -> None: ...

    def finish(self) -> None: ...


class Silent:
    """The default `Progress`: says nothing (`--quiet`, tests, library use)."""

    def start(self, total: int, seconds: float, passes: int = 1) -> None: ...

    def cell(self, index: int, spec: CellSpec, provider: str) -> None: ...

    def step(self, stage: str, index: int, total: int, what: str) -> None: ...

    def log(self, message: str) -> None: ...

    def finish(self) -> None: ...
