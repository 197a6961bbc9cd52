"""Peak memory of one cell, measured from outside the driver (Linux /proc).

A driver's own figure (getrusage's maxrss) is the peak over the process's whole life: once one
cell has held 500 MB, every later cell in that process reports 500 MB too. Linux lets the peak be
reset (`echo 5 > /proc/PID/clear_refs` resets VmHWM), so the runner resets it for the driver's
processes before each request and reads it after: the peak resident set of that cell alone.
For a driver with several processes (the browser's bridge, Chromium and its renderer) the figure
is the largest single process's peak - the renderer that held the data - not their sum.
"""

from __future__ import annotations

from pathlib import Path

PROC = Path("/proc")


def _tree(pid: int) -> list[int]:
    """pid and all its descendants (children listed by /proc/PID/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in (PROC / str(p) / "task").glob("*/children"):
            try:
                todo.extend(int(c) for c in task.read_text().split())
            except (OSError, ValueError):
                pass
    return out


def reset_peak(pid: int) -> bool:
    """Reset the peak resident set of pid and its descendants; False where the system cannot."""
    ok = False
    for p in _tree(pid):
        try:
            (PROC / str(p) / "clear_refs").write_text("5")
            ok = True
        except OSError:
            pass
    return ok


def peak_kb(pid: int) -> int | None:
    """The largest VmHWM (peak resident set, KiB) among pid and its descendants since the reset."""
    best = None
    for p in _tree(pid):
        try:
            for line in (PROC / str(p) / "status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    kb = int(line.split()[1])
                    best = kb if best is None else max(best, kb)
        except (OSError, ValueError, IndexError):
            pass
    return best
