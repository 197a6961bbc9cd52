"""`history --metric instructions`: one cell's instruction count over runs, and where it changed.

Time needs a change-point search against noise (fleet/history.py, ruptures); a count does not: it is
the same to the instruction while the build and the CPU features it saw stay the same. So each run is
judged against the run before it (judge.Step): a step beyond the larger of 0.01% and the two runs'
own spreads is a change. A one-run blip is two changes, there and back, which is what happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cryptobench.core.errors import UserError
from cryptobench.icount import judge


@dataclass
class Series:
    key: tuple  # provider, alg, op, size, chunk
    machine: str
    runs: list[dict] = field(default_factory=list)  # id, started, label, commit
    records: list[dict] = field(default_factory=list)  # the count record of each run
    steps: list[judge.Step] = field(default_factory=list)  # steps[i]: run i+1 against run i

    @property
    def title(self) -> str:
        return f"{judge.describe(self.key)} on {self.machine}"

    @property
    def changes(self) -> list[tuple[int, judge.Step]]:
        return [(i + 1, s) for i, s in enumerate(self.steps) if s.verdict != judge.SAME]


def load(store, alg: str, provider: str | None, machine: str | None, op: str | None, size: int | None) -> list[Series]:
    found: dict[tuple, Series] = {}
    for info in store.list_runs(machine):
        if info["status"] != "complete":
            continue
        run = store.load_run(info["id"])[0]
        where = info["machine_label"] or info["hostname"] or "?"
        for k, r in judge.counted(run.env, [alg]).items():
            if provider and r["provider"] != provider or op and r["op"] != op or size is not None and r["size"] != size:
                continue
            s = found.setdefault((where, *k), Series(k, where))
            s.runs.append({"id": run.id, "started": run.started, "label": run.label,
                           "commit": run.env.get("git_commit", "")})  # fmt: skip
            s.records.append(r)
    if not found:
        what = " ".join(x for x in (provider, alg, op) if x)
        raise UserError(
            f"no instruction count of {what} in any complete run" + (f" of machine {machine!r}" if machine else "")
        )
    for s in found.values():
        s.steps = [judge.Step(s.key, a, b) for a, b in zip(s.records, s.records[1:], strict=False)]
    return [found[k] for k in sorted(found)]


HEADERS = ["run", "commit", "label", "instructions/op", "two counts", "against the run before"]


def rows(s: Series) -> list[list[str]]:
    out = []
    for i, (run, r) in enumerate(zip(s.runs, s.records, strict=True)):
        step = s.steps[i - 1] if i else None
        judged = f"{step.change:+.3%} {step.verdict}" if step else ""
        counts = " / ".join(f"{c:,.1f}" for c in r.get("counts", []))
        out.append([str(run["id"]), run["commit"] or "", run["label"], f"{r['per_op']:,.1f}", counts, judged])
    return out


def record(s: Series) -> dict:
    return {"title": s.title, "points": [{"run": run, "per_op": r["per_op"], "counts": r.get("counts", [])}
                                         for run, r in zip(s.runs, s.records, strict=True)],
            "changes": [{"run": s.runs[i]["id"], **step.record()} for i, step in s.changes]}  # fmt: skip
