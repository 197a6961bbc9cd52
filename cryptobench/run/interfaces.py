"""What a run writes to and tells, declared: `RunSink` (the SQL stores and store.spool.SpoolingStore),
`Progress` (run/progress.py's bar and lines) with `Silent`, the default. `Drivers` is declared lower,
in drivers/interface.py, as verification names it too."""

from __future__ import annotations

from typing import Protocol

from cryptobench.core.cell import CellSpec
from cryptobench.drivers.interface import Driver, Drivers
from cryptobench.store.sink import RunSink  # declared by the store, whose two classes implement it

__all__ = ["Driver", "Drivers", "Progress", "RunSink", "Silent"]


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
