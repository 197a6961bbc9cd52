"""Precision passes: what a run has not spent of its budget goes to the cells still wider than the target."""

from __future__ import annotations

import time

from cryptobench.core.cell import CellSpec
from cryptobench.drivers.interface import Drivers
from cryptobench.run.measuring import MeasuringLoop


def sharpen(loop: MeasuringLoop, drivers: Drivers, cells: list[CellSpec]) -> None:
    """Cells that met the target early leave some of the run's budget: it goes to the cells whose interval
    is still wider than the target, widest first, one round per provider per visit, until every
    interval meets it or the budget is spent. Whatever is left then is stored as it is, its interval's
    shortfall said in the report."""
    s, budget = loop.s, loop.budget
    pass_no = max(1, s.passes)
    last_said = ""
    while loop.spent < budget:
        wide = {spec: loop.halfwidth(spec) for spec, mine in loop.open.items()
                if any(not x.track.done and x.track.samples for x in mine.values())}  # fmt: skip
        if not wide:
            break
        t0 = time.monotonic()  # fresh processes are part of what precision costs: counted in the budget
        drivers.renew({pid for spec in wide for pid, x in loop.open[spec].items() if not x.track.done})
        loop.spent += time.monotonic() - t0
        if loop.spent >= budget:
            break
        said = f"{len(wide)} cells wider than ±{s.max_rel_ci * 100:g}%, {budget - loop.spent:.0f} s"
        if budget - loop.spent >= 1 and said != last_said:  # never "0 s left", never the same line again
            loop.progress.log(f"precision pass {pass_no - s.passes + 1}: {said} of the run's budget left")
            last_said = said
        last = (s.passes - 1) * len(cells)  # shown as the last pass's cells
        for spec in sorted(wide, key=lambda c: -wide[c]):
            if loop.spent >= budget:
                break
            loop.measure(last + cells.index(spec), spec, pass_no)
        pass_no += 1
    loop.store_rest()
