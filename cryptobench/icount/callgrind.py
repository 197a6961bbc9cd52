"""One driver process under valgrind's callgrind, counting the instructions of each bench request's
timed region, and nothing else.

Collection is on only inside the driver's batch function (`--toggle-collect`), and callgrind writes
one profile as that function returns (`--dump-after`): one profile per request, read as it is
answered. Calls the region makes to prepare single-use inputs are outside the clock, so their
inclusive cost is taken off. Start-up (key generation, the clock probe) is never counted, so a
random key or a seqlock retry cannot move the figure: two fresh processes give the same count to the
instruction. The region's fixed cost (clock reads, one warm-up operation in Rust) is taken off by
N/2N differencing (phase.py).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cryptobench.core.errors import DriverError
from cryptobench.drivers.client import DriverProcess


@dataclass(frozen=True)
class Region:
    """Where a driver family's timed batch is, by symbol, and what its process needs to count the same
    every time."""

    function: str  # entered once per bench request with a fixed batch
    untimed: str = ""  # regex: calls from `function` outside the clock (single-use inputs made ready)
    env: tuple[tuple[str, str], ...] = field(default=())
    runtime: str = ""  # regex: the language runtime's own work, taken off wherever the region calls it


REGIONS = {
    # the generic C driver (C and C++ libraries, every C or Rust plugin): drivers/c/src/timing.c
    "c": Region("time_batch", r"ops_cell_prepare"),
    # drivers/go/timing.go. One P, no collector and no asynchronous preemption: callgrind fails an
    # assertion on Go's preemption signals, and a collection inside the batch adds its instructions
    "go": Region(
        "main.timeBatch",
        r"main\.\(\*\w+\)\.prepare",
        (("GOMAXPROCS", "1"), ("GOGC", "off"), ("GODEBUG", "asyncpreemptoff=1")),
        # the runtime's own work, whose cost depends on time and on the heap's state rather than on
        # the code: a stack check that yields to the scheduler (the scavenger then runs on this
        # thread), and allocation, whose slow paths follow the heap the scavenger left (measured:
        # go:stdlib aes-256-cbc 64 B, one allocation an operation, 1,391.0 against 1,386.2)
        r"runtime\.(morestack.*|newobject|mallocgc.*|makeslice.*|growslice|newarray|makemap.*|convT.*|rawbyteslice"
        r"|rawstring.*|concatstring.*|slicebytetostring|stringtoslicebyte)",
    ),
    # drivers/rust/src/timing.rs: time_batch is inlined into measure (its one warm-up operation is
    # the same in both requests of a pair, so differencing takes it off)
    "rust": Region("cbdriver_rust::timing::measure"),
}


def read_profile(path: Path, region: Region) -> int:
    """Instructions in one callgrind profile (its `summary:`), less the inclusive cost of the calls
    the region makes outside the clock."""
    untimed = re.compile(region.untimed) if region.untimed else None
    runtime = re.compile(region.runtime) if region.runtime else None
    total, taken_off = None, 0
    fn = cfn = ""
    in_call = False
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("fn="):
            fn = line[3:]
        elif line.startswith("cfn="):
            cfn = line[4:]
        elif line.startswith("calls="):
            in_call = True  # the next cost line is this call's inclusive cost
        elif line.startswith("summary:"):
            total = int(line.split()[1])
        elif in_call and line[:1].isdigit():
            in_call = False
            if untimed and fn == region.function and untimed.fullmatch(cfn):
                taken_off += int(line.split()[-1])
            elif runtime and runtime.fullmatch(cfn) and not runtime.fullmatch(fn):  # the outermost call only
                taken_off += int(line.split()[-1])
    if total is None:
        raise DriverError(f"callgrind profile {path.name} has no summary line")
    return total - taken_off


class Counted:
    """A provider's driver started under callgrind; `count(request)` is the region's instructions."""

    def __init__(self, provider: str, argv: list[str], env: dict, region: Region, timeout: float):
        self.region, self.timeout = region, timeout
        self.dir = Path(tempfile.mkdtemp(prefix="cryptobench-icount-"))
        self.dumps = 0
        valgrind = [shutil.which("valgrind") or "valgrind", "-q", "--tool=callgrind", "--collect-atstart=no",
                    f"--toggle-collect={region.function}", f"--dump-after={region.function}",
                    "--compress-strings=no", "--compress-pos=no", f"--callgrind-out-file={self.dir / 'cg'}"]  # fmt: skip
        self.proc = DriverProcess(provider, [*valgrind, *argv], env={**env, **dict(region.env)})
        try:
            self.hello = self.proc.hello(timeout=timeout)
        except DriverError:
            self.close()
            raise

    def count(self, request: dict) -> int:
        self.proc.request(request, self.timeout)
        self.dumps += 1
        path = self.dir / f"cg.{self.dumps}"
        if not path.exists():  # the region was not entered: nothing honest to read
            raise DriverError(f"the counter saw no batch in {self.region.function} (a driver of another shape?)")
        if (self.dir / f"cg.{self.dumps + 1}").exists():
            raise DriverError(f"the counter saw more than one batch in {self.region.function} for one request")
        try:
            return read_profile(path, self.region)
        finally:
            path.unlink()

    def close(self) -> None:
        self.proc.close(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)
