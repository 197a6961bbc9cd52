"""Progress of a run on stderr: a live bar on a terminal, one line per cell otherwise.

Every string shown passes through `printable`: provider ids, algorithm names and messages can come
from a driver or a providers file, and must not drive the terminal."""

from __future__ import annotations

import sys
import time

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, TaskProgressColumn, TextColumn
from rich.text import Text

from cryptobench.core import algorithms
from cryptobench.core.cell import CellSpec
from cryptobench.core.textsafe import printable, printable_lines
from cryptobench.run import interfaces
from cryptobench.run.interfaces import Silent


def seconds_left(elapsed: float, done: int, total: int, budget: float) -> float:
    """What is left of a run: the rate measured so far times the cells left, never more than what
    is left of its budget (`budget` seconds in all). Cells that met their interval early are skipped
    in later passes, so the first cells' rate alone overstates a short run."""
    left = max(0.0, budget - elapsed)
    if done <= 0 or elapsed <= 0:
        return left
    return min(elapsed / done * max(0, total - done), left)


def left_text(seconds: float) -> str:
    """`about 12 s left`; under a second never `about 0 s left`: the measuring budget is (nearly)
    spent, and what is left is fresh driver processes for the passes to come and storing the cells."""
    return f"about {seconds:.0f} s left" if seconds >= 1 else "less than 1 s of measuring left"


def _describe(index: int, total: int, spec: CellSpec, provider: str, passes: int = 1) -> str:
    provider = printable(provider)
    message = algorithms.message_label(spec.alg, spec.size, spec.chunk, sep=" /", suffix="")
    per_pass = max(1, total // passes)
    where = (
        f"pass {index // per_pass + 1}/{passes} cell {index % per_pass + 1}/{per_pass}"
        if passes > 1
        else (f"cell {index + 1}/{total}")
    )
    return f"{where}  {provider:<20} {printable(spec.alg)} {printable(spec.op)}" + (
        f" {printable(message)}" if message else ""
    )


class _Left(ProgressColumn):
    """The bar's time left, as the line progress says it (`seconds_left`); nothing before the cells."""

    def __init__(self, owner: TerminalProgress):
        super().__init__()
        self.owner = owner

    def render(self, task) -> Text:
        o = self.owner
        if not o.seconds:
            return Text("")
        return Text(left_text(seconds_left(time.monotonic() - o.t0, max(o.last, 0), o.total, o.seconds)))


class TerminalProgress:
    """A bar with cell i of n, the provider, algorithm, size and time left."""

    def __init__(self, stream=None):
        self.console = Console(file=stream or sys.stderr)
        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            _Left(self),
            console=self.console,
            transient=True,
        )
        self.task = None
        self.total = 0
        self.passes = 1
        self.last = -1
        self.t0 = time.monotonic()
        self.seconds = 0.0  # the run's budget, once its cells start

    def _shown(self):
        """The one bar, started by whichever comes first: verification's steps or the cells."""
        if self.task is None:
            self.bar.start()
            self.task = self.bar.add_task("starting")
        return self.task

    def start(self, total: int, seconds: float, passes: int = 1) -> None:
        self.total, self.passes, self.seconds, self.t0, self.last = total, passes, seconds, time.monotonic(), -1
        self.bar.reset(self._shown(), total=total, description="starting")

    def step(self, stage: str, index: int, total: int, what: str) -> None:
        """Verification before any cell: the bar counts the stage's steps."""
        description = printable(f"{stage} {index + 1}/{total}  {what}")
        self.bar.update(self._shown(), completed=index, total=total, description=description)

    def cell(self, index: int, spec: CellSpec, provider: str) -> None:
        self.last = index
        self.bar.update(
            self.task, completed=index, description=_describe(index, self.total, spec, provider, self.passes)
        )

    def finish(self) -> None:
        if self.task is not None:
            self.bar.update(self.task, completed=self.total)
        self.bar.stop()

    def log(self, message: str) -> None:
        self.console.print(printable_lines(message), markup=False, highlight=False)


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
        left = seconds_left(time.monotonic() - self.t0, index, self.total, self.estimate)
        name = _describe(index, self.total, spec, provider, self.passes).replace(f"  {printable(provider):<20}", "")
        print(f"[{name}] {left_text(left)}", file=self.stream, flush=True)

    def finish(self) -> None: ...

    def step(self, stage: str, index: int, total: int, what: str) -> None:
        print(printable(f"[{stage} {index + 1}/{total}] {what}"), file=self.stream, flush=True)

    def log(self, message: str) -> None:
        print(printable_lines(message), file=self.stream, flush=True)


def make_progress(quiet: bool) -> interfaces.Progress:
    if quiet:
        return Silent()
    return TerminalProgress() if sys.stderr.isatty() else LineProgress()
