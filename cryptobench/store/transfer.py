"""Copying runs between stores (`push`, `import`), exactly once.

A run's global id (runs.uid) travels with it: a store that already holds that id is left as it is,
so pushing or importing twice adds nothing, and two machines pushing at the same moment cannot
store one run twice (the unique index decides; the loser finds it there). A stored copy whose
content differs is kept, and said. A run is copied in one transaction with all its cells and raw
samples: it lands whole or not at all. A run the destination can never take (RecordRefused) is
said and skipped; the others are copied.

Sources: another store (SQLite file or PostgreSQL), or a result file written by `run --json` /
`show --format json` (docs/results-schema.md). A result file from before version 6 has no uid:
its uid is derived from its content, so importing that file twice still adds nothing. What is
imported passes the runner's checks (figures.admit): a cell that fails them is stored `failed`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from cryptobench.core.errors import StoreError, UserError
from cryptobench.store.figures import admit, fit
from cryptobench.store.model import PHASES, CellRecord, RecordRefused, RunRecord, VerifyRecord, phases_out_of_env
from cryptobench.store.sql import SQLITE_MAGIC, not_a_file
from cryptobench.verify.cross_checks import CrossRecord


@dataclass
class RunCopy:
    """A whole run, as it moves between stores."""

    run: RunRecord
    verifications: list[VerifyRecord]
    cells: list[CellRecord]
    crosschecks: list[CrossRecord] = field(default_factory=list)


@dataclass
class Outcome:
    copied: list[tuple[str, int]] = field(default_factory=list)  # (uid, id in the destination)
    present: list[str] = field(default_factory=list)  # uids the destination already held
    cells: int = 0
    differ: list[str] = field(default_factory=list)  # present, but with other content: the stored copy kept
    refused: list[str] = field(default_factory=list)  # one line per run the destination could not take

    def line(self, where: str) -> str:
        parts = [f"{len(self.copied)} run{'s' if len(self.copied) != 1 else ''} ({self.cells} cells) copied to {where}"]
        if self.present:
            parts.append(f"{len(self.present)} already there")
        if self.refused:
            parts.append(f"{len(self.refused)} could not be copied")
        return "; ".join(parts)

    def warnings(self) -> list[str]:
        """The lines a person must read: runs kept as they were stored, runs not copied."""
        return [f"run {uid} exists with other content; kept the stored copy" for uid in self.differ] + self.refused


def from_store(store, run_id: int) -> RunCopy:
    run, verifs, cells = store.load_run(run_id)
    return RunCopy(run, verifs, cells, store.load_crosschecks(run_id))


def admitted(copy: RunCopy) -> RunCopy:
    """`copy` with every cell through the runner's checks, against the limits its machine recorded."""
    limits = copy.run.env.get("machine_limits") if isinstance(copy.run.env, dict) else None
    return dataclasses.replace(copy, cells=[admit(c, limits) for c in copy.cells])


def _content(copy: RunCopy) -> str:
    """What a run holds, as text to compare: everything but its id in one store."""
    run = {**dataclasses.asdict(copy.run), "id": None}
    verifs = sorted((dataclasses.asdict(v) for v in copy.verifications), key=lambda v: (v["provider"], v["alg"]))
    # as a store writes them; in any order (a result file lists them as the report does, a store as measured)
    cells = sorted(json.dumps(dataclasses.asdict(fit(c)), sort_keys=True, default=str) for c in copy.cells)
    cross = [dataclasses.asdict(x) for x in copy.crosschecks]
    return json.dumps([run, verifs, cells, cross], sort_keys=True, default=str)


def _present(dst, run_id: int, copy: RunCopy, outcome: Outcome) -> None:
    outcome.present.append(copy.run.uid)
    if _content(from_store(dst, run_id)) != _content(copy):
        outcome.differ.append(copy.run.uid)


def copy_into(dst, copy: RunCopy, outcome: Outcome, source: str = "") -> None:
    """Store `copy` in `dst` unless a run with its uid is there already. `source` names where it
    comes from in the line said when `dst` refuses it."""
    run = copy.run
    if (there := dst.run_id_of(run.uid)) is not None:
        _present(dst, there, copy, outcome)
        return
    fresh = RunRecord(**{**run.__dict__, "id": None, "providers": {}, "scaling": [], "leak": []})
    try:
        with dst.transaction():
            run_id = dst.create_run(fresh)
            for provider, hello in run.providers.items():
                dst.add_provider(run_id, provider, hello)
            for v in copy.verifications:
                dst.add_verification(run_id, v)
            dst.add_cells(run_id, copy.cells)
            dst.add_crosschecks(run_id, copy.crosschecks)
            dst.add_scaling(run_id, run.scaling)
            dst.add_leak(run_id, run.leak)
    except StoreError as e:
        if (there := dst.run_id_of(run.uid)) is not None:  # another writer stored it first: the unique index held
            _present(dst, there, copy, outcome)
            return
        if not isinstance(e, RecordRefused):
            raise e
        name = f"run {run.id} ({run.uid})" if run.id is not None else f"run {run.uid}"
        outcome.refused.append(f"{name}{source} not copied, the destination can never take it: {e}")
        return
    outcome.copied.append((run.uid, run_id))
    outcome.cells += len(copy.cells)


# --- result files --------------------------------------------------------------


def _bad(path: Path, why: str) -> UserError:
    return UserError(f"cannot import {str(path)!r}: {why}")


class _BadCell(ValueError):
    """A cell that is no cell: what it measured (provider, algorithm, operation, size) is unknowable."""


def _whole(x) -> int | None:
    """An integer, from a JSON number that is one (64 or 64.0); None for anything else (1e400, NaN, "64")."""
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x != int(x):
        return None
    return int(x)


def _figure(x):
    """A figure as a whole number when it is one; as it is otherwise, for figures.fit to refuse."""
    whole = _whole(0 if x is None else x)
    return x if whole is None else whole


def _cell(c, n: int) -> CellRecord:
    """Cell `n` of a result file. What identifies it must be right, or the file is refused; its
    figures are taken as they are and judged by figures.admit (a bad one fails the cell)."""
    if not isinstance(c, dict):
        raise _BadCell(f"cell {n} is not an object")
    for key in ("provider", "alg", "op", "status"):
        if not isinstance(c.get(key), str) or not c[key]:
            raise _BadCell(f"cell {n}: {key} {c.get(key)!r} is not a name")
    if c["status"] not in ("ok", "failed", "not-offered"):
        raise _BadCell(f"cell {n}: status {c['status']!r} is not ok, failed or not-offered")
    size, chunk = _whole(c.get("size")), _whole(c.get("chunk"))
    for key, value in (("size", size), ("chunk", chunk)):
        if value is None or not 0 <= value < 1 << 63:
            raise _BadCell(
                f"cell {n} ({c['provider']} {c['alg']} {c['op']}): {key} {c.get(key)!r} is not a number of bytes"
            )
    samples = c.get("samples_ns") or []
    return CellRecord(
        provider=c["provider"], alg=c["alg"], op=c["op"], size=size, chunk=chunk, status=c["status"],
        reason=str(c.get("reason", "")), batch=_figure(c.get("batch")),
        samples_ns=[_figure(x) for x in samples] if isinstance(samples, list) else samples,
        checksum=str(c.get("checksum", "")), checksums_seen=list(c.get("checksums_seen") or []),
        peak_rss_kb=_figure(c.get("peak_rss_kb")), rounds=_figure(c.get("rounds")), started=str(c.get("started") or ""),
        finished=str(c.get("finished") or ""), extra=dict(c.get("extra") or {}),
    )  # fmt: skip


def _phase(doc: dict, name: str) -> list[dict]:
    """A result file's `scaling` or `leak` section (schema 13): a list of objects."""
    records = doc[name]
    if not isinstance(records, list) or not all(isinstance(x, dict) for x in records):
        raise ValueError(f"its {name!r} is not a list of objects")
    return records


def from_result_file(path: Path) -> RunCopy:
    """A run from a `cryptobench-result` JSON file; anything else is one line saying why not."""
    if kind := not_a_file(path):
        raise _bad(path, f"it is {kind}, not a result file")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise _bad(path, e.strerror or str(e)) from None
    except (ValueError, UnicodeDecodeError) as e:
        raise _bad(path, f"not JSON ({str(e).splitlines()[0]})") from None
    if not isinstance(doc, dict) or doc.get("schema") != "cryptobench-result":
        raise _bad(path, "not a cryptobench result file (its 'schema' is not 'cryptobench-result')")
    try:
        r = doc["run"]
        env, phases = phases_out_of_env(dict(doc.get("environment") or {}))  # schema 12 and before: inside it
        run = RunRecord(
            id=None, started=str(r["started"]), suite=str(r["suite"]), settings=dict(r.get("settings") or {}),
            env=env, status=str(r.get("status") or "complete"),
            finished=r.get("finished"), label=str(r.get("label") or ""), providers=dict(doc.get("providers") or {}),
            uid=str(r.get("uid") or ""), job=r.get("job"), **{**phases, **{p: _phase(doc, p) for p in PHASES if p in doc}},
        )  # fmt: skip
        verifs = [
            VerifyRecord(v["provider"], v["alg"], v["status"], int(v.get("passed", 0)), int(v.get("failed", 0)),
                         int(v.get("skipped", 0)), str(v.get("detail", "")), dict(v.get("conformance") or {}))
            for v in doc.get("verification") or []
        ]  # fmt: skip
        cells = [_cell(c, n) for n, c in enumerate(doc.get("cells") or [], 1)]
        crosschecks = [
            CrossRecord(x["alg"], x["producer"], x["consumer"], x["check"], bool(x["passed"]), str(x.get("detail", "")))
            for x in doc.get("crosschecks") or []
        ]
    except _BadCell as e:
        raise _bad(path, f"damaged or incomplete result ({e})") from None
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as e:
        raise _bad(path, f"damaged or incomplete result ({type(e).__name__}: {e})") from None
    if not run.uid:  # a file from before result schema 6: an id from its content, the same every time
        digest = hashlib.sha256(json.dumps([r, doc.get("environment"), doc.get("cells")], sort_keys=True).encode())
        run.uid = digest.hexdigest()[:32]
    return RunCopy(run, verifs, cells, crosschecks)


def is_sqlite_file(path: Path) -> bool:
    if not_a_file(path):
        return False  # opening a FIFO to read its first bytes would wait for a writer forever
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False
