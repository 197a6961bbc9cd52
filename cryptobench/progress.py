"""Progress of a run on stderr: a live bar on a terminal, one line per cell otherwise."""

from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

from . import algorithms
from .planner import CellSpec


def _describe(index: int, total: int, spec: CellSpec, provider: str, passes: int = 1) -> str:
    message = algorithms.message_label(spec.alg, spec.size, spec.chunk, sep=" /", suffix="")
    per_pass = max(1, total // passes)
    where = (
        f"pass {index // per_pass + 1}/{passes} cell {index % per_pass + 1}/{per_pass}"
        if passes > 1
        else (f"cell {index + 1}/{total}")
    )
    return f"{where}  {provider:<20} {spec.alg} {spec.op}" + (f" {message}" if message else "")


class TerminalProgress:
    """A bar with cell i of n, the provider, algorithm, size and time left."""

    def __init__(self, stream=None):
        self.console = Console(file=stream or sys.stderr)
        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TimeRemainingColumn(),
            console=self.console,
            transient=True,
        )
        self.task = None
        self.total = 0
        self.passes = 1
        self.last = -1

    def _shown(self):
        """The one bar, started by whichever comes first: verification's steps or the cells."""
        if self.task is None:
            self.bar.start()
            self.task = self.bar.add_task("starting")
        return self.task

    def start(self, total: int, seconds: float, passes: int = 1) -> None:
        self.total, self.passes = total, passes
        self.bar.reset(self._shown(), total=total, description="starting")

    def step(self, stage: str, index: int, total: int, what: str) -> None:
        """Verification before any cell: the bar counts the stage's steps."""
        self.bar.update(self._shown(), completed=index, total=total, description=f"{stage} {index + 1}/{total}  {what}")

    def cell(self, index: int, spec: CellSpec, provider: str) -> None:
        self.bar.update(
            self.task, completed=index, description=_describe(index, self.total, spec, provider, self.passes)
        )

    def finish(self) -> None:
        if self.task is not None:
            self.bar.update(self.task, completed=self.total)
        self.bar.stop()

    def log(self, message: str) -> None:
        self.console.print(message, markup=False, highlight=False)


class LineProgress:
    """For logs and CI: one line when a cell starts, with an estimate of the time left."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.total = 0
        self.passes = 1
        self.last = -1
        self.t0 = time.monotonic()
        self.estimate = 0.0

    def start(self, total: int, seconds: float, passes: int = 1) -> None:
        self.total, self.estimate, self.t0, self.passes = total, seconds, time.monotonic(), passes

    def cell(self, index: int, spec: CellSpec, provider: str) -> None:
        if index == self.last:
            return
        self.last = index
        elapsed = time.monotonic() - self.t0
        left = elapsed / index * (self.total - index) if index else self.estimate
        name = _describe(index, self.total, spec, provider, self.passes).replace(f"  {provider:<20}", "")
        print(f"[{name}] about {left:.0f} s left", file=self.stream, flush=True)

    def finish(self) -> None: ...

    def step(self, stage: str, index: int, total: int, what: str) -> None:
        print(f"[{stage} {index + 1}/{total}] {what}", file=self.stream, flush=True)

    def log(self, message: str) -> None:
        print(message, file=self.stream, flush=True)


def make_progress(quiet: bool):
    from .runner import _Silent

    if quiet:
        return _Silent()
    return TerminalProgress() if sys.stderr.isatty() else LineProgress()
