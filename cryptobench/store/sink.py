"""The store's declared interfaces: what a run writes (`RunSink`) and what is read back of it for its
report (`RunSource`). `SqlStore` (store/sql.py) and `SpoolingStore` (store/spool.py) implement both;
the runner is given a `RunSink`, never a particular store, so a test can hand it a list.

A run's writes come in this order: create_run once, then any of add_provider, add_verification,
add_cell, add_crosschecks, add_scaling, add_leak (each appends; add_provider and add_verification
replace what the same provider, or provider and algorithm, had), then finish_run once.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from cryptobench.store.model import CellRecord, RunRecord, VerifyRecord


@runtime_checkable
class RunSink(Protocol):
    def create_run(self, run: RunRecord) -> int:
        """Store the run's own fields (not its scaling or leak records); its id, also set on `run`."""
        ...

    def add_provider(self, run_id: int, provider: str, hello: dict) -> None:
        """A provider's hello response (docs/protocol.md)."""
        ...

    def add_verification(self, run_id: int, v: VerifyRecord) -> None: ...

    def add_cell(self, run_id: int, c: CellRecord) -> None: ...

    def add_crosschecks(self, run_id: int, records: list) -> None:
        """verify/cross_checks.py's CrossRecords, in the order they were made."""
        ...

    def add_scaling(self, run_id: int, records: list[dict]) -> None:
        """`--workers`: measure/scaling.py's `Scaled.record()` dicts, stored as they are, in order."""
        ...

    def add_leak(self, run_id: int, records: list[dict]) -> None:
        """Leak checks: leak/check.py's `LeakResult.record()` dicts, stored as they are, in order."""
        ...

    def finish_run(self, run_id: int, status: str, finished: str, env_update: dict | None = None) -> None:
        """The run's end: its status (complete | interrupted | failed), when, and what is added to its
        environment. Scaling or leak records in `env_update` (an older writer's) go to their own tables."""
        ...


@runtime_checkable
class RunSource(Protocol):
    """What a command reads back of a run it has just written, for its report."""

    url: str

    def load_run(self, run_id: int) -> tuple[RunRecord, list[VerifyRecord], list[CellRecord]]:
        """The run (its scaling and leak records in `run.scaling`, `run.leak`), its verifications
        sorted by provider and algorithm, its cells in the order they were stored."""
        ...

    def load_crosschecks(self, run_id: int) -> list: ...

    def load_references(self) -> list:
        """analysis/references.py's References (`cryptobench reference add`), oldest first."""
        ...
