"""Copying runs between stores (`push`, `import`), exactly once.

A run's global id (runs.uid) travels with it: a store that already holds that id is left as it is,
so pushing or importing twice adds nothing, and two machines pushing at the same moment cannot
store one run twice (the unique index decides; the loser finds it there). A run is copied in one
transaction with all its cells and raw samples: it lands whole or not at all.

Sources: another store (SQLite file or PostgreSQL), or a result file written by `run --json` /
`show --format json` (docs/results-schema.md). A result file from before version 6 has no uid:
its uid is derived from its content, so importing that file twice still adds nothing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..crosscheck import CrossRecord
from ..errors import StoreError, UserError
from .model import CellRecord, RunRecord, VerifyRecord
from .sql import SQLITE_MAGIC


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

    def line(self, where: str) -> str:
        parts = [f"{len(self.copied)} run{'s' if len(self.copied) != 1 else ''} ({self.cells} cells) copied to {where}"]
        if self.present:
            parts.append(f"{len(self.present)} already there")
        return "; ".join(parts)


def from_store(store, run_id: int) -> RunCopy:
    run, verifs, cells = store.load_run(run_id)
    return RunCopy(run, verifs, cells, store.load_crosschecks(run_id))


def copy_into(dst, copy: RunCopy, outcome: Outcome) -> None:
    """Store `copy` in `dst` unless a run with its uid is there already."""
    run = copy.run
    if dst.run_id_of(run.uid) is not None:
        outcome.present.append(run.uid)
        return
    fresh = RunRecord(**{**run.__dict__, "id": None, "providers": {}})
    try:
        with dst.transaction():
            run_id = dst.create_run(fresh)
            for provider, hello in run.providers.items():
                dst.add_provider(run_id, provider, hello)
            for v in copy.verifications:
                dst.add_verification(run_id, v)
            dst.add_cells(run_id, copy.cells)
            dst.add_crosschecks(run_id, copy.crosschecks)
    except StoreError as e:
        if dst.run_id_of(run.uid) is not None:  # another writer stored it first: the unique index held
            outcome.present.append(run.uid)
            return
        raise e
    outcome.copied.append((run.uid, run_id))
    outcome.cells += len(copy.cells)


# --- result files --------------------------------------------------------------


def _bad(path: Path, why: str) -> UserError:
    return UserError(f"cannot import {str(path)!r}: {why}")


def from_result_file(path: Path) -> RunCopy:
    """A run from a `cryptobench-result` JSON file; anything else is one line saying why not."""
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
        run = RunRecord(
            id=None, started=str(r["started"]), suite=str(r["suite"]), settings=dict(r.get("settings") or {}),
            env=dict(doc.get("environment") or {}), status=str(r.get("status") or "complete"),
            finished=r.get("finished"), label=str(r.get("label") or ""), providers=dict(doc.get("providers") or {}),
            uid=str(r.get("uid") or ""), job=r.get("job"),
        )  # fmt: skip
        verifs = [
            VerifyRecord(v["provider"], v["alg"], v["status"], int(v.get("passed", 0)), int(v.get("failed", 0)),
                         int(v.get("skipped", 0)), str(v.get("detail", "")), dict(v.get("conformance") or {}))
            for v in doc.get("verification") or []
        ]  # fmt: skip
        cells = [
            CellRecord(
                provider=c["provider"], alg=c["alg"], op=c["op"], size=int(c["size"]), chunk=int(c["chunk"]),
                status=c["status"], reason=str(c.get("reason", "")), batch=int(c.get("batch", 0)),
                samples_ns=[float(x) if isinstance(x, float) else int(x) for x in c.get("samples_ns") or []],
                checksum=str(c.get("checksum", "")), checksums_seen=list(c.get("checksums_seen") or []),
                peak_rss_kb=int(c.get("peak_rss_kb") or 0), rounds=int(c.get("rounds") or 0),
                started=str(c.get("started") or ""), finished=str(c.get("finished") or ""),
                extra=dict(c.get("extra") or {}),
            )
            for c in doc.get("cells") or []
        ]  # fmt: skip
        crosschecks = [
            CrossRecord(x["alg"], x["producer"], x["consumer"], x["check"], bool(x["passed"]), str(x.get("detail", "")))
            for x in doc.get("crosschecks") or []
        ]
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise _bad(path, f"damaged or incomplete result ({type(e).__name__}: {e})") from None
    if not run.uid:  # a file from before result schema 6: an id from its content, the same every time
        digest = hashlib.sha256(json.dumps([r, doc.get("environment"), doc.get("cells")], sort_keys=True).encode())
        run.uid = digest.hexdigest()[:32]
    return RunCopy(run, verifs, cells, crosschecks)


def is_sqlite_file(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False
