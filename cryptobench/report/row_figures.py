"""Two facts about a report row that every layout reads the same way: whether it was measured once
(a long message, sampler.long_message), and which peak memory figure is its own."""

from __future__ import annotations

ONE_SAMPLE = "n=1: no interval"  # the verdict of a ratio one side of which is a single operation


def single(r) -> bool:  # r: a report/model.py Row, or None
    """Measured once: a long message whose one operation outlasted five budgets (sampler.long_message).
    Its figure is that operation's time; it has no interval, and no verdict is drawn from it."""
    return r is not None and r.summary is not None and r.summary.n < 2


def peak_kb(r) -> int:  # r: a report/model.py Row
    """The cell's peak resident set: for a browser provider the renderer's (the bridge's own figure, read
    after the runner reset it: docs/wasm.md), not the largest process of the browser's tree, which is
    the browser process whatever the page does."""
    own = r.cell.extra.get("driver_peak_kb")
    if r.provider.startswith("browser:") and isinstance(own, int) and own > 0:
        return own
    return r.cell.peak_rss_kb
